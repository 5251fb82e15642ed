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

enum {
	KEY_FROM = 1, KEY_ALGO, KEY_ROUTING, KEY_MODEL, KEY_FORMAT, KEY_STEPS,
	KEY_SUMMARY, KEY_RATE, KEY_DELAY, KEY_SWITCHING, KEY_MODE, KEY_SIZE,
	KEY_DOWN, KEY_DOWN_NODE,
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
	  "payload bytes of the frame, 0..65536 (default 64; + 14 header)" },
	MF_OPTS_DOWN(KEY_DOWN, KEY_DOWN_NODE),
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

/* The timing lines shared by plan and bcast: text. */
void mf_print_timing_text(FILE *f, u64 total, const u64 *step_ns, u32 steps,
			  bool per_step)
{
	char a[32];
	u32 i;

	mf_format_time(total, a, sizeof(a));
	fprintf(f, "fabric time      %s (%llu ns)\n", a,
		(unsigned long long)total);
	for (i = 0; per_step && i < steps; i++) {
		mf_format_time(step_ns[i], a, sizeof(a));
		fprintf(f, "  step %-3u done  %s (%llu ns)\n", i + 1, a,
			(unsigned long long)step_ns[i]);
	}
}

/* The same in JSON: "fabric_time_ns" and "step_ns". */
void mf_print_timing_json(struct mf_json *j, u64 total, const u64 *step_ns,
			  u32 steps)
{
	u32 i;

	mf_json_kv_u64(j, "fabric_time_ns", total);
	mf_json_key(j, "step_ns");
	mf_json_arr(j);
	for (i = 0; i < steps; i++)
		mf_json_u64(j, step_ns[i]);
	mf_json_close(j);
}

static const char *switching_name(u32 sw)
{
	return sw == MESHFABRIC_SWITCH_CUT_THROUGH ? "cut-through" :
						      "store-and-forward";
}

/* The one step printer of plan and bcast: text, one line per send. */
void mf_print_steps_text(FILE *f, const struct mf_topo *t,
			 const struct mf_sched *s)
{
	const struct mf_send *sd;
	char a[64];
	u32 i, k, h, n;

	for (i = 0; i < s->nsteps; i++) {
		sd = mf_sched_sends(s, i, &n);
		fprintf(f, "step %u: %u send%s\n", i + 1, n, n == 1 ? "" : "s");
		for (k = 0; k < n; k++) {
			mf_format_node(t, sd[k].src, a, sizeof(a));
			fprintf(f, "  %s ->", a);
			mf_format_node(t, sd[k].dst, a, sizeof(a));
			fprintf(f, " %s  (%u hop%s:", a, sd[k].hops,
				sd[k].hops == 1 ? "" : "s");
			for (h = 0; h <= sd[k].hops; h++) {
				mf_format_node(t, s->path[sd[k].path + h], a,
					       sizeof(a));
				fprintf(f, " %s", a);
			}
			fprintf(f, ")\n");
		}
	}
}

/* The same in JSON: KEY: [[{"src","dst","path":[...]}],...] */
void mf_print_steps_json(struct mf_json *j, const char *key,
			 const struct mf_sched *s)
{
	const struct mf_send *sd;
	u32 i, k, h, n;

	mf_json_key(j, key);
	mf_json_arr(j);
	for (i = 0; i < s->nsteps; i++) {
		sd = mf_sched_sends(s, i, &n);
		mf_json_arr(j);
		for (k = 0; k < n; k++) {
			mf_json_obj(j);
			mf_json_kv_u64(j, "src", sd[k].src);
			mf_json_kv_u64(j, "dst", sd[k].dst);
			mf_json_key(j, "path");
			mf_json_arr(j);
			for (h = 0; h <= sd[k].hops; h++)
				mf_json_u64(j, s->path[sd[k].path + h]);
			mf_json_close(j);
			mf_json_close(j);
		}
		mf_json_close(j);
	}
	mf_json_close(j);
}

static void print_json(FILE *f, const struct plan *p, bool steps)
{
	struct mf_json j;

	mf_json_init(&j, f);
	mf_json_obj(&j);
	mf_json_topology(&j, &p->t);
	mf_json_kv_str(&j, "algo", p->algo->name);
	mf_json_kv_str(&j, "model", mf_model_name(p->s.model));
	if (p->algo->routed)
		mf_json_kv_str(&j, "routing", mf_route_name(p->routing));
	mf_json_kv_u64(&j, "source", p->s.source);
	mf_json_kv_u64(&j, "nodes", p->t.nodes);
	mf_json_key(&j, "summary");
	mf_json_obj(&j);
	mf_json_kv_u64(&j, "steps", p->st.steps);
	mf_json_kv_u64(&j, "sends", p->st.sends);
	mf_json_kv_u64(&j, "tcd", p->st.tcd);
	mf_json_kv_u64(&j, "max_link_load", p->st.max_link_load);
	mf_json_kv_bool(&j, "contention_free", p->st.max_link_load <= 1);
	if (p->f.n)
		mf_json_kv_u64(&j, "unreachable", p->st.unreachable);
	mf_json_close(&j);
	if (p->timed) {
		mf_json_key(&j, "timing");
		mf_json_obj(&j);
		mf_json_kv_u64(&j, "link_rate", p->lm.rate);
		mf_json_kv_u64(&j, "link_delay_ns", p->lm.delay_ns);
		mf_json_kv_str(&j, "switching", switching_name(p->tm.switching));
		mf_json_kv_str(&j, "mode", p->tm.async ? "async" : "sync");
		mf_json_kv_u64(&j, "frame_bytes", p->tm.bytes);
		mf_print_timing_json(&j, p->tl.total_ns, p->tl.step_ns,
				     p->s.nsteps);
		mf_json_close(&j);
	}
	if (p->f.n) {
		mf_json_key(&j, "faults");
		mf_json_obj(&j);
		mf_json_kv_u64(&j, "down_links", p->f.n / 2);
		mf_json_kv_u64(&j, "fault_free_steps", p->fp.plan.stats.steps);
		mf_json_kv_u64(&j, "fault_free_tcd", p->fp.plan.stats.tcd);
		mf_json_kv_u64(&j, "rerouted", p->fp.rep.rerouted);
		mf_json_kv_u64(&j, "moved", p->fp.rep.moved);
		mf_json_close(&j);
	}
	if (steps)
		mf_print_steps_json(&j, "steps", &p->s);
	mf_json_end(&j);
}

static void print_text(FILE *f, const struct plan *p, bool steps)
{
	char shape[96], a[64];

	mf_format_shape(&p->t, shape, sizeof(shape));
	mf_format_node(&p->t, p->s.source, a, sizeof(a));
	fprintf(f, "topology         %s %s\n", mf_topo_kind_name(p->t.kind), shape);
	fprintf(f, "algorithm        %s\n", p->algo->name);
	fprintf(f, "model            %s\n", mf_model_name(p->s.model));
	if (p->algo->routed)
		fprintf(f, "routing          %s\n", mf_route_name(p->routing));
	fprintf(f, "source           %s (node %u)\n", a, p->s.source);
	fprintf(f, "nodes            %u\n", p->t.nodes);
	fprintf(f, "steps            %u\n", p->st.steps);
	fprintf(f, "sends            %u\n", p->st.sends);
	fprintf(f, "tcd              %llu\n", (unsigned long long)p->st.tcd);
	fprintf(f, "max link load    %u\n", p->st.max_link_load);
	fprintf(f, "contention-free  %s\n", p->st.max_link_load <= 1 ? "yes" : "no");
	if (p->timed) {
		char r[32], d[32];

		mf_format_rate(p->lm.rate, r, sizeof(r));
		mf_format_time(p->lm.delay_ns, d, sizeof(d));
		fprintf(f, "links            rate %s delay %s, %s, %s steps, %llu-byte frames\n",
			r, d, switching_name(p->tm.switching),
			p->tm.async ? "async" : "sync",
			(unsigned long long)p->tm.bytes);
		mf_print_timing_text(f, p->tl.total_ns, p->tl.step_ns,
				     p->s.nsteps, steps);
	}
	if (p->f.n) {
		fprintf(f, "down links       %u\n", p->f.n / 2);
		fprintf(f, "unreachable      %u\n", p->st.unreachable);
		fprintf(f, "fault-free       %u steps, tcd %llu\n",
			p->fp.plan.stats.steps,
			(unsigned long long)p->fp.plan.stats.tcd);
		fprintf(f, "repair           %u sends rerouted, %u moved\n",
			p->fp.rep.rerouted, p->fp.rep.moved);
	}
	if (steps)
		mf_print_steps_text(f, &p->t, &p->s);
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

static int plan_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_plan;
	struct mf_topo_arg ta = { 0, NULL };
	const char *from = NULL, *val;
	u32 algo = MESHFABRIC_ALGO_AUTO, model = 0, source = 0, size = 64;
	bool want_steps = false, summary = false, routing_given = false;
	enum fmt fmt = FMT_TEXT;
	struct mf_down_args down = { 0 };
	struct mf_plan_result res;
	struct mf_plan_req rq;
	struct mf_args a;
	struct plan p;
	char err[256], shape[96];
	int k, r, rc;

	memset(&p, 0, sizeof(p));
	p.routing = MESHFABRIC_ROUTE_DEFAULT;
	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_cmd(&a, &ta, 0, &val, &rc)) != MF_ARG_END) {
		r = 0;
		switch (k) {
		case MF_ARG_STOP:
			return rc;
		case KEY_FROM:
			from = val;
			break;
		case KEY_ALGO:
			r = mf_parse_algo(val, &algo, err, sizeof(err));
			break;
		case KEY_ROUTING:
			r = mf_parse_routing(val, &p.routing, err, sizeof(err));
			routing_given = true;
			break;
		case KEY_MODEL:
			r = mf_parse_model(val, &model, err, sizeof(err));
			break;
		case KEY_FORMAT:
			if (!strcmp(val, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(val, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(val, "dot"))
				fmt = FMT_DOT;
			else if (!strcmp(val, "summary") || !strcmp(val, "summary-only"))
				fmt = FMT_SUMMARY;
			else
				return mf_usage(cmd,
						"unknown format '%.40s' (text, json, dot, summary)",
						val);
			break;
		case KEY_STEPS:
			want_steps = true;
			break;
		case KEY_SUMMARY:
			summary = true;
			break;
		case KEY_RATE:
			r = mf_parse_rate(val, &p.lm.rate, err, sizeof(err));
			p.timed = true;
			break;
		case KEY_DELAY:
			r = mf_parse_time(val, &p.lm.delay_ns, err, sizeof(err));
			p.timed = true;
			break;
		case KEY_SWITCHING:
			r = mf_parse_switching(val, &p.tm.switching, err,
					       sizeof(err));
			p.timed = true;
			break;
		case KEY_MODE:
			r = mf_parse_mode(val, &p.tm.async, err, sizeof(err));
			p.timed = true;
			break;
		case KEY_SIZE:
			if (mf_parse_u32(val, 0, MESHFABRIC_MAX_PAYLOAD, &size))
				return mf_usage(cmd, "--size '%.40s': want 0..%u",
						val, MESHFABRIC_MAX_PAYLOAD);
			p.timed = true;
			break;
		case KEY_DOWN:
		case KEY_DOWN_NODE:
			r = mf_down_arg_add(&down, val, k == KEY_DOWN_NODE, err,
					    sizeof(err));
			break;
		}
		if (r)
			return mf_usage(cmd, "%s", err);
	}
	if (ctx->json) {
		if (fmt == FMT_DOT)
			return mf_usage(cmd, "--json and --format dot exclude each other");
		fmt = FMT_JSON;
	}
	if (fmt == FMT_SUMMARY) {
		summary = true;
		fmt = FMT_TEXT;
	}
	if (summary && want_steps)
		return mf_usage(cmd, "--steps and --summary exclude each other");
	if (mf_topo_arg_build(&ta, &p.t, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (from && mf_parse_node(&p.t, from, &source, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (mf_routing_for(&p.t, p.routing, &p.routing, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	mf_format_shape(&p.t, shape, sizeof(shape));

	if (algo != MESHFABRIC_ALGO_AUTO) {
		const struct mf_algo *al = mf_algo_by_id(algo);

		if (model && al->model != model)
			return mf_usage(cmd, "%s is %s %s algorithm; --model %s does not apply",
					al->name,
					al->model == MESHFABRIC_MODEL_ALL_PORT ? "an" : "a",
					mf_model_name(al->model), mf_model_name(model));
		if (routing_given && !al->routed)
			return mf_usage(cmd, "%s does not follow a routing (--routing is for tree and binomial)",
					al->name);
		if (al->supports(&p.t))
			/* meshes are the default reading of "6x6"; name the other kinds */
			return mf_fail("%s covers %s; %s%s is not one", al->name,
				       al->covers,
				       p.t.kind == MESHFABRIC_KIND_TORUS ? "torus " : "",
				       shape);
	}
	if (mf_down_args_build(&down, &p.t, &p.f, err, sizeof(err))) {
		mf_faults_free(&p.f);
		return mf_usage(cmd, "%s", err);
	}
	/* the core builds and checks (auto: every candidate, keeping the
	 * best; by the fabric time on these links, if given); around the
	 * faults: built, checked, repaired, checked
	 */
	p.tm.bytes = (u64)size + 14;	/* the Ethernet header */
	p.tm.ctx = &p.lm;
	rq = (struct mf_plan_req){ .id = algo, .model = model,
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
			     model ? (model == MESHFABRIC_MODEL_ONE_PORT ?
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
			     algo ? mf_algo_by_id(algo)->name : "auto",
			     mf_topo_kind_name(p.t.kind), shape,
			     r == -E2BIG && p.f.n ? "the fault routing needs over "
			     "4 MiB (too many pairs rerouted or cut)" :
			     mf_strerror(r));
		goto out;
	}
	if (p.timed) {
		p.tm.bytes = (u64)size + 14;	/* the Ethernet header */
		p.tm.ctx = &p.lm;
		r = mf_timeline_alloc(&p.tl, &p.t, &p.s);
		if (!r)
			r = mf_sched_time(&p.t, &p.s, &p.tm, NULL, &p.tl);
		if (r) {
			rc = mf_fail("fabric time: %s", mf_strerror(r));
			goto out;
		}
	}
	if (fmt == FMT_JSON)
		print_json(ctx->out, &p, !summary);
	else if (fmt == FMT_DOT)
		print_dot(ctx->out, &p);
	else
		print_text(ctx->out, &p, !summary && (want_steps ||
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
	.summary = "build, check and print a broadcast schedule (offline)",
	.synopsis = "{--mesh AxBx...|--torus AxBx...|--hex N} [--from NODE] [--algo ALGO]\n"
		    "       [--routing ROUTING] [--model MODEL] [--json|--format FORMAT]\n"
		    "       [--steps|--summary] [--down NODE:PORT]... [--down-node NODE]...\n"
		    "       [--link-rate RATE] [--link-delay TIME] [--size BYTES]\n"
		    "       [--switching store-and-forward|cut-through] [--mode sync|async]",
	.description =
		"Every schedule is validated by the independent checker before it is\n"
		"printed; an invalid schedule is an error (exit 1).  The summary gives\n"
		"steps, sends, TCD (sum of path lengths), the largest number of sends on\n"
		"one directed link in one step, and whether the schedule is free of\n"
		"step contention.  With --link-rate, --link-delay, --switching, --mode\n"
		"or --size, it also gives the schedule's fabric time on such links (the\n"
		"model of `meshfabric link`), per step with --steps: what BCAST reports\n"
		"on an idle fabric with the same links.  With --down and --down-node\n"
		"the schedule is repaired\n"
		"around those faults (sends rerouted along surviving shortest paths or\n"
		"moved to other senders and steps), checked against them, and the\n"
		"summary adds the unreachable nodes and the fault-free steps and TCD.\n",
	.opts = plan_opts,
	.run = plan_main,
};
