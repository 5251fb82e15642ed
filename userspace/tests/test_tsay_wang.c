// SPDX-License-Identifier: GPL-2.0
/*
 * test_tsay_wang.c - the tsay-wang all-port torus broadcast (paper 002).
 *
 * Every schedule passes mf_check() with zero step contention; its steps lie
 * between Lemma 1's lower bound (the smallest s with (2d+1)^s >= n^d) and
 * the abstract's T(n) (d*ceil(log_{2d+1} n) + 1 for odd n,
 * d*ceil(log_{2d+1}(n-1)) + ceil(d/2) + 1 for even n), both computed here
 * in integers; and by translation symmetry the steps and TCD do not
 * depend on the source.
 */
#include "mf_test.h"
#include "algo.h"
#include "check.h"

/* Smallest r with (2d+1)^r >= x. */
static unsigned int ceil_log(unsigned long long x, unsigned int d)
{
	unsigned long long p = 1;
	unsigned int r = 0;

	while (p < x) {
		p *= 2 * d + 1;
		r++;
	}
	return r;
}

/* Lemma 1: (2d+1)^steps >= n^d. */
static unsigned int lower_bound(unsigned int d, unsigned int n)
{
	unsigned long long nd = 1;
	unsigned int i;

	for (i = 0; i < d; i++)
		nd *= n;
	return ceil_log(nd, d);
}

/* The abstract's T(n). */
static unsigned int abstract_t(unsigned int d, unsigned int n)
{
	if (n & 1)
		return d * ceil_log(n, d) + 1;
	return d * ceil_log(n - 1, d) + (d + 1) / 2 + 1;
}

static void torus(struct mf_topo *t, unsigned int d, unsigned int n)
{
	u32 dims[MF_MAX_DIMS], i;

	for (i = 0; i < d; i++)
		dims[i] = n;
	EXPECT_EQ(mf_topo_init(t, MESHFABRIC_KIND_TORUS, d, dims), 0);
}

/* Build from src and check; 0 and *st on success. */
static int run(const struct mf_topo *t, u32 src, struct mf_stats *st)
{
	const struct mf_algo *used = NULL;
	struct mf_sched s;
	char err[128] = "";
	int ret;

	memset(st, 0, sizeof(*st));
	ret = mf_plan(t, MESHFABRIC_ALGO_TSAY_WANG, src, MESHFABRIC_ROUTE_DEFAULT,
		      &s, &used);
	EXPECT(used == &mf_algo_tsay_wang);
	if (!ret)
		ret = mf_check(t, &s, st, err, sizeof(err));
	EXPECT_MSG(ret == 0, "d=%u n=%u src=%u: %d %s", t->ndims, t->dims[0],
		   src, ret, err);
	mf_sched_free(&s);
	return ret;
}

static void sweep(unsigned int d, unsigned int n0, unsigned int n1,
		  bool bounds)
{
	unsigned int n;

	for (n = n0; n <= n1; n++) {
		struct mf_topo t;
		struct mf_stats st0, st;
		u32 srcs[3], i;

		torus(&t, d, n);
		srcs[0] = 0;
		srcs[1] = t.nodes - 1;
		srcs[2] = t.nodes / 2 + n / 3;
		if (run(&t, srcs[0], &st0))
			continue;
		EXPECT_MSG(st0.contention == 0, "d=%u n=%u contention %llu", d, n,
			   (unsigned long long)st0.contention);
		EXPECT_MSG(st0.steps >= lower_bound(d, n), "d=%u n=%u steps %u",
			   d, n, st0.steps);
		if (bounds)
			EXPECT_MSG(st0.steps <= abstract_t(d, n),
				   "d=%u n=%u steps %u > T(n) %u", d, n,
				   st0.steps, abstract_t(d, n));
		for (i = 1; i < (bounds ? 3 : 2); i++) {
			if (run(&t, srcs[i], &st))
				continue;
			EXPECT_EQ(st.contention, 0);
			EXPECT_EQ(st.steps, st0.steps);
			EXPECT_EQ(st.tcd, st0.tcd);
			EXPECT_EQ(st.sends, t.nodes - 1);
		}
	}
}

static void test_d2_n3_to_30(void)
{
	sweep(2, 3, 30, true);
}

static void test_d3_n3_to_30(void)
{
	sweep(3, 3, 30, true);
}

static void test_d4_d5_small(void)
{
	sweep(4, 3, 6, false);
	sweep(5, 3, 4, false);
}

/*
 * 002's improvement for d = 2 (abstract, section 1): d*ceil(log_5 n) steps
 * for every n; at n = 5 and 25 this meets Lemma 1.
 */
static void test_d2_improved_bound(void)
{
	unsigned int n;

	for (n = 3; n <= 60; n++) {
		struct mf_topo t;
		struct mf_stats st;

		torus(&t, 2, n);
		if (!run(&t, n + 1, &st))
			EXPECT_MSG(st.steps <= 2 * ceil_log(n, 2), "n=%u steps %u",
				   n, st.steps);
		if ((n == 5 || n == 25) && !run(&t, 0, &st))
			EXPECT_EQ(st.steps, lower_bound(2, n));
	}
}

static void test_supports(void)
{
	struct mf_topo t;
	u32 dims[MF_MAX_DIMS] = { 5, 5, 5, 5, 5, 5, 5, 5 };

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	EXPECT_EQ(mf_algo_tsay_wang.supports(&t), 0);
	EXPECT_EQ(mf_algo_tsay_wang.model, MESHFABRIC_MODEL_ALL_PORT);
	EXPECT(mf_algo_auto(&t, MESHFABRIC_MODEL_ALL_PORT, 0) == &mf_algo_tsay_wang);
	EXPECT(mf_algo_by_name("tsay-wang") == &mf_algo_tsay_wang);
	EXPECT(mf_algo_by_id(MESHFABRIC_ALGO_TSAY_WANG) == &mf_algo_tsay_wang);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims), 0);
	EXPECT(mf_algo_tsay_wang.supports(&t) != 0);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, dims), 0);
	EXPECT(mf_algo_tsay_wang.supports(&t) != 0);
	dims[1] = 6;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	EXPECT(mf_algo_tsay_wang.supports(&t) != 0);
	dims[0] = dims[1] = 2;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	EXPECT(mf_algo_tsay_wang.supports(&t) != 0);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 8,
			       (u32[]){ 3, 3, 3, 3, 3, 3, 3, 3 }), 0);
	EXPECT_EQ(mf_algo_tsay_wang.supports(&t), 0);
}

int main(void)
{
	RUN(test_supports);
	RUN(test_d2_improved_bound);
	RUN(test_d2_n3_to_30);
	RUN(test_d3_n3_to_30);
	RUN(test_d4_d5_small);
	return mf_test_done();
}
