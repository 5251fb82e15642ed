/* SPDX-License-Identifier: GPL-2.0 */
/* `meshfabric plan --coll`: plan_coll.c. */
#ifndef MF_PLAN_COLL_H
#define MF_PLAN_COLL_H

#include <stdio.h>

#include "coll.h"

struct mf_plan_coll_args {
	const struct mf_topo *t;
	u32 coll, algo, op, type, root, bcast, model;
	u64 bytes;
	bool timed, json, steps;
	const struct mf_link_model *lm;
};

/* BYTES with a unit (B, K, KiB, M, MiB, G, GiB) up to max into *out. */
int mf_parse_bytes(const char *s, u64 max, u64 *out, char *err,
		   size_t errlen);
/* Plan, check and print a's collective to f: MF_EXIT_*. */
int mf_plan_coll(FILE *f, const struct mf_plan_coll_args *a);

#endif
