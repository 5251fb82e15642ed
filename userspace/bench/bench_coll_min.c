// SPDX-License-Identifier: GPL-2.0
/*
 * bench_coll_min.c - the exhaustive minimum number of steps of an
 * allreduce (userspace/tests/coll_min.h) on every case, the heavy ones
 * too (H_2, 3x3), against ceil(log2 N), Knodel's telephone gossip and
 * the core's best one-port algorithm.  Prints a table (the one in
 * docs/collectives.md); test_coll_min.c asserts the light cases.
 *
 * Columns: the model (any: any node to any node; routed: each send on
 * the core's routed path, the sends of a step on distinct directed
 * links; shortest: the same on any shortest path), the minimum, the
 * states the search expanded, its seconds, then the core's best
 * algorithm, its steps and contention (sends sharing a link in a step).
 * A search that passes the time limit (argv[1] seconds, default 600)
 * prints >D: D steps proved too few.  Above 8 nodes (the 3x3 shapes)
 * the search prunes by the parity argument of odd N (test_coll_min.c's
 * comment) and cannot finish the next count: there it only refutes the
 * counts below an upper bound, a contention-free schedule on the
 * model's paths proved by mf_check, the core's best or the witness
 * coll_min.h pins (found by bench_coll_min_sat); the last column says
 * which (search: the search's own witness).  Then the pinned 3x3 mesh
 * witness against recursive doubling in plan's fabric-time model.
 */
#include "mf_bench.h"
/* 384 MiB of transposition table for the 9-node searches */
#define CM_TTBITS	24
#include "tests/coll_min.h"
#include "timing.h"

/* Seconds a search may take (argv[1], default 600). */
static double limit = 600;

static void row(const char *name, const struct cm_shape *sh,
		const struct mf_topo *t, u32 n)
{
	static const char *const wn[] = { "any", "routed", "shortest" };
	const char *by = "search";
	struct cm_search c;
	double t0 = mf_now();
	/* above 8 nodes: the parity prune (the test's closed form), and
	 * the search only refutes the steps below an upper bound
	 */
	u32 ub = n > 8 && sh->where != CM_ANY ? cm_best_upper(t, sh, &by) : 0;
	u32 min = cm_min_steps(&c, sh, CM_DISJOINT, false, ub ? ub - 1 : 10,
			       n > 8, limit);
	double secs = mf_now() - t0;
	u32 best, algo = 0;
	char ms[16];
	u64 cont = 0;

	if (!min && ub && !c.timeout && c.refuted == ub - 1)
		min = ub;
	else
		by = "search";
	if (min)
		snprintf(ms, sizeof(ms), "%u", min);
	else
		snprintf(ms, sizeof(ms), ">%u", c.refuted);
	best = cm_core_best(t, &algo, &cont);
	printf("%-10s %-8s %3u %5u %8u %8s %10llu %8.2f  %-10s %5u %4llu  %s\n",
	       name, wn[sh->where], n, cm_ceil_log2(n),
	       n % 2 && n > 1 ? cm_ceil_log2(n) + 1 : cm_ceil_log2(n), ms,
	       (unsigned long long)c.visited, secs, mf_calgo_name(algo), best,
	       (unsigned long long)cont, by);
	fflush(stdout);
}

/* The fabric time of allreduce s of bytes on t (mf_sched_time, plan
 * --coll's model: 1 Gbit/s, 1 us links, store-and-forward, idle), 0 on
 * error.
 */
static u64 fabric_ns(const struct mf_topo *t, const struct mf_sched *s,
		     u64 bytes)
{
	struct mf_link_model lm = { .rate = 1000000000ULL, .delay_ns = 1000 };
	struct mf_timing tm = { .bytes = MESHFABRIC_COLL_FRAME_HDR,
				.ctx = &lm };
	struct mf_timeline tl = { 0 };
	u64 blk[1] = { 0 }, ns = 0;

	if (mf_sched_nblocks(s) != 1 || mf_timeline_alloc(&tl, t, s))
		return 0;
	mf_coll_block_bytes(s, bytes, 8, blk);
	tm.blk_bytes = blk;
	if (!mf_sched_time(t, s, &tm, NULL, &tl))
		ns = tl.total_ns;
	mf_timeline_free(&tl);
	return ns;
}

/* The 3x3 mesh: the pinned witness against recursive doubling (both 5
 * steps), sends, hops, contention and fabric time.
 */
static void mesh3x3(void)
{
	static const u64 sizes[] = { 8, 8192, 1048576 };
	struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE,
				  .algo = MF_CALGO_RECDBL, .bytes = 8,
				  .esize = 8,
				  .model = MESHFABRIC_MODEL_ONE_PORT };
	u32 dims[2] = { 3, 3 }, i, k;
	struct mf_coll_result res;
	struct mf_sched s[2] = { 0 };
	const char *name[2] = { "witness", "recdbl" };
	struct mf_stats st;
	struct cm_search c;
	struct cm_shape sh;
	struct mf_topo t;
	char err[160];

	if (mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims) ||
	    cm_shape(&sh, &t, CM_ROUTE))
		return;
	if (cm_witness(&c, &sh, &t, cm_mesh3x3, CM_MESH3X3_SENDS,
		       CM_MESH3X3_STEPS) ||
	    cm_sched(&t, &c, CM_MESH3X3_STEPS, &s[0]) ||
	    mf_coll_plan(&t, &rq, &s[1], &res))
		goto out;
	printf("\nmesh 3x3 allreduce, fabric time (ns) of B bytes on 1 Gbit/s, 1 us links\n");
	printf("%-8s %5s %5s %5s %5s", "", "steps", "sends", "hops", "cont");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		printf(" %9lluB", (unsigned long long)sizes[i]);
	printf("\n");
	for (k = 0; k < 2; k++) {
		if (mf_check(&t, &s[k], &st, err, sizeof(err)))
			continue;
		printf("%-8s %5u %5u %5llu %5llu", name[k], st.steps, st.sends,
		       (unsigned long long)st.tcd,
		       (unsigned long long)st.contention);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			printf(" %10llu", (unsigned long long)
			       fabric_ns(&t, &s[k], sizes[i]));
		printf("\n");
	}
out:
	mf_sched_free(&s[0]);
	mf_sched_free(&s[1]);
	cm_group_free(&sh);
}

int main(int argc, char **argv)
{
	struct cm_shape sh;
	struct mf_topo t;
	u32 n, i, w, dims[2];
	char name[32];

	if (argc > 1)
		limit = atof(argv[1]);
	printf("%-10s %-8s %3s %5s %8s %8s %10s %8s  %-10s %5s %4s  %s\n",
	       "shape", "model", "N", "log2", "Knodel", "minimum", "states",
	       "seconds", "core", "steps", "cont", "upper");
	for (n = 2; n <= 8; n++) {
		if (mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, &n))
			return 1;
		snprintf(name, sizeof(name), "%u nodes", n);
		cm_any(&sh, n);
		row(name, &sh, &t, n);
		cm_group_free(&sh);
	}
	for (i = 0; i < CM_NCASES; i++) {
		dims[0] = cm_cases[i].a;
		dims[1] = cm_cases[i].b;
		if (mf_topo_init(&t, cm_cases[i].kind, cm_cases[i].d, dims))
			return 1;
		cm_shape_name(&t, name, sizeof(name));
		for (w = CM_ROUTE; w <= CM_SHORTEST; w++) {
			if (cm_shape(&sh, &t, w))
				return 1;
			row(name, &sh, &t, t.nodes);
			cm_group_free(&sh);
		}
	}
	mesh3x3();
	return 0;
}
