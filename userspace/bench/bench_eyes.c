// SPDX-License-Identifier: GPL-2.0
/*
 * bench_eyes.c - time mf_plan(eyes) and mf_check on a 1024 x 1024 mesh
 * (2^20 nodes) from a corner and from the centre; print seconds, TCD and
 * peak resident memory (getrusage ru_maxrss).  Numbers, not pass/fail.
 *
 *   bench_eyes [side [d]]      default 1024 2 (side must be 2^k)
 */
#include <stdio.h>
#include <stdlib.h>
#include "mf_bench.h"

static int one(struct mf_bench_run *r, const char *what, u32 src)
{
	if (mf_bench_plan(r, MESHFABRIC_ALGO_EYES, src))
		return 1;
	printf("eyes %s from %-6s node %8u: plan %.3f s, check %.3f s, total %.3f s, "
	       "steps %u, tcd %llu, contention %llu, maxrss %ld MiB\n",
	       mf_topo_kind_name(r->t.kind), what, src, r->build, r->check,
	       r->build + r->check, r->st.steps, (unsigned long long)r->st.tcd,
	       (unsigned long long)r->st.contention, mf_maxrss_kib() / 1024);
	mf_sched_free(&r->s);
	return 0;
}

int main(int argc, char **argv)
{
	u32 side = argc > 1 ? (u32)atoi(argv[1]) : 1024;
	u32 d = argc > 2 ? (u32)atoi(argv[2]) : 2;
	u32 c[MF_MAX_DIMS], i;
	struct mf_bench_run r;
	int bad = 0;

	for (i = 0; i < d && i < MF_MAX_DIMS; i++)
		c[i] = side / 2;
	if (mf_bench_cube(&r, MESHFABRIC_KIND_MESH, d, side)) {
		fprintf(stderr, "bad topology\n");
		return 2;
	}
	printf("eyes: %u^%u mesh, %u nodes\n", side, d, r.t.nodes);
	bad |= one(&r, "corner", 0);
	bad |= one(&r, "centre", mf_topo_id(&r.t, c));
	return bad;
}
