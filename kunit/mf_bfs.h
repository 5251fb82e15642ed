/* SPDX-License-Identifier: GPL-2.0 */
/* The tests' reference distances: breadth-first search over
 * mf_topo_neighbor() only, independent of mf_topo_distance(), routing and
 * every schedule builder.  One copy for the KUnit suites (kunit/, in
 * the kernel) and the host unit tests (userspace/tests/): plain C over
 * mf_compat.h, as the core.
 */
#ifndef MF_BFS_H
#define MF_BFS_H

#include "topo.h"

/* As mf_bfs_q over the links skip(ctx, t, u, p, v) leaves (NULL: all),
 * where v is the neighbour of u at port p; returns the number of nodes
 * reached.
 */
static inline u32 mf_bfs_skip(const struct mf_topo *t, u32 a, u32 *dist,
			      u32 *q,
			      bool (*skip)(const void *ctx,
					   const struct mf_topo *t,
					   u32 u, u32 p, u32 v),
			      const void *ctx)
{
	u32 h = 0, tl = 0, p, i;

	for (i = 0; i < t->nodes; i++)
		dist[i] = U32_MAX;
	dist[a] = 0;
	q[tl++] = a;
	while (h < tl) {
		u32 u = q[h++];

		for (p = 0; p < t->nports; p++) {
			s64 v = mf_topo_neighbor(t, u, p);

			if (v >= 0 && dist[v] == U32_MAX &&
			    !(skip && skip(ctx, t, u, p, (u32)v))) {
				dist[v] = dist[u] + 1;
				q[tl++] = (u32)v;
			}
		}
	}
	return tl;
}

/* dist[v] = hops from a to v (U32_MAX if unreachable); q: t->nodes u32s. */
static inline void mf_bfs_q(const struct mf_topo *t, u32 a, u32 *dist, u32 *q)
{
	mf_bfs_skip(t, a, dist, q, NULL, NULL);
}

/* mf_bfs_q with its own queue; -ENOMEM if that cannot be allocated. */
static inline int mf_bfs(const struct mf_topo *t, u32 a, u32 *dist)
{
	u32 *q = mf_alloc_array(t->nodes, sizeof(u32), false);

	if (!q)
		return -ENOMEM;
	mf_bfs_q(t, a, dist, q);
	mf_free(q);
	return 0;
}

/* m[a * stride + b] = hops from a to b for every pair (stride >= nodes);
 * -ENOMEM if the queue cannot be allocated.
 */
static inline int mf_bfs_all(const struct mf_topo *t, u32 *m, u32 stride)
{
	u32 *q = mf_alloc_array(t->nodes, sizeof(u32), false);
	u32 a;

	if (!q)
		return -ENOMEM;
	for (a = 0; a < t->nodes; a++)
		mf_bfs_q(t, a, m + (size_t)a * stride, q);
	mf_free(q);
	return 0;
}

#endif /* MF_BFS_H */
