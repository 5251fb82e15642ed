// SPDX-License-Identifier: GPL-2.0
/*
 * algo.c - the table of broadcast algorithms and `auto` (algo.h).
 * To add an algorithm: write sched_<name>.c exporting struct mf_algo and
 * list it here.
 */
#include "algo.h"
#include "route.h"

const struct mf_algo *const mf_algos[] = {
	&mf_algo_eyes,
	&mf_algo_hex,
	&mf_algo_tree,
	&mf_algo_binomial,
	&mf_algo_flood,
	&mf_algo_tsay_wang,
	&mf_algo_mintcd,
	NULL
};

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

/*
 * Preference of auto.  Steps are known from the algorithms' theory, so
 * auto need not build every schedule: one-port, the papers' optimal
 * broadcasts (eyes on 2^k cubes, hex A2 on H_n) first, then binomial;
 * all-port, tsay-wang on tori it covers, then flood (optimal steps =
 * eccentricity, every node on a shortest path).
 */
static const struct mf_algo *const auto_one_port[] = {
	&mf_algo_eyes,
	&mf_algo_hex,
	&mf_algo_binomial,
	NULL
};

static const struct mf_algo *const auto_all_port[] = {
	&mf_algo_tsay_wang,
	&mf_algo_flood,
	NULL
};

static const struct mf_algo *first_supporting(const struct mf_algo *const *l,
					      const struct mf_topo *t)
{
	for (; *l; l++)
		if (!(*l)->supports(t))
			return *l;
	return NULL;
}

const struct mf_algo *mf_algo_auto(const struct mf_topo *t, u32 model)
{
	const struct mf_algo *a = NULL;

	if (model != MESHFABRIC_MODEL_ALL_PORT)
		a = first_supporting(auto_one_port, t);
	if (!a && model != MESHFABRIC_MODEL_ONE_PORT)
		a = first_supporting(auto_all_port, t);
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
	routing = mf_route_resolve(t, routing);
	a = id == MESHFABRIC_ALGO_AUTO ? mf_algo_auto(t, 0) : mf_algo_by_id(id);
	if (!a)
		return id == MESHFABRIC_ALGO_AUTO ? -EOPNOTSUPP : -EINVAL;
	if (used)
		*used = a;
	err = a->supports(t);
	if (err)
		return err;
	mf_sched_init(s, a->model, source);
	err = a->build(t, source, routing, s);
	if (!err && s->open)
		err = mf_sched_end(s);
	return err;
}
