// SPDX-License-Identifier: GPL-2.0
/*
 * addr.c - node addresses and their rtnetlink configuration (contract in
 * addr.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "addr.h"

void mf_addr_ula_prefix(const char *fabric, uint8_t prefix[8])
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a, 64 bit */
	const unsigned char *s;

	for (s = (const unsigned char *)fabric; *s; s++) {
		h ^= *s;
		h *= 0x100000001b3ULL;
	}
	prefix[0] = 0xfd;
	prefix[1] = (uint8_t)(h >> 32);
	prefix[2] = (uint8_t)(h >> 24);
	prefix[3] = (uint8_t)(h >> 16);
	prefix[4] = (uint8_t)(h >> 8);
	prefix[5] = (uint8_t)h;
	prefix[6] = 0;
	prefix[7] = 0;
}

int mf_addr_parse_ipv4(const char *s, uint32_t nodes, struct mf_addr_plan *p,
		       char *err, size_t errlen)
{
	char buf[32], *slash, *end;
	struct in_addr a;
	unsigned long len;
	uint64_t room;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (!slash)
		goto bad;
	*slash = 0;
	len = strtoul(slash + 1, &end, 10);
	if (*end || slash[1] < '0' || slash[1] > '9' || len < 1 || len > 30 ||
	    inet_pton(AF_INET, buf, &a) != 1)
		goto bad;
	p->len4 = (uint32_t)len;
	p->net4 = ntohl(a.s_addr) & (uint32_t)(0xffffffffULL << (32 - len));
	room = (1ULL << (32 - len)) - 2;	/* no network, no broadcast */
	if (room < nodes) {
		snprintf(err, errlen,
			 "--ipv4 %.40s: a /%lu holds %llu addresses, "
			 "%u nodes need a shorter prefix", s, len,
			 (unsigned long long)room, nodes);
		return -1;
	}
	p->ipv4 = true;
	return 0;
bad:
	snprintf(err, errlen, "--ipv4 '%.40s': want an IPv4 prefix A.B.C.D/LEN "
		 "(LEN 1..30), e.g. 10.0.0.0/16", s);
	return -1;
}

void mf_addr_node6(const struct mf_addr_plan *p, uint32_t node,
		   struct in6_addr *a)
{
	memset(a, 0, sizeof(*a));
	memcpy(a->s6_addr, p->prefix6, 8);
	a->s6_addr[13] = 1;		/* node < MESHFABRIC_MAX_NODES */
	a->s6_addr[14] = (uint8_t)(node >> 8);
	a->s6_addr[15] = (uint8_t)node;
}

uint32_t mf_addr_node4(const struct mf_addr_plan *p, uint32_t node)
{
	return p->net4 + node + 1;
}

/* ---- a tiny netlink message builder ------------------------------- */

struct nlbuf {
	char data[2048] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t len;
	struct nlmsghdr *cur;
	uint32_t seq;
	int nmsg;
};

static void *nl_put(struct nlbuf *b, size_t n)
{
	void *p = b->data + b->len;

	memset(p, 0, NLMSG_ALIGN(n));
	b->len += NLMSG_ALIGN(n);
	b->cur->nlmsg_len = (uint32_t)(b->data + b->len - (char *)b->cur);
	return p;
}

static void *nl_msg(struct nlbuf *b, uint16_t type, uint16_t flags,
		    size_t hdrlen)
{
	b->cur = (struct nlmsghdr *)(b->data + b->len);
	memset(b->cur, 0, NLMSG_HDRLEN);
	b->len += NLMSG_HDRLEN;
	b->cur->nlmsg_type = type;
	b->cur->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	b->cur->nlmsg_seq = ++b->seq;
	b->nmsg++;
	return nl_put(b, hdrlen);
}

static struct rtattr *nl_attr(struct nlbuf *b, uint16_t type, const void *v,
			      size_t n)
{
	struct rtattr *a = nl_put(b, RTA_LENGTH(n));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(n);
	if (n)
		memcpy(RTA_DATA(a), v, n);
	return a;
}

static void nl_nest_end(struct nlbuf *b, struct rtattr *a)
{
	a->rta_len = (unsigned short)(b->data + b->len - (char *)a);
}

static void link_up(struct nlbuf *b, int ifindex)
{
	struct ifinfomsg *ifi = nl_msg(b, RTM_NEWLINK, 0, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
}

static void addr_add(struct nlbuf *b, int family, int ifindex,
		     const void *a, size_t alen, unsigned int plen,
		     uint32_t flags)
{
	struct ifaddrmsg *ifa = nl_msg(b, RTM_NEWADDR,
				       NLM_F_CREATE | NLM_F_EXCL, sizeof(*ifa));

	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_prefixlen = (uint8_t)plen;
	ifa->ifa_flags = (uint8_t)flags;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = (uint32_t)ifindex;
	nl_attr(b, IFA_LOCAL, a, alen);
	nl_attr(b, IFA_ADDRESS, a, alen);
	if (flags > 0xff)
		nl_attr(b, IFA_FLAGS, &flags, sizeof(flags));
}

/* Send b; read one ack per message; first error wins. */
static int nl_talk(int nl, struct nlbuf *b)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char rbuf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *h;
	int acks = 0, err = 0;
	ssize_t r;

	if (sendto(nl, b->data, b->len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	while (acks < b->nmsg) {
		r = recv(nl, rbuf, sizeof(rbuf), 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, (size_t)r);
		     h = NLMSG_NEXT(h, r)) {
			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			acks++;
			if (!err)
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
		}
	}
	return err;
}

int mf_addr_setup(int nl, int ifindex, const struct mf_addr_plan *p,
		  uint32_t node)
{
	static struct nlbuf b;
	struct ifinfomsg *ifi;
	struct rtattr *spec, *af;
	struct in6_addr a6;
	uint32_t a4;
	uint8_t mode = IN6_ADDR_GEN_MODE_NONE;

	b.len = 0;
	b.nmsg = 0;
	link_up(&b, 1);		/* lo */
	ifi = nl_msg(&b, RTM_NEWLINK, 0, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	spec = nl_attr(&b, IFLA_AF_SPEC, NULL, 0);
	af = nl_attr(&b, AF_INET6, NULL, 0);
	nl_attr(&b, IFLA_INET6_ADDR_GEN_MODE, &mode, sizeof(mode));
	nl_nest_end(&b, af);
	nl_nest_end(&b, spec);
	if (p->ipv6) {
		mf_addr_node6(p, node, &a6);
		addr_add(&b, AF_INET6, ifindex, &a6, sizeof(a6), 64,
			 IFA_F_NODAD);
	}
	if (p->ipv4) {
		a4 = htonl(mf_addr_node4(p, node));
		addr_add(&b, AF_INET, ifindex, &a4, sizeof(a4), p->len4, 0);
	}
	link_up(&b, ifindex);
	return nl_talk(nl, &b);
}

int mf_addr_list(int ifindex, struct mf_addr_entry *out, int max)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char rbuf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg ifa;
	} req;
	struct nlmsghdr *h;
	int nl, n = 0, err = 0, done = 0;
	ssize_t r;

	nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nl < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = RTM_GETADDR;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	req.ifa.ifa_family = AF_UNSPEC;
	if (sendto(nl, &req, sizeof(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	while (!done) {
		r = recv(nl, rbuf, sizeof(rbuf), 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		for (h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, (size_t)r);
		     h = NLMSG_NEXT(h, r)) {
			struct ifaddrmsg *ifa = NLMSG_DATA(h);
			struct rtattr *a;
			int alen;
			void *v = NULL;

			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				done = 1;
				break;
			}
			if (h->nlmsg_type != RTM_NEWADDR ||
			    (int)ifa->ifa_index != ifindex ||
			    ifa->ifa_scope != RT_SCOPE_UNIVERSE || n >= max)
				continue;
			alen = (int)IFA_PAYLOAD(h);
			for (a = IFA_RTA(ifa); RTA_OK(a, alen);
			     a = RTA_NEXT(a, alen)) {
				if (a->rta_type == IFA_LOCAL)
					v = RTA_DATA(a);
				else if (a->rta_type == IFA_ADDRESS && !v)
					v = RTA_DATA(a);
			}
			if (!v)
				continue;
			out[n].family = ifa->ifa_family;
			out[n].prefixlen = ifa->ifa_prefixlen;
			inet_ntop(ifa->ifa_family, v, out[n].text,
				  sizeof(out[n].text));
			n++;
		}
	}
out:
	close(nl);
	return err ? err : n;
}
