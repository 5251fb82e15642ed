// SPDX-License-Identifier: GPL-2.0
/*
 * mfctl.c - the selftests' one C helper, for what the meshfabric tool
 * cannot do; it links the tool's code (userspace/dev.c, parse.c, netns.c,
 * cli.c).  Built as mfctl and as mfctl32 (i386: the compat ioctls).
 *
 *   mfctl ioctl ID CMD [FIELD=VALUE | @FIELD | null | nobody | uid:N |
 *		userns | netns | time]..
 *	CMD's valid request on fabric ID (bad_ioctl.tab, lib.sh), FIELDs set
 *	(a number, a list a,b,.. or bytes; ATTACH's entry fields: its first
 *	entry's, whose netns is the caller's), NULL as the argument, as uid
 *	65534 (or N), from a new user (and network) namespace: prints the errno's
 *	name (or 0), then each @FIELD after the call, then (time) the
 *	call's wall time in ns
 *   mfctl bcastall ID ALGO [LEN [SRC]]   BCAST from every node (or SRC),
 *	an AF_PACKET listener in every node's namespace (the tool's): a line
 *	per source; exit 0 if each was heard exactly once
 *   mfctl fuzz [SECONDS [SEED [PROCS]]]  the ioctl fuzzer (60 s, 4 workers
 *	and a reaper): every command of the uapi; prints the calls per
 *	command and per errno; exit 0 if nothing impossible happened
 *   mfctl flood DST SECONDS SIZE  as uid 65534 on CPU 0, frames holding a
 *	pattern as fast as they go (SECONDS 0: one): UDP to DST port 9, or
 *	raw to DST IFNAME/MAC; prints "sent N failed M ns_per_frame T"
 *   mfctl recv SIZE SECONDS       exit 0 if a datagram of SIZE bytes
 *	arrives on port 9 within SECONDS, its pattern intact
 *   mfctl collref TYPE OP NODES COUNT  the allreduce of NODES vectors of
 *	the uapi's generator (MESHFABRIC_IOC_COLLECTIVE), computed here from
 *	the header's formula: COUNT numbers on one line (test_55)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "algo.h"
#include "coll.h"
#include "dev.h"
#include "netns.h"
#include "parse.h"
#include "schedcode.h"

#define ETYPE 0x88b5		/* IEEE local experimental */
#define AT(s, f) offsetof(struct meshfabric_##s, f)

static int dev = -1;

static void die_err(const char *what, int err)
{
	fprintf(stderr, "mfctl: %s: %s\n", what, strerror(err));
	exit(err > 255 || err <= 0 ? 1 : err);
}

#define usage() die_err("usage (see selftests/mfctl.c)", EINVAL)

static u32 num(const char *s)
{
	u32 v;

	if (mf_parse_u32(s, 0, 0xffffffffU, &v))
		usage();
	return v;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void open_dev(void)
{
	dev = open(MF_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (dev < 0)
		die_err(MF_DEV_PATH, errno);
}

static void become(uid_t id)
{
	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id))
		die_err("dropping privileges", errno);
}

static void nobody(void)
{
	become(65534);
}

/* ---- broadcasts heard by listeners in every namespace ---------------- */

/* Read every frame pending on the listeners; count those equal to want. */
static u32 drain(int *sock, u32 n, const char *want, u32 len, u32 *cnt,
		 char *buf, u32 *bad)
{
	u32 got = 0, i;
	ssize_t r;

	for (i = 0; i < n; i++)
		while ((r = recv(sock[i], buf, MESHFABRIC_MAX_PAYLOAD + 64,
				 MSG_DONTWAIT)) >= 0)
			if (r != (ssize_t)len || memcmp(buf, want, len))
				(*bad)++;
			else
				cnt[i]++, got++;
	return got;
}

static int *socks;
static u32 nsocks;

static void *closer(void *arg)
{
	u32 i;

	for (i = (uintptr_t)arg; i < nsocks; i += 64)
		close(socks[i]);
	return NULL;
}

/* A listener for ETYPE on node's netdev, in its namespace (the tool's). */
static int listener(const struct mf_topo *t, const char *name,
		    const struct meshfabric_node_info *node, int self)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETYPE),
				   .sll_ifindex = node->ifindex };
	int s, rcv = 4 << 20, e;
	char path[256];

	mf_netns_path(t, name, node->node, path, sizeof(path));
	e = -mf_netns_enter(path);
	if (e)
		die_err(path, e);
	/* protocol 0: not hooked until bind (no re-hook, no RCU wait) */
	s = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die_err("socket", errno);
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv));
	if (bind(s, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setns(self, CLONE_NEWNET))
		die_err("bind", errno);
	return s;
}

static int cmd_bcastall(int argc, char **argv)
{
	u32 src, first = 0, last, i, k, len = 64, algo, *cnt, n;
	struct rlimit rl = { 1 << 16, 1 << 16 };
	struct meshfabric_node_info *nodes;
	struct meshfabric_bcast b;
	struct meshfabric_info in;
	int *sock, self, failed = 0;
	char *payload, *buf, e[256];
	struct mf_topo t;
	pthread_t th[64];

	if (argc < 2 || mf_parse_algo(argv[1], &algo, e, sizeof(e)))
		usage();
	if (argc > 2)
		len = num(argv[2]);
	len = len < 4 ? 4 : len;
	setrlimit(RLIMIT_NOFILE, &rl);
	k = -mf_dev_info(num(argv[0]), &in, NULL, 0, 0);
	if (k || (k = -mf_dev_nodes(&in, &nodes)) || (k = -mf_dev_topo(&in, &t)))
		die_err("INFO", k);
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	n = in.nodes;
	last = n - 1;
	if (argc > 3)
		first = last = num(argv[3]);
	sock = calloc(n, sizeof(*sock));
	cnt = calloc(n, sizeof(*cnt));
	payload = malloc(MESHFABRIC_MAX_PAYLOAD + 64);
	buf = malloc(MESHFABRIC_MAX_PAYLOAD + 64);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	for (i = 0; i < n; i++)
		sock[i] = listener(&t, (char *)in.name, &nodes[i], self);
	for (src = first; src <= last; src++) {
		u32 rx = 0, dup = 0, miss = 0, bad = 0;
		double t0;

		for (k = 0; k < len; k++)	/* src, then a pattern */
			payload[k] = (char)(k * 7 + src * 13 + 1);
		memcpy(payload, &src, 4);
		memset(cnt, 0, n * sizeof(*cnt));
		b = (struct meshfabric_bcast){ .id = in.id, .source = src,
			.algo = algo, .payload_ptr = (uintptr_t)payload,
			.len = len, .ethertype = ETYPE };
		k = -mf_dev_bcast(&b);
		if (k)
			die_err("BCAST", k);
		/* Wait until every node heard, then a little for duplicates. */
		for (t0 = now(); rx < n - 1 && now() - t0 < 5; usleep(1000))
			rx += drain(sock, n, payload, len, cnt, buf, &bad);
		usleep(20000);
		rx += drain(sock, n, payload, len, cnt, buf, &bad);
		for (i = 0; i < n; i++)
			if (i == src || cnt[i])
				dup += cnt[i] - (i != src);
			else
				miss++;
		printf("src %u algo %u steps %u sends %u tcd %llu "
		       "max_link_load %u contention %llu delivered %u "
		       "elapsed_ns %llu rx %u dup %u miss %u bad %u\n",
		       b.source, b.algo, b.steps, b.sends,
		       (unsigned long long)b.tcd, b.max_link_load,
		       (unsigned long long)b.contention, b.delivered,
		       (unsigned long long)b.elapsed_ns, rx, dup, miss, bad);
		if (dup || miss || bad || b.delivered != n - 1)
			failed = 1;
	}
	/* closing an AF_PACKET socket waits for an RCU grace period
	 * (packet_release -> synchronize_net): 64 threads close them
	 */
	socks = sock;
	nsocks = n;
	for (k = 0; k < 64; k++)
		if (pthread_create(&th[k], NULL, closer, (void *)(uintptr_t)k))
			th[k] = 0, closer((void *)(uintptr_t)k);
	for (k = 0; k < 64; k++)
		if (th[k])
			pthread_join(th[k], NULL);
	return failed;
}

/* ---- one request of the bad-input table ----------------------------- */

enum { C_create, C_destroy, C_info, C_attach, C_bcast, C_route,
       C_link_stats, C_bcast_v1, C_link_set, C_link_get, C_sched_load,
       C_port, C_port_get, C_collective, C_attach_entry };

static const char *const cmd_name[] = {
	"CREATE", "DESTROY", "INFO", "ATTACH", "BCAST", "ROUTE", "LINK_STATS",
	"BCAST_V1", "LINK_SET", "LINK_GET", "SCHED_LOAD", "PORT", "PORT_GET",
	"COLLECTIVE",
};

static const unsigned long cmd_nr[] = {
	MESHFABRIC_IOC_CREATE, MESHFABRIC_IOC_DESTROY, MESHFABRIC_IOC_INFO,
	MESHFABRIC_IOC_ATTACH, MESHFABRIC_IOC_BCAST, MESHFABRIC_IOC_ROUTE,
	MESHFABRIC_IOC_LINK_STATS, MESHFABRIC_IOC_BCAST_V1,
	MESHFABRIC_IOC_LINK_SET, MESHFABRIC_IOC_LINK_GET,
	MESHFABRIC_IOC_SCHED_LOAD, MESHFABRIC_IOC_PORT,
	MESHFABRIC_IOC_PORT_GET, MESHFABRIC_IOC_COLLECTIVE,
};

static const struct field {
	int c;
	const char *name;
	unsigned short off, size;
} fields[] = {
#define F(s, f) { C_##s, #f, AT(s, f), sizeof(((struct meshfabric_##s *)0)->f) }
	F(create, kind), F(create, ndims), F(create, dims), F(create, routing),
	F(create, name), F(create, id), F(create, nodes), F(create, nports),
	F(destroy, id), F(destroy, flags), F(destroy, reserved),
	F(info, id), F(info, flags), F(info, nodes_ptr), F(info, first),
	F(info, count), F(info, reserved0),
	F(attach, id), F(attach, flags), F(attach, entries_ptr),
	F(attach, count), F(attach, done), F(attach, reserved),
	F(attach_entry, node), F(attach_entry, netns_fd),
	F(attach_entry, ifname),
	F(bcast, id), F(bcast, source), F(bcast, algo), F(bcast, payload_ptr),
	F(bcast, delivered), F(bcast, elapsed_ns), F(bcast, unreachable),
	F(route, id), F(route, flags), F(route, dst), F(route, path_ptr),
	F(route, path_max), F(route, hops), F(route, reserved),
	F(link_stats, id), F(link_stats, flags), F(link_stats, links_ptr),
	F(link_stats, first), F(link_stats, count), F(link_stats, reserved0),
	/* BCAST_V1: BCAST's fields (its first 88 bytes, and what follows) */
	{ C_bcast_v1, "id", AT(bcast, id), 4 },
	{ C_bcast_v1, "unreachable", AT(bcast, unreachable), 4 },
	F(link_set, id), F(link_set, flags), F(link_set, node),
	F(link_set, port), F(link_set, rate), F(link_set, down),
	F(link_set, count), F(link_set, reserved0),
	F(link_get, id), F(link_get, flags), F(link_get, links_ptr),
	F(link_get, first), F(link_get, count), F(link_get, nlinks),
	F(sched_load, id), F(sched_load, flags), F(sched_load, source),
	F(sched_load, model), F(sched_load, nsends), F(sched_load, code_ptr),
	F(sched_load, code_len), F(sched_load, why_ptr),
	F(sched_load, why_len),
	F(port, id), F(port, flags), F(port, node), F(port, port),
	F(port, netns_fd), F(port, reserved0), F(port, ifname),
	F(port, reserved),
	F(port_get, id), F(port_get, flags), F(port_get, ports_ptr),
	F(port_get, count), F(port_get, total), F(port_get, reserved),
	F(collective, id), F(collective, flags), F(collective, coll),
	F(collective, op), F(collective, type), F(collective, algo),
	F(collective, root), F(collective, count), F(collective, ethertype),
	F(collective, in_ptr), F(collective, out_ptr), F(collective, match),
	F(collective, reserved), F(collective, steps),
	F(collective, sched_ptr), F(collective, sched_len),
#undef F
};

/* FIELD of command c (ATTACH: also its entry's) in q or e; usage if none */
static char *field(int c, const char *s, size_t len, u64 *q,
		   struct meshfabric_attach_entry *e, unsigned int *size)
{
	const struct field *f;

	for (f = fields; f < fields + sizeof(fields) / sizeof(*f); f++)
		if ((f->c == c || (c == C_attach && f->c == C_attach_entry)) &&
		    strlen(f->name) == len && !strncmp(f->name, s, len)) {
			*size = f->size;
			return (f->c == C_attach_entry ? (char *)e : (char *)q) + f->off;
		}
	usage();
	return NULL;
}

static int cmd_ioctl(int argc, char **argv)
{
	static u32 buf[4];	/* BCAST's payload, ROUTE's path, a code */
	struct meshfabric_attach_entry e[4] = { { 0 } };
	union {
		u64 q[32];
		struct meshfabric_create c;
		struct meshfabric_attach a;
		struct meshfabric_bcast b;
		struct meshfabric_route r;
		struct meshfabric_link_set ls;
		struct meshfabric_sched_load sl;
		struct meshfabric_port p;
		struct meshfabric_collective co;
	} u = { { 0 } };
	unsigned int size, w, i;
	char *at, *eq, *p, *end;
	void *arg = &u;
	int c, k, err, timed = 0;
	double t0 = 0;
	u64 v;

	for (c = 0; argc > 1 && c < C_attach_entry; c++)
		if (!strcmp(argv[1], cmd_name[c]))
			break;
	if (argc < 2 || c == C_attach_entry)
		usage();
	u.a.id = num(argv[0]);		/* every request but CREATE: id */
	for (i = 0; i < 4; i++) {	/* entries: node i, this netns */
		e[i].node = i;
		e[i].netns_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	}
	if (c == C_create)		/* a 2x2 torus */
		u.c = (struct meshfabric_create){ MESHFABRIC_KIND_TORUS, 2,
						  { 2, 2 } };
	if (c == C_attach) {
		u.a.entries_ptr = (uintptr_t)e;
		u.a.count = 1;
	}
	if (c == C_bcast || c == C_bcast_v1) {
		u.b.ethertype = ETYPE;
		u.b.payload_ptr = (uintptr_t)buf;
		u.b.len = sizeof(buf);
	}
	if (c == C_link_set)		/* rate 0 (unlimited) on link 0 */
		u.ls.flags = MESHFABRIC_LINK_RATE;
	if (c == C_sched_load) {	/* an encoding of 0 bytes */
		u.sl.model = MESHFABRIC_MODEL_ONE_PORT;
		u.sl.code_ptr = (uintptr_t)buf;
	}
	if (c == C_port)		/* in this netns */
		u.p.netns_fd = e[0].netns_fd;
	if (c == C_collective) {	/* an allreduce of the generator's */
		u.co.flags = MESHFABRIC_COLL_GENERATE;
		u.co.coll = MESHFABRIC_COLL_ALLREDUCE;
		u.co.count = 1;
	}
	if (c == C_route) {
		u.r.dst = 3;
		u.r.path_ptr = (uintptr_t)buf;
		u.r.path_max = 4;
	}
	open_dev();
	for (k = 2; k < argc; k++) {
		eq = strchr(argv[k], '=');
		if (!strcmp(argv[k], "null"))
			arg = NULL;
		if (!strcmp(argv[k], "nobody"))
			nobody();
		if (!strncmp(argv[k], "uid:", 4))
			become(num(argv[k] + 4));
		if (!strcmp(argv[k], "time"))
			timed = 1;
		if ((!strcmp(argv[k], "userns") && unshare(CLONE_NEWUSER)) ||
		    (!strcmp(argv[k], "netns") && unshare(CLONE_NEWNET)))
			die_err("unshare", errno);
		if (!eq)
			continue;
		at = field(c, argv[k], eq - argv[k], u.q, e, &size);
		if (eq[1] != '-' && (eq[1] < '0' || eq[1] > '9')) {
			memcpy(at, eq + 1, strnlen(eq + 1, size));
			continue;
		}
		w = size == 8 ? 8 : 4;	/* a number, or a list of u32 */
		memset(at, 0, size);
		for (p = eq, end = at + size; *p && at < end; at += w) {
			v = strtoll(p + 1, &p, 0);
			memcpy(at, &v, w);
		}
	}
	t0 = now();
	err = ioctl(dev, cmd_nr[c], arg) ? errno : 0;
	t0 = now() - t0;
	printf("%s", err ? strerrorname_np(err) : "0");
	for (k = 2; k < argc; k++) {
		if (*argv[k] != '@')
			continue;
		v = 0;
		at = field(c, argv[k] + 1, strlen(argv[k] + 1), u.q, e, &size);
		memcpy(&v, at, size < 8 ? size : 8);
		printf(" %llu", (unsigned long long)v);
	}
	if (timed)
		printf(" %.0f", t0 * 1e9);
	printf("\n");
	return 0;
}

/* ---- the fuzzer -------------------------------------------------------- */
/*
 * Every command of the uapi (fzc[] below; test_90 checks it against the
 * header), from several processes, with inputs built from the structs:
 * near-valid requests on fabrics the fuzzer made (their shapes are known,
 * so nodes, ports, links and counts are drawn around their boundaries),
 * LINK_SET's fields and flags in and out of their limits, broadcast
 * schedules built by the core (mf_plan, mf_sched_encode) then mutated for
 * SCHED_LOAD, BCAST_V1 with a canary after its 88 bytes, user pointers
 * that fault (NULL, kernel, PROT_NONE, straddling, read-only, exactly at
 * the end of a readable area), the argument itself elsewhere.  Meanwhile
 * fabrics and namespaces die in flight: a reaper process DESTROYs the
 * fabrics workers are using and deletes named namespaces holding nodes as
 * `ip netns del` does (umount2 MNT_DETACH, unlink), workers fill fabrics
 * into named namespaces (the tool's netns.c) and broadcast on them,
 * unnamed namespaces die with nodes attached after a flood, and processes
 * in new user namespaces issue requests of their own.  At the end: calls
 * per command and per errno.  The validators and the schedule decoder are
 * also fuzzed by KUnit under KASAN (kunit/fuzz_test.c).
 */
enum { FZ_CREATE, FZ_DESTROY, FZ_INFO, FZ_ATTACH, FZ_ROUTE, FZ_BCAST,
       FZ_BCAST_V1, FZ_LINK_STATS, FZ_LINK_SET, FZ_LINK_GET, FZ_SCHED_LOAD,
       FZ_COLLECTIVE, FZ_PORT, FZ_PORT_GET, FZ_TUNNEL_SET, FZ_TUNNEL_GET,
       FZ_NCMD };

static const struct {
	const char *name;	/* as in the header: MESHFABRIC_IOC_<name> */
	unsigned long nr;
	unsigned int weight, size;
} fzc[FZ_NCMD] = {
#define C(n, s, w) { #n, MESHFABRIC_IOC_##n, w, sizeof(struct meshfabric_##s) }
	C(CREATE, create, 6), C(DESTROY, destroy, 3), C(INFO, info, 8),
	C(ATTACH, attach, 6), C(ROUTE, route, 8), C(BCAST, bcast, 8),
	{ "BCAST_V1", MESHFABRIC_IOC_BCAST_V1, 5, 88 },
	C(LINK_STATS, link_stats, 6), C(LINK_SET, link_set, 12),
	C(LINK_GET, link_get, 8), C(SCHED_LOAD, sched_load, 12),
	C(COLLECTIVE, collective, 6),
	C(PORT, port, 8), C(PORT_GET, port_get, 4),
	C(TUNNEL_SET, tunnel, 3), C(TUNNEL_GET, tunnel, 3),
#undef C
};

#define FZ_NERR		134	/* errnos counted one by one (EHWPOISON 133) */
#define FZ_POOL		32
#define FZ_WORKERS	64
#define FZ_SCRATCH	(MESHFABRIC_SCHED_CODE_MAX + 4096)
/* PROT_NONE between the scratch area and the shared counters: 96 MiB, so
 * that no pointer into scratch, ro or guard with one bit flipped (2^k
 * higher: 64 or 128 MiB, never 92-101 MiB) lands in them (cmd_fuzz)
 */
#define FZ_GAP		(96UL << 20)
#define FZ_NETNS	"fz"	/* prefix of the named namespaces */

/* What the fuzzer knows of a fabric it made: a hint, possibly stale (the
 * fabric may be gone, its id reused) or torn by a concurrent writer.
 */
struct fz_fab {
	u32 id1;		/* id + 1; 0: empty */
	u32 kind, ndims, dims[MESHFABRIC_MAX_DIMS], nodes, nports;
	u32 src1;		/* a source with a schedule loaded, + 1 */
};

static struct fz_shared {
	unsigned long calls[FZ_NCMD][FZ_NERR];
	unsigned long created, destroyed, deaths, nsdel, filled, userns, big;
	unsigned long slow;	/* a namespace's process ended by alarm(10) */
	unsigned long impossible;
	struct fz_fab pool[FZ_POOL];
	u32 busy[FZ_WORKERS];	/* id + 1 each worker uses now */
	u8 made[MESHFABRIC_MAX_IDS];	/* ids of fabrics made: destroyed at
					 * the end, user namespaces' too
					 */
} *sh;
static u64 rng;
static u32 me;			/* worker number */
/* [scratch FZ_SCRATCH bytes rw][ro: a read-only page][guard: PROT_NONE]
 * [FZ_GAP bytes PROT_NONE][sh]: see cmd_fuzz
 */
static unsigned char *scratch, *ro, *guard;

#define ADD(x) __atomic_add_fetch(&sh->x, 1, __ATOMIC_RELAXED)

static u32 pick(u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (u32)(rng % n) : 0;
}

static u64 pick64(void)
{
	pick(0);
	return rng;
}

/* Around lim (the first value out of range): mostly below it. */
static u32 near(u32 lim)
{
	switch (pick(12)) {
	case 0: return 0;
	case 1: return lim - 1;
	case 2: return lim;
	case 3: return lim + 1;
	case 4: return 0xffffffffU;
	case 5: return 1U << pick(32);
	default: return pick(lim);
	}
}

static u64 near64(u64 lim)
{
	switch (pick(8)) {
	case 0: return 0;
	case 1: return lim;
	case 2: return lim + 1;
	case 3: return ~0ULL;
	case 4: return pick64();
	default: return pick64() % lim;
	}
}

static void impossible(u32 k, const char *what)
{
	ADD(impossible);
	fprintf(stderr, "# impossible: %s %s\n", fzc[k].name, what);
}

/* The request, counted by command and errno: the errno, 0 on success. */
static int fz_ioctl(u32 k, void *arg)
{
	int e = ioctl(dev, fzc[k].nr, arg) ? errno : 0;

	__atomic_add_fetch(&sh->calls[k][e < FZ_NERR ? e : FZ_NERR - 1], 1,
			   __ATOMIC_RELAXED);
	if (e == ENOTTY)
		impossible(k, "answered ENOTTY");
	return e;
}

/* Pointer classes: what the kernel can do at a pointer for need bytes. */
enum { P_RW, P_RO, P_NONE, P_UNKNOWN };

/* A user pointer to need bytes, its class in *cls: mostly usable, at the
 * end of the scratch area (an access past need bytes faults), sometimes
 * not: NULL, 8, the direct map, a PROT_NONE page, straddling it (from
 * the read-only page before it), read-only.
 */
static u64 some_ptr(size_t need, int *cls)
{
	u32 k = pick(20);

	*cls = k < 5 ? P_NONE : k == 5 ? P_RO : P_RW;
	switch (k) {
	case 0: return 0;
	case 1: return 8;
	case 2: return 0xffff888000000000ULL;
	case 3: return (uintptr_t)guard;
	case 4: return (uintptr_t)guard - ((need < 4096 ? need : 4096) / 2 & ~7UL);
	case 5: return (uintptr_t)ro;
	}
	if (need > FZ_SCRATCH) {
		*cls = P_UNKNOWN;	/* the kernel may stop short of the end */
		return (uintptr_t)scratch;
	}
	return (uintptr_t)scratch + (k & 1 ? 0 : FZ_SCRATCH - need);
}

/* A fabric to use: one of the pool (a racy copy), or a made-up one. */
static struct fz_fab some_fab(void)
{
	struct fz_fab f;
	u32 i = 0;

	do	/* a few tries for a fabric that was there */
		f = sh->pool[pick(FZ_POOL)];
	while (!f.id1 && ++i < 8);
	if (!f.id1 || !pick(10) || f.nodes > MESHFABRIC_MAX_NODES ||
	    f.nports > 2 * MESHFABRIC_MAX_DIMS || f.ndims > MESHFABRIC_MAX_DIMS) {
		memset(&f, 0, sizeof(f));
		f.id1 = 1 + (pick(4) ? pick(MESHFABRIC_MAX_IDS + 2) : near(0));
		f.kind = MESHFABRIC_KIND_TORUS;
		f.ndims = 2;
		f.dims[0] = f.dims[1] = 2;
		f.nodes = f.nports = 4;
	}
	__atomic_store_n(&sh->busy[me], f.id1, __ATOMIC_RELAXED);
	return f;
}

static void pool_forget(u32 id)
{
	u32 i;

	for (i = 0; i < FZ_POOL; i++)
		__atomic_compare_exchange_n(&sh->pool[i].id1, &(u32){ id + 1 },
					    0, 0, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
}

static void pool_add(const struct meshfabric_create *c)
{
	struct fz_fab *p = &sh->pool[pick(FZ_POOL)];

	__atomic_store_n(&p->id1, 0, __ATOMIC_RELAXED);
	p->kind = c->kind;
	p->ndims = c->ndims;
	memcpy(p->dims, c->dims, sizeof(p->dims));
	p->nodes = c->nodes;
	p->nports = c->nports;
	p->src1 = 0;
	__atomic_store_n(&p->id1, c->id + 1, __ATOMIC_RELEASE);
}

/* The largest fabrics of each kind, and shapes at the limits. */
static const struct { u32 kind, ndims, dims[4]; } fz_big[] = {
	{ MESHFABRIC_KIND_MESH, 1, { 65536 } },
	{ MESHFABRIC_KIND_TORUS, 2, { 256, 256 } },
	{ MESHFABRIC_KIND_TORUS, 4, { 16, 16, 16, 16 } },
	{ MESHFABRIC_KIND_HEX, 1, { 148 } },	/* 65269 nodes */
};

static void fz_shape(struct meshfabric_create *c)
{
	static const char *const names[] = {
		"", "lo", "mf7", "mf7x", "a-b", "1a", "abcdefghijklmno",
		"abcdefghijklmnop", "a/b",
	};
	u32 r = pick(1000), i, big = r == 0 ? pick(4) : 4;

	c->kind = 1 + pick(3);
	c->ndims = c->kind == MESHFABRIC_KIND_HEX ? 1 : 1 + pick(3);
	for (i = 0; i < c->ndims; i++)	/* small; sometimes up to 16 x 16 */
		c->dims[i] = 2 + pick(r < 100 ? 64 >> (4 * c->ndims / 3) : 3);
	if (big < 4) {
		c->kind = fz_big[big].kind;
		c->ndims = fz_big[big].ndims;
		memcpy(c->dims, fz_big[big].dims, sizeof(fz_big[big].dims));
	} else if (r < 150) {		/* out of the limits */
		switch (pick(5)) {
		case 0: c->kind = near(MESHFABRIC_KIND_HEX + 1); break;
		case 1: c->ndims = near(MESHFABRIC_MAX_DIMS + 1); break;
		case 2: c->dims[pick(8)] = near(MESHFABRIC_MAX_NODES + 1); break;
		case 3: c->dims[0] = 257; c->dims[1] = 256; c->ndims = 2;
			c->dims[2] = 0; break;
		default: c->dims[pick(8)] = pick(3);
		}
	}
	c->routing = pick(8) ? 0 : near(MESHFABRIC_ROUTE_MAX + 1);
	i = pick(9);
	if (pick(10))	/* names that collide */
		snprintf((char *)c->name, sizeof(c->name), "fz%u", pick(64));
	else	/* the last one without its NUL */
		memcpy(c->name, names[i], strnlen(names[i], 16));
}

/* LINK_SET: each field applied or not, in or out of its limits; a
 * field not applied is mostly 0.
 */
static void fz_link_set(const struct fz_fab *f, struct meshfabric_link_set *l)
{
	static const u64 rates[] = { 0, 1, 8, 100000000, 1000000000,
				     10000000000ULL, MESHFABRIC_RATE_MAX };
	static const u64 delays[] = { 0, 1, 1000, 1000000 };
	u32 flags = pick(64);

	l->node = pick(4) ? near(f->nodes) : MESHFABRIC_ALL;
	l->port = pick(3) ? near(f->nports) : MESHFABRIC_ALL;
	if (!pick(20))
		flags = pick(8) ? 0 : flags | 1U << (6 + pick(26));
	l->flags = flags;
	if (flags & MESHFABRIC_LINK_RATE || !pick(30))
		l->rate = pick(4) ? rates[pick(7)] : near64(MESHFABRIC_RATE_MAX + 1);
	/* a delay of seconds makes broadcasts on it last that long: rare */
	if (flags & MESHFABRIC_LINK_DELAY || !pick(30))
		l->delay_ns = pick(50) ? delays[pick(4)] :
			      near64(MESHFABRIC_DELAY_MAX + 1);
	if (flags & MESHFABRIC_LINK_QUEUE || !pick(30))
		l->queue = pick(3) ? 1 + pick(2000) : near(MESHFABRIC_QUEUE_MAX + 1);
	if (flags & MESHFABRIC_LINK_LOSS || !pick(30))
		l->loss = pick(3) ? pick(MESHFABRIC_LOSS_MAX / 4) :
			  near(MESHFABRIC_LOSS_MAX + 1);
	if (flags & MESHFABRIC_LINK_SWITCHING || !pick(30))
		l->switching = near(MESHFABRIC_SWITCH_CUT_THROUGH + 1);
	if (flags & MESHFABRIC_LINK_STATE || !pick(30))
		l->down = pick(8) ? pick(2) : near(2);
	/* fault routing on large fabrics costs seconds a call (issue 21,
	 * finding 1): links go down on the small ones only
	 */
	if (f->nodes > 4096)
		l->down = 0;
}

/* TUNNEL_SET (set) or GET: parts of the fabric's nodes (slabs by id, a
 * part left empty, or past nparts), peers on loopback (a route: it may
 * succeed, once per port) or nowhere, ports, keepalives around their
 * limits, pointers of every class.
 */
static void fz_tunnel(const struct fz_fab *f, struct meshfabric_tunnel *tu,
		      bool set, int *cls)
{
	struct meshfabric_tunnel_peer *pe;
	u8 *map;
	u32 i;

	tu->nparts = pick(4) ? 2 + pick(3) : near(MESHFABRIC_TUNNEL_MAX_PARTS);
	tu->part = pick(4) ? pick(tu->nparts ? tu->nparts : 1) : near(2);
	tu->nodes = pick(6) ? f->nodes : near(f->nodes);
	tu->flags = pick(6) ? 0 : pick(3) ? MESHFABRIC_TUNNEL_IPV6 : near(2);
	tu->port = pick(2) ? 0 : pick(3) ? 20000 + pick(8) : near(65535);
	tu->keepalive_ms = pick(2) ? 0 : pick(3) ? 100 + pick(1000) : near(100);
	if (!set)
		tu->nodes = 0;
	map = scratch;
	pe = (void *)(scratch + MESHFABRIC_MAX_NODES);
	for (i = 0; i < f->nodes && i < MESHFABRIC_MAX_NODES; i++)
		map[i] = pick(16) ? (u8)((u64)i * (tu->nparts ? tu->nparts : 1) /
					  (f->nodes ? f->nodes : 1)) :
				    (u8)pick(tu->nparts + 2);
	for (i = 0; i < MESHFABRIC_TUNNEL_MAX_PARTS; i++) {
		memset(pe[i].addr, 0, sizeof(pe[i].addr));
		if (tu->flags & MESHFABRIC_TUNNEL_IPV6) {
			pe[i].addr[15] = pick(4) ? 1 : (u8)pick(256);	/* ::1 */
		} else {
			pe[i].addr[0] = pick(4) ? 127 : (u8)pick(256);
			pe[i].addr[3] = (u8)(1 + pick(4));
		}
	}
	if (pick(6)) {
		tu->map_ptr = (uintptr_t)map;
		tu->peers_ptr = (uintptr_t)pe;
	} else {
		tu->map_ptr = some_ptr(tu->nodes, cls);
		tu->peers_ptr = some_ptr(16 * (size_t)tu->nparts, cls);
	}
	if (!set && pick(2))
		tu->map_ptr = tu->peers_ptr = 0;
}

/* An encoding (len bytes, room for 8 more) mutated: a bit flipped, a byte
 * replaced, truncated, extended, the longest LEB128 numbers and longer, a
 * byte inserted or removed.  The new length.
 */
static u32 fz_mutate(u8 *code, u32 len)
{
	u32 at = pick(len), i;

	switch (pick(7)) {
	case 0: code[at] ^= 1 << pick(8); break;
	case 1: code[at] = pick(256); break;
	case 2: len = at; break;				/* truncated */
	case 3: for (i = 0; i < 8; i++) code[len++] = pick(256); break;
	case 4:	/* the longest numbers LEB128 allows, and longer */
		for (i = at; i < len && i < at + 6; i++)
			code[i] = i < at + 4 + pick(2) ? 0xff : 0x0f;
		break;
	case 5: memmove(code + at + 1, code + at, len++ - at); break;
	default: memmove(code + at, code + at + 1, --len - at); break;
	}
	return len;
}

/* SCHED_LOAD: a schedule of the core's for the fabric's shape, encoded,
 * then mostly mutated; an UNLOAD now and then.  The encoding is placed
 * at the end of the scratch area (reading past it faults).  *cls: the
 * code pointer's class.
 */
static void fz_sched_load(const struct fz_fab *f, struct meshfabric_sched_load *sl,
			  int *cls)
{
	static u8 *code;
	const struct mf_algo *used;
	struct mf_sched s;
	struct mf_topo t;
	u32 len = 0, i, algo;
	s64 r;

	sl->source = f->src1 && pick(2) ? f->src1 - 1 : near(f->nodes);
	if (!pick(8)) {
		sl->flags = MESHFABRIC_SCHED_UNLOAD;
		return;
	}
	if (!code)
		code = malloc(1 << 20);
	sl->model = 1 + pick(2);
	if (code && sl->source < f->nodes && f->nodes <= 4096 &&
	    !mf_topo_init(&t, f->kind, f->ndims, f->dims) &&
	    t.nodes == f->nodes) {
		algo = 1 + pick(MESHFABRIC_ALGO_MAX);
		/* the searches take seconds in the VM beyond 64 nodes */
		if (algo >= MESHFABRIC_ALGO_MINTCD &&
		    algo <= MESHFABRIC_ALGO_SPLIT && t.nodes > 64)
			algo = MESHFABRIC_ALGO_FLOOD;
		if (mf_plan(&t, algo, sl->source, MESHFABRIC_ROUTE_DEFAULT, &s,
			    &used)) {
			mf_sched_free(&s);
			mf_plan(&t, MESHFABRIC_ALGO_FLOOD, sl->source,
				MESHFABRIC_ROUTE_DEFAULT, &s, &used);
		}
		r = mf_sched_encode(&t, &s, code, 1 << 20);
		len = r > 0 ? (u32)r : 0;
		sl->model = s.model;
		sl->nsteps = s.nsteps;
		sl->nsends = s.nsends;
		mf_sched_free(&s);
	} else if (code) {
		len = pick(64);
		for (i = 0; i < len; i++)
			code[i] = pick(256);
		sl->nsteps = pick(8);
		sl->nsends = near(f->nodes);
	}
	switch (code && len ? pick(14) : 99) {
	case 0: case 1: case 2: case 3: case 8: case 9: case 10:
		len = fz_mutate(code, len);
		break;
	case 4: sl->nsteps += pick(2) ? 1 : -1; break;
	case 5: sl->nsends = pick(2) ? sl->nsends + 1 : near(f->nodes); break;
	case 6: sl->model ^= 3; break;
	case 7: sl->source = pick(f->nodes); break;	/* not its source */
	case 11: sl->nsteps = near(sl->nsteps + 1); break;
	}
	sl->code_len = len;
	if (!pick(200)) {	/* the largest encodings: zeros, or too long */
		sl->code_len = MESHFABRIC_SCHED_CODE_MAX + pick(2);
		sl->code_ptr = (uintptr_t)scratch;
		*cls = P_RW;
		return;
	}
	sl->code_ptr = some_ptr(len, cls);
	if (*cls == P_RW && len)
		memcpy((void *)(uintptr_t)sl->code_ptr, code, len);
	if (pick(2)) {
		sl->why_len = pick(2) ? pick(130) : near(0);
		sl->why_ptr = some_ptr(96, &(int){ 0 });
	}
}

/* A valid-ish BCAST (V1: 88 bytes) from source on f. */
static void fz_bcast(const struct fz_fab *f, struct meshfabric_bcast *b,
		     int *cls, int *scls)
{
	static const u32 lens[] = { 0, 1, 14, 60, 1500, 2048,
				    MESHFABRIC_MAX_PAYLOAD,
				    MESHFABRIC_MAX_PAYLOAD + 1 };

	b->source = near(f->nodes);
	b->algo = !pick(4) ? MESHFABRIC_ALGO_USER + !pick(20) :
		  pick(3) ? pick(MESHFABRIC_ALGO_MAX + 1) :
		  near(MESHFABRIC_ALGO_MAX + 1);
	if (f->src1 && pick(2)) {	/* the schedule loaded */
		b->source = f->src1 - 1;
		b->algo = MESHFABRIC_ALGO_USER;
	}
	b->flags = pick(3) ? 0 : near(2);
	b->len = pick(2) ? pick(300) : lens[pick(8)];
	b->ethertype = pick(10) ? ETYPE : near(0x10000);
	b->payload_ptr = some_ptr(b->len, cls);
	b->steps = pick(2) ? pick(20) : near(0);
	b->step_ns_ptr = pick(2) ? some_ptr((size_t)b->steps * 8, scls) : 0;
}

/* CALGO_USER: a schedule of the core's for c's collective on f's shape
 * (small fabrics), encoded, then mostly mutated, or random bytes; now and
 * then a schedule with another algorithm, or none, or one too long.
 */
static void fz_coll_user(const struct fz_fab *f,
			 struct meshfabric_collective *c)
{
	static u8 *code;
	struct mf_coll_req rq = { .coll = c->coll, .root = c->root,
				  .bytes = 64, .esize = 8 };
	struct mf_coll_result res;
	struct mf_sched s;
	struct mf_topo t;
	int cls = 0;
	u32 len = 0, i;
	s64 r;

	if (!code)
		code = malloc(1 << 20);
	if (!code)
		return;
	mf_sched_init(&s, 0, 0);
	rq.algo = pick(MESHFABRIC_CALGO_MAX + 1);
	if (f->nodes <= 64 && c->coll <= MESHFABRIC_COLL_MAX &&
	    c->root < f->nodes && pick(4) &&
	    !mf_topo_init(&t, f->kind, f->ndims, f->dims) &&
	    t.nodes == f->nodes && !mf_coll_plan(&t, &rq, &s, &res)) {
		r = mf_coll_encode(&t, &s, code, (1 << 20) - 8);
		len = r > 0 ? (u32)r : 0;
	} else {
		len = pick(64);
		for (i = 0; i < len; i++)
			code[i] = pick(256);
	}
	mf_sched_free(&s);
	if (len && pick(4))
		len = fz_mutate(code, len);
	c->algo = pick(8) ? MESHFABRIC_CALGO_USER : pick(MESHFABRIC_CALGO_MAX + 1);
	c->sched_len = pick(100) ? len : MESHFABRIC_SCHED_CODE_MAX + pick(2);
	c->sched_ptr = some_ptr(c->sched_len, &cls);
	if (cls == P_RW && len && c->sched_len == len)
		memcpy((void *)(uintptr_t)c->sched_ptr, code, len);
	if (!pick(16))
		c->sched_ptr = 0;
}

/* A valid-ish COLLECTIVE on f: small vectors, every operation, op, type
 * (the float ones too) and algorithm, the generator's inputs or the
 * caller's (class *cls), results (*ocls) and step times (*scls).
 */
static void fz_collective(const struct fz_fab *f,
			  struct meshfabric_collective *c, int *cls,
			  int *ocls, int *scls)
{
	size_t bytes;

	c->coll = pick(4) ? pick(MESHFABRIC_COLL_MAX + 1) :
		  near(MESHFABRIC_COLL_MAX + 1);
	c->op = pick(4) ? pick(MESHFABRIC_ROP_MAX_ID + 1) :
		near(MESHFABRIC_ROP_MAX_ID + 1);
	c->type = pick(4) ? pick(MESHFABRIC_RTYPE_U64 + 1) :
		  near(MESHFABRIC_RTYPE_F32);
	c->algo = pick(3) ? pick(MESHFABRIC_CALGO_MAX + 1) :
		  near(MESHFABRIC_CALGO_MAX + 1);
	c->root = pick(3) ? 0 : pick(2) ? pick(f->nodes) : near(f->nodes);
	c->count = pick(4) ? 1 + pick(16) : near(0);
	c->flags = pick(2) ? MESHFABRIC_COLL_GENERATE : pick(4) ? 0 : near(2);
	c->ethertype = pick(4) ? 0 : near(0x10000);
	/* what the kernel reads and writes: nodes * count elements of the
	 * type's size (8 bytes assumed for a 4-byte type put the inputs
	 * some_ptr() places half of this below the guard page right at it)
	 */
	bytes = (size_t)f->nodes * (c->count < 4096 ? c->count : 4096) *
		(c->type == MESHFABRIC_RTYPE_S32 ||
		 c->type == MESHFABRIC_RTYPE_U32 ? 4 : 8);
	if (!(c->flags & MESHFABRIC_COLL_GENERATE) || !pick(8))
		c->in_ptr = some_ptr(bytes, cls);
	if (pick(2))
		c->out_ptr = some_ptr(bytes, ocls);
	/* f's node count is the pool's racy copy, or made up: the fabric the
	 * id names now may be smaller, and then the kernel's nodes * count
	 * elements end before a pointer half of bytes below the guard page
	 * (CI's run took such a read for an impossible one); a write there
	 * faults at once, in the read-only page
	 */
	if (c->in_ptr > (uintptr_t)guard - 4096 && c->in_ptr < (uintptr_t)guard)
		*cls = P_UNKNOWN;
	c->steps = pick(2) ? pick(40) : near(0);
	if (pick(2))
		c->step_ns_ptr = some_ptr((size_t)c->steps * 8, scls);
	c->why_len = pick(2) ? 1 + pick(200) : near(0);
	if (pick(2))
		c->why_ptr = some_ptr(c->why_len, &(int){ 0 });
	if (!pick(3))
		fz_coll_user(f, c);
}

/* A window of entries first .. first + *count - 1 of n, and an
 * out-pointer for them (mostly), whose class goes to *cls.
 */
static void fz_window(u32 n, __u32 *first, __u32 *count, __u64 *ptr,
		      size_t elem, int *cls)
{
	*first = pick(2) ? pick(n) : near(n);
	*count = pick(2) ? pick(n + 2) : near(n);
	if (pick(4))
		*ptr = some_ptr((size_t)*count * elem, cls);
}

/* An out-array at ptr (class cls) holding written entries after a
 * success: written must fit the capacity, and nothing can have been
 * written where it cannot be.
 */
static void fz_out(u32 k, u64 ptr, int cls, u32 cap, u32 written)
{
	if (written > cap || (!ptr && written))
		impossible(k, "wrote more entries than asked for");
	else if (ptr && written && (cls == P_RO || cls == P_NONE))
		impossible(k, "succeeded with an unusable out-pointer");
}

static int fz_named_ns(char *name, size_t len);
static void fz_one(u32 k);
static void fz_big_life(const struct meshfabric_create *c);

static bool canary_hit(const u8 *p, size_t n)
{
	while (n--)
		if (*p++ != 0xa5)
			return true;
	return false;
}

/* One request of command k on a fabric of the pool (or made up). */
static void fz_request(u32 k, struct fz_fab f)
{
	union {
		u8 b[256];
		u32 id;
		struct meshfabric_create c;
		struct meshfabric_destroy d;
		struct meshfabric_info in;
		struct meshfabric_attach a;
		struct meshfabric_route r;
		struct meshfabric_bcast bc;
		struct meshfabric_link_stats ls;
		struct meshfabric_link_set l;
		struct meshfabric_link_get lg;
		struct meshfabric_sched_load sl;
		struct meshfabric_tunnel tu;
		struct meshfabric_port p;
		struct meshfabric_port_get pg;
		struct meshfabric_collective co;
	} u;
	struct meshfabric_attach_entry *e = (void *)(scratch + FZ_SCRATCH -
						     4 * sizeof(*e));
	u32 links = f.nodes * f.nports, cap = 0, i, size = fzc[k].size;
	int cls = P_RW, scls = P_RW, argcls = P_RW, ocls = P_RW, err;
	int nsfd = -1;
	char ns[300];
	void *arg = &u;

	memset(&u, 0, sizeof(u));
	u.id = f.id1 - 1;
	switch (k) {
	case FZ_CREATE:
		fz_shape(&u.c);
		break;
	case FZ_DESTROY:
		u.d.flags = pick(3) ? 0 : near(2);
		break;
	case FZ_INFO:
		fz_window(f.nodes, &u.in.first, &u.in.count, &u.in.nodes_ptr,
			  sizeof(struct meshfabric_node_info), &cls);
		break;
	case FZ_ATTACH:
		u.a.count = pick(10) ? 1 + pick(4) : near(MESHFABRIC_MAX_NODES + 1);
		if (!pick(3) && !fz_named_ns(ns, sizeof(ns)))
			nsfd = open(ns, O_RDONLY | O_CLOEXEC);
		u.a.entries_ptr = some_ptr(u.a.count * sizeof(*e), &cls);
		if (cls == P_RW && u.a.count <= 4)
			e = (void *)(uintptr_t)u.a.entries_ptr;
		for (i = 0; i < 4 && i < u.a.count; i++) {
			e[i].node = pick(3) ? pick(f.nodes) : near(f.nodes);
			e[i].netns_fd = nsfd >= 0 && pick(2) ? nsfd :
					pick(3) ? 3 + (int)pick(8) : (int)near(0);
			memset(e[i].ifname, 0, sizeof(e[i].ifname));
			if (pick(8))
				snprintf((char *)e[i].ifname, 16,
					 pick(2) ? "fz%u" : "", pick(1000));
			else
				memcpy(e[i].ifname, "a/bcdefghijklmnop",
				       pick(2) ? 4 : 16);
		}
		break;
	case FZ_ROUTE:
		u.r.src = pick(3) ? pick(f.nodes) : near(f.nodes);
		u.r.dst = pick(3) ? pick(f.nodes) : near(f.nodes);
		u.r.path_max = pick(2) ? pick(f.nodes + 2) : near(0);
		if (pick(4))
			u.r.path_ptr = some_ptr((size_t)u.r.path_max * 4, &cls);
		break;
	case FZ_BCAST:
	case FZ_BCAST_V1:
		fz_bcast(&f, &u.bc, &cls, &scls);
		if (k == FZ_BCAST_V1)	/* a canary after the 88 bytes */
			memset(u.b + 88, 0xa5, 8);
		break;
	case FZ_LINK_STATS:
		u.ls.flags = pick(4) ? 0 : near(2);
		fz_window(links, &u.ls.first, &u.ls.count, &u.ls.links_ptr,
			  sizeof(struct meshfabric_link_entry), &cls);
		break;
	case FZ_LINK_SET:
		fz_link_set(&f, &u.l);
		break;
	case FZ_LINK_GET:
		u.lg.flags = pick(4) ? 0 : near(2);	/* XPORTS is 2 */
		fz_window(links, &u.lg.first, &u.lg.count, &u.lg.links_ptr,
			  sizeof(struct meshfabric_link_info), &cls);
		break;
	case FZ_SCHED_LOAD:
		fz_sched_load(&f, &u.sl, &cls);
		break;
	case FZ_TUNNEL_SET:
	case FZ_TUNNEL_GET:
		fz_tunnel(&f, &u.tu, k == FZ_TUNNEL_SET, &cls);
		break;
	case FZ_PORT:
		/* test_90 made the veth pairs fzv0/fzv1 .. fzv6/fzv7; the
		 * fabrics' own netdevs, lo and names that do not exist are
		 * refused
		 */
		u.p.flags = pick(3) ? 0 : pick(4) ? MESHFABRIC_PORT_DETACH :
			    near(2);
		u.p.node = pick(3) ? pick(f.nodes) : near(f.nodes);
		u.p.port = pick(3) ? pick(f.nports) : near(f.nports);
		if (u.p.flags == MESHFABRIC_PORT_DETACH && pick(4))
			break;
		if (!pick(3) && !fz_named_ns(ns, sizeof(ns)))
			nsfd = open(ns, O_RDONLY | O_CLOEXEC);
		/* only an fd opened here is closed after the call: near(0)
		 * names fds the worker keeps (the device is fd 3)
		 */
		if (nsfd >= 0 && pick(2)) {
			u.p.netns_fd = nsfd;
		} else if (pick(6)) {
			u.p.netns_fd = open("/proc/self/ns/net",
					    O_RDONLY | O_CLOEXEC);
			if (u.p.netns_fd >= 0) {
				if (nsfd >= 0)
					close(nsfd);
				nsfd = u.p.netns_fd;
			}
		} else {
			u.p.netns_fd = (int)near(0);
		}
		i = pick(8);
		snprintf((char *)u.p.ifname, sizeof(u.p.ifname), "%s",
			 i < 4 ? "fzv" : i == 4 ? "lo" : i == 5 ? "fz" : "");
		if (i < 6)
			snprintf((char *)u.p.ifname + strlen((char *)u.p.ifname),
				 8, "%u", i < 4 ? pick(8) : pick(1000));
		if (!pick(16))	/* not NUL-terminated */
			memset(u.p.ifname, 'a', sizeof(u.p.ifname));
		break;
	case FZ_PORT_GET:
		u.pg.count = pick(3) ? MESHFABRIC_PORTS_MAX : near(1);
		u.pg.ports_ptr = some_ptr((size_t)u.pg.count *
					  sizeof(struct meshfabric_port_info),
					  &cls);
		break;
	case FZ_COLLECTIVE:
		fz_collective(&f, &u.co, &cls, &ocls, &scls);
		break;
	}
	if (!pick(12)) {	/* a bit flipped anywhere: flags, reserved,
				 * out fields, pointers (then of no class)
				 */
		u.b[pick(size)] ^= 1 << pick(8);
		cls = scls = ocls = P_UNKNOWN;
	}
	if (!pick(12))	/* the argument elsewhere, often unusable */
		arg = (void *)(uintptr_t)some_ptr(size, &argcls);
	/* the capacities the kernel is given */
	cap = k == FZ_INFO ? u.in.count : k == FZ_ROUTE ? u.r.path_max :
	      k == FZ_LINK_STATS ? u.ls.count : k == FZ_LINK_GET ? u.lg.count :
	      k == FZ_PORT_GET ? u.pg.count :
	      k == FZ_COLLECTIVE ? u.co.steps : u.bc.steps;
	err = fz_ioctl(k, arg);
	if (nsfd >= 0)
		close(nsfd);
	if (k == FZ_BCAST_V1 && arg == &u && canary_hit(u.b + 88, 8))
		impossible(k, "wrote past its 88 bytes");
	if (err)
		goto failed;
	if (argcls == P_NONE || (argcls == P_RO && k != FZ_DESTROY))
		impossible(k, "succeeded with an unusable argument");
	if (arg != &u)
		return;
	switch (k) {
	case FZ_CREATE:
		ADD(created);
		sh->made[u.c.id % MESHFABRIC_MAX_IDS] = 1;
		if (u.c.nodes > 4096)
			fz_big_life(&u.c);
		else
			pool_add(&u.c);
		break;
	case FZ_DESTROY:
		if (!u.d.flags) {
			ADD(destroyed);
			pool_forget(u.d.id);
		}
		break;
	case FZ_INFO:
		fz_out(k, u.in.nodes_ptr, cls, cap, u.in.count);
		break;
	case FZ_ATTACH:
		if (cls == P_NONE && u.a.count)
			impossible(k, "read entries at an unusable pointer");
		break;
	case FZ_ROUTE:
		fz_out(k, u.r.path_ptr, cls, cap, u.r.path_ptr ?
		       u.r.hops + 1 : 0);
		break;
	case FZ_BCAST:
	case FZ_BCAST_V1:
		if (cls == P_NONE && u.bc.len)
			impossible(k, "read a payload at an unusable pointer");
		fz_out(k, u.bc.step_ns_ptr, scls, cap, u.bc.step_ns_ptr ?
		       (cap < u.bc.steps ? cap : u.bc.steps) : 0);
		break;
	case FZ_LINK_STATS:
		fz_out(k, u.ls.links_ptr, cls, cap, u.ls.count);
		break;
	case FZ_LINK_GET:
		fz_out(k, u.lg.links_ptr, cls, cap, u.lg.count);
		break;
	case FZ_PORT_GET:
		if (u.pg.count > cap || u.pg.count > u.pg.total ||
		    u.pg.total > MESHFABRIC_PORTS_MAX)
			impossible(k, "more ports than room or than bound");
		fz_out(k, u.pg.ports_ptr, cls, cap, u.pg.count);
		break;
	case FZ_LINK_SET:
		if (u.l.delay_ns > 1000000) {	/* seconds: undone at once */
			u.l.flags = MESHFABRIC_LINK_DELAY;
			u.l.delay_ns = u.l.rate = u.l.queue = u.l.loss = 0;
			u.l.switching = u.l.down = u.l.count = 0;
			fz_ioctl(k, &u);
		}
		break;
	case FZ_COLLECTIVE:
		if (cls == P_NONE && !(u.co.flags & MESHFABRIC_COLL_GENERATE))
			impossible(k, "read inputs at an unusable pointer");
		/* out_ptr 0 (some_ptr's first case): no results asked for */
		if (u.co.out_ptr && (ocls == P_NONE || ocls == P_RO))
			impossible(k, "wrote results at an unusable pointer");
		if (u.co.type > MESHFABRIC_RTYPE_U64)
			impossible(k, "combined a floating-point type");
		/* a schedule the checker passed computes the collective */
		if (u.co.algo == MESHFABRIC_CALGO_USER && !u.co.match &&
		    cls != P_UNKNOWN)
			impossible(k, "ran a user's schedule with results other than the direct ones");
		fz_out(k, u.co.step_ns_ptr, scls, cap, u.co.step_ns_ptr ?
		       (cap < u.co.steps ? cap : u.co.steps) : 0);
		break;
	case FZ_SCHED_LOAD:
		if (cls == P_NONE && u.sl.code_len)
			impossible(k, "read code at an unusable pointer");
		if (u.sl.flags)
			break;
		for (i = 0; i < FZ_POOL; i++)
			if (sh->pool[i].id1 == f.id1)
				sh->pool[i].src1 = u.sl.source + 1;
		if (pick(2)) {	/* and its broadcast */
			f.src1 = u.sl.source + 1;
			fz_request(FZ_BCAST, f);
		}
		break;
	}
	return;
failed:
	if (k == FZ_CREATE && err == E2BIG && !pick(4))
		fz_one(FZ_DESTROY);	/* the limit: make room */
}

static u32 pick_cmd(void)
{
	u32 k, w = 0;

	for (k = 0; k < FZ_NCMD; k++)
		w += fzc[k].weight;
	w = pick(w);
	for (k = 0; w >= fzc[k].weight; k++)
		w -= fzc[k].weight;
	return k;
}

static void fz_one(u32 k)
{
	fz_request(k, some_fab());
}

/* A fabric at the limits (fz_big): requests on it, then it dies. */
static void fz_big_life(const struct meshfabric_create *c)
{
	struct fz_fab f = { c->id + 1, c->kind, c->ndims, { 0 }, c->nodes,
			    c->nports, 0 };
	struct meshfabric_destroy d = { .id = c->id };
	u32 i;

	ADD(big);
	memcpy(f.dims, c->dims, sizeof(f.dims));
	__atomic_store_n(&sh->busy[me], f.id1, __ATOMIC_RELAXED);
	for (i = 0; i < 16; i++)	/* neither CREATE nor DESTROY */
		fz_request(FZ_INFO + pick(FZ_NCMD - FZ_INFO), f);
	if (!fz_ioctl(FZ_DESTROY, &d))
		ADD(destroyed);
}

/* A random named namespace of the fuzzer's: its path in name; -1 if none. */
static int fz_named_ns(char *name, size_t len)
{
	struct dirent *de;
	u32 seen = 0;
	DIR *d = opendir(MF_NETNS_DIR);

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, FZ_NETNS, 2) && !pick(++seen))
			snprintf(name, len, "%s/%s", MF_NETNS_DIR, de->d_name);
	if (d)
		closedir(d);
	return seen ? 0 : -1;
}

/* `ip netns del NAME`, as iproute2 does it. */
static void fz_netns_del(const char *path)
{
	umount2(path, MNT_DETACH);
	if (!unlink(path))
		ADD(nsdel);
}

/* The reaper: fabrics die while workers use them, and named namespaces
 * holding nodes (one, or all of the fabric's) while broadcasts run.
 */
static void fz_reaper(double end)
{
	struct meshfabric_destroy d = { 0 };
	char path[300], prefix[300];
	struct dirent *de;
	u32 id1;
	DIR *dir;

	while (now() < end) {
		usleep(2000 + pick(20000));
		if (!pick(3)) {
			id1 = __atomic_load_n(&sh->busy[pick(FZ_WORKERS)],
					      __ATOMIC_RELAXED);
			d.id = id1 - 1;
			if (id1 && !fz_ioctl(FZ_DESTROY, &d)) {
				ADD(destroyed);
				pool_forget(d.id);
			}
		} else if (!fz_named_ns(path, sizeof(path))) {
			if (pick(2)) {
				fz_netns_del(path);
				continue;
			}
			/* every namespace of that fabric: fzK-... */
			snprintf(prefix, sizeof(prefix), "%s",
				 path + strlen(MF_NETNS_DIR) + 1);
			*(strchr(prefix, '-') ?: prefix) = 0;
			dir = opendir(MF_NETNS_DIR);
			while (dir && (de = readdir(dir)))
				if (!strncmp(de->d_name, prefix, strlen(prefix)) &&
				    de->d_name[strlen(prefix)] == '-') {
					snprintf(path, sizeof(path), "%s/%s",
						 MF_NETNS_DIR, de->d_name);
					fz_netns_del(path);
				}
			if (dir)
				closedir(dir);
		}
	}
}

static int fz_attach_each(void *arg, u32 node, int nsfd, int nlfd, char *err,
			  size_t errlen)
{
	struct meshfabric_attach_entry e = { .node = node, .netns_fd = nsfd };
	struct meshfabric_attach a = { .id = *(u32 *)arg, .count = 1,
				       .entries_ptr = (uintptr_t)&e };

	fz_ioctl(FZ_ATTACH, &a);
	return 0;	/* the namespaces stay, whatever the fabric did */
}

/* In a child: every node of a small fabric of the pool attached in named
 * namespaces of its own (fzK-x-y, the tool's netns.c), as `meshfabric
 * attach` does; then broadcasts on it, while the reaper deletes them.
 */
static void fz_fill(void)
{
	struct fz_fab f = some_fab();
	struct mf_topo t;
	char name[16], err[256];
	int st;
	u32 i, id = f.id1 - 1;

	if (f.nodes > 16 || mf_topo_init(&t, f.kind, f.ndims, f.dims) ||
	    t.nodes != f.nodes)
		return;
	if (fork()) {
		wait(&st);
		return;
	}
	alarm(20);
	snprintf(name, sizeof(name), FZ_NETNS "%u", pick(16));
	if (!mf_netns_create_fabric(&t, name, fz_attach_each, &id, NULL, err,
				    sizeof(err)))
		ADD(filled);
	for (i = 0; i < 8; i++)
		fz_request(pick(4) ? FZ_BCAST : FZ_BCAST_V1, f);
	_exit(0);
}

/* A namespace that lives briefly: nodes attached into it, a broadcast
 * flood from one of them, then it dies with the process.
 */
static void fz_netns_life(void)
{
	struct meshfabric_attach_entry e[4] = { { 0 } };
	struct meshfabric_attach a = { .id = some_fab().id1 - 1,
				       .count = 1 + pick(4),
				       .entries_ptr = (uintptr_t)e };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_halen = 6,
				   .sll_addr = { 255, 255, 255, 255, 255, 255 } };
	unsigned char frame[300] = { 255, 255, 255, 255, 255, 255,
				     [12] = ETYPE >> 8, [13] = ETYPE & 255 };
	struct ifreq ifr = { .ifr_name = "fz0" };
	int st, s;
	u32 i;

	if (fork()) {
		ADD(deaths);
		if (wait(&st) > 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
			ADD(slow);
		else if (WIFSIGNALED(st))
			impossible(FZ_ATTACH, "killed a namespace's process");
		return;
	}
	alarm(10);
	if (unshare(CLONE_NEWNET))
		_exit(0);
	for (i = 0; i < a.count; i++) {
		e[i].node = pick(16);
		e[i].netns_fd = open("/proc/self/ns/net", O_RDONLY);
		snprintf((char *)e[i].ifname, sizeof(e[i].ifname), "fz%u", i);
	}
	fz_ioctl(FZ_ATTACH, &a);
	sll.sll_ifindex = if_nametoindex("fz0");
	s = socket(AF_PACKET, SOCK_RAW, 0);
	ifr.ifr_flags = IFF_UP;
	if (!sll.sll_ifindex || s < 0 || ioctl(s, SIOCSIFFLAGS, &ifr))
		_exit(0);
	for (i = 0; i < 200; i++)
		sendto(s, frame, 60 + pick(240), MSG_DONTWAIT,
		       (struct sockaddr *)&sll, sizeof(sll));
	_exit(0);
}

/* A process of a new user namespace (and network namespace): requests
 * of its own, fabrics it owns (which outlive it), root's it cannot see.
 */
static void fz_userns_life(void)
{
	int st;
	u32 i;

	if (fork()) {
		wait(&st);
		return;
	}
	alarm(10);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
		_exit(0);
	ADD(userns);
	for (i = 0; i < 20; i++)
		fz_one(pick_cmd());
	_exit(0);
}

static void fz_report(void)
{
	static const char *const doc[] = {	/* the errnos the uapi names */
		"EFAULT", "EINVAL", "ENOENT", "EPERM", "E2BIG", "EEXIST",
		"EBUSY", "EBADF", "ENOMEM", "EHOSTUNREACH", "ENETDOWN",
		"EOPNOTSUPP", "ENOSPC", "EINTR", "ENODEV",
		/* TUNNEL_SET, TUNNEL_GET, ATTACH of another host's node */
		"ENODATA", "EADDRINUSE", "EADDRNOTAVAIL", "ENETUNREACH",
		"EMSGSIZE", "EREMOTE",
	};
	unsigned long all = 0, n, per[FZ_NERR] = { 0 };
	u32 k, e, i;

	for (k = 0; k < FZ_NCMD; k++) {
		for (e = n = 0; e < FZ_NERR; e++)
			n += sh->calls[k][e];
		all += n;
		printf("# ioctl %-10s calls %7lu:", fzc[k].name, n);
		for (e = 0; e < FZ_NERR; e++) {
			if (!sh->calls[k][e])
				continue;
			per[e] += sh->calls[k][e];
			printf(" %s %lu", e ? strerrorname_np(e) ?: "?" : "ok",
			       sh->calls[k][e]);
		}
		printf("\n");
	}
	for (e = 0; e < FZ_NERR; e++) {
		if (!per[e])
			continue;
		for (i = 0; e && i < sizeof(doc) / sizeof(*doc); i++)
			if (!strcmp(doc[i], strerrorname_np(e) ?: ""))
				break;
		printf("# errno %-12s %8lu%s\n", e ? strerrorname_np(e) ?: "?" :
		       "ok", per[e], e && i == sizeof(doc) / sizeof(*doc) ?
		       " (not named by the uapi)" : "");
	}
	printf("# calls in all: %lu\n", all);
}

static int cmd_fuzz(int argc, char **argv)
{
	double secs = argc > 0 ? atof(argv[0]) : 60, end;
	unsigned long seed = argc > 1 ? num(argv[1]) : (u32)time(NULL);
	int procs = argc > 2 ? num(argv[2]) : 4, i, st, bad = 0, late = 0;
	int left = 0;
	pid_t pid[FZ_WORKERS + 1], p;
	long psz = sysconf(_SC_PAGESIZE);
	size_t shsz = (sizeof(*sh) + psz - 1) / psz * psz;
	char path[300];
	unsigned char *base;

	if (procs < 1 || procs > FZ_WORKERS)
		usage();
	printf("# mfctl fuzz: seed %lu, %d processes and a reaper, %.0f s\n",
	       seed, procs, secs);
	/* One reservation holds the scratch area, then FZ_GAP bytes of
	 * PROT_NONE, then the shared counters.  The fuzzer flips bits of
	 * pointers into scratch, and the kernel writes its answers (LINK_GET's
	 * rates, LINK_STATS' counters) where they point: with sh mapped just
	 * above scratch (mmap's usual order), a pointer 4 MiB up landed in
	 * sh->calls, whose first row (CREATE's) then printed those values as
	 * calls and errnos.  Now such a pointer faults in the gap.
	 */
	base = mmap(NULL, FZ_SCRATCH + 2 * psz + FZ_GAP + shsz, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		die_err("mmap", errno);
	scratch = mmap(base, FZ_SCRATCH + 2 * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	sh = mmap(base + FZ_SCRATCH + 2 * psz + FZ_GAP, shsz,
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED,
		  -1, 0);
	if (sh == MAP_FAILED || scratch == MAP_FAILED)
		die_err("mmap", errno);
	ro = scratch + FZ_SCRATCH;
	guard = ro + psz;
	mprotect(ro, psz, PROT_READ);
	mprotect(guard, psz, PROT_NONE);
	open_dev();
	mkdir("/var/run", 0755);
	mkdir(MF_NETNS_DIR, 0755);
	end = now() + secs;
	for (i = 0; i <= procs; i++) {
		pid[i] = fork();
		if (pid[i])
			continue;
		setpgid(0, 0);	/* ended with its children if it overruns */
		/* fds 3.. for ATTACH's random netns_fd: the device, init's
		 * netns twice, a file that is no netns
		 */
		open("/proc/self/ns/net", O_RDONLY);
		open("/proc/self/ns/net", O_RDONLY);
		open("/proc/self/stat", O_RDONLY);
		me = i;
		rng = seed * 2654435761UL + i + 1;
		if (i == procs) {
			fz_reaper(end);
			_exit(0);
		}
		while (now() < end) {
			u32 r = pick(100);

			if (r < 2)
				fz_netns_life();
			else if (r < 4)
				fz_fill();
			else if (r < 5)
				fz_userns_life();
			else
				fz_one(pick_cmd());
		}
		_exit(0);
	}
	/* a broadcast on timed links may sleep: 10 s for the stragglers */
	while (now() < end + 10)
		if ((p = waitpid(-1, &st, WNOHANG)) > 0)
			bad += !WIFEXITED(st) || WEXITSTATUS(st);
		else if (p < 0)
			break;
		else
			usleep(20000);
	for (i = 0; i <= procs; i++)
		if (!kill(-pid[i], SIGKILL))
			late++;
	while ((p = wait(&st)) > 0)
		;
	while (!fz_named_ns(path, sizeof(path)))	/* what is left */
		fz_netns_del(path);
	for (i = 0; i < MESHFABRIC_MAX_IDS; i++) {
		struct meshfabric_destroy d = { .id = i };

		if (sh->made[i] && !ioctl(dev, MESHFABRIC_IOC_DESTROY, &d))
			left++;
		else if (sh->made[i] && errno != ENOENT)
			printf("# fabric %d left: %s\n", i, strerror(errno));
	}
	fz_report();
	printf("# fabrics created %lu (at the limits %lu), destroyed %lu, "
	       "at the end %d\n"
	       "# namespaces died %lu, named namespaces deleted %lu, "
	       "fabrics filled %lu, user namespaces %lu, over 10 s %lu\n"
	       "# impossible results: %lu, workers failed: %d, ended late: "
	       "%d\n", sh->created, sh->big, sh->destroyed, left, sh->deaths,
	       sh->nsdel, sh->filled, sh->userns, sh->slow, sh->impossible,
	       bad, late);
	return sh->impossible || bad;
}

/* ---- traffic ----------------------------------------------------------- */

static u8 pattern(size_t i)
{
	return (u8)(i * 7 + (i >> 8));
}

static int cmd_flood(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_halen = 6 };
	struct sockaddr *to = (struct sockaddr *)&sa;
	unsigned long sent = 0, failed = 0;
	cpu_set_t cpu0;
	int s, one = 1, raw;
	double t0, end;
	char *buf, *mac;
	size_t size, i;

	if (argc < 3)
		usage();
	size = num(argv[2]);
	buf = malloc(size + 64);
	for (i = 0; buf && i < size; i++)
		buf[i] = pattern(i);
	mac = strchr(argv[0], '/');
	raw = !!mac;
	s = socket(raw ? AF_PACKET : AF_INET, raw ? SOCK_RAW : SOCK_DGRAM, 0);
	if (raw) {	/* frames of ethertype ETYPE to MAC through IFNAME */
		*mac++ = 0;
		sll.sll_ifindex = if_nametoindex(argv[0]);
		for (i = 0; buf && i < 6; i++, mac += 3)
			buf[i] = sll.sll_addr[i] = strtoul(mac, NULL, 16);
		buf[12] = ETYPE >> 8;
		buf[13] = ETYPE & 0xff;
		to = (struct sockaddr *)&sll;
	} else if (inet_pton(AF_INET, argv[0], &sa.sin_addr) != 1) {
		usage();
	}
	if (!buf || s < 0 || (raw && !sll.sll_ifindex) ||
	    setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one)))
		die_err("socket", errno);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die_err("sched_setaffinity", errno);
	nobody();	/* no capabilities from here on: an ordinary user */
	t0 = now();
	end = t0 + atof(argv[1]);
	do {		/* SECONDS 0: one frame */
		if (sendto(s, buf, size, 0, to, raw ? sizeof(sll) :
			   sizeof(sa)) < 0)
			failed++;
		else
			sent++;
	} while (now() < end);
	printf("sent %lu failed %lu ns_per_frame %.0f\n", sent, failed,
	       (now() - t0) * 1e9 / (sent + failed));
	return 0;
}

/* recv SIZE SECONDS: a datagram of flood's on port 9, intact? */
static int cmd_recv(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct timeval tv = { 0 };
	size_t size, i;
	ssize_t n;
	u8 *buf;
	int s;

	if (argc < 2)
		usage();
	size = num(argv[0]);
	tv.tv_sec = num(argv[1]);
	buf = malloc(size + 1);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (!buf || s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die_err("bind", errno);
	printf("ready\n");
	n = recv(s, buf, size + 1, 0);
	for (i = 0; n == (ssize_t)size && i < size && buf[i] == pattern(i); i++)
		;
	printf("got %zd of %zu bytes, %zu intact\n", n, size, i);
	return i != size;
}

/* The uapi's generator and the reductions, written here from the
 * header's words (not the core's code): node v's element j.
 */
static u64 gen_elem(u32 type, u32 v, u32 j)
{
	u64 x = (u64)(v + 1) * 0x9e3779b97f4a7c15ULL +
		(u64)j * 0xd1b54a32d192ed03ULL;

	return type == MESHFABRIC_RTYPE_S32 || type == MESHFABRIC_RTYPE_U32 ?
	       x >> 32 : x;
}

static int cmd_collref(int argc, char **argv)
{
	static const char *const types[] = { "s32", "u32", "s64", "u64" };
	static const char *const ops[] = { "sum", "min", "max", "band", "bor",
					   "bxor" };
	u32 type = 4, op = 6, n, count, v, j;

	if (argc != 4)
		usage();
	while (type-- && strcmp(argv[0], types[type]))
		;
	while (op-- && strcmp(argv[1], ops[op]))
		;
	n = num(argv[2]);
	count = num(argv[3]);
	if (type > 3 || op > 5 || !n)
		usage();
	for (j = 0; j < count; j++) {
		u64 acc = gen_elem(type, 0, j), x;
		long long sa, sx;

		for (v = 1; v < n; v++) {
			x = gen_elem(type, v, j);
			/* signed views: 32-bit values sign-extended */
			sa = type == 0 ? (int32_t)(uint32_t)acc : (long long)acc;
			sx = type == 0 ? (int32_t)(uint32_t)x : (long long)x;
			if (type == 1)
				acc = (uint32_t)acc, x = (uint32_t)x;
			switch (op) {
			case 0: acc += x; break;
			case 1: acc = (type & 1 ? x < acc : sx < sa) ? x : acc;
				break;
			case 2: acc = (type & 1 ? x > acc : sx > sa) ? x : acc;
				break;
			case 3: acc &= x; break;
			case 4: acc |= x; break;
			default: acc ^= x;
			}
		}
		if (type == 0)
			printf("%s%d", j ? " " : "", (int32_t)(uint32_t)acc);
		else if (type == 1)
			printf("%s%u", j ? " " : "", (uint32_t)acc);
		else if (type == 2)
			printf("%s%lld", j ? " " : "", (long long)acc);
		else
			printf("%s%llu", j ? " " : "", (unsigned long long)acc);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "bcastall", cmd_bcastall }, { "ioctl", cmd_ioctl },
		{ "fuzz", cmd_fuzz },
		{ "flood", cmd_flood }, { "recv", cmd_recv },
		{ "collref", cmd_collref },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 2, argv + 2);
	usage();
	return 2;
}
