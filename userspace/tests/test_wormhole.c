// SPDX-License-Identifier: GPL-2.0
/*
 * test_wormhole.c - the wormhole all-port broadcast (multi-hop sends, box
 * splitting) on meshes and tori of any sizes, d = 1..8.
 *
 * Every schedule passes mf_check() (every node informed exactly once, one
 * send per outgoing link per step) with zero step contention, and its steps
 * are at least the counting bound computed here from the topology's node
 * degrees alone (a test of the test).  Where tsay-wang applies (n^d tori),
 * tsay-wang is built and checked here and wormhole must not take more steps.
 * Figures from issue 13 (7x7 torus: 3; 8x8 mesh from a corner: 4; 16x16
 * mesh: at most 6) are asserted, and d = 1 must meet its lower bound
 * exactly (the counting bound, and on a mesh line a cut bound for the
 * nodes on each side of the source).
 */
#include "mf_test.h"
#include "algo.h"
#include "check.h"
#include "coll.h"
#include "search.h"
#include "bound_model.h"

/* Build algo from src and check it; 0 and *st on success. */
static int run(const struct mf_topo *t, u32 algo, u32 src, struct mf_stats *st)
{
	struct mf_sched s;
	char err[160] = "";
	int ret;

	memset(st, 0, sizeof(*st));
	ret = mf_plan(t, algo, src, MESHFABRIC_ROUTE_DEFAULT, &s, NULL);
	if (!ret)
		ret = mf_check(t, &s, st, err, sizeof(err));
	EXPECT_MSG(ret == 0, "algo %u %s d=%u %ux%ux%u src=%u: %d %s", algo,
		   mf_topo_kind_name(t->kind), t->ndims, t->dims[0],
		   t->ndims > 1 ? t->dims[1] : 1, t->ndims > 2 ? t->dims[2] : 1,
		   src, ret, err);
	mf_sched_free(&s);
	return ret;
}

/* wormhole from src: valid, contention-free, N - 1 sends, >= the bound.
 * Returns the steps (0 on failure).
 */
static u32 one(const struct mf_topo *t, u32 src)
{
	struct mf_stats st;
	u32 lb;

	if (run(t, MESHFABRIC_ALGO_WORMHOLE, src, &st))
		return 0;
	lb = counting_bound(t, src);
	EXPECT_MSG(st.contention == 0 && st.max_link_load <= 1,
		   "%s d=%u src=%u contention %llu", mf_topo_kind_name(t->kind),
		   t->ndims, src, (unsigned long long)st.contention);
	EXPECT_EQ(st.sends, t->nodes - 1);
	EXPECT_MSG(st.steps >= lb, "%s d=%u %ux%u src=%u: %u steps < bound %u",
		   mf_topo_kind_name(t->kind), t->ndims, t->dims[0],
		   t->ndims > 1 ? t->dims[1] : 1, src, st.steps, lb);
	return st.steps;
}

static u32 rng_state = 12345;

static u32 rnd(u32 n)
{
	rng_state = rng_state * 1103515245U + 12345U;
	return (rng_state >> 8) % n;
}

/* Sources: every corner (up to 4 of them), the centre, two random nodes. */
static void sources(const struct mf_topo *t)
{
	u32 c[MF_MAX_DIMS], i, k;

	for (k = 0; k < 4 && k < (1U << t->ndims); k++) {
		for (i = 0; i < t->ndims; i++)
			c[i] = (k >> i) & 1 ? t->dims[i] - 1 : 0;
		one(t, mf_topo_id(t, c));
	}
	for (i = 0; i < t->ndims; i++)
		c[i] = t->dims[i] / 2;
	one(t, mf_topo_id(t, c));
	one(t, rnd(t->nodes));
	one(t, rnd(t->nodes));
}

static void both(u32 d, const u32 *dims)
{
	struct mf_topo t;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, d, dims), 0);
	sources(&t);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, d, dims), 0);
	sources(&t);
}

/*
 * A line: the a nodes beyond one link receive at most one message through
 * that link per step, and each of them informs at most two more, so after
 * t steps at most (3^t - 1) / 2 of them are informed.
 */
static u32 cut_bound(u32 a)
{
	u64 reach = 0;
	u32 t = 0;

	while (reach < a) {
		reach = 3 * reach + 1;
		t++;
	}
	return t;
}

/* d = 1: every size 2..40, every source, meets the larger of the counting
 * bound and (meshes) the cut bounds of both sides exactly.
 */
static void test_d1_exact(void)
{
	u32 n, s, k, lb;
	struct mf_topo t;

	for (k = 0; k < 2; k++)
		for (n = 2; n <= 40; n++) {
			EXPECT_EQ(mf_topo_init(&t, k ? MESHFABRIC_KIND_TORUS :
					       MESHFABRIC_KIND_MESH, 1, &n), 0);
			for (s = 0; s < n; s++) {
				lb = counting_bound(&t, s);
				if (!k && cut_bound(s) > lb)
					lb = cut_bound(s);
				if (!k && cut_bound(n - 1 - s) > lb)
					lb = cut_bound(n - 1 - s);
				EXPECT_MSG(one(&t, s) == lb, "%s %u from %u",
					   mf_topo_kind_name(t.kind), n, s);
			}
		}
}

static void test_d2_matrix(void)
{
	u32 dims[2];

	for (dims[0] = 2; dims[0] <= 20; dims[0]++)
		for (dims[1] = 2; dims[1] <= 20; dims[1]++)
			both(2, dims);
}

static void test_d3_matrix(void)
{
	u32 dims[3], i;

	for (i = 2; i <= 12; i++) {
		dims[0] = dims[1] = dims[2] = i;
		both(3, dims);
	}
	for (i = 0; i < 40; i++) {
		dims[0] = 2 + rnd(11);
		dims[1] = 2 + rnd(11);
		dims[2] = 2 + rnd(11);
		both(3, dims);
	}
}

static void test_d4_to_d8_small(void)
{
	u32 dims[MF_MAX_DIMS], i, d;

	for (i = 2; i <= 6; i++) {
		dims[0] = dims[1] = dims[2] = dims[3] = i;
		both(4, dims);
	}
	for (i = 0; i < 12; i++) {
		for (d = 0; d < 4; d++)
			dims[d] = 2 + rnd(5);
		both(4, dims);
	}
	for (d = 5; d <= 8; d++) {
		for (i = 0; i < d; i++)
			dims[i] = 2 + i % 2;
		both(d, dims);
		for (i = 0; i < d; i++)
			dims[i] = d <= 6 ? 4 : 3;
		both(d, dims);
	}
}

/* Every tsay-wang case of test_tsay_wang.c: wormhole <= tsay-wang. */
static void vs_tsay_wang(u32 d, u32 n0, u32 n1)
{
	u32 dims[MF_MAX_DIMS], n, i, k;
	struct mf_topo t;
	struct mf_stats tw;

	for (n = n0; n <= n1; n++) {
		for (i = 0; i < d; i++)
			dims[i] = n;
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, d, dims), 0);
		for (k = 0; k < 2; k++) {
			u32 src = k ? t.nodes / 2 + n / 3 : 0, w;

			if (run(&t, MESHFABRIC_ALGO_TSAY_WANG, src, &tw))
				continue;
			w = one(&t, src);
			EXPECT_MSG(w && w <= tw.steps,
				   "%u^%u from %u: wormhole %u > tsay-wang %u",
				   n, d, src, w, tw.steps);
		}
	}
}

static void test_vs_tsay_wang(void)
{
	vs_tsay_wang(2, 3, 30);
	vs_tsay_wang(3, 3, 30);
	vs_tsay_wang(4, 3, 6);
	vs_tsay_wang(5, 3, 4);
}

static u32 steps_of(u32 kind, u32 d, const u32 *dims, const u32 *src)
{
	struct mf_topo t;

	EXPECT_EQ(mf_topo_init(&t, kind, d, dims), 0);
	return one(&t, mf_topo_id(&t, src));
}

/* Issue 13's figures (8^3 torus: 4), where tsay-wang is beaten on d = 3
 * tori, and shapes at the counting bound.
 */
static void test_issue_figures(void)
{
	u32 z[MF_MAX_DIMS] = { 0 }, c[MF_MAX_DIMS] = { 8, 8 };
	u32 tw8[3] = { 8, 8, 8 }, tw12[3] = { 12, 12, 12 };
	struct mf_topo t;
	struct mf_stats tw;

	EXPECT_EQ(steps_of(MESHFABRIC_KIND_TORUS, 2, (u32[]){ 7, 7 }, z), 3);
	EXPECT_EQ(steps_of(MESHFABRIC_KIND_MESH, 2, (u32[]){ 8, 8 }, z), 4);
	EXPECT(steps_of(MESHFABRIC_KIND_MESH, 2, (u32[]){ 16, 16 }, z) <= 6);
	EXPECT(steps_of(MESHFABRIC_KIND_MESH, 2, (u32[]){ 16, 16 }, c) <= 6);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, tw8), 0);
	EXPECT_EQ(one(&t, 0), 4);
	if (!run(&t, MESHFABRIC_ALGO_TSAY_WANG, 0, &tw))
		EXPECT(one(&t, 0) < tw.steps);
	/* at the counting bound: 8x8 torus, 16x16 mesh from (8,8) */
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, c), 0);
	EXPECT_EQ(one(&t, 0), counting_bound(&t, 0));
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, (u32[]){ 16, 16 }), 0);
	EXPECT_EQ(one(&t, mf_topo_id(&t, c)), counting_bound(&t, mf_topo_id(&t, c)));
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, tw12), 0);
	if (!run(&t, MESHFABRIC_ALGO_TSAY_WANG, 0, &tw))
		EXPECT(one(&t, 0) < tw.steps);
}

/* Far fewer steps than the one-hop baselines, whose steps are the
 * source's eccentricity.
 */
static void test_vs_flood(void)
{
	u32 dims[2] = { 16, 16 }, z[2] = { 0, 0 };
	struct mf_topo t;
	struct mf_stats fl;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims), 0);
	if (!run(&t, MESHFABRIC_ALGO_FLOOD, mf_topo_id(&t, z), &fl))
		EXPECT(one(&t, 0) * 5 <= fl.steps);
}

/* Issue 24: the counting bound, computed here, is what the issue names
 * for each shape, and wormhole (its flow search) reaches it: tori from
 * node 0 (vertex-transitive: every source is alike), meshes from every
 * source of 3x3, 6x6, 4x4x4 and 3x3x3x3 and from the corners, the centre
 * and random nodes of 8x8x8.  Reaching a lower bound makes these optimal.
 */
static void test_issue24_bound(void)
{
	static const u32 cases[][6] = {
		/* kind, d, sides (padded), the issue's bound */
		{ 2, 3, 3, 3, 3, 2 }, { 2, 3, 4, 4, 4, 3 }, { 2, 3, 5, 5, 5, 3 },
		{ 2, 3, 6, 6, 6, 3 }, { 2, 3, 7, 7, 7, 3 }, { 2, 3, 12, 12, 12, 4 },
		{ 2, 2, 9, 9, 0, 3 }, { 2, 2, 10, 10, 0, 3 }, { 2, 2, 11, 11, 0, 3 },
		{ 1, 2, 3, 3, 0, 2 }, { 1, 2, 6, 6, 0, 3 }, { 1, 3, 4, 4, 4, 3 },
		{ 1, 3, 8, 8, 8, 4 }, { 1, 4, 3, 3, 3, 3 },
	};
	u32 i, j, src, dims[MF_MAX_DIMS], lb;
	struct mf_topo t;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (j = 0; j < cases[i][1]; j++)
			dims[j] = cases[i][2 + (j < 3 ? j : 2)];
		EXPECT_EQ(mf_topo_init(&t, cases[i][0], cases[i][1], dims), 0);
		/* the issue's bound is the corner's on meshes */
		EXPECT_EQ(counting_bound(&t, 0), cases[i][5]);
		for (src = 0; src < t.nodes; src++) {
			if (cases[i][0] == MESHFABRIC_KIND_TORUS && src)
				break;
			if (t.nodes > 100 && src != t.nodes - 1 &&
			    src != t.nodes / 2 && src % 97)
				continue;
			lb = counting_bound(&t, src);
			EXPECT_MSG(one(&t, src) == lb, "case %u src %u: bound %u",
				   i, src, lb);
		}
	}
}

/* The three shapes wormhole left one step above the counting bound
 * before the local search (docs/wormhole.md): meshes 4x4x4x4, 16x16 and
 * 32x32 from a corner.  The bound, computed here, is 3, 4 and 5, and
 * wormhole meets it from node 0 (checked by one(): mf_check, contention
 * free, N - 1 sends).  Reaching a lower bound makes these optimal.
 */
static void test_issue24_corners(void)
{
	static const u32 cases[][3] = {
		/* d, side, counting bound from a corner */
		{ 4, 4, 3 }, { 2, 16, 4 }, { 2, 32, 5 },
	};
	u32 i, j, c, dims[MF_MAX_DIMS];
	struct mf_topo t;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (j = 0; j < cases[i][0]; j++)
			dims[j] = cases[i][1];
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, cases[i][0], dims), 0);
		EXPECT_EQ(counting_bound(&t, 0), cases[i][2]);
		EXPECT_EQ(one(&t, 0), cases[i][2]);
		/* every other corner (32x32: the opposite one), each through
		 * mf_check: the search from node 0 reflected, which the
		 * bound computed here for that corner must equal
		 */
		for (c = 1; c < 1U << cases[i][0]; c++) {
			u32 co[MF_MAX_DIMS], src;

			if (cases[i][1] == 32 && c != 3)
				continue;
			for (j = 0; j < cases[i][0]; j++)
				co[j] = c >> j & 1 ? cases[i][1] - 1 : 0;
			src = mf_topo_id(&t, co);
			EXPECT_EQ(counting_bound(&t, src), cases[i][2]);
			EXPECT_EQ(one(&t, src), cases[i][2]);
		}
	}
}

/* Shapes wormhole left one step above the counting bound (computed
 * here) before its search chose each new node by an augmenting path
 * searched backward from it (search.c, srch_augment_to) and the local
 * search kept every step's flow: 3-D meshes from node 0 and the opposite
 * corner, elongated tori of 3 and 4 dimensions (two of 2400 = 7^4 - 1
 * nodes, which a 4-step schedule only reaches with three perfect steps),
 * and a 2x4x295 mesh from a corner.  Each now meets its bound, which
 * makes it optimal.
 */
static void test_issue24_local(void)
{
	static const u32 cases[][6] = {
		/* kind (0 mesh, 1 torus), d, sides, counting bound */
		{ 0, 3, 2, 2, 23, 3 }, { 0, 3, 2, 3, 19, 3 },
		{ 0, 3, 2, 5, 12, 3 }, { 0, 3, 3, 3, 14, 3 },
		{ 0, 3, 3, 4, 11, 3 }, { 0, 3, 2, 4, 295, 5 },
		/* near the bound's capacity (test_issue24_seeds) */
		{ 0, 3, 2, 4, 15, 3 }, { 0, 3, 2, 7, 9, 3 },
		{ 0, 3, 2, 8, 8, 3 }, { 0, 3, 3, 7, 7, 3 },
		{ 0, 3, 4, 6, 6, 3 }, { 0, 3, 5, 5, 6, 3 },
		{ 1, 3, 2, 2, 31, 3 }, { 1, 3, 2, 3, 35, 3 },
		{ 1, 3, 2, 15, 43, 4 },
		/* N = 2400 = 7^4 - 1: three perfect steps, then 2057 new
		 * nodes from 2058 links
		 */
		{ 1, 3, 3, 20, 40, 4 }, { 1, 3, 3, 25, 32, 4 },
	};
	u32 i, lb, dims[4] = { 2, 2, 2, 150 }, cols = mf_search_columns_on;
	struct mf_topo t;

	mf_search_columns_on = 0;	/* as in at_bound */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(mf_topo_init(&t, cases[i][0] ? MESHFABRIC_KIND_TORUS :
				       MESHFABRIC_KIND_MESH, cases[i][1],
				       &cases[i][2]), 0);
		lb = counting_bound(&t, 0);
		EXPECT_EQ(lb, cases[i][5]);
		EXPECT_MSG(one(&t, 0) == lb, "case %u: bound %u", i, lb);
		if (!cases[i][0])
			EXPECT_EQ(one(&t, t.nodes - 1), counting_bound(&t, t.nodes - 1));
	}
	/* a 4-D torus: 1200 nodes, 5 links each, 6^4 = 1296 */
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 4, dims), 0);
	EXPECT_EQ(counting_bound(&t, 0), 4);
	EXPECT_EQ(one(&t, 0), 4);
	mf_search_columns_on = cols;
}

/* 3-D meshes from a corner within 2% to 19% of what the counting bound
 * allows in 3 steps (2x8x8: 128 nodes of 130; 4x5x7: 140 of 172), which
 * before the local search started from the nodes of the most links
 * (srch_choose) it reached from some seeds and not others (2x8x8 and
 * 3x7x7 from 3 of 16, 2x4x15 from 12; with starts by links alone, 13
 * of 16 on 2x8x8 and all 16 on the others): the local search alone, at
 * wormhole's budget (10^8 link visits), must now reach the bound from at
 * least 15 of seeds 1..16 (with starts by links, farthest first among
 * them, all 16 did, and by free links all 16 do), each schedule valid
 * and contention free.
 */
static void test_issue24_seeds(void)
{
	static const u32 cases[][3] = {
		{ 2, 4, 15 }, { 2, 7, 9 }, { 4, 5, 7 }, { 5, 5, 6 },
		{ 2, 8, 8 }, { 3, 7, 7 }, { 4, 6, 6 }, { 3, 3, 15 },
		{ 3, 6, 8 }, { 4, 4, 9 },
	};
	struct mf_stats st;
	struct mf_sched s;
	struct mf_topo t;
	char err[160];
	u32 i, seed, lb, got;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 3,
				       cases[i]), 0);
		lb = counting_bound(&t, 0);
		EXPECT_EQ(lb, 3);
		for (seed = 1, got = 0; seed <= 16; seed++) {
			if (mf_search_allport(&t, 0, lb, 0, 100000000ULL,
					      seed, &s))
				continue;
			got++;
			EXPECT_EQ(mf_check(&t, &s, &st, err, sizeof(err)), 0);
			EXPECT_EQ(st.steps, lb);
			EXPECT_EQ(st.sends, t.nodes - 1);
			EXPECT_EQ(st.contention, 0);
			mf_sched_free(&s);
		}
		printf("# mesh %ux%ux%u: %u of 16 seeds reach %u steps\n",
		       cases[i][0], cases[i][1], cases[i][2], got, lb);
		EXPECT_MSG(got >= 15, "mesh %ux%ux%u: %u of 16 seeds reach %u",
			   cases[i][0], cases[i][1], cases[i][2], got, lb);
	}
}

/* c is { kind (0 mesh, 1 torus), d, its d sides, the source } (padded
 * to 7): its topology in t, and the source.
 */
static u32 case_init(const u32 *c, struct mf_topo *t)
{
	u32 kind = MESHFABRIC_KIND_MESH;

	if (c[0])
		kind = MESHFABRIC_KIND_TORUS;
	EXPECT_EQ(mf_topo_init(t, kind, c[1], &c[2]), 0);
	return c[2 + c[1]];
}

/* Each of cases[0 .. n) (see case_init) has more than min_nodes nodes,
 * and wormhole meets the counting bound computed here, which makes it
 * optimal.
 */
static void at_bound(const u32 (*cases)[7], u32 n, u32 min_nodes)
{
	u32 i, lb, src, cols = mf_search_columns_on;
	struct mf_topo t;

	/* these pin the flow and local searches: the columns, which reach
	 * the 2x2xL shapes among them alone, are off (test_columns)
	 */
	mf_search_columns_on = 0;
	for (i = 0; i < n; i++) {
		src = case_init(cases[i], &t);
		EXPECT(t.nodes > min_nodes);
		lb = counting_bound(&t, src);
		EXPECT_MSG(one(&t, src) == lb, "case %u: bound %u", i, lb);
	}
	mf_search_columns_on = cols;
}

/* Each of cases[0 .. n) is above the counting bound (computed here) with
 * the search's switch *knob at 0 ("at the bound <without>" otherwise),
 * and meets it with *knob as it was (at_bound).  The second extension
 * (mf_search_last) and the starts by free links (mf_search_free_links)
 * are off in the run without *knob too: they came after every other
 * switch tested so, and reach some of their shapes alone (the second
 * extension the torus 5x5x96 and the mesh 2x3x121 of
 * test_issue24_nearest, the free links the mesh 3x3x33 from node 121 of
 * test_issue24_near).  So each shows what its switch added when it came.
 * The second extension is off in test_issue24_free's run without the
 * free links too; its two shapes are above the bound without them with
 * the extension on as well (5 steps each, tried by hand).
 */
static void at_bound_only_with(const u32 (*cases)[7], u32 n, u32 *knob,
			       const char *without)
{
	u32 i, src, was = *knob, last = mf_search_last;
	u32 cols = mf_search_columns_on, fl = mf_search_free_links;
	struct mf_topo t;

	mf_search_last = 0;
	mf_search_free_links = 0;
	*knob = 0;
	mf_search_columns_on = 0;	/* as in at_bound */
	for (i = 0; i < n; i++) {
		src = case_init(cases[i], &t);
		EXPECT_MSG(one(&t, src) > counting_bound(&t, src),
			   "case %u: at the bound %s", i, without);
	}
	mf_search_columns_on = cols;
	mf_search_free_links = fl;
	mf_search_last = last;
	*knob = was;
	at_bound(cases, n, 0);
}

/* Shapes that stayed one step above the counting bound even at
 * --effort 10 while the local search started from step sets chosen by
 * links alone: long meshes from a corner, elongated tori of 3 and 4
 * dimensions, and 3-D meshes from other nodes.  Its starts took the
 * nodes of the most links, farthest first among them (search.c,
 * srch_choose), and now the most free links (srch_key), and wormhole
 * meets the bound at its default budget.
 */
static void test_issue24_spread(void)
{
	static const u32 cases[][7] = {
		{ 0, 3, 2, 3, 450, 0 }, { 0, 3, 2, 2, 467, 0 },
		{ 0, 3, 10, 11, 21, 2142 }, { 0, 3, 4, 8, 57, 1016 },
		{ 1, 3, 2, 2, 626, 0 }, { 1, 3, 3, 4, 198, 0 },
		{ 0, 4, 4, 5, 7, 19, 0 }, { 1, 4, 2, 2, 4, 149, 0 },
	};

	at_bound(cases, sizeof(cases) / sizeof(*cases), 0);
}

/* Shapes of over 1000 nodes that stayed one step above the counting bound
 * while the local search had 10^8 link visits whatever the size: a swap
 * costs a few times N, so large shapes ran out within their first start.
 * With 10^5 per node (sched_wormhole.c, WH_SEARCH_LOCAL_NODE) wormhole
 * meets the bound on each at the default: two long 3-D meshes from a
 * corner, 11x11x16 from (6, 10, 3), a 3-D and a 4-D torus, and 4-D
 * meshes from a corner and from (2, 0, 1, 44).
 */
static void test_issue24_per_node(void)
{
	static const u32 cases[][7] = {
		{ 0, 3, 2, 2, 468, 0 }, { 0, 3, 2, 4, 499, 0 },
		{ 0, 3, 11, 11, 16, 479 }, { 1, 3, 2, 2, 686, 0 },
		{ 1, 4, 2, 3, 3, 220, 0 }, { 0, 4, 3, 7, 10, 13, 0 },
		{ 0, 4, 3, 4, 5, 59, 2654 },
	};

	at_bound(cases, sizeof(cases) / sizeof(*cases), 1000);
}

/* Shapes the local search left a few nodes short at its budget, which
 * it finishes when a start that close gets four times the budget
 * (search.c, srch_ls_within): the tori 4x24x25, 5x6x80 and 2x2x15x40
 * of 2400 = 7^4 - 1 nodes (6 links each), whose first three steps must
 * each inform 6 new nodes per informed one and whose last 2057 from
 * 2058 links; the torus 2x2x156, 624 = 5^4 - 1 nodes (4 links each);
 * the meshes 3x3x33 from node 121 and 2x3x122 from a corner.  Each is
 * above the counting bound (computed here) without the extension
 * (mf_search_near 0), and meets it with it.
 */
static void test_issue24_near(void)
{
	static const u32 cases[][7] = {
		{ 1, 3, 4, 24, 25, 0 }, { 1, 3, 5, 6, 80, 0 },
		{ 1, 3, 2, 2, 156, 0 }, { 1, 4, 2, 2, 15, 40, 0 },
		{ 0, 3, 3, 3, 33, 121 }, { 0, 3, 2, 3, 122, 0 },
	};

	at_bound_only_with(cases, sizeof(cases) / sizeof(*cases),
			   &mf_search_near, "without the extension");
}

/* Shapes the local search leaves one node short at the end of its
 * extension near a finish, which it finishes when a start that close
 * gets four times that again (search.c, srch_ls_within): the torus
 * 3x4x200, 2400 = 7^4 - 1 nodes (6 links each), the last 3-D torus of
 * docs/wormhole.md's sweeps above the bound, and the mesh 2x7x55 from a
 * corner.  Each is above the counting bound (computed here) without the
 * second extension (mf_search_last 0), and meets it with it.
 */
static void test_issue24_last(void)
{
	static const u32 cases[][7] = {
		{ 1, 3, 3, 4, 200, 0 }, { 0, 3, 2, 7, 55, 0 },
	};

	at_bound_only_with(cases, sizeof(cases) / sizeof(*cases),
			   &mf_search_last, "without the second extension");
}

/* Shapes the local search left above the counting bound while its swaps
 * took the earlier node at random: the tori 2x2x155 (620 of the 625
 * nodes 4 steps allow, 4 links each), 3x5x160 and 5x5x96 (2400 = 7^4 -
 * 1) and 2x2x5x120, and the meshes 2x2x117 and 2x3x121 from a corner.
 * Half its swaps now take the node of that step nearest to the one it
 * swaps with (search.c, srch_nearest).  Each is above the bound
 * (computed here) with that turned off (mf_search_nearest 0, the course
 * before, and the second extension and the starts by free links, which
 * came later, off too), and meets it with it.  The three 3-D tori also
 * stayed above
 * with two other changes of course (docs/wormhole.md, Search), so what
 * reaches them is the move, not a new course.
 */
static void test_issue24_nearest(void)
{
	static const u32 cases[][7] = {
		{ 1, 3, 2, 2, 155, 0 }, { 1, 3, 3, 5, 160, 0 },
		{ 1, 3, 5, 5, 96, 0 }, { 1, 4, 2, 2, 5, 120, 0 },
		{ 0, 3, 2, 2, 117, 0 }, { 0, 3, 2, 3, 121, 0 },
	};

	at_bound_only_with(cases, sizeof(cases) / sizeof(*cases),
			   &mf_search_nearest, "with random swaps only");
}

/* Shapes the local search left above the counting bound while its starts
 * took each step's nodes by their links alone: the 4-D meshes 3x4x11x22
 * and 3x3x11x29 from a corner, whose nodes of 8 links lie in slabs
 * (1x2x9x20, 1x1x9x27) that the starts filled, the informed nodes next
 * to each other.  The starts now take them by their free links, what
 * each adds to the links out of the informed set (search.c, srch_key).
 * Each is above the bound (computed here) with that turned off
 * (mf_search_free_links 0), and meets it with it.
 */
static void test_issue24_free(void)
{
	static const u32 cases[][7] = {
		{ 0, 4, 3, 4, 11, 22, 0 }, { 0, 4, 3, 3, 11, 29, 0 },
	};

	at_bound_only_with(cases, sizeof(cases) / sizeof(*cases),
			   &mf_search_free_links, "by links alone");
}

/* The extension near a finish is the same course as a budget four times
 * as large from the start: on the torus 2x2x156, where it fires, the
 * local search with 10^8 link visits and the extension, and with
 * 4 x 10^8 and none, end with the same schedule, at the bound.
 */
static void test_search_near_course(void)
{
	static const u32 dims[3] = { 2, 2, 156 };
	u32 near = mf_search_near, lb;
	struct mf_sched a, b;
	struct mf_topo t;
	int ea, eb;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, dims), 0);
	lb = counting_bound(&t, 0);
	ea = mf_search_allport(&t, 0, lb, 0, 100000000ULL, 1, &a);
	mf_search_near = 0;
	eb = mf_search_allport(&t, 0, lb, 0, 400000000ULL, 1, &b);
	mf_search_near = near;
	EXPECT_EQ(ea, 0);
	EXPECT_EQ(eb, 0);
	if (!ea && !eb) {
		EXPECT_EQ(a.nsteps, lb);
		EXPECT_EQ(a.nsteps, b.nsteps);
		EXPECT_EQ(a.nsends, b.nsends);
		EXPECT_EQ(a.npath, b.npath);
		EXPECT(a.nsteps == b.nsteps && a.nsends == b.nsends &&
		       a.npath == b.npath &&
		       !memcmp(a.step, b.step, (a.nsteps + 1) * sizeof(u32)) &&
		       !memcmp(a.send, b.send, a.nsends * sizeof(*a.send)) &&
		       !memcmp(a.path, b.path, a.npath * sizeof(u32)));
	}
	if (!ea)
		mf_sched_free(&a);
	if (!eb)
		mf_sched_free(&b);
	/* and without the extension, 10^8 does not get there */
	mf_search_near = 0;
	ea = mf_search_allport(&t, 0, lb, 0, 100000000ULL, 1, &a);
	mf_search_near = near;
	EXPECT_EQ(ea, -ESRCH);
	if (!ea)
		mf_sched_free(&a);
}

/* The search's own bound (it stops there) is the test's, and asking it
 * for fewer steps than the bound finds nothing.
 */
static void test_search_bound(void)
{
	u32 dims[MF_MAX_DIMS], d, k, src, n;
	struct mf_topo t;
	struct mf_sched s;

	for (d = 1; d <= 4; d++) {
		for (n = 2; n <= 6; n++) {
			for (k = 0; k < d; k++)
				dims[k] = n + k;
			for (k = MESHFABRIC_KIND_MESH; k <= MESHFABRIC_KIND_TORUS; k++) {
				EXPECT_EQ(mf_topo_init(&t, k, d, dims), 0);
				for (src = 0; src < t.nodes; src += 1 + t.nodes / 5)
					EXPECT_EQ(mf_allport_bound(&t, src),
						  counting_bound(&t, src));
			}
		}
	}
	dims[0] = dims[1] = dims[2] = 7;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, dims), 0);
	EXPECT_EQ(mf_search_allport(&t, 0, 2, 1000000, 1000000, 1, &s), -ESRCH);
	mf_sched_free(&s);
}

/* The most new nodes one all-port step can reach from informed[] (a max
 * flow computed here, independently of search.c): every informed node
 * may start a send on each of its links, every directed link carries
 * one send, any node may be passed through, every other node (of
 * target[], if not NULL) takes one.
 * Augmenting paths by breadth-first search over the links' residuals.
 */
static u32 step_max_to(const struct mf_topo *t, const u8 *informed,
		       const u8 *target)
{
	u32 n = t->nodes, np = t->nports, *q, *par, head, tail, u, v, p, got = 0;
	u8 *f, *took;
	s64 w;

	f = calloc((size_t)n * np, 1);
	took = calloc(n, 1);
	q = calloc(n, sizeof(*q));
	par = calloc(n, sizeof(*par));
	if (!f || !took || !q || !par)
		goto out;
	for (;;) {
		for (v = 0, tail = 0; v < n; v++) {
			par[v] = informed[v] ? U32_MAX - 1 : U32_MAX;
			if (informed[v])
				q[tail++] = v;
		}
		for (head = 0, v = U32_MAX; head < tail && v == U32_MAX; head++) {
			u = q[head];
			if (!informed[u] && !took[u] &&
			    (!target || target[u])) {
				v = u;
				break;
			}
			for (p = 0; p < np; p++) {
				if (!mf_topo_is_link(t, u, p))
					continue;
				w = mf_topo_neighbor(t, u, p);
				/* u -> w free: forward; w -> u used: cancel */
				if (!f[u * np + p] && par[w] == U32_MAX) {
					par[w] = 2 * (u * np + p);
					q[tail++] = (u32)w;
				}
			}
			for (p = 0; p < np; p++) {
				u32 r;

				if (!mf_topo_is_link(t, u, p))
					continue;
				w = mf_topo_neighbor(t, u, p);
				r = mf_topo_port(t, (u32)w, u);
				if (f[(u32)w * np + r] && par[w] == U32_MAX) {
					par[w] = 2 * ((u32)w * np + r) + 1;
					q[tail++] = (u32)w;
				}
			}
		}
		if (v == U32_MAX)
			break;
		took[v] = 1;
		got++;
		for (u = v; par[u] != U32_MAX - 1;) {
			u32 l = par[u] / 2;

			f[l] = !(par[u] & 1);
			u = par[u] & 1 ? (u32)mf_topo_neighbor(t, l / np, l % np) :
					 l / np;
		}
	}
out:
	free(f);
	free(took);
	free(q);
	free(par);
	return got;
}

static u32 step_max(const struct mf_topo *t, const u8 *informed)
{
	return step_max_to(t, informed, NULL);
}

/* Is there an all-port broadcast from src in 2 steps?  Exhaustive: step
 * 1 informs a set S of at most deg(src) nodes, which it can iff the flow
 * from src reaches all of S (step_max_to); step 2 must then inform the
 * other N - 1 - |S|, at most deg(src) + the degrees of S (the counting
 * argument prunes the sets below that), and it can iff step_max from
 * src and S reaches them all.  Every S of every size is tried.
 */
struct two {
	const struct mf_topo *t;
	u32 src, m, maxdeg, need;
	u8 *set, *informed;
	u64 tried;
};

static bool two_pick(struct two *w, u32 from, u32 left, u32 degs)
{
	bool ok;
	u32 v;

	if (!left) {
		if (degs < w->need)
			return false;
		w->tried++;
		if (step_max_to(w->t, w->informed, w->set) != w->m)
			return false;
		for (v = 0; v < w->t->nodes; v++)
			w->informed[v] = v == w->src || w->set[v];
		ok = step_max(w->t, w->informed) == w->t->nodes - 1 - w->m;
		for (v = 0; v < w->t->nodes; v++)
			w->informed[v] = v == w->src;
		return ok;
	}
	for (v = from; v < w->t->nodes; v++) {
		if (v == w->src || degs + left * w->maxdeg < w->need)
			continue;
		w->set[v] = 1;
		if (two_pick(w, v + 1, left - 1, degs + degree(w->t, v))) {
			w->set[v] = 0;
			return true;
		}
		w->set[v] = 0;
	}
	return false;
}

static bool two_steps(const struct mf_topo *t, u32 src, u64 *tried)
{
	struct two w = { .t = t, .src = src };
	bool found = false;
	u32 v;

	w.set = calloc(t->nodes, 1);
	w.informed = calloc(t->nodes, 1);
	EXPECT(w.set && w.informed);
	for (v = 0; v < t->nodes; v++)
		if (degree(t, v) > w.maxdeg)
			w.maxdeg = degree(t, v);
	if (w.set && w.informed) {
		w.informed[src] = 1;
		for (w.m = 1; w.m <= degree(t, src) && !found; w.m++) {
			/* step 2 informs at most deg(src) + the degrees of S */
			w.need = t->nodes - 1 - w.m > degree(t, src) ?
				 t->nodes - 1 - w.m - degree(t, src) : 0;
			found = two_pick(&w, 0, w.m, 0);
		}
	}
	free(w.set);
	free(w.informed);
	*tried += w.tried;
	return found;
}

/* The counting bound is not always reachable.  On every 3-D mesh of up
 * to 64 nodes, from every node where the bound is 2 steps, either
 * wormhole takes 2 steps and the exhaustive search finds 2 steps too, or
 * no 2-step broadcast exists (two_steps) and wormhole takes 3, which is
 * then optimal.
 */
struct two_count {
	u32 at, above;
	u64 tried;
};

static void two_steps_shape(const u32 *dims, struct two_count *c)
{
	u32 src, steps, at_shape = 0;
	struct mf_topo t;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 3, dims), 0);
	for (src = 0; src < t.nodes; src++) {
		if (counting_bound(&t, src) != 2)
			continue;
		steps = one(&t, src);
		if (steps == 2) {
			/* and so does two_steps, on the shape's first */
			if (!at_shape++)
				EXPECT(two_steps(&t, src, &c->tried));
			c->at++;
			continue;
		}
		c->above++;
		printf("# mesh %ux%ux%u from %u: %u steps\n", dims[0], dims[1],
		       dims[2], src, steps);
		EXPECT_MSG(!two_steps(&t, src, &c->tried),
			   "mesh %ux%ux%u from %u: 2 steps exist, not %u",
			   dims[0], dims[1], dims[2], src, steps);
		EXPECT_EQ(steps, 3);
	}
}

static void test_two_steps_exhaustive(void)
{
	struct two_count c = { 0 };
	u32 d[3];

	for (d[0] = 2; d[0] <= 4; d[0]++)
		for (d[1] = d[0]; d[0] * d[1] * d[1] <= 64; d[1]++)
			for (d[2] = d[1]; d[0] * d[1] * d[2] <= 64; d[2]++)
				two_steps_shape(d, &c);
	printf("# bound 2: %u sources at it, %u above, proven (%llu sets)\n",
	       c.at, c.above, (unsigned long long)c.tried);
	EXPECT(c.at > 0);
}

/* The flow search (no local search) makes every step but the last a
 * maximum one: its new nodes as many as step_max() finds from the nodes
 * informed before it.  Meshes and tori of 2 to 4 dimensions, several
 * sources, the counting bound and one step more.
 */
static void test_search_steps_maximal(void)
{
	static const u32 shapes[][5] = {
		/* kind (0 mesh), d, sides */
		{ 0, 2, 9, 11 }, { 1, 2, 9, 11 }, { 0, 3, 4, 5, 6 },
		{ 1, 3, 4, 5, 6 }, { 0, 3, 2, 3, 19 }, { 1, 3, 2, 2, 31 },
		{ 0, 2, 16, 16 }, { 1, 3, 3, 6, 7 },
	};
	u32 i, j, k, src, v, lb, dims[4] = { 3, 3, 3, 4 }, checked = 0;
	struct mf_topo t;
	struct mf_sched s;
	u8 *inf;

	for (i = 0; i <= sizeof(shapes) / sizeof(shapes[0]); i++) {
		if (i < sizeof(shapes) / sizeof(shapes[0]))
			EXPECT_EQ(mf_topo_init(&t, shapes[i][0] ? MESHFABRIC_KIND_TORUS :
					       MESHFABRIC_KIND_MESH, shapes[i][1],
					       &shapes[i][2]), 0);
		else	/* and a 4-D mesh */
			EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 4, dims), 0);
		inf = calloc(t.nodes, 1);
		EXPECT(inf != NULL);
		for (src = 0; inf && src < t.nodes; src += t.nodes / 3 + 1) {
			lb = counting_bound(&t, src);
			for (k = lb; k <= lb + 1; k++) {
				if (mf_search_allport(&t, src, k, 20000000, 0, 1, &s))
					continue;
				memset(inf, 0, t.nodes);
				inf[src] = 1;
				for (j = 0; j < s.nsteps; j++) {
					u32 n, m = step_max(&t, inf);
					const struct mf_send *sd = mf_sched_sends(&s, j, &n);

					if (j + 1 < s.nsteps)
						EXPECT_MSG(n == m, "shape %u src %u steps %u: step %u informs %u, at most %u",
							   i, src, k, j + 1, n, m);
					for (v = 0; v < n; v++)
						inf[sd[v].dst] = 1;
					checked++;
				}
				mf_sched_free(&s);
			}
		}
		free(inf);
	}
	EXPECT(checked >= 40);
	printf("# %u steps checked against the max flow\n", checked);
}

/* Does some sequence of k factors, each 2..m, multiply to n?  (Whether
 * a chain of subgroups with indices at most m can exist at all.)
 */
static bool factors_fit(u32 n, u32 k, u32 m)
{
	u32 f;

	if (!k)
		return n == 1;
	for (f = 2; f <= m; f++)
		if (n % f == 0 && factors_fit(n / f, k - 1, m))
			return true;
	return false;
}

/* Every torus of d = 1..4 with sides 2..7 (up to 600 nodes), from its
 * node 0 and its last node, at the counting bound and one step above:
 * whatever mf_search_lattice returns is a valid, contention-free
 * broadcast in exactly the steps asked (mf_check), and some are found.
 */
static void lattice_sweep(void)
{
	u32 dims[4], d, i, k, src, found = 0, tried = 0;
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;
	char err[160];
	int ret;

	for (d = 1; d <= 4; d++) {
		for (i = 0; i < d; i++)
			dims[i] = 2;
		for (;;) {
			if (!mf_topo_init(&t, MESHFABRIC_KIND_TORUS, d, dims) &&
			    t.nodes <= 600) {
				for (k = 0; k < 2; k++) {
					src = k ? t.nodes - 1 : 0;
					tried++;
					ret = mf_search_lattice(&t, src,
						counting_bound(&t, src) + k,
						1000000, &s);
					EXPECT_MSG(ret == 0 || ret == -ESRCH,
						   "d=%u: %d", d, ret);
					if (ret)
						continue;
					found++;
					memset(&st, 0, sizeof(st));
					EXPECT_EQ(mf_check(&t, &s, &st, err,
							   sizeof(err)), 0);
					EXPECT_EQ(st.contention, 0);
					EXPECT_EQ(s.nsteps,
						  counting_bound(&t, src) + k);
					mf_sched_free(&s);
				}
			}
			for (i = 0; i < d && ++dims[i] > 7; i++)
				dims[i] = 2;
			if (i == d)
				break;
		}
	}
	printf("# lattice sweep: %u of %u found\n", found, tried);
	EXPECT(found > tried / 10);
}

/* The chains of subgroups (search_lattice.c).  The elongated 3-D tori
 * whose node count is (D + 1)^k for a node's D links (perfect schedules:
 * every informed node informs D new ones in every step) were one step
 * above the counting bound in the sweep of docs/wormhole.md, 2x12x54
 * even with 10^9 link visits of the flow search; wormhole now meets the
 * bound computed here on each, from node 0 and from two more sources
 * (the schedule is translated), through mf_check.  Perfect means each
 * step j sends exactly D (D + 1)^(j - 1) messages, counted here.  On
 * 3x20x40 (2400 nodes, D = 6, bound 4) no four factors of at most 7
 * make 2400, which the test finds by enumeration, and the search finds
 * nothing; meshes and hex are refused.
 */
static void test_lattice(void)
{
	static const u32 cases[][4] = {
		/* sides, the counting bound (computed below too) */
		{ 2, 12, 54, 4 }, { 2, 18, 36, 4 }, { 2, 24, 27, 4 },
		{ 2, 3, 36, 3 }, { 7, 7, 7, 3 },
	};
	u32 i, j, k, src, dims[3], per, deg, n, srcs[3];
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;
	char err[160];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, cases[i]), 0);
		EXPECT_EQ(counting_bound(&t, 0), cases[i][3]);
		srcs[0] = 0;
		srcs[1] = t.nodes / 2 + 1;
		srcs[2] = t.nodes - 1;
		for (k = 0; k < 3; k++)
			EXPECT_EQ(one(&t, srcs[k]), cases[i][3]);
		/* the search itself: perfect steps */
		src = srcs[1];
		EXPECT_EQ(mf_search_lattice(&t, src, cases[i][3], 20000000, &s),
			  0);
		memset(&st, 0, sizeof(st));
		EXPECT_EQ(mf_check(&t, &s, &st, err, sizeof(err)), 0);
		EXPECT_EQ(st.contention, 0);
		deg = degree(&t, 0);
		EXPECT_EQ(s.nsteps, cases[i][3]);
		for (j = 0, per = deg; j < s.nsteps; j++, per *= deg + 1)
			EXPECT_MSG(s.step[j + 1] - s.step[j] == per,
				   "%ux%ux%u step %u: %u sends, perfect %u",
				   cases[i][0], cases[i][1], cases[i][2], j,
				   s.step[j + 1] - s.step[j], per);
		mf_sched_free(&s);
	}
	dims[0] = 3;
	dims[1] = 20;
	dims[2] = 40;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, dims), 0);
	n = counting_bound(&t, 0);
	EXPECT_EQ(n, 4);
	EXPECT(!factors_fit(t.nodes, n, degree(&t, 0) + 1));
	EXPECT_EQ(mf_search_lattice(&t, 0, n, 20000000, &s), -ESRCH);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 3, cases[4]), 0);
	EXPECT_EQ(mf_search_lattice(&t, 0, 3, 20000000, &s), -EINVAL);
	lattice_sweep();
	dims[0] = 4;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, dims), 0);
	EXPECT_EQ(mf_search_lattice(&t, 0, 3, 20000000, &s), -EINVAL);
}

/* 5-D to 8-D tori of small sides, where boxes took 5 to 8 steps (one
 * per dimension, docs/wormhole.md "Lattices"): the hypercubes 2^6, 2^7
 * and 2^8 (D = d links a node, bound 3), 3^5 and 3^6 (bound 3), 4^6 and
 * 3^8 (bound 4) now meet the counting bound computed here, from node 0 and
 * from the last node, through mf_check (one()).
 */
static void test_lattice_high_d(void)
{
	static const u32 cases[][3] = {
		/* d, side, counting bound */
		{ 6, 2, 3 }, { 7, 2, 3 }, { 8, 2, 3 }, { 5, 3, 3 }, { 6, 3, 3 },
		{ 6, 4, 4 }, { 8, 3, 4 },
	};
	u32 i, j, dims[MF_MAX_DIMS];
	struct mf_topo t;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (j = 0; j < cases[i][0]; j++)
			dims[j] = cases[i][1];
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, cases[i][0],
				       dims), 0);
		EXPECT_EQ(counting_bound(&t, 0), cases[i][2]);
		EXPECT_EQ(one(&t, 0), cases[i][2]);
		EXPECT_EQ(one(&t, t.nodes - 1), cases[i][2]);
	}
}

/* One mf_search_columns schedule of t from src at the counting bound
 * (computed here): checked, at the bound; 1 if found, 0 if not.
 */
static u32 columns_one(const struct mf_topo *t, u32 src)
{
	u32 lb = counting_bound(t, src);
	struct mf_stats st;
	struct mf_sched s;
	char err[160] = "";
	int ret;

	ret = mf_search_columns(t, src, lb, &s);
	if (ret == -ESRCH)
		return 0;
	EXPECT_EQ(ret, 0);
	if (ret)
		return 0;
	ret = mf_check(t, &s, &st, err, sizeof(err));
	EXPECT_MSG(ret == 0, "%s %ux%ux%u from %u: %s",
		   mf_topo_kind_name(t->kind), t->dims[0], t->dims[1],
		   t->ndims > 2 ? t->dims[2] : 1, src, err);
	EXPECT_EQ(st.steps, lb);
	EXPECT_EQ(st.sends, t->nodes - 1);
	EXPECT_EQ(st.contention, 0);
	mf_sched_free(&s);
	return !ret;
}

/* The columns (search_columns.c) on every torus 2x2xL and 4xL and every
 * mesh 2x2xL up to 4096 nodes (L = 3..1024): the tori from node 0 and
 * a node in the middle, the meshes from a corner at each end, from a
 * node of the middle column and from one at random; every eighth L also
 * with the sides of 2 laid first and between, the meshes from all 8
 * corners.  Each schedule is valid and at the counting bound computed
 * here.  They must be found on every torus of L >= 20 (below, blocks of
 * 6 outnumber those of 5 on some L), and on every mesh of L >= 22 from a
 * corner and L >= 43 from the middle whose node count is at least 8
 * below what the bound's steps allow (every informed node sending 4, the
 * source its own links: the mesh 2x2x586 from a corner, 2344 nodes, is
 * exactly the 1, 4, 19, 94, 469, 2344 that 5 steps allow; the columns
 * take 6 there, the end columns' nodes having 3).  From a node at
 * random they must be found on 85% of those (1126 of 1224 measured:
 * near an end the short run's columns often do not split into blocks,
 * and windows cut short at both ends cost what shapes near the bound
 * cannot spare).
 * Other shapes and sources are refused, and too few steps for the
 * layout is -ESRCH.
 */
static void test_columns(void)
{
	static const u32 order[3][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 2, 0 } };
	static const u32 refused[][7] = {
		{ 1, 3, 2, 3, 40, 0, 5 }, { 0, 3, 2, 2, 2, 0, 3 },
		{ 0, 2, 2, 40, 0, 0, 4 }, { 1, 2, 5, 6, 0, 0, 3 },
		{ 1, 4, 2, 2, 2, 40, 4 }, { 0, 3, 2, 5, 40, 0, 4 },
		{ 0, 3, 3, 4, 40, 0, 4 }, { 0, 4, 2, 3, 3, 40, 4 },
	};
	u32 L, o, i, c, k, m, src, deg, dims[3], cc[3], ask;
	u32 found[5] = { 0 }, want[5] = { 0 };
	u64 cap;
	struct mf_topo t;
	struct mf_sched s;

	for (L = 3; L <= 1024; L++) {
		for (o = 0; o < (L % 8 ? 1 : 3); o++) {
			dims[order[o][0]] = 2;
			dims[order[o][1]] = 2;
			dims[order[o][2]] = L;
			EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3,
					       dims), 0);
			/* node 0, and the node of the middle column at
			 * (1, 1) of its cross-section
			 */
			for (i = 0; i < 2; i++) {
				cc[order[o][0]] = i;
				cc[order[o][1]] = i;
				cc[order[o][2]] = i * L / 2;
				src = mf_topo_id(&t, cc);
				c = columns_one(&t, src);
				found[0] += c && L >= 20;
				want[0] += L >= 20;
				EXPECT_MSG(c || L < 20, "torus %ux%ux%u from %u",
					   dims[0], dims[1], dims[2], src);
			}
			EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 3,
					       dims), 0);
			/* corners (i < 8), a node in the middle, one at random */
			for (i = 0; i < 10; i++) {
				if (i < 8 && i && i != 7 && L % 8)
					continue;
				for (k = 0; k < 3; k++)
					cc[k] = (i >> k) & 1 ? dims[k] - 1 : 0;
				if (i >= 8)
					cc[order[o][2]] = i == 8 ? L / 2 : rnd(L);
				src = mf_topo_id(&t, cc);
				/* what the bound's steps allow: every other
				 * informed node sends 4 (all but 8 have 4 links)
				 */
				deg = mf_topo_degree(&t, src);
				for (k = counting_bound(&t, src), cap = 1; k; k--)
					cap = 5 * cap + deg - 4;
				c = columns_one(&t, src);
				m = i < 8 ? 1 : i - 6;
				ask = L >= (i < 8 ? 22 : 43) && t.nodes + 8 <= cap;
				found[m] += c && ask;
				want[m] += ask;
				EXPECT_MSG(c || !ask || i == 9,
					   "mesh %ux%ux%u from %u", dims[0],
					   dims[1], dims[2], src);
			}
		}
		/* 4xL from (1, 1), Lx4 from (L / 2, 3) */
		for (o = 0; o < 2; o++) {
			dims[o] = 4;
			dims[1 - o] = L;
			EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2,
					       dims), 0);
			c = columns_one(&t, o ? L / 2 + 3 * L : 1 + 4);
			found[4] += c && L >= 20;
			want[4] += L >= 20;
			EXPECT_MSG(c || L < 20, "torus %ux%u", dims[0], dims[1]);
		}
	}
	printf("# columns at the bound: tori 2x2xL %u (%u asked),", found[0],
	       want[0]);
	printf(" tori 4xL and Lx4 %u (%u), meshes 2x2xL from corners %u (%u),",
	       found[4], want[4], found[1], want[1]);
	printf(" from the middle %u (%u), from a node at random %u (%u)\n",
	       found[2], want[2], found[3], want[3]);
	EXPECT(found[3] >= want[3] * 85 / 100);
	/* other shapes: kind (0 mesh, 1 torus), d, sides, steps asked */
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		EXPECT_EQ(mf_topo_init(&t, refused[i][0] ?
				       MESHFABRIC_KIND_TORUS : MESHFABRIC_KIND_MESH,
				       refused[i][1], &refused[i][2]), 0);
		EXPECT_EQ(mf_search_columns(&t, 0, refused[i][6], &s), -EINVAL);
	}
	dims[0] = 4;
	dims[1] = 40;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	EXPECT_EQ(mf_search_columns(&t, 0, 2, &s), -ESRCH);
	/* more steps than the layout's levels: no empty first step */
	EXPECT_EQ(mf_search_columns(&t, 0, counting_bound(&t, 0) + 1, &s),
		  -ESRCH);
	EXPECT_EQ(mf_search_columns(&t, 0, 0, &s), -EINVAL);
	EXPECT_EQ(mf_search_columns(&t, 0, 256, &s), -EINVAL);
	EXPECT_EQ(mf_search_columns(&t, t.nodes, 3, &s), -EINVAL);
}

/* The columns' patterns (search_columns.c) on the meshes 2x3xL, 2x4xL
 * and 3x3xL up to about 4096 nodes (L from the second side on: 2x4x3
 * takes the 2x3 pattern), the sides' orders in turn: from the corners
 * at both ends (node 0 and the last), every fourth L from one other
 * corner in turn, every eighth from a node at random (a miss costs 24
 * layouts on the flows).  Each schedule is valid and at the counting
 * bound computed here.  On 2x3xL and 2x4xL, whose patterns have every
 * sender at 5 links, the most a node has, they must be found from a
 * corner wherever the node count is at least 5 below what the bound's
 * steps allow (every informed node but the source sending 5; the
 * margin is what the misses left: 2x3x129, 774 nodes of the 778 that 4
 * steps allow, is not asked); on 3x3xL, whose pattern has 6 senders in
 * every 4 columns where 36 / 7 would be the fewest, from 90% of the
 * corners (96.5% here).  From a node at random: 95% of 2x3xL (98.9%
 * measured on every L; all here), 60% of 3x3xL (88%; 84% here), 35% of
 * 2x4xL (49%; 55% here: from inside the axis the flows fall short, often
 * with room to spare, and the local search takes over).
 */
static void test_columns_pats(void)
{
	static const u32 order[3][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 2, 0 } };
	/* sides, longest L, 5-link rule, % from corners, % at random */
	static const u32 pats[3][6] = {
		{ 2, 3, 682, 1, 100, 95 }, { 2, 4, 512, 1, 100, 35 },
		{ 3, 3, 455, 0, 90, 60 },
	};
	u32 p, L, o, i, k, c, src, deg, dims[3], cc[3], ask;
	u32 found[2], want[2];
	struct mf_topo t;
	u64 cap;

	for (p = 0; p < 3; p++) {
		memset(found, 0, sizeof(found));
		memset(want, 0, sizeof(want));
		/* from L = the second side: 2x4x3 is 2x3's */
		for (L = pats[p][1]; L <= pats[p][2]; L++) {
			/* the orders of the sides in turn */
			o = L % 3;
			dims[order[o][0]] = pats[p][0];
			dims[order[o][1]] = pats[p][1];
			dims[order[o][2]] = L;
			EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 3, dims),
				  0);
			/* corners 0 and 7; every fourth L one of the others
			 * in turn, and every eighth a node at random
			 */
			for (i = 0; i < 4; i++) {
				if ((i == 2 && L % 4) || (i == 3 && L % 8))
					continue;
				o = i == 2 ? 1 + L / 4 % 6 : 7 * i;
				for (k = 0; k < 3; k++)
					cc[k] = (o >> k) & 1 ? dims[k] - 1 : 0;
				src = i < 3 ? mf_topo_id(&t, cc) : rnd(t.nodes);
				deg = mf_topo_degree(&t, src);
				k = counting_bound(&t, src);
				for (cap = 1; k; k--)
					cap = 6 * cap + deg - 5;
				c = columns_one(&t, src);
				ask = i == 3 || !pats[p][3] || t.nodes + 5 <= cap;
				found[i == 3] += c && ask;
				want[i == 3] += ask;
				EXPECT_MSG(c || !ask || i == 3 || !pats[p][3],
					   "mesh %ux%ux%u from %u", dims[0],
					   dims[1], dims[2], src);
			}
		}
		printf("# columns at the bound: meshes %ux%uxL from corners %u (%u asked),",
		       pats[p][0], pats[p][1], found[0], want[0]);
		printf(" from a node at random %u (%u)\n", found[1], want[1]);
		EXPECT(found[0] * 100 >= want[0] * pats[p][4]);
		EXPECT(found[1] * 100 >= want[1] * pats[p][5]);
	}
}

/* Shapes no other search of wormhole's brings to the counting bound: the
 * tori 2x2x781 (3124 = 5^5 - 1 nodes) and 2x760x2 (2x2x760 stayed above
 * it even at --effort 40, docs/wormhole.md), and the meshes 2x2x577 from
 * node 0 and 2x2x549 from the corner at the other end, above it at
 * --effort 10; and the meshes 2x3x623 from node 0, 2x3x166 from node 694
 * and 2x3x128 from the corner at the other end, above it at the default
 * budget (the sweeps of docs/wormhole.md), and so was 2x4x95 from node
 * 0.  wormhole takes more than the bound (computed here) with the
 * columns off, and meets it with them.  (2x3x613 and 3x3x113 from node
 * 0 and 3x3x185 from node 23 were here too: the local search's starts by
 * free links, search.c's srch_key, reach them now without the columns.)
 */
static void test_columns_wormhole(void)
{
	static const u32 cases[][7] = {
		{ 1, 3, 2, 2, 781, 0 }, { 1, 3, 2, 760, 2, 1001 },
		{ 0, 3, 2, 2, 577, 0 }, { 0, 3, 2, 2, 549, 2195 },
		{ 0, 3, 2, 3, 623, 0 }, { 0, 3, 2, 3, 166, 694 },
		{ 0, 3, 2, 3, 128, 767 }, { 0, 3, 2, 4, 95, 0 },
	};
	u32 i, src, lb, cols = mf_search_columns_on;
	struct mf_topo t;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		src = case_init(cases[i], &t);
		lb = counting_bound(&t, src);
		mf_search_columns_on = 0;
		EXPECT_MSG(one(&t, src) > lb, "case %u: at %u without", i, lb);
		mf_search_columns_on = 1;
		EXPECT_MSG(one(&t, src) == lb, "case %u: bound %u", i, lb);
	}
	mf_search_columns_on = cols;
}

/* mf_search_levels: levels out of range and a source not alone at 0
 * refused; a step asked to inform more than its flow reaches, -ESRCH;
 * levels by hand on the torus 2x2x5 (2 steps, the counting bound: 1 + 4
 * + 5 x 4 >= 20), one set that cannot finish and one that can, checked
 * by mf_check.
 */
static void test_search_levels(void)
{
	static const u32 dims[3] = { 2, 2, 10 }, dims5[3] = { 2, 2, 5 };
	struct mf_stats st;
	struct mf_sched s;
	struct mf_topo t;
	char err[160];
	u8 lvl[40];
	u32 p;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, dims), 0);
	memset(lvl, 1, sizeof(lvl));
	lvl[0] = 0;
	/* 39 nodes from 4 links in one step */
	EXPECT_EQ(mf_search_levels(&t, 0, 1, lvl, &s), -ESRCH);
	lvl[5] = 3;
	EXPECT_EQ(mf_search_levels(&t, 0, 2, lvl, &s), -EINVAL);
	lvl[5] = 0;
	EXPECT_EQ(mf_search_levels(&t, 0, 2, lvl, &s), -EINVAL);
	lvl[5] = 1;
	lvl[0] = 1;
	EXPECT_EQ(mf_search_levels(&t, 0, 2, lvl, &s), -EINVAL);
	/* 2x2x5: node 0's 4 neighbours first leave 3 of the other 15 out
	 * of step 2's reach (a max flow of networkx: 12); nodes 1, 2, 7
	 * and 12 first leave none
	 */
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, dims5), 0);
	memset(lvl, 2, t.nodes);
	lvl[0] = 0;
	for (p = 0; p < t.nports; p++)
		if (mf_topo_is_link(&t, 0, p))
			lvl[mf_topo_neighbor(&t, 0, p)] = 1;
	EXPECT_EQ(mf_search_levels(&t, 0, 2, lvl, &s), -ESRCH);
	memset(lvl, 2, t.nodes);
	lvl[0] = 0;
	lvl[1] = 1;
	lvl[2] = 1;
	lvl[7] = 1;
	lvl[12] = 1;
	EXPECT_EQ(mf_search_levels(&t, 0, 2, lvl, &s), 0);
	EXPECT_EQ(mf_check(&t, &s, &st, err, sizeof(err)), 0);
	EXPECT_EQ(st.steps, 2);
	EXPECT_EQ(st.sends, 19);
	EXPECT_EQ(st.contention, 0);
	mf_sched_free(&s);
}

static void test_supports(void)
{
	struct mf_topo t;
	u32 dims[1] = { 4 };

	EXPECT(mf_algo_by_name("wormhole") == &mf_algo_wormhole);
	EXPECT(mf_algo_by_id(MESHFABRIC_ALGO_WORMHOLE) == &mf_algo_wormhole);
	EXPECT_EQ(mf_algo_wormhole.model, MESHFABRIC_MODEL_ALL_PORT);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, dims), 0);
	EXPECT(mf_algo_wormhole.supports(&t) != 0);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, dims), 0);
	EXPECT_EQ(mf_algo_wormhole.supports(&t), 0);
}

int main(void)
{
	RUN(test_supports);
	RUN(test_d1_exact);
	RUN(test_d2_matrix);
	RUN(test_d3_matrix);
	RUN(test_d4_to_d8_small);
	RUN(test_vs_tsay_wang);
	RUN(test_issue_figures);
	RUN(test_vs_flood);
	RUN(test_issue24_bound);
	RUN(test_issue24_corners);
	RUN(test_issue24_local);
	RUN(test_issue24_seeds);
	RUN(test_issue24_spread);
	RUN(test_issue24_per_node);
	RUN(test_issue24_near);
	RUN(test_issue24_last);
	RUN(test_issue24_nearest);
	RUN(test_issue24_free);
	RUN(test_search_near_course);
	RUN(test_two_steps_exhaustive);
	RUN(test_search_steps_maximal);
	RUN(test_search_bound);
	RUN(test_lattice);
	RUN(test_lattice_high_d);
	RUN(test_columns);
	RUN(test_columns_pats);
	RUN(test_columns_wormhole);
	RUN(test_search_levels);
	return mf_test_done();
}
