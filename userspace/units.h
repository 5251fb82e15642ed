/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - rates, times and percentages as tc(8) writes them, for the
 * link model (`create --link-*`, `link set`, `plan --link-*`):
 *   rate: a decimal number with bit, kbit, mbit, gbit, tbit (10^3 steps),
 *         kibit, mibit, gibit, tibit (2^10 steps), bps, kbps, mbps, gbps,
 *         tbps (bytes per second), or none (bits per second);
 *   time: s, sec, secs, ms, msec, msecs, us, usec, usecs, ns, nsec, nsecs,
 *         or none (microseconds, as tc);
 *   loss: a percentage, "1%" or "1" (0..100).
 * Parsers return 0, or -1 with a one-line reason in err.
 */
#ifndef MF_UNITS_H
#define MF_UNITS_H

#include <stddef.h>
#include "mf_compat.h"

/* The link-model options that create and plan share (struct mf_opt). */
#define MF_OPTS_LINK(rate_key, delay_key, switching_key) \
	{ "link-rate", 0, "RATE", rate_key, \
	  "links' rate, tc units (100mbit, 1gbit; default unlimited)" }, \
	{ "link-delay", 0, "TIME", delay_key, \
	  "links' delay (1ms, 250us, 40ns; default 0)" }, \
	{ "switching", 0, "MODE", switching_key, \
	  "store-and-forward (default) or cut-through" }

int mf_parse_rate(const char *s, u64 *bps, char *err, size_t errlen);
int mf_parse_time(const char *s, u64 *ns, char *err, size_t errlen);
/* loss in parts per 10^9 */
int mf_parse_loss(const char *s, u32 *ppb, char *err, size_t errlen);
/* MESHFABRIC_SWITCH_* of "store-and-forward" / "cut-through". */
int mf_parse_switching(const char *s, u32 *sw, char *err, size_t errlen);
/* The name of a MESHFABRIC_SWITCH_* ("cut-through", ...). */
const char *mf_switching_name(u32 sw);
/* "sync" (false) / "async" (true): broadcast steps. */
int mf_parse_mode(const char *s, bool *async, char *err, size_t errlen);
/* "100Mbit", "1.5Gbit", "unlimited" for 0 */
void mf_format_rate(u64 bps, char *buf, size_t len);
/* "1ms", "250us", "1.5ms", "0" */
void mf_format_time(u64 ns, char *buf, size_t len);
/* "1%", "0.001%" */
void mf_format_loss(u32 ppb, char *buf, size_t len);

#endif /* MF_UNITS_H */
