/* SPDX-License-Identifier: GPL-2.0 */
/* One-hop broadcasts by breadth-first level: the shared body of `flood`
 * and `tree`.  In step i every node at distance i from the source
 * receives from its parent, a neighbour one level closer that the caller
 * names; the sends of a step are in breadth-first order (ports
 * ascending).  Steps = eccentricity of the source, TCD = N - 1.
 */
#ifndef MF_LEVELS_H
#define MF_LEVELS_H

#include "sched.h"

/* The parent of v (dist: every node's distance from the source), or < 0. */
typedef s64 (*mf_parent_fn)(const struct mf_topo *t, u32 v, const u32 *dist,
			    const void *ctx);

/* Fill and end s; -EINVAL if a parent is not a neighbour one level closer. */
int mf_sched_levels(const struct mf_topo *t, u32 source, mf_parent_fn parent,
		    const void *ctx, struct mf_sched *s);

#endif /* MF_LEVELS_H */
