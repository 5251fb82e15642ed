// SPDX-License-Identifier: GPL-2.0
/*
 * fanout: the receiver (and the userspace fan-out sender) of
 * scripts/bcast-bench.sh, one process for a whole fabric.
 *
 *   fanout udp   FABRIC SRC_NS SIZE [ROUNDS]
 *   fanout bcast FABRIC SRC_NS SIZE [ROUNDS] -- CMD [ARGS...]
 *   fanout ioctl FABRIC SRC_NS SIZE [ROUNDS] -- ID NODE
 *   fanout neigh FABRIC SRC_NS 0
 *
 * neigh prints, for `ip -n SRC_NS -batch`, one permanent neighbour entry
 * per node (its IPv4 address and MAC on interface FABRIC): without them
 * the fan-out's first datagram to each node waits for ARP, and 1023 ARP
 * requests are 1023 broadcasts to 1023 nodes each, which does not finish
 * within the time limit in the TCG guest.
 *
 * For every namespace /var/run/netns/FABRIC-* but SRC_NS, it setns()'s
 * into the namespace and opens a socket there that stays bound to it:
 *   udp:   a UDP socket on port 5555 (and reads the node's IPv4 address
 *          on interface FABRIC with getifaddrs, in that namespace);
 *   bcast: an AF_PACKET socket for ethertype 0x88b5 bound to interface
 *          FABRIC (a device-bound packet socket: an unbound one would sit
 *          on the global ptype list and be called for every node's frame).
 * All sockets are polled from this process with epoll.  Each round:
 *   udp:   from SRC_NS, one SIZE-byte datagram to each node's address
 *          (sendto in a loop: what a user does without the offload);
 *   bcast: runs CMD (meshfabric bcast ...) as a child;
 *   ioctl: a child forked before the clock starts, waiting on a pipe,
 *          issues MESHFABRIC_IOC_BCAST (fabric ID, source NODE, algorithm
 *          auto, ethertype 0x88b5) when told: the offload measured as the
 *          fan-out is, from the call that starts it, without a program's
 *          start-up (the receivers are bcast's);
 * and the round ends when every receiver has got SIZE bytes.  Output, one
 * line per round:
 *   FANOUT MODE round R receivers N got G size S us T [cmd_us C]
 * T: from the first send (udp), the fork of CMD (bcast) or the pipe write
 * (ioctl) to the receipt by the last node as this process sees it;
 * "stamp_us K": the same to the latest kernel receive timestamp
 * (SO_TIMESTAMPNS: when the payload entered the node's receive path; for
 * a datagram reassembled from fragments, its last fragment's), free of
 * this process's own polling and scheduling latency; C: until CMD exited (ioctl: until the ioctl returned,
 * and "kernel_us K delivered D": the ioctl's elapsed_ns and delivered).  CMD's own output goes to stderr.  Round 1 also resolves ARP (udp)
 * and fills the schedule cache (bcast): report the later rounds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* the project's uapi header, found without an -I flag by every build */
#include "../../include/uapi/linux/meshfabric.h"

#define PORT 5555
#define ETHERTYPE 0x88b5
#define MAXSZ 65536
#define TIMEOUT_MS 20000

struct rcv {
	char name[256];
	int fd;
	struct sockaddr_in addr;
	int got;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double real_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/*
 * recv() with MSG_TRUNC (the datagram's real length without copying it,
 * so the time measured is the arrival, not this process copying 64 MiB
 * out of 1023 queues), and the kernel's receive timestamp in *ts (us,
 * CLOCK_REALTIME; 0 if none).
 */
static ssize_t recv_stamped(int fd, char *buf, double *ts)
{
	char ctl[CMSG_SPACE(sizeof(struct timespec))];
	struct iovec iov = { .iov_base = buf, .iov_len = 64 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t len = recvmsg(fd, &mh, MSG_TRUNC);

	*ts = 0;
	for (c = len >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec t;

			memcpy(&t, CMSG_DATA(c), sizeof(t));
			*ts = t.tv_sec * 1e6 + t.tv_nsec / 1e3;
		}
	return len;
}

static void die(const char *what, const char *name)
{
	fprintf(stderr, "fanout: %s%s%s: %s\n", what, name ? " " : "",
		name ? name : "", strerror(errno));
	exit(1);
}

static int enter(const char *name)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open", path);
	if (setns(fd, CLONE_NEWNET))
		die("setns", path);
	close(fd);
	return 0;
}

static int ipv4_of(const char *ifname, struct sockaddr_in *sa)
{
	struct ifaddrs *ifa, *p;
	int r = -1;

	if (getifaddrs(&ifa))
		return -1;
	for (p = ifa; p; p = p->ifa_next)
		if (p->ifa_addr && p->ifa_addr->sa_family == AF_INET &&
		    !strcmp(p->ifa_name, ifname)) {
			memcpy(sa, p->ifa_addr, sizeof(*sa));
			r = 0;
			break;
		}
	freeifaddrs(ifa);
	return r;
}

/* ioctl mode's child: wait for the go byte, issue one BCAST of size
 * bytes from node argv[1] of fabric argv[0], report the struct, exit.
 */
static void child_bcast(char **argv, int size, int go, int res)
{
	static char payload[MAXSZ];
	struct meshfabric_bcast b;
	char c;
	int fd = open("/dev/meshfabric", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("open", "/dev/meshfabric");
	memset(&b, 0, sizeof(b));
	memset(payload, 0x5a, sizeof(payload));
	b.id = (unsigned int)atoi(argv[0]);
	b.source = (unsigned int)atoi(argv[1]);
	b.algo = MESHFABRIC_ALGO_AUTO;
	b.payload_ptr = (unsigned long)payload;
	b.len = (unsigned int)size;
	b.ethertype = ETHERTYPE;
	if (read(go, &c, 1) != 1)
		die("read", "go pipe");
	if (ioctl(fd, MESHFABRIC_IOC_BCAST, &b))
		die("ioctl", "MESHFABRIC_IOC_BCAST");
	if (write(res, &b, sizeof(b)) != sizeof(b))
		die("write", "result pipe");
	_exit(0);
}

int main(int argc, char **argv)
{
	static char buf[MAXSZ + 64];
	struct rlimit rl = { 65536, 65536 };
	struct epoll_event ev, evs[256];
	const char *mode, *fabric, *src;
	struct rcv *r = NULL;
	char **cmd = NULL;
	size_t prefix_len;
	int n = 0, cap = 0, i, self, ep, size, rounds = 3, round, udp, neigh, kio, one = 1;
	struct dirent *de;
	DIR *d;

	if (argc < 5) {
		fprintf(stderr, "usage: fanout udp|bcast FABRIC SRC_NS SIZE [ROUNDS] [-- CMD...]\n");
		return 2;
	}
	mode = argv[1];
	fabric = argv[2];
	src = argv[3];
	size = atoi(argv[4]);
	udp = !strcmp(mode, "udp");
	neigh = !strcmp(mode, "neigh");
	kio = !strcmp(mode, "ioctl");
	for (i = 5; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			break;
		}
		rounds = atoi(argv[i]);
	}
	if (!neigh && (size < 1 || size > MAXSZ || (!udp && !cmd) || rounds < 1 ||
			(kio && (!cmd[0] || !cmd[1])))) {
		fprintf(stderr, "fanout: bad arguments\n");
		return 2;
	}
	if (udp && size > 65507) {
		fprintf(stderr, "# fanout: UDP payload %d clamped to 65507, the IPv4 maximum\n", size);
		size = 65507;
	}
	setrlimit(RLIMIT_NOFILE, &rl);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		die("open", "/proc/self/ns/net");
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		die("epoll_create1", NULL);
	d = opendir("/var/run/netns");
	if (!d)
		die("opendir", "/var/run/netns");
	prefix_len = strlen(fabric);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, fabric, prefix_len) || de->d_name[prefix_len] != '-' ||
		    !strcmp(de->d_name, src))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			r = realloc(r, cap * sizeof(*r));
			if (!r)
				die("realloc", NULL);
		}
		memset(&r[n], 0, sizeof(r[n]));
		snprintf(r[n].name, sizeof(r[n].name), "%s", de->d_name);
		n++;
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		enter(r[i].name);
		if (neigh) {
			struct sockaddr_in sa;
			struct ifreq ifr;
			unsigned char *m;
			int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

			memset(&ifr, 0, sizeof(ifr));
			snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", fabric);
			if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr) || ipv4_of(fabric, &sa)) {
				fprintf(stderr, "fanout: no MAC or IPv4 address on %s in %s\n",
					fabric, r[i].name);
				return 1;
			}
			close(fd);
			m = (unsigned char *)ifr.ifr_hwaddr.sa_data;
			printf("neigh replace %s lladdr %02x:%02x:%02x:%02x:%02x:%02x dev %s nud permanent\n",
			       inet_ntoa(sa.sin_addr), m[0], m[1], m[2], m[3], m[4], m[5], fabric);
			continue;
		}
		if (udp) {
			struct sockaddr_in sa = { .sin_family = AF_INET,
						  .sin_port = htons(PORT) };
			int big = 4 << 20;

			r[i].fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
			if (r[i].fd < 0)
				die("socket", r[i].name);
			setsockopt(r[i].fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
			if (bind(r[i].fd, (struct sockaddr *)&sa, sizeof(sa)))
				die("bind", r[i].name);
			if (ipv4_of(fabric, &r[i].addr)) {
				fprintf(stderr, "fanout: no IPv4 address on %s in %s\n",
					fabric, r[i].name);
				return 1;
			}
			r[i].addr.sin_port = htons(PORT);
		} else {
			struct sockaddr_ll sll = { .sll_family = AF_PACKET,
						   .sll_protocol = htons(ETHERTYPE) };

			sll.sll_ifindex = (int)if_nametoindex(fabric);
			if (!sll.sll_ifindex)
				die("if_nametoindex", r[i].name);
			r[i].fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
					 htons(ETHERTYPE));
			if (r[i].fd < 0)
				die("socket(AF_PACKET)", r[i].name);
			if (bind(r[i].fd, (struct sockaddr *)&sll, sizeof(sll)))
				die("bind(AF_PACKET)", r[i].name);
		}
		if (setsockopt(r[i].fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)))
			die("setsockopt SO_TIMESTAMPNS", r[i].name);
		ev.events = EPOLLIN;
		ev.data.u32 = (unsigned int)i;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, r[i].fd, &ev))
			die("epoll_ctl", r[i].name);
	}
	if (setns(self, CLONE_NEWNET))
		die("setns", "back");
	if (neigh)
		return 0;
	fprintf(stderr, "# fanout: %d receivers in %s-* (source %s excluded)\n", n, fabric, src);

	for (round = 1; round <= rounds; round++) {
		int got = 0, sfd = -1, next = 0, status;
		double t0, t0real, tlast = 0, tcmd = 0, deadline, stamp = 0;
		struct meshfabric_bcast kb;
		pid_t pid = -1;
		int go[2], res[2];

		for (i = 0; i < n; i++)
			r[i].got = 0;
		if (udp) {
			int big = 8 << 20;

			enter(src);
			sfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
			if (sfd < 0)
				die("socket", src);
			setsockopt(sfd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big));
			if (setns(self, CLONE_NEWNET))
				die("setns", "back");
			memset(buf, round, (size_t)size);
		}
		if (kio) {
			if (pipe(go) || pipe(res))
				die("pipe", NULL);
			pid = fork();
			if (pid < 0)
				die("fork", NULL);
			if (pid == 0)
				child_bcast(cmd, size, go[0], res[1]);
			close(go[0]);
			close(res[1]);
		}
		t0 = now_us();
		t0real = real_us();
		if (kio) {
			if (write(go[1], "g", 1) != 1)
				die("write", "go pipe");
		} else if (!udp) {
			pid = fork();
			if (pid < 0)
				die("fork", NULL);
			if (pid == 0) {
				/* CMD's report goes to stderr, the caller's to parse */
				dup2(2, 1);
				execvp(cmd[0], cmd);
				_exit(127);
			}
		}
		deadline = t0 + TIMEOUT_MS * 1e3;
		while (got < n && now_us() < deadline) {
			int k, m, wait = 10;

			if (udp && next < n) {
				/* send a batch, then collect what has arrived */
				for (k = 0; k < 32 && next < n; k++, next++)
					while (sendto(sfd, buf, (size_t)size, 0,
						      (struct sockaddr *)&r[next].addr,
						      sizeof(r[next].addr)) < 0) {
						if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
							die("sendto", r[next].name);
						usleep(100);
					}
				wait = 0;
			}
			if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
				tcmd = now_us();
				pid = 0;
				if (!WIFEXITED(status) || WEXITSTATUS(status)) {
					fprintf(stderr, "fanout: %s failed\n", kio ? "BCAST" : cmd[0]);
					return 1;
				}
			}
			m = epoll_wait(ep, evs, 256, pid > 0 ? 1 : wait);
			for (k = 0; k < m; k++) {
				struct rcv *x = &r[evs[k].data.u32];
				double ts;
				ssize_t len;

				while ((len = recv_stamped(x->fd, buf, &ts)) >= 0)
					if (!x->got && len >= size) {
						x->got = 1;
						got++;
						tlast = now_us();
						if (ts > stamp)
							stamp = ts;
					}
			}
		}
		if (pid > 0) {
			waitpid(pid, &status, 0);
			tcmd = now_us();
		}
		if (sfd >= 0)
			close(sfd);
		printf("FANOUT %s round %d receivers %d got %d size %d us %.0f stamp_us %.0f",
		       mode, round, n, got, size, got ? tlast - t0 : -1.0,
		       got && stamp ? stamp - t0real : -1.0);
		if (!udp)
			printf(" cmd_us %.0f", tcmd - t0);
		if (kio) {
			memset(&kb, 0, sizeof(kb));
			if (read(res[0], &kb, sizeof(kb)) != sizeof(kb))
				die("read", "result pipe");
			close(res[0]);
			close(go[1]);
			printf(" kernel_us %.0f delivered %u", kb.elapsed_ns / 1e3, kb.delivered);
		}
		printf("\n");
		fflush(stdout);
		if (got < n)
			for (i = 0; i < n; i++)
				if (!r[i].got) {
					fprintf(stderr, "# fanout: first missing: %s\n", r[i].name);
					break;
				}
	}
	return 0;
}
