// SPDX-License-Identifier: GPL-2.0
/*
 * mffuzz - random ioctls on /dev/meshfabric from several processes at
 * once, interleaved with namespace deletion, DESTROY, ATTACH races,
 * broadcast floods and rmmod attempts (issue 9).  Static, run in the VM
 * by test_90-fuzz.sh; the kernel log is checked by scripts/vm.sh.
 *
 *   mffuzz [-t SECONDS] [-p PROCS] [-s SEED]
 *
 * SECONDS defaults to $MF_FUZZ_SECONDS or 60, PROCS to 4, SEED to the
 * time (printed: a failure reproduces with -s).  Exit 0, or 1 if
 * something impossible happened: a call with an unusable pointer that
 * succeeded, a worker killed by a signal, an rmmod that succeeded while
 * the device was open.  Prints calls per command, the errnos seen,
 * fabrics created and destroyed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
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
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/meshfabric.h>

#define NCMD		9	/* 7 commands, "random", "other" */
#define NERR		256
#define POOL		32

struct shared {
	unsigned long calls[NCMD];
	unsigned long err[NERR];
	unsigned long created, destroyed, netns_deaths, floods, rmmods;
	unsigned long impossible;
	uint32_t pool[POOL];	/* fabric ids seen (+1; 0 = empty) */
};

static struct shared *sh;
static uint64_t rng;
static unsigned char *page, *ro, *guard;	/* rw, read-only, PROT_NONE */
static long psz;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t pick(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static const unsigned long cmds[7] = {
	MESHFABRIC_IOC_CREATE, MESHFABRIC_IOC_DESTROY, MESHFABRIC_IOC_INFO,
	MESHFABRIC_IOC_ATTACH, MESHFABRIC_IOC_ROUTE, MESHFABRIC_IOC_BCAST,
	MESHFABRIC_IOC_LINK_STATS,
};

static uint32_t some_id(void)
{
	uint32_t v;

	if (pick(8) == 0)
		return pick(4) ? pick(300) : (uint32_t)rnd();
	v = __atomic_load_n(&sh->pool[pick(POOL)], __ATOMIC_RELAXED);
	return v ? v - 1 : pick(MESHFABRIC_MAX_IDS);
}

static void remember(uint32_t id)
{
	__atomic_store_n(&sh->pool[pick(POOL)], id + 1, __ATOMIC_RELAXED);
}

/* A user pointer: mostly usable, sometimes not (the kernel must refuse). */
static uint64_t some_ptr(size_t need, int *bad)
{
	*bad = 1;
	switch (pick(16)) {
	case 0:
		return 0;
	case 1:
		return 8;
	case 2:
		return 0xffff888000000000ULL;	/* the kernel's direct map */
	case 3:
		return (uintptr_t)guard;
	case 4:		/* straddles the end of the mapping */
		return (uintptr_t)guard - need / 2;
	case 5:
		*bad = 0;	/* readable: fine for in-only arguments */
		return (uintptr_t)ro;
	}
	*bad = 0;
	return (uintptr_t)page;
}

static void fill_random(void *p, size_t n)
{
	unsigned char *c = p;

	while (n--)
		*c++ = (unsigned char)rnd();
}

static void count(int k, int ret)
{
	__atomic_add_fetch(&sh->calls[k], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&sh->err[ret < 0 ? errno & (NERR - 1) : 0], 1,
			   __ATOMIC_RELAXED);
}

/* A near-valid argument for command k in buf; its pointers may be bad. */
static int build(int k, void *buf, int *bad)
{
	struct meshfabric_create *c = buf;
	struct meshfabric_destroy *d = buf;
	struct meshfabric_info *in = buf;
	struct meshfabric_attach *a = buf;
	struct meshfabric_route *r = buf;
	struct meshfabric_bcast *b = buf;
	struct meshfabric_link_stats *ls = buf;
	struct meshfabric_attach_entry *e;
	struct meshfabric_node_info *n;
	uint32_t i;

	*bad = 0;
	memset(buf, 0, 256);
	switch (k) {
	case 0:
		c->kind = 1 + pick(3);
		c->ndims = c->kind == MESHFABRIC_KIND_HEX ? 1 : 1 + pick(3);
		for (i = 0; i < c->ndims; i++)
			c->dims[i] = 2 + pick(3);
		c->routing = pick(5);
		snprintf((char *)c->name, sizeof(c->name), "fz%u", pick(12));
		break;
	case 1:
		d->id = some_id();
		break;
	case 2:
		in->id = some_id();
		if (pick(2)) {
			in->nodes_ptr = some_ptr(64 * sizeof(*n), bad);
			in->count = pick(70);
			in->first = pick(70);
		}
		break;
	case 3:
		a->id = some_id();
		a->count = pick(4);
		a->entries_ptr = some_ptr(a->count * sizeof(*e), bad);
		if (!*bad && a->entries_ptr == (uintptr_t)page) {
			e = (void *)(page + 1024);

			a->entries_ptr = (uintptr_t)e;
			for (i = 0; i < a->count; i++) {
				e[i].node = pick(80);
				e[i].netns_fd = pick(3) ? 3 + (int)pick(8) : -1;
				snprintf((char *)e[i].ifname,
					 sizeof(e[i].ifname),
					 pick(2) ? "fz%u" : "", pick(1000));
			}
		}
		*bad = *bad && a->count;
		break;
	case 4:
		r->id = some_id();
		r->src = pick(70);
		r->dst = pick(70);
		if (pick(2)) {
			r->path_ptr = some_ptr(64 * 4, bad);
			r->path_max = pick(70);
		}
		break;
	case 5:
		b->id = some_id();
		b->source = pick(70);
		b->algo = pick(MESHFABRIC_ALGO_MAX + 2);
		b->len = pick(4) ? pick(2048) : pick(70000);
		b->ethertype = pick(8) ? 0x88b5 : pick(0x10000);
		b->payload_ptr = some_ptr(b->len, bad);
		*bad = *bad && b->len;
		break;
	case 6:
		ls->id = some_id();
		ls->flags = pick(4) ? 0 : MESHFABRIC_LINK_STATS_RESET;
		if (pick(2)) {
			ls->links_ptr = some_ptr(64 * 32, bad);
			ls->count = pick(100);
			ls->first = pick(100);
		}
		break;
	}
	if (pick(10) == 0)	/* garbage in a field, reserved ones included */
		((unsigned char *)buf)[pick(128)] = (unsigned char)rnd();
	return 0;
}

static void random_ioctl(int fd)
{
	unsigned char *buf = page;
	unsigned long cmd;
	int k = pick(7), bad, ret, argbad = 0;
	void *arg = buf;

	switch (pick(10)) {
	case 0:		/* a random command number */
		cmd = pick(2) ? _IOC(pick(4), MESHFABRIC_IOC_MAGIC, pick(16),
				     pick(512)) : (unsigned long)rnd();
		fill_random(buf, 256);
		ret = ioctl(fd, cmd, buf);
		count(7, ret);
		return;
	case 1:		/* the whole argument unusable */
		arg = (void *)(uintptr_t)some_ptr(_IOC_SIZE(cmds[k]), &argbad);
		break;
	}
	build(k, buf, &bad);
	ret = ioctl(fd, cmds[k], arg);
	count(k, ret);
	/* an argument, or an in-pointer, that cannot be read must fail
	 * (out-pointers may be skipped when nothing is written to them)
	 */
	if (ret == 0 && (argbad || (bad && k != 2 && k != 4 && k != 6))) {
		__atomic_add_fetch(&sh->impossible, 1, __ATOMIC_RELAXED);
		fprintf(stderr,
			"# impossible: command %d succeeded with an unusable %s\n",
			k, argbad ? "argument" : "pointer");
	}
	if (ret == 0 && k == 0) {
		remember(((struct meshfabric_create *)buf)->id);
		__atomic_add_fetch(&sh->created, 1, __ATOMIC_RELAXED);
	}
	if (ret == 0 && k == 1)
		__atomic_add_fetch(&sh->destroyed, 1, __ATOMIC_RELAXED);
}

/* A namespace that lives briefly: nodes attached into it, a broadcast
 * flood from one of them, then it dies with the process.
 */
static void netns_life(int fd)
{
	struct meshfabric_attach_entry e[4];
	struct meshfabric_attach a;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	unsigned char frame[300] = { 0 };
	pid_t pid = fork();
	int nsfd, s, i, st;

	if (pid < 0)
		return;
	if (pid) {
		waitpid(pid, &st, 0);
		if (WIFSIGNALED(st))
			__atomic_add_fetch(&sh->impossible, 1,
					   __ATOMIC_RELAXED);
		__atomic_add_fetch(&sh->netns_deaths, 1, __ATOMIC_RELAXED);
		return;
	}
	alarm(10);
	if (unshare(CLONE_NEWNET))
		_exit(0);
	nsfd = open("/proc/self/ns/net", O_RDONLY);
	memset(&a, 0, sizeof(a));
	memset(e, 0, sizeof(e));
	a.id = some_id();
	a.count = 1 + pick(4);
	a.entries_ptr = (uintptr_t)e;
	for (i = 0; i < (int)a.count; i++) {
		e[i].node = pick(16);
		e[i].netns_fd = nsfd;
		snprintf((char *)e[i].ifname, sizeof(e[i].ifname), "fz%d", i);
	}
	ioctl(fd, MESHFABRIC_IOC_ATTACH, &a);
	count(3, 0);
	sll.sll_ifindex = if_nametoindex("fz0");
	s = socket(AF_PACKET, SOCK_RAW, 0);
	if (sll.sll_ifindex && s >= 0) {
		struct ifreq ifr = { 0 };

		strcpy(ifr.ifr_name, "fz0");
		ioctl(s, SIOCGIFFLAGS, &ifr);
		ifr.ifr_flags |= IFF_UP;
		ioctl(s, SIOCSIFFLAGS, &ifr);
		memset(frame, 0xff, 6);	/* broadcast */
		frame[12] = 0x88;
		frame[13] = 0xb5;
		sll.sll_halen = 6;
		memset(sll.sll_addr, 0xff, 6);
		for (i = 0; i < 200; i++)
			sendto(s, frame, 60 + pick(240), MSG_DONTWAIT,
			       (struct sockaddr *)&sll, sizeof(sll));
		__atomic_add_fetch(&sh->floods, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

static void worker(int fd, double end)
{
	struct timespec ts;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec + ts.tv_nsec / 1e9 >= end)
			break;
		switch (pick(20)) {
		case 0:
			netns_life(fd);
			break;
		case 1:		/* must fail: the device is open */
			if (!syscall(SYS_delete_module, "meshfabric",
				     O_NONBLOCK))
				__atomic_add_fetch(&sh->impossible, 1,
						   __ATOMIC_RELAXED);
			__atomic_add_fetch(&sh->rmmods, 1, __ATOMIC_RELAXED);
			break;
		default:
			random_ioctl(fd);
		}
	}
}

int main(int argc, char **argv)
{
	static const char *const names[NCMD] = {
		"CREATE", "DESTROY", "INFO", "ATTACH", "ROUTE", "BCAST",
		"LINK_STATS", "random", "other",
	};
	const char *env = getenv("MF_FUZZ_SECONDS");
	double secs = env ? atof(env) : 60, end;
	unsigned long seed = (unsigned long)time(NULL), total = 0;
	struct meshfabric_destroy d;
	int procs = 4, opt, fd, i, st, bad = 0;
	struct timespec ts;

	while ((opt = getopt(argc, argv, "t:p:s:")) != -1) {
		switch (opt) {
		case 't':
			secs = atof(optarg);
			break;
		case 'p':
			procs = atoi(optarg);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: mffuzz [-t SECONDS] [-p PROCS] [-s SEED]\n");
			return 2;
		}
	}
	printf("# mffuzz: seed %lu, %d processes, %.0f s\n", seed, procs, secs);
	fflush(stdout);
	psz = sysconf(_SC_PAGESIZE);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	page = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || page == MAP_FAILED)
		return 1;
	memset(sh, 0, sizeof(*sh));
	ro = page + psz;
	guard = page + 2 * psz;
	mprotect(ro, psz, PROT_READ);
	mprotect(guard, psz, PROT_NONE);
	fd = open("/dev/meshfabric", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("mffuzz: /dev/meshfabric");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + secs;
	for (i = 0; i < procs; i++) {
		if (fork() == 0) {
			/* fds 3.. for ATTACH's random netns_fd: the device,
			 * init's netns twice, a file that is no netns
			 */
			open("/proc/self/ns/net", O_RDONLY);
			open("/proc/self/ns/net", O_RDONLY);
			open("/proc/self/stat", O_RDONLY);
			rng = seed * 2654435761UL + i + 1;
			worker(fd, end);
			_exit(0);
		}
	}
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	/* clean up what is left (the VM runs nothing else) */
	for (i = 0; i < MESHFABRIC_MAX_IDS; i++) {
		memset(&d, 0, sizeof(d));
		d.id = i;
		if (!ioctl(fd, MESHFABRIC_IOC_DESTROY, &d))
			sh->destroyed++;
	}
	close(fd);
	for (i = 0; i < NCMD; i++) {
		printf("# calls %-10s %lu\n", names[i], sh->calls[i]);
		total += sh->calls[i];
	}
	printf("# calls in all: %lu\n", total);
	for (i = 0, opt = 0; i < NERR; i++)
		if (sh->err[i]) {
			printf("# result %-16s %lu\n", i ? strerrorname_np(i) ?
			       strerrorname_np(i) : "?" : "success",
			       sh->err[i]);
			opt += i != 0;
		}
	printf("# distinct errnos: %d\n", opt);
	printf("# fabrics created %lu, destroyed %lu; namespaces died %lu; "
	       "floods %lu; rmmod attempts %lu\n",
	       sh->created, sh->destroyed, sh->netns_deaths, sh->floods,
	       sh->rmmods);
	printf("# impossible results: %lu, workers failed: %d\n",
	       sh->impossible, bad);
	return sh->impossible || bad ? 1 : 0;
}
