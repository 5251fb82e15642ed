// SPDX-License-Identifier: GPL-2.0
/*
 * test_mintcd.c - `mintcd` (sched_mintcd.c), the least-TCD recursive
 * bisection broadcast, against independent references:
 *  - an exhaustive search over ALL one-port log2 N-step broadcasts (not
 *    only bisections) for N <= 16: DP over informed sets, min-cost
 *    matchings between the informed set and the next newly informed set;
 *  - a naive re-implementation of the bisection DP (explicit min over all
 *    targets, no distance transform) for every source of larger meshes;
 *  - the closed forms of 000 (Eq. 9 corner, Eq. 10 eye, the d-D recursion
 *    of section 4) and 001 (63, 525);
 *  - `eyes` from every source, when it is registered;
 *  - a hand-built schedule from a non-eye source of the 8x8 mesh reaching
 *    the optimum 69, a counterexample to 000 Theorem 2 (Algorithm 1 from
 *    that source costs at least 70 by 000 Eq. 5 and 7).
 * Distances come from BFS over mf_topo_neighbor.  Every schedule passes
 * mf_check and its TCD and contention are taken from mf_check.
 */
#include "mf_test.h"
#include "../../kunit/mf_bfs.h"
#include "algo.h"
#include "check.h"
#include "route.h"

#define INF 0x3fffffffU

/* Plan with algorithm id, check it; TCD (U64_MAX on failure). */
static u64 plan_tcd(const struct mf_topo *t, u32 id, u32 src, u64 *contention)
{
	struct mf_stats st;

	if (mf_test_plan(t, id, src, &st))
		return U64_MAX;
	EXPECT_EQ(st.steps, __builtin_ctz(t->nodes));
	if (contention)
		*contention += st.contention;
	return st.tcd;
}

static void topo(struct mf_topo *t, u32 kind, u32 nd, const u32 *dims)
{
	EXPECT_EQ(mf_topo_init(t, kind, nd, dims), 0);
}

/* ---- exhaustive search over all one-port broadcasts, N <= 16 ---- */

struct ex {
	u32 n, full;
	u32 dist[16][16];
	u32 *memo;		/* 2^n entries, U32_MAX = unknown */
};

/* Min-cost perfect matching of the m nodes s[] to the nodes of T. */
static u32 ex_match(const struct ex *e, const u32 *s, u32 m, u32 T)
{
	u32 tg[16], mt = 0, i, j, mask, dp[256];

	for (; T; T &= T - 1)
		tg[mt++] = __builtin_ctz(T);
	for (mask = 1; mask < (1U << m); mask++)
		dp[mask] = INF;
	dp[0] = 0;
	for (mask = 0; mask < (1U << m) - 1; mask++) {
		i = __builtin_popcount(mask);
		for (j = 0; j < m; j++) {
			u32 c = dp[mask] + e->dist[s[i]][tg[j]];

			if (!(mask >> j & 1) && c < dp[mask | 1U << j])
				dp[mask | 1U << j] = c;
		}
	}
	return dp[(1U << m) - 1];
}

/* Least TCD to finish a broadcast whose informed set is S. */
static u32 ex_f(struct ex *e, u32 S)
{
	u32 comp = e->full & ~S, m = 0, best = INF, T, c, s[16], x;

	if (S == e->full)
		return 0;
	if (e->memo[S] != U32_MAX)
		return e->memo[S];
	for (x = S; x; x &= x - 1)
		s[m++] = __builtin_ctz(x);
	if (2 * m == e->n) {
		best = ex_match(e, s, m, comp);
	} else {
		for (T = comp; T; T = (T - 1) & comp) {
			if ((u32)__builtin_popcount(T) != m)
				continue;
			c = ex_match(e, s, m, T);
			if (c >= best)
				continue;
			c += ex_f(e, S | T);
			if (c < best)
				best = c;
		}
	}
	e->memo[S] = best;
	return best;
}

static void ex_init(struct ex *e, const struct mf_topo *t)
{
	e->n = t->nodes;
	e->full = (1U << e->n) - 1;
	mf_bfs_all(t, &e->dist[0][0], 16);
	e->memo = malloc(sizeof(u32) << e->n);
	memset(e->memo, 0xff, sizeof(u32) << e->n);
}

/* ---- naive bisection DP: explicit minimum over every target ---- */

struct nb {
	const struct mf_topo *t;
	u32 d, k[MF_MAX_DIMS], nsh, rad[MF_MAX_DIMS];
	bool torus;
	u32 **tab;		/* tab[shape][rel] */
};

static void nb_exps(const struct nb *b, u32 sh, u32 *a)
{
	u32 i;

	for (i = 0; i < b->d; i++)
		a[i] = sh / b->rad[i] % (b->k[i] + 1);
}

static u32 nb_size(const struct nb *b, const u32 *a)
{
	u32 i, m = 1;

	for (i = 0; i < b->d; i++)
		m <<= a[i];
	return m;
}

/* Coordinates <-> index in a box of sides 2^a[i], dimension 0 fastest. */
static void nb_coords(const struct nb *b, const u32 *a, u32 rel, u32 *c)
{
	u32 i;

	for (i = 0; i < b->d; i++) {
		c[i] = rel % (1U << a[i]);
		rel /= 1U << a[i];
	}
}

static u32 nb_rel(const struct nb *b, const u32 *a, const u32 *c)
{
	u32 i = b->d, r = 0;

	while (i--)
		r = r * (1U << a[i]) + c[i];
	return r;
}

static u32 nb_childrel(const struct nb *b, const u32 *a, u32 dim, const u32 *c)
{
	u32 ca[MF_MAX_DIMS], cc[MF_MAX_DIMS];

	memcpy(ca, a, sizeof(ca));
	memcpy(cc, c, sizeof(cc));
	ca[dim]--;
	cc[dim] %= 1U << ca[dim];
	return nb_rel(b, ca, cc);
}

static void nb_init(struct nb *b, const struct mf_topo *t)
{
	u32 i, sh, p, q, dim, j, a[MF_MAX_DIMS], pc[MF_MAX_DIMS], qc[MF_MAX_DIMS];

	memset(b, 0, sizeof(*b));
	b->t = t;
	b->d = t->ndims;
	b->torus = t->kind == MESHFABRIC_KIND_TORUS;
	b->nsh = 1;
	for (i = 0; i < b->d; i++) {
		b->k[i] = __builtin_ctz(t->dims[i]);
		b->rad[i] = b->nsh;
		b->nsh *= b->k[i] + 1;
	}
	b->tab = calloc(b->nsh, sizeof(u32 *));
	for (sh = 0; sh < b->nsh; sh++) {
		u32 m;

		nb_exps(b, sh, a);
		m = nb_size(b, a);
		b->tab[sh] = malloc(m * sizeof(u32));
		for (p = 0; p < m; p++) {
			u32 best = m == 1 ? 0 : INF;

			nb_coords(b, a, p, pc);
			for (dim = 0; dim < b->d; dim++) {
				u32 h = (1U << a[dim]) / 2, ch = sh - b->rad[dim], fp;

				if (!a[dim])
					continue;
				fp = b->tab[ch][nb_childrel(b, a, dim, pc)];
				for (q = 0; q < m; q++) {
					u32 dist = 0, c;

					nb_coords(b, a, q, qc);
					if ((qc[dim] >= h) == (pc[dim] >= h))
						continue;
					for (j = 0; j < b->d; j++) {
						u32 n = 1U << a[j];
						u32 dx = pc[j] > qc[j] ? pc[j] - qc[j] :
							 qc[j] - pc[j];

						if (b->torus && a[j] == b->k[j] && n - dx < dx)
							dx = n - dx;
						dist += dx;
					}
					c = dist + fp + b->tab[ch][nb_childrel(b, a, dim, qc)];
					if (c < best)
						best = c;
				}
			}
			b->tab[sh][p] = best;
		}
	}
}

/* Optimum of the class from source src (tori: over all translates). */
static u32 nb_opt(const struct nb *b, u32 src)
{
	u32 full = b->nsh - 1, p, best;

	/* in the full box the index of a node is its id */
	if (!b->torus)
		return b->tab[full][src];
	best = INF;
	for (p = 0; p < b->t->nodes; p++)
		if (b->tab[full][p] < best)
			best = b->tab[full][p];
	return best;
}

static void nb_free(struct nb *b)
{
	u32 sh;

	for (sh = 0; sh < b->nsh; sh++)
		free(b->tab[sh]);
	free(b->tab);
}

/* ---- the tests ---- */

/*
 * N <= 16: mintcd equals the minimum over ALL one-port log2 N-step
 * broadcasts from every source (so on these sizes no non-box broadcast
 * beats the best bisection), and the naive bisection DP.
 */
static void test_exhaustive_small(void)
{
	static const u32 shapes[][5] = {
		{ 1, 2 }, { 1, 4 }, { 2, 2, 2 }, { 1, 8 }, { 2, 2, 4 },
		{ 3, 2, 2, 2 }, { 2, 4, 4 }, { 2, 2, 8 }, { 1, 16 },
		{ 3, 2, 2, 4 }, { 4, 2, 2, 2, 2 },
	};
	u32 kind, i, s;

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++) {
		for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
			struct mf_topo t;
			struct ex e;
			struct nb b;
			u64 cont = 0;

			topo(&t, kind, shapes[i][0], &shapes[i][1]);
			if (kind == MESHFABRIC_KIND_TORUS && t.nodes == 1U << t.ndims)
				continue;	/* all sides 2: the torus is the mesh */
			ex_init(&e, &t);
			nb_init(&b, &t);
			for (s = 0; s < t.nodes; s++) {
				u32 ex = ex_f(&e, 1U << s);
				u64 m = plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, s, &cont);

				EXPECT_MSG(m == ex,
					   "%s shape %u src %u: mintcd %llu, exhaustive %u",
					   mf_topo_kind_name(kind), i, s,
					   (unsigned long long)m, ex);
				EXPECT_EQ(nb_opt(&b, s), ex);
			}
			EXPECT_EQ(cont, 0);
			free(e.memo);
			nb_free(&b);
		}
	}
}

/*
 * 000 section 2: MD_2(0,0) = 18 and MD_2(1,1) = 15; MD_2(0,1) is 16 as
 * section 2 says, not 17 as the Appendix says (exhaustive search).
 */
static void test_4x4_paper_values(void)
{
	u32 dims[2] = { 4, 4 };
	struct mf_topo t;
	struct ex e;

	topo(&t, MESHFABRIC_KIND_MESH, 2, dims);
	ex_init(&e, &t);
	EXPECT_EQ(ex_f(&e, 1U << 0), 18);
	EXPECT_EQ(ex_f(&e, 1U << 5), 15);
	EXPECT_EQ(ex_f(&e, 1U << 4), 16);
	EXPECT_EQ(ex_f(&e, 1U << 1), 16);
	EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, 4, NULL), 16);
	free(e.memo);
}

/* Larger boxes: mintcd equals the naive bisection DP from every source. */
static void test_naive_dp(void)
{
	static const u32 shapes[][4] = {
		{ 2, 8, 8 }, { 2, 16, 16 }, { 2, 4, 16 }, { 2, 2, 32 }, { 1, 64 },
		{ 3, 4, 4, 4 }, { 3, 2, 4, 8 }, { 3, 8, 8, 8 },
	};
	u32 kind, i, s;

	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++) {
		for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
			struct mf_topo t;
			struct nb b;
			u64 cont = 0;

			topo(&t, kind, shapes[i][0], &shapes[i][1]);
			nb_init(&b, &t);
			for (s = 0; s < t.nodes; s += t.nodes > 256 ? 5 : 1)
				EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, s, &cont),
					  nb_opt(&b, s));
			EXPECT_EQ(cont, 0);
			nb_free(&b);
		}
	}
}

/* Eye coordinate (low one) of a 2^k side: (2^k - 1 - a_k) / 2, a_k of Eq. 2. */
static u32 eye_lo(u32 k)
{
	u32 ak = k & 1 ? ((1U << k) + 1) / 3 : ((1U << k) - 1) / 3;

	return ((1U << k) - 1 - ak) / 2;
}

/*
 * 000 Eq. 10 (optimal TCD from an eye, 3, 15, 69, 291, 1197) at the four
 * eyes and as the minimum over all sources; Eq. 9 (corner: 18, 79, 318,
 * 1259).
 */
static void test_closed_forms_2d(void)
{
	u32 k, s, x, y;

	for (k = 1; k <= 5; k++) {
		u32 n = 1U << k, dims[2] = { n, n }, lo = eye_lo(k), ak = n - 2 * lo - 1;
		s64 sg = k & 1 ? -1 : 1;
		u64 eye = (u64)((3 * (1LL << (2 * k + 1)) - sg) / 5 - n);
		u64 corner = (u64)((36LL << (2 * k)) + 40LL * n - 60LL * k - sg - 75) / 30;
		u64 mn = U64_MAX, cont = 0, v;
		struct mf_topo t;

		topo(&t, MESHFABRIC_KIND_MESH, 2, dims);
		for (y = 0; y < 2; y++)
			for (x = 0; x < 2; x++)
				EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD,
						   (lo + x * ak) + n * (lo + y * ak), &cont), eye);
		EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, 0, &cont), corner);
		EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, n * n - 1, &cont), corner);
		for (s = 0; s < t.nodes; s += k == 5 ? 3 : 1) {
			v = plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, s, &cont);
			if (v < mn)
				mn = v;
		}
		EXPECT_EQ(mn, eye);
		EXPECT_EQ(cont, 0);
	}
	EXPECT_EQ(eye_lo(3), 2);
}

/*
 * 000 section 4: MD_k^d(E) = (2^d - 1) a_k + 2^d MD_(k-1)^d(E), MD_1^d =
 * 2^d - 1; 001: 63 (4x4x4) and 525 (8x8x8); also 4-D 4x4x4x4.
 */
static void test_closed_forms_dd(void)
{
	static const u32 cases[][2] = { { 3, 2 }, { 3, 3 }, { 4, 2 } };
	u32 c, i, s;

	for (c = 0; c < 3; c++) {
		u32 d = cases[c][0], k = cases[c][1], n = 1U << k, dims[4], lo = eye_lo(k);
		u64 md = (1U << d) - 1, cont = 0, mn = U64_MAX, v, eye = 0;
		struct mf_topo t;

		for (i = 2; i <= k; i++)
			md = ((1U << d) - 1) * ((1U << i) - 2 * eye_lo(i) - 1) +
			     (1U << d) * md;
		for (i = 0; i < d; i++) {
			dims[i] = n;
			eye = eye * n + lo;
		}
		topo(&t, MESHFABRIC_KIND_MESH, d, dims);
		EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, eye, &cont), md);
		for (s = 0; s < t.nodes; s += t.nodes > 64 ? 7 : 1) {
			v = plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, s, &cont);
			if (v < mn)
				mn = v;
		}
		EXPECT_EQ(mn, md);
		EXPECT_EQ(cont, 0);
		if (d == 3)
			EXPECT_EQ(md, k == 2 ? 63 : 525);
	}
}

/*
 * A counterexample to 000 Theorem 2: from (3, 2) of the 8x8 mesh, not an
 * eye (the eyes are (2|5, 2|5)), this hand-made broadcast reaches 69, the
 * optimum from an eye (Eq. 10), while Algorithm 1 from there costs
 * 69 + f_3 + f_2 = 70 (Eq. 7: f_3 = 0, region (i), but the source keeps
 * its quadrant, where it is not an eye of the 4x4: f_2 = 1, D_2 = 16).
 * Steps: (3,2)->(3,5); x -> x+1; x: 3->1, 4->6; y: 2->1, 5->6; x -> x^1;
 * y -> y^1.
 */
static void test_non_eye_reaches_optimum(void)
{
	u32 dims[2] = { 8, 8 }, inf[64], ninf = 1, step, i, c[2];
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;
	char err[160];

	topo(&t, MESHFABRIC_KIND_MESH, 2, dims);
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 3 + 8 * 2);
	inf[0] = 3 + 8 * 2;
	for (step = 0; step < 6; step++) {
		u32 n = ninf;

		mf_sched_step(&s);
		for (i = 0; i < n; i++) {
			mf_topo_coords(&t, inf[i], c);
			if (step == 0)
				c[1] = 5;
			else if (step == 1)
				c[0]++;
			else if (step == 2)
				c[0] = c[0] == 3 ? 1 : 6;
			else if (step == 3)
				c[1] = c[1] == 2 ? 1 : 6;
			else if (step == 4)
				c[0] ^= 1;
			else
				c[1] ^= 1;
			inf[ninf] = mf_topo_id(&t, c);
			mf_sched_send_dor(&s, &t, inf[i], inf[ninf++], NULL);
		}
	}
	mf_sched_end(&s);
	EXPECT_EQ(mf_check(&t, &s, &st, err, sizeof(err)), 0);
	EXPECT_EQ(st.tcd, 69);
	EXPECT_EQ(st.contention, 0);
	mf_sched_free(&s);
	EXPECT_EQ(plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, 3 + 8 * 2, NULL), 69);
}

/* mintcd is never above eyes, from every source (eyes registered). */
static void test_never_above_eyes(void)
{
	static const u32 shapes[][4] = {
		{ 2, 4, 4 }, { 2, 8, 8 }, { 2, 16, 16 }, { 3, 4, 4, 4 }, { 3, 8, 8, 8 },
	};
	const struct mf_algo *eyes = mf_algo_by_id(MESHFABRIC_ALGO_EYES);
	u32 i, s, better = 0;

	if (!eyes) {
		/* eyes not built yet: the closed forms above stand in for it */
		printf("# eyes not registered: compared with 000/001 closed forms only\n");
		return;
	}
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct mf_topo t;

		topo(&t, MESHFABRIC_KIND_MESH, shapes[i][0], &shapes[i][1]);
		EXPECT_EQ(eyes->supports(&t), 0);
		for (s = 0; s < t.nodes; s++) {
			u64 m = plan_tcd(&t, MESHFABRIC_ALGO_MINTCD, s, NULL);
			u64 e = plan_tcd(&t, MESHFABRIC_ALGO_EYES, s, NULL);

			EXPECT_MSG(m <= e, "shape %u src %u: mintcd %llu > eyes %llu", i, s,
				   (unsigned long long)m, (unsigned long long)e);
			better += m < e;
		}
	}
	printf("# mintcd below eyes from %u sources\n", better);
}

static void test_supports(void)
{
	u32 d1[2] = { 4, 8 }, d2[2] = { 6, 4 }, d3[1] = { 3 };
	struct mf_topo t;

	topo(&t, MESHFABRIC_KIND_TORUS, 2, d1);
	EXPECT_EQ(mf_algo_mintcd.supports(&t), 0);
	topo(&t, MESHFABRIC_KIND_MESH, 2, d2);
	EXPECT_EQ(mf_algo_mintcd.supports(&t), -EOPNOTSUPP);
	topo(&t, MESHFABRIC_KIND_HEX, 1, d3);
	EXPECT_EQ(mf_algo_mintcd.supports(&t), -EOPNOTSUPP);
	EXPECT(mf_algo_by_id(MESHFABRIC_ALGO_MINTCD) == &mf_algo_mintcd);
}

int main(void)
{
	RUN(test_supports);
	RUN(test_exhaustive_small);
	RUN(test_4x4_paper_values);
	RUN(test_naive_dp);
	RUN(test_closed_forms_2d);
	RUN(test_closed_forms_dd);
	RUN(test_non_eye_reaches_optimum);
	RUN(test_never_above_eyes);
	return mf_test_done();
}
