// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_bcast.c - `meshfabric bcast NAME`: one broadcast executed by
 * meshfabric.ko (BCAST ioctl) from a node to every other node, with the
 * kernel's statistics.  The module builds the closed-form schedules
 * itself; auto and the searches are planned here (mf_plan_for, as plan
 * does) and handed to it (SCHED_LOAD), as is a user's --schedule FILE.
 * --steps prints the schedule it executed: the same core here, for the
 * same topology, algorithm (the one the kernel reports it ran), routing,
 * source and down links, gives the same schedule; it is checked
 * (mf_check) and its statistics must equal the kernel's, else the
 * command fails.  A fabric split over hosts runs the module's own
 * algorithms only (auto too, chosen there): every host builds the same.
 *
 * JSON: {"fabric","source","algo","model","steps","sends","tcd",
 * "max_link_load","contention","delivered","unreachable","crossed",
 * "elapsed_ns","mode",
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
#include "schedfile.h"
#include "schedcode.h"
#include "timing.h"

enum { KEY_FROM = 1, KEY_ALGO, KEY_SIZE, KEY_ETHERTYPE, KEY_STEPS, KEY_MODE,
       KEY_SCHEDULE };

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
	{ "schedule", 0, "FILE", KEY_SCHEDULE,
	  "run this schedule (plan's JSON; - for stdin), checked by the kernel" },
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

/* Hand the kernel the schedule us (SCHED_LOAD) for BCAST's ALGO_USER;
 * exit status of the failure, or 0.
 */
static int load_schedule(const struct meshfabric_info *in,
			 const struct mf_topo *t, const struct mf_sched *us,
			 const char *file)
{
	struct meshfabric_sched_load sl;
	char why[128] = "";
	s64 len = (s64)mf_sched_code_len(t, us);
	u8 *code = malloc(len ? len : 1);
	int r;

	if (!code)
		return mf_fail("out of memory");
	len = mf_sched_encode(t, us, code, len);
	memset(&sl, 0, sizeof(sl));
	sl.id = in->id;
	sl.source = us->source;
	sl.model = us->model;
	sl.nsteps = us->nsteps;
	sl.nsends = us->nsends;
	sl.code_ptr = (uintptr_t)code;
	sl.code_len = len < 0 ? 0 : (u32)len;
	sl.why_ptr = (uintptr_t)why;
	sl.why_len = sizeof(why);
	r = len < 0 ? (int)len : mf_dev_sched_load(&sl);
	free(code);
	if (r == -EINVAL && why[0])
		return mf_fail("schedule %.80s refused by the kernel: %s", file,
			       why);
	if (r)
		return mf_fail("schedule %.80s: %s", file, mf_dev_strerror(-r));
	return 0;
}

static void link_model(const void *ctx, u64 l, struct mf_link_model *out)
{
	const struct meshfabric_link_info *e = ctx;

	out->rate = e[l].rate;
	out->delay_ns = e[l].delay_ns;
}

/* What the kernel lacks, planned here (algo.h, mf_algo_in_kernel): the
 * schedule of algo (auto: over every algorithm, the searches included)
 * from src into us, chosen as the kernel chooses: around the down links
 * f, the algorithm whose repaired schedule wins (the kernel repairs the
 * fault-free schedule it is given the same way), else by completion time
 * on the fabric's timed links, else by steps and TCD.  *used: the
 * algorithm; *ff: the fault-free statistics plan --down prints.
 */
static int plan_here(const struct meshfabric_info *in, const struct mf_topo *t,
		     u32 algo, u32 src, bool async, u32 size,
		     const struct mf_faults *f, struct mf_sched *us,
		     const struct mf_algo **used, struct mf_stats *ff)
{
	struct mf_plan_req rq = { .id = algo, .source = src,
				  .routing = in->routing, .faults = f };
	struct meshfabric_link_info *e = NULL;
	struct meshfabric_link_get lg;
	struct mf_fault_plan fp;
	struct mf_timing tm;
	bool timed = false;
	u32 n = 0, i;
	int r;

	if (f->n) {
		/* the kernel repairs the fault-free schedule it is given */
		r = mf_plan_for(t, &rq, us, &fp);
		mf_sched_free(us);
		if (r)
			return r;
		*ff = fp.plan.stats;
		rq.id = fp.used->id;
		rq.faults = NULL;
	} else if (!mf_dev_link_get(in->id, &e, &n, &lg)) {
		for (i = 0; i < n; i++)
			timed |= e[i].rate || e[i].delay_ns || e[i].loss;
		tm = (struct mf_timing){ .switching = lg.switching,
					 .async = async, .bytes = size + 14,
					 .get = link_model, .ctx = e };
		rq.tm = timed ? &tm : NULL;
	}
	r = mf_plan_for(t, &rq, us, &fp);
	free(e);
	*used = fp.used;
	if (!f->n)
		*ff = fp.stats;
	return r;
}

/* What bcast_main has to print. */
struct bcast_report {
	const struct meshfabric_info *in;
	const struct mf_topo *t;
	const struct meshfabric_bcast *b;
	const struct mf_algo *ran;	/* NULL: the user's schedule, file */
	const char *file;
	u32 model, size;
	bool async;
	const struct mf_fault_plan *fp;	/* around down links */
	const struct mf_sched *s;	/* --steps */
	const u64 *step_ns;
};

/* What the broadcast did, text or JSON. */
static void print_bcast(struct mf_ctx *ctx, const struct bcast_report *o)
{
	const struct meshfabric_bcast *b = o->b;
	const struct mf_topo *t = o->t;
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
		     (const char *)o->in->name);
	mf_print_fp(&p, " (%s %s)", mf_topo_kind_name(t->kind), shape);
	mf_print_node(&p, MF_PRINT_ANY, "source", " from %s", t, b->source);
	mf_print_u64(&p, MF_PRINT_FP, NULL, " (node %llu)", b->source);
	mf_print_u64(&p, MF_PRINT_FP, NULL, ", %llu bytes\n", o->size);
	if (o->ran) {
		mf_print_str(&p, MF_PRINT_ANY, "algo", "algorithm        %s",
			     o->ran->name);
	} else {	/* the user's schedule: "user" in JSON, its file in text */
		mf_print_str(&p, MF_PRINT_JSON, "algo", NULL, "user");
		mf_print_str(&p, MF_PRINT_FP, NULL, "algorithm        %s",
			     o->file);
	}
	mf_print_str(&p, MF_PRINT_ANY, "model", " (%s)\n",
		     mf_model_name(o->model));
	mf_print_str(&p, MF_PRINT_FP, NULL, "routing          %s\n",
		     mf_route_name(o->in->routing));
	mf_print_sched_stats(&p, &st);
	mf_print_u64(&p, MF_PRINT_ANY, "contention",
		     "contention       %llu\n", b->contention);
	mf_print_u64(&p, MF_PRINT_ANY, "delivered", "delivered        %llu",
		     b->delivered);
	mf_print_u64(&p, MF_PRINT_FP, NULL, " of %llu\n", t->nodes - 1);
	mf_print_u64(&p, b->unreachable ? MF_PRINT_ANY : MF_PRINT_JSON,
		     "unreachable", "unreachable      %llu (links down)\n",
		     b->unreachable);
	mf_print_u64(&p, b->crossed ? MF_PRINT_ANY : MF_PRINT_JSON, "crossed",
		     "crossed          %llu (sends handed to other hosts)\n",
		     b->crossed);
	if (o->fp)
		mf_print_fault_free(&p, &o->fp->plan.stats);
	mf_print_u64(&p, MF_PRINT_JSON, "elapsed_ns", NULL, b->elapsed_ns);
	mf_print_double(&p, MF_PRINT_FP, NULL, "elapsed          %.1f us\n",
			(double)b->elapsed_ns / 1000.0);
	mf_print_str(&p, MF_PRINT_JSON, "mode", NULL,
		     o->async ? "async" : "sync");
	mf_print_timing(&p, b->fabric_time_ns ? MF_PRINT_ANY : MF_PRINT_JSON,
			b->fabric_time_ns, o->step_ns, b->steps, true);
	if (o->s)
		mf_print_steps(&p, "schedule", t, o->s);
	mf_print_end(&p);
}

/* bcast's options, as mf_args_parse hands them over. */
struct bcast_args {
	const char *name, *from, *file;
	u32 algo, size, etype;
	bool algo_given, async;
};

static int bcast_opt(void *st, int key, const char *val, char *err,
		     size_t errlen)
{
	struct bcast_args *o = st;

	if (key == MF_ARG_POSITIONAL)
		return mf_arg_name(&o->name, val, err, errlen);
	if (key == KEY_FROM || key == KEY_SCHEDULE) {	/* used later */
		*(key == KEY_FROM ? &o->from : &o->file) = val;
		return 0;
	}
	switch (key) {
	case KEY_ALGO:
		o->algo_given = true;
		return mf_parse_algo(val, &o->algo, err, errlen);
	case KEY_SIZE:
		if (mf_parse_u32(val, 0, MESHFABRIC_MAX_PAYLOAD, &o->size))
			return mf_err(err, errlen, "--size '%.40s': want 0..%u",
				      val, MESHFABRIC_MAX_PAYLOAD);
		return 0;
	case KEY_ETHERTYPE:
		if (parse_ethertype(val, &o->etype))
			return mf_err(err, errlen,
				      "--ethertype '%.40s': want 0x0600..0xffff",
				      val);
		return 0;
	}
	return mf_parse_mode(val, &o->async, err, errlen);	/* KEY_MODE */
}

static int bcast_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_bcast;
	struct bcast_args o = { .algo = MESHFABRIC_ALGO_AUTO, .size = 64,
				.etype = DEFAULT_ETHERTYPE };
	const char *name, *from, *file;
	u32 algo, size, etype, src = 0;
	const struct mf_algo *ran, *planned = NULL;
	struct mf_plan_req rq;
	struct meshfabric_bcast b;
	struct meshfabric_info in;
	struct mf_sched s, us;
	struct mf_stats st, ff;
	struct mf_topo t;
	bool steps, have_sched = false, async, faulty, split;
	struct meshfabric_tunnel tu;
	struct mf_fault_plan fp;
	struct mf_faults faults;
	unsigned int flags = 0;
	u64 *step_ns;
	char err[256];
	unsigned char *payload;
	int r;

	r = mf_args_parse(ctx, argc, argv, NULL, MF_ARGS_POSITIONAL, bcast_opt,
			  &o, &flags);
	if (r >= 0)
		return r;
	mf_faults_init(&faults);
	name = o.name;
	from = o.from;
	file = o.file;
	algo = o.algo;
	size = o.size;
	etype = o.etype;
	async = o.async;
	steps = flags & 1u << KEY_STEPS;
	r = mf_dev_lookup_or_fail(cmd, name, &in, &t);
	if (r)
		return r;
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	if (from && mf_parse_node(&t, from, &src, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	mf_sched_init(&us, 0, 0);
	if (file) {
		if (o.algo_given)
			return mf_usage(cmd, "--schedule and --algo exclude each other");
		if (mf_sched_read_from(file, &t, from, src, &us, err,
				       sizeof(err))) {
			mf_sched_free(&us);
			return mf_fail("%s", err);
		}
		src = us.source;
	}
	/* links down: the kernel repairs the schedule (its own or ours);
	 * the same here gives it and the fault-free cost
	 */
	faulty = in.down_links && !down_links(&in, &t, &faults) && faults.n;
	/* split over hosts: the schedule every host's module builds alike */
	memset(&tu, 0, sizeof(tu));
	tu.id = in.id;
	split = !mf_dev_tunnel_get(&tu);
	if (split && (file || (algo != MESHFABRIC_ALGO_AUTO &&
			       !mf_algo_in_kernel(algo)))) {
		mf_sched_free(&us);
		return mf_fail("%s is split over hosts: only the module's own algorithms cross them",
			       (const char *)in.name);
	}
	if (!file && !split &&
	    (algo == MESHFABRIC_ALGO_AUTO || !mf_algo_in_kernel(algo))) {
		r = plan_here(&in, &t, algo, src, async, size, &faults, &us,
			      &planned, &ff);
		if (r == -EOPNOTSUPP)
			return mf_fail("algorithm %s does not cover a %s",
				       algo ? mf_algo_by_id(algo)->name : "auto",
				       mf_topo_kind_name(t.kind));
		if (r)
			return mf_fail("planning: %s", mf_strerror(r));
	}
	if (file || planned) {
		algo = MESHFABRIC_ALGO_USER;
		r = load_schedule(&in, &t, &us, file ? file : planned->name);
		if (r) {
			mf_sched_free(&us);
			return r;
		}
	}
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
	if (r)
		mf_sched_free(&us);
	if (r == -EOPNOTSUPP && split)
		return mf_fail("broadcast on %s: the algorithm does not cover it",
			       (const char *)in.name);
	if (r == -EOPNOTSUPP)
		return mf_fail("algorithm %s does not cover a %s",
			       mf_algo_by_id(algo) ? mf_algo_by_id(algo)->name :
						     "auto",
			       mf_topo_kind_name(t.kind));
	if (r == -ENETDOWN)
		return mf_fail("broadcast on %s: a node is down or gone (meshfabric show %s)",
			       (const char *)in.name, (const char *)in.name);
	if (r == -EMSGSIZE && split)
		return mf_fail("broadcast on %s: a %u-byte payload is too long to cross hosts in one UDP datagram (65449 at most over IPv4, 65469 over IPv6, 20 less on timed links)",
			       (const char *)in.name, size);
	if (r == -EREMOTE)
		return mf_fail("broadcast on %s: node %u is on another host",
			       (const char *)in.name, src);
	if (r)
		return mf_fail("broadcast on %s: %s", (const char *)in.name,
			       mf_dev_strerror(-r));
	ran = planned ? planned : mf_algo_by_id(b.algo);
	if (b.algo == MESHFABRIC_ALGO_USER && !faulty) {
		s = us;		/* the schedule we gave */
		mf_sched_init(&us, 0, 0);
		r = mf_check(&t, &s, &st, err, sizeof(err));
		have_sched = true;
	} else if (b.algo == MESHFABRIC_ALGO_USER || faulty || steps) {
		/* the kernel's schedule rebuilt: ours or its algorithm's,
		 * repaired around the down links as it did
		 */
		rq = (struct mf_plan_req){ .id = b.algo, .source = src,
					   .routing = in.routing,
					   .faults = faulty ? &faults : NULL };
		if (b.algo == MESHFABRIC_ALGO_USER)
			rq.given = &us;
		r = mf_plan_for(&t, &rq, &s, &fp);
		st = fp.stats;
		if (planned)
			fp.plan.stats = ff;
		have_sched = true;
	}
	mf_sched_free(&us);
	if (have_sched && r) {
		mf_sched_free(&s);
		free(step_ns);
		return mf_fail("rebuilding the schedule: %s", mf_strerror(r));
	}
	if (have_sched) {
		if (st.steps != b.steps || st.sends != b.sends || st.tcd != b.tcd ||
		    st.max_link_load != b.max_link_load || st.contention != b.contention) {
			mf_sched_free(&s);
			free(step_ns);
			return mf_fail("the schedule rebuilt here differs from the kernel's "
				       "(steps %u/%u, sends %u/%u): tool and module versions differ?",
				       st.steps, b.steps, st.sends, b.sends);
		}
	}
	print_bcast(ctx, &(struct bcast_report){
		.in = &in, .t = &t, .b = &b, .ran = ran, .file = file,
		.model = ran ? ran->model : s.model, .size = size,
		.async = async, .fp = faulty ? &fp : NULL,
		.s = have_sched && steps ? &s : NULL, .step_ns = step_ns });
	if (have_sched)
		mf_sched_free(&s);
	mf_faults_free(&faults);
	free(step_ns);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_bcast = {
	"bcast", "broadcast one frame over a fabric, with its statistics (root)",
	"NAME [--from NODE] [--algo ALGO | --schedule FILE] [--size BYTES]\n"
	"                       [--ethertype T] [--steps] [--mode sync|async]",
	"The kernel runs the schedule step by step; every other node receives\n"
	"the frame exactly once.  --steps: the schedule, rebuilt by the same\n"
	"core code and checked against the kernel's statistics.  On timed links\n"
	"(meshfabric link) each node gets the frame at its arrival in fabric\n"
	"time; the fabric time, in all and per step, is printed.  --schedule runs\n"
	"a schedule of your own in plan's JSON format (meshfabric plan ... --json):\n"
	"the kernel checks it with the same checker as its own and refuses an\n"
	"invalid one with the checker's reason.",
	bcast_opts, bcast_main,
};
