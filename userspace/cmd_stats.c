// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stats.c - `meshfabric stats NAME`: the per directed link counters
 * of a fabric (LINK_STATS ioctl): frames and bytes that crossed each link
 * since creation or the last --reset; --svg FILE draws the fabric with
 * every link coloured by its load (svg.h).
 *
 * Text: one line per used link (--all: every link), busiest first, then
 * a summary.  JSON: {"fabric","nlinks","used","packets","bytes",
 * "dropped","links":[{"node","port","peer","packets","bytes",
 * "drop_loss","drop_queue","busy_ns","state"}]} (used links: with
 * traffic or drops, and links down; or every link with --all).  Drops and busy time come from
 * LINK_GET (timed links), read just before.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "print.h"
#include "dev.h"
#include "svg.h"
#include "units.h"

enum { KEY_ALL = 1, KEY_RESET, KEY_SVG, KEY_TOP, KEY_SVG_BY };

static const struct mf_opt stats_opts[] = {
	{ "all", 'a', NULL, KEY_ALL, "list every link, used or not" },
	{ "reset", 0, NULL, KEY_RESET, "reset the counters after reading them (root)" },
	{ "svg", 0, "FILE", KEY_SVG, "draw the fabric, links coloured by load, to FILE" },
	{ "top", 0, "N", KEY_TOP, "text: list only the N busiest links" },
	{ "svg-by", 0, "WHAT", KEY_SVG_BY,
	  "colour --svg by packets (default) or busy (time spent serialising)" },
	{ NULL, 0, NULL, 0, NULL }
};

static int by_load(const void *pa, const void *pb)
{
	const struct meshfabric_link_entry *a = pa, *b = pb;

	if (a->packets != b->packets)
		return a->packets < b->packets ? 1 : -1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return a->port < b->port ? -1 : a->port > b->port;
}

/* The command line of stats, as read (stats_opt). */
struct stats_args {
	const char *name, *svg;
	bool all, reset, by_busy;
	u32 top;
};

static int stats_opt(void *st, int key, const char *val, char *err,
		     size_t errlen)
{
	static const char *const svg_by[] = { "packets", "busy" };
	struct stats_args *o = st;
	int by;

	switch (key) {
	case MF_ARG_POSITIONAL:
		return mf_arg_name(&o->name, val, err, errlen);
	case KEY_SVG:
		o->svg = val;
		return 0;
	case KEY_SVG_BY:
		by = mf_pick(val, svg_by, 2);
		if (by < 0)
			return mf_err(err, errlen,
				      "--svg-by '%.40s': packets or busy", val);
		o->by_busy = by;
		return 0;
	}
	/* KEY_TOP */
	if (mf_parse_u32(val, 1, U32_MAX, &o->top))
		return mf_err(err, errlen, "--top '%.40s': want a count >= 1",
			      val);
	return 0;
}

static int stats_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_stats;
	struct stats_args o = { 0 };
	unsigned int flags = 0;
	struct meshfabric_link_entry *e = NULL, *sorted = NULL;
	struct meshfabric_link_info *li = NULL;
	struct meshfabric_info in;
	struct mf_topo t;
	struct mf_print p;
	u64 packets = 0, bytes = 0, drops = 0;
	u32 n = 0, nli = 0, i, used = 0, shown = 0, exist = 0;
	char title[160], shape[96];
	FILE *f;
	int r;

	r = mf_args_parse(ctx, argc, argv, NULL, MF_ARGS_POSITIONAL, stats_opt,
			  &o, &flags);
	if (r >= 0)
		return r;
	o.all = flags & 1u << KEY_ALL;
	o.reset = flags & 1u << KEY_RESET;
	r = mf_dev_lookup_or_fail(cmd, o.name, &in, &t);
	if (r)
		return r;
	in.name[MESHFABRIC_NAME_LEN - 1] = 0;
	/* drops and busy time first: the reset below restarts them too */
	r = mf_dev_link_get(in.id, &li, &nli, NULL);
	if (!r)
		r = mf_dev_links(in.id, o.reset, &e, &n);
	if (!r && nli != n)
		r = -EAGAIN;
	if (r) {
		free(li);
		return mf_fail("link counters of %s: %s", (const char *)in.name,
			       mf_dev_strerror(-r));
	}
	/* sorted[] keeps LINK_STATS's entries: reserved0 indexes li[] */
	for (i = 0; i < n; i++)
		e[i].reserved = i;
	for (i = 0; i < n; i++) {
		if (e[i].peer != MESHFABRIC_NO_PEER)
			exist++;
		if (e[i].packets || li[i].drop_loss || li[i].drop_queue)
			used++;
		drops += li[i].drop_loss + li[i].drop_queue;
		packets += e[i].packets;
		bytes += e[i].bytes;
	}
	mf_format_shape(&t, shape, sizeof(shape));
	if (o.svg) {
		snprintf(title, sizeof(title), "%s: %s %s, link %s",
			 (const char *)in.name, mf_topo_kind_name(t.kind), shape,
			 o.by_busy ? "utilisation (time busy)" : "load (packets)");
		/* busy: colour by the microseconds each link serialised */
		for (i = 0; o.by_busy && i < n; i++)
			e[i].packets = li[i].busy_ns / 1000;
		f = fopen(o.svg, "w");
		if (!f) {
			r = mf_fail("%s: %s", o.svg, strerror(errno));
			goto out;
		}
		r = mf_svg_write(f, &t, title, e, n,
				 o.by_busy ? "us busy" : "packets");
		/* the text and JSON below list packets again */
		for (i = 0; o.by_busy && i < n; i++)
			e[i].packets = li[i].packets;
		if (fclose(f) && !r)
			r = -errno;
		if (r) {
			r = mf_fail("%s: %s", o.svg, strerror(-r));
			goto out;
		}
	}
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted) {
		r = mf_fail("out of memory");
		goto out;
	}
	memcpy(sorted, e, n * sizeof(*e));
	if (!ctx->json)
		qsort(sorted, n, sizeof(*sorted), by_load);
	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_obj_open(&p, NULL);
	/* text: the summary line comes after the links */
	mf_print_str(&p, MF_PRINT_JSON, "fabric", NULL, (const char *)in.name);
	mf_print_u64(&p, MF_PRINT_JSON, "nlinks", NULL, exist);
	mf_print_u64(&p, MF_PRINT_JSON, "used", NULL, used);
	mf_print_u64(&p, MF_PRINT_JSON, "packets", NULL, packets);
	mf_print_u64(&p, MF_PRINT_JSON, "bytes", NULL, bytes);
	mf_print_u64(&p, MF_PRINT_JSON, "dropped", NULL, drops);
	mf_print_fp(&p, "%-10s %-5s %-10s %12s %14s %10s %10s %10s %s\n",
		    "FROM", "PORT", "TO", "PACKETS", "BYTES", "LOST", "QDROPS",
		    "BUSY", "STATE");
	mf_print_arr_open(&p, "links");
	for (i = 0; i < n; i++) {
		const struct meshfabric_link_entry *l = &sorted[i];
		const struct meshfabric_link_info *x = &li[l->reserved];
		bool down = x->flags & MESHFABRIC_LINKF_DOWN;

		if (l->peer == MESHFABRIC_NO_PEER ||
		    (!o.all && !l->packets && !x->drop_loss && !x->drop_queue &&
		     !down))
			continue;
		if (!ctx->json && o.top && shown >= o.top)
			break;
		shown++;
		mf_print_obj_open(&p, NULL);
		mf_print_link_columns(&p, &t, l->node, l->port, l->peer);
		mf_print_u64(&p, MF_PRINT_ANY, "packets", "%12llu ", l->packets);
		mf_print_u64(&p, MF_PRINT_ANY, "bytes", "%14llu ", l->bytes);
		mf_print_u64(&p, MF_PRINT_ANY, "drop_loss", "%10llu ",
			     x->drop_loss);
		mf_print_u64(&p, MF_PRINT_ANY, "drop_queue", "%10llu ",
			     x->drop_queue);
		mf_print_time(&p, MF_PRINT_ANY, "busy_ns", "%10s ", x->busy_ns);
		mf_print_link_state(&p, "%s\n", down);
		mf_print_obj_close(&p);
	}
	mf_print_arr_close(&p);
	mf_print_fp(&p, "%s: %u of %u directed links used, %llu packets, %llu bytes, %llu dropped%s\n",
		    (const char *)in.name, used, exist,
		    (unsigned long long)packets, (unsigned long long)bytes,
		    (unsigned long long)drops, o.reset ? " (counters reset)" : "");
	if (o.svg)
		mf_print_str(&p, MF_PRINT_FP, NULL, "picture: %s\n", o.svg);
	mf_print_end(&p);
	r = MF_EXIT_OK;
out:
	free(sorted);
	free(e);
	free(li);
	return r;
}

const struct mf_cmd mf_cmd_stats = {
	"stats", "per-link counters of a fabric; --svg draws the link load",
	"NAME [--all] [--top N] [--reset] [--svg FILE]",
	"Frames and bytes that crossed each directed link (unicast hops and\n"
	"broadcast schedule paths) since creation or the last --reset.",
	stats_opts, stats_main,
};
