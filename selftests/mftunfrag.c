// SPDX-License-Identifier: GPL-2.0
/*
 * mftunfrag - a remote host's datagrams to a meshfabric tunnel port
 * (uapi: Geneve, one option), test_53's: for every node 0..NODES-1 and
 * port 0..PORTS-1, one unicast frame as part PART into the node by the
 * port, to the node's own MAC (the module refuses every pair but a cut
 * link's), in two IPv4 fragments, the first FRAG1 bytes of UDP payload
 * (a multiple of 8; default 40: 8 bytes into the inner Ethernet header,
 * so that the reassembled datagram holds that header partly in its
 * frag_list), from SRC (default: the route's source; any address may be
 * forged: a raw socket, CAP_NET_RAW).
 *
 *   mftunfrag DST-IPV4 UDP-PORT FABRIC-ID PART NODES PORTS [FRAG1 [SRC]]
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "mfgeneve.h"

static unsigned int frag1 = 40;	/* UDP 8, Geneve 24, inner 8 */
#define TOTAL	(8 + 24 + 14 + 1386)

static in_addr_t src;

static int send_frag(int s, const struct sockaddr_in *to, uint16_t id,
		     uint16_t off, int more, const uint8_t *p, size_t len)
{
	uint8_t pkt[1600];
	struct iphdr *ip = (struct iphdr *)pkt;

	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->id = htons(id);
	ip->frag_off = htons((off / 8) | (more ? IP_MF : 0));
	ip->saddr = src;
	ip->daddr = to->sin_addr.s_addr;
	memcpy(pkt + sizeof(*ip), p, len);
	return sendto(s, pkt, sizeof(*ip) + len, 0,
		      (const struct sockaddr *)to, sizeof(*to)) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned int port, id, part, nodes, ports, n, p;
	uint8_t d[TOTAL];
	uint16_t ipid = 1;
	int s, one = 1;

	if (argc >= 8)
		frag1 = atoi(argv[7]);
	if (argc == 9 && inet_pton(AF_INET, argv[8], &src) != 1)
		argc = 0;
	if (argc < 7 || argc > 9 || !frag1 || frag1 % 8 ||
	    frag1 >= TOTAL || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: mftunfrag DST UDP-PORT ID PART NODES PORTS [FRAG1 [SRC]]\n");
		return 2;
	}
	port = atoi(argv[2]);
	id = atoi(argv[3]);
	part = atoi(argv[4]);
	nodes = atoi(argv[5]);
	ports = atoi(argv[6]);
	s = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (s < 0 || setsockopt(s, IPPROTO_IP, IP_HDRINCL, &one, sizeof(one))) {
		perror("mftunfrag: raw socket");
		return 1;
	}
	for (n = 0; n < nodes; n++) {
		for (p = 0; p < ports; p++) {
			memset(d, 0, sizeof(d));
			/* UDP: checksum 0 (none) */
			d[0] = 0xc0;
			d[1] = 0x00;
			d[2] = port >> 8;
			d[3] = port;
			d[4] = TOTAL >> 8;
			d[5] = TOTAL & 0xff;
			/* Geneve: 4 words of option; unicast, 1 hop made */
			mf_geneve_hdr(d + 8, 4, id, 0, p, part, n, 1);
			/* inner: to the node's MAC, from a foreign one */
			mf_node_mac(d + 32, id, n);
			d[38] = 0x02;
			d[39] = 0x99;
			d[44] = 0x08;	/* IPv4 */
			d[45] = 0x00;
			if (send_frag(s, &to, ipid, 0, 1, d, frag1) ||
			    send_frag(s, &to, ipid, frag1, 0, d + frag1,
				      TOTAL - frag1)) {
				perror("mftunfrag: sendto");
				return 1;
			}
			ipid++;
			usleep(20000);
		}
	}
	printf("mftunfrag: sent %u datagrams\n", nodes * ports);
	return 0;
}
