/* SPDX-License-Identifier: GPL-2.0 */
/* The broadcast algorithms: one file each (sched_<name>.c), each
 * exporting one struct mf_algo (MF_ALGO_DEFINE), all listed in algo.c.
 *
 * supports() says whether the algorithm covers a topology (0, or
 * -EOPNOTSUPP; the error text for users is the algorithm's `covers`).
 * build() fills an initialised schedule (mf_sched_init done by the caller
 * with the algorithm's model and the source) and ends it (mf_sched_end);
 * on error the caller frees the schedule.  routing is a resolved
 * MESHFABRIC_ROUTE_* (only `tree` and path-choosing builders use it).
 */
#ifndef MF_ALGO_H
#define MF_ALGO_H

#include "sched.h"
#include "check.h"
#include "faults.h"

struct mf_algo {
	const char *name;
	u32 id;			/* MESHFABRIC_ALGO_* */
	u32 model;		/* MESHFABRIC_MODEL_* */
	const char *covers;	/* e.g. "2^k x ... x 2^k meshes and tori" */
	bool routed;		/* build() follows the routing it is given */
	bool reproduction;	/* a paper as printed: never chosen by auto */
	int (*supports)(const struct mf_topo *t);
	int (*build)(const struct mf_topo *t, u32 source, u32 routing,
		     struct mf_sched *s);
};

/* Defines struct mf_algo mf_algo_<alg> (sched_<alg>.c's one export) with
 * supports = <alg>_supports and build = <alg>_build; the arguments after
 * covers are further designated initialisers (.routed = true, ...).
 */
#define MF_ALGO_DEFINE(alg, algo_name, algo_id, port_model, algo_covers, ...) \
	const struct mf_algo mf_algo_##alg = {				\
		.name = algo_name,					\
		.id = algo_id,						\
		.model = port_model,					\
		.covers = algo_covers,					\
		.supports = alg##_supports,				\
		.build = alg##_build,					\
		__VA_ARGS__						\
	}

/* The builders the module has: the closed-form, cheap ones, for BCAST
 * without a schedule.  The searches (mintcd, wormhole, split) and the
 * papers' literal reproduction (eyes-paper) are compiled into the tool
 * only: the module's mf_algos[] leaves them out (BCAST: -EOPNOTSUPP), and
 * the tool plans them and hands the kernel the schedule (SCHED_LOAD).
 */
bool mf_algo_in_kernel(u32 id);
const struct mf_algo *mf_algo_by_id(u32 id);
const struct mf_algo *mf_algo_by_name(const char *name);
/* NULL-terminated list of every algorithm but auto, in id order. */
extern const struct mf_algo *const mf_algos[];

/* Build the schedule of algorithm id (MESHFABRIC_ALGO_AUTO resolves by
 * mf_algo_auto) from source on t into s (s need not be initialised; free
 * it with mf_sched_free whatever the result).  -EOPNOTSUPP if the
 * algorithm does not cover t.  *used receives the algorithm that ran.
 */
int mf_plan(const struct mf_topo *t, u32 id, u32 source, u32 routing,
	    struct mf_sched *s, const struct mf_algo **used);

/* auto: build every algorithm of the port model (0: one-port if one covers
 * t, else all-port) that covers t from source, check each (check.h), and
 * keep the best: the earliest completion (algo.c's auto_cost: with
 * unlimited links the sum over steps of each step's largest link load),
 * then contention-free, then lowest TCD, then table order.  mf_plan_auto
 * fills s (free it with mf_sched_free whatever the result) and, if st is
 * not NULL, the winner's mf_check() statistics (no need to check it
 * again); -EOPNOTSUPP if nothing covers t.  mf_algo_auto only names the
 * winner (NULL if none).
 */
int mf_plan_auto(const struct mf_topo *t, u32 model, u32 source, u32 routing,
		 struct mf_sched *s, const struct mf_algo **used,
		 struct mf_stats *st);
const struct mf_algo *mf_algo_auto(const struct mf_topo *t, u32 model,
				   u32 source);

/* What mf_plan_checked() returns besides the schedule. */
struct mf_plan_result {
	const struct mf_algo *used;	/* the algorithm that ran */
	struct mf_stats stats;		/* mf_check()'s */
	char why[96];			/* the checker's reason (-EPROTO) */
};

/* The schedule of algorithm id
 * (MESHFABRIC_ALGO_AUTO: the best of the port model, 0 for either, as
 * mf_plan_auto ranks them) from source, checked by mf_check(), with its
 * statistics and the algorithm that ran.  s need not be initialised; free
 * it with mf_sched_free whatever the result.  -EOPNOTSUPP if nothing
 * covers t, -EINVAL bad arguments, -EPROTO if the checker rejected the
 * builder's schedule (a builder bug: res->why says why), -ENOMEM.
 */
int mf_plan_checked(const struct mf_topo *t, u32 id, u32 model, u32 source,
		    u32 routing, struct mf_sched *s,
		    struct mf_plan_result *res);

struct mf_timing;
/* mf_plan_checked() whose auto ranks candidates by their fabric time
 * under tm (timing.h; NULL: unlimited links, as mf_plan_checked).
 */
int mf_plan_timed(const struct mf_topo *t, u32 id, u32 model, u32 source,
		  u32 routing, const struct mf_timing *tm, struct mf_sched *s,
		  struct mf_plan_result *res);

/* What mf_plan_faults() returns besides the schedule. */
struct mf_fault_plan {
	const struct mf_algo *used;	/* the algorithm of the repaired one */
	struct mf_plan_result plan;	/* the fault-free schedule's */
	struct mf_stats stats;		/* the repaired one's (mf_check_faults) */
	struct mf_repair rep;		/* what the repair did */
};

/* mf_plan_checked() around the down links of f (faults.h): the fault-free
 * schedule is built and checked, then repaired (mf_sched_repair, routed by
 * routing around f) and checked again by mf_check_faults().  Every node the
 * source reaches is informed once; res->stats.unreachable counts the
 * others; res->plan.stats keeps the fault-free cost.  auto repairs every
 * candidate of the port model and keeps the best repaired schedule
 * (res->used; res->plan.used is the fault-free winner).  f NULL or empty:
 * the fault-free schedule.  Errors as mf_plan_checked (-EPROTO: res->why of
 * res->plan says why), -E2BIG if the fault routing is too large.
 */
int mf_plan_faults(const struct mf_topo *t, u32 id, u32 model, u32 source,
		   u32 routing, const struct mf_faults *f, struct mf_sched *s,
		   struct mf_fault_plan *res);

/* A schedule of the caller's (a user's, SCHED_LOAD) repaired around the
 * down links of f as mf_plan_faults() repairs its own, checked by
 * mf_check_faults(): res->stats and res->rep are filled, res->plan.stats
 * are in's (mf_check), res->used is NULL.  Errors as mf_plan_faults
 * (-EINVAL: in is not a valid broadcast, res->plan.why says why).
 */
int mf_repair_faults(const struct mf_topo *t, u32 routing,
		     const struct mf_faults *f, const struct mf_sched *in,
		     struct mf_sched *out, struct mf_fault_plan *res);

/* What to plan (mf_plan_for). */
struct mf_plan_req {
	u32 id;				/* MESHFABRIC_ALGO_*, AUTO allowed */
	u32 model;			/* auto's port model; 0: either */
	u32 source;
	u32 routing;
	/* auto ranks by the fabric time on these links (NULL: steps, with
	 * contention serialised, then TCD); not around faults
	 */
	const struct mf_timing *tm;
	const struct mf_faults *faults;	/* down links (NULL, empty: none) */
	/* with faults: the routing around them, already built by the
	 * caller with the same routing (the kernel's, from LINK_SET); NULL:
	 * built here
	 */
	const struct mf_froute *route;
	/* with faults: repair this schedule of the caller's (a user's,
	 * SCHED_LOAD) instead of building one
	 */
	const struct mf_sched *given;
	/* with faults: ctl's yield (the kernel's: cond_resched(), -EINTR on
	 * a fatal signal) runs between the phases of the plan (each
	 * candidate's build, check, repair and check) and between the
	 * repair's steps; its error ends the plan with it.  NULL: none.
	 */
	const struct mf_froute_ctl *ctl;
};

/* THE planning entry point for every caller outside the core (the tool's
 * plan and bcast, the kernel's offload): the checked schedule rq asks for
 * into s (need not be initialised; free it with mf_sched_free whatever
 * the result), with res->used the algorithm that built it (NULL for
 * given), res->stats its statistics (mf_check, or mf_check_faults around
 * faults), res->plan the fault-free schedule's (what plan --down prints
 * as fault-free) and res->rep what a repair did.  It is mf_plan_timed
 * without faults, mf_plan_faults or mf_repair_faults around them; errors
 * as theirs.  The functions above are its parts (and the tests').
 */
int mf_plan_for(const struct mf_topo *t, const struct mf_plan_req *rq,
		struct mf_sched *s, struct mf_fault_plan *res);

/* The algorithms, one file each. */
extern const struct mf_algo mf_algo_eyes;
extern const struct mf_algo mf_algo_hex;
extern const struct mf_algo mf_algo_tree;
extern const struct mf_algo mf_algo_binomial;
extern const struct mf_algo mf_algo_flood;
extern const struct mf_algo mf_algo_tsay_wang;
extern const struct mf_algo mf_algo_mintcd;
extern const struct mf_algo mf_algo_wormhole;
extern const struct mf_algo mf_algo_split;
extern const struct mf_algo mf_algo_eyes_paper;

/* True if every dims[i] is the same power of two (2^k x ... x 2^k). */
bool mf_topo_is_pow2_cube(const struct mf_topo *t, u32 *k);

#endif /* MF_ALGO_H */
