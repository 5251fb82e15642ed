// SPDX-License-Identifier: GPL-2.0
/* `eyes`: the time-step optimal one-port broadcast of
 * minimum total communication distance (TCD) on 2^k x ... x 2^k meshes
 * and tori, d = 1..8 (Cang & Wu, papers 000 and 001).
 *
 * Contract (algo.h): from any source, d*k steps (the one-port optimum for
 * 2^(dk) nodes), every path a dimension-ordered shortest path, no step
 * contention, and the least TCD among all recursive-halving broadcasts.
 *
 * Recursive halving.  A box (a dyadic sub-box of the mesh) holds one
 * informed node, its entry.  In one step the box is cut in half across a
 * dimension of largest extent and the entry sends to a target in the
 * other half, which becomes that half's entry.  We call a box of
 * extents 2^j along the dimensions in mask M and 2^(j-1) along the others
 * a shape (j, M); M = all is the cube of side 2^j.  Cutting (j, M) across
 * delta in M gives two boxes of shape (j, M \ delta), or (j-1, all) when
 * M = {delta}.  The papers' eyes are this with the cut order fixed per
 * level and the targets restricted to eyes of the subcubes.
 *
 * Minimum TCD.  F(j, M, p) = least TCD of broadcasting a box of shape
 * (j, M) from entry p (mesh distances, relative to the box):
 *   F = min over delta in M of  F(sub, p') + min over t in the other
 *       half of (|p - t|_1 + F(sub, t)),
 * the second term an L1 distance transform, separable over dimensions, so
 * one shape costs O(d * size).  F is symmetric under reflecting the box
 * in each dimension, so only the orthant p_i < extent_i / 2 is stored:
 * all tables together hold about (3/4)^d * 4/3 * N entries (at most N
 * for d = 1).  For the build, a target is only ever taken among the
 * non-dominated points of F(sub, .) (t such that no t' != t has
 * F(t') + |t - t'| <= F(t)): they alone can be minimisers, there are few
 * of them (the optimal sources of the sub-box), and each box's choice
 * costs O(|M| * d * #candidates).  Everything is iterative (no
 * recursion) and linear in N.
 *
 * Tori: every node is equivalent (000 section 5), so the torus schedule
 * is the mesh schedule of the virtual 2^k mesh placed so that the source
 * sits on its optimal position (an eye); paths go the short way
 * (mf_sched_send_dor), never longer than in the virtual mesh.
 *
 * Contention.  Boxes of one step are disjoint and a dimension-ordered
 * path between two nodes of a box stays in the box, so no two sends of a
 * step share a link (on a torus, the top-level sends from an eye have
 * |delta| = a_k < n/2 and do not wrap).
 *
 * Departures from the papers (all checked by exhaustive search over all
 * broadcasts of 16 nodes and over all recursive-halving broadcasts on
 * larger cubes in userspace/tests/test_eyes.c):
 *  - Algorithm 1 (000) / Algorithm 2 (001) fix the cut order of a level
 *    and send only to eyes of the subcubes; that is not always minimal:
 *    on 8 x 8 from (2, 3) Algorithm 1 costs 69 + f_3 + f_2 >= 70 (Eq. 5,
 *    7) and the optimum is 69 (so Theorem 2 of 000 and the uniqueness of
 *    the eyes as optimal sources after its Eq. 7 do not hold: (2, 3) is
 *    optimal too).  We compute the optimum instead of the region formulas.
 *  - 001 Eq. 12 gives the 3-D base MD_1(E_1) = 3; it is 7 (000 Eq. 11,
 *    001's own example).  000 Eq. 13 divides by 2^(d-1) - 1, so for
 *    d = 1 the recursion Eq. 11-12 is used (also checked exhaustively).
 *  - 000 section 2 gives MD_2(0, 1) = 16 but its appendix (and 001)
 *    give 17 for (1, 0) or (0, 1); the mirror images must agree and
 *    exhaustive search gives 16 for both.
 * The papers' closed forms for eyes (Eq. 10, 13 of 000; Eq. 13, 16 of
 * 001) and for corners (Eq. 9 of 000) are what this computes on the
 * sizes tested.
 */
#include "algo.h"

#define EYES_INF	(U32_MAX / 4)

struct eyes_shape {
	u32 le[MF_MAX_DIMS];	/* log2 extent */
	u32 lf[MF_MAX_DIMS];	/* log2 folded extent */
	u32 sh[MF_MAX_DIMS];	/* bit offset of each folded coordinate */
	u32 bits;		/* log2 of the table size */
};

struct eyes {
	const struct mf_topo *t;
	u32 d, k, full;
	u32 *toff;		/* table offset of shape (j, M) = [j << d | M] */
	u32 *ndoff, *ndend;	/* candidates of (j, M): nd[ndoff[i] .. ndend[i]) */
	u32 *f;			/* all tables */
	u32 *nd;		/* candidate lists (folded indices) */
	u32 ndlen, ndcap;
	u32 *tmp, *tmp2;	/* two buffers of the largest table's size */
};

static void eyes_shape(const struct eyes *e, u32 j, u32 m, struct eyes_shape *s)
{
	u32 i, off = 0;

	for (i = 0; i < e->d; i++) {
		s->le[i] = (m >> i) & 1 ? j : (j ? j - 1 : 0);
		s->lf[i] = s->le[i] ? s->le[i] - 1 : 0;
		s->sh[i] = off;
		off += s->lf[i];
	}
	s->bits = off;
}

static inline u32 eyes_tid(const struct eyes *e, u32 j, u32 m)
{
	return j << e->d | m;
}

/* The shape of the halves of (j, m) cut across dim. */
static inline void eyes_sub(const struct eyes *e, u32 j, u32 m, u32 dim,
			    u32 *js, u32 *ms)
{
	*ms = m & ~(1U << dim);
	*js = j;
	if (!*ms) {
		*ms = e->full;
		*js = j - 1;
	}
}

static inline u32 eyes_fold(u32 x, u32 le)
{
	u32 y = (1U << le) - 1 - x;

	return x < y ? x : y;
}

/* One-dimensional L1 distance transform passes over dimension i. */
static void eyes_dt_dim(u32 *v, u32 size, u32 lf, u32 sh)
{
	u32 st = 1U << sh, ext = 1U << lf, x;

	if (lf == 0)
		return;
	for (x = 0; x < size; x++)
		if (((x >> sh) & (ext - 1)) && v[x - st] + 1 < v[x])
			v[x] = v[x - st] + 1;
	for (x = size; x-- > 0;)
		if (((x >> sh) & (ext - 1)) != ext - 1 && v[x + st] + 1 < v[x])
			v[x] = v[x + st] + 1;
}

static int eyes_nd_add(struct eyes *e, u32 x)
{
	if (e->ndlen == e->ndcap) {
		u32 cap = e->ndcap ? 2 * e->ndcap : 64;
		u32 *q = mf_grow(e->nd, e->ndcap, cap, sizeof(u32));

		if (!q)
			return -ENOMEM;
		e->nd = q;
		e->ndcap = cap;
	}
	e->nd[e->ndlen++] = x;
	return 0;
}

/* Candidate targets of shape (j, m): the non-dominated points of F. */
static int eyes_nd(struct eyes *e, u32 j, u32 m)
{
	struct eyes_shape s;
	u32 tid = eyes_tid(e, j, m), size, x, i, *f = e->f + e->toff[tid];
	u32 *dt = e->tmp2;
	int err;

	eyes_shape(e, j, m, &s);
	size = 1U << s.bits;
	memcpy(dt, f, size * sizeof(u32));
	for (i = 0; i < e->d; i++)
		eyes_dt_dim(dt, size, s.lf[i], s.sh[i]);
	e->ndoff[tid] = e->ndlen;
	for (x = 0; x < size; x++) {
		bool keep = dt[x] == f[x];

		for (i = 0; keep && i < e->d; i++) {
			u32 c = (x >> s.sh[i]) & ((1U << s.lf[i]) - 1);
			u32 st = 1U << s.sh[i];

			if (c && dt[x - st] + 1 <= f[x])
				keep = false;
			if (c + 1 < (1U << s.lf[i]) && dt[x + st] + 1 <= f[x])
				keep = false;
		}
		if (keep) {
			err = eyes_nd_add(e, x);
			if (err)
				return err;
		}
	}
	e->ndend[tid] = e->ndlen;
	return 0;
}

/* Fill the table of shape (j, m), j >= 1, from the tables of its halves. */
static void eyes_table(struct eyes *e, u32 j, u32 m)
{
	struct eyes_shape s, ss;
	u32 *f = e->f + e->toff[eyes_tid(e, j, m)], *g = e->tmp;
	u32 size, dim, x, i;

	eyes_shape(e, j, m, &s);
	size = 1U << s.bits;
	for (x = 0; x < size; x++)
		f[x] = EYES_INF;
	for (dim = 0; dim < e->d; dim++) {
		u32 js, ms, *fs, ssize, h, lowm, sd, cm, fsh;

		if (!((m >> dim) & 1))
			continue;
		eyes_sub(e, j, m, dim, &js, &ms);
		eyes_shape(e, js, ms, &ss);
		fs = e->f + e->toff[eyes_tid(e, js, ms)];
		ssize = 1U << ss.bits;
		h = 1U << (j - 1);		/* half extent along dim */
		sd = s.sh[dim];
		lowm = (1U << sd) - 1;
		cm = (1U << ss.lf[dim]) - 1;
		/* g(face) = min over c of c + F(sub, c, face) */
		for (x = 0; x < ssize; x++) {
			u32 c = (x >> sd) & cm;
			u32 fx = (x & lowm) | ((x >> (sd + ss.lf[dim])) << sd);

			if (!c || c + fs[x] < g[fx])
				g[fx] = c + fs[x];
		}
		for (i = 0; i < e->d; i++) {
			if (i == dim)
				continue;
			fsh = i < dim ? s.sh[i] : s.sh[i] - s.lf[dim];
			eyes_dt_dim(g, ssize >> ss.lf[dim], s.lf[i], fsh);
		}
		for (x = 0; x < size; x++) {
			u32 p = (x >> sd) & ((1U << s.lf[dim]) - 1);
			u32 hi = x >> (sd + s.lf[dim]);
			u32 fx = (x & lowm) | (hi << sd);
			u32 y = (x & lowm) | (eyes_fold(p, j - 1) << sd) |
				(hi << (sd + ss.lf[dim]));
			u32 v = fs[y] + (h - p) + g[fx];

			if (v < f[x])
				f[x] = v;
		}
	}
}

static void eyes_free(struct eyes *e)
{
	mf_free_all(e->toff, e->ndoff, e->ndend, e->f, e->nd, e->tmp, e->tmp2);
}

static u32 eyes_popcount(u32 m)
{
	u32 c = 0;

	for (; m; m &= m - 1)
		c++;
	return c;
}

static int eyes_tables(struct eyes *e)
{
	u32 ntab = (e->k + 1) << e->d, j, m, pc, maxsz = 1;
	u64 total = 1;
	struct eyes_shape s;
	int err;

	e->toff = mf_alloc_array(ntab, sizeof(u32), true);
	e->ndoff = mf_alloc_array(ntab, sizeof(u32), true);
	e->ndend = mf_alloc_array(ntab, sizeof(u32), true);
	if (!e->toff || !e->ndoff || !e->ndend)
		return -ENOMEM;
	/* (0, all) is the single node: table {0} at offset 0 */
	for (j = 1; j <= e->k; j++) {
		for (m = 1; m <= e->full; m++) {
			eyes_shape(e, j, m, &s);
			e->toff[eyes_tid(e, j, m)] = (u32)total;
			total += 1ULL << s.bits;
			if ((1U << s.bits) > maxsz)
				maxsz = 1U << s.bits;
		}
	}
	if (total > U32_MAX)
		return -E2BIG;
	e->f = mf_alloc_array((size_t)total, sizeof(u32), false);
	e->tmp = mf_alloc_array(maxsz, sizeof(u32), false);
	e->tmp2 = mf_alloc_array(maxsz, sizeof(u32), false);
	if (!e->f || !e->tmp || !e->tmp2)
		return -ENOMEM;
	e->f[0] = 0;
	err = eyes_nd(e, 0, e->full);
	if (err)
		return err;
	for (j = 1; j <= e->k; j++) {
		for (pc = 1; pc <= e->d; pc++) {
			for (m = 1; m <= e->full; m++) {
				if (eyes_popcount(m) != pc)
					continue;
				eyes_table(e, j, m);
				err = eyes_nd(e, j, m);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

/* Coordinate i of virtual node v. */
static inline u32 eyes_c(const struct eyes *e, u32 v, u32 i)
{
	return (v >> (e->k * i)) & ((1U << e->k) - 1);
}

struct eyes_pick {
	u32 cost, dim, t[MF_MAX_DIMS];	/* t relative to the box */
};

/* Best cut and target for a box of shape (j, m) with its entry at r. */
static void eyes_decide(const struct eyes *e, u32 j, u32 m, const u32 *r,
			struct eyes_pick *best)
{
	struct eyes_shape ss;
	u32 dim, i, n, q, t[MF_MAX_DIMS];

	memset(best, 0, sizeof(*best));
	best->cost = U32_MAX;
	for (dim = 0; dim < e->d; dim++) {
		u32 js, ms, tid, h, lo, own = 0, bc = U32_MAX, v;
		const u32 *fs;

		if (!((m >> dim) & 1))
			continue;
		eyes_sub(e, j, m, dim, &js, &ms);
		eyes_shape(e, js, ms, &ss);
		tid = eyes_tid(e, js, ms);
		fs = e->f + e->toff[tid];
		h = 1U << (j - 1);
		lo = r[dim] < h;
		for (i = 0; i < e->d; i++) {
			u32 ri = i == dim ? r[i] & (h - 1) : r[i];

			own |= eyes_fold(ri, ss.le[i]) << ss.sh[i];
		}
		v = fs[own];
		for (n = e->ndoff[tid]; n < e->ndend[tid]; n++) {
			u32 x = e->nd[n], c = 0;

			for (i = 0; i < e->d; i++) {
				u32 ci = (x >> ss.sh[i]) & ((1U << ss.lf[i]) - 1);
				u32 ext = 1U << ss.le[i], a, b;

				if (i == dim) {
					t[i] = lo ? h + ci : h - 1 - ci;
					c += lo ? t[i] - r[i] : r[i] - t[i];
					continue;
				}
				a = r[i] > ci ? r[i] - ci : ci - r[i];
				q = ext - 1 - ci;
				b = r[i] > q ? r[i] - q : q - r[i];
				t[i] = a <= b ? ci : q;
				c += a <= b ? a : b;
			}
			c += fs[x];
			if (c < bc) {
				bc = c;
				if (v + bc < best->cost) {
					best->cost = v + bc;
					best->dim = dim;
					memcpy(best->t, t, sizeof(t));
				}
			}
		}
	}
}

static int eyes_supports(const struct mf_topo *t)
{
	if (t->kind != MESHFABRIC_KIND_MESH && t->kind != MESHFABRIC_KIND_TORUS)
		return -EOPNOTSUPP;
	if (!mf_topo_is_pow2_cube(t, NULL) || t->dims[0] < 2)
		return -EOPNOTSUPP;
	return 0;
}

static int eyes_run(struct eyes *e, u32 source, struct mf_sched *s)
{
	const struct mf_topo *t = e->t;
	u32 d = e->d, k = e->k, nmask = (1U << k) - 1, i, j, step, nb;
	u32 anchor[MF_MAX_DIMS], vsrc = 0, fx = 0, tcd, *ent, *nent;
	u8 *msk, *nmsk;
	const u32 *top = e->f + e->toff[eyes_tid(e, k, e->full)];
	struct eyes_shape sh;
	u64 half = t->nodes / 2;
	int err = 0;

	eyes_shape(e, k, e->full, &sh);
	if (t->kind == MESHFABRIC_KIND_TORUS) {
		/* virtual mesh with the source on its first optimal node */
		u32 size = 1U << sh.bits, x, bx = 0;

		for (x = 1; x < size; x++)
			if (top[x] < top[bx])
				bx = x;
		for (i = 0; i < d; i++) {
			u32 p = (bx >> sh.sh[i]) & ((1U << sh.lf[i]) - 1);

			anchor[i] = (eyes_c(e, source, i) - p) & nmask;
			vsrc |= p << (k * i);
		}
		fx = bx;
	} else {
		for (i = 0; i < d; i++) {
			anchor[i] = 0;
			fx |= eyes_fold(eyes_c(e, source, i), k) << sh.sh[i];
		}
		vsrc = source;
	}
	tcd = top[fx];
	if ((u64)tcd + t->nodes < U32_MAX) {
		err = mf_sched_reserve(s, t->nodes - 1, tcd + t->nodes - 1);
		if (err)
			return err;
	}

	ent = mf_alloc_array(half, sizeof(u32), false);
	nent = mf_alloc_array(half, sizeof(u32), false);
	msk = mf_alloc_array(half, 1, false);
	nmsk = mf_alloc_array(half, 1, false);
	if (!ent || !nent || !msk || !nmsk) {
		err = -ENOMEM;
		goto out;
	}
	ent[0] = vsrc;
	msk[0] = (u8)e->full;
	nb = 1;
	j = k;
	for (step = 0; step < d * k; step++) {
		u32 b, nn = 0, js = j;

		err = mf_sched_step(s);
		if (err)
			goto out;
		for (b = 0; b < nb; b++) {
			struct eyes_pick pk;
			u32 v = ent[b], m = msk[b], r[MF_MAX_DIMS], ms;
			u32 src = 0, dst = 0, vt = 0;

			eyes_shape(e, j, m, &sh);
			for (i = 0; i < d; i++)
				r[i] = eyes_c(e, v, i) & ((1U << sh.le[i]) - 1);
			eyes_decide(e, j, m, r, &pk);
			for (i = 0; i < d; i++) {
				u32 o = eyes_c(e, v, i) - r[i];

				vt |= (o + pk.t[i]) << (k * i);
				src |= ((eyes_c(e, v, i) + anchor[i]) & nmask) << (k * i);
				dst |= ((o + pk.t[i] + anchor[i]) & nmask) << (k * i);
			}
			err = mf_sched_send_dor(s, t, src, dst, NULL);
			if (err)
				goto out;
			eyes_sub(e, j, m, pk.dim, &js, &ms);
			if (js) {
				nent[nn] = v;
				nmsk[nn++] = (u8)ms;
				nent[nn] = vt;
				nmsk[nn++] = (u8)ms;
			}
		}
		j = js;
		nb = nn;
		swap(ent, nent);
		swap(msk, nmsk);
	}
	err = mf_sched_end(s);
out:
	mf_free_all(ent, nent, msk, nmsk);
	return err;
}

static int eyes_build(const struct mf_topo *t, u32 source, u32 routing,
		      struct mf_sched *s)
{
	struct eyes e;
	int err;

	memset(&e, 0, sizeof(e));
	if (eyes_supports(t) || source >= t->nodes)
		return -EINVAL;
	mf_topo_is_pow2_cube(t, &e.k);
	e.t = t;
	e.d = t->ndims;
	e.full = (1U << e.d) - 1;
	err = eyes_tables(&e);
	if (!err)
		err = eyes_run(&e, source, s);
	eyes_free(&e);
	return err;
}

MF_ALGO_DEFINE(eyes, "eyes", MESHFABRIC_ALGO_EYES,
	       MESHFABRIC_MODEL_ONE_PORT,
	       "2^k x ... x 2^k meshes and tori (d = 1..8)");
