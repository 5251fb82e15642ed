// SPDX-License-Identifier: GPL-2.0
/*
 * bench_wormhole.c - build + mf_check of the wormhole all-port broadcast
 * on 1024x1024 and 101x101x101 tori and meshes (mesh: from a corner):
 * seconds, steps, the counting lower bound, TCD, peak RSS.
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

/* Counting bound: per step every informed node informs at most its
 * degree; the degrees of a mesh/torus node follow from its coordinates
 * (torus: 2 per dimension, 1 if the size is 2; mesh: 1 at an end).
 */
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
	if (mf_topo_init(&t, kind, d, dims))
		return 1;
	t0 = now();
	ret = mf_plan(&t, MESHFABRIC_ALGO_WORMHOLE, 0, 0, &s, NULL);
	t1 = now();
	if (!ret)
		ret = mf_check(&t, &s, &st, err, sizeof(err));
	t2 = now();
	getrusage(RUSAGE_SELF, &ru);
	if (ret) {
		printf("wormhole %s %u^%u: error %d %s\n",
		       mf_topo_kind_name(kind), n, d, ret, err);
		mf_sched_free(&s);
		return 1;
	}
	printf("wormhole %s %u^%u from node 0 (%u nodes): build %.3f s, check %.3f s, total %.3f s, steps %u, lower bound %u, tcd %llu, contention %llu, peak rss %ld KiB\n",
	       mf_topo_kind_name(kind), n, d, t.nodes, t1 - t0, t2 - t1,
	       t2 - t0, st.steps, bound(&t, 0), (unsigned long long)st.tcd,
	       (unsigned long long)st.contention, ru.ru_maxrss);
	mf_sched_free(&s);
	return 0;
}

int main(void)
{
	return one(MESHFABRIC_KIND_TORUS, 2, 1024) |
	       one(MESHFABRIC_KIND_TORUS, 3, 101) |
	       one(MESHFABRIC_KIND_MESH, 2, 1024) |
	       one(MESHFABRIC_KIND_MESH, 3, 101);
}
