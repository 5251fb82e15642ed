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

static int flood_supports(const struct mf_topo *t)
{
	return 0;
}

static int flood_build(const struct mf_topo *t, u32 source, u32 routing,
		       struct mf_sched *s)
{
	u32 *dist, *queue, head = 0, tail = 0, u, v, p, level = 0;
	u32 path[2];
	s64 w = -1;
	int err;

	dist = mf_alloc_array(t->nodes, sizeof(u32), false);
	queue = mf_alloc_array(t->nodes, sizeof(u32), false);
	err = -ENOMEM;
	if (!dist || !queue)
		goto out;
	err = mf_sched_reserve(s, t->nodes - 1, 2 * (t->nodes - 1));
	if (err)
		goto out;
	for (v = 0; v < t->nodes; v++)
		dist[v] = U32_MAX;
	dist[source] = 0;
	queue[tail++] = source;
	while (head < tail) {
		u = queue[head++];
		for (p = 0; p < t->nports; p++) {
			w = mf_topo_neighbor(t, u, p);
			if (w >= 0 && dist[w] == U32_MAX) {
				dist[w] = dist[u] + 1;
				queue[tail++] = (u32)w;
			}
		}
	}
	err = -EINVAL;
	if (tail != t->nodes)
		goto out;	/* not connected: cannot happen */
	for (head = 1; head < tail; head++) {
		v = queue[head];
		if (dist[v] != level) {
			err = mf_sched_step(s);
			if (err)
				goto out;
			level = dist[v];
		}
		for (p = 0; p < t->nports; p++) {
			w = mf_topo_neighbor(t, v, p);
			if (w >= 0 && dist[w] + 1 == dist[v])
				break;
		}
		err = -EINVAL;
		if (p == t->nports)
			goto out;
		path[0] = (u32)w;
		path[1] = v;
		err = mf_sched_send(s, path, 1);
		if (err)
			goto out;
	}
	err = mf_sched_end(s);
out:
	mf_free(dist);
	mf_free(queue);
	return err;
}

const struct mf_algo mf_algo_flood = {
	.name = "flood",
	.id = MESHFABRIC_ALGO_FLOOD,
	.model = MESHFABRIC_MODEL_ALL_PORT,
	.covers = "every mesh, torus and hexagonal mesh",
	.supports = flood_supports,
	.build = flood_build,
};
