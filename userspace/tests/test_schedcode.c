// SPDX-License-Identifier: GPL-2.0
/*
 * test_schedcode.c - the compact schedule encoding (core/schedcode.h, the
 * uapi's SCHED_LOAD format) and plan's JSON read back (schedfile.h,
 * jread.h).  References: the uapi's byte layout written out by hand
 * (nsteps + 2 sends + TCD bytes while every number is below 128; LEB128
 * of 200 = c8 01), the schedules themselves (a round trip gives every
 * send back), and the JSON text of RFC 8259 written by the test.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mf_test.h"
#include "algo.h"
#include "schedcode.h"
#include "schedfile.h"
#include "jread.h"
#include "parse.h"

/* The shapes, as the tool's options write them: kind, then sizes. */
static const char *const shapes[][2] = {
	{ "mesh", "3x3" }, { "mesh", "4x5" }, { "torus", "5x5" },
	{ "torus", "2x4" }, { "mesh", "2x3x2" }, { "torus", "7" },
	{ "hex", "3" }, { "mesh", "8x8" },
};

static bool same_sched(const struct mf_sched *a, const struct mf_sched *b)
{
	u32 i;

	if (a->nsteps != b->nsteps || a->nsends != b->nsends ||
	    a->source != b->source || a->model != b->model)
		return false;
	for (i = 0; i <= a->nsteps; i++)
		if (a->step[i] != b->step[i])
			return false;
	for (i = 0; i < a->nsends; i++) {
		const struct mf_send *x = &a->send[i], *y = &b->send[i];

		if (x->src != y->src || x->dst != y->dst || x->hops != y->hops ||
		    memcmp(&a->path[x->path], &b->path[y->path],
			   (x->hops + 1) * sizeof(u32)))
			return false;
	}
	return true;
}

/* Every schedule of every algorithm on the shapes, from 2 sources. */
static void for_each_sched(void (*fn)(const struct mf_topo *,
				      const struct mf_sched *))
{
	struct mf_plan_result res;
	struct mf_sched s;
	struct mf_topo t;
	u32 i, a, src;

	char err[128];
	u32 kind;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		for (kind = MESHFABRIC_KIND_MESH; kind < MESHFABRIC_KIND_HEX; kind++)
			if (!strcmp(shapes[i][0], mf_topo_kind_name(kind)))
				break;
		EXPECT(!mf_parse_topo(kind, shapes[i][1], &t, err, sizeof(err)));
		for (a = 0; mf_algos[a]; a++)
			for (src = 0; src < t.nodes; src += t.nodes / 2 + 1) {
				if (!mf_plan_checked(&t, mf_algos[a]->id, 0, src,
						     MESHFABRIC_ROUTE_DEFAULT,
						     &s, &res))
					fn(&t, &s);
				mf_sched_free(&s);
			}
	}
}

static u32 roundtrips;

static void roundtrip(const struct mf_topo *t, const struct mf_sched *s)
{
	size_t len = mf_sched_code_len(t, s);
	u64 tcd = 0;
	struct mf_sched d;
	char err[128] = "";
	u8 *code = malloc(len + 1);
	u32 i;
	s64 n;

	for (i = 0; i < s->nsends; i++)
		tcd += s->send[i].hops;
	/* every count, node and hop count is below 128: one byte each */
	EXPECT_EQ(len, s->nsteps + 2 * s->nsends + tcd);
	n = mf_sched_encode(t, s, code, len);
	EXPECT_EQ(n, (s64)len);
	EXPECT_EQ(mf_sched_encode(t, s, code, len - 1), -ENOSPC);
	EXPECT_EQ(mf_sched_decode(t, s->model, s->source, s->nsteps,
				  s->nsends, code, len, &d, err, sizeof(err)), 0);
	EXPECT_MSG(same_sched(s, &d), "round trip differs: %s", err);
	mf_sched_free(&d);
	/* every proper prefix, and one byte more, are refused */
	for (i = 0; i < len; i += 1 + len / 64) {
		EXPECT(mf_sched_decode(t, s->model, s->source, s->nsteps,
				       s->nsends, code, i, &d, err,
				       sizeof(err)) == -EINVAL);
		mf_sched_free(&d);
	}
	code[len] = 0;
	EXPECT(mf_sched_decode(t, s->model, s->source, s->nsteps, s->nsends,
			       code, len + 1, &d, err, sizeof(err)) == -EINVAL);
	mf_sched_free(&d);
	free(code);
	roundtrips++;
}

static void test_roundtrip(void)
{
	roundtrips = 0;
	for_each_sched(roundtrip);
	printf("# %u schedules encoded and decoded\n", roundtrips);
	EXPECT(roundtrips >= 60);
}

/* Any corruption decodes to an error or to chains of neighbours. */
static void corrupt(const struct mf_topo *t, const struct mf_sched *s)
{
	size_t len = mf_sched_code_len(t, s), i;
	static const u8 vals[] = { 0, 1, 5, 0x7f, 0x80, 0xff };
	struct mf_sched d;
	char err[128];
	u8 *code = malloc(len);
	u32 v, k, h;
	u8 old;

	mf_sched_encode(t, s, code, len);
	for (i = 0; i < len; i += 1 + len / 16)
		for (v = 0; v < sizeof(vals); v++) {
			old = code[i];
			code[i] = vals[v];
			err[0] = 0;
			if (!mf_sched_decode(t, s->model, s->source, s->nsteps,
					     s->nsends, code, len, &d, err,
					     sizeof(err))) {
				EXPECT_EQ(d.nsends, s->nsends);
				for (k = 0; k < d.nsends; k++)
					for (h = 0; h < d.send[k].hops; h++)
						EXPECT(mf_topo_port(t,
							d.path[d.send[k].path + h],
							d.path[d.send[k].path + h + 1]) >= 0);
			} else {
				EXPECT(err[0]);
			}
			mf_sched_free(&d);
			code[i] = old;
		}
	free(code);
}

static void test_corrupt(void)
{
	for_each_sched(corrupt);
}

/* The uapi's layout by hand: a 1-D mesh of 202 nodes, a chain from node
 * 0: step i, node i sends to i + 1 through port 0 (+): count 1, src i
 * (LEB128: i below 128, else i | 0x80 then i >> 7; 200 = c8 01), hops 1,
 * port 0.  pre: bytes put before the first send's source instead of its
 * own 0x00 (NULL: none).
 */
static size_t chain(u8 *buf, const u8 *pre, size_t npre)
{
	size_t n = 0;
	u32 i;

	for (i = 0; i < 201; i++) {
		buf[n++] = 0x01;
		if (!i && pre) {
			memcpy(buf + n, pre, npre);
			n += npre;
		} else if (i < 128) {
			buf[n++] = (u8)i;
		} else {
			buf[n++] = (u8)(i | 0x80);
			buf[n++] = (u8)(i >> 7);
		}
		buf[n++] = 0x01;
		buf[n++] = 0x00;
	}
	return n;
}

static int dec(const struct mf_topo *t, u32 nsteps, u32 nsends, const u8 *c,
	       size_t len, char *err, size_t errlen)
{
	struct mf_sched d;
	int r = mf_sched_decode(t, MESHFABRIC_MODEL_ONE_PORT, 0, nsteps,
				nsends, c, len, &d, err, errlen);

	mf_sched_free(&d);
	return r;
}

static void test_bytes_by_hand(void)
{
	static const u8 longer[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
	static const u8 over[] = { 0xff, 0xff, 0xff, 0xff, 0x1f };
	u8 buf[1024], enc[1024];
	struct mf_sched d;
	struct mf_topo t;
	u32 dims[1] = { 202 };
	char err[128];
	size_t n;

	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, dims), 0);
	n = chain(buf, NULL, 0);
	EXPECT_EQ(n, 128 * 4 + 73 * 5);
	EXPECT_EQ(mf_sched_decode(&t, MESHFABRIC_MODEL_ONE_PORT, 0, 201, 201,
				  buf, n, &d, err, sizeof(err)), 0);
	EXPECT_EQ(d.nsends, 201);
	if (d.nsends == 201) {
		EXPECT_EQ(d.send[200].src, 200);
		EXPECT_EQ(d.send[200].dst, 201);
		EXPECT_EQ(d.send[200].hops, 1);
	}
	EXPECT_EQ(mf_sched_encode(&t, &d, enc, sizeof(enc)), (s64)n);
	EXPECT(!memcmp(enc, buf, n));
	mf_sched_free(&d);
	/* node 0's port 1 (-) leads nowhere on a mesh */
	buf[3] = 0x01;
	EXPECT_EQ(dec(&t, 201, 201, buf, n, err, sizeof(err)), -EINVAL);
	EXPECT_MSG(strstr(err, "node 0 has no link through port 1"), "%s", err);
	buf[3] = 0x00;
	buf[2] = 0x00;		/* zero hops */
	EXPECT_EQ(dec(&t, 201, 201, buf, n, err, sizeof(err)), -EINVAL);
	buf[2] = 0x01;
	buf[0] = 0x00;		/* an empty step */
	EXPECT_EQ(dec(&t, 201, 201, buf, n, err, sizeof(err)), -EINVAL);
	buf[0] = 0x01;
	n = chain(buf, longer, sizeof(longer));	/* 0 in 6 bytes */
	EXPECT_EQ(dec(&t, 201, 201, buf, n, err, sizeof(err)), -EINVAL);
	n = chain(buf, over, sizeof(over));	/* 2^36 - 1 */
	EXPECT_EQ(dec(&t, 201, 201, buf, n, err, sizeof(err)), -EINVAL);
	n = chain(buf, NULL, 0);
	/* declared counts: a broadcast on 202 nodes has 201 sends */
	EXPECT_EQ(dec(&t, 201, 200, buf, n, err, sizeof(err)), -EINVAL);
	EXPECT_MSG(strstr(err, "a broadcast on 202 nodes has 201 sends"), "%s",
		   err);
	EXPECT_EQ(dec(&t, 0, 201, buf, n, err, sizeof(err)), -EINVAL);
	EXPECT_EQ(dec(&t, 202, 201, buf, n, err, sizeof(err)), -EINVAL);
	EXPECT_EQ(dec(&t, 200, 201, buf, n, err, sizeof(err)), -EINVAL);
}

/* s written as plan's JSON by this test, into a temporary file. */
static char *write_json(const struct mf_topo *t, const struct mf_sched *s,
			const char *kind, const char *key)
{
	static char path[64];
	FILE *f;
	u32 i, j, h, count;
	int fd;

	snprintf(path, sizeof(path), "/tmp/mf-test-sched-XXXXXX");
	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		return NULL;
	fprintf(f, "{ \"topology\": {\"kind\": \"%s\", \"dims\": [", kind);
	for (i = 0; i < t->ndims; i++)
		fprintf(f, "%s%u", i ? ", " : "", t->dims[i]);
	fprintf(f, "]},\n \"model\": \"%s\", \"source\": %u, \"x\": [1.5e3, "
		"null, true, \"\\u00e9\\n\"],\n \"%s\": [",
		s->model == MESHFABRIC_MODEL_ONE_PORT ? "one-port" : "all-port",
		s->source, key);
	for (i = 0; i < s->nsteps; i++) {
		const struct mf_send *x = mf_sched_sends(s, i, &count);

		fprintf(f, "%s[", i ? ",\n  " : "");
		for (j = 0; j < count; j++) {
			const u32 *p = &s->path[x[j].path];

			fprintf(f, "%s{\"dst\": %u, \"src\": %u, \"path\": [",
				j ? ", " : "", x[j].dst, x[j].src);
			for (h = 0; h <= x[j].hops; h++)
				fprintf(f, "%s%u", h ? "," : "", p[h]);
			fprintf(f, "]}");
		}
		fprintf(f, "]");
	}
	fprintf(f, "]}\n");
	fclose(f);
	return path;
}

static u32 jsons;

static void json_back(const struct mf_topo *t, const struct mf_sched *s)
{
	static const char *const kinds[] = { "", "mesh", "torus", "hex" };
	struct mf_sched r;
	char err[256] = "", *path;

	path = write_json(t, s, kinds[t->kind], jsons & 1 ? "schedule" : "steps");
	EXPECT(path);
	if (!path)
		return;
	EXPECT_EQ(mf_sched_read(path, t, &r, err, sizeof(err)), 0);
	EXPECT_MSG(same_sched(s, &r), "%s: %s", path, err);
	mf_sched_free(&r);
	unlink(path);
	jsons++;
}

static void test_json_roundtrip(void)
{
	jsons = 0;
	for_each_sched(json_back);
	EXPECT(jsons >= 60);
}

/* text into a file, read as a schedule of t: the error text. */
static char *read_text(const struct mf_topo *t, const char *text)
{
	static char err[256];
	char path[] = "/tmp/mf-test-sched-XXXXXX";
	struct mf_sched r;
	int fd = mkstemp(path);

	err[0] = 0;
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return NULL;
	close(fd);
	if (!mf_sched_read(path, t, &r, err, sizeof(err)))
		strcpy(err, "accepted");
	mf_sched_free(&r);
	unlink(path);
	return strchr(err, ':') ? strchr(err, ':') + 2 : err;
}

static void test_json_errors(void)
{
	const char *head = "{\"topology\":{\"kind\":\"mesh\",\"dims\":[3,3]},"
			   "\"model\":\"one-port\",\"source\":0,\"steps\":";
	char doc[512], *e;
	struct mf_topo t, t2;
	u32 d33[2] = { 3, 3 }, d34[2] = { 3, 4 };
	size_t i, n;

	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, d33);
	mf_topo_init(&t2, MESHFABRIC_KIND_TORUS, 2, d34);
	snprintf(doc, sizeof(doc), "%s[[{\"src\":0,\"dst\":1,\"path\":[0,1]}]]}",
		 head);
	e = read_text(&t, doc);
	EXPECT_MSG(e && !strcmp(e, "accepted"), "%s", e);
	e = read_text(&t2, doc);
	EXPECT_MSG(e && strstr(e, "the schedule is for a mesh 3x3, the fabric is a torus 3x4"),
		   "%s", e);
	snprintf(doc, sizeof(doc), "%s[[{\"src\":0,\"dst\":2,\"path\":[0,1]}]]}",
		 head);
	e = read_text(&t, doc);
	EXPECT_MSG(e && strstr(e, "step 0 send 0: path runs from 0 to 1, not from src 0 to dst 2"),
		   "%s", e);
	snprintf(doc, sizeof(doc), "%s[[{\"src\":0,\"dst\":9,\"path\":[0,9]}]]}",
		 head);
	e = read_text(&t, doc);
	EXPECT_MSG(e && strstr(e, "not a node of the fabric"), "%s", e);
	e = read_text(&t, "{\"topology\":{\"kind\":\"mesh\",\"dims\":[3,3]},"
			  "\"model\":\"one-port\",\"source\":0}");
	EXPECT_MSG(e && strstr(e, "no \"steps\""), "%s", e);
	/* every truncation of a valid document is an error, with its line */
	snprintf(doc, sizeof(doc), "%s\n[[{\"src\":0,\"dst\":1,\"path\":[0,1]}]]}",
		 head);
	n = strlen(doc);
	for (i = 1; i < n; i++) {
		char part[512];

		memcpy(part, doc, i);
		part[i] = 0;
		e = read_text(&t, part);
		EXPECT_MSG(e && strcmp(e, "accepted"), "prefix %zu accepted", i);
	}
	e = read_text(&t, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
			  "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
			  "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
	EXPECT_MSG(e && strstr(e, "nested too deeply"), "%s", e);
}

static void test_jread_values(void)
{
	const char *text = "{\"a\": \"x\\\"\\u00e9\\ud83d\\ude00\", \"n\": "
			   "18446744073709551615, \"m\": -1, \"f\": 2.5,"
			   " \"b\": [true, false, null, {}], \"a\": 2}";
	struct mf_jval v;
	char err[128];
	u32 x;

	EXPECT_EQ(mf_jparse(text, strlen(text), &v, err, sizeof(err)), 0);
	EXPECT(mf_jget(&v, "a") && !strcmp(mf_jget(&v, "a")->str,
					   "x\"\xc3\xa9\xf0\x9f\x98\x80"));
	EXPECT(mf_jget(&v, "n")->is_int &&
	       mf_jget(&v, "n")->u == 18446744073709551615ULL);
	EXPECT(!mf_jget_u32(mf_jget(&v, "n"), &x));
	EXPECT(!mf_jget(&v, "m")->is_int && !mf_jget(&v, "f")->is_int);
	EXPECT_EQ(mf_jget(&v, "b")->n, 4);
	EXPECT_EQ(mf_jget(&v, "b")->v[0].u, 1);
	EXPECT_EQ(mf_jget(&v, "b")->v[1].u, 0);
	EXPECT_EQ(mf_jget(&v, "b")->v[2].type, MF_J_NULL);
	mf_jfree(&v);
	EXPECT_EQ(mf_jparse("[1,]", 4, &v, err, sizeof(err)), -1);
	mf_jfree(&v);
	EXPECT_EQ(mf_jparse("{\"a\" 1}", 7, &v, err, sizeof(err)), -1);
	EXPECT_MSG(!strcmp(err, "line 1: expected ':'"), "%s", err);
	mf_jfree(&v);
	EXPECT_EQ(mf_jparse("[1]\n\nx", 6, &v, err, sizeof(err)), -1);
	EXPECT_MSG(!strcmp(err, "line 3: text after the document"), "%s", err);
	mf_jfree(&v);
}

/* A collective frame's path, 4 bits a port (the uapi's
 * MESHFABRIC_GENEVE_TYPE_PATH): bytes written out by hand, and random
 * walks taken port by port with mf_topo_neighbor (so the ports are the
 * walk's own, not mf_topo_port's), packed, read back and cut at every
 * offset.
 */
static void test_path_pack(void)
{
	static const u32 d33[] = { 3, 3 }, d485[] = { 4, 8, 5 };
	u32 path[200], ports[200], n, h, from, k, seed = 12345, p;
	u8 packed[100], tail[100];
	struct mf_topo t;
	int walks = 0;
	s64 nb;

	/* 3x3 mesh: 0 -x+-> 1 -y+-> 4 -x+-> 5 -y-> 2: ports 0 2 0 3 */
	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, d33);
	path[0] = 0, path[1] = 1, path[2] = 4, path[3] = 5, path[4] = 2;
	memset(packed, 0xaa, sizeof(packed));
	EXPECT_EQ(mf_path_pack(&t, path, 4, packed), 0);
	EXPECT_EQ(packed[0], 0x02);
	EXPECT_EQ(packed[1], 0x03);
	EXPECT_EQ(packed[2], 0xaa);		/* nothing past 2 bytes */
	EXPECT_EQ(mf_path_pack(&t, path, 3, packed), 0);
	EXPECT_EQ(packed[1], 0x00);		/* the unused bits 0 */
	mf_path_tail(packed, 1, 2, tail);	/* y+ x+ */
	EXPECT_EQ(tail[0], 0x20);
	path[1] = 2;				/* 0, 2: not neighbours */
	EXPECT_EQ(mf_path_pack(&t, path, 1, packed), -EINVAL);

	mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 3, d485);
	for (n = 0; n <= 199; n += 1 + n / 3) {
		path[0] = seed % t.nodes;
		for (h = 0; h < n; h++) {
			do {
				seed = seed * 1103515245 + 12345;
				p = (seed >> 16) % t.nports;
				nb = mf_topo_neighbor(&t, path[h], p);
			} while (nb < 0 || !mf_topo_is_link(&t, path[h], p));
			ports[h] = p;
			path[h + 1] = nb;
		}
		EXPECT_EQ(mf_path_pack(&t, path, n, packed), 0);
		for (h = 0; h < n; h++)
			EXPECT_EQ(mf_path_port(packed, h), ports[h]);
		if (n & 1)
			EXPECT_EQ(packed[n / 2] & 0xf, 0);
		for (from = 0; from <= n; from++) {
			memset(tail, 0xff, sizeof(tail));
			mf_path_tail(packed, from, n - from, tail);
			for (k = 0; k < n - from; k++)
				EXPECT_EQ(mf_path_port(tail, k), ports[from + k]);
			if ((n - from) & 1)
				EXPECT_EQ(tail[(n - from) / 2] & 0xf, 0);
			EXPECT_EQ(tail[(n - from + 1) / 2], 0xff);
		}
		walks++;
	}
	printf("# %d random walks packed and cut\n", walks);
	EXPECT(walks >= 15);
}

int main(void)
{
	RUN(test_roundtrip);
	RUN(test_corrupt);
	RUN(test_bytes_by_hand);
	RUN(test_json_roundtrip);
	RUN(test_json_errors);
	RUN(test_jread_values);
	RUN(test_path_pack);
	return mf_test_done();
}
