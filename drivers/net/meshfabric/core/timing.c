// SPDX-License-Identifier: GPL-2.0
/* A broadcast schedule in fabric time: the link model of timing.h run as
 * a discrete-event simulation.  Every send has at most one pending event
 * (the time its frame reaches its next link), kept in a binary heap
 * ordered by (time, send, hop): frames take a link in the order they
 * reach it, ties in schedule order.
 */
#include "mf_compat.h"
#include <linux/meshfabric.h>
#include "timing.h"

static u64 mf_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* a + b, or U64_MAX if that overflows (absurd links: the result then
 * says "never", and the kernel refuses it against its horizon)
 */
static u64 mf_add(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

struct mf_ev {
	u64 t;			/* the frame reaches hop `hop` of its path */
	u32 send;
	u32 hop;
};

struct mf_sim {
	const struct mf_topo *t;
	const struct mf_sched *s;
	const struct mf_timing *tm;
	u64 *free;
	struct mf_timeline *tl;
	struct mf_ev *heap;
	u32 nheap;
	u32 *step_of;		/* sends: their step */
	u64 *bytes;		/* sends: frame bytes (NULL: tm->bytes) */
	/* asynchronous mode: each node's sends in schedule order */
	u32 *first;		/* nodes + 1: CSR offsets into list */
	u32 *list;		/* sends by source */
	u32 *cur;		/* nodes: next send of the node to release */
	u32 *pend;		/* nodes: released sends not yet started */
	u64 *inj;		/* nodes: when the released sends have left */
};

static bool mf_ev_less(const struct mf_ev *a, const struct mf_ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->send != b->send)
		return a->send < b->send;
	return a->hop < b->hop;
}

static void mf_ev_push(struct mf_sim *m, u64 t, u32 send, u32 hop)
{
	struct mf_ev e = { .t = t, .send = send, .hop = hop }, *h = m->heap;
	u32 i = m->nheap++, up;

	while (i) {
		up = (i - 1) / 2;
		if (!mf_ev_less(&e, &h[up]))
			break;
		h[i] = h[up];
		i = up;
	}
	h[i] = e;
}

static struct mf_ev mf_ev_pop(struct mf_sim *m)
{
	struct mf_ev top = m->heap[0], last, *h = m->heap;
	u32 i = 0, c, n = --m->nheap;

	if (!n)
		return top;
	last = h[n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && mf_ev_less(&h[c + 1], &h[c]))
			c++;
		if (!mf_ev_less(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	return top;
}

/* Asynchronous mode: release node v's next group of sends (those of its
 * next step) at time at.
 */
static void mf_release(struct mf_sim *m, u32 v, u64 at)
{
	u32 end = m->first[v + 1], j = m->cur[v], step;

	if (j >= end)
		return;
	step = m->step_of[m->list[j]];
	while (j < end && m->step_of[m->list[j]] == step) {
		mf_ev_push(m, at, m->list[j], 0);
		m->pend[v]++;
		j++;
	}
	m->cur[v] = j;
}

static void mf_run(struct mf_sim *m)
{
	const struct mf_timing *tm = m->tm;
	struct mf_timeline *tl = m->tl;
	struct mf_link_model lm;
	const struct mf_send *sd;
	u64 start, ser, l, at;
	struct mf_ev e;
	const u32 *p;
	int port;

	while (m->nheap) {
		e = mf_ev_pop(m);
		sd = &m->s->send[e.send];
		p = &m->s->path[sd->path];
		/* mf_check() proved p[hop], p[hop + 1] adjacent */
		port = mf_topo_port(m->t, p[e.hop], p[e.hop + 1]);
		l = mf_topo_link(m->t, p[e.hop], port);
		if (tm->get)
			tm->get(tm->ctx, l, &lm);
		else
			lm = *(const struct mf_link_model *)tm->ctx;
		ser = mf_ser_ns(m->bytes ? m->bytes[e.send] : tm->bytes,
				lm.rate);
		start = mf_max64(e.t, m->free[l]);
		m->free[l] = mf_add(start, ser);
		if (tm->async && !e.hop) {
			m->inj[sd->src] = mf_max64(m->inj[sd->src],
						   mf_add(start, ser));
			if (!--m->pend[sd->src])
				mf_release(m, sd->src,
					   mf_max64(tl->arrive[sd->src],
						    m->inj[sd->src]));
		}
		if (e.hop + 1 < sd->hops) {
			at = mf_add(start, lm.delay_ns);
			if (tm->switching != MESHFABRIC_SWITCH_CUT_THROUGH)
				at = mf_add(at, ser);
			mf_ev_push(m, at, e.send, e.hop + 1);
			continue;
		}
		at = mf_add(mf_add(start, ser), lm.delay_ns);	/* tail here */
		if (!m->s->xblk || tl->arrive[sd->dst] < at)
			tl->arrive[sd->dst] = at;
		tl->step_ns[m->step_of[e.send]] =
			mf_max64(tl->step_ns[m->step_of[e.send]], at);
		tl->total_ns = mf_max64(tl->total_ns, at);
		if (tm->async && !m->pend[sd->dst])
			mf_release(m, sd->dst, at);
	}
}

static int mf_async_init(struct mf_sim *m)
{
	u32 n = m->t->nodes, i, v;
	const struct mf_sched *s = m->s;

	m->first = mf_alloc_array(n + 1, sizeof(u32), true);
	m->list = mf_alloc_array(s->nsends, sizeof(u32), false);
	m->cur = mf_alloc_array(n, sizeof(u32), false);
	m->pend = mf_alloc_array(n, sizeof(u32), true);
	m->inj = mf_alloc_array(n, sizeof(u64), true);
	if (!m->first || !m->list || !m->cur || !m->pend || !m->inj)
		return -ENOMEM;
	for (i = 0; i < s->nsends; i++)
		m->first[s->send[i].src + 1]++;
	for (v = 0; v < n; v++)
		m->first[v + 1] += m->first[v];
	for (v = 0; v < n; v++)
		m->cur[v] = m->first[v];
	for (i = 0; i < s->nsends; i++)	/* in schedule order */
		m->list[m->cur[s->send[i].src]++] = i;
	for (v = 0; v < n; v++)
		m->cur[v] = m->first[v];
	return 0;
}

/* Each send's frame bytes: tm->bytes plus its blocks' (*out, nsends). */
static int mf_send_bytes(const struct mf_sched *s, const struct mf_timing *tm,
			 u64 **out)
{
	u64 *b = mf_alloc_array(s->nsends ? s->nsends : 1, sizeof(u64), false);
	u32 i, j, n;
	const u32 *ids;

	if (!b)
		return -ENOMEM;
	for (i = 0; i < s->nsends; i++) {
		ids = mf_send_blocks(s, i, &n);
		b[i] = tm->bytes;
		for (j = 0; j < n; j++)
			b[i] += tm->blk_bytes[ids[j] & ~MF_BLK_COMBINE];
	}
	*out = b;
	return 0;
}

int mf_sched_time(const struct mf_topo *t, const struct mf_sched *s,
		  const struct mf_timing *tm, u64 *free,
		  struct mf_timeline *tl)
{
	struct mf_sim m = { .t = t, .s = s, .tm = tm, .tl = tl, .free = free };
	u64 nlinks = (u64)t->nodes * t->nports, at = 0;
	u32 i, j, count;
	int err = -ENOMEM;

	if (!tm->ctx || s->source >= t->nodes ||
	    tm->switching > MESHFABRIC_SWITCH_CUT_THROUGH ||
	    (s->xblk && tm->async))
		return -EINVAL;
	tl->total_ns = 0;
	memset(tl->step_ns, 0, s->nsteps * sizeof(*tl->step_ns));
	for (i = 0; i < t->nodes; i++)
		tl->arrive[i] = s->xblk ? 0 : U64_MAX;
	tl->arrive[s->source] = 0;
	if (tm->blk_bytes) {
		err = mf_send_bytes(s, tm, &m.bytes);
		if (err)
			return err;
	}
	if (!free)
		m.free = mf_alloc_array(nlinks, sizeof(u64), true);
	m.heap = mf_alloc_array(s->nsends ? s->nsends : 1, sizeof(*m.heap),
				false);
	m.step_of = mf_alloc_array(s->nsends ? s->nsends : 1, sizeof(u32),
				   false);
	if (!m.free || !m.heap || !m.step_of)
		goto out;
	for (i = 0; i < s->nsteps; i++)
		for (j = s->step[i]; j < s->step[i + 1]; j++)
			m.step_of[j] = i;
	if (tm->async) {
		err = mf_async_init(&m);
		if (err)
			goto out;
		mf_release(&m, s->source, 0);
		mf_run(&m);
	} else {
		for (i = 0; i < s->nsteps; i++) {
			mf_sched_sends(s, i, &count);
			for (j = 0; j < count; j++)
				mf_ev_push(&m, at, s->step[i] + j, 0);
			mf_run(&m);
			/* an empty step (none is built) takes no time */
			at = mf_max64(at, tl->step_ns[i]);
			tl->step_ns[i] = at;
		}
	}
	err = 0;
out:
	if (!free)
		mf_free(m.free);
	mf_free_all(m.heap, m.step_of, m.first, m.list, m.cur, m.pend, m.inj,
		    m.bytes);
	return err;
}

int mf_timeline_alloc(struct mf_timeline *tl, const struct mf_topo *t,
		      const struct mf_sched *s)
{
	tl->total_ns = 0;
	tl->step_ns = mf_alloc_array(s->nsteps ? s->nsteps : 1, sizeof(u64),
				     true);
	tl->arrive = mf_alloc_array(t->nodes, sizeof(u64), false);
	if (tl->step_ns && tl->arrive)
		return 0;
	mf_timeline_free(tl);
	return -ENOMEM;
}

void mf_timeline_free(struct mf_timeline *tl)
{
	mf_free(tl->step_ns);
	mf_free(tl->arrive);
	tl->step_ns = NULL;
	tl->arrive = NULL;
}
