// SPDX-License-Identifier: GPL-2.0
/* One-port search over interval orders (search.h, docs/split.md "interval
 * orders").  The tool's only, like search.c.
 *
 * The nodes are laid out along a snake (boustrophedon) order of the whole
 * fabric, for every order of the axes (up to ORD_PERM_DIMS dimensions;
 * beyond, the axes in their own order), and along bands: slices of the
 * last axis a few at a time (ord_order, ord_bands).  An interval of r ranks with one
 * informed node and a budget of b steps is cut into its first c and last
 * r - c ranks, each at most 2^(b - 1) (every such c for intervals of up to
 * ORD_ALL_CUTS ranks, c within ORD_HALF_SLACK of r / 2 beyond); the informed
 * node sends to any node of the other part and both parts recurse with
 * b - 1; an interval that fits b - 1 may also wait a step.  The cost of a
 * send is the distance in the whole fabric, not inside the interval, so
 *
 *   f(I, b, p) = min over cuts, q in the other part of
 *                dist(p, q) + f(part of p, b - 1, p) + f(other, b - 1, q)
 *
 * is a lower bound on the TCD of the schedule read off it.  That schedule
 * is then routed step by step: sends in order of distance, each along a
 * shortest path over the directed links the step has left free (BFS), so
 * every step is contention free; a send no free path reaches ends the
 * candidate, a longer free path costs its length.
 *
 * One DP gives every source at once, and the order moved by an
 * automorphism of the fabric (a permutation of axes of equal side, a
 * reflection of any axis, on a torus any translation) is read off the same
 * table at the source moved back: f_{g(O)}(s) = f_O(g^-1(s)).  So only the
 * orders of distinct side sequences are tabulated, and each source takes
 * the best automorphism.  The recursion is at most `steps` deep.
 */
#include "search.h"

#define ORD_INF		0x3fffffffU
#define ORD_ALL_CUTS	64U	/* intervals that try every cut that fits */
#define ORD_HALF_SLACK	4U	/* longer ones: cuts this close to a half */
#define ORD_PERM_DIMS	4U	/* axis orders tried up to this many dims */
#define ORD_BANDS	8U	/* 2-D: snakes and bands of 2 .. 8 rows */
#define ORD_BANDS3	6U	/* 3-D, 4-D: bands of 2 .. 6 slices */

struct ord {
	const struct mf_topo *t;
	u32 n, k, d;
	u16 *dist;		/* n * n hops (BFS) */
	u32 *ord, *rank;	/* rank -> node, node -> rank */
	u32 *memo;		/* (lo, len, b) -> offset in cost, or U32_MAX */
	u32 *cost;
	size_t ncost, cap;
	u32 *sp, *sq, *sst, nsend;	/* read-off sends: from, to, step */
	u32 *stk;		/* read-off stack: 4 words per entry */
	u32 *gm;		/* node map of the chosen automorphism */
	u8 *busy;		/* directed links used this step */
	u32 *par, *q, *mark, *path;
	u32 stamp;
};

static size_t ord_key(const struct ord *o, u32 lo, u32 len, u32 b)
{
	return ((size_t)lo * (o->n + 1) + len) * (o->k + 1) + b;
}

/* The cuts tried in an interval of len ranks with budget b (h = 2^(b-1)). */
static bool ord_cut_ok(u32 len, u32 c, u32 h)
{
	if (c > h || len - c > h)
		return false;
	return len <= ORD_ALL_CUTS ||
	       (2 * c > len ? 2 * c - len : len - 2 * c) <= 2 * ORD_HALF_SLACK;
}

static u32 ord_d(const struct ord *o, u32 ra, u32 rb)
{
	return o->dist[(size_t)o->ord[ra] * o->n + o->ord[rb]];
}

/* Best send from each rank of [pa, pa + na) into [pb, pb + nb): adds
 * min_q dist + fb[q] to fa[p] and lowers f[p].  Offsets into cost.
 */
static void ord_relax(struct ord *o, u32 f, u32 fa, u32 fb, u32 pa, u32 na,
		      u32 pb, u32 nb)
{
	u32 p, q, best, v;

	for (p = 0; p < na; p++) {
		if (o->cost[fa + p] >= ORD_INF)
			continue;
		best = ORD_INF;
		for (q = 0; q < nb; q++) {
			v = ord_d(o, pa + p, pb + q) + o->cost[fb + q];
			if (v < best)
				best = v;
		}
		if (o->cost[fa + p] + best < o->cost[f + p])
			o->cost[f + p] = o->cost[fa + p] + best;
	}
}

/* The table of (lo, len, b): its offset in cost, or U32_MAX (-ENOMEM). */
static u32 ord_f(struct ord *o, u32 lo, u32 len, u32 b)
{
	size_t key = ord_key(o, lo, len, b);
	u32 off, c, h, fa, fb, p;
	u32 *nc;

	if (o->memo[key] != U32_MAX)
		return o->memo[key];
	if (o->ncost + len > o->cap) {
		nc = mf_grow(o->cost, o->ncost, 2 * o->cap + len, sizeof(u32));
		if (!nc)
			return U32_MAX;
		o->cost = nc;
		o->cap = 2 * o->cap + len;
	}
	off = (u32)o->ncost;
	o->ncost += len;
	for (p = 0; p < len; p++)
		o->cost[off + p] = ORD_INF;
	if (len == 1) {
		o->cost[off] = 0;
	} else if (b && len <= (1U << b)) {
		h = 1U << (b - 1);
		if (len <= h) {
			fa = ord_f(o, lo, len, b - 1);
			if (fa == U32_MAX)
				return U32_MAX;
			memcpy(o->cost + off, o->cost + fa, len * sizeof(u32));
		}
		for (c = 1; c < len; c++) {
			if (!ord_cut_ok(len, c, h))
				continue;
			fa = ord_f(o, lo, c, b - 1);
			fb = fa == U32_MAX ? fa : ord_f(o, lo + c, len - c, b - 1);
			if (fb == U32_MAX)
				return U32_MAX;
			ord_relax(o, off, fa, fb, lo, c, lo + c, len - c);
			ord_relax(o, off + c, fb, fa, lo + c, len - c, lo, c);
		}
	}
	o->memo[key] = off;
	return off;
}

/* The sends of the DP's schedule from rank p, read off the tables. */
static int ord_readoff(struct ord *o, u32 p)
{
	u32 top = 0, lo, len, b, c, h, q, want, fa, fb, *e, i, ps, qs;
	bool found;

	o->nsend = 0;
	e = o->stk;
	e[0] = 0;
	e[1] = o->n;
	e[2] = o->k;
	e[3] = p;
	top = 1;
	while (top) {
		top--;
		lo = o->stk[4 * top];
		len = o->stk[4 * top + 1];
		b = o->stk[4 * top + 2];
		p = o->stk[4 * top + 3];
		if (len == 1)
			continue;
		want = o->cost[o->memo[ord_key(o, lo, len, b)] + p];
		h = 1U << (b - 1);
		if (len <= h &&
		    o->cost[o->memo[ord_key(o, lo, len, b - 1)] + p] == want) {
			e = o->stk + 4 * top++;
			e[0] = lo;
			e[1] = len;
			e[2] = b - 1;
			e[3] = p;
			continue;
		}
		found = false;
		for (c = 1; c < len && !found; c++) {
			if (!ord_cut_ok(len, c, h))
				continue;
			fa = o->memo[ord_key(o, lo, c, b - 1)];
			fb = o->memo[ord_key(o, lo + c, len - c, b - 1)];
			if (p >= c) {	/* p in the second part */
				swap(fa, fb);
				ps = p - c;
			} else {
				ps = p;
			}
			for (q = 0; q < (p >= c ? c : len - c) && !found; q++) {
				qs = p >= c ? lo + q : lo + c + q;
				if (o->cost[fa + ps] >= ORD_INF ||
				    o->cost[fa + ps] + o->cost[fb + q] +
				    ord_d(o, lo + p, qs) != want)
					continue;
				found = true;
				i = o->nsend++;
				o->sp[i] = o->ord[lo + p];
				o->sq[i] = o->ord[qs];
				o->sst[i] = o->k - b;
				e = o->stk + 4 * top++;
				e[0] = lo;
				e[1] = c;
				e[2] = b - 1;
				e[3] = p < c ? p : q;
				e = o->stk + 4 * top++;
				e[0] = lo + c;
				e[1] = len - c;
				e[2] = b - 1;
				e[3] = p < c ? q : p - c;
			}
		}
		if (!found)
			return -EINVAL;	/* cannot happen: the table holds */
	}
	return 0;
}

/* A shortest path from a to z over free directed links into o->path
 * (from a); its hops, or U32_MAX if none.
 */
static u32 ord_route(struct ord *o, u32 a, u32 z)
{
	const struct mf_topo *t = o->t;
	u32 head = 0, tail = 1, u, p, len;
	s64 w;

	o->stamp++;
	o->mark[a] = o->stamp;
	o->par[a] = U32_MAX;
	o->q[0] = a;
	while (head < tail && o->mark[z] != o->stamp) {
		u = o->q[head++];
		for (p = 0; p < t->nports; p++) {
			if (!mf_topo_is_link(t, u, p) || o->busy[u * t->nports + p])
				continue;
			w = mf_topo_neighbor(t, u, p);
			if (w < 0 || o->mark[w] == o->stamp)
				continue;
			o->mark[w] = o->stamp;
			o->par[w] = u * t->nports + p;
			o->q[tail++] = (u32)w;
		}
	}
	if (o->mark[z] != o->stamp)
		return U32_MAX;
	for (u = z, len = 0; o->par[u] != U32_MAX; u = o->par[u] / t->nports) {
		o->busy[o->par[u]] = 1;
		o->path[len++] = u;
	}
	o->path[len] = u;
	for (u = 0, p = len; u < p; u++, p--)
		swap(o->path[u], o->path[p]);
	return len;
}

/* The read-off sends, moved by gm, routed step by step into s. */
static int ord_realize(struct ord *o, u32 source, struct mf_sched *s)
{
	u32 st, dd, i, hops, maxd = 0;
	int err = 0;

	for (i = 0; i < o->nsend; i++)
		if (o->dist[(size_t)o->sp[i] * o->n + o->sq[i]] > maxd)
			maxd = o->dist[(size_t)o->sp[i] * o->n + o->sq[i]];
	mf_sched_init(s, MESHFABRIC_MODEL_ONE_PORT, source);
	for (st = 0; st < o->k && !err; st++) {
		memset(o->busy, 0, (size_t)o->n * o->t->nports);
		err = mf_sched_step(s);
		/* shortest sends first: one-hop sends keep their link */
		for (dd = 1; dd <= maxd && !err; dd++) {
			for (i = 0; i < o->nsend && !err; i++) {
				if (o->sst[i] != st ||
				    o->dist[(size_t)o->sp[i] * o->n + o->sq[i]] != dd)
					continue;
				hops = ord_route(o, o->gm[o->sp[i]], o->gm[o->sq[i]]);
				err = hops == U32_MAX ? -ESRCH :
				      mf_sched_send(s, o->path, hops);
			}
		}
	}
	return err ?: mf_sched_end(s);
}

/* Permutation number i of d axes (factorial digits) into ax. */
static void ord_perm(u32 i, u32 d, u32 *ax)
{
	u32 avail[MF_MAX_DIMS], na = d, j, f, k;

	for (j = 0; j < d; j++)
		avail[j] = j;
	for (j = 0; j < d; j++) {
		for (f = 1, k = 2; k < na; k++)
			f *= k;
		k = i / f;
		i %= f;
		ax[j] = avail[k];
		for (; k + 1 < na; k++)
			avail[k] = avail[k + 1];
		na--;
	}
}

static u32 ord_nperms(u32 d)
{
	u32 f = 1, k;

	if (d > ORD_PERM_DIMS)
		return 1;
	for (k = 2; k <= d; k++)
		f *= k;
	return f;
}

/* Bands in d > 2 dimensions: band slices of the last axis ax[d-1] at a
 * time, each walked as a snake whose fastest axis is ax[d-1] inside the
 * band, then ax[0] .. ax[d-2]; every other band backwards.
 */
static void ord_bands(struct ord *o, const u32 *ax, u32 band)
{
	const struct mf_topo *t = o->t;
	u32 len[MF_MAX_DIMS], a[MF_MAX_DIMS], dig[MF_MAX_DIMS], c[MF_MAX_DIMS];
	u32 last = ax[o->d - 1], b0, h, m, rr, x, v, i, hi, r = 0;

	for (b0 = 0; b0 < t->dims[last]; b0 += band) {
		h = b0 + band <= t->dims[last] ? band : t->dims[last] - b0;
		len[0] = h;
		a[0] = last;
		for (i = 0, m = h; i + 1 < o->d; i++) {
			len[i + 1] = t->dims[ax[i]];
			a[i + 1] = ax[i];
			m *= len[i + 1];
		}
		for (rr = 0; rr < m; rr++) {
			x = (b0 / band) & 1 ? m - 1 - rr : rr;
			for (i = 0, v = x; i < o->d; i++) {
				dig[i] = v % len[i];
				v /= len[i];
			}
			for (i = o->d, hi = 0; i-- > 0;) {
				c[a[i]] = hi & 1 ? len[i] - 1 - dig[i] : dig[i];
				hi += dig[i];
			}
			c[last] += b0;
			o->ord[r++] = mf_topo_id(t, c);
		}
	}
}

/* The snake along axes ax[0] (fastest) .. ax[d-1]: a digit runs backwards
 * when the digits above it sum to an odd number, so consecutive ranks are
 * neighbours.  In 2-D with band > 1, bands instead: band rows of axis
 * ax[1] at a time, walked along ax[0] (forwards and backwards in turn),
 * each column of a band up and down in turn (split's bands, for the
 * whole fabric).
 */
static void ord_order(struct ord *o, const u32 *ax, u32 band)
{
	const struct mf_topo *t = o->t;
	u32 r, v, i, hi, c[MF_MAX_DIMS], dig[MF_MAX_DIMS];
	u32 nx = t->dims[ax[0]], ny, b0, h, xi, yi;

	if (band > 1 && o->d > 2) {
		ord_bands(o, ax, band);
	} else if (band > 1) {
		ny = t->dims[ax[1]];
		for (b0 = 0, r = 0; b0 < ny; b0 += band) {
			h = b0 + band <= ny ? band : ny - b0;
			for (xi = 0; xi < nx; xi++) {
				c[ax[0]] = (b0 / band) & 1 ? nx - 1 - xi : xi;
				for (yi = 0; yi < h; yi++) {
					c[ax[1]] = b0 + (xi & 1 ? h - 1 - yi : yi);
					o->ord[r++] = mf_topo_id(t, c);
				}
			}
		}
	} else {
		for (r = 0; r < o->n; r++) {
			for (i = 0, v = r; i < o->d; i++) {
				dig[i] = v % t->dims[ax[i]];
				v /= t->dims[ax[i]];
			}
			for (i = o->d, hi = 0; i-- > 0;) {
				c[ax[i]] = hi & 1 ? t->dims[ax[i]] - 1 - dig[i] : dig[i];
				hi += dig[i];
			}
			o->ord[r] = mf_topo_id(t, c);
		}
	}
	for (r = 0; r < o->n; r++)
		o->rank[o->ord[r]] = r;
}

/* An automorphism: (g c)[sg[i]] = (refl_i(c[i]) + sh[sg[i]]) mod L. */
struct ord_auto {
	u32 sg[MF_MAX_DIMS], refl, sh;	/* sh: shift as a node id */
};

static u32 ord_apply(const struct ord *o, const struct ord_auto *g, u32 v,
		     bool inverse)
{
	const struct mf_topo *t = o->t;
	u32 c[MF_MAX_DIMS], r[MF_MAX_DIMS], sh[MF_MAX_DIMS], i, j, x, L;

	mf_topo_coords(t, v, c);
	mf_topo_coords(t, g->sh, sh);
	for (i = 0; i < o->d; i++) {
		j = g->sg[i];
		L = t->dims[i];
		if (inverse) {
			x = (c[j] + L - sh[j]) % L;
			r[i] = g->refl >> i & 1 ? L - 1 - x : x;
		} else {
			x = g->refl >> i & 1 ? L - 1 - c[i] : c[i];
			r[j] = (x + sh[j]) % L;
		}
	}
	return mf_topo_id(t, r);
}

static void ord_free(struct ord *o)
{
	mf_free_all(o->dist, o->ord, o->rank, o->memo, o->cost, o->sp, o->sq,
		    o->sst, o->stk, o->gm, o->busy, o->par, o->q, o->mark,
		    o->path);
}

static int ord_init(struct ord *o, const struct mf_topo *t, u32 steps)
{
	u32 n = t->nodes, v, head, tail, u, p;
	s64 w;

	memset(o, 0, sizeof(*o));
	o->t = t;
	o->n = n;
	o->k = steps;
	o->d = t->ndims;
	o->dist = mf_alloc_array((size_t)n * n, sizeof(u16), false);
	o->ord = mf_alloc_array(n, sizeof(u32), false);
	o->rank = mf_alloc_array(n, sizeof(u32), false);
	o->memo = mf_alloc_array((size_t)n * (n + 1) * (steps + 1), sizeof(u32),
				 false);
	o->sp = mf_alloc_array(n, sizeof(u32), false);
	o->sq = mf_alloc_array(n, sizeof(u32), false);
	o->sst = mf_alloc_array(n, sizeof(u32), false);
	o->stk = mf_alloc_array(4 * ((size_t)n + steps + 2), sizeof(u32), false);
	o->gm = mf_alloc_array(n, sizeof(u32), false);
	o->busy = mf_alloc_array((size_t)n * t->nports, 1, false);
	o->par = mf_alloc_array(n, sizeof(u32), false);
	o->q = mf_alloc_array(n, sizeof(u32), false);
	o->mark = mf_alloc_array(n, sizeof(u32), true);
	o->path = mf_alloc_array(n + 1, sizeof(u32), false);
	if (!o->dist || !o->ord || !o->rank || !o->memo || !o->sp || !o->sq ||
	    !o->sst || !o->stk || !o->gm || !o->busy || !o->par || !o->q ||
	    !o->mark || !o->path)
		return -ENOMEM;
	for (v = 0; v < n; v++) {	/* BFS from every node */
		u16 *dv = o->dist + (size_t)v * n;

		for (u = 0; u < n; u++)
			dv[u] = 0xffff;
		dv[v] = 0;
		o->q[0] = v;
		for (head = 0, tail = 1; head < tail;) {
			u = o->q[head++];
			for (p = 0; p < t->nports; p++) {
				if (!mf_topo_is_link(t, u, p))
					continue;
				w = mf_topo_neighbor(t, u, p);
				if (w < 0 || dv[w] != 0xffff)
					continue;
				dv[w] = dv[u] + 1;
				o->q[tail++] = (u32)w;
			}
		}
	}
	return 0;
}

/* Does permutation sg keep every side (sg[i] has the side of i)? */
static bool ord_keeps_sides(const struct mf_topo *t, const u32 *sg, u32 d)
{
	u32 i;

	for (i = 0; i < d; i++)
		if (t->dims[sg[i]] != t->dims[i])
			return false;
	return true;
}

int mf_search_order(const struct mf_topo *t, u32 source, u32 steps,
		    struct mf_sched *s)
{
	struct ord o;
	struct ord_auto g, bg;
	struct mf_sched r;
	u32 np, nb, vi, band, pg, i, j, root, val, bv, nsh, sh;
	u32 ax[MF_MAX_DIMS], seen[24 * ORD_BANDS][MF_MAX_DIMS];
	u64 best = U64_MAX, tcd;
	int err;

	memset(s, 0, sizeof(*s));
	if ((t->kind != MESHFABRIC_KIND_MESH && t->kind != MESHFABRIC_KIND_TORUS) ||
	    source >= t->nodes || t->nodes > MF_SEARCH_ORDER_NODES || steps > 16 ||
	    t->nodes > (1U << steps))
		return -EINVAL;
	err = ord_init(&o, t, steps);
	if (err)
		goto out;
	np = ord_nperms(o.d);
	nb = o.d == 2 ? ORD_BANDS :
	     o.d > 2 && o.d <= ORD_PERM_DIMS ? ORD_BANDS3 : 1;
	nsh = t->kind == MESHFABRIC_KIND_TORUS ? t->nodes : 1;
	for (vi = 0; vi < np * nb; vi++) {
		/* one order per sequence of sides and band */
		ord_perm(vi / nb, o.d, ax);
		memcpy(seen[vi], ax, sizeof(ax));
		band = vi % nb ? vi % nb + 1 : 0;
		if (band && band >= t->dims[ax[1]])
			continue;
		for (i = 0; i < vi; i++) {
			for (j = 0; j < o.d; j++)
				if (t->dims[seen[i][j]] != t->dims[ax[j]])
					break;
			if (j == o.d && i % nb == vi % nb)
				break;
		}
		if (i < vi)
			continue;
		ord_order(&o, ax, band);
		memset(o.memo, 0xff, ord_key(&o, o.n, 0, 0) * sizeof(u32));
		o.ncost = 0;
		root = ord_f(&o, 0, o.n, o.k);
		err = -ENOMEM;
		if (root == U32_MAX)
			goto out;
		/* the best automorphism for this source */
		bv = ORD_INF;
		for (pg = 0; pg < np; pg++) {
			ord_perm(pg, o.d, g.sg);
			if (!ord_keeps_sides(t, g.sg, o.d))
				continue;
			for (g.refl = 0; g.refl < (1U << o.d); g.refl++) {
				for (sh = 0; sh < nsh; sh++) {
					g.sh = sh;
					val = o.cost[root +
						     o.rank[ord_apply(&o, &g, source, true)]];
					if (val < bv) {
						bv = val;
						bg = g;
					}
				}
			}
		}
		if (bv >= best)
			continue;
		err = ord_readoff(&o, o.rank[ord_apply(&o, &bg, source, true)]);
		if (err)
			goto out;
		for (i = 0; i < o.n; i++)
			o.gm[i] = ord_apply(&o, &bg, i, false);
		memset(&r, 0, sizeof(r));
		err = ord_realize(&o, source, &r);
		if (err == -ESRCH) {
			mf_sched_free(&r);
			continue;
		}
		if (err) {
			mf_sched_free(&r);
			goto out;
		}
		tcd = mf_search_tcd(&r);
		if (tcd < best) {
			best = tcd;
			mf_sched_free(s);
			*s = r;
		} else {
			mf_sched_free(&r);
		}
	}
	err = best == U64_MAX ? -ESRCH : 0;
out:
	ord_free(&o);
	if (err)
		mf_sched_free(s);
	return err;
}
