// SPDX-License-Identifier: GPL-2.0
/*
 * bench_split.c - `split` (least-TCD recursive box splits, one-port,
 * ceil(log2 N) steps) against `binomial` (and `eyes` on 2^k cubes).
 * Prints numbers; not a test.
 *
 * 1. Time of one split plan (least of 3 runs) from one source (the
 *    centre) of 64x64 and 1000x1000 meshes and tori, next to binomial's time and the TCD ratio
 *    in the same run (goals: 64x64 under 1 s, 1000x1000 under 10 s).
 * 2. Per shape, over every source (a sample of 64 evenly spaced sources
 *    above 1024 nodes): worst and average TCD of binomial, split (and
 *    eyes), the lower bound N - 1, sources where binomial has step
 *    contention, split's contention (always 0) and time per plan.
 *
 * Build: make bench-progs (build/bench/bench_split)
 */
#include "mf_bench.h"
#include "algo.h"
#include "check.h"
#include "route.h"

/* Plan and check; 0 and *st, or -1.  *secs += the planning time only. */
static int plan(const struct mf_topo *t, u32 id, u32 src, double *secs,
		struct mf_stats *st)
{
	struct mf_sched s;
	char err[160];
	double t0 = mf_now();
	int ret = mf_plan(t, id, src, MESHFABRIC_ROUTE_DEFAULT, &s, NULL);

	if (secs)
		*secs += mf_now() - t0;
	if (!ret && mf_check(t, &s, st, err, sizeof(err))) {
		printf("INVALID schedule algo %u src %u: %s\n", id, src, err);
		ret = -1;
	}
	mf_sched_free(&s);
	return ret ? -1 : 0;
}

static void name(const struct mf_topo *t, char *buf, size_t len)
{
	u32 i;
	int n = snprintf(buf, len, "%s ", t->kind == MESHFABRIC_KIND_TORUS ?
			 "torus" : "mesh");

	for (i = 0; i < t->ndims; i++)
		n += snprintf(buf + n, len - n, "%s%u", i ? "x" : "", t->dims[i]);
}

static void timing(u32 kind, u32 side)
{
	u32 dims[2] = { side, side }, src, k;
	double ta = 1e9, tb = 1e9, x;
	struct mf_stats a, b;
	struct mf_topo t;
	char nm[64];

	mf_topo_init(&t, kind, 2, dims);
	src = side / 2 + side / 2 * side;
	name(&t, nm, sizeof(nm));
	/* the least of 3 runs: the machine may be loaded */
	for (k = 0; k < 3; k++) {
		x = 0;
		if (plan(&t, MESHFABRIC_ALGO_SPLIT, src, &x, &a)) {
			printf("%-16s plan failed\n", nm);
			return;
		}
		ta = x < ta ? x : ta;
		x = 0;
		if (plan(&t, MESHFABRIC_ALGO_BINOMIAL, src, &x, &b)) {
			printf("%-16s plan failed\n", nm);
			return;
		}
		tb = x < tb ? x : tb;
	}
	printf("%-16s %8.3f s %8.3f s | %10llu %10llu  %.3f | %llu %llu\n", nm,
	       ta, tb, (unsigned long long)a.tcd, (unsigned long long)b.tcd,
	       (double)a.tcd / b.tcd, (unsigned long long)a.contention,
	       (unsigned long long)b.contention);
}

static void shape(u32 kind, u32 nd, u32 d0, u32 d1, u32 d2)
{
	u32 dims[3] = { d0, d1, d2 }, src, step, n = 0, bcont = 0;
	u64 smax = 0, bmax = 0, emax = 0, ssum = 0, bsum = 0, esum = 0, scont = 0;
	bool eyes = false;
	struct mf_stats a, b, e;
	struct mf_topo t;
	double secs = 0;
	char nm[64];

	mf_topo_init(&t, kind, nd, dims);
	name(&t, nm, sizeof(nm));
	eyes = mf_algo_by_id(MESHFABRIC_ALGO_EYES) &&
	       !mf_algo_by_id(MESHFABRIC_ALGO_EYES)->supports(&t);
	step = t.nodes > 1024 ? t.nodes / 64 : 1;
	for (src = 0; src < t.nodes; src += step, n++) {
		if (plan(&t, MESHFABRIC_ALGO_SPLIT, src, &secs, &a) ||
		    plan(&t, MESHFABRIC_ALGO_BINOMIAL, src, NULL, &b))
			return;
		ssum += a.tcd;
		bsum += b.tcd;
		smax = a.tcd > smax ? a.tcd : smax;
		bmax = b.tcd > bmax ? b.tcd : bmax;
		scont += a.contention;
		bcont += b.contention > 0;
		if (eyes && !plan(&t, MESHFABRIC_ALGO_EYES, src, NULL, &e)) {
			esum += e.tcd;
			emax = e.tcd > emax ? e.tcd : emax;
			if (e.tcd < a.tcd)
				printf("SPLIT ABOVE EYES %s src %u\n", nm, src);
		}
	}
	printf("%-16s %7u %4u | %8llu %9.1f | %8llu %9.1f | %7u | ", nm, t.nodes,
	       n, (unsigned long long)bmax, (double)bsum / n,
	       (unsigned long long)smax, (double)ssum / n, t.nodes - 1);
	if (eyes)
		printf("%6llu %8.1f | ", (unsigned long long)emax, (double)esum / n);
	else
		printf("     -        - | ");
	printf("%4u %3llu | %8.2f\n", bcont, (unsigned long long)scont,
	       secs / n * 1e3);
}

int main(void)
{
	static const u32 cases[][5] = {
		/* kind (0 mesh), d, sides */
		{ 0, 2, 3, 3 }, { 0, 2, 5, 5 }, { 0, 2, 7, 7 }, { 0, 2, 3, 5 },
		{ 0, 2, 2, 5 }, { 0, 2, 6, 6 }, { 0, 2, 10, 10 }, { 1, 2, 7, 7 },
		{ 1, 2, 5, 5 }, { 0, 3, 3, 3, 3 }, { 0, 3, 5, 5, 5 },
		{ 1, 3, 5, 5, 5 }, { 0, 2, 7, 9 }, { 0, 2, 11, 11 },
		{ 0, 2, 31, 33 }, { 0, 2, 64, 64 }, { 0, 2, 100, 100 },
		{ 1, 2, 100, 100 }, { 0, 2, 4, 4 }, { 0, 2, 8, 8 },
		{ 0, 2, 16, 16 }, { 0, 3, 4, 4, 4 }, { 1, 2, 8, 8 },
	};
	u32 i;

	printf("one source (the centre): split and binomial plan times, TCD ratio\n");
	printf("topology            split  binomial |  split TCD  binom TCD  ratio |"
	       " contention split binomial\n");
	timing(MESHFABRIC_KIND_MESH, 64);
	timing(MESHFABRIC_KIND_TORUS, 64);
	timing(MESHFABRIC_KIND_MESH, 1000);
	timing(MESHFABRIC_KIND_TORUS, 1000);
	printf("\nevery source (64 sampled above 1024 nodes): worst and average TCD\n");
	printf("topology               N srcs | binomial   average |    split"
	       "   average | bound   |   eyes  average | binomial-contended"
	       " split-contention | ms/plan split\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		shape(cases[i][0] ? MESHFABRIC_KIND_TORUS : MESHFABRIC_KIND_MESH,
		      cases[i][1], cases[i][2], cases[i][3],
		      cases[i][1] > 2 ? cases[i][4] : 0);
	return 0;
}
