/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedfile.h - a broadcast schedule read from plan's JSON
 * (`meshfabric plan ... --json > FILE`, or one written by hand or by
 * another program in the same format), for `bcast --schedule FILE`; a
 * collective's from `meshfabric plan --coll OP --steps --json`, for
 * `coll --schedule FILE`.
 */
#ifndef MF_SCHEDFILE_H
#define MF_SCHEDFILE_H

#include "sched.h"
#include "topo.h"

/* Read path ("-": standard input) into s (free with mf_sched_free whatever
 * the result): its topology must be t's, and every send's path must run
 * from its src to its dst.  The schedule is not checked (the kernel's
 * checker and mf_check() do that).  0, or -1 with a one-line reason in
 * err.
 */
int mf_sched_read(const char *path, const struct mf_topo *t,
		  struct mf_sched *s, char *err, size_t errlen);
/* mf_sched_read, and where from (the --from argument) is given, the
 * schedule must start at source, the node it names: else -1 saying so.
 */
int mf_sched_read_from(const char *path, const struct mf_topo *t,
		       const char *from, u32 source, struct mf_sched *s,
		       char *err, size_t errlen);

#endif /* MF_SCHEDFILE_H */
