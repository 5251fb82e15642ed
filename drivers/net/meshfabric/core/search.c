// SPDX-License-Identifier: GPL-2.0
/* All-port schedule search (search.h, docs/wormhole.md "search").
 *
 * A step is a flow problem: every informed node may start one message per
 * outgoing link, every directed link carries at most one message, any node
 * may be passed through, and each new node receives one message.  The
 * sets of new nodes one step can inform are the independent sets of a
 * gammoid (a matroid), so choosing them one at a time, each by an
 * augmenting path in the residual graph, always ends at a maximum number
 * of new nodes, and the order of choice decides which ones (each path is
 * searched backward from the new node: srch_augment_to).  The order
 * here is farthest first: the next new node is a reachable one farthest
 * from everything informed or chosen so far (ties broken at random), which
 * spreads the informed set for the later steps.  The step's flow is then
 * decomposed into link-disjoint simple paths (the sends), so every step is
 * contention free by construction; mf_check verifies it anyway.  A run
 * that cannot finish within the steps asked for (informed * (ports + 1)^left
 * < N) stops early, and the search restarts with the next seed.
 */
#include "search.h"

/* All-port restarts at most.  On tori, where farthest first spreads the
 * informed nodes as the last step needs, a run is cheap and another seed
 * often finishes (3-D tori up to 2500 nodes above the bound: 115 with 32,
 * 103 with 256, 103 with 4096, at 10% more time); on meshes the local
 * search that follows finishes where they do (3-D meshes up to 600 nodes
 * from a corner: 40 above with 32, 256 or 4096, in 60% more time with 256).
 */
#define SRCH_RUNS_TORUS	256
#define SRCH_RUNS_MESH	32
#define SRCH_LS_STEPS	32	/* the local search's steps at most */
#define SRCH_LS_MOVES	2048	/* its swaps without a new best, a start */
/* A local search whose budget runs out with a start that came within
 * mf_search_near nodes of finishing, and within 1 in SRCH_LS_NEAR_SHARE
 * of all the nodes, goes on to SRCH_LS_MORE times its budget: the same
 * course, only longer.  Of the 1373 shapes of docs/wormhole.md's
 * sweeps left open at the default budget, 415 came that close and 243
 * of them finish so.  Of the 63 that came within 16 nodes but not within
 * 1 in 128 (small shapes, most of them), none finished.  The others cost
 * only their budget.  Where that runs out too with a start within
 * mf_search_last nodes (one: a single node short), it goes on once more
 * to SRCH_LS_MORE times that (SRCH_LS_STAGES in all): the tori 3x4x200
 * and 2x2x3x200 (2400 = 7^4 - 1 nodes, the last of the sweeps' tori
 * above the bound) end their first extension one node short, and finish
 * in the second; of the 1185 shapes of the sweeps above the bound, 28
 * got that far and 19 finish so.
 */
#define SRCH_LS_NEAR	16
#define SRCH_LS_NEAR_SHARE	128	/* and within 1 node in this many */
#define SRCH_LS_MORE	4
#define SRCH_LS_LAST	1	/* nodes short, for the second */
#define SRCH_LS_STAGES	2	/* extensions at most */

u32 mf_search_effort = 1;
u32 mf_search_near = SRCH_LS_NEAR;
u32 mf_search_last = SRCH_LS_LAST;
u32 mf_search_nearest = 1;
u32 mf_search_free_links = 1;

struct srch {
	const struct mf_topo *t;
	u32 n, np;
	s32 *nb;		/* nb[v * np + p]: neighbour by a link, or -1 */
	s32 *rin;		/* rin[w * np + q]: link u * np + p into w, or -1 */
	u8 *flow;		/* per directed link, this step */
	u8 *state;		/* 0 new, 1 informed, 2 chosen this step */
	u32 *dist;		/* hops to the nearest informed or chosen node */
	u32 *par;		/* BFS: 2 * link + backward, U32_MAX: root */
	u32 *q, *mark, *pos, *path;
	u32 *mate, *prio, *order;	/* one-port: matching, new nodes' order */
	u8 *lvl;		/* local search: the step informing each node */
	u32 *cand;		/* srch_choose: the nodes it may pick next */
	u32 *dead;		/* == dstamp: no augmenting path this step */
	u8 *deg;		/* links of each node */
	u32 stamp, dstamp;
	u64 rng, work;
};

static u32 srch_rand(struct srch *x)
{
	x->rng ^= x->rng << 13;
	x->rng ^= x->rng >> 7;
	x->rng ^= x->rng << 17;
	return (u32)(x->rng >> 16);
}

/* Nearest-set distances after node v joined the set. */
static void srch_near(struct srch *x, u32 v)
{
	u32 head = 0, tail = 1, u, p;
	s32 w;

	x->dist[v] = 0;
	x->q[0] = v;
	while (head < tail) {
		u = x->q[head++];
		for (p = 0; p < x->np; p++) {
			w = x->nb[u * x->np + p];
			if (w < 0 || x->dist[w] <= x->dist[u] + 1)
				continue;
			x->dist[w] = x->dist[u] + 1;
			x->q[tail++] = (u32)w;
		}
	}
	x->work += tail;
}

/* Flip the augmenting path that x->par[] leads back from u to an informed
 * node: 2 * link + 1 for a used link cancelled, 2 * link for a free link
 * taken.
 */
static void srch_flip_back(struct srch *x, u32 u)
{
	u32 l;

	while (x->par[u] != U32_MAX) {
		l = x->par[u] / 2;
		if (x->par[u] & 1) {
			x->flow[l] = 0;
			u = (u32)x->nb[l];
		} else {
			x->flow[l] = 1;
			u = l / x->np;
		}
	}
}

/* One augmenting path from the informed nodes to a reachable new node
 * whose level (x->lvl) is k, or (all) to any new node: the first one
 * reached, which is marked chosen (state 2); false if none.
 */
static bool srch_augment(struct srch *x, u32 k, bool all)
{
	u32 head = 0, tail = 0, u, p, l, best = U32_MAX;
	s32 w;

	x->stamp++;
	for (u = 0; u < x->n; u++) {
		if (x->state[u] != 1)
			continue;
		x->mark[u] = x->stamp;
		x->par[u] = U32_MAX;
		x->q[tail++] = u;
	}
	while (head < tail) {
		u = x->q[head++];
		if (x->state[u] == 0 && (all || x->lvl[u] == k)) {
			best = u;
			break;
		}
		for (p = 0; p < x->np; p++) {
			/* forward along a free link */
			l = u * x->np + p;
			w = x->nb[l];
			if (w >= 0 && !x->flow[l] && x->mark[w] != x->stamp) {
				x->mark[w] = x->stamp;
				x->par[w] = 2 * l;
				x->q[tail++] = (u32)w;
			}
			/* backward along a used link into u */
			w = x->rin[u * x->np + p];
			if (w < 0 || !x->flow[w])
				continue;
			l = (u32)w;
			w = (s32)(l / x->np);
			if (x->mark[w] != x->stamp) {
				x->mark[w] = x->stamp;
				x->par[w] = 2 * l + 1;
				x->q[tail++] = (u32)w;
			}
		}
	}
	x->work += (u64)tail * x->np;
	if (best == U32_MAX)
		return false;
	srch_flip_back(x, best);
	x->state[best] = 2;
	return true;
}

/* An augmenting path to new node v, searched backward from v in the
 * residual graph to the nearest informed node; v is then chosen (state
 * 2).  If there is none, no node the search passed can be reached
 * either, this step: they are all marked dead (x->dead == x->dstamp),
 * and later searches of the step skip them.  Augmenting keeps them so:
 * the nodes reachable from the informed ones only lose members when a
 * path among them is flipped.  Cost: the nodes around v up to the
 * nearest informed one, not the whole fabric.
 */
static bool srch_augment_to(struct srch *x, u32 v)
{
	u32 head = 0, tail = 0, u, p, l, root = U32_MAX;
	s32 w;

	x->stamp++;
	x->mark[v] = x->stamp;
	x->par[v] = U32_MAX;
	x->q[tail++] = v;
	while (head < tail) {
		u = x->q[head++];
		if (x->state[u] == 1) {
			root = u;
			break;
		}
		for (p = 0; p < x->np; p++) {
			/* a free link w -> u, to be taken forward */
			w = x->rin[u * x->np + p];
			if (w >= 0 && !x->flow[w]) {
				l = (u32)w;
				w = (s32)(l / x->np);
				if (x->mark[w] != x->stamp &&
				    x->dead[w] != x->dstamp) {
					x->mark[w] = x->stamp;
					x->par[w] = 2 * l;
					x->q[tail++] = (u32)w;
				}
			}
			/* a used link u -> w, to be cancelled */
			l = u * x->np + p;
			w = x->nb[l];
			if (w >= 0 && x->flow[l] && x->mark[w] != x->stamp &&
			    x->dead[w] != x->dstamp) {
				x->mark[w] = x->stamp;
				x->par[w] = 2 * l + 1;
				x->q[tail++] = (u32)w;
			}
		}
	}
	x->work += (u64)tail * x->np;
	if (root == U32_MAX) {
		while (tail)
			x->dead[x->q[--tail]] = x->dstamp;
		return false;
	}
	/* from the informed node forward to v */
	for (u = root; x->par[u] != U32_MAX;) {
		l = x->par[u] / 2;
		if (x->par[u] & 1) {
			x->flow[l] = 0;
			u = l / x->np;
		} else {
			x->flow[l] = 1;
			u = (u32)x->nb[l];
		}
	}
	x->state[v] = 2;
	return true;
}

/* A step's new nodes, one augmenting path each (srch_augment_to), until
 * no new node can be reached: (links) each a reachable one of the most
 * free links and, among those, farthest from everything informed or
 * chosen (x->dist), or else just farthest, ties at random.  The
 * candidates are those of the largest key left, collected afresh when
 * they run out (distances and free links only fall).
 *
 * A node's free links are what it adds to the links out of the informed
 * set: its links (x->deg), less two for each informed or chosen
 * neighbour (the link each way between them, which no send needs to
 * leave the set).  Every send of the next step leaves the informed set
 * by a link of its own, so these links bound that step as the nodes'
 * links do (the counting bound).  By links alone
 * (mf_search_free_links = 0, before), the nodes of the most links are
 * taken first even where they are packed together: on the mesh
 * 3x4x11x22 from a corner, whose only nodes of 8 links are the 360 of a
 * slab 1x2x9x20, the start put 324 of them in step 3, and the last step
 * could reach 1220 of the 2539 nodes left (2516 after the swaps, at the
 * budget's end); by free links, 2516 at the start, and all of them after
 * a few swaps, in 0.2 s.
 *
 * The sets a step can inform are a matroid's independent sets, so taking
 * the nodes of the most links first ends with a maximum set of the most
 * links in all (the greedy algorithm): the most sends the next step can
 * start, which is what the counting bound counts.  (Free links fall as
 * nodes are chosen, so by them the greedy order is only that: each node
 * the best left when it is taken.  The set is still a maximum one, as
 * any order's is.)  Farthest among them
 * spreads the set, so that the next step's sends do not crowd each
 * other's links.  Either alone falls short on long shapes (mesh 2x2x500
 * from a corner, 5 steps: farthest first informs 4, 18, 88 and 438 nodes
 * by steps 1 to 4, one of the most links at random 4, 19, 94 and 428;
 * both 4, 19, 94 and 469, the counting bound's every step).  The local
 * search starts so; the step by step search stays farthest first, which
 * finishes as often with it and fails faster (docs/wormhole.md).
 */
static inline u32 srch_key(const struct srch *x, u32 v, bool links)
{
	u32 d = x->dist[v] < 0xfffff ? x->dist[v] : 0xfffff, f, p;
	s32 w;

	if (!links)
		return d;
	/* links + 16 less two per neighbour (at most 16 links) stays >= 0 */
	f = x->deg[v] + 16;
	/* only a node next to one informed or chosen (d = 1) loses any;
	 * the scan is not counted in x->work (the budgets, and so every
	 * schedule, stay those the sweeps of docs/wormhole.md measured)
	 */
	if (mf_search_free_links && d == 1) {
		for (p = 0; p < x->np; p++) {
			w = x->nb[v * x->np + p];
			if (w >= 0 && x->state[w])
				f -= 2;
		}
	}
	return f << 20 | d;
}

static void srch_choose(struct srch *x, bool links)
{
	u32 ncand = 0, v, i, top = 0, key;

	x->dstamp++;
	for (;;) {
		if (!ncand) {
			top = 0;
			for (v = 0; v < x->n; v++) {
				if (x->state[v] || x->dead[v] == x->dstamp)
					continue;
				key = srch_key(x, v, links);
				if (key > top) {
					top = key;
					ncand = 0;
				}
				if (key == top)
					x->cand[ncand++] = v;
			}
			x->work += x->n;
			if (!ncand)
				return;
		}
		i = srch_rand(x) % ncand;
		v = x->cand[i];
		x->cand[i] = x->cand[--ncand];
		if (x->state[v] || x->dead[v] == x->dstamp ||
		    srch_key(x, v, links) != top)
			continue;
		if (srch_augment_to(x, v))
			srch_near(x, v);
	}
}

/* Decompose the step's flow into sends: from each chosen node back along
 * used links to an informed node, loops cut out.
 */
static int srch_emit(struct srch *x, struct mf_sched *s)
{
	u32 v, u, k, h, j, len;
	s32 l;
	int err;

	x->stamp++;
	for (v = 0; v < x->n; v++) {
		if (x->state[v] != 2)
			continue;
		len = 0;
		u = v;
		x->path[len] = u;
		x->mark[u] = x->stamp;
		x->pos[u] = len++;
		while (x->state[u] != 1) {
			for (k = 0; k < x->np; k++) {
				l = x->rin[u * x->np + k];
				if (l >= 0 && x->flow[l])
					break;
			}
			if (k == x->np)
				return -EINVAL;	/* cannot happen: conservation */
			x->flow[l] = 0;
			u = (u32)l / x->np;
			if (x->mark[u] == x->stamp && x->pos[u] < len &&
			    x->path[x->pos[u]] == u) {
				len = x->pos[u] + 1;	/* a loop: cut it */
				continue;
			}
			x->mark[u] = x->stamp;
			x->pos[u] = len;
			x->path[len++] = u;
		}
		/* reverse: informed node first */
		for (h = 0, j = len - 1; h < j; h++, j--)
			swap(x->path[h], x->path[j]);
		err = mf_sched_send(s, x->path, len - 1);
		if (err)
			return err;
	}
	return 0;
}

static int srch_run(struct srch *x, u32 source, u32 steps, struct mf_sched *s)
{
	u32 v, step, informed = 1;
	u64 cap;
	int err;

	for (v = 0; v < x->n; v++) {
		x->state[v] = 0;
		x->dist[v] = U32_MAX;
	}
	x->state[source] = 1;
	srch_near(x, source);
	mf_sched_init(s, MESHFABRIC_MODEL_ALL_PORT, source);
	for (step = 0; step < steps && informed < x->n; step++) {
		/* informed * (np + 1)^left bounds what can still be reached */
		cap = informed;
		for (v = step; v < steps && cap < x->n; v++)
			cap *= x->np + 1;
		if (cap < x->n)
			return -ESRCH;
		memset(x->flow, 0, (size_t)x->n * x->np);
		srch_choose(x, false);
		err = mf_sched_step(s);
		if (!err)
			err = srch_emit(x, s);
		if (err)
			return err;
		for (v = 0; v < x->n; v++) {
			if (x->state[v] == 2) {
				x->state[v] = 1;
				informed++;
			}
		}
	}
	if (informed < x->n)
		return -ESRCH;
	return mf_sched_end(s);
}

/* The flow of step k of the levels x->lvl[] (informed: lvl < k) to new
 * nodes of level k, or (all) to any new node, up to stop of them: how
 * many it reaches.  Leaves the flow in x->flow and the nodes it reaches
 * chosen (state 2), for srch_emit.
 */
static u32 srch_level_flow(struct srch *x, u32 k, bool all, u32 stop)
{
	u32 v, r = 0;

	for (v = 0; v < x->n; v++)
		x->state[v] = x->lvl[v] < k;
	memset(x->flow, 0, (size_t)x->n * x->np);
	x->work += x->n;
	while (r < stop && srch_augment(x, k, all))
		r++;
	return r;
}

/* A node of level k at random (k must have one). */
static u32 srch_pick(struct srch *x, u32 k)
{
	u32 v;

	do {
		v = srch_rand(x) % x->n;
		x->work++;
	} while (x->lvl[v] != k);
	return v;
}

/* A node of level k nearest to v (in links; v's level is not k), at
 * random among the nearest: breadth first from v, a layer at a time.
 * Counted in the budget by the nodes it queues, as srch_near is.  A
 * level with no node cannot occur (a start stops on one), nor can one
 * out of reach (meshes and tori are connected); a node at random then.
 */
static u32 srch_nearest(struct srch *x, u32 v, u32 k)
{
	u32 head = 0, tail = 1, end, u, p, seen = 0, pick = v;
	s32 w;

	x->stamp++;
	x->mark[v] = x->stamp;
	x->q[0] = v;
	while (head < tail && !seen) {
		for (end = tail; head < end; head++) {
			u = x->q[head];
			if (x->lvl[u] == k && !(srch_rand(x) % ++seen))
				pick = u;
			for (p = 0; p < x->np; p++) {
				w = x->nb[u * x->np + p];
				if (w < 0 || x->mark[w] == x->stamp)
					continue;
				x->mark[w] = x->stamp;
				x->q[tail++] = (u32)w;
			}
		}
	}
	x->work += tail;
	return seen ? pick : srch_pick(x, k);
}

/* Cancel one unit of the flow into v (a reached node, or one that is to
 * become informed), back along used links to an informed node.  Flow
 * conservation (every node not informed takes in what it passes on, plus
 * one if reached) leaves a used link into every node on the way, but v:
 * a walk that comes round to v (a cycle of flow through it, when v only
 * passed flow on) ends there, the cycle cancelled.
 */
static void srch_unflow_in(struct srch *x, u32 v)
{
	u32 u = v, p;
	s32 l = -1;

	do {
		for (p = 0; p < x->np; p++) {
			l = x->rin[u * x->np + p];
			if (l >= 0 && x->flow[l])
				break;
		}
		x->work += x->np;
		if (p == x->np)
			return;		/* back at v: a cycle */
		x->flow[l] = 0;
		u = (u32)l / x->np;
	} while (x->state[u] != 1);
}

/* Cancel one unit of the flow out of v (informed no more), forward along
 * used links to the reached node it ends at, which is new again: 1, or 0
 * if none (cannot happen: conservation).
 */
static u32 srch_unflow_out(struct srch *x, u32 v)
{
	u32 u = v, p, l;

	for (;;) {
		for (p = 0; p < x->np; p++) {
			l = u * x->np + p;
			if (x->nb[l] >= 0 && x->flow[l])
				break;
		}
		x->work += x->np;
		if (p == x->np)
			return 0;
		x->flow[l] = 0;
		u = (u32)x->nb[l];
		if (x->state[u] == 2) {
			x->state[u] = 0;
			return 1;
		}
	}
}

/* Has v a used link in (out: out of it) in the current flow? */
static bool srch_used(const struct srch *x, u32 v, bool out)
{
	u32 p;
	s32 l;

	for (p = 0; p < x->np; p++) {
		l = out ? (s32)(v * x->np + p) : x->rin[v * x->np + p];
		if (l >= 0 && x->nb[l] >= 0 && x->flow[l])
			return true;
	}
	return false;
}

/* The local search keeps every step's flow (srch_ls): a swap of a (level
 * k) and b (a node left to the last step) changes each step from k on by
 * a few units of flow, which it cancels and augments again, instead of
 * computing those flows anew (one augmenting path per node: about N x
 * links per step).  The maximum flows, and so every decision of the
 * search, are the same either way.
 */
struct srch_ls {
	u8 *flow, *state;	/* step k's: flow + k * n * np, state + k * n */
	u8 *oflow, *ostate;	/* a swap's copies, to undo it */
	u32 got[SRCH_LS_STEPS + 1], ogot[SRCH_LS_STEPS + 1];
};

/* Point x's flow and states at step k's. */
static void srch_ls_use(struct srch *x, struct srch_ls *ls, u32 k)
{
	x->flow = ls->flow + (size_t)k * x->n * x->np;
	x->state = ls->state + (size_t)k * x->n;
}

/* Step j of the swap of a (level k before, `steps` now) and b (`steps`
 * before, k now) in the flow kept for it; how many nodes it now reaches
 * (stop at most).  In step k, a was reached and b is to be; after k, b
 * is informed and a is not (in the last step a is to be reached).
 */
static u32 srch_ls_swap(struct srch *x, u32 j, u32 k, u32 a, u32 b,
			bool last, u32 stop, u32 got)
{
	if (j == k) {
		srch_unflow_in(x, a);
		x->state[a] = 0;
		got--;
	} else {
		while (srch_used(x, b, false))
			srch_unflow_in(x, b);
		got -= x->state[b] == 2;
		x->state[b] = 1;
		x->state[a] = 0;
		while (srch_used(x, a, true))
			got -= srch_unflow_out(x, a);
	}
	/* each augmenting path also scans the nodes for the informed */
	for (x->work += x->n; got < stop && srch_augment(x, j, last);
	     x->work += x->n)
		got++;
	return got;
}

/* Is the local search within its budget (*work)?  When the budget has
 * run out, and some start so far (gap: the fewest nodes any start has
 * left unreached) came within mf_search_near nodes of finishing (the
 * first time; mf_search_last nodes the second) and within 1 in
 * SRCH_LS_NEAR_SHARE of all the nodes, *work grows to SRCH_LS_MORE
 * times itself and the search goes on as if that had been its budget
 * from the start (gap only falls, so every check before the budget ran
 * out passes either way); *more counts these extensions.
 */
static bool srch_ls_within(const struct srch *x, u64 *work, u32 *more,
			   u32 gap)
{
	if (x->work < *work)
		return true;
	if (*more >= SRCH_LS_STAGES ||
	    gap > (*more ? mf_search_last : mf_search_near) ||
	    (u64)gap * SRCH_LS_NEAR_SHARE > x->n)
		return false;
	++*more;
	*work *= SRCH_LS_MORE;
	return x->work < *work;
}

/* Local search over the steps' new sets, for when the step by step
 * search falls short in the last step.  A step's new set is feasible if
 * the step's flow reaches all of it.  Start from maximum sets of the
 * most free links, the farthest first among them (srch_choose, srch_key),
 * step by step;
 * then, while the last step's flow reaches fewer nodes than are left,
 * swap a new node of a step before the last (the one just before it at
 * least half the time; half the time the one nearest to the other node,
 * srch_nearest, else one at random) for a node left to the last step
 * (at least 3 times in 4 one that step does not reach), keep the swap
 * if every step is still feasible and
 * the last step reaches no fewer nodes (or, 1 time in 128, fewer: out of
 * local maxima), and undo it otherwise.  Sizes stay those of the start.
 * After SRCH_LS_MOVES swaps without a new best, start again.  Within
 * work link visits, or SRCH_LS_MORE times that near a finish, and
 * SRCH_LS_MORE times that again one node from it (srch_ls_within).
 */
static int srch_ls_run(struct srch *x, struct srch_ls *ls, u32 source,
		       u32 steps, u64 work, struct mf_sched *s)
{
	u32 cnt[SRCH_LS_STEPS + 1], v, k, j, a, b, reach, moves, top;
	u32 gap = U32_MAX;	/* the fewest a start has left unreached */
	u32 more = 0;	/* extensions of the budget (srch_ls_within) */
	size_t fs = (size_t)x->n * x->np;
	const u8 *last = ls->state + (size_t)steps * x->n;
	bool ok, found = false, unreached;
	int err;

	while (!found && srch_ls_within(x, &work, &more, gap)) {
		/* a start: maximum sets of the most free links, step by step */
		memset(cnt, 0, sizeof(cnt));
		srch_ls_use(x, ls, 0);
		for (v = 0; v < x->n; v++) {
			x->state[v] = v == source;
			x->lvl[v] = v == source ? 0 : steps;
			x->dist[v] = U32_MAX;
		}
		srch_near(x, source);
		for (k = 1; k < steps; k++) {
			memset(x->flow, 0, fs);
			srch_choose(x, true);
			for (v = 0; v < x->n; v++) {
				if (x->state[v] == 2) {
					x->state[v] = 1;
					x->lvl[v] = k;
					cnt[k]++;
				}
			}
			if (!cnt[k])
				return -ESRCH;
		}
		for (v = 0; v < x->n; v++)
			cnt[steps] += x->lvl[v] == steps;
		for (k = 1; k <= steps; k++) {
			srch_ls_use(x, ls, k);
			ls->got[k] = srch_level_flow(x, k, k == steps, cnt[k]);
		}
		reach = ls->got[steps];
		top = reach;
		if (cnt[steps] - top < gap)
			gap = cnt[steps] - top;
		for (moves = 0; reach < cnt[steps] &&
		     srch_ls_within(x, &work, &more, gap) &&
		     moves < SRCH_LS_MOVES; moves++) {
			/* at least half the time from the step before the
			 * last, whose senders reach the last step's nodes
			 * most directly
			 */
			k = srch_rand(x) & 1 ? steps - 1 :
				1 + srch_rand(x) % (steps - 1);
			/* drawn first, as before srch_nearest, unless it is on */
			a = mf_search_nearest ? U32_MAX : srch_pick(x, k);
			/* at least 3 times in 4 a node the last step does not
			 * reach: informed earlier, it sends where the flow
			 * falls short
			 */
			unreached = srch_rand(x) & 3;
			do {
				b = srch_pick(x, steps);
			} while (unreached && last[b] == 2);
			/* half the time the node of step k nearest to b: the
			 * informed nodes move by a few links, towards where
			 * the last step falls short, and stay spread elsewhere
			 */
			if (mf_search_nearest)
				a = srch_rand(x) & 1 ? srch_nearest(x, b, k) :
					srch_pick(x, k);
			x->lvl[a] = steps;
			x->lvl[b] = k;
			/* keep steps k.. as they are, to undo the swap */
			memcpy(ls->oflow, ls->flow + k * fs, (steps - k + 1) * fs);
			memcpy(ls->ostate, ls->state + (size_t)k * x->n,
			       (size_t)(steps - k + 1) * x->n);
			memcpy(ls->ogot, ls->got, sizeof(ls->got));
			x->work += (u64)(steps - k + 1) * x->n;
			ok = true;
			for (j = k; j <= steps && ok; j++) {
				srch_ls_use(x, ls, j);
				ls->got[j] = srch_ls_swap(x, j, k, a, b,
							  j == steps, cnt[j],
							  ls->got[j]);
				ok = j == steps || ls->got[j] == cnt[j];
			}
			if (ok && (ls->got[steps] >= reach ||
				   !(srch_rand(x) % 128))) {
				reach = ls->got[steps];
				if (reach > top) {
					top = reach;
					moves = 0;
					if (cnt[steps] - top < gap)
						gap = cnt[steps] - top;
				}
				continue;
			}
			x->lvl[a] = k;
			x->lvl[b] = steps;
			memcpy(ls->flow + k * fs, ls->oflow, (steps - k + 1) * fs);
			memcpy(ls->state + (size_t)k * x->n, ls->ostate,
			       (size_t)(steps - k + 1) * x->n);
			memcpy(ls->got, ls->ogot, sizeof(ls->got));
		}
		found = reach == cnt[steps];
	}
	if (!found)
		return -ESRCH;
	/* the sends from each step's flow computed anew: the kept flows,
	 * patched swap after swap, wind (30-40% more hops on 16x16 and
	 * 4x4x4x4 meshes from a corner); a fresh flow takes shortest
	 * augmenting paths
	 */
	mf_sched_init(s, MESHFABRIC_MODEL_ALL_PORT, source);
	for (k = 1; k <= steps; k++) {
		srch_ls_use(x, ls, k);
		if (srch_level_flow(x, k, k == steps, cnt[k]) != cnt[k])
			return -EINVAL;	/* cannot happen: checked above */
		err = mf_sched_step(s);
		if (!err)
			err = srch_emit(x, s);
		if (err)
			return err;
	}
	return mf_sched_end(s);
}

/* srch_ls_run with every step's flow kept (steps + 1 of them, and a
 * swap's copies); x's own flow and states as they were after.
 */
static int srch_local(struct srch *x, u32 source, u32 steps, u64 work,
		      struct mf_sched *s)
{
	u8 *flow = x->flow, *state = x->state;
	size_t fs = (size_t)x->n * x->np;
	struct srch_ls ls = { };
	int err = -ENOMEM;

	ls.flow = mf_alloc_array(steps + 1, fs, true);
	ls.oflow = mf_alloc_array(steps + 1, fs, false);
	ls.state = mf_alloc_array(steps + 1, x->n, true);
	ls.ostate = mf_alloc_array(steps + 1, x->n, false);
	if (ls.flow && ls.oflow && ls.state && ls.ostate)
		err = srch_ls_run(x, &ls, source, steps, work, s);
	x->flow = flow;
	x->state = state;
	mf_free_all(ls.flow, ls.oflow, ls.state, ls.ostate);
	return err;
}

/* Breadth first from the roots x->q[0 .. tail) (marked, par[] U32_MAX,
 * by the caller after x->stamp++) over links busy[] leaves free, to the
 * first node ok() accepts: that node, its path from a root in
 * x->path[0 .. *hops] (par[] still leads back), or U32_MAX.
 */
static u32 srch_free_path(struct srch *x, const u8 *busy, u32 tail,
			  bool (*ok)(const void *ctx, u32 w), const void *ctx,
			  u32 *hops)
{
	u32 head = 0, u, p, l, end = U32_MAX, len;
	s32 w;

	while (head < tail && end == U32_MAX) {
		u = x->q[head++];
		for (p = 0; p < x->np && end == U32_MAX; p++) {
			l = u * x->np + p;
			w = x->nb[l];
			if (w < 0 || busy[l] || x->mark[w] == x->stamp)
				continue;
			x->mark[w] = x->stamp;
			x->par[w] = l;
			x->q[tail++] = (u32)w;
			if (ok(ctx, (u32)w))
				end = (u32)w;
		}
	}
	x->work += (u64)tail * x->np;
	if (end == U32_MAX)
		return end;
	for (u = end, len = 0; x->par[u] != U32_MAX; u = x->par[u] / x->np)
		x->path[len++] = u;
	x->path[len] = u;
	*hops = len;
	for (u = 0, p = len; u < p; u++, p--)
		swap(x->path[u], x->path[p]);
	return end;
}

/* One-port search (mf_search_oneport): recursive matching, bottom up.
 *
 * A one-port broadcast of k steps is a tree of merges: in its last step
 * the informed nodes pair off with the new ones; contract each pair and
 * the step before pairs those off, and so on up to the source.  So the
 * search builds it bottom up: at level j (step k + 1 - j) the groups
 * left are matched in pairs, each pair joined by a send between a root
 * of each (a group's roots are the two ends of the send that formed it,
 * either of which may be informed first; the source's group has the
 * source as its only root), and a group may also wait a level.  After
 * level j at most 2^(k - j) groups may be left.  The matching is greedy,
 * groups with the fewest partners first, partners with the fewest
 * partners first, ties at random; one-hop sends first, then, while too
 * many groups would be left, sends along a shortest path over links no
 * other send of the level uses (both directions reserved: a send's
 * direction is fixed only once the level above picks a root).  Sends of a
 * level use disjoint links, so every step is contention free.  The
 * directions are fixed top down from the source at the end.
 */
struct srch_grp {
	u32 ca, cb;		/* the merged groups, U32_MAX for a node */
	u32 r[2];		/* roots; r[1] U32_MAX if one */
	u32 level;
	u32 path, hops;		/* the send's path in sp[] (from r[0]) */
};

struct srch1 {
	struct srch *x;
	u32 source, steps;
	struct srch_grp *g;
	u32 ng;
	u32 *alive, na;		/* groups left */
	u32 *rootof;		/* node -> group whose root it is, or U32_MAX */
	u32 *deg, *mate;	/* per group */
	u8 *rsv;		/* links reserved this level */
	u32 *sp, nsp;		/* paths of the sends */
	u32 far;		/* srch1_far's group */
};

static bool srch1_is_root(const struct srch1 *o, u32 grp, u32 v)
{
	return o->g[grp].r[0] == v || o->g[grp].r[1] == v;
}

/* The group another root of which a neighbour of grp's root is. */
static u32 srch1_partners(struct srch1 *o, u32 grp, bool count)
{
	struct srch *x = o->x;
	u32 i, p, n = 0, h;
	s32 w;

	for (i = 0; i < 2 && o->g[grp].r[i] != U32_MAX; i++) {
		for (p = 0; p < x->np; p++) {
			w = x->nb[o->g[grp].r[i] * x->np + p];
			if (w < 0)
				continue;
			h = o->rootof[w];
			if (h == U32_MAX || h == grp || o->mate[h] != U32_MAX)
				continue;
			if (!count)
				return h;
			n++;
		}
	}
	x->work += 2 * x->np;
	return n;
}

/* Merge groups a and b by a send between ra and rb along path (hops). */
static void srch1_merge(struct srch1 *o, u32 a, u32 b, u32 ra, u32 rb,
			u32 level, const u32 *path, u32 hops)
{
	struct srch_grp *m = &o->g[o->ng];
	u32 i;

	m->ca = a;
	m->cb = b;
	m->level = level;
	m->path = o->nsp;
	m->hops = hops;
	for (i = 0; i <= hops; i++)
		o->sp[o->nsp++] = path[i];
	if (ra == o->source || rb == o->source) {
		m->r[0] = o->source;
		m->r[1] = U32_MAX;
	} else {
		m->r[0] = ra;
		m->r[1] = rb;
	}
	o->mate[a] = o->ng;
	o->mate[b] = o->ng;
	o->ng++;
}

/* A shortest path over unreserved links from a root of grp to a root of
 * another unmatched group; its group, or U32_MAX.  The path is left in
 * x->path[0 .. *hops] from grp's root.
 */
static bool srch1_ok(const void *ctx, u32 w)
{
	const struct srch1 *o = ctx;
	u32 i = o->rootof[w];

	return i != U32_MAX && i != o->far && o->mate[i] == U32_MAX &&
	       !(srch1_is_root(o, i, o->source) &&
		 srch1_is_root(o, o->far, o->source));
}

static u32 srch1_far(struct srch1 *o, u32 grp, u32 *hops)
{
	struct srch *x = o->x;
	u32 tail = 0, u, i, end;

	x->stamp++;
	for (i = 0; i < 2 && o->g[grp].r[i] != U32_MAX; i++) {
		u = o->g[grp].r[i];
		x->mark[u] = x->stamp;
		x->par[u] = U32_MAX;
		x->q[tail++] = u;
	}
	o->far = grp;
	end = srch_free_path(x, o->rsv, tail, srch1_ok, o, hops);
	return end == U32_MAX ? end : o->rootof[end];
}

/* Reserve both directions of every link of path (hops). */
static void srch1_reserve(struct srch1 *o, const u32 *path, u32 hops)
{
	struct srch *x = o->x;
	u32 i;

	for (i = 0; i < hops; i++) {
		o->rsv[path[i] * x->np + (u32)mf_topo_port(x->t, path[i], path[i + 1])] = 1;
		o->rsv[path[i + 1] * x->np + (u32)mf_topo_port(x->t, path[i + 1], path[i])] = 1;
	}
}

static int srch1_level(struct srch1 *o, u32 level)
{
	struct srch *x = o->x;
	u32 i, j, k, a, b, ra, rb, best, bd, ties, d, p, hops, left;
	u64 cap = level >= o->steps ? 1 : (u64)1 << (o->steps - level);
	s32 w;

	memset(o->rsv, 0, (size_t)x->n * x->np);
	x->work += (u64)x->n * x->np;
	for (i = 0; i < o->na; i++) {
		o->mate[o->alive[i]] = U32_MAX;
		j = srch_rand(x) % (i + 1);
		swap(o->alive[i], o->alive[j]);
	}
	for (i = 0; i < o->na; i++)
		o->deg[o->alive[i]] = srch1_partners(o, o->alive[i], true);
	/* one-hop merges: fewest partners first (a pass per degree) */
	left = o->na;
	for (d = 1; d <= 2 * x->np; d++) {
		for (i = 0; i < o->na; i++) {
			a = o->alive[i];
			if (o->mate[a] != U32_MAX || o->deg[a] != d)
				continue;
			/* the partner with the fewest partners left */
			best = U32_MAX;
			bd = U32_MAX;
			ties = 0;
			ra = U32_MAX;
			rb = U32_MAX;
			for (k = 0; k < 2 && o->g[a].r[k] != U32_MAX; k++) {
				for (p = 0; p < x->np; p++) {
					w = x->nb[o->g[a].r[k] * x->np + p];
					if (w < 0)
						continue;
					b = o->rootof[w];
					if (b == U32_MAX || b == a || o->mate[b] != U32_MAX)
						continue;
					j = srch1_partners(o, b, true);
					if (j < bd) {
						bd = j;
						ties = 1;
					} else if (j > bd || srch_rand(x) % ++ties) {
						continue;
					}
					best = b;
					ra = o->g[a].r[k];
					rb = (u32)w;
				}
			}
			if (best == U32_MAX)
				continue;
			x->path[0] = ra;
			x->path[1] = rb;
			srch1_reserve(o, x->path, 1);
			srch1_merge(o, a, best, ra, rb, level, x->path, 1);
			left--;
		}
	}
	/* multi-hop merges while too many groups would be left */
	for (i = 0; i < o->na && left > cap; i++) {
		a = o->alive[i];
		if (o->mate[a] != U32_MAX)
			continue;
		b = srch1_far(o, a, &hops);
		if (b == U32_MAX)
			continue;
		srch1_reserve(o, x->path, hops);
		srch1_merge(o, a, b, x->path[0], x->path[hops], level, x->path,
			    hops);
		left--;
	}
	if (left > cap)
		return -ESRCH;
	/* the groups left: the new ones and those that wait */
	for (i = 0, j = 0; i < o->na; i++) {
		a = o->alive[i];
		if (o->mate[a] == U32_MAX) {
			o->alive[j++] = a;
			continue;
		}
		if (o->g[o->mate[a]].ca != a)
			continue;
		o->alive[j++] = o->mate[a];
		for (k = 0; k < 2; k++) {
			if (o->g[a].r[k] != U32_MAX)
				o->rootof[o->g[a].r[k]] = U32_MAX;
			b = o->g[o->mate[a]].cb;
			if (o->g[b].r[k] != U32_MAX)
				o->rootof[o->g[b].r[k]] = U32_MAX;
		}
		for (k = 0; k < 2; k++)
			if (o->g[o->mate[a]].r[k] != U32_MAX)
				o->rootof[o->g[o->mate[a]].r[k]] = o->mate[a];
	}
	o->na = j;
	return 0;
}

/* Directions top down from the source, then the schedule, step by step. */
static int srch1_emit(struct srch1 *o, struct mf_sched *s)
{
	struct srch *x = o->x;
	u32 *stk = x->q, *root = x->pos, *cnt = x->dist, top = 0, i, j, m, st;
	u32 h, *p;
	int err = 0;

	/* x->dist: sends per step, then their first index; x->par: the
	 * sends (group ids) by step; o->deg[grp]: 1 if reversed
	 */
	for (i = 0; i <= o->steps; i++)
		cnt[i] = 0;
	stk[top] = o->alive[0];
	root[top++] = o->source;
	while (top) {
		top--;
		m = stk[top];
		if (o->g[m].ca == U32_MAX) {
			if (m != root[top])
				return -EINVAL;	/* cannot happen */
			continue;
		}
		p = o->sp + o->g[m].path;
		if (root[top] != p[0] && root[top] != p[o->g[m].hops])
			return -EINVAL;		/* cannot happen */
		o->deg[m] = root[top] != p[0];
		cnt[o->steps - o->g[m].level]++;
		stk[top] = o->g[m].ca;
		root[top++] = p[0];
		stk[top] = o->g[m].cb;
		root[top++] = p[o->g[m].hops];
	}
	for (i = 0, j = 0; i <= o->steps; i++) {
		m = cnt[i];
		cnt[i] = j;
		j += m;
	}
	for (m = x->n; m < o->ng; m++)
		x->par[cnt[o->steps - o->g[m].level]++] = m;
	for (st = 0, i = 0; st < o->steps && !err; st++) {
		err = mf_sched_step(s);
		for (; !err && i < cnt[st]; i++) {
			m = x->par[i];
			p = o->sp + o->g[m].path;
			for (h = 0; h <= o->g[m].hops; h++)
				x->path[h] = o->deg[m] ? p[o->g[m].hops - h] : p[h];
			err = mf_sched_send(s, x->path, o->g[m].hops);
		}
	}
	return err ?: mf_sched_end(s);
}

static int srch1_run(struct srch1 *o, struct mf_sched *s)
{
	struct srch *x = o->x;
	u32 v, level;
	int err;

	o->ng = x->n;
	o->na = x->n;
	o->nsp = 0;
	for (v = 0; v < x->n; v++) {
		o->g[v].ca = U32_MAX;
		o->g[v].cb = U32_MAX;
		o->g[v].r[0] = v;
		o->g[v].r[1] = U32_MAX;
		o->alive[v] = v;
		o->rootof[v] = v;
	}
	for (level = 1; level <= o->steps && o->na > 1; level++) {
		err = srch1_level(o, level);
		if (err)
			return err;
	}
	if (o->na > 1)
		return -ESRCH;
	mf_sched_init(s, MESHFABRIC_MODEL_ONE_PORT, o->source);
	return srch1_emit(o, s);
}

/* The second one-port search, step by step (top down): in each step a
 * maximum matching of the informed nodes to new neighbours (one-hop
 * sends), built from the new nodes' side, those with the fewest new
 * neighbours first (the hardest to reach later), ties at random; then,
 * while fewer than ceil(N / 2^left) nodes would be informed after the
 * step, a send from an idle informed node to the nearest new node over
 * links the step leaves free.  Sends of a step use distinct directed
 * links: contention free.
 */
static bool srch_kuhn(struct srch *x, u32 y)
{
	u32 p;
	s32 w;

	for (p = 0; p < x->np; p++) {
		w = x->nb[y * x->np + p];
		if (w < 0 || x->state[w] != 1 || x->mark[w] == x->stamp)
			continue;
		x->mark[w] = x->stamp;
		x->work += x->np;
		if (x->mate[w] == U32_MAX || srch_kuhn(x, x->mate[w])) {
			x->mate[w] = y;
			return true;
		}
	}
	return false;
}

/* Append a send from an idle informed node to the nearest new node over
 * free links: 1 if sent, 0 if there is none, or an error.
 */
static bool srch_new(const void *ctx, u32 w)
{
	const struct srch *x = ctx;

	return x->state[w] == 0;
}

static int srch_near_send(struct srch *x, struct mf_sched *s)
{
	u32 tail = 0, u, y, len;

	x->stamp++;
	for (u = 0; u < x->n; u++) {
		if (x->state[u] != 1 || x->mate[u] != U32_MAX)
			continue;
		x->mark[u] = x->stamp;
		x->par[u] = U32_MAX;
		x->q[tail++] = u;
	}
	y = srch_free_path(x, x->flow, tail, srch_new, x, &len);
	if (y == U32_MAX)
		return 0;
	x->state[y] = 2;
	for (u = y; x->par[u] != U32_MAX; u = x->par[u] / x->np)
		x->flow[x->par[u]] = 1;
	x->mate[u] = y;
	return mf_sched_send(s, x->path, len) ?: 1;
}

static int srch_step1(struct srch *x, u32 need, u32 *informed,
		      struct mf_sched *s)
{
	u32 v, k, j, p, cnt = *informed, nk[2 * MF_MAX_DIMS + 1] = { 0 };
	s32 w;
	int err;

	for (v = 0; v < x->n; v++)
		x->mate[v] = U32_MAX;
	memset(x->flow, 0, (size_t)x->n * x->np);
	x->work += (u64)x->n * x->np;
	/* new nodes at random (Fisher-Yates), then stably by their number
	 * of new neighbours (counting sort)
	 */
	for (v = 0, k = 0; v < x->n; v++) {
		if (x->state[v])
			continue;
		j = srch_rand(x) % (k + 1);
		x->order[k] = x->order[j];
		x->order[j] = v;
		k++;
	}
	for (j = 0; j < k; j++) {
		v = x->order[j];
		for (p = 0, x->prio[v] = 0; p < x->np; p++) {
			w = x->nb[v * x->np + p];
			if (w >= 0 && !x->state[w])
				x->prio[v]++;
		}
		nk[x->prio[v]]++;
	}
	for (j = 1; j <= 2 * MF_MAX_DIMS; j++)
		nk[j] += nk[j - 1];
	for (j = k; j-- > 0;)
		x->pos[--nk[x->prio[x->order[j]]]] = x->order[j];
	for (j = 0; j < k; j++) {
		x->stamp++;
		srch_kuhn(x, x->pos[j]);
	}
	err = mf_sched_step(s);
	for (v = 0; v < x->n && !err; v++) {
		if (x->state[v] != 1 || x->mate[v] == U32_MAX)
			continue;
		x->path[0] = v;
		x->path[1] = x->mate[v];
		x->state[x->mate[v]] = 2;
		x->flow[v * x->np + (u32)mf_topo_port(x->t, v, x->mate[v])] = 1;
		cnt++;
		err = mf_sched_send(s, x->path, 1);
	}
	while (!err && cnt < need) {
		err = srch_near_send(x, s);
		if (!err)
			return -ESRCH;
		if (err > 0) {
			err = 0;
			cnt++;
		}
	}
	for (v = 0; v < x->n; v++)
		if (x->state[v] == 2)
			x->state[v] = 1;
	*informed = cnt;
	return err;
}

static int srch_step_run(struct srch *x, u32 source, u32 steps,
			 struct mf_sched *s)
{
	u32 v, step, informed = 1;
	u64 need;
	int err = 0;

	memset(x->state, 0, x->n);
	x->state[source] = 1;
	mf_sched_init(s, MESHFABRIC_MODEL_ONE_PORT, source);
	for (step = 0; step < steps && informed < x->n && !err; step++) {
		/* ceil(N / 2^(steps - step - 1)) informed after this step */
		v = steps - step - 1;
		need = v >= 32 ? 1 : (x->n + ((u64)1 << v) - 1) >> v;
		err = srch_step1(x, (u32)need, &informed, s);
	}
	if (!err && informed < x->n)
		err = -ESRCH;
	return err ?: mf_sched_end(s);
}

static void srch_free(struct srch *x)
{
	mf_free_all(x->nb, x->rin, x->flow, x->state, x->dist, x->par, x->q,
		    x->mark, x->pos, x->path, x->mate, x->prio, x->order, x->lvl,
		    x->cand, x->dead, x->deg);
}

static int srch_init(struct srch *x, const struct mf_topo *t, u32 source)
{
	u32 v, p, n = t->nodes, np = t->nports;
	s64 w;

	memset(x, 0, sizeof(*x));
	if ((t->kind != MESHFABRIC_KIND_MESH && t->kind != MESHFABRIC_KIND_TORUS) ||
	    source >= n)
		return -EINVAL;
	x->t = t;
	x->n = n;
	x->np = np;
	x->nb = mf_alloc_array((size_t)n * np, sizeof(s32), false);
	x->rin = mf_alloc_array((size_t)n * np, sizeof(s32), false);
	x->flow = mf_alloc_array((size_t)n * np, 1, true);
	x->state = mf_alloc_array(n, 1, true);
	x->dist = mf_alloc_array(n, sizeof(u32), false);
	x->par = mf_alloc_array(n, sizeof(u32), false);
	x->q = mf_alloc_array(n, sizeof(u32), false);
	x->mark = mf_alloc_array(n, sizeof(u32), true);
	x->pos = mf_alloc_array(n, sizeof(u32), false);
	x->path = mf_alloc_array(n + 1, sizeof(u32), false);
	x->mate = mf_alloc_array(n, sizeof(u32), false);
	x->prio = mf_alloc_array(n, sizeof(u32), false);
	x->order = mf_alloc_array(n, sizeof(u32), false);
	x->lvl = mf_alloc_array(n, 1, false);
	x->cand = mf_alloc_array(n, sizeof(u32), false);
	x->dead = mf_alloc_array(n, sizeof(u32), true);
	x->deg = mf_alloc_array(n, 1, false);
	if (!x->lvl || !x->cand || !x->dead || !x->deg || !x->nb || !x->rin ||
	    !x->flow || !x->state || !x->dist || !x->par || !x->q || !x->mark ||
	    !x->pos || !x->path || !x->mate || !x->prio || !x->order) {
		srch_free(x);
		return -ENOMEM;
	}
	for (v = 0; v < n * np; v++)
		x->rin[v] = -1;
	for (v = 0; v < n; v++) {
		for (p = 0; p < np; p++) {
			w = mf_topo_is_link(t, v, p) ? mf_topo_neighbor(t, v, p) : -1;
			x->nb[v * np + p] = (s32)w;
			/* w's slot of the opposite port records the link in */
			if (w >= 0)
				x->rin[(u32)w * np + (p ^ 1)] = (s32)(v * np + p);
		}
		x->deg[v] = (u8)mf_topo_degree(t, v);
	}
	return 0;
}

int mf_search_allport(const struct mf_topo *t, u32 source, u32 steps,
		      u64 work, u64 local, u32 seed, struct mf_sched *s)
{
	u32 runs = t->kind == MESHFABRIC_KIND_TORUS ? SRCH_RUNS_TORUS :
		   SRCH_RUNS_MESH;
	struct srch x;
	u64 run;
	int err;

	memset(s, 0, sizeof(*s));
	err = srch_init(&x, t, source);
	if (err)
		return err;
	err = -ESRCH;
	for (run = 1; err == -ESRCH && x.work < work &&
	     run <= (u64)runs * mf_search_effort; run++) {
		x.rng = run * 0x9e3779b97f4a7c15ULL;
		err = srch_run(&x, source, steps, s);
		if (err)
			mf_sched_free(s);
	}
	if (err == -ESRCH && local && steps >= 2 && steps <= SRCH_LS_STEPS) {
		x.rng = (u64)seed * 0x9e3779b97f4a7c15ULL;
		x.work = 0;
		err = srch_local(&x, source, steps, local, s);
		if (err)
			mf_sched_free(s);
	}
	srch_free(&x);
	return err;
}

/* Step k of the levels x->lvl[]: every node of level k reached by an
 * augmenting path searched backward from it (srch_augment_to), in node
 * order (a gammoid: if the step can reach them all, any order does); the
 * sends split from the flow, appended to s as a new step.  -ESRCH if one
 * cannot be reached.
 */
static int srch_levels_step(struct srch *x, u32 k, struct mf_sched *s)
{
	u32 v;
	int err;

	for (v = 0; v < x->n; v++)
		x->state[v] = x->lvl[v] < k;
	memset(x->flow, 0, (size_t)x->n * x->np);
	x->dstamp++;
	for (v = 0; v < x->n; v++)
		if (x->lvl[v] == k && !srch_augment_to(x, v))
			return -ESRCH;
	err = mf_sched_step(s);
	return err ? err : srch_emit(x, s);
}

int mf_search_levels(const struct mf_topo *t, u32 source, u32 steps,
		     const u8 *lvl, struct mf_sched *s)
{
	struct srch x;
	u32 v, k;
	int err;

	memset(s, 0, sizeof(*s));
	if (steps < 1 || steps > 255)
		return -EINVAL;
	err = srch_init(&x, t, source);
	if (err)
		return err;
	for (v = 0; v < x.n; v++) {
		if (lvl[v] > steps || (v == source ? lvl[v] : !lvl[v])) {
			srch_free(&x);
			return -EINVAL;
		}
		x.lvl[v] = lvl[v];
	}
	mf_sched_init(s, MESHFABRIC_MODEL_ALL_PORT, source);
	for (k = 1, err = 0; k <= steps && !err; k++)
		err = srch_levels_step(&x, k, s);
	if (!err)
		err = mf_sched_end(s);
	if (err)
		mf_sched_free(s);
	srch_free(&x);
	return err;
}

u64 mf_search_tcd(const struct mf_sched *s)
{
	u64 tcd = 0;
	u32 i;

	for (i = 0; i < s->nsends; i++)
		tcd += s->send[i].hops;
	return tcd;
}

int mf_search_oneport(const struct mf_topo *t, u32 source, u32 steps,
		      u64 work, struct mf_sched *s)
{
	struct srch x;
	struct srch1 o;
	struct mf_sched r;
	u64 seed, best = U64_MAX, tcd;
	size_t nsp;
	int err;

	memset(s, 0, sizeof(*s));
	err = srch_init(&x, t, source);
	if (err)
		return err;
	memset(&o, 0, sizeof(o));
	o.x = &x;
	o.source = source;
	o.steps = steps;
	/* a level's paths are link-disjoint: at most n * np / 2 hops each */
	nsp = (size_t)t->nodes * ((size_t)steps * t->nports / 2 + 2);
	o.g = mf_alloc_array(2 * (size_t)t->nodes, sizeof(*o.g), false);
	o.alive = mf_alloc_array(t->nodes, sizeof(u32), false);
	o.rootof = mf_alloc_array(t->nodes, sizeof(u32), false);
	o.deg = mf_alloc_array(2 * (size_t)t->nodes, sizeof(u32), false);
	o.mate = mf_alloc_array(2 * (size_t)t->nodes, sizeof(u32), false);
	o.rsv = mf_alloc_array((size_t)t->nodes * t->nports, 1, false);
	o.sp = mf_alloc_array(nsp, sizeof(u32), false);
	err = -ENOMEM;
	if (!o.g || !o.alive || !o.rootof || !o.deg || !o.mate || !o.rsv || !o.sp)
		goto out;
	err = 0;
	for (seed = 1; x.work < work && best > t->nodes - 1; seed++) {
		x.rng = seed * 0x9e3779b97f4a7c15ULL;
		memset(&r, 0, sizeof(r));
		/* the two searches in turn */
		err = seed & 1 ? srch1_run(&o, &r) :
		      srch_step_run(&x, source, steps, &r);
		if (err == -ENOMEM) {
			mf_sched_free(&r);
			break;
		}
		tcd = err ? U64_MAX : mf_search_tcd(&r);
		if (tcd < best) {
			best = tcd;
			mf_sched_free(s);
			*s = r;
		} else {
			mf_sched_free(&r);
		}
		err = 0;
	}
out:
	mf_free_all(o.g, o.alive, o.rootof, o.deg, o.mate, o.rsv, o.sp);
	srch_free(&x);
	if (err)
		mf_sched_free(s);
	return err ?: best == U64_MAX ? -ESRCH : 0;
}
