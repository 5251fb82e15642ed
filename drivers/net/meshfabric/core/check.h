/* SPDX-License-Identifier: GPL-2.0 */
/* The schedule checker.  Written against topo.h and linkacct.h
 * (and faults.h's set of down links, never its routing or repair) only,
 * never against a builder, and run on every schedule the project
 * produces (plan, bcast, coll, tests, benchmarks, the kernel's cache).
 *
 * It runs a schedule symbolically (sched.h says what each collective
 * starts from and must end with): every (node, block) holds a value, the
 * set of nodes whose contributions it sums (a reduction), or whether it
 * holds the block (every other collective).  In a step every send reads
 * its source's values as the step began and, at the step's end, replaces
 * the destination's (copy) or adds to them (combine; the two sets must be
 * disjoint: every contribution is counted once).  A schedule is valid
 * when:
 *  - a send carries at least one block, each one its source holds, and
 *    combines only in a reduction;
 *  - no (node, block) receives a copy and anything else in one step, and,
 *    outside reductions, never receives a block it already holds: in a
 *    broadcast, every node but the source is informed exactly once;
 *  - each path is a chain of adjacent nodes from src to dst, hops >= 1;
 *  - one-port: a node sends at most one message and receives at most one
 *    per step; all-port: at most one per outgoing link (the first link of
 *    the path) and one per incoming link (its last) per step;
 *  - at the end every node holds exactly what the collective defines: a
 *    reduced block holds all N contributions, no block is missing.
 * Step contention (two sends of one step on one directed link) does not
 * make a schedule invalid; it is counted (linkacct.h).
 */
#ifndef MF_CHECK_H
#define MF_CHECK_H

#include "sched.h"
#include "faults.h"

struct mf_stats {
	u32 steps;
	u32 sends;
	u64 tcd;		/* sum of path lengths */
	u32 max_link_load;	/* most sends on one directed link in one step */
	u64 contention;		/* sum over (step, link) of load - 1 */
	u64 serial;		/* sum over steps of the step's max link load:
				 * its steps with contention serialised
				 */
	u32 unreachable;	/* mf_check_faults: nodes the source cannot reach */
	u64 blocks;		/* sum over sends of the blocks each carries */
	u64 node_blocks;	/* most blocks one node sends, all steps */
};

/* 0 and *st filled if s is a valid collective (a broadcast for every
 * schedule mf_sched_init() began) on t; -EINVAL with a one-line reason in
 * err (errlen bytes) if not; -ENOMEM; -E2BIG if its symbolic state would
 * exceed MF_CHECK_STATE_MAX bytes.
 */
#define MF_CHECK_STATE_MAX	((u64)1 << 30)
int mf_check(const struct mf_topo *t, const struct mf_sched *s,
	     struct mf_stats *st, char *err, size_t errlen);

/* mf_check() around the down links of f (NULL: mf_check()): no path may
 * cross a down link; a broadcast informs exactly the nodes the source
 * reaches in the surviving graph (the checker's own breadth-first
 * search), each once, and st->unreachable counts the others; every other
 * collective must still complete.
 */
int mf_check_faults(const struct mf_topo *t, const struct mf_sched *s,
		    const struct mf_faults *f, struct mf_stats *st, char *err,
		    size_t errlen);

#endif /* MF_CHECK_H */
