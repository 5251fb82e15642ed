// SPDX-License-Identifier: GPL-2.0
/*
 * mfpath - a peer host's collective frame to a meshfabric tunnel port
 * (uapi: Geneve flag MESHFABRIC_GENEVE_F_PATH and the option
 * MESHFABRIC_GENEVE_TYPE_PATH), test_56's: one datagram from part PART
 * into node NODE by port IN (255: it starts at NODE), with the hops
 * PORT... (4 bits each; "N*P": N hops of port P), its inner frame from
 * node SRC's MAC to node DST's (-1: broadcast).  WORDS (env
 * MFPATH_WORDS) overrides the path option's length in words, NIBBLE
 * (env MFPATH_PAD) sets the bits after the last port.  Sent from an
 * ordinary UDP socket: the tunnel takes it only if the route's source
 * address is PART's peer.
 *
 *   mfpath DST UDP-PORT FABRIC-ID PART NODE IN SRC DST [PORT...]
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mfgeneve.h"

#define MAXHOPS	512

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned int id, part, node, in, hops = 0, words, i, n, p;
	uint8_t ports[MAXHOPS], d[24 + 4 + 4 * 64 + 14 + 64];
	const char *w = getenv("MFPATH_WORDS"), *pad = getenv("MFPATH_PAD");
	size_t len;
	int s, src, dst;

	if (argc < 9 || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: mfpath DST UDP-PORT ID PART NODE IN SRC DST [PORT...]\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	id = atoi(argv[3]);
	part = atoi(argv[4]);
	node = atoi(argv[5]);
	in = atoi(argv[6]);
	src = atoi(argv[7]);
	dst = atoi(argv[8]);
	for (i = 9; i < (unsigned int)argc; i++) {
		n = 1;
		p = atoi(argv[i]);
		if (strchr(argv[i], '*')) {
			n = atoi(argv[i]);
			p = atoi(strchr(argv[i], '*') + 1);
		}
		while (n-- && hops < MAXHOPS)
			ports[hops++] = p & 0xf;
	}
	words = w ? (unsigned int)atoi(w) : (hops + 7) / 8;
	if (words > 63) {
		fprintf(stderr, "mfpath: %u words\n", words);
		return 2;
	}
	memset(d, 0, sizeof(d));
	/* 4 + 1 + words words of options, MESHFABRIC_GENEVE_F_PATH */
	mf_geneve_hdr(d, 4 + 1 + words, id, 8, in, part, node, hops);
	d[24] = 0xff;	/* class 0xfff0, type 0xf0, words */
	d[25] = 0xf0;
	d[26] = 0xf0;
	d[27] = words & 0x1f;
	for (i = 0; i < hops && i / 2 < 4 * words; i++)
		d[28 + i / 2] |= ports[i] << (i & 1 ? 0 : 4);
	if (pad && hops / 2 < 4 * words)
		d[28 + hops / 2] |= atoi(pad) << (hops & 1 ? 0 : 4);
	len = 28 + 4 * words;
	/* inner: SRC to DST, ethertype 0x88b6, 64 bytes */
	mf_node_mac(d + len, id, dst);
	mf_node_mac(d + len + 6, id, src);
	d[len + 12] = 0x88;
	d[len + 13] = 0xb6;
	len += 14 + 64;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || sendto(s, d, len, 0, (struct sockaddr *)&to,
			    sizeof(to)) < 0) {
		perror("mfpath");
		return 1;
	}
	printf("mfpath: sent %zu bytes, %u hops\n", len, hops);
	return 0;
}
