// SPDX-License-Identifier: GPL-2.0
/*
 * test_partition.c - slabs of meshes and tori (core/partition.c) against
 * a brute force: for every mesh and torus of up to 4 dimensions and
 * sides 1..6 (every order), every number of parts 2..max side, and every
 * dimension: the cut links are counted here by walking every node's
 * neighbours (mf_topo_neighbor) and collecting the distinct unordered
 * pairs {a, b} in different parts; that count must equal the closed
 * form mf_partition_slab_cut(), and the best dimension must have the
 * fewest (brute-force minimum over the dimensions).  Every part must be
 * a contiguous slab of sizes differing by at most one layer.
 */
#include "mf_test.h"
#include "partition.h"
#include <stdlib.h>

/* Distinct unordered neighbour pairs in different parts. */
static u64 brute_cut(const struct mf_topo *t, const u8 *part)
{
	u64 n = 0, i, *keys = calloc((size_t)t->nodes * t->nports + 1,
				     sizeof(*keys));
	u32 a, p, k = 0, j;
	s64 b;

	for (a = 0; a < t->nodes; a++)
		for (p = 0; p < t->nports; p++) {
			b = mf_topo_neighbor(t, a, p);
			if (b < 0 || (u32)b == a || part[a] == part[b])
				continue;
			i = a < b ? (u64)a * t->nodes + b :
				    (u64)b * t->nodes + a;
			for (j = 0; j < k && keys[j] != i; j++)
				;
			if (j == k)
				keys[k++] = i;
		}
	n = k;
	free(keys);
	return n;
}

static void check_shape(u32 kind, u32 nd, const u32 *dims)
{
	struct mf_topo t;
	u32 d, np, maxside = 0, c[MF_MAX_DIMS], i, sizes[8];
	u64 got, best;
	int bd;
	u8 *part;

	if (mf_topo_init(&t, kind, nd, dims))
		return;
	for (d = 0; d < nd; d++)
		maxside = dims[d] > maxside ? dims[d] : maxside;
	part = calloc(t.nodes, 1);
	for (np = 2; np <= maxside && np <= 8; np++) {
		best = 0;
		for (d = 0; d < nd; d++) {
			if (dims[d] < np) {
				EXPECT_EQ(mf_partition_slab_cut(&t, d, np), 0);
				continue;
			}
			mf_partition_slabs(&t, d, np, part);
			got = brute_cut(&t, part);
			EXPECT_EQ(mf_partition_slab_cut(&t, d, np), got);
			EXPECT_EQ(mf_partition_count_cut(&t, part), got);
			if (!best || got < best)
				best = got;
			/* slabs: a part is a function of coordinate d, the
			 * parts' thicknesses differ by at most one
			 */
			memset(sizes, 0, sizeof(sizes));
			for (i = 0; i < t.nodes; i++) {
				mf_topo_coords(&t, i, c);
				EXPECT(part[i] < np);
				EXPECT(i < t.stride[d] ||
				       part[i] >= part[i - t.stride[d]] ||
				       c[d] == 0);
				sizes[part[i]]++;
			}
			for (i = 0; i < np; i++)
				EXPECT(sizes[i] * dims[d] / t.nodes + 1 >=
				       dims[d] / np &&
				       sizes[i] * dims[d] / t.nodes <=
				       dims[d] / np + 1);
		}
		bd = mf_partition_best_dim(&t, np);
		EXPECT_EQ(bd >= 0, best > 0);
		if (bd >= 0) {
			mf_partition_slabs(&t, bd, np, part);
			EXPECT_EQ(brute_cut(&t, part), best);
		}
	}
	free(part);
}

static void test_slabs_brute_force(void)
{
	u32 dims[4], nd, kind, total, i, idx;

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS;
	     kind++)
		for (nd = 1; nd <= 4; nd++) {
			total = 1;
			for (i = 0; i < nd; i++)
				total *= 6;
			/* nodes up to 216 keep the brute force quick */
			for (idx = 0; idx < total; idx++) {
				u32 x = idx, n = 1;

				for (i = 0; i < nd; i++) {
					dims[i] = x % 6 + 1;
					x /= 6;
					n *= dims[i];
				}
				if (n > 216)
					continue;
				check_shape(kind, nd, dims);
			}
		}
}

/* The case, by hand: a 4x4 torus in 2 has 8 cut links (two cuts
 * of 4), a 4x8 torus cuts along its 8 side (8 links, not 16).
 */
static void test_by_hand(void)
{
	struct mf_topo t;
	u32 d44[2] = { 4, 4 }, d48[2] = { 4, 8 }, d3[1] = { 3 };

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, d44), 0);
	EXPECT_EQ(mf_partition_best_dim(&t, 2), 0);
	EXPECT_EQ(mf_partition_slab_cut(&t, 0, 2), 8);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, d48), 0);
	EXPECT_EQ(mf_partition_best_dim(&t, 2), 1);
	EXPECT_EQ(mf_partition_slab_cut(&t, 1, 2), 8);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, d48), 0);
	EXPECT_EQ(mf_partition_slab_cut(&t, 1, 2), 4);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, d3), 0);
	EXPECT_EQ(mf_partition_best_dim(&t, 4), -1);
}

int main(void)
{
	RUN(test_by_hand);
	RUN(test_slabs_brute_force);
	return mf_test_done();
}
