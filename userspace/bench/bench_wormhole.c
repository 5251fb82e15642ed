// SPDX-License-Identifier: GPL-2.0
/*
 * bench_wormhole.c - build + mf_check of the wormhole all-port broadcast
 * on 1024x1024 and 101x101x101 tori and meshes (mesh: from a corner),
 * on the meshes 32x32 and 4x4x4x4 from a corner, which take the
 * search's local search (docs/wormhole.md), and on the tori 2^8, 4^6 and
 * 3^8, which take the chains of subgroups (tsay-wang beside them):
 * seconds, steps, the counting lower bound, TCD, peak RSS.
 */
#include "mf_bench.h"

static u32 bound(const struct mf_topo *t, u32 src)
{
	u64 hist[2 * MF_MAX_DIMS + 1] = { 0 }, informed = 1, more, left, k;
	u32 c[MF_MAX_DIMS], v, i, deg, dsrc = 0, steps = 0;
	int g;

	for (v = 0; v < t->nodes; v++) {
		mf_topo_coords(t, v, c);
		for (i = 0, deg = 0; i < t->ndims; i++)
			deg += t->dims[i] == 2 ? 1 :
			       t->kind == MESHFABRIC_KIND_TORUS ? 2 :
			       2 - (c[i] == 0) - (c[i] == t->dims[i] - 1);
		hist[deg]++;
		if (v == src)
			dsrc = deg;
	}
	while (informed < t->nodes) {
		more = dsrc;
		left = informed - 1;
		for (g = 2 * MF_MAX_DIMS; g >= 0 && left; g--) {
			k = hist[g] < left ? hist[g] : left;
			more += k * (u64)g;
			left -= k;
		}
		informed += more;
		steps++;
	}
	return steps;
}

static int one(u32 kind, u32 d, u32 n)
{
	struct mf_bench_run r;

	if (mf_bench_cube(&r, kind, d, n) ||
	    mf_bench_plan(&r, MESHFABRIC_ALGO_WORMHOLE, 0))
		return 1;
	printf("wormhole %s %u^%u from node 0 (%u nodes): build %.3f s, check %.3f s, total %.3f s, steps %u, lower bound %u, tcd %llu, contention %llu, peak rss %ld KiB\n",
	       mf_topo_kind_name(kind), n, d, r.t.nodes, r.build, r.check,
	       r.build + r.check, r.st.steps, bound(&r.t, 0),
	       (unsigned long long)r.st.tcd,
	       (unsigned long long)r.st.contention, mf_maxrss_kib());
	mf_sched_free(&r.s);
	if (kind == MESHFABRIC_KIND_TORUS && d > 4 &&
	    !mf_algo_tsay_wang.supports(&r.t)) {
		/* the alternative on n^d tori, in the same run */
		struct mf_bench_run tw = r;

		if (mf_bench_plan(&tw, MESHFABRIC_ALGO_TSAY_WANG, 0))
			return 1;
		printf("  tsay-wang on it: build %.3f s, check %.3f s, steps %u (wormhole/tsay-wang steps %.2f)\n",
		       tw.build, tw.check, tw.st.steps,
		       (double)r.st.steps / tw.st.steps);
		mf_sched_free(&tw.s);
	}
	return 0;
}

int main(void)
{
	return one(MESHFABRIC_KIND_TORUS, 2, 1024) |
	       one(MESHFABRIC_KIND_TORUS, 3, 101) |
	       one(MESHFABRIC_KIND_MESH, 2, 1024) |
	       one(MESHFABRIC_KIND_MESH, 3, 101) |
	       one(MESHFABRIC_KIND_MESH, 2, 32) |
	       one(MESHFABRIC_KIND_MESH, 4, 4) |
	       /* the chains of subgroups (search_lattice.c) */
	       one(MESHFABRIC_KIND_TORUS, 8, 2) |
	       one(MESHFABRIC_KIND_TORUS, 6, 4) |
	       one(MESHFABRIC_KIND_TORUS, 8, 3);
}
