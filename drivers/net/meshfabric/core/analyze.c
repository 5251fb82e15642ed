// SPDX-License-Identifier: GPL-2.0
/* The balance measure Delta(R) of 004 (Definition 1) of a
 * routing function, contract in route.h.
 *
 * G_X is the input communication graph of X: every node's routed path to
 * X; its subtrees S_p hang from X's ports.  Delta(R) is the largest
 * difference |S_i| - |S_j| over all points X and port pairs (i, j).
 *
 *  - Torus and H_n: every routing here is homogeneous, so all G_X are
 *    congruent and G_0 alone gives Delta (004 section 2.1).  O(N d):
 *    nodes are bucketed by distance to X, then each node inherits the
 *    subtree of its parent (its next hop), which is one closer to X.
 *  - Mesh (an extension; 004 treats tori only): no homogeneity, so every
 *    X is analysed (O(N^2 d)), at most MF_DELTA_MESH_MAX nodes (-E2BIG
 *    above).  Only ports that lead somewhere count.
 *
 * Ports that count: those with a neighbour, and in a size-2 torus
 * dimension (one link, two port numbers) only the + port that names the
 * link.  size[p] is the size of S_p of node 0 (0 for ports that do not
 * count).  -EINVAL if the routing is not valid on t or is not a shortest-
 * path routing.
 */
#include "route.h"

#define MF_DELTA_MESH_MAX	4096

struct delta_work {
	u32 *order;	/* nodes sorted by distance to X */
	u32 *cnt;	/* diameter + 2 bucket counters */
	u8 *top;	/* port of X whose subtree holds the node */
};

/* Sizes of the subtrees of G_x; size has t->nports entries. */
static int subtrees(const struct mf_topo *t, u32 routing, u32 x,
		    struct delta_work *w, u64 *size)
{
	u32 diam = mf_topo_diameter(t), v, i, dist;
	int port, xp;
	s64 par;

	memset(size, 0, t->nports * sizeof(*size));
	memset(w->cnt, 0, ((size_t)diam + 2) * sizeof(u32));
	for (v = 0; v < t->nodes; v++) {
		dist = mf_topo_distance(t, v, x);
		if (dist > diam)
			return -EINVAL;
		w->cnt[dist + 1]++;
	}
	for (i = 1; i <= diam + 1; i++)
		w->cnt[i] += w->cnt[i - 1];
	for (v = 0; v < t->nodes; v++)
		w->order[w->cnt[mf_topo_distance(t, v, x)]++] = v;
	/* order[0] == x; parents precede their children */
	for (i = 1; i < t->nodes; i++) {
		v = w->order[i];
		port = mf_route_next(t, routing, v, x);
		if (port < 0)
			return -EINVAL;
		par = mf_topo_neighbor(t, v, (u32)port);
		if (par < 0 || mf_topo_distance(t, (u32)par, x) + 1 !=
		    mf_topo_distance(t, v, x))
			return -EINVAL;	/* not a shortest-path routing */
		if ((u32)par == x) {
			xp = mf_topo_port(t, x, v);
			if (xp < 0)
				return -EINVAL;
			w->top[v] = (u8)xp;
		} else {
			w->top[v] = w->top[par];
		}
		size[w->top[v]]++;
	}
	return 0;
}

/* max - min of the sizes over the ports of x that count */
static u64 spread(const struct mf_topo *t, u32 x, const u64 *size)
{
	u64 lo = U64_MAX, hi = 0;
	u32 p;

	for (p = 0; p < t->nports; p++) {
		if (!mf_topo_is_link(t, x, p))
			continue;
		if (size[p] < lo)
			lo = size[p];
		if (size[p] > hi)
			hi = size[p];
	}
	return hi >= lo ? hi - lo : 0;
}

int mf_route_delta(const struct mf_topo *t, u32 routing, u64 *delta,
		   u64 *size)
{
	struct delta_work w = { NULL, NULL, NULL };
	u64 tmp[2 * MF_MAX_DIMS > MF_HEX_PORTS ? 2 * MF_MAX_DIMS : MF_HEX_PORTS];
	u64 best = 0, sp;
	u32 x, last;
	int err;

	if (mf_route_valid(t, routing))
		return -EINVAL;
	routing = mf_route_resolve(t, routing);
	last = 0;
	if (t->kind == MESHFABRIC_KIND_MESH) {
		if (t->nodes > MF_DELTA_MESH_MAX)
			return -E2BIG;
		last = t->nodes - 1;
	}
	w.order = mf_alloc_array(t->nodes, sizeof(u32), false);
	w.top = mf_alloc_array(t->nodes, sizeof(u8), false);
	w.cnt = mf_alloc_array((size_t)mf_topo_diameter(t) + 2, sizeof(u32), false);
	err = -ENOMEM;
	if (!w.order || !w.top || !w.cnt)
		goto out;
	for (x = 0; x <= last; x++) {
		err = subtrees(t, routing, x, &w, x ? tmp : size);
		if (err)
			goto out;
		sp = spread(t, x, x ? tmp : size);
		if (sp > best)
			best = sp;
	}
	*delta = best;
	err = 0;
out:
	mf_free_all(w.order, w.top, w.cnt);
	return err;
}

/* Vertex and edge connectivity by unit-capacity max-flow (contract in
 * route.h).  The flow network has two vertices per node, in = 2v and
 * out = 2v + 1, an arc in -> out of capacity 1 (the node) and, per link
 * u -> w, an arc out(u) -> in(w) of capacity 1; each arc has a reverse
 * arc of capacity 0.  For edge connectivity the node arcs get capacity
 * CONN_INF, so only links limit the flow.  The flow from out(s) to in(t)
 * is then the number of node-disjoint (edge-disjoint) s-t paths
 * (Menger), at most nports, so each pair costs at most nports + 1 BFS.
 */
#define MF_CONN_MAX	4096
#define CONN_INF	255

struct conn_net {
	u32 nv, na;
	u32 *head, *next, *to, *prev, *queue;
	u8 *cap, *cap0;
};

static void conn_arc(struct conn_net *g, u32 a, u32 b, u8 cap)
{
	u32 i;

	for (i = 0; i < 2; i++) {
		g->to[g->na] = i ? a : b;
		g->cap0[g->na] = i ? 0 : cap;
		g->next[g->na] = g->head[i ? b : a];
		g->head[i ? b : a] = g->na;
		g->na++;
	}
}

/* The max flow from out(s) to in(t), stopping at limit. */
static u32 conn_flow(struct conn_net *g, u32 s, u32 t, u32 limit)
{
	u32 flow = 0, qh, qt, v, a, src = 2 * s + 1, dst = 2 * t;

	memcpy(g->cap, g->cap0, g->na);
	while (flow < limit) {
		for (v = 0; v < g->nv; v++)
			g->prev[v] = U32_MAX;
		g->prev[src] = g->na;
		g->queue[0] = src;
		for (qh = 0, qt = 1; qh < qt && g->prev[dst] == U32_MAX; qh++) {
			v = g->queue[qh];
			for (a = g->head[v]; a != U32_MAX; a = g->next[a]) {
				if (!g->cap[a] || g->prev[g->to[a]] != U32_MAX)
					continue;
				g->prev[g->to[a]] = a;
				g->queue[qt++] = g->to[a];
			}
		}
		if (g->prev[dst] == U32_MAX)
			break;
		for (v = dst; v != src; v = g->to[a ^ 1]) {
			a = g->prev[v];
			g->cap[a]--;
			g->cap[a ^ 1]++;
		}
		flow++;
	}
	return flow;
}

static int conn_build(const struct mf_topo *t, bool edges,
		      struct conn_net *g)
{
	u32 v, port, arcs = 2 * t->nodes * (1 + t->nports);
	s64 w;

	memset(g, 0, sizeof(*g));
	g->nv = 2 * t->nodes;
	g->head = mf_alloc_array(g->nv, sizeof(u32), false);
	g->prev = mf_alloc_array(g->nv, sizeof(u32), false);
	g->queue = mf_alloc_array(g->nv, sizeof(u32), false);
	g->next = mf_alloc_array(arcs, sizeof(u32), false);
	g->to = mf_alloc_array(arcs, sizeof(u32), false);
	g->cap = mf_alloc_array(arcs, 1, false);
	g->cap0 = mf_alloc_array(arcs, 1, false);
	if (!g->head || !g->prev || !g->queue || !g->next || !g->to ||
	    !g->cap || !g->cap0)
		return -ENOMEM;
	for (v = 0; v < g->nv; v++)
		g->head[v] = U32_MAX;
	for (v = 0; v < t->nodes; v++)
		conn_arc(g, 2 * v, 2 * v + 1, edges ? CONN_INF : 1);
	for (v = 0; v < t->nodes; v++) {
		for (port = 0; port < t->nports; port++) {
			if (!mf_topo_is_link(t, v, port))
				continue;
			w = mf_topo_neighbor(t, v, port);
			if (w >= 0 && (u32)w != v)
				conn_arc(g, 2 * v + 1, 2 * (u32)w, 1);
		}
	}
	return 0;
}

static void conn_free(struct conn_net *g)
{
	mf_free_all(g->head, g->prev, g->queue, g->next, g->to, g->cap,
		    g->cap0);
}

static bool conn_adjacent(const struct mf_topo *t, u32 a, u32 b)
{
	u32 port;

	for (port = 0; port < t->nports; port++)
		if (mf_topo_is_link(t, a, port) &&
		    mf_topo_neighbor(t, a, port) == (s64)b)
			return true;
	return false;
}

int mf_topo_connectivity(const struct mf_topo *t, u32 *vertex, u32 *edge)
{
	struct conn_net g;
	u32 i, j, best, f;
	int err;

	if (t->nodes > MF_CONN_MAX)
		return -E2BIG;
	if (t->nodes < 2) {
		*vertex = *edge = 0;
		return 0;
	}
	/* edge connectivity: lambda(v_0, v) over every v (any cut separates
	 * v_0 from some v)
	 */
	err = conn_build(t, true, &g);
	best = U32_MAX;
	for (j = 1; !err && j < t->nodes; j++) {
		f = conn_flow(&g, 0, j, best);
		best = f < best ? f : best;
	}
	conn_free(&g);
	if (err)
		return err;
	*edge = best;
	/* vertex connectivity (Even): a least separator S misses one of
	 * v_0 .. v_|S|; the first node v_i not in S and some node after it
	 * lie on two sides of S, and are not adjacent.  Complete graphs:
	 * nodes - 1.
	 */
	err = conn_build(t, false, &g);
	best = t->nodes - 1;
	for (i = 0; !err && i <= best && i < t->nodes; i++) {
		for (j = i + 1; j < t->nodes; j++) {
			if (conn_adjacent(t, i, j))
				continue;
			/* from out(i) to in(j): their own node arcs are
			 * not on any path
			 */
			f = conn_flow(&g, i, j, best);
			best = f < best ? f : best;
		}
	}
	conn_free(&g);
	if (err)
		return err;
	*vertex = best;
	return 0;
}
