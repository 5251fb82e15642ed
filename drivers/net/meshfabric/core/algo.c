// SPDX-License-Identifier: GPL-2.0
/* The table of broadcast algorithms and `auto` (algo.h).
 * To add an algorithm: write sched_<name>.c exporting struct mf_algo and
 * list it here.
 */
#include "algo.h"
#include "timing.h"
#include "route.h"
#include "check.h"

const struct mf_algo *const mf_algos[] = {
	&mf_algo_eyes,
	&mf_algo_hex,
	&mf_algo_tree,
	&mf_algo_binomial,
	&mf_algo_flood,
	&mf_algo_tsay_wang,
#ifndef __KERNEL__	/* mf_algo_in_kernel() */
	&mf_algo_mintcd,
	&mf_algo_wormhole,
	&mf_algo_split,
	&mf_algo_eyes_paper,
#endif
	NULL
};

bool mf_algo_in_kernel(u32 id)
{
	switch (id) {
	case MESHFABRIC_ALGO_EYES:
	case MESHFABRIC_ALGO_HEX:
	case MESHFABRIC_ALGO_TREE:
	case MESHFABRIC_ALGO_BINOMIAL:
	case MESHFABRIC_ALGO_FLOOD:
	case MESHFABRIC_ALGO_TSAY_WANG:
		return true;
	}
	return false;
}

const struct mf_algo *mf_algo_by_id(u32 id)
{
	u32 i;

	for (i = 0; mf_algos[i]; i++)
		if (mf_algos[i]->id == id)
			return mf_algos[i];
	return NULL;
}

const struct mf_algo *mf_algo_by_name(const char *name)
{
	u32 i;

	for (i = 0; mf_algos[i]; i++)
		if (!strcmp(mf_algos[i]->name, name))
			return mf_algos[i];
	return NULL;
}

bool mf_topo_is_pow2_cube(const struct mf_topo *t, u32 *k)
{
	u32 i, n = t->dims[0];

	if (t->kind == MESHFABRIC_KIND_HEX || (n & (n - 1)))
		return false;
	for (i = 1; i < t->ndims; i++)
		if (t->dims[i] != n)
			return false;
	if (k) {
		*k = 0;
		while ((1U << *k) < n)
			(*k)++;
	}
	return true;
}

/* auto: every algorithm of the port model that covers t is built from the
 * source and checked; the best wins: the earliest completion, then
 * contention-free, then lowest TCD, then table order (so eyes before
 * mintcd and split on a tie).  Completion (auto_cost): the schedule's
 * fabric time under a link model when the caller has one (timing.h: a
 * timed fabric's links, plan --link-*); with unlimited links, steps with
 * their contention counted as the serialisation it causes: the sum over
 * steps of the most sends on one directed link in that step, so a
 * contention-free schedule costs its steps and one whose step loads a
 * link three times pays three for it.  Model 0 means one-port when some
 * one-port algorithm covers t (the papers' model), all-port otherwise.
 * On H_n this picks hex A2 (contention-free, n + 2 steps) over binomial
 * (ceil(log2 p) steps, but links loaded 2-3 times in a step) where A2
 * costs less (issue 13: before, the fewest steps won whatever the cost).
 */
struct auto_rank {
	u64 cost;
	struct mf_stats st;
};

static bool better(const struct auto_rank *a, const struct auto_rank *b)
{
	if (a->cost != b->cost)
		return a->cost < b->cost;
	if (!a->st.contention != !b->st.contention)
		return !a->st.contention;
	return a->st.tcd < b->st.tcd;
}

/* s's completion for auto (see above): tm's fabric time, or with tm NULL
 * the checker's serialised steps (st, mf_check()'s statistics of s).
 */
static int auto_cost(const struct mf_topo *t, const struct mf_sched *s,
		     const struct mf_timing *tm, const struct mf_stats *st,
		     u64 *cost)
{
	struct mf_timeline tl;
	int err;

	*cost = st->serial;
	if (!tm)
		return 0;
	err = mf_timeline_alloc(&tl, t, s);
	if (!err)
		err = mf_sched_time(t, s, tm, NULL, &tl);
	*cost = tl.total_ns;
	mf_timeline_free(&tl);
	return err;
}

static u32 auto_model(const struct mf_topo *t, u32 model)
{
	u32 i;

	if (model)
		return model;
	for (i = 0; mf_algos[i]; i++)
		if (mf_algos[i]->model == MESHFABRIC_MODEL_ONE_PORT &&
		    !mf_algos[i]->reproduction && !mf_algos[i]->supports(t))
			return MESHFABRIC_MODEL_ONE_PORT;
	return MESHFABRIC_MODEL_ALL_PORT;
}

static int build_one(const struct mf_algo *a, const struct mf_topo *t,
		     u32 source, u32 routing, struct mf_sched *s)
{
	int err;

	mf_sched_init(s, a->model, source);
	err = a->build(t, source, routing, s);
	if (!err && s->open)
		err = mf_sched_end(s);
	return err;
}

static int plan_auto(const struct mf_topo *t, u32 model, u32 source,
		     u32 routing, const struct mf_timing *tm,
		     struct mf_sched *s, const struct mf_algo **used,
		     struct mf_stats *st_out)
{
	struct auto_rank r, best_r = { 0 };
	const struct mf_algo *best = NULL;
	struct mf_sched tmp;
	u32 i;
	int err;

	memset(s, 0, sizeof(*s));
	if (source >= t->nodes || mf_route_valid(t, routing))
		return -EINVAL;
	routing = mf_route_resolve(t, routing);
	model = auto_model(t, model);
	for (i = 0; mf_algos[i]; i++) {
		const struct mf_algo *a = mf_algos[i];

		if (a->model != model || a->reproduction || a->supports(t))
			continue;
		err = build_one(a, t, source, routing, &tmp);
		if (!err)
			err = mf_check(t, &tmp, &r.st, NULL, 0);
		if (!err)
			err = auto_cost(t, &tmp, tm, &r.st, &r.cost);
		if (err == -ENOMEM) {
			mf_sched_free(&tmp);
			mf_sched_free(s);
			return err;
		}
		if (err || (best && !better(&r, &best_r))) {
			mf_sched_free(&tmp);
			continue;	/* a builder bug must not break auto */
		}
		mf_sched_free(s);
		*s = tmp;
		best = a;
		best_r = r;
	}
	if (!best)
		return -EOPNOTSUPP;
	if (used)
		*used = best;
	if (st_out)
		*st_out = best_r.st;
	return 0;
}

int mf_plan_auto(const struct mf_topo *t, u32 model, u32 source, u32 routing,
		 struct mf_sched *s, const struct mf_algo **used,
		 struct mf_stats *st_out)
{
	return plan_auto(t, model, source, routing, NULL, s, used, st_out);
}

const struct mf_algo *mf_algo_auto(const struct mf_topo *t, u32 model,
				   u32 source)
{
	const struct mf_algo *a = NULL;
	struct mf_sched s;

	if (mf_plan_auto(t, model, source, MESHFABRIC_ROUTE_DEFAULT, &s, &a,
			 NULL))
		a = NULL;
	mf_sched_free(&s);
	return a;
}

int mf_plan(const struct mf_topo *t, u32 id, u32 source, u32 routing,
	    struct mf_sched *s, const struct mf_algo **used)
{
	const struct mf_algo *a;
	int err;

	memset(s, 0, sizeof(*s));
	if (source >= t->nodes)
		return -EINVAL;
	if (mf_route_valid(t, routing))
		return -EINVAL;
	if (id == MESHFABRIC_ALGO_AUTO)
		return mf_plan_auto(t, 0, source, routing, s, used, NULL);
	routing = mf_route_resolve(t, routing);
	a = mf_algo_by_id(id);
	if (!a)		/* the module lacks the searches (algo.h) */
		return id <= MESHFABRIC_ALGO_MAX ? -EOPNOTSUPP : -EINVAL;
	if (used)
		*used = a;
	err = a->supports(t);
	if (err)
		return err;
	return build_one(a, t, source, routing, s);
}

int mf_plan_timed(const struct mf_topo *t, u32 id, u32 model, u32 source,
		  u32 routing, const struct mf_timing *tm, struct mf_sched *s,
		  struct mf_plan_result *res)
{
	int err;

	memset(res, 0, sizeof(*res));
	if (id == MESHFABRIC_ALGO_AUTO)	/* checks every candidate itself */
		return plan_auto(t, model, source, routing, tm, s, &res->used,
				 &res->stats);
	err = mf_plan(t, id, source, routing, s, &res->used);
	if (err)
		return err;
	err = mf_check(t, s, &res->stats, res->why, sizeof(res->why));
	return err == -EINVAL ? -EPROTO : err;
}

int mf_plan_checked(const struct mf_topo *t, u32 id, u32 model, u32 source,
		    u32 routing, struct mf_sched *s,
		    struct mf_plan_result *res)
{
	return mf_plan_timed(t, id, model, source, routing, NULL, s, res);
}

/* ctl's yield between the phases of a plan around faults (0: none). */
static int pyield(const struct mf_froute_ctl *ctl)
{
	return ctl && ctl->yield ? ctl->yield(ctl->arg) : 0;
}

/* Repair the valid fault-free schedule in around r's faults into out and
 * check the result against them (-EPROTO with the reason in why), ctl's
 * yield between the phases.
 */
static int repair_checked(const struct mf_topo *t, const struct mf_froute *r,
			  const struct mf_sched *in, struct mf_sched *out,
			  struct mf_stats *st, struct mf_repair *rep, char *why,
			  size_t whylen, const struct mf_froute_ctl *ctl)
{
	int err = pyield(ctl) ?: mf_sched_repair_ctl(r, in, out, rep, ctl);

	if (!err)
		err = pyield(ctl) ?: mf_check_faults(t, out, r->f, st, why,
						     whylen);
	return err == -EINVAL ? -EPROTO : err;
}

/* auto around faults: every candidate of the port model, repaired; the
 * best repaired schedule wins, ranked as mf_plan_auto ranks.
 */
static int repair_auto(const struct mf_topo *t, const struct mf_froute *r,
		       u32 model, u32 source, struct mf_sched *s,
		       struct mf_fault_plan *res,
		       const struct mf_froute_ctl *ctl)
{
	struct auto_rank rk, best = { 0 };
	struct mf_sched ff, rs;
	struct mf_repair rep;
	u32 i;
	int err;

	model = auto_model(t, model);
	for (i = 0; mf_algos[i]; i++) {
		const struct mf_algo *a = mf_algos[i];

		if (a->model != model || a->reproduction || a->supports(t))
			continue;
		memset(&rs, 0, sizeof(rs));
		memset(&ff, 0, sizeof(ff));
		err = pyield(ctl) ?: build_one(a, t, source, r->routing, &ff);
		if (!err)
			err = pyield(ctl) ?: mf_check(t, &ff, &rk.st, NULL, 0);
		if (!err)
			err = repair_checked(t, r, &ff, &rs, &rk.st, &rep, NULL,
					     0, ctl);
		if (!err)
			err = auto_cost(t, &rs, NULL, &rk.st, &rk.cost);
		mf_sched_free(&ff);
		if (err == -ENOMEM || err == -E2BIG || err == -EINTR) {
			mf_sched_free(&rs);
			return err;
		}
		if (err || (res->used && !better(&rk, &best))) {
			mf_sched_free(&rs);
			continue;	/* a builder bug must not break auto */
		}
		mf_sched_free(s);
		*s = rs;
		res->used = a;
		res->stats = rk.st;
		res->rep = rep;
		best = rk;
	}
	return res->used ? 0 : -EOPNOTSUPP;
}

/* mf_plan_faults() around the faults of route (built by the caller, or
 * NULL: built here).
 */
static int plan_faults(const struct mf_topo *t, u32 id, u32 model,
		       u32 source, u32 routing, const struct mf_faults *f,
		       const struct mf_froute *route, struct mf_sched *s,
		       struct mf_fault_plan *res,
		       const struct mf_froute_ctl *ctl)
{
	struct mf_froute own = { 0 };
	const struct mf_froute *r = route ? route : &own;
	struct mf_sched ff;
	int err = 0;

	memset(res, 0, sizeof(*res));
	memset(s, 0, sizeof(*s));
	err = mf_plan_checked(t, id, model, source, routing, &ff, &res->plan);
	res->used = res->plan.used;
	if (err || !f || !f->n) {
		*s = ff;
		res->stats = res->plan.stats;
		return err;
	}
	err = pyield(ctl);
	if (!err && !route)
		err = mf_froute_build(&own, t, routing, f);
	if (!err && id == MESHFABRIC_ALGO_AUTO) {
		res->used = NULL;
		err = repair_auto(t, r, model, source, s, res, ctl);
	} else if (!err) {
		err = repair_checked(t, r, &ff, s, &res->stats, &res->rep,
				     res->plan.why, sizeof(res->plan.why),
				     ctl);
	}
	mf_froute_free(&own);
	mf_sched_free(&ff);
	return err;
}

int mf_plan_faults(const struct mf_topo *t, u32 id, u32 model, u32 source,
		   u32 routing, const struct mf_faults *f, struct mf_sched *s,
		   struct mf_fault_plan *res)
{
	return plan_faults(t, id, model, source, routing, f, NULL, s, res,
			   NULL);
}

static int repair_faults(const struct mf_topo *t, u32 routing,
			 const struct mf_faults *f,
			 const struct mf_froute *route,
			 const struct mf_sched *in, struct mf_sched *out,
			 struct mf_fault_plan *res,
			 const struct mf_froute_ctl *ctl)
{
	struct mf_froute own = { 0 };
	int err;

	memset(res, 0, sizeof(*res));
	memset(out, 0, sizeof(*out));
	err = mf_check(t, in, &res->plan.stats, res->plan.why,
		       sizeof(res->plan.why));
	if (!err && !route)
		err = mf_froute_build(&own, t, routing, f);
	if (!err)
		err = repair_checked(t, route ? route : &own, in, out,
				     &res->stats, &res->rep, res->plan.why,
				     sizeof(res->plan.why), ctl);
	mf_froute_free(&own);
	return err;
}

int mf_repair_faults(const struct mf_topo *t, u32 routing,
		     const struct mf_faults *f, const struct mf_sched *in,
		     struct mf_sched *out, struct mf_fault_plan *res)
{
	return repair_faults(t, routing, f, NULL, in, out, res, NULL);
}

int mf_plan_for(const struct mf_topo *t, const struct mf_plan_req *rq,
		struct mf_sched *s, struct mf_fault_plan *res)
{
	int err;

	if (rq->faults && rq->faults->n) {
		if (rq->given)
			return repair_faults(t, rq->routing, rq->faults,
					     rq->route, rq->given, s, res,
					     rq->ctl);
		return plan_faults(t, rq->id, rq->model, rq->source,
				   rq->routing, rq->faults, rq->route, s, res,
				   rq->ctl);
	}
	memset(res, 0, sizeof(*res));
	if (rq->given) {
		memset(s, 0, sizeof(*s));
		return -EINVAL;
	}
	err = mf_plan_timed(t, rq->id, rq->model, rq->source, rq->routing,
			    rq->tm, s, &res->plan);
	res->used = res->plan.used;
	res->stats = res->plan.stats;
	return err;
}
