// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plan.c - `meshfabric plan`: build a broadcast schedule with the
 * portable core (mf_plan_for: built, then validated by the independent
 * checker mf_check), and print it as text, JSON or graphviz dot.
 *
 * JSON (one line, streamed to stdout, never built in memory):
 *   {"topology":{"kind":"mesh","dims":[8,8]},"algo":"eyes",
 *    "model":"one-port","source":0,"nodes":64,
 *    "summary":{"steps":6,"sends":63,"tcd":79,"max_link_load":1,
 *               "contention_free":true},
 *    "steps":[[{"src":0,"dst":ID,"path":[0,...,ID]}],...]}
 * For H_n "dims" is [n].  --summary leaves "steps" out.
 * With --down/--down-node, "summary" also has "unreachable" (nodes the
 * source cannot reach; delivered sends + unreachable = nodes - 1) and a
 * "faults" object follows it: the down links, the fault-free schedule's
 * steps and tcd, and what the repair did (core/faults.h).
 */
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "json.h"
#include "check.h"
#include "route.h"
#include "cmd_plan.h"
#include "timing.h"
#include "units.h"

#include "downopt.h"
#include "search.h"
#include "plan_coll.h"
#include "schedfile.h"

/* The algorithm plan names for a --schedule FILE's schedule. */
static const struct mf_algo plan_file_algo = { .name = "file" };

enum {
	KEY_FROM = 1, KEY_ALGO, KEY_ROUTING, KEY_MODEL, KEY_FORMAT, KEY_STEPS,
	KEY_SUMMARY, KEY_RATE, KEY_DELAY, KEY_SWITCHING, KEY_MODE, KEY_SIZE,
	KEY_DOWN, KEY_DOWN_NODE, KEY_COLL, KEY_OP, KEY_TYPE, KEY_BCAST,
	KEY_EFFORT, KEY_SCHEDULE,
};

enum fmt { FMT_TEXT, FMT_JSON, FMT_DOT, FMT_SUMMARY };

/* Text output lists the steps by default up to this many nodes. */
#define STEPS_BY_DEFAULT_MAX_NODES 64

static const struct mf_opt plan_opts[] = {
	MF_OPTS_TOPOLOGY,
	{ "from", 0, "NODE", KEY_FROM,
	  "source: coordinates (3,4) or node id; hex: address (default 0)" },
	{ "algo", 0, "ALGO", KEY_ALGO,
	  "auto (default), eyes, hex, tree, binomial, flood, tsay-wang, mintcd, "
	  "wormhole, split, eyes-paper" },
	{ "routing", 0, "ROUTING", KEY_ROUTING,
	  "dor, diagonal, cdo (mesh/torus), a1 (hex); default per topology" },
	{ "model", 0, "MODEL", KEY_MODEL,
	  "one-port or all-port: the port model auto chooses for" },
	{ "format", 0, "FORMAT", KEY_FORMAT, "text (default), json, dot or summary" },
	{ "steps", 0, NULL, KEY_STEPS, "text: list every step (default up to 64 nodes)" },
	{ "summary", 0, NULL, KEY_SUMMARY, "print the summary only, not the steps" },
	MF_OPTS_LINK(KEY_RATE, KEY_DELAY, KEY_SWITCHING),
	{ "mode", 0, "MODE", KEY_MODE,
	  "sync (steps wait for each other, default) or async" },
	{ "size", 0, "BYTES", KEY_SIZE,
	  "payload bytes of the frame, 0..65536 (default 64; + 14 header); "
	  "--coll: the message, units B, K, KiB, M, MiB, G, GiB (default 1MiB)" },
	MF_OPTS_DOWN(KEY_DOWN, KEY_DOWN_NODE),
	{ "coll", 0, "OP", KEY_COLL,
	  "a collective instead of a broadcast: broadcast, reduce, allreduce, "
	  "reduce-scatter, allgather, gather, scatter, alltoall; --algo then: "
	  "auto, tree, ring, recdbl, rabenseifner, bucket, swing, swing-lat, "
	  "shift, 003" },
	{ "op", 0, "OP", KEY_OP, "--coll: sum (default), min, max, band, bor, bxor" },
	{ "type", 0, "TYPE", KEY_TYPE, "--coll: s32, u32, s64 (default), u64" },
	{ "bcast", 0, "ALGO", KEY_BCAST,
	  "--coll --algo tree: the broadcast algorithm turned round (default auto)" },
	{ "effort", 0, "N", KEY_EFFORT,
	  "all-port search budget x N, 1..1000 (default 1): wormhole (and auto "
	  "all-port) tries longer for the counting bound; time grows about "
	  "linearly where it fails" },
	{ "schedule", 0, "FILE", KEY_SCHEDULE,
	  "check and print a schedule of your own instead of building one: "
	  "plan's JSON (- for stdin), e.g. scripts/allport-ilp.py's" },
	{ NULL, 0, NULL, 0, NULL }
};

struct plan {
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;
	const struct mf_algo *algo;
	u32 routing;
	/* fabric time (--link-*, --switching, --mode, --size) */
	bool timed;
	struct mf_link_model lm;
	struct mf_timing tm;
	struct mf_timeline tl;
	struct mf_faults f;		/* --down, --down-node */
	struct mf_fault_plan fp;	/* with faults: the repair's result */
};

/* The timing lines shared by plan and bcast. */
void mf_print_timing(struct mf_print *p, int type, u64 total,
		     const u64 *step_ns, u32 steps, bool per_step)
{
	int each = per_step ? type : MF_PRINT_JSON;
	u32 i;

	mf_print_time(p, type, "fabric_time_ns", "fabric time      %s", total);
	mf_print_u64(p, type & MF_PRINT_FP, NULL, " (%llu ns)\n", total);
	mf_print_arr_open(p, "step_ns");
	for (i = 0; i < steps; i++) {
		if (each & MF_PRINT_FP)
			mf_print_fp(p, "  step %-3u done  ", i + 1);
		mf_print_time(p, each, NULL, "%s", step_ns[i]);
		mf_print_u64(p, each & MF_PRINT_FP, NULL, " (%llu ns)\n",
			     step_ns[i]);
	}
	mf_print_arr_close(p);
}

/* The one step printer of plan and bcast. */
void mf_print_steps(struct mf_print *p, const char *key,
		    const struct mf_topo *t, const struct mf_sched *s)
{
	const struct mf_send *sd;
	u32 i, k, h, n;

	mf_print_arr_open(p, key);
	for (i = 0; i < s->nsteps; i++) {
		sd = mf_sched_sends(s, i, &n);
		mf_print_arr_open(p, NULL);
		mf_print_fp(p, "step %u: %u send%s\n", i + 1, n,
			    n == 1 ? "" : "s");
		for (k = 0; k < n; k++) {
			mf_print_obj_open(p, NULL);
			mf_print_node(p, MF_PRINT_ANY, "src", "  %s ->", t,
				      sd[k].src);
			mf_print_node(p, MF_PRINT_ANY, "dst", " %s", t,
				      sd[k].dst);
			mf_print_fp(p, "  (%u hop%s:", sd[k].hops,
				    sd[k].hops == 1 ? "" : "s");
			mf_print_arr_open(p, "path");
			for (h = 0; h <= sd[k].hops; h++)
				mf_print_node(p, MF_PRINT_ANY, NULL, " %s", t,
					      s->path[sd[k].path + h]);
			mf_print_arr_close(p);
			mf_print_fp(p, ")\n");
			mf_print_obj_close(p);
		}
		mf_print_arr_close(p);
	}
	mf_print_arr_close(p);
}

/* A schedule's statistics as plan and bcast print them, up to the
 * largest link load.
 */
void mf_print_sched_stats(struct mf_print *p, const struct mf_stats *st)
{
	mf_print_u64(p, MF_PRINT_ANY, "steps", "steps            %llu\n",
		     st->steps);
	mf_print_u64(p, MF_PRINT_ANY, "sends", "sends            %llu\n",
		     st->sends);
	mf_print_u64(p, MF_PRINT_ANY, "tcd", "tcd              %llu\n",
		     st->tcd);
	mf_print_u64(p, MF_PRINT_ANY, "max_link_load",
		     "max link load    %llu\n", st->max_link_load);
}

/* The fault-free schedule's cost, as plan and bcast print it. */
void mf_print_fault_free(struct mf_print *p, const struct mf_stats *st)
{
	mf_print_u64(p, MF_PRINT_ANY, "fault_free_steps",
		     "fault-free       %llu steps", st->steps);
	mf_print_u64(p, MF_PRINT_ANY, "fault_free_tcd", ", tcd %llu\n",
		     st->tcd);
}

/* The fewest steps any broadcast from the source can take, counting the
 * nodes a step can inform at most (mf_coll_bounds: one-port
 * ceil(log2 N); all-port mf_allport_bound, one new node per link).
 */
static u32 counting_bound(const struct plan *p)
{
	struct mf_coll_bounds b;

	mf_coll_bounds(&p->t, MF_COLL_BCAST, p->s.model, p->s.source, 0, &b);
	return b.steps;
}

static void print_plan(FILE *f, bool json, const struct plan *p, bool steps)
{
	const struct mf_stats *st = &p->st;
	struct mf_print o;

	mf_print_start(&o, f, json);
	mf_print_obj_open(&o, NULL);
	mf_print_topology(&o, &p->t, "topology         %s %s\n");
	mf_print_str(&o, MF_PRINT_ANY, "algo", "algorithm        %s\n",
		     p->algo->name);
	mf_print_str(&o, MF_PRINT_ANY, "model", "model            %s\n",
		     mf_model_name(p->s.model));
	if (p->algo->routed)
		mf_print_str(&o, MF_PRINT_ANY, "routing",
			     "routing          %s\n", mf_route_name(p->routing));
	mf_print_node(&o, MF_PRINT_ANY, "source", "source           %s",
		      &p->t, p->s.source);
	mf_print_u64(&o, MF_PRINT_FP, NULL, " (node %llu)\n", p->s.source);
	mf_print_u64(&o, MF_PRINT_ANY, "nodes", "nodes            %llu\n",
		     p->t.nodes);
	mf_print_obj_open(&o, "summary");
	mf_print_sched_stats(&o, st);
	mf_print_bool(&o, MF_PRINT_ANY, "contention_free",
		      "contention-free  %s\n", st->max_link_load <= 1);
	if (!p->f.n)	/* with links down fewer nodes are reachable */
		mf_print_u64(&o, MF_PRINT_ANY, "counting_bound",
			     "counting bound   %llu steps\n", counting_bound(p));
	else		/* text: with the faults below */
		mf_print_u64(&o, MF_PRINT_JSON, "unreachable", NULL,
			     st->unreachable);
	mf_print_obj_close(&o);
	if (p->timed) {
		mf_print_obj_open(&o, "timing");
		mf_print_rate(&o, MF_PRINT_ANY, "link_rate",
			      "links            rate %s", p->lm.rate);
		mf_print_time(&o, MF_PRINT_ANY, "link_delay_ns", " delay %s",
			      p->lm.delay_ns);
		mf_print_str(&o, MF_PRINT_ANY, "switching", ", %s",
			     mf_switching_name(p->tm.switching));
		mf_print_str(&o, MF_PRINT_ANY, "mode", ", %s steps",
			     p->tm.async ? "async" : "sync");
		mf_print_u64(&o, MF_PRINT_ANY, "frame_bytes",
			     ", %llu-byte frames\n", p->tm.bytes);
		mf_print_timing(&o, MF_PRINT_ANY, p->tl.total_ns, p->tl.step_ns,
				p->s.nsteps, steps);
		mf_print_obj_close(&o);
	}
	if (p->f.n) {
		mf_print_obj_open(&o, "faults");
		mf_print_u64(&o, MF_PRINT_ANY, "down_links",
			     "down links       %llu\n", p->f.n / 2);
		mf_print_u64(&o, MF_PRINT_FP, NULL, "unreachable      %llu\n",
			     st->unreachable);
		mf_print_fault_free(&o, &p->fp.plan.stats);
		mf_print_u64(&o, MF_PRINT_ANY, "rerouted",
			     "repair           %llu sends rerouted",
			     p->fp.rep.rerouted);
		mf_print_u64(&o, MF_PRINT_ANY, "moved", ", %llu moved\n",
			     p->fp.rep.moved);
		mf_print_obj_close(&o);
	}
	if (steps)
		mf_print_steps(&o, "steps", &p->t, &p->s);
	mf_print_end(&o);
}

static void print_dot(FILE *f, const struct plan *p)
{
	const struct mf_send *sd;
	char shape[96], a[64];
	u32 i, k, n, c[MF_MAX_DIMS];
	bool grid = p->t.kind != MESHFABRIC_KIND_HEX && p->t.ndims == 2;

	mf_format_shape(&p->t, shape, sizeof(shape));
	mf_format_node(&p->t, p->s.source, a, sizeof(a));
	fprintf(f, "digraph meshfabric {\n");
	fprintf(f, "\tlabel=\"%s on %s %s from %s: %u steps, TCD %llu\";\n",
		p->algo->name, mf_topo_kind_name(p->t.kind), shape, a, p->st.steps,
		(unsigned long long)p->st.tcd);
	fprintf(f, "\tnode [shape=circle, fontsize=10];\n");
	for (i = 0; i < p->t.nodes; i++) {
		mf_format_node(&p->t, i, a, sizeof(a));
		fprintf(f, "\tn%u [label=\"%s\"", i, a);
		if (grid) {
			mf_topo_coords(&p->t, i, c);
			fprintf(f, ", pos=\"%u,%u!\"", c[0], c[1]);
		}
		if (i == p->s.source)
			fprintf(f, ", style=filled, fillcolor=gold");
		fprintf(f, "];\n");
	}
	for (i = 0; i < p->s.nsteps; i++) {
		sd = mf_sched_sends(&p->s, i, &n);
		for (k = 0; k < n; k++)
			fprintf(f, "\tn%u -> n%u [label=\"%u\"];\n", sd[k].src,
				sd[k].dst, i + 1);
	}
	fprintf(f, "}\n");
}

/* The command line of plan, as read (plan_opt). */
struct plan_args {
	struct plan *p;
	const char *from;
	u32 algo, model, size;
	bool want_steps, summary, routing_given, effort_given;
	/* --coll: the algorithm and size are read once --coll is known */
	const char *coll, *algo_name, *size_text, *op, *type, *bcast;
	const char *file;	/* --schedule */
	enum fmt fmt;
	struct mf_down_args down;
};

static int parse_format(const char *val, enum fmt *fmt, char *err,
			size_t errlen)
{
	static const char *const names[] = {
		[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_DOT] = "dot",
		[FMT_SUMMARY] = "summary",
	};
	int i = mf_pick(val, names, sizeof(names) / sizeof(names[0]));

	if (i < 0 && !strcmp(val, "summary-only"))
		i = FMT_SUMMARY;
	if (i < 0)
		return mf_err(err, errlen,
			      "unknown format '%.40s' (text, json, dot, summary)",
			      val);
	*fmt = i;
	return 0;
}

static int plan_opt(void *st, int key, const char *val, char *err,
		    size_t errlen)
{
	struct plan_args *o = st;
	struct plan *p = o->p;

	/* the link model's options ask for the fabric time */
	if (key >= KEY_RATE && key <= KEY_SIZE)
		p->timed = true;
	switch (key) {
	case KEY_FROM:
		o->from = val;
		return 0;
	case KEY_ALGO:
		o->algo_name = val;
		return 0;
	case KEY_COLL:
		o->coll = val;
		return 0;
	case KEY_OP:
		o->op = val;
		return 0;
	case KEY_TYPE:
		o->type = val;
		return 0;
	case KEY_BCAST:
		o->bcast = val;
		return 0;
	case KEY_SCHEDULE:
		o->file = val;
		return 0;
	case KEY_ROUTING:
		o->routing_given = true;
		return mf_parse_routing(val, &p->routing, err, errlen);
	case KEY_MODEL:
		return mf_parse_model(val, &o->model, err, errlen);
	case KEY_FORMAT:
		return parse_format(val, &o->fmt, err, errlen);
	case KEY_RATE:
		return mf_parse_rate(val, &p->lm.rate, err, errlen);
	case KEY_DELAY:
		return mf_parse_time(val, &p->lm.delay_ns, err, errlen);
	case KEY_SWITCHING:
		return mf_parse_switching(val, &p->tm.switching, err, errlen);
	case KEY_MODE:
		return mf_parse_mode(val, &p->tm.async, err, errlen);
	case KEY_SIZE:
		o->size_text = val;
		return 0;
	case KEY_EFFORT:
		o->effort_given = true;
		if (mf_parse_u32(val, 1, MF_SEARCH_EFFORT_MAX, &mf_search_effort))
			return mf_err(err, errlen,
				      "--effort '%.40s': want 1..%u", val,
				      MF_SEARCH_EFFORT_MAX);
		return 0;
	}
	/* KEY_DOWN, KEY_DOWN_NODE */
	return mf_down_arg_add(&o->down, val, key == KEY_DOWN_NODE, err, errlen);
}

/* Most bytes plan --coll takes (the link model's products stay exact). */
#define COLL_BYTES_MAX	(1ULL << 30)

/* plan --coll: the collective's options, then plan_coll.c. */
static int plan_coll(struct mf_ctx *ctx, struct plan_args *o, u32 root)
{
	const struct mf_cmd *cmd = &mf_cmd_plan;
	struct plan *p = o->p;
	struct mf_plan_coll_args a = {
		.t = &p->t, .root = root, .bytes = 1 << 20,
		.type = MF_RTYPE_S64, .op = MF_ROP_SUM, .model = o->model,
		/* timed by --link-rate or --link-delay (not --size) */
		.bcast = MESHFABRIC_ALGO_AUTO,
		.timed = p->lm.rate || p->lm.delay_ns,
		.lm = &p->lm, .json = o->fmt == FMT_JSON,
		.steps = o->want_steps,
	};
	char err[256];
	int r;

	if (o->fmt == FMT_DOT || o->down.n || o->routing_given ||
	    p->tm.async || p->tm.switching)
		return mf_usage(cmd, "--coll plans on the whole fabric, synchronous, store-and-forward, default routing: no --format dot, --down, --routing, --mode async or --switching");
	r = mf_coll_by_name(o->coll);
	if (r < 0)
		return mf_usage(cmd, "--coll '%.40s': want broadcast, reduce, allreduce, reduce-scatter, allgather, gather, scatter or alltoall",
				o->coll);
	a.coll = r;
	r = o->algo_name ? mf_calgo_by_name(o->algo_name) : MF_CALGO_AUTO;
	if (r < 0)
		return mf_usage(cmd, "--algo '%.40s' with --coll: want auto, tree, ring, recdbl, rabenseifner, bucket, swing, swing-lat, shift or 003",
				o->algo_name);
	a.algo = r;
	if (o->op) {
		r = mf_rop_by_name(o->op);
		if (r < 0)
			return mf_usage(cmd, "--op '%.40s': want sum, min, max, band, bor or bxor",
					o->op);
		a.op = r;
	}
	if (o->type) {
		r = mf_rtype_by_name(o->type);
		if (r == -EOPNOTSUPP)
			return mf_usage(cmd, "--type %.40s: floating point is refused; collectives combine integers only (s32, u32, s64, u64)",
					o->type);
		if (r < 0)
			return mf_usage(cmd, "--type '%.40s': want s32, u32, s64 or u64",
					o->type);
		a.type = r;
	}
	if (o->bcast && mf_parse_algo(o->bcast, &a.bcast, err, sizeof(err)))
		return mf_usage(cmd, "--bcast: %s", err);
	if (o->size_text &&
	    mf_parse_bytes(o->size_text, COLL_BYTES_MAX, &a.bytes, err,
			   sizeof(err)))
		return mf_usage(cmd, "--size %s", err);
	return mf_plan_coll(ctx->out, &a);
}

static int plan_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_plan;
	struct mf_topo_arg ta = { 0, NULL };
	struct plan p;
	struct plan_args o = { .p = &p, .algo = MESHFABRIC_ALGO_AUTO, .size = 64 };
	unsigned int flags = 0;
	u32 source = 0;
	struct mf_plan_result res;
	struct mf_plan_req rq;
	char err[256], shape[96];
	int r, rc;

	memset(&p, 0, sizeof(p));
	p.routing = MESHFABRIC_ROUTE_DEFAULT;
	rc = mf_args_parse(ctx, argc, argv, &ta, 0, plan_opt, &o, &flags);
	if (rc >= 0)
		return rc;
	o.want_steps = flags & 1u << KEY_STEPS;
	o.summary = flags & 1u << KEY_SUMMARY;
	if (ctx->json) {
		if (o.fmt == FMT_DOT)
			return mf_usage(cmd, "--json and --format dot exclude each other");
		o.fmt = FMT_JSON;
	}
	if (o.fmt == FMT_SUMMARY) {
		o.summary = true;
		o.fmt = FMT_TEXT;
	}
	if (o.summary && o.want_steps)
		return mf_usage(cmd, "--steps and --summary exclude each other");
	if (mf_topo_arg_build(&ta, &p.t, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (o.from && mf_parse_node(&p.t, o.from, &source, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (o.file && (o.coll || o.algo_name || o.model || o.routing_given ||
		       o.down.n || o.effort_given))
		return mf_usage(cmd, "--schedule checks the file's schedule as it is: no --coll, --algo, --model, --routing, --down, --down-node or --effort");
	if (o.coll)
		return plan_coll(ctx, &o, source);
	if (o.op || o.type || o.bcast)
		return mf_usage(cmd, "--op, --type and --bcast are for --coll");
	if (o.algo_name && mf_parse_algo(o.algo_name, &o.algo, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (o.size_text &&
	    mf_parse_u32(o.size_text, 0, MESHFABRIC_MAX_PAYLOAD, &o.size))
		return mf_usage(cmd, "--size '%.40s': want 0..%u", o.size_text,
				MESHFABRIC_MAX_PAYLOAD);
	if (mf_routing_for(&p.t, p.routing, &p.routing, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	mf_format_shape(&p.t, shape, sizeof(shape));
	if (o.file) {
		/* read (topology and paths), then the checker decides */
		if (mf_sched_read_from(o.file, &p.t, o.from, source, &p.s, err,
				       sizeof(err))) {
			rc = mf_fail("%s", err);
			goto out;
		}
		if (p.s.coll != MF_COLL_BCAST) {
			rc = mf_fail("%.80s holds a collective: coll --schedule runs it",
				     o.file);
			goto out;
		}
		r = mf_check(&p.t, &p.s, &p.st, err, sizeof(err));
		if (r) {
			rc = mf_fail("the schedule in %.80s is invalid: %s", o.file,
				     r == -EINVAL ? err : mf_strerror(r));
			goto out;
		}
		p.algo = &plan_file_algo;
		goto print;
	}

	if (o.algo != MESHFABRIC_ALGO_AUTO) {
		const struct mf_algo *al = mf_algo_by_id(o.algo);

		if (o.model && al->model != o.model)
			return mf_usage(cmd, "%s is %s %s algorithm; --model %s does not apply",
					al->name,
					al->model == MESHFABRIC_MODEL_ALL_PORT ? "an" : "a",
					mf_model_name(al->model), mf_model_name(o.model));
		if (o.routing_given && !al->routed)
			return mf_usage(cmd, "%s does not follow a routing (--routing is for tree and binomial)",
					al->name);
		if (al->supports(&p.t))
			/* meshes are the default reading of "6x6"; name the other kinds */
			return mf_fail("%s covers %s; %s%s is not one", al->name,
				       al->covers,
				       p.t.kind == MESHFABRIC_KIND_TORUS ? "torus " : "",
				       shape);
	}
	if (mf_down_args_build(&o.down, &p.t, &p.f, err, sizeof(err))) {
		mf_faults_free(&p.f);
		return mf_usage(cmd, "%s", err);
	}
	/* the core builds and checks (auto: every candidate, keeping the
	 * best; by the fabric time on these links, if given); around the
	 * faults: built, checked, repaired, checked
	 */
	p.tm.bytes = (u64)o.size + 14;	/* the Ethernet header */
	p.tm.ctx = &p.lm;
	rq = (struct mf_plan_req){ .id = o.algo, .model = o.model,
				   .source = source, .routing = p.routing,
				   .tm = p.timed ? &p.tm : NULL, .faults = &p.f };
	r = mf_plan_for(&p.t, &rq, &p.s, &p.fp);
	res = p.fp.plan;
	res.used = p.fp.used ? p.fp.used : res.used;
	res.stats = p.fp.stats;
	p.algo = res.used;
	p.st = res.stats;
	if (r == -EOPNOTSUPP) {
		rc = mf_fail("no %salgorithm in this build covers %s %s",
			     o.model ? (o.model == MESHFABRIC_MODEL_ONE_PORT ?
				      "one-port " : "all-port ") : "",
			     mf_topo_kind_name(p.t.kind), shape);
		goto out;
	}
	if (r == -EPROTO) {
		rc = mf_fail("%s produced an invalid schedule: %s", p.algo->name,
			     res.why);
		goto out;
	}
	if (r) {
		rc = mf_fail("%s on %s %s: %s",
			     o.algo ? mf_algo_by_id(o.algo)->name : "auto",
			     mf_topo_kind_name(p.t.kind), shape,
			     r == -E2BIG && p.f.n ? "the fault routing needs over "
			     "4 MiB (too many pairs rerouted or cut)" :
			     mf_strerror(r));
		goto out;
	}
print:
	if (p.timed) {
		p.tm.bytes = (u64)o.size + 14;	/* the Ethernet header */
		p.tm.ctx = &p.lm;
		r = mf_timeline_alloc(&p.tl, &p.t, &p.s);
		if (!r)
			r = mf_sched_time(&p.t, &p.s, &p.tm, NULL, &p.tl);
		if (r) {
			rc = mf_fail("fabric time: %s", mf_strerror(r));
			goto out;
		}
	}
	if (o.fmt == FMT_DOT)
		print_dot(ctx->out, &p);
	else
		print_plan(ctx->out, o.fmt == FMT_JSON, &p, !o.summary &&
			   (o.fmt == FMT_JSON || o.want_steps ||
			    p.t.nodes <= STEPS_BY_DEFAULT_MAX_NODES));
	rc = MF_EXIT_OK;
out:
	mf_timeline_free(&p.tl);
	mf_sched_free(&p.s);
	mf_faults_free(&p.f);
	return rc;
}

const struct mf_cmd mf_cmd_plan = {
	.name = "plan",
	.summary = "build, check and print a broadcast or collective schedule (offline)",
	.synopsis = "{--mesh AxBx...|--torus AxBx...|--hex N} [--from NODE] [--algo ALGO]\n"
		    "       [--routing ROUTING] [--model MODEL] [--json|--format FORMAT]\n"
		    "       [--steps|--summary] [--down NODE:PORT]... [--down-node NODE]...\n"
		    "       [--link-rate RATE] [--link-delay TIME] [--size BYTES]\n"
		    "       [--switching store-and-forward|cut-through] [--mode sync|async]\n"
		    "       [--effort N]\n"
		    "  plan TOPOLOGY --schedule FILE [--from NODE] [--json|--format FORMAT]\n"
		    "       [--steps|--summary] [--link-rate RATE] [--link-delay TIME] ...\n"
		    "  plan TOPOLOGY --coll OP [--algo ALGO] [--size BYTES] [--op OP] [--type TYPE]\n"
		    "       [--from NODE] [--bcast ALGO] [--model MODEL] [--steps] [--json]\n"
		    "       [--link-rate RATE] [--link-delay TIME] [--effort N]",
	.description =
		"Every schedule is validated by the independent checker before it is\n"
		"printed; an invalid schedule is an error (exit 1).  The summary gives\n"
		"steps, sends, TCD (sum of path lengths), the largest number of sends on\n"
		"one directed link in one step, whether the schedule is free of step\n"
		"contention and, with no link down, the counting bound: the fewest\n"
		"steps any broadcast from the source could take (ceil(log2 N) one-port;\n"
		"all-port, one new node per link of each informed node).  With\n"
		"--link-rate, --link-delay, --switching, --mode or --size, it also\n"
		"gives the schedule's fabric time on such links (the\n"
		"model of `meshfabric link`), per step with --steps: what BCAST reports\n"
		"on an idle fabric with the same links.  With --down and --down-node\n"
		"the schedule is repaired\n"
		"around those faults (sends rerouted along surviving shortest paths or\n"
		"moved to other senders and steps), checked against them, and the\n"
		"summary adds the unreachable nodes and the fault-free steps and TCD.\n"
		"With --coll the schedule is a collective (docs/collectives.md): every\n"
		"send carries blocks of the message, copied or combined by --op on\n"
		"--type; the checker proves what every node ends with.  The figures\n"
		"stand beside their lower bounds: steps (ceil(log2 N) one-port), bytes\n"
		"one node sends (allreduce 2(N-1)/N x M), distance (hops), and with a\n"
		"link model the fabric time against distance x delay + bytes/rate.\n"
		"With --schedule FILE plan builds nothing: it reads a broadcast\n"
		"schedule in its own JSON format (one of yours, or one of\n"
		"scripts/allport-ilp.py's), checks it with the same checker and prints\n"
		"it as algorithm \"file\"; an invalid one is an error with the\n"
		"checker's reason.\n",
	.opts = plan_opts,
	.run = plan_main,
};
