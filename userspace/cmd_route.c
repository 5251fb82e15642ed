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
#include "json.h"
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

static void print_json(FILE *f, const struct mf_topo *t, u32 routing,
		       const u32 *path, u32 len, const struct route_faults *rf)
{
	u32 i, d, c[MF_MAX_DIMS];
	struct mf_json j;
	s32 m[3];

	mf_json_init(&j, f);
	mf_json_obj(&j);
	mf_json_topology(&j, t);
	mf_json_kv_str(&j, "routing", mf_route_name(routing));
	mf_json_kv_u64(&j, "from", path[0]);
	mf_json_kv_u64(&j, "to", path[len]);
	mf_json_kv_u64(&j, "length", len);
	if (rf && rf->nlinks) {
		mf_json_kv_u64(&j, "down_links", rf->nlinks);
		mf_json_kv_bool(&j, "rerouted", rf->rerouted);
	}
	mf_json_key(&j, "path");
	mf_json_arr(&j);
	for (i = 0; i <= len; i++)
		mf_json_u64(&j, path[i]);
	mf_json_close(&j);
	if (t->kind == MESHFABRIC_KIND_HEX) {
		mf_hex_route_vector(t->dims[0], path[0], path[len], &m[0], &m[1], &m[2]);
		mf_json_key(&j, "m");
		mf_json_obj(&j);
		mf_json_kv_s64(&j, "x", m[0]);
		mf_json_kv_s64(&j, "y", m[1]);
		mf_json_kv_s64(&j, "z", m[2]);
		mf_json_close(&j);
	} else {
		mf_json_key(&j, "coords");
		mf_json_arr(&j);
		for (i = 0; i <= len; i++) {
			mf_topo_coords(t, path[i], c);
			mf_json_arr(&j);
			for (d = 0; d < t->ndims; d++)
				mf_json_u64(&j, c[d]);
			mf_json_close(&j);
		}
		mf_json_close(&j);
	}
	mf_json_end(&j);
}

static void print_text(FILE *f, const struct mf_topo *t, u32 routing,
		       const u32 *path, u32 len, const struct route_faults *rf)
{
	char shape[96], a[64];
	s32 mx, my, mz;
	u32 i;

	mf_format_shape(t, shape, sizeof(shape));
	fprintf(f, "topology  %s %s\n", mf_topo_kind_name(t->kind), shape);
	fprintf(f, "routing   %s\n", mf_route_name(routing));
	mf_format_node(t, path[0], a, sizeof(a));
	fprintf(f, "from      %s (node %u)\n", a, path[0]);
	mf_format_node(t, path[len], a, sizeof(a));
	fprintf(f, "to        %s (node %u)\n", a, path[len]);
	fprintf(f, "length    %u\n", len);
	if (rf && rf->nlinks) {
		fprintf(f, "down      %u link%s\n", rf->nlinks,
			rf->nlinks == 1 ? "" : "s");
		fprintf(f, "rerouted  %s\n", rf->rerouted ? "yes" : "no");
	}
	fprintf(f, "path     ");
	for (i = 0; i <= len; i++) {
		mf_format_node(t, path[i], a, sizeof(a));
		fprintf(f, " %s", a);
	}
	fprintf(f, "\n");
	if (t->kind == MESHFABRIC_KIND_HEX) {
		mf_hex_route_vector(t->dims[0], path[0], path[len], &mx, &my, &mz);
		fprintf(f, "m_x       %d\nm_y       %d\nm_z       %d\n", mx, my, mz);
	}
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
	max = mf_topo_diameter(&t) + 1;
	path = calloc(max, sizeof(*path));
	if (!path)
		return mf_fail("out of memory");
	r = mf_dev_route(in.id, src, dst, path, max);
	if (r < 0) {
		free(path);
		return mf_fail("route on %s from %.40s to %.40s: %s", pos[0], pos[1],
			       pos[2], r == -EHOSTUNREACH ?
			       "a node on the path is gone" : mf_dev_strerror(-r));
	}
	if (ctx->json)
		print_json(ctx->out, &t, in.routing, path, (u32)r, NULL);
	else
		print_text(ctx->out, &t, in.routing, path, (u32)r, NULL);
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

static int route_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_route;
	struct mf_topo_arg ta = { 0, NULL };
	const char *from = NULL, *to = NULL, *val;
	u32 routing = MESHFABRIC_ROUTE_DEFAULT, src, dst, max, *path;
	struct route_faults rf = { 0, false };
	struct mf_down_args down = { 0 };
	struct mf_faults f;
	const char *pos[3];
	struct mf_topo t;
	struct mf_args a;
	int k, r, rc, npos = 0;
	char err[256];

	mf_args_init(&a, ctx, argc, argv);
	while ((k = mf_args_cmd(&a, &ta, MF_ARGS_POSITIONAL, &val, &rc)) != MF_ARG_END) {
		r = 0;
		switch (k) {
		case MF_ARG_STOP:
			return rc;
		case MF_ARG_POSITIONAL:
			if (npos == 3)
				return mf_usage(cmd, "unexpected argument '%.40s'", val);
			pos[npos++] = val;
			break;
		case KEY_FROM:
			from = val;
			break;
		case KEY_TO:
			to = val;
			break;
		case KEY_ROUTING:
			r = mf_parse_routing(val, &routing, err, sizeof(err));
			break;
		case KEY_DOWN:
		case KEY_DOWN_NODE:
			r = mf_down_arg_add(&down, val, k == KEY_DOWN_NODE, err,
					    sizeof(err));
			break;
		}
		if (r)
			return mf_usage(cmd, "%s", err);
	}
	if (npos) {
		if (npos != 3 || from || to || ta.kind || down.n)
			return mf_usage(cmd, "a fabric takes NAME FROM TO and no "
					"topology, --from, --to or --down");
		return route_fabric(ctx, pos);
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
	if (mf_down_args_build(&down, &t, &f, err, sizeof(err))) {
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
	if (ctx->json)
		print_json(ctx->out, &t, routing, path, (u32)r, &rf);
	else
		print_text(ctx->out, &t, routing, path, (u32)r, &rf);
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
