// SPDX-License-Identifier: GPL-2.0
/* The collective algorithms (coll.h) and mf_coll_plan.  Every builder
 * writes a schedule in sched.h's format; mf_coll_plan hands it to the
 * checker (check.h), which knows nothing of the builders.
 *
 * Ranks are node ids; a send between two ranks follows the topology's
 * default routing (DOR, A1 on H_n), so ranks that are not neighbours
 * cost hops, and sends that share a link in a step count as contention.
 */
#include "coll.h"
#include "algo.h"
#include "route.h"

/* What a builder works with. */
struct cb {
	const struct mf_topo *t;
	const struct mf_coll_req *rq;
	struct mf_sched *s;
	u32 n, routing;
	u32 *ids;		/* scratch block list, nblocks entries */
};

/* One send src -> dst (routed) carrying ids[0..k-1]. */
static int xsend(struct cb *c, u32 src, u32 dst, const u32 *ids, u32 k,
		 bool combine)
{
	int err = mf_sched_send_route(c->s, c->t, c->routing, src, dst);

	return err ? err : mf_sched_blocks(c->s, ids, k, combine);
}

static int xsend1(struct cb *c, u32 src, u32 dst, u32 id, bool combine)
{
	return xsend(c, src, dst, &id, 1, combine);
}

static u32 floor_pow2(u32 n)
{
	u32 p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

static u32 log2u(u32 p)
{
	u32 k = 0;

	while ((1U << k) < p)
		k++;
	return k;
}

static bool is_pow2(u32 n)
{
	return n && !(n & (n - 1));
}

/* Bit-matrix rows: N x words. */
static u64 *bits_alloc(u32 rows, u32 cols)
{
	return mf_alloc_array((size_t)rows * ((cols + 63) / 64), 8, true);
}

#define BROW(m, r, cols) (&(m)[(size_t)(r) * (((cols) + 63) / 64)])

static inline void BSET(u64 *row, u32 i)
{
	row[i / 64] |= 1ULL << (i % 64);
}

static inline bool BTEST(const u64 *row, u32 i)
{
	return row[i / 64] >> (i % 64) & 1;
}

/* The blocks set in row (cols bits) into c->ids; their number. */
static u32 bits_list(struct cb *c, const u64 *row, u32 cols)
{
	u32 i, k = 0;

	for (i = 0; i < cols; i++)
		if (BTEST(row, i))
			c->ids[k++] = i;
	return k;
}

/* ---- fold and unfold: N off 2^k onto the P = 2^floor(log2 N) lowest */

static int fold(struct cb *c, u32 p, bool combine)
{
	u32 i, nb = mf_sched_nblocks(c->s), k;
	int err;

	if (p == c->n)
		return 0;
	err = mf_sched_step(c->s);
	for (i = p; !err && i < c->n; i++) {
		for (k = 0; k < nb; k++)
			c->ids[k] = k;
		err = xsend(c, i, i - p, c->ids, nb, combine);
	}
	return err;
}

/* rank i < n - p copies everything back to p + i; skip: blocks the
 * receiver holds already (allgather: its own)
 */
static int unfold(struct cb *c, u32 p, bool own_skip)
{
	u32 i, nb = mf_sched_nblocks(c->s), k, m;
	int err;

	if (p == c->n)
		return 0;
	err = mf_sched_step(c->s);
	for (i = p; !err && i < c->n; i++) {
		for (k = 0, m = 0; k < nb; k++)
			if (!own_skip || k / (nb / c->n) != i)
				c->ids[m++] = k;
		err = xsend(c, i - p, i, c->ids, m, false);
	}
	return err;
}

/* ---- recursive doubling */

static int recdbl_build(struct cb *c)
{
	u32 p = floor_pow2(c->n), k = log2u(p), j, r, m, w = c->n;
	bool gather = c->rq->coll == MF_COLL_ALLGATHER;
	u64 *held = NULL, *next = NULL;
	int err;

	err = mf_coll_init(c->s, c->rq->coll, MESHFABRIC_MODEL_ONE_PORT, 0,
			   gather ? c->n : 1);
	if (err)
		return err;
	if (!gather) {
		err = fold(c, p, true);
		for (j = 0; !err && j < k; j++) {
			err = mf_sched_step(c->s);
			for (r = 0; !err && r < p; r++)
				err = xsend1(c, r, r ^ (1U << j), 0, true);
		}
		return err ? err : unfold(c, p, false);
	}
	/* allgather: each rank sends every block it holds */
	held = bits_alloc(c->n, w);
	next = bits_alloc(c->n, w);
	if (!held || !next) {
		err = -ENOMEM;
		goto out;
	}
	for (r = 0; r < c->n; r++)
		BSET(BROW(held, r, w), r);
	if (p != c->n) {
		err = mf_sched_step(c->s);
		for (r = p; !err && r < c->n; r++) {
			err = xsend1(c, r, r - p, r, false);
			BSET(BROW(held, r - p, w), r);
		}
	}
	for (j = 0; !err && j < k; j++) {
		memcpy(next, held, (size_t)c->n * ((w + 63) / 64) * 8);
		err = mf_sched_step(c->s);
		for (r = 0; !err && r < p; r++) {
			u64 *dst = BROW(next, r ^ (1U << j), w);

			m = bits_list(c, BROW(held, r, w), w);
			err = xsend(c, r, r ^ (1U << j), c->ids, m, false);
			for (; m--;)
				BSET(dst, c->ids[m]);
		}
		swap(held, next);
	}
	if (!err)
		err = unfold(c, p, true);
out:
	mf_free_all(held, next);
	return err;
}

/* ---- Rabenseifner: recursive halving, then recursive doubling */

static int raben_build(struct cb *c)
{
	u32 p = floor_pow2(c->n), k = log2u(p), j, r, q, bit, lo, len, i;
	bool rs = c->rq->coll == MF_COLL_REDUCE_SCATTER;
	u32 *base = NULL;
	int err;

	err = mf_coll_init(c->s, c->rq->coll, MESHFABRIC_MODEL_ONE_PORT, 0, p);
	if (err)
		return err;
	base = mf_alloc_array(p, sizeof(u32), true);	/* range start */
	if (!base)
		return -ENOMEM;
	err = fold(c, p, true);
	for (j = 0, len = p; !err && j < k; j++) {
		bit = p >> (j + 1);
		len /= 2;
		err = mf_sched_step(c->s);
		for (r = 0; !err && r < p; r++) {
			q = r ^ bit;
			/* r keeps the half its own block is in */
			lo = r & bit ? base[r] : base[r] + len;
			for (i = 0; i < len; i++)
				c->ids[i] = lo + i;
			err = xsend(c, r, q, c->ids, len, true);
		}
		for (r = 0; r < p; r++)
			if (r & bit)
				base[r] += len;
	}
	for (j = k; !rs && !err && j-- > 0;) {
		bit = p >> (j + 1);
		err = mf_sched_step(c->s);
		for (r = 0; !err && r < p; r++) {
			for (i = 0; i < len; i++)
				c->ids[i] = base[r] + i;
			err = xsend(c, r, r ^ bit, c->ids, len, false);
		}
		for (r = 0; r < p; r++)
			if (r & bit)
				base[r] -= len;
		len *= 2;
	}
	if (!err && !rs)
		err = unfold(c, p, false);
	mf_free(base);
	return err;
}

/* ---- ring over a snake order, and ring per dimension (bucket) */

/* The snake (boustrophedon) order of a mesh or torus: consecutive nodes
 * adjacent in 1-D and 2-D; H_n: 0, 1, ..., p - 1 (i and i + 1 adjacent).
 */
static void snake(const struct mf_topo *t, u32 *order)
{
	u32 k, j, x, rest, up, c[MF_MAX_DIMS];

	for (k = 0; k < t->nodes; k++) {
		if (t->kind == MESHFABRIC_KIND_HEX) {
			order[k] = k;
			continue;
		}
		rest = k;
		for (j = 0; j < t->ndims; j++) {
			c[j] = rest % t->dims[j];
			rest /= t->dims[j];
		}
		for (j = 0; j < t->ndims; j++) {
			up = 0;
			for (x = j + 1; x < t->ndims; x++)
				up += c[x];
			if (up & 1)
				c[j] = t->dims[j] - 1 - c[j];
		}
		order[k] = mf_topo_id(t, c);
	}
}

static int ring_build(struct cb *c)
{
	u32 n = c->n, *order, k, i;
	u32 coll = c->rq->coll;
	int err;

	err = mf_coll_init(c->s, coll, MESHFABRIC_MODEL_ONE_PORT, 0, n);
	if (err)
		return err;
	order = mf_alloc_array(n, sizeof(u32), false);
	if (!order)
		return -ENOMEM;
	snake(c->t, order);
	for (k = 0; !err && coll != MF_COLL_ALLGATHER && k + 1 < n; k++) {
		err = mf_sched_step(c->s);
		for (i = 0; !err && i < n; i++)
			err = xsend1(c, order[i], order[(i + 1) % n],
				     order[(i + 2 * n - k - 1) % n], true);
	}
	for (k = 0; !err && coll != MF_COLL_REDUCE_SCATTER && k + 1 < n; k++) {
		err = mf_sched_step(c->s);
		for (i = 0; !err && i < n; i++)
			err = xsend1(c, order[i], order[(i + 1) % n],
				     order[(i + n - k) % n], false);
	}
	mf_free(order);
	return err;
}

/* Blocks b (= node ids) with coord_j(b) = coord_j(v) for j < d and
 * coord_d(b) = g into c->ids.
 */
static u32 bucket_group(struct cb *c, u32 v, u32 d, u32 g)
{
	const struct mf_topo *t = c->t;
	u32 b, j, k = 0;
	bool ok;

	for (b = 0; b < c->n; b++) {
		ok = (b / t->stride[d]) % t->dims[d] == g;
		for (j = 0; ok && j < d; j++)
			ok = (b / t->stride[j]) % t->dims[j] ==
			     (v / t->stride[j]) % t->dims[j];
		if (ok)
			c->ids[k++] = b;
	}
	return k;
}

/* One step of the rings along dimension d: node v (at x) sends the group
 * of position (x + shift) mod n to x + 1.
 */
static int bucket_step(struct cb *c, u32 d, u32 shift, bool combine)
{
	const struct mf_topo *t = c->t;
	u32 v, x, nd = t->dims[d], m, to;
	int err = mf_sched_step(c->s);

	for (v = 0; !err && v < c->n; v++) {
		x = (v / t->stride[d]) % nd;
		to = x + 1 < nd ? v + t->stride[d] : v - x * t->stride[d];
		m = bucket_group(c, v, d, (x + shift) % nd);
		err = xsend(c, v, to, c->ids, m, combine);
	}
	return err;
}

static int bucket_build(struct cb *c)
{
	u32 coll = c->rq->coll, d, k, nd, dims = c->t->ndims;
	int err;

	err = mf_coll_init(c->s, coll, MESHFABRIC_MODEL_ONE_PORT, 0, c->n);
	for (d = 0; !err && coll != MF_COLL_ALLGATHER && d < dims; d++) {
		nd = c->t->dims[d];
		for (k = 0; !err && k + 1 < nd; k++)
			err = bucket_step(c, d, 2 * nd - k - 1, true);
	}
	for (d = dims; !err && coll != MF_COLL_REDUCE_SCATTER && d-- > 0;) {
		nd = c->t->dims[d];
		for (k = 0; !err && k + 1 < nd; k++)
			err = bucket_step(c, d, nd - k, false);
	}
	return err;
}

/* ---- Swing (De Sensi et al., NSDI 2024) on 2^k tori */

/* rho(s) = (1 - (-2)^(s + 1)) / 3: 1, -1, 3, -5, 11, -21, ... */
static s64 swing_rho(u32 s)
{
	s64 p = 1;
	u32 i;

	for (i = 0; i <= s; i++)
		p *= -2;
	return (1 - p) / 3;
}

/* The dimension and per-dimension step of global step s: dimensions
 * taken in turn, each while it has steps left.
 */
static void swing_step(const struct mf_topo *t, u32 s, u32 *dim, u32 *sd)
{
	u32 done[MF_MAX_DIMS] = { 0 }, i = 0, d = 0;

	for (;;) {
		if ((1U << done[d]) < t->dims[d]) {
			if (i == s)
				break;
			done[d]++;
			i++;
		}
		d = (d + 1) % t->ndims;
	}
	*dim = d;
	*sd = done[d];
}

static u32 swing_peer(const struct mf_topo *t, u32 v, u32 s)
{
	u32 dim, sd, n, x;
	s64 y;

	swing_step(t, s, &dim, &sd);
	n = t->dims[dim];
	x = (v / t->stride[dim]) % n;
	y = (s64)x + (x & 1 ? -swing_rho(sd) : swing_rho(sd));
	y %= (s64)n;
	if (y < 0)
		y += n;
	return v + ((u32)y - x) * t->stride[dim];
}

static int swing_build(struct cb *c, bool lat)
{
	const struct mf_topo *t = c->t;
	u32 coll = c->rq->coll, n = c->n, ks = log2u(n), s, v, q, m, w = n;
	u64 *reach = NULL;	/* (ks + 1) x n rows of n bits */
	int err;

	err = mf_coll_init(c->s, coll, MESHFABRIC_MODEL_ONE_PORT, 0,
			   lat ? 1 : n);
	if (err)
		return err;
	if (lat) {
		for (s = 0; !err && s < ks; s++) {
			err = mf_sched_step(c->s);
			for (v = 0; !err && v < n; v++)
				err = xsend1(c, v, swing_peer(t, v, s), 0, true);
		}
		return err;
	}
	/* reach[s][v]: the nodes v's data gets to in steps s .. ks - 1 */
	reach = bits_alloc((ks + 1) * n, w);
	if (!reach)
		return -ENOMEM;
	for (v = 0; v < n; v++)
		BSET(BROW(reach, ks * n + v, w), v);
	for (s = ks; s-- > 0;) {
		for (v = 0; v < n; v++) {
			u64 *r = BROW(reach, s * n + v, w);
			const u64 *a = BROW(reach, (s + 1) * n + v, w);
			const u64 *b = BROW(reach, (s + 1) * n +
					    swing_peer(t, v, s), w);

			for (m = 0; m < (w + 63) / 64; m++)
				r[m] = a[m] | b[m];
		}
	}
	for (s = 0; !err && coll != MF_COLL_ALLGATHER && s < ks; s++) {
		err = mf_sched_step(c->s);
		for (v = 0; !err && v < n; v++) {
			q = swing_peer(t, v, s);
			m = bits_list(c, BROW(reach, (s + 1) * n + q, w), w);
			err = xsend(c, v, q, c->ids, m, true);
		}
	}
	for (s = ks; !err && coll != MF_COLL_REDUCE_SCATTER && s-- > 0;) {
		err = mf_sched_step(c->s);
		for (v = 0; !err && v < n; v++) {
			m = bits_list(c, BROW(reach, (s + 1) * n + v, w), w);
			err = xsend(c, v, swing_peer(t, v, s), c->ids, m, false);
		}
	}
	mf_free(reach);
	return err;
}

/* ---- alltoall: at step k every rank sends to rank + k */

static int shift_build(struct cb *c)
{
	u32 n = c->n, k, v;
	int err;

	err = mf_coll_init(c->s, MF_COLL_ALLTOALL, MESHFABRIC_MODEL_ONE_PORT,
			   0, n * n);
	for (k = 1; !err && k < n; k++) {
		err = mf_sched_step(c->s);
		for (v = 0; !err && v < n; v++)
			err = xsend1(c, v, (v + k) % n, v * n + (v + k) % n,
				     false);
	}
	return err;
}

/* ---- trees: a broadcast schedule reversed (reduce, gather) and as is
 * (broadcast, scatter)
 */

/* sub: the subtree of every node in broadcast b (n x n bits). */
static void subtrees(const struct mf_sched *b, u32 n, u64 *sub)
{
	u32 i, k, v;

	for (v = 0; v < n; v++)
		BSET(BROW(sub, v, n), v);
	for (i = b->nsends; i-- > 0;) {
		u64 *p = BROW(sub, b->send[i].src, n);
		const u64 *q = BROW(sub, b->send[i].dst, n);

		for (k = 0; k < (n + 63) / 64; k++)
			p[k] |= q[k];
	}
}

/* What each send of a tree pass carries (the receiving subtree is that of
 * the broadcast send's destination).
 */
enum tree_blocks {
	TREE_COMBINE_ALL,	/* every block, combined (reduce) */
	TREE_SUBTREE,		/* the subtree's blocks, copied */
	TREE_REST,		/* all but the subtree's (sub NULL: all) */
};

/* Append broadcast b as is (down) or turned round (up: each send dst ->
 * src along the reversed path, steps in reverse order), carrying what
 * `what` says.
 */
static int tree_pass(struct cb *c, const struct mf_sched *b, const u64 *sub,
		     bool up, enum tree_blocks what)
{
	u32 i, j, h, m, k, nb = mf_sched_nblocks(c->s), *p;
	const struct mf_send *x;
	struct mf_send *y;
	int err = 0;

	for (k = 0; !err && k < b->nsteps; k++) {
		i = up ? b->nsteps - 1 - k : k;
		err = mf_sched_step(c->s);
		for (j = b->step[i]; !err && j < b->step[i + 1]; j++) {
			x = &b->send[j];
			err = mf_sched_send(c->s, &b->path[x->path], x->hops);
			if (err)
				break;
			if (up) {
				y = &c->s->send[c->s->nsends - 1];
				p = &c->s->path[y->path];
				for (h = 0; h < x->hops + 1 - h; h++)
					swap(p[h], p[x->hops - h]);
				y->src = x->dst;
				y->dst = x->src;
			}
			if (what == TREE_SUBTREE) {
				m = bits_list(c, BROW(sub, x->dst, c->n), c->n);
			} else {
				for (h = 0, m = 0; h < nb; h++)
					if (!sub || !BTEST(BROW(sub, x->dst, c->n), h))
						c->ids[m++] = h;
			}
			err = mf_sched_blocks(c->s, c->ids, m,
					      what == TREE_COMBINE_ALL);
		}
	}
	return err;
}

/* Broadcast algorithm id from root, checked (model: auto's, 0 either). */
static int tree_bcast(struct cb *c, u32 id, u32 model, u32 root,
		      struct mf_sched *b)
{
	struct mf_plan_result res;
	int err;

	err = mf_plan_checked(c->t, id, model, root, c->routing, b, &res);
	return err;
}

static int tree_build(struct cb *c, u32 up_id, u32 down_id, u32 root)
{
	u32 coll = c->rq->coll, n = c->n, model, nb = 1;
	struct mf_sched up = { 0 }, down = { 0 };
	u64 *sub = NULL;
	int err;

	err = tree_bcast(c, up_id, c->rq->model, root, &up);
	if (!err)
		err = tree_bcast(c, down_id, c->rq->model, root, &down);
	if (err)
		goto out;
	model = up.model == MESHFABRIC_MODEL_ALL_PORT ||
		down.model == MESHFABRIC_MODEL_ALL_PORT ?
		MESHFABRIC_MODEL_ALL_PORT : MESHFABRIC_MODEL_ONE_PORT;
	if (coll != MF_COLL_BCAST && coll != MF_COLL_REDUCE &&
	    coll != MF_COLL_ALLREDUCE) {
		nb = n;
		sub = bits_alloc(n, n);
		if (!sub) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = mf_coll_init(c->s, coll, model, root, nb);
	if (err)
		goto out;
	switch (coll) {
	case MF_COLL_BCAST:
		err = tree_pass(c, &down, NULL, false, TREE_REST);
		break;
	case MF_COLL_REDUCE:
		err = tree_pass(c, &up, NULL, true, TREE_COMBINE_ALL);
		break;
	case MF_COLL_ALLREDUCE:
		err = tree_pass(c, &up, NULL, true, TREE_COMBINE_ALL);
		if (!err)
			err = tree_pass(c, &down, NULL, false, TREE_REST);
		break;
	case MF_COLL_GATHER:
	case MF_COLL_ALLGATHER:
		/* allgather: back down the same tree, all but the subtree */
		subtrees(&up, n, sub);
		err = tree_pass(c, &up, sub, true, TREE_SUBTREE);
		if (!err && coll == MF_COLL_ALLGATHER)
			err = tree_pass(c, &up, sub, false, TREE_REST);
		break;
	case MF_COLL_SCATTER:
	case MF_COLL_REDUCE_SCATTER:
		if (coll == MF_COLL_REDUCE_SCATTER)
			err = tree_pass(c, &up, NULL, true, TREE_COMBINE_ALL);
		subtrees(&down, n, sub);
		if (!err)
			err = tree_pass(c, &down, sub, false, TREE_SUBTREE);
		break;
	default:
		err = -EOPNOTSUPP;
	}
out:
	mf_sched_free(&up);
	mf_sched_free(&down);
	mf_free(sub);
	return err;
}

/* ---- 003's global sum on H_n: n - 1 steps toward the centre (flood's
 * tree turned round), then A2's broadcast from the centre (n + 2 steps)
 */
static int g003_build(struct cb *c)
{
	return tree_build(c, MESHFABRIC_ALGO_FLOOD, MESHFABRIC_ALGO_HEX, 0);
}

/* ---- the table */

struct calgo {
	const char *name;
	u32 colls;		/* BIT(MF_COLL_*) it builds */
	const char *covers;
	bool reproduction;	/* a paper as printed: never chosen by auto */
};

#define C(x) BIT(MF_COLL_##x)
#define C_RS_AG_AR (C(ALLREDUCE) | C(REDUCE_SCATTER) | C(ALLGATHER))
static const struct calgo calgos[MF_CALGO_COUNT] = {
	[MF_CALGO_AUTO] = { "auto", 0xff, "every shape", false },
	[MF_CALGO_TREE] = { "tree", C(BCAST) | C(REDUCE) | C(ALLREDUCE) |
			    C(REDUCE_SCATTER) | C(ALLGATHER) | C(GATHER) |
			    C(SCATTER),
			    "every shape a broadcast algorithm covers", false },
	[MF_CALGO_RING] = { "ring", C_RS_AG_AR, "every shape", false },
	[MF_CALGO_RECDBL] = { "recdbl", C(ALLREDUCE) | C(ALLGATHER),
			      "every shape (off 2^k: folded, 2 more steps)",
			      false },
	[MF_CALGO_RABENSEIFNER] = { "rabenseifner",
				    C(ALLREDUCE) | C(REDUCE_SCATTER),
				    "every shape (off 2^k: allreduce folded; reduce-scatter needs 2^k nodes)",
				    false },
	[MF_CALGO_BUCKET] = { "bucket", C_RS_AG_AR, "meshes and tori", false },
	[MF_CALGO_SWING] = { "swing", C_RS_AG_AR,
			     "1-, 2- and 3-D tori with sides 2^k", false },
	[MF_CALGO_SWING_LAT] = { "swing-lat", C(ALLREDUCE),
				 "1-, 2- and 3-D tori with sides 2^k", false },
	[MF_CALGO_SHIFT] = { "shift", C(ALLTOALL), "every shape", false },
	[MF_CALGO_003] = { "003", C(ALLREDUCE), "H_n (hex)", true },
};

const char *mf_calgo_name(u32 algo)
{
	return algo < MF_CALGO_COUNT ? calgos[algo].name : NULL;
}

int mf_calgo_by_name(const char *name)
{
	u32 i;

	for (i = 0; i < MF_CALGO_COUNT; i++)
		if (!strcmp(calgos[i].name, name))
			return i;
	return -EINVAL;
}

const char *mf_calgo_covers(u32 algo)
{
	return algo < MF_CALGO_COUNT ? calgos[algo].covers : NULL;
}

static bool swing_shape(const struct mf_topo *t)
{
	u32 d;

	if (t->kind != MESHFABRIC_KIND_TORUS || t->ndims > 3)
		return false;
	for (d = 0; d < t->ndims; d++)
		if (!is_pow2(t->dims[d]))
			return false;
	return true;
}

/* 0 if algo builds coll on t, else -EOPNOTSUPP. */
static int calgo_supports(const struct mf_topo *t, u32 algo, u32 coll)
{
	if (algo >= MF_CALGO_COUNT || !(calgos[algo].colls & BIT(coll)))
		return -EOPNOTSUPP;
	switch (algo) {
	case MF_CALGO_RABENSEIFNER:
		return coll == MF_COLL_REDUCE_SCATTER && !is_pow2(t->nodes) ?
		       -EOPNOTSUPP : 0;
	case MF_CALGO_BUCKET:
		return t->kind == MESHFABRIC_KIND_HEX ? -EOPNOTSUPP : 0;
	case MF_CALGO_SWING:
	case MF_CALGO_SWING_LAT:
		return swing_shape(t) ? 0 : -EOPNOTSUPP;
	case MF_CALGO_003:
		return t->kind == MESHFABRIC_KIND_HEX ? 0 : -EOPNOTSUPP;
	}
	return 0;
}

static int calgo_build(struct cb *c, u32 algo)
{
	switch (algo) {
	case MF_CALGO_TREE:
		return tree_build(c, c->rq->bcast, c->rq->bcast, c->rq->root);
	case MF_CALGO_RING:
		return ring_build(c);
	case MF_CALGO_RECDBL:
		return recdbl_build(c);
	case MF_CALGO_RABENSEIFNER:
		return raben_build(c);
	case MF_CALGO_BUCKET:
		return bucket_build(c);
	case MF_CALGO_SWING:
		return swing_build(c, false);
	case MF_CALGO_SWING_LAT:
		return swing_build(c, true);
	case MF_CALGO_SHIFT:
		return shift_build(c);
	case MF_CALGO_003:
		return g003_build(c);
	}
	return -EINVAL;
}

/* Most payload bytes one node sends in s, blocks of blk[] bytes. */
static u64 node_bytes(const struct mf_topo *t, const struct mf_sched *s,
		      const u64 *blk)
{
	u64 *sum = mf_alloc_array(t->nodes, sizeof(u64), true), most = 0;
	u32 i, j, k;
	const u32 *ids;

	if (!sum)
		return 0;
	for (i = 0; i < s->nsends; i++) {
		ids = mf_send_blocks(s, i, &k);
		for (j = 0; j < k; j++)
			sum[s->send[i].src] += blk[ids[j] & ~MF_BLK_COMBINE];
	}
	for (i = 0; i < t->nodes; i++)
		if (sum[i] > most)
			most = sum[i];
	mf_free(sum);
	return most;
}

/* Build algo's schedule, check it, size it: res filled, *ns its fabric
 * time under rq->tm (0 without), U64_MAX if rq->tm is NULL.
 */
static int plan_one(const struct mf_topo *t, const struct mf_coll_req *rq,
		    u32 algo, struct mf_sched *s, struct mf_coll_result *res,
		    u64 *ns)
{
	struct cb c = { .t = t, .rq = rq, .s = s, .n = t->nodes,
			.routing = mf_route_resolve(t, MESHFABRIC_ROUTE_DEFAULT) };
	struct mf_timeline tl = { 0 };
	struct mf_timing tm;
	u64 *blk = NULL;
	u32 most;
	int err;

	mf_sched_init(s, 0, 0);
	res->algo = algo;
	res->why[0] = '\0';
	if (calgo_supports(t, algo, rq->coll)) {
		snprintf(res->why, sizeof(res->why),
			 "%s does not build %s on this shape (it covers %s)",
			 mf_calgo_name(algo), mf_coll_name(rq->coll),
			 mf_calgo_covers(algo));
		return -EOPNOTSUPP;
	}
	/* block lists never exceed the blocks; alltoall has N^2 */
	most = rq->coll == MF_COLL_ALLTOALL ? t->nodes * t->nodes : t->nodes;
	c.ids = mf_alloc_array(most, sizeof(u32), false);
	if (!c.ids)
		return -ENOMEM;
	err = calgo_build(&c, algo);
	if (!err)
		err = mf_sched_end(s);
	mf_free(c.ids);
	if (err) {
		if (err == -EOPNOTSUPP)
			snprintf(res->why, sizeof(res->why),
				 "the broadcast algorithm does not cover this shape");
		return err;
	}
	err = mf_check(t, s, &res->st, res->why, sizeof(res->why));
	if (err)
		return err == -EINVAL ? -EPROTO : err;
	blk = mf_alloc_array(mf_sched_nblocks(s), sizeof(u64), false);
	if (!blk)
		return -ENOMEM;
	mf_coll_block_bytes(s, rq->bytes, rq->esize ? rq->esize : 1, blk);
	res->node_bytes = node_bytes(t, s, blk);
	*ns = U64_MAX;
	if (rq->tm) {
		tm = *rq->tm;
		tm.async = false;
		tm.blk_bytes = blk;
		err = mf_timeline_alloc(&tl, t, s);
		if (!err)
			err = mf_sched_time(t, s, &tm, NULL, &tl);
		*ns = tl.total_ns;
		mf_timeline_free(&tl);
	}
	mf_free(blk);
	return err;
}

int mf_coll_plan(const struct mf_topo *t, const struct mf_coll_req *rq,
		 struct mf_sched *s, struct mf_coll_result *res)
{
	struct mf_coll_result r;
	struct mf_sched cand;
	u64 ns, best_ns = U64_MAX;
	u32 a;
	int err, best = -EOPNOTSUPP;

	memset(res, 0, sizeof(*res));
	mf_sched_init(s, 0, 0);
	if (rq->coll >= MF_COLL_COUNT || rq->algo >= MF_CALGO_COUNT ||
	    rq->root >= t->nodes)
		return -EINVAL;
	if (rq->algo != MF_CALGO_AUTO)
		return plan_one(t, rq, rq->algo, s, res, &ns);
	snprintf(res->why, sizeof(res->why), "no algorithm builds %s here",
		 mf_coll_name(rq->coll));
	for (a = MF_CALGO_AUTO + 1; a < MF_CALGO_COUNT; a++) {
		if (calgos[a].reproduction ||
		    calgo_supports(t, a, rq->coll))
			continue;
		err = plan_one(t, rq, a, &cand, &r, &ns);
		if (err == -EOPNOTSUPP) {
			mf_sched_free(&cand);
			continue;
		}
		if (err) {
			mf_sched_free(&cand);
			mf_sched_free(s);
			*res = r;
			return err;
		}
		/* the earliest completion; unlimited links: fewest steps,
		 * then fewest bytes through one node
		 */
		if (best < 0 || ns < best_ns ||
		    (ns == best_ns && (r.st.steps < res->st.steps ||
		     (r.st.steps == res->st.steps &&
		      r.node_bytes < res->node_bytes)))) {
			mf_sched_free(s);
			*s = cand;
			*res = r;
			best_ns = ns;
			best = 0;
		} else {
			mf_sched_free(&cand);
		}
	}
	return best;
}
