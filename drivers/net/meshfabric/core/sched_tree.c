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
#include "levels.h"

static int tree_supports(const struct mf_topo *t)
{
	return 0;
}

/* v's parent in G_A: its routed next hop towards the source. */
static s64 tree_parent(const struct mf_topo *t, u32 v, const u32 *dist,
		       const void *ctx)
{
	const u32 *r = ctx;	/* [0] routing, [1] source */
	int port = mf_route_next(t, r[0], v, r[1]);

	return port < 0 ? port : mf_topo_neighbor(t, v, (u32)port);
}

static int tree_build(const struct mf_topo *t, u32 source, u32 routing,
		      struct mf_sched *s)
{
	u32 ctx[2];

	if (mf_route_valid(t, routing))
		return -EINVAL;
	ctx[0] = mf_route_resolve(t, routing);
	ctx[1] = source;
	/* a parent not one level closer: not a shortest-path routing */
	return mf_sched_levels(t, source, tree_parent, ctx, s);
}

MF_ALGO_DEFINE(tree, "tree", MESHFABRIC_ALGO_TREE,
	       MESHFABRIC_MODEL_ALL_PORT,
	       "every mesh, torus and hexagonal mesh", .routed = true);
