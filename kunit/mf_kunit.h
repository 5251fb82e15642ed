/* SPDX-License-Identifier: GPL-2.0 */
/* What the meshfabric KUnit files share: the topology of a parameterised
 * case, and the suite definition every file ends with.
 */
#ifndef MF_KUNIT_H
#define MF_KUNIT_H

#include <kunit/test.h>
#include <linux/string.h>

#include "topo.h"

/* A parameterised case on one topology: desc names it (the parameter's
 * description), kind, ndims and dims are mf_topo_init()'s, and the
 * routing (MESHFABRIC_ROUTE_*, 0: the default) or the algorithm
 * (MESHFABRIC_ALGO_*) is the suite's to use.
 */
struct mf_kt_topo {
	const char *desc;
	u32 kind;
	u32 ndims;
	u32 dims[4];
	union {
		u32 routing;
		u32 algo;
	};
};

static inline void mf_kt_topo_desc(const struct mf_kt_topo *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

/* t = the case's topology (the case must be valid). */
static inline void mf_kt_topo_init(struct kunit *test,
				   const struct mf_kt_topo *c,
				   struct mf_topo *t)
{
	KUNIT_ASSERT_EQ(test, mf_topo_init(t, c->kind, c->ndims, c->dims), 0);
}

/* n zeroed u32s freed with the test; the test stops if there are none. */
static inline u32 *mf_kt_u32s(struct kunit *test, size_t n)
{
	u32 *v = kunit_kcalloc(test, n, sizeof(u32), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	return v;
}

/* A parameterised case on the torus n x ... x n of d dimensions. */
struct mf_kt_cube {
	u32 d;
	u32 n;
};

/* t = the case's torus (d <= MF_MAX_DIMS). */
static inline void mf_kt_cube_init(struct kunit *test,
				   const struct mf_kt_cube *c,
				   struct mf_topo *t)
{
	u32 dims[MF_MAX_DIMS], i;

	for (i = 0; i < c->d; i++)
		dims[i] = c->n;
	KUNIT_ASSERT_EQ(test, mf_topo_init(t, MESHFABRIC_KIND_TORUS, c->d, dims),
			0);
}

/* The suite "meshfabric_<sfx>" of the cases mf_<sfx>_test_cases[],
 * registered with kunit_test_suite(); further arguments are more struct
 * kunit_suite fields (.init = ..., .exit = ...).
 */
#define MF_KUNIT_SUITE(sfx, ...)					\
	static struct kunit_suite mf_##sfx##_test_suite = {		\
		.name = "meshfabric_" #sfx,				\
		.test_cases = mf_##sfx##_test_cases,			\
		__VA_ARGS__						\
	};								\
	kunit_test_suite(mf_##sfx##_test_suite)

#endif /* MF_KUNIT_H */
