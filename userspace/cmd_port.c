// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_port.c - `meshfabric port attach|detach|show`: external ports, a
 * node's border port or extra port bound to an existing netdev
 * (MESHFABRIC_IOC_PORT, PORT_GET; docs/multihost.md "External ports"),
 * iproute2 style:
 *
 *   meshfabric port attach NAME NODE PORT dev IFNAME [netns NS]
 *   meshfabric port detach NAME NODE PORT
 *   meshfabric port show NAME [-j]
 *
 * NS is a name of `ip netns` (/var/run/netns/NS) or a path; without it
 * the tool's own namespace.  PORT is named as `meshfabric stats` names
 * ports (x-, y+...) and must have no neighbour (a mesh's border), or is
 * an extra port beyond the node's degree, e0 .. e15 (any topology).
 *
 * JSON (show): {"fabric","ports":[{"node","port","dev","ifindex",
 * "netns","netns_ino","rx_packets","rx_bytes","rx_dropped","learned",
 * "state","tx_packets","tx_bytes","drop_loss","drop_queue"}]}: rx_* the
 * frames that entered the fabric through the port, tx_* and drop_* its
 * link's counters (the frames the fabric sent out of it), netns the
 * `ip netns` name of its namespace or null.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "parse.h"
#include "print.h"
#include "dev.h"
#include "netns.h"

static const struct mf_opt port_opts[] = {
	{ NULL, 0, NULL, 0, NULL }
};

/* NAME NODE PORT of attach and detach into mp (and in, t). */
static int parse_target(const struct mf_cmd *cmd, char **argv,
			struct meshfabric_info *in, struct mf_topo *t,
			struct meshfabric_port *mp)
{
	char err[256];
	int r;

	r = mf_dev_lookup_or_fail(cmd, argv[0], in, t);
	if (r)
		return r;
	memset(mp, 0, sizeof(*mp));
	mp->id = in->id;
	if (mf_parse_node(t, argv[1], &mp->node, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (mf_parse_xport(t, argv[2], &mp->port))
		return mf_usage(cmd, "unknown port '%.40s' (as `meshfabric stats` names them, or e0..e%u)",
				argv[2], MESHFABRIC_PORTS_MAX - 1);
	return 0;
}

static int port_attach(const struct mf_cmd *cmd, int argc, char **argv)
{
	const char *ifname = NULL, *ns = NULL;
	struct meshfabric_port mp;
	struct meshfabric_info in;
	char path[PATH_MAX];
	struct mf_topo t;
	int i, fd, r;

	if (argc < 5)
		return mf_usage(cmd, "port attach NAME NODE PORT dev IFNAME [netns NS]");
	for (i = 3; i < argc; i += 2) {
		if (i + 1 == argc)
			return mf_usage(cmd, "'%.40s' needs a value", argv[i]);
		if (!strcmp(argv[i], "dev") && !ifname)
			ifname = argv[i + 1];
		else if (!strcmp(argv[i], "netns") && !ns)
			ns = argv[i + 1];
		else
			return mf_usage(cmd, "unexpected '%.40s' (dev IFNAME, netns NS, once each)",
					argv[i]);
	}
	if (!ifname)
		return mf_usage(cmd, "which netdev? (dev IFNAME)");
	if (!*ifname || strlen(ifname) >= MESHFABRIC_NAME_LEN)
		return mf_usage(cmd, "interface name '%.40s': 1 to %d characters",
				ifname, MESHFABRIC_NAME_LEN - 1);
	r = parse_target(cmd, argv, &in, &t, &mp);
	if (r)
		return r;
	if (mp.port < t.nports && mf_topo_neighbor(&t, mp.node, mp.port) >= 0)
		return mf_fail("port %s of node %s has a neighbour: only a border port (no neighbour) or an extra port (e0..e%u) can be external",
			       argv[2], argv[1], MESHFABRIC_PORTS_MAX - 1);
	memcpy(mp.ifname, ifname, strlen(ifname));
	if (!ns)
		snprintf(path, sizeof(path), "/proc/self/ns/net");
	else if (strchr(ns, '/'))
		snprintf(path, sizeof(path), "%s", ns);
	else
		snprintf(path, sizeof(path), "%s/%s", MF_NETNS_DIR, ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return mf_fail("netns %s: %s", ns ? ns : "(own)",
			       strerror(errno));
	mp.netns_fd = fd;
	r = mf_dev_port(&mp);
	close(fd);
	switch (-r) {
	case 0:
		return MF_EXIT_OK;
	case ENODEV:
		return mf_fail("port attach: no netdev '%s' in netns %s",
			       ifname, ns ? ns : "(own)");
	case EBUSY:
		return mf_fail("port attach: port %s of node %s is already bound, or %s is taken (a bridge, bond, macvlan or another port)",
			       argv[2], argv[1], ifname);
	case E2BIG:
		return mf_fail("port attach: %u ports already bound on %s",
			       MESHFABRIC_PORTS_MAX, argv[0]);
	case EREMOTE:
		return mf_fail("port attach: node %s of %s is on another host: attach it there",
			       argv[1], argv[0]);
	case EINVAL:
		return mf_fail("port attach: %s is not an Ethernet netdev (or is a loopback or a meshfabric node)",
			       ifname);
	default:
		return mf_fail("port attach on %s: %s", argv[0],
			       mf_dev_strerror(-r));
	}
}

static int port_detach(const struct mf_cmd *cmd, int argc, char **argv)
{
	struct meshfabric_port mp;
	struct meshfabric_info in;
	struct mf_topo t;
	int r;

	if (argc != 3)
		return mf_usage(cmd, "port detach NAME NODE PORT");
	r = parse_target(cmd, argv, &in, &t, &mp);
	if (r)
		return r;
	mp.flags = MESHFABRIC_PORT_DETACH;
	r = mf_dev_port(&mp);
	if (r == -ENOENT)
		return mf_fail("port detach: port %s of node %s is not bound",
			       argv[2], argv[1]);
	if (r)
		return mf_fail("port detach on %s: %s", argv[0],
			       mf_dev_strerror(-r));
	return MF_EXIT_OK;
}

/* The `ip netns` name of the namespace of inode ino into name, or "". */
static void netns_name(u32 ino, char *name, size_t len)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	name[0] = 0;
	if (!stat("/proc/self/ns/net", &st) && st.st_ino == ino) {
		snprintf(name, len, "(own)");
		return;
	}
	dir = opendir(MF_NETNS_DIR);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", MF_NETNS_DIR, d->d_name);
		if (!stat(path, &st) && st.st_ino == ino) {
			snprintf(name, len, "%s", d->d_name);
			break;
		}
	}
	closedir(dir);
}

static void show_port(struct mf_print *o, const struct mf_topo *t,
		      const struct meshfabric_port_info *pi,
		      const struct meshfabric_link_info *li)
{
	char ns[NAME_MAX + 1];

	netns_name(pi->netns_ino, ns, sizeof(ns));
	mf_print_obj_open(o, NULL);
	mf_print_node(o, MF_PRINT_ANY, "node", "node %s ", t, pi->node);
	mf_print_port(o, MF_PRINT_ANY, "port", "port %s: ", t, pi->port);
	mf_print_str(o, MF_PRINT_ANY, "dev", "dev %s ",
		     (const char *)pi->ifname);
	mf_print_u64(o, MF_PRINT_JSON, "ifindex", NULL, pi->ifindex);
	if (ns[0])
		mf_print_str(o, MF_PRINT_ANY, "netns", "netns %s ", ns);
	else
		mf_print_null(o, MF_PRINT_ANY, "netns", "netns ? ");
	mf_print_u64(o, MF_PRINT_ANY, "netns_ino", "(%llu) ", pi->netns_ino);
	mf_print_link_state(o, "%s\n", li && li->flags & MESHFABRIC_LINKF_DOWN);
	mf_print_u64(o, MF_PRINT_ANY, "rx_packets", "    rx packets %llu",
		     pi->rx_packets);
	mf_print_u64(o, MF_PRINT_ANY, "rx_bytes", " bytes %llu", pi->rx_bytes);
	mf_print_u64(o, MF_PRINT_ANY, "rx_dropped", " dropped %llu",
		     pi->rx_dropped);
	mf_print_u64(o, MF_PRINT_ANY, "learned", " learned %llu\n",
		     pi->learned);
	mf_print_u64(o, MF_PRINT_ANY, "tx_packets", "    tx packets %llu",
		     li ? li->packets : 0);
	mf_print_u64(o, MF_PRINT_ANY, "tx_bytes", " bytes %llu",
		     li ? li->bytes : 0);
	mf_print_u64(o, MF_PRINT_ANY, "drop_loss", " dropped loss %llu",
		     li ? li->drop_loss : 0);
	mf_print_u64(o, MF_PRINT_ANY, "drop_queue", " queue %llu\n",
		     li ? li->drop_queue : 0);
	mf_print_obj_close(o);
}

static int port_show(struct mf_ctx *ctx, const struct mf_cmd *cmd, int argc,
		     char **argv)
{
	struct meshfabric_link_info *e = NULL, x[MESHFABRIC_PORTS_MAX], *li;
	struct meshfabric_port_info pi[MESHFABRIC_PORTS_MAX];
	struct meshfabric_info in;
	struct mf_topo t;
	struct mf_print o;
	u32 n, nl = 0, nx = 0, i, j;
	u64 l;
	int r;

	if (argc != 1)
		return mf_usage(cmd, "port show NAME");
	r = mf_dev_lookup_or_fail(cmd, argv[0], &in, &t);
	if (r)
		return r;
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	r = mf_dev_port_get(in.id, pi, &n);
	if (!r && n)
		r = mf_dev_link_get(in.id, &e, &nl, NULL);
	if (!r && n)	/* the extra ports' links, past the topology's */
		r = mf_dev_xlink_get(in.id, nl, x, &nx);
	if (r)
		return mf_fail("port show %s: %s", argv[0], mf_dev_strerror(-r));
	mf_print_start(&o, ctx->out, ctx->json);
	mf_print_obj_open(&o, NULL);
	mf_print_str(&o, MF_PRINT_ANY, "fabric", "fabric %s:",
		     (const char *)in.name);
	mf_print_u64(&o, MF_PRINT_FP, NULL, " %llu ports bound\n", n);
	mf_print_arr_open(&o, "ports");
	for (i = 0; i < n; i++) {
		pi[i].ifname[MESHFABRIC_NAME_LEN - 1] = 0;
		l = (u64)pi[i].node * t.nports + pi[i].port;
		li = pi[i].port < t.nports && l < nl ? &e[l] : NULL;
		for (j = 0; j < nx && !li; j++)
			if (x[j].node == pi[i].node && x[j].port == pi[i].port)
				li = &x[j];
		show_port(&o, &t, &pi[i], li);
	}
	mf_print_end(&o);
	free(e);
	return MF_EXIT_OK;
}

static int port_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = ctx->cmd;
	char *pos[16];
	int rc, np = mf_args_words(ctx, argc, argv, pos, 16, "attach, detach or show?", &rc);

	if (np < 0)
		return rc;
	if (!strcmp(pos[0], "attach"))
		return port_attach(cmd, np - 1, pos + 1);
	if (!strcmp(pos[0], "detach"))
		return port_detach(cmd, np - 1, pos + 1);
	if (!strcmp(pos[0], "show") || !strcmp(pos[0], "list"))
		return port_show(ctx, cmd, np - 1, pos + 1);
	return mf_usage(cmd, "unknown subcommand '%.40s' (attach, detach, show)",
			pos[0]);
}

const struct mf_cmd mf_cmd_port = {
	"port", "external ports: a node's border or extra port bound to a netdev (root)",
	"attach NAME NODE PORT dev IFNAME [netns NS]\n"
	"       meshfabric port detach NAME NODE PORT\n"
	"       meshfabric port show NAME [-j]",
	"Binds a border port of a mesh (one with no neighbour; PORT as\n"
	"`meshfabric stats` names it: x-, y+) or an extra port beyond the\n"
	"node's degree (e0..e15, any topology: a torus, a hex mesh) to an\n"
	"existing Ethernet netdev (a veth, a tap, a NIC) of namespace NS\n"
	"(`ip netns` name or a path; default: this one).  Frames arriving on\n"
	"the netdev enter the fabric at NODE; frames to MACs learned there,\n"
	"unknown unicast and broadcasts leave through it.  The port's link\n"
	"takes `meshfabric link set NAME NODE PORT` (rate, delay, loss,\n"
	"down/up) and counts what leaves.  At most 16 ports per fabric (an\n"
	"extra port's link starts afresh each time it is bound).  detach,\n"
	"deleting the netdev or destroying the fabric give the netdev back as\n"
	"it was.  show: every bound port, its netdev, the frames in (rx) and\n"
	"its link's counters (tx).",
	port_opts, port_main,
};
