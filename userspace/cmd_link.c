// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_link.c - `meshfabric link set|show`: a fabric's timed links
 * (LINK_SET, LINK_GET; the model is the core's timing.h), iproute2 style:
 *
 *   meshfabric link set NAME NODE|all PORT|all [rate RATE] [delay TIME]
 *                       [queue FRAMES] [loss PERCENT]
 *                       [switching store-and-forward|cut-through]
 *   meshfabric link show NAME [NODE [PORT]] [-j]
 *   meshfabric link set NAME NODE PORT down|up  (both directions)
 *   meshfabric node set NAME NODE down|up       (every link of NODE)
 *
 * Ports are named as `stats` and ethtool name them (x+, y-, d4+; H_n: +1,
 * -11, ...); a bound extra port (`meshfabric port`) as e0, e1...  Every
 * value is checked before anything changes.
 *
 * JSON (show): {"fabric","switching","now_ns","links":[{"node","port",
 * "peer" (a node, or "external": a bound port),"state","rate","delay_ns","queue","loss_ppb","packets","bytes",
 * "drop_loss","drop_queue","busy_ns","backlog_ns"}]}.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "print.h"
#include "dev.h"
#include "units.h"

static const struct mf_opt link_opts[] = {
	{ NULL, 0, NULL, 0, NULL }
};

/* A port of t by its name (an extra port's too: e0...), or "all". */
static int parse_port(const struct mf_topo *t, const char *s, u32 *port)
{
	if (!strcmp(s, "all")) {
		*port = MESHFABRIC_ALL;
		return 0;
	}
	return mf_parse_xport(t, s, port);
}

/* An external port is bound at node's port (`meshfabric port`). */
static bool port_bound(const struct meshfabric_info *in, u32 node, u32 port)
{
	struct meshfabric_port_info pi[MESHFABRIC_PORTS_MAX];
	u32 n, i;

	if (mf_dev_port_get(in->id, pi, &n))
		return false;
	for (i = 0; i < n; i++)
		if (pi[i].node == node && pi[i].port == port)
			return true;
	return false;
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

		if (!strcmp(k, "down") || !strcmp(k, "up")) {
			if (ls->flags & MESHFABRIC_LINK_STATE)
				return mf_err(err, errlen, "down or up, once");
			ls->flags |= MESHFABRIC_LINK_STATE;
			ls->down = k[0] == 'd';
			i--;	/* a keyword without a value */
			continue;
		}
		if (!v)
			return mf_err(err, errlen, "'%.40s' needs a value", k);
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
			return mf_err(err, errlen,
				      "unknown parameter '%.40s' (rate, delay, queue, loss, switching, down, up)",
				      k);
		}
		if (r)
			return -1;
	}
	if (!ls->flags)
		return mf_err(err, errlen,
			      "nothing to set (rate, delay, queue, loss, switching, down, up)");
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
	if (ls.port != MESHFABRIC_ALL && !mf_topo_is_link(&t, ls.node, ls.port) &&
	    !port_bound(&in, ls.node, ls.port))
		return mf_fail("node %s has no link on port %s (nor an external port bound)",
			       argv[1], argv[2]);
	if (parse_params(argc - 3, argv + 3, &ls, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	r = mf_dev_link_set(&ls);
	if (r == -E2BIG)
		return mf_fail("link set on %s: more than %u links down, or their routing above its work bound or 4 MiB",
			       argv[0], MESHFABRIC_DOWN_MAX);
	if (r)
		return mf_fail("link set on %s: %s", argv[0], mf_dev_strerror(-r));
	return MF_EXIT_OK;
}

/* node set NAME NODE down|up: every link of the node. */
static int node_set(const struct mf_cmd *cmd, int argc, char **argv)
{
	char *args[4];

	if (argc != 3 || (strcmp(argv[2], "down") && strcmp(argv[2], "up")))
		return mf_usage(cmd, "node set NAME NODE down|up");
	args[0] = argv[0];
	args[1] = argv[1];
	args[2] = "all";
	args[3] = argv[2];
	return link_set(cmd, 4, args);
}

static void show_link(struct mf_print *o, const struct mf_topo *t,
		      const struct meshfabric_link_info *li)
{
	mf_print_obj_open(o, NULL);
	mf_print_node(o, MF_PRINT_ANY, "node", "%s ", t, li->node);
	mf_print_port(o, MF_PRINT_ANY, "port", "%s -> ", t, li->port);
	if (li->flags & MESHFABRIC_LINKF_PORT)	/* `meshfabric port` */
		mf_print_str(o, MF_PRINT_ANY, "peer", "%s: ", "external");
	else
		mf_print_node(o, MF_PRINT_ANY, "peer", "%s: ", t, li->peer);
	mf_print_link_state(o, "%s ", li->flags & MESHFABRIC_LINKF_DOWN);
	mf_print_rate(o, MF_PRINT_ANY, "rate", "rate %s ", li->rate);
	mf_print_time(o, MF_PRINT_ANY, "delay_ns", "delay %s ", li->delay_ns);
	mf_print_u64(o, MF_PRINT_ANY, "queue", "queue %llu ", li->queue);
	mf_print_loss(o, MF_PRINT_ANY, "loss_ppb", "loss %s\n", li->loss);
	mf_print_u64(o, MF_PRINT_ANY, "packets", "    packets %llu",
		     li->packets);
	mf_print_u64(o, MF_PRINT_ANY, "bytes", " bytes %llu", li->bytes);
	mf_print_u64(o, MF_PRINT_ANY, "drop_loss", " dropped loss %llu",
		     li->drop_loss);
	mf_print_u64(o, MF_PRINT_ANY, "drop_queue", " queue %llu",
		     li->drop_queue);
	mf_print_time(o, MF_PRINT_ANY, "busy_ns", " busy %s", li->busy_ns);
	mf_print_time(o, MF_PRINT_ANY, "backlog_ns", " backlog %s\n",
		      li->backlog_ns);
	mf_print_obj_close(o);
}

static int link_show(struct mf_ctx *ctx, const struct mf_cmd *cmd, int argc,
		     char **argv)
{
	u32 node = MESHFABRIC_ALL, port = MESHFABRIC_ALL, n, nx = 0, i;
	struct meshfabric_link_info *e, x[MESHFABRIC_PORTS_MAX], *li;
	struct meshfabric_link_get lg;
	struct meshfabric_info in;
	struct mf_topo t;
	struct mf_print o;
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
	if (!r)		/* and the bound extra ports' links */
		r = mf_dev_xlink_get(in.id, lg.nlinks, x, &nx);
	if (r) {
		free(e);
		return mf_fail("link show %s: %s", argv[0], mf_dev_strerror(-r));
	}
	mf_print_start(&o, ctx->out, ctx->json);
	mf_print_obj_open(&o, NULL);
	mf_print_str(&o, MF_PRINT_ANY, "fabric", "fabric %s: ",
		     (const char *)in.name);
	mf_print_str(&o, MF_PRINT_ANY, "switching", "switching %s\n",
		     mf_switching_name(lg.switching));
	mf_print_u64(&o, MF_PRINT_JSON, "now_ns", NULL, lg.now_ns);
	mf_print_arr_open(&o, "links");
	for (i = 0; i < n + nx; i++) {
		li = i < n ? &e[i] : &x[i - n];
		if ((li->peer == MESHFABRIC_NO_PEER &&
		     !(li->flags & MESHFABRIC_LINKF_PORT)) ||
		    (node != MESHFABRIC_ALL && li->node != node) ||
		    (port != MESHFABRIC_ALL && li->port != port))
			continue;
		show_link(&o, &t, li);
	}
	mf_print_end(&o);
	free(e);
	return MF_EXIT_OK;
}

static int link_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = ctx->cmd;
	char *pos[16];
	int rc, np = mf_args_words(ctx, argc, argv, pos, 16, "set or show?", &rc);

	if (np < 0)
		return rc;
	if (cmd == &mf_cmd_node)
		return strcmp(pos[0], "set") ?
		       mf_usage(cmd, "unknown subcommand '%.40s' (set)", pos[0]) :
		       node_set(cmd, np - 1, pos + 1);
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
	"                       [down|up]\n"
	"       meshfabric link show NAME [NODE [PORT]] [-j]",
	"Links start unlimited (frames cross at once).  A rate (tc units: 100mbit,\n"
	"1gbit), a delay (1ms, 250us, 40ns; bare: us) or a loss (1%) makes every\n"
	"unicast frame and broadcast follow the link model: serialisation at the\n"
	"rate, FIFO queues of at most queue frames (default 1000), delay, loss.\n"
	"PORT as `meshfabric stats` names it (x+, y-, d4+; H_n: +1, -11; a\n"
	"bound extra port of `meshfabric port`: e0, e1...); a directed link:\n"
	"NODE's way out through PORT.  down/up: both directions\n"
	"of the link fail or recover; routes go around links down (shortest paths\n"
	"of what survives), broadcasts are repaired.  show: state, parameters,\n"
	"counters, drops, busy time and backlog of every link (or NODE, PORT).",
	link_opts, link_main,
};

const struct mf_cmd mf_cmd_node = {
	"node", "a node down or up: all its links (root)",
	"set NAME NODE down|up",
	"Every link of NODE down (its interface then has no carrier) or up, as\n"
	"`meshfabric link set NAME NODE all down|up`.",
	link_opts, link_main,
};
