// SPDX-License-Identifier: GPL-2.0
/*
 * mfsched - a peer host's BCAST sends to a meshfabric tunnel port (uapi:
 * Geneve flag MESHFABRIC_GENEVE_F_SCHED and the second option
 * MESHFABRIC_GENEVE_TYPE_SCHED), test_54's: for every ALGO of a list and
 * every source 0..SOURCES-1, one datagram from part PART into node NODE
 * by port PORT, claiming to be send SEND of step STEP at hop HOP of the
 * schedule of (algo, source).  Sent from an ordinary UDP socket: the
 * tunnel takes it only if the route's source address is PART's peer.
 *
 *   mfsched DST UDP-PORT FABRIC-ID PART NODE PORT SOURCES ALGO[,ALGO..]
 *           [STEP SEND HOP]
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

#define LEN	(24 + 20 + 14 + 64)	/* Geneve, option 2, inner frame */

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned int id, part, node, port, sources, src, step = 0, send = 0,
		     hop = 1, n = 0;
	char *algos, *a, *save;
	uint8_t d[LEN];
	int s;

	if ((argc != 9 && argc != 12) ||
	    inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: mfsched DST UDP-PORT ID PART NODE PORT SOURCES ALGO[,ALGO..] [STEP SEND HOP]\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	id = atoi(argv[3]);
	part = atoi(argv[4]);
	node = atoi(argv[5]);
	port = atoi(argv[6]);
	sources = atoi(argv[7]);
	algos = argv[8];
	if (argc == 12) {
		step = atoi(argv[9]);
		send = atoi(argv[10]);
		hop = atoi(argv[11]);
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0) {
		perror("mfsched: socket");
		return 1;
	}
	for (a = strtok_r(algos, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
		for (src = 0; src < sources; src++) {
			memset(d, 0, sizeof(d));
			/* 4 + 5 words of options, MESHFABRIC_GENEVE_F_SCHED */
			mf_geneve_hdr(d, 9, id, 4, port, part, node, step);
			d[24] = 0xff;	/* class 0xfff0, type 0xee, 4 words */
			d[25] = 0xf0;
			d[26] = 0xee;
			d[27] = 4;
			be32(d + 28, src);
			be32(d + 32, send);
			be32(d + 36, hop);
			d[40] = atoi(a);
			/* inner: broadcast, from the source's MAC */
			mf_node_mac(d + 44, id, -1);
			mf_node_mac(d + 50, id, src);
			d[56] = 0x88;	/* ethertype 0x88b5 */
			d[57] = 0xb5;
			if (sendto(s, d, sizeof(d), 0, (struct sockaddr *)&to,
				   sizeof(to)) < 0) {
				perror("mfsched: sendto");
				return 1;
			}
			n++;
			usleep(20000);
		}
	}
	printf("mfsched: sent %u datagrams\n", n);
	return 0;
}
