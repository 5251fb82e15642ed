// SPDX-License-Identifier: GPL-2.0
/* All-port broadcasts on tori from chains of subgroups (search.h,
 * docs/wormhole.md "Lattices"; the tool's only).
 *
 * A torus Z_n0 x ... x Z_n(d-1) is an abelian group G.  A chain of
 * subgroups {0} = S_0 < S_1 < ... < S_k = G whose indices
 * i_j = [S_j : S_(j-1)] are at most D + 1 (D: a node's links) gives a
 * k-step broadcast from 0 if step j's sends are translates: every x in
 * S_(j-1) sends to x + t, for one t in each non-zero coset of S_(j-1) in
 * S_j, along x + W_t, where the walks W_t from 0 use no two links that
 * are equal modulo S_(j-1) (a link is its tail node and its direction).
 * Then two sends of the step never share a link, since
 * (x + a, dir) = (y + b, dir) means a - b = y - x is in S_(j-1); each
 * node of S_j \ S_(j-1) is informed once (x + t = y + t' puts t and t'
 * in one coset); and after step j the informed set is S_j.  The walks
 * are arc-disjoint walks in the Cayley digraph of G / S_(j-1) (its cosets
 * and the D directions), from the coset of 0 to each target coset.
 *
 * This reaches perfect schedules (N = (D + 1)^k, every informed node
 * informing D new ones in every step), such as 2x12x54 in 4 steps, that
 * the flow search does not find (issue 24).  Subgroups are the lattices
 * L of Z^d that hold every n_i e_i (G = Z^d / diag(n)), each kept in
 * Hermite normal form: rows upper triangular, positive diagonal, the
 * entries above a diagonal entry reduced modulo it.  Then the vectors
 * with 0 <= v_i < L_ii are the cosets of L, one each, which indexes
 * them; and the sublattices of L of index m are the row spans of M L for
 * the matrices M in that form with det M = m, the vectors c with
 * 0 <= c_i < M_ii giving the cosets of M L in L as c L.  The search goes
 * top down (S_(k-1) first), over every sequence of indices and every
 * sublattice, each level's walks found by breadth-first searches over the
 * cosets (directions tried in a seeded order, targets in a shuffled one,
 * a few times), backtracking within a budget of work.
 */
#include "search.h"

#define LAT_MAXD	MF_MAX_DIMS
#define LAT_TRIES	16	/* walk sets tried per sublattice */
#define LAT_SEED	0x9e3779b97f4a7c15ULL

struct lat {
	s64 b[LAT_MAXD][LAT_MAXD];
};

struct lsrch {
	const struct mf_topo *t;
	u32 d, k, ndir;
	s32 dir[2 * LAT_MAXD][LAT_MAXD];	/* the D directions */
	u8 port[2 * LAT_MAXD];			/* their topology ports */
	u32 idx[MF_LATTICE_MAXSTEPS];	/* the sequence of indices, step 1 first */
	struct lat lat[MF_LATTICE_MAXSTEPS + 1];	/* lat[j]: S_j (lat[k]: Z^d) */
	u8 *used;		/* arcs of G / S_(j-1) taken */
	u32 *prev;		/* BFS: the arc into each coset */
	u32 *q;
	u32 *walk;		/* the walks' arcs, in order */
	u32 wlen[2 * LAT_MAXD + 1];	/* walk w: walk[wlen[w] .. wlen[w+1]) */
	u32 tgt[2 * LAT_MAXD];
	u64 rng, work, budget;
};

static u32 lat_rand(struct lsrch *x)
{
	x->rng ^= x->rng << 13;
	x->rng ^= x->rng >> 7;
	x->rng ^= x->rng << 17;
	return (u32)(x->rng >> 16);
}

static s64 lat_floordiv(s64 a, s64 b)
{
	s64 q = a / b;

	return (a % b && (a < 0) != (b < 0)) ? q - 1 : q;
}

static s64 lat_abs(s64 a)
{
	return a < 0 ? -a : a;
}

/* v reduced to its coset's representative (0 <= v_i < L_ii). */
static void lat_reduce(const struct lsrch *x, const struct lat *l, s64 *v)
{
	u32 i, j;
	s64 q;

	for (i = 0; i < x->d; i++) {
		q = lat_floordiv(v[i], l->b[i][i]);
		if (!q)
			continue;
		for (j = i; j < x->d; j++)
			v[j] -= q * l->b[i][j];
	}
}

/* The number of v's coset (v reduced), in mixed radix. */
static u32 lat_coset(const struct lsrch *x, const struct lat *l, const s64 *v)
{
	u32 i, c = 0;

	for (i = 0; i < x->d; i++)
		c = c * (u32)l->b[i][i] + (u32)v[i];
	return c;
}

/* The representative of coset c. */
static void lat_vec(const struct lsrch *x, const struct lat *l, u32 c,
		    s64 *v)
{
	u32 i;

	for (i = x->d; i-- > 0;) {
		v[i] = c % (u32)l->b[i][i];
		c /= (u32)l->b[i][i];
	}
}

/* Hermite normal form of the lattice spanned by the d rows r, into *l:
 * false if they are not of full rank (M L with det M != 0 always is).
 */
static bool lat_hnf(const struct lsrch *x, s64 r[][LAT_MAXD], struct lat *l)
{
	u32 d = x->d, i, j, c, a;
	s64 q, tmp;

	for (c = 0; c < d; c++) {
		/* Euclid on column c over rows c..d-1 */
		for (;;) {
			a = d;
			for (i = c; i < d; i++)
				if (r[i][c] && (a == d ||
						lat_abs(r[i][c]) < lat_abs(r[a][c])))
					a = i;
			for (i = c; i < d; i++) {
				if (i == a || !r[i][c])
					continue;
				q = r[i][c] / r[a][c];
				for (j = c; j < d; j++)
					r[i][j] -= q * r[a][j];
			}
			if (a == d)
				return false;	/* not of full rank */
			for (i = c; i < d && (i == a || !r[i][c]); i++)
				;
			if (i == d)
				break;
		}
		for (j = 0; j < d; j++) {
			tmp = r[c][j];
			r[c][j] = r[a][j];
			r[a][j] = tmp;
		}
		if (r[c][c] < 0)
			for (j = c; j < d; j++)
				r[c][j] = -r[c][j];
	}
	for (c = 0; c < d; c++) {
		for (i = 0; i < c; i++) {
			q = lat_floordiv(r[i][c], r[c][c]);
			for (j = c; j < d; j++)
				r[i][j] -= q * r[c][j];
		}
	}
	memcpy(l->b, r, sizeof(l->b));
	return true;
}

/* Does l hold every n_i e_i (is it a subgroup of the torus)? */
static bool lat_holds_torus(const struct lsrch *x, const struct lat *l)
{
	s64 v[LAT_MAXD];
	u32 i, j;

	for (i = 0; i < x->d; i++) {
		memset(v, 0, sizeof(v));
		v[i] = x->t->dims[i];
		lat_reduce(x, l, v);
		for (j = 0; j < x->d; j++)
			if (v[j])
				return false;
	}
	return true;
}

/* One BFS over the cosets of lo from 0's to coset c over free arcs; the
 * walk's arcs appended to x->walk at *len.  False if c is out of reach
 * or the work budget is spent.
 */
static bool lat_bfs(struct lsrch *x, const struct lat *lo, u32 ncos, u32 c,
		    u32 *len)
{
	u32 head = 0, tail = 1, u, w, a, o, n, i;
	s64 v[LAT_MAXD];

	for (u = 0; u < ncos; u++)
		x->prev[u] = U32_MAX;
	x->work += ncos;
	x->q[0] = 0;		/* 0's coset is number 0 */
	x->prev[0] = U32_MAX - 1;
	while (head < tail && x->prev[c] == U32_MAX) {
		if (x->work >= x->budget)
			return false;
		u = x->q[head++];
		o = lat_rand(x) % x->ndir;
		for (i = 0; i < x->ndir; i++) {
			a = (o + i) % x->ndir;
			x->work += x->d;	/* a reduction: about d^2 steps */
			if (x->used[(size_t)u * x->ndir + a])
				continue;
			lat_vec(x, lo, u, v);
			for (n = 0; n < x->d; n++)
				v[n] += x->dir[a][n];
			lat_reduce(x, lo, v);
			w = lat_coset(x, lo, v);
			if (x->prev[w] != U32_MAX)
				continue;
			x->prev[w] = u * x->ndir + a;
			x->q[tail++] = w;
		}
	}
	if (x->prev[c] == U32_MAX)
		return false;
	/* the arcs back from c, then reversed into place */
	n = 0;
	for (w = c; w; w = x->prev[w] / x->ndir) {
		x->walk[*len + n++] = x->prev[w];
		x->used[x->prev[w]] = 1;
	}
	for (i = 0; i < n / 2; i++)
		swap(x->walk[*len + i], x->walk[*len + n - 1 - i]);
	*len += n;
	return true;
}

/* Walks from 0 to the targets x->tgt[0..nt) modulo lo (ncos cosets),
 * into x->walk and x->wlen: true if found.
 */
static bool lat_walks(struct lsrch *x, const struct lat *lo, u32 ncos,
		      u32 nt)
{
	u32 try, i, r, len;

	for (try = 0; try < LAT_TRIES && x->work < x->budget; try++) {
		memset(x->used, 0, (size_t)ncos * x->ndir);
		x->work += (u64)ncos * x->ndir;
		len = 0;
		for (i = 0; i < nt; i++) {
			x->wlen[i] = len;
			if (!lat_bfs(x, lo, ncos, x->tgt[i], &len))
				break;
		}
		x->wlen[i] = len;
		if (i == nt)
			return true;
		for (i = nt; i > 1; i--) {
			r = lat_rand(x) % i;
			swap(x->tgt[i - 1], x->tgt[r]);
		}
	}
	return false;
}

/* The targets of the level below up (index m, sublattice lo = M up):
 * the non-zero cosets c up, 0 <= c_i < M_ii, as cosets of lo.
 */
static u32 lat_targets(struct lsrch *x, const struct lat *up,
		       const struct lat *lo, const u32 *mdiag)
{
	u32 c[LAT_MAXD] = { 0 }, i, j, nt = 0;
	s64 v[LAT_MAXD];

	for (;;) {
		for (i = 0; i < x->d && ++c[i] == mdiag[i]; i++)
			c[i] = 0;
		if (i == x->d)
			return nt;
		for (j = 0; j < x->d; j++) {
			v[j] = 0;
			for (i = 0; i < x->d; i++)
				v[j] += (s64)c[i] * up->b[i][j];
		}
		lat_reduce(x, lo, v);
		if (nt == 2 * LAT_MAXD)
			return nt + 1;	/* more than D: refused */
		x->tgt[nt++] = lat_coset(x, lo, v);
	}
}

/* Level j (S_(j-1) inside x->lat[j]) and the ones below: true when the
 * whole chain down to the torus' own lattice is found.
 */
static bool lat_level(struct lsrch *x, u32 j)
{
	s64 mm[LAT_MAXD][LAT_MAXD], r[LAT_MAXD][LAT_MAXD];
	u32 mdiag[LAT_MAXD], off[LAT_MAXD][LAT_MAXD];
	u32 m, i, k, nt, ncos, left, div[2 * LAT_MAXD + 1], ndiv;
	u32 didx[LAT_MAXD];
	struct lat *up, *lo;
	bool first;

	if (!j)
		return true;
	up = &x->lat[j];
	lo = &x->lat[j - 1];
	m = x->idx[j - 1];
	/* every diagonal with product m: entries 1 .. d-1 over m's divisors
	 * (entry 1 fastest), entry 0 what is left; so (m, 1, ..., 1) first,
	 * whose sublattice is the only one of its diagonal
	 */
	for (i = 1, ndiv = 0; i <= m; i++)
		if (m % i == 0)
			div[ndiv++] = i;
	memset(didx, 0, sizeof(didx));
	for (first = true;; first = false) {
		for (i = 1; !first && i < x->d; i++) {
			if (++didx[i] < ndiv)
				break;
			didx[i] = 0;
		}
		if (!first && i >= x->d)
			return false;	/* every one tried (d = 1: the one) */
		x->work += x->d;
		left = m;
		for (i = 1; i < x->d && left % div[didx[i]] == 0; i++) {
			mdiag[i] = div[didx[i]];
			left /= mdiag[i];
		}
		if (i < x->d)
			continue;
		mdiag[0] = left;
		/* lo's diagonal, mdiag[i] up_ii, divides n_i (n_i e_i is in
		 * lo, with zeros before i): else no sublattice of this
		 * diagonal holds the torus
		 */
		for (i = 0; i < x->d; i++)
			if (x->t->dims[i] % (mdiag[i] * (u32)up->b[i][i]))
				break;
		if (i < x->d)
			continue;
		/* every set of entries above the diagonal */
		memset(off, 0, sizeof(off));
		for (;;) {
			if (x->work >= x->budget)
				return false;
			x->work += x->d * x->d * x->d;	/* its normal form */
			memset(mm, 0, sizeof(mm));
			for (i = 0; i < x->d; i++) {
				mm[i][i] = mdiag[i];
				for (k = i + 1; k < x->d; k++)
					mm[i][k] = off[i][k];
			}
			for (i = 0; i < x->d; i++)
				for (k = 0; k < x->d; k++) {
					u32 q;

					r[i][k] = 0;
					for (q = 0; q < x->d; q++)
						r[i][k] += mm[i][q] * up->b[q][k];
				}
			if (lat_hnf(x, r, lo) && lat_holds_torus(x, lo)) {
				nt = lat_targets(x, up, lo, mdiag);
				ncos = 1;
				for (i = 0; i < x->d; i++)
					ncos *= (u32)lo->b[i][i];
				/* seeded per level: lat_emit finds these walks again */
				x->rng = LAT_SEED ^ j;
				if (nt <= x->ndir && lat_walks(x, lo, ncos, nt) &&
				    lat_level(x, j - 1))
					return true;
			}
			/* next entries above the diagonal: column k's below mdiag[k] */
			for (i = 0; i < x->d; i++) {
				for (k = i + 1; k < x->d; k++) {
					if (++off[i][k] < mdiag[k])
						break;
					off[i][k] = 0;
				}
				if (k < x->d)
					break;
			}
			if (i == x->d)
				break;
		}
	}
}

/* Sequences of k indices in 2..D+1 with product left, step 1 first. */
static bool lat_sequence(struct lsrch *x, u32 j, u32 left)
{
	u64 lo = 1, hi = 1;
	u32 m;

	if (j == x->k)
		return left == 1 && lat_level(x, x->k);
	/* the k - j indices left, 2 .. D + 1 each, multiply to
	 * 2^(k-j) .. (D+1)^(k-j): else no sequence of them fits left
	 */
	for (m = j; m < x->k; m++) {
		if (lo <= left)
			lo <<= 1;
		if (hi < left)
			hi *= x->ndir + 1;
	}
	if (lo > left || hi < left)
		return false;
	for (m = 2; m <= x->ndir + 1 && x->work < x->budget; m++) {
		if (left % m)
			continue;
		x->idx[j] = m;
		if (lat_sequence(x, j + 1, left / m))
			return true;
	}
	return false;
}

/* Emit step j's sends from source: the holders are source + S_(j-1). */
static int lat_emit(struct lsrch *x, u32 source, struct mf_sched *s,
		    u32 *path)
{
	struct lat *up, *lo;
	u32 j, v, w, i, a, h, nt, ncos, mdiag[LAT_MAXD];
	u32 c[LAT_MAXD], cs[LAT_MAXD];
	s64 rel[LAT_MAXD];
	int err;

	mf_topo_coords(x->t, source, cs);
	for (j = 1; j <= x->k; j++) {
		up = &x->lat[j];
		lo = &x->lat[j - 1];
		/* M's diagonal: lo's over up's (both triangular) */
		for (i = 0; i < x->d; i++)
			mdiag[i] = (u32)(lo->b[i][i] / up->b[i][i]);
		ncos = 1;
		for (i = 0; i < x->d; i++)
			ncos *= (u32)lo->b[i][i];
		nt = lat_targets(x, up, lo, mdiag);
		x->work = 0;
		x->budget = U64_MAX;
		x->rng = LAT_SEED ^ j;
		if (!lat_walks(x, lo, ncos, nt))
			return -ESRCH;	/* found before, with the same seed */
		err = mf_sched_step(s);
		if (err)
			return err;
		for (v = 0; v < x->t->nodes; v++) {
			mf_topo_coords(x->t, v, c);
			for (i = 0; i < x->d; i++)
				rel[i] = ((s64)c[i] - cs[i] + x->t->dims[i]) %
					 x->t->dims[i];
			lat_reduce(x, lo, rel);
			for (i = 0; i < x->d && !rel[i]; i++)
				;
			if (i < x->d)
				continue;	/* not in source + S_(j-1) */
			for (w = 0; w < nt; w++) {
				path[0] = v;
				h = 0;
				for (i = x->wlen[w]; i < x->wlen[w + 1]; i++) {
					a = x->walk[i] % x->ndir;
					path[h + 1] = (u32)mf_topo_neighbor(x->t,
							path[h], x->port[a]);
					h++;
				}
				err = mf_sched_send(s, path, h);
				if (err)
					return err;
			}
		}
	}
	return mf_sched_end(s);
}

int mf_search_lattice(const struct mf_topo *t, u32 source, u32 steps,
		      u64 work, struct mf_sched *s)
{
	struct lsrch *x;
	u32 i, j, maxcos, *path = NULL;
	int err = -ESRCH;

	if (t->kind != MESHFABRIC_KIND_TORUS || t->ndims > LAT_MAXD ||
	    source >= t->nodes || !steps || steps >= MF_LATTICE_MAXSTEPS)
		return -EINVAL;
	x = mf_zalloc(sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->t = t;
	x->d = t->ndims;
	x->k = steps;
	x->budget = work;
	for (i = 0; i < x->d; i++) {
		x->dir[x->ndir][i] = 1;
		x->port[x->ndir++] = 2 * i;
		if (t->dims[i] > 2) {
			x->dir[x->ndir][i] = -1;
			x->port[x->ndir++] = 2 * i + 1;
		}
	}
	/* the top: Z^d */
	for (i = 0; i < x->d; i++)
		for (j = 0; j < x->d; j++)
			x->lat[steps].b[i][j] = i == j;
	maxcos = t->nodes;	/* G / S_0 */
	x->used = mf_alloc_array((size_t)maxcos * x->ndir, 1, false);
	x->prev = mf_alloc_array(maxcos, sizeof(u32), false);
	x->q = mf_alloc_array(maxcos, sizeof(u32), false);
	x->walk = mf_alloc_array((size_t)maxcos * x->ndir, sizeof(u32),
				 false);
	path = mf_alloc_array(maxcos + 1, sizeof(u32), false);
	if (!x->used || !x->prev || !x->q || !x->walk || !path) {
		err = -ENOMEM;
		goto out;
	}
	if (lat_sequence(x, 0, t->nodes)) {
		mf_sched_init(s, MESHFABRIC_MODEL_ALL_PORT, source);
		err = lat_emit(x, source, s, path);
		if (err)
			mf_sched_free(s);
	}
out:
	mf_free_all(x->used, x->prev, x->q, x->walk, path, x);
	return err;
}
