// SPDX-License-Identifier: GPL-2.0
/*
 * bench_mintcd.c - `mintcd` (least-TCD recursive bisection) against
 * `eyes` (000/001) from every source, and against the papers' optimum
 * values.  Prints numbers; not a test.
 *
 * Per mesh: sources where mintcd < eyes, the largest improvement, the
 * least TCD over all sources vs the papers' optimum (000 Eq. 10 and
 * section 4 / 001), how many sources reach it (the papers: only the
 * 2^d eyes), contention, time per mintcd plan.  Then 64x64 from every
 * source, total time (goal: under a minute).
 *
 * Build: cc -O2 -std=gnu99 -Iinclude/uapi -Idrivers/net/meshfabric/core
 *        userspace/bench/bench_mintcd.c drivers/net/meshfabric/core/\*.c
 */
#include "mf_bench.h"
#include "algo.h"
#include "check.h"
#include "route.h"

/* Plan and check; TCD or U64_MAX.  *secs += the planning time only. */
static u64 plan(const struct mf_topo *t, u32 id, u32 src, double *secs, u64 *cont)
{
	struct mf_sched s;
	struct mf_stats st;
	char err[160];
	double t0 = mf_now();
	int ret = mf_plan(t, id, src, MESHFABRIC_ROUTE_DEFAULT, &s, NULL);
	u64 tcd = U64_MAX;

	if (secs)
		*secs += mf_now() - t0;
	if (!ret && !mf_check(t, &s, &st, err, sizeof(err))) {
		tcd = st.tcd;
		if (cont)
			*cont += st.contention;
	} else if (!ret) {
		printf("INVALID schedule algo %u src %u: %s\n", id, src, err);
	}
	mf_sched_free(&s);
	return tcd;
}

/* a_k of 000 Eq. 2. */
static u64 a_k(u32 k)
{
	return k & 1 ? ((1ULL << k) + 1) / 3 : ((1ULL << k) - 1) / 3;
}

/* The papers' optimal TCD of a d-D 2^k mesh: (2^d-1) a_k + 2^d MD_(k-1). */
static u64 paper_opt(u32 d, u32 k)
{
	u64 md = (1ULL << d) - 1;
	u32 i;

	for (i = 2; i <= k; i++)
		md = ((1ULL << d) - 1) * a_k(i) + (1ULL << d) * md;
	return md;
}

/* Low eye coordinate of a side 2^k: (2^k - 1 - a_k) / 2. */
static u32 eye_lo(u32 k)
{
	return (u32)(((1ULL << k) - 1 - a_k(k)) / 2);
}

static u32 dist2(u32 x0, u32 y0, u32 x1, u32 y1)
{
	return (x0 > x1 ? x0 - x1 : x1 - x0) + (y0 > y1 ? y0 - y1 : y1 - y0);
}

/*
 * TCD of 000 Algorithm 1 from (x, y) in a 2^k x 2^k box (local
 * coordinates), as written: reflect the source into the upper-left
 * quadrant, send to the upper-right eye E_k(2), then to the closer of
 * the lower-left eyes E_k(3) and E_(k-1)(1) while E_k(2) sends to E_k(4),
 * recurse into the quadrants.  "Rotate the mesh" leaves open which half
 * comes first; we take the better of the two at every level, so this is
 * a lower bound on every reading of Algorithm 1.
 */
static u64 alg1(u32 k, u32 x, u32 y)
{
	u32 h, lo, hi, lo1, o, ux, uy, e3, e1, t2, rx, ry;
	u64 best = U64_MAX, c;

	if (k == 0)
		return 0;
	if (k == 1)
		return 3;
	h = 1U << (k - 1);
	lo = eye_lo(k);
	hi = lo + (u32)a_k(k);
	lo1 = eye_lo(k - 1);
	rx = x >= h;		/* reflect into the upper-left quadrant */
	ry = y >= h;
	if (rx)
		x = 2 * h - 1 - x;
	if (ry)
		y = 2 * h - 1 - y;
	for (o = 0; o < 2; o++) {
		/* o = 1: transpose (the vertical cut first) */
		ux = o ? y : x;
		uy = o ? x : y;
		e3 = dist2(ux, uy, lo, hi);
		e1 = dist2(ux, uy, lo1, h + lo1);
		t2 = e3 <= e1 ? lo : lo1;	/* x of the lower-left target */
		c = dist2(ux, uy, hi, lo) + (e3 <= e1 ? e3 : e1) + (hi - lo);
		/* quadrants: UL from the source, UR from E(2), LL, LR from E(4) */
		c += alg1(k - 1, ux, uy) + alg1(k - 1, hi - h, lo) +
		     alg1(k - 1, t2, (e3 <= e1 ? hi : h + lo1) - h) +
		     alg1(k - 1, hi - h, hi - h);
		if (c < best)
			best = c;
	}
	return best;
}

static void one(u32 d, u32 k, const struct mf_algo *eyes)
{
	u32 dims[MF_MAX_DIMS], c[MF_MAX_DIMS], i, s, better = 0, reach = 0, abetter = 0;
	u32 areach = 0;
	u64 opt = paper_opt(d, k), mn = U64_MAX, maxgain = 0, amaxgain = 0, cont = 0;
	u64 econt = 0, sum_m = 0, sum_e = 0, m, e, a;
	double secs = 0, esecs = 0;
	struct mf_topo t;
	char name[64];
	int len = 0;

	for (i = 0; i < d; i++) {
		dims[i] = 1U << k;
		len += snprintf(name + len, sizeof(name) - len, "%s%u", i ? "x" : "", dims[i]);
	}
	mf_topo_init(&t, MESHFABRIC_KIND_MESH, d, dims);
	for (s = 0; s < t.nodes; s++) {
		m = plan(&t, MESHFABRIC_ALGO_MINTCD, s, &secs, &cont);
		sum_m += m;
		if (m < mn)
			mn = m;
		reach += m <= opt;
		if (d == 2) {
			mf_topo_coords(&t, s, c);
			a = alg1(k, c[0], c[1]);
			areach += a <= opt;
			if (m > a)
				printf("MINTCD ABOVE ALGORITHM 1 %s src %u\n", name, s);
			abetter += m < a;
			if (m < a && a - m > amaxgain)
				amaxgain = a - m;
		}
		if (!eyes)
			continue;
		e = plan(&t, MESHFABRIC_ALGO_EYES, s, &esecs, &econt);
		sum_e += e;
		if (m < e) {
			better++;
			if (e - m > maxgain)
				maxgain = e - m;
		}
		if (m > e)
			printf("MINTCD ABOVE EYES %s src %u: %llu > %llu\n", name, s,
			       (unsigned long long)m, (unsigned long long)e);
	}
	printf("%-7s %5u | %6llu %6llu %-7s %5u |", name, t.nodes,
	       (unsigned long long)opt, (unsigned long long)mn,
	       mn < opt ? "BEATEN" : mn == opt ? "reached" : "above", reach);
	if (eyes)
		printf(" %5u %5llu %9.2f %9.2f |", better, (unsigned long long)maxgain,
		       (double)sum_m / t.nodes, (double)sum_e / t.nodes);
	else
		printf("  eyes not registered    %9.2f |", (double)sum_m / t.nodes);
	if (d == 2)
		printf(" %5u %5llu %5u |", abetter, (unsigned long long)amaxgain, areach);
	else
		printf("     -     -     - |");
	printf(" %4llu %4llu | %7.1f %7.1f\n", (unsigned long long)cont,
	       (unsigned long long)econt, secs / t.nodes * 1e6,
	       eyes ? esecs / t.nodes * 1e6 : 0.0);
}

int main(void)
{
	const struct mf_algo *eyes = mf_algo_by_id(MESHFABRIC_ALGO_EYES);
	static const u32 cases[][2] = {
		{ 2, 2 }, { 2, 3 }, { 2, 4 }, { 2, 5 }, { 3, 2 }, { 3, 3 },
	};
	u32 dims[2] = { 64, 64 }, i, s;
	struct mf_topo t;
	double secs = 0, t0;
	u64 mn = U64_MAX, m;

	printf("                | optimum TCD over sources   | mintcd vs eyes            |"
	       " vs 000 Alg. 1    | contention| us per plan\n");
	printf("mesh        N   | paper  mintcd  status reach| below gain avg-mint  avg-eyes |"
	       " below  gain reach| mint eyes| mintcd  eyes\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		one(cases[i][0], cases[i][1], eyes);
	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims);
	t0 = mf_now();
	for (s = 0; s < t.nodes; s++) {
		m = plan(&t, MESHFABRIC_ALGO_MINTCD, s, &secs, NULL);
		if (m < mn)
			mn = m;
	}
	printf("64x64 every source: %u plans, %.2f s planning, %.2f s with mf_check;"
	       " min TCD %llu (paper %llu)\n", t.nodes, secs, mf_now() - t0,
	       (unsigned long long)mn, (unsigned long long)paper_opt(2, 6));
	return 0;
}
