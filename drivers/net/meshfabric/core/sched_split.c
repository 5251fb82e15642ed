// SPDX-License-Identifier: GPL-2.0
/* `split`: a one-port, time-optimal (ceil(log2 N) steps) broadcast of
 * least total communication distance (TCD) among recursive box splits, on
 * every mesh and torus, any sizes, any d, from any source (docs/split.md).
 *
 * Class.  A box (a sub-mesh; on a torus an arc of each ring, or the whole
 * ring) with a step budget b and one informed node p, responsible for it,
 * is cut across any dimension i into two boxes of a and L_i - a slices
 * whose sizes both fit 2^(b-1); p sends to any node q of the other box,
 * which becomes responsible for it, and both recurse with budget b - 1.
 * A box spanning a whole ring may be cut at any offset.  The root has the
 * budget ceil(log2 N), so the schedule takes ceil(log2 N) steps.  Where
 * no cut fits (3 x 5 in 4 steps: 15 nodes, and every box cut leaves 9 or
 * 10 > 8 on one side) the box is ordered along a snake (boustrophedon)
 * path, or in 2-D along bands of 2..32 rows walked column by column, and
 * cut into intervals of that order instead (split_iv_*), which always fit.
 *
 * Method.  Inside a box the cost only depends on the box's shape, budget
 * and p's position, so
 *   f(S, b, p) = min over cuts (i, a), q in the other part B of
 *                dist(p, q) + f(A, b - 1, p) + f(B, b - 1, q)
 * is tabulated for every (shape, budget) reachable from the root by the
 * cuts allowed, at every position.  The min over q is, for all p at once,
 * a separable distance transform (two sweeps per dimension, two laps on a
 * whole ring), as in sched_mintcd.c.  Boxes of up to SPLIT_ALL_CUTS nodes
 * try every cut that fits; larger ones the near-halves floor(L/2) and
 * ceil(L/2) only (a half fits whenever any cut across i fits), which keeps
 * the number of shapes at O(4^d log^d N) and the tables at O(2^d d N).
 * Shapes are found breadth first from the root, whose budgets decrease by
 * one per level, and filled in reverse order (children first): no
 * recursion.  The schedule is read off level by level.
 *
 * Distances and paths stay inside the box being split: Manhattan in a
 * mesh or an arc, the ring distance in a dimension the box spans whole
 * (the path wraps inside the box).  Sends of one step lie in pairwise
 * disjoint boxes, so every schedule is contention free.  On a torus an
 * arc longer than half its ring + 1 may hold a send that is not a
 * shortest path of the torus (its TCD counts the path it uses).
 */
#include "algo.h"
#include "search.h"

#define SPLIT_INF	0x3fffffffU
#define SPLIT_ALL_CUTS	256U		/* boxes trying every cut that fits */
#define SPLIT_MAX_TABLE	0x4000000U	/* 2^26 cost entries: 256 MiB */
#define SPLIT_MAX_CUTS	64U
#define SPLIT_SNAKE_ORDERS_MAX	4096U	/* larger snake boxes: one order */

/* A box (box == U32_MAX) or an interval of ranks lo .. lo + size - 1 of
 * the snake order of box shape `box` (len[] is then that box's).
 */
struct split_shape {
	u32 len[MF_MAX_DIMS];
	u32 budget;
	u32 size;
	u32 box, lo, var;	/* var: the snake order (split_snake_order) */
	bool snake;		/* a box no cut fits: split by intervals */
	u32 off;		/* costs: cost[off .. off + size) */
	u32 next;		/* hash chain, U32_MAX ends it */
};

struct split {
	const struct mf_topo *t;
	u32 d;
	bool torus;
	struct split_shape *sh;
	u32 nsh, capsh;
	u32 *hash;		/* hmask + 1 heads */
	u32 hmask;
	u32 *cost;
	u32 *va, *vb, *vc;	/* scratch, N entries each */
	u32 *vd, *vq;		/* scratch of the interval search */
	u32 *nb;		/* 2d neighbours per node of the largest snake box */
};

/* A cut of a shape: dimension i at a, the children's shape indices. */
struct split_cut {
	u32 i, a, ca, cb;
};

struct split_box {
	u32 org;		/* node of relative coordinates 0 */
	u32 shape;
	u32 node;		/* the informed node */
};

static bool split_whole(const struct split *m, const struct split_shape *s, u32 i)
{
	return m->torus && s->len[i] == m->t->dims[i];
}

static u32 split_hash(const struct split *m, const struct split_shape *k)
{
	u32 i, h = (k->budget * 0x9e3779b1U) ^ (k->box * 0xc2b2ae35U) ^ k->lo ^
		   (k->var << 24);

	for (i = 0; i < m->d; i++)
		h = (h ^ k->len[i]) * 0x85ebca6bU;
	h = (h ^ k->size) * 0x85ebca6bU;
	return (h ^ (h >> 15)) & m->hmask;
}

static bool split_same(const struct split *m, const struct split_shape *a,
		       const struct split_shape *b)
{
	return a->budget == b->budget && a->box == b->box && a->lo == b->lo &&
	       a->var == b->var &&
	       a->size == b->size && !memcmp(a->len, b->len, m->d * sizeof(u32));
}

static int split_rehash(struct split *m, u32 nbuckets)
{
	u32 i, h;

	mf_free(m->hash);
	m->hash = mf_alloc_array(nbuckets, sizeof(u32), false);
	if (!m->hash)
		return -ENOMEM;
	m->hmask = nbuckets - 1;
	for (i = 0; i < nbuckets; i++)
		m->hash[i] = U32_MAX;
	for (i = 0; i < m->nsh; i++) {
		h = split_hash(m, &m->sh[i]);
		m->sh[i].next = m->hash[h];
		m->hash[h] = i;
	}
	return 0;
}

/* Index of shape k (len, budget, box, lo, size), added if new; U32_MAX
 * on -ENOMEM.
 */
static u32 split_get(struct split *m, const struct split_shape *k)
{
	struct split_shape *s;
	u32 h = split_hash(m, k), i;

	for (i = m->hash[h]; i != U32_MAX; i = m->sh[i].next)
		if (split_same(m, &m->sh[i], k))
			return i;
	if (m->nsh == m->capsh) {
		s = mf_grow(m->sh, m->capsh, 2 * m->capsh, sizeof(*s));
		if (!s)
			return U32_MAX;
		m->sh = s;
		m->capsh *= 2;
		if (split_rehash(m, 2 * m->capsh))
			return U32_MAX;
		h = split_hash(m, k);
	}
	s = &m->sh[m->nsh];
	*s = *k;
	s->snake = false;
	s->next = m->hash[h];
	m->hash[h] = m->nsh;
	return m->nsh++;
}

/* The box of sides len and budget b. */
static u32 split_shape_get(struct split *m, const u32 *len, u32 budget)
{
	struct split_shape k;
	u32 j;

	memset(&k, 0, sizeof(k));
	k.size = 1;
	for (j = 0; j < m->d; j++) {
		k.len[j] = len[j];
		k.size *= len[j];
	}
	k.budget = budget;
	k.box = U32_MAX;
	return split_get(m, &k);
}

/* The interval lo .. lo + n - 1 of the snake order of box shape box. */
static u32 split_iv_get(struct split *m, u32 box, u32 var, u32 lo, u32 n,
			u32 budget)
{
	struct split_shape k = m->sh[box];

	k.box = box;
	k.var = var;
	k.lo = lo;
	k.size = n;
	k.budget = budget;
	return split_get(m, &k);
}

/* The cut positions a tried across dimension i of shape s (both parts
 * fit 2^(budget - 1)), in the order fill and read-off try them.
 */
static u32 split_positions(const struct split_shape *s, u32 i, u32 *pos)
{
	u32 l = s->len[i], hi, lo, a, n = 0;
	u64 cap;

	if (l < 2 || !s->budget)
		return 0;
	cap = (u64)1 << (s->budget - 1);
	/* (size / l) * a <= cap */
	hi = (u32)(cap * l / s->size < l - 1 ? cap * l / s->size : l - 1);
	lo = l - hi;
	if (lo > hi)
		return 0;
	if (s->size <= SPLIT_ALL_CUTS || hi - lo + 1 <= 2) {
		/* at most SPLIT_MAX_CUTS, the nearest to the middle */
		if (hi - lo + 1 > SPLIT_MAX_CUTS) {
			lo = l / 2 - SPLIT_MAX_CUTS / 2;
			hi = lo + SPLIT_MAX_CUTS - 1;
		}
		for (a = lo; a <= hi; a++)
			pos[n++] = a;
		return n;
	}
	pos[n++] = l / 2;
	if (l & 1)
		pos[n++] = l / 2 + 1;
	return n;
}

/* The snake orders of a box: a permutation of the dimensions (the first
 * runs fastest) and a reflection of each; every digit is reflected on
 * every odd value of the higher digits (boustrophedon), so consecutive
 * ranks are neighbours and every interval is connected.  Variant v: every
 * permutation and reflection up to d = 3, beyond that (and for boxes of
 * more than SPLIT_SNAKE_ORDERS_MAX nodes) the dimensions by increasing
 * side only.
 */
struct split_order {
	u32 dim[MF_MAX_DIMS];
	u32 refl;		/* bit j: coordinate j reflected */
	u32 band, ba, bb;	/* 2-D bands: height band across bb, or 0 */
};

#define SPLIT_BANDS	5U	/* band heights 2, 4, .. 32, across either side */

static u32 split_snake_plain(const struct split *m, const struct split_shape *s)
{
	if (s->size > SPLIT_SNAKE_ORDERS_MAX)
		return 1;
	return m->d == 1 ? 2 : m->d == 2 ? 8 : m->d == 3 ? 48 : 1;
}

/* Band heights tried (2-D only, both orientations): 2, 4, .. 32; 4 only
 * above SPLIT_SNAKE_ORDERS_MAX.  A band order visits bands of rows in
 * turn, each column by column (up, down, ...), the bands alternately
 * forwards and backwards: consecutive ranks are neighbours when the
 * number of columns is odd (else an interval may be disconnected, which
 * only costs that order its use: its distances are infinite).
 */
static u32 split_bands(const struct split *m, const struct split_shape *s)
{
	if (m->d != 2)
		return 0;
	return s->size > SPLIT_SNAKE_ORDERS_MAX ? 1 : SPLIT_BANDS;
}

static u32 split_snake_vars(const struct split *m, const struct split_shape *s)
{
	return split_snake_plain(m, s) + 2 * split_bands(m, s);
}

static void split_snake_order(const struct split *m, const struct split_shape *s,
			      u32 v, struct split_order *o)
{
	u32 i, j, x, perm;

	for (i = 0; i < m->d; i++) {
		x = i;
		for (j = i; j > 0 && s->len[o->dim[j - 1]] > s->len[x]; j--)
			o->dim[j] = o->dim[j - 1];
		o->dim[j] = x;
	}
	o->refl = 0;
	o->band = 0;
	if (v >= split_snake_plain(m, s)) {
		/* bands of rows: columns of o->band nodes across bb, advancing
		 * across ba, back and forth; every band starts at its low side
		 */
		v -= split_snake_plain(m, s);
		o->ba = v & 1;
		o->bb = 1 - o->ba;
		o->band = split_bands(m, s) == 1 ? 4 : 2U << (v >> 1);
		return;
	}
	if (m->d > 3)
		return;
	o->refl = v & ((1U << m->d) - 1);
	perm = v >> m->d;
	/* Lehmer code: rotate element perm % (d - i) of the tail to i */
	for (i = 0; i + 1 < m->d; i++) {
		j = i + perm % (m->d - i);
		perm /= m->d - i;
		x = o->dim[j];
		for (; j > i; j--)
			o->dim[j] = o->dim[j - 1];
		o->dim[i] = x;
	}
}

/* Interval cuts of shape s (a snake box or an interval): the first c
 * ranks and the rest, both fitting 2^(budget - 1).
 */
static u32 split_iv_cuts(const struct split_shape *s, u32 *pos)
{
	u64 cap;
	u32 n = 0;

	if (s->size < 2 || !s->budget)
		return 0;
	cap = (u64)1 << (s->budget - 1);
	if ((s->size + 1) / 2 <= cap)
		pos[n++] = (s->size + 1) / 2;
	if ((s->size & 1) && s->size / 2 >= 1 && s->size - s->size / 2 <= cap)
		pos[n++] = s->size / 2;
	return n;
}

static u32 split_box_of(const struct split *m, u32 k)
{
	return m->sh[k].box == U32_MAX ? k : m->sh[k].box;
}

/* Discover every shape reachable from the root (breadth first). */
static int split_discover(struct split *m, u32 steps)
{
	u32 k, i, j, n, cuts, len[MF_MAX_DIMS], pos[SPLIT_MAX_CUTS], lo, v, nv, var;

	if (split_shape_get(m, m->t->dims, steps) == U32_MAX)
		return -ENOMEM;
	for (k = 0; k < m->nsh; k++) {
		cuts = 0;
		for (i = 0; m->sh[k].box == U32_MAX && i < m->d; i++) {
			n = split_positions(&m->sh[k], i, pos);
			cuts += n;
			for (j = 0; j < n; j++) {
				memcpy(len, m->sh[k].len, sizeof(len));
				len[i] = pos[j];
				if (split_shape_get(m, len, m->sh[k].budget - 1) == U32_MAX)
					return -ENOMEM;
				len[i] = m->sh[k].len[i] - pos[j];
				if (split_shape_get(m, len, m->sh[k].budget - 1) == U32_MAX)
					return -ENOMEM;
			}
		}
		if (cuts || m->sh[k].size < 2)
			continue;
		/* no box cut fits: intervals of the snake order */
		if (m->sh[k].box == U32_MAX)
			m->sh[k].snake = true;
		n = split_iv_cuts(&m->sh[k], pos);
		lo = m->sh[k].box == U32_MAX ? 0 : m->sh[k].lo;
		nv = m->sh[k].box == U32_MAX ? split_snake_vars(m, &m->sh[k]) : 1;
		for (v = 0; v < nv; v++) {
			var = m->sh[k].box == U32_MAX ? v : m->sh[k].var;
			for (j = 0; j < n; j++) {
				if (split_iv_get(m, split_box_of(m, k), var, lo,
						 pos[j], m->sh[k].budget - 1) == U32_MAX ||
				    split_iv_get(m, split_box_of(m, k), var,
						 lo + pos[j], m->sh[k].size - pos[j],
						 m->sh[k].budget - 1) == U32_MAX)
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static u32 split_stride(const struct split_shape *s, u32 i)
{
	u32 j, st = 1;

	for (j = 0; j < i; j++)
		st *= s->len[j];
	return st;
}

static struct split_cut split_mkcut(struct split *m, u32 sh, u32 i, u32 a)
{
	struct split_cut c = { .i = i, .a = a };
	u32 len[MF_MAX_DIMS];

	memcpy(len, m->sh[sh].len, sizeof(len));
	len[i] = a;
	c.ca = split_shape_get(m, len, m->sh[sh].budget - 1);
	len[i] = m->sh[sh].len[i] - a;
	c.cb = split_shape_get(m, len, m->sh[sh].budget - 1);
	return c;
}

/* v[r] = min over q of v[q] + dist(r, q) in the box of shape s. */
static void split_transform(const struct split *m, const struct split_shape *s, u32 *v)
{
	u32 j, rings = 0;

	for (j = 0; j < m->d; j++)
		if (split_whole(m, s, j))
			rings |= 1U << j;
	mf_dist_transform(v, m->d, s->len, rings);
}

/* out[r]: the cost of cut c of shape sh with the informed node at r. */
static void split_cut_table(struct split *m, u32 sh, const struct split_cut *c,
			    u32 *out)
{
	const struct split_shape *s = &m->sh[sh];
	const u32 *fa = m->cost + m->sh[c->ca].off, *fb = m->cost + m->sh[c->cb].off;
	u32 st = split_stride(s, c->i), l = s->len[c->i], a = c->a;
	u32 r, lo, x, hi, side, *va = m->va, *vb = m->vb;

	for (r = 0; r < s->size; r++) {
		lo = r % st;
		x = r / st % l;
		hi = r / st / l;
		va[r] = x < a ? fa[lo + st * (x + a * hi)] :
			fb[lo + st * (x - a + (l - a) * hi)];
	}
	for (side = 0; side < 2; side++) {
		/* side 0: p in A, targets in B */
		for (r = 0; r < s->size; r++)
			vb[r] = (r / st % l >= a) == !side ? va[r] : SPLIT_INF;
		split_transform(m, s, vb);
		for (r = 0; r < s->size; r++)
			if ((r / st % l < a) == !side)
				out[r] = va[r] + vb[r];
	}
}

/* Replace every line of t across dimension i by its minimum. */
static void split_project(const struct split_shape *s, u32 st, u32 i, u32 *t)
{
	u32 lo, hi, x, n = s->len[i], mn;

	for (hi = 0; hi < s->size; hi += n * st) {
		for (lo = 0; lo < st; lo++) {
			mn = SPLIT_INF;
			for (x = 0; x < n; x++)
				if (t[hi + lo + x * st] < mn)
					mn = t[hi + lo + x * st];
			for (x = 0; x < n; x++)
				t[hi + lo + x * st] = mn;
		}
	}
}

static u32 split_index(const struct split_shape *s, u32 d, const u32 *c)
{
	u32 j = d, r = 0;

	while (j--)
		r = r * s->len[j] + c[j];
	return r;
}

static void split_snake_coords(const struct split *m, const struct split_shape *s,
			       const struct split_order *o, u32 r, u32 *c)
{
	u32 j, l, dig, x, w, nb, band, hb;

	if (o->band) {
		w = s->len[o->ba];
		nb = (s->len[o->bb] + o->band - 1) / o->band;
		band = r / (o->band * w);
		band = band < nb - 1 ? band : nb - 1;
		r -= band * o->band * w;
		hb = band == nb - 1 ? s->len[o->bb] - band * o->band : o->band;
		x = r / hb;	/* the column */
		dig = r % hb;
		c[o->ba] = band & 1 ? w - 1 - x : x;
		c[o->bb] = band * o->band + (x & 1 ? hb - 1 - dig : dig);
		return;
	}
	for (j = 0; j < m->d; j++) {
		x = o->dim[j];
		l = s->len[x];
		dig = r % l;
		r /= l;
		c[x] = (r & 1) ^ (o->refl >> x & 1) ? l - 1 - dig : dig;
	}
}

static u32 split_snake_rank(const struct split *m, const struct split_shape *s,
			    const struct split_order *o, const u32 *c)
{
	u32 j = m->d, r = 0, l, x, w, nb, band, hb, k;

	if (o->band) {
		w = s->len[o->ba];
		nb = (s->len[o->bb] + o->band - 1) / o->band;
		band = c[o->bb] / o->band;
		band = band < nb - 1 ? band : nb - 1;
		hb = band == nb - 1 ? s->len[o->bb] - band * o->band : o->band;
		x = band & 1 ? w - 1 - c[o->ba] : c[o->ba];
		k = c[o->bb] - band * o->band;
		return band * o->band * w + x * hb + (x & 1 ? hb - 1 - k : k);
	}
	while (j--) {
		x = o->dim[j];
		l = s->len[x];
		r = r * l + ((r & 1) ^ (o->refl >> x & 1) ? l - 1 - c[x] : c[x]);
	}
	return r;
}

/* Rank of the neighbour of c across port (dimension port / 2, + if even)
 * inside box s, or U32_MAX.
 */
static u32 split_snake_next(const struct split *m, const struct split_shape *s,
			    const struct split_order *ord, u32 *c, u32 port)
{
	u32 j = port / 2, x = c[j], l = s->len[j], r;

	if (l < 2)
		return U32_MAX;
	if (!(port & 1))
		c[j] = x + 1 < l ? x + 1 : split_whole(m, s, j) ? 0 : U32_MAX;
	else
		c[j] = x ? x - 1 : split_whole(m, s, j) ? l - 1 : U32_MAX;
	r = c[j] == U32_MAX ? U32_MAX : split_snake_rank(m, s, ord, c);
	c[j] = x;
	return r;
}

/* m->nb[k * 2d + port]: the rank offset of the neighbour of rank lo + k
 * across port inside the interval lo .. lo + n - 1, or U32_MAX.
 */
static void split_iv_neighbours(struct split *m, const struct split_shape *s,
				const struct split_order *ord, u32 lo, u32 n)
{
	u32 c[MF_MAX_DIMS], k, port, r, *nb = m->nb;

	for (k = 0; k < n; k++) {
		split_snake_coords(m, s, ord, lo + k, c);
		for (port = 0; port < 2 * m->d; port++) {
			r = split_snake_next(m, s, ord, c, port);
			*nb++ = r >= lo && r < lo + n ? r - lo : U32_MAX;
		}
	}
}

/* v[k] = min over q of v[q] + (hops from k to q inside the interval whose
 * neighbours m->nb lists), by relaxation sweeps until stable.
 */
static void split_iv_relax(const struct split *m, u32 n, u32 *v)
{
	u32 pass, i, k, port, r, np = 2 * m->d;
	bool changed = true;

	while (changed) {
		changed = false;
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < n; i++) {
				k = pass ? n - 1 - i : i;
				for (port = 0; port < np; port++) {
					r = m->nb[k * np + port];
					if (r == U32_MAX || v[r] + 1 >= v[k])
						continue;
					v[k] = v[r] + 1;
					changed = true;
				}
			}
		}
	}
}

/* g[k]: the cost of snake box or interval sh in snake order var with the
 * informed node at rank offset k.
 */
static void split_iv_table(struct split *m, u32 sh, u32 var, u32 *g)
{
	const struct split_shape *s = &m->sh[sh], *b = &m->sh[split_box_of(m, sh)];
	u32 pos[SPLIT_MAX_CUTS], n = s->size, box = split_box_of(m, sh);
	u32 lo = s->box == U32_MAX ? 0 : s->lo, j, k, ncut, ca, cb, side;
	struct split_order o;
	const u32 *fa, *fb;
	bool in_first;

	split_snake_order(m, b, var, &o);
	for (k = 0; k < n; k++)
		g[k] = n == 1 ? 0 : SPLIT_INF;
	ncut = split_iv_cuts(s, pos);
	if (ncut)
		split_iv_neighbours(m, b, &o, lo, n);
	for (j = 0; j < ncut; j++) {
		ca = split_iv_get(m, box, var, lo, pos[j], s->budget - 1);
		cb = split_iv_get(m, box, var, lo + pos[j], n - pos[j], s->budget - 1);
		fa = m->cost + m->sh[ca].off;
		fb = m->cost + m->sh[cb].off;
		for (k = 0; k < n; k++)
			m->va[k] = k < pos[j] ? fa[k] : fb[k - pos[j]];
		for (side = 0; side < 2; side++) {
			/* side 0: p in the first part, targets in the second */
			for (k = 0; k < n; k++)
				m->vb[k] = (k >= pos[j]) == !side ? m->va[k] : SPLIT_INF;
			split_iv_relax(m, n, m->vb);
			for (k = 0; k < n; k++) {
				in_first = k < pos[j];
				if (in_first == !side && m->va[k] + m->vb[k] < g[k])
					g[k] = m->va[k] + m->vb[k];
			}
		}
	}
}

/* Costs of an interval (by rank offset) or a snake box (by position, the
 * least over its orders and, across a whole ring, its rotations).
 */
static void split_iv_fill(struct split *m, u32 sh)
{
	const struct split_shape *s = &m->sh[sh];
	u32 c[MF_MAX_DIMS], k, v, i, *f = m->cost + s->off, *g = m->vc;
	struct split_order o;

	if (s->box != U32_MAX) {
		split_iv_table(m, sh, s->var, f);
		return;
	}
	for (k = 0; k < s->size; k++)
		f[k] = SPLIT_INF;
	for (v = 0; v < split_snake_vars(m, s); v++) {
		split_iv_table(m, sh, v, g);
		split_snake_order(m, s, v, &o);
		for (k = 0; k < s->size; k++) {
			split_snake_coords(m, s, &o, k, c);
			if (g[k] < f[split_index(s, m->d, c)])
				f[split_index(s, m->d, c)] = g[k];
		}
	}
	for (i = 0; i < m->d; i++)
		if (split_whole(m, s, i))
			split_project(s, split_stride(s, i), i, f);
}

static void split_fill(struct split *m, u32 sh)
{
	struct split_shape *s = &m->sh[sh];
	u32 *f = m->cost + s->off, pos[SPLIT_MAX_CUTS], i, j, n, r;
	struct split_cut c;

	if (s->snake || s->box != U32_MAX) {
		split_iv_fill(m, sh);
		return;
	}
	for (r = 0; r < s->size; r++)
		f[r] = s->size == 1 ? 0 : SPLIT_INF;
	for (i = 0; i < m->d; i++) {
		n = split_positions(s, i, pos);
		for (j = 0; j < n; j++) {
			c = split_mkcut(m, sh, i, pos[j]);
			split_cut_table(m, sh, &c, m->vc);
			if (split_whole(m, s, i))
				split_project(s, split_stride(s, i), i, m->vc);
			for (r = 0; r < s->size; r++)
				if (m->vc[r] < f[r])
					f[r] = m->vc[r];
		}
	}
}

static void split_free(struct split *m)
{
	mf_free_all(m->sh, m->hash, m->cost, m->va, m->vb, m->vc, m->vd, m->vq,
		    m->nb);
}

static int split_init(struct split *m, const struct mf_topo *t, u32 steps)
{
	u64 total = 0;
	u32 k, snake = 0;
	int err;

	memset(m, 0, sizeof(*m));
	m->t = t;
	m->d = t->ndims;
	m->torus = t->kind == MESHFABRIC_KIND_TORUS;
	m->capsh = 64;
	m->sh = mf_alloc_array(m->capsh, sizeof(*m->sh), false);
	err = -ENOMEM;
	if (!m->sh || split_rehash(m, 2 * m->capsh))
		goto fail;
	err = split_discover(m, steps);
	if (err)
		goto fail;
	for (k = 0; k < m->nsh; k++) {
		if (m->sh[k].snake && m->sh[k].size > snake)
			snake = m->sh[k].size;
		m->sh[k].off = (u32)total;
		total += m->sh[k].size;
		if (total > SPLIT_MAX_TABLE) {
			err = -E2BIG;
			goto fail;
		}
	}
	err = -ENOMEM;
	m->cost = mf_alloc_array(total, sizeof(u32), false);
	m->va = mf_alloc_array(t->nodes, sizeof(u32), false);
	m->vb = mf_alloc_array(t->nodes, sizeof(u32), false);
	m->vc = mf_alloc_array(t->nodes, sizeof(u32), false);
	m->vd = mf_alloc_array(t->nodes, sizeof(u32), false);
	m->vq = mf_alloc_array(t->nodes, sizeof(u32), false);
	if (!m->cost || !m->va || !m->vb || !m->vc || !m->vd || !m->vq)
		goto fail;
	if (snake) {
		m->nb = mf_alloc_array((size_t)snake * 2 * m->d, sizeof(u32), false);
		if (!m->nb)
			goto fail;
	}
	/* children have budget - 1: discovered later, filled earlier */
	for (k = m->nsh; k-- > 0;)
		split_fill(m, k);
	return 0;
fail:
	split_free(m);
	return err;
}

/* Relative coordinates of node id in box bx (shape s). */
static void split_rel(const struct split *m, u32 org, u32 id, u32 *c)
{
	u32 j, o, x, n;

	for (j = 0; j < m->d; j++) {
		n = m->t->dims[j];
		o = org / m->t->stride[j] % n;
		x = id / m->t->stride[j] % n;
		c[j] = x >= o ? x - o : x + n - o;
	}
}

/* Node id at relative coordinates c of a box with origin org. */
static u32 split_node(const struct split *m, u32 org, const u32 *c)
{
	u32 j, x, n, id = 0;

	for (j = 0; j < m->d; j++) {
		n = m->t->dims[j];
		x = org / m->t->stride[j] % n + c[j];
		id += (x >= n ? x - n : x) * m->t->stride[j];
	}
	return id;
}

static u32 split_dist(const struct split *m, const struct split_shape *s,
		      const u32 *p, const u32 *q)
{
	u32 j, dx, dist = 0;

	for (j = 0; j < m->d; j++) {
		dx = p[j] > q[j] ? p[j] - q[j] : q[j] - p[j];
		if (split_whole(m, s, j) && s->len[j] - dx < dx)
			dx = s->len[j] - dx;
		dist += dx;
	}
	return dist;
}

/* Append the send from p to q (relative coordinates of a box of shape s
 * at org): dimension order, inside the box.
 */
static int split_send(const struct split *m, struct mf_sched *s_out,
		      const struct split_shape *s, u32 org, const u32 *p,
		      const u32 *q, u32 *path)
{
	u32 c[MF_MAX_DIMS], j, n, dx, hops = 0;
	bool up;

	memcpy(c, p, sizeof(c));
	path[0] = split_node(m, org, c);
	for (j = 0; j < m->d; j++) {
		n = s->len[j];
		up = q[j] > p[j];
		dx = up ? q[j] - p[j] : p[j] - q[j];
		if (split_whole(m, s, j) && n - dx < dx) {
			dx = n - dx;
			up = !up;
		}
		while (dx--) {
			c[j] = up ? (c[j] + 1 == n ? 0 : c[j] + 1) :
			       (c[j] ? c[j] - 1 : n - 1);
			path[++hops] = split_node(m, org, c);
		}
	}
	return mf_sched_send(s_out, path, hops);
}

/* Split box bx: find a cut and a target attaining f; fill the two boxes
 * (the informed node's first) and send.
 */
static int split_box(struct split *m, const struct split_box *bx,
		     struct split_box *half, struct mf_sched *out, u32 *path)
{
	const struct split_shape *s = &m->sh[bx->shape];
	u32 p0[MF_MAX_DIMS], pc[MF_MAX_DIMS], qc[MF_MAX_DIMS], cc[MF_MAX_DIMS];
	u32 pos[SPLIT_MAX_CUTS], want, i, j, k, n, x, st, org, fp, r, rest, pa;
	const struct split_shape *sp, *so;
	struct split_cut c;
	bool in_a;

	split_rel(m, bx->org, bx->node, p0);
	want = m->cost[s->off + split_index(s, m->d, p0)];
	for (i = 0; i < m->d; i++) {
		n = split_positions(s, i, pos);
		st = split_stride(s, i);
		for (k = 0; k < n; k++) {
			c = split_mkcut(m, bx->shape, i, pos[k]);
			org = bx->org;
			memcpy(pc, p0, sizeof(pc));
			if (split_whole(m, s, i)) {
				/* rotate the ring so the cut table is least at p */
				split_cut_table(m, bx->shape, &c, m->vc);
				r = split_index(s, m->d, pc) - pc[i] * st;
				for (x = 0, pa = 0; x < s->len[i]; x++)
					if (m->vc[r + x * st] < m->vc[r + pa * st])
						pa = x;
				if (m->vc[r + pa * st] != want)
					continue;
				/* new origin: p's coordinate becomes pa */
				j = (pc[i] + s->len[i] - pa) % s->len[i];
				memset(cc, 0, sizeof(cc));
				cc[i] = j;
				org = split_node(m, bx->org, cc);
				pc[i] = pa;
			}
			in_a = pc[i] < c.a;
			sp = &m->sh[in_a ? c.ca : c.cb];
			so = &m->sh[in_a ? c.cb : c.ca];
			memcpy(cc, pc, sizeof(cc));
			if (!in_a)
				cc[i] -= c.a;
			fp = m->cost[sp->off + split_index(sp, m->d, cc)];
			if (fp > want)
				continue;
			rest = want - fp;
			for (r = 0; r < so->size; r++) {
				x = r;
				for (j = 0; j < m->d; j++) {
					qc[j] = x % so->len[j];
					x /= so->len[j];
				}
				if (m->cost[so->off + r] > rest)
					continue;
				if (in_a)
					qc[i] += c.a;
				if (split_dist(m, s, pc, qc) + m->cost[so->off + r] != rest)
					continue;
				/* A at org, B at org + a along i */
				memset(cc, 0, sizeof(cc));
				cc[i] = c.a;
				half[0].shape = in_a ? c.ca : c.cb;
				half[1].shape = in_a ? c.cb : c.ca;
				half[0].org = in_a ? org : split_node(m, org, cc);
				half[1].org = in_a ? split_node(m, org, cc) : org;
				half[0].node = bx->node;
				half[1].node = split_node(m, org, qc);
				return split_send(m, out, s, org, pc, qc, path);
			}
		}
	}
	return -EINVAL;		/* cannot happen: f is attained */
}

/* Split interval or snake box bx in snake order var, the informed node
 * costing want: find a cut and a target attaining it (breadth-first
 * search from the informed node inside the interval), fill the two
 * intervals (the informed node's first) and send along the path found.
 */
static int split_iv_do(struct split *m, const struct split_box *bx, u32 var,
		       u32 want, struct split_box *half, struct mf_sched *out,
		       u32 *path)
{
	const struct split_shape *s = &m->sh[bx->shape];
	const struct split_shape *b = &m->sh[split_box_of(m, bx->shape)];
	u32 c[MF_MAX_DIMS], pos[SPLIT_MAX_CUTS], n = s->size, box = split_box_of(m, bx->shape);
	u32 lo = s->box == U32_MAX ? 0 : s->lo, j, k, ncut, ca, cb, fp;
	u32 head, tail, port, r, pk, hops, *dist = m->vd, *par = m->vq, *q = m->va;
	struct split_order o;
	const u32 *fa, *fb;
	bool first;

	split_snake_order(m, b, var, &o);
	split_rel(m, bx->org, bx->node, c);
	pk = split_snake_rank(m, b, &o, c) - lo;
	/* hops from the informed node inside the interval */
	for (k = 0; k < n; k++)
		dist[k] = SPLIT_INF;
	dist[pk] = 0;
	q[0] = pk;
	for (head = 0, tail = 1; head < tail; head++) {
		split_snake_coords(m, b, &o, lo + q[head], c);
		for (port = 0; port < 2 * m->d; port++) {
			r = split_snake_next(m, b, &o, c, port);
			if (r < lo || r >= lo + n || dist[r - lo] != SPLIT_INF)
				continue;
			dist[r - lo] = dist[q[head]] + 1;
			par[r - lo] = q[head];
			q[tail++] = r - lo;
		}
	}
	ncut = split_iv_cuts(s, pos);
	for (j = 0; j < ncut; j++) {
		ca = split_iv_get(m, box, var, lo, pos[j], s->budget - 1);
		cb = split_iv_get(m, box, var, lo + pos[j], n - pos[j], s->budget - 1);
		fa = m->cost + m->sh[ca].off;
		fb = m->cost + m->sh[cb].off;
		first = pk < pos[j];
		fp = first ? fa[pk] : fb[pk - pos[j]];
		if (fp > want)
			continue;
		for (k = first ? pos[j] : 0; k < (first ? n : pos[j]); k++) {
			if (dist[k] + (first ? fb[k - pos[j]] : fa[k]) != want - fp)
				continue;
			/* the path, from the target back to the informed node */
			hops = dist[k];
			for (r = k, head = hops; ; r = par[r], head--) {
				split_snake_coords(m, b, &o, lo + r, c);
				path[head] = split_node(m, bx->org, c);
				if (!head)
					break;
			}
			half[0].shape = first ? ca : cb;
			half[1].shape = first ? cb : ca;
			half[0].org = bx->org;
			half[1].org = bx->org;
			half[0].node = bx->node;
			half[1].node = path[hops];
			return mf_sched_send(out, path, hops);
		}
	}
	return -EINVAL;		/* cannot happen: f is attained */
}

/* Split interval or snake box bx; a snake box first picks the order and
 * the rotation (across whole rings) attaining its cost.
 */
static int split_iv_split(struct split *m, const struct split_box *bx,
			  struct split_box *half, struct mf_sched *out, u32 *path)
{
	const struct split_shape *s = &m->sh[bx->shape];
	u32 p[MF_MAX_DIMS], c[MF_MAX_DIMS], sh[MF_MAX_DIMS], want, v, k, j;
	struct split_box rb = *bx;
	struct split_order o;

	split_rel(m, bx->org, bx->node, p);
	if (s->box != U32_MAX) {
		split_snake_order(m, &m->sh[s->box], s->var, &o);
		k = split_snake_rank(m, &m->sh[s->box], &o, p) - s->lo;
		return split_iv_do(m, bx, s->var, m->cost[s->off + k], half, out,
				   path);
	}
	want = m->cost[s->off + split_index(s, m->d, p)];
	for (v = 0; v < split_snake_vars(m, s); v++) {
		split_iv_table(m, bx->shape, v, m->vc);
		split_snake_order(m, s, v, &o);
		for (k = 0; k < s->size; k++) {
			if (m->vc[k] != want)
				continue;
			split_snake_coords(m, s, &o, k, c);
			for (j = 0; j < m->d; j++) {
				if (!split_whole(m, s, j) && c[j] != p[j])
					break;
				/* rotate the origin so that p sits at c */
				sh[j] = (p[j] + s->len[j] - c[j]) % s->len[j];
			}
			if (j < m->d)
				continue;
			rb.org = split_node(m, bx->org, sh);
			return split_iv_do(m, &rb, v, want, half, out, path);
		}
	}
	return -EINVAL;		/* cannot happen: f is attained */
}

static u32 split_steps(u32 n)
{
	u32 k = 0;

	while (((u64)1 << k) < n)
		k++;
	return k;
}

static int split_supports(const struct mf_topo *t)
{
	if (t->kind != MESHFABRIC_KIND_MESH && t->kind != MESHFABRIC_KIND_TORUS)
		return -EOPNOTSUPP;
	return 0;
}

/* Shapes of 17 .. SPLIT_SEARCH_NODES nodes (up to 16, split is the
 * exhaustive minimum) also run the interval-order search (search_order.c)
 * and, while above N - 1, the one-port search (search.c) within
 * SPLIT_SEARCH_WORK; the least TCD of the three is kept.
 */
#define SPLIT_SEARCH_NODES	MF_SEARCH_ORDER_NODES
#define SPLIT_SEARCH_WORK	1000000ULL

static int split_search(const struct mf_topo *t, u32 source, u32 steps,
			struct mf_sched *s)
{
	struct mf_sched f;
	u64 tcd, ft;
	int err, pass;

	if (t->nodes <= 16 || t->nodes > SPLIT_SEARCH_NODES)
		return 0;
	tcd = mf_search_tcd(s);
	for (pass = 0; pass < 2 && tcd > t->nodes - 1; pass++) {
		err = pass ? mf_search_oneport(t, source, steps,
					       SPLIT_SEARCH_WORK, &f) :
			     mf_search_order(t, source, steps, &f);
		if (err == -ENOMEM)
			return err;
		if (err)
			continue;
		ft = mf_search_tcd(&f);
		if (ft < tcd) {
			mf_sched_free(s);
			*s = f;
			tcd = ft;
		} else {
			mf_sched_free(&f);
		}
	}
	return 0;
}

static int split_build(const struct mf_topo *t, u32 source, u32 routing,
		       struct mf_sched *s)
{
	struct split m;
	struct split_box *cur = NULL, *nxt = NULL;
	u32 *path = NULL, steps = split_steps(t->nodes), step, p, ncur, nn;
	u32 plen = t->nodes + 1, j;
	int err;

	err = split_init(&m, t, steps);
	if (err)
		return err;
	if (m.cost[m.sh[0].off + source] >= SPLIT_INF) {
		err = -EOPNOTSUPP;
		goto out;
	}
	for (j = 0; j < t->ndims; j++)
		plen += t->dims[j];
	err = -ENOMEM;
	cur = mf_alloc_array(t->nodes, sizeof(*cur), false);
	nxt = mf_alloc_array(t->nodes, sizeof(*nxt), false);
	path = mf_alloc_array(plen, sizeof(u32), false);
	if (!cur || !nxt || !path)
		goto out;
	err = mf_sched_reserve(s, t->nodes - 1,
			       m.cost[m.sh[0].off + source] + t->nodes - 1);
	if (err)
		goto out;
	cur[0].org = 0;
	cur[0].shape = 0;
	cur[0].node = source;
	ncur = 1;
	for (step = 0; step < steps && ncur; step++) {
		err = mf_sched_step(s);
		if (err)
			goto out;
		for (p = 0, nn = 0; p < ncur; p++) {
			if (m.sh[cur[p].shape].snake ||
			    m.sh[cur[p].shape].box != U32_MAX)
				err = split_iv_split(&m, &cur[p], &nxt[nn], s, path);
			else
				err = split_box(&m, &cur[p], &nxt[nn], s, path);
			if (err)
				goto out;
			nn += 2;
		}
		/* keep the boxes of more than one node */
		for (p = 0, ncur = 0; p < nn; p++)
			if (m.sh[nxt[p].shape].size > 1)
				cur[ncur++] = nxt[p];
	}
	err = mf_sched_end(s);
out:
	mf_free_all(cur, nxt, path);
	split_free(&m);
	return err ?: split_search(t, source, steps, s);
}

MF_ALGO_DEFINE(split, "split", MESHFABRIC_ALGO_SPLIT,
	       MESHFABRIC_MODEL_ONE_PORT, "every mesh and torus");
