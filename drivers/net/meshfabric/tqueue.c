// SPDX-License-Identifier: GPL-2.0
/*
 * tqueue.c - the time-ordered queue of a fabric's timed unicast frames
 * (struct mf_tqueue): each frame waits, with the slots it reserved on its
 * links (link.c), until its arrival time, then goes to its destination's
 * netdev.  A tree keyed by arrival time with a cached leftmost node, as
 * netem's tfifo, and one soft hrtimer set to the earliest arrival, as
 * sch_fq's watchdog: one timer per fabric, never one per frame or hop.
 *
 * Frames are orphaned and scrubbed at enqueue (as bcast.c's queue): a
 * frame on its way pins no socket, and the queue is bounded by
 * MESHFABRIC_TIMED_BYTES of truesize instead of the senders' buffers.
 * Timer rule: the timer is (re)armed only under tq->lock, by an enqueue
 * that becomes the earliest frame or by the callback for the frames left,
 * so it always fires at or before the earliest arrival.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include "mf.h"
#include "trace.h"

/* Frames one timer run delivers before it lets other softirqs run (the
 * rest a microsecond later).
 */
#define MF_TQ_BUDGET	256

/* Truesize of the frames waiting in every fabric (uapi's
 * MESHFABRIC_TIMED_TOTAL bounds it).
 */
static atomic_long_t mf_tq_total = ATOMIC_LONG_INIT(0);

struct mf_tq_cb {
	u64 time;		/* arrival, CLOCK_MONOTONIC ns */
	u32 dst;		/* node */
	u32 size;		/* truesize charged */
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

bool mf_tq_enqueue(struct mf_fabric *f, u32 dst, struct sk_buff *skb,
		   u64 when)
{
	struct mf_tqueue *tq = &f->tq;
	struct rb_node **p, *parent = NULL;
	struct mf_tq_cb *cb;
	bool leftmost = true;

	skb_orphan(skb);
	/* zerocopy pages would hold the sender's socket until arrival */
	if (skb_orphan_frags_rx(skb, GFP_ATOMIC)) {
		kfree_skb(skb);
		return false;
	}
	skb_scrub_packet(skb, true);
	cb = mf_tq_cb(skb);
	cb->time = when;
	cb->dst = dst;
	cb->size = skb->truesize;
	if (atomic_long_add_return(cb->size, &mf_tq_total) >
	    MESHFABRIC_TIMED_TOTAL) {
		atomic_long_sub(cb->size, &mf_tq_total);
		kfree_skb(skb);
		return false;
	}
	spin_lock_bh(&tq->lock);
	if (tq->stopped || tq->bytes + cb->size > MESHFABRIC_TIMED_BYTES) {
		spin_unlock_bh(&tq->lock);
		atomic_long_sub(cb->size, &mf_tq_total);
		kfree_skb(skb);
		return false;
	}
	tq->bytes += cb->size;
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

static void mf_tq_deliver(struct mf_fabric *f, struct sk_buff *skb, u32 dst)
{
	struct net_device *dev;
	unsigned int len = skb->len;

	rcu_read_lock();
	dev = rcu_dereference(f->node[dst].dev);
	if (!dev) {
		rcu_read_unlock();
		trace_meshfabric_drop(f->id, dst, len, MF_DROP_NODE_GONE);
		kfree_skb(skb);
		return;
	}
	skb->dev = dev;
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
		tq->bytes -= mf_tq_cb(skb)->size;
		atomic_long_sub(mf_tq_cb(skb)->size, &mf_tq_total);
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

void mf_tq_init(struct mf_fabric *f)
{
	struct mf_tqueue *tq = &f->tq;

	spin_lock_init(&tq->lock);
	tq->tree = RB_ROOT_CACHED;
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
		tq->bytes -= mf_tq_cb(skb)->size;
		atomic_long_sub(mf_tq_cb(skb)->size, &mf_tq_total);
		skb->dev = NULL;
		kfree_skb(skb);
	}
	spin_unlock_bh(&tq->lock);
}
