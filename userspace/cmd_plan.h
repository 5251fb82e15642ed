/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The step printer shared by plan and bcast (--steps): one function for
 * text, one for JSON, so both commands print a schedule the same way.
 */
#ifndef MF_CMD_PLAN_H
#define MF_CMD_PLAN_H

#include <stdio.h>
#include "json.h"
#include "sched.h"
#include "topo.h"

void mf_print_steps_text(FILE *f, const struct mf_topo *t,
			 const struct mf_sched *s);
void mf_print_steps_json(struct mf_json *j, const char *key,
			 const struct mf_sched *s);

#endif
