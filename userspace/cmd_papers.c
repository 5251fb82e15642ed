// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_papers.c - `meshfabric papers`: every numbered claim of the five
 * papers meshfabric implements (theorems, equations, step counts,
 * examples), each computed live by the core: plan builders (eyes,
 * eyes-paper, mintcd, tsay-wang, hex, binomial, tree), Delta(R)
 * (analyze), A1 (route), breadth-first search over the topology, and
 * searches over every source where the case is small.
 *
 * For each claim: the paper's value, the value of the paper's own text
 * read literally (its algorithm as printed: eyes-paper; its formula
 * evaluated as printed), meshfabric's value, a verdict and a command
 * line that shows it.  Verdicts: "holds", "false" (meshfabric computes a
 * different value, or a counterexample), "typo" (the paper contradicts
 * itself and one of its readings holds), "not reached" (a bound the
 * paper claims and meshfabric's construction does not achieve).
 *
 * JSON: [{"paper":"000","claim":...,"case":...,"paper_value":...,
 *         "as_printed":...,"meshfabric":...,"verdict":...,
 *         "command":...,"note":...}, ...]  (values are strings)
 * --markdown writes docs/papers.md (make docs/papers.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "coll.h"
#include "parse.h"
#include "json.h"
#include "algo.h"
#include "route.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

enum { KEY_PAPER = 1, KEY_MARKDOWN };

static const struct mf_opt papers_opts[] = {
	{ "paper", 0, "NNN", KEY_PAPER, "only the claims of paper 000 .. 004" },
	{ "markdown", 0, NULL, KEY_MARKDOWN,
	  "print docs/papers.md (Markdown tables) instead of text" },
	{ NULL, 0, NULL, 0, NULL }
};

static const char *const paper_titles[] = {
	"Cang & Wu, Minimizing Total Communication Distance of a Time-Step Optimal Broadcast in Mesh Networks",
	"Cang & Wu, the same problem in 3-D meshes",
	"Tsay & Wang, Nearly Optimal Algorithms for Broadcast on d-Dimensional All-Port and Wormhole-Routed Torus",
	"Chen, Shin & Kandlur, Addressing, Routing, and Broadcasting in Hexagonal Mesh Multiprocessors",
	"Jerebic & Trobec, Optimal Broadcasting in Toroidal Networks",
};

struct claim {
	char paper[4];
	char claim[128];
	char cas[64];
	char paper_value[48];
	char printed[48];
	char mf[64];
	const char *verdict;
	char command[128];
	char note[192];
};

struct papers {
	struct claim *c;
	unsigned int n, cap;
	int err;		/* first failure of the core (a bug) */
	char why[160];
};

static void fmt(char *buf, size_t len, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

#define SET(field, ...) fmt(field, sizeof(field), __VA_ARGS__)

static struct claim *add(struct papers *p, const char *paper,
			 const char *claim, const char *cas)
{
	static struct claim spare;
	struct claim *c;

	if (p->n == p->cap) {
		unsigned int cap = p->cap ? 2 * p->cap : 64;
		struct claim *q = realloc(p->c, cap * sizeof(*q));

		if (!q) {
			p->err = -ENOMEM;
			return &spare;
		}
		p->c = q;
		p->cap = cap;
	}
	c = &p->c[p->n++];
	memset(c, 0, sizeof(*c));
	SET(c->paper, "%s", paper);
	SET(c->claim, "%s", claim);
	SET(c->cas, "%s", cas);
	return c;
}

static void fail(struct papers *p, int err, const char *what)
{
	if (!p->err) {
		p->err = err ? err : -EINVAL;
		SET(p->why, "%s", what);
	}
}

static void p002_more(struct papers *p);
static void p003_more(struct papers *p);
static void p004_more(struct papers *p);

/* ---- the core, by the same strings the command lines use ---- */

static const char *kind_opt(u32 kind)
{
	return kind == MESHFABRIC_KIND_HEX ? "--hex" :
	       kind == MESHFABRIC_KIND_MESH ? "--mesh" : "--torus";
}

static int topo(struct papers *p, u32 kind, const char *shape,
		struct mf_topo *t)
{
	char err[160];

	if (mf_parse_topo(kind, shape, t, err, sizeof(err))) {
		fail(p, -EINVAL, err);
		return -EINVAL;
	}
	return 0;
}

/* Plan algo (MESHFABRIC_ALGO_AUTO: the best of model) from node id on t,
 * checked; 0, *st and *used if given, or the error noted.
 */
static int plan_model(struct papers *p, const struct mf_topo *t, u32 algo,
		      u32 model, u32 src, struct mf_stats *st,
		      const struct mf_algo **used)
{
	struct mf_plan_result res;
	struct mf_sched s;
	char what[160];
	int r;

	r = mf_plan_checked(t, algo, model, src, MESHFABRIC_ROUTE_DEFAULT, &s,
			    &res);
	mf_sched_free(&s);
	if (r) {
		SET(what, "algorithm %u from node %u: %s %s", algo, src,
		    mf_strerror(r), res.why);
		fail(p, r, what);
		memset(st, 0, sizeof(*st));
		return r;
	}
	*st = res.stats;
	if (used)
		*used = res.used;
	return 0;
}

static int plan_id(struct papers *p, const struct mf_topo *t, u32 algo,
		   u32 src, struct mf_stats *st)
{
	return plan_model(p, t, algo, 0, src, st, NULL);
}

/* Plan an algorithm (by name) on "--mesh 8x8 --from 0,3"; the command line
 * that shows it goes to c->command when c is given.
 */
static struct mf_stats plan(struct papers *p, struct claim *c, u32 kind,
			    const char *shape, const char *from,
			    const char *algo)
{
	const struct mf_algo *a = mf_algo_by_name(algo);
	struct mf_stats st = { 0 };
	struct mf_topo t;
	char err[160];
	u32 src = 0;

	if (c)
		SET(c->command, "meshfabric plan %s %s%s%s --algo %s --summary",
		    kind_opt(kind), shape, from ? " --from " : "",
		    from ? from : "", algo);
	if (!a) {
		fail(p, -EINVAL, algo);
		return st;
	}
	if (topo(p, kind, shape, &t))
		return st;
	if (from && mf_parse_node(&t, from, &src, err, sizeof(err))) {
		fail(p, -EINVAL, err);
		return st;
	}
	plan_id(p, &t, a->id, src, &st);
	return st;
}

static u64 tcd(struct papers *p, struct claim *c, const char *shape,
	       const char *from, const char *algo)
{
	return plan(p, c, MESHFABRIC_KIND_MESH, shape, from, algo).tcd;
}

/* Every source of t: the least TCD of algo, how many sources reach
 * `target` (or the least, if target is 0), and the TCDs in out[] if given.
 */
static u64 all_sources(struct papers *p, const struct mf_topo *t, u32 algo,
		       u64 target, u32 *hits, u64 *out)
{
	struct mf_stats st;
	u64 best = U64_MAX;
	u32 s;

	*hits = 0;
	for (s = 0; s < t->nodes && !p->err; s++) {
		plan_id(p, t, algo, s, &st);
		if (out)
			out[s] = st.tcd;
		if (st.tcd < best)
			best = st.tcd;
	}
	if (!target)
		target = best;
	for (s = 0; out && s < t->nodes; s++)
		*hits += out[s] == target;
	if (!out) {
		for (s = 0; s < t->nodes && !p->err; s++) {
			plan_id(p, t, algo, s, &st);
			*hits += st.tcd == target;
		}
	}
	return best;
}

static const char *eq(u64 a, u64 b)
{
	return a == b ? "holds" : "false";
}

/* ---- closed forms, as printed ---- */

static s64 pm1(u32 k)
{
	return k & 1 ? -1 : 1;
}

static s64 a_k(u32 k)			/* 000 Eq. 2, 001 Eq. 1 */
{
	return ((1LL << k) - pm1(k)) / 3;
}

static s64 eq10(u32 k)			/* 000 Eq. 10, 001 Eq. 3 */
{
	return (3 * (2LL << (2 * k)) - pm1(k)) / 5 - (1LL << k);
}

static s64 eq9(u32 k)			/* 000 Eq. 9, times 30 */
{
	return (36 * (1LL << (2 * k)) + 40 * (1LL << k) - 60 * (s64)k -
		pm1(k) - 75) / 30;
}

/* 000 Eq. 13 = 001 Eq. 16; -1 where it divides by zero (d = 1). */
static s64 eq13(u32 d, u32 k)
{
	s64 D = 1LL << d, h = (1LL << (d - 1)) - 1;

	if (!h)
		return -1;
	return (D - 1) * (3 * (1LL << (d * (k + 1) - 1)) - pm1(k) * h -
			  (1LL << k) * (D + 1)) / (3 * (D + 1) * h);
}

/* 000 Eq. 11-12 = 001 Eq. 14-15 with the base of 000 (2^d - 1), or of
 * 001 Eq. 12 (base3, 3-D).
 */
static s64 eq12(u32 d, u32 k, s64 base)
{
	return k == 1 ? base : ((1LL << d) - 1) * a_k(k) +
			       (1LL << d) * eq12(d, k - 1, base);
}

/* 001 section 2.1: low and high eye coordinate of a 2^k box. */
static u32 x_k1(u32 k)
{
	return (u32)(((2LL << k) + pm1(k) - 3) / 6);
}

static u32 x_k2(u32 k)
{
	return (u32)(((4LL << k) - pm1(k) - 3) / 6);
}

/* Eyes by Definition 2 (000) / 1 and 2 (001): the 2^d sub-eyes nearest
 * the centre, level by level from the unit cube.  Every eye set found is
 * {lo, hi}^d; 0 and lo, hi, or -1 if the nearest 2^d are not unique or
 * not such a set.
 */
static int def_eyes(u32 d, u32 k, u32 *lo, u32 *hi)
{
	u64 dist[64], sorted[64], t;
	u32 j, m, i, c, n, h, l = 0, u = 1, nl, nu, cnt, nc = 1U << (2 * d);

	for (j = 2; j <= k; j++) {
		n = 1U << j;
		h = n / 2;
		/* candidate m: per dimension, submesh (0 or h) + eye (l or u);
		 * squared distance to the centre in doubled coordinates
		 */
		for (m = 0; m < nc; m++) {
			dist[m] = 0;
			for (i = 0; i < d; i++) {
				c = (m >> (2 * i)) & 3;
				c = (c & 2 ? h : 0) + (c & 1 ? u : l);
				t = 2 * c > n - 1 ? 2 * c - (n - 1) : (n - 1) - 2 * c;
				dist[m] += t * t;
			}
			sorted[m] = dist[m];
		}
		for (m = 1; m < nc; m++)	/* insertion sort */
			for (i = m; i > 0 && sorted[i - 1] > sorted[i]; i--) {
				t = sorted[i];
				sorted[i] = sorted[i - 1];
				sorted[i - 1] = t;
			}
		if (sorted[(1U << d) - 1] == sorted[1U << d])
			return -1;
		nl = n;
		nu = 0;
		for (m = 0; m < nc; m++) {
			if (dist[m] > sorted[(1U << d) - 1])
				continue;
			for (i = 0; i < d; i++) {
				c = (m >> (2 * i)) & 3;
				c = (c & 2 ? h : 0) + (c & 1 ? u : l);
				nl = c < nl ? c : nl;
				nu = c > nu ? c : nu;
			}
		}
		cnt = 0;
		for (m = 0; m < nc; m++) {
			bool in = dist[m] <= sorted[(1U << d) - 1];

			for (i = 0; in && i < d; i++) {
				c = (m >> (2 * i)) & 3;
				c = (c & 2 ? h : 0) + (c & 1 ? u : l);
				in = c == nl || c == nu;
			}
			cnt += in;
		}
		if (cnt != (1U << d) || nl == nu)
			return -1;
		l = nl;
		u = nu;
	}
	*lo = l;
	*hi = u;
	return 0;
}

/* ---- rows shared by 000 and 001 ---- */

/* A TCD a paper states for a mesh and a source.  as printed: the paper's
 * algorithm (eyes-paper) where it covers the mesh, else the paper's value;
 * meshfabric: the optimum (eyes).  The command plans with `shown`.
 */
static struct claim *tcd_row(struct papers *p, const char *paper,
			     const char *claim, const char *cas,
			     const char *shape, const char *from, u64 want,
			     const char *shown)
{
	struct mf_topo t;
	struct claim *c;
	char buf[64];
	u64 v;

	if (!cas) {
		SET(buf, "%s mesh from %s", shape, from);
		cas = buf;
	}
	c = add(p, paper, claim, cas);
	SET(c->paper_value, "%llu", (unsigned long long)want);
	v = want;
	if (!topo(p, MESHFABRIC_KIND_MESH, shape, &t) &&
	    !mf_algo_eyes_paper.supports(&t))
		v = tcd(p, NULL, shape, from, "eyes-paper");
	SET(c->printed, "%llu", (unsigned long long)v);
	v = tcd(p, NULL, shape, from, "eyes");
	SET(c->mf, "%llu", (unsigned long long)v);
	c->verdict = eq(v, want);
	tcd(p, c, shape, from, shown);
	return c;
}

struct tcd_claim {
	const char *paper, *claim, *shape, *from;
	u64 want;
	const char *shown, *note;
};

static const struct tcd_claim tcd_claims[] = {
	{ "000", "Sec. 2: D_1 = FD + SD = 1 + 2 = 3", "2x2", "0,0", 3, "eyes", NULL },
	{ "000", "Sec. 2: MD_2(0,0) = 2 + 4 + 12 = 18", "4x4", "0,0", 18, "eyes",
	  "exhaustive search over all broadcasts agrees (test_eyes.c)" },
	{ "000", "Sec. 2: MD_2(0,1) = 16", "4x4", "0,1", 16, "eyes", NULL },
	{ "000", "Sec. 2: MD_2(1,1) = 15", "4x4", "1,1", 15, "eyes", NULL },
	{ "000", "Appendix: D_2(1,0) = 17 is the minimum", "4x4", "1,0", 17, "eyes",
	  "Algorithm 1 costs 17 here; sending along y first costs 16 (exhaustive search: 16)" },
	{ "001", "Sec. 2: MD(1,0) = 1 + (2+2) + 12 = 17", "4x4", "1,0", 17, "eyes",
	  "not even mirror-symmetric with MD(0,1) = 16; exhaustive search: 16" },
	{ "001", "Sec. 2: MD(0,1) = 2 + (1+1) + 12 = 16", "4x4", "0,1", 16, "eyes", NULL },
	{ "001", "Sec. 2: MD(1,1) = 1 + (1+1) + 12 = 15", "4x4", "1,1", 15, "eyes", NULL },
	{ "001", "Fig. 1(c): D(0,0) = 7 + 9 + 63 = 79", "8x8", "0,0", 79, "eyes-paper", NULL },
	{ "001", "Sec. 2: OD = MD(2,2) = 69", "8x8", "2,2", 69, "eyes", NULL },
};

static void tcd_rows(struct papers *p, const char *paper)
{
	const struct tcd_claim *r;
	struct claim *c;

	for (r = tcd_claims; r < tcd_claims + ARRAY_SIZE(tcd_claims); r++) {
		if (strcmp(r->paper, paper))
			continue;
		c = tcd_row(p, paper, r->claim, NULL, r->shape, r->from, r->want,
			    r->shown);
		if (r->note)
			SET(c->note, "%s", r->note);
	}
}

/* The claims about every source of a mesh: where the optimum is reached
 * (Fig. 2 / Fig. 5), the algorithm's best sources (000 Theorem 1, 001
 * Theorem 2) and whether it is minimal everywhere (000 Theorem 2, 001
 * Theorem 3).
 */
struct every {
	const char *paper, *shape, *fig, *thm1, *thm2;
	u32 eyes;			/* 2^d */
	u64 opt;			/* the papers' optimum */
	const char *fig_from, *thm1_from, *thm2_from;
};

static void every_source(struct papers *p, const struct every *e)
{
	u32 i, hits, lhits, above = 0, gain = 0;
	struct mf_topo t;
	struct claim *c;
	u64 *opt, *lit, w = U64_MAX;
	char cas[64];

	if (topo(p, MESHFABRIC_KIND_MESH, e->shape, &t))
		return;
	opt = calloc(t.nodes, sizeof(u64));
	lit = calloc(t.nodes, sizeof(u64));
	if (!opt || !lit) {
		free(opt);
		free(lit);
		p->err = -ENOMEM;
		return;
	}
	SET(cas, "%s mesh, every source", e->shape);
	all_sources(p, &t, MESHFABRIC_ALGO_EYES, e->opt, &hits, opt);
	all_sources(p, &t, MESHFABRIC_ALGO_EYES_PAPER, e->opt, &lhits, lit);
	c = add(p, e->paper, e->fig, cas);
	SET(c->paper_value, "%u sources", e->eyes);
	SET(c->printed, "%u sources", lhits);
	SET(c->mf, "%u sources", hits);
	c->verdict = hits == e->eyes ? "holds" : "false";
	SET(c->note, "eyes from %s: %llu", e->fig_from, (unsigned long long)
	    tcd(p, c, e->shape, e->fig_from, "eyes"));

	for (i = 0; i < t.nodes; i++) {
		w = lit[i] < w ? lit[i] : w;
		above += lit[i] > opt[i];
		if (lit[i] - opt[i] > gain)
			gain = (u32)(lit[i] - opt[i]);
	}
	for (i = 0, lhits = 0; i < t.nodes; i++)
		lhits += lit[i] == w;
	c = add(p, e->paper, e->thm1, cas);
	SET(c->paper_value, "%llu, at the %u eyes only",
	    (unsigned long long)e->opt, e->eyes);
	SET(c->printed, "%llu, at %u sources", (unsigned long long)w, lhits);
	SET(c->mf, "%llu, at %u sources", (unsigned long long)w, lhits);
	c->verdict = w == e->opt && lhits == e->eyes ? "holds" : "false";
	tcd(p, c, e->shape, e->thm1_from, "eyes-paper");
	SET(c->note, "the algorithm as printed (eyes-paper) from every source");

	c = add(p, e->paper, e->thm2, cas);
	SET(c->paper_value, "0 sources above the minimum");
	SET(c->printed, "%u sources above, by up to %u", above, gain);
	SET(c->mf, "%u of %u above eyes", above, t.nodes);
	c->verdict = above ? "false" : "holds";
	w = tcd(p, c, e->shape, e->thm2_from, "eyes-paper");
	SET(c->note, "from %s: %llu as printed, eyes %llu", e->thm2_from,
	    (unsigned long long)w,
	    (unsigned long long)tcd(p, NULL, e->shape, e->thm2_from, "eyes"));
	free(opt);
	free(lit);
}

/* 000 Eq. 5, f_k(u, v) with u, v counted from E_k(1) towards the corner
 * and twice the regions' upper bound (printed: 2^k - 2 - a_k); -1 outside
 * the six regions.
 */
/* One coordinate's part of f_k in the regions where it is 0 (from
 * -a/2 to 0) or twice it (above 0 up to twice_top / 2); -1 elsewhere.
 */
static s64 f_k_part(s64 a, s64 x, s64 twice_top)
{
	if (-a < 2 * x && x <= 0)
		return 0;
	if (0 < x && 2 * x <= twice_top)
		return 2 * x;
	return -1;
}

static s64 f_k(u32 k, s64 u, s64 v, s64 twice_bound)
{
	s64 a = a_k(k), a1 = a_k(k - 1);
	s64 fu = f_k_part(a, u, a1);		/* (i) to (iv) */
	s64 fv = f_k_part(a, v, twice_bound);

	if (fu < 0 && a1 < 2 * u && 2 * u <= twice_bound)
		fu = u + (u > a1 ? u - a1 : a1 - u);	/* (v), (vi) */
	return fu < 0 || fv < 0 ? -1 : fu + fv;
}

/* 000 Lemma 1 (Eq. 4, 5) for Algorithm 1 as printed (eyes-paper), every
 * source S of the upper-left submesh of a 2^k mesh.
 */
static void lemma1_row(struct papers *p, u32 k, const char *shape,
		       const char *sub)
{
	u32 h = 1U << (k - 1), x, y, lo = x_k1(k), out = 0, bad = 0;
	struct claim *c;
	char from[24], cas[64];
	s64 d;

	SET(cas, "%s mesh, upper-left submesh", shape);
	c = add(p, "000", "Lemma 1, Eq. 4, 5: D_k(S) = f_k(S) + 3a_k + D_(k-1)(S) + 3D_(k-1)(E)", cas);
	for (y = 0; y < h && !p->err; y++) {
		for (x = 0; x < h; x++) {
			SET(from, "%u,%u", x, y);
			d = (s64)tcd(p, NULL, shape, from, "eyes-paper") -
			    3 * a_k(k) - (s64)tcd(p, NULL, sub, from, "eyes-paper") -
			    3 * eq10(k - 1);
			out += f_k(k, (s64)lo - x, (s64)lo - y,
				   (2LL << (k - 1)) - 2 - a_k(k)) < 0;
			bad += f_k(k, (s64)lo - x, (s64)lo - y, 2 * lo) != d;
		}
	}
	SET(c->paper_value, "f_k of Eq. 5 in 6 regions");
	SET(c->printed, "%u of %u sources in no region", out, h * h);
	SET(c->mf, "%u of %u differ (bound x_k(1))", bad, h * h);
	c->verdict = bad ? "false" : out ? "typo" : "holds";
	tcd(p, c, shape, "0,1", "eyes-paper");
	SET(c->note, "the regions end at 2^(k-1) - 1 - a_k/2 = x_k(1) - 1/2: the corner's row and column are left out");
}

/* The step contention of algo over every source of shape (the largest
 * sum over one schedule), and the depth contention of its schedule from
 * `from`: the most sends that leave the source by one link, and the most
 * sends that cross one directed link over the whole broadcast.
 */
static u64 every_contention(struct papers *p, const char *shape, u32 algo)
{
	struct mf_stats st;
	struct mf_topo t;
	u64 worst = 0;
	u32 s;

	if (topo(p, MESHFABRIC_KIND_MESH, shape, &t))
		return 0;
	for (s = 0; s < t.nodes && !p->err; s++) {
		plan_id(p, &t, algo, s, &st);
		worst = st.contention > worst ? st.contention : worst;
	}
	return worst;
}

static void depth(struct papers *p, const char *shape, const char *from,
		  u32 algo, u32 *src_max, u32 *link_max)
{
	struct mf_plan_result res;
	struct mf_topo t;
	struct mf_sched s;
	char err[160];
	u32 src = 0, i, h, *use;
	int port;

	*src_max = *link_max = 0;
	if (topo(p, MESHFABRIC_KIND_MESH, shape, &t) ||
	    mf_parse_node(&t, from, &src, err, sizeof(err)))
		return;
	use = calloc((size_t)t.nodes * t.nports, sizeof(u32));
	if (!use || mf_plan_checked(&t, algo, 0, src, MESHFABRIC_ROUTE_DEFAULT,
				    &s, &res)) {
		fail(p, -ENOMEM, "depth contention");
		free(use);
		mf_sched_free(&s);
		return;
	}
	for (i = 0; i < s.nsends; i++) {
		const u32 *path = &s.path[s.send[i].path];

		for (h = 0; h < s.send[i].hops; h++) {
			port = mf_topo_port(&t, path[h], path[h + 1]);
			if (port < 0)
				continue;
			use[(size_t)path[h] * t.nports + (u32)port]++;
		}
	}
	for (i = 0; i < t.nodes * t.nports; i++) {
		*link_max = use[i] > *link_max ? use[i] : *link_max;
		if (i / t.nports == src && use[i] > *src_max)
			*src_max = use[i];
	}
	free(use);
	mf_sched_free(&s);
}

/* 000 Eq. 6 / 001 Eq. 9: f_k(S) = D_k(S) - (2^d - 1)(a_k + D_(k-1)(E))
 * - D_(k-1)(S) >= 0 for the algorithm as printed (eyes-paper), every
 * source S of the low submesh of the 2^k cube `shape` (sub: its submesh).
 */
static void f_row(struct papers *p, const char *paper, const char *claim,
		  u32 d, u32 k, const char *shape, const char *sub)
{
	u32 h = 1U << (k - 1), cnt = 1U << (d * (k - 1)), i, j, neg = 0;
	s64 f, fmin = LLONG_MAX, m = (1LL << d) - 1;
	char from[32], cas[64];
	struct claim *c;

	for (i = 0; i < cnt && !p->err; i++) {
		from[0] = 0;
		for (j = 0; j < d; j++)
			fmt(from + strlen(from), sizeof(from) - strlen(from), "%s%u",
			    j ? "," : "", i / (1U << (j * (k - 1))) % h);
		f = (s64)tcd(p, NULL, shape, from, "eyes-paper") -
		    m * (a_k(k) + eq13(d, k - 1)) -
		    (s64)tcd(p, NULL, sub, from, "eyes-paper");
		neg += f < 0;
		fmin = f < fmin ? f : fmin;
	}
	SET(cas, "%s mesh, %s submesh", shape, d == 2 ? "upper-left" : "1st");
	c = add(p, paper, claim, cas);
	SET(c->paper_value, ">= 0");
	SET(c->printed, "least %lld", (long long)fmin);
	SET(c->mf, "%u of %u below 0", neg, cnt);
	c->verdict = neg ? "false" : "holds";
	tcd(p, c, shape, d == 2 ? "0,0" : "0,0,0", "eyes-paper");
	SET(c->note, "the algorithm as printed (eyes-paper): D_k(S) - (2^d - 1)(a_k + D_(k-1)(E)) - D_(k-1)(S)");
}

/* 000 Eq. 1, 6, 8 and 001 Eq. 6, 9; contention-freedom (000 Sec. 1, 001
 * Sec. 1) and 001's depth contention.
 */
static void eyes_more(struct papers *p, const char *paper)
{
	struct claim *c;
	char from[32], cas[64];
	u32 k, lo, hi, bad, i;
	u64 v;

	if (!strcmp(paper, "000")) {
		u32 alo, ahi;

		c = add(p, "000", "Eq. 1: a_k = 2^(k-1) - a_(k-1), a_1 = 1", "k = 2..10, Definition 2's eyes");
		SET(c->paper_value, "2a_k + 2a_(k-1) = 2^k");
		SET(c->printed, "1, 1, 3, 5, 11, ..., 341");
		bad = 0;
		for (k = 2; k <= 10; k++) {
			if (def_eyes(2, k, &lo, &hi) || def_eyes(2, k - 1, &alo, &ahi))
				bad++;
			else
				bad += hi - lo != (1U << (k - 1)) - (k == 1 ? 0 : ahi - alo);
		}
		SET(c->mf, "%u of 9 differ", bad);
		c->verdict = bad ? "false" : "holds";
		SET(c->command, "meshfabric plan --mesh 16x16 --from 5,5 --algo eyes-paper --summary");

		/* Eq. 6: f_k >= 0 */
		f_row(p, "000", "Eq. 6: f_k(u_k, v_k) >= 0", 2, 3, "8x8", "4x4");
		f_row(p, "000", "Eq. 6: f_k(u_k, v_k) >= 0", 2, 4, "16x16", "8x8");

		/* Eq. 8, the corner recursion, on its own */
		bad = 0;
		for (k = 2; k <= 6; k++) {
			static const char *const sh[7] = { "", "2x2", "4x4", "8x8",
							   "16x16", "32x32", "64x64" };
			s64 want;

			SET(from, "%u,%u", x_k1(k - 1), x_k1(k - 1));
			want = 5 * (1LL << (k - 1)) - 2 - 2 * a_k(k - 1) +
			       (s64)tcd(p, NULL, sh[k - 1], "0,0", "eyes") +
			       3 * (s64)tcd(p, NULL, sh[k - 1], from, "eyes");
			bad += want != (s64)tcd(p, NULL, sh[k], "0,0", "eyes");
		}
		c = add(p, "000", "Eq. 8: MD_k(0,0) = 5 2^(k-1) - 2 - 2a_(k-1) + MD_(k-1)(0,0) + 3MD_(k-1)(E)",
			"k = 2..6, corner and eye values of eyes");
		SET(c->paper_value, "the recursion");
		SET(c->printed, "18, 79, 318 (k = 2..4)");
		SET(c->mf, "%u of 5 differ", bad);
		c->verdict = bad ? "false" : "holds";
		tcd(p, c, "64x64", "0,0", "eyes");
	} else {
		/* 001 Eq. 6: D_k(E_k) = 7a_k + 8D_(k-1)(E_(k-1)) */
		bad = 0;
		for (k = 2; k <= 4; k++) {
			static const char *const sh[5] = { "", "2x2x2", "4x4x4", "8x8x8",
							   "16x16x16" };
			char f1[32];

			SET(from, "%u,%u,%u", x_k1(k), x_k1(k), x_k1(k));
			SET(f1, "%u,%u,%u", x_k1(k - 1), x_k1(k - 1), x_k1(k - 1));
			v = tcd(p, NULL, sh[k], from, "eyes-paper");
			bad += (s64)v != 7 * a_k(k) + 8 * (s64)tcd(p, NULL, sh[k - 1], f1,
								   "eyes-paper");
		}
		c = add(p, "001", "Eq. 6: D_k(E_k) = 7a_k + 8D_(k-1)(E_(k-1))", "k = 2..4, from the eye");
		SET(c->paper_value, "63, 525, 4235");
		SET(c->printed, "63, 525, 4235");
		SET(c->mf, "%u of 3 differ", bad);
		c->verdict = bad ? "false" : "holds";
		tcd(p, c, "16x16x16", "5,5,5", "eyes-paper");

		/* 001 Eq. 9: f_k(u, v, w) >= 0 on the 1st submesh */
		f_row(p, "001", "Eq. 9: f_k(u_k, v_k, w_k) >= 0", 3, 2, "4x4x4", "2x2x2");
		f_row(p, "001", "Eq. 9: f_k(u_k, v_k, w_k) >= 0", 3, 3, "8x8x8", "4x4x4");
	}

	/* no step contention: both papers' algorithms and the optimum */
	{
		static const char *const sh2[3] = { "8x8", "16x16", "32x32" };
		static const char *const sh3[2] = { "4x4x4", "8x8x8" };
		bool three = !strcmp(paper, "001");

		for (i = 0; i < (three ? 2U : 3U); i++) {
			const char *shape = three ? sh3[i] : sh2[i];
			u64 lit = every_contention(p, shape, MESHFABRIC_ALGO_EYES_PAPER);
			u64 opt = every_contention(p, shape, MESHFABRIC_ALGO_EYES);

			SET(cas, "%s mesh, every source", shape);
			c = add(p, paper, three ? "Sec. 1: Algorithm 2 has no step contention" :
				"Sec. 1: Algorithm 1 has no traffic contention at any step", cas);
			SET(c->paper_value, "contention 0");
			SET(c->printed, "contention %llu", (unsigned long long)lit);
			SET(c->mf, "contention %llu (eyes)", (unsigned long long)opt);
			c->verdict = lit || opt ? "false" : "holds";
			SET(c->command, "meshfabric plan --mesh %s --from 0,%s --algo eyes-paper --summary",
			    shape, three ? "1,2" : "3");
			SET(c->note, "mf_check's step contention: two sends of one step on one directed link");
		}
	}
	if (!strcmp(paper, "001")) {
		u32 sm[2], lm[2];

		depth(p, "4x4x4", "1,1,1", MESHFABRIC_ALGO_EYES_PAPER, &sm[0], &lm[0]);
		depth(p, "8x8x8", "2,2,2", MESHFABRIC_ALGO_EYES_PAPER, &sm[1], &lm[1]);
		c = add(p, "001", "Sec. 1: depth contention is unavoidable for k > 2 (3k sends, 6 links)",
			"4x4x4 and 8x8x8 from the eye");
		SET(c->paper_value, "k = 3: a source link used twice");
		SET(c->printed, "6 and 9 sends from the source");
		SET(c->mf, "source link used %u, %u times; any link %u, %u", sm[0], sm[1],
		    lm[0], lm[1]);
		c->verdict = sm[1] >= 2 ? "holds" : "false";
		SET(c->command, "meshfabric plan --mesh 8x8x8 --from 2,2,2 --algo eyes-paper --steps");
		SET(c->note, "sends over one directed link in different steps; 9 sends cannot use 6 links once each");
	}
}

/* ---- 000: 2-D eyes ---- */

static void p000(struct papers *p)
{
	static const char *const shapes[] = { "2x2", "4x4", "8x8", "16x16",
					      "32x32", "64x64" };
	static const char *const thm2_from[] = { "", "1,0", "0,3", "1,0", "1,0" };
	struct mf_topo t;
	struct claim *c;
	char from[24], cas[64];
	u64 v, w;
	u32 k, lo, hi, hits, i;

	tcd_rows(p, "000");
	c = add(p, "000", "Sec. 2: corners of the submeshes first: D_3(0,0) = 84",
		"8x8 mesh from 0,0");
	SET(c->paper_value, "84");
	v = tcd(p, c, "8x8", "0,0", "binomial");
	SET(c->printed, "%llu", (unsigned long long)v);
	SET(c->mf, "%llu", (unsigned long long)v);
	c->verdict = eq(v, 84);
	SET(c->note, "binomial sends to the corner of the other half at every level; eyes: %llu",
	    (unsigned long long)tcd(p, NULL, "8x8", "0,0", "eyes"));

	/* the two better first steps of section 2: the sends of the first
	 * two steps plus the least TCD of each 4x4 submesh from its entry
	 */
	{
		static const char *const name[2] = {
			"Sec. 2: N(5,0); N(0,5), N(5,4) first: D_3(0,0) = 80",
			"Sec. 2: N(5,1); N(1,5), N(5,5) first: D_3(0,0) = 79" };
		static const u32 first[2][3][2] = {
			{ { 5, 0 }, { 0, 5 }, { 5, 4 } },
			{ { 5, 1 }, { 1, 5 }, { 5, 5 } } };
		static const u32 want[2] = { 80, 79 };
		u32 e[4][2], s, q;

		for (i = 0; i < 2; i++) {
			c = add(p, "000", name[i], "8x8 mesh from 0,0");
			SET(c->paper_value, "%u", want[i]);
			e[0][0] = e[0][1] = 0;
			for (q = 0; q < 3; q++) {
				e[q + 1][0] = first[i][q][0];
				e[q + 1][1] = first[i][q][1];
			}
			/* 0 -> e1; 0 -> e2, e1 -> e3 */
			v = e[1][0] + e[1][1] + e[2][0] + e[2][1] +
			    (e[3][0] > e[1][0] ? e[3][0] - e[1][0] : e[1][0] - e[3][0]) +
			    (e[3][1] > e[1][1] ? e[3][1] - e[1][1] : e[1][1] - e[3][1]);
			for (s = 0; s < 4; s++) {
				SET(from, "%u,%u", e[s][0] % 4, e[s][1] % 4);
				v += tcd(p, s == 1 ? c : NULL, "4x4", from, "eyes");
			}
			SET(c->printed, "%u", want[i]);
			SET(c->mf, "%llu", (unsigned long long)v);
			c->verdict = eq(v, want[i]);
			SET(c->note, "the first two steps' distances plus the least TCD of each 4x4 submesh from its entry");
		}
	}

	c = add(p, "000", "Eq. 2: a_k = (2^k - (-1)^k) / 3 (Definition 2's eyes)", "k = 1..10");
	SET(c->paper_value, "1, 1, 3, 5, 11, ..., 341");
	SET(c->printed, "1, 1, 3, 5, 11, ..., 341");
	hits = 0;
	for (k = 1; k <= 10; k++)
		hits += !def_eyes(2, k, &lo, &hi) && hi - lo == a_k(k);
	SET(c->mf, "%u of 10 equal", hits);
	c->verdict = hits == 10 ? "holds" : "false";
	SET(c->command, "meshfabric plan --mesh 16x16 --from 5,5 --algo eyes-paper --summary");
	SET(c->note, "eyes computed by Definition 2 (the 2^d sub-eyes nearest the centre)");

	for (k = 1; k <= 6; k++) {
		SET(cas, "%s mesh from the eye", shapes[k - 1]);
		SET(from, "%u,%u", x_k1(k), x_k1(k));
		c = tcd_row(p, "000", "Eq. 3, 10: optimal TCD MD_k(E_k)", cas,
			    shapes[k - 1], from, (u64)eq10(k), "eyes");
		if (k <= 4)
			SET(c->note, "printed: 3, 15, 69, 291 for k = 1..4");
	}
	for (k = 1; k <= 6; k++) {
		c = tcd_row(p, "000", "Eq. 8, 9: corner TCD MD_k(0,0)", NULL,
			    shapes[k - 1], "0,0", (u64)eq9(k), "eyes");
		if (k >= 2 && k <= 4)
			SET(c->note, "printed: 18, 79, 318 for k = 2..4");
	}

	for (k = 2; k <= 5; k++) {
		struct every e = {
			"000", shapes[k - 1],
			"Fig. 2, Eq. 7: the optimum is reached at the four eyes only",
			"Theorem 1: from an eye Algorithm 1 is best among its sources",
			"Theorem 2: Algorithm 1 gives the minimum TCD from every source",
			4, (u64)eq10(k), from, from, thm2_from[k - 1]
		};

		SET(from, "%u,%u", x_k1(k), x_k1(k));
		if (k == 3)
			e.fig_from = "3,2";	/* no eye, and optimal */
		every_source(p, &e);
	}

	for (k = 3; k <= 5; k++)
		lemma1_row(p, k, shapes[k - 1], shapes[k - 2]);
	{
		static const char *const src[3] = { "0,3", "2,3", "3,2" };

		for (i = 0; i < 3; i++) {
			SET(cas, "8x8 mesh from %s", src[i]);
			c = add(p, "000", "Theorem 2: Algorithm 1 is minimal", cas);
			v = tcd(p, c, "8x8", src[i], "eyes-paper");
			SET(c->paper_value, "%llu is the minimum", (unsigned long long)v);
			SET(c->printed, "%llu", (unsigned long long)v);
			w = tcd(p, NULL, "8x8", src[i], "eyes");
			SET(c->mf, "%llu", (unsigned long long)w);
			c->verdict = eq(v, w);
			SET(c->note, "plan --algo eyes reaches %llu; both schedules pass the checker",
			    (unsigned long long)w);
		}
	}

	c = add(p, "000", "Appendix: D_2(0,1) = 17", "4x4 mesh from 0,1");
	SET(c->paper_value, "17 (section 2: 16)");
	v = tcd(p, c, "4x4", "0,1", "eyes-paper");
	SET(c->printed, "%llu", (unsigned long long)v);
	w = tcd(p, NULL, "4x4", "0,1", "eyes");
	SET(c->mf, "%llu", (unsigned long long)w);
	c->verdict = v == 16 && w == 16 ? "typo" : "false";
	SET(c->note, "section 2 says 16, which Algorithm 1 itself gives");

	for (k = 1; k <= 4; k++) {
		static const char *const unit[4] = { "2", "2x2", "2x2x2", "2x2x2x2" };

		SET(cas, "%s mesh (d = %u)", unit[k - 1], k);
		tcd_row(p, "000", "Eq. 11: MD_1^d(E_1) = 2^d - 1", cas, unit[k - 1],
			"0", (1U << k) - 1, "eyes");
	}
	{
		static const struct { u32 d, k; const char *shape, *from; } r[] = {
			{ 1, 3, "8", "2" }, { 1, 6, "64", "21" },
			{ 2, 3, "8x8", "2,2" }, { 3, 2, "4x4x4", "1,1,1" },
			{ 3, 3, "8x8x8", "2,2,2" }, { 4, 2, "4x4x4x4", "1,1,1,1" },
			{ 4, 3, "8x8x8x8", "2,2,2,2" },
		};

		for (i = 0; i < ARRAY_SIZE(r); i++) {
			s64 e13 = eq13(r[i].d, r[i].k);

			SET(cas, "%s mesh from the eye", r[i].shape);
			c = tcd_row(p, "000", "Eq. 12, 13: MD_k^d(E_k), d-D", cas,
				    r[i].shape, r[i].from,
				    (u64)eq12(r[i].d, r[i].k, (1LL << r[i].d) - 1),
				    "eyes");
			if (e13 < 0) {
				SET(c->printed, "Eq. 13 divides by 0");
				c->verdict = "typo";
				SET(c->note, "a typo in the formula's domain: Eq. 13 says k, d >= 1 but divides by 2^(d-1) - 1 = 0 at d = 1 (read d >= 2); the recursion Eq. 12 holds");
				continue;
			}
			SET(c->printed, "%lld (Eq. 13)", (long long)e13);
			if ((u64)e13 != (u64)eq12(r[i].d, r[i].k, (1LL << r[i].d) - 1))
				c->verdict = "false";
			if (r[i].d == 3 && r[i].k <= 3)
				SET(c->note, "printed in section 4: 63, 525");
		}
	}
	for (k = 1; k <= 4; k++) {
		static const char *const cube3[4] = { "2x2x2", "4x4x4", "8x8x8", "16x16x16" };

		SET(cas, "%s mesh from the eye", cube3[k - 1]);
		SET(from, "%u,%u,%u", x_k1(k), x_k1(k), x_k1(k));
		tcd_row(p, "000", "Eq. 14: MD_k^3 = 7/27 [2^(3k+2) - (-1)^k - 3 2^k]",
			cas, cube3[k - 1], from,
			(u64)(7 * ((1LL << (3 * k + 2)) - pm1(k) - 3 * (1LL << k)) / 27),
			"eyes");
	}
	{
		static const char *const tori[3] = { "8x8", "16x16", "4x4x4" };
		static const u32 tk[3] = { 3, 4, 2 }, td[3] = { 2, 2, 3 };
		u64 best;

		for (i = 0; i < 3; i++) {
			if (topo(p, MESHFABRIC_KIND_TORUS, tori[i], &t))
				return;
			best = all_sources(p, &t, MESHFABRIC_ALGO_EYES, 0, &hits, NULL);
			SET(cas, "%s torus, every source", tori[i]);
			c = add(p, "000", "Sec. 5: on a torus every node is an eye", cas);
			v = (u64)eq12(td[i], tk[i], (1LL << td[i]) - 1);
			SET(c->paper_value, "%llu from every node", (unsigned long long)v);
			SET(c->printed, "%llu", (unsigned long long)v);
			SET(c->mf, "%llu from %u of %u nodes", (unsigned long long)best, hits, t.nodes);
			c->verdict = best == v && hits == t.nodes ? "holds" : "false";
			plan(p, c, MESHFABRIC_KIND_TORUS, tori[i], "0", "eyes");
		}
	}
	eyes_more(p, "000");
}

/* 001 Eq. 7, f_k(u, v, w) (u, v, w along x, z, y, the order of the
 * steps, counted from E_k(1) towards the corner).  *in is false if a
 * coordinate is beyond twice_bound / 2 (printed: 2^(k-1) - 1 - a_k/2).
 */
static s64 f3_k(u32 k, s64 u, s64 v, s64 w, s64 twice_bound, bool *in)
{
	s64 a1 = a_k(k - 1);
	s64 fu = 2 * u <= a1 ? 2 * (u < 0 ? -u : u) + u :
		 (u < 0 ? -u : u) + 2 * (u > a1 ? u - a1 : a1 - u);
	s64 fv = 2 * (v < 0 ? -v : v) +
		 (2 * v <= a1 ? v : (v > a1 ? v - a1 : a1 - v));

	*in = 2 * u <= twice_bound && 2 * v <= twice_bound &&
	      2 * w <= twice_bound;
	return fu + fv + 2 * (w < 0 ? -w : w) + w;
}

static void lemma1_3d_row(struct papers *p, u32 k, const char *shape,
			  const char *sub)
{
	u32 h = 1U << (k - 1), x, y, z, lo = x_k1(k), out = 0, bad = 0;
	struct claim *c;
	char from[32], cas[64];
	bool in;
	s64 d;

	SET(cas, "%s mesh, 1st submesh", shape);
	c = add(p, "001", "Theorem 1, Lemma 1, Eq. 7, 8: D_k(S) = f_k(S) + 7a_k + D_(k-1)(S) + 7D_(k-1)(E)", cas);
	for (z = 0; z < h && !p->err; z++) {
		for (y = 0; y < h; y++) {
			for (x = 0; x < h; x++) {
				SET(from, "%u,%u,%u", x, y, z);
				d = (s64)tcd(p, NULL, shape, from, "eyes-paper") -
				    7 * a_k(k) - 7 * eq13(3, k - 1) -
				    (s64)tcd(p, NULL, sub, from, "eyes-paper");
				bad += f3_k(k, (s64)lo - x, (s64)lo - z, (s64)lo - y,
					    (2LL << (k - 1)) - 2 - a_k(k), &in) != d;
				out += !in;
			}
		}
	}
	SET(c->paper_value, "f_k of Eq. 7 in 4 regions");
	SET(c->printed, "%u of %u sources in no region", out, h * h * h);
	SET(c->mf, "%u of %u differ", bad, h * h * h);
	c->verdict = bad ? "false" : out ? "typo" : "holds";
	tcd(p, c, shape, "1,0,0", "eyes-paper");
	SET(c->note, "u, v, w along x, z, y; the regions end at x_k(1) - 1/2 as in 000");
}

/* ---- 001: 3-D eyes ---- */

static void p001(struct papers *p)
{
	struct claim *c;
	char cas[64], from[32];
	u64 v;
	u32 k, lo, hi, i, bad;

	tcd_rows(p, "001");

	c = add(p, "001", "Eq. 1: a_1..a_5 = 1, 1, 3, 5, 11", "Definition 1's eyes");
	SET(c->paper_value, "1, 1, 3, 5, 11");
	SET(c->printed, "%lld, %lld, %lld, %lld, %lld", (long long)a_k(1),
	    (long long)a_k(2), (long long)a_k(3), (long long)a_k(4), (long long)a_k(5));
	c->mf[0] = 0;
	bad = 0;
	for (k = 1; k <= 5; k++) {
		if (def_eyes(2, k, &lo, &hi))
			bad++;
		fmt(c->mf + strlen(c->mf), sizeof(c->mf) - strlen(c->mf), "%s%u",
		    k > 1 ? ", " : "", hi - lo);
	}
	c->verdict = !bad && !strcmp(c->mf, c->paper_value) ? "holds" : "false";
	SET(c->command, "meshfabric plan --mesh 32x32 --from 10,10 --algo eyes-paper --summary");

	c = add(p, "001", "Sec. 2.1, 3.1: eye coordinates x_k(1) = [2^(k+1) + (-1)^k]/6 - 1/2, x_k(2) = [2^(k+2) - (-1)^k]/6 - 1/2",
		"k = 1..10, d = 2 and 3");
	SET(c->paper_value, "4x4: 1, 2; 8x8: 2, 5");
	SET(c->printed, "4x4: %u, %u; 8x8: %u, %u", x_k1(2), x_k2(2), x_k1(3), x_k2(3));
	bad = 0;
	for (k = 1; k <= 10; k++) {
		for (i = 2; i <= 3; i++) {
			if (def_eyes(i, k, &lo, &hi) || lo != x_k1(k) || hi != x_k2(k))
				bad++;
		}
	}
	SET(c->mf, "%u of 20 differ from Definition 1/2's eyes", bad);
	c->verdict = bad ? "false" : "holds";
	SET(c->command, "meshfabric plan --mesh 8x8x8 --from 2,5,5 --algo eyes-paper --summary");

	for (k = 2; k <= 3; k++) {
		struct every e = {
			"001", k == 2 ? "4x4x4" : "8x8x8",
			"Fig. 5, Theorem 4: the optimum is reached at the 8 eyes only",
			"Theorem 2, Eq. 11: from an eye Algorithm 2 is best among its sources",
			"Theorem 3: Algorithm 2 gives the minimum TCD from every source",
			8, (u64)eq13(3, k), k == 2 ? "1,1,1" : "3,2,2",
			k == 2 ? "1,1,1" : "2,2,2", k == 2 ? "1,0,0" : "3,2,2"
		};

		every_source(p, &e);
	}

	lemma1_3d_row(p, 2, "4x4x4", "2x2x2");
	lemma1_3d_row(p, 3, "8x8x8", "4x4x4");

	c = add(p, "001", "Eq. 12: OD_k = 7 a_k + 8 MD_(k-1), MD_1(E_1) = 3", "2x2x2 mesh");
	SET(c->paper_value, "3");
	SET(c->printed, "%lld (then %lld for 4x4x4)", (long long)eq12(3, 1, 3),
	    (long long)eq12(3, 2, 3));
	v = tcd(p, c, "2x2x2", "0,0,0", "eyes-paper");
	SET(c->mf, "%llu (then 63)", (unsigned long long)v);
	c->verdict = v == 7 ? "typo" : "false";
	SET(c->note, "the base is 7: 000 Eq. 11 and 001's own example (2^0 + 2^1 + 2^2)");

	for (k = 1; k <= 4; k++) {
		static const char *const cube3[4] = { "2x2x2", "4x4x4", "8x8x8", "16x16x16" };

		SET(cas, "%s mesh from the eye", cube3[k - 1]);
		SET(from, "%u,%u,%u", x_k1(k), x_k1(k), x_k1(k));
		c = tcd_row(p, "001", "Theorem 5, Eq. 13: OD_k = 7/27 [2^(3k+2) - (-1)^k - 3 2^k]",
			    cas, cube3[k - 1], from, (u64)eq12(3, k, 7), "eyes");
		SET(c->note, "printed: 7, 63, 525, 4235");
	}

	tcd_row(p, "001", "Eq. 14: MD_1^d(E_1) = 2^d - 1", "2x2x2x2x2 mesh (d = 5)",
		"2x2x2x2x2", "0", 31, "eyes");
	c = tcd_row(p, "001", "Theorem 6, Eq. 16: MD_k^d(E_k), d-D",
		    "4x4x4x4x4 mesh from the eye", "4x4x4x4x4", "1,1,1,1,1",
		    (u64)eq12(5, 2, 31), "eyes");
	SET(c->printed, "%lld", (long long)eq13(5, 2));
	if (eq13(5, 2) != eq12(5, 2, 31))
		c->verdict = "false";
	SET(c->note, "paper value from the recursion Eq. 15, as printed from Eq. 16");

	/* Algorithm 1 as 001 words it: the half of the submesh decides */
	c = add(p, "001", "Sec. 2.2: left half -> E(3)_(k-1)(1), right half -> E_k(3) picks the closer eye",
		"k = 2..16, every column of the submesh");
	SET(c->paper_value, "the closer one");
	bad = 0;
	for (k = 2; k <= 16; k++) {
		u32 h = 1U << (k - 1), x, l1 = x_k1(k - 1), l0 = x_k1(k);

		for (x = 0; x < h; x++) {
			u32 d3 = x > l0 ? x - l0 : l0 - x, d1 = x > l1 ? x - l1 : l1 - x;
			bool half = x < h / 2, near = d1 < d3;

			bad += half != near || d1 == d3;
		}
	}
	SET(c->printed, "%u columns differ", bad);
	SET(c->mf, "%u columns differ", bad);
	c->verdict = bad ? "false" : "holds";
	SET(c->command, "meshfabric plan --mesh 8x8 --from 0,3 --algo eyes-paper --summary");
	SET(c->note, "so 000's region rule, 001's half rule and 'the closer eye' are one rule");
	eyes_more(p, "001");
}

/* ---- 002: Tsay & Wang ---- */

static u32 log_floor(u32 base, u64 x)	/* floor(log_base x) */
{
	u32 s = 0;
	u64 v = base;

	while (v <= x) {
		v *= base;
		s++;
	}
	return s;
}

/* ceil(log_base x): base^(s-1) < x <= base^s, i.e. base^(s-1) <= x - 1 */
static u32 log_ceil(u32 base, u64 x)
{
	return x <= 1 ? 0 : log_floor(base, x - 1) + 1;
}

static u64 ipow(u64 b, u32 e)
{
	u64 v = 1;

	while (e--)
		v *= b;
	return v;
}

static void cube_shape(char *shape, size_t len, u32 d, u32 n)
{
	u32 i;

	shape[0] = 0;
	for (i = 0; i < d; i++)
		fmt(shape + strlen(shape), len - strlen(shape), "%s%u",
		    i ? "x" : "", n);
}

static u32 tw_steps(struct papers *p, struct claim *c, u32 d, u32 n)
{
	char shape[64];

	cube_shape(shape, sizeof(shape), d, n);
	return plan(p, c, MESHFABRIC_KIND_TORUS, shape, NULL, "tsay-wang").steps;
}

/* The steps of the best all-port schedule meshfabric builds (auto) on the
 * n^d torus from node 0; *name gets the algorithm auto chose.  It follows
 * whatever auto learns, so these rows change when auto gets better.
 */
static u32 auto_steps(struct papers *p, struct claim *c, u32 d, u32 n,
		      const char **name)
{
	const struct mf_algo *used = NULL;
	struct mf_stats st = { 0 };
	struct mf_topo t;
	char shape[64];

	cube_shape(shape, sizeof(shape), d, n);
	if (c)
		SET(c->command, "meshfabric plan --torus %s --model all-port --summary",
		    shape);
	*name = "?";
	if (topo(p, MESHFABRIC_KIND_TORUS, shape, &t))
		return 0;
	if (!plan_model(p, &t, MESHFABRIC_ALGO_AUTO, MESHFABRIC_MODEL_ALL_PORT,
			0, &st, &used) && used)
		*name = used->name;
	return st.steps;
}

/* A step count 002 claims for the n^d torus: tsay-wang (meshfabric's
 * reading of 002's construction) and auto (the best all-port schedule
 * meshfabric has).  "holds" if either meets the bound; "not reached" if
 * neither does, which does not refute the claim: the note gives the
 * counting bound of Lemma 1, below which no schedule exists.
 */
static void tw_row(struct papers *p, const char *claim, u32 d, u32 n, u32 bound,
		   const char *note)
{
	const char *name;
	struct claim *c;
	char cas[64];
	u32 s, a, lb = log_ceil(2 * d + 1, ipow(n, d));

	SET(cas, "d = %u, n = %u torus", d, n);
	c = add(p, "002", claim, cas);
	SET(c->paper_value, "%u steps", bound);
	SET(c->printed, "%u steps", bound);
	a = auto_steps(p, NULL, d, n, &name);
	s = tw_steps(p, c, d, n);
	SET(c->mf, "tsay-wang %u, auto %u steps", s, a);
	c->verdict = s <= bound || a <= bound ? "holds" : "not reached";
	if (s > bound && a <= bound)
		auto_steps(p, c, d, n, &name);
	if (note)
		SET(c->note, "%s", note);
	else if (s > bound && a <= bound)
		SET(c->note, "reached by auto (%s), not by tsay-wang", name);
	else if (a > bound && bound >= lb)
		SET(c->note, "not refuted: the counting bound (Lemma 1) is %u steps; meshfabric's schedules do not reach %u%s",
		    lb, bound, d == 3 && (n == 4 || n == 7) ?
		    " (issue 24's audit found 3-step schedules: the claim holds)" : "");
	else if (a > bound)
		SET(c->note, "below the counting bound of Lemma 1 (%u steps): no schedule reaches it",
		    lb);
}

static void p002(struct papers *p)
{
	struct claim *c;
	u32 d, n, s, lb, met, amet = 0, below, tot, r, r1;

	for (d = 2; d <= 3; d++) {
		u32 top = d == 2 ? 30 : 13;

		c = add(p, "002", "Lemma 1: at least ceil(d log_(2d+1) n) steps", "");
		SET(c->cas, "d = %u, n = 3..%u tori", d, top);
		SET(c->paper_value, "a lower bound");
		SET(c->printed, "smallest s with (2d+1)^s >= n^d");
		met = below = tot = 0;
		for (n = 3; n <= top && !p->err; n++) {
			const char *name;

			lb = log_ceil(2 * d + 1, ipow(n, d));
			s = tw_steps(p, n == 3 ? c : NULL, d, n);
			r = auto_steps(p, NULL, d, n, &name);
			below += s < lb || r < lb;
			met += s == lb;
			amet += r == lb;
			tot++;
		}
		SET(c->mf, "below it %u times; met by tsay-wang %u, auto %u of %u",
		    below, met, amet, tot);
		c->verdict = below ? "false" : "holds";
		SET(c->note, "auto: the best all-port schedule meshfabric builds (wormhole, tsay-wang, tree); it meets the bound where it counts it");
		amet = 0;
	}
	c = add(p, "002", "Sec. 1: the lower bound is floor(d log_(2d+1) n)", "d = 3, n = 8");
	SET(c->paper_value, "ceil (Lemma 1, abstract)");
	SET(c->printed, "floor: %u", log_floor(7, 512));
	SET(c->mf, "ceil: %u", log_ceil(7, 512));
	c->verdict = "typo";
	SET(c->command, "meshfabric plan --torus 8x8x8 --algo tsay-wang --summary");
	SET(c->note, "the introduction prints floor where Lemma 1 and the abstract have ceil");

	for (d = 2; d <= 3; d++) {
		static const u32 odd[] = { 5, 7, 9, 25 };

		for (n = 0; n < ARRAY_SIZE(odd); n++) {
			if (d == 3 && odd[n] == 25)
				continue;
			r = log_ceil(2 * d + 1, odd[n]);
			tw_row(p, "Theorem 5 (n odd): T(n) = d ceil(log_(2d+1) n) + 1",
			       d, odd[n], d * r + 1,
			       d == 2 && n == 0 ? "Theorem 4 (n = (2d+1)^r: dr + 1) is the case n = 5 here" : NULL);
		}
	}
	for (d = 2; d <= 3; d++) {
		static const u32 even[] = { 4, 6, 8, 10 };

		for (n = 0; n < ARRAY_SIZE(even); n++) {
			r = log_ceil(2 * d + 1, even[n]);
			r1 = log_ceil(2 * d + 1, even[n] - 1);
			tw_row(p, "Theorem 6 (n even): d ceil(log_(2d+1) n) + ceil(d/2) + 1",
			       d, even[n], d * r + (d + 1) / 2 + 1, NULL);
			tw_row(p, "Abstract (n even): d ceil(log_(2d+1) (n-1)) + ceil(d/2) + 1",
			       d, even[n], d * r1 + (d + 1) / 2 + 1, NULL);
			tw_row(p, "Sec. 1 (n even): d ceil(log_(2d+1) (n-1)) + floor(d/2) + 1",
			       d, even[n], d * r1 + d / 2 + 1, NULL);
		}
	}
	{
		static const u32 n2[] = { 6, 7, 12, 26, 27 };
		static const u32 n3[] = { 3, 4, 7, 8, 9 };

		for (n = 0; n < ARRAY_SIZE(n2); n++)
			tw_row(p, "Abstract, Sec. 8: d = 2 in 2 ceil(log_5 n) for any n", 2,
			       n2[n], 2 * log_ceil(5, n2[n]), NULL);
		for (n = 0; n < ARRAY_SIZE(n3); n++)
			tw_row(p, "Abstract, Sec. 8: d = 3 in 3 ceil(log_7 n) for any n", 3,
			       n3[n], 3 * log_ceil(7, n3[n]), NULL);
	}
	{
		static const u32 cd[][2] = { { 2, 25 }, { 3, 7 }, { 3, 8 }, { 4, 5 } };
		struct mf_stats st;
		char shape[64];
		u32 i, j;

		for (i = 0; i < ARRAY_SIZE(cd); i++) {
			shape[0] = 0;
			for (j = 0; j < cd[i][0]; j++)
				fmt(shape + strlen(shape), sizeof(shape) - strlen(shape),
				    "%s%u", j ? "x" : "", cd[i][1]);
			c = add(p, "002", "Lemmas 8, 11: no edge congestion in any step", "");
			SET(c->cas, "d = %u, n = %u torus", cd[i][0], cd[i][1]);
			SET(c->paper_value, "contention 0");
			SET(c->printed, "contention 0");
			st = plan(p, c, MESHFABRIC_KIND_TORUS, shape, NULL, "tsay-wang");
			SET(c->mf, "contention %llu", (unsigned long long)st.contention);
			c->verdict = st.contention ? "false" : "holds";
		}
	}
	c = add(p, "002", "Sec. 7: the extra phase for even n takes floor(d/2) steps", "d = 3, n = 8 torus");
	SET(c->paper_value, "floor(d/2) = 1");
	SET(c->printed, "ceil(d/2) = 2, then floor(d/2) = 1");
	s = tw_steps(p, c, 3, 8);
	r = tw_steps(p, NULL, 3, 7);
	SET(c->mf, "%u steps = 7x7x7 in %u + %u", s, r, s - r);
	c->verdict = s - r == 2 ? "typo" : "false";
	SET(c->note, "weights 1 and 2 in the first step, then two more per step up to d: ceil(d/2) steps");
	p002_more(p);
}

/* When each node of the n^d torus hears tsay-wang from node 0: the step
 * (1-based) of its receipt, 0 for the source; malloc'ed, NULL on failure
 * (noted).  *t gets the torus.
 */
static u32 *tw_when(struct papers *p, u32 d, u32 n, struct mf_topo *t)
{
	struct mf_plan_result res;
	const struct mf_send *snd;
	struct mf_sched s;
	char shape[64];
	u32 step, j, cnt, *when;

	cube_shape(shape, sizeof(shape), d, n);
	if (topo(p, MESHFABRIC_KIND_TORUS, shape, t))
		return NULL;
	if (mf_plan_checked(t, MESHFABRIC_ALGO_TSAY_WANG, 0, 0,
			    MESHFABRIC_ROUTE_DEFAULT, &s, &res)) {
		fail(p, -EINVAL, "tsay-wang");
		mf_sched_free(&s);
		return NULL;
	}
	when = calloc(t->nodes, sizeof(*when));
	if (!when)
		fail(p, -ENOMEM, "tsay-wang");
	for (step = 0; when && step < s.nsteps; step++) {
		snd = mf_sched_sends(&s, step, &cnt);
		for (j = 0; j < cnt; j++)
			when[snd[j].dst] = step + 1;
	}
	mf_sched_free(&s);
	return when;
}

/* The step by which tsay-wang from node 0 of the n^d torus has informed
 * every node of the main diagonal (i, ..., i): 002 Theorem 1's phase 1.
 */
static u32 tw_diagonal_step(struct papers *p, u32 d, u32 n)
{
	struct mf_topo t;
	u32 *when = tw_when(p, d, n, &t), v, i, c[MF_MAX_DIMS], last = 0;
	u32 got = 0;

	for (v = 0; when && v < t.nodes; v++) {
		mf_topo_coords(&t, v, c);
		for (i = 1; i < d && c[i] == c[0]; i++)
			;
		if (i == d) {
			got++;
			if (when[v] > last)
				last = when[v];
		}
	}
	free(when);
	return got == n ? last : U32_MAX;
}

/* The coordinates of v in dimensions lo .. d-1 but `skip`, with those of
 * dimension `with` (if < d) in front, as one number.
 */
static u32 tw_key(const struct mf_topo *t, u32 v, u32 lo, u32 skip, u32 with)
{
	u32 c[MF_MAX_DIMS], i, key;

	mf_topo_coords(t, v, c);
	key = with < t->ndims ? c[with] : 0;
	for (i = lo; i < t->ndims; i++)
		if (i != skip)
			key = key * t->dims[0] + c[i];
	return key;
}

/* The phase boundaries of a schedule on the n^d torus, read off its
 * receipts: ph[h], h = 1..d, is the first step after which every
 * (d-h)-dimensional subtorus (dimensions d-h .. d-1 fixed) holds an
 * informed node; ph[0] = 0.  After 002's phase h exactly that holds
 * (section 5: one node per subtorus), so phase h took ph[h] - ph[h-1].
 */
static int tw_phases(const struct mf_topo *t, const u32 *when, u32 *ph)
{
	u32 d = t->ndims, h, v, k, nk, *best;

	best = malloc(t->nodes * sizeof(*best));
	if (!best)
		return -ENOMEM;
	ph[0] = 0;
	for (h = 1; h <= d; h++) {
		nk = (u32)ipow(t->dims[0], h);
		for (k = 0; k < nk; k++)
			best[k] = U32_MAX;
		for (v = 0; v < t->nodes; v++) {
			k = tw_key(t, v, d - h, d, d);
			if (when[v] < best[k])
				best[k] = when[v];
		}
		ph[h] = 0;
		for (k = 0; k < nk; k++)
			if (best[k] > ph[h])
				ph[h] = best[k];
	}
	free(best);
	return 0;
}

static u32 tw_dd(const struct mf_topo *t, u32 a, u32 b)	/* dimension distance */
{
	u32 ca[MF_MAX_DIMS], cb[MF_MAX_DIMS], i, dd = 0;

	mf_topo_coords(t, a, ca);
	mf_topo_coords(t, b, cb);
	for (i = 0; i < t->ndims; i++)
		dd += ca[i] != cb[i];
	return dd;
}

struct tw_sets {
	u32 lem3, lem4, lem5, lem6, lem7, lem9;	/* failures */
	u32 diag2, ends;	/* |D_(2,0)|; its nodes with k = 0 or n - 1 */
	u32 pairs5, pairs6, keys7, planes9, sizes;	/* cases checked */
};

/* 002 Lemmas 3-7 and 9 on tsay-wang's own sets: D_(h,0), the nodes
 * informed when phase h starts (ph[h-1]), and S, the column set of the
 * final phase (the realign step's nodes when there is one, else D_(d,0)).
 */
static int tw_lemmas(const struct mf_topo *t, const u32 *when, const u32 *ph,
		     struct tw_sets *o)
{
	u32 d = t->ndims, n = t->dims[0], h, v, k, j, cnt, *set, *cntk, m;
	u32 ca[MF_MAX_DIMS], cb[MF_MAX_DIMS], i, ns, *in_s, *own;
	int err = -ENOMEM;

	memset(o, 0, sizeof(*o));
	set = malloc(t->nodes * sizeof(*set));
	own = malloc(t->nodes * sizeof(*own));
	cntk = calloc(t->nodes, sizeof(*cntk));
	in_s = calloc(t->nodes, sizeof(*in_s));
	if (!set || !own || !cntk || !in_s)
		goto out;
	for (h = 2; h <= d; h++) {
		/* D_(h,0): Lemma 3 (2: the main diagonal; 3: the diagonals of
		 * direction v through D_(h-1,0)), Corollary 1, Lemma 4
		 */
		for (cnt = 0, v = 0; v < t->nodes; v++)
			if (when[v] <= ph[h - 1])
				set[cnt++] = v;
		o->sizes++;
		o->lem4 += cnt != ipow(n, h - 1);
		memset(cntk, 0, t->nodes * sizeof(*cntk));
		for (k = 0; k < cnt; k++)
			cntk[tw_key(t, set[k], d - h + 1, d, d)]++;
		for (k = 0; k < ipow(n, h - 1); k++)
			o->lem4 += cntk[k] != 1;
		for (k = 0; k < ipow(n, h - 2); k++)
			own[k] = U32_MAX;
		for (v = 0; v < t->nodes; v++)
			if (when[v] <= ph[h - 2])
				own[tw_key(t, v, d - h + 2, d, d)] = v;
		for (k = 0; k < cnt; k++) {
			mf_topo_coords(t, set[k], ca);
			if (h == 2) {
				for (i = 1; i < d && ca[i] == ca[0]; i++)
					;
				o->lem3 += i != d;
				o->diag2++;
				o->ends += i == d && (!ca[0] || ca[0] == n - 1);
				continue;
			}
			/* s: the D_(h-1,0) node of set[k]'s (d-h+2)-subtorus */
			v = own[tw_key(t, set[k], d - h + 2, d, d)];
			if (v == U32_MAX) {
				o->lem3++;
				continue;
			}
			mf_topo_coords(t, v, cb);
			m = (ca[0] + n - cb[0]) % n;
			for (i = 0; i < d; i++) {
				u32 want = i < d - h + 1 ? (cb[i] + m) % n :
					   i == d - h + 1 ? (cb[i] + n - m) % n : cb[i];

				if (ca[i] != want)
					break;
			}
			o->lem3 += i != d;
		}
		/* Lemma 5: the diagonal of phase h - 1 in each subtorus;
		 * Lemma 6: all of D_(h,0) (n odd)
		 */
		for (k = 0; k < cnt; k++)
			for (j = k + 1; j < cnt; j++) {
				bool same = tw_key(t, set[k], d - h + 2, d, d) ==
					    tw_key(t, set[j], d - h + 2, d, d);

				o->pairs5 += same;
				o->lem5 += same && tw_dd(t, set[k], set[j]) < 2;
				o->pairs6++;
				o->lem6 += tw_dd(t, set[k], set[j]) < 2;
			}
		/* Lemma 7: x_0 and the last h - 1 coordinates but one fix
		 * the last one
		 */
		for (j = d - h + 1; j < d; j++) {
			memset(cntk, 0, t->nodes * sizeof(*cntk));
			for (k = 0; k < cnt; k++)
				cntk[tw_key(t, set[k], d - h + 1, j, 0)]++;
			for (k = 0; k < ipow(n, h - 1); k++, o->keys7++)
				o->lem7 += cntk[k] != 1;
		}
	}
	/* S: per column (the dimension-0 line), the node the realign step
	 * informs, if that step informs at most one per column (else there
	 * is none: d = 2), or the column's node of D_(d,0)
	 */
	memset(cntk, 0, t->nodes * sizeof(*cntk));
	for (ns = 0, v = 0; v < t->nodes; v++)
		if (when[v] == ph[d - 1] + 1 &&
		    ++cntk[tw_key(t, v, 1, d, d)] > 1)
			ns = 1;
	for (v = 0; v < t->nodes; v++) {
		k = tw_key(t, v, 1, d, d);
		in_s[v] = !ns && cntk[k] ? when[v] == ph[d - 1] + 1 :
			  when[v] <= ph[d - 1];
	}
	/* Lemma 9: in every x_1 x_j plane S is one diagonal: n nodes with
	 * x_1 + x_j or x_1 - x_j the same (set: first sums; own: flags)
	 */
	for (j = 1; j < d; j++) {
		memset(cntk, 0, t->nodes * sizeof(*cntk));
		for (v = 0; v < t->nodes; v++) {
			u32 plus, minus, key = 0;

			if (!in_s[v])
				continue;
			mf_topo_coords(t, v, ca);
			for (i = 1; i < d; i++)
				if (i != j)
					key = key * n + ca[i];
			plus = (ca[0] + ca[j]) % n;
			minus = (ca[0] + n - ca[j]) % n;
			if (!cntk[key]++) {
				set[key] = plus * n + minus;
				own[key] = 3;
				continue;
			}
			if (set[key] / n != plus)
				own[key] &= ~1U;
			if (set[key] % n != minus)
				own[key] &= ~2U;
		}
		for (k = 0; k < ipow(n, d - 2); k++, o->planes9++)
			o->lem9 += cntk[k] != n || !own[k];
	}
	err = 0;
out:
	free(set);
	free(own);
	free(cntk);
	free(in_s);
	return err;
}

/* 002 section 7's extra phase, first step, on the n^d torus (n even):
 * the (n-1)-subtorus 0..n-2 is informed; p1 (one coordinate n - 1) hears
 * its (i, +) neighbour, p2 (coordinates i, j at n - 1) hears the node
 * with 0 at i and j over "two edges in the negative direction", i first
 * or j first (the text does not say).  Exhaustive search over those
 * orders (backtracking, targets by source) for one where no directed
 * link carries two messages: 1 if one exists, 0 if none, -errno.
 * *paths: the 2-hop paths of the all-zero node.
 */
struct extra {
	const struct mf_topo *t;
	u32 nt, (*hop)[2][2];	/* target: two orders, two links each */
	u8 *used;
};

static bool extra_try(struct extra *x, u32 k)
{
	u32 o;

	if (k == x->nt)
		return true;
	for (o = 0; o < 2; o++) {
		u32 a = x->hop[k][o][0], b = x->hop[k][o][1];

		if (x->used[a] || x->used[b])
			continue;
		x->used[a] = x->used[b] = 1;
		if (extra_try(x, k + 1))
			return true;
		x->used[a] = x->used[b] = 0;
	}
	return false;
}

static int extra_phase(const struct mf_topo *t, u32 *paths)
{
	u32 d = t->ndims, n = t->dims[0], v, i, j, o, c[MF_MAX_DIMS];
	u32 q[MF_MAX_DIMS];
	struct extra x = { t, 0, NULL, NULL };
	int r = -ENOMEM;

	x.hop = malloc(t->nodes * d * d * sizeof(*x.hop));
	x.used = calloc((size_t)t->nodes * t->nports, 1);
	if (!x.hop || !x.used)
		goto out;
	*paths = 0;
	for (v = 0; v < t->nodes; v++) {
		mf_topo_coords(t, v, c);
		for (i = 0; i < d && c[i] <= n - 2; i++)
			;
		if (i < d)
			continue;
		for (i = 0; i < d; i++) {
			/* p1: one hop (i, +) from n - 2 */
			if (c[i] == n - 2) {
				memcpy(q, c, sizeof(q));
				q[i] = n - 1;
				x.used[(size_t)v * t->nports +
				       mf_topo_port(t, v, mf_topo_id(t, q))] = 1;
			}
			for (j = i + 1; j < d; j++) {
				if (c[i] || c[j])
					continue;
				*paths += !v;
				for (o = 0; o < 2; o++) {
					u32 a = o ? j : i, b = o ? i : j, mid;

					memcpy(q, c, sizeof(q));
					q[a] = n - 1;
					mid = mf_topo_id(t, q);
					q[b] = n - 1;
					x.hop[x.nt][o][0] = v * t->nports +
						mf_topo_port(t, v, mid);
					x.hop[x.nt][o][1] = mid * t->nports +
						mf_topo_port(t, mid, mf_topo_id(t, q));
				}
				x.nt++;
			}
		}
	}
	r = extra_try(&x, 0);
out:
	free(x.hop);
	free(x.used);
	return r;
}

/* A row of a count: "bad of tot what", false if any */
static struct claim *tw_lemma_row(struct papers *p, const char *claim,
				  const char *cas, const char *paper,
				  const char *printed, u32 bad, u32 tot,
				  const char *what, u32 d, u32 n)
{
	struct claim *c = add(p, "002", claim, cas);

	SET(c->paper_value, "%s", paper);
	SET(c->printed, "%s", printed);
	SET(c->mf, "%u of %u %s", bad, tot, what);
	c->verdict = bad ? "false" : "holds";
	tw_steps(p, c, d, n);
	return c;
}

/* 002 Theorems 2-3, Lemmas 3-7 and 9 on tsay-wang's schedule from node 0
 * of the n^d torus, n = (2d+1)^r: the phases and sets are read off the
 * receipts (tw_phases, tw_lemmas), not taken from the builder.
 */
static void p002_phases(struct papers *p)
{
	static const u32 pw[][2] = { { 2, 5 }, { 2, 25 }, { 3, 7 }, { 4, 9 } };
	u32 i, h, d, n, r, ph[MF_MAX_DIMS + 1], *when, worst;
	struct tw_sets o;
	struct mf_topo t;
	struct claim *c;
	char cas[64], list[48];

	for (i = 0; i < ARRAY_SIZE(pw); i++) {
		d = pw[i][0];
		n = pw[i][1];
		r = log_ceil(2 * d + 1, n);
		when = tw_when(p, d, n, &t);
		if (!when)
			return;
		if (tw_phases(&t, when, ph) || tw_lemmas(&t, when, ph, &o)) {
			fail(p, -ENOMEM, "tsay-wang phases");
			free(when);
			return;
		}
		SET(cas, "d = %u, n = %u = %u^%u torus", d, n, 2 * d + 1, r);
		if (d >= 3) {
			list[0] = 0;
			worst = 0;
			for (h = 2; h < d; h++) {
				fmt(list + strlen(list), sizeof(list) - strlen(list),
				    "%s%u", h > 2 ? ", " : "", ph[h] - ph[h - 1]);
				if (ph[h] - ph[h - 1] > worst)
					worst = ph[h] - ph[h - 1];
			}
			c = add(p, "002", "Theorem 2: each phase h = 2 .. d-1 takes r steps", cas);
			SET(c->paper_value, "%u steps each", r);
			SET(c->printed, "%u steps each (h = 0 .. d-1)", r);
			SET(c->mf, "phase 2%s: %s steps", d > 3 ? " .. d-1" : "", list);
			c->verdict = worst <= r ? "holds" : "false";
			tw_steps(p, c, d, n);
			SET(c->note, "phase h ends when every (d-h)-dimensional subtorus holds an informed node; the theorem prints h = 0 .. d-1, the section treats 2 .. d-1");
		}
		c = add(p, "002", "Theorem 3: the final phase d takes r + 1 steps", cas);
		SET(c->paper_value, "%u steps", r + 1);
		SET(c->printed, "%u steps", r + 1);
		SET(c->mf, "%u steps (tsay-wang)", ph[d] - ph[d - 1]);
		c->verdict = ph[d] - ph[d - 1] <= r + 1 ? "holds" : "false";
		tw_steps(p, c, d, n);
		SET(c->note, d == 2 ? "the first step (to S) is not needed: phase 1's diagonal is already S" :
			     "the first step moves each column's node to S (the realign step, docs/tsay-wang.md)");

		if (d == 2 && r == 1) {
			free(when);
			continue;	/* the lemmas: n = 25 shows d = 2 */
		}
		c = add(p, "002", "Lemma 3.2: D_(2,0) = {(k, .., k) | 0 < k < n - 1}", cas);
		SET(c->paper_value, "n nodes (Corollary 1)");
		SET(c->printed, "%u nodes", n - 2);
		SET(c->mf, "%u nodes, %u of them with k = 0 or n - 1",
		    o.diag2, o.ends);
		c->verdict = o.diag2 == n && o.ends == 2 && !o.lem3 ? "typo" : "false";
		tw_steps(p, c, d, n);
		SET(c->note, "Corollary 1 (|D_(h,0)| = n^(h-1)) and Lemma 6's proof (0 <= k <= n - 1) include both ends: read <= for <");
		c = add(p, "002", "Lemma 3.3, Corollary 1, Lemma 4: D_(h,0) has n^(h-1) nodes, one per (d-h+1)-subtorus", cas);
		SET(c->paper_value, "n^(h-1), one each");
		SET(c->printed, "D_(h,0) on the diagonals L(s, v) of D_(h-1,0)");
		SET(c->mf, "%u of %u sets, %u nodes off Lemma 3's form", o.lem4,
		    d - 1, o.lem3);
		c->verdict = o.lem4 || o.lem3 ? "false" : "holds";
		tw_steps(p, c, d, n);
		SET(c->note, "D_(h,0): the nodes informed when phase h starts; v = (1, .., 1, -1, 0, ..)");
		c = add(p, "002", "Lemmas 5, 6: nodes of one chosen diagonal, and of D_(h,0), differ in >= 2 dimensions", cas);
		SET(c->paper_value, "dd >= 2");
		SET(c->printed, "dd >= 2 (Lemma 6: n odd)");
		SET(c->mf, "%u of %u, %u of %u pairs with dd < 2", o.lem5, o.pairs5,
		    o.lem6, o.pairs6);
		c->verdict = o.lem5 || o.lem6 ? "false" : "holds";
		tw_steps(p, c, d, n);
		tw_lemma_row(p, "Lemma 7: x_0 and all but one x_j fix the last x_j of a D_(h+1,0) node",
			     cas, "a unique x_j", "a unique x_j", o.lem7, o.keys7,
			     "choices not unique", d, n);
		c = tw_lemma_row(p, "Lemma 9: in every x_1 x_j plane the final phase's set S is a diagonal",
				 cas, "a diagonal", "S: x_1 = sum of the others",
				 o.lem9, o.planes9, "planes not one diagonal", d, n);
		SET(c->note, "S: tsay-wang's column nodes when the final phase starts (x_1 = a . (x_2, .., x_d), a = +-1); Lemma 10's ranks shift these diagonals");
		free(when);
	}
}

/* 002 section 7: the extra phase's first step free of congestion */
static void p002_extra(struct papers *p)
{
	static const u32 cases[][2] = { { 3, 4 }, { 4, 4 }, { 4, 6 }, { 5, 4 } };
	u32 i, d, n, paths;
	struct mf_topo t;
	struct claim *c;
	char shape[64], cas[64];
	int r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		d = cases[i][0];
		n = cases[i][1];
		cube_shape(shape, sizeof(shape), d, n);
		if (topo(p, MESHFABRIC_KIND_TORUS, shape, &t))
			return;
		r = extra_phase(&t, &paths);
		if (r < 0) {
			fail(p, r, "extra phase");
			return;
		}
		SET(cas, "d = %u, n = %u torus, first step", d, n);
		c = add(p, "002", "Sec. 7: the extra phase sends to nodes with one or two n - 1 in one step without congestion", cas);
		SET(c->paper_value, "no congestion");
		SET(c->printed, "2 negative hops, either order");
		if (r)
			SET(c->mf, "an order with no shared link");
		else
			SET(c->mf, "every order shares a link");
		c->verdict = r ? "holds" : "false";
		SET(c->command, "meshfabric plan --torus %s --algo tsay-wang --steps", shape);
		SET(c->note, "exhaustive over the orders of the 2-hop paths: the all-zero node sends %u of them, each first on one of its %u minus ports%s",
		    paths, d, r ? "" : "; tsay-wang's extra phase is redesigned (docs/tsay-wang.md)");
	}
}

/* 002 Lemma 2 on a cycle of m ranks: k nodes whose gaps differ by at most
 * 1, c new nodes spread evenly into every gap: the new gaps differ by at
 * most 1.  The number of (m, k, c) that fail.
 */
static u32 lemma2_fails(u32 mmax, u32 cmax)
{
	u32 m, k, c, bad = 0, q, r, lo, hi;

	for (m = 2; m <= mmax; m++)
		for (k = 1; k <= m; k++)
			for (c = 1; c <= cmax && k * (c + 1) <= m; c++) {
				/* gaps q (k - r of them) and q + 1 (r) */
				q = m / k;
				r = m % k;
				/* a gap g split into c + 1 parts: g / (c + 1),
				 * rounded down or up
				 */
				lo = q / (c + 1);
				hi = (r ? q + 1 : q) / (c + 1) +
				     ((r ? q + 1 : q) % (c + 1) != 0);
				bad += hi - lo > 1;
			}
	return bad;
}

static void p002_more(struct papers *p)
{
	static const u32 pw[][2] = { { 2, 5 }, { 2, 25 }, { 3, 7 } };
	struct claim *c;
	char cas[64];
	u32 i, d, n, r, s, a, diff, tot;
	const char *name;

	for (i = 0; i < sizeof(pw) / sizeof(pw[0]); i++) {
		d = pw[i][0];
		n = pw[i][1];
		r = log_ceil(2 * d + 1, n);
		SET(cas, "d = %u, n = %u = %u^%u torus", d, n, 2 * d + 1, r);
		c = add(p, "002", "Theorem 1: phase 1 informs the main diagonal in r steps", cas);
		SET(c->paper_value, "%u steps", r);
		SET(c->printed, "%u steps", r);
		s = tw_diagonal_step(p, d, n);
		SET(c->mf, "%u steps (tsay-wang)", s);
		c->verdict = s <= r ? "holds" : "false";
		tw_steps(p, c, d, n);
		SET(c->note, "the step of the last diagonal node (i, ..., i) to receive");
		tw_row(p, "Theorem 4: n = (2d+1)^r takes dr + 1 steps", d, n,
		       d * r + 1, NULL);
	}

	c = add(p, "002", "Lemma 2: c new nodes per gap keep the gaps within 1 of each other",
		"cycles of m = 2..300 ranks, c = 1..8");
	SET(c->paper_value, "gaps differ by <= 1");
	SET(c->printed, "gaps differ by <= 1");
	SET(c->mf, "%u cases differ by 2", lemma2_fails(300, 8));
	c->verdict = lemma2_fails(300, 8) ? "false" : "holds";
	SET(c->command, "meshfabric plan --torus 9x9 --algo tsay-wang --steps");
	SET(c->note, "the rank plan of every phase rests on it (docs/tsay-wang.md)");

	/* Sec. 7: the odd algorithm on the (n-1)-subtorus in ceil(d log(n-1))
	 * + 1 steps, the ceiling outside the product; Theorem 5 (which it
	 * runs) says d ceil(log(n-1)) + 1.
	 */
	for (d = 2; d <= 3; d++) {
		static const u32 even[] = { 6, 8, 10, 26 };

		for (i = 0; i < 4; i++) {
			u32 m, outside, inside;

			n = even[i];
			if (d == 3 && n == 26)
				continue;
			m = n - 1;
			/* ceil(d log_(2d+1) m): smallest s with (2d+1)^s >= m^d */
			outside = log_ceil(2 * d + 1, ipow(m, d));
			inside = d * log_ceil(2 * d + 1, m);
			SET(cas, "d = %u, the %u-torus inside n = %u", d, m, n);
			c = add(p, "002", "Sec. 7: the odd algorithm on the (n-1)-torus takes ceil(d log_(2d+1) (n-1)) + 1 steps", cas);
			SET(c->paper_value, "%u steps", outside + 1);
			SET(c->printed, "Theorem 5: %u steps", inside + 1);
			s = tw_steps(p, c, d, m);
			a = auto_steps(p, NULL, d, m, &name);
			SET(c->mf, "tsay-wang %u, auto %u steps", s, a);
			c->verdict = outside == inside ? (s <= outside + 1 ? "holds" : "not reached") :
				     "typo";
			if (outside != inside)
				SET(c->note, "the ceiling outside the product contradicts Theorem 5 (d ceil(log) + 1), the algorithm section 7 runs");
		}
	}

	/* the abstract's even-n count against Theorem 6's */
	diff = tot = 0;
	for (d = 2; d <= 3; d++)
		for (n = 4; n <= 30; n += 2, tot++)
			diff += log_ceil(2 * d + 1, n - 1) != log_ceil(2 * d + 1, n);
	c = add(p, "002", "Abstract vs Theorem 6 (n even): d ceil(log_(2d+1) (n-1)) vs d ceil(log_(2d+1) n)",
		"d = 2, 3, n = 4..30 even");
	SET(c->paper_value, "one formula");
	SET(c->printed, "differ at %u of %u", diff, tot);
	s = tw_steps(p, c, 2, 6);
	SET(c->mf, "6x6: tsay-wang %u steps (abstract 4, Theorem 6 6)", s);
	c->verdict = "typo";
	SET(c->note, "they differ where n - 1 is a power of 2d + 1; the construction runs the odd algorithm on n - 1, so the abstract's form is the one it gives");
	p002_phases(p);
	p002_extra(p);
}

/* ---- 003: hexagonal meshes ---- */

struct hexbfs {
	u32 nodes, links, ecc;
	u64 td;
	u32 ring[64];
};

/* BFS from node 0 of H_n over mf_topo_neighbor; the distances go to
 * *dist_out (malloc'ed) if it is given.
 */
static int hex_bfs(struct papers *p, u32 n, struct hexbfs *h, u32 **dist_out)
{
	struct mf_topo t;
	u32 *dist, *q, head = 0, tail = 0, i, port;
	char shape[16];
	s64 nb;

	memset(h, 0, sizeof(*h));
	SET(shape, "%u", n);
	if (topo(p, MESHFABRIC_KIND_HEX, shape, &t))
		return -EINVAL;
	dist = malloc(t.nodes * sizeof(u32));
	q = malloc(t.nodes * sizeof(u32));
	if (!dist || !q) {
		free(dist);
		free(q);
		p->err = -ENOMEM;
		return -ENOMEM;
	}
	for (i = 0; i < t.nodes; i++)
		dist[i] = U32_MAX;
	dist[0] = 0;
	q[tail++] = 0;
	while (head < tail) {
		i = q[head++];
		for (port = 0; port < t.nports; port++) {
			nb = mf_topo_neighbor(&t, i, port);
			if (nb < 0)
				continue;
			if (dist[nb] == U32_MAX) {
				dist[nb] = dist[i] + 1;
				q[tail++] = (u32)nb;
			}
		}
	}
	h->nodes = tail;
	for (i = 0; i < tail; i++) {
		h->td += dist[i];
		if (dist[i] > h->ecc)
			h->ecc = dist[i];
		if (dist[i] < ARRAY_SIZE(h->ring))
			h->ring[dist[i]]++;
	}
	/* links: distinct neighbour pairs over every node */
	for (i = 0; i < t.nodes; i++) {
		u32 a, b, dup;
		s64 nbs[MF_HEX_PORTS];

		for (a = 0; a < t.nports; a++)
			nbs[a] = mf_topo_neighbor(&t, i, a);
		for (a = 0; a < t.nports; a++) {
			dup = 0;
			for (b = 0; b < a; b++)
				dup |= nbs[b] == nbs[a];
			h->links += !dup && nbs[a] > i;
		}
	}
	if (dist_out)
		*dist_out = dist;
	else
		free(dist);
	free(q);
	return 0;
}

/* 003's six directions x, y, z, -x, -y, -z (rotate(+60 degrees) is the
 * next one) as address offsets mod p, from the routing functions of
 * section IV-B: +x = R_(m_x-1) = +1, +y = R_(m_y-1) = +(3n^2 - 6n + 3),
 * +z = R_(m_z-1) = +(3n^2 - 6n + 2).
 */
static u32 hex_dir(u32 n, u32 dir)
{
	u32 pn = 3 * n * n - 3 * n + 1;
	u32 off = dir % 3 == 0 ? 1 : dir % 3 == 1 ? 3 * n * n - 6 * n + 3 :
		  3 * n * n - 6 * n + 2;

	off %= pn;
	return dir < 3 ? off : (pn - off) % pn;
}

enum { HX, HY, HZ, HMX, HMY, HMZ };

struct a2_run {
	u32 n, pn, steps, dups, missed, runaway;
	bool oneport;
	u32 *recv, *last;		/* receipts, step of the last send */
	struct a2_msg { u32 to, dirn, prop; bool corner; } *q;
	u32 *qn, cap;			/* per step: messages, capacity */
};

static void a2_send(struct a2_run *r, u32 step, u32 from, u32 dirn,
		    u32 prop, bool corner)
{
	struct a2_msg *m;

	if (step > r->n + 4 || r->qn[step] == r->cap) {
		r->runaway++;
		return;
	}
	if (r->last[from] == step)
		r->oneport = false;
	r->last[from] = step;
	if (step > r->steps)
		r->steps = step;
	m = &r->q[step * r->cap + r->qn[step]++];
	m->to = (from + hex_dir(r->n, dirn)) % r->pn;
	m->dirn = dirn;
	m->prop = prop;
	m->corner = corner;
}

/* 003 algorithm A2 exactly as printed, from node 0 of H_n: the source's
 * procedure, then every receipt runs the receive procedure (case count
 * of 1, 2, n + 2; the corner test count <= n + 1).  "n + 2: stop" is read
 * as count >= n + 2: literally a receipt in step n + 3 would send on
 * for ever.  The source does not run the procedure on a receipt.
 */
static int a2_printed(u32 n, struct a2_run *r)
{
	u32 step, i, v, count;

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->pn = 3 * n * n - 3 * n + 1;
	r->cap = 3 * r->pn;
	r->oneport = true;
	r->recv = calloc(r->pn, sizeof(u32));
	r->last = calloc(r->pn, sizeof(u32));
	r->qn = calloc(n + 6, sizeof(u32));
	r->q = calloc((size_t)(n + 6) * r->cap, sizeof(*r->q));
	if (!r->recv || !r->last || !r->qn || !r->q)
		return -ENOMEM;
	a2_send(r, 1, 0, HX, HX, true);
	a2_send(r, 2, 0, HZ, HZ, true);
	a2_send(r, 3, 0, HMY, HMY, true);
	for (step = 1; step <= n + 4; step++) {
		for (i = 0; i < r->qn[step]; i++) {
			const struct a2_msg *m = &r->q[step * r->cap + i];

			v = m->to;
			r->recv[v]++;
			if (!v)
				continue;
			count = step;
			if (count == 1) {
				a2_send(r, 2, v, HZ, HY, true);
				a2_send(r, 3, v, HMY, HMZ, true);
				count = 3;
			} else if (count == 2) {
				if (m->dirn == HZ)
					a2_send(r, 3, v, HMY, HMX, true);
				count = 3;
			} else if (count >= n + 2) {
				continue;
			}
			if (m->corner && count <= n + 1) {
				a2_send(r, count + 1, v, m->prop, m->prop, true);
				a2_send(r, count + 2, v, (m->prop + 1) % 6,
					(m->prop + 1) % 6, false);
			} else {
				a2_send(r, count + 1, v, m->prop, m->prop,
					false);
			}
		}
	}
	for (v = 0; v < r->pn; v++) {
		r->dups += v ? (r->recv[v] > 1 ? r->recv[v] - 1 : 0) : r->recv[v];
		r->missed += v && !r->recv[v];
	}
	return 0;
}

static void a2_free(struct a2_run *r)
{
	free(r->recv);
	free(r->last);
	free(r->qn);
	free(r->q);
}

/* A pattern of points in axial coordinates (x = (1, 0), y = (0, 1),
 * z = y - x = (-1, 1)) up to the 12 symmetries of the hexagonal lattice
 * and translation: the sorted points after the best rotation/reflection,
 * moved to start at the smallest.
 */
static void hex_canon(const s32 (*pt)[2], u32 cnt, s32 (*out)[2])
{
	s32 best[8][2], cur[8][2], tmp;
	u32 r, f, i, j, k;
	bool first = true;

	for (f = 0; f < 2; f++) {
		for (r = 0; r < 6; r++) {
			for (i = 0; i < cnt; i++) {
				s32 a = f ? pt[i][1] : pt[i][0];
				s32 b = f ? pt[i][0] : pt[i][1];

				for (k = 0; k < r; k++) {	/* (a, b) -> (-b, a + b) */
					tmp = a;
					a = -b;
					b = tmp + b;
				}
				cur[i][0] = a;
				cur[i][1] = b;
			}
			for (i = 1; i < cnt; i++)	/* sort */
				for (j = i; j > 0 && (cur[j - 1][0] > cur[j][0] ||
				     (cur[j - 1][0] == cur[j][0] &&
				      cur[j - 1][1] > cur[j][1])); j--) {
					s32 s0 = cur[j][0], s1 = cur[j][1];

					cur[j][0] = cur[j - 1][0];
					cur[j][1] = cur[j - 1][1];
					cur[j - 1][0] = s0;
					cur[j - 1][1] = s1;
				}
			for (i = cnt; i-- > 0;) {
				cur[i][0] -= cur[0][0];
				cur[i][1] -= cur[0][1];
			}
			if (first || memcmp(cur, best, cnt * sizeof(cur[0])) < 0)
				memcpy(best, cur, cnt * sizeof(cur[0]));
			first = false;
		}
	}
	memcpy(out, best, cnt * sizeof(best[0]));
}

/* Theorem 3's proof on H_n: every pattern of the 4 nodes a one-port
 * broadcast with sends to neighbours informs in two steps (0 -> a; 0 ->
 * b, a -> c), how many distinct patterns up to symmetry (*npat, Fig. 10),
 * and the fewest nodes at distance >= n - 1 from all four (*far): each of
 * the four reaches at most one such node in n - 1 more steps, so more
 * than 4 means n + 1 steps cannot cover H_n.
 */
static int hex_patterns(u32 n, u32 *npat, u32 *far)
{
	static const s32 unit[6][2] = { { 1, 0 }, { 0, 1 }, { -1, 1 },
					{ -1, 0 }, { 0, -1 }, { 1, -1 } };
	u32 pn = 3 * n * n - 3 * n + 1, a, b, w, i, v, cnt, seen = 0;
	s32 pt[4][2], canon[4][2], (*pats)[4][2];
	u32 addr[4];

	pats = calloc(6 * 6 * 6, sizeof(*pats));
	if (!pats)
		return -ENOMEM;
	*far = U32_MAX;
	for (a = 0; a < 6; a++) {
		for (b = 0; b < 6; b++) {
			for (w = 0; w < 6; w++) {
				pt[0][0] = pt[0][1] = 0;
				memcpy(pt[1], unit[a], sizeof(pt[1]));
				memcpy(pt[2], unit[b], sizeof(pt[2]));
				pt[3][0] = unit[a][0] + unit[w][0];
				pt[3][1] = unit[a][1] + unit[w][1];
				if (b == a || (!pt[3][0] && !pt[3][1]) ||
				    !memcmp(pt[3], pt[2], sizeof(pt[2])))
					continue;
				hex_canon((const s32 (*)[2])pt, 4, canon);
				for (i = 0; i < seen; i++)
					if (!memcmp(pats[i], canon, sizeof(canon)))
						break;
				if (i == seen)
					memcpy(pats[seen++], canon, sizeof(canon));
				for (i = 0; i < 4; i++) {
					s64 ad = (s64)pt[i][0] * hex_dir(n, HX) +
						 (s64)pt[i][1] * hex_dir(n, HY);

					ad %= (s64)pn;
					addr[i] = (u32)(ad < 0 ? ad + pn : ad);
				}
				for (v = 0, cnt = 0; v < pn; v++) {
					u32 dmin = U32_MAX, dd;

					for (i = 0; i < 4; i++) {
						dd = mf_hex_distance(n, addr[i], v);
						dmin = dd < dmin ? dd : dmin;
					}
					cnt += dmin >= n - 1;
				}
				*far = cnt < *far ? cnt : *far;
			}
		}
	}
	*npat = seen;
	free(pats);
	return 0;
}

/* A claim checked by counting its exceptions: holds if bad is 0. */
static struct claim *count_row(struct papers *p, const char *paper,
			       const char *claim, const char *cas,
			       const char *value, const char *printed,
			       u32 bad, const char *command)
{
	struct claim *c = add(p, paper, claim, cas);

	SET(c->paper_value, "%s", value);
	SET(c->printed, "%s", printed);
	c->verdict = bad ? "false" : "holds";
	SET(c->command, "%s", command);
	return c;
}

/* Axial hex distance of i x + j y (z = y - x). */
static u32 hex_axial_dist(s32 i, s32 j)
{
	s32 ai = i < 0 ? -i : i, aj = j < 0 ? -j : j;

	return (u32)((i < 0) == (j < 0) ? ai + aj : ai > aj ? ai : aj);
}

/* Table I's H_n and w x w torus values, computed offline; *dens2 gets the
 * all-to-all message density (messages per link per interval, 003's
 * footnote), *avgdeg the average distance over the degree.
 */
struct table1 {
	u32 nodes, links, diam, degree, kappa, lambda;
	double dens, avgdeg;
};

static int table1_of(struct papers *p, u32 kind, const char *shape,
		     struct table1 *r)
{
	struct mf_topo t;
	u32 v, port, deg;
	u64 td = 0;
	int err;

	memset(r, 0, sizeof(*r));
	if (topo(p, kind, shape, &t))
		return -EINVAL;
	r->nodes = t.nodes;
	r->degree = U32_MAX;
	for (v = 0; v < t.nodes; v++) {
		for (port = 0, deg = 0; port < t.nports; port++)
			deg += mf_topo_is_link(&t, v, port);
		r->links += deg;
		r->degree = deg < r->degree ? deg : r->degree;
		td += mf_topo_distance(&t, 0, v);	/* node-symmetric */
	}
	r->links /= 2;
	r->diam = mf_topo_diameter(&t);
	err = mf_topo_connectivity(&t, &r->kappa, &r->lambda);
	if (err) {
		fail(p, err, "connectivity");
		return err;
	}
	/* every node sends to every other: p * td link crossings */
	r->dens = (double)t.nodes * (double)td / (double)r->links;
	r->avgdeg = (double)td / (double)(t.nodes - 1) / r->degree;
	return 0;
}

static void p003_more(struct papers *p)
{
	u32 n, k, bad, tot, i;
	struct claim *c;
	char shape[16];
	s32 mx, my, mz;

	/* Lemma 2: rows (constant m_y + m_z, A1's vectors from the centre) */
	bad = tot = 0;
	for (n = 2; n <= 12; n++) {
		u32 pn = 3 * n * n - 3 * n + 1, row[64] = { 0 };

		for (k = 0; k < pn; k++) {
			mf_hex_route_vector(n, 0, k, &mx, &my, &mz);
			row[n - 1 + my + mz]++;
		}
		for (i = 0; i + 2 <= n; i++, tot++)
			bad += row[i] + row[i + n] != 3 * n - 2 ||
			       row[i] != n + i;
	}
	c = count_row(p, "003", "Lemma 2: rows i and i + n hold 3n - 2 nodes together (0 <= i <= n - 2)",
		      "n = 2..12, rows of A1's vectors", "3n - 2",
		      "n + i and 2n - i - 2 (Lemma 1's proof)", bad,
		      "meshfabric route --hex 4 --from 0 --to 20");
	SET(c->mf, "%u of %u row pairs differ", bad, tot);
	SET(c->note, "a node's row is its m_y + m_z from the centre: y and z both climb one row");

	/* Lemma 3a: links of the unwrapped H'_n, in axial coordinates */
	bad = 0;
	for (n = 2; n <= 12; n++) {
		static const s32 u[3][2] = { { 1, 0 }, { 0, 1 }, { -1, 1 } };
		s32 a, b, r = (s32)n - 1;
		u32 links = 0;

		for (a = -r; a <= r; a++)
			for (b = -r; b <= r; b++)
				for (i = 0; i < 3; i++)
					links += hex_axial_dist(a, b) <= (u32)r &&
						 hex_axial_dist(a + u[i][0],
								b + u[i][1]) <= (u32)r;
		bad += links != 9 * n * n - 15 * n + 6;
	}
	c = count_row(p, "003", "Lemma 3a: H'_n (no wrapping) has 9n^2 - 15n + 6 links",
		      "n = 2..12", "9n^2 - 15n + 6", "9n^2 - 15n + 6", bad,
		      "meshfabric analyze --hex 5");
	SET(c->mf, "%u of 11 differ", bad);
	SET(c->note, "the hexagon of radius n - 1 of the plane lattice, its unit pairs counted");

	/* Theorem 1 and Corollary 1.1: the fabric's neighbours */
	{
		u32 t1 = 0, homog = 0, nodes = 0;

		for (n = 2; n <= 12 && !p->err; n++) {
			struct mf_topo t;
			u32 pn = 3 * n * n - 3 * n + 1, v, d, port;

			SET(shape, "%u", n);
			if (topo(p, MESHFABRIC_KIND_HEX, shape, &t))
				return;
			for (v = 0; v < pn; v++, nodes++) {
				u32 want = 0, got = 0;

				for (d = 0; d < 6; d++)
					for (port = 0; port < t.nports; port++)
						if (mf_topo_neighbor(&t, v, port) ==
						    (s64)((v + hex_dir(n, d)) % pn))
							want |= 1U << d;
				t1 += want != 0x3f;
				for (port = 0; port < t.nports; port++)
					got += mf_topo_neighbor(&t, v, port) ==
					       (s64)((mf_topo_neighbor(&t, 0, port) + v) % pn);
				homog += got != t.nports;
			}
		}
		c = count_row(p, "003", "Theorem 1: a y (z) step adds 3n^2 - 6n + 3 (3n^2 - 6n + 2) mod p to the address",
			      "n = 2..12, every node", "+-1, +-(3n - 1), +-(3n - 2)",
			      "+-1, +-(3n - 1), +-(3n - 2)", t1,
			      "meshfabric route --hex 4 --from 0 --to 9");
		SET(c->mf, "%u of %u nodes differ", t1, nodes);
		c = count_row(p, "003", "Corollary 1.1: all nodes of H_n are homogeneous",
			      "n = 2..12, every node", "N(i) = N(0) + i", "a power cycle",
			      homog, "meshfabric analyze --hex 5");
		SET(c->mf, "%u of %u nodes differ", homog, nodes);
		SET(c->note, "i -> i + c maps every link to a link: the routing and broadcasts from 0 serve every node");
	}

	/* Lemma 5: diameter / sqrt(p) below 1/sqrt(3) */
	{
		struct hexbfs h;

		bad = 0;
		for (n = 2; n <= 12 && !p->err; n++) {
			if (hex_bfs(p, n, &h, NULL))
				return;
			bad += 3 * h.ecc * h.ecc >= h.nodes;
		}
		c = count_row(p, "003", "Lemma 5: the diameter grows as O(p^(1/2))",
			      "n = 2..12, BFS", "O(p^(1/2))", "(n - 1) < (p / 3)^(1/2)",
			      bad, "meshfabric plan --hex 12 --algo hex --summary");
		SET(c->mf, "3 diam^2 >= p for %u of 11", bad);
	}

	/* Shortest paths: (|m_x| + |m_y| + |m_z|)! / (|m_x|! |m_y|! |m_z|!) */
	bad = tot = 0;
	for (n = 2; n <= 8 && !p->err; n++) {
		struct mf_topo t;
		u32 pn = 3 * n * n - 3 * n + 1, v, port, *dist = NULL, *order;
		u64 *cnt, f[16];
		struct hexbfs h;
		s64 w;

		SET(shape, "%u", n);
		if (topo(p, MESHFABRIC_KIND_HEX, shape, &t) ||
		    hex_bfs(p, n, &h, &dist))
			return;
		cnt = calloc(pn, sizeof(u64));
		order = calloc(pn, sizeof(u32));
		if (!cnt || !order) {
			free(cnt);
			free(order);
			free(dist);
			fail(p, -ENOMEM, "paths");
			return;
		}
		/* count the shortest paths from 0 layer by layer */
		for (v = 0, k = 0; k < n; k++)
			for (i = 0; i < pn; i++)
				if (dist[i] == k)
					order[v++] = i;
		cnt[0] = 1;
		for (i = 1; i < pn; i++)
			for (port = 0; port < t.nports; port++) {
				w = mf_topo_neighbor(&t, order[i], port);
				if (w >= 0 && dist[w] + 1 == dist[order[i]])
					cnt[order[i]] += cnt[w];
			}
		for (f[0] = 1, k = 1; k < 16; k++)
			f[k] = f[k - 1] * k;
		for (v = 1; v < pn; v++, tot++) {
			mf_hex_route_vector(n, 0, v, &mx, &my, &mz);
			bad += f[abs(mx) + abs(my) + abs(mz)] /
			       (f[abs(mx)] * f[abs(my)] * f[abs(mz)]) != cnt[v];
		}
		free(cnt);
		free(order);
		free(dist);
	}
	c = add(p, "003", "Sec. IV-B: (|m_x| + |m_y| + |m_z|)! / (|m_x|! |m_y|! |m_z|!) shortest paths",
		"n = 2..8, from node 0 to every node");
	SET(c->paper_value, "the multinomial of A1's vector");
	SET(c->printed, "the multinomial of A1's vector");
	SET(c->mf, "%u of %u differ from a BFS count", bad, tot);
	c->verdict = bad ? "false" : "holds";
	SET(c->command, "meshfabric route --hex 8 --from 0 --to 100");

	/* 6-connected, 6-edge connected; five failures */
	{
		struct table1 r;
		u32 kbad = 0;

		for (n = 2; n <= 7 && !p->err; n++) {
			SET(shape, "%u", n);
			if (table1_of(p, MESHFABRIC_KIND_HEX, shape, &r))
				return;
			kbad += r.kappa != 6 || r.lambda != 6;
		}
		c = count_row(p, "003", "Sec. III: every H_n is 6-connected and 6-edge connected",
			      "n = 2..7, max-flow", "6, 6", "6, 6", kbad,
			      "meshfabric analyze --hex 5");
		SET(c->mf, "%u of 6 differ", kbad);
		SET(c->note, "vertex and edge connectivity by max-flow (mf_topo_connectivity; exhaustive removal agrees in test_papers.c)");
	}
	{
		struct mf_topo t;
		u32 sets = 0, split = 0, idx[5], pn, j;

		if (topo(p, MESHFABRIC_KIND_HEX, "3", &t))
			return;
		pn = t.nodes;
		/* every 5 of the 19 nodes of H_3 removed: the rest connected */
		for (idx[0] = 0; idx[0] < pn; idx[0]++)
		for (idx[1] = idx[0] + 1; idx[1] < pn; idx[1]++)
		for (idx[2] = idx[1] + 1; idx[2] < pn; idx[2]++)
		for (idx[3] = idx[2] + 1; idx[3] < pn; idx[3]++)
		for (idx[4] = idx[3] + 1; idx[4] < pn; idx[4]++) {
			u32 gone = 0, q[32], h = 0, tl = 0, seen = 0, v, s;
			u32 port;

			for (j = 0; j < 5; j++)
				gone |= 1U << idx[j];
			for (s = 0; gone >> s & 1; s++)
				;
			q[tl++] = s;
			seen = 1U << s;
			while (h < tl) {
				v = q[h++];
				for (port = 0; port < t.nports; port++) {
					u32 w = (u32)mf_topo_neighbor(&t, v, port);

					if ((gone | seen) >> w & 1)
						continue;
					seen |= 1U << w;
					q[tl++] = w;
				}
			}
			split += tl != pn - 5;
			sets++;
		}
		c = add(p, "003", "Sec. III: an H-mesh tolerates any five node or link failures", "H_3, every 5 nodes; H_2..H_7 links");
		SET(c->paper_value, "connected after 5 failures");
		SET(c->printed, "connected after 5 failures");
		SET(c->mf, "%u of %u node sets disconnect", split, sets);
		c->verdict = split ? "false" : "holds";
		SET(c->command, "meshfabric route --hex 3 --from 0 --to 9 --down-node 1 --down-node 2 --down-node 7 --down-node 8 --down-node 17");
		SET(c->note, "links: the edge connectivity is 6 (row above), so five link failures leave a path");
	}

	/* Table I, offline: H_n and the square (wrapped) w x w meshes */
	{
		static const struct { u32 kind; const char *shape; u32 deg; } tab[] = {
			{ MESHFABRIC_KIND_HEX, "3", 6 }, { MESHFABRIC_KIND_HEX, "4", 6 },
			{ MESHFABRIC_KIND_HEX, "5", 6 }, { MESHFABRIC_KIND_HEX, "6", 6 },
			{ MESHFABRIC_KIND_TORUS, "4x4", 4 }, { MESHFABRIC_KIND_TORUS, "5x5", 4 },
			{ MESHFABRIC_KIND_TORUS, "6x6", 4 }, { MESHFABRIC_KIND_TORUS, "7x7", 4 },
		};
		double lo[2][2] = { { 1e300, 1e300 }, { 1e300, 1e300 } };
		double hi[2][2] = { { 0 } };
		struct table1 r;

		for (i = 0; i < sizeof(tab) / sizeof(tab[0]) && !p->err; i++) {
			u32 hx = tab[i].kind == MESHFABRIC_KIND_HEX;
			double d3, a1;

			if (table1_of(p, tab[i].kind, tab[i].shape, &r))
				return;
			c = add(p, "003", "Table I: nodes, links, diameter, degree, connectivity, message density", "");
			if (hx)
				SET(c->cas, "H_%s", tab[i].shape);
			else
				SET(c->cas, "%s square mesh (wrapped)", tab[i].shape);
			n = hx ? (u32)atoi(tab[i].shape) : 0;
			SET(c->paper_value, "%s, %s, O(p^(1/2)), %u, %u, O(p^(1/2))",
			    hx ? "3n^2 - 3n + 1" : "w^2", hx ? "3p" : "2p",
			    tab[i].deg, tab[i].deg);
			SET(c->printed, "%u, %u, O(p^(1/2)), %u, %u, see below",
			    hx ? 3 * n * n - 3 * n + 1 : r.nodes,
			    (hx ? 3 : 2) * r.nodes, tab[i].deg, tab[i].deg);
			SET(c->mf, "%u, %u, %u, %u, %u, %g", r.nodes, r.links, r.diam,
			    r.degree, r.kappa, r.dens);
			c->verdict = (hx ? r.nodes == 3 * n * n - 3 * n + 1 : 1) &&
				     r.links == (hx ? 3 : 2) * r.nodes &&
				     r.degree == tab[i].deg && r.kappa == tab[i].deg &&
				     3 * r.diam * r.diam < 4 * r.nodes ? "holds" : "false";
			SET(c->command, "meshfabric analyze %s %s", hx ? "--hex" : "--torus",
			    tab[i].shape);
			SET(c->note, "BFS, link count, max-flow; density: messages per link when every node sends one to every other; selftests/test_92-papers-table1.sh measures them on the running fabric");
			/* density^2 / p^3 and (avg / degree)^2 / p stay in a band */
			d3 = r.dens * r.dens / ((double)r.nodes * r.nodes * r.nodes);
			a1 = r.avgdeg * r.avgdeg / r.nodes;
			lo[hx][0] = d3 < lo[hx][0] ? d3 : lo[hx][0];
			hi[hx][0] = d3 > hi[hx][0] ? d3 : hi[hx][0];
			lo[hx][1] = a1 < lo[hx][1] ? a1 : lo[hx][1];
			hi[hx][1] = a1 > hi[hx][1] ? a1 : hi[hx][1];
		}
		for (i = 0; i < 2; i++) {
			c = add(p, "003", "Table I: message density O(p^(1/2))", "");
			SET(c->cas, "%s", i ? "H_3..H_6" : "4x4..7x7 wrapped");
			SET(c->paper_value, "O(p^(1/2))");
			SET(c->printed, "all-to-all: d^2/p^3 in %.3f..%.3f, O(p^(3/2))",
			    lo[i][0], hi[i][0]);
			SET(c->mf, "avg dist / degree: ^2/p in %.4f..%.4f",
			    lo[i][1], hi[i][1]);
			c->verdict = "typo";
			SET(c->command, "meshfabric analyze %s", i ? "--hex 6" : "--torus 7x7");
			SET(c->note, "the footnote's all-to-all per link per interval grows as p^(3/2); the column's values (complete graphs O(1/p), hypercubes O(1)) are the average distance over the degree, O(p^(1/2))");
		}
	}
}

static void p003(struct papers *p)
{
	struct hexbfs h;
	static const struct {
		const char *claim, *cas, *paper, *printed, *command;
	} lemma[5] = {
		{ "Lemma 1: H_n has p = 3n^2 - 3n + 1 nodes", "n = 2..12, BFS from node 0",
		  "7, 19, 37, ..., 397", "3n^2 - 3n + 1",
		  "meshfabric plan --hex 12 --algo hex --summary" },
		{ "Lemma 3: H_n has 9n^2 - 9n + 3 links", "n = 2..12",
		  "3p", "9n^2 - 9n + 3", "meshfabric analyze --hex 5" },
		{ "Lemma 4a: the diameter of H_n is n - 1", "n = 2..12, BFS",
		  "n - 1", "n - 1", "meshfabric route --hex 4 --from 0 --to 20" },
		{ "Lemma 4b: the average distance is (2n - 1) / 3", "n = 2..12, BFS",
		  "(2n - 1) / 3", "td = n(n-1)(2n-1)",
		  "meshfabric route --hex 4 --from 0 --to 20" },
		{ "Lemma 4 (proof): ring d has 6d nodes", "n = 2..12, BFS",
		  "6d", "6d", "meshfabric route --hex 4 --from 0 --to 20" },
	};
	u32 n, i, bad = 0, pairs = 0, differ[5] = { 0 }, rings;
	struct claim *c;
	s32 mx, my, mz;
	char shape[16];

	for (n = 2; n <= 12 && !p->err; n++) {
		if (hex_bfs(p, n, &h, NULL))
			return;
		differ[0] += h.nodes != 3 * n * n - 3 * n + 1;
		differ[1] += h.links != 9 * n * n - 9 * n + 3;
		differ[2] += h.ecc != n - 1;
		/* td / (p - 1) = (2n - 1) / 3 <=> 3 td = (2n - 1)(p - 1) */
		differ[3] += 3 * h.td != (u64)(2 * n - 1) * (h.nodes - 1);
		for (i = 1, rings = 0; i < n; i++)
			rings += h.ring[i] != 6 * i;
		differ[4] += rings != 0;
	}
	for (i = 0; i < 5; i++) {
		c = add(p, "003", lemma[i].claim, lemma[i].cas);
		SET(c->paper_value, "%s", lemma[i].paper);
		SET(c->printed, "%s", lemma[i].printed);
		SET(c->mf, "%u of 11 differ", differ[i]);
		c->verdict = differ[i] ? "false" : "holds";
		SET(c->command, "%s", lemma[i].command);
	}

	c = add(p, "003", "Sec. V: H_7 has 127 nodes and diameter 6, H_19 1027 and 18", "H_7, H_19");
	SET(c->paper_value, "127, 6; 1027, 18");
	SET(c->printed, "127, 6; 1027, 18");
	hex_bfs(p, 7, &h, NULL);
	SET(c->mf, "%u, %u; ", h.nodes, h.ecc);
	hex_bfs(p, 19, &h, NULL);
	fmt(c->mf + strlen(c->mf), sizeof(c->mf) - strlen(c->mf), "%u, %u", h.nodes, h.ecc);
	c->verdict = strcmp(c->mf, c->paper_value) ? "false" : "holds";
	SET(c->command, "meshfabric plan --hex 19 --algo hex --summary");

	c = add(p, "003", "Sec. IV-B example: 11 -> 5 in H_4: k = 31, r = 2, t = 7, (0, -2, -1)", "H_4, 11 to 5");
	SET(c->paper_value, "(0, -2, -1)");
	SET(c->printed, "(0, -2, -1)");
	mf_hex_route_vector(4, 11, 5, &mx, &my, &mz);
	SET(c->mf, "(%d, %d, %d)", mx, my, mz);
	c->verdict = strcmp(c->mf, c->paper_value) ? "false" : "holds";
	SET(c->command, "meshfabric route --hex 4 --from 11 --to 5");

	c = add(p, "003", "Theorem 2: A1's (m_x, m_y, m_z) gives shortest paths", "every pair, n = 2..8");
	SET(c->paper_value, "|m_x| + |m_y| + |m_z| = distance");
	SET(c->printed, "A1 as printed");
	for (n = 2; n <= 8 && !p->err; n++) {
		u32 *dist = NULL, b;

		/* homogeneous (Corollary 1.1): the pairs (0, b) cover every
		 * offset; the distances come from a BFS
		 */
		if (hex_bfs(p, n, &h, &dist))
			return;
		for (b = 0; b < h.nodes; b++) {
			mf_hex_route_vector(n, 0, b, &mx, &my, &mz);
			bad += (u32)(abs(mx) + abs(my) + abs(mz)) != dist[b];
			pairs++;
		}
		free(dist);
	}
	SET(c->mf, "%u of %u offsets differ", bad, pairs);
	c->verdict = bad ? "false" : "holds";
	SET(c->command, "meshfabric route --hex 8 --from 0 --to 100");

	for (n = 2; n <= 10; n += n < 5 ? 1 : 5) {
		struct mf_stats st;
		struct a2_run r;

		SET(shape, "%u", n);
		c = add(p, "003", "Sec. IV-C: A2 takes n + 2 steps (n >= 3), 3 for n = 2", "");
		SET(c->cas, "H_%u", n);
		SET(c->paper_value, "%u steps", n == 2 ? 3 : n + 2);
		st = plan(p, c, MESHFABRIC_KIND_HEX, shape, NULL, "hex");
		SET(c->mf, "%u steps, TCD %llu", st.steps, (unsigned long long)st.tcd);
		if (n == 2) {
			SET(c->printed, "3 steps");
			c->verdict = st.steps == 3 ? "holds" : "false";
			SET(c->note, "H_2 is K_7: ceil(log2 7) = 3 steps; the second phase is for n > 2");
			continue;
		}
		if (a2_printed(n, &r)) {
			a2_free(&r);
			fail(p, -ENOMEM, "A2");
			return;
		}
		SET(c->printed, "%u steps, %u duplicate receipts", r.steps, r.dups);
		c->verdict = st.steps == n + 2 ?
			     (r.steps == n + 2 && !r.dups ? "holds" : "typo") : "false";
		SET(c->note, "as printed %s%s%u nodes missed; meshfabric's A2 stops the corners at ring n - 1 and sends one message per node (docs/hex.md)",
		    r.oneport ? "" : "not one-port, ",
		    r.runaway ? "runs away, " : "", r.missed);
		a2_free(&r);
	}
	for (n = 3; n <= 8; n++) {
		u32 pn = 3 * n * n - 3 * n + 1, npat = 0, far = 0;

		c = add(p, "003", "Theorem 3: point-to-point broadcast needs >= n + 2 steps", "");
		SET(c->cas, "H_%u, sends to neighbours (the proof's model)", n);
		SET(c->paper_value, ">= %u steps", n + 2);
		SET(c->printed, ">= %u steps", n + 2);
		if (hex_patterns(n, &npat, &far)) {
			fail(p, -ENOMEM, "Theorem 3");
			return;
		}
		if (n <= 4) {
			SET(c->mf, ">= %u steps (ceil(log2 %u))", log_ceil(2, pn), pn);
			c->verdict = log_ceil(2, pn) >= n + 2 ? "holds" : "false";
			SET(c->note, "the proof's doubling argument; %u nodes at distance n - 1 from the 4 of step 2 would not do",
			    far);
		} else {
			SET(c->mf, "%u nodes at distance n - 1 from the 4 informed in 2 steps (> 4)",
			    far);
			c->verdict = far > 4 ? "holds" : "false";
			SET(c->note, "every 2-step pattern: each of the 4 reaches one such node in n - 1 steps, so n + 1 steps leave one out");
		}
		SET(c->command, "meshfabric plan --hex %u --algo hex --summary", n);
	}
	for (n = 3; n <= 6; n++) {
		u32 pn = 3 * n * n - 3 * n + 1;
		struct mf_stats st;

		SET(shape, "%u", n);
		c = add(p, "003", "Theorem 3: point-to-point broadcast needs >= n + 2 steps", "");
		SET(c->cas, "H_%u, one-port, multi-hop sends", n);
		SET(c->paper_value, ">= %u steps", n + 2);
		SET(c->printed, ">= %u steps", n + 2);
		st = plan(p, c, MESHFABRIC_KIND_HEX, shape, NULL, "binomial");
		SET(c->mf, "%u steps (binomial; ceil(log2 p) = %u)", st.steps, log_ceil(2, pn));
		c->verdict = st.steps >= n + 2 ? "holds" : "false";
		SET(c->note, st.steps < n + 2 ?
		    "not the theorem's model: it holds with sends to neighbours (rows above); multi-hop sends beat it" :
		    "multi-hop sends cannot beat the doubling bound ceil(log2 p) here");
	}
	{
		u32 npat = 0, far = 0;

		c = add(p, "003", "Fig. 10: six patterns after two steps, up to symmetry", "H_5, sends to neighbours");
		SET(c->paper_value, "6 patterns");
		SET(c->printed, "6 patterns");
		if (hex_patterns(5, &npat, &far)) {
			fail(p, -ENOMEM, "Fig. 10");
			return;
		}
		SET(c->mf, "%u patterns", npat);
		c->verdict = npat == 6 ? "holds" : "false";
		SET(c->command, "meshfabric plan --hex 5 --algo hex --steps");
		SET(c->note, "0 -> a; 0 -> b, a -> c over every choice of neighbours, up to rotation, reflection and translation");
	}
	/* 003's global sum (issue 23): core/coll_algo.c's 003 and tree */
	for (n = 3; n <= 6; n++) {
		struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE,
					  .algo = MF_CALGO_003, .bytes = 8,
					  .esize = 8 };
		struct mf_coll_result r3, rt;
		struct mf_sched s;
		struct mf_topo t;
		int e3, et;

		c = add(p, "003", "Sec. IV: global sum in 2n + 1 steps (n - 1 toward the centre, A2 in n + 2)", "");
		SET(c->cas, "H_%u", n);
		SET(c->paper_value, "%u steps", 2 * n + 1);
		SET(c->printed, "2n + 1 = %u steps", 2 * n + 1);
		SET(c->command, "meshfabric plan --hex %u --coll allreduce --algo 003 --size 8", n);
		mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, &n);
		e3 = mf_coll_plan(&t, &rq, &s, &r3);
		mf_sched_free(&s);
		rq.algo = MF_CALGO_TREE;
		rq.bcast = MESHFABRIC_ALGO_FLOOD;
		et = mf_coll_plan(&t, &rq, &s, &rt);
		mf_sched_free(&s);
		if (e3 || et) {
			SET(c->mf, "not planned: %s", e3 ? r3.why : rt.why);
			c->verdict = "false";
			continue;
		}
		SET(c->mf, "%u steps; all-port tree %u", r3.st.steps, rt.st.steps);
		c->verdict = r3.st.steps == 2 * n + 1 ? "holds" : "false";
		SET(c->note, "checked symbolically; all-port: flood turned round, then flood: 2(n - 1), twice the radius");
	}
	p003_more(p);
}

/* ---- 004: Jerebic & Trobec ---- */

/* Delta(R) of a torus (mf_route_delta) as claim c's meshfabric value, with
 * the command that shows it; size[] gets the subtrees of G_0.
 */
static u64 delta_row(struct papers *p, struct claim *c, const char *shape,
		     u32 routing, u64 *size)
{
	struct mf_topo t;
	u64 delta = 0;
	int r;

	SET(c->command, "meshfabric analyze --torus %s --routing %s", shape,
	    mf_route_name(routing));
	if (topo(p, MESHFABRIC_KIND_TORUS, shape, &t))
		return 0;
	r = mf_route_delta(&t, routing, &delta, size);
	if (r)
		fail(p, r, "Delta(R)");
	SET(c->mf, "%llu", (unsigned long long)delta);
	return delta;
}

static void p004(struct papers *p)
{
	static const struct { const char *shape; u32 K, n; } dor[] = {
		{ "3x3", 3, 2 }, { "5x5", 5, 2 }, { "7x7", 7, 2 }, { "3x3x3", 3, 3 },
		{ "5x5x5", 5, 3 }, { "7x7x7", 7, 3 }, { "5x5x5x5", 5, 4 },
	};
	u64 delta, size[2 * MF_MAX_DIMS], want;
	struct claim *c;
	char cas[64];
	u32 i, j, bad;

	for (i = 0; i < ARRAY_SIZE(dor); i++) {
		SET(cas, "T_%u^%u, dor", dor[i].K, dor[i].n);
		c = add(p, "004", "Theorem 4: Delta(simple) = (K-1)(K^(n-1) - 1) / 2", cas);
		want = (dor[i].K - 1) * (ipow(dor[i].K, dor[i].n - 1) - 1) / 2;
		SET(c->paper_value, "%llu", (unsigned long long)want);
		SET(c->printed, "%llu", (unsigned long long)want);
		delta = delta_row(p, c, dor[i].shape, MESHFABRIC_ROUTE_DOR, size);
		c->verdict = eq(delta, want);
		if (i == 4) {
			/* the proof's subtree sizes N_i = (K-1)/2 K^(n-|i|) */
			c = add(p, "004", "Theorem 4 (proof): N_i = (K-1)/2 K^(n-|i|)", cas);
			SET(c->paper_value, "50, 50, 10, 10, 2, 2");
			SET(c->printed, "50, 50, 10, 10, 2, 2");
			bad = 0;
			for (j = 0; j < 2 * dor[i].n; j++)
				bad += size[j] != (dor[i].K - 1) / 2 *
					ipow(dor[i].K, j / 2);
			SET(c->mf, "%llu, %llu, %llu, %llu, %llu, %llu",
			    (unsigned long long)size[4], (unsigned long long)size[5],
			    (unsigned long long)size[2], (unsigned long long)size[3],
			    (unsigned long long)size[0], (unsigned long long)size[1]);
			c->verdict = bad ? "false" : "holds";
			SET(c->command, "meshfabric analyze --torus 5x5x5 --routing dor");
			SET(c->note, "meshfabric's dor corrects dimension 0 first, the proof dimension n first: the sizes come in the other order");
		}
	}
	for (i = 0; i < ARRAY_SIZE(dor); i++) {
		u32 K = dor[i].K, n = dor[i].n, pw2 = !(n & (n - 1));
		/* bound * 2: (K-1)^n / 2^(n-1) (dropped if n is a power of 2) +
		 * (n - 2) K^(n-2)
		 */
		u64 twice = (pw2 ? 0 : 2 * ipow(K - 1, n) / ipow(2, n)) +
			    (n - 2) * ipow(K, n - 2);

		SET(cas, "T_%u^%u, diagonal", K, n);
		c = add(p, "004", "Theorem 5: Delta(diagonal) < ((K-1)/2)^n + (n-2)/2 K^(n-2)", cas);
		if (twice & 1)
			SET(c->paper_value, "< %llu.5", (unsigned long long)twice / 2);
		else
			SET(c->paper_value, "< %llu", (unsigned long long)twice / 2);
		SET(c->printed, "%s", c->paper_value);
		delta = delta_row(p, c, dor[i].shape, MESHFABRIC_ROUTE_DIAGONAL, size);
		c->verdict = 2 * delta < twice ? "holds" : 2 * delta == twice ? "typo" : "false";
		if (n == 2)
			SET(c->note, "n = 2 is a power of 2: Delta < 0 as printed; read as <= 0 (\"in two dimensions being even optimal\")");
	}
	for (i = 0; i < 2; i++) {
		static const char *const sh[2] = { "5x5", "7x7" };

		SET(cas, "T_%c^2, diagonal", sh[i][0]);
		c = add(p, "004", "Sec. 5: diagonal is optimal in two dimensions (Prop. 2: Delta <= 1)", cas);
		SET(c->paper_value, "<= 1");
		SET(c->printed, "<= 1");
		delta = delta_row(p, c, sh[i], MESHFABRIC_ROUTE_DIAGONAL, size);
		c->verdict = delta <= 1 ? "holds" : "false";
	}
	{
		static const char *const sh[3] = { "5x5", "7x7", "5x5x5" };
		static const u32 diam[3] = { 4, 6, 6 };
		struct mf_stats st;

		for (i = 0; i < 3; i++) {
			SET(cas, "%s torus", sh[i]);
			c = add(p, "004", "Prop. 1, Sec. 2.2: broadcast along G_A on shortest paths takes the eccentricity", cas);
			SET(c->paper_value, "%u steps", diam[i]);
			SET(c->printed, "%u steps", diam[i]);
			st = plan(p, c, MESHFABRIC_KIND_TORUS, sh[i], NULL, "tree");
			SET(c->mf, "%u steps, TCD %llu", st.steps, (unsigned long long)st.tcd);
			c->verdict = st.steps == diam[i] ? "holds" : "false";
		}
	}
	p004_more(p);
}

/* 004 Definition 4: b of a diagonal point (signs of x_1..x_n), case 2's
 * routing dimension, and the all-to-all balance Lambda (Definition 2).
 */
static u32 def4_b(u32 n, u32 neg)	/* bit k-1 of neg: x_k < 0 */
{
	u32 k, b = 0, s1 = neg & 1;

	for (k = 1; k <= n; k++)
		b += (s1 == (neg >> (k - 1) & 1)) << (n - k);
	return b;
}

/* 004 section 3.2 at node 0 of a torus under a routing R.
 * rho[q][l]: the all-to-all broadcast along input graphs, counted: the
 * messages 0 forwards over port q of sources at distance l (0 forwards
 * A's message to its neighbour Y iff Y's next hop towards A is 0; Lemma
 * 2).  lev[q][l]: the points at level l + 1 of the subtree S_q of G_0
 * (Theorem 1's count), out[q][l] the same in the output graph G_0^(o)
 * (paths from 0), chan[q][l] the channels of port q from level l to
 * level l + 1 of G_0 (Lemma 2's count).  Also: the channel loads of the all-to-all
 * personalized exchange (each pair one message on its path), *hmax
 * the largest and *hsum their sum, and *inhom the pairs whose path is
 * not congruent to the one from A - B to 0 (homogeneity).
 */
#define RHO_LEV 16

struct rho {
	u32 rho[2 * MF_MAX_DIMS][RHO_LEV], lev[2 * MF_MAX_DIMS][RHO_LEV];
	u32 out[2 * MF_MAX_DIMS][RHO_LEV];	/* the same of G_0^(o) */
	u32 chan[2 * MF_MAX_DIMS][RHO_LEV];	/* Lemma 2's channels */
	u64 hmax, hsum, channels;
	u32 inhom, diam;
};

static int rho_of(const struct mf_topo *t, u32 routing, struct rho *o)
{
	u32 a, b, y, q, v, top, l, *load;
	int port, p2;
	s64 nb;

	memset(o, 0, sizeof(*o));
	o->diam = mf_topo_diameter(t);
	if (o->diam + 1 >= RHO_LEV)
		return -E2BIG;
	load = calloc((size_t)t->nodes * t->nports, sizeof(*load));
	if (!load)
		return -ENOMEM;
	for (q = 0; q < t->nports; q++) {
		y = (u32)mf_topo_neighbor(t, 0, q);
		for (a = 0; a < t->nodes; a++) {
			if (a == y)
				continue;
			port = mf_route_next(t, routing, y, a);
			if (port < 0)
				goto bad;
			if (mf_topo_neighbor(t, y, (u32)port) == 0)
				o->rho[q][mf_topo_distance(t, a, 0)]++;
		}
	}
	for (v = 1; v < t->nodes; v++) {
		port = mf_route_next(t, routing, v, 0);
		if (port < 0)
			goto bad;
		nb = mf_topo_neighbor(t, v, (u32)port);
		o->chan[mf_topo_port(t, (u32)nb, v)]
		       [mf_topo_distance(t, v, 0) - 1]++;
		for (b = v; ; b = (u32)nb) {
			port = mf_route_next(t, routing, b, 0);
			if (port < 0)
				goto bad;
			nb = mf_topo_neighbor(t, b, (u32)port);
			if (nb == 0)
				break;
		}
		top = (u32)mf_topo_port(t, 0, b);
		l = mf_topo_distance(t, v, 0);
		o->lev[top][l - 1]++;
		port = mf_route_next(t, routing, 0, v);	/* G_0^(o) */
		if (port < 0)
			goto bad;
		o->out[port][l - 1]++;
	}
	for (a = 0; a < t->nodes; a++)
		for (b = 0; b < t->nodes; b++) {
			u32 x = a, z = mf_topo_sub(t, a, b);

			/* z walks the path from A - B to 0 beside A's to B */
			while (x != b) {
				port = mf_route_next(t, routing, x, b);
				p2 = mf_route_next(t, routing, z, 0);
				if (port < 0 || p2 < 0)
					goto bad;
				if (port != p2) {
					o->inhom++;
					break;
				}
				load[(size_t)x * t->nports + (u32)port]++;
				o->hsum++;
				x = (u32)mf_topo_neighbor(t, x, (u32)port);
				z = (u32)mf_topo_neighbor(t, z, (u32)p2);
			}
		}
	o->channels = (u64)t->nodes * t->nports;
	for (v = 0; v < t->nodes * t->nports; v++)
		if (load[v] > o->hmax)
			o->hmax = load[v];
	free(load);
	return 0;
bad:
	free(load);
	return -EINVAL;
}

/* Lambda(l) of Definition 2: the largest |rho_i(l) - rho_j(l)| */
static u32 lambda(const struct mf_topo *t, const struct rho *o, u32 l)
{
	u32 q, lo = U32_MAX, hi = 0;

	for (q = 0; q < t->nports; q++) {
		if (o->rho[q][l] < lo)
			lo = o->rho[q][l];
		if (o->rho[q][l] > hi)
			hi = o->rho[q][l];
	}
	return hi - lo;
}

/* 004 Theorems 1-3 and the Lambda measure (Definition 2) */
static void p004_lambda(struct papers *p)
{
	static const char *const sh[] = { "5x5", "7x7", "5x5x5" };
	static const u32 rt[] = { MESHFABRIC_ROUTE_DOR, MESHFABRIC_ROUTE_DIAGONAL };
	u32 i, k, q, l, bad, obad, cbad, tot, lmax, lat, mean;
	struct mf_topo t;
	struct claim *c;
	struct rho o;
	char cas[64], list[64];
	int r;

	for (i = 0; i < ARRAY_SIZE(sh); i++)
		for (k = 0; k < ARRAY_SIZE(rt); k++) {
			const char *rn = mf_route_name(rt[k]);

			if (topo(p, MESHFABRIC_KIND_TORUS, sh[i], &t))
				return;
			r = rho_of(&t, rt[k], &o);
			if (r) {
				fail(p, r, "rho");
				return;
			}
			SET(cas, "T_%c^%u, %s", sh[i][0], t.ndims, rn);
			bad = tot = obad = cbad = 0;
			for (q = 0; q < t.nports; q++)
				for (l = 0; l < o.diam; l++, tot++) {
					bad += o.rho[q][l] != o.lev[q][l];
					obad += o.rho[q][l] != o.out[q][l];
					cbad += o.rho[q][l] != o.chan[q][l];
				}
			c = add(p, "004", "Lemma 2: rho_+-i(d) = the channels +-i between levels d and d + 1 of G_0", cas);
			SET(c->paper_value, "equal for every i, d");
			SET(c->printed, "equal for every i, d");
			SET(c->mf, "%u of %u (i, d) differ", cbad, tot);
			c->verdict = cbad ? "false" : "holds";
			SET(c->command, "meshfabric analyze --torus %s --routing %s",
			    sh[i], rn);
			SET(c->note, "rho counted by an all-to-all broadcast along the input graphs at node 0");
			c = add(p, "004", "Theorem 1: rho_+-i(d) = the points at level d + 1 of S_+-i(G_0^(i))", cas);
			SET(c->paper_value, "equal for every i, d");
			SET(c->printed, "the input graph G_0^(i)");
			SET(c->mf, "%u of %u (i, d) differ; in G_0^(o) %u", bad, tot, obad);
			c->verdict = !bad ? "holds" : !obad ? "typo" : "false";
			SET(c->command, "meshfabric analyze --torus %s --routing %s",
			    sh[i], rn);
			SET(c->note, "%s", bad && !obad ?
			    "Lemma 2's count (row above) equals the subtrees of 0 in the output graph G_0^(o) (paths from 0), not in G_0^(i) as printed; the same for symmetric routings" :
			    "rho as in the row above");
			lmax = lat = 0;
			list[0] = 0;
			for (l = 0; l < o.diam; l++) {
				u32 v = lambda(&t, &o, l);

				if (l < 6)
					fmt(list + strlen(list),
					    sizeof(list) - strlen(list), "%s%u",
					    l ? ", " : "", v);
				if (v > lmax) {
					lmax = v;
					lat = l;
				}
			}
			if (rt[k] == MESHFABRIC_ROUTE_DIAGONAL && t.ndims > 2)
				goto personalized;
			c = add(p, "004", "Definition 2, Theorem 2: optimal for all-to-all broadcast iff Lambda(d) <= 1 for all d", cas);
			if (rt[k] == MESHFABRIC_ROUTE_DIAGONAL)
				SET(c->paper_value, "<= 1 (Sec. 5: optimal in 2-D)");
			else
				SET(c->paper_value, "> 1 (Sec. 5: poor)");
			SET(c->printed, "%s", c->paper_value);
			SET(c->mf, "max %u at d = %u (d = 0..: %s%s)", lmax, lat,
			    list, o.diam > 6 ? ", .." : "");
			if (rt[k] == MESHFABRIC_ROUTE_DIAGONAL)
				c->verdict = lmax <= 1 ? "holds" : "false";
			else if (rt[k] == MESHFABRIC_ROUTE_DOR)
				c->verdict = lmax > 1 ? "holds" : "false";
			else
				c->verdict = lmax > 1 ? "holds" : "false";
			SET(c->command, "meshfabric analyze --torus %s --routing %s",
			    sh[i], rn);
			SET(c->note, "rho_q(d): messages node 0 forwards over port q from sources at distance d in an all-to-all broadcast (counted)");
personalized:
			mean = (u32)((o.hsum + o.channels - 1) / o.channels);
			c = add(p, "004", "Theorem 3: homogeneous shortest-path routing is optimal for all-to-all personalized broadcast", cas);
			SET(c->paper_value, "max channel load = ceil(mean)");
			SET(c->printed, "homogeneous, shortest paths");
			SET(c->mf, "%u pairs not homogeneous; max load %llu, ceil(mean) %u",
			    o.inhom, (unsigned long long)o.hmax, mean);
			c->verdict = o.inhom || o.hmax != mean ? "false" : "holds";
			SET(c->command, "meshfabric analyze --torus %s --routing %s",
			    sh[i], rn);
			SET(c->note, "every ordered pair sends one message on its routed path; no routing beats ceil(total distance / channels) on the busiest channel");
		}
}

static void p004_more(struct papers *p)
{
	static const char *const sh[5] = { "5x5", "7x7", "5x5x5", "7x7x7", "5x5x5x5" };
	struct claim *c;
	u32 n, neg, bad = 0, sym = 0, i;
	char cas[64];

	for (n = 2; n <= 8; n++)
		for (neg = 0; neg < (1U << n); neg++) {
			u32 b = def4_b(n, neg);

			bad += b < (1U << (n - 1)) || b >= (1U << n);
			sym += b != def4_b(n, ~neg & ((1U << n) - 1));
		}
	c = add(p, "004", "Definition 4: b maps the diagonal points to 0 .. 2^(n-1) - 1", "n = 2..8, every sign vector");
	SET(c->paper_value, "0 .. 2^(n-1) - 1");
	SET(c->printed, "2^(n-1) .. 2^n - 1");
	SET(c->mf, "%u of %u outside 2^(n-1) .. 2^n - 1", bad, 508);
	c->verdict = bad ? "false" : "typo";
	SET(c->command, "meshfabric analyze --torus 5x5x5 --routing diagonal");
	SET(c->note, "the k = 1 term is always 2^(n-1): the formula as printed maps onto 2^(n-1) .. 2^n - 1, the prose onto 0 .. 2^(n-1) - 1; the same Delta (docs/routing.md)");
	c = add(p, "004", "Sec. 4.2: b maps X and -X to the same number", "n = 2..8, every sign vector");
	SET(c->paper_value, "b(X) = b(-X)");
	SET(c->printed, "b(X) = b(-X)");
	SET(c->mf, "%u of 508 differ", sym);
	c->verdict = sym ? "false" : "holds";
	SET(c->command, "meshfabric analyze --torus 5x5x5 --routing diagonal");

	for (i = 0; i < 5; i++) {
		struct mf_topo t;
		u32 v, r, nodes = 0, caseb = 0, even = 0, printed = 0;
		u64 size[2 * MF_MAX_DIMS], delta;

		if (topo(p, MESHFABRIC_KIND_TORUS, sh[i], &t))
			return;
		/* case 2: r = 1 + (p mod n), p the highest non-maximal dim, as
		 * printed; the prose's reading: the first maximal dimension
		 * after p, cyclically
		 */
		for (v = 1; v < t.nodes; v++) {
			u32 cc[MF_MAX_DIMS], s = 0, k, pdim = 0, m = 0;
			s32 y[MF_MAX_DIMS];
			int port;

			mf_topo_coords(&t, v, cc);
			for (k = 0; k < t.ndims; k++) {
				y[k] = (s32)cc[k] > (s32)t.dims[k] / 2 ?
				       (s32)cc[k] - (s32)t.dims[k] : (s32)cc[k];
				if ((u32)abs(y[k]) > s)
					s = (u32)abs(y[k]);
			}
			for (k = 0; k < t.ndims; k++) {
				m += (u32)abs(y[k]) == s;
				if ((u32)abs(y[k]) < s)
					pdim = k + 1;	/* 1-based */
			}
			if (m == t.ndims)
				continue;	/* case 1 */
			nodes++;
			r = pdim % t.ndims;	/* 0-based 1 + (p mod n) */
			printed += (u32)abs(y[r]) != s;
			while ((u32)abs(y[r]) != s)
				r = (r + 1) % t.ndims;
			port = mf_route_next(&t, MESHFABRIC_ROUTE_DIAGONAL, v, 0);
			caseb += port < 0 || (u32)port / 2 != r;
		}
		SET(cas, "T_%c^%u, every non-diagonal point", sh[i][0], t.ndims);
		c = add(p, "004", "Definition 4 case 2: r = 1 + (p mod n), p the highest non-maximal dimension", cas);
		SET(c->paper_value, "a maximal coordinate");
		SET(c->printed, "%u of %u not maximal", printed, nodes);
		SET(c->mf, "%u of %u route elsewhere", caseb, nodes);
		c->verdict = caseb ? "false" : printed ? "typo" : "holds";
		SET(c->command, "meshfabric route --torus %s --routing diagonal --from 0 --to 7", sh[i]);
		SET(c->note, "as printed r can name a smaller (even a zero) coordinate, e.g. (0, 2, 1); meshfabric takes the first maximal one after p, as the prose says (docs/routing.md); compared with mf_route_next");
		/* X / -X: as many messages leave in +i as in -i */
		if (mf_route_delta(&t, MESHFABRIC_ROUTE_DIAGONAL, &delta, size)) {
			fail(p, -EINVAL, "Delta");
			return;
		}
		for (v = 0; v < t.ndims; v++)
			even += size[2 * v] != size[2 * v + 1];
		SET(cas, "T_%c^%u, diagonal", sh[i][0], t.ndims);
		c = add(p, "004", "Sec. 4.2: as many messages routed in +i as in -i (diagonal)", cas);
		SET(c->paper_value, "|S_+i| = |S_-i|");
		SET(c->printed, "|S_+i| = |S_-i|");
		SET(c->mf, "%u of %u dimensions differ", even, t.ndims);
		c->verdict = even ? "false" : "holds";
		SET(c->command, "meshfabric analyze --torus %s --routing diagonal", sh[i]);
	}
	p004_lambda(p);
}

/* ---- output ---- */

static void print_json(FILE *f, const struct papers *p)
{
	struct mf_json j;
	unsigned int i;

	mf_json_init(&j, f);
	mf_json_arr(&j);
	for (i = 0; i < p->n; i++) {
		const struct claim *c = &p->c[i];

		mf_json_obj(&j);
		mf_json_kv_str(&j, "paper", c->paper);
		mf_json_kv_str(&j, "claim", c->claim);
		mf_json_kv_str(&j, "case", c->cas);
		mf_json_kv_str(&j, "paper_value", c->paper_value);
		mf_json_kv_str(&j, "as_printed", c->printed);
		mf_json_kv_str(&j, "meshfabric", c->mf);
		mf_json_kv_str(&j, "verdict", c->verdict);
		mf_json_kv_str(&j, "command", c->command);
		mf_json_kv_str(&j, "note", c->note);
		mf_json_close(&j);
	}
	mf_json_end(&j);
}

static void print_text(FILE *f, const struct papers *p)
{
	unsigned int i;

	fprintf(f, "%-5s %-58s %-30s %-24s %-24s %-24s %s\n", "PAPER", "CLAIM",
		"CASE", "PAPER VALUE", "AS PRINTED", "MESHFABRIC", "VERDICT");
	for (i = 0; i < p->n; i++) {
		const struct claim *c = &p->c[i];

		fprintf(f, "%-5s %-58s %-30s %-24s %-24s %-24s %s\n", c->paper,
			c->claim, c->cas, c->paper_value, c->printed, c->mf,
			c->verdict);
		fprintf(f, "      $ %s\n", c->command);
	}
}

static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
	}
	fputc(' ', f);
}

static void print_markdown(FILE *f, const struct papers *p)
{
	unsigned int i, k, cnt[4] = { 0 };
	static const char *const verdicts[4] = { "holds", "false", "typo",
						 "not reached" };
	char last[4] = "";

	for (i = 0; i < p->n; i++)
		for (k = 0; k < 4; k++)
			cnt[k] += !strcmp(p->c[i].verdict, verdicts[k]);
	fprintf(f,
		"<!-- Generated by `meshfabric papers --markdown` (make docs/papers.md);\n"
		"     do not edit: scripts/tests.d/30-cli.sh fails if it differs. -->\n"
		"# The papers' claims, computed\n\n"
		"Every numbered claim of the five papers meshfabric implements (000-004:\n"
		"theorems, equations, step counts, examples), computed live by the core.\n"
		"`paper` is the value the paper states, `as printed` the value of its own\n"
		"text read literally (its algorithm as printed, `--algo eyes-paper`, or its\n"
		"formula evaluated), `meshfabric` what meshfabric computes (`eyes` is the\n"
		"optimum, checked by exhaustive search where small), and the command shows\n"
		"it.  The departures are discussed in eyes.md, mintcd.md, tsay-wang.md,\n"
		"hex.md and routing.md.  Verdicts:\n"
		"*holds*, *false* (a different value or a counterexample), *typo* (the\n"
		"paper contradicts itself and one reading holds), *not reached* (a bound\n"
		"no schedule meshfabric builds achieves: that says nothing against the\n"
		"claim; the note gives the counting bound and what is known).  Rows on\n"
		"all-port step counts take the best of `tsay-wang` and `auto`, so they\n"
		"follow `auto` as it improves.  003's global sum is planned as an\n"
		"allreduce by the collectives' core (docs/collectives.md).\n\n"
		"%u claims: %u hold, %u false, %u typos, %u not reached.\n"
		"`meshfabric papers --json` gives the same as JSON.\n",
		p->n, cnt[0], cnt[1], cnt[2], cnt[3]);
	for (i = 0; i < p->n; i++) {
		const struct claim *c = &p->c[i];

		if (strcmp(last, c->paper)) {
			SET(last, "%s", c->paper);
			fprintf(f, "\n## %s: %s\n\n", c->paper,
				paper_titles[c->paper[2] - '0']);
			fprintf(f, "| claim | case | paper | as printed | meshfabric | verdict | command | note |\n");
			fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
		}
		md_cell(f, c->claim);
		md_cell(f, c->cas);
		md_cell(f, c->paper_value);
		md_cell(f, c->printed);
		md_cell(f, c->mf);
		md_cell(f, c->verdict);
		fprintf(f, "| `%s` ", c->command);
		md_cell(f, c->note);
		fputs("|\n", f);
	}
}

/* --paper NNN: which one only (0..4); --markdown is a flag. */
static int papers_opt(void *only, int key, const char *val, char *err,
		      size_t errlen)
{
	if (strlen(val) != 3 || strncmp(val, "00", 2) || val[2] < '0' ||
	    val[2] > '4')
		return mf_err(err, errlen, "unknown paper '%.40s' (000 .. 004)",
			      val);
	*(int *)only = val[2] - '0';
	return 0;
}

static int papers_main(struct mf_ctx *ctx, int argc, char **argv)
{
	static void (*const gen[5])(struct papers *) = { p000, p001, p002,
							 p003, p004 };
	const struct mf_cmd *cmd = &mf_cmd_papers;
	struct papers p = { 0 };
	unsigned int flags = 0;
	int only = -1, rc, i;
	bool markdown;

	rc = mf_args_parse(ctx, argc, argv, NULL, 0, papers_opt, &only,
			   &flags);
	if (rc >= 0)
		return rc;
	markdown = flags & 1u << KEY_MARKDOWN;
	if (markdown && ctx->json)
		return mf_usage(cmd, "--markdown and --json exclude each other");
	for (i = 0; i < 5 && !p.err; i++)
		if (only < 0 || only == i)
			gen[i](&p);
	if (p.err) {
		free(p.c);
		return mf_fail("papers: %s: %s", p.why[0] ? p.why : "computing a claim",
			       mf_strerror(p.err));
	}
	if (ctx->json)
		print_json(ctx->out, &p);
	else if (markdown)
		print_markdown(ctx->out, &p);
	else
		print_text(ctx->out, &p);
	free(p.c);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_papers = {
	.name = "papers",
	.summary = "compute every numbered claim of the five papers (offline)",
	.synopsis = "[--paper NNN] [--json|--markdown]",
	.description =
		"Each claim of papers 000-004 (theorems, equations, step counts,\n"
		"examples) is computed by the core: the paper's value, the value of its\n"
		"text read literally, meshfabric's value, a verdict (holds, false, typo,\n"
		"not reached) and a command line that shows it.\n",
	.opts = papers_opts,
	.run = papers_main,
};
