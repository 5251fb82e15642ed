// SPDX-License-Identifier: GPL-2.0
/*
 * mfctl.c - what the selftests need and the meshfabric tool cannot do:
 * a fabric without netdevs (raw CREATE, ATTACH into namespaces made by
 * `ip netns add`, also from user namespaces where the tool cannot mount),
 * the table of bad ioctl inputs, broadcasts with an AF_PACKET listener
 * in every node's namespace, a LINK_STATS reset into an unmapped buffer,
 * and the table and listeners from an i386 build (mfctl32).  Everything
 * else the selftests do with the tool (meshfabric, and meshfabric32 for
 * the compat ioctls), whose code this links (userspace/dev.c, parse.c,
 * netns.c).  Exit status: 0, or the errno of the failing call (so shell
 * tests can check e.g. EBUSY = 16), or 1.  FABRIC: a name or an id.
 *
 *   mfctl create KIND DIMS [ROUTING [NAME]]    prints "ID NODES NPORTS"
 *   mfctl attach FABRIC PREFIX                  node i -> netns PREFIX<i>
 *        (PREFIX "-": the tool's names NAME-COORDS; "@NAME": fabric
 *        NAME's, the same coordinates)
 *   mfctl attach1 FABRIC NODE NSPATH [IFNAME]
 *   mfctl bcastall FABRIC PREFIX ALGO [LEN [SRC]]
 *        from every node (or SRC), listeners in each namespace (PREFIX
 *        as for attach): exactly-once delivery
 *   mfctl fault FABRIC                          LINK_STATS reset into an
 *                                               unmapped buffer
 *   mfctl bad                                   bad-input table, TAP lines
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "dev.h"
#include "netns.h"
#include "parse.h"

#define ETYPE 0x88b5		/* IEEE local experimental */
#define NS_PATH "/var/run/netns/%s%u"

static void die_err(const char *what, int err)
{
	fprintf(stderr, "mfctl: %s: %s\n", what, strerror(err));
	exit(err > 255 || err <= 0 ? 1 : err);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: see the comment at the top of selftests/mfctl.c\n");
	exit(2);
}

static u32 num(const char *s)
{
	u32 v;

	if (mf_parse_u32(s, 0, 0xffffffffU, &v))
		usage();
	return v;
}

/* INFO of FABRIC (a name or an id), every node's entry if nodes. */
static void fabric(const char *s, struct meshfabric_info *in,
		   struct meshfabric_node_info **nodes)
{
	int err;

	if (isdigit((unsigned char)*s))
		err = mf_dev_info(num(s), in, NULL, 0, 0);
	else
		err = mf_dev_find(s, in);
	if (!err && nodes)
		err = mf_dev_nodes(in, nodes);
	if (err)
		die_err("INFO", -err);
	in->name[MESHFABRIC_NAME_LEN - 1] = 0;
}

static int cmd_create(int argc, char **argv)
{
	struct meshfabric_create c = { 0 };
	char err[256];
	u32 k;

	if (argc < 2)
		usage();
	for (k = MESHFABRIC_KIND_MESH; k <= MESHFABRIC_KIND_HEX; k++)
		if (!strcmp(argv[0], mf_topo_kind_name(k)))
			c.kind = k;
	if (!c.kind || mf_parse_dims(argv[1], c.dims, &c.ndims, err, 256))
		usage();
	if (argc > 2 && mf_parse_routing(argv[2], &c.routing, err, 256))
		usage();
	if (argc > 3)
		strncpy((char *)c.name, argv[3], sizeof(c.name) - 1);
	k = -mf_dev_create(&c);
	if (k)
		die_err("CREATE", k);
	printf("%u %u %u\n", c.id, c.nodes, c.nports);
	return 0;
}

static void raise_nofile(void)
{
	struct rlimit rl = { 1 << 16, 1 << 16 };

	setrlimit(RLIMIT_NOFILE, &rl);
}

/*
 * Node i's namespace: PREFIX<i>, or as the tool names them: "-" this
 * fabric's NAME-COORDS, "@NAME" those of fabric NAME (same coordinates).
 */
static int open_ns(const char *prefix, const struct meshfabric_info *in,
		   u32 i)
{
	const char *name = (const char *)in->name;
	char path[256];
	struct mf_topo t;
	int fd;

	if (*prefix == '@')
		name = prefix + 1;
	if (*prefix != '-' && *prefix != '@')
		snprintf(path, sizeof(path), NS_PATH, prefix, i);
	else if (!mf_dev_topo(in, &t))
		mf_netns_path(&t, name, i, path, sizeof(path));
	else
		die_err("topology", EINVAL);
	fd = mf_netns_open(path);
	if (fd < 0)
		die_err(path, -fd);
	return fd;
}

static int attach(u32 id, struct meshfabric_attach_entry *e, u32 count)
{
	u32 done;
	int err = -mf_dev_attach(id, e, count, &done);

	if (err)
		die_err("ATTACH", err);
	return 0;
}

static int cmd_attach(int argc, char **argv)
{
	struct meshfabric_attach_entry *e;
	struct meshfabric_info in;
	u32 n;

	if (argc < 2)
		usage();
	raise_nofile();
	fabric(argv[0], &in, NULL);
	e = calloc(in.nodes, sizeof(*e));
	for (n = 0; n < in.nodes; n++) {
		e[n].node = n;
		e[n].netns_fd = open_ns(argv[1], &in, n);
	}
	return attach(in.id, e, in.nodes);
}

static int cmd_attach1(int argc, char **argv)
{
	struct meshfabric_attach_entry e = { 0 };
	struct meshfabric_info in;

	if (argc < 3)
		usage();
	/* by id: no INFO first, ATTACH itself must refuse an unseen fabric */
	if (isdigit((unsigned char)*argv[0]))
		in.id = num(argv[0]);
	else
		fabric(argv[0], &in, NULL);
	e.node = num(argv[1]);
	e.netns_fd = mf_netns_open(argv[2]);
	if (e.netns_fd < 0)
		die_err(argv[2], -e.netns_fd);
	if (argc > 3)
		strncpy((char *)e.ifname, argv[3], sizeof(e.ifname) - 1);
	return attach(in.id, &e, 1);
}

struct tag {
	u32 magic, src, seq, len;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Read every frame pending on the listeners; count those of (src, seq). */
static int drain(int *sock, u32 n, const struct tag *want, u32 *cnt,
		 char *buf, u32 *bad)
{
	int got = 0;
	u32 i, k;
	ssize_t r;
	struct tag tg;

	for (i = 0; i < n; i++) {
		while ((r = recv(sock[i], buf, MESHFABRIC_MAX_PAYLOAD + 64,
				 MSG_DONTWAIT)) >= 0) {
			memcpy(&tg, buf, sizeof(tg));
			for (k = sizeof(tg); k < want->len; k++)
				if ((u8)buf[k] != (u8)(k * 7 + want->seq))
					break;
			if (r != (ssize_t)want->len || k != want->len ||
			    memcmp(&tg, want, sizeof(tg))) {
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
	u32 n, k, step;
};

static void *closer_run(void *arg)
{
	struct closer *c = arg;
	u32 i;

	for (i = c->k; i < c->n; i += c->step)
		close(c->sock[i]);
	return NULL;
}

/*
 * Closing an AF_PACKET socket waits for an RCU grace period
 * (packet_release -> synchronize_net): close them from many threads.
 */
static void close_all(int *sock, u32 n)
{
	enum { NT = 64 };
	struct closer c[NT];
	pthread_t th[NT];
	u32 k;

	for (k = 0; k < NT; k++) {
		c[k] = (struct closer){ sock, n, k, NT };
		if (pthread_create(&th[k], NULL, closer_run, &c[k])) {
			closer_run(&c[k]);
			th[k] = 0;
		}
	}
	for (k = 0; k < NT; k++)
		if (th[k])
			pthread_join(th[k], NULL);
}

/* A listener for ETYPE on node i's netdev, in its namespace. */
static int listener(const char *prefix, const struct meshfabric_info *in,
		    const struct meshfabric_node_info *node, int self)
{
	struct sockaddr_ll sll = { 0 };
	int s, fd = open_ns(prefix, in, node->node), rcv = 4 << 20;

	if (setns(fd, CLONE_NEWNET))
		die_err("setns", errno);
	close(fd);
	/* protocol 0: not hooked until bind (no re-hook, no RCU wait) */
	s = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die_err("socket", errno);
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETYPE);
	sll.sll_ifindex = node->ifindex;
	if (bind(s, (struct sockaddr *)&sll, sizeof(sll)))
		die_err("bind", errno);
	if (setns(self, CLONE_NEWNET))
		die_err("setns", errno);
	return s;
}

static int cmd_bcastall(int argc, char **argv)
{
	u32 src, first = 0, last, i, k, len = 64, algo, *cnt, n;
	struct meshfabric_node_info *nodes;
	struct meshfabric_bcast b;
	struct meshfabric_info in;
	int *sock, self, err, failed = 0;
	char *payload, *buf, e[256];
	double t_start = now(), t_setup, t_run;
	struct tag tg = { 0x4d464243 };

	if (argc < 3 || mf_parse_algo(argv[2], &algo, e, sizeof(e)))
		usage();
	if (argc > 3)
		len = num(argv[3]);
	if (len < sizeof(tg))
		len = sizeof(tg);
	raise_nofile();
	fabric(argv[0], &in, &nodes);
	n = in.nodes;
	last = n - 1;
	if (argc > 4)
		first = last = num(argv[4]);
	sock = calloc(n, sizeof(*sock));
	cnt = calloc(n, sizeof(*cnt));
	payload = malloc(MESHFABRIC_MAX_PAYLOAD + 64);
	buf = malloc(MESHFABRIC_MAX_PAYLOAD + 64);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	for (i = 0; i < n; i++)
		sock[i] = listener(argv[1], &in, &nodes[i], self);
	t_setup = now();
	for (src = first; src <= last; src++) {
		u32 rx = 0, dup = 0, miss = 0, bad = 0;
		double t;

		tg.src = src;
		tg.seq = src + 1;
		tg.len = len;
		memcpy(payload, &tg, sizeof(tg));
		for (k = sizeof(tg); k < len; k++)
			payload[k] = (char)(k * 7 + tg.seq);
		memset(cnt, 0, n * sizeof(*cnt));
		b = (struct meshfabric_bcast){ .id = in.id, .source = src,
			.algo = algo, .payload_ptr = (uintptr_t)payload,
			.len = len, .ethertype = ETYPE };
		err = -mf_dev_bcast(&b);
		if (err)
			die_err("BCAST", err);
		/* Wait until every node heard, then a little for duplicates. */
		t = now();
		while (rx < n - 1 && now() - t < 5.0) {
			rx += drain(sock, n, &tg, cnt, buf, &bad);
			if (rx < n - 1)
				usleep(1000);
		}
		usleep(20000);
		rx += drain(sock, n, &tg, cnt, buf, &bad);
		for (i = 0; i < n; i++) {
			if (i == src)
				dup += cnt[i];
			else if (!cnt[i])
				miss++;
			else
				dup += cnt[i] - 1;
		}
		printf("src %u algo %u steps %u sends %u tcd %llu "
		       "max_link_load %u "
		       "contention %llu delivered %u elapsed_ns %llu", b.source,
		       b.algo, b.steps, b.sends, (unsigned long long)b.tcd,
		       b.max_link_load, (unsigned long long)b.contention,
		       b.delivered, (unsigned long long)b.elapsed_ns);
		printf(" rx %u dup %u miss %u bad %u\n", rx, dup, miss, bad);
		if (dup || miss || bad || b.delivered != n - 1)
			failed = 1;
	}
	fflush(stdout);
	t_run = now();
	close_all(sock, n);
	fprintf(stderr, "# bcastall: %u listeners set up in %.2f s, "
		"broadcasts %.2f s, closed in %.2f s\n", n, t_setup - t_start,
		t_run - t_setup, now() - t_run);
	return failed;
}

/* A LINK_STATS reset whose copy-out faults (into an unmapped buffer). */
static int cmd_fault(int argc, char **argv)
{
	struct meshfabric_link_stats ls = { 0 };
	struct meshfabric_info in;
	int fd = open(MF_DEV_PATH, O_RDWR | O_CLOEXEC);

	if (argc < 1)
		usage();
	fabric(argv[0], &in, NULL);
	ls.id = in.id;
	ls.flags = MESHFABRIC_LINK_STATS_RESET;
	ls.links_ptr = 8;
	ls.count = in.nodes * in.nports;
	if (fd < 0 || ioctl(fd, MESHFABRIC_IOC_LINK_STATS, &ls))
		die_err("LINK_STATS", errno);
	return 0;
}

/* ---- the table of bad inputs ---------------------------------------- */

/* The request a row starts from: a valid one of its command. */
enum { R_CREATE, R_DESTROY, R_INFO, R_ATTACH, R_ENTRY, R_BCAST, R_ROUTE,
       R_LINKS, R_NULL };

static const unsigned long ioc[] = {
	MESHFABRIC_IOC_CREATE, MESHFABRIC_IOC_DESTROY, MESHFABRIC_IOC_INFO,
	MESHFABRIC_IOC_ATTACH, MESHFABRIC_IOC_ATTACH, MESHFABRIC_IOC_BCAST,
	MESHFABRIC_IOC_ROUTE, MESHFABRIC_IOC_LINK_STATS,
};

/* A row: the request with words w[0..n-1] (or the bytes of str) at off. */
struct bad {
	const char *what;
	int req;
	unsigned int off, n;
	u32 w[9];
	const char *str;
	int want;
};

#define AT(s, f) offsetof(struct meshfabric_##s, f)
#define W(...) sizeof((u32[]){ __VA_ARGS__ }) / 4, { __VA_ARGS__ }, NULL
#define S(s) 0, { 0 }, s
#define BIG 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535


/*
 * What reaches the driver through the ioctl itself: copy-in and -out of
 * every command, ids, nodes, fds, pointers, state.  The validation of
 * CREATE's and BCAST's fields, unknown command numbers, names in use and
 * the number of fabrics are kunit/uapi_test.c's (mf_validate_create,
 * mf_ioctl, mf_fabric_create), and not repeated here.
 */
static const struct bad before[] = {
	{ "CREATE NULL argument", R_NULL, 0, W(0), EFAULT },
	{ "CREATE 8-D 65535^8 (overflow)", R_CREATE, AT(create, ndims),
	  W(8, BIG), E2BIG },
	{ "DESTROY unknown id", R_DESTROY, AT(destroy, id), W(63), ENOENT },
	{ "DESTROY huge id", R_DESTROY, AT(destroy, id), W(1000000), ENOENT },
	{ "DESTROY flags 1", R_DESTROY, AT(destroy, flags), W(1), EINVAL },
	{ "DESTROY reserved set", R_DESTROY, AT(destroy, reserved), W(1),
	  EINVAL },
	{ "INFO unknown id", R_INFO, AT(info, id), W(63), ENOENT },
	{ "INFO flags 4", R_INFO, AT(info, flags), W(4), EINVAL },
	{ "INFO reserved set", R_INFO, AT(info, reserved0), W(1), EINVAL },
	{ "INFO bad nodes pointer", R_INFO, AT(info, nodes_ptr), W(8, 0, 0, 4),
	  EFAULT },
	{ "INFO first > nodes", R_INFO, AT(info, nodes_ptr), W(8, 0, 5, 4),
	  EINVAL },
	{ "ATTACH flags 1", R_ATTACH, AT(attach, flags), W(1), EINVAL },
	{ "ATTACH reserved set", R_ATTACH, AT(attach, reserved), W(1), EINVAL },
	{ "ATTACH count > MAX_NODES", R_ATTACH, AT(attach, count),
	  W(MESHFABRIC_MAX_NODES + 1), E2BIG },
	{ "ATTACH unknown fabric", R_ATTACH, AT(attach, id), W(63), ENOENT },
	{ "ATTACH node out of range", R_ENTRY, AT(attach_entry, node), W(4),
	  EINVAL },
	{ "ATTACH netns fd -1", R_ENTRY, AT(attach_entry, netns_fd), W(-1),
	  EBADF },
	{ "ATTACH fd not a netns", R_ENTRY, AT(attach_entry, netns_fd), W(1),
	  EINVAL },
	{ "ATTACH ifname without NUL", R_ENTRY, AT(attach_entry, ifname),
	  S("xxxxxxxxxxxxxxxx"), EINVAL },
	{ "ATTACH ifname with '/'", R_ENTRY, AT(attach_entry, ifname), S("a/b"),
	  EINVAL },
	{ "ATTACH bad entries pointer", R_ATTACH, AT(attach, entries_ptr),
	  W(8, 0), EFAULT },
	{ "BCAST before any node is attached", R_BCAST, AT(bcast, flags), W(0),
	  ENETDOWN },
	{ NULL }
};

static const struct bad after[] = {
	{ "BCAST source out of range", R_BCAST, AT(bcast, source), W(4),
	  EINVAL },
	{ "BCAST unknown fabric", R_BCAST, AT(bcast, id), W(63), ENOENT },
	{ "BCAST bad payload pointer", R_BCAST, AT(bcast, payload_ptr),
	  W(8, 0), EFAULT },
	{ "BCAST hex algorithm on a torus", R_BCAST, AT(bcast, algo),
	  W(MESHFABRIC_ALGO_HEX), EOPNOTSUPP },
	{ "BCAST valid", R_BCAST, AT(bcast, flags), W(0), 0 },
	{ "ROUTE path_max too small", R_ROUTE, AT(route, path_max), W(2),
	  ENOSPC },
	{ "ROUTE dst out of range", R_ROUTE, AT(route, dst), W(4), EINVAL },
	{ "ROUTE flags 1", R_ROUTE, AT(route, flags), W(1), EINVAL },
	{ "ROUTE reserved set", R_ROUTE, AT(route, reserved), W(1), EINVAL },
	{ "ROUTE bad path pointer", R_ROUTE, AT(route, path_ptr), W(8, 0),
	  EFAULT },
	{ "ROUTE unknown fabric", R_ROUTE, AT(route, id), W(63), ENOENT },
	{ "LINK_STATS flags 2", R_LINKS, AT(link_stats, flags), W(2), EINVAL },
	{ "LINK_STATS reserved0 set", R_LINKS, AT(link_stats, reserved0), W(1),
	  EINVAL },
	{ "LINK_STATS first > nlinks", R_LINKS, AT(link_stats, first), W(17),
	  EINVAL },
	{ "LINK_STATS bad pointer", R_LINKS, AT(link_stats, links_ptr),
	  W(8, 0, 0, 16), EFAULT },
	{ "LINK_STATS unknown fabric", R_LINKS, AT(link_stats, id), W(63),
	  ENOENT },
	{ NULL }
};

static int dev, ntests, nfail;
static u32 bad_id, bad_path[4];
static struct meshfabric_attach_entry bad_ae[4];
static char bad_payload[16];

static void expect(const char *what, int got, int want)
{
	ntests++;
	if (got == want) {
		printf("ok - bad ioctl: %s -> %s\n", what,
		       want ? strerror(want) : "0");
		return;
	}
	nfail++;
	printf("not ok - bad ioctl: %s -> got %d (%s), want %d (%s)\n",
	       what, got, strerror(got), want, strerror(want));
}

static void expect_val(const char *what, long got, long want)
{
	ntests++;
	nfail += got != want;
	printf("%sok - bad ioctl: %s = %ld, want %ld\n",
	       got == want ? "" : "not ",
	       what, got, want);
}

static int xioctl(unsigned long nr, void *arg)
{
	return ioctl(dev, nr, arg) ? errno : 0;
}

/* The valid request of kind r (R_ENTRY: ATTACH's entry 0 in *entry). */
static void good(int r, void *q, struct meshfabric_attach_entry *entry)
{
	struct meshfabric_create *c = q;
	struct meshfabric_attach *a = q;
	struct meshfabric_bcast *b = q;
	struct meshfabric_route *rt = q;

	memset(q, 0, 512);
	*(u32 *)q = bad_id;		/* every request starts with id */
	memset(entry, 0, sizeof(*entry));
	entry->netns_fd = bad_ae[0].netns_fd;
	switch (r) {
	case R_CREATE:
		*c = (struct meshfabric_create){ MESHFABRIC_KIND_TORUS, 2,
						 { 2, 2 } };
		break;
	case R_ATTACH:
	case R_ENTRY:
		a->entries_ptr = (uintptr_t)entry;
		a->count = 1;
		break;
	case R_BCAST:
		b->ethertype = ETYPE;
		b->payload_ptr = (uintptr_t)bad_payload;
		b->len = sizeof(bad_payload);
		break;
	case R_ROUTE:
		rt->dst = 3;
		rt->path_ptr = (uintptr_t)bad_path;
		rt->path_max = 4;
		break;
	}
}

static void run_table(const struct bad *t)
{
	struct meshfabric_attach_entry entry;
	u64 q[64];
	char *at;

	for (; t->what; t++) {
		good(t->req, q, &entry);
		at = (t->req == R_ENTRY ? (char *)&entry : (char *)q) + t->off;
		if (t->str)
			memcpy(at, t->str, strlen(t->str));
		else
			memcpy(at, t->w, t->n * sizeof(u32));
		if (t->req == R_NULL)
			expect(t->what, xioctl(ioc[R_CREATE], NULL), t->want);
		else
			expect(t->what, xioctl(ioc[t->req], q), t->want);
	}
}

/* In a child: the caller's status of op (create/info), as exit code. */
static int child_create_info(int how)
{
	struct meshfabric_create c = { MESHFABRIC_KIND_TORUS, 2, { 2, 2 } };
	struct meshfabric_info in = { .id = 63 };
	pid_t pid = fork();
	int st, err;

	if (pid == 0) {
		if (how == 0 && setresuid(65534, 65534, 65534))
			_exit(99);
		if (how == 1 && unshare(CLONE_NEWUSER))
			_exit(98);
		if (how == 2 && unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(97);
		err = xioctl(MESHFABRIC_IOC_CREATE, &c);
		if (!err)
			mf_dev_destroy(c.id);
		if (err != (how == 2 ? 0 : EPERM))
			_exit(10 + (err & 63));
		/* read-only commands need no capability */
		_exit(xioctl(MESHFABRIC_IOC_INFO, &in) == ENOENT ? 0 : 80);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int cmd_bad(void)
{
	struct meshfabric_create c = { MESHFABRIC_KIND_TORUS, 2, { 2, 2 } };
	struct meshfabric_route r = { 0 };
	u32 i, done;

	dev = open(MF_DEV_PATH, O_RDWR | O_CLOEXEC);
	strcpy((char *)c.name, "badt");
	if (dev < 0 || xioctl(MESHFABRIC_IOC_CREATE, &c))
		die_err("CREATE badt", errno);
	bad_id = c.id;
	for (i = 0; i < 4; i++) {
		bad_ae[i].node = i;
		bad_ae[i].netns_fd = open("/proc/self/ns/net", O_RDONLY);
	}
	run_table(before);
	expect("ATTACH 4 nodes into this netns (valid)",
	       -mf_dev_attach(bad_id, bad_ae, 4, &done), 0);
	expect_val("ATTACH: done counts them", done, 4);
	expect("ATTACH node already present",
	       -mf_dev_attach(bad_id, bad_ae, 1, &done), EBUSY);
	expect_val("ATTACH: done is 0", done, 0);
	run_table(after);
	r = (struct meshfabric_route){ bad_id, 0, 0, 3,
				       (uintptr_t)bad_path, 2 };
	xioctl(MESHFABRIC_IOC_ROUTE, &r);
	expect_val("ROUTE: hops still reported", r.hops, 2);

	expect("unprivileged (uid 65534): CREATE EPERM, INFO allowed",
	       child_create_info(0), 0);
	expect("new user namespace, old netns: CREATE EPERM",
	       child_create_info(1), 0);
	expect("new user namespace owning a new netns: CREATE allowed",
	       child_create_info(2), 0);

	expect("DESTROY badt", -mf_dev_destroy(bad_id), 0);
	expect("DESTROY badt twice", -mf_dev_destroy(bad_id), ENOENT);
	printf("# bad ioctl table: %d cases, %d failed\n", ntests, nfail);
	return nfail ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "create", cmd_create }, { "attach", cmd_attach },
		{ "attach1", cmd_attach1 }, { "bcastall", cmd_bcastall },
		{ "fault", cmd_fault },
	};
	size_t i;

	if (argc < 2)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "bad"))
		return cmd_bad();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 2, argv + 2);
	usage();
	return 2;
}
