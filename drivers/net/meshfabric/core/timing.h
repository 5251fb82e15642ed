/* SPDX-License-Identifier: GPL-2.0 */
/* The link model and a broadcast schedule in fabric time.
 *
 * Every directed link has a rate (bits/s, 0 = unlimited) and a delay (ns).
 * A frame of B bytes (Ethernet header included) takes
 * ser = ceil(B * 8 * 10^9 / rate) ns to serialise.  On each link l of its
 * path, in the order frames reach the link (FIFO; ties in schedule order):
 *   start = max(ready, free[l]); free[l] = start + ser;
 *   store-and-forward: ready at the next node = start + ser + delay;
 *   cut-through:       ready (the head) at the next node = start + delay;
 * and the frame has arrived at start + ser + delay of its last link (in
 * both modes).  One frame on h idle links takes h * (ser + delay)
 * (store-and-forward) or h * delay + ser (cut-through, equal rates).
 *
 * A broadcast runs its schedule on these links:
 *  - synchronous (the papers' model): step i + 1 starts when every send
 *    of step i has arrived;
 *  - asynchronous: a send leaves as soon as its source holds the message
 *    and the source's sends of its earlier steps have left (their first
 *    link finished serialising them).
 * A collective (sched.h: a schedule whose sends carry blocks) runs
 * synchronous only; each send is one frame of bytes plus the payload of
 * the blocks it carries (blk_bytes[]), and a node's arrival is its last
 * receive.
 * mf_sched_time() computes every arrival by a discrete-event simulation
 * (a heap of frames by the time they reach their next link), O(TCD log
 * sends).  The kernel runs the same function for BCAST, so `meshfabric
 * plan` predicts the kernel's figure exactly on an idle fabric.
 */
#ifndef MF_TIMING_H
#define MF_TIMING_H

#include "sched.h"

struct mf_link_model {
	u64 rate;		/* bits/s; 0: unlimited */
	u64 delay_ns;
};

/* Per-link parameters: get(ctx, link, out).  NULL get: every link is
 * *(const struct mf_link_model *)ctx.
 */
typedef void (*mf_link_model_fn)(const void *ctx, u64 link,
				 struct mf_link_model *out);

struct mf_timing {
	u32 switching;		/* MESHFABRIC_SWITCH_* */
	bool async;		/* asynchronous steps */
	u64 bytes;		/* frame bytes, Ethernet header included */
	mf_link_model_fn get;
	const void *ctx;
	/* NULL: every frame is bytes long; else a send's frame is bytes
	 * plus blk_bytes[b] for each block b it carries (sched->nblocks
	 * entries)
	 */
	const u64 *blk_bytes;
};

/* What a broadcast took, in ns from its start. */
struct mf_timeline {
	u64 total_ns;		/* the last arrival */
	u64 *step_ns;		/* nsteps: the last arrival of each step's sends */
	u64 *arrive;		/* nodes: when each node got the message
				 * (the source 0; U64_MAX: never), a
				 * collective's last receive (0: none)
				 */
};

/* Serialisation time of bytes at rate bits/s (0 for rate 0). */
static inline u64 mf_ser_ns(u64 bytes, u64 rate)
{
	/* bytes < 2^31 (frames, BCAST payloads): bytes * 8e9 < 2^64 */
	return rate ? mf_div64(bytes * 8 * 1000000000ULL + rate - 1, rate) : 0;
}

/* Rates and delays the model accepts (the uapi's limits): bytes * 8e9
 * stays far below 2^64 for every frame size the fabric carries.
 */
#define MF_RATE_MAX	1000000000000000ULL	/* 1 Pbit/s */
#define MF_DELAY_MAX	10000000000ULL		/* 10 s */

/* Allocate tl's arrays for s on t (free with mf_timeline_free). */
int mf_timeline_alloc(struct mf_timeline *tl, const struct mf_topo *t,
		      const struct mf_sched *s);
void mf_timeline_free(struct mf_timeline *tl);

/* Run s (a schedule mf_check() accepted) on t's links under tm.
 * free (t->nodes * t->nports entries, or NULL for idle links) holds when
 * each link is next free, in ns from the broadcast's start, and is
 * updated (the kernel reserves the links with it).  Fills tl.  0,
 * -ENOMEM, -EINVAL (bad arguments, an asynchronous collective).
 */
int mf_sched_time(const struct mf_topo *t, const struct mf_sched *s,
		  const struct mf_timing *tm, u64 *free,
		  struct mf_timeline *tl);

#endif /* MF_TIMING_H */
