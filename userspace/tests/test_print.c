// SPDX-License-Identifier: GPL-2.0
/*
 * test_print.c - the print layer (print.h): one call per field gives the
 * text through its format and the JSON of RFC 8259; the node MAC layout
 * of the uapi header (02:6d:FF:NN:NN:NN) and namespace names of netns.h.
 * Expected strings are written out by hand from those documents.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf_test.h"
#include "print.h"
#include "parse.h"
#include "netns.h"

/* The fields of a small record, printed in mode json; the output. */
static char *record(bool json)
{
	struct mf_print p;
	struct mf_topo t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	u32 dims[2] = { 3, 4 };

	if (!f || mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, dims))
		return NULL;
	mf_print_start(&p, f, json);
	mf_print_obj_open(&p, NULL);
	mf_print_str(&p, MF_PRINT_ANY, "name", "fabric %s", "a\"b");
	mf_print_u64(&p, MF_PRINT_ANY, "id", " (id %llu)\n", 7);
	mf_print_topology(&p, &t, "%s %s\n");
	mf_print_u64(&p, MF_PRINT_JSON, "hidden", "never %llu", 1);
	mf_print_fp(&p, "text only %d\n", 5);
	mf_print_arr_open(&p, "addresses");
	mf_print_str(&p, MF_PRINT_ANY, NULL, "addr %s\n", "fd00::1/64");
	mf_print_str(&p, MF_PRINT_ANY, NULL, "addr %s\n", "10.0.0.1/8");
	mf_print_arr_close(&p);
	mf_print_null(&p, MF_PRINT_ANY, "ipv4_prefix", "none\n");
	mf_print_double(&p, MF_PRINT_ANY, "seconds", "%.2f s\n", 0.5);
	mf_print_obj_close(&p);
	mf_print_end(&p);
	fclose(f);
	return buf;
}

static void test_text_and_json(void)
{
	char *text = record(false), *json = record(true);

	EXPECT(text && json);
	if (!text || !json)
		goto out;
	EXPECT_MSG(!strcmp(text, "fabric a\"b (id 7)\nmesh 3x4\ntext only 5\n"
			   "addr fd00::1/64\naddr 10.0.0.1/8\nnone\n0.50 s\n"),
		   "text: %s", text);
	EXPECT_MSG(!strcmp(json, "{\"name\":\"a\\\"b\",\"id\":7,\"topology\":"
			   "{\"kind\":\"mesh\",\"dims\":[3,4]},\"hidden\":1,"
			   "\"addresses\":[\"fd00::1/64\",\"10.0.0.1/8\"],"
			   "\"ipv4_prefix\":null,\"seconds\":0.5}\n"),
		   "json: %s", json);
out:
	free(text);
	free(json);
}

/* A value the caller prints itself after mf_json_key (cmd_monitor.c's
 * "interval") is followed by a comma like any other. */
static void test_raw_value(void)
{
	struct mf_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	EXPECT(f);
	if (!f)
		return;
	mf_json_init(&j, f);
	mf_json_arr(&j);
	mf_json_obj(&j);
	mf_json_key(&j, "interval");
	fprintf(f, "%.3f", 2.0);
	mf_json_kv_u64(&j, "n", 1);
	mf_json_key(&j, "last");
	fprintf(f, "7");
	mf_json_close(&j);
	mf_json_u64(&j, 8);
	mf_json_end(&j);
	fclose(f);
	EXPECT_MSG(!strcmp(buf, "[{\"interval\":2.000,\"n\":1,"
			   "\"last\":7},8]\n"), "json: %s", buf);
	free(buf);
}

static void test_mac_and_names(void)
{
	struct mf_topo t;
	char buf[64];
	u32 dims[2] = { 7, 7 }, hex[1] = { 4 };

	mf_format_mac(5, 0x012345, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "02:6d:05:01:23:45"));
	/* the fabric id's low byte */
	mf_format_mac(258, 31, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "02:6d:02:00:00:1f"));
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	mf_netns_name(&t, "f0", 31, buf, sizeof(buf));	/* 31 = 3 + 7 * 4 */
	EXPECT(!strcmp(buf, "f0-3-4"));
	mf_format_node(&t, 31, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "3,4"));
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, hex), 0);
	mf_netns_name(&t, "h", 11, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "h-11"));
}

int main(void)
{
	RUN(test_text_and_json);
	RUN(test_raw_value);
	RUN(test_mac_and_names);
	return mf_test_done();
}
