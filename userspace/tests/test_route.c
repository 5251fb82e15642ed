// SPDX-License-Identifier: GPL-2.0
/*
 * test_route.c - the routing functions dor, diagonal (004 Def. 4) and cdo
 * (002) and the balance measure Delta(R) of 004 (analyze.c).
 *
 * Independent references: breadth-first search (path lengths), symmetry
 * (translation on tori, equal coordinate differences on meshes), the
 * closed form of 004 Theorem 4, the bound of 004 Theorem 5, and a brute
 * force Delta that walks every node's path to X and counts the port of X
 * it arrives by.
 */
#include "mf_test.h"
#include "../../kunit/mf_bfs.h"
#include "route.h"

static const u32 routings[] = {
	MESHFABRIC_ROUTE_DOR, MESHFABRIC_ROUTE_DIAGONAL, MESHFABRIC_ROUTE_CDO,
};
#define NROUTINGS (sizeof(routings) / sizeof(routings[0]))

/* ndims, dims...: 2-D and 3-D, odd and even sizes, size-2 dimensions */
static const u32 shapes[][5] = {
	{ 1, 5 }, { 1, 6 }, { 2, 3, 3 }, { 2, 4, 4 }, { 2, 5, 3 },
	{ 2, 6, 7 }, { 2, 2, 5 }, { 2, 8, 5 }, { 3, 3, 3, 3 }, { 3, 4, 3, 2 },
	{ 3, 2, 2, 2 }, { 3, 5, 4, 3 }, { 4, 3, 2, 3, 2 },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

static void init_shape(struct mf_topo *t, u32 kind, u32 s)
{
	EXPECT_EQ(mf_topo_init(t, kind, shapes[s][0], &shapes[s][1]), 0);
}

/* Every routed path is a shortest path (length == BFS distance). */
static void test_shortest_paths(void)
{
	u32 kind, s, r, a, b, *dist, path[64];

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++)
		for (s = 0; s < NSHAPES; s++) {
			struct mf_topo t;

			init_shape(&t, kind, s);
			dist = malloc(t.nodes * sizeof(u32));
			for (a = 0; a < t.nodes; a++) {
				mf_bfs(&t, a, dist);
				for (b = 0; b < t.nodes; b++)
					for (r = 0; r < NROUTINGS; r++) {
						int len = mf_route_path(&t, routings[r], a, b,
									path, 64);

						EXPECT_MSG(len == (int)dist[b],
							   "%s %s shape %u: %u -> %u: %d hops, BFS %u",
							   mf_topo_kind_name(kind),
							   mf_route_name(routings[r]), s, a, b,
							   len, dist[b]);
						if (len >= 0)
							EXPECT_EQ(path[len], b);
					}
			}
			free(dist);
		}
}

/* Tori: next(cur, dst) == next(cur + o, dst + o) for every offset o. */
static void test_homogeneous_on_tori(void)
{
	u32 s, r, a, b, o;

	for (s = 0; s < NSHAPES; s++) {
		struct mf_topo t;

		init_shape(&t, MESHFABRIC_KIND_TORUS, s);
		for (r = 0; r < NROUTINGS; r++)
			for (a = 0; a < t.nodes; a++)
				for (b = 0; b < t.nodes; b++) {
					int p = mf_route_next(&t, routings[r], a, b);

					if (a == b) {
						EXPECT_EQ(p, -ENOENT);
						continue;
					}
					EXPECT(p >= 0);
					for (o = 1; o < t.nodes; o++)
						EXPECT_EQ(mf_route_next(&t, routings[r],
									mf_topo_add(&t, a, o),
									mf_topo_add(&t, b, o)), p);
				}
	}
}

/*
 * Meshes: the next hop depends only on the coordinate difference: it is
 * the same as for the pair with that difference placed at the origin.
 */
static void test_mesh_difference_only(void)
{
	u32 s, r, a, b, i, ca[8], cb[8], c0[8], c1[8];

	for (s = 0; s < NSHAPES; s++) {
		struct mf_topo t;

		init_shape(&t, MESHFABRIC_KIND_MESH, s);
		for (a = 0; a < t.nodes; a++)
			for (b = 0; b < t.nodes; b++) {
				if (a == b)
					continue;
				mf_topo_coords(&t, a, ca);
				mf_topo_coords(&t, b, cb);
				for (i = 0; i < t.ndims; i++) {
					c0[i] = cb[i] >= ca[i] ? 0 : ca[i] - cb[i];
					c1[i] = c0[i] + cb[i] - ca[i];
				}
				for (r = 0; r < NROUTINGS; r++)
					EXPECT_EQ(mf_route_next(&t, routings[r], a, b),
						  mf_route_next(&t, routings[r], mf_topo_id(&t, c0),
								mf_topo_id(&t, c1)));
			}
	}
}

/*
 * cdo: every path corrects each dimension in one block, and the blocks
 * follow the cyclic order of the dimensions (002 section 2): at most one
 * wrap from a higher to a lower dimension, and then the last block's
 * dimension is below the first's.
 */
static void test_cdo_cyclic_order(void)
{
	u32 kind, s, a, b, path[64], h, nb, blk[8], i, wraps;
	int len;

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++)
		for (s = 0; s < NSHAPES; s++) {
			struct mf_topo t;

			init_shape(&t, kind, s);
			for (a = 0; a < t.nodes; a++)
				for (b = 0; b < t.nodes; b++) {
					len = mf_route_path(&t, MESHFABRIC_ROUTE_CDO, a, b,
							    path, 64);
					EXPECT(len >= 0);
					nb = 0;
					for (h = 0; h < (u32)len; h++) {
						u32 dim = (u32)mf_topo_port(&t, path[h],
									    path[h + 1]) / 2;

						if (!nb || blk[nb - 1] != dim) {
							for (i = 0; i < nb; i++)
								EXPECT(blk[i] != dim);
							if (nb < 8)
								blk[nb++] = dim;
						}
					}
					wraps = 0;
					for (i = 1; i < nb; i++)
						wraps += blk[i] < blk[i - 1];
					EXPECT(wraps <= 1);
					if (wraps)
						EXPECT(blk[nb - 1] < blk[0]);
				}
		}
}

/* Does port p of x name a link of its own (not a mesh border, not the
 * second port number of a size-2 torus ring)?  Written from topo.h. */
static bool real_port(const struct mf_topo *t, u32 x, u32 p)
{
	if (mf_topo_neighbor(t, x, p) < 0)
		return false;
	if (t->kind == MESHFABRIC_KIND_TORUS && t->dims[p / 2] == 2 && (p & 1))
		return false;
	return true;
}

/*
 * Brute force: for every X (all of them, also on tori), walk every other
 * node's routed path to X and count the port of X it arrives by.
 */
static u64 brute_delta(const struct mf_topo *t, u32 routing, u64 *size0)
{
	u32 x, v, p, path[64];
	u64 cnt[16], best = 0, lo, hi;

	for (x = 0; x < t->nodes; x++) {
		memset(cnt, 0, sizeof(cnt));
		for (v = 0; v < t->nodes; v++) {
			int len;

			if (v == x)
				continue;
			len = mf_route_path(t, routing, v, x, path, 64);
			EXPECT(len >= 1);
			if (len < 1)
				continue;
			cnt[mf_topo_port(t, x, path[len - 1])]++;
		}
		lo = U64_MAX;
		hi = 0;
		for (p = 0; p < t->nports; p++) {
			if (!real_port(t, x, p))
				continue;
			lo = cnt[p] < lo ? cnt[p] : lo;
			hi = cnt[p] > hi ? cnt[p] : hi;
		}
		if (hi - lo > best)
			best = hi - lo;
		if (!x)
			memcpy(size0, cnt, t->nports * sizeof(u64));
	}
	return best;
}

static void test_delta_brute_force(void)
{
	static const u32 sh[][5] = {
		{ 1, 7 }, { 2, 3, 3 }, { 2, 4, 4 }, { 2, 5, 3 }, { 2, 6, 4 },
		{ 2, 2, 5 }, { 3, 3, 3, 3 }, { 3, 4, 3, 2 }, { 3, 4, 4, 4 },
		{ 3, 5, 5, 3 }, { 4, 3, 3, 3, 3 },
	};
	u32 kind, s, r, p, n;
	u64 d, bd, size[16], bsize[16];

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++)
		for (s = 0; s < sizeof(sh) / sizeof(sh[0]); s++) {
			struct mf_topo t;

			EXPECT_EQ(mf_topo_init(&t, kind, sh[s][0], &sh[s][1]), 0);
			for (r = 0; r < NROUTINGS; r++) {
				EXPECT_EQ(mf_route_delta(&t, routings[r], &d, size), 0);
				bd = brute_delta(&t, routings[r], bsize);
				EXPECT_MSG(d == bd, "%s shape %u %s: Delta %llu, brute %llu",
					   mf_topo_kind_name(kind), s,
					   mf_route_name(routings[r]),
					   (unsigned long long)d, (unsigned long long)bd);
				for (p = 0; p < t.nports; p++)
					if (real_port(&t, 0, p))
						EXPECT_EQ(size[p], bsize[p]);
			}
		}
	/* H_n with A1: homogeneous, six subtrees */
	for (n = 2; n <= 5; n++) {
		struct mf_topo t;

		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, &n), 0);
		EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_A1, &d, size), 0);
		bd = brute_delta(&t, MESHFABRIC_ROUTE_A1, bsize);
		EXPECT_EQ(d, bd);
		for (p = 0; p < 6; p++)
			EXPECT_EQ(size[p], bsize[p]);
	}
}

static u64 ipow(u64 k, u32 n)
{
	u64 r = 1;

	while (n--)
		r *= k;
	return r;
}

/*
 * 004 Theorem 4: dimension-order routing on T_K^n has
 * Delta = (K - 1)(K^(n-1) - 1) / 2, the subtree of dimension j (ours is
 * 0-based and corrects the lowest dimension first, so a node's last hop
 * is in its highest non-zero dimension j) holding (K - 1) / 2 * K^j nodes
 * per direction.  The paper assumes K odd.  For even K we extend the
 * proof: the offset K/2 of a ring is routed in the + direction (ties
 * towards +), so it enters node 0 through its - port: the + subtree of
 * dimension j has (K/2 - 1) K^j nodes, the - subtree K/2 K^j, and
 * Delta = K/2 K^(n-1) - (K/2 - 1) = (K^n - K)/2 + 1.
 */
static void test_dor_delta_theorem4(void)
{
	u32 K, n, j;
	u64 d, size[8], expect;

	for (n = 2; n <= 4; n++)
		for (K = 3; K <= 9; K++) {
			struct mf_topo t;

			if (n == 4 && K > 6)
				continue;
			mf_test_cube(&t, MESHFABRIC_KIND_TORUS, n, K);
			EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_DOR, &d, size), 0);
			if (K & 1)
				expect = (K - 1) * (ipow(K, n - 1) - 1) / 2;
			else
				expect = (ipow(K, n) - K) / 2 + 1;
			EXPECT_MSG(d == expect, "T_%u^%u: Delta %llu, expected %llu", K, n,
				   (unsigned long long)d, (unsigned long long)expect);
			for (j = 0; j < n; j++) {
				u64 plus = (K & 1) ? (K - 1) / 2 : K / 2 - 1;
				u64 minus = (K & 1) ? (K - 1) / 2 : K / 2;

				EXPECT_EQ(size[2 * j], plus * ipow(K, j));
				EXPECT_EQ(size[2 * j + 1], minus * ipow(K, j));
			}
		}
}

/*
 * 004 Theorem 5 (K odd, as the paper assumes): the diagonal routing has
 * Delta < ((K-1)/2)^n + (n-2)/2 K^(n-2), and when n is a power of two the
 * first term is dropped: Delta < (n-2)/2 K^(n-2).  For n = 2 that bound
 * is 0, which no Delta is below; we read it as Delta <= 0, i.e. the
 * subtrees are equal ("in two dimensions being even optimal"), which also
 * follows from symmetry: the routing commutes with the rotation
 * (x, y) -> (-y, x) of T_K^2.  Also Delta(diagonal) < Delta(dor).
 */
static void test_diagonal_theorem5(void)
{
	u32 K, n;
	u64 d, dd, size[8];

	for (n = 2; n <= 4; n++)
		for (K = 3; K <= 9; K += 2) {
			struct mf_topo t;

			if (n == 4 && K > 7)
				continue;
			mf_test_cube(&t, MESHFABRIC_KIND_TORUS, n, K);
			EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_DIAGONAL, &d, size), 0);
			EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_DOR, &dd, size), 0);
			EXPECT(d < dd);
			if (n == 2)
				EXPECT_EQ(d, 0);
			else if (n == 3)	/* 2 Delta < 2 ((K-1)/2)^3 + K */
				EXPECT_MSG(2 * d < 2 * ipow((K - 1) / 2, 3) + K,
					   "T_%u^3: Delta %llu", K, (unsigned long long)d);
			else			/* n = 4: Delta < K^2 */
				EXPECT_MSG(d < ipow(K, 2), "T_%u^4: Delta %llu", K,
					   (unsigned long long)d);
		}
}

/*
 * Why `tree` broadcasts along the input graph: the output graph of the
 * diagonal routing (union of the paths 0 -> Z) is not a tree on T_5^2,
 * some node is entered from two different neighbours.
 */
static void test_diagonal_output_graph_not_tree(void)
{
	u32 dims[2] = { 5, 5 }, z, h, path[16], pred[25], twice = 0;
	struct mf_topo t;
	int len;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	memset(pred, 0xff, sizeof(pred));
	for (z = 1; z < t.nodes; z++) {
		len = mf_route_path(&t, MESHFABRIC_ROUTE_DIAGONAL, 0, z, path, 16);
		for (h = 1; h <= (u32)len; h++) {
			if (pred[path[h]] != U32_MAX && pred[path[h]] != path[h - 1])
				twice++;
			pred[path[h]] = path[h - 1];
		}
	}
	EXPECT(twice > 0);
}

static void test_errors(void)
{
	u32 n = 3, dims[2] = { 70, 70 };
	u64 d, size[16];
	struct mf_topo t;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, &n), 0);
	EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_DIAGONAL, &d, size), -EINVAL);
	EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_CDO, &d, size), -EINVAL);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims), 0);
	EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_DOR, &d, size), -E2BIG);
	EXPECT_EQ(mf_route_delta(&t, MESHFABRIC_ROUTE_A1, &d, size), -EINVAL);
}

int main(void)
{
	RUN(test_shortest_paths);
	RUN(test_homogeneous_on_tori);
	RUN(test_mesh_difference_only);
	RUN(test_cdo_cyclic_order);
	RUN(test_delta_brute_force);
	RUN(test_dor_delta_theorem4);
	RUN(test_diagonal_theorem5);
	RUN(test_diagonal_output_graph_not_tree);
	RUN(test_errors);
	return mf_test_done();
}
