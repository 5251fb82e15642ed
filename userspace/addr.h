/* SPDX-License-Identifier: GPL-2.0 */
/*
 * addr.h - the addresses of a fabric's nodes and their configuration by
 * rtnetlink (no `ip` process per node).
 *
 * IPv6 (default): a unique local address (RFC 4193) per node.  The
 * 40-bit global id is derived from the fabric's name (FNV-1a, so the same
 * name gives the same prefix again), the subnet id is 0, and the
 * interface id is ::1:NODE with NODE the node id in hexadecimal:
 *   fdGG:GGGG:GGGG::1:NODE/64
 * IPv4 (on request, --ipv4 A.B.C.D/LEN): node i gets the prefix's
 * address i + 1 (the network address itself is never used).
 */
#ifndef MF_ADDR_H
#define MF_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

struct mf_addr_plan {
	bool ipv6;
	uint8_t prefix6[8];	/* the /64 */
	bool ipv4;
	uint32_t net4;		/* host order, network address */
	uint32_t len4;		/* prefix length */
};

/* The ULA /64 of a fabric name. */
void mf_addr_ula_prefix(const char *fabric, uint8_t prefix[8]);
/* Parse "A.B.C.D/LEN" (LEN 1..30) for nodes nodes; 0 or -1 with err. */
int mf_addr_parse_ipv4(const char *s, uint32_t nodes, struct mf_addr_plan *p,
		       char *err, size_t errlen);
void mf_addr_node6(const struct mf_addr_plan *p, uint32_t node,
		   struct in6_addr *a);
uint32_t mf_addr_node4(const struct mf_addr_plan *p, uint32_t node);

/*
 * Over nl (an rtnetlink socket in the node's namespace): bring lo up,
 * give the node's netdev (ifindex) its addresses (IPv6 without duplicate
 * address detection, and no link-local address: a fabric of thousands of
 * nodes would otherwise flood itself with DAD, router solicitations and
 * MLD reports of link-local groups), and bring it up.  -errno.
 */
int mf_addr_setup(int nl, int ifindex, const struct mf_addr_plan *p,
		  uint32_t node);

/* One address of a node, as read back from its namespace. */
struct mf_addr_entry {
	int family;		/* AF_INET or AF_INET6 */
	unsigned int prefixlen;
	char text[64];		/* without the length */
};

/*
 * The global addresses of ifindex in the current namespace (up to max).
 * Returns how many, or -errno.
 */
int mf_addr_list(int ifindex, struct mf_addr_entry *out, int max);

#endif /* MF_ADDR_H */
