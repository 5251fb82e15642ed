// SPDX-License-Identifier: GPL-2.0
/*
 * tqueue.c - the time-ordered queue of a fabric's timed unicast frames
 * (struct mf_tqueue): each frame waits, with the slots it reserved on its
 * links (link.c), until its arrival time, then goes to its destination's
 * netdev; and of the timed BCASTs' frames from other hosts (bcast.c),
 * each part's within a share of its own (MF_TQ_PART_BYTES).  A tree
 * keyed by arrival time with a cached leftmost node, as netem's tfifo,
 * and one soft hrtimer set to the earliest arrival, as sch_fq's
 * watchdog: one timer per fabric, never one per frame or hop.
 *
 * Who pays (issue 21): a waiting frame is charged to the memory cgroup
 * of its fabric's creator (tq->memcg).  At enqueue it is copied into
 * memory allocated with __GFP_ACCOUNT in that cgroup's scope
 * (set_active_memcg: the exported way on 6.1, where sockets' own
 * mem_cgroup_charge_skmem is not exported; still there on 6.12+), the
 * sender's skb freed at once: so the frame pins no socket and nobody
 * else's memory, a cgroup at its limit refuses it (GFP_NOWAIT, no
 * __GFP_HIGH: no overcharge) and the charge ends when the frame is freed
 * wherever (delivered, dropped, or at teardown).  A creator in the root
 * cgroup, or a kernel without memcg, is charged nothing: no copy then,
 * the frame is orphaned and scrubbed as bcast.c's queue.
 * Shares, in truesize, so that no owner starves another (uapi):
 * MESHFABRIC_TIMED_BYTES per fabric, MESHFABRIC_TIMED_OWNER per owner
 * (fabric.c's account) other than the initial namespace,
 * MESHFABRIC_TIMED_USERNS for all such owners together (so the initial
 * namespace's fabrics always keep the rest of the pool), and
 * MESHFABRIC_TIMED_TOTAL for all.
 * Timer rule: the timer is (re)armed only under tq->lock, by an enqueue
 * that becomes the earliest frame or by the callback for the frames left,
 * so it always fires at or before the earliest arrival.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include "mf.h"
#include "trace.h"

/* Frames one timer run delivers before it lets other softirqs run (the
 * rest a microsecond later).
 */
#define MF_TQ_BUDGET	256

/* The bytes of a charged copy in its linear part when the frame does not
 * fit one page's kmalloc (headers: what eth_type_trans and the stack
 * pull at delivery); the rest in pages.
 */
#define MF_TQ_COPY_HEAD	256

/* Truesize of the frames waiting in every fabric, and in the fabrics of
 * owners other than the initial namespace (uapi's MESHFABRIC_TIMED_TOTAL
 * and MESHFABRIC_TIMED_USERNS bound them).
 */
static atomic_long_t mf_tq_total = ATOMIC_LONG_INIT(0);
static atomic_long_t mf_tq_userns = ATOMIC_LONG_INIT(0);

struct mf_tq_cb {
	u64 time;		/* arrival, CLOCK_MONOTONIC ns */
	u32 dst;		/* node */
	u32 port;		/* MF_PORT_NONE, or dst's external port */
	u32 size;		/* truesize charged */
	atomic_long_t *share;	/* the owner's (fabric.c), or NULL */
	/* bound for another host over a cut link into dst by cut_port,
	 * with the hop count hops (mf_tq_enqueue_cut); cut_port U32_MAX:
	 * dst is here
	 */
	u32 cut_port;
	u32 hops;
};

static struct mf_tq_cb *mf_tq_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mf_tq_cb) > sizeof(skb->cb));
	return (struct mf_tq_cb *)skb->cb;
}

/* Arm the timer for the earliest frame, not before not_before. */
static void mf_tq_arm(struct mf_tqueue *tq, u64 not_before)
{
	struct rb_node *first = rb_first_cached(&tq->tree);
	u64 when;

	lockdep_assert_held(&tq->lock);
	if (!first || tq->stopped)
		return;
	/* times are below sent + MESHFABRIC_HORIZON_NS (link.c) */
	when = max(mf_tq_cb(rb_to_skb(first))->time, not_before);
	hrtimer_start(&tq->timer, ns_to_ktime(min_t(u64, when, KTIME_MAX)),
		      HRTIMER_MODE_ABS_SOFT);
}

/* Add n to *c unless that passes max. */
static bool mf_tq_take(atomic_long_t *c, long n, long max)
{
	if (atomic_long_add_return(n, c) <= max)
		return true;
	atomic_long_sub(n, c);
	return false;
}

/* Give back what mf_tq_charge took for a frame. */
static void mf_tq_uncharge(const struct mf_tq_cb *cb)
{
	atomic_long_sub(cb->size, &mf_tq_total);
	if (cb->share) {
		atomic_long_sub(cb->size, &mf_tq_userns);
		atomic_long_sub(cb->size, cb->share);
	}
}

/* Take a frame's truesize from the pools (the fabric's is under lock,
 * in mf_tq_enqueue): false if one is full.
 */
static bool mf_tq_charge(struct mf_fabric *f, struct mf_tq_cb *cb)
{
	cb->share = mf_owner_timed(f);
	if (!mf_tq_take(&mf_tq_total, cb->size, MESHFABRIC_TIMED_TOTAL))
		return false;
	if (!cb->share)
		return true;
	if (!mf_tq_take(&mf_tq_userns, cb->size, MESHFABRIC_TIMED_USERNS)) {
		atomic_long_sub(cb->size, &mf_tq_total);
		return false;
	}
	if (!mf_tq_take(cb->share, cb->size, MESHFABRIC_TIMED_OWNER)) {
		atomic_long_sub(cb->size, &mf_tq_userns);
		atomic_long_sub(cb->size, &mf_tq_total);
		return false;
	}
	return true;
}

/* A copy of skb in memory allocated with gfp (charged to the active
 * memory cgroup): linear if it fits one page's kmalloc (a slab object:
 * cheaper than a page), else MF_TQ_COPY_HEAD bytes linear and the rest
 * in pages; the same headroom, so the header offsets copied stay right.
 * NULL if the allocation fails (the cgroup is at its limit).
 */
static struct sk_buff *mf_tq_copy(const struct sk_buff *skb, gfp_t gfp)
{
	u32 room = skb_headroom(skb), hlen = min(skb->len, MF_TQ_COPY_HEAD);
	struct sk_buff *n;
	skb_frag_t *frag;
	u32 off = hlen;
	int err, i;

	if (room + skb->len <= SKB_WITH_OVERHEAD(PAGE_SIZE))
		hlen = skb->len;
	n = alloc_skb_with_frags(room + hlen, skb->len - hlen, 0, &err, gfp);
	if (!n)
		return NULL;
	skb_reserve(n, room);
	skb_put(n, hlen);
	n->data_len = skb->len - hlen;
	n->len += n->data_len;
	if (skb_copy_bits(skb, 0, n->data, hlen))
		goto fail;
	for (i = 0; i < skb_shinfo(n)->nr_frags; i++) {
		frag = &skb_shinfo(n)->frags[i];
		if (skb_copy_bits(skb, off, skb_frag_address(frag),
				  skb_frag_size(frag)))
			goto fail;
		off += skb_frag_size(frag);
	}
	skb_copy_header(n, skb);
	return n;
fail:
	kfree_skb(n);
	return NULL;
}

/* skb as it waits: a copy charged to tq->memcg, or skb itself orphaned
 * when there is no cgroup to charge; NULL (skb freed) if neither can be.
 */
static struct sk_buff *mf_tq_own(struct mf_tqueue *tq, struct sk_buff *skb)
{
	struct mem_cgroup *old;
	struct sk_buff *n;

	if (!tq->memcg) {
		skb_orphan(skb);
		/* zerocopy pages would hold the sender's socket until
		 * arrival
		 */
		if (!skb_orphan_frags_rx(skb, GFP_ATOMIC))
			return skb;
		kfree_skb(skb);
		return NULL;
	}
	old = set_active_memcg(tq->memcg);
	n = mf_tq_copy(skb, GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN);
	set_active_memcg(old);
	if (n)
		consume_skb(skb);
	else
		kfree_skb(skb);
	return n;
}

/* A BCAST's frame from another host: the share of the part that sent it
 * (cb->hops holds the part), else NULL.  Under tq->lock.
 */
static u32 *mf_tq_part(struct mf_tqueue *tq, const struct mf_tq_cb *cb)
{
	return cb->port == MF_PORT_BCAST ? &tq->part_bytes[cb->hops] : NULL;
}

/* A frame left the tree: its bytes go back.  Under tq->lock. */
static void mf_tq_dequeued(struct mf_tqueue *tq, const struct mf_tq_cb *cb)
{
	u32 *part = mf_tq_part(tq, cb);

	tq->bytes -= cb->size;
	if (part)
		*part -= cb->size;
	mf_tq_uncharge(cb);
}

static bool __mf_tq_enqueue(struct mf_fabric *f, u32 dst, u32 port,
			    u32 cut_port, u32 hops, struct sk_buff *skb,
			    u64 when)
{
	struct mf_tqueue *tq = &f->tq;
	struct rb_node **p, *parent = NULL;
	struct mf_tq_cb *cb;
	bool leftmost = true;
	u32 *part;

	skb = mf_tq_own(tq, skb);
	if (!skb)
		return false;
	skb_scrub_packet(skb, true);
	cb = mf_tq_cb(skb);
	cb->time = when;
	cb->dst = dst;
	cb->port = port;
	cb->cut_port = cut_port;
	cb->hops = hops;
	cb->size = skb->truesize;
	if (!mf_tq_charge(f, cb)) {
		kfree_skb(skb);
		return false;
	}
	spin_lock_bh(&tq->lock);
	part = mf_tq_part(tq, cb);
	if (tq->stopped || tq->bytes + cb->size > MESHFABRIC_TIMED_BYTES ||
	    (part && *part + cb->size > MF_TQ_PART_BYTES)) {
		spin_unlock_bh(&tq->lock);
		mf_tq_uncharge(cb);
		kfree_skb(skb);
		return false;
	}
	tq->bytes += cb->size;
	if (part)
		*part += cb->size;
	p = &tq->tree.rb_root.rb_node;
	while (*p) {
		parent = *p;
		/* equal times keep their order: after the ones queued */
		if (when < mf_tq_cb(rb_to_skb(parent))->time) {
			p = &parent->rb_left;
		} else {
			p = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&skb->rbnode, parent, p);
	rb_insert_color_cached(&skb->rbnode, &tq->tree, leftmost);
	if (leftmost)
		mf_tq_arm(tq, 0);
	spin_unlock_bh(&tq->lock);
	return true;
}

bool mf_tq_enqueue(struct mf_fabric *f, u32 dst, u32 port,
		   struct sk_buff *skb, u64 when)
{
	return __mf_tq_enqueue(f, dst, port, U32_MAX, 0, skb, when);
}

bool mf_tq_enqueue_bcast(struct mf_fabric *f, u32 dst, u32 part,
			 struct sk_buff *skb, u64 when)
{
	return __mf_tq_enqueue(f, dst, MF_PORT_BCAST, U32_MAX, part, skb,
			       when);
}

bool mf_tq_enqueue_cut(struct mf_fabric *f, const struct mf_cut *cut,
		       struct sk_buff *skb, u64 when)
{
	return __mf_tq_enqueue(f, cut->node, MF_PORT_NONE, cut->port,
			       cut->hops, skb, when);
}

static void mf_tq_deliver(struct mf_fabric *f, struct sk_buff *skb, u32 dst)
{
	struct net_device *dev;
	unsigned int len = skb->len;
	int why;

	if (mf_tq_cb(skb)->cut_port != U32_MAX) {	/* on to another host */
		struct mf_cut cut = {
			.node = dst,
			.port = mf_tq_cb(skb)->cut_port,
			.hops = mf_tq_cb(skb)->hops,
		};

		/* the sender's netdev may be gone by now */
		skb->dev = NULL;
		rcu_read_lock();
		if (!mf_tunnel_xmit(f, &cut, skb))
			trace_meshfabric_drop(f->id, dst, len, MF_DROP_TUNNEL);
		rcu_read_unlock();
		return;
	}
	if (mf_tq_cb(skb)->port != MF_PORT_NONE &&
	    mf_tq_cb(skb)->port != MF_PORT_BCAST) {
		/* its link counted it when it reserved its slot */
		why = mf_port_send(f, dst, mf_tq_cb(skb)->port, skb, 0, true);
		if (why >= 0)
			trace_meshfabric_drop(f->id, dst, len, why);
		return;
	}
	rcu_read_lock();
	dev = rcu_dereference(f->node[dst].dev);
	if (!dev) {
		rcu_read_unlock();
		trace_meshfabric_drop(f->id, dst, len, MF_DROP_NODE_GONE);
		kfree_skb(skb);
		return;
	}
	skb->dev = dev;
	if (mf_tq_cb(skb)->port == MF_PORT_BCAST) {
		/* a BCAST's frame (from another host, bcast.c) */
		mf_deliver_rx(f, dst, dev, skb);
		rcu_read_unlock();
		return;
	}
	/* dev_forward_skb() frees the skb and counts rx_dropped on failure */
	if (dev_forward_skb(dev, skb) == NET_RX_SUCCESS)
		dev_sw_netstats_rx_add(dev, len);
	rcu_read_unlock();
}

static enum hrtimer_restart mf_tq_fire(struct hrtimer *timer)
{
	struct mf_tqueue *tq = container_of(timer, struct mf_tqueue, timer);
	struct mf_fabric *f = container_of(tq, struct mf_fabric, tq);
	struct sk_buff *skb, *due = NULL, **tail = &due;
	u64 now = ktime_get_ns();
	struct rb_node *first;
	unsigned int n = 0;

	spin_lock(&tq->lock);
	while (n < MF_TQ_BUDGET && (first = rb_first_cached(&tq->tree))) {
		skb = rb_to_skb(first);
		if (mf_tq_cb(skb)->time > now)
			break;
		rb_erase_cached(first, &tq->tree);
		mf_tq_dequeued(tq, mf_tq_cb(skb));
		skb->dev = NULL;	/* it shared rbnode's memory */
		skb->next = NULL;
		*tail = skb;
		tail = &skb->next;
		n++;
	}
	/* the frames left, if any; a spent budget yields first */
	mf_tq_arm(tq, n == MF_TQ_BUDGET ? now + NSEC_PER_USEC : 0);
	spin_unlock(&tq->lock);
	while (due) {
		skb = due;
		due = skb->next;
		skb->next = NULL;
		mf_tq_deliver(f, skb, mf_tq_cb(skb)->dst);
	}
	return HRTIMER_NORESTART;
}

/* The memory cgroup that pays for the frames of a fabric the caller
 * creates: the caller's (referenced), or NULL if none is charged (no
 * memcg, or the root cgroup, which kernel memory is never charged to).
 */
static struct mem_cgroup *mf_tq_memcg(void)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg = get_mem_cgroup_from_mm(current->mm);

	if (memcg && !memcg->css.parent) {
		mem_cgroup_put(memcg);
		memcg = NULL;
	}
	return memcg;
#else
	return NULL;
#endif
}

void mf_tq_init(struct mf_fabric *f)
{
	struct mf_tqueue *tq = &f->tq;

	spin_lock_init(&tq->lock);
	tq->tree = RB_ROOT_CACHED;
	tq->memcg = mf_tq_memcg();
	hrtimer_setup(&tq->timer, mf_tq_fire, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_SOFT);
}

void mf_tq_stop(struct mf_fabric *f)
{
	struct mf_tqueue *tq = &f->tq;
	struct rb_node *first;
	struct sk_buff *skb;

	spin_lock_bh(&tq->lock);
	tq->stopped = true;	/* no enqueue, no re-arming */
	spin_unlock_bh(&tq->lock);
	hrtimer_cancel(&tq->timer);
	spin_lock_bh(&tq->lock);
	while ((first = rb_first_cached(&tq->tree))) {
		skb = rb_to_skb(first);
		rb_erase_cached(first, &tq->tree);
		mf_tq_dequeued(tq, mf_tq_cb(skb));
		skb->dev = NULL;
		kfree_skb(skb);
	}
	spin_unlock_bh(&tq->lock);
	/* no frame can come any more (teardown: the netdevs are gone) */
	mem_cgroup_put(tq->memcg);
	tq->memcg = NULL;
}
