// SPDX-License-Identifier: GPL-2.0
/*
 * bcast.c - broadcasts: the offload (BCAST ioctl) and frames broadcast by
 * nodes.
 *
 * The offload runs the core's schedule (mf_plan_for: built and
 * checked once), cached per fabric by (algo, source), step by step.
 * With links down the schedule repaired around them (and checked against
 * them) is cached the same way, keyed also by the fault set's generation
 * (mf_fstate.gen, new at every LINK_SET that changes a link's state):
 * the next BCAST on the same faults reuses it, a change makes it stale
 * (dropped at once if bcast_lock is free, else by the next lookup).  Its
 * bytes are charged to the owner's account like a SCHED_LOAD's; when the
 * account is full the repair runs uncached.  Planning and repair yield
 * the CPU between bounded pieces of work and end on a fatal signal.
 * Every hop of every send is counted on its directed link and in a
 * struct mf_linkacct, the same per-step accounting the checker uses, so
 * the statistics equal those of `meshfabric plan`.  Each recipient gets a
 * clone of one skb: the payload is shared, never copied per recipient.
 *
 * On a fabric with timed links, auto ranks its candidates by their
 * completion on these links (mf_plan_for with the links' model; not
 * cached), and the
 * schedule first runs in fabric time
 * (the core's mf_sched_time(), on the links' parameters, after what is
 * already reserved on them), each send that survives its links' loss
 * draws informs its destination, and the call delivers to each informed
 * node at its arrival time, sleeping in between (killable).
 *
 * On a fabric split over hosts (tunnel.c) every host builds the same
 * schedule (the module's algorithms are deterministic) and runs the sends
 * of the nodes it informed: a send whose path reaches a node of another
 * part is counted up to the cut and handed to that part's host, whose
 * work (mf_bcast_resume) finishes it and runs the sends of its subtree.
 *
 * A schedule chosen in userspace (SCHED_LOAD) is decoded by the core's
 * schedcode.c, checked by mf_check() like every schedule built here, and
 * kept per source in user[]; BCAST with MESHFABRIC_ALGO_USER runs it.
 *
 * Frames broadcast by nodes (ARP, IPv6 ND, UDP broadcasts) are queued by
 * ndo_start_xmit (struct mf_bcastq: bounded in bytes, in all and per
 * sender) and flooded from the module's own workqueue, a bounded amount
 * of work per run.  No schedule is built or searched for them: the flood
 * follows a tree of the fabric, built breadth-first when what it crosses
 * changes (node states, links down) and pruned to the present nodes, so
 * a frame costs the links it crosses and its deliveries, and absent
 * nodes relay it as they relay unicast.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sort.h>
#include <linux/uio.h>
#include <net/sock.h>
#include "mf.h"
#include "trace.h"

/* Unbound: a flood's deliveries (and the softirq work of the netif_rx
 * they cause) go to whichever CPU is free, not to the sender's CPU.
 */
static struct workqueue_struct *mf_wq;

struct mf_bcast_cb {
	u32 size;	/* truesize charged to the queue */
	/* a BCAST's send from another host (else a node broadcast, from
	 * pos.source): where it is, and the part that sent it
	 */
	u8 sched;
	u8 part;
	struct mf_sched_pos pos;
	/* timed (pos.flags): CLOCK_MONOTONIC ns of the broadcast's start
	 * here (the datagram's arrival less the fabric time it left at),
	 * and the fabric time the send reaches its destination
	 */
	u64 base;
	u64 arrive;
};

static_assert(sizeof(struct mf_bcast_cb) <= sizeof_field(struct sk_buff, cb));

/* Drop e; what it had on the owner's account goes back (acct.c's lock is
 * innermost: fine under bcast_lock).
 */
static void mf_cache_drop(struct mf_fabric *f, struct mf_cached_sched *e)
{
	if (!e->valid)
		return;
	mf_sched_free(&e->sched);
	e->valid = false;
	if (e->charged)
		mf_fabric_charge(f, -(s64)e->charged);
	e->charged = 0;
	mf_count_put();
}

/* The entry of cache[] for (algo, source, fgen), its LRU stamp renewed,
 * or NULL and *victim the entry to replace (a free one, else the least
 * recently used).
 */
static struct mf_cached_sched *mf_cache_find(struct mf_fabric *f, u32 algo,
					     u32 source, u64 fgen,
					     struct mf_cached_sched **victim)
{
	struct mf_cached_sched *e;
	int i;

	lockdep_assert_held(&f->bcast_lock);
	*victim = &f->cache[0];
	for (i = 0; i < MF_SCHED_CACHE; i++) {
		e = &f->cache[i];
		if (e->valid && e->algo == algo && e->source == source &&
		    e->fgen == fgen) {
			e->stamp = ++f->clock;
			return e;
		}
		if (!e->valid ||
		    ((*victim)->valid && e->stamp < (*victim)->stamp))
			*victim = e;
	}
	return NULL;
}

/* Drop the repaired schedules of cache[] that are not of generation fgen
 * (0: every one; U64_MAX: keep every generation), and source's USER ones
 * (a SCHED_LOAD replaced what they were repaired from; U32_MAX: none).
 */
static void mf_cache_drop_faulted(struct mf_fabric *f, u64 fgen, u32 source)
{
	struct mf_cached_sched *e;
	int i;

	lockdep_assert_held(&f->bcast_lock);
	for (i = 0; i < MF_SCHED_CACHE; i++) {
		e = &f->cache[i];
		if (e->valid && e->fgen &&
		    ((fgen != U64_MAX && e->fgen != fgen) ||
		     (e->algo == MESHFABRIC_ALGO_USER && e->source == source)))
			mf_cache_drop(f, e);
	}
}

/* LINK_SET changed the fault set: its stale repaired schedules go now,
 * unless a BCAST holds bcast_lock (that one, or the next, drops them at
 * its lookup).  Called with no lock held.
 */
void mf_bcast_faults_changed(struct mf_fabric *f)
{
	struct mf_fstate *fs;
	u64 gen;

	if (!mutex_trylock(&f->bcast_lock))
		return;
	rcu_read_lock();
	fs = rcu_dereference(f->fstate);
	gen = fs ? fs->gen : 0;
	rcu_read_unlock();
	mf_cache_drop_faulted(f, gen, U32_MAX);
	mutex_unlock(&f->bcast_lock);
}

static struct mf_cached_sched *mf_sched_get(struct mf_fabric *f, u32 algo,
					    u32 source)
{
	struct mf_plan_req rq = { .id = algo, .source = source,
				  .routing = f->routing };
	struct mf_cached_sched *e, *victim;
	struct mf_fault_plan res;
	struct mf_sched sched = {};
	int err;

	e = mf_cache_find(f, algo, source, 0, &victim);
	if (e)
		return e;
	/* planned aside, the victim evicted only for a schedule: an
	 * algorithm this topology (or the module) lacks evicts nothing
	 */
	err = mf_plan_for(&f->topo, &rq, &sched, &res);
	if (err == -EPROTO)
		pr_err_ratelimited("schedule of algorithm %u from %u rejected: %s\n",
				   algo, source, res.plan.why);
	if (err) {
		mf_sched_free(&sched);
		return ERR_PTR(err);
	}
	mf_cache_drop(f, victim);
	f->plans++;
	victim->sched = sched;
	mf_count_get();
	victim->valid = true;
	victim->algo = algo;
	victim->used = res.used->id;
	victim->stats = res.stats;
	victim->source = source;
	victim->fgen = 0;
	victim->stamp = ++f->clock;
	return victim;
}

/* The schedule loaded for source (SCHED_LOAD), or NULL. */
static struct mf_cached_sched *mf_user_find(struct mf_fabric *f, u32 source)
{
	int i;

	lockdep_assert_held(&f->bcast_lock);
	for (i = 0; i < MESHFABRIC_USER_SCHEDS; i++)
		if (f->user[i].valid && f->user[i].source == source)
			return &f->user[i];
	return NULL;
}

int mf_bcast_user_load(struct mf_fabric *f, u32 model, u32 source,
		       u32 nsteps, u32 nsends, const u8 *code, size_t len,
		       struct mf_stats *st, char *why, size_t whylen)
{
	struct mf_cached_sched *e;
	struct mf_sched s;
	size_t bytes;
	int err, i;

	/* decoded, checked and charged to the owner before taking the
	 * lock: a long timed BCAST holds it
	 */
	err = mf_sched_decode(&f->topo, model, source, nsteps, nsends, code,
			      len, &s, why, whylen);
	if (!err)
		err = mf_check(&f->topo, &s, st, why, whylen);
	bytes = mf_sched_bytes(&s);
	if (!err)
		err = mf_fabric_charge(f, bytes);
	if (err) {
		mf_sched_free(&s);
		return err;
	}
	if (mutex_lock_killable(&f->bcast_lock)) {
		mf_sched_free(&s);
		mf_fabric_charge(f, -(s64)bytes);
		return -EINTR;
	}
	e = mf_user_find(f, source);
	for (i = 0; !e && i < MESHFABRIC_USER_SCHEDS; i++)
		if (!f->user[i].valid)
			e = &f->user[i];
	if (!e) {		/* all taken: the one loaded longest ago */
		e = &f->user[0];
		for (i = 1; i < MESHFABRIC_USER_SCHEDS; i++)
			if (f->user[i].stamp < e->stamp)
				e = &f->user[i];
	}
	mf_cache_drop(f, e);	/* and its charge */
	mf_cache_drop_faulted(f, U64_MAX, source);	/* repaired from it */
	mf_count_get();
	e->sched = s;		/* taken over */
	e->valid = true;
	e->algo = MESHFABRIC_ALGO_USER;
	e->used = MESHFABRIC_ALGO_USER;
	e->stats = *st;
	e->source = source;
	e->charged = bytes;
	e->fgen = 0;
	e->stamp = ++f->clock;
	mutex_unlock(&f->bcast_lock);
	return 0;
}

int mf_bcast_user_unload(struct mf_fabric *f, u32 source)
{
	struct mf_cached_sched *e;

	if (mutex_lock_killable(&f->bcast_lock))
		return -EINTR;
	e = mf_user_find(f, source);
	if (e) {
		mf_cache_drop(f, e);
		mf_cache_drop_faulted(f, U64_MAX, source);
	}
	mutex_unlock(&f->bcast_lock);
	return e ? 0 : -ENOENT;
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

/* Deliver a clone of frame to node's netdev; true if it was accepted.
 * A node without a running netdev, or (MF_DELIVER_MTU) whose MTU is
 * below the frame's payload, gets nothing, and no clone is made for it.
 * Frames sent by nodes honour the MTU, as unicast does; the offload
 * (BCAST) delivers payloads up to MESHFABRIC_MAX_PAYLOAD whatever the
 * MTU: it injects test traffic, it does not emulate a sender.
 */
bool mf_deliver(struct mf_fabric *f, u32 node, struct sk_buff *frame,
		unsigned int flags)
{
	unsigned int len = frame->len;
	struct net_device *dev;
	struct sk_buff *skb;
	bool ok = false;

	rcu_read_lock();
	dev = rcu_dereference(f->node[node].dev);
	if (!dev)
		goto out;
	if (!(dev->flags & IFF_UP) ||
	    ((flags & MF_DELIVER_MTU) && !skb_is_gso(frame) &&
	     len > dev->mtu + ETH_HLEN)) {
		trace_meshfabric_drop(f->id, node, len, dev->flags & IFF_UP ?
				      MF_DROP_MTU : MF_DROP_NODE_GONE);
		dev_core_stats_rx_dropped_inc(dev);
		goto out;
	}
	skb = skb_clone(frame, GFP_ATOMIC | __GFP_NOWARN);
	if (!skb) {
		dev_core_stats_rx_dropped_inc(dev);
		goto out;
	}
	/* dev_forward_skb() without its MTU check (done above if asked);
	 * no sender netdev (a timed BCAST let it go): crossing namespaces
	 */
	skb_scrub_packet(skb, !skb->dev ||
			 !net_eq(dev_net(dev), dev_net(skb->dev)));
	skb->priority = 0;
	skb->protocol = eth_type_trans(skb, dev);
	skb_postpull_rcsum(skb, eth_hdr(skb), ETH_HLEN);
	/* Process context (the ioctl, the flood's work, never a softirq):
	 * the receive path runs here, with BH off as in a NAPI poll (and as
	 * tun does), not through the CPU's backlog queue and a softirq per
	 * frame; per-CPU stats need BH (and so migration) off too.  The
	 * netdev has accepted the frame whatever its protocols do with it
	 * (netif_receive_skb's NET_RX_DROP: no listener, a full socket), as
	 * netif_rx's queue would have.
	 */
	local_bh_disable();
	dev_sw_netstats_rx_add(dev, len);
	netif_receive_skb(skb);
	local_bh_enable();
	ok = true;
out:
	rcu_read_unlock();
	return ok;
}

void mf_deliver_rx(struct mf_fabric *f, u32 node, struct net_device *dev,
		   struct sk_buff *skb)
{
	unsigned int len = skb->len;

	if (!(dev->flags & IFF_UP)) {
		trace_meshfabric_drop(f->id, node, len, MF_DROP_NODE_GONE);
		dev_core_stats_rx_dropped_inc(dev);
		kfree_skb(skb);
		return;
	}
	skb_scrub_packet(skb, true);
	skb->priority = 0;
	skb->protocol = eth_type_trans(skb, dev);
	skb_postpull_rcsum(skb, eth_hdr(skb), ETH_HLEN);
	dev_sw_netstats_rx_add(dev, len);
	netif_rx(skb);
}

struct sk_buff *mf_bcast_frame(struct mf_fabric *f,
			       const struct meshfabric_bcast *b)
{
	struct iov_iter iter;
	struct sk_buff *skb;
	struct ethhdr *eth;
	int err;

	skb = alloc_skb_with_frags(ETH_HLEN, b->len, 0, &err,
				   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!skb)
		return ERR_PTR(err);
	eth = skb_put(skb, ETH_HLEN);
	skb->data_len = b->len;
	skb->len += b->len;
	eth_broadcast_addr(eth->h_dest);
	mf_node_mac(f, b->source, eth->h_source);
	eth->h_proto = htons(b->ethertype);
	if (!b->len)
		return skb;
	/* one copy: from the caller straight into the frame's pages */
	err = import_ubuf(ITER_SOURCE, u64_to_user_ptr(b->payload_ptr),
			  b->len, &iter);
	if (!err)
		err = skb_copy_datagram_from_iter(skb, ETH_HLEN, &iter, b->len);
	if (err) {
		kfree_skb(skb);
		return ERR_PTR(err);
	}
	return skb;
}

/* The schedule s in fabric time (timing.h) on f's links as they are now:
 * after the frames already reserved on them, whose slots the broadcast's
 * sends then take too.  t0: the start, CLOCK_MONOTONIC ns.
 */
static void mf_bcast_timing(struct mf_fabric *f, u32 flags, u64 bytes,
			    struct mf_timing *tm)
{
	/* the whole struct: fields it does not name (blk_bytes, for
	 * collectives) are zero, never the stack's stale contents
	 */
	*tm = (struct mf_timing){
		.switching = READ_ONCE(f->links.switching),
		.async = flags & MESHFABRIC_BCAST_ASYNC,
		.bytes = bytes,
		.get = mf_link_model,
		.ctx = f,
	};
}

static int mf_bcast_time(struct mf_fabric *f, const struct mf_sched *s,
			 u32 flags, u64 bytes, u64 t0, struct mf_timeline *tl)
{
	struct mf_timing tm;

	mf_bcast_timing(f, flags, bytes, &tm);
	return mf_sched_reserve_timed(f, s, &tm, t0, tl);
}

int mf_sched_reserve_timed(struct mf_fabric *f, const struct mf_sched *s,
			   const struct mf_timing *tm, u64 t0,
			   struct mf_timeline *tl)
{
	u64 *free, l, busy, end;
	int err;

	lockdep_assert_held(&f->bcast_lock);
	err = mf_timeline_alloc(tl, &f->topo, s);
	if (err)
		return err;
	free = mf_alloc_array(f->links.n, sizeof(*free), false);
	if (!free) {
		mf_timeline_free(tl);
		return -ENOMEM;
	}
	for (l = 0; l < f->links.n; l++) {
		busy = atomic64_read(&f->links.st[l].busy);
		free[l] = busy > t0 ? busy - t0 : 0;
	}
	err = mf_sched_time(&f->topo, s, tm, free, tl);
	/* bounded time: no sleep, reservation or pinned frame beyond it */
	if (!err && tl->total_ns > MESHFABRIC_HORIZON_NS)
		err = -E2BIG;
	for (l = 0; !err && l < f->links.n; l++) {
		if (!free[l])
			continue;
		end = t0 + free[l];
		busy = atomic64_read(&f->links.st[l].busy);
		while (busy < end &&
		       !atomic64_try_cmpxchg(&f->links.st[l].busy, &busy, end))
			;
		if (!(l & 4095))
			cond_resched();
	}
	mf_free(free);
	if (err)
		mf_timeline_free(tl);
	return err;
}

struct mf_arrival {
	u64 t;
	u32 node;
};

static int mf_arrival_cmp(const void *a, const void *b)
{
	const struct mf_arrival *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Sleep until CLOCK_MONOTONIC reaches when: 0, or -EINTR on a fatal
 * signal, -ENOENT if f was destroyed meanwhile.
 */
int mf_wait_until(struct mf_fabric *f, u64 when)
{
	ktime_t t;
	u64 now;

	while ((now = ktime_get_ns()) < when) {
		/* 100 ms at most, so a destroyed fabric is noticed */
		t = ns_to_ktime(min(when, now + 100 * NSEC_PER_MSEC));
		set_current_state(TASK_KILLABLE);
		schedule_hrtimeout_range(&t, 0, HRTIMER_MODE_ABS);
		if (fatal_signal_pending(current))
			return -EINTR;
		if (READ_ONCE(f->dead))
			return -ENOENT;
	}
	return 0;
}

/* Deliver frame to the nodes of got (all but the source) at their
 * arrival times: in time order, sleeping in between.
 */
static int mf_bcast_deliver_timed(struct mf_fabric *f, u32 source,
				  const unsigned long *got,
				  const struct mf_timeline *tl, u64 t0,
				  struct sk_buff *frame, u32 *delivered)
{
	struct mf_arrival *a;
	u32 v, n = 0, i;
	int err = 0;

	a = mf_alloc_array(f->topo.nodes, sizeof(*a), false);
	if (!a)
		return -ENOMEM;
	for_each_set_bit(v, got, f->topo.nodes)
		if (v != source)
			a[n++] = (struct mf_arrival){ tl->arrive[v], v };
	sort(a, n, sizeof(*a), mf_arrival_cmp, NULL);
	for (i = 0; i < n && !err; i++) {
		err = mf_wait_until(f, t0 + a[i].t);
		if (!err && mf_deliver(f, a[i].node, frame, 0))
			(*delivered)++;
		if (!(i & 255))
			cond_resched();
	}
	mf_free(a);
	return err;
}

/* The plan's scheduling point (struct mf_froute_ctl, core/algo.h):
 * planning, repair and check yield the CPU between bounded pieces of work,
 * and a fatal signal ends them (nothing is cached).
 */
static int mf_plan_yield(void *arg)
{
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

static const struct mf_froute_ctl mf_plan_ctl = { .yield = mf_plan_yield };

/* What BCAST runs with links down. */
struct mf_fsched {
	const struct mf_sched *s;	/* cached, or own */
	struct mf_sched own;		/* uncached: the caller frees it */
	u32 used;
	u32 unreachable;
};

/* With links down: the schedule of algo from source (USER: the one
 * loaded) repaired around them (the core's mf_plan_for, checked again
 * against them) into *out: from cache[] when this fault set's generation
 * has it, else planned and kept there (charged to the owner; own if the
 * account is full).  -ENOENT if no link is down (use the fault-free
 * cache).  Takes f->lock (order: bcast_lock -> lock) to read the fault
 * state and plan around it.
 */
static int mf_sched_faults(struct mf_fabric *f, u32 algo, u32 source,
			   struct mf_fsched *out)
{
	struct mf_plan_req rq = { .id = algo, .source = source,
				  .routing = f->routing, .ctl = &mf_plan_ctl };
	struct mf_cached_sched *user = NULL, *e, *victim;
	struct mf_fault_plan fp;
	struct mf_fstate *fs;
	size_t bytes;
	u64 gen;
	int err;

	lockdep_assert_held(&f->bcast_lock);
	if (algo == MESHFABRIC_ALGO_USER) {
		user = mf_user_find(f, source);
		if (!user)
			return -ENOENT;
		rq.given = &user->sched;
	}
	/* killable: a LINK_SET may hold f->lock for a long (preemptible)
	 * fault-routing build
	 */
	if (mutex_lock_killable(&f->lock))
		return -EINTR;
	fs = rcu_dereference_protected(f->fstate, lockdep_is_held(&f->lock));
	gen = fs ? fs->gen : 0;
	/* stale generations first: their memory and charge go back */
	mf_cache_drop_faulted(f, gen, U32_MAX);
	if (!fs) {
		mutex_unlock(&f->lock);
		return -ENOENT;
	}
	e = mf_cache_find(f, algo, source, gen, &victim);
	if (e) {
		mutex_unlock(&f->lock);
		out->s = &e->sched;
		out->used = e->used;
		out->unreachable = e->stats.unreachable;
		return 0;
	}
	/* the repair searches once per step over nodes and ports: a user's
	 * schedule may have many steps (bounded work per call)
	 */
	if (user && (u64)user->sched.nsteps * f->topo.nodes *
		    f->topo.nports > MESHFABRIC_REPAIR_WORK) {
		mutex_unlock(&f->lock);
		return -E2BIG;
	}
	rq.faults = &fs->faults;
	rq.route = &fs->route;	/* built at LINK_SET */
	err = mf_plan_for(&f->topo, &rq, &out->own, &fp);
	mutex_unlock(&f->lock);
	if (err == -EPROTO)
		pr_err_ratelimited("schedule of algorithm %u from %u around faults rejected\n",
				   algo, source);
	if (err)
		return err;
	out->s = &out->own;
	out->used = fp.used ? fp.used->id : algo;
	out->unreachable = fp.stats.unreachable;
	/* kept for the next BCAST on these faults, on the owner's account
	 * (a full account: run once, uncached)
	 */
	bytes = mf_sched_bytes(&out->own);
	if (mf_fabric_charge(f, bytes))
		return 0;
	mf_cache_drop(f, victim);
	mf_count_get();
	victim->sched = out->own;	/* taken over */
	mf_sched_init(&out->own, 0, source);
	victim->valid = true;
	victim->algo = algo;
	victim->used = out->used;
	victim->stats = fp.stats;
	victim->source = source;
	victim->fgen = gen;
	victim->charged = bytes;
	victim->stamp = ++f->clock;
	out->s = &victim->sched;
	return 0;
}

/* The schedule of (algo, source) as BCAST runs it, into *out: around
 * the links down (mf_sched_faults), else the one loaded (USER) or built
 * (cache[]).  timed_auto: none of the latter two, -ENOENT instead (the
 * caller ranks by the links' model).
 */
static int mf_sched_lookup(struct mf_fabric *f, u32 algo, u32 source,
			   bool timed_auto, struct mf_fsched *out)
{
	struct mf_cached_sched *e;
	int err = -ENOENT;

	if (rcu_access_pointer(f->fstate))
		err = mf_sched_faults(f, algo, source, out);
	else
		/* no link down (f->lock not needed: a fault-free BCAST never
		 * waits for a LINK_SET's build): repaired schedules are stale
		 */
		mf_cache_drop_faulted(f, 0, U32_MAX);
	if (err != -ENOENT || timed_auto)
		return err;
	if (algo == MESHFABRIC_ALGO_USER) {
		e = mf_user_find(f, source);
		if (!e)
			return -ENOENT;
	} else {
		e = mf_sched_get(f, algo, source);
		if (IS_ERR(e))
			return PTR_ERR(e);
	}
	out->s = &e->sched;
	out->used = e->used;
	return 0;
}

/* One BCAST's walk of its sends (mf_bcast_send) on this host. */
struct mf_bwalk {
	const struct mf_sched *s;
	u32 algo;		/* the other hosts' key: as asked (AUTO too),
				 * timed: the algorithm AUTO chose here
				 */
	u32 source;
	struct sk_buff *frame;
	bool acct;		/* every hop into f->acct: the call's stats */
	bool timed;		/* loss draws */
	/* timed across hosts: the crossings' fabric times */
	u8 pflags;		/* MF_POS_* of the sends that cross */
	const struct mf_timeline *tl;	/* this host's model */
	u64 base;		/* the start, CLOCK_MONOTONIC ns */
	s64 shift;		/* the model's times here less the sender's */
	u32 crossed;		/* sends handed to other hosts */
};

/* Fabric time t of this host's model (tl) shifted into the sender's
 * (the send that brought the broadcast here arrives when it said)
 */
static u64 mf_bwalk_time(const struct mf_bwalk *w, u64 t)
{
	s64 v = (s64)t - w->shift;

	return v < 0 ? 0 : min_t(u64, v, MESHFABRIC_HORIZON_NS);
}

/* Send j of step i, sent (else only accounted) from hop h0 of its path,
 * a node of this host: each link counted, until a lossy timed link ends
 * it, it reaches its destination (true), or a node of another part: the
 * cut link counted here, as unicast does (forward.c), then the frame is
 * handed to that node's host with where it is.
 */
static bool mf_bcast_send(struct mf_fabric *f, struct mf_bwalk *w, u32 i,
			  u32 j, u32 h0, bool sent)
{
	const struct mf_topo *t = &f->topo;
	const struct mf_send *sd;
	struct mf_sched_pos pos;
	u32 h, count, cut = U32_MAX;
	struct mf_xtime xt;
	const u32 *p;
	int port;
	u64 link;

	sd = &mf_sched_sends(w->s, i, &count)[j];
	p = &w->s->path[sd->path];
	local_bh_disable();	/* this CPU's counters */
	for (h = h0; h < sd->hops; h++) {
		/* mf_check() proved p[h], p[h + 1] adjacent */
		port = mf_topo_port(t, p[h], p[h + 1]);
		link = mf_topo_link(t, p[h], port);
		if (w->acct)
			mf_linkacct_hop(&f->acct, link);
		/* past the cut, the other host draws its links' losses */
		if (sent && cut == U32_MAX && w->timed &&
		    mf_link_loses(f, link))
			sent = false;
		if (sent && cut == U32_MAX) {
			mf_link_count(f, link, 1, w->frame->len);
			if (mf_node_remote(f, p[h + 1]))
				cut = h + 1;
		}
	}
	local_bh_enable();
	if (!sent || cut == U32_MAX)
		return sent;
	pos = (struct mf_sched_pos){
		.algo = w->algo,
		.source = w->source,
		.step = i,
		.send = j,
		.hop = cut,
		.node = p[cut],
		.port = mf_topo_port(t, p[cut], p[cut - 1]),
		.flags = w->pflags,
	};
	if (w->tl) {
		xt.arrive = mf_bwalk_time(w, w->tl->arrive[sd->dst]);
		xt.sent = min(ktime_get_ns() - w->base, xt.arrive);
	}
	if (mf_tunnel_sched(f, &pos, w->tl ? &xt : NULL, w->frame))
		w->crossed++;
	return false;
}

int mf_bcast_run(struct mf_fabric *f, u32 source, u32 algo, u32 flags,
		 struct sk_buff *frame, struct mf_bcast_result *res)
{
	bool timed = READ_ONCE(f->links.timed), sent, locked = true;
	bool split = READ_ONCE(f->part);
	const struct mf_topo *t = &f->topo;
	struct mf_timeline tl = { 0 };
	unsigned long *got = NULL;
	const struct mf_send *send;
	struct mf_fault_plan fp;
	struct mf_fsched fsc = { 0 };
	struct mf_timing tm;
	struct net_device *sdev = NULL;
	const struct mf_sched *s;
	struct mf_sched *fsched = &fsc.own;
	struct mf_bwalk w = { .algo = algo, .source = source, .frame = frame,
			      .acct = true, .timed = timed };
	u32 i, j, count, used;
	u64 t0, tcd = 0;
	int err;

	if (source >= t->nodes)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	/* split over hosts: the schedule every host builds alike
	 * (docs/multihost.md), from a node here
	 */
	if (mf_node_remote(f, source))
		return -EREMOTE;
	if (split && algo == MESHFABRIC_ALGO_USER)
		return -EOPNOTSUPP;
	/* a broadcast reaches every node, so some send crosses: refused
	 * here rather than lost as a datagram too long for IP
	 */
	if (split) {
		err = mf_tunnel_sched_fits(f, frame->len, timed);
		if (err)
			return err;
	}
	if (!rcu_access_pointer(f->node[source].dev))
		return -ENETDOWN;

	mf_sched_init(fsched, 0, source);
	/* killable: waits for another BCAST's planning and sends (CPU work
	 * with scheduling points; no holder sleeps, see below)
	 */
	if (mutex_lock_killable(&f->bcast_lock))
		return -EINTR;
	err = mf_sched_lookup(f, algo, source,
			      timed && algo == MESHFABRIC_ALGO_AUTO, &fsc);
	if (err == -ENOENT && timed && algo == MESHFABRIC_ALGO_AUTO) {
		/* auto ranks by completion on these links: not cached, the
		 * links and the frame's size decide
		 */
		struct mf_plan_req rq = { .id = algo, .source = source,
					  .routing = f->routing, .tm = &tm };

		mf_bcast_timing(f, flags, frame->len, &tm);
		err = mf_plan_for(t, &rq, fsched, &fp);
		if (err)
			goto out_unlock;
		s = fsched;
		used = fp.used->id;
		/* the other hosts build what this host's model chose */
		w.algo = used;
	} else if (!err) {
		s = fsc.s;
		used = fsc.used;
		res->unreachable = fsc.unreachable;
	} else {
		goto out_unlock;
	}
	w.s = s;
	/* the source's netdev held only now: planning may take long, and
	 * its namespace's teardown waits for the reference
	 */
	rcu_read_lock();
	sdev = rcu_dereference(f->node[source].dev);
	if (sdev)
		dev_hold(sdev);
	rcu_read_unlock();
	err = sdev ? mf_acct_prepare(f, s->nsteps) : -ENETDOWN;
	if (err)
		goto out_unlock;
	frame->dev = sdev;
	t0 = ktime_get_ns();
	/* the nodes informed: timed, those a lossy link did not cut off;
	 * split, this host's part of the schedule
	 */
	if (timed || split) {
		got = mf_alloc_array(BITS_TO_LONGS(t->nodes), sizeof(long),
				     true);
		err = got ? 0 : -ENOMEM;
		if (!err && timed)
			err = mf_bcast_time(f, s, flags, frame->len, t0, &tl);
		if (err) {
			frame->dev = NULL;
			goto out_unlock;
		}
		__set_bit(source, got);
	}
	if (timed && split) {
		w.tl = &tl;
		w.base = t0;
		w.pflags = MF_POS_TIMED |
			   (flags & MESHFABRIC_BCAST_ASYNC ? MF_POS_ASYNC : 0);
	}
	for (i = 0; i < s->nsteps; i++) {
		mf_linkacct_step(&f->acct);
		send = mf_sched_sends(s, i, &count);
		for (j = 0; j < count; j++) {
			/* a node that did not get the frame (timed: a lossy
			 * link; split: another host informs it) sends nothing
			 */
			sent = !got || test_bit(send[j].src, got);
			sent = mf_bcast_send(f, &w, i, j, 0, sent);
			if (!(j & 255))
				cond_resched();
			tcd += send[j].hops;
			if (sent && got)
				__set_bit(send[j].dst, got);
			if (sent && !timed &&
			    mf_deliver(f, send[j].dst, frame, 0))
				res->delivered++;
		}
		trace_meshfabric_bcast_step(f->id, i, count,
					    ktime_get_ns() - t0,
					    timed ? tl.step_ns[i] : 0);
		cond_resched();
	}
	res->algo = used;
	res->stats.steps = s->nsteps;
	res->stats.sends = s->nsends;
	res->stats.tcd = tcd;
	res->stats.max_link_load = f->acct.max_load;
	res->stats.contention = f->acct.contention;
	res->crossed = w.crossed;
	frame->dev = NULL;
	if (timed) {
		/* The sleeps (up to MESHFABRIC_HORIZON_NS) hold no lock: the
		 * sends are reserved on the links and the arrivals are this
		 * call's (got, tl), so the next BCAST may plan meanwhile
		 * instead of waiting out this one's fabric time.  No reference
		 * on the source's netdev while sleeping either: its namespace
		 * may go meanwhile (deliveries then scrub as crossing
		 * namespaces).
		 */
		mutex_unlock(&f->bcast_lock);
		locked = false;
		dev_put(sdev);
		sdev = NULL;
		err = mf_bcast_deliver_timed(f, source, got, &tl, t0, frame,
					     &res->delivered);
	}
	res->elapsed_ns = ktime_get_ns() - t0;
	res->fabric_time_ns = tl.total_ns;
	if (!err) {
		res->step_ns = tl.step_ns;	/* the caller's now */
		tl.step_ns = NULL;
	}
out_unlock:
	if (locked)
		mutex_unlock(&f->bcast_lock);
	mf_sched_free(fsched);
	mf_timeline_free(&tl);
	mf_free(got);
	dev_put(sdev);
	return err;
}

/* Timed: the nodes of got get frame through the timed queue, each at its
 * time in this host's model (w->tl) shifted into the sender's, within
 * the share of part (the sender's) there.  A frame the queue refuses
 * (full, or its share spent) or that cannot be cloned is dropped and
 * counted in the node's rx_dropped (and the drop tracepoint).
 */
static void mf_bcast_queue_timed(struct mf_fabric *f,
				 const struct mf_bwalk *w, u32 part,
				 const unsigned long *got,
				 struct sk_buff *frame)
{
	struct net_device *dev;
	struct sk_buff *skb;
	u32 v, n = 0;

	for_each_set_bit(v, got, f->topo.nodes) {
		skb = skb_clone(frame, GFP_KERNEL | __GFP_NOWARN);
		if (!skb ||
		    !mf_tq_enqueue_bcast(f, v, part, skb, w->base +
					 mf_bwalk_time(w, w->tl->arrive[v]))) {
			/* a refused frame was freed there */
			trace_meshfabric_drop(f->id, v, frame->len,
					      MF_DROP_QUEUE_FULL);
			rcu_read_lock();
			dev = rcu_dereference(f->node[v].dev);
			if (dev)
				dev_core_stats_rx_dropped_inc(dev);
			rcu_read_unlock();
		}
		if (!(++n & 255))
			cond_resched();
	}
}

/* A BCAST's send that crossed from another host at cb->pos (tunnel.c
 * checked the option, and that the frame enters pos->node, ours, by a
 * link from the sending part): the schedule of (algo, source) as this
 * host builds it (cached as BCAST caches it, planned on the account and
 * memory cgroup of the fabric's owner), the send checked against it
 * (its path enters that node at that hop from that part: hosts whose
 * links down differ build different schedules) and finished here, then
 * every later send of the nodes it informed here, and of those they
 * inform (its subtree on this host: mf_check() informs each node once,
 * and a node sends only after), handed on where a path crosses again.
 * At most one schedule's sends per datagram.  Returns the sends walked.
 *
 * Timed (pos->flags): the schedule is timed on this host's link models,
 * idle (no slot reserved), from cb->base; the subtree's nodes
 * get the frame through the timed queue at their times in that model,
 * shifted so that the send's destination gets it at cb->arrive, and the
 * sends that cross again carry their times likewise.
 */
static u32 mf_bcast_resume(struct mf_fabric *f, const struct mf_bcast_cb *cb,
			   struct sk_buff *frame)
{
	const struct mf_sched_pos *pos = &cb->pos;
	bool timed = pos->flags & MF_POS_TIMED;
	struct mf_bwalk w = { .algo = pos->algo, .source = pos->source,
			      .frame = frame, .timed = timed,
			      .pflags = pos->flags, .base = cb->base };
	struct mf_timeline tl = { 0 };
	struct mf_fsched fsc = { 0 };
	struct mf_cached_sched *victim;
	const struct mf_send *send;
	unsigned long *got = NULL;
	struct mem_cgroup *old;
	struct mf_timing tm;
	u32 i, j, count, work = 1;
	const u32 *p;
	int err;

	/* only what BCAST on a split fabric sends: auto or a builder of the
	 * module's (a peer naming another makes nothing be planned)
	 */
	if (pos->algo > MESHFABRIC_ALGO_MAX ||
	    (pos->algo != MESHFABRIC_ALGO_AUTO && !mf_algo_in_kernel(pos->algo)))
		return work;
	mf_sched_init(&fsc.own, 0, pos->source);
	old = set_active_memcg(f->tq.memcg);
	mutex_lock(&f->bcast_lock);
	/* a schedule to plan weighs as much as a delivery to every node, so
	 * that a peer cycling through sources gets few plans per work run
	 */
	if (!mf_cache_find(f, pos->algo, pos->source, 0, &victim))
		work += f->topo.nodes;
	err = mf_sched_lookup(f, pos->algo, pos->source, false, &fsc);
	if (err)
		goto out;
	w.s = fsc.s;
	err = -EPROTO;
	if (pos->step >= w.s->nsteps)
		goto out;
	send = mf_sched_sends(w.s, pos->step, &count);
	if (pos->send >= count || !pos->hop || pos->hop > send[pos->send].hops)
		goto out;
	p = &w.s->path[send[pos->send].path];
	if (p[pos->hop] != pos->node || f->part[p[pos->hop - 1]] != cb->part ||
	    mf_topo_port(&f->topo, pos->node, p[pos->hop - 1]) != pos->port)
		goto out;
	err = -ENOMEM;
	got = mf_alloc_array(BITS_TO_LONGS(f->topo.nodes), sizeof(long), true);
	if (!got)
		goto out;
	if (timed) {
		/* as BCAST times it, on this host's link models but idle
		 * links: each of the broadcast's datagrams is timed alike
		 * (no slot reserved; a whole schedule's work, as a plan)
		 */
		work += f->topo.nodes;
		mf_bcast_timing(f, pos->flags & MF_POS_ASYNC ?
				MESHFABRIC_BCAST_ASYNC : 0, frame->len, &tm);
		err = mf_timeline_alloc(&tl, &f->topo, w.s);
		if (!err)
			err = mf_sched_time(&f->topo, w.s, &tm, NULL, &tl);
		if (!err && tl.total_ns > MESHFABRIC_HORIZON_NS)
			err = -E2BIG;
		if (err)
			goto out;
		w.tl = &tl;
		w.shift = (s64)tl.arrive[send[pos->send].dst] - cb->arrive;
	}
	err = 0;
	if (mf_bcast_send(f, &w, pos->step, pos->send, pos->hop, true)) {
		__set_bit(send[pos->send].dst, got);
		if (!timed)
			mf_deliver(f, send[pos->send].dst, frame, 0);
	}
	for (i = pos->step + 1; i < w.s->nsteps; i++) {
		send = mf_sched_sends(w.s, i, &count);
		for (j = 0; j < count; j++) {
			if (!test_bit(send[j].src, got))
				continue;
			if (mf_bcast_send(f, &w, i, j, 0, true)) {
				__set_bit(send[j].dst, got);
				if (!timed)
					mf_deliver(f, send[j].dst, frame, 0);
			}
			if (!(++work & 255))
				cond_resched();
		}
		cond_resched();
	}
	if (timed)
		mf_bcast_queue_timed(f, &w, cb->part, got, frame);
out:
	f->resumed++;
	mutex_unlock(&f->bcast_lock);
	set_active_memcg(old);
	if (err)
		pr_warn_ratelimited("fabric %u: a BCAST's send from part %u (source %u, step %u) not continued: %d\n",
				    f->id, cb->part, pos->source, pos->step,
				    err);
	mf_sched_free(&fsc.own);
	mf_timeline_free(&tl);
	mf_free(got);
	return work;
}

#define MF_NO_UP	0xff	/* bq.up[] of a root */
#define MF_NO_TOP	U32_MAX	/* bq.top[] of a root without present node */

/* The parent of node v of the forest (not a root). */
static u32 mf_flood_parent(const struct mf_fabric *f, u32 v)
{
	return f->links.peer[(u64)v * f->topo.nports + f->bq.up[v]];
}

/* Node v's subtree holds node w (preorder intervals). */
static bool mf_flood_below(const struct mf_bcastq *bq, u32 v, u32 w)
{
	return bq->pre[w] >= bq->pre[v] &&
	       bq->pre[w] - bq->pre[v] < bq->size[v];
}

/* Present nodes with preorder numbers below i (Fenwick tree). */
static u32 mf_fen_prefix(const struct mf_bcastq *bq, u32 i)
{
	u32 sum = 0;

	for (; i; i &= i - 1)
		sum += bq->fen[i];
	return sum;
}

/* Count node v present: in fen[], and its component's top moves up to
 * the common ancestor of the old top and v (walking up from the old top:
 * tops only move up, so O(depth) for all the additions to a component).
 */
static void mf_flood_add(struct mf_fabric *f, u32 v)
{
	struct mf_bcastq *bq = &f->bq;
	u32 n = f->topo.nodes, i, r, a;

	__set_bit(v, bq->counted);
	for (i = bq->pre[v] + 1; i <= n; i += i & -i)
		bq->fen[i]++;
	r = bq->grp[v];
	a = bq->top[r];
	if (a == MF_NO_TOP) {
		bq->top[r] = v;
		return;
	}
	while (!mf_flood_below(bq, a, v))
		a = mf_flood_parent(f, a);
	bq->top[r] = a;
}

/* Build the flood's forest (struct mf_bcastq) from the nodes' states and
 * the links up now: breadth-first over the nodes that are not GONE (an
 * ABSENT node relays, as unicast goes through it) and the links up, from
 * the lowest node not reached yet; preorder numbers, subtree sizes, then
 * the present nodes counted.  O(nodes * ports) with scheduling points,
 * when the links change or a node becomes or stops being GONE, never
 * per frame.  A state read twice may differ (a change meanwhile): the
 * forest stays well formed, and the change's mark and generation have
 * the next frame update it.
 */
static void mf_flood_build(struct mf_fabric *f)
{
	u32 n = f->topo.nodes, np = f->topo.nports, head = 0, tail = 0;
	const u32 *peer = f->links.peer;
	struct mf_bcastq *bq = &f->bq;
	u32 r, v, p, port, nb, i, base = 0;
	u64 l;

	bq->built_lgen = atomic_read(&bq->lgen);
	bq->built_gen = atomic_read(&bq->gen);
	smp_mb();		/* the generations, then the marks and states */
	for (i = 0; i < BITS_TO_LONGS(n); i++)
		xchg(&bq->dirty[i], 0);		/* marks may be set meanwhile */
	bitmap_zero(bq->seen, n);
	bitmap_zero(bq->counted, n);
	memset(bq->fen, 0, (n + 1) * sizeof(*bq->fen));
	for (r = 0; r < n; r++) {
		if (!(r & 4095))
			cond_resched();
		if (test_bit(r, bq->seen) || mf_node_gone(f, r))
			continue;
		__set_bit(r, bq->seen);
		bq->up[r] = MF_NO_UP;
		bq->order[tail++] = r;
		while (head < tail) {
			v = bq->order[head++];
			for (port = 0; port < np; port++) {
				l = (u64)v * np + port;
				nb = peer[l];
				if (nb == MESHFABRIC_NO_PEER ||
				    test_bit(nb, bq->seen) || mf_node_gone(f, nb))
					continue;
				/* a link's state is kept on the port that
				 * names it: in a size-2 dimension the - port
				 * is the + link again (topo.h)
				 */
				if (READ_ONCE(f->links.st[(u64)v * np +
					      mf_topo_port(&f->topo, v, nb)].down))
					continue;
				__set_bit(nb, bq->seen);
				bq->up[nb] = port ^ 1;	/* topo.h: the reverse */
				bq->order[tail++] = nb;
			}
			if (!(head & 1023))
				cond_resched();
		}
	}
	/* children before parents: subtree sizes */
	for (i = 0; i < tail; i++)
		bq->size[bq->order[i]] = 1;
	for (i = tail; i-- > 0;) {
		v = bq->order[i];
		if (bq->up[v] != MF_NO_UP)
			bq->size[mf_flood_parent(f, v)] += bq->size[v];
	}
	/* parents before children: preorder numbers (grp[] the next free
	 * number below a node meanwhile), then each node's root's number
	 */
	for (i = 0; i < tail; i++) {
		v = bq->order[i];
		if (bq->up[v] == MF_NO_UP) {
			bq->pre[v] = base;
			bq->top[base] = MF_NO_TOP;
			base += bq->size[v];
		} else {
			p = mf_flood_parent(f, v);
			bq->pre[v] = bq->grp[p];
			bq->grp[p] += bq->size[v];
		}
		bq->grp[v] = bq->pre[v] + 1;
	}
	for (i = 0; i < tail; i++) {
		v = bq->order[i];
		bq->grp[v] = bq->up[v] == MF_NO_UP ? bq->pre[v] :
			     bq->grp[mf_flood_parent(f, v)];
	}
	for (i = 0; i < tail; i++) {
		v = bq->order[i];
		if (READ_ONCE(f->node[v].state) == MF_NODE_PRESENT)
			mf_flood_add(f, v);
		if (!(i & 1023))
			cond_resched();
	}
	bq->builds++;
	bq->valid = true;
}

/* Bring the forest up to date: the nodes marked since, added when they
 * became present (the common case: ATTACH), or a full build when the
 * links changed or a node entered or left the forest.
 */
static void mf_flood_update(struct mf_fabric *f)
{
	struct mf_bcastq *bq = &f->bq;
	u32 n = f->topo.nodes, w, v, gen;
	unsigned long bits;
	bool gone;
	u8 state;

	if (!bq->valid || bq->built_lgen != (u32)atomic_read(&bq->lgen)) {
		mf_flood_build(f);
		return;
	}
	gen = atomic_read(&bq->gen);
	if (bq->built_gen == gen)
		return;
	bq->built_gen = gen;
	smp_mb();		/* the generation, then the marks */
	for (w = 0; w < BITS_TO_LONGS(n); w++) {
		bits = READ_ONCE(bq->dirty[w]) ? xchg(&bq->dirty[w], 0) : 0;
		for (; bits; bits &= bits - 1) {
			v = w * BITS_PER_LONG + __ffs(bits);
			state = READ_ONCE(f->node[v].state);
			gone = state == MF_NODE_GONE;
			/* entered or left the forest, or left presence */
			if (gone == test_bit(v, bq->seen) ||
			    (state != MF_NODE_PRESENT &&
			     test_bit(v, bq->counted))) {
				mf_flood_build(f);
				return;
			}
			if (state == MF_NODE_PRESENT &&
			    !test_bit(v, bq->counted))
				mf_flood_add(f, v);
		}
	}
}

/* Flood frame from source over its component of the forest, pruned to
 * the present nodes: from the component's top (the present nodes' common
 * ancestor) down every branch that holds a present node (fen[]), each
 * such edge carrying the frame once, counted on the link away from the
 * source (up if the source lies below it), each present node delivered
 * once.  Absent nodes relay, GONE nodes and down links carry nothing.
 * Work per frame: the nodes of that pruned tree (the links the frame
 * crosses, and its deliveries), not the fabric's nodes.  Returns it.
 * Called by the queue's work only (the forest is its own).
 */
static u32 mf_bcast_flood(struct mf_fabric *f, u32 source,
			  struct sk_buff *frame)
{
	struct mf_bcastq *bq = &f->bq;
	u32 np = f->topo.nports, sp = 0, top, v, u, p, work = 0;
	const u32 *peer = f->links.peer;
	u64 l;

	bool remote = mf_node_remote(f, source);	/* from the tunnel */

	if (!remote && READ_ONCE(f->node[source].state) != MF_NODE_PRESENT)
		return 0;
	mf_flood_update(f);
	/* a change meanwhile */
	if (!test_bit(source, remote ? bq->seen : bq->counted))
		return 0;
	top = bq->top[bq->grp[source]];
	if (top == U32_MAX)	/* no node of this host in its component */
		return 0;
	bq->order[sp++] = top;
	while (sp) {
		v = bq->order[--sp];
		if (v != top) {
			l = (u64)v * np + bq->up[v];	/* v to its parent */
			u = v;
			if (!mf_flood_below(bq, v, source)) {
				u = peer[l];
				l = (u64)u * np + (bq->up[v] ^ 1);
			}
			/* multi-host: the host of its sending end counts it */
			local_bh_disable();
			if (!mf_node_remote(f, u))
				mf_link_count(f, l, 1, frame->len);
			local_bh_enable();
		}
		if (v != source && test_bit(v, bq->counted))
			mf_deliver(f, v, frame, MF_DELIVER_MTU);
		for (p = 0; p < np; p++) {
			u = peer[(u64)v * np + p];
			/* a child: its parent port leads back here */
			if (u == MESHFABRIC_NO_PEER || !test_bit(u, bq->seen) ||
			    bq->up[u] != (p ^ 1) ||
			    (!test_bit(u, bq->counted) &&
			     mf_fen_prefix(bq, bq->pre[u] + bq->size[u]) ==
			     mf_fen_prefix(bq, bq->pre[u])))
				continue;
			bq->order[sp++] = u;
		}
		if (!(++work & 255))
			cond_resched();
	}
	bq->last_work = work;
	return work;
}

/* The share a queued frame is charged to (q.lock held): its source
 * node's, or for a BCAST's send from another host, that host's part's,
 * so that a peer naming one of our nodes as the source of its sends
 * cannot crowd out that node's own broadcasts.
 */
static u32 *mf_bcast_share(struct mf_bcastq *bq, const struct mf_bcast_cb *cb)
{
	return cb->sched ? &bq->part_bytes[cb->part] :
			   &bq->src_bytes[cb->pos.source];
}

static void mf_bcast_work(struct work_struct *work)
{
	struct mf_fabric *f = container_of(work, struct mf_fabric, bq.work);
	struct mf_bcastq *bq = &f->bq;
	u32 budget = MF_BCAST_BUDGET, reached;
	struct mf_bcast_cb cb;
	struct sk_buff *skb;

	while (budget) {
		spin_lock_bh(&bq->q.lock);
		skb = __skb_dequeue(&bq->q);
		if (skb) {
			memcpy(&cb, skb->cb, sizeof(cb));
			bq->bytes -= cb.size;
			*mf_bcast_share(bq, &cb) -= cb.size;
		}
		spin_unlock_bh(&bq->q.lock);
		if (!skb)
			return;
		skb->dev = NULL;
		if (cb.sched) {
			reached = mf_bcast_resume(f, &cb, skb);
			consume_skb(skb);
			budget -= min(budget, reached);
			cond_resched();
			continue;
		}
		rcu_read_lock();
		skb->dev = rcu_dereference(f->node[cb.pos.source].dev);
		if (skb->dev)
			dev_hold(skb->dev);
		rcu_read_unlock();
		reached = skb->dev || mf_node_remote(f, cb.pos.source) ?
			  mf_bcast_flood(f, cb.pos.source, skb) : 0;
		dev_put(skb->dev);
		skb->dev = NULL;
		consume_skb(skb);
		budget -= min(budget, max(reached, 1U));
		cond_resched();
	}
	/* budget spent: let others run, then go on */
	if (!skb_queue_empty_lockless(&bq->q))
		queue_work(mf_wq, &bq->work);
}

/* Socket rule: a queued frame is orphaned (skb_orphan) and scrubbed
 * (conntrack, dst, marks) at enqueue, so it pins no socket, conntrack
 * entry or namespace while it waits.  Memory is bounded by the queue's
 * byte limits instead of the sender's socket buffer: a sender past its
 * share sees its frames dropped (tx_dropped), as behind a full NIC queue.
 */
static bool mf_bcast_enqueue(struct mf_fabric *f, struct mf_bcast_cb *cb,
			     struct sk_buff *skb)
{
	struct mf_bcastq *bq = &f->bq;
	u32 *share;
	bool ok;

	skb_orphan(skb);
	skb_scrub_packet(skb, true);
	cb->size = skb->truesize;
	memcpy(skb->cb, cb, sizeof(*cb));
	spin_lock_bh(&bq->q.lock);
	share = mf_bcast_share(bq, cb);
	/* a torn-down fabric queues nothing: its teardown waits out every
	 * sender (RCU) that read dead before it was set, then stops bq
	 */
	ok = !READ_ONCE(f->dead) &&
	     bq->bytes + cb->size <= MF_BCASTQ_BYTES &&
	     *share + cb->size <= MF_BCASTQ_SOURCE_BYTES;
	if (ok) {
		bq->bytes += cb->size;
		*share += cb->size;
		bq->max_bytes = max(bq->max_bytes, bq->bytes);
		__skb_queue_tail(&bq->q, skb);
	}
	spin_unlock_bh(&bq->q.lock);
	if (!ok) {
		kfree_skb(skb);
		return false;
	}
	queue_work(mf_wq, &bq->work);
	return true;
}

bool mf_bcast_queue(struct mf_fabric *f, u32 source, struct sk_buff *skb)
{
	struct mf_bcast_cb cb = { .pos.source = source };

	return mf_bcast_enqueue(f, &cb, skb);
}

/* Bounded as node broadcasts, in the sending part's share */
bool mf_bcast_queue_sched(struct mf_fabric *f, const struct mf_sched_pos *pos,
			  const struct mf_xtime *xt, u32 part,
			  struct sk_buff *skb)
{
	struct mf_bcast_cb cb = { .sched = true, .part = part, .pos = *pos };

	if (xt) {
		/* the send left at xt->sent: the start, on this host's clock */
		cb.base = ktime_get_ns();
		cb.base -= min(cb.base, xt->sent);
		cb.arrive = xt->arrive;
	}

	return mf_bcast_enqueue(f, &cb, skb);
}

int mf_bcast_fabric_init(struct mf_fabric *f)
{
	struct mf_bcastq *bq = &f->bq;
	u32 n = f->topo.nodes;

	size_t bits = BITS_TO_LONGS(n) * sizeof(long);

	skb_queue_head_init(&bq->q);
	INIT_WORK(&bq->work, mf_bcast_work);
	atomic_set(&bq->lgen, 0);
	atomic_set(&bq->gen, 0);
	bq->src_bytes = mf_counted_zalloc(array_size(n, sizeof(u32)));
	bq->order = mf_counted_zalloc(array_size(n, sizeof(u32)));
	bq->dirty = mf_counted_zalloc(bits);
	bq->seen = mf_counted_zalloc(bits);
	bq->counted = mf_counted_zalloc(bits);
	bq->up = mf_counted_zalloc(n);
	bq->pre = mf_counted_zalloc(array_size(n, sizeof(u32)));
	bq->size = mf_counted_zalloc(array_size(n, sizeof(u32)));
	bq->grp = mf_counted_zalloc(array_size(n, sizeof(u32)));
	bq->top = mf_counted_zalloc(array_size(n, sizeof(u32)));
	bq->fen = mf_counted_zalloc(array_size(n + 1, sizeof(u32)));
	if (!bq->src_bytes || !bq->order || !bq->dirty || !bq->seen ||
	    !bq->counted || !bq->up || !bq->pre || !bq->size || !bq->grp ||
	    !bq->top || !bq->fen)
		return -ENOMEM;
	f->footprint += 3 * bits + (size_t)n * (8 * sizeof(u32) + 1);
	return 0;
}

/* Teardown: no netdev can queue any more. */
void mf_bcast_fabric_stop(struct mf_fabric *f)
{
	struct mf_bcastq *bq = &f->bq;

	cancel_work_sync(&bq->work);
	skb_queue_purge(&bq->q);
	bq->bytes = 0;
}

/* Called when the last reference to f is gone. */
void mf_bcast_fabric_free(struct mf_fabric *f)
{
	int i;

	for (i = 0; i < MF_SCHED_CACHE; i++)
		mf_cache_drop(f, &f->cache[i]);
	for (i = 0; i < MESHFABRIC_USER_SCHEDS; i++)
		mf_cache_drop(f, &f->user[i]);
	if (f->acct.stamp) {
		mf_linkacct_free(&f->acct);
		mf_count_put();
	}
	mf_counted_free(f->bq.fen);
	mf_counted_free(f->bq.top);
	mf_counted_free(f->bq.grp);
	mf_counted_free(f->bq.size);
	mf_counted_free(f->bq.pre);
	mf_counted_free(f->bq.up);
	mf_counted_free(f->bq.counted);
	mf_counted_free(f->bq.seen);
	mf_counted_free(f->bq.dirty);
	mf_counted_free(f->bq.order);
	mf_counted_free(f->bq.src_bytes);
}

int mf_bcast_init(void)
{
	mf_wq = alloc_workqueue(KBUILD_MODNAME, WQ_UNBOUND, 0);
	return mf_wq ? 0 : -ENOMEM;
}

void mf_bcast_exit(void)
{
	destroy_workqueue(mf_wq);
}
