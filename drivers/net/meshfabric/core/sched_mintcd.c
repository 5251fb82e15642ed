// SPDX-License-Identifier: GPL-2.0
/* `mintcd`: the one-port, time-step-optimal (log2 N
 * steps) broadcast of least total communication distance (TCD) among all
 * recursive box bisections, found by dynamic programming.  It checks the
 * optimality claims of 000 (Theorem 2) and 001 (Theorem 3) for `eyes`.
 *
 * Topologies: meshes and tori whose every side is a power of two
 * (2^k0 x ... x 2^k(d-1), not only cubes); N = 2^(k0 + ... + k(d-1)).
 *
 * Class of schedules minimised over (exactly): a box (a sub-mesh of sides
 * 2^a0 x ... x 2^a(d-1), aligned on multiples of its sides) with one
 * informed node p is halved across any dimension i with a_i >= 1 (the
 * two halves are the two aligned boxes of side 2^(a_i - 1) in dimension
 * i); in the next step p sends to ANY node q of the other half, which
 * becomes responsible for it; both halves recurse independently.  Every
 * node sends once per step, so the schedule takes log2 N steps.  A send
 * costs the shortest-path distance (Manhattan; per torus dimension the
 * ring distance); paths follow the requested (shortest-path) routing.
 * On a torus the class also contains every translate of such a schedule
 * (aligned boxes after a cyclic shift), i.e. splits at any ring offset.
 * Broadcasts whose informed sets are not boxes (e.g. L shapes) are NOT
 * in the class; userspace/tests/test_mintcd.c compares it with the
 * exhaustive minimum over all one-port log2 N-step broadcasts.
 *
 * Method: inside a box the cost only depends on the box's shape and p's
 * position in it (distances within a box do not depend on where it lies,
 * and a torus ring distance only differs from the linear one when the
 * box spans the whole ring).  So
 *   f(S, p) = min over i, over q in the other half H' of
 *             dist(p, q) + f(S/2_i, p mod H) + f(S/2_i, q mod H'),
 * f(1 node) = 0, is tabulated for every shape S (exponent vector) and
 * every position: prod(2^(ki+1) - 1) < 2^d N entries.  The inner
 * min over q is, for all p at once, a min-plus convolution with the L1
 * (ring) metric: a separable distance transform, two sweeps per dimension
 * (two laps on a ring), so the whole table costs O(d^2 2^d N).  The
 * schedule is then read off the table level by level, trying the longest
 * sides first and taking the first target that attains the optimum.
 *
 * Sends of one step lie in pairwise disjoint boxes and a shortest path
 * stays inside the box of its ends (ring dimensions are split only once
 * the box spans the whole ring), so every schedule is contention free.
 */
#include "algo.h"

#define MINTCD_INF		0x3fffffffU
#define MINTCD_MAX_TABLE	0x400000U	/* 2^22 cost entries: 16 MiB */

struct mintcd {
	const struct mf_topo *t;
	u32 d;
	bool torus;
	u32 k[MF_MAX_DIMS];	/* log2 of each side */
	u32 rad[MF_MAX_DIMS];	/* shape index = sum a_i * rad[i] */
	u32 nshapes;
	u32 *off;		/* nshapes + 1: start of each shape's costs */
	u32 *cost;		/* cost[off[sh] + rel]: f(sh, rel) */
	u32 *va, *vb;		/* scratch, N entries each */
};

/* Box of a shape: exponents a[], bit offset of each coordinate in rel. */
struct mintcd_shape {
	u32 a[MF_MAX_DIMS];
	u32 sft[MF_MAX_DIMS];
	u32 bits;		/* log2 of the box size */
};

struct mintcd_box {
	u32 origin;		/* node id of the lowest corner (planning frame) */
	u32 shape;
	u32 node;		/* the informed node, responsible for the box */
};

static u32 log2_exact(u32 n)
{
	u32 k = 0;

	while ((1U << k) < n)
		k++;
	return (1U << k) == n ? k : U32_MAX;
}

/* Number of cost entries: prod(2^(ki+1) - 1); 0 if t is not covered. */
static u64 mintcd_table_size(const struct mf_topo *t)
{
	u64 sz = 1;
	u32 i, k;

	if (t->kind != MESHFABRIC_KIND_MESH && t->kind != MESHFABRIC_KIND_TORUS)
		return 0;
	for (i = 0; i < t->ndims; i++) {
		k = log2_exact(t->dims[i]);
		if (k == U32_MAX || k > 26)
			return 0;
		sz *= (2ULL << k) - 1;
		if (sz > MINTCD_MAX_TABLE)
			return 0;
	}
	return sz;
}

static int mintcd_supports(const struct mf_topo *t)
{
	return mintcd_table_size(t) ? 0 : -EOPNOTSUPP;
}

static void shape_decode(const struct mintcd *m, u32 sh, struct mintcd_shape *b)
{
	u32 i, bits = 0;

	for (i = 0; i < m->d; i++) {
		b->a[i] = (sh / m->rad[i]) % (m->k[i] + 1);
		b->sft[i] = bits;
		bits += b->a[i];
	}
	b->bits = bits;
}

/* Distance along dimension i between coordinates x and y of a box of side 2^a. */
static u32 dim_dist(const struct mintcd *m, u32 i, u32 a, u32 x, u32 y)
{
	u32 dx = x > y ? x - y : y - x;

	if (m->torus && a == m->k[i] && dx > (1U << a) - dx)
		dx = (1U << a) - dx;
	return dx;
}

/* Relative index in the half box (dimension i halved) of relative index r. */
static inline u32 half_rel(u32 r, u32 hb)
{
	return (r & ((1U << hb) - 1)) | ((r >> (hb + 1)) << hb);
}

/* v[r] = min over q of (v[q] + dist(r, q)) over the box b (in place). */
static void dist_transform(const struct mintcd *m, const struct mintcd_shape *b, u32 *v)
{
	u32 j, len[MF_MAX_DIMS], rings = 0;

	for (j = 0; j < m->d; j++) {
		len[j] = 1U << b->a[j];
		if (m->torus && b->a[j] == m->k[j])
			rings |= 1U << j;
	}
	mf_dist_transform(v, m->d, len, rings);
}

/* Fill f(sh, .) from the (already computed) tables of its halves. */
static void mintcd_fill_shape(struct mintcd *m, u32 sh)
{
	struct mintcd_shape b;
	u32 *f = m->cost + m->off[sh], *va = m->va, *vb = m->vb;
	u32 i, r, size, hb, up, c;
	const u32 *fc;

	shape_decode(m, sh, &b);
	size = 1U << b.bits;
	if (!b.bits) {
		f[0] = 0;
		return;
	}
	for (r = 0; r < size; r++)
		f[r] = MINTCD_INF;
	for (i = 0; i < m->d; i++) {
		if (!b.a[i])
			continue;
		fc = m->cost + m->off[sh - m->rad[i]];
		hb = b.sft[i] + b.a[i] - 1;	/* the bit telling the half */
		for (r = 0; r < size; r++)
			va[r] = fc[half_rel(r, hb)];
		/* up: the half holding the targets q */
		for (up = 0; up < 2; up++) {
			for (r = 0; r < size; r++)
				vb[r] = ((r >> hb) & 1) == up ? va[r] : MINTCD_INF;
			dist_transform(m, &b, vb);
			for (r = 0; r < size; r++) {
				if (((r >> hb) & 1) == up)
					continue;
				c = vb[r] + va[r];
				if (c < f[r])
					f[r] = c;
			}
		}
	}
}

static void mintcd_free(struct mintcd *m)
{
	mf_free_all(m->off, m->cost, m->va, m->vb);
}

static int mintcd_init(struct mintcd *m, const struct mf_topo *t)
{
	u64 total = mintcd_table_size(t);
	u32 i, sh;
	struct mintcd_shape b;

	memset(m, 0, sizeof(*m));
	if (!total)
		return -EOPNOTSUPP;
	m->t = t;
	m->d = t->ndims;
	m->torus = t->kind == MESHFABRIC_KIND_TORUS;
	m->nshapes = 1;
	for (i = 0; i < m->d; i++) {
		m->k[i] = log2_exact(t->dims[i]);
		m->rad[i] = m->nshapes;
		m->nshapes *= m->k[i] + 1;
	}
	m->off = mf_alloc_array(m->nshapes + 1, sizeof(u32), false);
	m->cost = mf_alloc_array(total, sizeof(u32), false);
	m->va = mf_alloc_array(t->nodes, sizeof(u32), false);
	m->vb = mf_alloc_array(t->nodes, sizeof(u32), false);
	if (!m->off || !m->cost || !m->va || !m->vb) {
		mintcd_free(m);
		return -ENOMEM;
	}
	m->off[0] = 0;
	for (sh = 0; sh < m->nshapes; sh++) {
		shape_decode(m, sh, &b);
		m->off[sh + 1] = m->off[sh] + (1U << b.bits);
	}
	/* a half's shape index is smaller: increasing order is bottom-up */
	for (sh = 0; sh < m->nshapes; sh++)
		mintcd_fill_shape(m, sh);
	return 0;
}

/* Coordinate j of node id in the planning frame. */
static inline u32 node_coord(const struct mf_topo *t, u32 id, u32 j)
{
	return (id / t->stride[j]) % t->dims[j];
}

/* Split box bx: choose the dimension and the target attaining f; fill the
 * two halves (the informed node's first) and the target's id.
 */
static int mintcd_split(const struct mintcd *m, const struct mintcd_box *bx,
			struct mintcd_box *half, u32 *target)
{
	const struct mf_topo *t = m->t;
	struct mintcd_shape b;
	u32 c[MF_MAX_DIMS], prel = 0, want, j, i, pass, hb, h, pu, fcp, r, q, dist, qc, csize;
	const u32 *fc;

	shape_decode(m, bx->shape, &b);
	for (j = 0; j < m->d; j++) {
		c[j] = node_coord(t, bx->node, j) - node_coord(t, bx->origin, j);
		prel |= c[j] << b.sft[j];
	}
	want = m->cost[m->off[bx->shape] + prel];
	csize = 1U << (b.bits - 1);
	/* longest sides first (pass = the exponent), lowest dimension first */
	for (pass = 26; pass >= 1; pass--) {
		for (i = 0; i < m->d; i++) {
			if (b.a[i] != pass)
				continue;
			fc = m->cost + m->off[bx->shape - m->rad[i]];
			hb = b.sft[i] + b.a[i] - 1;
			h = 1U << (b.a[i] - 1);
			pu = c[i] >= h;
			fcp = fc[half_rel(prel, hb)];
			if (fcp > want)
				continue;
			for (r = 0; r < csize; r++) {
				/* r: index in the half box; rebuild the parent rel */
				q = (r & ((1U << hb) - 1)) | ((r >> hb) << (hb + 1)) |
				    ((pu ? 0U : 1U) << hb);
				dist = 0;
				for (j = 0; j < m->d; j++) {
					qc = (q >> b.sft[j]) & ((1U << b.a[j]) - 1);
					dist += dim_dist(m, j, b.a[j], c[j], qc);
				}
				if (dist + fcp + fc[r] != want)
					continue;
				*target = bx->origin;
				for (j = 0; j < m->d; j++)
					*target += ((q >> b.sft[j]) & ((1U << b.a[j]) - 1)) *
						   t->stride[j];
				half[0].shape = bx->shape - m->rad[i];
				half[1].shape = half[0].shape;
				half[0].node = bx->node;
				half[1].node = *target;
				half[0].origin = bx->origin + (pu ? h * t->stride[i] : 0);
				half[1].origin = bx->origin + (pu ? 0 : h * t->stride[i]);
				return 0;
			}
		}
	}
	return -EINVAL;		/* cannot happen: f is attained */
}

static int mintcd_build(const struct mf_topo *t, u32 source, u32 routing,
			struct mf_sched *s)
{
	struct mintcd m;
	struct mintcd_box *cur = NULL, *nxt = NULL;
	u32 full, vsrc = source, shift = 0, best, p, n, ncur, nn, step, steps, tgt;
	int err;

	err = mintcd_init(&m, t);
	if (err)
		return err;
	full = m.nshapes - 1;
	/* full box: rel index == node id */
	if (m.torus) {
		/* translates are in the class: start from a best position */
		best = m.cost[m.off[full] + source];
		for (p = 0; p < t->nodes; p++) {
			if (m.cost[m.off[full] + p] < best) {
				best = m.cost[m.off[full] + p];
				vsrc = p;
			}
		}
		shift = mf_topo_sub(t, source, vsrc);
	}
	steps = log2_exact(t->nodes);
	n = t->nodes;		/* boxes after the last split */
	cur = mf_alloc_array(n, sizeof(*cur), false);
	nxt = mf_alloc_array(n, sizeof(*nxt), false);
	err = -ENOMEM;
	if (!cur || !nxt)
		goto out;
	err = mf_sched_reserve(s, t->nodes - 1,
			       m.cost[m.off[full] + vsrc] + t->nodes - 1);
	if (err)
		goto out;
	cur[0].origin = 0;
	cur[0].shape = full;
	cur[0].node = vsrc;
	ncur = 1;
	for (step = 0; step < steps; step++) {
		err = mf_sched_step(s);
		if (err)
			goto out;
		nn = 0;
		for (p = 0; p < ncur; p++) {
			err = mintcd_split(&m, &cur[p], &nxt[nn], &tgt);
			if (err)
				goto out;
			nn += 2;
			err = mf_sched_send_route(s, t, routing,
						  shift ? mf_topo_add(t, cur[p].node, shift) :
						  cur[p].node,
						  shift ? mf_topo_add(t, tgt, shift) : tgt);
			if (err)
				goto out;
		}
		swap(cur, nxt);
		ncur = nn;
	}
	err = mf_sched_end(s);
out:
	mf_free(cur);
	mf_free(nxt);
	mintcd_free(&m);
	return err;
}

/* covers: sides 2^a, 2^b, ...: the table has prod(2^(a+1) - 1) <= 2^22 entries */
MF_ALGO_DEFINE(mintcd, "mintcd", MESHFABRIC_ALGO_MINTCD,
	       MESHFABRIC_MODEL_ONE_PORT,
	       "power-of-two-sided meshes and tori with cost tables <= 2^22 (e.g. 1024x1024)");
