// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_link.c - `meshfabric link set|show`: a fabric's timed links
 * (LINK_SET, LINK_GET; the model is the core's timing.h), iproute2 style:
 *
 *   meshfabric link set NAME NODE|all PORT|all [rate RATE] [delay TIME]
 *                       [queue FRAMES] [loss PERCENT]
 *                       [switching store-and-forward|cut-through]
 *   meshfabric link show NAME [NODE [PORT]] [-j]
 *
 * Ports are named as `stats` and ethtool name them (x+, y-, d4+; H_n: +1,
 * -11, ...).  Every value is checked before anything changes.
 *
 * JSON (show): {"fabric","switching","now_ns","links":[{"node","port",
 * "peer","rate","delay_ns","queue","loss_ppb","packets","bytes",
 * "drop_loss","drop_queue","busy_ns","backlog_ns"}]}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "json.h"
#include "dev.h"
#include "units.h"

static const struct mf_opt link_opts[] = {
	{ NULL, 0, NULL, 0, NULL }
};

/* A port of t by its name, or "all". */
static int parse_port(const struct mf_topo *t, const char *s, u32 *port)
{
	char name[16];
	u32 p;

	if (!strcmp(s, "all")) {
		*port = MESHFABRIC_ALL;
		return 0;
	}
	for (p = 0; p < t->nports; p++) {
		mf_format_port(t, p, name, sizeof(name));
		if (!strcmp(s, name)) {
			*port = p;
			return 0;
		}
	}
	return -1;
}

static const char *switching_name(u32 sw)
{
	return sw == MESHFABRIC_SWITCH_CUT_THROUGH ? "cut-through" :
						      "store-and-forward";
}

/* KEYWORD VALUE pairs of link set into ls; usage error text in err. */
static int parse_params(int argc, char **argv, struct meshfabric_link_set *ls,
			char *err, size_t errlen)
{
	int i;

	for (i = 0; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		u64 x = 0;
		int r = 0;

		if (!v) {
			snprintf(err, errlen, "'%.40s' needs a value", k);
			return -1;
		}
		if (!strcmp(k, "rate")) {
			r = mf_parse_rate(v, &x, err, errlen);
			ls->rate = x;
			ls->flags |= MESHFABRIC_LINK_RATE;
		} else if (!strcmp(k, "delay")) {
			r = mf_parse_time(v, &x, err, errlen);
			ls->delay_ns = x;
			ls->flags |= MESHFABRIC_LINK_DELAY;
		} else if (!strcmp(k, "queue")) {
			if (mf_parse_u32(v, 1, MESHFABRIC_QUEUE_MAX, &ls->queue)) {
				snprintf(err, errlen,
					 "queue '%.40s': want 1..%u frames", v,
					 MESHFABRIC_QUEUE_MAX);
				r = -1;
			}
			ls->flags |= MESHFABRIC_LINK_QUEUE;
		} else if (!strcmp(k, "loss")) {
			r = mf_parse_loss(v, &ls->loss, err, errlen);
			ls->flags |= MESHFABRIC_LINK_LOSS;
		} else if (!strcmp(k, "switching")) {
			r = mf_parse_switching(v, &ls->switching, err, errlen);
			ls->flags |= MESHFABRIC_LINK_SWITCHING;
		} else {
			snprintf(err, errlen,
				 "unknown parameter '%.40s' (rate, delay, queue, loss, switching)",
				 k);
			return -1;
		}
		if (r)
			return -1;
	}
	if (!ls->flags) {
		snprintf(err, errlen,
			 "nothing to set (rate, delay, queue, loss, switching)");
		return -1;
	}
	return 0;
}

static int link_set(const struct mf_cmd *cmd, int argc, char **argv)
{
	struct meshfabric_link_set ls;
	struct meshfabric_info in;
	struct mf_topo t;
	char err[256];
	int r;

	if (argc < 3)
		return mf_usage(cmd, "link set NAME NODE|all PORT|all PARAMETER VALUE...");
	r = mf_dev_lookup_or_fail(cmd, argv[0], &in, &t);
	if (r)
		return r;
	memset(&ls, 0, sizeof(ls));
	ls.id = in.id;
	ls.node = MESHFABRIC_ALL;
	if (strcmp(argv[1], "all") &&
	    mf_parse_node(&t, argv[1], &ls.node, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (parse_port(&t, argv[2], &ls.port))
		return mf_usage(cmd, "unknown port '%.40s' (as `meshfabric stats` names them, or all)",
				argv[2]);
	if (ls.node == MESHFABRIC_ALL && ls.port != MESHFABRIC_ALL)
		return mf_usage(cmd, "a port needs its node (or: all all)");
	if (ls.port != MESHFABRIC_ALL && !mf_topo_is_link(&t, ls.node, ls.port))
		return mf_fail("node %s has no link on port %s", argv[1], argv[2]);
	if (parse_params(argc - 3, argv + 3, &ls, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	r = mf_dev_link_set(&ls);
	if (r)
		return mf_fail("link set on %s: %s", argv[0], mf_dev_strerror(-r));
	return MF_EXIT_OK;
}

static void show_text(FILE *f, const struct mf_topo *t,
		      const struct meshfabric_link_info *li)
{
	char a[64], b[64], p[16], r[32], d[32], l[32], busy[32], bl[32];

	mf_format_node(t, li->node, a, sizeof(a));
	mf_format_node(t, li->peer, b, sizeof(b));
	mf_format_port(t, li->port, p, sizeof(p));
	mf_format_rate(li->rate, r, sizeof(r));
	mf_format_time(li->delay_ns, d, sizeof(d));
	mf_format_loss(li->loss, l, sizeof(l));
	mf_format_time(li->busy_ns, busy, sizeof(busy));
	mf_format_time(li->backlog_ns, bl, sizeof(bl));
	fprintf(f, "%s %s -> %s: rate %s delay %s queue %u loss %s\n", a, p, b,
		r, d, li->queue, l);
	fprintf(f, "    packets %llu bytes %llu dropped loss %llu queue %llu busy %s backlog %s\n",
		(unsigned long long)li->packets, (unsigned long long)li->bytes,
		(unsigned long long)li->drop_loss,
		(unsigned long long)li->drop_queue, busy, bl);
}

static void show_json(struct mf_json *j, const struct meshfabric_link_info *li)
{
	mf_json_obj(j);
	mf_json_kv_u64(j, "node", li->node);
	mf_json_kv_u64(j, "port", li->port);
	mf_json_kv_u64(j, "peer", li->peer);
	mf_json_kv_u64(j, "rate", li->rate);
	mf_json_kv_u64(j, "delay_ns", li->delay_ns);
	mf_json_kv_u64(j, "queue", li->queue);
	mf_json_kv_u64(j, "loss_ppb", li->loss);
	mf_json_kv_u64(j, "packets", li->packets);
	mf_json_kv_u64(j, "bytes", li->bytes);
	mf_json_kv_u64(j, "drop_loss", li->drop_loss);
	mf_json_kv_u64(j, "drop_queue", li->drop_queue);
	mf_json_kv_u64(j, "busy_ns", li->busy_ns);
	mf_json_kv_u64(j, "backlog_ns", li->backlog_ns);
	mf_json_close(j);
}

static int link_show(struct mf_ctx *ctx, const struct mf_cmd *cmd, int argc,
		     char **argv)
{
	u32 node = MESHFABRIC_ALL, port = MESHFABRIC_ALL, n, i;
	struct meshfabric_link_info *e;
	struct meshfabric_link_get lg;
	struct meshfabric_info in;
	struct mf_topo t;
	struct mf_json j;
	char err[256];
	int r;

	if (argc < 1 || argc > 3)
		return mf_usage(cmd, "link show NAME [NODE [PORT]]");
	r = mf_dev_lookup_or_fail(cmd, argv[0], &in, &t);
	if (r)
		return r;
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	if (argc > 1 && mf_parse_node(&t, argv[1], &node, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (argc > 2 && parse_port(&t, argv[2], &port))
		return mf_usage(cmd, "unknown port '%.40s'", argv[2]);
	r = mf_dev_link_get(in.id, &e, &n, &lg);
	if (r)
		return mf_fail("link show %s: %s", argv[0], mf_dev_strerror(-r));
	if (ctx->json) {
		mf_json_init(&j, ctx->out);
		mf_json_obj(&j);
		mf_json_kv_str(&j, "fabric", (const char *)in.name);
		mf_json_kv_str(&j, "switching", switching_name(lg.switching));
		mf_json_kv_u64(&j, "now_ns", lg.now_ns);
		mf_json_key(&j, "links");
		mf_json_arr(&j);
	} else {
		fprintf(ctx->out, "fabric %s: switching %s\n",
			(const char *)in.name, switching_name(lg.switching));
	}
	for (i = 0; i < n; i++) {
		if (e[i].peer == MESHFABRIC_NO_PEER ||
		    (node != MESHFABRIC_ALL && e[i].node != node) ||
		    (port != MESHFABRIC_ALL && e[i].port != port))
			continue;
		if (ctx->json)
			show_json(&j, &e[i]);
		else
			show_text(ctx->out, &t, &e[i]);
	}
	if (ctx->json) {
		mf_json_close(&j);
		mf_json_end(&j);
	}
	free(e);
	return MF_EXIT_OK;
}

static int link_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_link;
	char *pos[16];
	const char *val;
	struct mf_args a;
	int k, rc, np = 0;

	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_cmd(&a, NULL, MF_ARGS_POSITIONAL, &val, &rc)) !=
	       MF_ARG_END) {
		if (k == MF_ARG_STOP)
			return rc;
		if (np == 16)
			return mf_usage(cmd, "too many arguments");
		pos[np++] = (char *)val;
	}
	if (!np)
		return mf_usage(cmd, "set or show?");
	if (!strcmp(pos[0], "set"))
		return link_set(cmd, np - 1, pos + 1);
	if (!strcmp(pos[0], "show") || !strcmp(pos[0], "list"))
		return link_show(ctx, cmd, np - 1, pos + 1);
	return mf_usage(cmd, "unknown subcommand '%.40s' (set, show)", pos[0]);
}

const struct mf_cmd mf_cmd_link = {
	"link", "timed links: rate, delay, queue, loss, switching (set: root)",
	"set NAME NODE|all PORT|all [rate RATE] [delay TIME] [queue FRAMES]\n"
	"                       [loss PERCENT] [switching store-and-forward|cut-through]\n"
	"       meshfabric link show NAME [NODE [PORT]] [-j]",
	"Links start unlimited (frames cross at once).  A rate (tc units: 100mbit,\n"
	"1gbit), a delay (1ms, 250us, 40ns; bare: us) or a loss (1%) makes every\n"
	"unicast frame and broadcast follow the link model: serialisation at the\n"
	"rate, FIFO queues of at most queue frames (default 1000), delay, loss.\n"
	"PORT as `meshfabric stats` names it (x+, y-, d4+; H_n: +1, -11); a\n"
	"directed link: NODE's way out through PORT.  show: parameters, counters,\n"
	"drops, busy time and backlog of every link (or of NODE, PORT).",
	link_opts, link_main,
};
