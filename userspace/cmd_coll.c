// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_coll.c - `meshfabric coll NAME OP`: one collective executed by
 * meshfabric.ko (COLLECTIVE ioctl) on every node of a fabric, with the
 * kernel's results, fabric time and statistics.
 *
 * auto and tree are planned here, as `meshfabric plan --coll` plans them
 * (the core's mf_coll_plan, with the broadcast searches the module lacks),
 * on the fabric's links as the kernel times them, and handed to the
 * kernel encoded (core/schedcode.h) with MESHFABRIC_CALGO_USER: the kernel
 * decodes it, checks it with the core's checker and runs it, so that its
 * fabric time is plan's.  --in-kernel and the other algorithms: the
 * kernel's own builders.
 *
 * The inputs are the kernel's generator (the uapi's formula, default) or
 * --input FILE.  The results are checked twice: the kernel compares
 * them with its direct computation ("kernel_match"), and this command
 * computes the direct results itself, from the generator's formula or
 * the file, with its own integer arithmetic (direct() below, not the
 * core's), and compares every defined element ("match": both agree).
 *
 * JSON, one line, stable (the coll-bench reads it; meshfabric(8)):
 *   {"fabric":"t","collective":"allreduce","op":"sum","type":"s64",
 *    "count":N,"bytes":B,"input":"generator"|"file","algo":"swing",
 *    "planned":"here"|"kernel"|"file","root":0,"nodes":16,"blocks":16,
 *    "steps":8,"sends":128,"tcd":...,
 *    "max_link_load":1,"contention":0,"frames":...,"link_bytes":...,
 *    "max_link_bytes":...,"delivered":16,"elapsed_ns":...,
 *    "fabric_ns":...,"step_ns":[...],"digest":"0x...",
 *    "kernel_match":true,"match":true,
 *    "results":[[...],...] (with --results)}
 * fabric_ns and step_ns are 0 on a fabric without timed links; algo is
 * "user" for a --schedule FILE ("planned":"file").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "coll.h"
#include "dev.h"
#include "json.h"
#include "parse.h"
#include "schedcode.h"
#include "schedfile.h"

enum { KEY_OP = 1, KEY_TYPE, KEY_COUNT, KEY_INPUT, KEY_ALGO, KEY_ROOT,
       KEY_ETHERTYPE, KEY_STEPS, KEY_RESULTS, KEY_IN_KERNEL, KEY_SCHEDULE };

static const struct mf_opt coll_opts[] = {
	{ "op", 0, "OP", KEY_OP,
	  "reductions: sum (default), min, max, band, bor, bxor" },
	{ "type", 0, "TYPE", KEY_TYPE, "s32, u32, s64 (default), u64" },
	{ "count", 0, "N", KEY_COUNT, "elements of each node's vector (default 1)" },
	{ "input", 0, "FILE", KEY_INPUT,
	  "inputs: one line per node of N integers (- for stdin); default the generator" },
	{ "algo", 0, "ALGO", KEY_ALGO,
	  "auto (default), tree, ring, recdbl, rabenseifner, bucket, swing, "
	  "swing-lat, shift, 003" },
	{ "root", 0, "NODE", KEY_ROOT,
	  "reduce, gather, scatter, broadcast: the root (default 0)" },
	{ "ethertype", 0, "TYPE", KEY_ETHERTYPE,
	  "Ethernet type of the frames, 0x0600..0xffff (default 0x88b6)" },
	{ "steps", 0, NULL, KEY_STEPS, "print each step's fabric time" },
	{ "results", 0, NULL, KEY_RESULTS, "print every node's result" },
	{ "schedule", 0, "FILE", KEY_SCHEDULE,
	  "run this schedule (plan --coll --steps --json; - for stdin), checked by the kernel" },
	{ "in-kernel", 0, NULL, KEY_IN_KERNEL,
	  "auto, tree: let the kernel plan with its own builders (no broadcast searches)" },
	{ NULL, 0, NULL, 0, NULL }
};

struct coll_args {
	const char *name, *coll, *root, *input, *schedule;
	u32 op, type, count, algo, etype;
	bool algo_set;
};

static int coll_opt(void *st, int key, const char *val, char *err,
		    size_t errlen)
{
	struct coll_args *o = st;
	char *end;
	unsigned long x;
	int r;

	switch (key) {
	case MF_ARG_POSITIONAL:
		if (!o->name)
			return mf_arg_name(&o->name, val, err, errlen);
		if (o->coll)
			return mf_err(err, errlen, "unexpected argument '%.40s'", val);
		o->coll = val;
		return 0;
	case KEY_OP:
		r = mf_rop_by_name(val);
		if (r < 0)
			return mf_err(err, errlen, "--op '%.40s': want sum, min, max, band, bor or bxor", val);
		o->op = r;
		return 0;
	case KEY_TYPE:
		r = mf_rtype_by_name(val);
		if (r == -EOPNOTSUPP)
			return mf_err(err, errlen, "--type %.40s: floating point is refused; the kernel combines integers only (s32, u32, s64, u64)", val);
		if (r < 0)
			return mf_err(err, errlen, "--type '%.40s': want s32, u32, s64 or u64", val);
		o->type = r;
		return 0;
	case KEY_COUNT:
		if (mf_parse_u32(val, 1, MESHFABRIC_COLL_MAX_BYTES / 4, &o->count))
			return mf_err(err, errlen, "--count '%.40s': want 1..%u",
				      val, MESHFABRIC_COLL_MAX_BYTES / 4);
		return 0;
	case KEY_INPUT:
		o->input = val;
		return 0;
	case KEY_ALGO:
		r = mf_calgo_by_name(val);
		if (r < 0)
			return mf_err(err, errlen, "--algo '%.40s': want auto, tree, ring, recdbl, rabenseifner, bucket, swing, swing-lat, shift or 003", val);
		o->algo = r;
		o->algo_set = true;
		return 0;
	case KEY_ROOT:
		o->root = val;
		return 0;
	case KEY_SCHEDULE:
		o->schedule = val;
		return 0;
	}
	x = strtoul(val, &end, 0);	/* KEY_ETHERTYPE */
	if (!*val || *end || x < 0x600 || x > 0xffff)
		return mf_err(err, errlen, "--ethertype '%.40s': want 0x0600..0xffff", val);
	o->etype = (u32)x;
	return 0;
}

/* One element as u64 (sign-extended for s32) and back. */
static u64 elem_get(const void *p, u32 type, size_t i)
{
	switch (type) {
	case MF_RTYPE_S32:
		return (u64)(s64)((const int32_t *)p)[i];
	case MF_RTYPE_U32:
		return ((const uint32_t *)p)[i];
	}
	return ((const uint64_t *)p)[i];
}

static void elem_set(void *p, u32 type, size_t i, u64 v)
{
	if (mf_rtype_size(type) == 4)
		((uint32_t *)p)[i] = (uint32_t)v;
	else
		((uint64_t *)p)[i] = v;
}

/* The uapi's generator, written again here. */
static u64 gen(u32 type, u32 v, u32 j)
{
	u64 x = (u64)(v + 1) * 0x9e3779b97f4a7c15ULL +
		(u64)j * 0xd1b54a32d192ed03ULL;

	if (mf_rtype_size(type) == 4)
		x >>= 32;
	return type == MF_RTYPE_S32 ? (u64)(s64)(int32_t)(uint32_t)x : x;
}

/* a op b on values of type (as elem_get returns them). */
static u64 op1(u32 op, u32 type, u64 a, u64 b)
{
	bool sgn = type == MF_RTYPE_S32 || type == MF_RTYPE_S64;
	bool less = sgn ? (s64)b < (s64)a : b < a;

	switch (op) {
	case MF_ROP_SUM:
		return a + b;
	case MF_ROP_MIN:
		return less ? b : a;
	case MF_ROP_MAX:
		return less || a == b ? a : b;
	case MF_ROP_BAND:
		return a & b;
	case MF_ROP_BOR:
		return a | b;
	}
	return a ^ b;
}

/* Read n vectors of count integers of type from file (one line each). */
static int read_input(const char *file, u32 n, u32 count, u32 type, void *in)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *p, *end;
	size_t cap = 0;
	u32 v = 0, j;
	int r = 0;

	if (!f)
		return mf_fail("%.80s: %s", file, strerror(errno));
	while (!r && v < n && getline(&line, &cap, f) >= 0) {
		p = line;
		for (j = 0; j < count && !r; j++) {
			errno = 0;
			if (type == MF_RTYPE_S32 || type == MF_RTYPE_S64) {
				long long x = strtoll(p, &end, 0);

				if (type == MF_RTYPE_S32 &&
				    (x < INT32_MIN || x > INT32_MAX))
					errno = ERANGE;
				elem_set(in, type, (size_t)v * count + j, (u64)x);
			} else {
				unsigned long long x;

				while (*p == ' ' || *p == '\t')
					p++;
				x = strtoull(p, &end, 0);
				if (*p == '-' ||
				    (type == MF_RTYPE_U32 && x > UINT32_MAX))
					errno = ERANGE;
				elem_set(in, type, (size_t)v * count + j, x);
			}
			if (end == p || errno)
				r = mf_fail("%.80s:%u: want %u integers of type %s",
					    file, v + 1, count, mf_rtype_name(type));
			p = end;
		}
		while (!r && (*p == ' ' || *p == '\t' || *p == '\n'))
			p++;
		if (!r && *p)
			r = mf_fail("%.80s:%u: more than %u integers", file,
				    v + 1, count);
		v++;
	}
	if (!r && v < n)
		r = mf_fail("%.80s: %u lines, want %u (one per node)", file, v, n);
	free(line);
	if (f != stdin)
		fclose(f);
	return r;
}

/* The node whose input node v ends with in block b of nb, REDUCED, or
 * NONE (the uapi's definitions).
 */
#define NONE	(-1)
#define REDUCED	(-2)
static long long want(u32 coll, u32 n, u32 root, u32 nb, u32 v, u32 b)
{
	u32 per = nb / n, k = nb / n / (n ? n : 1);

	switch (coll) {
	case MF_COLL_BCAST:
		return root;
	case MF_COLL_REDUCE:
		return v == root ? REDUCED : NONE;
	case MF_COLL_ALLREDUCE:
		return REDUCED;
	case MF_COLL_REDUCE_SCATTER:
		return b / per == v ? REDUCED : NONE;
	case MF_COLL_ALLGATHER:
		return b / per;
	case MF_COLL_GATHER:
		return v == root ? (long long)(b / per) : NONE;
	case MF_COLL_SCATTER:
		return b / per == v ? (long long)root : NONE;
	}
	return (b / k) % n == v ? (long long)(b / (n * k)) : NONE;
}

/* Every node's result against the direct computation from in. */
static bool direct(const struct meshfabric_collective *c, u32 n,
		   const void *in, const void *out)
{
	u32 count = c->count, nb = c->nblocks ? c->nblocks : 1, v, b, j, w;
	u64 x, got, expect;
	long long who;

	/* blocks owned by nodes: nblocks a multiple of N (N^2, alltoall) */
	if (!c->nblocks || (c->coll != MF_COLL_BCAST && c->coll != MF_COLL_REDUCE &&
			    c->coll != MF_COLL_ALLREDUCE &&
			    nb % (c->coll == MF_COLL_ALLTOALL ? n * n : n)))
		return false;
	for (v = 0; v < n; v++) {
		for (b = 0; b < nb; b++) {
			who = want(c->coll, n, c->root, nb, v, b);
			for (j = (u32)((u64)b * count / nb);
			     j < (u64)(b + 1) * count / nb; j++) {
				got = elem_get(out, c->type, (size_t)v * count + j);
				if (who == NONE) {
					expect = 0;
				} else if (who == REDUCED) {
					expect = elem_get(in, c->type, j);
					for (w = 1; w < n; w++) {
						x = elem_get(in, c->type,
							     (size_t)w * count + j);
						expect = op1(c->op, c->type,
							     expect, x);
					}
				} else {
					expect = elem_get(in, c->type,
							  (size_t)who * count + j);
				}
				if (mf_rtype_size(c->type) == 4)
					expect &= 0xffffffffULL, got &= 0xffffffffULL;
				if (got != expect)
					return false;
			}
		}
	}
	return true;
}

static u64 fnv(const unsigned char *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static void print_elem(FILE *f, u32 type, u64 x)
{
	if (type == MF_RTYPE_S32 || type == MF_RTYPE_S64)
		fprintf(f, "%lld", (long long)(type == MF_RTYPE_S32 ?
				     (s64)(int32_t)x : (s64)x));
	else
		fprintf(f, "%llu", (unsigned long long)(type == MF_RTYPE_U32 ?
				     (uint32_t)x : x));
}

struct coll_report {
	const struct meshfabric_info *in;
	u32 algo;		/* the algorithm run (planned here: ours) */
	const char *planned;	/* here, kernel or file */
	const struct meshfabric_collective *c;
	const struct coll_args *o;
	const u64 *step_ns;
	const void *out;
	bool match, steps, results;
};

static void print_json(struct mf_ctx *ctx, const struct coll_report *r)
{
	const struct meshfabric_collective *c = r->c;
	u32 n = r->in->nodes, i, v, j;
	struct mf_json js;
	char dg[24];

	mf_json_init(&js, ctx->out);
	mf_json_obj(&js);
	mf_json_kv_str(&js, "fabric", (const char *)r->in->name);
	mf_json_kv_str(&js, "collective", mf_coll_name(c->coll));
	mf_json_kv_str(&js, "op", mf_rop_name(c->op));
	mf_json_kv_str(&js, "type", mf_rtype_name(c->type));
	mf_json_kv_u64(&js, "count", c->count);
	mf_json_kv_u64(&js, "bytes", (u64)c->count * mf_rtype_size(c->type));
	mf_json_kv_str(&js, "input", r->o->input ? "file" : "generator");
	mf_json_kv_str(&js, "algo", mf_calgo_name(r->algo) ?: "user");
	mf_json_kv_str(&js, "planned", r->planned);
	mf_json_kv_u64(&js, "root", c->root);
	mf_json_kv_u64(&js, "nodes", n);
	mf_json_kv_u64(&js, "blocks", c->nblocks);
	mf_json_kv_u64(&js, "steps", c->steps);
	mf_json_kv_u64(&js, "sends", c->sends);
	mf_json_kv_u64(&js, "tcd", c->tcd);
	mf_json_kv_u64(&js, "max_link_load", c->max_link_load);
	mf_json_kv_u64(&js, "contention", c->contention);
	mf_json_kv_u64(&js, "frames", c->frames);
	mf_json_kv_u64(&js, "link_bytes", c->link_bytes);
	mf_json_kv_u64(&js, "max_link_bytes", c->max_link_bytes);
	mf_json_kv_u64(&js, "delivered", c->delivered);
	mf_json_kv_u64(&js, "elapsed_ns", c->elapsed_ns);
	mf_json_kv_u64(&js, "fabric_ns", c->fabric_time_ns);
	mf_json_key(&js, "step_ns");
	mf_json_arr(&js);
	for (i = 0; i < c->steps; i++)
		mf_json_u64(&js, r->step_ns[i]);
	mf_json_close(&js);
	snprintf(dg, sizeof(dg), "0x%016llx", (unsigned long long)c->digest);
	mf_json_kv_str(&js, "digest", dg);
	mf_json_kv_bool(&js, "kernel_match", c->match);
	mf_json_kv_bool(&js, "match", r->match);
	if (r->results) {
		mf_json_key(&js, "results");
		mf_json_arr(&js);
		for (v = 0; v < n; v++) {
			mf_json_arr(&js);
			for (j = 0; j < c->count; j++) {
				u64 x = elem_get(r->out, c->type,
						 (size_t)v * c->count + j);

				if (c->type == MF_RTYPE_S32 ||
				    c->type == MF_RTYPE_S64)
					mf_json_s64(&js, (s64)x);
				else
					mf_json_u64(&js, x);
			}
			mf_json_close(&js);
		}
		mf_json_close(&js);
	}
	mf_json_close(&js);
	mf_json_end(&js);
}

static void print_text(struct mf_ctx *ctx, const struct coll_report *r)
{
	const struct meshfabric_collective *c = r->c;
	u32 n = r->in->nodes, i, v, j;
	struct meshfabric_tunnel tu;
	FILE *f = ctx->out;

	fprintf(f, "collective       %s", mf_coll_name(c->coll));
	if (c->coll >= MF_COLL_REDUCE && c->coll <= MF_COLL_REDUCE_SCATTER)
		fprintf(f, " (%s)", mf_rop_name(c->op));
	fprintf(f, " on %s, %u nodes, %u x %s (%llu bytes), %s inputs\n",
		(const char *)r->in->name, n, c->count, mf_rtype_name(c->type),
		(unsigned long long)c->count * mf_rtype_size(c->type),
		r->o->input ? "file" : "generated");
	fprintf(f, "algorithm        %.80s, %u blocks, root %u (%s)\n",
		mf_calgo_name(r->algo) ?: r->o->schedule, c->nblocks, c->root,
		!strcmp(r->planned, "kernel") ? "planned by the kernel" :
		"checked by the kernel");
	fprintf(f, "steps            %u\nsends            %u\ntcd              %llu\n"
		"max link load    %u\ncontention       %llu\n", c->steps, c->sends,
		(unsigned long long)c->tcd, c->max_link_load,
		(unsigned long long)c->contention);
	fprintf(f, "frames           %llu link crossings, %llu bytes (most on one link %llu)\n",
		(unsigned long long)c->frames, (unsigned long long)c->link_bytes,
		(unsigned long long)c->max_link_bytes);
	memset(&tu, 0, sizeof(tu));
	tu.id = c->id;
	fprintf(f, "delivered        %u of %u results%s\n", c->delivered, n,
		mf_dev_tunnel_get(&tu) ? "" :
		" (split over hosts: this host's nodes; the others' there)");
	fprintf(f, "elapsed          %.1f us\n", (double)c->elapsed_ns / 1000.0);
	if (c->fabric_time_ns)
		fprintf(f, "fabric time      %llu ns\n",
			(unsigned long long)c->fabric_time_ns);
	if (r->steps)
		for (i = 0; i < c->steps; i++)
			fprintf(f, "  step %u done at %llu ns\n", i + 1,
				(unsigned long long)r->step_ns[i]);
	fprintf(f, "match            %s (kernel %s, direct here %s)\n",
		r->match && c->match ? "yes" : "NO", c->match ? "yes" : "no",
		r->match ? "yes" : "no");
	fprintf(f, "digest           0x%016llx\n", (unsigned long long)c->digest);
	if (!r->results)
		return;
	for (v = 0; v < n; v++) {
		fprintf(f, "node %u:", v);
		for (j = 0; j < c->count; j++) {
			fputc(' ', f);
			print_elem(f, c->type,
				   elem_get(r->out, c->type, (size_t)v * c->count + j));
		}
		fputc('\n', f);
	}
}

static void link_model(const void *ctx, u64 l, struct mf_link_model *out)
{
	const struct meshfabric_link_info *e = ctx;

	out->rate = e[l].rate;
	out->delay_ns = e[l].delay_ns;
}

/* What the kernel's own builders may plan otherwise (auto, tree: the
 * broadcast searches are the tool's only), planned into s here as
 * `meshfabric plan --coll` does, on the fabric's links as the kernel times
 * them; *algo: the algorithm.  0, or the exit status of the failure.
 */
static int plan_here(const struct meshfabric_info *in, const struct mf_topo *t,
		     const struct coll_args *o, u32 coll, u32 root,
		     struct mf_sched *s, u32 *algo)
{
	u32 es = mf_rtype_size(o->type), n = 0, i;
	struct mf_coll_req rq = { .coll = coll, .algo = o->algo, .root = root,
				  .bytes = (u64)o->count * es, .esize = es };
	struct meshfabric_link_info *e = NULL;
	struct meshfabric_link_get lg;
	struct mf_coll_result res;
	struct mf_timing tm;
	bool timed = false;
	int r;

	if (!mf_dev_link_get(in->id, &e, &n, &lg)) {
		for (i = 0; i < n; i++)
			timed |= e[i].rate || e[i].delay_ns || e[i].loss;
		tm = (struct mf_timing){ .switching = lg.switching,
					 .bytes = MESHFABRIC_COLL_FRAME_HDR,
					 .get = link_model, .ctx = e };
		rq.tm = timed ? &tm : NULL;
	}
	r = mf_coll_plan(t, &rq, s, &res);
	free(e);
	*algo = res.algo;
	if (r == -EOPNOTSUPP)
		return mf_fail("%s", res.why);
	if (r == -EPROTO)
		return mf_fail("%s produced an invalid schedule: %s",
			       mf_calgo_name(res.algo), res.why);
	if (r)
		return mf_fail("%s %s: %s", mf_calgo_name(o->algo),
			       mf_coll_name(coll), mf_strerror(r));
	return 0;
}

/* s encoded for MESHFABRIC_CALGO_USER into *code (*len bytes); 0, or the
 * exit status of the failure.
 */
static int encode_user(const struct mf_topo *t, const struct mf_sched *s,
		       const char *what, u8 **code, size_t *len)
{
	s64 r;

	*len = mf_coll_code_len(t, s);
	*code = malloc(*len ? *len : 1);
	r = *code ? mf_coll_encode(t, s, *code, *len) : -ENOMEM;
	if (r < 0)
		return mf_fail("the %.80s schedule: %s%s", what,
			       mf_strerror((int)r), r == -EINVAL ?
			       " (a send without blocks, or copying and combining, or a path off the links)" :
			       "");
	if (*len > MESHFABRIC_SCHED_CODE_MAX)
		return mf_fail("the %.80s schedule: %zu bytes encoded, above the kernel's %u",
			       what, *len, MESHFABRIC_SCHED_CODE_MAX);
	return 0;
}

static int coll_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_coll;
	struct coll_args o = { .op = MF_ROP_SUM, .type = MF_RTYPE_S64,
			       .count = 1, .algo = MF_CALGO_AUTO };
	struct meshfabric_collective c;
	struct meshfabric_info in;
	struct mf_topo t;
	unsigned int flags = 0;
	void *inb = NULL, *out = NULL;
	u64 *step_ns = NULL;
	char err[256], why[160] = "";
	u32 root = 0, v, j, es, algo, nsteps;
	size_t bytes, code_len = 0;
	struct mf_sched us;
	u8 *code = NULL;
	bool here, user;
	int r, coll;

	r = mf_args_parse(ctx, argc, argv, NULL, MF_ARGS_POSITIONAL, coll_opt,
			  &o, &flags);
	if (r >= 0)
		return r;
	if (o.name && !o.coll)
		return mf_usage(cmd, "which collective? (allreduce, reduce, reduce-scatter, allgather, gather, scatter, alltoall, broadcast)");
	coll = o.coll ? mf_coll_by_name(o.coll) : 0;
	if (coll < 0)
		return mf_usage(cmd, "'%.40s': want allreduce, reduce, reduce-scatter, allgather, gather, scatter, alltoall or broadcast", o.coll);
	if (o.schedule && (o.algo_set || o.root || flags & 1u << KEY_IN_KERNEL))
		return mf_usage(cmd, "--schedule excludes --algo, --root and --in-kernel (the file has them)");
	r = mf_dev_lookup_or_fail(cmd, o.name, &in, &t);
	if (r)
		return r;
	mf_sched_init(&us, 0, 0);
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	if (o.root && mf_parse_node(&t, o.root, &root, err, sizeof(err)))
		return mf_usage(cmd, "--root: %s", err);
	es = mf_rtype_size(o.type);
	bytes = (size_t)in.nodes * o.count * es;
	if (bytes > MESHFABRIC_COLL_MAX_BYTES)
		return mf_fail("%u nodes x %u x %s: above the kernel's %u bytes of vectors",
			       in.nodes, o.count, mf_rtype_name(o.type),
			       MESHFABRIC_COLL_MAX_BYTES);
	inb = calloc(1, bytes);
	out = calloc(1, bytes);
	step_ns = calloc(4 * (size_t)in.nodes + 8, sizeof(u64));
	if (!inb || !out || !step_ns) {
		r = mf_fail("out of memory");
		goto done;
	}
	if (o.input) {
		r = read_input(o.input, in.nodes, o.count, o.type, inb);
		if (r)
			goto done;
	} else {
		for (v = 0; v < in.nodes; v++)
			for (j = 0; j < o.count; j++)
				elem_set(inb, o.type, (size_t)v * o.count + j,
					 gen(o.type, v, j));
	}
	memset(&c, 0, sizeof(c));
	c.id = in.id;
	c.coll = coll;
	c.op = o.op;
	c.type = o.type;
	c.algo = o.algo;
	c.root = root;
	algo = o.algo;
	user = ((o.algo == MF_CALGO_AUTO || o.algo == MF_CALGO_TREE) &&
		!(flags & 1u << KEY_IN_KERNEL)) || o.schedule;
	if (o.schedule) {
		r = mf_sched_read(o.schedule, &t, &us, err, sizeof(err)) ?
		    mf_fail("%s", err) : 0;
		if (!r && us.coll != (u32)coll)
			r = mf_fail("%.80s: a schedule of %s, not %s", o.schedule,
				    mf_coll_name(us.coll), mf_coll_name(coll));
		algo = MESHFABRIC_CALGO_USER;
	} else if (user) {
		r = plan_here(&in, &t, &o, coll, root, &us, &algo);
	}
	if (user && !r)
		r = encode_user(&t, &us, o.schedule ? o.schedule :
				mf_calgo_name(algo), &code, &code_len);
	if (r)
		goto done;
	if (user) {
		c.root = us.source;
		c.algo = MESHFABRIC_CALGO_USER;
		c.sched_ptr = (uintptr_t)code;
		c.sched_len = (u32)code_len;
	}
	/* every builder's steps: < 2N + 4; a user's schedule: its own */
	nsteps = user && us.nsteps > 4 * in.nodes + 8 ? us.nsteps :
		 4 * in.nodes + 8;
	free(step_ns);
	step_ns = calloc(nsteps, sizeof(u64));
	if (!step_ns) {
		r = mf_fail("out of memory");
		goto done;
	}
	c.count = o.count;
	c.ethertype = o.etype;
	if (o.input)
		c.in_ptr = (uintptr_t)inb;
	else
		c.flags = MESHFABRIC_COLL_GENERATE;
	c.out_ptr = (uintptr_t)out;
	c.step_ns_ptr = (uintptr_t)step_ns;
	c.steps = nsteps;
	c.why_ptr = (uintptr_t)why;
	c.why_len = sizeof(why);
	r = mf_dev_collective(&c);
	if (r == -ENETDOWN) {
		r = mf_fail("%s on %s: a node is down or gone (meshfabric show %s)",
			    mf_coll_name(coll), (const char *)in.name,
			    (const char *)in.name);
		goto done;
	}
	if (r && user && (r == -EINVAL || r == -E2BIG) && why[0]) {
		r = mf_fail("%s on %s: the kernel refused the schedule %s%.80s: %s",
			    mf_coll_name(coll), (const char *)in.name,
			    o.schedule ? "of " : "planned here by ",
			    o.schedule ? o.schedule : mf_calgo_name(algo), why);
		goto done;
	}
	if (r) {
		r = mf_fail("%s on %s: %s", mf_coll_name(coll),
			    (const char *)in.name,
			    why[0] ? why : mf_dev_strerror(-r));
		goto done;
	}
	if (!user)
		algo = c.algo;
	here = direct(&c, in.nodes, inb, out) && fnv(out, bytes) == c.digest;
	if (c.steps > nsteps)	/* never: print what came */
		c.steps = nsteps;
	if (ctx->json)
		print_json(ctx, &(struct coll_report){ .in = &in, .c = &c,
			   .algo = algo, .planned = !user ? "kernel" :
			   o.schedule ? "file" : "here",
			   .o = &o, .step_ns = step_ns, .out = out,
			   .match = here && c.match,
			   .results = flags & 1u << KEY_RESULTS });
	else
		print_text(ctx, &(struct coll_report){ .in = &in, .c = &c,
			   .algo = algo, .planned = !user ? "kernel" :
			   o.schedule ? "file" : "here",
			   .o = &o, .step_ns = step_ns, .out = out,
			   .match = here, .steps = flags & 1u << KEY_STEPS,
			   .results = flags & 1u << KEY_RESULTS });
	r = here && c.match ? MF_EXIT_OK :
	    mf_fail("%s on %s: the results differ from the direct computation",
		    mf_coll_name(coll), (const char *)in.name);
done:
	mf_sched_free(&us);
	free(code);
	free(inb);
	free(out);
	free(step_ns);
	return r;
}

const struct mf_cmd mf_cmd_coll = {
	"coll", "run a collective (allreduce, reduce, ...) over a fabric (root)",
	"NAME COLLECTIVE [--op OP] [--type TYPE] [--count N] [--input FILE]\n"
	"                       [--algo ALGO] [--in-kernel] [--root NODE] [--ethertype T]\n"
	"                       [--steps] [--results]",
	"COLLECTIVE: allreduce, reduce, reduce-scatter, allgather, gather,\n"
	"scatter, alltoall or broadcast.  auto and tree are planned here as\n"
	"meshfabric plan --coll plans them (on the fabric's links, the\n"
	"broadcast searches included) and the schedule is handed to the\n"
	"kernel, which checks it with its checker before it runs it; the\n"
	"other algorithms (and auto, tree with --in-kernel) the kernel builds\n"
	"itself (plan --coll shows the same ones).  The kernel sends every\n"
	"transfer as frames over the node netdevs, combines at the receivers\n"
	"with integer arithmetic, and gives each node its result as a frame.\n"
	"The results are checked against the direct computation by the kernel\n"
	"and again here.  Inputs: the generator of meshfabric.h (node i's element j a\n"
	"function of i and j), or --input FILE, one line per node.  On timed\n"
	"links the fabric time, in all and per step (--steps), is the model's\n"
	"after the traffic already on the links.",
	coll_opts, coll_main,
};
