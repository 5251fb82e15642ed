/* SPDX-License-Identifier: GPL-2.0 */
/* What the benchmark programs (userspace/bench/bench_*.c) share: the
 * clock, and one timed build + mf_check of a schedule.
 */
#ifndef MF_BENCH_H
#define MF_BENCH_H

#include <stdio.h>
#include <time.h>
#include <sys/resource.h>
#include "algo.h"
#include "check.h"

/* Seconds on the monotonic clock. */
static inline double mf_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The peak resident set of this process, KiB. */
static inline long mf_maxrss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* One timed run on topology t: schedule s, build (mf_plan) and check
 * (mf_check) seconds, mf_check's statistics.
 */
struct mf_bench_run {
	struct mf_topo t;
	struct mf_sched s;
	double build, check;
	struct mf_stats st;
};

/* r->t = the kind's n x ... x n of d dimensions; 0 or mf_topo_init's
 * error.
 */
static inline int mf_bench_cube(struct mf_bench_run *r, u32 kind, u32 d,
				u32 n)
{
	u32 dims[MF_MAX_DIMS], i;

	for (i = 0; i < d && i < MF_MAX_DIMS; i++)
		dims[i] = n;
	return mf_topo_init(&r->t, kind, d, dims);
}

/* Builds algorithm algo from src on r->t into r->s and checks it; 0 (the
 * caller frees r->s) or the error, printed ("ALGO KIND N^D from SRC: error
 * E REASON").
 */
static inline int mf_bench_plan(struct mf_bench_run *r, u32 algo, u32 src)
{
	char err[160] = "";
	double t0, t1;
	int ret;

	t0 = mf_now();
	ret = mf_plan(&r->t, algo, src, 0, &r->s, NULL);
	t1 = mf_now();
	if (!ret)
		ret = mf_check(&r->t, &r->s, &r->st, err, sizeof(err));
	r->build = t1 - t0;
	r->check = mf_now() - t1;
	if (ret) {
		printf("%s %s %u^%u from %u: error %d %s\n",
		       mf_algo_by_id(algo) ? mf_algo_by_id(algo)->name : "?",
		       mf_topo_kind_name(r->t.kind), r->t.dims[0], r->t.ndims,
		       src, ret, err);
		mf_sched_free(&r->s);
	}
	return ret;
}

#endif /* MF_BENCH_H */
