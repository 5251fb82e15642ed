// SPDX-License-Identifier: GPL-2.0
/* The exhaustive minimum number of steps of an allreduce (coll_min.h's
 * search) against closed forms, checked witnesses, and the core's
 * algorithms:
 *  - gossip of an idempotent op: the telephone model (calls) against
 *    Knodel's ceil(log2 N) for even N, ceil(log2 N) + 1 for odd N; the
 *    one-port send/receive model against ceil(log2 N) (the dissemination
 *    algorithm reaches it, the largest set at most doubles per step);
 *  - allreduce of a sum (disjoint combines or copies), one-port, any node
 *    to any node, N = 2..8, against ceil(log2 N) at N = 2^k (recursive
 *    doubling), ceil(log2 N) + 1 at odd N (below), and at N = 6 a 3-step
 *    schedule built here by hand and proved by the checker;
 *  - the same on the graphs of small shapes, each step's sends on
 *    distinct directed links, along the core's routed paths or any
 *    shortest ones;
 *  - every witness the search returns, as a schedule, proved by the
 *    project's checker (mf_check), contention-free on the shapes;
 *  - the core's best one-port allreduce never below the minimum;
 *  - 9 nodes (3x3 mesh and torus), where the search cannot finish the
 *    parity bound: a witness pinned in coll_min.h (mesh) and the core's
 *    best (torus), proved by the checker, reach it contention-free.
 *
 * Odd N needs ceil(log2 N) + 1: with D = ceil(log2 N) steps no set is
 * full before the last step (sets at most double), so in the last one
 * every node receives the complement of its set from a distinct sender;
 * the senders form a permutation that maps a set of size s to one of
 * size N - s != s, so its cycles alternate between the sizes and are
 * even: N would be even.  N = 2^floor(log2 N) + r folds in
 * floor(log2 N) + 2 = ceil(log2 N) + 1 steps (coll.h).
 */
#include <time.h>

#include "mf_test.h"
#include "coll.h"
#include "coll_min.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The witness of c (cm_sched) checked by mf_check: 0 and *st, or the
 * error (printed).
 */
static int witness_check(const struct mf_topo *t, const struct cm_search *c,
			 u32 steps, struct mf_stats *st)
{
	struct mf_sched s;
	char err[160] = "";
	int ret;

	ret = cm_sched(t, c, steps, &s);
	if (!ret)
		ret = mf_check(t, &s, st, err, sizeof(err));
	EXPECT_MSG(!ret, "witness of %u steps: %d %s", steps, ret, err);
	if (!ret)
		EXPECT_EQ(st->steps, steps);
	mf_sched_free(&s);
	return ret;
}

/* The gossip models against the literature's closed forms. */
static void test_gossip_closed_forms(void)
{
	struct cm_search c;
	struct cm_shape sh;
	u32 n, lg;

	for (n = 2; n <= 8; n++) {
		double t0 = now();
		u32 tel, dis;

		lg = cm_ceil_log2(n);
		cm_any(&sh, n);
		tel = cm_min_steps(&c, &sh, CM_UNION, true, 8, false, 0);
		/* Knodel 1975: ceil(log2 N) even, ceil(log2 N) + 1 odd */
		EXPECT_EQ(tel, n % 2 ? lg + 1 : lg);
		dis = cm_min_steps(&c, &sh, CM_UNION, false, 8, false, 0);
		EXPECT_EQ(dis, lg);
		printf("# gossip %u nodes: telephone %u, one-port send/receive %u "
		       "(%.3f s)\n", n, tel, dis, now() - t0);
		cm_group_free(&sh);
	}
}

/* Node v's rank in the hand-made 6-node schedule: pairs (i, i + 3)
 * exchange (sets A_i = {i, i + 3}); 1 -> 0, 2 -> 1, 3 -> 2 (nodes 0, 1,
 * 2 then hold two pairs, 3, 4, 5 one); each node gets its complement
 * from 5, 3, 4, 1, 2, 0.
 */
static void test_six_in_three(void)
{
	static const u32 st2[][2] = { { 1, 0 }, { 2, 1 }, { 3, 2 } };
	static const u32 from3[6] = { 5, 3, 4, 1, 2, 0 };
	u32 n = 6, i, zero = 0;
	struct mf_stats st;
	struct mf_sched s;
	struct mf_topo t;
	char err[160] = "";

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, &n), 0);
	EXPECT_EQ(mf_coll_init(&s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ONE_PORT,
			       0, 1), 0);
	EXPECT_EQ(mf_sched_step(&s), 0);
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(mf_sched_send_route(&s, &t, 0, (i + 3) % 6, i), 0);
		EXPECT_EQ(mf_sched_blocks(&s, &zero, 1, true), 0);
	}
	EXPECT_EQ(mf_sched_step(&s), 0);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(mf_sched_send_route(&s, &t, 0, st2[i][0], st2[i][1]), 0);
		EXPECT_EQ(mf_sched_blocks(&s, &zero, 1, true), 0);
	}
	EXPECT_EQ(mf_sched_step(&s), 0);
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(mf_sched_send_route(&s, &t, 0, from3[i], i), 0);
		EXPECT_EQ(mf_sched_blocks(&s, &zero, 1, true), 0);
	}
	EXPECT_EQ(mf_sched_end(&s), 0);
	EXPECT_MSG(!mf_check(&t, &s, &st, err, sizeof(err)), "%s", err);
	EXPECT_EQ(st.steps, 3);
	mf_sched_free(&s);
}

/* The any-to-any minimum of N nodes, for the shapes' comparisons. */
static u32 any_min[CM_MAXN + 1];

/* any_min[n], searched if not yet (n <= 8); above, the closed form of
 * odd N (the header's comment), 0 for even N.
 */
static u32 any_minimum(u32 n)
{
	struct cm_search c;
	struct cm_shape sh;

	if (n > 8)
		return n % 2 ? cm_ceil_log2(n) + 1 : 0;
	if (!any_min[n]) {
		cm_any(&sh, n);
		any_min[n] = cm_min_steps(&c, &sh, CM_DISJOINT, false, 8, false, 0);
		cm_group_free(&sh);
	}
	return any_min[n];
}

/* Allreduce any node to any node, N = 2..8. */
static void test_allreduce_any_to_any(void)
{
	struct cm_search c;
	struct cm_shape sh;
	struct mf_stats st;
	struct mf_topo t;
	u32 n, lg, min, want, best, algo = 0;
	u64 cont = 0;

	for (n = 2; n <= 8; n++) {
		double t0 = now();

		lg = cm_ceil_log2(n);
		want = !(n & (n - 1)) ? lg : n % 2 ? lg + 1 : 0;
		if (n == 6)
			want = 3;	/* test_six_in_three, and >= lg */
		cm_any(&sh, n);
		min = cm_min_steps(&c, &sh, CM_DISJOINT, false, 8, false, 0);
		EXPECT_EQ(min, want);
		any_min[n] = min;
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, &n), 0);
		witness_check(&t, &c, min, &st);
		best = cm_core_best(&t, &algo, &cont);
		printf("# allreduce %u nodes any-to-any: minimum %u (ceil(log2 N) %u), "
		       "%llu states, %.3f s; core %s %u steps\n", n, min, lg,
		       (unsigned long long)c.visited, now() - t0,
		       mf_calgo_name(algo), best);
		/* nothing beats the minimum; at 2^k recursive doubling
		 * reaches it; above it, pinned: 6 nodes fold (4 steps)
		 */
		EXPECT(best >= min);
		EXPECT_EQ(best, n == 6 ? min + 1 : min);
		cm_group_free(&sh);
	}
}

/* The graph models: any shortest path <= routed path, both >= any node
 * to any node; witnesses contention-free; the core never below.
 */
static void test_allreduce_shapes(void)
{
	static const char *const wn[] = { "any", "routed", "shortest" };
	u32 i, w, n, dims[2];

	for (i = 0; i < CM_NCASES; i++) {
		const struct cm_case *sc = &cm_cases[i];
		u32 min[3] = { 0 }, best, algo = 0;
		struct mf_topo t;
		char name[32];
		u64 cont = 0;

		if (sc->heavy)
			continue;	/* make bench (bench_coll_min) */
		dims[0] = sc->a;
		dims[1] = sc->b;
		EXPECT_EQ(mf_topo_init(&t, sc->kind, sc->d, dims), 0);
		cm_shape_name(&t, name, sizeof(name));
		n = t.nodes;
		min[CM_ANY] = any_minimum(n);
		EXPECT(min[CM_ANY] > 0);
		for (w = CM_ROUTE; w <= CM_SHORTEST; w++) {
			struct cm_search c;
			struct cm_shape sh;
			struct mf_stats st;
			double t0 = now();

			EXPECT_EQ(cm_shape(&sh, &t, w), 0);
			min[w] = cm_min_steps(&c, &sh, CM_DISJOINT, false, 10, false, 0);
			EXPECT(min[w] > 0);
			if (!witness_check(&t, &c, min[w], &st))
				EXPECT_EQ(st.contention, 0);
			printf("# %s %s: minimum %u, %u symmetries, %llu states, "
			       "%.3f s\n", name, wn[w], min[w], sh.ngroup,
			       (unsigned long long)c.visited, now() - t0);
			cm_group_free(&sh);
		}
		EXPECT(min[CM_ANY] <= min[CM_SHORTEST]);
		EXPECT(min[CM_SHORTEST] <= min[CM_ROUTE]);
		best = cm_core_best(&t, &algo, &cont);
		printf("# %s: core %s %u steps, contention %llu\n", name,
		       mf_calgo_name(algo), best, (unsigned long long)cont);
		EXPECT(best >= min[CM_ANY]);
		if (!cont)
			EXPECT(best >= min[CM_ROUTE]);
		/* pinned: one step above the minimum on 6 nodes (folded
		 * recursive doubling), at it elsewhere
		 */
		EXPECT_EQ(best, min[CM_ANY] + (n == 6));
	}
}

/* The 3x3 mesh and torus: 9 nodes, odd, so the parity argument (above)
 * needs ceil(log2 9) + 1 = 5 steps in every model, and the graph models
 * only restrict the any-to-any one.  The search cannot finish 5 steps on
 * 9 nodes (bench_coll_min), so the upper bounds are schedules proved by
 * the checker: on the mesh the witness pinned in coll_min.h (found by a
 * SAT solver), along the core's routed paths, which are shortest ones;
 * on the torus the core's best.  Both contention-free in 5 steps: the
 * minimum is 5 in both graph models on both shapes.
 */
static void test_nine_nodes(void)
{
	static const char *const wn[] = { "any", "routed", "shortest" };
	u32 n = 9, dims[2] = { 3, 3 }, lg = cm_ceil_log2(n), bound, w, i, ub;
	u32 kind, best, algo = 0;
	struct mf_topo t;
	u64 cont = 0;

	/* the parity bound, computed here from N */
	bound = n % 2 ? lg + 1 : lg;
	EXPECT_EQ(bound, 5);
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims), 0);
	for (w = CM_ROUTE; w <= CM_SHORTEST; w++) {
		struct cm_search c;
		struct cm_shape sh;
		struct mf_stats st;

		EXPECT_EQ(cm_shape(&sh, &t, w), 0);
		EXPECT_EQ(cm_witness(&c, &sh, &t, cm_mesh3x3,
				     CM_MESH3X3_SENDS, CM_MESH3X3_STEPS), 0);
		if (!witness_check(&t, &c, CM_MESH3X3_STEPS, &st)) {
			EXPECT_EQ(st.contention, 0);
			EXPECT_EQ(st.steps, bound);
			printf("# mesh 3x3 %s: witness of %u steps (the parity "
			       "bound %u), %u sends, %llu hops, contention %llu\n",
			       wn[w], st.steps, bound, st.sends,
			       (unsigned long long)st.tcd,
			       (unsigned long long)st.contention);
		}
		/* every path shortest: a witness of the shortest-path model */
		for (i = 0; i < CM_MESH3X3_SENDS; i++) {
			const struct cm_send *x = &cm_mesh3x3[i];
			const struct cm_step *cs = &c.w[x->step];

			EXPECT_EQ(cs->snd[x->dst], x->src);
			EXPECT_EQ(sh.hops[x->src][x->dst][cs->pid[x->dst]],
				  mf_topo_distance(&t, x->src, x->dst));
		}
		cm_group_free(&sh);
	}
	/* the upper bound the benchmark uses, on both shapes and models */
	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++) {
		EXPECT_EQ(mf_topo_init(&t, kind, 2, dims), 0);
		for (w = CM_ROUTE; w <= CM_SHORTEST; w++) {
			const char *by = "none";
			struct cm_shape sh;

			EXPECT_EQ(cm_shape(&sh, &t, w), 0);
			ub = cm_best_upper(&t, &sh, &by);
			EXPECT_EQ(ub, bound);
			EXPECT(!strcmp(by, kind == MESHFABRIC_KIND_MESH ?
				       "witness" : "core"));
			cm_group_free(&sh);
		}
		/* pinned: the core's best reaches 5 steps on both, but
		 * shares links on the mesh (recursive doubling folds
		 * 9 = 8 + 1 along long paths)
		 */
		best = cm_core_best(&t, &algo, &cont);
		printf("# %s 3x3: core %s %u steps, contention %llu\n",
		       mf_topo_kind_name(kind), mf_calgo_name(algo), best,
		       (unsigned long long)cont);
		EXPECT_EQ(best, bound);
		EXPECT(kind == MESHFABRIC_KIND_MESH ? cont > 0 : cont == 0);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	RUN(test_gossip_closed_forms);
	RUN(test_six_in_three);
	RUN(test_allreduce_any_to_any);
	RUN(test_allreduce_shapes);
	RUN(test_nine_nodes);
	return mf_test_done();
}
