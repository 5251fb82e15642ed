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
 *   mfflood udp NETNS DST PORT SIZE
 *	From /var/run/netns/NETNS send one UDP datagram of SIZE bytes (a
 *	pattern of its offsets) to DST (IPv4) PORT.
 *   mfflood recv NETNS PORT SIZE SECONDS
 *	In NETNS wait up to SECONDS for one UDP datagram on PORT; exit 0 if
 *	it has SIZE bytes and the pattern, intact.
 *   mfflood raw NETNS IFNAME DSTMAC COUNT
 *	Send COUNT 64-byte Ethernet frames (ethertype 0x88b5) to DSTMAC
 *	through IFNAME of /var/run/netns/NETNS with AF_PACKET, pinned to
 *	CPU 0; print the wall-clock nanoseconds per frame.  A fabric
 *	forwards the frame inside the send call, so this is the data path's
 *	cost per frame.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>

#include "netns.h"

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

/* Enter the network namespace /var/run/netns/NS: 0, or 1 (said why). */
static int enter_netns(const char *ns)
{
	char path[256];
	int e;

	snprintf(path, sizeof(path), MF_NETNS_DIR "/%s", ns);
	e = mf_netns_enter(path);	/* the tool's, userspace/netns.c */
	if (e)
		fprintf(stderr, "mfflood: %s: %s\n", path, strerror(-e));
	return !!e;
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
	int s, one = 1;
	char *buf;
	double end;

	if (enter_netns(ns))
		return 1;
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
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one,
				sizeof(one))) {
		perror("mfflood: socket");
		return 1;
	}
	buf = calloc(1, size);
	if (!buf)
		return 1;
	end = now() + secs;
	while (now() < end) {
		if (sendto(s, buf, size, 0, (struct sockaddr *)&sa,
			   sizeof(sa)) < 0)
			failed++;
		else
			sent++;
	}
	printf("sent %lu failed %lu\n", sent, failed);
	return 0;
}

static int raw(const char *ns, const char *ifname, const char *mac,
	       unsigned long count)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	unsigned char frame[64] = { 0 };
	unsigned int m[6];
	unsigned long i;
	double t0, t1;
	int s;

	if (enter_netns(ns))
		return 1;
	pin(0);
	if (sscanf(mac, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
		   &m[4], &m[5]) != 6) {
		fprintf(stderr, "mfflood: bad MAC %s\n", mac);
		return 1;
	}
	for (i = 0; i < 6; i++)
		frame[i] = m[i];
	frame[12] = 0x88;
	frame[13] = 0xb5;
	s = socket(AF_PACKET, SOCK_RAW, 0);
	sll.sll_ifindex = if_nametoindex(ifname);
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, frame, 6);
	if (s < 0 || !sll.sll_ifindex) {
		perror("mfflood: AF_PACKET socket");
		return 1;
	}
	t0 = now();
	for (i = 0; i < count; i++)
		if (sendto(s, frame, sizeof(frame), 0, (struct sockaddr *)&sll,
			   sizeof(sll)) < 0) {
			perror("mfflood: sendto");
			return 1;
		}
	t1 = now();
	printf("%.0f\n", (t1 - t0) * 1e9 / count);
	return 0;
}

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 7 + (i >> 8));
}

static int udp_one(const char *ns, const char *dst, int port, size_t size,
		   double recv_secs)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	unsigned char *buf = malloc(size + 1);
	struct timeval tv = { .tv_sec = (time_t)recv_secs };
	ssize_t n;
	size_t i;
	int s;

	if (!buf || enter_netns(ns))
		return 1;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		return 1;
	if (!dst) {		/* receive */
		sa.sin_addr.s_addr = htonl(INADDR_ANY);
		if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) ||
		    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
			perror("mfflood: bind");
			return 1;
		}
		printf("ready\n");
		fflush(stdout);
		n = recv(s, buf, size + 1, 0);
		if (n != (ssize_t)size) {
			printf("got %zd bytes, want %zu\n", n, size);
			return 1;
		}
		for (i = 0; i < size; i++)
			if (buf[i] != pattern(i)) {
				printf("byte %zu differs\n", i);
				return 1;
			}
		printf("intact %zu bytes\n", size);
		return 0;
	}
	for (i = 0; i < size; i++)
		buf[i] = pattern(i);
	if (inet_pton(AF_INET, dst, &sa.sin_addr) != 1 ||
	    sendto(s, buf, size, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("mfflood: sendto");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "udp"))
		return udp_one(argv[2], argv[3], atoi(argv[4]),
			       strtoul(argv[5], NULL, 0), 0);
	if (argc == 6 && !strcmp(argv[1], "recv"))
		return udp_one(argv[2], NULL, atoi(argv[3]),
			       strtoul(argv[4], NULL, 0), atof(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "raw"))
		return raw(argv[2], argv[3], argv[4],
			   strtoul(argv[5], NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "flood"))
		return flood(argv[2], argv[3], atof(argv[4]),
			     strtoul(argv[5], NULL, 0));
	if (argc >= 4 && !strcmp(argv[1], "pin")) {
		pin(atoi(argv[2]));
		execvp(argv[3], argv + 3);
		perror("mfflood: exec");
		return 127;
	}
	fprintf(stderr,
		"usage: mfflood flood NETNS DST SECONDS SIZE | pin CPU CMD...\n");
	return 2;
}
