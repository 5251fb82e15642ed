// SPDX-License-Identifier: GPL-2.0
/*
 * test_cli_parse.c - the tool's parsers, option scanner and JSON writer.
 * Expected values come from the documented formats: the node id formula
 * of topo.h (id = x0 + n0 * (x1 + n1 * ...)), H_n's node count
 * 3n^2 - 3n + 1 (003), and RFC 8259 string escaping.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf_test.h"
#include "cli.h"
#include "parse.h"
#include "json.h"

static char err[256];

static void test_dims_ok(void)
{
	u32 d[MF_MAX_DIMS], n = 0;

	EXPECT_EQ(mf_parse_dims("8x8", d, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 2);
	EXPECT_EQ(d[0], 8);
	EXPECT_EQ(d[1], 8);
	EXPECT_EQ(mf_parse_dims("2x3x4x5x6x7x2x2", d, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 8);
	EXPECT_EQ(d[5], 7);
	EXPECT_EQ(mf_parse_dims("101", d, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(d[0], 101);
	EXPECT_EQ(mf_parse_dims("6X5", d, &n, err, sizeof(err)), 0);
	EXPECT_EQ(d[1], 5);
}

static void test_dims_bad(void)
{
	static const char *const bad[] = {
		"", "8x", "x8", "0x4", "1x4", "8x8x", "2x2x2x2x2x2x2x2x2", "a",
		"8,8", "-4x4", "+4x4", "4 x4", "99999999999999999999999x2",
		"9000x9000", "67108865", "8xx8",
	};
	u32 d[MF_MAX_DIMS], n, i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_MSG(mf_parse_dims(bad[i], d, &n, err, sizeof(err)) == -1,
			   "'%s' accepted", bad[i]);
		EXPECT_MSG(err[0] && !strchr(err, '\n'), "'%s': no one-line reason",
			   bad[i]);
	}
	/* the limit itself is accepted: 2^26 = 8192 x 8192 */
	EXPECT_EQ(mf_parse_dims("8192x8192", d, &n, err, sizeof(err)), 0);
	EXPECT_EQ(mf_parse_dims("8192x8193", d, &n, err, sizeof(err)), -1);
}

static void test_topo(void)
{
	struct mf_topo t;

	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_TORUS, "5x5", &t, err, sizeof(err)), 0);
	EXPECT_EQ(t.kind, MESHFABRIC_KIND_TORUS);
	EXPECT_EQ(t.nodes, 25);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "4", &t, err, sizeof(err)), 0);
	EXPECT_EQ(t.nodes, 3 * 16 - 3 * 4 + 1);
	EXPECT_EQ(t.dims[0], 4);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "1", &t, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "4x4", &t, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "", &t, err, sizeof(err)), -1);
	/* 3n^2-3n+1 <= 2^26 holds up to n = 4730 */
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "4730", &t, err, sizeof(err)), 0);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "4731", &t, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "99999999999", &t, err,
				sizeof(err)), -1);
}

static void test_topo_arg(void)
{
	struct mf_topo_arg ta = { 0, NULL };
	struct mf_topo t;

	EXPECT_EQ(mf_topo_arg_build(&ta, &t, err, sizeof(err)), -1);
	EXPECT_EQ(mf_topo_arg_set(&ta, MF_KEY_MESH, "4x4", err, sizeof(err)), 0);
	EXPECT_EQ(mf_topo_arg_set(&ta, MF_KEY_TORUS, "4x4", err, sizeof(err)), -1);
	EXPECT_EQ(mf_topo_arg_build(&ta, &t, err, sizeof(err)), 0);
	EXPECT_EQ(t.kind, MESHFABRIC_KIND_MESH);
}

static void test_nodes(void)
{
	struct mf_topo t;
	u32 id = 12345;
	char buf[64];

	mf_parse_topo(MESHFABRIC_KIND_MESH, "8x8", &t, err, sizeof(err));
	EXPECT_EQ(mf_parse_node(&t, "3,4", &id, err, sizeof(err)), 0);
	EXPECT_EQ(id, 3 + 8 * 4);
	EXPECT_EQ(mf_parse_node(&t, "35", &id, err, sizeof(err)), 0);
	EXPECT_EQ(id, 35);
	EXPECT_EQ(mf_parse_node(&t, "63", &id, err, sizeof(err)), 0);
	EXPECT_EQ(mf_parse_node(&t, "64", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, "8,0", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, "1,2,3", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, "1,", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, ",1", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, "", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, "-1", &id, err, sizeof(err)), -1);
	mf_format_node(&t, 3 + 8 * 4, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "3,4"));
	mf_format_shape(&t, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "8x8"));

	mf_parse_topo(MESHFABRIC_KIND_TORUS, "3x4x5", &t, err, sizeof(err));
	EXPECT_EQ(mf_parse_node(&t, "2,3,4", &id, err, sizeof(err)), 0);
	EXPECT_EQ(id, 2 + 3 * (3 + 4 * 4));
	mf_format_node(&t, id, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "2,3,4"));

	mf_parse_topo(MESHFABRIC_KIND_HEX, "4", &t, err, sizeof(err));
	EXPECT_EQ(mf_parse_node(&t, "11", &id, err, sizeof(err)), 0);
	EXPECT_EQ(id, 11);
	EXPECT_EQ(mf_parse_node(&t, "36", &id, err, sizeof(err)), 0);
	EXPECT_EQ(mf_parse_node(&t, "37", &id, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_node(&t, "1,1", &id, err, sizeof(err)), -1);
	mf_format_shape(&t, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "H_4"));
	/* hex ports, topo.h: +1, -1, +(3n-1), -(3n-1), +(3n-2), -(3n-2) */
	mf_format_port(&t, 3, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "-11"));
	mf_format_port(&t, 4, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "+10"));
}

static void test_names(void)
{
	u32 v = 99;

	EXPECT_EQ(mf_parse_algo("auto", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, MESHFABRIC_ALGO_AUTO);
	EXPECT_EQ(mf_parse_algo("nope", &v, err, sizeof(err)), -1);
	EXPECT(strstr(err, "auto") != NULL);
	EXPECT_EQ(mf_parse_routing("dor", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, MESHFABRIC_ROUTE_DOR);
	EXPECT_EQ(mf_parse_routing("a1", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, MESHFABRIC_ROUTE_A1);
	EXPECT_EQ(mf_parse_routing("DOR", &v, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_model("all-port", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, MESHFABRIC_MODEL_ALL_PORT);
	EXPECT_EQ(mf_parse_model("one-port", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, MESHFABRIC_MODEL_ONE_PORT);
	EXPECT_EQ(mf_parse_model("two-port", &v, err, sizeof(err)), -1);
	EXPECT_EQ(mf_parse_u32("4294967295", 0, U32_MAX, &v), 0);
	EXPECT_EQ(v, 4294967295U);
	EXPECT_EQ(mf_parse_u32("4294967296", 0, U32_MAX, &v), -1);
	EXPECT_EQ(mf_parse_u32("7", 8, 9, &v), -1);
}

/* Ports by name: the topology's (topo.h: mesh/torus port 2d is
 * dimension d +, 2d + 1 its -; hex 0..5) and the extra ports of external
 * ports, e0..e15 = nports .. nports + MESHFABRIC_PORTS_MAX - 1 (uapi);
 * every port's printed name parses back to it.
 */
static void test_xports(void)
{
	static const char *const bad[] = {
		"e", "e16", "e-1", "e+1", "E0", "e0x", "x", "e 1", "",
	};
	struct mf_topo t;
	char buf[16];
	u32 p, v, i;

	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_TORUS, "3x3", &t, err, sizeof(err)), 0);
	EXPECT_EQ(mf_parse_xport(&t, "x-", &v), 0);
	EXPECT_EQ(v, 1);
	EXPECT_EQ(mf_parse_xport(&t, "y+", &v), 0);
	EXPECT_EQ(v, 2);
	EXPECT_EQ(mf_parse_xport(&t, "e0", &v), 0);
	EXPECT_EQ(v, 4);
	EXPECT_EQ(mf_parse_xport(&t, "e15", &v), 0);
	EXPECT_EQ(v, 4 + 15);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_MSG(mf_parse_xport(&t, bad[i], &v) == -1, "'%s' accepted",
			   bad[i]);
	/* the topology's own parser takes no extra port */
	EXPECT_EQ(mf_parse_port(&t, "e0", &v), -1);
	EXPECT_EQ(mf_parse_port(&t, "4", &v), -1);
	mf_format_port(&t, 4, buf, sizeof(buf));
	EXPECT_MSG(!strcmp(buf, "e0"), "port 4 printed %s", buf);
	mf_format_port(&t, 3, buf, sizeof(buf));
	EXPECT_MSG(!strcmp(buf, "y-"), "port 3 printed %s", buf);
	EXPECT_EQ(mf_parse_topo(MESHFABRIC_KIND_HEX, "3", &t, err, sizeof(err)), 0);
	EXPECT_EQ(mf_parse_xport(&t, "e1", &v), 0);
	EXPECT_EQ(v, 6 + 1);
	for (p = 0; p < t.nports + MESHFABRIC_PORTS_MAX; p++) {
		mf_format_port(&t, p, buf, sizeof(buf));
		EXPECT_MSG(!mf_parse_xport(&t, buf, &v) && v == p,
			   "hex port %u printed '%s' parses to %u", p, buf, v);
	}
}

static char *json_of(void (*fn)(struct mf_json *))
{
	struct mf_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	mf_json_init(&j, f);
	fn(&j);
	fclose(f);
	return buf;
}

static void doc_nested(struct mf_json *j)
{
	mf_json_obj(j);
	mf_json_kv_str(j, "a", "x");
	mf_json_key(j, "b");
	mf_json_arr(j);
	mf_json_u64(j, 0);
	mf_json_s64(j, -9223372036854775807LL - 1);
	mf_json_u64(j, 18446744073709551615ULL);
	mf_json_arr(j);
	mf_json_close(j);
	mf_json_obj(j);
	mf_json_close(j);
	mf_json_bool(j, true);
	mf_json_null(j);
	mf_json_close(j);
	mf_json_kv_bool(j, "c", false);
	mf_json_end(j);
}

static void doc_escape(struct mf_json *j)
{
	mf_json_arr(j);
	mf_json_str(j, "q\"b\\s/n\nt\tc\x01\x1f\x7f\xc3\xa9");
	mf_json_end(j);
}

static void test_json(void)
{
	char *s = json_of(doc_nested);

	EXPECT(s && !strcmp(s, "{\"a\":\"x\",\"b\":[0,-9223372036854775808,"
			    "18446744073709551615,[],{},true,null],\"c\":false}\n"));
	free(s);
	/* RFC 8259 section 7: quote, backslash and controls escaped, UTF-8 kept */
	s = json_of(doc_escape);
	EXPECT(s && !strcmp(s, "[\"q\\\"b\\\\s/n\\nt\\tc\\u0001\\u001f\\u007f\xc3\xa9\"]\n"));
	free(s);
}

/* The option scanner, on a command with one flag and one valued option. */
static const struct mf_opt t_opts[] = {
	{ "flag", 'f', NULL, 1, "a flag" },
	{ "val", 'v', "V", 2, "a value" },
	{ NULL, 0, NULL, 0, NULL }
};

static const struct mf_cmd t_cmd = { "t", "test", "", NULL, t_opts, NULL };

static int scan(int argc, char **argv, int *keys, const char **vals, int max)
{
	struct mf_ctx ctx = { false, NULL, &t_cmd };
	struct mf_args a;
	int n = 0, k;
	FILE *saved = stderr;

	stderr = fopen("/dev/null", "w");
	mf_args_init(&a, &ctx, argc, argv);
	do {
		k = mf_args_next(&a, &vals[n]);
		keys[n++] = k;
	} while (k != MF_ARG_END && k != MF_ARG_ERROR && k != MF_ARG_REST && n < max);
	fclose(stderr);
	stderr = saved;
	if (ctx.json)
		keys[n++] = 'J';
	return n;
}

static void test_args(void)
{
	char *v1[] = { "t", "--val", "3", "-j", "--val=4", "-v5", "-v", "6", "-f",
		       "pos", "--", "x", NULL };
	char *v2[] = { "t", "--bogus", NULL };
	char *v3[] = { "t", "--val", NULL };
	char *v4[] = { "t", "--flag=1", NULL };
	char *v5[] = { "t", "-fj", NULL };
	char *v6[] = { "t", "--help", "--val", NULL };
	const char *vals[16];
	int keys[16], n;

	n = scan(12, v1, keys, vals, 16);
	EXPECT_EQ(n, 8);
	EXPECT_EQ(keys[0], 2);
	EXPECT(vals[0] && !strcmp(vals[0], "3"));
	EXPECT_EQ(keys[1], 2);
	EXPECT(vals[1] && !strcmp(vals[1], "4"));
	EXPECT(vals[2] && !strcmp(vals[2], "5"));
	EXPECT(vals[3] && !strcmp(vals[3], "6"));
	EXPECT_EQ(keys[4], 1);
	EXPECT_EQ(keys[5], MF_ARG_POSITIONAL);
	EXPECT(vals[5] && !strcmp(vals[5], "pos"));
	EXPECT_EQ(keys[6], MF_ARG_REST);
	EXPECT_EQ(keys[7], 'J');
	n = scan(2, v2, keys, vals, 16);
	EXPECT_EQ(keys[n - 1], MF_ARG_ERROR);
	n = scan(2, v3, keys, vals, 16);
	EXPECT_EQ(keys[n - 1], MF_ARG_ERROR);
	n = scan(2, v4, keys, vals, 16);
	EXPECT_EQ(keys[n - 1], MF_ARG_ERROR);
	n = scan(2, v5, keys, vals, 16);
	EXPECT_EQ(keys[n - 1], MF_ARG_ERROR);
	scan(3, v6, keys, vals, 16);
	EXPECT_EQ(keys[0], MF_ARG_HELP);
}

int main(void)
{
	RUN(test_dims_ok);
	RUN(test_dims_bad);
	RUN(test_topo);
	RUN(test_topo_arg);
	RUN(test_nodes);
	RUN(test_names);
	RUN(test_xports);
	RUN(test_json);
	RUN(test_args);
	return mf_test_done();
}
