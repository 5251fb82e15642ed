// SPDX-License-Identifier: GPL-2.0
/*
 * bench_tsay_wang.c - build + mf_check of the tsay-wang broadcast on a
 * 1024x1024 and a 101x101x101 torus: seconds, steps, TCD, peak RSS.
 * Goal (brief): each under 2 s at -O2 on a 2-core machine.
 */
#include <stdio.h>
#include <time.h>
#include <sys/resource.h>
#include "algo.h"
#include "check.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int one(u32 d, u32 n)
{
	u32 dims[MF_MAX_DIMS], i;
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;
	struct rusage ru;
	char err[128] = "";
	double t0, t1, t2;
	int ret;

	for (i = 0; i < d; i++)
		dims[i] = n;
	if (mf_topo_init(&t, MESHFABRIC_KIND_TORUS, d, dims))
		return 1;
	t0 = now();
	ret = mf_plan(&t, MESHFABRIC_ALGO_TSAY_WANG, t.nodes / 3, 0, &s, NULL);
	t1 = now();
	if (!ret)
		ret = mf_check(&t, &s, &st, err, sizeof(err));
	t2 = now();
	getrusage(RUSAGE_SELF, &ru);
	if (ret) {
		printf("tsay-wang %u^%u: error %d %s\n", n, d, ret, err);
		mf_sched_free(&s);
		return 1;
	}
	printf("tsay-wang %u^%u (%u nodes): build %.3f s, check %.3f s, total %.3f s, steps %u, tcd %llu, contention %llu, peak rss %ld KiB\n",
	       n, d, t.nodes, t1 - t0, t2 - t1, t2 - t0, st.steps,
	       (unsigned long long)st.tcd, (unsigned long long)st.contention,
	       ru.ru_maxrss);
	mf_sched_free(&s);
	return 0;
}

int main(void)
{
	return one(2, 1024) | one(3, 101);
}
