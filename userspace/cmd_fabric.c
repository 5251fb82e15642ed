// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_fabric.c - the fabric life cycle commands, driving meshfabric.ko:
 *
 *   meshfabric create --torus 7x7 [--name f0] [--routing R] [--ipv4 P]
 *   meshfabric destroy NAME... | --all
 *   meshfabric list [--names]
 *   meshfabric show NAME [NODE] [--nodes]
 *   meshfabric exec NAME NODE -- CMD [ARGS...]
 *
 * create makes the fabric (CREATE), one named network namespace per node
 * (netns.h: "<name>-<coordinates>", e.g. f0-3-4), each node's netdev
 * directly in its namespace (one ATTACH for all nodes), named like the
 * fabric, then gives every node its addresses (addr.h) and brings it up
 * by rtnetlink.  Any failure midway undoes everything done so far (the
 * fabric, its netdevs, the namespaces) and prints one line; SIGINT,
 * SIGTERM and SIGHUP during create do the same.
 *
 * JSON: create {"name","id","topology":{kind,dims},"nodes","routing",
 * "ipv6_prefix","ipv4_prefix"|null,"seconds"}; list [{"name","id",
 * "topology","nodes","present","gone","routing"}]; show {...,"nodes":
 * [{"node","coords","namespace","ifname","state","mac","addresses"}]}.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <linux/sched.h>

#include "cli.h"
#include "name.h"
#include "parse.h"
#include "print.h"
#include "route.h"
#include "dev.h"
#include "netns.h"
#include "remote.h"
#include "addr.h"
#include "units.h"
#include "partition.h"

int setns(int fd, int nstype);
int unshare(int flags);

enum {
	KEY_NAME = 1, KEY_ROUTING, KEY_IPV4, KEY_NO_IPV6, KEY_ALL, KEY_NAMES,
	KEY_NODES, KEY_LINK_RATE, KEY_LINK_DELAY, KEY_LINK_QUEUE, KEY_LINK_LOSS,
	KEY_SWITCHING, KEY_ID, KEY_PART, KEY_PEER, KEY_TUNNEL_PORT,
	KEY_KEEPALIVE, KEY_PARTITION, KEY_DRIVE,
};

/* show lists the nodes by default up to this many. */
#define SHOW_NODES_BY_DEFAULT_MAX 64
#define MAX_ADDRS 8

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void format_prefix6(const uint8_t p[8], char *buf, size_t len)
{
	struct in6_addr a;

	memset(&a, 0, sizeof(a));
	memcpy(a.s6_addr, p, 8);
	inet_ntop(AF_INET6, &a, buf, (socklen_t)len);
	strncat(buf, "/64", len - strlen(buf) - 1);
}

/* ---- create ---------------------------------------------------------- */

static const struct mf_opt create_opts[] = {
	MF_OPTS_TOPOLOGY,
	{ "name", 0, "NAME", KEY_NAME,
	  "fabric name: 1-15 of [A-Za-z0-9_.], a letter first (default mfID)" },
	{ "routing", 0, "ROUTING", KEY_ROUTING,
	  "dor, diagonal, cdo (mesh/torus), a1 (hex); default per topology" },
	{ "ipv4", 0, "PREFIX", KEY_IPV4,
	  "also give node i the address i+1 of PREFIX (e.g. 10.0.0.0/16)" },
	{ "no-ipv6", 0, NULL, KEY_NO_IPV6, "no IPv6 unique local addresses" },
	MF_OPTS_LINK(KEY_LINK_RATE, KEY_LINK_DELAY, KEY_SWITCHING),
	{ "link-queue", 0, "FRAMES", KEY_LINK_QUEUE,
	  "every link's queue limit (default 1000)" },
	{ "link-loss", 0, "PERCENT", KEY_LINK_LOSS,
	  "every link's loss probability (e.g. 1%; default 0)" },
	{ "id", 0, "ID", KEY_ID,
	  "the fabric id wanted (0..255; every part of one fabric: the same)" },
	{ "part", 0, "K/P", KEY_PART,
	  "hold part K of P of the fabric here (slabs; docs/multihost.md)" },
	{ "peer", 0, "ADDR", KEY_PEER,
	  "with --part: the host of part 0, 1, .. (P times, IPv4 or IPv6)" },
	{ "tunnel-port", 0, "PORT", KEY_TUNNEL_PORT,
	  "UDP port of the cut links' Geneve tunnel (default 6081)" },
	{ "partition", 0, "FILE", KEY_PARTITION,
	  "with --part: the part of every node from FILE, not slabs" },
	{ "keepalive", 0, "TIME", KEY_KEEPALIVE,
	  "keepalive interval (e.g. 1s; a part silent 3 of them: cut links down)" },
	{ "drive", 0, NULL, KEY_DRIVE,
	  "with --part: also create the other parts on their --peer hosts (ssh)" },
	{ NULL, 0, NULL, 0, NULL }
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void catch_signals(bool on)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int check_name(const char *s, char *err, size_t errlen)
{
	size_t n = strlen(s);

	if (n && n < MESHFABRIC_NAME_LEN &&
	    !mf_name_check(s, MESHFABRIC_NAME_LEN, false))
		return 0;
	snprintf(err, errlen,
		 "bad fabric name '%.40s': 1 to 15 letters, digits, "
		 "'_' or '.', a letter first, not 'lo' or mf<digits>", s);
	return -1;
}

struct create_state {
	struct mf_topo t;
	struct mf_addr_plan ap;
	u32 routing;
	const char *name;
	struct meshfabric_create c;
	struct meshfabric_link_set link;	/* flags 0: none given */
	/* multi-host (--part): nparts 0 for a fabric all here */
	struct meshfabric_tunnel tun;
	struct meshfabric_tunnel_peer peers[MESHFABRIC_TUNNEL_MAX_PARTS];
	u32 npeers;
	int dim;		/* the slabs' dimension */
	u64 cut;		/* cut links */
	u8 *part;
	bool want_id;
	u32 id;
	const char *partition;	/* --partition FILE */
	/* --drive: the other parts, created over ssh (remote.c) from this
	 * command's words (argc, argv) with their own --part
	 */
	bool drive;
	int argc;
	char **argv;
	struct mf_remote *rm;
	u32 nrm;
};

/* Undo: the fabric and its netdevs (the namespaces are gone already). */
static void create_undo(struct create_state *s)
{
	mf_dev_destroy(s->c.id, 0);
}

/* The fabric in meshfabric.ko, with its name (the kernel's mf<id>). */
static int create_kernel(struct create_state *s)
{
	struct meshfabric_info in;
	u32 i;
	int r;

	memset(&s->c, 0, sizeof(s->c));
	s->c.kind = s->t.kind;
	s->c.ndims = s->t.ndims;
	for (i = 0; i < s->t.ndims; i++)
		s->c.dims[i] = s->t.dims[i];
	s->c.routing = s->routing;
	if (s->want_id) {
		s->c.flags |= MESHFABRIC_CREATE_ID;
		s->c.id = s->id;
	}
	if (s->name)
		strncpy((char *)s->c.name, s->name, MESHFABRIC_NAME_LEN - 1);
	r = mf_dev_create(&s->c);
	if (r == -EEXIST)
		return mf_fail("fabric '%s' exists already", s->name);
	if (r == -EBUSY && s->want_id)
		return mf_fail("fabric id %u is taken", s->id);
	if (r)
		return mf_fail("creating the fabric: %s", mf_dev_strerror(-r));
	if (!s->name) {
		/* CREATE's name is input only: the kernel's mf<id>, by INFO */
		r = mf_dev_info(s->c.id, &in, NULL, 0, 0);
		if (r) {
			mf_dev_destroy(s->c.id, 0);
			return mf_fail("fabric information: %s", strerror(-r));
		}
		memcpy(s->c.name, in.name, MESHFABRIC_NAME_LEN);
	}
	s->c.name[MESHFABRIC_NAME_LEN - 1] = 0;
	if (!s->c.name[0]) {
		mf_dev_destroy(s->c.id, 0);
		return mf_fail("the kernel gave the fabric no name");
	}
	if (s->link.flags) {
		/* every link, before any node exists */
		s->link.id = s->c.id;
		s->link.node = MESHFABRIC_ALL;
		s->link.port = MESHFABRIC_ALL;
		r = mf_dev_link_set(&s->link);
		if (r) {
			mf_dev_destroy(s->c.id, 0);
			return mf_fail("setting the links: %s",
				       mf_dev_strerror(-r));
		}
	}
	if (s->tun.nparts) {
		/* before any node exists: their MTU leaves room for it */
		s->tun.id = s->c.id;
		s->tun.nodes = s->t.nodes;
		s->tun.map_ptr = (uintptr_t)s->part;
		s->tun.peers_ptr = (uintptr_t)s->peers;
		r = mf_dev_tunnel_set(&s->tun);
		if (r) {
			mf_dev_destroy(s->c.id, 0);
			if (r == -EMSGSIZE)
				return mf_fail("the underlay's MTU to a peer "
					       "leaves nodes less than %u bytes",
					       MESHFABRIC_TUNNEL_MIN_MTU);
			return mf_fail("the cut links' tunnel: %s",
				       mf_dev_strerror(-r));
		}
	}
	if (!s->ap.ipv4 || s->ap.ipv6)
		mf_addr_ula_prefix((const char *)s->c.name, s->ap.prefix6);
	return MF_EXIT_OK;
}

/* Node i, in its new namespace: its netdev (ATTACH), addresses, up. */
static int create_node(void *arg, u32 i, int nsfd, int nlfd, char *err,
		       size_t errlen)
{
	struct create_state *s = arg;
	struct meshfabric_attach_entry e;
	char a[64];
	u32 done = 0;
	int r, ifindex;

	memset(&e, 0, sizeof(e));
	e.node = i;
	e.netns_fd = nsfd;
	memcpy(e.ifname, s->c.name, MESHFABRIC_NAME_LEN);
	mf_format_node(&s->t, i, a, sizeof(a));
	r = mf_dev_attach(s->c.id, &e, 1, &done);
	if (r) {
		snprintf(err, errlen, "creating the netdev of node %s: %s", a,
			 mf_dev_strerror(-r));
		return r;
	}
	/* this process is in the node's namespace: the name is unique */
	ifindex = (int)if_nametoindex((const char *)s->c.name);
	r = ifindex ? mf_addr_setup(nlfd, ifindex, &s->ap, i) : -errno;
	if (r)
		snprintf(err, errlen, "configuring node %s: %s", a,
			 strerror(-r));
	return r;
}

/*
 * One namespace per node, and the node set up in it before the next
 * namespace exists (netns.h says why).
 */
static int create_nodes(struct create_state *s)
{
	char err[256];
	int r;

	r = mf_netns_create_part(&s->t, (const char *)s->c.name,
				 s->tun.nparts ? s->part : NULL,
				 (u8)s->tun.part, create_node, s, &interrupted,
				 err, sizeof(err));
	if (r) {
		create_undo(s);
		return mf_fail("%s", r == -EINTR ? "interrupted" : err);
	}
	return MF_EXIT_OK;
}

/* --drive: the part of the other hosts' i-th */
static u32 remote_part(const struct create_state *s, u32 i)
{
	return i < s->tun.part ? i : i + 1;
}

static void create_print(struct mf_ctx *ctx, const struct create_state *s,
			 u32 routing, double secs)
{
	const char *name = (const char *)s->c.name;
	char a[64], b[128];
	struct mf_print p;

	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_obj_open(&p, NULL);
	mf_print_str(&p, MF_PRINT_ANY, "name", "created fabric %s: ", name);
	mf_print_u64(&p, MF_PRINT_JSON, "id", NULL, s->c.id);
	mf_print_topology(&p, &s->t, "%s %s, ");
	mf_print_u64(&p, MF_PRINT_ANY, "nodes", "%llu nodes, ", s->t.nodes);
	mf_print_str(&p, MF_PRINT_ANY, "routing", "routing %s, ",
		     mf_route_name(routing));
	mf_print_double(&p, MF_PRINT_FP, NULL, "in %.2f s\n", secs);
	mf_netns_name(&s->t, name, 0, a, sizeof(a));
	mf_netns_name(&s->t, name, s->t.nodes - 1, b, sizeof(b));
	mf_print_fp(&p, "namespaces %s .. %s, interface %s in each\n", a, b,
		    name);
	if (s->ap.ipv6) {
		format_prefix6(s->ap.prefix6, a, sizeof(a));
		mf_print_str(&p, MF_PRINT_ANY, "ipv6_prefix",
			     "IPv6 %s: node N is ::1:N (N in hex)\n", a);
	} else {
		mf_print_null(&p, MF_PRINT_JSON, "ipv6_prefix", NULL);
	}
	if (s->ap.ipv4) {
		struct in_addr n4 = { htonl(s->ap.net4) };

		inet_ntop(AF_INET, &n4, a, sizeof(a));
		snprintf(b, sizeof(b), "%s/%u", a, s->ap.len4);
		mf_print_str(&p, MF_PRINT_ANY, "ipv4_prefix",
			     "IPv4 %s: node N is the prefix's address N+1\n",
			     b);
	} else {
		mf_print_null(&p, MF_PRINT_JSON, "ipv4_prefix", NULL);
	}
	if (s->tun.nparts) {
		u32 i, here = 0;

		for (i = 0; i < s->t.nodes; i++)
			here += s->part[i] == s->tun.part;
		mf_print_obj_open(&p, "part");
		mf_print_u64(&p, MF_PRINT_ANY, "part", "part %llu", s->tun.part);
		mf_print_u64(&p, MF_PRINT_ANY, "parts", " of %llu: ",
			     s->tun.nparts);
		mf_print_u64(&p, MF_PRINT_ANY, "nodes", "%llu nodes here, ",
			     here);
		if (s->dim >= 0)
			mf_print_u64(&p, MF_PRINT_ANY, "dimension",
				     "slabs along dimension %llu, ",
				     (u64)s->dim);
		else
			mf_print_str(&p, MF_PRINT_ANY, "partition",
				     "partition %s, ", s->partition);
		mf_print_u64(&p, MF_PRINT_ANY, "cut_links", "%llu cut links, ",
			     s->cut);
		mf_print_u64(&p, MF_PRINT_ANY, "mtu", "node MTU %llu\n",
			     s->tun.mtu);
		mf_print_obj_close(&p);
	} else {
		mf_print_null(&p, MF_PRINT_JSON, "part", NULL);
	}
	if (s->drive) {
		u32 i;

		mf_print_arr_open(&p, "hosts");
		for (i = 0; i < s->nrm; i++) {
			mf_print_obj_open(&p, NULL);
			mf_print_u64(&p, MF_PRINT_ANY, "part", "part %llu",
				     remote_part(s, i));
			mf_print_str(&p, MF_PRINT_ANY, "host", " on %s: created",
				     s->rm[i].host);
			mf_print_double(&p, MF_PRINT_ANY, "seconds",
					" in %.2f s (ssh)\n", s->rm[i].secs);
			mf_print_obj_close(&p);
		}
		mf_print_arr_close(&p);
	}
	mf_print_double(&p, MF_PRINT_JSON, "seconds", NULL, secs);
	mf_print_fp(&p, "'meshfabric show %s NODE' gives a node's addresses\n",
		    name);
	mf_print_end(&p);
}

static void peer_str(const struct create_state *s, u32 part, char *buf,
		     size_t len)
{
	inet_ntop(s->tun.flags & MESHFABRIC_TUNNEL_IPV6 ? AF_INET6 : AF_INET,
		  s->peers[part].addr, buf, len);
}

/* --drive: `create` with this command's words and part K of P, on the
 * host of each other part, all at once; if one fails, the parts made
 * are destroyed again on their hosts (this host's by the caller).
 */
static int create_remote(struct create_state *s)
{
	struct mf_remote *undo;
	char host[INET6_ADDRSTRLEN], pv[24];
	u32 i, k, bad = 0;
	int j;

	s->nrm = s->tun.nparts - 1;
	s->rm = calloc(s->nrm, sizeof(*s->rm));
	undo = calloc(s->nrm, sizeof(*undo));
	if (!s->rm || !undo) {
		free(undo);
		return mf_fail("out of memory");
	}
	for (i = 0; i < s->nrm; i++) {
		k = remote_part(s, i);
		peer_str(s, k, host, sizeof(host));
		mf_remote_init(&s->rm[i], host);
		snprintf(pv, sizeof(pv), "%u/%u", k, s->tun.nparts);
		mf_remote_arg(&s->rm[i], "create");
		for (j = 1; j < s->argc; j++) {
			if (!strcmp(s->argv[j], "--drive") ||
			    !strncmp(s->argv[j], "--part=", 7))
				continue;
			if (!strcmp(s->argv[j], "--part")) {
				j++;
				continue;
			}
			mf_remote_arg(&s->rm[i], s->argv[j]);
		}
		mf_remote_arg(&s->rm[i], "--part");
		mf_remote_arg(&s->rm[i], pv);
	}
	/* any word that did not fit (mf_remote_arg's sticky flag) */
	for (i = 0; i < s->nrm && !s->rm[i].toolong; i++)
		;
	if (i < s->nrm) {
		free(undo);
		return mf_fail("--drive: the command is too long for ssh");
	}
	/* ^C or a signal now stops the other hosts' creates (SIGTERM) */
	mf_remote_run(s->rm, s->nrm, &interrupted);
	for (i = 0; i < s->nrm; i++)
		bad += !!s->rm[i].status;
	if (!bad && !interrupted) {
		free(undo);
		return 0;
	}
	/* the parts that were made go again; a host whose ssh ended
	 * without its tool's status (255: refused, cut, killed) may or may
	 * not hold one, and one whose tool failed holds none of ours: its
	 * NAME may be another fabric, never destroyed here
	 */
	for (i = k = 0; i < s->nrm; i++) {
		if (s->rm[i].status == 255)
			fprintf(stderr, "meshfabric: create: part %u on %s: not known whether it was made (ssh ended: %s); see 'meshfabric list' there\n",
				remote_part(s, i), s->rm[i].host,
				s->rm[i].last[0] ? s->rm[i].last : "no output");
		if (s->rm[i].status)
			continue;
		mf_remote_init(&undo[k], s->rm[i].host);
		mf_remote_arg(&undo[k], "destroy");
		mf_remote_arg(&undo[k++], (const char *)s->c.name);
	}
	mf_remote_run(undo, k, NULL);
	for (i = 0; i < k; i++)
		if (undo[i].status)
			fprintf(stderr, "meshfabric: create: undoing on %s: %s\n",
				undo[i].host, undo[i].last);
	free(undo);
	if (interrupted)
		return mf_fail("interrupted: the parts made were destroyed");
	for (i = 0; i < s->nrm; i++)
		if (s->rm[i].status)
			return mf_fail("part %u on %s (ssh, exit %d): %s",
				       remote_part(s, i), s->rm[i].host,
				       s->rm[i].status, s->rm[i].last[0] ?
				       s->rm[i].last : "no output");
	return MF_EXIT_FAIL;
}

static int create_fabric(struct mf_ctx *ctx, struct create_state *s)
{
	struct meshfabric_info in;
	double t0 = now();
	int r;

	catch_signals(true);
	r = create_kernel(s);
	if (!r)
		r = create_nodes(s);
	if (r) {
		catch_signals(false);
		return r;
	}
	r = mf_dev_info(s->c.id, &in, NULL, 0, 0);
	/* signals still caught: an interrupt undoes every host's part */
	if (!r && s->drive)
		r = create_remote(s) ? -EREMOTEIO : 0;
	catch_signals(false);
	if (r) {
		create_undo(s);
		mf_netns_delete_fabric(&s->t, (const char *)s->c.name,
				       s->t.nodes);
		free(s->rm);
		if (r == -EREMOTEIO)
			return MF_EXIT_FAIL;
		return mf_fail("fabric information: %s", strerror(-r));
	}
	create_print(ctx, s, in.routing, now() - t0);
	free(s->rm);
	return MF_EXIT_OK;
}

/* --part K/P */
static int parse_part(const char *val, struct meshfabric_tunnel *tu,
		      char *err, size_t errlen)
{
	unsigned int k, p;
	char c;

	if (sscanf(val, "%u/%u%c", &k, &p, &c) != 2 || p < 2 ||
	    p > MESHFABRIC_TUNNEL_MAX_PARTS || k >= p) {
		snprintf(err, errlen, "--part '%.40s': want K/P, 0 <= K < P, "
			 "2 <= P <= %u", val, MESHFABRIC_TUNNEL_MAX_PARTS);
		return -1;
	}
	tu->part = k;
	tu->nparts = p;
	return 0;
}

/* --peer ADDR, once per part in order; all of one family */
static int parse_peer(const char *val, struct create_state *s, char *err,
		      size_t errlen)
{
	struct meshfabric_tunnel_peer *pe = &s->peers[s->npeers];
	bool v6 = strchr(val, ':');

	if (s->npeers == MESHFABRIC_TUNNEL_MAX_PARTS) {
		snprintf(err, errlen, "--peer: at most %u",
			 MESHFABRIC_TUNNEL_MAX_PARTS);
		return -1;
	}
	if (inet_pton(v6 ? AF_INET6 : AF_INET, val, pe->addr) != 1) {
		snprintf(err, errlen, "--peer '%.40s': not an IPv4 or IPv6 "
			 "address", val);
		return -1;
	}
	if (s->npeers && !!(s->tun.flags & MESHFABRIC_TUNNEL_IPV6) != v6) {
		snprintf(err, errlen, "--peer '%.40s': the peers mix IPv4 and "
			 "IPv6", val);
		return -1;
	}
	if (v6)
		s->tun.flags |= MESHFABRIC_TUNNEL_IPV6;
	s->npeers++;
	return 0;
}

/*
 * --partition FILE: lines "NODE PART" (NODE as everywhere: 3,4 or an
 * id; '#' starts a comment), every node once, every part holding one.
 */
static int read_partition(struct create_state *s, char *err, size_t errlen)
{
	char line[256], node[128], *c;
	unsigned int part;
	u32 id, n = 0, ln = 0;
	u64 seen = 0;
	FILE *fp = fopen(s->partition, "r");

	if (!fp) {
		snprintf(err, errlen, "--partition %.60s: %s", s->partition,
			 strerror(errno));
		return -1;
	}
	memset(s->part, 0xff, s->t.nodes);
	while (fgets(line, sizeof(line), fp)) {
		ln++;
		c = strchr(line, '#');
		if (c)
			*c = 0;
		if (sscanf(line, "%127s", node) != 1)
			continue;
		if (sscanf(line, "%*s %u %127s", &part, node) != 1 ||
		    part >= s->tun.nparts ||
		    mf_parse_node(&s->t, strtok(line, " \t"), &id, err,
				  errlen) || s->part[id] != 0xff) {
			snprintf(err, errlen, "--partition %.60s line %u: want "
				 "NODE PART (0..%u), each node once",
				 s->partition, ln, s->tun.nparts - 1);
			fclose(fp);
			return -1;
		}
		s->part[id] = (u8)part;
		seen |= 1ULL << part;
		n++;
	}
	fclose(fp);
	if (n != s->t.nodes || seen != (s->tun.nparts == 64 ? ~0ULL :
					(1ULL << s->tun.nparts) - 1)) {
		snprintf(err, errlen, "--partition %.60s: %u of %u nodes, or a "
			 "part without nodes", s->partition, n, s->t.nodes);
		return -1;
	}
	return 0;
}

/* --part and --peer: the slabs, or a one-line usage error. */
static int create_parts(const struct mf_cmd *cmd, struct create_state *s)
{
	u32 p = s->tun.nparts;
	char err[256];

	if (!p) {
		if (s->npeers || s->tun.port || s->tun.keepalive_ms ||
		    s->partition)
			return mf_usage(cmd, "--peer, --tunnel-port, --partition "
					"and --keepalive need --part");
		return 0;
	}
	if (s->npeers != p)
		return mf_usage(cmd, "--part %u/%u: want %u --peer (the hosts "
				"of parts 0..%u), got %u", s->tun.part, p, p,
				p - 1, s->npeers);
	if (!s->want_id)
		return mf_usage(cmd, "--part: give --id, the same on every "
				"host (the nodes' MACs carry it)");
	s->part = malloc(s->t.nodes);
	if (!s->part)
		return mf_usage(cmd, "out of memory");
	if (s->partition) {
		s->dim = -1;
		if (read_partition(s, err, sizeof(err))) {
			free(s->part);
			s->part = NULL;
			return mf_usage(cmd, "%s", err);
		}
		s->cut = mf_partition_count_cut(&s->t, s->part);
		return 0;
	}
	s->dim = mf_partition_best_dim(&s->t, p);
	if (s->dim < 0) {
		free(s->part);
		s->part = NULL;
		return mf_usage(cmd, "--part: no dimension of %u nodes or more "
				"to cut in %u slabs (--partition FILE)", p, p);
	}
	s->cut = mf_partition_slab_cut(&s->t, (u32)s->dim, p);
	mf_partition_slabs(&s->t, (u32)s->dim, p, s->part);
	return 0;
}

static int create_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_create;
	struct mf_topo_arg ta = { 0, NULL };
	const char *ipv4 = NULL, *val;
	struct create_state s;
	u64 x;
	struct mf_args a;
	char err[256];
	int k, r, rc;

	memset(&s, 0, sizeof(s));
	s.ap.ipv6 = true;
	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_cmd(&a, &ta, 0, &val, &rc)) != MF_ARG_END) {
		r = 0;
		switch (k) {
		case MF_ARG_STOP:
			return rc;
		case KEY_NAME:
			r = check_name(val, err, sizeof(err));
			s.name = val;
			break;
		case KEY_ROUTING:
			r = mf_parse_routing(val, &s.routing, err, sizeof(err));
			break;
		case KEY_IPV4:
			ipv4 = val;
			break;
		case KEY_NO_IPV6:
			s.ap.ipv6 = false;
			break;
		case KEY_LINK_RATE:
			r = mf_parse_rate(val, &x, err, sizeof(err));
			s.link.rate = x;
			s.link.flags |= MESHFABRIC_LINK_RATE;
			break;
		case KEY_LINK_DELAY:
			r = mf_parse_time(val, &x, err, sizeof(err));
			s.link.delay_ns = x;
			s.link.flags |= MESHFABRIC_LINK_DELAY;
			break;
		case KEY_LINK_QUEUE:
			if (mf_parse_u32(val, 1, MESHFABRIC_QUEUE_MAX,
					 &s.link.queue))
				return mf_usage(cmd, "--link-queue '%.40s': "
						"want 1..%u frames", val,
						MESHFABRIC_QUEUE_MAX);
			s.link.flags |= MESHFABRIC_LINK_QUEUE;
			break;
		case KEY_LINK_LOSS:
			r = mf_parse_loss(val, &s.link.loss, err, sizeof(err));
			s.link.flags |= MESHFABRIC_LINK_LOSS;
			break;
		case KEY_SWITCHING:
			r = mf_parse_switching(val, &s.link.switching, err,
					       sizeof(err));
			s.link.flags |= MESHFABRIC_LINK_SWITCHING;
			break;
		case KEY_ID:
			if (mf_parse_u32(val, 0, MESHFABRIC_MAX_IDS - 1, &s.id))
				return mf_usage(cmd, "--id '%.40s': want 0..%u",
						val, MESHFABRIC_MAX_IDS - 1);
			s.want_id = true;
			break;
		case KEY_PART:
			r = parse_part(val, &s.tun, err, sizeof(err));
			break;
		case KEY_PEER:
			r = parse_peer(val, &s, err, sizeof(err));
			break;
		case KEY_PARTITION:
			s.partition = val;
			break;
		case KEY_TUNNEL_PORT:
			if (mf_parse_u32(val, 1, 65535, &s.tun.port))
				return mf_usage(cmd, "--tunnel-port '%.40s': "
						"want 1..65535", val);
			break;
		case KEY_DRIVE:
			s.drive = true;
			break;
		case KEY_KEEPALIVE:
			r = mf_parse_time(val, &x, err, sizeof(err));
			if (!r && (x < 100000000ULL || x > 60000000000ULL))
				return mf_usage(cmd, "--keepalive '%.40s': "
						"want 100ms..60s", val);
			s.tun.keepalive_ms = (u32)(x / 1000000);
			break;
		}
		if (r)
			return mf_usage(cmd, "%s", err);
	}
	if (mf_topo_arg_build(&ta, &s.t, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (s.t.nodes > MESHFABRIC_MAX_NODES)
		return mf_usage(cmd, "%u nodes: at most %u", s.t.nodes,
				MESHFABRIC_MAX_NODES);
	if (mf_routing_for(&s.t, s.routing, &s.routing, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (ipv4 && mf_addr_parse_ipv4(ipv4, s.t.nodes, &s.ap, err,
				       sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (s.drive && !s.tun.nparts)
		return mf_usage(cmd, "--drive needs --part and --peer");
	if (s.drive && s.partition)
		return mf_usage(cmd, "--drive with --partition: the file is "
				"not on the other hosts; create each part there");
	s.argc = argc;
	s.argv = argv;
	if (create_parts(cmd, &s))
		return MF_EXIT_USAGE;
	if (mf_dev_open_or_fail()) {
		free(s.part);
		return MF_EXIT_FAIL;
	}
	r = create_fabric(ctx, &s);
	free(s.part);
	return r;
}

const struct mf_cmd mf_cmd_create = {
	"create", "create a fabric: namespaces, netdevs, addresses (root)",
	"--mesh AxB.. | --torus AxB.. | --hex N [--name NAME] [--routing R]\n"
	"                       [--ipv4 PREFIX] [--no-ipv6]\n"
	"                       [--link-rate RATE] [--link-delay TIME]\n"
	"                       [--link-queue FRAMES] [--link-loss PERCENT]\n"
	"                       [--switching MODE] [--id ID]\n"
	"                       [--part K/P --peer ADDR... [--tunnel-port PORT]\n"
	"                        [--keepalive TIME] [--partition FILE]\n"
	"                        [--drive]]",
	"Creates the fabric in meshfabric.ko, one network namespace per node\n"
	"named NAME-COORDINATES (e.g. f0-3-4; hex: NAME-ADDRESS), the node's\n"
	"interface NAME in it, an IPv6 unique local address per node (and\n"
	"IPv4 with --ipv4), everything up.  On any failure nothing is left\n"
	"behind.  --part K/P: this host holds slab K of P of the fabric (cut\n"
	"along the dimension that crosses the fewest links); the cut links\n"
	"reach the other hosts (--peer, one per part, in order) through a\n"
	"Geneve tunnel; run the same command with K = 0..P-1 on each host,\n"
	"or give --drive: this host then runs it on the others too, over ssh\n"
	"to each --peer address, all at once ($MF_SSH, default \"ssh -o\n"
	"BatchMode=yes -o ConnectTimeout=10\"; $MF_REMOTE_TOOL there, default\n"
	"meshfabric), and if one fails, destroys the parts made everywhere.\n",
	create_opts, create_main,
};

/* ---- destroy --------------------------------------------------------- */

static const struct mf_opt destroy_opts[] = {
	{ "all", 'a', NULL, KEY_ALL, "destroy every fabric" },
	{ "drive", 0, NULL, KEY_DRIVE,
	  "a fabric split over hosts: destroy it on the other hosts too (ssh)" },
	{ NULL, 0, NULL, 0, NULL }
};

/* destroy --drive: `destroy NAME` on the host of every other part of
 * fabric id (its tunnel's peers), all at once; 0, or the failure
 * printed.  A fabric all on this host has no other hosts.
 */
static int destroy_remote(struct mf_ctx *ctx, u32 id, const char *name)
{
	struct meshfabric_tunnel_peer peers[MESHFABRIC_TUNNEL_MAX_PARTS];
	struct meshfabric_tunnel tu;
	char host[INET6_ADDRSTRLEN];
	struct mf_remote *rm;
	u32 i, n = 0;
	int r = 0;

	memset(&tu, 0, sizeof(tu));
	tu.id = id;
	tu.peers_ptr = (uintptr_t)peers;
	r = mf_dev_tunnel_get(&tu);
	if (r == -ENODATA)	/* all on this host */
		return 0;
	if (r)
		return mf_fail("%s: its other hosts: %s", name,
			       mf_dev_strerror(-r));
	rm = calloc(tu.nparts, sizeof(*rm));
	if (!rm)
		return mf_fail("out of memory");
	for (i = 0; i < tu.nparts && i < MESHFABRIC_TUNNEL_MAX_PARTS; i++) {
		if (i == tu.part)
			continue;
		inet_ntop(tu.flags & MESHFABRIC_TUNNEL_IPV6 ? AF_INET6 : AF_INET,
			  peers[i].addr, host, sizeof(host));
		mf_remote_init(&rm[n], host);
		mf_remote_arg(&rm[n], "destroy");
		mf_remote_arg(&rm[n++], name);
	}
	mf_remote_run(rm, n, NULL);
	for (i = 0; i < n; i++) {
		/* gone there already (an earlier run that failed elsewhere) */
		if (rm[i].status == MF_EXIT_FAIL &&
		    strstr(rm[i].last, "no fabric named"))
			rm[i].status = 0;
		if (rm[i].status)
			r = mf_fail("destroying %s on %s (ssh, exit %d): %s",
				    name, rm[i].host, rm[i].status,
				    rm[i].last[0] ? rm[i].last : "no output");
		else if (!ctx->json)
			fprintf(ctx->out, "destroyed %s on %s (ssh)\n", name,
				rm[i].host);
	}
	free(rm);
	return r;
}

static int destroy_one(struct mf_ctx *ctx, const struct meshfabric_info *in,
		       const struct mf_topo *t, bool drive)
{
	char name[MESHFABRIC_NAME_LEN];
	struct meshfabric_info now_in;
	bool first;
	int err;

	memcpy(name, in->name, sizeof(name));
	name[sizeof(name) - 1] = 0;
	/* the other hosts first: the tunnel's peers are read from here */
	if (drive && destroy_remote(ctx, in->id, name))
		return MF_EXIT_FAIL;
	/*
	 * When the kernel says DESTROY will succeed, the namespaces go
	 * first: the kernel then unlists them (cleanup_net) before it
	 * unregisters their netdevs, so each of those netdev events walks
	 * fewer namespaces, and DESTROY returns at once (uapi, and
	 * docs/performance.md).  Otherwise DESTROY decides first, so that
	 * a refusal leaves everything in place.
	 */
	first = !mf_dev_destroy(in->id, MESHFABRIC_DESTROY_CHECK);
	if (first) {
		mf_netns_delete_fabric(t, name, t->nodes);
		/* the id may have been destroyed and reused meanwhile */
		if (mf_dev_info(in->id, &now_in, NULL, 0, 0) ||
		    memcmp(now_in.name, in->name, sizeof(now_in.name)))
			goto done;
	}
	err = mf_dev_destroy(in->id, 0);
	if (err && err != -ENOENT)
		return mf_fail("destroying %s: %s", name,
			       mf_dev_strerror(-err));
	if (!first)
		mf_netns_delete_fabric(t, name, t->nodes);
done:
	if (!ctx->json)
		fprintf(ctx->out, "destroyed %s\n", name);
	return MF_EXIT_OK;
}

/* destroy's NAMEs, counted here (read from argv again below). */
static int destroy_opt(void *n, int key, const char *val, char *err,
		       size_t errlen)
{
	++*(int *)n;
	return 0;
}

static int destroy_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_destroy;
	struct meshfabric_info in;
	struct mf_topo t;
	unsigned int flags = 0;
	bool all, drive;
	int i, n = 0, r;
	u32 id;

	r = mf_args_parse(ctx, argc, argv, NULL, MF_ARGS_POSITIONAL,
			  destroy_opt, &n, &flags);
	if (r >= 0)
		return r;
	all = flags & 1u << KEY_ALL;
	drive = flags & 1u << KEY_DRIVE;
	if (!n && !all)
		return mf_usage(cmd, "which fabric? (NAME or --all)");
	if (n && all)
		return mf_usage(cmd, "NAME and --all together");
	if (all) {
		if (mf_dev_open_or_fail())
			return MF_EXIT_FAIL;
		for (id = 0; id < MESHFABRIC_MAX_IDS; id++) {
			/* the caller's own fabrics, not those of user
			 * namespaces below it that it can see
			 */
			if (mf_dev_info(id, &in, NULL, 0, 0) || !in.own ||
			    mf_dev_topo(&in, &t))
				continue;
			r = destroy_one(ctx, &in, &t, drive);
			if (r)
				return r;
		}
		return MF_EXIT_OK;
	}
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		r = mf_dev_lookup_or_fail(cmd, argv[i], &in, &t);
		if (!r)
			r = destroy_one(ctx, &in, &t, drive);
		if (r)
			return r;
	}
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_destroy = {
	"destroy", "destroy fabrics with their namespaces (root)",
	"NAME... | --all [--drive]",
	"Deletes the fabric's netdevs and the fabric from meshfabric.ko, and\n"
	"its nodes' network namespaces.  --drive: a fabric split over hosts\n"
	"is destroyed on the hosts of its other parts first, over ssh to each\n"
	"peer address, all at once (as create --drive); if one fails, this\n"
	"host's part stays.",
	destroy_opts, destroy_main,
};

/* ---- list ------------------------------------------------------------ */

static const struct mf_opt list_opts[] = {
	{ "names", 0, NULL, KEY_NAMES, "print only the names, one a line" },
	{ NULL, 0, NULL, 0, NULL }
};

static int list_main(struct mf_ctx *ctx, int argc, char **argv)
{
	struct meshfabric_info in;
	struct mf_print p;
	struct mf_topo t;
	unsigned int flags = 0;
	bool names, header = false;
	int rc;
	u32 id;

	rc = mf_args_parse(ctx, argc, argv, NULL, 0, NULL, NULL, &flags);
	if (rc >= 0)
		return rc;
	names = flags & 1u << KEY_NAMES;
	if (names) {
		/* for completion: quietly nothing without the module */
		if (mf_dev_open())
			return MF_EXIT_OK;
	} else if (mf_dev_open_or_fail()) {
		return MF_EXIT_FAIL;
	}
	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_arr_open(&p, NULL);
	for (id = 0; id < MESHFABRIC_MAX_IDS; id++) {
		if (mf_dev_info(id, &in, NULL, 0, 0) || mf_dev_topo(&in, &t))
			continue;
		in.name[MESHFABRIC_NAME_LEN - 1] = 0;
		if (names && !ctx->json) {
			fprintf(ctx->out, "%s\n", (const char *)in.name);
			continue;
		}
		if (!header)
			mf_print_fp(&p, "%-15s %3s %-6s %-12s %6s %7s %5s %s\n",
				    "NAME", "ID", "KIND", "SHAPE", "NODES",
				    "PRESENT", "GONE", "ROUTING");
		header = true;
		mf_print_obj_open(&p, NULL);
		mf_print_str(&p, MF_PRINT_ANY, "name", "%-15s ",
			     (const char *)in.name);
		mf_print_u64(&p, MF_PRINT_ANY, "id", "%3llu ", in.id);
		mf_print_topology(&p, &t, "%-6s %-12s ");
		mf_print_u64(&p, MF_PRINT_ANY, "nodes", "%6llu ", in.nodes);
		mf_print_u64(&p, MF_PRINT_ANY, "present", "%7llu ", in.present);
		mf_print_u64(&p, MF_PRINT_ANY, "gone", "%5llu ", in.gone);
		mf_print_str(&p, MF_PRINT_ANY, "routing", "%s\n",
			     mf_route_name(in.routing));
		mf_print_obj_close(&p);
	}
	mf_print_end(&p);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_list = {
	"list", "list the fabrics of meshfabric.ko", "[--names]", NULL,
	list_opts, list_main,
};

/* ---- show ------------------------------------------------------------ */

static const struct mf_opt show_opts[] = {
	{ "nodes", 0, NULL, KEY_NODES,
	  "list every node (default up to 64 nodes)" },
	{ NULL, 0, NULL, 0, NULL }
};

static const char *node_state(const struct meshfabric_node_info *n)
{
	if (n->flags & MESHFABRIC_NODE_PRESENT)
		return "up";
	if (n->flags & MESHFABRIC_NODE_GONE)
		return "gone";
	return "absent";
}

/* The addresses of node n, read in its namespace; -errno. */
static int node_addrs(const struct mf_topo *t, const char *fabric,
		      const struct meshfabric_node_info *n,
		      struct mf_addr_entry *ad, int self)
{
	char path[128];
	struct stat st;
	int r;

	if (!(n->flags & MESHFABRIC_NODE_PRESENT))
		return 0;
	mf_netns_path(t, fabric, n->node, path, sizeof(path));
	if (stat(path, &st) || (u32)st.st_ino != n->netns_ino)
		return 0;
	r = mf_netns_enter(path);
	if (r)
		return r;
	r = mf_addr_list((int)n->ifindex, ad, MAX_ADDRS);
	if (setns(self, CLONE_NEWNET))
		return -errno;
	return r;
}

/*
 * One node: a row of the table (text), or the detail of `show NAME NODE`;
 * in JSON always the same object.
 */
static void show_node(struct mf_print *p, const struct mf_topo *t,
		      const char *fabric, u32 fid,
		      const struct meshfabric_node_info *n,
		      const struct mf_addr_entry *ad, int nad, bool detail)
{
	char buf[128], nbuf[96];
	u32 c[MF_MAX_DIMS], d, port;
	s64 nb;
	int i;

	mf_print_obj_open(p, NULL);
	mf_format_node(t, n->node, buf, sizeof(buf));
	mf_print_str(p, MF_PRINT_FP, NULL, detail ? "node        %s" : "%-10s ",
		     buf);
	mf_print_u64(p, MF_PRINT_ANY, "node",
		     detail ? " (id %llu)\n" : "%6llu ",
		     n->node);
	mf_print_arr_open(p, "coords");
	mf_topo_coords(t, n->node, c);
	for (d = 0; d < t->ndims && p->json; d++)
		mf_print_u64(p, MF_PRINT_JSON, NULL, NULL, c[d]);
	mf_print_arr_close(p);
	mf_netns_name(t, fabric, n->node, buf, sizeof(buf));
	mf_print_str(p, MF_PRINT_ANY, "namespace",
		     detail ? "namespace   %s\n" : "%-22s ", buf);
	mf_print_str(p, MF_PRINT_JSON, "ifname", NULL, (const char *)n->ifname);
	if (detail)
		mf_print_fp(p, "interface   %s (ifindex %u), ",
			    n->ifname[0] ? (const char *)n->ifname : "-",
			    n->ifindex);
	mf_print_u64(p, MF_PRINT_JSON, "ifindex", NULL, n->ifindex);
	mf_print_str(p, MF_PRINT_ANY, "state", detail ? "%s\n" : "%-6s",
		     node_state(n));
	mf_format_mac(fid, n->node, buf, sizeof(buf));
	mf_print_str(p, detail ? MF_PRINT_ANY : MF_PRINT_JSON, "mac",
		     "mac         %s\n", buf);
	mf_print_arr_open(p, "addresses");
	for (i = 0; i < nad; i++) {
		snprintf(buf, sizeof(buf), "%s/%u", ad[i].text,
			 ad[i].prefixlen);
		mf_print_str(p, MF_PRINT_ANY, NULL,
			     detail ? "address     %s\n" : " %s", buf);
	}
	mf_print_arr_close(p);
	mf_print_obj_close(p);
	if (!detail) {
		mf_print_fp(p, "\n");
		return;
	}
	mf_print_fp(p, "neighbours ");
	for (port = 0; port < t->nports && !p->json; port++) {
		nb = mf_topo_neighbor(t, n->node, port);
		if (nb < 0)
			continue;
		mf_format_port(t, port, buf, sizeof(buf));
		mf_format_node(t, (u32)nb, nbuf, sizeof(nbuf));
		mf_print_fp(p, " %s:%s", buf, nbuf);
	}
	mf_print_fp(p, "\n");
}

/* The fabric's lines of show (text: not with NODE). */
/* A part of a multi-host fabric: its tunnel (JSON "tunnel": null if none) */
static void show_tunnel(struct mf_print *p, u32 id)
{
	struct meshfabric_tunnel tu;

	memset(&tu, 0, sizeof(tu));
	tu.id = id;
	if (mf_dev_tunnel_get(&tu)) {
		mf_print_null(p, MF_PRINT_JSON, "tunnel", NULL);
		return;
	}
	mf_print_obj_open(p, "tunnel");
	mf_print_u64(p, MF_PRINT_ANY, "part", "tunnel      part %llu", tu.part);
	mf_print_u64(p, MF_PRINT_ANY, "parts", " of %llu,", tu.nparts);
	mf_print_u64(p, MF_PRINT_ANY, "port", " Geneve UDP port %llu,", tu.port);
	mf_print_u64(p, MF_PRINT_ANY, "mtu", " node MTU %llu,", tu.mtu);
	mf_print_u64(p, MF_PRINT_ANY, "alive", " parts heard 0x%llx\n",
		     tu.alive);
	mf_print_u64(p, MF_PRINT_ANY, "tx_frames", "            tx %llu frames",
		     tu.tx_frames);
	mf_print_u64(p, MF_PRINT_ANY, "tx_bytes", " %llu bytes", tu.tx_bytes);
	mf_print_u64(p, MF_PRINT_ANY, "tx_errors", " %llu errors,",
		     tu.tx_errors);
	mf_print_u64(p, MF_PRINT_ANY, "rx_frames", " rx %llu frames",
		     tu.rx_frames);
	mf_print_u64(p, MF_PRINT_ANY, "rx_bytes", " %llu bytes", tu.rx_bytes);
	mf_print_u64(p, MF_PRINT_ANY, "rx_errors", " %llu refused\n",
		     tu.rx_errors);
	mf_print_obj_close(p);
}

static void show_fabric(struct mf_print *p, const struct meshfabric_info *in,
			const struct mf_topo *t, const char *fabric,
			bool table)
{
	char a[128];

	mf_print_str(p, MF_PRINT_ANY, "name", "fabric      %s", fabric);
	mf_print_u64(p, MF_PRINT_ANY, "id", " (id %llu)\n", in->id);
	mf_print_topology(p, t, "topology    %s %s\n");
	mf_print_u64(p, MF_PRINT_ANY, "nodes", "nodes       %llu", in->nodes);
	mf_print_u64(p, MF_PRINT_ANY, "present", " (%llu up,", in->present);
	mf_print_u64(p, MF_PRINT_ANY, "gone", " %llu gone)\n", in->gone);
	mf_print_str(p, MF_PRINT_ANY, "routing", "routing     %s",
		     mf_route_name(in->routing));
	mf_print_u64(p, MF_PRINT_ANY, "table_bytes", " (tables %llu bytes)\n",
		     in->table_bytes);
	/* links down: always in JSON, in text when there are some */
	mf_print_u64(p, in->down_links ? MF_PRINT_ANY : MF_PRINT_JSON,
		     "down_links", "links down  %llu", in->down_links);
	mf_print_u64(p, in->down_links ? MF_PRINT_ANY : MF_PRINT_JSON,
		     "fault_bytes", " (routing around them: %llu bytes)\n",
		     in->fault_bytes);
	show_tunnel(p, in->id);
	mf_netns_name(t, fabric, 0, a, sizeof(a));
	mf_print_fp(p, "namespaces  %s ..", a);
	mf_netns_name(t, fabric, in->nodes - 1, a, sizeof(a));
	mf_print_fp(p, " %s\n", a);
	if (table)
		mf_print_fp(p, "%-10s %6s %-22s %-6s %s\n", "NODE", "ID",
			    "NAMESPACE", "STATE", "ADDRESSES");
	else
		mf_print_fp(p, "(%u nodes: --nodes lists them)\n", in->nodes);
}

/* show's command line: NAME [NODE] (--nodes is a flag). */
struct show_args {
	const char *name, *node;
};

static int show_opt(void *st, int key, const char *val, char *err,
		    size_t errlen)
{
	struct show_args *o = st;

	if (o->name)	/* the NODE */
		return mf_arg_name(&o->node, val, err, errlen);
	o->name = val;
	return 0;
}

static int show_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_show;
	struct meshfabric_node_info *nodes = NULL;
	struct mf_addr_entry ad[MAX_ADDRS];
	char err[256], fabric[MESHFABRIC_NAME_LEN];
	struct show_args o = { NULL, NULL };
	unsigned int flags = 0;
	const char *name, *node;
	struct meshfabric_info in;
	struct mf_print p;
	struct mf_topo t;
	int r, nad, self = -1;
	u32 id = 0, i, first, last;

	r = mf_args_parse(ctx, argc, argv, NULL, MF_ARGS_POSITIONAL, show_opt,
			  &o, &flags);
	if (r >= 0)
		return r;
	name = o.name;
	node = o.node;
	r = mf_dev_lookup_or_fail(cmd, name, &in, &t);
	if (r)
		return r;
	memcpy(fabric, in.name, sizeof(fabric));
	fabric[sizeof(fabric) - 1] = 0;
	if (node && mf_parse_node(&t, node, &id, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	r = mf_dev_nodes(&in, &nodes);
	if (r)
		return mf_fail("fabric information: %s", strerror(-r));
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		free(nodes);
		return mf_fail("/proc/self/ns/net: %s", strerror(errno));
	}
	first = 0;
	last = in.nodes;
	if (node) {
		first = id;
		last = id + 1;
	} else if (!(flags & 1u << KEY_NODES) &&
		   in.nodes > SHOW_NODES_BY_DEFAULT_MAX) {
		last = 0;
	}
	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_obj_open(&p, NULL);
	if (!node || ctx->json)
		show_fabric(&p, &in, &t, fabric, last > first);
	mf_print_arr_open(&p, "nodes_shown");
	for (i = first; i < last; i++) {
		nad = node_addrs(&t, fabric, &nodes[i], ad, self);
		show_node(&p, &t, fabric, in.id, &nodes[i], ad,
			  nad < 0 ? 0 : nad,
			  node != NULL);
	}
	mf_print_end(&p);
	close(self);
	free(nodes);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_show = {
	"show", "show a fabric, or one node's namespace and addresses",
	"NAME [NODE] [--nodes]",
	"NODE: coordinates (3,4) or node id; hex: address.  With NODE: its\n"
	"namespace, interface, MAC, addresses and neighbours.",
	show_opts, show_main,
};

/* ---- exec ------------------------------------------------------------ */

static int exec_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_exec;
	struct meshfabric_node_info ni;
	const char *name = NULL, *node = NULL, *val;
	char err[256], path[128], fabric[MESHFABRIC_NAME_LEN];
	struct meshfabric_info in, tmp;
	struct mf_topo t;
	struct mf_args ar;
	char **rest = NULL;
	struct stat st;
	int k, r, nrest = 0, rc;
	u32 id;

	mf_args_init(&ar, ctx, argc, argv);
	while (!rest) {
		k = mf_args_cmd(&ar, NULL, MF_ARGS_POSITIONAL | MF_ARGS_REST,
				&val, &rc);
		if (k == MF_ARG_END)
			break;
		switch (k) {
		case MF_ARG_STOP:
			return rc;
		case MF_ARG_POSITIONAL:
			if (!name)
				name = val;
			else if (!node)
				node = val;
			else
				return mf_usage(cmd,
						"the command goes after '--'");
			break;
		case MF_ARG_REST:
			rest = mf_args_rest(&ar, &nrest);
			break;
		}
	}
	if (!name || !node)
		return mf_usage(cmd, "want NAME NODE -- CMD");
	if (!rest || !nrest)
		return mf_usage(cmd, "no command after '--'");
	r = mf_dev_lookup_or_fail(cmd, name, &in, &t);
	if (r)
		return r;
	memcpy(fabric, in.name, sizeof(fabric));
	fabric[sizeof(fabric) - 1] = 0;
	if (mf_parse_node(&t, node, &id, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	r = mf_dev_info(in.id, &tmp, &ni, id, 1);
	if (r)
		return mf_fail("fabric information: %s", strerror(-r));
	mf_netns_path(&t, fabric, id, path, sizeof(path));
	if (stat(path, &st))
		return mf_fail("%s: %s", path, strerror(errno));
	if ((ni.flags & MESHFABRIC_NODE_PRESENT) &&
	    (u32)st.st_ino != ni.netns_ino)
		return mf_fail("%s is not the namespace of node %s of %s",
			       path, node, fabric);
	r = mf_netns_enter(path);
	if (r)
		return mf_fail("entering %s: %s", path, strerror(-r));
	/* As `ip netns exec`: a private mount namespace whose /sys shows
	 * this network namespace's devices.  Best effort. */
	if (!unshare(CLONE_NEWNS) &&
	    !mount("", "/", "none", MS_SLAVE | MS_REC, NULL)) {
		umount2("/sys", MNT_DETACH);
		mount(fabric, "/sys", "sysfs", 0, NULL);
	}
	fflush(ctx->out);
	execvp(rest[0], rest);
	r = errno;	/* mf_fail's stdio may change errno */
	mf_fail("%.60s: %s", rest[0], strerror(r));
	return r == ENOENT ? 127 : 126;
}

const struct mf_cmd mf_cmd_exec = {
	"exec", "run a command in a node's network namespace",
	"NAME NODE -- CMD [ARGS...]",
	"Like 'ip netns exec NAME-COORDS CMD ...', e.g.\n"
	"  meshfabric exec f0 0,0 -- ping -c1 ADDRESS\n"
	"with ADDRESS from 'meshfabric show f0 3,4'.\n",
	NULL, exec_main,
};
