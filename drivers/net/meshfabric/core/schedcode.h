/* SPDX-License-Identifier: GPL-2.0 */
/* The compact encoding of a schedule that the tool hands the kernel
 * (MESHFABRIC_IOC_SCHED_LOAD; the format is specified in the uapi header).
 * Encoded by the tool, decoded by the module: both compile this file, so
 * the two sides cannot disagree.  Decoding checks the encoding only
 * (every port leads to a neighbour, the counts add up, nothing is left
 * over); whether the result is a broadcast is the checker's business
 * (check.h).
 */
#ifndef MF_SCHEDCODE_H
#define MF_SCHEDCODE_H

#include "sched.h"
#include "topo.h"

/* Bytes of the encoding of s on t, or 0 if a path of s is not a chain of
 * neighbours of t or s is not a broadcast (nothing to encode).
 */
size_t mf_sched_code_len(const struct mf_topo *t, const struct mf_sched *s);

/* Encode s into buf (len bytes, at least mf_sched_code_len()): the bytes
 * written, or -EINVAL (a path that is not a chain of neighbours of t),
 * -ENOSPC (buf too small).
 */
s64 mf_sched_encode(const struct mf_topo *t, const struct mf_sched *s,
		    u8 *buf, size_t len);

/* Decode len bytes of code into s (need not be initialised; free it with
 * mf_sched_free whatever the result): a schedule of model from source on
 * t with nsteps steps, each of at least one send, and nsends = nodes - 1
 * sends (a broadcast).  0, or -EINVAL with a one-line
 * reason in err (errlen bytes), -ENOMEM, -E2BIG.
 */
int mf_sched_decode(const struct mf_topo *t, u32 model, u32 source,
		    u32 nsteps, u32 nsends, const u8 *code, size_t len,
		    struct mf_sched *s, char *err, size_t errlen);

/* The encoding of a collective schedule (MESHFABRIC_IOC_COLLECTIVE with
 * MESHFABRIC_CALGO_USER; format in the uapi header): model, nblocks and
 * nsteps, then per step its sends as the broadcast's, each followed by
 * its blocks as runs (2 * runs + combine, then first and length of each
 * run).  The collective and its root are the caller's (s->coll,
 * s->source are not encoded).
 */

/* Bytes of the encoding of s on t, or 0 if a path of s is not a chain of
 * neighbours of t, a send carries no block or mixes copy and combine.
 */
size_t mf_coll_code_len(const struct mf_topo *t, const struct mf_sched *s);

/* Encode s into buf (len bytes, at least mf_coll_code_len()): the bytes
 * written, or -EINVAL (not encodable, as above), -ENOSPC (buf too small).
 */
s64 mf_coll_encode(const struct mf_topo *t, const struct mf_sched *s,
		   u8 *buf, size_t len);

/* Decode len bytes of code into s (need not be initialised; free it with
 * mf_sched_free whatever the result): a schedule of coll with root on t.
 * The encoding only is checked (ports lead to neighbours, blocks below
 * nblocks, counts add up, nothing left over); whether it computes coll is
 * the checker's business (check.h).  0; -EINVAL with a one-line reason
 * in err (errlen bytes); -E2BIG (the same) if nodes * nblocks exceeds
 * MF_COLL_CODE_CELLS, the sends MF_COLL_CODE_SENDS or the block entries
 * MF_COLL_CODE_BLKS; -ENOMEM.
 */
#define MF_COLL_CODE_CELLS	BIT(18)
#define MF_COLL_CODE_SENDS	BIT(20)
#define MF_COLL_CODE_BLKS	BIT(22)
int mf_coll_decode(const struct mf_topo *t, u32 coll, u32 root,
		   const u8 *code, size_t len, struct mf_sched *s, char *err,
		   size_t errlen);

/* A path as a collective's frame carries it to another host (uapi:
 * MESHFABRIC_GENEVE_TYPE_PATH): the port taken at each node, 4 bits
 * each, the first in the high bits of the first byte, unused bits 0.
 */

/* Port h of packed. */
static inline u32 mf_path_port(const u8 *packed, u32 h)
{
	return packed[h / 2] >> (h & 1 ? 0 : 4) & 0xf;
}

/* Pack the ports of path (hops + 1 nodes of t) into out, whose
 * (hops + 1) / 2 bytes it zeroes first: 0, or -EINVAL if two nodes in a
 * row are not neighbours or a port does not fit 4 bits.
 */
int mf_path_pack(const struct mf_topo *t, const u32 *path, u32 hops,
		 u8 *out);

/* Hops from .. from + n - 1 of packed into out, starting at its first
 * bits ((n + 1) / 2 bytes, zeroed first).
 */
void mf_path_tail(const u8 *packed, u32 from, u32 n, u8 *out);

#endif /* MF_SCHEDCODE_H */
