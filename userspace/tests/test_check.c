// SPDX-License-Identifier: GPL-2.0
/*
 * test_check.c - the schedule checker catches each kind of broken schedule
 * (hand-built on a 2x2 and 4x1 mesh), and the topology basics hold against
 * breadth-first search.
 */
#include "mf_test.h"
#include "../../kunit/mf_bfs.h"
#include "check.h"
#include "topo.h"

/* BFS distances from a over mf_topo_neighbor: independent of distance(). */
static void test_distance_is_bfs_mesh_torus(void)
{
	static const u32 shapes[][4] = {
		{ 1, 2 }, { 1, 7 }, { 2, 4, 4 }, { 2, 5, 3 }, { 3, 2, 3, 4 },
		{ 2, 2, 2 }, { 3, 3, 3, 3 },
	};
	u32 kind, s, a, b, ecc_max;

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++) {
		for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
			struct mf_topo t;
			u32 *d;

			EXPECT_EQ(mf_topo_init(&t, kind, shapes[s][0], &shapes[s][1]), 0);
			d = malloc(t.nodes * sizeof(u32));
			ecc_max = 0;
			for (a = 0; a < t.nodes; a++) {
				mf_bfs(&t, a, d);
				for (b = 0; b < t.nodes; b++) {
					EXPECT_EQ(mf_topo_distance(&t, a, b), d[b]);
					if (d[b] > ecc_max)
						ecc_max = d[b];
					if (d[b] == 1)
						EXPECT(mf_topo_port(&t, a, b) >= 0);
					else
						EXPECT(mf_topo_port(&t, a, b) < 0);
				}
			}
			EXPECT_EQ(mf_topo_diameter(&t), ecc_max);
			free(d);
		}
	}
}

static void test_coords_roundtrip(void)
{
	u32 dims[3] = { 3, 4, 5 }, c[3], id;
	struct mf_topo t;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, dims), 0);
	EXPECT_EQ(t.nodes, 60);
	for (id = 0; id < t.nodes; id++) {
		mf_topo_coords(&t, id, c);
		/* id = x0 + n0 * (x1 + n1 * x2) */
		EXPECT_EQ(c[0] + 3 * (c[1] + 4 * c[2]), id);
		EXPECT_EQ(mf_topo_id(&t, c), id);
	}
}

static void test_bad_shapes(void)
{
	u32 dims[9] = { 2, 2, 2, 2, 2, 2, 2, 2, 2 }, one = 1, big = 1U << 27;
	struct mf_topo t;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 0, dims), -EINVAL);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 9, dims), -EINVAL);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 8, dims), 0);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, &one), -EINVAL);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, &big), -E2BIG);
	EXPECT_EQ(mf_topo_init(&t, 9, 1, dims), -EINVAL);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, &one), -EINVAL);
}

/* A 2x2 mesh: 0 1 / 2 3.  Valid: step 1 0->1, step 2 0->2, 1->3. */
static int build(struct mf_sched *s, u32 model, const u32 (*sends)[4],
		 u32 n)
{
	u32 i, step = 0;

	mf_sched_init(s, model, 0);
	for (i = 0; i < n; i++) {
		while (step < sends[i][0]) {
			mf_sched_step(s);
			step++;
		}
		mf_sched_send(s, &sends[i][1], sends[i][3] == U32_MAX ? 1 : 2);
	}
	return mf_sched_end(s);
}

static int check_2x2(u32 model, const u32 (*sends)[4], u32 n,
		     struct mf_stats *st)
{
	u32 dims[2] = { 2, 2 };
	struct mf_topo t;
	struct mf_sched s;
	char err[128];
	int ret;

	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims);
	build(&s, model, sends, n);
	ret = mf_check(&t, &s, st, err, sizeof(err));
	if (ret)
		printf("# checker: %s\n", err);
	mf_sched_free(&s);
	return ret;
}

#define X U32_MAX
static void test_checker_accepts_and_counts(void)
{
	/* {step, path...}: 0->1, then 0->2 and 1->3 */
	const u32 ok[][4] = { { 1, 0, 1, X }, { 2, 0, 2, X }, { 2, 1, 3, X } };
	/* 0->1->3 (2 hops) in step 1, then 0->2 and 3->... no: 1 not informed */
	const u32 ok2[][4] = { { 1, 0, 1, 3 }, { 2, 0, 2, X }, { 2, 3, 1, X } };
	struct mf_stats st;

	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, ok, 3, &st), 0);
	EXPECT_EQ(st.steps, 2);
	EXPECT_EQ(st.sends, 3);
	EXPECT_EQ(st.tcd, 3);
	EXPECT_EQ(st.max_link_load, 1);
	EXPECT_EQ(st.contention, 0);
	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, ok2, 3, &st), 0);
	EXPECT_EQ(st.tcd, 4);
}

static void test_checker_rejects(void)
{
	/* node 1 sends in the step it is informed */
	const u32 early[][4] = { { 1, 0, 1, X }, { 1, 1, 3, X }, { 2, 0, 2, X } };
	/* node 3 informed twice */
	const u32 twice[][4] = { { 1, 0, 1, X }, { 2, 1, 3, X }, { 2, 0, 2, X },
				 { 3, 2, 3, X } };
	/* one-port: node 0 sends twice in step 1 */
	const u32 port[][4] = { { 1, 0, 1, X }, { 1, 0, 2, X }, { 2, 1, 3, X } };
	/* not adjacent: 0 -> 3 in one hop */
	const u32 jump[][4] = { { 1, 0, 3, X }, { 2, 0, 1, X }, { 2, 3, 2, X } };
	/* node 2 never informed */
	const u32 miss[][4] = { { 1, 0, 1, X }, { 2, 1, 3, X } };
	/* path does not end at its destination: 0 -> 1 -> 3 claims dst 1? */
	struct mf_stats st;

	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, early, 3, &st), -EINVAL);
	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, twice, 4, &st), -EINVAL);
	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, port, 3, &st), -EINVAL);
	/* the same is fine all-port: two different outgoing links */
	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ALL_PORT, port, 3, &st), 0);
	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, jump, 3, &st), -EINVAL);
	EXPECT_EQ(check_2x2(MESHFABRIC_MODEL_ONE_PORT, miss, 2, &st), -EINVAL);
}

static void test_checker_counts_contention(void)
{
	/* 1x4 mesh 0-1-2-3, all-port: step 1 0->1->2 and 0->1?? no: */
	/* step 1: 0->1->2 ; step 2: 0->1 (1 hop) and 2->3 ; no contention.
	 * step 1: 0->1->2 ; step 2: 2->1 and 0->1->... cannot (1 informed). */
	/* Contention: 1x4, one-port, step 1 0->1, step 2: 0->1->2 and 1->2->3:
	 * link 1->2 carries two sends in step 2. */
	u32 dims[1] = { 4 };
	const u32 p1[] = { 0, 1 }, p2[] = { 0, 1, 2 }, p3[] = { 1, 2, 3 };
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;

	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, dims);
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 0);
	mf_sched_step(&s);
	mf_sched_send(&s, p1, 1);
	mf_sched_step(&s);
	mf_sched_send(&s, p2, 2);
	mf_sched_send(&s, p3, 2);
	mf_sched_end(&s);
	EXPECT_EQ(mf_check(&t, &s, &st, NULL, 0), 0);
	EXPECT_EQ(st.max_link_load, 2);
	EXPECT_EQ(st.contention, 1);
	EXPECT_EQ(st.tcd, 5);
	mf_sched_free(&s);
}

int main(void)
{
	RUN(test_distance_is_bfs_mesh_torus);
	RUN(test_coords_roundtrip);
	RUN(test_bad_shapes);
	RUN(test_checker_accepts_and_counts);
	RUN(test_checker_rejects);
	RUN(test_checker_counts_contention);
	return mf_test_done();
}
