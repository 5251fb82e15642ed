// SPDX-License-Identifier: GPL-2.0
/*
 * mfflood - traffic helpers of the selftests (static, run in the VM):
 *
 *   mfflood flood NETNS DST SECONDS SIZE
 *	Enter /var/run/netns/NETNS, pin to CPU 0, drop every privilege
 *	(uid/gid 65534, no capabilities), then send UDP datagrams of SIZE
 *	bytes to DST (an IPv4 broadcast address) port 9 as fast as the
 *	socket takes them for SECONDS.  Prints "sent N failed M".
 *   mfflood pin CPU CMD [ARGS...]
 *	Run CMD pinned to CPU.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("mfflood: sched_setaffinity");
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int flood(const char *ns, const char *dst, double secs, size_t size)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };
	unsigned long sent = 0, failed = 0;
	char path[256], *buf;
	int fd, s, one = 1;
	double end;

	snprintf(path, sizeof(path), "/var/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		perror("mfflood: setns");
		return 1;
	}
	close(fd);
	pin(0);
	/* no capabilities from here on: an ordinary user */
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534)) {
		perror("mfflood: dropping privileges");
		return 1;
	}
	if (inet_pton(AF_INET, dst, &sa.sin_addr) != 1) {
		fprintf(stderr, "mfflood: bad address %s\n", dst);
		return 1;
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one))) {
		perror("mfflood: socket");
		return 1;
	}
	buf = calloc(1, size);
	if (!buf)
		return 1;
	end = now() + secs;
	while (now() < end) {
		if (sendto(s, buf, size, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			failed++;
		else
			sent++;
	}
	printf("sent %lu failed %lu\n", sent, failed);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "flood"))
		return flood(argv[2], argv[3], atof(argv[4]),
			     strtoul(argv[5], NULL, 0));
	if (argc >= 4 && !strcmp(argv[1], "pin")) {
		pin(atoi(argv[2]));
		execvp(argv[3], argv + 3);
		perror("mfflood: exec");
		return 127;
	}
	fprintf(stderr, "usage: mfflood flood NETNS DST SECONDS SIZE | pin CPU CMD...\n");
	return 2;
}
