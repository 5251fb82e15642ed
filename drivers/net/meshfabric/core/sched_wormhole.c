// SPDX-License-Identifier: GPL-2.0
/* `wormhole`: all-port broadcast with multi-hop sends on meshes and tori of
 * any sizes and any d, from any source, by recursive box splitting.
 *
 * Contract: build() fills a MESHFABRIC_MODEL_ALL_PORT schedule in which
 * every node is informed once and no directed link carries two sends of
 * one step (contention-free).  On an n x ... x n torus that tsay-wang
 * covers, the schedule with fewer steps of the two is returned (ties: ours).
 *
 * Every informed node owns a box (a product of intervals) that contains it
 * and that no other node owns.  In a step the owner of box B takes the
 * dimensions in some order pi_0, pi_1, ..; for dimension pi_j it cuts a
 * left and a right slab off what is left of B (the "core": the dimensions
 * before pi_j already cut down, the ones after still full) and sends one
 * message into each slab, to the slab's centre node, which owns the slab
 * from then on.  The owner keeps the core.  The path of a send runs from
 * the owner along dimension pi_j (its ray, inside the final core) into
 * the slab, then corrects the other dimensions inside the slab.  So:
 *  - a node's sends leave by 2d distinct ports (pi_j, + or -);
 *  - paths of different owners lie in disjoint boxes, and the paths of one
 *    owner share no link: the rays leave the owner in distinct directions
 *    and everything else lies in the path's own slab.
 * Contention-free by construction; mf_check() verifies it.
 *
 * Pinwheel: two consecutive dimensions i = pi_j, k = pi_(j+1) of the order
 * may instead be cut into four arms that turn around the core, each arm
 * taking one corner region ((i,+) takes (+i,+k), (k,+) takes (-i,+k),
 * (i,-) takes (-i,-k), (k,-) takes (+i,-k)).  Each arm still contains the
 * exit of the owner's ray in its direction, so the argument above holds;
 * the arms are squarer than slabs, whose first one spans every later
 * dimension in full (8x8 torus: 3 steps instead of 4; 8^3: 4 instead of 5).
 *
 * Sizes: steps[b] is the number of steps this scheme needs for a box of
 * extents b with its owner at the centre (floor((b_i - 1) / 2)), computed
 * bottom-up for every box up to the topology's extents (one byte per box,
 * indexed like node ids).  For budget t the slab of pi_j is as thick as
 * the table allows a box to be covered in t - 1 steps (binary search), and
 * a centred owner stays at the centre of its core.  The candidate (order
 * pi, and where a pinwheel replaces two slabs, if anywhere) is the first
 * that fits the budget; orders: every permutation for d <= 4, rotations of
 * the identity and of its reverse above.  Pinwheels are tried on extents
 * up to WH_PINMAX only (every arm thickness is scanned).
 *
 * A torus is unrolled around the source (the source at the centre of the
 * interval 0..n_i - 1 in each dimension), so it is a mesh with a centred
 * source.  A mesh source off-centre follows its own chain of cores, found
 * by a breadth-first search over the candidate orders, at most WH_BEAM
 * distinct cores per step.
 */
#include "algo.h"
#include "coll.h"
#include "search.h"

#define WH_MAXD		MF_MAX_DIMS
#define WH_MAXORD	24
#define WH_BEAM		256
#define WH_MAXT		64
#define WH_PINMAX	64

struct wh_ctx {
	const struct mf_topo *t;
	u32 d;
	u32 n[WH_MAXD];
	u32 stride[WH_MAXD];	/* of the box table (= the topology's) */
	u8 *steps;		/* per box extents (id of extents - 1) */
	u8 *ord;		/* the candidate order chosen for that box */
	u32 nord;
	u8 order[WH_MAXORD][WH_MAXD];
};

static u32 wh_box_id(const struct wh_ctx *x, const u32 *ext)
{
	u32 i, id = 0;

	for (i = 0; i < x->d; i++)
		id += (ext[i] - 1) * x->stride[i];
	return id;
}

static void wh_box_ext(const struct wh_ctx *x, u32 id, u32 *ext)
{
	u32 i;

	for (i = 0; i < x->d; i++) {
		ext[i] = id % x->n[i] + 1;
		id /= x->n[i];
	}
}

/* The candidate orders: every permutation for d <= 4, else the rotations
 * of 0..d-1 and of d-1..0.
 */
static void wh_orders(struct wh_ctx *x)
{
	u32 d = x->d, i, j, k;
	u8 p[WH_MAXD];

	x->nord = 0;
	if (d <= 4) {
		for (i = 0; i < d; i++)
			p[i] = (u8)i;
		for (;;) {
			memcpy(x->order[x->nord++], p, d);
			/* next lexicographic permutation */
			for (i = d - 1; i > 0 && p[i - 1] > p[i]; i--)
				;
			if (!i)
				break;
			for (j = d - 1; p[j] < p[i - 1]; j--)
				;
			k = p[i - 1];
			p[i - 1] = p[j];
			p[j] = (u8)k;
			for (j = d - 1; i < j; i++, j--) {
				k = p[i];
				p[i] = p[j];
				p[j] = (u8)k;
			}
		}
		return;
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < d; i++, x->nord++)
			for (j = 0; j < d; j++)
				x->order[x->nord][j] = (u8)(k ? (2 * d - 1 - i - j) % d
							      : (i + j) % d);
}

/* Counting bound of a box from its centre: (2k+1)^t >= volume (k = the
 * dimensions longer than 1) and 3^t >= every extent.
 */
static u32 wh_box_lb(const struct wh_ctx *x, const u32 *ext)
{
	u64 vol = 1, p = 1;
	u32 i, k = 0, m = 1, t = 0, t1 = 0;

	for (i = 0; i < x->d; i++) {
		vol *= ext[i];
		k += ext[i] > 1;
		if (ext[i] > m)
			m = ext[i];
	}
	while (p < vol) {
		p *= 2 * k + 1;
		t++;
	}
	for (p = 1; p < m; p *= 3)
		t1++;
	return t > t1 ? t : t1;
}

/* The largest slab thickness in dimension i (at most max) for which the
 * box ext, with ext[i] replaced by it, is covered in fewer than t steps.
 */
static u32 wh_thick(const struct wh_ctx *x, u32 *ext, u32 i, u32 max, u32 t)
{
	u32 keep = ext[i], l = 0, h = max, mid;

	while (l < h) {
		mid = (l + h + 1) / 2;
		ext[i] = mid;
		if (x->steps[wh_box_id(x, ext)] < t)
			l = mid;
		else
			h = mid - 1;
	}
	ext[i] = keep;
	return l;
}

/* Steps of ext with dimension i set to a and k to b. */
static u32 wh_steps2(const struct wh_ctx *x, const u32 *ext, u32 i, u32 a,
		     u32 k, u32 b)
{
	u32 e[WH_MAXD];

	memcpy(e, ext, sizeof(e));
	e[i] = a;
	e[k] = b;
	return x->steps[wh_box_id(x, e)];
}

/* Pinwheel in dimensions i and k: four arms around the core, each taking
 * one corner region: (i,+) the (+i,+k) one, (k,+) (-i,+k), (i,-) (-i,-k),
 * (k,-) (+i,-k).  Arm (i,+) is hi[i] x (ext[k] - lo[k]), (i,-) is
 * lo[i] x (ext[k] - hi[k]), (k,+) is hi[k] x (ext[i] - hi[i]), (k,-) is
 * lo[k] x (ext[i] - lo[i]).  Every k-thickness y is tried with the
 * thickest i-arms that fit; the smallest core wins.  False if none fits.
 */
static bool wh_pinwheel(const struct wh_ctx *x, u32 *ext, const u32 *pos,
			u32 t, u32 i, u32 k, u32 *lo, u32 *hi)
{
	u32 pi = pos[i], qi = ext[i] - 1 - pos[i];
	u32 pk = pos[k], qk = ext[k] - 1 - pos[k];
	u32 y, yl, yr, xt, xl, xr, keep = ext[k];
	u64 area, best = U64_MAX;

	for (y = pk > qk ? pk : qk; y > 0; y--) {
		yl = y < pk ? y : pk;
		yr = y < qk ? y : qk;
		ext[k] = keep - (yl < yr ? yl : yr);
		xt = wh_thick(x, ext, i, pi > qi ? pi : qi, t);
		ext[k] = keep;
		xl = xt < pi ? xt : pi;
		xr = xt < qi ? xt : qi;
		if ((yr && wh_steps2(x, ext, k, yr, i, ext[i] - xr) >= t) ||
		    (yl && wh_steps2(x, ext, k, yl, i, ext[i] - xl) >= t))
			continue;
		area = (u64)(ext[i] - xl - xr) * (keep - yl - yr);
		if (area < best) {
			best = area;
			lo[i] = xl;
			hi[i] = xr;
			lo[k] = yl;
			hi[k] = yr;
		}
	}
	return best != U64_MAX;
}

/* Candidate c: order x->order[c % nord]; c / nord = 0: slabs only, p > 0:
 * a pinwheel in dimensions pi_(p-1) and pi_p (if both extents are at most
 * WH_PINMAX, else the candidate is void).
 */
static u32 wh_ncand(const struct wh_ctx *x)
{
	return x->nord * x->d;
}

/* One step of the owner at pos in box ext with budget t (>= 1) and
 * candidate c: the thicknesses lo[i] (left) and hi[i] (right); ext and pos
 * become the core and the owner's place in it.  Slabs are as thick as a
 * box coverable in t - 1 steps may be.  False if c is void here.
 */
static bool wh_split(const struct wh_ctx *x, u32 *ext, u32 *pos, u32 t,
		     u32 c, u32 *lo, u32 *hi)
{
	const u8 *o = x->order[c % x->nord];
	u32 pin = c / x->nord, j, i, a, b, l;

	for (j = 0; j < x->d; j++) {
		i = o[j];
		if (pin && j + 1 == pin) {
			u32 k = o[j + 1];

			if (ext[i] > WH_PINMAX || ext[k] > WH_PINMAX ||
			    ext[i] < 2 || ext[k] < 2 ||
			    !wh_pinwheel(x, ext, pos, t, i, k, lo, hi))
				return false;
			ext[i] -= lo[i] + hi[i];
			pos[i] -= lo[i];
			ext[k] -= lo[k] + hi[k];
			pos[k] -= lo[k];
			j++;
			continue;
		}
		a = pos[i];
		b = ext[i] - 1 - pos[i];
		l = wh_thick(x, ext, i, a > b ? a : b, t);
		lo[i] = l < a ? l : a;
		hi[i] = l < b ? l : b;
		ext[i] -= lo[i] + hi[i];
		pos[i] -= lo[i];
	}
	return true;
}

static bool wh_centred(const struct wh_ctx *x, const u32 *ext, const u32 *pos)
{
	u32 i;

	for (i = 0; i < x->d; i++)
		if (pos[i] != (ext[i] - 1) / 2)
			return false;
	return true;
}

/* steps[] and ord[] for every box, smaller boxes first. */
static int wh_table(struct wh_ctx *x)
{
	u32 N = x->t->nodes, id, i, t, k;
	u32 ext[WH_MAXD], e[WH_MAXD], pos[WH_MAXD], lo[WH_MAXD], hi[WH_MAXD];

	x->steps = mf_alloc_array(N, 1, false);
	x->ord = mf_alloc_array(N, 1, false);
	if (!x->steps || !x->ord)
		return -ENOMEM;
	x->steps[0] = 0;
	x->ord[0] = 0;
	for (id = 1; id < N; id++) {
		wh_box_ext(x, id, ext);
		t = wh_box_lb(x, ext);
		for (i = 0; i < x->d; i++)	/* start: the boxes inside */
			if (ext[i] > 1 && x->steps[id - x->stride[i]] > t)
				t = x->steps[id - x->stride[i]];
		for (;; t++) {
			if (t >= WH_MAXT)
				return -ERANGE;
			for (k = 0; k < wh_ncand(x); k++) {
				for (i = 0; i < x->d; i++) {
					e[i] = ext[i];
					pos[i] = (ext[i] - 1) / 2;
				}
				if (wh_split(x, e, pos, t, k, lo, hi) &&
				    x->steps[wh_box_id(x, e)] < t &&
				    wh_box_id(x, e) != id)
					break;
			}
			if (k < wh_ncand(x))
				break;
		}
		x->steps[id] = (u8)t;
		x->ord[id] = (u8)k;
	}
	return 0;
}

/* ---- the off-centre source (meshes): a chain of cores ---- */

struct wh_node {
	u32 ext;	/* box id of the core */
	u32 pos;	/* box id of pos + 1 (the owner's place) */
	u16 parent;	/* index in the previous level */
	u8 ord;		/* order that led here */
};

struct wh_chain {
	u32 steps;	/* total steps */
	u32 len;	/* chain steps before the core is centred or done */
	u8 ord[WH_MAXT];
};

/* Budget t: fill ch and return true if the source reaches a centred core
 * that fits the rest of the budget (or a single node).
 */
static bool wh_chain_try(const struct wh_ctx *x, const u32 *ext0,
			 const u32 *pos0, u32 t, struct wh_node *lv,
			 struct wh_chain *ch)
{
	u32 cnt[WH_MAXT + 1], k, a, o, j, i;
	u32 ext[WH_MAXD], pos[WH_MAXD], lo[WH_MAXD], hi[WH_MAXD];
	struct wh_node *cur, *nxt, nd;

	lv[0].ext = wh_box_id(x, ext0);
	for (i = 0; i < x->d; i++)
		pos[i] = pos0[i] + 1;
	lv[0].pos = wh_box_id(x, pos);
	cnt[0] = 1;
	for (k = 0; k <= t; k++) {
		cur = &lv[k * WH_BEAM];
		nxt = &lv[(k + 1) * WH_BEAM];
		cnt[k + 1] = 0;
		for (a = 0; a < cnt[k]; a++) {
			wh_box_ext(x, cur[a].ext, ext);
			wh_box_ext(x, cur[a].pos, pos);
			for (i = 0; i < x->d; i++)
				pos[i]--;
			if (!cur[a].ext || (wh_centred(x, ext, pos) &&
					    x->steps[cur[a].ext] + k <= t)) {
				/* found: walk back */
				ch->steps = t;
				ch->len = k;
				for (j = k; j > 0; j--) {
					ch->ord[j - 1] = lv[j * WH_BEAM + a].ord;
					a = lv[j * WH_BEAM + a].parent;
				}
				return true;
			}
			if (k == t)
				continue;
			for (o = 0; o < wh_ncand(x); o++) {
				u32 e[WH_MAXD], p[WH_MAXD];

				memcpy(e, ext, sizeof(e));
				memcpy(p, pos, sizeof(p));
				if (!wh_split(x, e, p, t - k, o, lo, hi) ||
				    wh_box_lb(x, e) + k + 1 > t)
					continue;
				nd.ext = wh_box_id(x, e);
				if (nd.ext == cur[a].ext)
					continue;	/* no progress */
				for (i = 0; i < x->d; i++)
					p[i]++;
				nd.pos = wh_box_id(x, p);
				nd.parent = (u16)a;
				nd.ord = (u8)o;
				for (j = 0; j < cnt[k + 1]; j++)
					if (nxt[j].ext == nd.ext &&
					    nxt[j].pos == nd.pos)
						break;
				if (j == cnt[k + 1] && j < WH_BEAM)
					nxt[cnt[k + 1]++] = nd;
			}
		}
		if (!cnt[k + 1])
			return false;
	}
	return false;
}

static int wh_chain_find(const struct wh_ctx *x, const u32 *ext,
			 const u32 *pos, struct wh_chain *ch)
{
	struct wh_node *lv;
	u32 t;

	lv = mf_alloc_array((WH_MAXT + 2) * WH_BEAM, sizeof(*lv), false);
	if (!lv)
		return -ENOMEM;
	for (t = wh_box_lb(x, ext); t < WH_MAXT; t++)
		if (wh_chain_try(x, ext, pos, t, lv, ch))
			break;
	mf_free(lv);
	return t < WH_MAXT ? 0 : -ERANGE;
}

/* ---- writing the schedule ---- */

struct wh_build {
	struct wh_ctx *x;
	struct mf_sched *s;
	u32 off[WH_MAXD];	/* real coordinate of unrolled 0 */
	u32 *buf;
	u32 cap;
	u32 *rec, nrec;		/* (box lo id, box ext id) pairs */
	u32 *nrec_buf, nnew;
};

static u32 wh_real(const struct wh_build *b, const u32 *u)
{
	const struct wh_ctx *x = b->x;
	u32 i, id = 0;

	for (i = 0; i < x->d; i++)
		id += ((u[i] + b->off[i]) % x->n[i]) * x->stride[i];
	return id;
}

/* Path from u (unrolled) to v: dimension first, then the others. */
static int wh_send(struct wh_build *b, const u32 *u, const u32 *v, u32 first)
{
	const struct wh_ctx *x = b->x;
	u32 c[WH_MAXD], q, i, len = 0;

	memcpy(c, u, sizeof(c));
	b->buf[0] = wh_real(b, c);
	for (q = 0; q < x->d; q++) {
		i = q ? (q <= first ? q - 1 : q) : first;
		while (c[i] != v[i]) {
			if (len + 1 >= b->cap)
				return -EINVAL;
			c[i] += c[i] < v[i] ? 1 : -1;
			b->buf[++len] = wh_real(b, c);
		}
	}
	return mf_sched_send(b->s, b->buf, len);
}

/* Record box (lo, ext) for the next step (lo stored as an id of lo + 1). */
static void wh_push(struct wh_build *b, const u32 *lo, const u32 *ext)
{
	u32 l1[WH_MAXD], i;

	for (i = 0; i < b->x->d; i++)
		l1[i] = lo[i] + 1;
	b->nrec_buf[2 * b->nnew] = wh_box_id(b->x, l1);
	b->nrec_buf[2 * b->nnew + 1] = wh_box_id(b->x, ext);
	b->nnew++;
}

/* Send from u to the centre of box (blo, bext), first along dimension
 * first, and record the box for its new owner.
 */
static int wh_arm(struct wh_build *b, const u32 *u, const u32 *blo,
		  const u32 *bext, u32 first)
{
	u32 v[WH_MAXD], q;
	int err;

	for (q = 0; q < b->x->d; q++)
		v[q] = blo[q] + (bext[q] - 1) / 2;
	err = wh_send(b, u, v, first);
	if (!err && wh_box_id(b->x, bext))
		wh_push(b, blo, bext);
	return err;
}

/* Arm of dimension i, side hi (else lo), of thickness th, with dimension
 * k (if k < d) limited to [klo, klo + kext).
 */
static int wh_arm_of(struct wh_build *b, const u32 *u, const u32 *slo,
		     const u32 *sext, u32 i, bool hi, u32 th, u32 k, u32 klo,
		     u32 kext)
{
	u32 blo[WH_MAXD], bext[WH_MAXD];

	if (!th)
		return 0;
	memcpy(blo, slo, sizeof(blo));
	memcpy(bext, sext, sizeof(bext));
	bext[i] = th;
	blo[i] = hi ? slo[i] + sext[i] - th : slo[i];
	if (k < b->x->d) {
		blo[k] = klo;
		bext[k] = kext;
	}
	return wh_arm(b, u, blo, bext, i);
}

/* One step of the owner at lo + pos of box (lo, ext) with budget t and
 * candidate c: sends and records; (lo, ext, pos) become its core.
 */
static int wh_step_box(struct wh_build *b, u32 *lo, u32 *ext, u32 *pos,
		       u32 t, u32 c)
{
	const struct wh_ctx *x = b->x;
	const u8 *o = x->order[c % x->nord];
	u32 L[WH_MAXD], R[WH_MAXD], e[WH_MAXD], p[WH_MAXD], u[WH_MAXD];
	u32 slo[WH_MAXD], sext[WH_MAXD], pin = c / x->nord, j, i, k;
	int err = 0;

	memcpy(e, ext, sizeof(e));
	memcpy(p, pos, sizeof(p));
	if (!wh_split(x, e, p, t, c, L, R))
		return -EINVAL;
	for (i = 0; i < x->d; i++)
		u[i] = lo[i] + pos[i];
	/* walk the order again: slab of pi_j = core so far, full after */
	memcpy(slo, lo, sizeof(slo));
	memcpy(sext, ext, sizeof(sext));
	for (j = 0; j < x->d && !err; j++) {
		i = o[j];
		if (pin && j + 1 == pin) {
			k = o[++j];
			err = wh_arm_of(b, u, slo, sext, i, true, R[i], k,
					slo[k] + L[k], sext[k] - L[k]);
			if (!err)
				err = wh_arm_of(b, u, slo, sext, i, false, L[i],
						k, slo[k], sext[k] - R[k]);
			if (!err)
				err = wh_arm_of(b, u, slo, sext, k, true, R[k],
						i, slo[i], sext[i] - R[i]);
			if (!err)
				err = wh_arm_of(b, u, slo, sext, k, false, L[k],
						i, slo[i] + L[i], sext[i] - L[i]);
			slo[k] += L[k];
			sext[k] -= L[k] + R[k];
		} else {
			err = wh_arm_of(b, u, slo, sext, i, false, L[i], x->d,
					0, 0);
			if (!err)
				err = wh_arm_of(b, u, slo, sext, i, true, R[i],
						x->d, 0, 0);
		}
		slo[i] += L[i];
		sext[i] -= L[i] + R[i];
	}
	memcpy(lo, slo, sizeof(slo));
	memcpy(ext, sext, sizeof(sext));
	memcpy(pos, p, sizeof(p));
	return err;
}

static int wh_build_all(struct wh_build *b, const u32 *pos0,
			const struct wh_chain *ch)
{
	struct wh_ctx *x = b->x;
	u32 lo[WH_MAXD] = { 0 }, ext[WH_MAXD], pos[WH_MAXD], k, r, i;
	u32 rlo[WH_MAXD], rext[WH_MAXD], rpos[WH_MAXD];
	bool chain = ch->len > 0;
	int err;

	for (i = 0; i < x->d; i++)
		ext[i] = x->n[i];
	memcpy(pos, pos0, sizeof(pos));
	b->nrec = 0;
	if (!chain && x->steps[wh_box_id(x, ext)]) {
		b->rec[0] = 0;
		b->rec[1] = wh_box_id(x, ext);
		b->nrec = 1;
	}
	for (k = 0; k < ch->steps; k++) {
		err = mf_sched_step(b->s);
		if (err)
			return err;
		b->nnew = 0;
		if (chain) {
			err = wh_step_box(b, lo, ext, pos, ch->steps - k,
					  ch->ord[k]);
			if (err)
				return err;
			if (k + 1 == ch->len) {
				chain = false;
				if (x->steps[wh_box_id(x, ext)])
					wh_push(b, lo, ext);
			}
		}
		for (r = 0; r < b->nrec; r++) {
			u32 id = b->rec[2 * r + 1];
			u32 t = x->steps[id];

			wh_box_ext(x, b->rec[2 * r], rlo);
			wh_box_ext(x, id, rext);
			for (i = 0; i < x->d; i++) {
				rlo[i]--;
				rpos[i] = (rext[i] - 1) / 2;
			}
			err = wh_step_box(b, rlo, rext, rpos, t,
					  x->ord[id]);
			if (err)
				return err;
			if (x->steps[wh_box_id(x, rext)])
				wh_push(b, rlo, rext);
		}
		swap(b->rec, b->nrec_buf);
		b->nrec = b->nnew;
	}
	return b->nrec || chain ? -EINVAL : 0;
}

static int wormhole_supports(const struct mf_topo *t)
{
	return t->kind == MESHFABRIC_KIND_MESH ||
	       t->kind == MESHFABRIC_KIND_TORUS ? 0 : -EOPNOTSUPP;
}

static int wormhole_own(const struct mf_topo *t, u32 source,
			struct mf_sched *s)
{
	struct wh_ctx *x;
	struct wh_build b = { 0 };
	struct wh_chain ch = { 0 };
	u32 src[WH_MAXD], pos[WH_MAXD], ext[WH_MAXD], i;
	int err;

	x = mf_zalloc(sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->t = t;
	x->d = t->ndims;
	for (i = 0; i < x->d; i++) {
		x->n[i] = t->dims[i];
		x->stride[i] = t->stride[i];
	}
	wh_orders(x);
	err = wh_table(x);
	if (err)
		goto out;
	mf_topo_coords(t, source, src);
	for (i = 0; i < x->d; i++) {
		ext[i] = x->n[i];
		if (t->kind == MESHFABRIC_KIND_TORUS) {
			pos[i] = (x->n[i] - 1) / 2;
			b.off[i] = (src[i] + x->n[i] - pos[i]) % x->n[i];
		} else {
			pos[i] = src[i];
		}
	}
	if (wh_centred(x, ext, pos)) {
		ch.steps = x->steps[wh_box_id(x, ext)];
	} else {
		err = wh_chain_find(x, ext, pos, &ch);
		if (err)
			goto out;
	}
	b.x = x;
	b.s = s;
	b.cap = 2;
	for (i = 0; i < x->d; i++)
		b.cap += x->n[i];
	b.buf = mf_alloc_array(b.cap, sizeof(u32), false);
	b.rec = mf_alloc_array(2 * (size_t)t->nodes, sizeof(u32), false);
	b.nrec_buf = mf_alloc_array(2 * (size_t)t->nodes, sizeof(u32), false);
	err = -ENOMEM;
	if (!b.buf || !b.rec || !b.nrec_buf)
		goto out;
	err = mf_sched_reserve(s, t->nodes - 1, 4 * t->nodes);
	if (!err)
		err = wh_build_all(&b, pos, &ch);
	if (!err)
		err = mf_sched_end(s);
out:
	mf_free_all(b.buf, b.rec, b.nrec_buf, x->steps, x->ord, x);
	return err;
}

/* Above the counting bound, on up to WH_SEARCH_NODES nodes, d = 2..4 (in
 * 1-D boxes meet the larger cut bound already; beyond 4-D the search
 * is slow to fail on hypercube-like shapes): the flow search
 * (search.c), from the bound up, within WH_SEARCH_WORK link visits per
 * step count, then its local search within WH_SEARCH_LOCAL more, or
 * WH_SEARCH_LOCAL_NODE per node where that is more (four times that
 * when it ends at most 16 nodes and 1 in 128 short, and 16 times when
 * it then ends one node short: search.c, srch_ls_within); its schedule
 * replaces s when it takes fewer steps.
 * Every budget here is multiplied by mf_search_effort (plan --effort).
 *
 * A swap of the local search costs a few times N link visits (a step's
 * flow is searched from all its informed nodes), so a budget per node
 * gives every shape of over 1000 nodes about as many swaps as one of
 * 1000 has: with 10^8 alone, the torus 2x2x700 ended its first start
 * 44 nodes short when the budget ran out.  Of the 2239 shapes of the
 * sweeps (docs/wormhole.md) open with 10^8, 866 then reach the bound;
 * those still above take 0.3 to 0.7 s each on average, 0.9 s at most.
 * On 228 of them drawn at random, the budget per node reaches 75 where
 * twice 10^8 reaches 66 and three times 84.  Below 1000 nodes nothing
 * changes, and above, the search runs the same course and only goes
 * on longer, so no shape that reached the bound loses it.
 */
#define WH_SEARCH_NODES		4096U
#define WH_SEARCH_WORK		40000000ULL
#define WH_SEARCH_LOCAL		100000000ULL
#define WH_SEARCH_LOCAL_NODE	100000ULL

/* A mesh's reflection (its own inverse) on the axes where source's
 * coordinate is not 0: a corner source maps to node 0.  Nodes of up to
 * 4-D meshes (the search's).
 */
static u32 wh_reflect(const struct mf_topo *t, u32 source, u32 v)
{
	u32 cs[4], cv[4], i;

	mf_topo_coords(t, source, cs);
	mf_topo_coords(t, v, cv);
	for (i = 0; i < t->ndims; i++)
		if (cs[i])
			cv[i] = t->dims[i] - 1 - cv[i];
	return mf_topo_id(t, cv);
}

/* Is source a corner of a mesh (every coordinate 0 or the last)? */
static bool wh_corner(const struct mf_topo *t, u32 source)
{
	u32 c[4], i;

	if (t->kind != MESHFABRIC_KIND_MESH)
		return false;
	mf_topo_coords(t, source, c);
	for (i = 0; i < t->ndims; i++)
		if (c[i] && c[i] != t->dims[i] - 1)
			return false;
	return true;
}

/* Tori above the bound, up to WH_LATTICE_NODES nodes, any d: the chains
 * of subgroups (search_lattice.c) first, from the bound up.  They reach
 * perfect schedules the flow search misses (2x12x54: 4 steps), and the
 * bound on 5-D to 8-D tori of small sides, which boxes miss by far (the
 * 2^8 hypercube: 3 steps, not 8).  They cost nothing where the node
 * count has no factors to chain.  Their budget per step count:
 * WH_LATTICE_WORK arc visits where the flow search follows (d = 2..4, up
 * to WH_SEARCH_NODES nodes), WH_LATTICE_WORK_ALONE where they are alone.
 */
#define WH_LATTICE_NODES	BIT(20)
#define WH_LATTICE_WORK		2000000ULL
#define WH_LATTICE_WORK_ALONE	100000000ULL

static int wormhole_lattice(const struct mf_topo *t, u32 source,
			    struct mf_sched *s)
{
	u64 work = WH_LATTICE_WORK_ALONE;
	struct mf_sched f;
	u32 k;
	int err;

	if (t->kind != MESHFABRIC_KIND_TORUS || t->nodes > WH_LATTICE_NODES)
		return 0;
	if (t->nodes <= WH_SEARCH_NODES && t->ndims >= 2 && t->ndims <= 4)
		work = WH_LATTICE_WORK;
	work *= mf_search_effort;
	/* never more than log2 N steps (indices >= 2) */
	for (k = mf_allport_bound(t, source);
	     k < s->nsteps && k < MF_LATTICE_MAXSTEPS &&
	     (1ULL << k) <= t->nodes; k++) {
		err = mf_search_lattice(t, source, k, work, &f);
		if (err == -ENOMEM)
			return err;
		if (!err) {
			mf_sched_free(s);
			*s = f;
			return 0;
		}
	}
	return 0;
}

static int wormhole_search(const struct mf_topo *t, u32 source,
			   struct mf_sched *s)
{
	struct mf_sched f;
	u32 k, lb, from = source, i;
	u64 local;
	int err;

	err = wormhole_lattice(t, source, s);
	if (err)
		return err;
	if (t->nodes > WH_SEARCH_NODES || t->ndims < 2 || t->ndims > 4)
		return 0;
	/* every corner of a mesh is node 0 reflected: search from node 0
	 * and reflect the schedule back, so every corner gets the same
	 * steps; reflections keep paths link-disjoint and lengths, so the
	 * result is as valid and as long (mf_check verifies it all the same)
	 */
	if (wh_corner(t, source))
		from = 0;
	lb = mf_allport_bound(t, from);
	local = WH_SEARCH_LOCAL_NODE * t->nodes;
	if (local < WH_SEARCH_LOCAL)
		local = WH_SEARCH_LOCAL;
	for (k = lb; k < s->nsteps; k++) {
		/* a few maximum flows: first */
		err = mf_search_columns_on ?
		      mf_search_columns(t, source, k, &f) : -EINVAL;
		if (err == -ENOMEM)
			return err;
		if (!err) {
			mf_sched_free(s);
			*s = f;
			return 0;
		}
		err = mf_search_allport(t, from, k,
					WH_SEARCH_WORK * mf_search_effort,
					local * mf_search_effort, 1, &f);
		if (err == -ENOMEM)
			return err;
		if (!err) {
			if (from != source) {
				f.source = source;
				for (i = 0; i < f.nsends; i++) {
					f.send[i].src = wh_reflect(t, source,
								   f.send[i].src);
					f.send[i].dst = wh_reflect(t, source,
								   f.send[i].dst);
				}
				for (i = 0; i < f.npath; i++)
					f.path[i] = wh_reflect(t, source,
							       f.path[i]);
			}
			mf_sched_free(s);
			*s = f;
			return 0;
		}
	}
	return 0;
}

static int wormhole_build(const struct mf_topo *t, u32 source, u32 routing,
			  struct mf_sched *s)
{
	struct mf_sched tw;
	int err;

	if (wormhole_supports(t) || source >= t->nodes)
		return -EINVAL;
	err = wormhole_own(t, source, s);
	if (err)
		return err;
	if (!mf_algo_tsay_wang.supports(t)) {
		/* n^d torus: tsay-wang's diagonals beat boxes on some sizes */
		mf_sched_init(&tw, MESHFABRIC_MODEL_ALL_PORT, source);
		err = mf_algo_tsay_wang.build(t, source, routing, &tw);
		if (!err && tw.nsteps < s->nsteps) {
			mf_sched_free(s);
			*s = tw;
		} else {
			mf_sched_free(&tw);
		}
		if (err == -ENOMEM)
			return err;
	}
	return wormhole_search(t, source, s);
}

MF_ALGO_DEFINE(wormhole, "wormhole", MESHFABRIC_ALGO_WORMHOLE,
	       MESHFABRIC_MODEL_ALL_PORT, "every mesh and torus");
