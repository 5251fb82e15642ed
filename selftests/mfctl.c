// SPDX-License-Identifier: GPL-2.0
/*
 * mfctl.c - the selftests' one C helper, for what the meshfabric tool
 * cannot do; it links the tool's code (userspace/dev.c, parse.c, netns.c,
 * cli.c).  Built as mfctl and as mfctl32 (i386: the compat ioctls).
 *
 *   mfctl ioctl ID CMD [FIELD=VALUE | @FIELD | null | nobody | uid:N |
 *		userns | netns]..
 *	CMD's valid request on fabric ID (bad_ioctl.tab, lib.sh), FIELDs set
 *	(a number, a list a,b,.. or bytes; ATTACH's entry fields: its first
 *	entry's, whose netns is the caller's), NULL as the argument, as uid
 *	65534 (or N), from a new user (and network) namespace: prints the errno's
 *	name (or 0), then each @FIELD after the call
 *   mfctl bcastall ID ALGO [LEN [SRC]]   BCAST from every node (or SRC),
 *	an AF_PACKET listener in every node's namespace (the tool's): a line
 *	per source; exit 0 if each was heard exactly once
 *   mfctl fuzz [SECONDS [SEED [PROCS]]]  the ioctl fuzzer (60 s, 4)
 *   mfctl flood DST SECONDS SIZE  as uid 65534 on CPU 0, frames holding a
 *	pattern as fast as they go (SECONDS 0: one): UDP to DST port 9, or
 *	raw to DST IFNAME/MAC; prints "sent N failed M ns_per_frame T"
 *   mfctl recv SIZE SECONDS       exit 0 if a datagram of SIZE bytes
 *	arrives on port 9 within SECONDS, its pattern intact
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "dev.h"
#include "netns.h"
#include "parse.h"

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
       C_link_stats, C_attach_entry };

static const char *const cmd_name[] = {
	"CREATE", "DESTROY", "INFO", "ATTACH", "BCAST", "ROUTE", "LINK_STATS",
};

static const unsigned long cmd_nr[] = {
	MESHFABRIC_IOC_CREATE, MESHFABRIC_IOC_DESTROY, MESHFABRIC_IOC_INFO,
	MESHFABRIC_IOC_ATTACH, MESHFABRIC_IOC_BCAST, MESHFABRIC_IOC_ROUTE,
	MESHFABRIC_IOC_LINK_STATS,
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
	F(route, id), F(route, flags), F(route, dst), F(route, path_ptr),
	F(route, path_max), F(route, hops), F(route, reserved),
	F(link_stats, id), F(link_stats, flags), F(link_stats, links_ptr),
	F(link_stats, first), F(link_stats, count), F(link_stats, reserved0),
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
	static u32 buf[4];	/* BCAST's payload, ROUTE's path */
	struct meshfabric_attach_entry e[4] = { { 0 } };
	union {
		u64 q[32];
		struct meshfabric_create c;
		struct meshfabric_attach a;
		struct meshfabric_bcast b;
		struct meshfabric_route r;
	} u = { { 0 } };
	unsigned int size, w, i;
	char *at, *eq, *p, *end;
	void *arg = &u;
	int c, k, err;
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
	if (c == C_bcast) {
		u.b.ethertype = ETYPE;
		u.b.payload_ptr = (uintptr_t)buf;
		u.b.len = sizeof(buf);
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
	err = ioctl(dev, cmd_nr[c], arg) ? errno : 0;
	printf("%s", err ? strerrorname_np(err) : "0");
	for (k = 2; k < argc; k++) {
		if (*argv[k] != '@')
			continue;
		v = 0;
		at = field(c, argv[k] + 1, strlen(argv[k] + 1), u.q, e, &size);
		memcpy(&v, at, size < 8 ? size : 8);
		printf(" %llu", (unsigned long long)v);
	}
	printf("\n");
	return 0;
}

/* ---- the fuzzer -------------------------------------------------------- */
/*
 * Random near-valid ioctls from several processes, namespaces dying with
 * nodes in them (test_90 adds rmmod attempts): what a real ioctl reaches,
 * user pointers that fault, the compat path (mfctl32), races.  Fields and
 * the core are fuzzed by kunit/fuzz_test.c, command numbers by KUnit too.
 */
static struct fz_shared {
	unsigned long calls, created, destroyed, deaths, impossible;
	u32 pool[32];		/* fabric ids seen (+1; 0 = empty) */
} *sh;
static u64 rng;
static unsigned char *page, *ro, *guard;	/* rw, read-only, PROT_NONE */

#define ADD(x) __atomic_add_fetch(&sh->x, 1, __ATOMIC_RELAXED)

static u32 pick(u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (u32)(rng % n) : 0;
}

static u32 some_id(void)
{
	u32 v = __atomic_load_n(&sh->pool[pick(32)], __ATOMIC_RELAXED);

	if (!pick(8))
		return pick(4) ? pick(300) : pick(0xffffffffU);
	return v ? v - 1 : pick(MESHFABRIC_MAX_IDS);
}

/* A user pointer to need bytes: mostly usable, sometimes not (*bad):
 * NULL, 8, the direct map, a PROT_NONE page, straddling it, read-only.
 */
static u64 some_ptr(size_t need, int *bad)
{
	u64 p[] = { 0, 8, 0xffff888000000000ULL, (uintptr_t)guard,
		    (uintptr_t)guard - need / 2, (uintptr_t)ro };
	u32 k = pick(16);

	*bad = k < 5;	/* read-only is fine for in-only arguments */
	return k < 6 ? p[k] : (uintptr_t)page;
}

/*
 * The commands as data: a pointer, its length field (up to max elements
 * of elem bytes; in: the kernel reads them) and fields given small
 * random values (offset 0 is the id, set in every request).
 */
static const struct fz_cmd {
	unsigned long nr;
	unsigned short ptr, len, elem, in, max, small[3];
} fz[] = {
	{ MESHFABRIC_IOC_CREATE }, { MESHFABRIC_IOC_DESTROY },
	{ MESHFABRIC_IOC_INFO, AT(info, nodes_ptr), AT(info, count),
	  sizeof(struct meshfabric_node_info), 0, 70, { AT(info, first) } },
	{ MESHFABRIC_IOC_ATTACH, AT(attach, entries_ptr), AT(attach, count),
	  sizeof(struct meshfabric_attach_entry), 1, 4 },
	{ MESHFABRIC_IOC_ROUTE, AT(route, path_ptr), AT(route, path_max), 4, 0,
	  70, { AT(route, src), AT(route, dst) } },
	{ MESHFABRIC_IOC_BCAST, AT(bcast, payload_ptr), AT(bcast, len), 1, 1,
	  2048, { AT(bcast, source), AT(bcast, algo), AT(bcast, flags) } },
	{ MESHFABRIC_IOC_LINK_STATS, AT(link_stats, links_ptr),
	  AT(link_stats, count), sizeof(struct meshfabric_link_entry), 0, 100,
	  { AT(link_stats, first), AT(link_stats, flags) } },
};

static void random_ioctl(void)
{
	struct meshfabric_attach_entry *e = (void *)page;
	u32 k = pick(7), i, n, v;
	const struct fz_cmd *f = &fz[k];
	union {
		u8 b[256];
		u32 id;
		struct meshfabric_create c;
		struct meshfabric_bcast bc;
	} u = { { 0 } };
	int bad = 0, argbad = 0, ret;
	void *arg = &u;
	u64 p;

	u.id = some_id();
	if (k == 0) {	/* small shapes, names that collide */
		u.c.kind = 1 + pick(3);
		u.c.ndims = u.c.kind == MESHFABRIC_KIND_HEX ? 1 : 1 + pick(3);
		for (i = 0; i < u.c.ndims; i++)
			u.c.dims[i] = 2 + pick(3);
		u.c.routing = pick(5);
		snprintf((char *)u.c.name, sizeof(u.c.name), "fz%u", pick(12));
	}
	for (i = 0; i < 3 && f->small[i]; i++) {
		v = pick(1U << pick(7));
		memcpy(u.b + f->small[i], &v, 4);
	}
	if (f->ptr && (f->in || pick(2))) {
		n = pick(f->max);
		memcpy(u.b + f->len, &n, 4);
		p = some_ptr((size_t)n * f->elem, &bad);
		memcpy(u.b + f->ptr, &p, 8);
		bad = bad && n && f->in;
		for (i = 0; k == 3 && p == (uintptr_t)page && i < n; i++) {
			e[i].node = pick(80);
			e[i].netns_fd = pick(3) ? 3 + (int)pick(8) : -1;
			snprintf((char *)e[i].ifname, sizeof(e[i].ifname),
				 pick(2) ? "fz%u" : "", pick(1000));
		}
	}
	if (k == 5)
		u.bc.ethertype = ETYPE;
	if (!pick(10))	/* garbage in a field, reserved ones included */
		u.b[pick(128)] = pick(256);
	if (!pick(10)) {	/* the argument elsewhere, often unusable */
		arg = (void *)(uintptr_t)some_ptr(_IOC_SIZE(f->nr), &argbad);
		bad = 0;	/* usable: whatever the page holds */
	}
	ret = ioctl(dev, f->nr, arg);
	ADD(calls);
	/* an argument or in-pointer that cannot be read must fail
	 * (out-pointers may be skipped when nothing is written to them)
	 */
	if (!ret && (argbad || bad)) {
		ADD(impossible);
		fprintf(stderr, "# impossible: command %u succeeded with an "
			"unusable %s\n", k, argbad ? "argument" : "pointer");
	}
	if (!ret && k == 0) {
		__atomic_store_n(&sh->pool[pick(32)], u.c.id + 1,
				 __ATOMIC_RELAXED);
		ADD(created);
	}
	if (!ret && k == 1)
		ADD(destroyed);
}

/* A namespace that lives briefly: nodes attached into it, a broadcast
 * flood from one of them, then it dies with the process.
 */
static void netns_life(void)
{
	struct meshfabric_attach_entry e[4] = { { 0 } };
	struct meshfabric_attach a = { .id = some_id(), .count = 1 + pick(4),
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
		if (wait(&st) > 0 && WIFSIGNALED(st))
			ADD(impossible);
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
	ioctl(dev, MESHFABRIC_IOC_ATTACH, &a);
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

static int cmd_fuzz(int argc, char **argv)
{
	double secs = argc > 0 ? atof(argv[0]) : 60, end;
	unsigned long seed = argc > 1 ? num(argv[1]) : (u32)time(NULL);
	int procs = argc > 2 ? num(argv[2]) : 4, i, st, bad = 0;
	long psz = sysconf(_SC_PAGESIZE);

	printf("# mfctl fuzz: seed %lu, %d processes, %.0f s\n", seed, procs,
	       secs);
	sh = mmap(NULL, 4 * psz, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die_err("mmap", errno);
	page = (unsigned char *)sh + psz;
	ro = page + psz;
	guard = ro + psz;
	mprotect(ro, psz, PROT_READ);
	mprotect(guard, psz, PROT_NONE);
	open_dev();
	end = now() + secs;
	for (i = 0; i < procs; i++) {
		if (fork())
			continue;
		/* fds 3.. for ATTACH's random netns_fd: the device, init's
		 * netns twice, a file that is no netns
		 */
		open("/proc/self/ns/net", O_RDONLY);
		open("/proc/self/ns/net", O_RDONLY);
		open("/proc/self/stat", O_RDONLY);
		rng = seed * 2654435761UL + i + 1;
		while (now() < end)
			if (pick(20))
				random_ioctl();
			else
				netns_life();
		_exit(0);
	}
	while (wait(&st) > 0)
		bad += !WIFEXITED(st) || WEXITSTATUS(st);
	printf("# calls in all: %lu\n# fabrics created %lu, destroyed %lu, "
	       "namespaces died %lu\n# impossible results: %lu, workers "
	       "failed: %d\n", sh->calls, sh->created, sh->destroyed,
	       sh->deaths, sh->impossible, bad);
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

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "bcastall", cmd_bcastall }, { "ioctl", cmd_ioctl },
		{ "fuzz", cmd_fuzz },
		{ "flood", cmd_flood }, { "recv", cmd_recv },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 2, argv + 2);
	usage();
	return 2;
}
