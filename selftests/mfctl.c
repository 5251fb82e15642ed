// SPDX-License-Identifier: GPL-2.0
/*
 * mfctl.c - selftest helper for meshfabric.ko: thin wrappers around the
 * ioctls of /dev/meshfabric, namespace helpers, a broadcast checker with
 * AF_PACKET listeners in every node's namespace, and the table of bad
 * ioctl inputs.  Built statically (selftests/Makefile) and linked with the
 * portable core only for `plan` (the offline reference) and algorithm
 * names.  Exit status: 0, or the errno of the failing call (so shell tests
 * can check e.g. EHOSTUNREACH = 113), or 1.
 *
 *   mfctl create KIND DIMS [ROUTING [NAME]]    prints "ID NODES NPORTS"
 *   mfctl destroy ID
 *   mfctl info ID                               key value lines
 *   mfctl nodes ID                              one line per node
 *   mfctl netns add|del PREFIX N                /var/run/netns/PREFIX<i>
 *   mfctl attach ID PREFIX [-u] [-a] [-n]       node i -> PREFIX<i>, one
 *        ioctl; -u bring up, -a IPv4 10.x.y.z/8 (mfctl ip), -n no IPv6
 *   mfctl attach1 ID NODE NSPATH [IFNAME]
 *   mfctl ip NODE                               the address -a gives
 *   mfctl route ID SRC DST                      path, space separated
 *   mfctl bcast ID SRC ALGO [LEN [ETHERTYPE]]   the kernel's statistics
 *   mfctl bcastall ID PREFIX ALGO [LEN [SRC]]   from every node (or SRC),
 *        listeners in each namespace; checks exactly-once delivery
 *   mfctl links ID [-r] [-a] [-F]               non-zero (-a: all) links
 *                                               (-F: into an unmapped buffer)
 *   mfctl plan KIND DIMS SRC ALGO [ROUTING]     the core's statistics
 *   mfctl bad                                   bad-input table, TAP lines
 *   mfctl loop ID N                             N broadcasts (stress)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/meshfabric.h>
#include "algo.h"
#include "check.h"
#include "route.h"

#define NSDIR "/var/run/netns"
#define ETYPE 0x88b5		/* IEEE local experimental */

static int dev_fd = -1;

static int mf_dev(void)
{
	if (dev_fd < 0) {
		dev_fd = open("/dev/meshfabric", O_RDWR | O_CLOEXEC);
		if (dev_fd < 0) {
			perror("/dev/meshfabric");
			exit(errno ? errno : 1);
		}
	}
	return dev_fd;
}

static int mf_ioctl(unsigned long cmd, void *arg)
{
	return ioctl(mf_dev(), cmd, arg) ? errno : 0;
}

static void die_err(const char *what, int err)
{
	fprintf(stderr, "mfctl: %s: %s\n", what, strerror(err));
	exit(err > 255 || err <= 0 ? 1 : err);
}

static void usage(void)
{
	fprintf(stderr, "usage: see the comment at the top of selftests/mfctl.c\n");
	exit(2);
}

static uint32_t num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*end || !*s)
		usage();
	return v;
}

static uint32_t parse_kind(const char *s)
{
	if (!strcmp(s, "mesh"))
		return MESHFABRIC_KIND_MESH;
	if (!strcmp(s, "torus"))
		return MESHFABRIC_KIND_TORUS;
	if (!strcmp(s, "hex"))
		return MESHFABRIC_KIND_HEX;
	usage();
	return 0;
}

static uint32_t parse_dims(const char *s, uint32_t *dims)
{
	uint32_t n = 0;
	char *end;

	memset(dims, 0, MESHFABRIC_MAX_DIMS * sizeof(*dims));
	for (;;) {
		if (n == MESHFABRIC_MAX_DIMS)
			usage();
		dims[n++] = strtoul(s, &end, 10);
		if (!*end)
			return n;
		if (*end != 'x')
			usage();
		s = end + 1;
	}
}

static uint32_t parse_algo(const char *s)
{
	const struct mf_algo *a;

	if (!strcmp(s, "auto"))
		return MESHFABRIC_ALGO_AUTO;
	a = mf_algo_by_name(s);
	if (a)
		return a->id;
	return num(s);
}

static uint32_t parse_routing(const char *s)
{
	int r = mf_route_by_name(s);

	return r < 0 ? num(s) : (uint32_t)r;
}

static void get_info(uint32_t id, struct meshfabric_info *in,
		     struct meshfabric_node_info **nodes)
{
	int err;

	memset(in, 0, sizeof(*in));
	in->id = id;
	err = mf_ioctl(MESHFABRIC_IOC_INFO, in);
	if (err)
		die_err("INFO", err);
	if (!nodes)
		return;
	*nodes = calloc(in->nodes, sizeof(**nodes));
	in->nodes_ptr = (uintptr_t)*nodes;
	in->count = in->nodes;
	in->first = 0;
	err = mf_ioctl(MESHFABRIC_IOC_INFO, in);
	if (err)
		die_err("INFO", err);
}

static int cmd_create(int argc, char **argv)
{
	struct meshfabric_create c = { 0 };
	int err;

	if (argc < 2)
		usage();
	c.kind = parse_kind(argv[0]);
	c.ndims = parse_dims(argv[1], c.dims);
	if (argc > 2)
		c.routing = parse_routing(argv[2]);
	if (argc > 3)
		strncpy((char *)c.name, argv[3], sizeof(c.name));
	err = mf_ioctl(MESHFABRIC_IOC_CREATE, &c);
	if (err)
		die_err("CREATE", err);
	printf("%u %u %u\n", c.id, c.nodes, c.nports);
	return 0;
}

static int cmd_destroy(int argc, char **argv)
{
	struct meshfabric_destroy d = { 0 };
	int err;

	if (argc < 1)
		usage();
	d.id = num(argv[0]);
	err = mf_ioctl(MESHFABRIC_IOC_DESTROY, &d);
	if (err)
		die_err("DESTROY", err);
	return 0;
}

static int cmd_info(int argc, char **argv)
{
	struct meshfabric_info in;

	if (argc < 1)
		usage();
	get_info(num(argv[0]), &in, NULL);
	printf("name %s\nkind %u\nndims %u\nnodes %u\nnports %u\nrouting %u\n"
	       "present %u\ngone %u\ntable_bytes %llu\n", (char *)in.name,
	       in.kind, in.ndims, in.nodes, in.nports, in.routing, in.present,
	       in.gone, (unsigned long long)in.table_bytes);
	return 0;
}

static int cmd_nodes(int argc, char **argv)
{
	struct meshfabric_node_info *n;
	struct meshfabric_info in;
	uint32_t i, d;

	if (argc < 1)
		usage();
	get_info(num(argv[0]), &in, &n);
	for (i = 0; i < in.count; i++) {
		printf("%u %u %u %u %s ", n[i].node, n[i].flags, n[i].ifindex,
		       n[i].netns_ino, n[i].ifname[0] ? (char *)n[i].ifname : "-");
		for (d = 0; d < in.ndims; d++)
			printf("%s%u", d ? "," : "", n[i].coords[d]);
		printf("\n");
	}
	free(n);
	return 0;
}

static void ns_path(char *buf, size_t len, const char *prefix, uint32_t i)
{
	snprintf(buf, len, NSDIR "/%s%u", prefix, i);
}

static int self_ns(void)
{
	int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die_err("/proc/self/ns/net", errno);
	return fd;
}

static void enter_ns(int fd)
{
	if (setns(fd, CLONE_NEWNET))
		die_err("setns", errno);
}

static void raise_nofile(void)
{
	struct rlimit rl = { 1 << 16, 1 << 16 };

	setrlimit(RLIMIT_NOFILE, &rl);
}

/* Like `ip netns add/del`, for many namespaces at once. */
static int cmd_netns(int argc, char **argv)
{
	uint32_t i, n;
	char path[256];
	int self, fd;

	if (argc < 3)
		usage();
	n = num(argv[2]);
	mkdir(NSDIR, 0755);
	if (!strcmp(argv[0], "del")) {
		for (i = 0; i < n; i++) {
			ns_path(path, sizeof(path), argv[1], i);
			umount2(path, MNT_DETACH);
			unlink(path);
		}
		return 0;
	}
	if (strcmp(argv[0], "add"))
		usage();
	/* As iproute2 does: make NSDIR a shared mount point before the
	 * first bind mount, or a later `ip netns add` bind-mounts NSDIR
	 * onto itself, covering ours and keeping their files busy.
	 */
	if (mount("", NSDIR, "none", MS_SHARED | MS_REC, NULL)) {
		if (errno != EINVAL ||
		    mount(NSDIR, NSDIR, "none", MS_BIND | MS_REC, NULL) ||
		    mount("", NSDIR, "none", MS_SHARED | MS_REC, NULL))
			die_err(NSDIR, errno);
	}
	self = self_ns();
	for (i = 0; i < n; i++) {
		ns_path(path, sizeof(path), argv[1], i);
		fd = open(path, O_RDONLY | O_CREAT | O_EXCL, 0);
		if (fd < 0)
			die_err(path, errno);
		close(fd);
		if (unshare(CLONE_NEWNET))
			die_err("unshare", errno);
		if (mount("/proc/self/ns/net", path, "none", MS_BIND, NULL))
			die_err("mount", errno);
	}
	enter_ns(self);
	return 0;
}

static void node_ip(uint32_t node, char *buf, size_t len)
{
	uint32_t a = node + 1;

	snprintf(buf, len, "10.%u.%u.%u", (a >> 16) & 255, (a >> 8) & 255,
		 a & 255);
}

static int cmd_ip(int argc, char **argv)
{
	char buf[32];

	if (argc < 1)
		usage();
	node_ip(num(argv[0]), buf, sizeof(buf));
	printf("%s\n", buf);
	return 0;
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			perror(path);
		close(fd);
	}
}

/* In the current netns: optionally no IPv6, an IPv4 address, up. */
static void if_setup(const char *ifname, uint32_t node, int addr, int noipv6)
{
	struct sockaddr_in *sin;
	struct ifreq ifr;
	char path[128];
	char ip[32];
	int s;

	if (noipv6) {
		snprintf(path, sizeof(path),
			 "/proc/sys/net/ipv6/conf/%s/disable_ipv6", ifname);
		write_file(path, "1");
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die_err("socket", errno);
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	if (addr) {
		sin = (struct sockaddr_in *)&ifr.ifr_addr;
		sin->sin_family = AF_INET;
		node_ip(node, ip, sizeof(ip));
		inet_pton(AF_INET, ip, &sin->sin_addr);
		if (ioctl(s, SIOCSIFADDR, &ifr))
			die_err("SIOCSIFADDR", errno);
		inet_pton(AF_INET, "255.0.0.0", &sin->sin_addr);
		if (ioctl(s, SIOCSIFNETMASK, &ifr))
			die_err("SIOCSIFNETMASK", errno);
	}
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		die_err("SIOCGIFFLAGS", errno);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr))
		die_err("SIOCSIFFLAGS", errno);
	close(s);
}

static int cmd_attach(int argc, char **argv)
{
	struct meshfabric_attach_entry *e;
	struct meshfabric_attach a = { 0 };
	int up = 0, addr = 0, noipv6 = 0, err, self, i;
	struct meshfabric_node_info *nodes;
	struct meshfabric_info in;
	struct timespec t0, t1;
	char path[256];
	uint32_t n;

	if (argc < 2)
		usage();
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-u"))
			up = 1;
		else if (!strcmp(argv[i], "-a"))
			addr = up = 1;
		else if (!strcmp(argv[i], "-n"))
			noipv6 = 1;
		else
			usage();
	}
	raise_nofile();
	get_info(num(argv[0]), &in, NULL);
	e = calloc(in.nodes, sizeof(*e));
	for (n = 0; n < in.nodes; n++) {
		ns_path(path, sizeof(path), argv[1], n);
		e[n].node = n;
		e[n].netns_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (e[n].netns_fd < 0)
			die_err(path, errno);
	}
	a.id = in.id;
	a.count = in.nodes;
	a.entries_ptr = (uintptr_t)e;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = mf_ioctl(MESHFABRIC_IOC_ATTACH, &a);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "# attach: %u netdevs in %.3f s\n", a.done,
		(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (err)
		die_err("ATTACH", err);
	if (up) {
		get_info(in.id, &in, &nodes);
		self = self_ns();
		for (n = 0; n < in.nodes; n++) {
			enter_ns(e[n].netns_fd);
			if_setup((char *)nodes[n].ifname, n, addr, noipv6);
		}
		enter_ns(self);
		close(self);
		free(nodes);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		fprintf(stderr, "# attach: setup done in %.3f s\n",
			(t0.tv_sec - t1.tv_sec) + (t0.tv_nsec - t1.tv_nsec) / 1e9);
	}
	for (n = 0; n < in.nodes; n++)
		close(e[n].netns_fd);
	free(e);
	return 0;
}

static int cmd_attach1(int argc, char **argv)
{
	struct meshfabric_attach_entry e = { 0 };
	struct meshfabric_attach a = { 0 };
	int err;

	if (argc < 3)
		usage();
	a.id = num(argv[0]);
	e.node = num(argv[1]);
	e.netns_fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (e.netns_fd < 0)
		die_err(argv[2], errno);
	if (argc > 3)
		strncpy((char *)e.ifname, argv[3], sizeof(e.ifname) - 1);
	a.count = 1;
	a.entries_ptr = (uintptr_t)&e;
	err = mf_ioctl(MESHFABRIC_IOC_ATTACH, &a);
	if (err)
		die_err("ATTACH", err);
	return 0;
}

static int cmd_route(int argc, char **argv)
{
	struct meshfabric_route r = { 0 };
	uint32_t path[4096], i;
	int err;

	if (argc < 3)
		usage();
	r.id = num(argv[0]);
	r.src = num(argv[1]);
	r.dst = num(argv[2]);
	r.path_ptr = (uintptr_t)path;
	r.path_max = 4096;
	err = mf_ioctl(MESHFABRIC_IOC_ROUTE, &r);
	if (err)
		die_err("ROUTE", err);
	for (i = 0; i <= r.hops; i++)
		printf("%s%u", i ? " " : "", path[i]);
	printf("\n");
	return 0;
}

static void print_bcast(const struct meshfabric_bcast *b)
{
	printf("src %u algo %u steps %u sends %u tcd %llu max_link_load %u "
	       "contention %llu delivered %u elapsed_ns %llu", b->source,
	       b->algo, b->steps, b->sends, (unsigned long long)b->tcd,
	       b->max_link_load, (unsigned long long)b->contention,
	       b->delivered, (unsigned long long)b->elapsed_ns);
}

static int do_bcast(struct meshfabric_bcast *b, uint32_t id, uint32_t src,
		    uint32_t algo, const void *payload, uint32_t len,
		    uint32_t etype)
{
	memset(b, 0, sizeof(*b));
	b->id = id;
	b->source = src;
	b->algo = algo;
	b->payload_ptr = (uintptr_t)payload;
	b->len = len;
	b->ethertype = etype;
	return mf_ioctl(MESHFABRIC_IOC_BCAST, b);
}

static int cmd_bcast(int argc, char **argv)
{
	static char payload[MESHFABRIC_MAX_PAYLOAD];
	struct meshfabric_bcast b;
	uint32_t len = 64;
	int err;

	if (argc < 3)
		usage();
	if (argc > 3)
		len = num(argv[3]);
	memset(payload, 0x5a, sizeof(payload));
	err = do_bcast(&b, num(argv[0]), num(argv[1]), parse_algo(argv[2]),
		       payload, len, argc > 4 ? num(argv[4]) : ETYPE);
	if (err)
		die_err("BCAST", err);
	print_bcast(&b);
	printf("\n");
	return 0;
}

struct tag {
	uint32_t magic, src, seq, len;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Read every frame pending on the listeners; count those of (src, seq). */
static int drain(int *sock, uint32_t n, uint32_t src, uint32_t seq,
		 uint32_t len, uint32_t *cnt, char *buf, uint32_t *bad)
{
	int got = 0;
	uint32_t i, k;
	ssize_t r;
	struct tag tg;

	for (i = 0; i < n; i++) {
		while ((r = recv(sock[i], buf, MESHFABRIC_MAX_PAYLOAD + 64,
				 MSG_DONTWAIT)) >= 0) {
			memcpy(&tg, buf, sizeof(tg));
			if (r != (ssize_t)len || tg.magic != 0x4d464243 ||
			    tg.src != src || tg.seq != seq) {
				(*bad)++;
				continue;
			}
			for (k = sizeof(tg); k < len; k++)
				if ((uint8_t)buf[k] != (uint8_t)(k * 7 + seq))
					break;
			if (k != len) {
				(*bad)++;
				continue;
			}
			cnt[i]++;
			got++;
		}
	}
	return got;
}

struct closer {
	int *sock;
	uint32_t n, k, step;
};

static void *closer_run(void *arg)
{
	struct closer *c = arg;
	uint32_t i;

	for (i = c->k; i < c->n; i += c->step)
		close(c->sock[i]);
	return NULL;
}

/*
 * Closing an AF_PACKET socket waits for an RCU grace period
 * (packet_release -> synchronize_net): close them from many threads.
 */
static void close_all(int *sock, uint32_t n)
{
	enum { NT = 64 };
	struct closer c[NT];
	pthread_t th[NT];
	uint32_t k;

	for (k = 0; k < NT; k++) {
		c[k] = (struct closer){ sock, n, k, NT };
		if (pthread_create(&th[k], NULL, closer_run, &c[k]))
			closer_run(&c[k]);
		else
			continue;
		th[k] = 0;
	}
	for (k = 0; k < NT; k++)
		if (th[k])
			pthread_join(th[k], NULL);
}

static int cmd_bcastall(int argc, char **argv)
{
	uint32_t src, first = 0, last, i, len = 64, algo, *cnt, bad_total = 0;
	struct meshfabric_node_info *nodes;
	struct sockaddr_ll sll;
	struct meshfabric_bcast b;
	struct meshfabric_info in;
	int *sock, self, fd, err, failed = 0, rcv = 4 << 20;
	char path[256], *payload, *buf;
	double t_start = now(), t_setup, t_run;
	struct tag tg;

	if (argc < 3)
		usage();
	algo = parse_algo(argv[2]);
	if (argc > 3)
		len = num(argv[3]);
	if (len < sizeof(tg))
		len = sizeof(tg);
	raise_nofile();
	get_info(num(argv[0]), &in, &nodes);
	last = in.nodes - 1;
	if (argc > 4)
		first = last = num(argv[4]);
	sock = calloc(in.nodes, sizeof(*sock));
	cnt = calloc(in.nodes, sizeof(*cnt));
	payload = malloc(MESHFABRIC_MAX_PAYLOAD + 64);
	buf = malloc(MESHFABRIC_MAX_PAYLOAD + 64);
	self = self_ns();
	for (i = 0; i < in.nodes; i++) {
		ns_path(path, sizeof(path), argv[1], i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_err(path, errno);
		enter_ns(fd);
		close(fd);
		/* protocol 0: not hooked until bind (no re-hook, no RCU wait) */
		sock[i] = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (sock[i] < 0)
			die_err("socket", errno);
		setsockopt(sock[i], SOL_SOCKET, SO_RCVBUFFORCE, &rcv,
			   sizeof(rcv));
		memset(&sll, 0, sizeof(sll));
		sll.sll_family = AF_PACKET;
		sll.sll_protocol = htons(ETYPE);
		sll.sll_ifindex = nodes[i].ifindex;
		if (bind(sock[i], (struct sockaddr *)&sll, sizeof(sll)))
			die_err("bind", errno);
	}
	enter_ns(self);
	t_setup = now();
	for (src = first; src <= last; src++) {
		uint32_t rx = 0, dup = 0, miss = 0, bad = 0, k;
		double t;

		tg.magic = 0x4d464243;
		tg.src = src;
		tg.seq = src + 1;
		tg.len = len;
		memcpy(payload, &tg, sizeof(tg));
		for (k = sizeof(tg); k < len; k++)
			payload[k] = (char)(k * 7 + tg.seq);
		memset(cnt, 0, in.nodes * sizeof(*cnt));
		err = do_bcast(&b, in.id, src, algo, payload, len, ETYPE);
		if (err)
			die_err("BCAST", err);
		/* Wait until every node heard, then a little for duplicates. */
		t = now();
		while (rx < in.nodes - 1 && now() - t < 5.0) {
			rx += drain(sock, in.nodes, src, tg.seq, len, cnt, buf,
				    &bad);
			if (rx < in.nodes - 1)
				usleep(1000);
		}
		usleep(20000);
		rx += drain(sock, in.nodes, src, tg.seq, len, cnt, buf, &bad);
		for (i = 0; i < in.nodes; i++) {
			if (i == src) {
				dup += cnt[i];
				continue;
			}
			if (!cnt[i])
				miss++;
			else if (cnt[i] > 1)
				dup += cnt[i] - 1;
		}
		print_bcast(&b);
		printf(" rx %u dup %u miss %u bad %u\n", rx, dup, miss, bad);
		if (dup || miss || bad || b.delivered != in.nodes - 1)
			failed = 1;
		bad_total += bad;
	}
	fflush(stdout);
	t_run = now();
	close_all(sock, in.nodes);
	fprintf(stderr, "# bcastall: %u listeners set up in %.2f s, broadcasts %.2f s, closed in %.2f s\n",
		in.nodes, t_setup - t_start, t_run - t_setup, now() - t_run);
	free(sock);
	free(cnt);
	free(payload);
	free(buf);
	free(nodes);
	return failed;
}

static int cmd_links(int argc, char **argv)
{
	struct meshfabric_link_stats ls = { 0 };
	struct meshfabric_link_entry *e;
	int all = 0, fault = 0, err, i;
	uint32_t k, flags;

	if (argc < 1)
		usage();
	ls.id = num(argv[0]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r"))
			ls.flags |= MESHFABRIC_LINK_STATS_RESET;
		else if (!strcmp(argv[i], "-F"))	/* an unmapped buffer */
			fault = 1;
		else if (!strcmp(argv[i], "-a"))
			all = 1;
		else
			usage();
	}
	flags = ls.flags;
	ls.flags = 0;		/* nlinks first, resetting nothing */
	err = mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls);
	if (err)
		die_err("LINK_STATS", err);
	ls.flags = flags;
	e = calloc(ls.nlinks ? ls.nlinks : 1, sizeof(*e));
	ls.links_ptr = fault ? (uintptr_t)8 : (uintptr_t)e;
	ls.count = ls.nlinks;
	err = mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls);
	if (err)
		die_err("LINK_STATS", err);
	for (k = 0; k < ls.count; k++)
		if (all || e[k].packets)
			printf("%u %u %d %llu %llu\n", e[k].node, e[k].port,
			       (int)e[k].peer, (unsigned long long)e[k].packets,
			       (unsigned long long)e[k].bytes);
	free(e);
	return 0;
}

static int cmd_plan(int argc, char **argv)
{
	uint32_t dims[MESHFABRIC_MAX_DIMS], nd, routing = 0;
	const struct mf_algo *used = NULL;
	struct mf_sched s;
	struct mf_stats st;
	struct mf_topo t;
	char why[128];
	int err;

	if (argc < 4)
		usage();
	nd = parse_dims(argv[1], dims);
	err = mf_topo_init(&t, parse_kind(argv[0]), nd, dims);
	if (err)
		die_err("topology", -err);
	if (argc > 4)
		routing = parse_routing(argv[4]);
	err = mf_plan(&t, parse_algo(argv[3]), num(argv[2]), routing, &s, &used);
	if (!err)
		err = mf_check(&t, &s, &st, why, sizeof(why));
	mf_sched_free(&s);
	if (err)
		die_err("plan", -err);
	printf("algo %u steps %u sends %u tcd %llu max_link_load %u "
	       "contention %llu\n", used->id, st.steps, st.sends,
	       (unsigned long long)st.tcd, st.max_link_load,
	       (unsigned long long)st.contention);
	return 0;
}

static int cmd_loop(int argc, char **argv)
{
	struct meshfabric_bcast b;
	uint32_t i, n, id, src = 0;
	char payload[256] = { 0 };
	int err;

	if (argc < 2)
		usage();
	id = num(argv[0]);
	n = num(argv[1]);
	for (i = 0; i < n; i++) {
		err = do_bcast(&b, id, src, MESHFABRIC_ALGO_AUTO, payload,
			       sizeof(payload), ETYPE);
		if (err == ENOENT || err == ENETDOWN)
			return 0;	/* fabric destroyed under us: fine */
		if (err)
			die_err("BCAST", err);
		src = (src + 7) % (b.sends + 1);
	}
	return 0;
}

/* ---- the table of bad inputs ---------------------------------------- */

static int ntests, nfail;

static void expect(const char *what, int got, int want)
{
	ntests++;
	if (got == want) {
		printf("ok - bad ioctl: %s -> %s\n", what,
		       want ? strerror(want) : "0");
	} else {
		nfail++;
		printf("not ok - bad ioctl: %s -> got %d (%s), want %d (%s)\n",
		       what, got, strerror(got), want, strerror(want));
	}
}

static void expect_val(const char *what, long got, long want)
{
	ntests++;
	if (got == want) {
		printf("ok - bad ioctl: %s = %ld\n", what, want);
	} else {
		nfail++;
		printf("not ok - bad ioctl: %s = %ld, want %ld\n", what, got, want);
	}
}

static struct meshfabric_create good_create(void)
{
	struct meshfabric_create c = { 0 };

	c.kind = MESHFABRIC_KIND_TORUS;
	c.ndims = 2;
	c.dims[0] = 2;
	c.dims[1] = 2;
	return c;
}

#define CREATE_CASE(what, stmt, want) do {			\
		struct meshfabric_create c = good_create();	\
		stmt;						\
		expect("CREATE " what,				\
		       mf_ioctl(MESHFABRIC_IOC_CREATE, &c), want);	\
	} while (0)

static int create_named(const char *name, uint32_t *id)
{
	struct meshfabric_create c = good_create();
	int err;

	strncpy((char *)c.name, name, sizeof(c.name));
	err = mf_ioctl(MESHFABRIC_IOC_CREATE, &c);
	*id = c.id;
	return err;
}

static int destroy(uint32_t id)
{
	struct meshfabric_destroy d = { .id = id };

	return mf_ioctl(MESHFABRIC_IOC_DESTROY, &d);
}

/* In a child: the caller's status of op (create/info), as exit code. */
static int child_create_info(int how)
{
	struct meshfabric_info in = { 0 };
	uint32_t id = 0;
	pid_t pid = fork();
	int st, err;

	if (pid == 0) {
		if (how == 0 && setresuid(65534, 65534, 65534))
			_exit(99);
		if (how == 1 && unshare(CLONE_NEWUSER))
			_exit(98);
		if (how == 2 && unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(97);
		err = create_named("", &id);
		if (!err)
			destroy(id);
		if (err != (how == 2 ? 0 : EPERM))
			_exit(10 + (err & 63));
		in.id = 63;	/* read-only commands need no capability */
		err = mf_ioctl(MESHFABRIC_IOC_INFO, &in);
		_exit(err == ENOENT ? 0 : 80);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int cmd_bad(void)
{
	struct meshfabric_attach_entry ae[4];
	struct meshfabric_link_stats ls;
	struct meshfabric_destroy d;
	struct meshfabric_attach a;
	struct meshfabric_route r;
	struct meshfabric_bcast b;
	struct meshfabric_info in;
	uint32_t id, id2, path[2], i;
	char payload[16] = { 0 };
	int nsfd, err;

	err = create_named("badt", &id);
	if (err)
		die_err("CREATE badt", err);

	expect("unknown command nr 99", mf_ioctl(_IO(MESHFABRIC_IOC_MAGIC, 99), NULL),
	       ENOTTY);
	expect("unknown command, other magic",
	       mf_ioctl(_IOWR('x', 1, struct meshfabric_create), &in), ENOTTY);
	expect("CREATE with a wrong size encoded",
	       mf_ioctl(_IOWR(MESHFABRIC_IOC_MAGIC, 1, struct meshfabric_destroy),
			&in), ENOTTY);
	expect("CREATE NULL argument", mf_ioctl(MESHFABRIC_IOC_CREATE, NULL), EFAULT);
	CREATE_CASE("flags 1", c.flags = 1, EINVAL);
	CREATE_CASE("reserved[2] set", c.reserved[2] = 1, EINVAL);
	CREATE_CASE("kind 0", c.kind = 0, EINVAL);
	CREATE_CASE("kind 4", c.kind = 4, EINVAL);
	CREATE_CASE("ndims 0", c.ndims = 0, EINVAL);
	CREATE_CASE("ndims 9", c.ndims = 9, EINVAL);
	CREATE_CASE("dims[1] = 1", c.dims[1] = 1, EINVAL);
	CREATE_CASE("dims[1] = 0", c.dims[1] = 0, EINVAL);
	CREATE_CASE("dims[5] set beyond ndims", c.dims[5] = 3, EINVAL);
	CREATE_CASE("257x256 torus (> MAX_NODES)",
		    (c.dims[0] = 257, c.dims[1] = 256), E2BIG);
	CREATE_CASE("1-D ring of 65537", (c.ndims = 1, c.dims[0] = 65537, c.dims[1] = 0),
		    E2BIG);
	CREATE_CASE("8-D 65535^8 (overflow)",
		    ({ c.ndims = 8; for (i = 0; i < 8; i++) c.dims[i] = 65535; }), E2BIG);
	CREATE_CASE("dims 4294967295", c.dims[0] = 0xffffffff, E2BIG);
	CREATE_CASE("hex with ndims 2", c.kind = MESHFABRIC_KIND_HEX, EINVAL);
	CREATE_CASE("hex n = 200 (119401 nodes)",
		    (c.kind = MESHFABRIC_KIND_HEX, c.ndims = 1, c.dims[0] = 200, c.dims[1] = 0),
		    E2BIG);
	CREATE_CASE("routing 99", c.routing = 99, EINVAL);
	CREATE_CASE("routing a1 on a torus", c.routing = MESHFABRIC_ROUTE_A1, EINVAL);
	CREATE_CASE("name without NUL", memset(c.name, 'a', sizeof(c.name)), EINVAL);
	CREATE_CASE("name with '/'", strcpy((char *)c.name, "a/b"), EINVAL);
	CREATE_CASE("name with a space", strcpy((char *)c.name, "a b"), EINVAL);
	CREATE_CASE("name with '-'", strcpy((char *)c.name, "a-b"), EINVAL);
	CREATE_CASE("duplicate name", strcpy((char *)c.name, "badt"), EEXIST);

	memset(&d, 0, sizeof(d));
	d.id = 63;
	expect("DESTROY unknown id", mf_ioctl(MESHFABRIC_IOC_DESTROY, &d), ENOENT);
	d.id = 1000000;
	expect("DESTROY huge id", mf_ioctl(MESHFABRIC_IOC_DESTROY, &d), ENOENT);
	d.id = id;
	d.flags = 1;
	expect("DESTROY flags 1", mf_ioctl(MESHFABRIC_IOC_DESTROY, &d), EINVAL);
	d.flags = 0;
	d.reserved = 1;
	expect("DESTROY reserved set", mf_ioctl(MESHFABRIC_IOC_DESTROY, &d), EINVAL);

	memset(&in, 0, sizeof(in));
	in.id = 63;
	expect("INFO unknown id", mf_ioctl(MESHFABRIC_IOC_INFO, &in), ENOENT);
	in.id = id;
	in.flags = 4;
	expect("INFO flags 4", mf_ioctl(MESHFABRIC_IOC_INFO, &in), EINVAL);
	in.flags = 0;
	in.reserved0 = 1;
	expect("INFO reserved set", mf_ioctl(MESHFABRIC_IOC_INFO, &in), EINVAL);
	in.reserved0 = 0;
	in.nodes_ptr = 8;
	in.count = 4;
	expect("INFO bad nodes pointer", mf_ioctl(MESHFABRIC_IOC_INFO, &in), EFAULT);
	in.first = 5;
	expect("INFO first > nodes", mf_ioctl(MESHFABRIC_IOC_INFO, &in), EINVAL);

	nsfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	memset(ae, 0, sizeof(ae));
	memset(&a, 0, sizeof(a));
	a.id = id;
	a.entries_ptr = (uintptr_t)ae;
	a.count = 1;
	ae[0].netns_fd = nsfd;
	a.flags = 1;
	expect("ATTACH flags 1", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EINVAL);
	a.flags = 0;
	a.reserved = 1;
	expect("ATTACH reserved set", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EINVAL);
	a.reserved = 0;
	a.count = MESHFABRIC_MAX_NODES + 1;
	expect("ATTACH count > MAX_NODES", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), E2BIG);
	a.count = 1;
	a.id = 63;
	expect("ATTACH unknown fabric", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), ENOENT);
	a.id = id;
	ae[0].node = 4;
	expect("ATTACH node out of range", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EINVAL);
	ae[0].node = 0;
	ae[0].netns_fd = -1;
	expect("ATTACH netns fd -1", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EBADF);
	ae[0].netns_fd = mf_dev();
	expect("ATTACH fd not a netns", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EINVAL);
	ae[0].netns_fd = nsfd;
	memset(ae[0].ifname, 'x', sizeof(ae[0].ifname));
	expect("ATTACH ifname without NUL", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EINVAL);
	strcpy((char *)ae[0].ifname, "a/b");
	expect("ATTACH ifname with '/'", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EINVAL);
	memset(ae[0].ifname, 0, sizeof(ae[0].ifname));
	a.entries_ptr = 8;
	expect("ATTACH bad entries pointer", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EFAULT);
	a.entries_ptr = (uintptr_t)ae;

	memset(&b, 0, sizeof(b));
	b.id = id;
	b.ethertype = ETYPE;
	b.payload_ptr = (uintptr_t)payload;
	b.len = sizeof(payload);
	expect("BCAST before any node is attached", mf_ioctl(MESHFABRIC_IOC_BCAST, &b),
	       ENETDOWN);
	for (i = 0; i < 4; i++) {
		ae[i].node = i;
		ae[i].netns_fd = nsfd;
	}
	a.count = 4;
	expect("ATTACH 4 nodes into this netns (valid)",
	       mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), 0);
	expect_val("ATTACH: done counts them", a.done, 4);
	a.count = 1;
	expect("ATTACH node already present", mf_ioctl(MESHFABRIC_IOC_ATTACH, &a), EBUSY);
	expect_val("ATTACH: done is 0", a.done, 0);

	b.flags = 2;
	expect("BCAST flags 2", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), EINVAL);
	b.flags = 0;
	b.len = MESHFABRIC_MAX_PAYLOAD + 1;
	expect("BCAST payload 65537 bytes", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), E2BIG);
	b.len = 0xffffffff;
	expect("BCAST payload 4 GiB", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), E2BIG);
	b.len = sizeof(payload);
	b.ethertype = 0x5ff;
	expect("BCAST ethertype 0x5ff (a length)", mf_ioctl(MESHFABRIC_IOC_BCAST, &b),
	       EINVAL);
	b.ethertype = 0x10000;
	expect("BCAST ethertype 0x10000", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), EINVAL);
	b.ethertype = ETYPE;
	b.algo = 99;
	expect("BCAST algo 99", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), EINVAL);
	b.algo = 0;
	b.source = 4;
	expect("BCAST source out of range", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), EINVAL);
	b.source = 0;
	b.id = 63;
	expect("BCAST unknown fabric", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), ENOENT);
	b.id = id;
	b.payload_ptr = 8;
	expect("BCAST bad payload pointer", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), EFAULT);
	b.payload_ptr = (uintptr_t)payload;
	b.algo = MESHFABRIC_ALGO_HEX;
	expect("BCAST hex algorithm on a torus", mf_ioctl(MESHFABRIC_IOC_BCAST, &b),
	       mf_algo_by_id(MESHFABRIC_ALGO_HEX) ? EOPNOTSUPP : EINVAL);
	b.algo = 0;
	expect("BCAST valid", mf_ioctl(MESHFABRIC_IOC_BCAST, &b), 0);

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.src = 0;
	r.dst = 3;
	r.path_ptr = (uintptr_t)path;
	r.path_max = 2;
	expect("ROUTE path_max too small", mf_ioctl(MESHFABRIC_IOC_ROUTE, &r), ENOSPC);
	expect_val("ROUTE: hops still reported", r.hops, 2);
	r.dst = 4;
	expect("ROUTE dst out of range", mf_ioctl(MESHFABRIC_IOC_ROUTE, &r), EINVAL);
	r.dst = 1;
	r.flags = 1;
	expect("ROUTE flags 1", mf_ioctl(MESHFABRIC_IOC_ROUTE, &r), EINVAL);
	r.flags = 0;
	r.reserved = 1;
	expect("ROUTE reserved set", mf_ioctl(MESHFABRIC_IOC_ROUTE, &r), EINVAL);
	r.reserved = 0;
	r.path_ptr = 8;
	expect("ROUTE bad path pointer", mf_ioctl(MESHFABRIC_IOC_ROUTE, &r), EFAULT);
	r.id = 63;
	expect("ROUTE unknown fabric", mf_ioctl(MESHFABRIC_IOC_ROUTE, &r), ENOENT);

	memset(&ls, 0, sizeof(ls));
	ls.id = id;
	ls.flags = 2;
	expect("LINK_STATS flags 2", mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls), EINVAL);
	ls.flags = 0;
	ls.reserved0 = 1;
	expect("LINK_STATS reserved0 set", mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls),
	       EINVAL);
	ls.reserved0 = 0;
	ls.first = 17;
	expect("LINK_STATS first > nlinks", mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls),
	       EINVAL);
	ls.first = 0;
	ls.links_ptr = 8;
	ls.count = 16;
	expect("LINK_STATS bad pointer", mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls), EFAULT);
	ls.id = 63;
	expect("LINK_STATS unknown fabric", mf_ioctl(MESHFABRIC_IOC_LINK_STATS, &ls),
	       ENOENT);

	expect("unprivileged (uid 65534): CREATE EPERM, INFO allowed",
	       child_create_info(0), 0);
	expect("new user namespace, old netns: CREATE EPERM",
	       child_create_info(1), 0);
	expect("new user namespace owning a new netns: CREATE allowed",
	       child_create_info(2), 0);

	/* the MAX_FABRICS limit */
	for (i = 0; i < MESHFABRIC_MAX_FABRICS; i++) {
		err = create_named("", &id2);
		if (err)
			break;
	}
	expect("CREATE beyond MESHFABRIC_MAX_FABRICS", err, E2BIG);
	for (id2 = 0; id2 < MESHFABRIC_MAX_IDS; id2++)
		if (id2 != id)
			destroy(id2);
	expect("DESTROY badt", destroy(id), 0);
	expect("DESTROY badt twice", destroy(id), ENOENT);
	close(nsfd);
	printf("# bad ioctl table: %d cases, %d failed\n", ntests, nfail);
	return nfail ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		usage();
	cmd = argv[1];
	argc -= 2;
	argv += 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "create"))
		return cmd_create(argc, argv);
	if (!strcmp(cmd, "destroy"))
		return cmd_destroy(argc, argv);
	if (!strcmp(cmd, "info"))
		return cmd_info(argc, argv);
	if (!strcmp(cmd, "nodes"))
		return cmd_nodes(argc, argv);
	if (!strcmp(cmd, "netns"))
		return cmd_netns(argc, argv);
	if (!strcmp(cmd, "attach"))
		return cmd_attach(argc, argv);
	if (!strcmp(cmd, "attach1"))
		return cmd_attach1(argc, argv);
	if (!strcmp(cmd, "ip"))
		return cmd_ip(argc, argv);
	if (!strcmp(cmd, "route"))
		return cmd_route(argc, argv);
	if (!strcmp(cmd, "bcast"))
		return cmd_bcast(argc, argv);
	if (!strcmp(cmd, "bcastall"))
		return cmd_bcastall(argc, argv);
	if (!strcmp(cmd, "links"))
		return cmd_links(argc, argv);
	if (!strcmp(cmd, "plan"))
		return cmd_plan(argc, argv);
	if (!strcmp(cmd, "bad"))
		return cmd_bad();
	if (!strcmp(cmd, "loop"))
		return cmd_loop(argc, argv);
	usage();
	return 2;
}
