// SPDX-License-Identifier: GPL-2.0
/* `tree`: all-port broadcast along the communication graph
 * of a routing function (004, Jerebic & Trobec, section 2.2).
 *
 * 004: "if an intermediate point X receives a broadcast message, it sends
 * the message to all the neighbours, whose parent in the graph G_A is X",
 * where G_A without superscript is the INPUT graph of the source A: the
 * parent of a node Y is its next hop towards A (mf_route_next(Y, A)).  So
 * in step i every node at distance i - 1 from A forwards one hop to each
 * of its children; each child hangs from a different port, so this is a
 * valid all-port schedule, and as every routing here uses shortest paths
 * a node at distance i is informed in step i: steps = eccentricity of A,
 * TCD = N - 1.  Any routing valid on the topology (dor, diagonal, cdo on
 * meshes and tori, a1 on H_n) is accepted; it is the `routing` argument.
 *
 * Departure from our brief, not from 004: the output graph G_A^(o) (the
 * union of the routed paths A -> Z) is not a tree for the diagonal
 * routing (on T_5^2 the node (1, 1) is reached from 0 through (1, 0) on
 * the way to itself and through (0, 1) on the way to (1, 2)), so the
 * broadcast uses the input graph, which is a tree for every routing that
 * decides from (cur, dst).  On tori and H_n, where routing is homogeneous,
 * G_A is the translation of G_0.
 */
#include "algo.h"
#include "route.h"

static int tree_supports(const struct mf_topo *t)
{
	return 0;
}

static int tree_build(const struct mf_topo *t, u32 source, u32 routing,
		      struct mf_sched *s)
{
	u32 diam = mf_topo_diameter(t), *order, *cnt, v, i, level, dist;
	u32 path[2];
	int port, err;
	s64 par;

	if (mf_route_valid(t, routing))
		return -EINVAL;
	routing = mf_route_resolve(t, routing);
	order = mf_alloc_array(t->nodes, sizeof(u32), false);
	cnt = mf_alloc_array((size_t)diam + 2, sizeof(u32), true);
	err = -ENOMEM;
	if (!order || !cnt)
		goto out;
	err = mf_sched_reserve(s, t->nodes - 1, 2 * (t->nodes - 1));
	if (err)
		goto out;
	/* bucket the nodes by distance to the source, in id order */
	err = -EINVAL;
	for (v = 0; v < t->nodes; v++) {
		dist = mf_topo_distance(t, v, source);
		if (dist > diam)
			goto out;
		cnt[dist + 1]++;
	}
	for (i = 1; i <= diam + 1; i++)
		cnt[i] += cnt[i - 1];
	for (v = 0; v < t->nodes; v++)
		order[cnt[mf_topo_distance(t, v, source)]++] = v;
	/* now cnt[i] = end of level i; order[0] = source */
	level = 0;
	for (i = 1; i < t->nodes; i++) {
		v = order[i];
		dist = mf_topo_distance(t, v, source);
		if (dist != level) {
			err = mf_sched_step(s);
			if (err)
				goto out;
			level = dist;
		}
		port = mf_route_next(t, routing, v, source);
		err = -EINVAL;
		if (port < 0)
			goto out;
		par = mf_topo_neighbor(t, v, (u32)port);
		if (par < 0 || mf_topo_distance(t, (u32)par, source) + 1 != dist)
			goto out;	/* not a shortest-path routing */
		path[0] = (u32)par;
		path[1] = v;
		err = mf_sched_send(s, path, 1);
		if (err)
			goto out;
	}
	err = mf_sched_end(s);
out:
	mf_free(order);
	mf_free(cnt);
	return err;
}

const struct mf_algo mf_algo_tree = {
	.name = "tree",
	.id = MESHFABRIC_ALGO_TREE,
	.model = MESHFABRIC_MODEL_ALL_PORT,
	.routed = true,
	.covers = "every mesh, torus and hexagonal mesh",
	.supports = tree_supports,
	.build = tree_build,
};
