// SPDX-License-Identifier: GPL-2.0
/*
 * bcast.c - the broadcast offload: the core's schedule (mf_plan), checked
 * once by mf_check() when built and cached per fabric by (algo, source),
 * executed step by step.  Every hop of every send is counted on its
 * directed link (per-link counters) and in a struct mf_linkacct, the same
 * per-step accounting the checker uses, so the statistics equal those of
 * `meshfabric plan`.  Each recipient gets a clone of one skb: the payload
 * is shared, never copied per recipient.
 *
 * Frames broadcast by nodes (ARP, IPv6 ND) are queued by ndo_start_xmit
 * and run here from a work item, in process context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include "mf.h"

struct mf_bcast_cb {
	u32 source;
};

/* One send per step from the source, along the fabric's routing. */
static int mf_bcast_fallback(struct mf_fabric *f, u32 source,
			     struct mf_sched *s)
{
	u32 dst;
	int err;

	mf_sched_free(s);
	mf_sched_init(s, MESHFABRIC_MODEL_ONE_PORT, source);
	for (dst = 0; dst < f->topo.nodes; dst++) {
		if (dst == source)
			continue;
		err = mf_sched_step(s);
		if (!err)
			err = mf_sched_send_route(s, &f->topo, f->routing,
						  source, dst);
		if (err)
			return err;
	}
	return mf_sched_end(s);
}

static void mf_cache_drop(struct mf_cached_sched *e)
{
	if (!e->valid)
		return;
	mf_sched_free(&e->sched);
	e->valid = false;
	mf_count_put();
}

static struct mf_cached_sched *mf_sched_get(struct mf_fabric *f, u32 algo,
					    u32 source, bool fallback)
{
	struct mf_cached_sched *e, *victim = &f->cache[0];
	const struct mf_algo *used = NULL;
	bool checked;
	char why[96];
	int err, i;

	lockdep_assert_held(&f->bcast_lock);
	for (i = 0; i < MF_SCHED_CACHE; i++) {
		e = &f->cache[i];
		if (e->valid && e->algo == algo && e->source == source) {
			e->stamp = ++f->clock;
			return e;
		}
		if (!e->valid || (victim->valid && e->stamp < victim->stamp))
			victim = e;
	}
	mf_cache_drop(victim);
	checked = algo == MESHFABRIC_ALGO_AUTO;
	if (checked)	/* auto checks every candidate, returns the stats */
		err = mf_plan_auto(&f->topo, 0, source, f->routing,
				   &victim->sched, &used, &victim->stats);
	else
		err = mf_plan(&f->topo, algo, source, f->routing,
			      &victim->sched, &used);
	if (err && fallback) {
		used = NULL;
		checked = false;
		err = mf_bcast_fallback(f, source, &victim->sched);
	}
	if (!err && !checked) {
		err = mf_check(&f->topo, &victim->sched, &victim->stats, why,
			       sizeof(why));
		if (err == -EINVAL) {
			pr_err_ratelimited("schedule of algorithm %u from %u rejected: %s\n",
					   algo, source, why);
			err = -EPROTO;
		}
	}
	if (err) {
		mf_sched_free(&victim->sched);
		return ERR_PTR(err);
	}
	mf_count_get();
	victim->valid = true;
	victim->algo = algo;
	victim->used = used ? used->id : MESHFABRIC_ALGO_AUTO;
	victim->source = source;
	victim->stamp = ++f->clock;
	return victim;
}

static int mf_acct_prepare(struct mf_fabric *f, u32 nsteps)
{
	struct mf_linkacct *a = &f->acct;
	int err;

	if (!a->stamp) {
		err = mf_linkacct_init(a, &f->topo);
		if (err)
			return err;
		mf_count_get();
	}
	if (a->cur >= U32_MAX - nsteps - 1) {	/* stamps would wrap */
		memset(a->stamp, 0, a->nlinks * sizeof(*a->stamp));
		a->cur = 0;
	}
	a->max_load = 0;
	a->contention = 0;
	return 0;
}

/* Deliver a clone of frame to node's netdev; true if it was accepted. */
static bool mf_deliver(struct mf_fabric *f, u32 node, struct sk_buff *frame)
{
	unsigned int len = frame->len;
	struct net_device *dev;
	struct sk_buff *skb;
	bool ok = false;

	skb = skb_clone(frame, GFP_KERNEL);
	if (!skb)
		return false;
	rcu_read_lock();
	dev = rcu_dereference(f->node[node].dev);
	if (!dev || !(dev->flags & IFF_UP)) {
		if (dev)
			dev_core_stats_rx_dropped_inc(dev);
		kfree_skb(skb);
		goto out;
	}
	/* dev_forward_skb() without its MTU check (payloads up to 64 KiB). */
	skb_scrub_packet(skb, !net_eq(dev_net(dev), dev_net(skb->dev)));
	skb->priority = 0;
	skb->protocol = eth_type_trans(skb, dev);
	skb_postpull_rcsum(skb, eth_hdr(skb), ETH_HLEN);
	/* process context: per-CPU stats need BH (and so migration) off */
	local_bh_disable();
	if (netif_rx(skb) == NET_RX_SUCCESS) {
		dev_sw_netstats_rx_add(dev, len);
		ok = true;
	}
	local_bh_enable();
out:
	rcu_read_unlock();
	return ok;
}

int mf_bcast_run(struct mf_fabric *f, u32 source, u32 algo,
		 struct sk_buff *frame, bool fallback,
		 struct mf_bcast_result *res)
{
	const struct mf_topo *t = &f->topo;
	const struct mf_send *send;
	struct mf_cached_sched *e;
	struct net_device *sdev;
	const struct mf_sched *s;
	u32 i, j, h, count;
	u64 t0, tcd = 0;
	int err, port;
	u64 link;

	if (source >= t->nodes)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	rcu_read_lock();
	sdev = rcu_dereference(f->node[source].dev);
	if (sdev)
		dev_hold(sdev);
	rcu_read_unlock();
	if (!sdev)
		return -ENETDOWN;

	mutex_lock(&f->bcast_lock);
	e = mf_sched_get(f, algo, source, fallback);
	if (IS_ERR(e)) {
		err = PTR_ERR(e);
		goto out_unlock;
	}
	s = &e->sched;
	err = mf_acct_prepare(f, s->nsteps);
	if (err)
		goto out_unlock;
	frame->dev = sdev;
	t0 = ktime_get_ns();
	for (i = 0; i < s->nsteps; i++) {
		mf_linkacct_step(&f->acct);
		send = mf_sched_sends(s, i, &count);
		for (j = 0; j < count; j++) {
			const u32 *p = &s->path[send[j].path];

			for (h = 0; h < send[j].hops; h++) {
				/* mf_check() proved p[h], p[h + 1] adjacent */
				port = mf_topo_port(t, p[h], p[h + 1]);
				link = mf_topo_link(t, p[h], port);
				mf_linkacct_hop(&f->acct, link);
				mf_link_count(f, link, frame->len);
			}
			tcd += send[j].hops;
			if (mf_deliver(f, send[j].dst, frame))
				res->delivered++;
		}
		cond_resched();
	}
	res->elapsed_ns = ktime_get_ns() - t0;
	res->algo = e->used;
	res->stats.steps = s->nsteps;
	res->stats.sends = s->nsends;
	res->stats.tcd = tcd;
	res->stats.max_link_load = f->acct.max_load;
	res->stats.contention = f->acct.contention;
	frame->dev = NULL;
out_unlock:
	mutex_unlock(&f->bcast_lock);
	dev_put(sdev);
	return err;
}

bool mf_bcast_queue(struct mf_fabric *f, u32 source, struct sk_buff *skb)
{
	struct mf_bcast_cb cb = { .source = source };

	if (skb_queue_len(&f->bcast_q) >= MF_BCAST_QLEN) {
		kfree_skb(skb);
		return false;
	}
	/* not orphaned: the sender's socket buffer bounds what it queues */
	memcpy(skb->cb, &cb, sizeof(cb));
	skb_queue_tail(&f->bcast_q, skb);
	schedule_work(&f->bcast_work);
	return true;
}

void mf_bcast_work(struct work_struct *work)
{
	struct mf_fabric *f = container_of(work, struct mf_fabric, bcast_work);
	struct mf_bcast_result res;
	struct mf_bcast_cb cb;
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&f->bcast_q))) {
		memcpy(&cb, skb->cb, sizeof(cb));
		if (mf_bcast_run(f, cb.source, MESHFABRIC_ALGO_AUTO, skb, true,
				 &res))
			kfree_skb(skb);
		else
			consume_skb(skb);
		cond_resched();
	}
}

/* Called when the last reference to f is gone. */
void mf_bcast_free(struct mf_fabric *f)
{
	int i;

	for (i = 0; i < MF_SCHED_CACHE; i++)
		mf_cache_drop(&f->cache[i]);
	if (f->acct.stamp) {
		mf_linkacct_free(&f->acct);
		mf_count_put();
	}
}
