/* SPDX-License-Identifier: GPL-2.0 */
/* The schedule checker.  Written against topo.h and linkacct.h
 * (and faults.h's set of down links, never its routing or repair) only,
 * never against a builder, and run on every schedule the project
 * produces (plan, bcast, tests, benchmarks, the kernel's cache).
 *
 * A schedule is valid when:
 *  - every node but the source is the destination of exactly one send, and
 *    the source of none;
 *  - a send's source was informed in an earlier step (the source at step 0);
 *  - each path is a chain of adjacent nodes from src to dst, hops >= 1;
 *  - one-port: a node sends at most one message per step; all-port: at
 *    most one per outgoing link (the first link of the path) per step.
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
};

/* 0 and *st filled if s is a valid broadcast on t; -EINVAL with a one-line
 * reason in err (errlen bytes) if not; -ENOMEM.
 */
int mf_check(const struct mf_topo *t, const struct mf_sched *s,
	     struct mf_stats *st, char *err, size_t errlen);

/* mf_check() around the down links of f (NULL: mf_check()): no path may
 * cross a down link, and exactly the nodes the source reaches in the
 * surviving graph (the checker's own breadth-first search) are informed,
 * each once; st->unreachable counts the others.
 */
int mf_check_faults(const struct mf_topo *t, const struct mf_sched *s,
		    const struct mf_faults *f, struct mf_stats *st, char *err,
		    size_t errlen);

#endif /* MF_CHECK_H */
