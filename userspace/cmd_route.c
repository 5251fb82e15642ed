// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_route.c - `meshfabric route`: the path a routing function takes from
 * one node to another (mf_route_path), its length and, on H_n, A1's
 * vector (m_x, m_y, m_z) of 003 (mf_hex_route_vector).  With a fabric
 * (`meshfabric route NAME FROM TO`, as `ip route get`), the path the
 * kernel's routing tables give (MESHFABRIC_IOC_ROUTE), printed alike.
 *
 * JSON: {"topology":{...},"routing":"a1","from":11,"to":5,"length":3,
 *        "path":[11,...,5], "m":{"x":0,"y":-2,"z":-1}}        (hex)
 *       ... "path":[0,1,...], "coords":[[0,0],[1,0],...]}      (mesh/torus)
 * With --down/--down-node (faults offline, core/faults.h) the path is a
 * shortest path of the surviving graph, the routing's own where it
 * survives; JSON adds "down_links" (links down) and "rerouted" (the
 * routing's own path crosses one), "m" stays A1's fault-free vector.
 */
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "print.h"
#include "route.h"
#include "dev.h"
#include "downopt.h"

enum { KEY_FROM = 1, KEY_TO, KEY_ROUTING, KEY_DOWN, KEY_DOWN_NODE };

static const struct mf_opt route_opts[] = {
	MF_OPTS_TOPOLOGY,
	{ "from", 0, "NODE", KEY_FROM, "first node: coordinates (3,4) or id; hex: address" },
	{ "to", 0, "NODE", KEY_TO, "last node, like --from" },
	{ "routing", 0, "ROUTING", KEY_ROUTING,
	  "dor, diagonal, cdo (mesh/torus), a1 (hex); default per topology" },
	MF_OPTS_DOWN(KEY_DOWN, KEY_DOWN_NODE),
	{ NULL, 0, NULL, 0, NULL }
};

/* What --down adds to the output (nlinks 0: no faults given). */
struct route_faults {
	u32 nlinks;		/* down links (each counted once) */
	bool rerouted;		/* the routing's own path crosses one */
};

static void print_route(struct mf_ctx *ctx, const struct mf_topo *t,
			u32 routing, const u32 *path, u32 len,
			const struct route_faults *rf)
{
	u32 i, d, c[MF_MAX_DIMS];
	struct mf_print p;
	s32 m[3];

	mf_print_start(&p, ctx->out, ctx->json);
	mf_print_obj_open(&p, NULL);
	mf_print_topology(&p, t, "topology  %s %s\n");
	mf_print_str(&p, MF_PRINT_ANY, "routing", "routing   %s\n",
		     mf_route_name(routing));
	mf_print_node(&p, MF_PRINT_ANY, "from", "from      %s", t, path[0]);
	mf_print_u64(&p, MF_PRINT_FP, NULL, " (node %llu)\n", path[0]);
	mf_print_node(&p, MF_PRINT_ANY, "to", "to        %s", t, path[len]);
	mf_print_u64(&p, MF_PRINT_FP, NULL, " (node %llu)\n", path[len]);
	mf_print_u64(&p, MF_PRINT_ANY, "length", "length    %llu\n", len);
	if (rf && rf->nlinks) {
		mf_print_u64(&p, MF_PRINT_ANY, "down_links", "down      %llu",
			     rf->nlinks);
		mf_print_fp(&p, " link%s\n", rf->nlinks == 1 ? "" : "s");
		mf_print_bool(&p, MF_PRINT_ANY, "rerouted", "rerouted  %s\n",
			      rf->rerouted);
	}
	mf_print_fp(&p, "path     ");
	mf_print_arr_open(&p, "path");
	for (i = 0; i <= len; i++)
		mf_print_node(&p, MF_PRINT_ANY, NULL, " %s", t, path[i]);
	mf_print_arr_close(&p);
	mf_print_fp(&p, "\n");
	if (t->kind == MESHFABRIC_KIND_HEX) {
		mf_hex_route_vector(t->dims[0], path[0], path[len], &m[0], &m[1],
				    &m[2]);
		mf_print_obj_open(&p, "m");
		mf_print_s64(&p, MF_PRINT_ANY, "x", "m_x       %lld\n", m[0]);
		mf_print_s64(&p, MF_PRINT_ANY, "y", "m_y       %lld\n", m[1]);
		mf_print_s64(&p, MF_PRINT_ANY, "z", "m_z       %lld\n", m[2]);
		mf_print_obj_close(&p);
	} else {
		mf_print_arr_open(&p, "coords");
		for (i = 0; i <= len; i++) {
			mf_topo_coords(t, path[i], c);
			mf_print_arr_open(&p, NULL);
			for (d = 0; d < t->ndims; d++)
				mf_print_u64(&p, MF_PRINT_JSON, NULL, NULL,
					     c[d]);
			mf_print_arr_close(&p);
		}
		mf_print_arr_close(&p);
	}
	mf_print_end(&p);
}

/* `route NAME FROM TO`: the kernel's path on fabric NAME. */
static int route_fabric(struct mf_ctx *ctx, const char *const *pos)
{
	const struct mf_cmd *cmd = &mf_cmd_route;
	struct meshfabric_info in;
	u32 src, dst, max, *path;
	struct mf_topo t;
	char err[256];
	int r;

	r = mf_dev_lookup_or_fail(cmd, pos[0], &in, &t);
	if (r)
		return r;
	if (mf_parse_node(&t, pos[1], &src, err, sizeof(err)) ||
	    mf_parse_node(&t, pos[2], &dst, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	/* around links down a path may exceed the diameter */
	max = (in.down_links ? t.nodes : mf_topo_diameter(&t)) + 1;
	path = calloc(max, sizeof(*path));
	if (!path)
		return mf_fail("out of memory");
	r = mf_dev_route(in.id, src, dst, path, max);
	if (r < 0) {
		free(path);
		return mf_fail("route on %s from %.40s to %.40s: %s", pos[0], pos[1],
			       pos[2], r == -EHOSTUNREACH ?
			       "no way: links down cut it off, or a node on the path is gone" :
			       mf_dev_strerror(-r));
	}
	print_route(ctx, &t, in.routing, path, (u32)r, NULL);
	free(path);
	return MF_EXIT_OK;
}

/* The path around the faults of f: -EHOSTUNREACH if there is none. */
static int route_faults(const struct mf_topo *t, u32 routing,
			const struct mf_faults *f, u32 src, u32 dst, u32 *path,
			struct route_faults *rf)
{
	struct mf_froute r;
	u32 *own;
	int r_own, len;

	rf->nlinks = f->n / 2;
	len = mf_froute_build(&r, t, routing, f);
	if (!len)
		len = mf_froute_path(&r, src, dst, path, t->nodes);
	mf_froute_free(&r);
	if (len < 0)
		return len;
	own = calloc(t->nodes, sizeof(*own));
	if (!own)
		return -ENOMEM;
	r_own = mf_route_path(t, routing, src, dst, own, t->nodes);
	rf->rerouted = r_own != len ||
		       memcmp(own, path, ((size_t)len + 1) * sizeof(*own));
	free(own);
	return len;
}

/* The command line of route, as read (route_opt). */
struct route_args {
	const char *from, *to, *pos[3];
	int npos;
	u32 routing;
	struct mf_down_args down;
};

static int route_opt(void *st, int key, const char *val, char *err,
		     size_t errlen)
{
	struct route_args *o = st;

	switch (key) {
	case MF_ARG_POSITIONAL:
		if (o->npos == 3)
			return mf_err(err, errlen, "unexpected argument '%.40s'",
				      val);
		o->pos[o->npos++] = val;
		return 0;
	case KEY_FROM:
		o->from = val;
		return 0;
	case KEY_TO:
		o->to = val;
		return 0;
	case KEY_ROUTING:
		return mf_parse_routing(val, &o->routing, err, errlen);
	}
	/* KEY_DOWN, KEY_DOWN_NODE */
	return mf_down_arg_add(&o->down, val, key == KEY_DOWN_NODE, err, errlen);
}

static int route_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_route;
	struct mf_topo_arg ta = { 0, NULL };
	struct route_args o = { .routing = MESHFABRIC_ROUTE_DEFAULT };
	const char *from, *to;
	u32 routing, src, dst, max, *path;
	struct route_faults rf = { 0, false };
	struct mf_faults f;
	struct mf_topo t;
	char err[256];
	int r;

	r = mf_args_parse(ctx, argc, argv, &ta, MF_ARGS_POSITIONAL, route_opt,
			  &o, NULL);
	if (r >= 0)
		return r;
	from = o.from;
	to = o.to;
	routing = o.routing;
	if (o.npos) {
		if (o.npos != 3 || from || to || ta.kind || o.down.n)
			return mf_usage(cmd, "a fabric takes NAME FROM TO and no "
					"topology, --from, --to or --down");
		return route_fabric(ctx, o.pos);
	}
	if (mf_topo_arg_build(&ta, &t, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (!from || !to)
		return mf_usage(cmd, "both --from and --to are needed");
	if (mf_parse_node(&t, from, &src, err, sizeof(err)) ||
	    mf_parse_node(&t, to, &dst, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (mf_routing_for(&t, routing, &routing, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (mf_down_args_build(&o.down, &t, &f, err, sizeof(err))) {
		mf_faults_free(&f);
		return mf_usage(cmd, "%s", err);
	}
	if (f.n) {
		path = calloc(t.nodes, sizeof(*path));
		r = path ? route_faults(&t, routing, &f, src, dst, path, &rf)
			 : -ENOMEM;
		mf_faults_free(&f);
		if (r < 0) {
			free(path);
			return mf_fail("routing %s from %.40s to %.40s: %s",
				       mf_route_name(routing), from, to,
				       r == -EHOSTUNREACH ?
				       "unreachable, no path avoids the down links" :
				       r == -E2BIG ? "the fault routing needs over "
				       "4 MiB (too many pairs rerouted or cut)" :
				       mf_strerror(r));
		}
		goto print;
	}

	/* shortest-path routings: the distance bounds the path */
	max = mf_topo_distance(&t, src, dst) + 1;
	for (;;) {
		path = calloc(max, sizeof(*path));
		if (!path)
			return mf_fail("out of memory");
		r = mf_route_path(&t, routing, src, dst, path, max);
		if (r != -ERANGE || max > mf_topo_diameter(&t))
			break;
		free(path);
		max = mf_topo_diameter(&t) + 1;
	}
	if (r < 0) {
		free(path);
		return mf_fail("routing %s from %.40s to %.40s: %s",
			       mf_route_name(routing), from, to, mf_strerror(r));
	}
print:
	print_route(ctx, &t, routing, path, (u32)r, &rf);
	free(path);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_route = {
	.name = "route",
	.summary = "show the path of a routing function between two nodes",
	.synopsis = "{--mesh AxBx...|--torus AxBx...|--hex N} --from NODE --to NODE\n"
		    "       [--routing ROUTING] [--down NODE:PORT]... [--down-node NODE]...\n"
		    "       [--json]\n"
		    "       NAME FROM TO [--json]",
	.description =
		"Prints the path hop by hop, its length and, on a hexagonal mesh, the\n"
		"vector (m_x, m_y, m_z) of algorithm A1.  With a fabric NAME, the path\n"
		"the kernel's routing tables give (as ip route get).  With --down and\n"
		"--down-node, the path around those faults: a shortest path of the\n"
		"surviving links, the routing's own where it survives; a pair the\n"
		"faults disconnect is an error.\n",
	.opts = route_opts,
	.run = route_main,
};
