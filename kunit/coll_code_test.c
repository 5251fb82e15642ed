// SPDX-License-Identifier: GPL-2.0
/*
 * coll_code_test.c - KUnit suite meshfabric_coll_code: the collective
 * schedules userspace hands COLLECTIVE (MESHFABRIC_CALGO_USER), decoded
 * by the core (mf_coll_decode) and checked by its checker inside the
 * kernel, where the allocations are kvmalloc and KASAN watches:
 *  - the builders' schedules of every collective on a 3x3 mesh and a 4x4
 *    torus come back from their encoding as they went (sends, paths,
 *    blocks) and check with the same statistics;
 *  - the uapi's layout written by hand for a path of 3 decodes; every
 *    prefix of it, bytes left over, a port without a neighbour, a block
 *    past nblocks, a zero-length run are refused with -EINVAL and a
 *    reason; nodes x blocks above the cap with -E2BIG;
 *  - decoded but wrong: a contribution counted twice, a copy collective
 *    that combines: the checker's reasons;
 *  - 4000 random corruptions of a real encoding: a refusal with a reason,
 *    or a schedule the checker judges; no oops, nothing leaks (KASAN).
 */
#include <kunit/test.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "check.h"
#include "coll.h"
#include "schedcode.h"
#include "mf_kunit.h"

static u8 *mf_cc_encode(struct kunit *test, const struct mf_topo *t,
			const struct mf_sched *s, size_t *len)
{
	u8 *code;

	*len = mf_coll_code_len(t, s);
	KUNIT_ASSERT_GT(test, *len, 0);
	code = kunit_kmalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, code);
	KUNIT_EXPECT_EQ(test, mf_coll_encode(t, s, code, *len), (s64)*len);
	return code;
}

static void mf_coll_code_test_roundtrip(struct kunit *test)
{
	static const u32 dims[2][2] = { { 3, 3 }, { 4, 4 } };
	static const u32 kinds[2] = { MESHFABRIC_KIND_MESH,
				      MESHFABRIC_KIND_TORUS };
	struct mf_coll_result res;
	struct mf_sched s, d;
	struct mf_stats st;
	struct mf_topo t;
	u32 i, a, c, n = 0;
	char err[128];
	size_t len;
	u8 *code;

	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, mf_topo_init(&t, kinds[i], 2, dims[i]), 0);
		for (a = MF_CALGO_AUTO + 1; a < MF_CALGO_COUNT; a++)
			for (c = 0; c < MF_COLL_COUNT; c++) {
				struct mf_coll_req rq = { .coll = c, .algo = a,
							  .root = 1,
							  .bytes = 1024,
							  .esize = 8 };

				if (mf_coll_plan(&t, &rq, &s, &res)) {
					mf_sched_free(&s);
					continue;
				}
				code = mf_cc_encode(test, &t, &s, &len);
				KUNIT_EXPECT_EQ(test,
						mf_coll_decode(&t, c, s.source,
							       code, len, &d,
							       err,
							       sizeof(err)),
						0);
				KUNIT_EXPECT_EQ(test, d.nsends, s.nsends);
				KUNIT_EXPECT_EQ(test, d.nsteps, s.nsteps);
				KUNIT_EXPECT_EQ(test, d.nblk, s.nblk);
				KUNIT_EXPECT_EQ_MSG(test,
						    mf_check(&t, &d, &st, err,
							     sizeof(err)),
						    0, "%s", err);
				KUNIT_EXPECT_EQ(test, st.tcd, res.st.tcd);
				KUNIT_EXPECT_EQ(test, st.blocks, res.st.blocks);
				mf_sched_free(&s);
				mf_sched_free(&d);
				kunit_kfree(test, code);
				n++;
			}
	}
	KUNIT_EXPECT_GE(test, n, 30);
}

/* Decode code as coll from root 0 on t: the error, the reason in err. */
static int mf_cc_decode(const struct mf_topo *t, u32 coll, const u8 *code,
			size_t len, char *err, size_t errlen)
{
	struct mf_sched d;
	int r;

	err[0] = '\0';
	r = mf_coll_decode(t, coll, 0, code, len, &d, err, errlen);
	mf_sched_free(&d);
	return r;
}

static void mf_coll_code_test_refused(struct kunit *test)
{
	/* path 0 - 1 - 2, allreduce of 1 block: 0 -> 1, 1 -> 2, 0 -> 1 */
	static const u8 twice[] = { 1, 1, 3,
		1, 0, 1, 0, 3, 0, 1,
		1, 1, 1, 0, 3, 0, 1,
		1, 0, 1, 0, 3, 0, 1 };
	static const u8 big[] = { 1, 0x80, 0x80, 0x02, 0 };
	u8 buf[sizeof(twice) + 1];
	struct mf_sched d;
	struct mf_stats st;
	struct mf_topo t;
	static const u32 three = 3, nine[2] = { 3, 3 };
	char err[128];
	size_t n;

	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, &three),
			0);
	for (n = 0; n < sizeof(twice); n++)
		KUNIT_EXPECT_EQ_MSG(test, mf_cc_decode(&t, MF_COLL_ALLREDUCE,
						       twice, n, err,
						       sizeof(err)),
				    -EINVAL, "prefix of %zu bytes", n);
	memcpy(buf, twice, sizeof(twice));
	buf[sizeof(twice)] = 0;
	KUNIT_EXPECT_EQ(test, mf_cc_decode(&t, MF_COLL_ALLREDUCE, buf,
					   sizeof(buf), err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err, "left over"));
	memcpy(buf, twice, sizeof(twice));
	buf[6] = 1;	/* node 0 through -x: off the mesh */
	KUNIT_EXPECT_EQ(test, mf_cc_decode(&t, MF_COLL_ALLREDUCE, buf,
					   sizeof(twice), err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err, "no link through port 1"));
	memcpy(buf, twice, sizeof(twice));
	buf[8] = 1;	/* block 1 of 1 */
	KUNIT_EXPECT_EQ(test, mf_cc_decode(&t, MF_COLL_ALLREDUCE, buf,
					   sizeof(twice), err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err, "bad block run"));
	buf[8] = 0;
	buf[9] = 0;	/* a run of 0 blocks */
	KUNIT_EXPECT_EQ(test, mf_cc_decode(&t, MF_COLL_ALLREDUCE, buf,
					   sizeof(twice), err, sizeof(err)),
			-EINVAL);
	/* 3 x 2^15 blocks is below the cap; the 9 nodes of a 3x3 are not */
	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, nine),
			0);
	KUNIT_EXPECT_EQ(test, mf_cc_decode(&t, MF_COLL_ALLREDUCE, big,
					   sizeof(big), err, sizeof(err)),
			-E2BIG);
	/* decoded, then the checker's reasons */
	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, &three),
			0);
	KUNIT_EXPECT_EQ(test, mf_coll_decode(&t, MF_COLL_ALLREDUCE, 0, twice,
					     sizeof(twice), &d, err,
					     sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, mf_check(&t, &d, &st, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test,
			      strstr(err, "node 1 counts node 0's block 0 twice"));
	mf_sched_free(&d);
	memcpy(buf, twice, 10);
	buf[1] = 3;	/* 3 blocks: a gather's, combined */
	buf[2] = 1;
	KUNIT_EXPECT_EQ(test, mf_coll_decode(&t, MF_COLL_GATHER, 0, buf, 10,
					     &d, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, mf_check(&t, &d, &st, err, sizeof(err)), -EINVAL);
	mf_sched_free(&d);
}

static void mf_coll_code_test_fuzz(struct kunit *test)
{
	struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE,
				  .algo = MF_CALGO_TREE, .bytes = 1024,
				  .esize = 8 };
	u32 dims[2] = { 4, 4 }, i, refused = 0, seed = 1;
	struct mf_coll_result res;
	struct mf_sched s, d;
	struct mf_stats st;
	struct mf_topo t;
	size_t len, cut;
	u8 *code, *bad;
	char err[128];
	int r;

	KUNIT_ASSERT_EQ(test, mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 2, dims),
			0);
	KUNIT_ASSERT_EQ(test, mf_coll_plan(&t, &rq, &s, &res), 0);
	code = mf_cc_encode(test, &t, &s, &len);
	mf_sched_free(&s);
	bad = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bad);
	for (i = 0; i < 4000; i++) {
		memcpy(bad, code, len);
		seed = seed * 1103515245 + 12345;
		bad[(seed >> 8) % len] ^= 1 + (seed >> 20) % 255;
		cut = i % 7 ? len : (seed >> 4) % len;
		err[0] = '\0';
		r = mf_coll_decode(&t, rq.coll, 0, bad, cut, &d, err,
				   sizeof(err));
		if (!r) {
			r = mf_check(&t, &d, &st, err, sizeof(err));
			KUNIT_EXPECT_TRUE(test, r == 0 || r == -EINVAL);
		} else {
			KUNIT_EXPECT_TRUE(test, r == -EINVAL || r == -E2BIG);
			KUNIT_EXPECT_NE(test, err[0], '\0');
			refused++;
		}
		mf_sched_free(&d);
		cond_resched();
	}
	KUNIT_EXPECT_GT(test, refused, 0);
}

static struct kunit_case mf_coll_code_test_cases[] = {
	KUNIT_CASE(mf_coll_code_test_roundtrip),
	KUNIT_CASE(mf_coll_code_test_refused),
	KUNIT_CASE(mf_coll_code_test_fuzz),
	{}
};

MF_KUNIT_SUITE(coll_code);
