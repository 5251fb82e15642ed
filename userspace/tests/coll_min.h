/* SPDX-License-Identifier: GPL-2.0 */
/* The exhaustive minimum number of steps of an allreduce of one block,
 * for test_coll_min.c and bench_coll_min.c (a header of static
 * functions: it is the test's own model, independent of the builders).
 *
 * State: node v holds a set m[v] of contributions (N bits); at the start
 * m[v] = {v}, at the goal every m[v] is full.  In a step every node sends
 * at most one message and receives at most one (one-port); a message
 * carries the sender's set as the step began, and the receiver
 *  - combines it (the sets must be disjoint: a sum counts every
 *    contribution once), or copies it (replaces its set by the sender's):
 *    CM_DISJOINT, the allreduce of a non-idempotent op;
 *  - or takes the union: CM_UNION, the gossip of an idempotent op (max,
 *    bor), where a copy never helps.
 * CM_EXCHANGE restricts a step to calls, pairs that send to each other
 * (the telephone model of the gossip literature; any-to-any only).
 *
 * Where: any node to any node (cm_any), or a shape's graph (cm_shape):
 * each send follows a path of the shape, the core's routed one
 * (CM_ROUTE) or any shortest one (CM_SHORTEST), and the sends of one
 * step use each directed link at most once (contention-free).
 *
 * The search: iterative deepening on the number of steps D from the
 * lower bound up.  Depth-first below, pruned by
 *  - the largest set: it at most doubles per step (max * 2^left >= N);
 *  - the sum of the set sizes: it at most doubles per step (each node's
 *    new set is at most its own plus its sender's, senders distinct), so
 *    sum * 2^left >= N^2, checked while a step is being built;
 *  - a transposition table of states that failed with so many steps left,
 *    each state in a canonical form under a group of symmetries of the
 *    shape (node permutations that map the routed paths, or the graph,
 *    onto themselves, at most CM_MAXG of them; the cyclic rotations of
 *    the labels any-to-any);
 * and the last step solved as an assignment (every node not full needs
 * its own sender holding the complement or everything, on free links).
 * Dominance ("a state whose sets are all supersets is no worse") holds
 * for CM_UNION only: a larger set may no longer combine disjointly, and
 * the search does not use it.  The steps found are recorded (a witness
 * schedule) so that the project's checker can verify the upper bound.
 *
 * Where the search cannot finish (5 steps on 9 nodes), the upper bound is
 * a schedule the checker proves (cm_upper): the core's, or a witness
 * found offline (bench_coll_min_sat, a SAT solver) and pinned here as a
 * table (cm_mesh3x3).
 */
#ifndef MF_COLL_MIN_H
#define MF_COLL_MIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "topo.h"
#include "route.h"
#include "coll.h"
#include "check.h"

#define CM_MAXN		11	/* N * N bits fit the 128-bit key */
#define CM_MAXP		8	/* shortest paths kept per pair */
#define CM_MAXD		12	/* steps */
/* Symmetries kept: the canonical form is the least image under those
 * found first (any set of symmetries is sound, a larger one only
 * merges more states; H_2 is K_7 with 5040)
 */
#define CM_MAXG		256
/* log2 of the transposition table's entries (24 bytes each) */
#ifndef CM_TTBITS
#define CM_TTBITS	20
#endif

enum { CM_DISJOINT, CM_UNION };
enum { CM_ANY, CM_ROUTE, CM_SHORTEST };

struct cm_shape {
	u32 n;
	u32 where;			/* CM_ANY, CM_ROUTE, CM_SHORTEST */
	u32 nlinks;			/* directed links (<= 64) */
	u8 npath[CM_MAXN][CM_MAXN];
	u64 links[CM_MAXN][CM_MAXN][CM_MAXP];	/* link set of each path */
	u8 hops[CM_MAXN][CM_MAXN][CM_MAXP];
	u8 node[CM_MAXN][CM_MAXN][CM_MAXP][CM_MAXN + 1];
	u32 ngroup;			/* symmetries (the identity first) */
	u8 (*group)[CM_MAXN];
};

/* One step of a witness: node r receives from snd[r] (0xff: nothing)
 * along path pid[r], combining (or, CM_UNION, uniting) if comb[r].
 */
struct cm_step {
	u8 snd[CM_MAXN], pid[CM_MAXN], comb[CM_MAXN];
};

struct cm_tt {
	u64 lo, hi;
	u8 left;
	u8 used;
};

struct cm_search {
	const struct cm_shape *sh;
	u32 n, full, op;
	bool exch;
	/* prune by the parity argument (test_coll_min.c's comment): N odd,
	 * disjoint, no set can be full before the last step
	 */
	bool parity;
	double deadline;		/* CLOCK_MONOTONIC seconds; 0: none */
	bool timeout;			/* the deadline passed */
	u32 refuted;			/* the most steps proved too few */
	u64 visited;			/* states expanded */
	u64 calls;			/* partial steps built */
	u32 ttbits;
	struct cm_tt *tt;
	struct cm_step w[CM_MAXD];	/* the witness, once found */
	u32 depth;
};

static inline double cm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline u32 cm_pop(u32 x)
{
	return (u32)__builtin_popcount(x);
}

static inline u32 cm_ceil_log2(u32 n)
{
	u32 k = 0;

	while ((1U << k) < n)
		k++;
	return k;
}

/* ---- shapes */

static inline void cm_group_free(struct cm_shape *sh)
{
	free(sh->group);
	sh->group = NULL;
}

/* The any-to-any model on n nodes, with the n rotations v -> v + k as
 * its symmetries.
 */
static inline void cm_any(struct cm_shape *sh, u32 n)
{
	u32 k, v;

	memset(sh, 0, sizeof(*sh));
	sh->n = n;
	sh->where = CM_ANY;
	sh->group = calloc(n, sizeof(*sh->group));
	sh->ngroup = n;
	for (k = 0; k < n; k++)
		for (v = 0; v < n; v++)
			sh->group[k][v] = (v + k) % n;
}

/* Directed link id of the adjacent pair (a, b), or -1. */
static inline int cm_link(const struct mf_topo *t, const signed char *lid, u32 a,
			  u32 b)
{
	return lid[a * t->nodes + b];
}

static inline void cm_add_path(struct cm_shape *sh, const signed char *lid, u32 a,
			       u32 b, const u32 *p, u32 hops)
{
	u32 k = sh->npath[a][b], i;
	u64 set = 0;

	if (k >= CM_MAXP)
		return;
	for (i = 0; i < hops; i++)
		set |= 1ULL << lid[p[i] * sh->n + p[i + 1]];
	for (i = 0; i <= hops; i++)
		sh->node[a][b][k][i] = (u8)p[i];
	sh->links[a][b][k] = set;
	sh->hops[a][b][k] = (u8)hops;
	sh->npath[a][b] = (u8)(k + 1);
}

/* Every shortest path from p[len] to b, extending p. */
static inline void cm_shortest(struct cm_shape *sh, const struct mf_topo *t,
			       const signed char *lid, u32 a, u32 b, u32 *p, u32 len)
{
	u32 x = p[len], port, d = mf_topo_distance(t, x, b);

	if (x == b) {
		cm_add_path(sh, lid, a, b, p, len);
		return;
	}
	for (port = 0; port < t->nports; port++) {
		s64 y = mf_topo_neighbor(t, x, port);

		if (y < 0 || !mf_topo_is_link(t, x, port) ||
		    mf_topo_distance(t, (u32)y, b) + 1 != d)
			continue;
		p[len + 1] = (u32)y;
		cm_shortest(sh, t, lid, a, b, p, len + 1);
	}
}

/* Does the permutation pi map the shape onto itself: adjacency (every
 * model) and, CM_ROUTE, each routed path onto the routed path of the
 * image pair?
 */
static inline bool cm_symmetry(const struct cm_shape *sh, const signed char *lid,
			       const u8 *pi)
{
	u32 n = sh->n, a, b, i;

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			if ((lid[a * n + b] < 0) != (lid[pi[a] * n + pi[b]] < 0))
				return false;
	if (sh->where != CM_ROUTE)
		return true;
	for (a = 0; a < n; a++) {
		for (b = 0; b < n; b++) {
			u64 img = 0;

			if (a == b)
				continue;
			for (i = 0; i < sh->hops[a][b][0]; i++) {
				const u8 *p = sh->node[a][b][0];

				img |= 1ULL << lid[pi[p[i]] * n + pi[p[i + 1]]];
			}
			if (img != sh->links[pi[a]][pi[b]][0])
				return false;
		}
	}
	return true;
}

/* Heap's algorithm over every permutation of n <= CM_MAXN nodes,
 * keeping the shape's symmetries.
 */
static inline void cm_find_group(struct cm_shape *sh, const signed char *lid)
{
	u32 n = sh->n, c[CM_MAXN] = { 0 }, i = 1, cap = 64;
	u8 pi[CM_MAXN];

	for (i = 0; i < n; i++)
		pi[i] = (u8)i;
	sh->group = malloc(cap * sizeof(*sh->group));
	memcpy(sh->group[0], pi, sizeof(pi));
	sh->ngroup = 1;
	i = 1;
	while (i < n) {
		if (c[i] < i) {
			u32 j = i % 2 ? c[i] : 0;

			swap(pi[j], pi[i]);
			if (sh->ngroup < CM_MAXG && cm_symmetry(sh, lid, pi)) {
				if (sh->ngroup == cap) {
					cap *= 2;
					sh->group = realloc(sh->group,
							    cap * sizeof(*sh->group));
				}
				memcpy(sh->group[sh->ngroup++], pi, sizeof(pi));
			}
			c[i]++;
			i = 1;
		} else {
			c[i] = 0;
			i++;
		}
	}
}

/* The graph model on t (at most CM_MAXN nodes, 64 directed links): 0,
 * or -E2BIG.
 */
static inline int cm_shape(struct cm_shape *sh, const struct mf_topo *t,
			   u32 where)
{
	u32 n = t->nodes, a, b, port, p[CM_MAXN + 1];
	signed char lid[CM_MAXN * CM_MAXN];

	memset(sh, 0, sizeof(*sh));
	if (n > CM_MAXN)
		return -E2BIG;
	sh->n = n;
	sh->where = where;
	memset(lid, -1, sizeof(lid));
	for (a = 0; a < n; a++) {
		for (port = 0; port < t->nports; port++) {
			s64 y = mf_topo_neighbor(t, a, port);

			if (y < 0 || !mf_topo_is_link(t, a, port) ||
			    lid[a * n + y] >= 0)
				continue;
			if (sh->nlinks == 64)
				return -E2BIG;
			lid[a * n + y] = (signed char)sh->nlinks++;
		}
	}
	for (a = 0; a < n; a++) {
		for (b = 0; b < n; b++) {
			if (a == b)
				continue;
			if (where == CM_ROUTE) {
				int h = mf_route_path(t, MESHFABRIC_ROUTE_DEFAULT,
						      a, b, p, CM_MAXN + 1);

				if (h > 0)
					cm_add_path(sh, lid, a, b, p, (u32)h);
			} else {
				p[0] = a;
				cm_shortest(sh, t, lid, a, b, p, 0);
			}
		}
	}
	cm_find_group(sh, lid);
	return 0;
}

/* ---- the search */

static inline void cm_key(const struct cm_search *c, const u16 *m, u64 *lo,
			  u64 *hi)
{
	u32 v, n = c->n;

	*lo = 0;
	*hi = 0;
	for (v = 0; v < n; v++) {
		u32 sh = v * n;

		if (sh < 64)
			*lo |= (u64)m[v] << sh;
		if (sh + n > 64)
			*hi |= sh >= 64 ? (u64)m[v] << (sh - 64) :
			       (u64)m[v] >> (64 - sh);
	}
}

/* The least key of m's images under the group. */
static inline void cm_canon(const struct cm_search *c, const u16 *m, u64 *lo,
			    u64 *hi)
{
	const struct cm_shape *sh = c->sh;
	u32 g, v, b, n = c->n;
	u16 img[CM_MAXN];
	u64 l, h;

	cm_key(c, m, lo, hi);
	for (g = 1; g < sh->ngroup; g++) {
		const u8 *pi = sh->group[g];

		for (v = 0; v < n; v++) {
			u32 x = m[v], y = 0;

			for (b = 0; x; b++, x >>= 1)
				if (x & 1)
					y |= 1U << pi[b];
			img[pi[v]] = (u16)y;
		}
		cm_key(c, img, &l, &h);
		if (h < *hi || (h == *hi && l < *lo)) {
			*lo = l;
			*hi = h;
		}
	}
}

static inline struct cm_tt *cm_tt_slot(struct cm_search *c, u64 lo, u64 hi,
				       bool *hit)
{
	u64 hsh = (lo ^ (hi * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
	u32 mask = (1U << c->ttbits) - 1, i = (u32)(hsh >> 32) & mask, k;

	for (k = 0; k < 8; k++) {
		struct cm_tt *e = &c->tt[(i + k) & mask];

		if (!e->used || (e->lo == lo && e->hi == hi)) {
			*hit = e->used;
			return e;
		}
	}
	*hit = false;
	return &c->tt[i];		/* replaced: the table is a cache */
}

static inline bool cm_done(const struct cm_search *c, const u16 *m)
{
	u32 v;

	for (v = 0; v < c->n; v++)
		if (m[v] != c->full)
			return false;
	return true;
}

/* Can r take the set of s and be full? */
static inline bool cm_completes(const struct cm_search *c, u32 mr, u32 ms)
{
	if (c->op == CM_UNION)
		return (mr | ms) == c->full;
	return ms == c->full || (ms == (c->full & ~mr));
}

/* The last step: every node not full gets a sender (distinct) whose set
 * completes it, on a path whose links are free; exchange: calls.
 */
static inline bool cm_last(struct cm_search *c, const u16 *m, u32 r,
			   u32 sent, u64 used, struct cm_step *st)
{
	const struct cm_shape *sh = c->sh;
	u32 s, p;

	while (r < c->n && (m[r] == c->full || (c->exch && st->snd[r] != 0xff)))
		r++;
	if (r == c->n)
		return true;
	for (s = 0; s < c->n; s++) {
		if (s == r || sent >> s & 1 || !cm_completes(c, m[r], m[s]))
			continue;
		if (c->exch) {
			/* a call: s hears r too, and must be full after it */
			if (st->snd[s] != 0xff || (m[s] != c->full &&
						   !cm_completes(c, m[s], m[r])) ||
			    sent >> r & 1)
				continue;
			st->snd[r] = (u8)s;
			st->snd[s] = (u8)r;
			st->comb[r] = st->comb[s] = 1;
			st->pid[r] = st->pid[s] = 0;
			if (cm_last(c, m, r + 1, sent | 1U << s | 1U << r, used,
				    st))
				return true;
			st->snd[r] = st->snd[s] = 0xff;
			continue;
		}
		for (p = 0; p < (sh->where == CM_ANY ? 1U : sh->npath[s][r]); p++) {
			u64 l = sh->where == CM_ANY ? 0 : sh->links[s][r][p];

			if (l & used)
				continue;
			st->snd[r] = (u8)s;
			st->pid[r] = (u8)p;
			st->comb[r] = m[s] != c->full;
			if (cm_last(c, m, r + 1, sent | 1U << s, used | l, st))
				return true;
		}
	}
	st->snd[r] = 0xff;
	return false;
}

static bool cm_dfs(struct cm_search *c, const u16 *m, u32 left);

/* What a step being built must reach: the sum of the new sizes (need),
 * the most receivers r.. can add (room[r]), each new size (lo).
 */
struct cm_need {
	u32 need, lo, room[CM_MAXN + 1];
};

/* Build one step receiver by receiver: r's choice, into nm; sum is the
 * new sizes' sum so far.
 */
static inline bool cm_step(struct cm_search *c, const u16 *m, u16 *nm,
			   u32 r, u32 sent, u64 used, u32 sum,
			   const struct cm_need *nd, u32 left,
			   struct cm_step *st)
{
	const struct cm_shape *sh = c->sh;
	u32 s, p, k, mx = 0, v;

	if (c->deadline && !(++c->calls & 0xfffff) && cm_now() > c->deadline)
		c->timeout = true;
	if (c->timeout || sum + nd->room[r] < nd->need ||
	    (r && cm_pop(nm[r - 1]) < nd->lo))
		return false;
	if (r == c->n) {
		if (!memcmp(m, nm, c->n * sizeof(*m)))
			return false;	/* a step that changes nothing */
		for (v = 0; v < c->n; v++)
			if (cm_pop(nm[v]) > mx)
				mx = cm_pop(nm[v]);
		if ((u64)mx << (left - 1) < c->n)
			return false;
		return cm_dfs(c, nm, left - 1);
	}
	if (c->exch && st->snd[r] != 0xff) {	/* called by a lower node */
		nm[r] = m[r] | m[st->snd[r]];
		return cm_step(c, m, nm, r + 1, sent, used,
			       sum + cm_pop(nm[r]), nd, left, st);
	}
	for (s = 0; s < c->n; s++) {
		if (s == r || sent >> s & 1)
			continue;
		if (c->exch && (s < r || st->snd[s] != 0xff || sent >> r & 1))
			continue;
		/* k = 0: combine or unite; k = 1: copy */
		for (k = 0; k < 2; k++) {
			u32 x;

			if (k == 0) {
				/* (a call may help s only) */
				if (c->op == CM_UNION ?
				    !(m[s] & ~m[r]) && !(c->exch && m[s] != m[r]) :
				    (m[s] & m[r]) != 0)
					continue;
				x = m[r] | m[s];
			} else {
				if (c->op == CM_UNION || c->exch || m[s] == m[r])
					continue;
				x = m[s];
			}
			for (p = 0; p < (sh->where == CM_ANY ? 1U : sh->npath[s][r]);
			     p++) {
				u64 l = sh->where == CM_ANY ? 0 :
					sh->links[s][r][p];

				if (l & used)
					continue;
				nm[r] = (u16)x;
				st->snd[r] = (u8)s;
				st->pid[r] = (u8)p;
				st->comb[r] = !k;
				if (c->exch) {
					st->snd[s] = (u8)r;
					st->pid[s] = 0;
					st->comb[s] = 1;
				}
				if (cm_step(c, m, nm, r + 1, sent | 1U << s |
					    (c->exch ? 1U << r : 0), used | l,
					    sum + cm_pop(x), nd, left, st))
					return true;
				if (c->exch)
					st->snd[s] = 0xff;
			}
		}
	}
	st->snd[r] = 0xff;
	nm[r] = m[r];
	return cm_step(c, m, nm, r + 1, sent, used, sum + cm_pop(m[r]), nd,
		       left, st);
}

static bool cm_dfs(struct cm_search *c, const u16 *m, u32 left)
{
	struct cm_step *st = &c->w[c->depth - left];
	u32 v, mx = 0, sum = 0;
	struct cm_need nd;
	u16 nm[CM_MAXN];
	struct cm_tt *e;
	u64 lo, hi;
	bool hit, ok;

	if (cm_done(c, m))
		return true;
	if (!left)
		return false;
	for (v = 0; v < c->n; v++) {
		sum += cm_pop(m[v]);
		if (cm_pop(m[v]) > mx)
			mx = cm_pop(m[v]);
	}
	if ((u64)mx << left < c->n || (u64)sum << left < c->n * c->n)
		return false;
	if (c->parity && c->n % 2 && (u64)mx << (left - 1) < c->n)
		return false;
	if (c->timeout)
		return false;
	memset(st->snd, 0xff, sizeof(st->snd));
	c->visited++;
	if (left == 1)
		return cm_last(c, m, 0, 0, 0, st);
	cm_canon(c, m, &lo, &hi);
	e = cm_tt_slot(c, lo, hi, &hit);
	if (hit && e->left >= left)
		return false;
	/* the sum after this step must reach N^2 / 2^(left - 1); two
	 * steps left and no set full after this one (2 mx < N): in the last
	 * step each node gets its complement, of at most 2 mx, so each new
	 * set needs N - 2 mx
	 */
	nd.need = (c->n * c->n + (1U << (left - 1)) - 1) >> (left - 1);
	nd.lo = left == 2 && 2 * mx < c->n ? c->n - 2 * mx : 0;
	nd.room[c->n] = 0;
	for (v = c->n; v-- > 0;)
		nd.room[v] = nd.room[v + 1] + cm_pop(m[v]) + mx;
	ok = cm_step(c, m, nm, 0, 0, 0, 0, &nd, left, st);
	if (!ok) {
		/* (the recursion may have moved the slot's content) */
		e = cm_tt_slot(c, lo, hi, &hit);
		if (!hit || e->left < left) {
			e->lo = lo;
			e->hi = hi;
			e->left = (u8)left;
			e->used = 1;
		}
	}
	return ok;
}

/* The least number of steps (at most maxd) of the allreduce (op) on sh,
 * calls only if exch; 0 if none within maxd or secs seconds (0: no
 * limit; c->timeout then says so, c->refuted the most steps proved too
 * few).  c->w[0..] is the witness, c->visited the states expanded.
 */
static inline u32 cm_min_steps(struct cm_search *c, const struct cm_shape *sh,
			       u32 op, bool exch, u32 maxd, bool parity,
			       double secs)
{
	u16 m[CM_MAXN];
	u32 v, d;

	memset(c, 0, sizeof(*c));
	c->parity = parity;
	c->deadline = secs > 0 ? cm_now() + secs : 0;
	c->sh = sh;
	c->n = sh->n;
	c->full = (1U << sh->n) - 1;
	c->op = op;
	c->exch = exch;
	c->ttbits = CM_TTBITS;
	c->tt = calloc((size_t)1 << c->ttbits, sizeof(*c->tt));
	for (v = 0; v < c->n; v++)
		m[v] = (u16)(1U << v);
	for (d = cm_ceil_log2(c->n); d <= maxd && d < CM_MAXD; d++) {
		c->depth = d;
		if (cm_dfs(c, m, d))
			break;
		if (c->timeout)
			d = CM_MAXD;
		else
			c->refuted = d;
	}
	free(c->tt);
	c->tt = NULL;
	return d <= maxd && d < CM_MAXD ? d : 0;
}

/* The first steps of c's witness as a collective schedule on t (the
 * sends along their paths in c->sh, CM_ANY: the routed ones), into s
 * (free it with mf_sched_free, even on error): 0 or the builder's error.
 */
static inline int cm_sched(const struct mf_topo *t, const struct cm_search *c,
			   u32 steps, struct mf_sched *s)
{
	const struct cm_shape *sh = c->sh;
	u32 d, r, i, zero = 0, p[CM_MAXN + 1];
	int ret;

	ret = mf_coll_init(s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ONE_PORT, 0,
			   1);
	for (d = 0; !ret && d < steps; d++) {
		const struct cm_step *w = &c->w[d];

		ret = mf_sched_step(s);
		for (r = 0; !ret && r < c->n; r++) {
			u32 a = w->snd[r], k = w->pid[r];

			if (a == 0xff)
				continue;
			if (sh->where == CM_ANY) {
				ret = mf_sched_send_route(s, t,
							  MESHFABRIC_ROUTE_DEFAULT,
							  a, r);
			} else {
				for (i = 0; i <= sh->hops[a][r][k]; i++)
					p[i] = sh->node[a][r][k][i];
				ret = mf_sched_send(s, p, sh->hops[a][r][k]);
			}
			if (!ret)
				ret = mf_sched_blocks(s, &zero, 1, w->comb[r]);
		}
	}
	if (!ret)
		ret = mf_sched_end(s);
	return ret;
}

/* ---- the shapes, and the core's algorithms on them */

struct cm_case {
	u32 kind, d, a, b;
	bool heavy;		/* seconds or more: the bench only */
};

static const struct cm_case cm_cases[] = {
	{ MESHFABRIC_KIND_MESH, 2, 2, 2, false },
	{ MESHFABRIC_KIND_TORUS, 2, 2, 2, false },
	{ MESHFABRIC_KIND_MESH, 2, 2, 3, false },
	{ MESHFABRIC_KIND_TORUS, 2, 2, 3, false },
	{ MESHFABRIC_KIND_MESH, 1, 5, 0, false },
	{ MESHFABRIC_KIND_MESH, 1, 6, 0, false },
	{ MESHFABRIC_KIND_TORUS, 1, 5, 0, false },
	{ MESHFABRIC_KIND_TORUS, 1, 6, 0, false },
	{ MESHFABRIC_KIND_TORUS, 1, 7, 0, false },
	{ MESHFABRIC_KIND_TORUS, 1, 8, 0, false },
	{ MESHFABRIC_KIND_HEX, 1, 2, 0, true },
	{ MESHFABRIC_KIND_MESH, 2, 3, 3, true },
	{ MESHFABRIC_KIND_TORUS, 2, 3, 3, true },
};

#define CM_NCASES	(sizeof(cm_cases) / sizeof(cm_cases[0]))

static inline void cm_shape_name(const struct mf_topo *t, char *buf, size_t len)
{
	u32 i;
	int k = snprintf(buf, len, "%s ", mf_topo_kind_name(t->kind));

	for (i = 0; i < t->ndims; i++)
		k += snprintf(buf + k, len - k, "%s%u", i ? "x" : "", t->dims[i]);
}

/* The core's best one-port allreduce on t: steps (U32_MAX: none), its
 * algorithm and contention.
 */
static inline u32 cm_core_best(const struct mf_topo *t, u32 *algo, u64 *cont)
{
	u32 a, best = U32_MAX;

	for (a = 1; a < MF_CALGO_COUNT; a++) {
		struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE, .algo = a,
					  .bytes = 8, .esize = 8,
					  .model = MESHFABRIC_MODEL_ONE_PORT,
					  .bcast = MESHFABRIC_ALGO_BINOMIAL };
		struct mf_coll_result res;
		struct mf_sched s;

		if (!mf_coll_plan(t, &rq, &s, &res) &&
		    s.model == MESHFABRIC_MODEL_ONE_PORT &&
		    (res.st.steps < best ||
		     (res.st.steps == best && res.st.contention < *cont))) {
			best = res.st.steps;
			*algo = a;
			*cont = res.st.contention;
		}
		mf_sched_free(&s);
	}
	return best;
}

/* ---- pinned witnesses: schedules found offline, proved by the tests */

/* One send of a pinned witness: in its step (from 0) src sends its set
 * to dst along the core's routed path; dst combines (comb) or copies.
 */
struct cm_send {
	u8 step, src, dst, comb;
};

/* Allreduce of a sum on the 3x3 mesh (node v at column v % 3, row
 * v / 3) in 5 one-port steps, contention-free along the core's routed
 * (dimension-order) paths, which are shortest ones: 27 sends, all
 * combines, 33 hops (recursive doubling: 26 sends, 56 hops, 3 shared
 * links).  Step 1: the pairs (0,1), (3,4), (6,7), (5,8) exchange, node 2
 * waits; then mostly neighbours.  Found by a SAT solver on the model
 * above (bench_coll_min_sat: 5 steps, no copies, at most 33 hops; its
 * default run prints this table); the search cannot finish 5 steps.
 */
static const struct cm_send cm_mesh3x3[] = {
	{ 0, 1, 0, 1 },
	{ 0, 0, 1, 1 },
	{ 0, 4, 3, 1 },
	{ 0, 3, 4, 1 },
	{ 0, 8, 5, 1 },
	{ 0, 7, 6, 1 },
	{ 0, 6, 7, 1 },
	{ 0, 5, 8, 1 },
	{ 1, 2, 0, 1 },
	{ 1, 7, 1, 1 },
	{ 1, 8, 6, 1 },
	{ 2, 3, 0, 1 },
	{ 2, 0, 3, 1 },
	{ 2, 5, 4, 1 },
	{ 2, 4, 5, 1 },
	{ 3, 6, 0, 1 },
	{ 3, 2, 1, 1 },
	{ 3, 1, 5, 1 },
	{ 3, 3, 7, 1 },
	{ 4, 4, 1, 1 },
	{ 4, 5, 2, 1 },
	{ 4, 6, 3, 1 },
	{ 4, 1, 4, 1 },
	{ 4, 2, 5, 1 },
	{ 4, 3, 6, 1 },
	{ 4, 8, 7, 1 },
	{ 4, 7, 8, 1 },
};

#define CM_MESH3X3_STEPS	5
#define CM_MESH3X3_SENDS	(sizeof(cm_mesh3x3) / sizeof(cm_mesh3x3[0]))

/* Which of sh's paths from p[0] to p[hops] is p (U32_MAX: none)? */
static inline u32 cm_path_id(const struct cm_shape *sh, const u32 *p, u32 hops)
{
	u32 a = p[0], b = p[hops], k, j;

	if (a >= sh->n || b >= sh->n || a == b)
		return U32_MAX;
	for (k = 0; k < sh->npath[a][b]; k++) {
		if (sh->hops[a][b][k] != hops)
			continue;
		for (j = 0; j <= hops && sh->node[a][b][k][j] == p[j]; j++)
			;
		if (j > hops)
			return k;
	}
	return U32_MAX;
}

/* Load the pinned witness w (nw sends, steps steps) into c for sh, the
 * model cm_shape() built on t: each send's path is the core's routed
 * one, looked up among sh's paths (CM_SHORTEST: it must be one of the
 * shortest).  0, or -ENOENT if a path is not in sh's model, -EINVAL if
 * w does not fit.
 */
static inline int cm_witness(struct cm_search *c, const struct cm_shape *sh,
			     const struct mf_topo *t, const struct cm_send *w,
			     u32 nw, u32 steps)
{
	u32 i, k, p[CM_MAXN + 1];

	memset(c, 0, sizeof(*c));
	c->sh = sh;
	c->n = sh->n;
	c->full = (1U << sh->n) - 1;
	c->op = CM_DISJOINT;
	c->depth = steps;
	if (steps > CM_MAXD || sh->where == CM_ANY)
		return -EINVAL;
	for (i = 0; i < steps; i++)
		memset(c->w[i].snd, 0xff, sizeof(c->w[i].snd));
	for (i = 0; i < nw; i++) {
		u32 a = w[i].src, b = w[i].dst;
		struct cm_step *st;
		int h;

		if (w[i].step >= steps || a >= c->n || b >= c->n || a == b)
			return -EINVAL;
		st = &c->w[w[i].step];
		h = mf_route_path(t, MESHFABRIC_ROUTE_DEFAULT, a, b, p,
				  CM_MAXN + 1);
		if (h <= 0)
			return -ENOENT;
		k = cm_path_id(sh, p, (u32)h);
		if (k == U32_MAX)
			return -ENOENT;
		st->snd[b] = (u8)a;
		st->pid[b] = (u8)k;
		st->comb[b] = w[i].comb;
	}
	return 0;
}

/* The steps of s if mf_check proves it an allreduce of one block on t
 * (the model's: a send carries its sender's whole set), contention-free,
 * every send on one of sh's paths: an upper bound in sh's model; else 0.
 */
static inline u32 cm_upper(const struct mf_topo *t, const struct cm_shape *sh,
			   const struct mf_sched *s)
{
	struct mf_stats st;
	char err[160];
	u32 i;

	if (s->coll != MF_COLL_ALLREDUCE ||
	    s->model != MESHFABRIC_MODEL_ONE_PORT || s->nblocks > 1 ||
	    mf_check(t, s, &st, err, sizeof(err)) || st.contention)
		return 0;
	for (i = 0; i < s->nsends; i++)
		if (cm_path_id(sh, s->path + s->send[i].path,
			       s->send[i].hops) == U32_MAX)
			return 0;
	return st.steps;
}

/* The least upper bound of sh's model on t from a schedule cm_upper()
 * accepts: the core's best one-port allreduce, the witness pinned above
 * (the 3x3 mesh); 0 if none, else *by says which ("core", "witness").
 */
static inline u32 cm_best_upper(const struct mf_topo *t,
				const struct cm_shape *sh, const char **by)
{
	struct mf_coll_result res;
	struct cm_search c;
	struct mf_sched s;
	u32 ub = 0, k, a = 0;
	u64 cont = 0;

	if (cm_core_best(t, &a, &cont) != U32_MAX) {
		struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE, .algo = a,
					  .bytes = 8, .esize = 8,
					  .model = MESHFABRIC_MODEL_ONE_PORT,
					  .bcast = MESHFABRIC_ALGO_BINOMIAL };

		if (!mf_coll_plan(t, &rq, &s, &res))
			ub = cm_upper(t, sh, &s);
		if (ub)
			*by = "core";
		mf_sched_free(&s);
	}
	if (t->kind == MESHFABRIC_KIND_MESH && t->ndims == 2 &&
	    t->dims[0] == 3 && t->dims[1] == 3 &&
	    !cm_witness(&c, sh, t, cm_mesh3x3, CM_MESH3X3_SENDS,
			CM_MESH3X3_STEPS)) {
		k = cm_sched(t, &c, CM_MESH3X3_STEPS, &s) ? 0 : cm_upper(t, sh, &s);
		if (k && (!ub || k < ub)) {
			ub = k;
			*by = "witness";
		}
		mf_sched_free(&s);
	}
	return ub;
}

#endif /* MF_COLL_MIN_H */
