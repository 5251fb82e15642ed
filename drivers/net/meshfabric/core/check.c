// SPDX-License-Identifier: GPL-2.0
/* Independent validation of collective schedules (check.h): each one run
 * on symbolic values, a broadcast as the collective of one block.
 */
#include "check.h"
#include "linkacct.h"

/* -EINVAL, with the reason written to err when there is room for it. */
#define BAD(...) ((void)(err && errlen && snprintf(err, errlen, __VA_ARGS__)), \
		  -EINVAL)

/* The port model: one send per node (one-port, sent[]) or per outgoing
 * link (all-port, first[]) in the step stamped stamp; marks it used.
 */
static bool port_free(u32 *sent, u32 *first, u32 src, u64 link, u32 stamp)
{
	u32 *mark = sent ? &sent[src] : &first[link];

	if (*mark == stamp)
		return false;
	*mark = stamp;
	return true;
}

/* Nodes the source cannot reach over the links f leaves up (BFS). */
static int count_unreachable(const struct mf_topo *t, u32 source,
			     const struct mf_faults *f, u32 *out)
{
	u32 *q = mf_alloc_array(t->nodes, sizeof(u32), false);
	u8 *seen = mf_alloc_array(t->nodes, 1, true);
	u32 h = 0, tl = 0, x, p;
	s64 v;

	if (!q || !seen) {
		mf_free(q);
		mf_free(seen);
		return -ENOMEM;
	}
	seen[source] = 1;
	q[tl++] = source;
	while (h < tl) {
		x = q[h++];
		for (p = 0; p < t->nports; p++) {
			v = mf_topo_neighbor(t, x, p);
			if (v < 0 || seen[v] || mf_faults_down(f, t, x, p))
				continue;
			seen[v] = 1;
			q[tl++] = (u32)v;
		}
	}
	*out = t->nodes - tl;
	mf_free(q);
	mf_free(seen);
	return 0;
}

int mf_check(const struct mf_topo *t, const struct mf_sched *s,
	     struct mf_stats *st, char *err, size_t errlen)
{
	return mf_check_faults(t, s, NULL, st, err, errlen);
}

/* The symbolic run of one schedule (check.h). */
struct mf_cstate {
	u32 n, nb, w;		/* nodes, blocks, u64 words per value */
	bool reduce;		/* values are contribution sets */
	u64 *val;		/* (node * nb + block) * w: the values */
	u32 *mark;		/* node * nb + block: stamp << 1 | combine */
	u64 *snap;		/* the step's carried values, in order */
	u32 *pend;		/* the step's (node * nb + block) | combine << 31 */
	u32 npend;
};

static bool coll_reduces(u32 coll)
{
	return coll == MF_COLL_REDUCE || coll == MF_COLL_ALLREDUCE ||
	       coll == MF_COLL_REDUCE_SCATTER;
}

/* The node block b belongs to (scatter, gather, reduce-scatter,
 * allgather), or comes from and goes to (alltoall).
 */
static u32 owner(const struct mf_cstate *c, u32 b)
{
	return b / (c->nb / c->n);
}

static u32 a2a_dst(const struct mf_cstate *c, u32 b)
{
	return (b / (c->nb / c->n / c->n)) % c->n;
}

static u64 *cval(const struct mf_cstate *c, u32 v, u32 b)
{
	return &c->val[((u64)v * c->nb + b) * c->w];
}

static bool cval_empty(const struct mf_cstate *c, const u64 *x)
{
	u32 k;

	for (k = 0; k < c->w; k++)
		if (x[k])
			return false;
	return true;
}

/* The lowest node in both a and b, or -1. */
static s64 cval_common(const struct mf_cstate *c, const u64 *a, const u64 *b)
{
	u32 k, bit;

	for (k = 0; k < c->w; k++)
		for (bit = 0; bit < 64; bit++)
			if ((a[k] & b[k]) >> bit & 1)
				return (s64)k * 64 + bit;
	return -1;
}

/* The lowest node that should be in a full value but is not in x, or -1. */
static s64 cval_lacks(const struct mf_cstate *c, const u64 *x)
{
	u32 v;

	for (v = 0; v < c->n; v++)
		if (!(x[v / 64] >> (v % 64) & 1))
			return v;
	return -1;
}

/* The blocks each collective needs and the values it starts with. */
static int cstate_init(struct mf_cstate *c, const struct mf_topo *t,
		       const struct mf_sched *s, u32 maxpend, char *err,
		       size_t errlen)
{
	u32 v, b, need = 1;
	u64 bytes;

	c->n = t->nodes;
	c->nb = mf_sched_nblocks(s);
	c->reduce = coll_reduces(s->coll);
	c->w = c->reduce ? (c->n + 63) / 64 : 1;
	if (s->coll >= MF_COLL_COUNT)
		return BAD("unknown collective %u", s->coll);
	if (s->coll == MF_COLL_ALLTOALL)
		need = c->n * c->n;
	else if (s->coll >= MF_COLL_REDUCE_SCATTER)
		need = c->n;
	if (c->nb % need)
		return BAD("%u blocks: this collective on %u nodes needs a multiple of %u",
			   c->nb, c->n, need);
	bytes = ((u64)c->n * c->nb + maxpend) * c->w * 8;
	if (bytes > MF_CHECK_STATE_MAX)
		return -E2BIG;
	c->val = mf_alloc_array((size_t)c->n * c->nb * c->w, 8, true);
	c->mark = mf_alloc_array((size_t)c->n * c->nb, 4, true);
	c->snap = mf_alloc_array((size_t)maxpend * c->w, 8, false);
	c->pend = mf_alloc_array(maxpend, 4, false);
	if (!c->val || !c->mark || !c->snap || !c->pend)
		return -ENOMEM;
	for (v = 0; v < c->n; v++) {
		for (b = 0; b < c->nb; b++) {
			bool has;

			switch (s->coll) {
			case MF_COLL_BCAST:
			case MF_COLL_SCATTER:
				has = v == s->source;
				break;
			case MF_COLL_ALLGATHER:
			case MF_COLL_GATHER:
				has = owner(c, b) == v;
				break;
			case MF_COLL_ALLTOALL:
				has = owner(c, b) == v;
				break;
			default:	/* reductions: each its own */
				cval(c, v, b)[v / 64] = 1ULL << (v % 64);
				continue;
			}
			cval(c, v, b)[0] = has;
		}
	}
	return 0;
}

/* Does node v have to end with block b, and full? */
static bool cstate_needs(const struct mf_cstate *c, u32 coll, u32 root,
			 u32 v, u32 b)
{
	switch (coll) {
	case MF_COLL_BCAST:
	case MF_COLL_ALLGATHER:
	case MF_COLL_ALLREDUCE:
		return true;
	case MF_COLL_REDUCE:
	case MF_COLL_GATHER:
		return v == root;
	case MF_COLL_REDUCE_SCATTER:
	case MF_COLL_SCATTER:
		return owner(c, b) == v;
	default:		/* alltoall */
		return a2a_dst(c, b) == v;
	}
}

/* The end state against the collective's definition. */
static int cstate_final(const struct mf_cstate *c, const struct mf_sched *s,
			u32 unreachable, char *err, size_t errlen)
{
	u32 v, b, count = 0;
	s64 lack;

	if (s->coll == MF_COLL_BCAST) {
		for (v = 0; v < c->n; v++) {
			for (b = 0; b < c->nb && *cval(c, v, b); b++)
				;
			count += b == c->nb;
		}
		if (count != c->n - unreachable)
			return BAD("%u of %u nodes informed, %u unreachable",
				   count, c->n, unreachable);
		return 0;
	}
	for (v = 0; v < c->n; v++) {
		for (b = 0; b < c->nb; b++) {
			const u64 *x = cval(c, v, b);

			if (!cstate_needs(c, s->coll, s->source, v, b))
				continue;
			if (cval_empty(c, x))
				return BAD("node %u ends without block %u", v, b);
			lack = c->reduce ? cval_lacks(c, x) : -1;
			if (lack >= 0)
				return BAD("node %u ends with block %u lacking node %u's part",
					   v, b, (u32)lack);
		}
	}
	return 0;
}

static void cstate_free(struct mf_cstate *c)
{
	mf_free_all(c->val, c->mark, c->snap, c->pend);
}

/* The most block entries one step carries (the pending list's size). */
static u32 most_step_blocks(const struct mf_sched *s)
{
	u32 i, most = 0, from, to;

	for (i = 0; i < s->nsteps; i++) {
		from = s->xblk ? s->xblk[s->step[i]] : s->step[i];
		to = s->xblk ? s->xblk[s->step[i + 1]] : s->step[i + 1];
		if (to - from > most)
			most = to - from;
	}
	return most;
}

/* Send m (number k of the schedule) in the step stamped stamp: its blocks
 * read from the source's values and queued for the destination.
 */
static int cstate_send(struct mf_cstate *c, const struct mf_sched *s,
		       const struct mf_send *m, u32 k, u32 stamp, char *err,
		       size_t errlen)
{
	bool bcast = s->coll == MF_COLL_BCAST && c->nb == 1;
	u32 step = stamp - 1, nblk, j, b, *mark;
	const u32 *ids = mf_send_blocks(s, k, &nblk);
	bool comb;

	if (!nblk)
		return BAD("step %u: send %u->%u carries no block", step,
			   m->src, m->dst);
	for (j = 0; j < nblk; j++) {
		b = ids[j] & ~MF_BLK_COMBINE;
		comb = ids[j] & MF_BLK_COMBINE;
		if (b >= c->nb)
			return BAD("step %u: send %u->%u carries block %u of %u",
				   step, m->src, m->dst, b, c->nb);
		if (comb && !c->reduce)
			return BAD("step %u: send %u->%u combines outside a reduction",
				   step, m->src, m->dst);
		if (cval_empty(c, cval(c, m->src, b))) {
			if (bcast)
				return BAD("step %u: node %u sends before it is informed",
					   step, m->src);
			return BAD("step %u: node %u sends block %u it does not hold",
				   step, m->src, b);
		}
		mark = &c->mark[(u64)m->dst * c->nb + b];
		if ((*mark >> 1 == stamp && (!(*mark & 1) || !comb)) ||
		    (!c->reduce && !cval_empty(c, cval(c, m->dst, b)))) {
			if (bcast)
				return BAD("step %u: node %u informed twice",
					   step, m->dst);
			return BAD("step %u: node %u receives block %u twice",
				   step, m->dst, b);
		}
		*mark = stamp << 1 | comb;
		memcpy(&c->snap[(u64)c->npend * c->w], cval(c, m->src, b),
		       c->w * 8);
		c->pend[c->npend++] = (m->dst * c->nb + b) |
				      (comb ? MF_BLK_COMBINE : 0);
	}
	return 0;
}

/* The end of the step: every queued value delivered. */
static int cstate_apply(struct mf_cstate *c, u32 step, char *err,
			size_t errlen)
{
	u32 i, k, at;
	u64 *x, *y;
	s64 dup;

	for (i = 0; i < c->npend; i++) {
		at = c->pend[i] & ~MF_BLK_COMBINE;
		x = &c->val[(u64)at * c->w];
		y = &c->snap[(u64)i * c->w];
		if (!(c->pend[i] & MF_BLK_COMBINE)) {
			memcpy(x, y, c->w * 8);
			continue;
		}
		dup = cval_common(c, x, y);
		if (dup >= 0)
			return BAD("step %u: node %u counts node %u's block %u twice",
				   step, at / c->nb, (u32)dup, at % c->nb);
		for (k = 0; k < c->w; k++)
			x[k] |= y[k];
	}
	c->npend = 0;
	return 0;
}

int mf_check_faults(const struct mf_topo *t, const struct mf_sched *s,
		    const struct mf_faults *f, struct mf_stats *st, char *err,
		    size_t errlen)
{
	struct mf_linkacct acc = { 0 };
	struct mf_cstate c = { 0 };
	u32 *sent = NULL;	/* one-port: step + 2 of a node's last send */
	u32 *got = NULL;	/* one-port: step + 2 of a node's last receive */
	u32 *first = NULL;	/* all-port: step + 2 of a link's last first-hop */
	u32 *last = NULL;	/* all-port: step + 2 of a link's last last-hop */
	u64 *nodeblk = NULL;	/* blocks each node sent */
	u32 i, j, h, nsends, unreachable = 0, most, load, nblk;
	u64 l;
	int ret;

	memset(st, 0, sizeof(*st));
	if (err && errlen)
		err[0] = '\0';
	if (s->model != MESHFABRIC_MODEL_ONE_PORT &&
	    s->model != MESHFABRIC_MODEL_ALL_PORT)
		return BAD("unknown port model %u", s->model);
	if (s->source >= t->nodes || !s->step || s->open)
		return BAD("source %u out of range, or the schedule not ended",
			   s->source);
	if (s->step[0] != 0 || s->step[s->nsteps] != s->nsends)
		return BAD("step table does not cover the sends");
	for (i = 0; i < s->nsteps; i++)
		if (s->step[i + 1] < s->step[i])
			return BAD("step %u: step table not increasing", i + 1);
	if (s->xblk && (s->xblk[0] || s->xblk[s->nsends] > s->nblk))
		return BAD("block table does not cover the sends");
	for (i = 0; s->xblk && i < s->nsends; i++)
		if (s->xblk[i + 1] < s->xblk[i])
			return BAD("block table not increasing at send %u", i);
	if (f && f->n && s->coll == MF_COLL_BCAST) {
		ret = count_unreachable(t, s->source, f, &unreachable);
		if (ret)
			return ret;
	}
	ret = cstate_init(&c, t, s, most_step_blocks(s), err, errlen);
	if (ret)
		goto out;
	ret = mf_linkacct_init(&acc, t);
	if (ret)
		goto out;
	nodeblk = mf_alloc_array(t->nodes, sizeof(u64), true);
	if (s->model == MESHFABRIC_MODEL_ONE_PORT) {
		sent = mf_alloc_array(t->nodes, sizeof(u32), true);
		got = mf_alloc_array(t->nodes, sizeof(u32), true);
	} else {
		first = mf_alloc_array(acc.nlinks, sizeof(u32), true);
		last = mf_alloc_array(acc.nlinks, sizeof(u32), true);
	}
	ret = -ENOMEM;
	if (!nodeblk || (!sent && !first) || (!got && !last))
		goto out;
	ret = 0;
	for (i = 0; i < s->nsteps; i++) {
		const struct mf_send *m;
		u32 stamp = i + 2;	/* step i is stamped i + 2 */

		m = mf_sched_sends(s, i, &nsends);
		mf_linkacct_step(&acc);
		most = 0;
		for (j = 0; j < nsends; j++, m++) {
			const u32 *p;
			int port = 0;

			if (m->src >= t->nodes || m->dst >= t->nodes) {
				ret = BAD("step %u: node out of range", i + 1);
				goto out;
			}
			if (!m->hops || (u64)m->path + m->hops >= s->npath) {
				ret = BAD("step %u: send %u->%u has a bad path",
					  i + 1, m->src, m->dst);
				goto out;
			}
			p = &s->path[m->path];
			if (p[0] != m->src || p[m->hops] != m->dst) {
				ret = BAD("step %u: path of %u->%u does not join them",
					  i + 1, m->src, m->dst);
				goto out;
			}
			ret = cstate_send(&c, s, m, s->step[i] + j, stamp,
					  err, errlen);
			if (ret)
				goto out;
			mf_send_blocks(s, s->step[i] + j, &nblk);
			st->blocks += nblk;
			nodeblk[m->src] += nblk;
			for (h = 0; h < m->hops; h++) {
				port = mf_topo_port(t, p[h], p[h + 1]);
				if (port < 0) {
					ret = BAD("step %u: %u and %u are not adjacent",
						  i + 1, p[h], p[h + 1]);
					goto out;
				}
				if (mf_faults_down(f, t, p[h], (u32)port)) {
					ret = BAD("step %u: %u->%u crosses the down link %u-%u",
						  i + 1, m->src, m->dst, p[h],
						  p[h + 1]);
					goto out;
				}
				if (!h && !port_free(sent, first, m->src,
						     mf_topo_link(t, p[0], port),
						     stamp)) {
					ret = BAD("step %u: node %u sends twice (%s)",
						  i + 1, m->src, sent ? "one-port" :
						  "all-port: same port");
					goto out;
				}
				l = mf_topo_link(t, p[h], (u32)port);
				load = mf_linkacct_hop(&acc, l);
				if (load > most)
					most = load;
			}
			if (!port_free(got, last, m->dst,
				       mf_topo_link(t, p[m->hops - 1], port),
				       stamp)) {
				ret = BAD("step %u: node %u receives twice (%s)",
					  i + 1, m->dst, got ? "one-port" :
					  "all-port: same port");
				goto out;
			}
			st->tcd += m->hops;
			if (!(j & 1023))
				mf_resched();
		}
		ret = cstate_apply(&c, i + 1, err, errlen);
		if (ret)
			goto out;
		st->serial += most;
		mf_resched();
	}
	ret = cstate_final(&c, s, unreachable, err, errlen);
	if (ret)
		goto out;
	for (i = 0; i < t->nodes; i++)
		if (nodeblk[i] > st->node_blocks)
			st->node_blocks = nodeblk[i];
	st->unreachable = unreachable;
	st->steps = s->nsteps;
	st->sends = s->nsends;
	st->max_link_load = acc.max_load;
	st->contention = acc.contention;
out:
	mf_linkacct_free(&acc);
	cstate_free(&c);
	mf_free_all(sent, got, first, last, nodeblk);
	return ret;
}
