/* SPDX-License-Identifier: GPL-2.0 */
/* A collective schedule: steps, each a list of sends (transfers), each
 * send a full path of node ids from its source to its destination and the
 * blocks of the message it carries, each copied or combined.
 *
 * Builders fill a schedule with mf_sched_step() (open the next step) and
 * mf_sched_send*() (append a send to the open step), then mf_sched_end().
 * Sends of step i are send[step[i]] .. send[step[i + 1] - 1].  The path of
 * a send is path[s.path] .. path[s.path + s.hops] (hops + 1 node ids,
 * first = src, last = dst).  Builders do not validate: check.c does, for
 * every schedule the project produces.
 *
 * What the schedule computes is coll (MF_COLL_*) over a message cut into
 * nblocks blocks (0 is read as 1).  A broadcast is the case every
 * broadcast builder makes with mf_sched_init(): coll MF_COLL_BCAST, one
 * block, xblk NULL: every send copies block 0, so a broadcast schedule is
 * its sends and paths alone, as it always was.  A collective builder
 * starts with mf_coll_init() and gives each send its blocks with
 * mf_sched_blocks() right after appending it: send i then carries
 * blk[xblk[i]] .. blk[xblk[i + 1] - 1], each a block id, ORed with
 * MF_BLK_COMBINE if the receiver combines it into its value (the
 * reduction op) instead of replacing its value by the sender's.
 *
 * The collectives (N nodes, root = source; block b is owned by node
 * b / (nblocks / N) where nblocks must be a multiple of N):
 *   BCAST           root holds every block; every node ends with every one
 *   REDUCE          node i holds every block as its own contribution {i};
 *                   root ends with every block holding all N contributions
 *   ALLREDUCE       as REDUCE, every node ends with every full block
 *   REDUCE_SCATTER  as REDUCE, each node ends with its own blocks full
 *   ALLGATHER       node i holds its own blocks; every node ends with all
 *   GATHER          node i holds its own blocks; root ends with all
 *   SCATTER         root holds every block; node i ends with its own
 *   ALLTOALL        nblocks = N * N * k; block b goes from node
 *                   b / (N * k) to node (b / k) % N
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

/* What a schedule computes (sched->coll). */
enum mf_coll {
	MF_COLL_BCAST,
	MF_COLL_REDUCE,
	MF_COLL_ALLREDUCE,
	MF_COLL_REDUCE_SCATTER,
	MF_COLL_ALLGATHER,
	MF_COLL_GATHER,
	MF_COLL_SCATTER,
	MF_COLL_ALLTOALL,
	MF_COLL_COUNT
};

#define MF_BLK_COMBINE	BIT(31)		/* in blk[]: combine, not copy */
#define MF_BLK_MAX	(MF_BLK_COMBINE - 1)

struct mf_sched {
	u32 model;		/* MESHFABRIC_MODEL_* */
	u32 source;		/* the broadcast's source, the root */
	u32 coll;		/* MF_COLL_* */
	u32 nblocks;		/* 0: 1 */
	u32 nsteps;
	u32 nsends;
	u32 npath;
	u32 *step;		/* nsteps + 1 entries once ended */
	struct mf_send *send;
	u32 *path;
	u32 *xblk;		/* NULL: block 0 copied; else nsends + 1 */
	u32 *blk;		/* block ids | MF_BLK_COMBINE */
	u32 nblk;		/* entries of blk */
	/* capacities, private to sched.c */
	u32 cap_step, cap_send, cap_path, cap_xblk, cap_blk;
	bool open;		/* a step is open */
};

/* A broadcast schedule (coll MF_COLL_BCAST, one block, xblk NULL). */
void mf_sched_init(struct mf_sched *s, u32 model, u32 source);
/* A collective schedule of coll on nblocks blocks (1 .. MF_BLK_MAX) from
 * or to root: every send carries the blocks mf_sched_blocks() gives it.
 * -EINVAL (bad coll or nblocks), -ENOMEM; free it with mf_sched_free
 * whatever the result.
 */
int mf_coll_init(struct mf_sched *s, u32 coll, u32 model, u32 root,
		 u32 nblocks);
/* Give the send appended last the n blocks of ids (each < nblocks),
 * combined if combine, else copied.  -EINVAL if the schedule is not a
 * mf_coll_init() one or has no send.
 */
int mf_sched_blocks(struct mf_sched *s, const u32 *ids, u32 n, bool combine);
/* Blocks of the message (nblocks, 0 read as 1). */
static inline u32 mf_sched_nblocks(const struct mf_sched *s)
{
	return s->nblocks ? s->nblocks : 1;
}

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

/* The blocks send i carries (*count entries, ids | MF_BLK_COMBINE);
 * a broadcast's (xblk NULL) is block 0, copied.
 */
static inline const u32 *mf_send_blocks(const struct mf_sched *s, u32 i,
					u32 *count)
{
	static const u32 block0;

	if (!s->xblk) {
		*count = 1;
		return &block0;
	}
	*count = s->xblk[i + 1] - s->xblk[i];
	return &s->blk[s->xblk[i]];
}

static inline const struct mf_send *mf_sched_sends(const struct mf_sched *s,
						   u32 step, u32 *count)
{
	*count = s->step[step + 1] - s->step[step];
	return &s->send[s->step[step]];
}

#endif /* MF_SCHED_H */
