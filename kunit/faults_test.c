// SPDX-License-Identifier: GPL-2.0
/*
 * faults_test.c - KUnit suite meshfabric_faults: routing and broadcasts
 * around down links (core/faults.c, mf_check_faults, mf_plan_faults)
 * inside the kernel, where the allocations are kvmalloc and KASAN watches:
 *  - on a 6x6 torus, a 5x4 mesh and H_4, fixed fault sets (links and a
 *    down node): every pair's path avoids the down links and is as long as
 *    a breadth-first search over the surviving links (mf_bfs.h) says,
 *    and exactly the pairs that BFS cannot connect are refused;
 *  - the repaired auto broadcast from every source passes mf_check_faults
 *    and informs as many nodes as BFS reaches;
 *  - the kernel's bounded build (mf_froute_build_ctl, a yield that calls
 *    cond_resched): at its work bound it routes every pair as BFS says,
 *    one below it refuses with -E2BIG before any destination, a yield
 *    that fails stops it with that error and nothing leaks, and a
 *    broadcast planned with that routing (what BCAST does) informs what
 *    BFS reaches.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "algo.h"
#include "faults.h"
#include "mf_bfs.h"
#include "route.h"
#include "mf_kunit.h"

struct mf_ft_case {
	const char *name;
	u32 kind, ndims, dims[2];
	u32 nlinks;
	u32 links[4][2];	/* node, port */
	s32 down_node;		/* -1: none */
};

static const struct mf_ft_case mf_ft_cases[] = {
	{ "torus 6x6", MESHFABRIC_KIND_TORUS, 2, { 6, 6 }, 3,
	  { { 0, 0 }, { 7, 2 }, { 20, 1 } }, 14 },
	{ "mesh 5x4", MESHFABRIC_KIND_MESH, 2, { 5, 4 }, 4,
	  { { 0, 0 }, { 6, 2 }, { 12, 1 }, { 1, 2 } }, -1 },
	{ "H_4", MESHFABRIC_KIND_HEX, 1, { 4, 0 }, 4,
	  { { 0, 0 }, { 5, 3 }, { 11, 4 }, { 30, 1 } }, 20 },
};

static void mf_ft_desc(const struct mf_ft_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(mf_ft, mf_ft_cases, mf_ft_desc);

static bool mf_ft_skip(const void *f, const struct mf_topo *t, u32 u, u32 p,
		       u32 v)
{
	return mf_faults_down(f, t, u, p);
}

/* BFS over mf_topo_neighbor, skipping the down links (f). */
static u32 mf_ft_bfs(const struct mf_topo *t, const struct mf_faults *f,
		     u32 a, u32 *dist, u32 *q)
{
	return mf_bfs_skip(t, a, dist, q, mf_ft_skip, f);
}

static void mf_ft_setup(struct kunit *test, const struct mf_ft_case *c,
			struct mf_topo *t, struct mf_faults *f)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, mf_topo_init(t, c->kind, c->ndims, c->dims), 0);
	mf_faults_init(f);
	for (i = 0; i < c->nlinks; i++)
		KUNIT_ASSERT_EQ(test, mf_faults_add_link(f, t, c->links[i][0],
							 c->links[i][1]), 0);
	if (c->down_node >= 0)
		KUNIT_ASSERT_EQ(test, mf_faults_add_node(f, t, c->down_node), 0);
}

static void mf_faults_test_routes(struct kunit *test)
{
	const struct mf_ft_case *c = test->param_value;
	u32 *dist, *q, *path, src, dst, h;
	struct mf_froute r;
	struct mf_faults f;
	struct mf_topo t;
	int len, port;

	mf_ft_setup(test, c, &t, &f);
	dist = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	q = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	path = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dist && q && path);
	KUNIT_ASSERT_EQ(test, mf_froute_build(&r, &t, 0, &f), 0);
	for (dst = 0; dst < t.nodes; dst++) {
		mf_ft_bfs(&t, &f, dst, dist, q);
		for (src = 0; src < t.nodes; src++) {
			len = mf_froute_path(&r, src, dst, path, t.nodes);
			if (dist[src] == U32_MAX) {
				KUNIT_EXPECT_EQ(test, len, -EHOSTUNREACH);
				continue;
			}
			KUNIT_EXPECT_EQ(test, len, (int)dist[src]);
			for (h = 0; len > 0 && h < (u32)len; h++) {
				port = mf_topo_port(&t, path[h], path[h + 1]);
				KUNIT_EXPECT_GE(test, port, 0);
				if (port >= 0)
					KUNIT_EXPECT_FALSE(test,
							   mf_faults_down(&f, &t, path[h], port));
			}
		}
	}
	mf_froute_free(&r);
	mf_faults_free(&f);
}

static void mf_faults_test_broadcasts(struct kunit *test)
{
	const struct mf_ft_case *c = test->param_value;
	struct mf_fault_plan *res;
	struct mf_sched s;
	struct mf_stats st;
	struct mf_faults f;
	struct mf_topo t;
	u32 *dist, *q, src, reach;

	mf_ft_setup(test, c, &t, &f);
	dist = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	q = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dist && q && res);
	for (src = 0; src < t.nodes; src++) {
		reach = mf_ft_bfs(&t, &f, src, dist, q);
		KUNIT_EXPECT_EQ(test, mf_plan_faults(&t, MESHFABRIC_ALGO_AUTO, 0,
						     src, 0, &f, &s, res), 0);
		KUNIT_EXPECT_EQ(test, mf_check_faults(&t, &s, &f, &st, NULL, 0), 0);
		KUNIT_EXPECT_EQ(test, st.sends, reach - 1);
		KUNIT_EXPECT_EQ(test, st.unreachable, t.nodes - reach);
		mf_sched_free(&s);
	}
	mf_faults_free(&f);
}

struct mf_ft_yield {
	u32 calls, stop_at;
};

static int mf_ft_yield(void *arg)
{
	struct mf_ft_yield *y = arg;

	cond_resched();
	return ++y->calls == y->stop_at ? -EINTR : 0;
}

static void mf_faults_test_bounded(struct kunit *test)
{
	const struct mf_ft_case *c = test->param_value;
	struct mf_ft_yield y = { 0 };
	struct mf_froute_ctl ctl = { .yield = mf_ft_yield, .arg = &y };
	struct mf_plan_req rq = { .id = MESHFABRIC_ALGO_AUTO };
	u32 *dist, *q, *path, src, dst, k;
	struct mf_fault_plan *res;
	struct mf_froute r;
	struct mf_faults f;
	struct mf_stats st;
	struct mf_sched s;
	struct mf_topo t;
	u64 w;
	int len;

	mf_ft_setup(test, c, &t, &f);
	dist = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	q = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	path = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dist && q && path && res);
	w = mf_froute_work(&t, 0, &f, 0, NULL);
	KUNIT_ASSERT_TRUE(test, w > 0 && w != U64_MAX);
	ctl.max_work = w - 1;
	KUNIT_EXPECT_EQ(test, mf_froute_build_ctl(&r, &t, 0, &f, &ctl), -E2BIG);
	KUNIT_EXPECT_EQ(test, r.nexc, 0U);
	mf_froute_free(&r);
	ctl.max_work = w;
	y.calls = 0;
	KUNIT_ASSERT_EQ(test, mf_froute_build_ctl(&r, &t, 0, &f, &ctl), 0);
	KUNIT_EXPECT_GE(test, y.calls, r.ndst);
	k = y.calls;
	for (dst = 0; dst < t.nodes; dst++) {
		mf_ft_bfs(&t, &f, dst, dist, q);
		for (src = 0; src < t.nodes; src++) {
			len = mf_froute_path(&r, src, dst, path, t.nodes);
			KUNIT_EXPECT_EQ(test, len, dist[src] == U32_MAX ?
					-EHOSTUNREACH : (int)dist[src]);
		}
	}
	rq.faults = &f;
	rq.route = &r;
	for (src = 0; src < t.nodes; src += 7) {
		u32 reach = mf_ft_bfs(&t, &f, src, dist, q);

		rq.source = src;
		KUNIT_EXPECT_EQ(test, mf_plan_for(&t, &rq, &s, res), 0);
		KUNIT_EXPECT_EQ(test, mf_check_faults(&t, &s, &f, &st, NULL, 0), 0);
		KUNIT_EXPECT_EQ(test, st.sends, reach - 1);
		mf_sched_free(&s);
	}
	mf_froute_free(&r);
	for (y.stop_at = 1; y.stop_at <= k; y.stop_at++) {
		y.calls = 0;
		KUNIT_EXPECT_EQ(test, mf_froute_build_ctl(&r, &t, 0, &f, &ctl),
				-EINTR);
		mf_froute_free(&r);
	}
	mf_faults_free(&f);
}

static struct kunit_case mf_faults_test_cases[] = {
	KUNIT_CASE_PARAM(mf_faults_test_bounded, mf_ft_gen_params),
	KUNIT_CASE_PARAM(mf_faults_test_routes, mf_ft_gen_params),
	KUNIT_CASE_PARAM(mf_faults_test_broadcasts, mf_ft_gen_params),
	{}
};

MF_KUNIT_SUITE(faults);
