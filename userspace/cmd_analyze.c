// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_analyze.c - `meshfabric analyze`: the balance measure Delta(R) of
 * 004 (Definition 1) of a homogeneous routing function, and the sizes of
 * the subtrees S_i of the communication graph G_0 behind it
 * (mf_route_delta).
 *
 * JSON: {"topology":{...},"routing":"dor","nodes":25,"delta":D,
 *        "subtrees":[{"port":0,"direction":"x+","size":S},...]}
 */
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "print.h"
#include "route.h"

enum { KEY_ROUTING = 1 };

static const struct mf_opt analyze_opts[] = {
	MF_OPTS_TOPOLOGY,
	{ "routing", 0, "ROUTING", KEY_ROUTING,
	  "dor, diagonal, cdo (torus), a1 (hex); default per topology" },
	{ NULL, 0, NULL, 0, NULL }
};

/* --routing, the one option besides the topology's */
static int analyze_opt(void *routing, int key, const char *val, char *err,
		       size_t errlen)
{
	return mf_parse_routing(val, routing, err, errlen);
}

static int analyze_main(struct mf_ctx *ctx, int argc, char **argv)
{
	const struct mf_cmd *cmd = &mf_cmd_analyze;
	struct mf_topo_arg ta = { 0, NULL };
	u32 routing = MESHFABRIC_ROUTE_DEFAULT, p;
	u64 delta, size[MF_HEX_PORTS > 2 * MF_MAX_DIMS ? MF_HEX_PORTS : 2 * MF_MAX_DIMS];
	char err[256], shape[96], dir[16];
	struct mf_topo t;
	struct mf_print o;
	int r;

	r = mf_args_parse(ctx, argc, argv, &ta, 0, analyze_opt, &routing,
			  NULL);
	if (r >= 0)
		return r;
	if (mf_topo_arg_build(&ta, &t, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	if (mf_routing_for(&t, routing, &routing, err, sizeof(err)))
		return mf_usage(cmd, "%s", err);
	mf_format_shape(&t, shape, sizeof(shape));
	memset(size, 0, sizeof(size));
	r = mf_route_delta(&t, routing, &delta, size);
	if (r)
		return mf_fail("Delta of %s on %s %s: %s", mf_route_name(routing),
			       mf_topo_kind_name(t.kind), shape, mf_strerror(r));

	mf_print_start(&o, ctx->out, ctx->json);
	mf_print_obj_open(&o, NULL);
	mf_print_topology(&o, &t, "topology  %s %s\n");
	mf_print_str(&o, MF_PRINT_ANY, "routing", "routing   %s\n",
		     mf_route_name(routing));
	mf_print_u64(&o, MF_PRINT_ANY, "nodes", "nodes     %llu\n", t.nodes);
	mf_print_u64(&o, MF_PRINT_ANY, "delta", "delta     %llu\n", delta);
	mf_print_fp(&o, "subtrees of G_0 (nodes reached through each port of node 0):\n");
	mf_print_arr_open(&o, "subtrees");
	for (p = 0; p < t.nports; p++) {
		mf_print_obj_open(&o, NULL);
		mf_print_u64(&o, MF_PRINT_ANY, "port", "  port %llu ", p);
		mf_format_port(&t, p, dir, sizeof(dir));
		mf_print_str(&o, MF_PRINT_ANY, "direction", "%-5s ", dir);
		mf_print_u64(&o, MF_PRINT_ANY, "size", "%llu\n", size[p]);
		mf_print_obj_close(&o);
	}
	mf_print_end(&o);
	return MF_EXIT_OK;
}

const struct mf_cmd mf_cmd_analyze = {
	.name = "analyze",
	.summary = "balance Delta(R) of a routing function on a torus or H_n (offline)",
	.synopsis = "{--torus AxBx...|--hex N} [--routing ROUTING] [--json]",
	.description =
		"Delta(R) (Jerebic and Trobec, Definition 1) is the largest difference\n"
		"between the sizes of the subtrees of the communication graph G_0 rooted\n"
		"at the neighbours of node 0; the smaller, the better balanced the\n"
		"routing.\n",
	.opts = analyze_opts,
	.run = analyze_main,
};
