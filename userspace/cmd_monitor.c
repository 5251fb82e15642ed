// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_monitor.c - `meshfabric monitor NAME`: live per-link rates, as
 * `ip -s -s link` refreshed or bmon: every --interval seconds the link
 * counters (LINK_GET) are read again and the busiest links of the
 * interval are shown with packets/s, bits/s, drops/s (loss and full
 * queues) and utilisation (time spent serialising, on timed links), over
 * the kernel's clock of the two reads.  On a terminal the screen
 * is redrawn; otherwise each interval appends a block.  --count N stops
 * after N intervals; SIGINT/SIGTERM end it cleanly (exit 0).
 *
 * JSON (-j): one line per interval:
 *   {"fabric":"f0","interval":1.000,"links":[{"node","port","peer",
 *    "pps","bps","dps","util"}, ...]}  (busiest first, links with
 *    traffic or drops)
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "parse.h"
#include "print.h"
#include "dev.h"

enum { KEY_INTERVAL = 1, KEY_COUNT, KEY_TOP };

static const struct mf_opt monitor_opts[] = {
	{ "interval", 'i', "SECONDS", KEY_INTERVAL, "seconds between refreshes (default 1)" },
	{ "count", 'c', "N", KEY_COUNT, "stop after N intervals (default: until SIGINT)" },
	{ "top", 0, "N", KEY_TOP, "show the N busiest links (default 10)" },
	{ NULL, 0, NULL, 0, NULL }
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

struct rate {
	u32 link;
	double pps, bps, dps;	/* packets, bits, drops per second */
	double util;		/* busy time / interval (timed links) */
};

static int by_bps(const void *pa, const void *pb)
{
	const struct rate *a = pa, *b = pb;

	if (a->bps != b->bps)
		return a->bps < b->bps ? 1 : -1;
	return a->link < b->link ? -1 : a->link > b->link;
}

static void show(struct mf_ctx *ctx, const struct mf_topo *t, const char *name,
		 const struct meshfabric_link_info *e, const struct rate *r,
		 u32 nr, u32 top, double dt, bool tty)
{
	struct mf_print p;
	u32 i;

	if (tty)
		fputs("\033[H\033[J", ctx->out);	/* home, clear */
	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_obj_open(&p, NULL);
	mf_print_str(&p, MF_PRINT_ANY, "fabric", "fabric %s: ", name);
	mf_print_u64(&p, MF_PRINT_FP, NULL, "%llu busy links over ", nr);
	mf_print_float(&p, MF_PRINT_ANY, "interval", "%.3f", "%.2f s\n", dt);
	mf_print_fp(&p, "%-10s %-5s %-10s %12s %14s %10s %6s\n", "FROM", "PORT",
		    "TO", "PACKETS/S", "BITS/S", "DROPS/S", "UTIL");
	mf_print_arr_open(&p, "links");
	for (i = 0; i < nr && i < top; i++) {
		const struct meshfabric_link_info *l = &e[r[i].link];

		mf_print_obj_open(&p, NULL);
		mf_print_link_columns(&p, t, l->node, l->port, l->peer);
		/* whole numbers in JSON too */
		mf_print_float(&p, MF_PRINT_ANY, "pps", "%.0f", "%12.0f ",
			       r[i].pps);
		mf_print_float(&p, MF_PRINT_ANY, "bps", "%.0f", "%14.0f ",
			       r[i].bps);
		mf_print_float(&p, MF_PRINT_ANY, "dps", "%.0f", "%10.0f ",
			       r[i].dps);
		mf_print_float(&p, MF_PRINT_JSON, "util", "%.3f", NULL,
			       r[i].util);
		mf_print_float(&p, MF_PRINT_FP, NULL, NULL, "%5.1f%%\n",
			       r[i].util * 100);
		mf_print_obj_close(&p);
	}
	mf_print_end(&p);
	if (!tty && !ctx->json)
		fputc('\n', ctx->out);
	fflush(ctx->out);
}

/* The command line of monitor, as read (monitor_opt). */
struct monitor_args {
	const char *name;
	double interval;
	u32 count, top;
};

static int monitor_opt(void *st, int key, const char *val, char *err,
		       size_t errlen)
{
	struct monitor_args *o = st;
	char *end;

	switch (key) {
	case KEY_INTERVAL:
		o->interval = strtod(val, &end);
		if (*end || !(o->interval >= 0.05 && o->interval <= 3600))
			return mf_err(err, errlen,
				      "bad interval '%.40s': 0.05 to 3600 seconds",
				      val);
		return 0;
	case KEY_COUNT:
		if (mf_parse_u32(val, 1, U32_MAX, &o->count))
			return mf_err(err, errlen, "bad count '%.40s'", val);
		return 0;
	case KEY_TOP:
		if (mf_parse_u32(val, 1, U32_MAX, &o->top))
			return mf_err(err, errlen, "bad --top '%.40s'", val);
		return 0;
	}
	/* MF_ARG_POSITIONAL */
	return mf_arg_name(&o->name, val, err, errlen);
}

static int monitor_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_monitor;
	struct monitor_args o = { .interval = 1, .top = 10 };
	struct meshfabric_link_info *prev = NULL, *cur = NULL;
	struct meshfabric_link_get g0, g1;
	u32 np = 0, nc = 0, done = 0, nr, i;
	struct meshfabric_info in;
	double t0, t1;
	struct sigaction sa;
	struct rate *r = NULL;
	struct mf_topo t;
	int rc, res = MF_EXIT_OK;
	bool tty;

	rc = mf_args_parse(ctx, argc, argv, NULL, MF_ARGS_POSITIONAL,
			   monitor_opt, &o, NULL);
	if (rc >= 0)
		return rc;
	rc = mf_dev_lookup_or_fail(cmd, o.name, &in, &t);
	if (rc)
		return rc;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	tty = !ctx->json && isatty(fileno(ctx->out));
	rc = mf_dev_link_get(in.id, &prev, &np, &g0);
	while (!rc && !stop && (!o.count || done < o.count)) {
		struct timespec ts = { (time_t)o.interval,
				       (long)((o.interval - (time_t)o.interval) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
			;
		if (stop)
			break;
		rc = mf_dev_link_get(in.id, &cur, &nc, &g1);
		if (rc || nc != np)
			break;
		/* the kernel's clock of each read: no scheduling delay counts */
		t0 = g0.now_ns / 1e9;
		t1 = g1.now_ns / 1e9;
		free(r);
		r = calloc(nc ? nc : 1, sizeof(*r));
		if (!r) {
			rc = -ENOMEM;
			break;
		}
		for (i = 0, nr = 0; i < nc; i++) {
			u64 dp = cur[i].packets - prev[i].packets;
			u64 db = cur[i].bytes - prev[i].bytes;
			u64 dd = cur[i].drop_loss + cur[i].drop_queue -
				 prev[i].drop_loss - prev[i].drop_queue;

			if (cur[i].peer == MESHFABRIC_NO_PEER || (!dp && !dd))
				continue;
			r[nr].link = i;
			r[nr].pps = dp / (t1 - t0);
			r[nr].bps = db * 8.0 / (t1 - t0);
			r[nr].dps = dd / (t1 - t0);
			r[nr].util = (cur[i].busy_ns - prev[i].busy_ns) /
				     (double)(g1.now_ns - g0.now_ns);
			nr++;
		}
		qsort(r, nr, sizeof(*r), by_bps);
		show(ctx, &t, (const char *)in.name, cur, r, nr, o.top, t1 - t0, tty);
		free(prev);
		prev = cur;
		cur = NULL;
		g0 = g1;
		done++;
	}
	if (rc)
		res = mf_fail("fabric %s: reading the link counters: %s",
			      (const char *)in.name, mf_dev_strerror(-rc));
	free(r);
	free(prev);
	free(cur);
	return res;
}

const struct mf_cmd mf_cmd_monitor = {
	"monitor", "live per-link rates of a fabric, busiest first",
	"NAME [--interval SECONDS] [--count N] [--top N]",
	"Reads the link counters every interval and shows the busiest links\n"
	"with packets and bits per second; -j prints one JSON line per\n"
	"interval.  Ends on SIGINT or after --count intervals.",
	monitor_opts, monitor_main,
};
