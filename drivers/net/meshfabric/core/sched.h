/* SPDX-License-Identifier: GPL-2.0 */
/* A broadcast schedule: steps, each a list of sends, each send a
 * full path of node ids from its source to its destination.
 *
 * Builders fill a schedule with mf_sched_step() (open the next step) and
 * mf_sched_send*() (append a send to the open step), then mf_sched_end().
 * Sends of step i are send[step[i]] .. send[step[i + 1] - 1].  The path of
 * a send is path[s.path] .. path[s.path + s.hops] (hops + 1 node ids,
 * first = src, last = dst).  Builders do not validate: check.c does, for
 * every schedule the project produces.
 */
#ifndef MF_SCHED_H
#define MF_SCHED_H

#include "topo.h"

struct mf_send {
	u32 src;
	u32 dst;
	u32 path;		/* index of src in sched->path */
	u32 hops;		/* path length in links */
};

struct mf_sched {
	u32 model;		/* MESHFABRIC_MODEL_* */
	u32 source;
	u32 nsteps;
	u32 nsends;
	u32 npath;
	u32 *step;		/* nsteps + 1 entries once ended */
	struct mf_send *send;
	u32 *path;
	/* capacities, private to sched.c */
	u32 cap_step, cap_send, cap_path;
	bool open;		/* a step is open */
};

void mf_sched_init(struct mf_sched *s, u32 model, u32 source);
/* Pre-size for about nsends sends and npath path entries (optional). */
int mf_sched_reserve(struct mf_sched *s, u32 nsends, u32 npath);
/* Open the next step (closes the open one, possibly leaving it empty). */
int mf_sched_step(struct mf_sched *s);
/* Append a send whose path (hops + 1 node ids) is given. */
int mf_sched_send(struct mf_sched *s, const u32 *path, u32 hops);
/* Append a send from src to dst along a dimension-ordered path: the
 * dimensions are corrected in the order given by order[0..ndims-1]
 * (NULL: 0, 1, 2, ...), each along its shortest way (mf_topo_delta).
 * Mesh/torus only.
 */
int mf_sched_send_dor(struct mf_sched *s, const struct mf_topo *t,
		      u32 src, u32 dst, const u8 *order);
/* Append a send whose path follows routing algorithm routing
 * (MESHFABRIC_ROUTE_*) from src to dst (route.h).
 */
int mf_sched_send_route(struct mf_sched *s, const struct mf_topo *t,
			u32 routing, u32 src, u32 dst);
/* Close the schedule: step[nsteps] = nsends.  Drops a trailing empty step. */
int mf_sched_end(struct mf_sched *s);
void mf_sched_free(struct mf_sched *s);
/* Bytes s holds (its arrays' capacities), for memory accounting. */
size_t mf_sched_bytes(const struct mf_sched *s);

/* The cost-table builders' (mintcd, split) distance transform, in place:
 * v[r] = min over q of v[q] + dist(r, q) over a box of d dimensions of
 * sides len[] (entries in mixed radix, dimension 0 fastest), dimension j
 * a ring (a whole torus dimension) if bit j of rings is set, else a path.
 */
void mf_dist_transform(u32 *v, u32 d, const u32 *len, u32 rings);

static inline const struct mf_send *mf_sched_sends(const struct mf_sched *s,
						   u32 step, u32 *count)
{
	*count = s->step[step + 1] - s->step[step];
	return &s->send[s->step[step]];
}

#endif /* MF_SCHED_H */
