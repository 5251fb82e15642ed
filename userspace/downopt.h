/* SPDX-License-Identifier: GPL-2.0 */
/*
 * downopt.h - the offline fault options of route and plan: --down
 * NODE:PORT (a down link, both directions) and --down-node NODE (all its
 * links), repeatable.  Values are collected while the options are read and
 * resolved into a fault set (core/faults.h) once the topology is known.
 */
#ifndef MF_DOWNOPT_H
#define MF_DOWNOPT_H

#include "faults.h"

#define MF_DOWN_ARGS_MAX	256

#define MF_OPTS_DOWN(key_link, key_node) \
	{ "down", 0, "NODE:PORT", key_link, \
	  "a down link, both directions (e.g. 3,4:x+; hex 5:+11); repeatable" }, \
	{ "down-node", 0, "NODE", key_node, \
	  "a down node: all its links; repeatable" }

struct mf_down_args {
	u32 n;
	const char *val[MF_DOWN_ARGS_MAX];
	bool node[MF_DOWN_ARGS_MAX];
};

/* Record one value; -1 with a reason if there are too many. */
int mf_down_arg_add(struct mf_down_args *d, const char *val, bool node,
		    char *err, size_t errlen);
/* Resolve every value on t into f (initialised here; free it with
 * mf_faults_free whatever the result); -1 with a one-line reason.
 */
int mf_down_args_build(const struct mf_down_args *d, const struct mf_topo *t,
		       struct mf_faults *f, char *err, size_t errlen);

#endif
