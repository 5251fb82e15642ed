// SPDX-License-Identifier: GPL-2.0
/*
 * sweep_wormhole.c - wormhole against the counting bound over every mesh
 * or torus shape of d dimensions (sides a <= b <= ..., from --min-side, up
 * to --max-nodes nodes): `make wormhole-sweep ARGS="torus 3"`.  Each
 * schedule passes mf_check with no contention; the shapes above the
 * bound are listed, then one summary line.  docs/wormhole.md's sweeps
 * come from it.  Not part of `make bench` (minutes to hours).
 *
 *   sweep_wormhole KIND D [--min-side N] [--max-nodes N]
 *                  [--from corner|centre|random] [--effort N] [--retry N]
 *
 * --retry N builds each shape left above the bound again at effort N (the
 * same source) and prints its steps there too; the summary counts the
 * shapes still above after that.
 */
#include <stdlib.h>
#include <string.h>
#include "mf_bench.h"
#include "coll.h"
#include "search.h"

struct sweep {
	u32 kind, d, min_side, max_nodes, from, effort, retry;
	u32 dims[MF_MAX_DIMS];
	u64 rng, shapes, above, still;
	double secs, worst, retry_secs;
};

enum { FROM_CORNER, FROM_CENTRE, FROM_RANDOM };

static u32 source(struct sweep *w, const struct mf_topo *t)
{
	u32 c[MF_MAX_DIMS], i;

	if (w->from == FROM_CORNER)
		return 0;
	if (w->from == FROM_RANDOM) {
		w->rng = w->rng * 6364136223846793005ULL + 1442695040888963407ULL;
		return (u32)(w->rng >> 33) % t->nodes;
	}
	for (i = 0; i < t->ndims; i++)
		c[i] = t->dims[i] / 2;
	return mf_topo_id(t, c);
}

/* wormhole from src at effort e into r, checked: valid, no contention */
static int build(struct mf_bench_run *r, u32 src, u32 e)
{
	mf_search_effort = e;
	if (mf_bench_plan(r, MESHFABRIC_ALGO_WORMHOLE, src))
		return 1;
	if (r->st.contention || r->st.sends != r->t.nodes - 1) {
		printf("error: contention %llu, %llu sends\n",
		       (unsigned long long)r->st.contention,
		       (unsigned long long)r->st.sends);
		mf_sched_free(&r->s);
		return 1;
	}
	return 0;
}

/* The shape above the bound again at effort w->retry: its steps there */
static int again(struct sweep *w, struct mf_bench_run *r, u32 src, u32 lb)
{
	struct mf_bench_run r2 = { .t = r->t };

	if (build(&r2, src, w->retry))
		return 1;
	printf("; effort %u: %u steps (%.2f s)", w->retry, r2.st.steps,
	       r2.build);
	w->retry_secs += r2.build;
	if (r2.st.steps > lb)
		w->still++;
	mf_sched_free(&r2.s);
	return 0;
}

static int one(struct sweep *w)
{
	struct mf_bench_run r;
	u32 src, lb, i;

	if (mf_topo_init(&r.t, w->kind, w->d, w->dims))
		return 0;	/* a shape the topology refuses */
	src = source(w, &r.t);
	if (build(&r, src, w->effort))
		return 1;
	lb = mf_allport_bound(&r.t, src);
	w->shapes++;
	w->secs += r.build;
	if (r.build > w->worst)
		w->worst = r.build;
	if (r.st.steps > lb) {
		w->above++;
		for (i = 0; i < w->d; i++)
			printf("%s%u", i ? "x" : "", w->dims[i]);
		printf(" from %u: %u steps, bound %u (%.2f s)", src,
		       r.st.steps, lb, r.build);
		if (w->retry && again(w, &r, src, lb)) {
			mf_sched_free(&r.s);
			return 1;
		}
		printf("\n");
	}
	mf_sched_free(&r.s);
	return 0;
}

/* Sides i.. of every shape, nondecreasing from lo, n nodes so far. */
static int shapes(struct sweep *w, u32 i, u32 lo, u64 n)
{
	u64 m;
	u32 a, j;

	if (i == w->d)
		return one(w);
	for (a = lo;; a++) {
		for (j = i, m = n; j < w->d && m <= w->max_nodes; j++)
			m *= a;
		if (m > w->max_nodes)
			return 0;
		w->dims[i] = a;
		if (shapes(w, i + 1, a, n * a))
			return 1;
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: sweep_wormhole mesh|torus D [--min-side N] [--max-nodes N] [--from corner|centre|random] [--effort N] [--retry N (above the effort)]\n");
	return 2;
}

/* A decimal number of 1 to 9 digits into *v; -1 if s is not one. */
static int num(const char *s, u32 *v)
{
	char *end;
	unsigned long x;

	if (*s < '0' || *s > '9' || strlen(s) > 9)
		return -1;
	x = strtoul(s, &end, 10);
	if (*end)
		return -1;
	*v = (u32)x;
	return 0;
}

int main(int argc, char **argv)
{
	struct sweep w = { .min_side = 2, .max_nodes = 4096, .rng = 12345,
			   .effort = 1 };
	static const char *const from[] = { "corner", "centre", "random" };
	static const char *const said[] = { "node 0", "the centre",
					    "a random node" };
	double t0 = mf_now();
	int i;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "mesh"))
		w.kind = MESHFABRIC_KIND_MESH;
	else if (!strcmp(argv[1], "torus"))
		w.kind = MESHFABRIC_KIND_TORUS;
	else
		return usage();
	if (num(argv[2], &w.d) || w.d < 1 || w.d > MF_MAX_DIMS)
		return usage();
	for (i = 3; i + 1 < argc; i += 2) {
		u32 *v = NULL;

		if (!strcmp(argv[i], "--min-side"))
			v = &w.min_side;
		else if (!strcmp(argv[i], "--max-nodes"))
			v = &w.max_nodes;
		else if (!strcmp(argv[i], "--effort"))
			v = &w.effort;
		else if (!strcmp(argv[i], "--retry"))
			v = &w.retry;
		if (v) {
			if (num(argv[i + 1], v))
				return usage();
		} else if (!strcmp(argv[i], "--from")) {
			for (w.from = 0; w.from < 3 &&
			     strcmp(argv[i + 1], from[w.from]); w.from++)
				;
		} else {
			return usage();
		}
	}
	if (i != argc || w.min_side < 2 || w.max_nodes < 2 || w.from == 3 ||
	    w.effort < 1 || w.effort > MF_SEARCH_EFFORT_MAX ||
	    w.retry > MF_SEARCH_EFFORT_MAX || (w.retry && w.retry <= w.effort))
		return usage();
	if (shapes(&w, 0, w.min_side, 1))
		return 1;
	printf("%s d=%u, sides >= %u, up to %u nodes, from %s, effort %u: %llu shapes, %llu above the counting bound, build %.1f s in all (slowest %.2f s), %.0f s\n",
	       argv[1], w.d, w.min_side, w.max_nodes, said[w.from],
	       w.effort, (unsigned long long)w.shapes,
	       (unsigned long long)w.above, w.secs, w.worst, mf_now() - t0);
	if (w.retry)
		printf("at effort %u: %llu of the %llu still above, build %.1f s in all\n",
		       w.retry, (unsigned long long)w.still,
		       (unsigned long long)w.above, w.retry_secs);
	return 0;
}
