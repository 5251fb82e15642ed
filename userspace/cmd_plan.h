/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The step and timing printers shared by plan and bcast (--steps), on
 * the print layer (print.h): one call per field for text and JSON, so
 * both commands print a schedule and its fabric time the same way.
 */
#ifndef MF_CMD_PLAN_H
#define MF_CMD_PLAN_H

#include "print.h"
#include "check.h"
#include "sched.h"
#include "topo.h"

/*
 * The schedule: text, one line per step and per send; JSON, KEY:
 * [[{"src","dst","path":[...]}],...].
 */
void mf_print_steps(struct mf_print *p, const char *key,
		    const struct mf_topo *t, const struct mf_sched *s);
/*
 * Fabric time (timing.h): "fabric_time_ns" and "step_ns": [...] in JSON;
 * in text (with type MF_PRINT_ANY) the time in all and, per_step, after
 * each step.
 */
void mf_print_timing(struct mf_print *p, int type, u64 total,
		     const u64 *step_ns, u32 steps, bool per_step);

/* steps, sends, tcd and max_link_load of a schedule. */
void mf_print_sched_stats(struct mf_print *p, const struct mf_stats *st);
/* The fault-free schedule's steps and TCD (around links down). */
void mf_print_fault_free(struct mf_print *p, const struct mf_stats *st);

#endif
