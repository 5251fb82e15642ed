// SPDX-License-Identifier: GPL-2.0
/* All-port broadcast on an n x ... x n torus after
 * Tsay & Wang (paper 002): main diagonal, diagonals to diagonals, final
 * phase, and the even-n extension by an extra "shell" phase.
 *
 * Contract: build() fills a MESHFABRIC_MODEL_ALL_PORT schedule from any
 * source of a torus with d (2..8) equal dimensions n >= 3 in which every
 * node is informed exactly once and no directed link carries two sends of
 * one step (contention-free).  Steps, with r(m) = ceil(log_{2d+1} m):
 *   direct(m) = d * r(m) + (d >= 3 && m != 3), valid for odd m, and for
 *               every m when d <= 3;
 *   steps(n)  = min over L >= 0 of direct(n - L) + L * ceil(d / 2).
 * docs/tsay-wang.md derives this and lists where we depart from 002.
 *
 * Coordinates are relative to the source (the torus is node-symmetric);
 * the source's coordinates are added when a path is written out.
 *
 * Every phase grows the informed set along "lines" of m nodes by a 1-D
 * rank plan (struct tw_plan): each informed node is responsible for an
 * interval of ranks around itself and, per step, splits it into 2d + 1
 * blocks of at most ceil(len / (2d + 1)) nodes (002 Lemma 2), keeps the
 * middle one and sends to one node near the centre of each other block.
 * The j-th block on either side (slot j) is reached by a path whose first
 * link is in dimension j - 1, so a node's 2d sends use 2d distinct ports.
 *
 * Phases on the m-torus (m = n - L):
 *  1      the main diagonal (x, ..., x) (002 section 4);
 *  h      (2 <= h <= d - 1, f = d - h): the diagonal through each node of
 *         the previous phase in its (f + 1)-dimensional subtorus, direction
 *         (-1, ..., -1, +1 at f) (002 section 5).  Slots 1..f+1 travel
 *         along the diagonal; slot j > f + 1 goes to another subtorus:
 *         eps hops in dimension g = j - 1, then 2 * psi_g * eps in
 *         dimension f, where x_0 = ... = x_f = psi . (x_{f+1}, ...) was the
 *         previous phase's set.  The g-line through a source holds one node
 *         of the phase's set when m is odd (at most two, n/2 apart, when
 *         d = 3 and m is even; eps is then short), which makes the global
 *         links private; the local segment ends on the only set node of its
 *         f-line.
 *  realign  (002 section 6, first step) move each column's node to
 *         x_0 = sum_g a_g x_g with a_g = +-1 (only when psi is not +-1);
 *  d      the final phase along dimension 0: slot 1 in the column, slot j
 *         straight along dimension j - 1 (002 section 6).
 * Then L shell layers (002 section 7, even n, redesigned): an m-torus
 * embedded in the real n-torus skips real coordinates m..n-1; a virtual
 * hop m-1 -> 0 is the real path through them.  Growing the embedded torus
 * from M - 1 to M takes ceil(d / 2) steps: step t informs the nodes with
 * coordinate M - 1 in dimension 2t or 2t + 1: +1 hop from M - 2 in one
 * dimension, or from (0, 0) two hops (2t, -) then (2t + 1, -).
 */
#include "algo.h"

#define TW_MAXD		MF_MAX_DIMS

/* 1-D rank plan on a ring of m nodes, d sends per side per step. */
struct tw_plan {
	u32 m, d, steps;
	u32 *first;	/* ranks of step k: order[first[k - 1] .. first[k]) */
	u32 *order;	/* ranks != 0 by step */
	s32 *off;	/* rank - parent rank, |off| <= (m - 1) / 2 */
	u8 *slot;	/* 1..d */
};

struct tw_ctx {
	const struct mf_topo *t;
	struct mf_sched *s;
	u32 d, n, m;		/* dims, real size, current virtual size */
	u32 src[TW_MAXD];	/* source coordinates */
	u32 vc[TW_MAXD];	/* virtual coordinates while writing a path */
	u32 cur[TW_MAXD];	/* real coordinates while writing a path */
	u32 id;
	u32 *buf;		/* path being written */
	u32 len;		/* hops in buf */
	u32 cap;
};

static void tw_plan_free(struct tw_plan *p)
{
	mf_free_all(p->first, p->order, p->off, p->slot);
	memset(p, 0, sizeof(*p));
}

/* Ranks (offsets from the line's first node) of the intervals. */
struct tw_iv {
	s32 c;		/* the informed node */
	u32 lm, lp;	/* ranks below / above c it is responsible for */
};

static void tw_plan_add(struct tw_plan *p, struct tw_iv *iv, u32 *cnt,
			s32 rep, s32 parent, u32 lm, u32 lp, u32 slot)
{
	u32 rank = (u32)((rep % (s32)p->m + (s32)p->m) % (s32)p->m);

	iv[*cnt].c = rep;
	iv[*cnt].lm = lm;
	iv[*cnt].lp = lp;
	(*cnt)++;
	p->off[rank] = rep - parent;
	p->slot[rank] = (u8)slot;
	p->order[p->first[p->steps]++] = rank;
}

/* Split the interval of each informed node into 2d + 1 blocks of at most
 * ceil(len / (2d + 1)) ranks; a block of S ranks gets its node at its
 * centre, so intervals stay balanced (lm and lp differ by at most one)
 * and the largest block after k steps is ceil(m / (2d + 1)^k).
 */
static int tw_plan_build(struct tw_plan *p, u32 m, u32 d)
{
	struct tw_iv *iv;
	u32 cnt = 1, i, j, k, done;

	memset(p, 0, sizeof(*p));
	p->m = m;
	p->d = d;
	iv = mf_alloc_array(m, sizeof(*iv), false);
	p->first = mf_alloc_array(m + 1, sizeof(u32), true);
	p->order = mf_alloc_array(m, sizeof(u32), false);
	p->off = mf_alloc_array(m, sizeof(s32), true);
	p->slot = mf_alloc_array(m, sizeof(u8), true);
	if (!iv || !p->first || !p->order || !p->off || !p->slot) {
		mf_free(iv);
		tw_plan_free(p);
		return -ENOMEM;
	}
	iv[0].c = 0;
	iv[0].lm = (m - 1) / 2;
	iv[0].lp = m - 1 - iv[0].lm;
	while (cnt < m) {
		u32 n0 = cnt;

		p->steps++;
		p->first[p->steps] = p->first[p->steps - 1];
		for (i = 0; i < n0; i++) {
			u32 len = iv[i].lm + iv[i].lp + 1;
			u32 b = (len + 2 * d) / (2 * d + 1);
			u32 ap = iv[i].lp > d * b ? iv[i].lp - d * b : 0;
			u32 am = iv[i].lm > d * b ? iv[i].lm - d * b : 0;
			s32 c = iv[i].c;

			for (k = 0; k < 2; k++) {
				u32 side = k ? iv[i].lm - am : iv[i].lp - ap;

				done = 0;
				for (j = 1; j <= d; j++) {
					u32 sz = side / d + (j <= side % d);
					u32 lo = (k ? am : ap) + 1 + done;
					u32 half = (sz - 1) / 2;

					if (!sz)
						continue;
					done += sz;
					if (!k)
						tw_plan_add(p, iv, &cnt,
							    c + (s32)(lo + half), c,
							    half, sz - 1 - half, j);
					else
						tw_plan_add(p, iv, &cnt,
							    c - (s32)(lo + half), c,
							    sz - 1 - half, half, j);
				}
			}
			iv[i].lm = am;
			iv[i].lp = ap;
		}
	}
	mf_free(iv);
	return 0;
}

/* Rank plan statistics without building it: the number of steps. */
static u32 tw_log(u32 m, u32 d)
{
	u64 p = 1;
	u32 r = 0;

	while (p < m) {
		p *= 2 * d + 1;
		r++;
	}
	return r;
}

/* psi of phase d (x_0 = psi . x over dims 1..d-1), mod m. */
static void tw_final_psi(u32 d, u32 m, u32 *psi)
{
	u32 h, g;

	psi[d - 1] = 1 % m;	/* after phase 1: x_k = x_{d-1} */
	for (h = 2; h < d; h++) {
		u32 f = d - h;

		for (g = f + 1; g < d; g++)
			psi[g] = (u32)((2ULL * psi[g]) % m);
		psi[f] = m - 1;
	}
}

static bool tw_unit_sign(u32 v, u32 m)
{
	return v == 1 % m || v == m - 1;
}

static bool tw_need_realign(u32 d, u32 m)
{
	u32 psi[TW_MAXD], g;

	tw_final_psi(d, m, psi);
	for (g = 1; g < d; g++)
		if (!tw_unit_sign(psi[g], m))
			return true;
	return false;
}

static bool tw_direct_ok(u32 d, u32 m)
{
	return m >= 3 && ((m & 1) || d <= 3);
}

static u32 tw_direct_steps(u32 d, u32 m)
{
	return d * tw_log(m, d) + tw_need_realign(d, m);
}

/* Number of shell layers L of the cheapest schedule. */
static u32 tw_layers(u32 d, u32 n)
{
	u32 best = U32_MAX, bestl = 0, l, sh = (d + 1) / 2;

	for (l = 0; l + 3 <= n; l++) {
		u32 st;

		if ((u64)l * sh >= best)
			break;
		if (!tw_direct_ok(d, n - l))
			continue;
		st = tw_direct_steps(d, n - l) + l * sh;
		if (st < best) {
			best = st;
			bestl = l;
		}
	}
	return bestl;
}

/* ---- writing paths: virtual m-torus coordinates to real node ids ---- */

static void tw_start(struct tw_ctx *x, const u32 *v)
{
	u32 i;

	x->id = 0;
	for (i = 0; i < x->d; i++) {
		x->vc[i] = v[i];
		x->cur[i] = (v[i] + x->src[i]) % x->n;
		x->id += x->cur[i] * x->t->stride[i];
	}
	x->buf[0] = x->id;
	x->len = 0;
}

static void tw_real_hop(struct tw_ctx *x, u32 dim, bool plus)
{
	u32 st = x->t->stride[dim];

	if (plus) {
		if (x->cur[dim] == x->n - 1) {
			x->cur[dim] = 0;
			x->id -= (x->n - 1) * st;
		} else {
			x->cur[dim]++;
			x->id += st;
		}
	} else {
		if (!x->cur[dim]) {
			x->cur[dim] = x->n - 1;
			x->id += (x->n - 1) * st;
		} else {
			x->cur[dim]--;
			x->id -= st;
		}
	}
	x->buf[++x->len] = x->id;
}

/* hops virtual hops in dimension dim, direction plus; the virtual edge
 * m-1 <-> 0 is the real path through coordinates m..n-1.
 */
static int tw_seg(struct tw_ctx *x, u32 dim, bool plus, u32 hops)
{
	u32 i, k, wrap = x->n - x->m + 1;

	for (i = 0; i < hops; i++) {
		u32 v = x->vc[dim];
		bool w = plus ? v == x->m - 1 : v == 0;

		if (x->len + wrap >= x->cap)
			return -EINVAL;
		for (k = 0; k < (w ? wrap : 1); k++)
			tw_real_hop(x, dim, plus);
		x->vc[dim] = plus ? (w ? 0 : v + 1) : (w ? x->m - 1 : v - 1);
	}
	return 0;
}

/* Shorter way from coordinate a to b of the m-ring. */
static int tw_seg_to(struct tw_ctx *x, u32 dim, u32 b)
{
	u32 up = (b + x->m - x->vc[dim]) % x->m;

	if (up <= x->m - up)
		return tw_seg(x, dim, true, up);
	return tw_seg(x, dim, false, x->m - up);
}

static int tw_send(struct tw_ctx *x)
{
	return mf_sched_send(x->s, x->buf, x->len);
}

static u32 tw_mod(struct tw_ctx *x, s64 v)
{
	s64 r = v % (s64)x->m;

	return (u32)(r < 0 ? r + x->m : r);
}

/* Open the next step and reset the line index c (TW_MAXD entries). */
static int tw_step(struct tw_ctx *x, u32 *c)
{
	memset(c, 0, TW_MAXD * sizeof(*c));
	return mf_sched_step(x->s);
}

/* Next line index c over dims lo..d-1 (odometer); false when wrapped. */
static bool tw_next(const struct tw_ctx *x, u32 *c, u32 lo)
{
	u32 g;

	for (g = lo; g < x->d; g++) {
		if (++c[g] < x->m)
			return true;
		c[g] = 0;
	}
	return false;
}

static u32 tw_dot(const struct tw_ctx *x, const u32 *a, const u32 *c, u32 lo)
{
	u64 v = 0;
	u32 g;

	for (g = lo; g < x->d; g++)
		v += (u64)a[g] * c[g];
	return (u32)(v % x->m);
}

/* Inverse of a unit v mod m (extended Euclid). */
static u32 tw_inv(u32 v, u32 m)
{
	s64 a = v, b = m, x0 = 1, x1 = 0;

	while (b) {
		s64 q = a / b, t;

		t = a - q * b;
		a = b;
		b = t;
		t = x0 - q * x1;
		x0 = x1;
		x1 = t;
	}
	return (u32)(((x0 % (s64)m) + m) % m);
}

/* Node of rank rho on the line c of phase h (f = d - h): x_g = c_g for
 * g > f, x_f = base + rho, x_k = base - rho for k < f (phase 1: all rho).
 */
static void tw_node(struct tw_ctx *x, u32 f, bool first, u32 base,
		    const u32 *c, u32 rho, u32 *v)
{
	u32 k;

	for (k = f + 1; k < x->d; k++)
		v[k] = c[k];
	v[f] = (base + rho) % x->m;
	for (k = 0; k < f; k++)
		v[k] = first ? rho : tw_mod(x, (s64)base - rho);
}

/* Along the diagonal of phase f from sv by o ranks: |o| hops in each of
 * dims k0, k0 + 1, .., f, 0, .., k0 - 1 (x_f moves by o, x_k by -o, or by
 * o in phase 1).
 */
static int tw_diag_path(struct tw_ctx *x, u32 f, bool first, u32 k0, s32 o,
			const u32 *sv)
{
	u32 q, dim, ao = (u32)(o < 0 ? -o : o);
	int err = 0;

	tw_start(x, sv);
	for (q = 0; q <= f && !err; q++) {
		bool plus = o > 0;

		dim = (k0 + q) % (f + 1);
		if (!first && dim < f)
			plus = !plus;
		err = tw_seg(x, dim, plus, ao);
	}
	return err;
}

/* To tv (rank change o) from the subtorus eps away in dimension g: eps
 * hops in g, then 2 psi_g eps in f (the other x_k stay).  psi_g = +-1:
 * eps = +-o, the short way; else (m odd) eps = o / psi_g, positive ranks
 * through the + port, negative through the - port.
 */
static int tw_cross_path(struct tw_ctx *x, u32 f, u32 g, s32 o, u32 psi,
			 u32 inv, const u32 *tv)
{
	u32 sv[TW_MAXD], e, hops, ao = (u32)(o < 0 ? -o : o);
	bool plus;
	int err;

	if (psi == 1 % x->m) {
		e = tw_mod(x, o);
		plus = o > 0;
		hops = ao;
	} else if (psi == x->m - 1) {
		e = tw_mod(x, -(s64)o);
		plus = o < 0;
		hops = ao;
	} else {
		e = (u32)((u64)tw_mod(x, o) * inv % x->m);
		plus = o > 0;
		hops = plus ? e : x->m - e;
	}
	memcpy(sv, tv, sizeof(sv));
	sv[g] = tw_mod(x, (s64)tv[g] - e);
	sv[f] = tw_mod(x, (s64)tv[f] - (s64)(2ULL * psi % x->m * e % x->m));
	tw_start(x, sv);
	err = tw_seg(x, g, plus, hops);
	if (!err)
		err = tw_seg_to(x, f, tv[f]);
	return err;
}

/* Phases 1..d-1: the diagonals of the (f + 1)-dimensional subtori. */
static int tw_phase_diag(struct tw_ctx *x, const struct tw_plan *p, u32 h,
			 u32 *psi)
{
	u32 d = x->d, f = d - h, k, i, c[TW_MAXD] = { 0 };
	u32 tv[TW_MAXD], sv[TW_MAXD], inv[TW_MAXD] = { 0 };
	bool first = h == 1;
	int err;

	for (k = f + 1; k < d; k++)
		if (!tw_unit_sign(psi[k], x->m))
			inv[k] = tw_inv(psi[k], x->m);
	for (k = 1; k <= p->steps; k++) {
		err = tw_step(x, c);
		if (err)
			return err;
		do {
			u32 base = first ? 0 : tw_dot(x, psi, c, f + 1);

			for (i = p->first[k - 1]; i < p->first[k]; i++) {
				u32 rho = p->order[i], j = p->slot[rho];
				s32 o = p->off[rho];

				tw_node(x, f, first, base, c, rho, tv);
				if (j - 1 <= f) {
					tw_node(x, f, first, base, c,
						tw_mod(x, (s64)rho - o), sv);
					err = tw_diag_path(x, f, first, j - 1,
							   o, sv);
				} else {
					err = tw_cross_path(x, f, j - 1, o,
							    psi[j - 1],
							    inv[j - 1], tv);
				}
				if (err)
					return err;
				err = tw_send(x);
				if (err)
					return err;
			}
		} while (tw_next(x, c, f + 1));
	}
	/* the set just informed: x_k = 2 base - x_f for k < f */
	if (first) {
		psi[d - 1] = 1 % x->m;
	} else {
		for (k = f + 1; k < d; k++)
			psi[k] = (u32)(2ULL * psi[k] % x->m);
		psi[f] = x->m - 1;
	}
	return 0;
}

/* Realign (if needed) and the final phase along dimension 0. */
static int tw_phase_final(struct tw_ctx *x, const struct tw_plan *p,
			  const u32 *psi)
{
	u32 d = x->d, a[TW_MAXD] = { 0 }, c[TW_MAXD] = { 0 }, v[TW_MAXD];
	u32 k, i, g;
	bool realign = false;
	int err;

	for (g = 1; g < d; g++) {
		a[g] = psi[g] == x->m - 1 ? x->m - 1 : 1 % x->m;
		if (a[g] != psi[g])
			realign = true;
	}
	if (realign) {
		err = mf_sched_step(x->s);
		if (err)
			return err;
		do {
			u32 old = tw_dot(x, psi, c, 1), to = tw_dot(x, a, c, 1);

			if (old == to)
				continue;
			memcpy(v, c, sizeof(v));
			v[0] = old;
			tw_start(x, v);
			err = tw_seg_to(x, 0, to);
			if (!err)
				err = tw_send(x);
			if (err)
				return err;
		} while (tw_next(x, c, 1));
	}
	for (k = 1; k <= p->steps; k++) {
		err = tw_step(x, c);
		if (err)
			return err;
		do {
			u32 base = tw_dot(x, a, c, 1);
			u32 old = realign ? tw_dot(x, psi, c, 1) : base;

			for (i = p->first[k - 1]; i < p->first[k]; i++) {
				u32 rho = p->order[i], j = p->slot[rho];
				s32 o = p->off[rho];
				u32 ao = (u32)(o < 0 ? -o : o);
				u32 t0 = (base + rho) % x->m;

				if (t0 == old)
					continue;	/* informed by realign */
				memcpy(v, c, sizeof(v));
				if (j == 1) {
					v[0] = tw_mod(x, (s64)t0 - o);
					tw_start(x, v);
					err = tw_seg(x, 0, o > 0, ao);
				} else {
					/* x_g moves by -a_g o: rank + o */
					bool plus = (a[j - 1] == 1 % x->m) ==
						    (o < 0);
					s64 dl = plus ? ao : -(s64)ao;

					v[0] = t0;
					v[j - 1] = tw_mod(x, (s64)c[j - 1] - dl);
					tw_start(x, v);
					err = tw_seg(x, j - 1, plus, ao);
				}
				if (!err)
					err = tw_send(x);
				if (err)
					return err;
			}
		} while (tw_next(x, c, 1));
	}
	return 0;
}

/* Grow the embedded torus from M - 1 to M = x->m (coordinate M - 1 is
 * new in every dimension): ceil(d / 2) steps.
 */
static int tw_shell(struct tw_ctx *x)
{
	u32 d = x->d, M = x->m, t, q, e, v[TW_MAXD], sv[TW_MAXD];
	u32 hi[TW_MAXD];
	int err;

	for (t = 0; 2 * t < d; t++) {
		u32 i = 2 * t, j = i + 1;
		bool pair = j < d;
		u32 npairs = pair ? 2 * (M - 1) + 1 : 1;

		err = mf_sched_step(x->s);
		if (err)
			return err;
		for (q = 0; q < d; q++)
			hi[q] = q < i ? M : M - 1;	/* exclusive bounds */
		for (e = 0; e < npairs; e++) {
			/* (M-1, 0..M-2), (0..M-2, M-1), (M-1, M-1) */
			u32 vi, vj = 0;

			if (!pair) {
				vi = M - 1;
			} else if (e < M - 1) {
				vi = M - 1;
				vj = e;
			} else if (e < 2 * (M - 1)) {
				vi = e - (M - 1);
				vj = M - 1;
			} else {
				vi = M - 1;
				vj = M - 1;
			}
			memset(v, 0, sizeof(v));
			for (;;) {
				v[i] = vi;
				if (pair)
					v[j] = vj;
				memcpy(sv, v, sizeof(sv));
				if (pair && vi == M - 1 && vj == M - 1) {
					sv[i] = 0;
					sv[j] = 0;
					tw_start(x, sv);
					err = tw_seg(x, i, false, 1);
					if (!err)
						err = tw_seg(x, j, false, 1);
				} else {
					u32 dim = vi == M - 1 ? i : j;

					sv[dim] = M - 2;
					tw_start(x, sv);
					err = tw_seg(x, dim, true, 1);
				}
				if (!err)
					err = tw_send(x);
				if (err)
					return err;
				/* odometer over the other dimensions */
				for (q = 0; q < d; q++) {
					if (q == i || (pair && q == j))
						continue;
					if (++v[q] < hi[q])
						break;
					v[q] = 0;
				}
				if (q == d)
					break;
			}
		}
	}
	return 0;
}

static int tsay_wang_supports(const struct mf_topo *t)
{
	u32 i;

	if (t->kind != MESHFABRIC_KIND_TORUS || t->ndims < 2 ||
	    t->ndims > TW_MAXD || t->dims[0] < 3)
		return -EOPNOTSUPP;
	for (i = 1; i < t->ndims; i++)
		if (t->dims[i] != t->dims[0])
			return -EOPNOTSUPP;
	return 0;
}

static int tsay_wang_build(const struct mf_topo *t, u32 source, u32 routing,
			   struct mf_sched *s)
{
	struct tw_ctx x = { 0 };
	struct tw_plan p;
	u32 psi[TW_MAXD] = { 0 }, h, l;
	int err;

	if (tsay_wang_supports(t) || source >= t->nodes)
		return -EINVAL;
	x.t = t;
	x.s = s;
	x.d = t->ndims;
	x.n = t->dims[0];
	l = tw_layers(x.d, x.n);
	x.m = x.n - l;
	mf_topo_coords(t, source, x.src);
	x.cap = 2 * x.d * (2 * x.n + 2) + 4;
	x.buf = mf_alloc_array(x.cap, sizeof(u32), false);
	if (!x.buf)
		return -ENOMEM;
	err = mf_sched_reserve(s, t->nodes - 1, 4 * t->nodes);
	if (!err)
		err = tw_plan_build(&p, x.m, x.d);
	if (err)
		goto out;
	for (h = 1; h < x.d && !err; h++)
		err = tw_phase_diag(&x, &p, h, psi);
	if (!err)
		err = tw_phase_final(&x, &p, psi);
	tw_plan_free(&p);
	for (x.m++; !err && x.m <= x.n; x.m++)
		err = tw_shell(&x);
	if (!err)
		err = mf_sched_end(s);
out:
	mf_free(x.buf);
	return err;
}

MF_ALGO_DEFINE(tsay_wang, "tsay-wang", MESHFABRIC_ALGO_TSAY_WANG,
	       MESHFABRIC_MODEL_ALL_PORT, "n x ... x n tori, n >= 3, d >= 2");
