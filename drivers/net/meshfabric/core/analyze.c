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
