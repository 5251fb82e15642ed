// SPDX-License-Identifier: GPL-2.0
/*
 * topo_test.c - KUnit suite meshfabric_topo: the portable core's topology
 * code (core/topo.c) inside the kernel.  Node counts against the product
 * of the sizes (3n^2 - 3n + 1 for H_n, 003), coordinate round trips,
 * distances against the tests' breadth-first search (mf_bfs.h) over
 * mf_topo_neighbor(), and diameters against the closed forms (mesh:
 * sum(n_i - 1); torus: sum(floor(n_i / 2)); H_n: n - 1, 003) and against
 * the largest BFS eccentricity.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "topo.h"
#include "mf_bfs.h"
#include "mf_kunit.h"

static const struct mf_kt_topo mf_topo_cases[] = {
	{ "mesh 7", MESHFABRIC_KIND_MESH, 1, { 7 } },
	{ "mesh 4x5", MESHFABRIC_KIND_MESH, 2, { 4, 5 } },
	{ "mesh 2x3x4", MESHFABRIC_KIND_MESH, 3, { 2, 3, 4 } },
	{ "torus 6", MESHFABRIC_KIND_TORUS, 1, { 6 } },
	{ "torus 5x4", MESHFABRIC_KIND_TORUS, 2, { 5, 4 } },
	{ "torus 8x8", MESHFABRIC_KIND_TORUS, 2, { 8, 8 } },
	{ "torus 2x3", MESHFABRIC_KIND_TORUS, 2, { 2, 3 } },
	{ "torus 3x3x4", MESHFABRIC_KIND_TORUS, 3, { 3, 3, 4 } },
	{ "torus 2x2x2x3", MESHFABRIC_KIND_TORUS, 4, { 2, 2, 2, 3 } },
	{ "hex 2", MESHFABRIC_KIND_HEX, 1, { 2 } },
	{ "hex 3", MESHFABRIC_KIND_HEX, 1, { 3 } },
	{ "hex 4", MESHFABRIC_KIND_HEX, 1, { 4 } },
	{ "hex 6", MESHFABRIC_KIND_HEX, 1, { 6 } },
};

KUNIT_ARRAY_PARAM(mf_topo, mf_topo_cases, mf_kt_topo_desc);

static void mf_topo_setup(struct kunit *test, struct mf_topo *t)
{
	mf_kt_topo_init(test, test->param_value, t);
}

static void mf_topo_test_nodes(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	struct mf_topo t;
	u32 i, want = 1;

	mf_topo_setup(test, &t);
	if (c->kind == MESHFABRIC_KIND_HEX) {
		want = 3 * c->dims[0] * c->dims[0] - 3 * c->dims[0] + 1;
		KUNIT_EXPECT_EQ(test, t.nports, 6U);
	} else {
		for (i = 0; i < c->ndims; i++)
			want *= c->dims[i];
		KUNIT_EXPECT_EQ(test, t.nports, 2 * c->ndims);
	}
	KUNIT_EXPECT_EQ(test, t.nodes, want);
}

static void mf_topo_test_coords(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u32 coords[MF_MAX_DIMS];
	struct mf_topo t;
	u32 id, i, expect;

	mf_topo_setup(test, &t);
	for (id = 0; id < t.nodes; id++) {
		mf_topo_coords(&t, id, coords);
		if (c->kind != MESHFABRIC_KIND_HEX) {
			/* id = x0 + n0 * (x1 + n1 * (...)), topo.h */
			expect = 0;
			for (i = t.ndims; i-- > 0;) {
				KUNIT_EXPECT_LT(test, coords[i], c->dims[i]);
				expect = expect * c->dims[i] + coords[i];
			}
			KUNIT_EXPECT_EQ(test, expect, id);
		}
		KUNIT_EXPECT_EQ(test, mf_topo_id(&t, coords), id);
	}
}

static void mf_topo_test_distance(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u32 *dist, *queue, src, v, ecc, diam = 0;
	struct mf_topo t;
	u32 i, closed = 0;

	mf_topo_setup(test, &t);
	dist = mf_kt_u32s(test, t.nodes);
	queue = mf_kt_u32s(test, t.nodes);
	/* the search indexes dist[] by the neighbours' ids */
	for (src = 0; src < t.nodes; src++)
		for (i = 0; i < t.nports; i++)
			KUNIT_ASSERT_LT(test, mf_topo_neighbor(&t, src, i),
					(s64)t.nodes);
	for (src = 0; src < t.nodes; src++) {
		mf_bfs_q(&t, src, dist, queue);
		ecc = 0;
		for (v = 0; v < t.nodes; v++) {
			KUNIT_ASSERT_NE(test, dist[v], U32_MAX);
			KUNIT_EXPECT_EQ_MSG(test, mf_topo_distance(&t, src, v),
					    dist[v], "%u -> %u", src, v);
			ecc = max(ecc, dist[v]);
		}
		diam = max(diam, ecc);
	}
	KUNIT_EXPECT_EQ(test, mf_topo_diameter(&t), diam);

	if (c->kind == MESHFABRIC_KIND_HEX)
		closed = c->dims[0] - 1;
	for (i = 0; c->kind != MESHFABRIC_KIND_HEX && i < c->ndims; i++)
		closed += c->kind == MESHFABRIC_KIND_MESH ?
			  c->dims[i] - 1 : c->dims[i] / 2;
	KUNIT_EXPECT_EQ(test, diam, closed);
}

static void mf_topo_test_neighbors(struct kunit *test)
{
	struct mf_topo t;
	u32 id, p;

	mf_topo_setup(test, &t);
	for (id = 0; id < t.nodes; id++) {
		for (p = 0; p < t.nports; p++) {
			s64 v = mf_topo_neighbor(&t, id, p);
			int back;

			if (v < 0)
				continue;
			/* adjacency is symmetric and mf_topo_port inverts it */
			KUNIT_EXPECT_EQ(test, mf_topo_distance(&t, id, v), 1U);
			back = mf_topo_port(&t, (u32)v, id);
			KUNIT_EXPECT_GE(test, back, 0);
			if (back >= 0)
				KUNIT_EXPECT_EQ(test, mf_topo_neighbor(&t, v, back),
						(s64)id);
			KUNIT_EXPECT_GE(test, mf_topo_port(&t, id, (u32)v), 0);
		}
	}
}

static void mf_topo_test_bad_input(struct kunit *test)
{
	u32 dims[MF_MAX_DIMS + 1] = { 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	u32 one[1] = { 1 };
	struct mf_topo t;

	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, 0, 2, dims), -EINVAL);
	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 0, dims),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_TORUS,
					   MF_MAX_DIMS + 1, dims), -EINVAL);
	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, one),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, one),
			-EINVAL);
	/* 4^8 = 65536 nodes is fine, 2^27 is above MF_MAX_NODES */
	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_TORUS,
					   MF_MAX_DIMS, dims), 0);
	dims[0] = 1U << 14;
	dims[1] = 1U << 13;
	KUNIT_EXPECT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims),
			-E2BIG);
}

static struct kunit_case mf_topo_test_cases[] = {
	KUNIT_CASE_PARAM(mf_topo_test_nodes, mf_topo_gen_params),
	KUNIT_CASE_PARAM(mf_topo_test_coords, mf_topo_gen_params),
	KUNIT_CASE_PARAM(mf_topo_test_distance, mf_topo_gen_params),
	KUNIT_CASE_PARAM(mf_topo_test_neighbors, mf_topo_gen_params),
	KUNIT_CASE(mf_topo_test_bad_input),
	{}
};

MF_KUNIT_SUITE(topo);
