// SPDX-License-Identifier: GPL-2.0
/*
 * bench_faults.c - the fault routing's state and update time (issue 12's
 * kernel bound: a 64x64 torus with 10 failed links in at most 4 MiB and
 * under 100 ms; a 256x256 torus with one failed link), and what repairing
 * a broadcast around the faults costs against the fault-free schedule.
 * Times are CPU milliseconds of one build.
 */
#include <stdio.h>
#include <time.h>
#include "algo.h"
#include "faults.h"
#include "route.h"

/* CPU time of this process: the machine may be busy with other work. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static u64 rng = 12345;

static u32 rnd(u32 n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)((rng >> 33) % n);
}

static void random_faults(struct mf_faults *f, const struct mf_topo *t,
			  u32 links)
{
	mf_faults_init(f);
	while (f->n < 2 * links)
		mf_faults_add_link(f, t, rnd(t->nodes), rnd(t->nports));
}

/* An n x n fabric of kind with links random failed links (seeded), and
 * the CPU clock at its end (t0).
 */
struct fbench {
	struct mf_topo t;
	struct mf_faults f;
	double t0;
};

static void setup(struct fbench *b, u32 kind, u32 n, u32 links, u32 seed)
{
	u32 dims[2] = { n, n };

	mf_topo_init(&b->t, kind, 2, dims);
	rng = seed;
	random_faults(&b->f, &b->t, links);
	b->t0 = now();
}

static int route_row(u32 n, u32 links, u32 routing, u32 seed)
{
	struct mf_froute r;
	struct fbench b;
	int err;

	setup(&b, MESHFABRIC_KIND_TORUS, n, links, seed);
	err = mf_froute_build(&r, &b.t, routing, &b.f);
	printf("torus %ux%u %-8s %2u failed links  seed %-3u %8.1f ms cpu  %8u exceptions  %6u dsts  %9.1f KiB%s\n",
	       n, n, mf_route_name(routing), links, seed,
	       (now() - b.t0) * 1e3, r.nexc, r.ndst,
	       mf_froute_bytes(&r) / 1024.0, err ? "  ERROR" : "");
	mf_froute_free(&r);
	mf_faults_free(&b.f);
	return err;
}

static int repair_row(u32 kind, u32 n, u32 links, u32 seed)
{
	struct mf_fault_plan res;
	struct mf_sched s;
	struct fbench b;
	double el;
	int err;

	setup(&b, kind, n, links, seed);
	err = mf_plan_faults(&b.t, MESHFABRIC_ALGO_AUTO, 0, 0, 0, &b.f, &s, &res);
	el = now() - b.t0;
	if (err) {
		printf("plan around faults failed: %d\n", err);
	} else {
		printf("%s %ux%u auto %2u failed links seed %-3u %7.1f ms cpu  %-8s steps %u -> %u  tcd %llu -> %llu  unreachable %u\n",
		       mf_topo_kind_name(kind), n, n, links, seed, el * 1e3,
		       res.used->name, res.plan.stats.steps, res.stats.steps,
		       (unsigned long long)res.plan.stats.tcd,
		       (unsigned long long)res.stats.tcd, res.stats.unreachable);
	}
	mf_sched_free(&s);
	mf_faults_free(&b.f);
	return err;
}

int main(void)
{
	u32 seed;
	int err = 0;

	printf("fault routing state (exceptions, 8 bytes each) and build time\n");
	for (seed = 1; seed <= 5; seed++) {
		err |= route_row(64, 10, MESHFABRIC_ROUTE_DOR, seed);
		err |= route_row(64, 10, MESHFABRIC_ROUTE_DIAGONAL, seed);
	}
	err |= route_row(256, 1, MESHFABRIC_ROUTE_DOR, 1);
	err |= route_row(256, 1, MESHFABRIC_ROUTE_DIAGONAL, 1);
	printf("\nbroadcast repair: fault-free -> repaired\n");
	for (seed = 1; seed <= 3; seed++) {
		err |= repair_row(MESHFABRIC_KIND_TORUS, 64, 10, seed);
		err |= repair_row(MESHFABRIC_KIND_MESH, 64, 10, seed);
	}
	return err ? 1 : 0;
}
