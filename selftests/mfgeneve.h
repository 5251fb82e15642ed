/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mfgeneve.h - the selftests' forged tunnel datagrams (mftunfrag,
 * mfsched, mfpath): the Geneve header and meshfabric's option as the uapi
 * header specifies them (MESHFABRIC_GENEVE_*), written byte by byte so
 * that the module's own encoder is not what the tests check it with.
 */
#ifndef MFGENEVE_H
#define MFGENEVE_H

#include <stdint.h>
#include <string.h>

static inline void be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* The first 24 bytes at d: Geneve (version 0, `words` words of options,
 * critical, transparent Ethernet bridging, VNI 0), then meshfabric's
 * option (class 0xfff0, type 0xed, 3 words): fabric id, flags, port,
 * part, node and step (or hops), big endian.
 */
static inline void mf_geneve_hdr(uint8_t *d, unsigned int words,
				 unsigned int id, unsigned int flags,
				 unsigned int port, unsigned int part,
				 uint32_t node, uint32_t step)
{
	memset(d, 0, 24);
	d[0] = words & 0x3f;
	d[1] = 0x40;
	d[2] = 0x65;
	d[3] = 0x58;
	d[8] = 0xff;
	d[9] = 0xf0;
	d[10] = 0xed;
	d[11] = 3;
	d[12] = id;
	d[13] = flags;
	d[14] = port;
	d[15] = part;
	be32(d + 16, node);
	be32(d + 20, step);
}

/* Node's MAC of fabric id at p (node < 0: broadcast). */
static inline void mf_node_mac(uint8_t *p, unsigned int id, int node)
{
	if (node < 0) {
		memset(p, 0xff, 6);
		return;
	}
	p[0] = 0x02;
	p[1] = 0x6d;
	p[2] = id;
	p[3] = node >> 16;
	p[4] = node >> 8;
	p[5] = node;
}

#endif /* MFGENEVE_H */
