// SPDX-License-Identifier: GPL-2.0
/*
 * bench_tsay_wang.c - build + mf_check of the tsay-wang broadcast on a
 * 1024x1024 and a 101x101x101 torus: seconds, steps, TCD, peak RSS.
 * Goal (brief): each under 2 s at -O2 on a 2-core machine.
 */
#include "mf_bench.h"

static int one(u32 d, u32 n)
{
	struct mf_bench_run r;

	if (mf_bench_cube(&r, MESHFABRIC_KIND_TORUS, d, n) ||
	    mf_bench_plan(&r, MESHFABRIC_ALGO_TSAY_WANG, r.t.nodes / 3))
		return 1;
	printf("tsay-wang %u^%u (%u nodes): build %.3f s, check %.3f s, total %.3f s, steps %u, tcd %llu, contention %llu, peak rss %ld KiB\n",
	       n, d, r.t.nodes, r.build, r.check, r.build + r.check,
	       r.st.steps, (unsigned long long)r.st.tcd,
	       (unsigned long long)r.st.contention, mf_maxrss_kib());
	mf_sched_free(&r.s);
	return 0;
}

int main(void)
{
	return one(2, 1024) | one(3, 101);
}
