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

#endif /* MF_SCHEDCODE_H */
