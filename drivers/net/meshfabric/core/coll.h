/* SPDX-License-Identifier: GPL-2.0 */
/* Collectives beyond broadcast: the operations, the reduction ops and
 * types with their reference combine function, the algorithms that build
 * collective schedules (sched.h's format, checked by check.h's checker),
 * and their lower bounds.  docs/collectives.md has the figures.
 *
 * Blocks: a message of count elements is cut into nblocks blocks, block b
 * covering elements [b * count / nblocks, (b + 1) * count / nblocks).
 * The message of every collective is the whole result vector of M bytes:
 * allreduce, reduce and broadcast carry M per node, reduce-scatter,
 * allgather, gather and scatter M / N per node's share, alltoall M / N
 * from each node to each.
 *
 * Ranks are node ids.  Algorithms that pair ranks by powers of two
 * (recursive doubling, Rabenseifner) handle N off 2^k by folding: with
 * P = 2^floor(log2 N), rank P + i first combines its vector into rank i,
 * the P lower ranks run the algorithm, and rank i copies the result back
 * to rank P + i: two more steps.  Swing needs every torus side a power of
 * two and refuses other shapes.
 */
#ifndef MF_COLL_H
#define MF_COLL_H

#include "sched.h"
#include "check.h"
#include "timing.h"

/* The reduction ops and element types (integers only: the kernel does
 * no floating point).
 */
enum mf_rop { MF_ROP_SUM, MF_ROP_MIN, MF_ROP_MAX, MF_ROP_BAND, MF_ROP_BOR,
	      MF_ROP_BXOR, MF_ROP_COUNT };
enum mf_rtype { MF_RTYPE_S32, MF_RTYPE_U32, MF_RTYPE_S64, MF_RTYPE_U64,
		MF_RTYPE_COUNT };

const char *mf_coll_name(u32 coll);
int mf_coll_by_name(const char *name);		/* MF_COLL_*, or -EINVAL */
const char *mf_rop_name(u32 op);
int mf_rop_by_name(const char *name);		/* MF_ROP_*, or -EINVAL */
const char *mf_rtype_name(u32 type);
/* MF_RTYPE_*, -EOPNOTSUPP for a floating-point type (f32, f64, float,
 * double, ...), -EINVAL for an unknown one.
 */
int mf_rtype_by_name(const char *name);
u32 mf_rtype_size(u32 type);			/* bytes of an element */

/* The reference combine: dst[i] = dst[i] op src[i] for n elements of
 * type (sum wraps modulo 2^bits, as the CPU's).  -EINVAL bad op or type.
 */
int mf_rop_combine(u32 op, u32 type, void *dst, const void *src, u32 n);

/* Run s (a schedule the checker accepted) on data: node v's buffer is
 * buf[v * count .. (v + 1) * count - 1] elements of type, holding its
 * input (for copy collectives, only its own blocks matter) and, on
 * return, its result (what sched.h says it ends with; other blocks are
 * scratch).  Each step reads the values as the step began.  0, -EINVAL,
 * -ENOMEM.
 */
int mf_coll_run(const struct mf_topo *t, const struct mf_sched *s, u32 op,
		u32 type, u32 count, void *buf);

/* The algorithms. */
enum mf_calgo {
	MF_CALGO_AUTO,
	MF_CALGO_TREE,		/* reversed broadcast and broadcast */
	MF_CALGO_RING,		/* ring over a snake order */
	MF_CALGO_RECDBL,	/* recursive doubling */
	MF_CALGO_RABENSEIFNER,	/* recursive halving + doubling */
	MF_CALGO_BUCKET,	/* ring per dimension */
	MF_CALGO_SWING,		/* Swing, bandwidth-optimal */
	MF_CALGO_SWING_LAT,	/* Swing, whole vector each step */
	MF_CALGO_SHIFT,		/* alltoall: step k sends to rank + k */
	MF_CALGO_003,		/* 003's global sum as printed */
	MF_CALGO_COUNT
};

const char *mf_calgo_name(u32 algo);
int mf_calgo_by_name(const char *name);		/* MF_CALGO_*, or -EINVAL */
/* What algo covers, in words (for errors and --help). */
const char *mf_calgo_covers(u32 algo);

/* What to plan. */
struct mf_coll_req {
	u32 coll;		/* MF_COLL_* */
	u32 algo;		/* MF_CALGO_* */
	u32 root;		/* rooted collectives; 003: ignored (centre) */
	/* tree: the broadcast algorithms (MESHFABRIC_ALGO_*, AUTO allowed)
	 * whose reversal reduces and which broadcasts; model for auto (0:
	 * either)
	 */
	u32 bcast;
	u32 model;
	u64 bytes;		/* M, the message (for auto and timing) */
	u32 esize;		/* element bytes (block sizes) */
	/* auto ranks by the fabric time on these links (bytes is the frame
	 * header; NULL: unlimited links, steps then blocks)
	 */
	const struct mf_timing *tm;
};

/* What mf_coll_plan returns besides the schedule. */
struct mf_coll_result {
	u32 algo;		/* the algorithm that ran (auto's choice) */
	struct mf_stats st;	/* the checker's */
	u64 node_bytes;		/* most payload bytes one node sends */
	char why[128];		/* -EPROTO, -EOPNOTSUPP: why */
};

/* Build and check the schedule rq asks for into s (need not be
 * initialised; free with mf_sched_free whatever the result).
 * -EOPNOTSUPP if the algorithm does not cover t or the collective (why
 * says so), -EPROTO if the checker refused it (a builder bug: why), -EINVAL,
 * -ENOMEM, -E2BIG.
 */
int mf_coll_plan(const struct mf_topo *t, const struct mf_coll_req *rq,
		 struct mf_sched *s, struct mf_coll_result *res);

/* Bytes of each block of s for a message of bytes in elements of esize
 * (out: nblocks entries).
 */
void mf_coll_block_bytes(const struct mf_sched *s, u64 bytes, u32 esize,
			 u64 *out);

/* The counting lower bound on all-port broadcast steps from source: in a
 * step every informed node starts at most one send per link, so informed
 * grows by at most the sum of the informed nodes' degrees (the source's
 * own, and the largest degrees of the rest).  U32_MAX if nothing can be
 * informed (a fabric of several nodes without links).
 */
u32 mf_allport_bound(const struct mf_topo *t, u32 source);

/* The lower bounds of a collective of bytes on t (docs/collectives.md). */
struct mf_coll_bounds {
	u32 steps;		/* one-port: ceil(log2 N); all-port: counting */
	u32 distance;		/* hops: diameter, or the root's eccentricity */
	u64 node_bytes;		/* bytes some node must send or receive */
};

void mf_coll_bounds(const struct mf_topo *t, u32 coll, u32 model, u32 root,
		    u64 bytes, struct mf_coll_bounds *b);

#endif /* MF_COLL_H */
