// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - tc-like rates, times and loss percentages (units.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/meshfabric.h>

#include "units.h"
#include "parse.h"

struct mf_unit {
	const char *name;
	double scale;
};

/* A number and a unit of table; -1 if s is neither. */
static int mf_parse_scaled(const char *s, const struct mf_unit *table,
			   double bare, double *out)
{
	char *end;
	double v;

	if (!*s || *s == '-' || *s == '+' || strchr(s, ' '))
		return -1;
	v = strtod(s, &end);
	if (end == s || !(v >= 0 && v < 1e30))	/* NaN, inf, < 0 */
		return -1;
	if (!*end) {
		*out = v * bare;
		return 0;
	}
	for (; table->name; table++) {
		if (!strcasecmp(end, table->name)) {
			*out = v * table->scale;
			return 0;
		}
	}
	return -1;
}

static const struct mf_unit mf_rate_units[] = {
	{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 },
	{ "tbit", 1e12 }, { "kibit", 1024.0 }, { "mibit", 1048576.0 },
	{ "gibit", 1073741824.0 }, { "tibit", 1099511627776.0 },
	{ "bps", 8 }, { "kbps", 8e3 }, { "mbps", 8e6 }, { "gbps", 8e9 },
	{ "tbps", 8e12 }, { NULL, 0 }
};

int mf_parse_rate(const char *s, u64 *bps, char *err, size_t errlen)
{
	double v;

	if (mf_parse_scaled(s, mf_rate_units, 1, &v) ||
	    v > (double)MESHFABRIC_RATE_MAX || (v > 0 && v < 1))
		return mf_err(err, errlen,
			      "rate '%.40s': want a number of bit, kbit, mbit, gbit (or bps, kbps, mbps: bytes) up to 1000tbit, 0 = unlimited",
			      s);
	*bps = (u64)(v + 0.5);
	return 0;
}

static const struct mf_unit mf_time_units[] = {
	{ "s", 1e9 }, { "sec", 1e9 }, { "secs", 1e9 },
	{ "ms", 1e6 }, { "msec", 1e6 }, { "msecs", 1e6 },
	{ "us", 1e3 }, { "usec", 1e3 }, { "usecs", 1e3 },
	{ "ns", 1 }, { "nsec", 1 }, { "nsecs", 1 }, { NULL, 0 }
};

int mf_parse_time(const char *s, u64 *ns, char *err, size_t errlen)
{
	double v;

	if (mf_parse_scaled(s, mf_time_units, 1e3, &v) ||
	    v > (double)MESHFABRIC_DELAY_MAX || v != (double)(u64)v)
		return mf_err(err, errlen,
			      "time '%.40s': want a whole number of ns up to 10s, with s, ms, us or ns (bare: us)",
			      s);
	*ns = (u64)v;
	return 0;
}

int mf_parse_loss(const char *s, u32 *ppb, char *err, size_t errlen)
{
	static const struct mf_unit pct[] = { { "%", 1 }, { NULL, 0 } };
	double v;

	if (mf_parse_scaled(s, pct, 1, &v) || v > 100)
		return mf_err(err, errlen, "loss '%.40s': want a percentage 0..100%%",
			      s);
	*ppb = (u32)(v * 1e7 + 0.5);
	return 0;
}

static const char *const switching_names[] = {
	[MESHFABRIC_SWITCH_STORE_FORWARD] = "store-and-forward",
	[MESHFABRIC_SWITCH_CUT_THROUGH] = "cut-through",
};

int mf_parse_switching(const char *s, u32 *sw, char *err, size_t errlen)
{
	int i = mf_pick(s, switching_names,
			sizeof(switching_names) / sizeof(switching_names[0]));

	if (i < 0)
		return mf_err(err, errlen,
			      "switching '%.40s': want store-and-forward or cut-through",
			      s);
	*sw = (u32)i;
	return 0;
}

int mf_parse_mode(const char *s, bool *async, char *err, size_t errlen)
{
	static const char *const names[] = { "sync", "async" };
	int i = mf_pick(s, names, 2);

	if (i < 0)
		return mf_err(err, errlen, "mode '%.40s': want sync or async",
			      s);
	*async = i;
	return 0;
}

/* v with up to prec decimals, trailing zeros dropped, then unit. */
static void mf_format_prec(double v, int prec, const char *unit, char *buf,
			   size_t len)
{
	char num[48], *p;

	snprintf(num, sizeof(num), "%.*f", prec, v);
	p = num + strlen(num) - 1;
	while (*p == '0')
		*p-- = 0;
	if (*p == '.')
		*p = 0;
	snprintf(buf, len, "%s%s", num, unit);
}

static void mf_format_scaled(double v, const char *unit, char *buf, size_t len)
{
	mf_format_prec(v, 3, unit, buf, len);
}

/* A scale of a unit: values from one of it up are written in it. */
struct unit_scale {
	u64 one;
	const char *name;
};

/* v in the largest unit of u (largest first, the last of one 1) it
 * reaches; zero as written.
 */
static void mf_format_units(u64 v, const struct unit_scale *u,
			    const char *zero, char *buf, size_t len)
{
	if (!v) {
		snprintf(buf, len, "%s", zero);
		return;
	}
	while (v < u->one)
		u++;
	mf_format_scaled(v / (double)u->one, u->name, buf, len);
}

void mf_format_rate(u64 bps, char *buf, size_t len)
{
	static const struct unit_scale rate[] = {
		{ 1000000000000ULL, "Tbit" }, { 1000000000ULL, "Gbit" },
		{ 1000000ULL, "Mbit" }, { 1000ULL, "Kbit" }, { 1, "bit" },
	};

	mf_format_units(bps, rate, "unlimited", buf, len);
}

void mf_format_time(u64 ns, char *buf, size_t len)
{
	static const struct unit_scale time[] = {
		{ 1000000000ULL, "s" }, { 1000000ULL, "ms" }, { 1000ULL, "us" },
		{ 1, "ns" },
	};

	mf_format_units(ns, time, "0", buf, len);
}

/* The switching mode's name, as mf_parse_switching reads it. */
const char *mf_switching_name(u32 sw)
{
	return switching_names[sw == MESHFABRIC_SWITCH_CUT_THROUGH ? sw :
			       MESHFABRIC_SWITCH_STORE_FORWARD];
}

void mf_format_loss(u32 ppb, char *buf, size_t len)
{
	mf_format_prec(ppb / 1e7, 7, "%", buf, len);
}
