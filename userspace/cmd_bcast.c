// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_bcast.c - `meshfabric bcast NAME`: one broadcast executed by
 * meshfabric.ko (BCAST ioctl) from a node to every other node, with the
 * kernel's statistics.  --steps prints the schedule it executed: the
 * kernel builds it with the portable core, so the same mf_plan_checked() here,
 * for the same topology, algorithm (the one the kernel reports it ran),
 * routing and source, gives the same schedule; it is checked (mf_check)
 * and its statistics must equal the kernel's, else the command fails.
 *
 * JSON: {"fabric","source","algo","model","steps","sends","tcd",
 * "max_link_load","contention","delivered","unreachable","elapsed_ns","mode",
 * "fabric_time_ns","step_ns":[...],
 * "schedule":[[{"src","dst","path":[...]}],...] (with --steps)}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "check.h"
#include "route.h"
#include "dev.h"
#include "cmd_plan.h"
#include "units.h"
#include "faults.h"

enum { KEY_FROM = 1, KEY_ALGO, KEY_SIZE, KEY_ETHERTYPE, KEY_STEPS, KEY_MODE };

#define DEFAULT_ETHERTYPE 0x88b5	/* IEEE 802 local experimental */

static const struct mf_opt bcast_opts[] = {
	{ "from", 0, "NODE", KEY_FROM,
	  "source: coordinates (3,4) or node id; hex: address (default 0)" },
	{ "algo", 0, "ALGO", KEY_ALGO,
	  "auto (default), eyes, hex, tree, binomial, flood, tsay-wang, mintcd, "
	  "wormhole, split, eyes-paper" },
	{ "size", 0, "BYTES", KEY_SIZE, "payload bytes, 0..65536 (default 64)" },
	{ "ethertype", 0, "TYPE", KEY_ETHERTYPE,
	  "Ethernet type, 0x0600..0xffff (default 0x88b5)" },
	{ "steps", 0, NULL, KEY_STEPS, "also print the schedule that was executed" },
	{ "mode", 0, "MODE", KEY_MODE,
	  "timed links: sync (steps wait for each other, default) or async" },
	{ NULL, 0, NULL, 0, NULL }
};

static int parse_ethertype(const char *s, u32 *v)
{
	char *end;
	unsigned long x = strtoul(s, &end, 0);

	if (!*s || *end || x < 0x600 || x > 0xffff)
		return -1;
	*v = (u32)x;
	return 0;
}

/* The kernel's down links as a fault set (LINK_GET's flags). */
static int down_links(const struct meshfabric_info *in,
		      const struct mf_topo *t, struct mf_faults *f)
{
	struct meshfabric_link_info *e;
	u32 n, i;
	int r;

	mf_faults_init(f);
	r = mf_dev_link_get(in->id, &e, &n, NULL);
	for (i = 0; !r && i < n; i++)
		if (e[i].flags & MESHFABRIC_LINKF_DOWN &&
		    e[i].peer != MESHFABRIC_NO_PEER)
			r = mf_faults_add_link(f, t, e[i].node, e[i].port);
	free(e);	/* NULL if LINK_GET failed */
	return r;
}

/* What the broadcast did, text or JSON; fp: around faults, s: --steps. */
static void print_bcast(struct mf_ctx *ctx, const struct meshfabric_info *in,
			const struct mf_topo *t,
			const struct meshfabric_bcast *b, u32 size, bool async,
			const struct mf_fault_plan *fp,
			const struct mf_sched *s, const u64 *step_ns)
{
	const struct mf_algo *ran = mf_algo_by_id(b->algo);
	const struct mf_stats st = {
		.steps = b->steps, .sends = b->sends, .tcd = b->tcd,
		.max_link_load = b->max_link_load,
	};
	char shape[96];
	struct mf_print p;

	mf_format_shape(t, shape, sizeof(shape));
	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_obj_open(&p, NULL);
	mf_print_str(&p, MF_PRINT_ANY, "fabric", "broadcast        %s",
		     (const char *)in->name);
	mf_print_fp(&p, " (%s %s)", mf_topo_kind_name(t->kind), shape);
	mf_print_node(&p, MF_PRINT_ANY, "source", " from %s", t, b->source);
	mf_print_u64(&p, MF_PRINT_FP, NULL, " (node %llu)", b->source);
	mf_print_u64(&p, MF_PRINT_FP, NULL, ", %llu bytes\n", size);
	mf_print_str(&p, MF_PRINT_ANY, "algo", "algorithm        %s",
		     ran ? ran->name : "?");
	mf_print_str(&p, MF_PRINT_ANY, "model", " (%s)\n",
		     ran ? mf_model_name(ran->model) : "?");
	mf_print_str(&p, MF_PRINT_FP, NULL, "routing          %s\n",
		     mf_route_name(in->routing));
	mf_print_sched_stats(&p, &st);
	mf_print_u64(&p, MF_PRINT_ANY, "contention",
		     "contention       %llu\n", b->contention);
	mf_print_u64(&p, MF_PRINT_ANY, "delivered", "delivered        %llu",
		     b->delivered);
	mf_print_u64(&p, MF_PRINT_FP, NULL, " of %llu\n", t->nodes - 1);
	mf_print_u64(&p, b->unreachable ? MF_PRINT_ANY : MF_PRINT_JSON,
		     "unreachable", "unreachable      %llu (links down)\n",
		     b->unreachable);
	if (fp)
		mf_print_fault_free(&p, &fp->plan.stats);
	mf_print_u64(&p, MF_PRINT_JSON, "elapsed_ns", NULL, b->elapsed_ns);
	mf_print_double(&p, MF_PRINT_FP, NULL, "elapsed          %.1f us\n",
			(double)b->elapsed_ns / 1000.0);
	mf_print_str(&p, MF_PRINT_JSON, "mode", NULL, async ? "async" : "sync");
	mf_print_timing(&p, b->fabric_time_ns ? MF_PRINT_ANY : MF_PRINT_JSON,
			b->fabric_time_ns, step_ns, b->steps, true);
	if (s)
		mf_print_steps(&p, "schedule", t, s);
	mf_print_end(&p);
}

static int bcast_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_bcast;
	const char *name = NULL, *from = NULL, *val;
	u32 algo = MESHFABRIC_ALGO_AUTO, size = 64, etype = DEFAULT_ETHERTYPE, src = 0;
	struct mf_plan_result res;
	struct meshfabric_bcast b;
	struct meshfabric_info in;
	struct mf_sched s;
	struct mf_stats st;
	struct mf_topo t;
	struct mf_args ar;
	bool steps = false, have_sched = false, async = false, faulty;
	struct mf_fault_plan fp;
	struct mf_faults faults;
	u64 *step_ns;
	char err[256];
	unsigned char *payload;
	int k, r, rc;

	mf_faults_init(&faults);
	mf_args_init(&ar, ctx, argc, argv);
	while ((k = mf_args_cmd(&ar, NULL, MF_ARGS_POSITIONAL, &val, &rc)) != MF_ARG_END) {
		r = 0;
		switch (k) {
		case MF_ARG_STOP:
			return rc;
		case MF_ARG_POSITIONAL:
			if (name)
				return mf_usage(cmd, "unexpected argument '%.40s'", val);
			name = val;
			break;
		case KEY_FROM:
			from = val;
			break;
		case KEY_ALGO:
			r = mf_parse_algo(val, &algo, err, sizeof(err));
			break;
		case KEY_SIZE:
			if (mf_parse_u32(val, 0, MESHFABRIC_MAX_PAYLOAD, &size))
				return mf_usage(cmd, "--size '%.40s': want 0..%u", val,
						MESHFABRIC_MAX_PAYLOAD);
			break;
		case KEY_ETHERTYPE:
			if (parse_ethertype(val, &etype))
				return mf_usage(cmd, "--ethertype '%.40s': want 0x0600..0xffff",
						val);
			break;
		case KEY_STEPS:
			steps = true;
			break;
		case KEY_MODE:
			r = mf_parse_mode(val, &async, err, sizeof(err));
			break;
		}
		if (r)
			return mf_usage(cmd, "%s", err);
	}
	r = mf_dev_lookup_or_fail(cmd, name, &in, &t);
	if (r)
		return r;
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	if (from && mf_parse_node(&t, from, &src, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	payload = calloc(1, size ? size : 1);
	step_ns = calloc(t.nodes, sizeof(*step_ns));	/* steps < nodes */
	if (!payload || !step_ns) {
		free(payload);
		free(step_ns);
		return mf_fail("out of memory");
	}
	memset(&b, 0, sizeof(b));
	b.id = in.id;
	b.source = src;
	b.algo = algo;
	b.payload_ptr = (uintptr_t)payload;
	b.len = size;
	b.ethertype = etype;
	b.flags = async ? MESHFABRIC_BCAST_ASYNC : 0;
	b.step_ns_ptr = (uintptr_t)step_ns;
	b.steps = t.nodes;
	r = mf_dev_bcast(&b);
	free(payload);
	if (r)
		free(step_ns);
	if (r == -EOPNOTSUPP)
		return mf_fail("algorithm %s does not cover a %s",
			       algo ? mf_algo_by_id(algo)->name : "auto",
			       mf_topo_kind_name(t.kind));
	if (r == -ENETDOWN)
		return mf_fail("broadcast on %s: a node is down or gone (meshfabric show %s)",
			       (const char *)in.name, (const char *)in.name);
	if (r)
		return mf_fail("broadcast on %s: %s", (const char *)in.name,
			       mf_dev_strerror(-r));
	/* links down: the kernel repaired the schedule of the algorithm
	 * asked for; the same here gives it and the fault-free cost
	 */
	faulty = in.down_links && !down_links(&in, &t, &faults) && faults.n;
	if (faulty || steps) {
		if (faulty) {
			r = mf_plan_faults(&t, algo, 0, src, in.routing, &faults,
					   &s, &fp);
			st = fp.stats;
		} else {
			r = mf_plan_checked(&t, b.algo, 0, src, in.routing, &s,
					    &res);
			st = res.stats;
		}
		if (r) {
			mf_sched_free(&s);
			free(step_ns);
			return mf_fail("rebuilding the schedule: %s", mf_strerror(r));
		}
		have_sched = true;
		if (st.steps != b.steps || st.sends != b.sends || st.tcd != b.tcd ||
		    st.max_link_load != b.max_link_load || st.contention != b.contention) {
			mf_sched_free(&s);
			free(step_ns);
			return mf_fail("the schedule rebuilt here differs from the kernel's "
				       "(steps %u/%u, sends %u/%u): tool and module versions differ?",
				       st.steps, b.steps, st.sends, b.sends);
		}
	}
	print_bcast(ctx, &in, &t, &b, size, async, faulty ? &fp : NULL,
		    have_sched && steps ? &s : NULL, step_ns);
	if (have_sched)
		mf_sched_free(&s);
	mf_faults_free(&faults);
	free(step_ns);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_bcast = {
	"bcast", "broadcast one frame over a fabric, with its statistics (root)",
	"NAME [--from NODE] [--algo ALGO] [--size BYTES] [--ethertype T] [--steps]\n"
	"                       [--mode sync|async]",
	"The kernel runs the schedule step by step; every other node receives\n"
	"the frame exactly once.  --steps: the schedule, rebuilt by the same\n"
	"core code and checked against the kernel's statistics.  On timed links\n"
	"(meshfabric link) each node gets the frame at its arrival in fabric\n"
	"time; the fabric time, in all and per step, is printed.",
	bcast_opts, bcast_main,
};
