// SPDX-License-Identifier: GPL-2.0
/*
 * test_coll_code.c - the encoding of collective schedules that the tool
 * hands the kernel (core/schedcode.h, mf_coll_*; the uapi's
 * MESHFABRIC_CALGO_USER format).  References: the uapi's byte layout
 * written out by hand for a 2-node exchange (every number below 128: one
 * byte each; LEB128 of 200 = c8 01), the schedules themselves (a round
 * trip of every algorithm's schedule of every collective gives every
 * send, path and block back, and the checker the same statistics), and
 * hand-made corruptions whose refusal the definitions dictate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mf_test.h"
#include "coll.h"
#include "schedcode.h"
#include "parse.h"
#include "plan_coll.h"
#include "schedfile.h"

static const char *const shapes[][2] = {
	{ "mesh", "3x3" }, { "torus", "4x4" }, { "mesh", "2x3" },
	{ "torus", "2x4" }, { "torus", "8" }, { "hex", "2" },
	{ "mesh", "2x2x2" },
};

static void topo(const char *kind, const char *dims, struct mf_topo *t)
{
	char err[128];
	u32 k;

	for (k = MESHFABRIC_KIND_MESH; k < MESHFABRIC_KIND_HEX; k++)
		if (!strcmp(kind, mf_topo_kind_name(k)))
			break;
	EXPECT(!mf_parse_topo(k, dims, t, err, sizeof(err)));
}

static bool same(const struct mf_sched *a, const struct mf_sched *b)
{
	u32 i, na, nb;
	const u32 *x, *y;

	if (a->nsteps != b->nsteps || a->nsends != b->nsends ||
	    a->source != b->source || a->model != b->model ||
	    a->coll != b->coll ||
	    mf_sched_nblocks(a) != mf_sched_nblocks(b))
		return false;
	for (i = 0; i <= a->nsteps; i++)
		if (a->step[i] != b->step[i])
			return false;
	for (i = 0; i < a->nsends; i++) {
		const struct mf_send *p = &a->send[i], *q = &b->send[i];

		if (p->src != q->src || p->dst != q->dst || p->hops != q->hops ||
		    memcmp(&a->path[p->path], &b->path[q->path],
			   (p->hops + 1) * sizeof(u32)))
			return false;
		x = mf_send_blocks(a, i, &na);
		y = mf_send_blocks(b, i, &nb);
		if (na != nb || memcmp(x, y, na * sizeof(u32)))
			return false;
	}
	return true;
}

/* Encode s, decode it as coll from root: the bytes, in *code. */
static s64 encode(const struct mf_topo *t, const struct mf_sched *s,
		  u8 **code)
{
	size_t len = mf_coll_code_len(t, s);
	s64 r;

	*code = malloc(len ? len : 1);
	r = mf_coll_encode(t, s, *code, len);
	EXPECT_EQ(r, (s64)len);
	return r;
}

/* Every algorithm's schedule of every collective on every shape, roots 0
 * and the last node, comes back as it went, and checks the same.
 */
static void test_roundtrip(void)
{
	struct mf_coll_result res;
	struct mf_stats st;
	struct mf_sched s, d;
	struct mf_topo t;
	u32 i, a, c, root, n = 0, colls = 0;
	char err[128];
	u8 *code;
	s64 len;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		topo(shapes[i][0], shapes[i][1], &t);
		for (a = MF_CALGO_AUTO + 1; a < MF_CALGO_COUNT; a++)
			for (c = 0; c < MF_COLL_COUNT; c++)
				for (root = 0; root < t.nodes;
				     root += t.nodes - 1) {
					struct mf_coll_req rq = {
						.coll = c, .algo = a,
						.root = root, .bytes = 4096,
						.esize = 8 };

					if (mf_coll_plan(&t, &rq, &s, &res)) {
						mf_sched_free(&s);
						continue;
					}
					len = encode(&t, &s, &code);
					err[0] = '\0';
					EXPECT_EQ(mf_coll_decode(&t, c, s.source, code,
								 len, &d, err,
								 sizeof(err)), 0);
					EXPECT_MSG(same(&s, &d), "%s %s on %s %s root %u",
						   mf_calgo_name(a),
						   mf_coll_name(c),
						   shapes[i][0], shapes[i][1],
						   root);
					EXPECT_EQ(mf_check(&t, &d, &st, err,
							   sizeof(err)), 0);
					EXPECT_EQ(st.tcd, res.st.tcd);
					EXPECT_EQ(st.blocks, res.st.blocks);
					EXPECT_EQ(st.contention,
						  res.st.contention);
					colls |= 1U << c;
					n++;
					free(code);
					mf_sched_free(&s);
					mf_sched_free(&d);
					if (!t.nodes || t.nodes == 1)
						break;
				}
	}
	printf("# %u schedules round-tripped\n", n);
	EXPECT(n >= 150);
	EXPECT_EQ(colls, (1U << MF_COLL_COUNT) - 1);
}

/* The 2-node exchange: one step, 0 -> 1 and 1 -> 0 combining block 0,
 * as the uapi's words give its bytes.
 */
static void build_exchange(struct mf_sched *s, u32 nb, u32 blocks)
{
	const u32 p01[2] = { 0, 1 }, p10[2] = { 1, 0 };
	u32 ids[256], i;

	for (i = 0; i < blocks; i++)
		ids[i] = i;
	EXPECT_EQ(mf_coll_init(s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ONE_PORT,
			       0, nb), 0);
	EXPECT_EQ(mf_sched_step(s), 0);
	EXPECT_EQ(mf_sched_send(s, p01, 1), 0);
	EXPECT_EQ(mf_sched_blocks(s, ids, blocks, true), 0);
	EXPECT_EQ(mf_sched_send(s, p10, 1), 0);
	EXPECT_EQ(mf_sched_blocks(s, ids, blocks, true), 0);
	EXPECT_EQ(mf_sched_end(s), 0);
}

static void test_bytes(void)
{
	/* model 1, 1 block, 1 step of 2 sends; each: source, 1 hop, its
	 * port (+x: 0, -x: 1), 2 * 1 run + combine = 3, run 0 of 1
	 */
	static const u8 want[] = { 1, 1, 1, 2, 0, 1, 0, 3, 0, 1,
				   1, 1, 1, 3, 0, 1 };
	/* 200 blocks: one run of length 200 = c8 01 */
	static const u8 want200[] = { 1, 0xc8, 0x01, 1, 2,
				      0, 1, 0, 3, 0, 0xc8, 0x01,
				      1, 1, 1, 3, 0, 0xc8, 0x01 };
	struct mf_sched s, d;
	struct mf_topo t;
	char err[128];
	u8 buf[64];

	topo("mesh", "2", &t);
	build_exchange(&s, 1, 1);
	EXPECT_EQ(mf_coll_code_len(&t, &s), sizeof(want));
	EXPECT_EQ(mf_coll_encode(&t, &s, buf, sizeof(buf)), sizeof(want));
	EXPECT(!memcmp(buf, want, sizeof(want)));
	EXPECT_EQ(mf_coll_encode(&t, &s, buf, sizeof(want) - 1), -ENOSPC);
	EXPECT_EQ(mf_coll_decode(&t, MF_COLL_ALLREDUCE, 0, want, sizeof(want),
				 &d, err, sizeof(err)), 0);
	EXPECT(same(&s, &d));
	mf_sched_free(&s);
	mf_sched_free(&d);
	build_exchange(&s, 200, 200);
	EXPECT_EQ(mf_coll_encode(&t, &s, buf, sizeof(buf)), sizeof(want200));
	EXPECT(!memcmp(buf, want200, sizeof(want200)));
	mf_sched_free(&s);
	/* split runs: blocks 0, 2, 3 are the runs (0, 1) and (2, 2) */
	{
		static const u8 runs[] = { 1, 4, 1, 1, 0, 1, 0, 4, 0, 1, 2, 2 };
		const u32 ids[3] = { 0, 2, 3 }, p[2] = { 0, 1 };

		EXPECT_EQ(mf_coll_init(&s, MF_COLL_BCAST,
				       MESHFABRIC_MODEL_ONE_PORT, 0, 4), 0);
		mf_sched_step(&s);
		mf_sched_send(&s, p, 1);
		mf_sched_blocks(&s, ids, 3, false);
		mf_sched_end(&s);
		EXPECT_EQ(mf_coll_encode(&t, &s, buf, sizeof(buf)),
			  sizeof(runs));
		EXPECT(!memcmp(buf, runs, sizeof(runs)));
		mf_sched_free(&s);
	}
}

static int decode(const struct mf_topo *t, u32 coll, const u8 *code,
		  size_t len, const char *want)
{
	struct mf_sched d;
	char err[160] = "";
	int r;

	r = mf_coll_decode(t, coll, 0, code, len, &d, err, sizeof(err));
	if (want)
		EXPECT_MSG(strstr(err, want), "got '%s', want '%s'", err, want);
	mf_sched_free(&d);
	return r;
}

/* One byte of the 2-node exchange changed: what the decoder says. */
static const struct {
	u32 at, to;
	const char *want;
} edits[] = {
	{ 6, 1, "node 0 has no link through port 1" },	/* -x off the mesh */
	{ 6, 7, "no link through port 7" },		/* no such port */
	{ 8, 1, "bad block run" },			/* block 1 of 1 */
	{ 9, 0, "bad block run" },			/* a run of 0 */
	{ 7, 1, "bad block run count" },		/* no run */
	{ 0, 3, "bad model" },				/* model 3 */
	{ 1, 0, "bad model, block" },			/* 0 blocks */
	{ 4, 2, "bad node or hop count" },		/* node 2 of 2 */
	{ 5, 0, "bad node or hop count" },		/* 0 hops */
};

/* Truncated, extended, a port off the mesh, bad runs and counts. */
static void test_corrupt(void)
{
	static const u8 good[] = { 1, 1, 1, 2, 0, 1, 0, 3, 0, 1,
				   1, 1, 1, 3, 0, 1 };
	/* a u32 of 6 LEB128 bytes; a step count above the bytes; nodes x
	 * blocks above MF_COLL_CODE_CELLS: 9 x 2^15
	 */
	static const u8 leb6[] = { 1, 0x81, 0x80, 0x80, 0x80, 0x80, 0, 0 };
	static const u8 steps[] = { 1, 1, 100, 0 };
	static const u8 big[] = { 1, 0x80, 0x80, 0x02, 0 };
	struct mf_topo t, t9;
	u8 buf[sizeof(good) + 1];
	size_t n;

	topo("mesh", "2", &t);
	topo("mesh", "3x3", &t9);
	EXPECT_EQ(decode(&t, MF_COLL_ALLREDUCE, good, sizeof(good), NULL), 0);
	for (n = 0; n < sizeof(good); n++)
		EXPECT_MSG(decode(&t, MF_COLL_ALLREDUCE, good, n, NULL) ==
			   -EINVAL, "prefix of %zu bytes", n);
	memcpy(buf, good, sizeof(good));
	buf[sizeof(good)] = 0;
	EXPECT_EQ(decode(&t, MF_COLL_ALLREDUCE, buf, sizeof(buf),
			 "bytes left over"), -EINVAL);
	for (n = 0; n < sizeof(edits) / sizeof(edits[0]); n++) {
		memcpy(buf, good, sizeof(good));
		buf[edits[n].at] = (u8)edits[n].to;
		EXPECT_MSG(decode(&t, MF_COLL_ALLREDUCE, buf, sizeof(good),
				  edits[n].want) == -EINVAL, "%s",
			   edits[n].want);
	}
	EXPECT_EQ(decode(&t, MF_COLL_ALLREDUCE, leb6, sizeof(leb6),
			 "bad model"), -EINVAL);
	EXPECT_EQ(decode(&t, MF_COLL_ALLREDUCE, steps, sizeof(steps),
			 "step count"), -EINVAL);
	EXPECT_EQ(decode(&t9, MF_COLL_ALLREDUCE, big, sizeof(big),
			 "nodes x blocks above"), -E2BIG);
	EXPECT_EQ(decode(&t, MF_COLL_COUNT, good, sizeof(good), "collective"),
		  -EINVAL);
}

/* Decoded, then refused by the checker with its reason: a path of 3 where
 * node 1 combines node 0's contribution twice; a copy collective that
 * combines; a send of a block its source does not hold.
 */
static void test_checker_refuses(void)
{
	/* 0 -> 1 (+x), 1 -> 2 (+x), 0 -> 1 again */
	static const u8 twice[] = { 1, 1, 3,
		1, 0, 1, 0, 3, 0, 1,
		1, 1, 1, 0, 3, 0, 1,
		1, 0, 1, 0, 3, 0, 1 };
	static const u8 gather_comb[] = { 1, 3, 1,
		1, 1, 1, 1, 3, 1, 1 };
	static const u8 not_held[] = { 1, 3, 1,
		1, 0, 1, 0, 2, 1, 1 };
	struct mf_sched d;
	struct mf_stats st;
	struct mf_topo t;
	char err[160] = "";

	topo("mesh", "3", &t);
	EXPECT_EQ(mf_coll_decode(&t, MF_COLL_ALLREDUCE, 0, twice,
				 sizeof(twice), &d, err, sizeof(err)), 0);
	EXPECT_EQ(mf_check(&t, &d, &st, err, sizeof(err)), -EINVAL);
	EXPECT_MSG(strstr(err, "node 1 counts node 0's block 0 twice"),
		   "got '%s'", err);
	mf_sched_free(&d);
	EXPECT_EQ(mf_coll_decode(&t, MF_COLL_GATHER, 0, gather_comb,
				 sizeof(gather_comb), &d, err, sizeof(err)), 0);
	EXPECT_EQ(mf_check(&t, &d, &st, err, sizeof(err)), -EINVAL);
	EXPECT_MSG(strstr(err, "combines outside a reduction"), "got '%s'",
		   err);
	mf_sched_free(&d);
	EXPECT_EQ(mf_coll_decode(&t, MF_COLL_GATHER, 0, not_held,
				 sizeof(not_held), &d, err, sizeof(err)), 0);
	EXPECT_EQ(mf_check(&t, &d, &st, err, sizeof(err)), -EINVAL);
	EXPECT_MSG(strstr(err, "node 0 sends block 1 it does not hold"),
		   "got '%s'", err);
	mf_sched_free(&d);
}

/* Random corruptions of real encodings: every result is a refusal or a
 * schedule the checker can judge (the sanitizer build watches memory).
 */
static void test_fuzz(void)
{
	struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE,
				  .algo = MF_CALGO_RING, .bytes = 4096,
				  .esize = 8 };
	struct mf_coll_result res;
	struct mf_sched s, d;
	struct mf_stats st;
	struct mf_topo t;
	u32 i, ok = 0, refused = 0, seed = 12345;
	char err[160];
	u8 *code, *bad;
	s64 len;
	int r;

	topo("torus", "4x4", &t);
	EXPECT_EQ(mf_coll_plan(&t, &rq, &s, &res), 0);
	len = encode(&t, &s, &code);
	bad = malloc(len);
	for (i = 0; i < 3000; i++) {
		memcpy(bad, code, len);
		seed = seed * 1103515245 + 12345;
		bad[(seed >> 8) % len] ^= (u8)(1 + (seed >> 20) % 255);
		r = mf_coll_decode(&t, rq.coll, 0, bad, len, &d, err,
				   sizeof(err));
		if (!r) {
			r = mf_check(&t, &d, &st, err, sizeof(err));
			EXPECT(r == 0 || r == -EINVAL);
			ok++;
		} else {
			EXPECT_MSG(r == -EINVAL || r == -E2BIG, "%d", r);
			EXPECT(err[0]);
			refused++;
		}
		mf_sched_free(&d);
	}
	printf("# %u decoded, %u refused\n", ok, refused);
	EXPECT(refused > 0);
	free(bad);
	free(code);
	mf_sched_free(&s);
}

/* plan --coll --steps --json read back (coll --schedule FILE) is the
 * schedule plan built; a file whose send lacks its blocks is refused.
 */
static void test_schedfile(void)
{
	char path[] = "/tmp/mf_test_coll_XXXXXX", err[256];
	struct mf_coll_result res;
	struct mf_sched s, d;
	struct mf_topo t;
	u32 a, c, n = 0;
	FILE *f;
	int fd;

	topo("mesh", "3x3", &t);
	fd = mkstemp(path);
	EXPECT(fd >= 0);
	for (a = MF_CALGO_AUTO; a < MF_CALGO_COUNT; a++)
		for (c = 0; c < MF_COLL_COUNT; c++) {
			struct mf_plan_coll_args pa = {
				.t = &t, .coll = c, .algo = a, .root = 4,
				.bytes = 800, .type = MF_RTYPE_S64,
				.json = true, .steps = true };
			struct mf_coll_req rq = { .coll = c, .algo = a,
						  .root = 4, .bytes = 800,
						  .esize = 8 };

			if (mf_coll_plan(&t, &rq, &s, &res)) {
				mf_sched_free(&s);
				continue;
			}
			f = fopen(path, "w");
			EXPECT_EQ(mf_plan_coll(f, &pa), 0);
			fclose(f);
			EXPECT_MSG(!mf_sched_read(path, &t, &d, err, sizeof(err)),
				   "%s", err);
			EXPECT_MSG(same(&s, &d), "%s %s", mf_calgo_name(a),
				   mf_coll_name(c));
			n++;
			mf_sched_free(&s);
			mf_sched_free(&d);
		}
	EXPECT(n >= 20);
	f = fopen(path, "w");
	fprintf(f, "{\"topology\":{\"kind\":\"mesh\",\"dims\":[3,3]},"
		"\"collective\":\"allreduce\",\"model\":\"one-port\","
		"\"root\":0,\"blocks\":1,\"steps\":[[{\"src\":0,"
		"\"dst\":1,\"path\":[0,1]}]]}\n");
	fclose(f);
	EXPECT(mf_sched_read(path, &t, &d, err, sizeof(err)));
	EXPECT_MSG(strstr(err, "\"blocks\""), "%s", err);
	mf_sched_free(&d);
	unlink(path);
}

int main(void)
{
	RUN(test_roundtrip);
	RUN(test_bytes);
	RUN(test_corrupt);
	RUN(test_checker_refuses);
	RUN(test_fuzz);
	RUN(test_schedfile);
	return mf_test_done();
}
