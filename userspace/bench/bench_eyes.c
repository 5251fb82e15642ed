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
#include <time.h>
#include <sys/resource.h>
#include "algo.h"
#include "check.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long maxrss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int one(const struct mf_topo *t, const char *what, u32 src)
{
	struct mf_sched s;
	struct mf_stats st;
	char err[160];
	double t0, t1, t2;
	int e;

	t0 = now();
	e = mf_plan(t, MESHFABRIC_ALGO_EYES, src, 0, &s, NULL);
	t1 = now();
	if (!e)
		e = mf_check(t, &s, &st, err, sizeof(err));
	t2 = now();
	if (e) {
		printf("eyes %s: error %d\n", what, e);
		mf_sched_free(&s);
		return 1;
	}
	printf("eyes %s from %-6s node %8u: plan %.3f s, check %.3f s, total %.3f s, "
	       "steps %u, tcd %llu, contention %llu, maxrss %ld MiB\n",
	       mf_topo_kind_name(t->kind), what, src, t1 - t0, t2 - t1,
	       t2 - t0, st.steps, (unsigned long long)st.tcd,
	       (unsigned long long)st.contention, maxrss_kib() / 1024);
	mf_sched_free(&s);
	return 0;
}

int main(int argc, char **argv)
{
	u32 side = argc > 1 ? (u32)atoi(argv[1]) : 1024;
	u32 d = argc > 2 ? (u32)atoi(argv[2]) : 2;
	u32 dims[MF_MAX_DIMS], c[MF_MAX_DIMS], i;
	struct mf_topo t;
	int bad = 0;

	for (i = 0; i < d && i < MF_MAX_DIMS; i++) {
		dims[i] = side;
		c[i] = side / 2;
	}
	if (mf_topo_init(&t, MESHFABRIC_KIND_MESH, d, dims)) {
		fprintf(stderr, "bad topology\n");
		return 2;
	}
	printf("eyes: %u^%u mesh, %u nodes\n", side, d, t.nodes);
	bad |= one(&t, "corner", 0);
	bad |= one(&t, "centre", mf_topo_id(&t, c));
	return bad;
}
