// SPDX-License-Identifier: GPL-2.0
/*
 * route_test.c - KUnit suite meshfabric_route: the core's routing
 * functions (core/route*.c, core/analyze.c) inside the kernel.
 *  - hexagonal routing (003 algorithm A1) on H_n, n = 2..6: every path
 *    is a walk over 003's adjacency (i +- 1, i +- (3n - 1), i +- (3n - 2)
 *    mod p, written here) and as long as a breadth-first search says;
 *  - dimension order, diagonal and cyclic dimension order paths on
 *    meshes and tori: adjacent steps, shortest (BFS), and for dimension
 *    order the dimensions corrected lowest first (route.h);
 *  - homogeneity on tori and H_n (004 section 2.1): the port taken at
 *    cur towards dst is the port taken at cur - dst towards node 0;
 *  - Delta(R) of dimension-order routing on a K^n torus against the
 *    closed form (K - 1)(K^(n-1) - 1) / 2 of 004 Theorem 4 (odd K), and
 *    the subtree sizes against a count over the routed paths to node 0.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "route.h"
#include "mf_bfs.h"
#include "mf_kunit.h"

/* ---- hexagonal routing against BFS over 003's adjacency ---- */

static u32 mf_rt_hex_nb(u32 n, u32 i, u32 k)
{
	s64 p = 3 * n * n - 3 * n + 1;
	/* 003, after Theorem 1: i +- 1, i +- (3n - 1), i +- (3n - 2) mod p */
	s64 off[6] = { 1, -1, 3 * n - 1, -(s64)(3 * n - 1), 3 * n - 2,
		       -(s64)(3 * n - 2) };

	return (u32)((((s64)i + off[k]) % p + p) % p);
}

static void mf_rt_hex_bfs(u32 n, u32 src, u32 *dist, u32 *queue)
{
	u32 p = 3 * n * n - 3 * n + 1, head = 0, tail = 0, i, k;

	for (i = 0; i < p; i++)
		dist[i] = U32_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		u32 u = queue[head++];

		for (k = 0; k < 6; k++) {
			u32 v = mf_rt_hex_nb(n, u, k);

			if (dist[v] == U32_MAX) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
}

static bool mf_rt_hex_adjacent(u32 n, u32 a, u32 b)
{
	u32 k;

	for (k = 0; k < 6; k++)
		if (mf_rt_hex_nb(n, a, k) == b)
			return true;
	return false;
}

static const u32 mf_rt_hex_sizes[] = { 2, 3, 4, 5, 6 };

static void mf_rt_hex_desc(const u32 *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "H_%u", *n);
}

KUNIT_ARRAY_PARAM(mf_rt_hex, mf_rt_hex_sizes, mf_rt_hex_desc);

static void mf_route_test_hex_a1_bfs(struct kunit *test)
{
	u32 n = *(const u32 *)test->param_value;
	u32 dims[1] = { n };
	u32 *dist, *queue, *path, src, dst, i;
	struct mf_topo t;
	int len;

	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, dims), 0);
	KUNIT_ASSERT_EQ(test, t.nodes, 3 * n * n - 3 * n + 1);
	dist = mf_kt_u32s(test, t.nodes);
	queue = mf_kt_u32s(test, t.nodes);
	path = mf_kt_u32s(test, t.nodes + 1);
	for (src = 0; src < t.nodes; src++) {
		mf_rt_hex_bfs(n, src, dist, queue);
		for (dst = 0; dst < t.nodes; dst++) {
			KUNIT_EXPECT_EQ(test, mf_hex_distance(n, src, dst), dist[dst]);
			len = mf_route_path(&t, MESHFABRIC_ROUTE_A1, src, dst, path,
					    t.nodes + 1);
			KUNIT_ASSERT_EQ_MSG(test, len, (int)dist[dst], "%u -> %u",
					    src, dst);
			KUNIT_EXPECT_EQ(test, path[0], src);
			KUNIT_EXPECT_EQ(test, path[len], dst);
			for (i = 0; i < (u32)len; i++)
				KUNIT_EXPECT_TRUE_MSG(test,
						      mf_rt_hex_adjacent(n, path[i], path[i + 1]),
						      "%u -> %u hop %u", src, dst, i);
		}
	}
	/* the diameter of H_n is n - 1 (003) */
	KUNIT_EXPECT_EQ(test, mf_topo_diameter(&t), n - 1);
}

/* ---- mesh/torus routings: shortest, adjacent, dimension order ---- */

static const struct mf_kt_topo mf_rt_cases[] = {
	{ "dor mesh 4x5", MESHFABRIC_KIND_MESH, 2, { 4, 5 }, MESHFABRIC_ROUTE_DOR },
	{ "dor mesh 3x2x4", MESHFABRIC_KIND_MESH, 3, { 3, 2, 4 }, MESHFABRIC_ROUTE_DOR },
	{ "dor torus 5x4", MESHFABRIC_KIND_TORUS, 2, { 5, 4 }, MESHFABRIC_ROUTE_DOR },
	{ "dor torus 7x7", MESHFABRIC_KIND_TORUS, 2, { 7, 7 }, MESHFABRIC_ROUTE_DOR },
	{ "dor torus 2x3x4", MESHFABRIC_KIND_TORUS, 3, { 2, 3, 4 }, MESHFABRIC_ROUTE_DOR },
	{ "diagonal torus 5x5", MESHFABRIC_KIND_TORUS, 2, { 5, 5 },
	  MESHFABRIC_ROUTE_DIAGONAL },
	{ "diagonal torus 6x4", MESHFABRIC_KIND_TORUS, 2, { 6, 4 },
	  MESHFABRIC_ROUTE_DIAGONAL },
	{ "diagonal torus 3x3x3", MESHFABRIC_KIND_TORUS, 3, { 3, 3, 3 },
	  MESHFABRIC_ROUTE_DIAGONAL },
	{ "cdo torus 5x5", MESHFABRIC_KIND_TORUS, 2, { 5, 5 }, MESHFABRIC_ROUTE_CDO },
	{ "cdo torus 4x4x4", MESHFABRIC_KIND_TORUS, 3, { 4, 4, 4 },
	  MESHFABRIC_ROUTE_CDO },
	{ "a1 hex 4", MESHFABRIC_KIND_HEX, 1, { 4 }, MESHFABRIC_ROUTE_A1 },
};

KUNIT_ARRAY_PARAM(mf_rt, mf_rt_cases, mf_kt_topo_desc);

/* Port of a leading to b found by scanning a's ports, or -1. */
static int mf_rt_scan_port(const struct mf_topo *t, u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (mf_topo_neighbor(t, a, p) == (s64)b)
			return p;
	return -1;
}

static void mf_route_test_paths(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u32 *dist, *queue, *path, src, dst, i, lastdim;
	struct mf_topo t;
	int len, port;

	mf_kt_topo_init(test, c, &t);
	KUNIT_ASSERT_EQ(test, mf_route_valid(&t, c->routing), 0);
	dist = mf_kt_u32s(test, t.nodes);
	queue = mf_kt_u32s(test, t.nodes);
	path = mf_kt_u32s(test, t.nodes + 1);
	for (src = 0; src < t.nodes; src++) {
		mf_bfs_q(&t, src, dist, queue);
		KUNIT_EXPECT_EQ(test, mf_route_next(&t, c->routing, src, src),
				-ENOENT);
		for (dst = 0; dst < t.nodes; dst++) {
			len = mf_route_path(&t, c->routing, src, dst, path,
					    t.nodes + 1);
			KUNIT_ASSERT_EQ_MSG(test, len, (int)dist[dst], "%u -> %u",
					    src, dst);
			KUNIT_EXPECT_EQ(test, path[0], src);
			KUNIT_EXPECT_EQ(test, path[len], dst);
			lastdim = 0;
			for (i = 0; i < (u32)len; i++) {
				port = mf_rt_scan_port(&t, path[i], path[i + 1]);
				KUNIT_ASSERT_GE_MSG(test, port, 0, "%u -> %u hop %u",
						    src, dst, i);
				if (c->routing != MESHFABRIC_ROUTE_DOR)
					continue;
				/* lowest dimension first (004 Def. 3, route.h) */
				KUNIT_EXPECT_GE(test, (u32)port / 2, lastdim);
				lastdim = port / 2;
			}
		}
	}
	/* a path that does not fit reports -ERANGE */
	if (t.nodes > 2 && mf_topo_diameter(&t) >= 2) {
		for (dst = 0; dst < t.nodes; dst++)
			if (mf_topo_distance(&t, 0, dst) >= 2)
				break;
		KUNIT_EXPECT_EQ(test, mf_route_path(&t, c->routing, 0, dst, path, 2),
				-ERANGE);
	}
}

static void mf_route_test_homogeneous(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	struct mf_topo t;
	u32 cur, dst;

	mf_kt_topo_init(test, c, &t);
	if (c->kind == MESHFABRIC_KIND_MESH)
		kunit_skip(test, "meshes are not homogeneous (004 section 2.1)");
	for (cur = 0; cur < t.nodes; cur++)
		for (dst = 0; dst < t.nodes; dst++) {
			if (cur == dst)
				continue;
			KUNIT_EXPECT_EQ_MSG(test,
					    mf_route_next(&t, c->routing, cur, dst),
					    mf_route_next(&t, c->routing,
							  mf_topo_sub(&t, cur, dst), 0),
					    "%u -> %u", cur, dst);
		}
}

/* ---- Delta(R) of dimension-order routing, 004 Theorem 4 ---- */

/* T_k^n: the torus k x ... x k of n dimensions (d = n, n = k here) */
static const struct mf_kt_cube mf_delta_cases[] = {
	{ 1, 3 }, { 1, 5 }, { 2, 3 }, { 2, 5 }, { 2, 7 }, { 2, 9 },
	{ 3, 3 }, { 3, 5 }, { 3, 7 }, { 4, 3 },
};

static void mf_delta_desc(const struct mf_kt_cube *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "T_%u^%u", c->n, c->d);
}

KUNIT_ARRAY_PARAM(mf_delta, mf_delta_cases, mf_delta_desc);

static void mf_route_test_delta_dor(struct kunit *test)
{
	const struct mf_kt_cube *c = test->param_value;
	u32 *path, i, x;
	u64 delta, kn1 = 1, closed, size[2 * MF_MAX_DIMS], count[2 * MF_MAX_DIMS];
	u64 lo = U64_MAX, hi = 0;
	struct mf_topo t;
	int len, port;

	for (i = 1; i < c->d; i++)
		kn1 *= c->n;
	closed = (u64)(c->n - 1) * (kn1 - 1) / 2;
	mf_kt_cube_init(test, c, &t);
	KUNIT_ASSERT_EQ(test, mf_route_delta(&t, MESHFABRIC_ROUTE_DOR, &delta, size),
			0);
	KUNIT_EXPECT_EQ(test, delta, closed);

	/* S_p: the nodes whose routed path to node 0 arrives through port p */
	path = mf_kt_u32s(test, t.nodes + 1);
	memset(count, 0, sizeof(count));
	for (x = 1; x < t.nodes; x++) {
		len = mf_route_path(&t, MESHFABRIC_ROUTE_DOR, x, 0, path, t.nodes + 1);
		KUNIT_ASSERT_GT(test, len, 0);
		port = mf_rt_scan_port(&t, 0, path[len - 1]);
		KUNIT_ASSERT_GE(test, port, 0);
		count[port]++;
	}
	for (i = 0; i < t.nports; i++) {
		KUNIT_EXPECT_EQ_MSG(test, size[i], count[i], "port %u", i);
		lo = min(lo, count[i]);
		hi = max(hi, count[i]);
	}
	KUNIT_EXPECT_EQ(test, hi - lo, closed);
}

static void mf_route_test_bad_input(struct kunit *test)
{
	u32 dims[2] = { 4, 4 }, hexn[1] = { 3 }, path[8];
	struct mf_topo torus, hex;

	KUNIT_ASSERT_EQ(test, mf_topo_init(&torus, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	KUNIT_ASSERT_EQ(test, mf_topo_init(&hex, MESHFABRIC_KIND_HEX, 1, hexn), 0);
	KUNIT_EXPECT_EQ(test, mf_route_valid(&torus, MESHFABRIC_ROUTE_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mf_route_valid(&torus, MESHFABRIC_ROUTE_A1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mf_route_valid(&hex, MESHFABRIC_ROUTE_DOR), -EINVAL);
	KUNIT_EXPECT_EQ(test, mf_route_resolve(&torus, MESHFABRIC_ROUTE_DEFAULT),
			(u32)MESHFABRIC_ROUTE_DOR);
	KUNIT_EXPECT_EQ(test, mf_route_resolve(&hex, MESHFABRIC_ROUTE_DEFAULT),
			(u32)MESHFABRIC_ROUTE_A1);
	KUNIT_EXPECT_EQ(test, mf_route_path(&torus, MESHFABRIC_ROUTE_DOR, 0, 16,
					    path, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, mf_route_by_name("dor"), MESHFABRIC_ROUTE_DOR);
	KUNIT_EXPECT_EQ(test, mf_route_by_name("nonsense"), -EINVAL);
}

static struct kunit_case mf_route_test_cases[] = {
	KUNIT_CASE_PARAM(mf_route_test_hex_a1_bfs, mf_rt_hex_gen_params),
	KUNIT_CASE_PARAM(mf_route_test_paths, mf_rt_gen_params),
	KUNIT_CASE_PARAM(mf_route_test_homogeneous, mf_rt_gen_params),
	KUNIT_CASE_PARAM(mf_route_test_delta_dor, mf_delta_gen_params),
	KUNIT_CASE(mf_route_test_bad_input),
	{}
};

MF_KUNIT_SUITE(route);
