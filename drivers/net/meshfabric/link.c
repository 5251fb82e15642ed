// SPDX-License-Identifier: GPL-2.0
/*
 * link.c - timed links: each directed link's rate, delay, queue limit and
 * loss (struct mf_linkstate), LINK_SET and LINK_GET's entries, and the
 * reservation a timed unicast frame makes on each link of its path.
 *
 * The model is the core's (timing.h), followed per frame in O(hops) with
 * no timer per hop: when a frame is sent, it reserves its slot on every
 * link of its path at once (start = max(ready, busy), busy = its end),
 * then waits in the fabric's time-ordered queue (tqueue.c) for its
 * arrival.  The approximation: a link serves frames in the order they were
 * SENT, not in the order they reach it; the two differ only when a frame
 * sent later reaches a shared link earlier (a shorter way there), which
 * then waits behind the earlier-sent one.  The queue limit is checked
 * against the backlog the frame finds: (busy - ready) / its serialisation
 * time frames ahead of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include "mf.h"
#include "trace.h"

void mf_links_defaults(struct mf_fabric *f)
{
	u64 l;

	for (l = 0; l < f->links.n; l++) {
		atomic64_set(&f->links.st[l].busy, 0);
		f->links.st[l].queue = MESHFABRIC_QUEUE_DEFAULT;
	}
	f->links.switching = MESHFABRIC_SWITCH_STORE_FORWARD;
}

static void mf_link_apply(struct mf_linkstate *st,
			  const struct meshfabric_link_set *ls)
{
	if (ls->flags & MESHFABRIC_LINK_RATE)
		WRITE_ONCE(st->rate, ls->rate);
	if (ls->flags & MESHFABRIC_LINK_DELAY)
		WRITE_ONCE(st->delay_ns, ls->delay_ns);
	if (ls->flags & MESHFABRIC_LINK_QUEUE)
		WRITE_ONCE(st->queue, ls->queue);
	if (ls->flags & MESHFABRIC_LINK_LOSS)
		WRITE_ONCE(st->loss, ls->loss);
}

/* ls was validated by mf_validate_link_set() (ioctl.c). */
int mf_link_set(struct mf_fabric *f, const struct meshfabric_link_set *ls)
{
	const struct mf_topo *t = &f->topo;
	u32 n0 = 0, n1 = t->nodes, p0 = 0, p1 = t->nports, node, port;
	bool timed = false;
	int count = 0;
	u64 l;

	if (ls->node != MESHFABRIC_ALL) {
		if (ls->node >= t->nodes)
			return -EINVAL;
		n0 = ls->node;
		n1 = n0 + 1;
	}
	if (ls->port != MESHFABRIC_ALL) {
		/* a port by name must be a link of its own */
		if (ls->port >= t->nports || ls->node == MESHFABRIC_ALL ||
		    !mf_topo_is_link(t, ls->node, ls->port))
			return -EINVAL;
		p0 = ls->port;
		p1 = p0 + 1;
	}
	mutex_lock(&f->lock);
	for (node = n0; node < n1; node++) {
		for (port = p0; port < p1; port++) {
			if (!mf_topo_is_link(t, node, port))
				continue;
			mf_link_apply(&f->links.st[(u64)node * t->nports + port],
				      ls);
			count++;
		}
		if (!(node & 1023))
			cond_resched();
	}
	if (ls->flags & MESHFABRIC_LINK_SWITCHING)
		WRITE_ONCE(f->links.switching, ls->switching);
	for (l = 0; l < f->links.n && !timed; l++)
		timed = f->links.st[l].rate || f->links.st[l].delay_ns ||
			f->links.st[l].loss;
	WRITE_ONCE(f->links.timed, timed);
	mutex_unlock(&f->lock);
	trace_meshfabric_link_set(f->id, ls->node, ls->port, ls->flags,
				  ls->rate, ls->delay_ns, ls->queue, ls->loss,
				  ls->switching);
	return count;
}

void mf_link_info(struct mf_fabric *f, u64 l, u64 now,
		  struct meshfabric_link_info *li)
{
	const struct mf_linkstate *st = &f->links.st[l];
	const struct mf_topo *t = &f->topo;
	struct mf_linkctr c;
	u64 busy;

	memset(li, 0, sizeof(*li));
	li->node = l / t->nports;
	li->port = l % t->nports;
	/* no link of its own: a mesh border, or the - port of a size-2
	 * torus dimension (that link is the + port's)
	 */
	li->peer = mf_topo_is_link(t, li->node, li->port) ?
		   f->links.peer[l] : MESHFABRIC_NO_PEER;
	li->rate = READ_ONCE(st->rate);
	li->delay_ns = READ_ONCE(st->delay_ns);
	li->queue = READ_ONCE(st->queue);
	li->loss = READ_ONCE(st->loss);
	mf_link_read_all(f, l, &c);
	li->packets = c.packets;
	li->bytes = c.bytes;
	li->drop_loss = c.drop_loss;
	li->drop_queue = c.drop_queue;
	li->busy_ns = c.busy_ns;
	busy = atomic64_read(&st->busy);
	li->backlog_ns = busy > now ? busy - now : 0;
}

void mf_link_model(const void *fabric, u64 l, struct mf_link_model *out)
{
	const struct mf_fabric *f = fabric;

	out->rate = READ_ONCE(f->links.st[l].rate);
	out->delay_ns = READ_ONCE(f->links.st[l].delay_ns);
}

/* Did the loss draw pick one of segs segments (each lost with
 * probability loss / 10^9)?  A GSO frame is lost whole if any of its
 * segments is: the fabric does not split it.
 */
static bool mf_link_lost(u32 loss, u32 segs)
{
	u32 i;

	if (!loss)
		return false;
	for (i = 0; i < segs; i++)
		if (get_random_u32_below(MESHFABRIC_LOSS_MAX) < loss)
			return true;
	return false;
}

bool mf_link_loses(struct mf_fabric *f, u64 l)
{
	if (!mf_link_lost(READ_ONCE(f->links.st[l].loss), 1))
		return false;
	f->links.row[smp_processor_id()][l].drop_loss++;
	return true;
}

bool mf_link_reserve(struct mf_fabric *f, u64 l, struct mf_tframe *fr,
		     enum mf_drop_reason *why)
{
	struct mf_linkctr *c = &f->links.row[smp_processor_id()][l];
	struct mf_linkstate *st = &f->links.st[l];
	u64 rate = READ_ONCE(st->rate), delay = READ_ONCE(st->delay_ns);
	u32 queue = READ_ONCE(st->queue);
	u64 ser = mf_ser_ns(fr->seg_bytes, rate);
	u64 old, start, end;

	if (mf_link_lost(READ_ONCE(st->loss), fr->segs)) {
		c->drop_loss += fr->segs;
		*why = MF_DROP_LOSS;
		return false;
	}
	old = atomic64_read(&st->busy);
	do {
		/* frames ahead of this one when it reaches the link */
		if (ser && old > fr->head &&
		    div64_u64(old - fr->head, ser) + fr->segs > queue) {
			c->drop_queue += fr->segs;
			*why = MF_DROP_QUEUE_FULL;
			return false;
		}
		start = max(fr->head, old);
		/* its last segment leaves once it is here (store-and-forward:
		 * whole; cut-through: its last bit) and its turn came
		 */
		end = start + fr->segs * ser;
		if (READ_ONCE(f->links.switching) ==
		    MESHFABRIC_SWITCH_CUT_THROUGH)
			end = max(end, fr->tail);
		else
			end = max(end, fr->tail + ser);
	} while (!atomic64_try_cmpxchg(&st->busy, &old, end));
	c->packets += fr->segs;
	c->bytes += fr->len;
	c->busy_ns += fr->segs * ser;
	fr->head = start + delay;
	if (READ_ONCE(f->links.switching) != MESHFABRIC_SWITCH_CUT_THROUGH)
		fr->head += ser;
	fr->tail = end + delay;
	return true;
}
