// SPDX-License-Identifier: GPL-2.0
/*
 * bench_coll_min_sat.c - the minimum of allreduce on the 9-node shapes
 * (3x3 mesh and torus) by a SAT solver, where coll_min.h's search cannot
 * finish 5 steps.  An offline discovery tool: test_coll_min.c pins the
 * witness it found (coll_min.h's cm_mesh3x3) and never needs the solver.
 *
 * coll_min.h's model with D steps as CNF: h[t][v][i], node v holds
 * contribution i after step t (t = 0: {v}; t = D: everything);
 * x[t][s][r][p], s sends to r along path p of the model (the core's
 * routed path, or each shortest one) in step t; cp[t][r], r copies (else
 * combines: the sets disjoint, the new set their union); rv[t][r], r
 * receives (else keeps its set).  At most one send per sender, per
 * receiver and per directed link in a step (pairwise).  Optionally no
 * copies and at most so many hops in all (a sequential counter, Sinz
 * 2005).  Solved by CaDiCaL ($CADICAL, default cadical on PATH, with
 * -t seconds); a model is decoded into a schedule and proved by mf_check.
 * Without the solver it says so and exits 0.
 *
 *   bench_coll_min_sat [SECONDS [HOPS]]
 *	SECONDS: the solver's time limit per row (default 300); HOPS: the
 *	last row's bound (default 33; 0: no such row)
 *
 * Rows: D = 4 on both models of the mesh (unsatisfiable: the parity
 * argument of test_coll_min.c, confirmed by the solver), D = 5 on both
 * shapes and models, D = 5 on the mesh's routed paths without copies,
 * then also within HOPS hops in all, its witness printed as coll_min.h's
 * table (exactly the one it pins; 20 to 40 s on this host).  Columns: the CNF's
 * variables and clauses, the seconds to encode and solve, the answer,
 * and the witness's steps, sends, hops and contention from mf_check.
 */
#include <stdarg.h>
#include <unistd.h>

#include "mf_bench.h"
#include "tests/coll_min.h"

static double limit = 300;

struct enc {
	const struct cm_shape *sh;
	u32 n, d;
	int nv;
	long ncl;
	FILE *f;			/* the clauses, the header comes last */
	int h[CM_MAXD + 1][CM_MAXN][CM_MAXN];
	int x[CM_MAXD + 1][CM_MAXN][CM_MAXN][CM_MAXP];
	int cp[CM_MAXD + 1][CM_MAXN], rv[CM_MAXD + 1][CM_MAXN];
};

/* One clause: its literals up to a 0. */
static void clause(struct enc *e, int lit, ...)
{
	va_list ap;

	va_start(ap, lit);
	for (; lit; lit = va_arg(ap, int))
		fprintf(e->f, "%d ", lit);
	va_end(ap);
	fputs("0\n", e->f);
	e->ncl++;
}

/* At most one of lit[0..k). */
static void at_most_one(struct enc *e, const int *lit, u32 k)
{
	u32 i, j;

	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
			clause(e, -lit[i], -lit[j], 0);
}

/* sum of w[i] over the true lit[i] <= bound (>= 1): the sequential
 * counter over each literal repeated w[i] times; r(i, j): at least j + 1
 * of the first i + 1 are true.
 */
static int at_most(struct enc *e, const int *lit, const u32 *w, u32 k,
		   u32 bound)
{
	u32 m = 0, i, j;
	int *seq, *r;

	for (i = 0; i < k; i++)
		m += w[i];
	if (bound >= m)
		return 0;
	seq = calloc(m, sizeof(*seq));
	r = calloc((size_t)m * bound, sizeof(*r));
	if (!seq || !r) {
		free(seq);
		free(r);
		return -ENOMEM;
	}
	for (m = 0, i = 0; i < k; i++)
		for (j = 0; j < w[i]; j++)
			seq[m++] = lit[i];
	for (i = 0; i < m * bound; i++)
		r[i] = ++e->nv;
	for (i = 0; i < m; i++) {
		int x = seq[i], *ri = r + i * bound, *rp = ri - bound;

		clause(e, -x, ri[0], 0);
		if (!i)
			continue;
		for (j = 0; j < bound; j++)
			clause(e, -rp[j], ri[j], 0);
		for (j = 1; j < bound; j++)
			clause(e, -x, -rp[j - 1], ri[j], 0);
		clause(e, -x, -rp[bound - 1], 0);
	}
	free(seq);
	free(r);
	return 0;
}

/* Every send of the model: sender s, receiver r, path p. */
#define for_each_send(e, s, r, p) \
	for (s = 0; s < (e)->n; s++) \
		for (r = 0; r < (e)->n; r++) \
			for (p = 0; s != r && p < (e)->sh->npath[s][r]; p++)

/* The CNF of D steps on sh, with no copies if nocopy and at most hops
 * hops in all if hops: 0 or -errno.
 */
static int encode(struct enc *e, const struct cm_shape *sh, u32 d,
		  bool nocopy, u32 hops)
{
	static int lit[CM_MAXD * CM_MAXN * CM_MAXN * CM_MAXP];
	static u32 wt[CM_MAXD * CM_MAXN * CM_MAXN * CM_MAXP];
	u32 n = sh->n, t, s, r, p, i, l, k;

	memset(e, 0, sizeof(*e));
	e->sh = sh;
	e->n = n;
	e->d = d;
	e->f = tmpfile();
	if (!e->f)
		return -errno;
	for (t = 0; t <= d; t++)
		for (r = 0; r < n; r++)
			for (i = 0; i < n; i++)
				e->h[t][r][i] = ++e->nv;
	for (t = 1; t <= d; t++) {
		for_each_send(e, s, r, p)
			e->x[t][s][r][p] = ++e->nv;
		for (r = 0; r < n; r++) {
			e->cp[t][r] = ++e->nv;
			e->rv[t][r] = ++e->nv;
		}
	}
	for (r = 0; r < n; r++) {
		for (i = 0; i < n; i++) {
			clause(e, i == r ? e->h[0][r][i] : -e->h[0][r][i], 0);
			clause(e, e->h[d][r][i], 0);
		}
	}
	for (t = 1; t <= d; t++) {
		/* one-port: per receiver (rv: it receives), per sender */
		for (r = 0; r < n; r++) {
			for (k = 0, s = 0; s < n; s++)
				for (p = 0; s != r && p < sh->npath[s][r]; p++)
					lit[k++] = e->x[t][s][r][p];
			at_most_one(e, lit, k);
			for (i = 0; i < k; i++)
				clause(e, -lit[i], e->rv[t][r], 0);
			for (i = 0; i < k; i++)
				fprintf(e->f, "%d ", lit[i]);
			fprintf(e->f, "%d 0\n", -e->rv[t][r]);
			e->ncl++;
			for (i = 0; i < n; i++) {
				int hn = e->h[t][r][i], ho = e->h[t - 1][r][i];

				clause(e, e->rv[t][r], -hn, ho, 0);
				clause(e, e->rv[t][r], hn, -ho, 0);
			}
			if (nocopy)
				clause(e, -e->cp[t][r], 0);
		}
		for (s = 0; s < n; s++) {
			for (k = 0, r = 0; r < n; r++)
				for (p = 0; s != r && p < sh->npath[s][r]; p++)
					lit[k++] = e->x[t][s][r][p];
			at_most_one(e, lit, k);
		}
		/* contention-free */
		for (l = 0; l < sh->nlinks; l++) {
			k = 0;
			for_each_send(e, s, r, p)
				if (sh->links[s][r][p] >> l & 1)
					lit[k++] = e->x[t][s][r][p];
			at_most_one(e, lit, k);
		}
		/* combine: disjoint, the union; copy: the sender's set */
		for_each_send(e, s, r, p) {
			int x = e->x[t][s][r][p], cp = e->cp[t][r];

			for (i = 0; i < n; i++) {
				int hn = e->h[t][r][i], hr = e->h[t - 1][r][i];
				int hs = e->h[t - 1][s][i];

				clause(e, -x, cp, -hn, hr, hs, 0);
				clause(e, -x, cp, hn, -hr, 0);
				clause(e, -x, cp, hn, -hs, 0);
				clause(e, -x, cp, -hr, -hs, 0);
				clause(e, -x, -cp, -hn, hs, 0);
				clause(e, -x, -cp, hn, -hs, 0);
			}
		}
	}
	if (!hops)
		return 0;
	k = 0;
	for (t = 1; t <= d; t++) {
		for_each_send(e, s, r, p) {
			lit[k] = e->x[t][s][r][p];
			wt[k++] = sh->hops[s][r][p];
		}
	}
	return at_most(e, lit, wt, k, hops);
}

/* Write e's CNF to path: 0 or -errno. */
static int write_cnf(struct enc *e, const char *path)
{
	FILE *f = fopen(path, "w");
	char buf[1 << 16];
	size_t k;
	int ret = 0;

	if (!f)
		return -errno;
	fprintf(f, "p cnf %d %ld\n", e->nv, e->ncl);
	rewind(e->f);
	while ((k = fread(buf, 1, sizeof(buf), e->f)) > 0)
		if (fwrite(buf, 1, k, f) != k)
			ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret;
}

/* Solve e with the solver: 10 (satisfiable, val[] the model), 20
 * (unsatisfiable), 0 (unknown: the time limit), or -errno.
 */
static int solve(struct enc *e, const char *solver, bool *val)
{
	char path[] = "/tmp/mf_coll_min_XXXXXX", cmd[256], line[1 << 12];
	int fd = mkstemp(path), ret = 0, status;
	FILE *f;

	if (fd < 0)
		return -errno;
	close(fd);
	ret = write_cnf(e, path);
	snprintf(cmd, sizeof(cmd), "%s -q -t %d %s", solver, (int)limit, path);
	f = ret ? NULL : popen(cmd, "r");
	if (!ret && !f)
		ret = -errno;
	while (f && fgets(line, sizeof(line), f)) {
		char *tok;

		if (!strncmp(line, "s SATISFIABLE", 13))
			ret = 10;
		else if (!strncmp(line, "s UNSATISFIABLE", 15))
			ret = 20;
		if (line[0] != 'v')
			continue;
		for (tok = strtok(line + 1, " \n"); tok; tok = strtok(NULL, " \n")) {
			int v = atoi(tok);

			if (v > 0 && v <= e->nv)
				val[v] = true;
		}
	}
	if (f) {
		status = pclose(f);
		/* CaDiCaL exits 10 or 20 with an answer, 0 if unknown */
		if (ret > 0 && status != ret << 8)
			ret = -EPROTO;
	}
	unlink(path);
	return ret;
}

/* The model's steps into c (as coll_min.h's witness). */
static void decode(const struct enc *e, const bool *val, struct cm_search *c)
{
	u32 t, s, r, p;

	memset(c, 0, sizeof(*c));
	c->sh = e->sh;
	c->n = e->n;
	c->depth = e->d;
	for (t = 1; t <= e->d; t++) {
		struct cm_step *st = &c->w[t - 1];

		memset(st->snd, 0xff, sizeof(st->snd));
		for_each_send(e, s, r, p) {
			if (!val[e->x[t][s][r][p]])
				continue;
			st->snd[r] = (u8)s;
			st->pid[r] = (u8)p;
			st->comb[r] = !val[e->cp[t][r]];
		}
	}
}

/* One row: D steps on t's model where, with the options: the answer
 * and the witness's statistics (mf_check's, which must accept it);
 * table: the witness printed as coll_min.h's table.  0 or an error.
 */
static int row(const struct mf_topo *t, u32 where, u32 d, bool nocopy,
	       u32 hops, bool table, const char *solver)
{
	static const char *const wn[] = { "any", "routed", "shortest" };
	struct mf_stats st = { 0 };
	struct cm_search c;
	struct cm_shape sh;
	struct mf_sched s;
	struct enc *e = calloc(1, sizeof(*e));
	char name[32], opts[32], err[160] = "";
	double t0 = mf_now();
	bool *val = NULL;
	u32 r, i;
	int ret;

	if (!e)
		return -ENOMEM;
	ret = cm_shape(&sh, t, where);
	if (!ret)
		ret = encode(e, &sh, d, nocopy, hops);
	if (!ret) {
		val = calloc((size_t)e->nv + 1, sizeof(*val));
		ret = val ? solve(e, solver, val) : -ENOMEM;
	}
	cm_shape_name(t, name, sizeof(name));
	if (hops)
		snprintf(opts, sizeof(opts), "%s, <= %u hops",
			 nocopy ? "no copy" : "copies", hops);
	else
		snprintf(opts, sizeof(opts), "%s", nocopy ? "no copy" : "-");
	printf("%-10s %-8s %2u %-22s %8d %8ld %8.2f  ", name, wn[where], d,
	       opts, e->nv, e->ncl, mf_now() - t0);
	if (ret == 10) {
		decode(e, val, &c);
		ret = cm_sched(t, &c, d, &s);
		if (!ret)
			ret = mf_check(t, &s, &st, err, sizeof(err));
		mf_sched_free(&s);
		if (ret)
			printf("INVALID %d %s\n", ret, err);
		else
			printf("sat    %5u %5u %5llu %5llu\n", st.steps, st.sends,
			       (unsigned long long)st.tcd,
			       (unsigned long long)st.contention);
	} else if (ret == 20) {
		printf("unsat\n");
		ret = 0;
	} else if (ret == 0) {
		printf("unknown (time limit)\n");
	} else {
		printf("error %d\n", ret);
	}
	if (!ret && table && st.steps) {
		for (i = 0; i < d; i++)
			for (r = 0; r < sh.n; r++)
				if (c.w[i].snd[r] != 0xff)
					printf("\t{ %u, %u, %u, %u },\n", i,
					       c.w[i].snd[r], r, c.w[i].comb[r]);
	}
	fflush(stdout);
	if (e->f)
		fclose(e->f);
	free(val);
	free(e);
	cm_group_free(&sh);
	return ret;
}

int main(int argc, char **argv)
{
	const char *solver = getenv("CADICAL") ? getenv("CADICAL") : "cadical";
	u32 dims[2] = { 3, 3 }, kind, w, hops = 33;
	struct mf_topo t;
	char cmd[160];
	int bad = 0;

	if (argc > 1)
		limit = atof(argv[1]);
	if (argc > 2)
		hops = (u32)atoi(argv[2]);
	snprintf(cmd, sizeof(cmd), "%s --version >/dev/null 2>&1", solver);
	if (system(cmd)) {
		printf("%s not found: skipped (apt-get install cadical)\n", solver);
		return 0;
	}
	printf("%-10s %-8s %2s %-22s %8s %8s %8s  %-6s %5s %5s %5s %5s\n",
	       "shape", "model", "D", "constraints", "vars", "clauses",
	       "seconds", "answer", "steps", "sends", "hops", "cont");
	if (mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims))
		return 1;
	for (w = CM_ROUTE; w <= CM_SHORTEST; w++)
		bad |= row(&t, w, 4, false, 0, false, solver);
	for (kind = MESHFABRIC_KIND_MESH; kind <= MESHFABRIC_KIND_TORUS; kind++) {
		if (mf_topo_init(&t, kind, 2, dims))
			return 1;
		for (w = CM_ROUTE; w <= CM_SHORTEST; w++)
			bad |= row(&t, w, 5, false, 0, false, solver);
	}
	if (mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims))
		return 1;
	bad |= row(&t, CM_ROUTE, 5, true, 0, false, solver);
	if (hops)
		bad |= row(&t, CM_ROUTE, 5, true, hops, true, solver);
	return bad ? 1 : 0;
}
