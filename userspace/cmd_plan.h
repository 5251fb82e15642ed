/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The step and timing printers shared by plan and bcast (--steps): one
 * function for text, one for JSON, so both commands print a schedule and
 * its fabric time the same way.
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
/* Fabric time (timing.h) in all and, per_step, after each step. */
void mf_print_timing_text(FILE *f, u64 total, const u64 *step_ns, u32 steps,
			  bool per_step);
/* The same in JSON: "fabric_time_ns" and "step_ns": [...]. */
void mf_print_timing_json(struct mf_json *j, u64 total, const u64 *step_ns,
			  u32 steps);

#endif
