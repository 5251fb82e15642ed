// SPDX-License-Identifier: GPL-2.0
/* One-hop broadcasts by breadth-first level (contract in levels.h). */
#include "levels.h"

int mf_sched_levels(const struct mf_topo *t, u32 source, mf_parent_fn parent,
		    const void *ctx, struct mf_sched *s)
{
	u32 *dist, *queue, head = 0, tail = 0, u, v, p, level = 0;
	u32 path[2];
	s64 w;
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
		w = parent(t, v, dist, ctx);
		err = -EINVAL;
		if (w < 0 || w >= t->nodes || dist[w] + 1 != dist[v] ||
		    mf_topo_port(t, (u32)w, v) < 0)
			goto out;	/* not one hop closer to the source */
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
