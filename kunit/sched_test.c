// SPDX-License-Identifier: GPL-2.0
/*
 * sched_test.c - KUnit suite meshfabric_sched: the papers' broadcast
 * schedules built by the core inside the kernel, every one validated by
 * the independent checker mf_check() (core/check.c).
 *  - eyes (000, 001): TCD from an eye of a 2^k x 2^k mesh 3, 15, 69, 291
 *    (000 Eq. 3 and Table/Fig. values), from a corner 18 and 79 (000
 *    Eq. 9), from an eye of a 2^k cube 7, 63, 525 (000 section 4); d*k
 *    steps (the one-port optimum).  Eye coordinates from 000 Eq. 2:
 *    a_k = (2^k - (-1)^k) / 3, the eyes centred, (2^k - 1 - a_k) / 2.
 *  - hex (003 A2): n + 2 steps on H_n (Theorem 3) for n >= 3, every send
 *    one hop (TCD p - 1); H_2 in 3 steps, the one-port optimum.
 *  - tsay-wang (002): within the abstract's T(n) (d*ceil(log_{2d+1} n) + 1
 *    for odd n, d*ceil(log_{2d+1}(n - 1)) + ceil(d/2) + 1 for even n),
 *    not below Lemma 1's bound ceil(d log_{2d+1} n), contention-free.
 *  - every registered algorithm on every topology it supports: mf_check
 *    passes and the step count respects the port model's lower bound.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "algo.h"
#include "check.h"
#include "mf_kunit.h"

/* Build with mf_plan, check with mf_check; returns 0 and *st, or fails. */
static int mf_sched_plan_check(struct kunit *test, const struct mf_topo *t,
			       u32 algo, u32 source, struct mf_stats *st)
{
	const struct mf_algo *used = NULL;
	struct mf_sched s;
	char err[128] = "";
	int ret;

	ret = mf_plan(t, algo, source, MESHFABRIC_ROUTE_DEFAULT, &s, &used);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "mf_plan(algo %u, source %u)", algo,
			    source);
	if (!ret) {
		ret = mf_check(t, &s, st, err, sizeof(err));
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "mf_check: %s", err);
	}
	mf_sched_free(&s);
	return ret;
}

/* Smallest r with b^r >= m (ceil(log_b m)), b >= 2, m >= 1. */
static u32 mf_ceil_log(u64 b, u64 m)
{
	u64 x = 1;
	u32 r = 0;

	while (x < m) {
		x *= b;
		r++;
	}
	return r;
}

/* 000 Eq. 2: the eye coordinate (one of two per dimension) of 2^k. */
static u32 mf_eye_coord(u32 k)
{
	/* a_k = (2^k - (-1)^k) / 3, the side of the eye-square */
	u32 ak = k & 1 ? ((1U << k) + 1) / 3 : ((1U << k) - 1) / 3;

	return ((1U << k) - 1 - ak) / 2;
}

/* ---- eyes ---- */

struct mf_eyes_case {
	const char *desc;
	u32 d;
	u32 k;
	bool corner;	/* source at the origin instead of an eye */
	u64 tcd;	/* the paper's value */
};

static const struct mf_eyes_case mf_eyes_cases[] = {
	{ "2x2 eye", 2, 1, false, 3 },
	{ "4x4 eye", 2, 2, false, 15 },
	{ "8x8 eye", 2, 3, false, 69 },
	{ "16x16 eye", 2, 4, false, 291 },
	{ "4x4 corner", 2, 2, true, 18 },
	{ "8x8 corner", 2, 3, true, 79 },
	{ "2x2x2 eye", 3, 1, false, 7 },
	{ "4x4x4 eye", 3, 2, false, 63 },
	{ "8x8x8 eye", 3, 3, false, 525 },
};

static void mf_eyes_desc(const struct mf_eyes_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mf_eyes, mf_eyes_cases, mf_eyes_desc);

static void mf_sched_test_eyes_tcd(struct kunit *test)
{
	const struct mf_eyes_case *c = test->param_value;
	u32 dims[MF_MAX_DIMS], coords[MF_MAX_DIMS], i;
	struct mf_stats st;
	struct mf_topo t;

	for (i = 0; i < c->d; i++) {
		dims[i] = 1U << c->k;
		coords[i] = c->corner ? 0 : mf_eye_coord(c->k);
	}
	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, c->d, dims), 0);
	if (mf_sched_plan_check(test, &t, MESHFABRIC_ALGO_EYES,
				mf_topo_id(&t, coords), &st))
		return;
	KUNIT_EXPECT_EQ(test, st.tcd, c->tcd);
	KUNIT_EXPECT_EQ(test, st.steps, c->d * c->k);
	KUNIT_EXPECT_EQ(test, st.sends, t.nodes - 1);
	KUNIT_EXPECT_EQ(test, st.contention, 0ULL);
}

/* Tori: every node is an eye (000 section 5); never worse than the mesh. */
static void mf_sched_test_eyes_torus(struct kunit *test)
{
	static const u64 eye_tcd[] = { 0, 3, 15, 69 };
	u32 k, src, dims[2];
	struct mf_stats st;
	struct mf_topo t;

	for (k = 1; k <= 3; k++) {
		dims[0] = 1U << k;
		dims[1] = dims[0];
		KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims),
				0);
		for (src = 0; src < t.nodes; src += 3) {
			if (mf_sched_plan_check(test, &t, MESHFABRIC_ALGO_EYES, src,
						&st))
				return;
			KUNIT_EXPECT_EQ(test, st.steps, 2 * k);
			KUNIT_EXPECT_LE(test, st.tcd, eye_tcd[k]);
			KUNIT_EXPECT_EQ(test, st.contention, 0ULL);
		}
	}
}

/* ---- hexagonal A2 ---- */

static const u32 mf_hexs_sizes[] = { 2, 3, 4, 5, 6, 8 };

static void mf_hexs_desc(const u32 *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "H_%u", *n);
}

KUNIT_ARRAY_PARAM(mf_hexs, mf_hexs_sizes, mf_hexs_desc);

static void mf_sched_test_hex_a2(struct kunit *test)
{
	u32 n = *(const u32 *)test->param_value;
	u32 dims[1] = { n }, src, p = 3 * n * n - 3 * n + 1;
	struct mf_stats st;
	struct mf_topo t;

	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, dims), 0);
	for (src = 0; src < p; src += (p > 20 ? 7 : 1)) {
		if (mf_sched_plan_check(test, &t, MESHFABRIC_ALGO_HEX, src, &st))
			return;
		/* 003 Theorem 3; H_2 (7 nodes): ceil(log2 7) = 3 */
		KUNIT_EXPECT_EQ(test, st.steps, n == 2 ? 3 : n + 2);
		KUNIT_EXPECT_EQ(test, st.tcd, (u64)p - 1);
		KUNIT_EXPECT_EQ(test, st.contention, 0ULL);
	}
}

/* ---- Tsay-Wang ---- */

static const struct mf_kt_cube mf_tw_cases[] = {
	{ 2, 3 }, { 2, 5 }, { 2, 7 }, { 2, 9 }, { 2, 11 }, { 2, 25 },
	{ 2, 4 }, { 2, 6 }, { 2, 8 }, { 2, 10 },
	{ 3, 3 }, { 3, 5 }, { 3, 7 }, { 3, 9 }, { 3, 4 }, { 3, 6 },
	{ 4, 3 }, { 4, 5 }, { 4, 4 },
};

static void mf_tw_desc(const struct mf_kt_cube *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "d=%u n=%u", c->d, c->n);
}

KUNIT_ARRAY_PARAM(mf_tw, mf_tw_cases, mf_tw_desc);

static void mf_sched_test_tsay_wang(struct kunit *test)
{
	const struct mf_kt_cube *c = test->param_value;
	u32 i, bound, lower, src;
	u64 nd = 1;
	struct mf_stats st;
	struct mf_topo t;

	for (i = 0; i < c->d; i++)
		nd *= c->n;
	if (c->n & 1)
		bound = c->d * mf_ceil_log(2 * c->d + 1, c->n) + 1;
	else
		bound = c->d * mf_ceil_log(2 * c->d + 1, c->n - 1) +
			DIV_ROUND_UP(c->d, 2) + 1;
	/* Lemma 1: ceil(d log_{2d+1} n) = least s with (2d+1)^s >= n^d */
	lower = mf_ceil_log(2 * c->d + 1, nd);
	mf_kt_cube_init(test, c, &t);
	for (src = 0; src < t.nodes; src += t.nodes / 3 + 1) {
		if (mf_sched_plan_check(test, &t, MESHFABRIC_ALGO_TSAY_WANG, src,
					&st))
			return;
		KUNIT_EXPECT_LE(test, st.steps, bound);
		KUNIT_EXPECT_GE(test, st.steps, lower);
		KUNIT_EXPECT_EQ(test, st.contention, 0ULL);
		KUNIT_EXPECT_EQ(test, st.max_link_load, 1U);
		KUNIT_EXPECT_EQ(test, st.sends, t.nodes - 1);
	}
}

/* ---- every algorithm on every topology it covers ---- */

static const struct mf_kt_topo mf_any_cases[] = {
	{ "mesh 8", MESHFABRIC_KIND_MESH, 1, { 8 } },
	{ "mesh 5x3", MESHFABRIC_KIND_MESH, 2, { 5, 3 } },
	{ "mesh 4x4", MESHFABRIC_KIND_MESH, 2, { 4, 4 } },
	{ "mesh 4x8", MESHFABRIC_KIND_MESH, 2, { 4, 8 } },
	{ "torus 7x7", MESHFABRIC_KIND_TORUS, 2, { 7, 7 } },
	{ "torus 8x8", MESHFABRIC_KIND_TORUS, 2, { 8, 8 } },
	{ "torus 6x4", MESHFABRIC_KIND_TORUS, 2, { 6, 4 } },
	{ "torus 4x4x4", MESHFABRIC_KIND_TORUS, 3, { 4, 4, 4 } },
	{ "torus 3x3x3", MESHFABRIC_KIND_TORUS, 3, { 3, 3, 3 } },
	{ "hex 3", MESHFABRIC_KIND_HEX, 1, { 3 } },
	{ "hex 5", MESHFABRIC_KIND_HEX, 1, { 5 } },
};

KUNIT_ARRAY_PARAM(mf_any, mf_any_cases, mf_kt_topo_desc);

static void mf_sched_test_every_algo(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u32 i, src, lower, covered = 0;
	struct mf_stats st;
	struct mf_topo t;

	mf_kt_topo_init(test, c, &t);
	KUNIT_EXPECT_NOT_NULL(test, mf_algos[0]);
	for (i = 0; mf_algos[i]; i++) {
		const struct mf_algo *a = mf_algos[i];

		KUNIT_EXPECT_PTR_EQ(test, mf_algo_by_id(a->id), a);
		KUNIT_EXPECT_PTR_EQ(test, mf_algo_by_name(a->name), a);
		if (a->supports(&t))
			continue;
		covered++;
		/* one-port: 2^s >= N; all-port: (ports + 1)^s >= N */
		lower = mf_ceil_log(a->model == MESHFABRIC_MODEL_ONE_PORT ?
				    2 : t.nports + 1, t.nodes);
		for (src = 0; src < t.nodes; src += t.nodes / 4 + 1) {
			if (mf_sched_plan_check(test, &t, a->id, src, &st))
				continue;
			KUNIT_EXPECT_GE_MSG(test, st.steps, lower, "%s", a->name);
			KUNIT_EXPECT_EQ_MSG(test, st.sends, t.nodes - 1, "%s",
					    a->name);
			KUNIT_EXPECT_GE_MSG(test, st.tcd, (u64)t.nodes - 1, "%s",
					    a->name);
		}
	}
	/* binomial and flood cover every topology (algo.h table) */
	KUNIT_EXPECT_GE(test, covered, 2U);
	/* auto always finds one */
	mf_sched_plan_check(test, &t, MESHFABRIC_ALGO_AUTO, t.nodes - 1, &st);
}

static void mf_sched_test_bad_input(struct kunit *test)
{
	u32 dims[2] = { 5, 3 };
	struct mf_sched s;
	struct mf_topo t;

	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims), 0);
	/* eyes needs 2^k x ... x 2^k */
	KUNIT_EXPECT_EQ(test, mf_plan(&t, MESHFABRIC_ALGO_EYES, 0,
				      MESHFABRIC_ROUTE_DEFAULT, &s, NULL),
			-EOPNOTSUPP);
	mf_sched_free(&s);
	KUNIT_EXPECT_EQ(test, mf_plan(&t, MESHFABRIC_ALGO_MAX + 1, 0,
				      MESHFABRIC_ROUTE_DEFAULT, &s, NULL),
			-EINVAL);
	mf_sched_free(&s);
	KUNIT_EXPECT_EQ(test, mf_plan(&t, MESHFABRIC_ALGO_FLOOD, t.nodes,
				      MESHFABRIC_ROUTE_DEFAULT, &s, NULL),
			-EINVAL);
	mf_sched_free(&s);
}

/* The checker rejects what is not a broadcast (a hand-made schedule). */
static void mf_sched_test_checker(struct kunit *test)
{
	u32 dims[1] = { 4 }, p01[2] = { 0, 1 }, p12[2] = { 1, 2 }, p23[2] = { 2, 3 };
	u32 p02[3] = { 0, 1, 2 };
	struct mf_stats st;
	struct mf_sched s;
	struct mf_topo t;
	char err[128];

	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, dims), 0);
	/* a valid chain 0 -> 1 -> 2 -> 3 in three steps */
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p01, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p12, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p23, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_end(&s), 0);
	KUNIT_EXPECT_EQ(test, mf_check(&t, &s, &st, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, st.steps, 3U);
	KUNIT_EXPECT_EQ(test, st.tcd, 3ULL);
	mf_sched_free(&s);

	/* node 1 sends in the step it is informed: invalid */
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p01, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p12, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p23, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_end(&s), 0);
	KUNIT_EXPECT_EQ(test, mf_check(&t, &s, &st, err, sizeof(err)), -EINVAL);
	mf_sched_free(&s);

	/* node 3 never informed, node 2 informed twice: invalid */
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p01, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_step(&s), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p02, 2), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_send(&s, p12, 1), 0);
	KUNIT_ASSERT_EQ(test, mf_sched_end(&s), 0);
	KUNIT_EXPECT_EQ(test, mf_check(&t, &s, &st, err, sizeof(err)), -EINVAL);
	mf_sched_free(&s);
}

static struct kunit_case mf_sched_test_cases[] = {
	KUNIT_CASE_PARAM(mf_sched_test_eyes_tcd, mf_eyes_gen_params),
	KUNIT_CASE(mf_sched_test_eyes_torus),
	KUNIT_CASE_PARAM(mf_sched_test_hex_a2, mf_hexs_gen_params),
	KUNIT_CASE_PARAM(mf_sched_test_tsay_wang, mf_tw_gen_params),
	KUNIT_CASE_PARAM(mf_sched_test_every_algo, mf_any_gen_params),
	KUNIT_CASE(mf_sched_test_bad_input),
	KUNIT_CASE(mf_sched_test_checker),
	{}
};

MF_KUNIT_SUITE(sched);
