// SPDX-License-Identifier: GPL-2.0
/* `flood`: all-port breadth-first broadcast on any
 * topology.
 *
 * In step i every node informed in step i - 1 sends one hop to each of
 * its uninformed neighbours.  A node with several informed neighbours is
 * informed once, by the one behind its own lowest port that leads one
 * hop closer to the source.  Steps = eccentricity of the source (the
 * least possible for any broadcast), TCD = N - 1.  Sends of one step are
 * listed in breadth-first order (the order neighbours are discovered,
 * ports ascending).
 */
#include "algo.h"
#include "levels.h"

static int flood_supports(const struct mf_topo *t)
{
	return 0;
}

/* The neighbour behind v's lowest port that is one hop closer. */
static s64 flood_parent(const struct mf_topo *t, u32 v, const u32 *dist,
			const void *ctx)
{
	u32 p;
	s64 w;

	for (p = 0; p < t->nports; p++) {
		w = mf_topo_neighbor(t, v, p);
		if (w >= 0 && dist[w] + 1 == dist[v])
			return w;
	}
	return -EINVAL;
}

static int flood_build(const struct mf_topo *t, u32 source, u32 routing,
		       struct mf_sched *s)
{
	return mf_sched_levels(t, source, flood_parent, NULL, s);
}

MF_ALGO_DEFINE(flood, "flood", MESHFABRIC_ALGO_FLOOD,
	       MESHFABRIC_MODEL_ALL_PORT,
	       "every mesh, torus and hexagonal mesh");
