// SPDX-License-Identifier: GPL-2.0
/* The collective schedule format and its checker (sched.h, check.h):
 * hand-made schedules whose verdicts follow from the definitions.
 */
#include "mf_test.h"
#include "sched.h"
#include "check.h"
#include "timing.h"

/* One send a -> b (adjacent) carrying blocks ids[0..n-1]. */
static void xfer(struct mf_sched *s, u32 a, u32 b, const u32 *ids, u32 n,
		 bool combine)
{
	const u32 p[2] = { a, b };

	EXPECT_EQ(mf_sched_send(s, p, 1), 0);
	EXPECT_EQ(mf_sched_blocks(s, ids, n, combine), 0);
}

static int check(const struct mf_topo *t, struct mf_sched *s,
		 struct mf_stats *st, const char *want)
{
	char err[128] = "";
	int ret;

	mf_sched_end(s);
	ret = mf_check(t, s, st, err, sizeof(err));
	if (want)
		EXPECT_MSG(strstr(err, want), "got '%s', want '%s'", err, want);
	else if (ret)
		printf("# checker: %s\n", err);
	mf_sched_free(s);
	return ret;
}

/* Allreduce on a 1-D torus of 2 and a path of 3, right and wrong. */
static void test_allreduce_exchange(void)
{
	u32 two = 2, three = 3, b0 = 0;
	struct mf_topo t2, t3;
	struct mf_sched s;
	struct mf_stats st;

	mf_topo_init(&t2, MESHFABRIC_KIND_TORUS, 1, &two);
	mf_topo_init(&t3, MESHFABRIC_KIND_MESH, 1, &three);
	/* one exchange: both combine the other's value */
	mf_coll_init(&s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ONE_PORT, 0, 1);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b0, 1, true);
	xfer(&s, 1, 0, &b0, 1, true);
	EXPECT_EQ(check(&t2, &s, &st, NULL), 0);
	EXPECT_EQ(st.steps, 1);
	EXPECT_EQ(st.blocks, 2);
	EXPECT_EQ(st.node_blocks, 1);
	/* path of 3: 0 -> 1 and 2 -> 1 cannot be one step one-port */
	mf_coll_init(&s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ONE_PORT, 0, 1);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b0, 1, true);
	xfer(&s, 2, 1, &b0, 1, true);
	EXPECT_EQ(check(&t3, &s, &st, "node 1 receives twice (one-port)"),
		  -EINVAL);
	/* all-port it can; then 1 copies the sum back to both */
	mf_coll_init(&s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ALL_PORT, 0, 1);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b0, 1, true);
	xfer(&s, 2, 1, &b0, 1, true);
	mf_sched_step(&s);
	xfer(&s, 1, 0, &b0, 1, false);
	xfer(&s, 1, 2, &b0, 1, false);
	EXPECT_EQ(check(&t3, &s, &st, NULL), 0);
	/* combining the sum back counts 0's contribution twice */
	mf_coll_init(&s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ALL_PORT, 0, 1);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b0, 1, true);
	xfer(&s, 2, 1, &b0, 1, true);
	mf_sched_step(&s);
	xfer(&s, 1, 0, &b0, 1, true);
	EXPECT_EQ(check(&t3, &s, &st,
			"step 2: node 0 counts node 0's block 0 twice"),
		  -EINVAL);
	/* node 2 never gets the sum */
	mf_coll_init(&s, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ALL_PORT, 0, 1);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b0, 1, true);
	xfer(&s, 2, 1, &b0, 1, true);
	mf_sched_step(&s);
	xfer(&s, 1, 0, &b0, 1, false);
	EXPECT_EQ(check(&t3, &s, &st,
			"node 2 ends with block 0 lacking node 0's part"),
		  -EINVAL);
	/* a reduce to 1 is complete after the first step */
	mf_coll_init(&s, MF_COLL_REDUCE, MESHFABRIC_MODEL_ALL_PORT, 1, 1);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b0, 1, true);
	xfer(&s, 2, 1, &b0, 1, true);
	EXPECT_EQ(check(&t3, &s, &st, NULL), 0);
}

/* The copy collectives: who holds what, and the rules on blocks. */
static void test_copy_collectives(void)
{
	u32 three = 3, b[3] = { 0, 1, 2 };
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;

	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, &three);
	/* gather to 1: one block each */
	mf_coll_init(&s, MF_COLL_GATHER, MESHFABRIC_MODEL_ALL_PORT, 1, 3);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[0], 1, false);
	xfer(&s, 2, 1, &b[2], 1, false);
	EXPECT_EQ(check(&t, &s, &st, NULL), 0);
	/* a node cannot send what it does not hold */
	mf_coll_init(&s, MF_COLL_GATHER, MESHFABRIC_MODEL_ALL_PORT, 1, 3);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[2], 1, false);
	EXPECT_EQ(check(&t, &s, &st, "node 0 sends block 2 it does not hold"),
		  -EINVAL);
	/* no combining without a reduction */
	mf_coll_init(&s, MF_COLL_GATHER, MESHFABRIC_MODEL_ALL_PORT, 1, 3);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[0], 1, true);
	EXPECT_EQ(check(&t, &s, &st, "combines outside a reduction"),
		  -EINVAL);
	/* scatter from 0 through 1: 2 gets block 2 in step 2 */
	mf_coll_init(&s, MF_COLL_SCATTER, MESHFABRIC_MODEL_ONE_PORT, 0, 3);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[1], 2, false);
	mf_sched_step(&s);
	xfer(&s, 1, 2, &b[2], 1, false);
	EXPECT_EQ(check(&t, &s, &st, NULL), 0);
	EXPECT_EQ(st.blocks, 3);
	EXPECT_EQ(st.node_blocks, 2);
	/* scatter missing block 2 */
	mf_coll_init(&s, MF_COLL_SCATTER, MESHFABRIC_MODEL_ONE_PORT, 0, 3);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[1], 1, false);
	EXPECT_EQ(check(&t, &s, &st, "node 2 ends without block 2"), -EINVAL);
	/* a block count the collective cannot split */
	mf_coll_init(&s, MF_COLL_ALLGATHER, MESHFABRIC_MODEL_ONE_PORT, 0, 4);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[0], 1, false);
	EXPECT_EQ(check(&t, &s, &st, "needs a multiple of 3"), -EINVAL);
	/* a broadcast of 2 blocks pipelined along the path */
	mf_coll_init(&s, MF_COLL_BCAST, MESHFABRIC_MODEL_ONE_PORT, 0, 2);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[0], 1, false);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[1], 1, false);
	xfer(&s, 1, 2, &b[0], 1, false);
	mf_sched_step(&s);
	xfer(&s, 1, 2, &b[1], 1, false);
	EXPECT_EQ(check(&t, &s, &st, NULL), 0);
	/* ... and one whose node 2 never gets block 1 */
	mf_coll_init(&s, MF_COLL_BCAST, MESHFABRIC_MODEL_ONE_PORT, 0, 2);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[0], 2, false);
	mf_sched_step(&s);
	xfer(&s, 1, 2, &b[0], 1, false);
	EXPECT_EQ(check(&t, &s, &st, "2 of 3 nodes informed"), -EINVAL);
	/* sending a block twice to one node */
	mf_coll_init(&s, MF_COLL_BCAST, MESHFABRIC_MODEL_ONE_PORT, 0, 2);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[0], 2, false);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[1], 1, false);
	EXPECT_EQ(check(&t, &s, &st, "step 2: node 1 receives block 1 twice"),
		  -EINVAL);
}

/* Fabric time of a collective: each send's frame is its blocks' bytes. */
static void test_timing_block_bytes(void)
{
	u32 three = 3, b[3] = { 0, 1, 2 };
	const u64 blk[3] = { 100, 200, 300 };
	struct mf_link_model lm = { .rate = 8000000000ULL, .delay_ns = 10 };
	struct mf_timing tm = { .bytes = 50, .blk_bytes = blk, .ctx = &lm };
	struct mf_timeline tl;
	struct mf_topo t;
	struct mf_sched s;
	struct mf_stats st;

	mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, &three);
	mf_coll_init(&s, MF_COLL_SCATTER, MESHFABRIC_MODEL_ONE_PORT, 0, 3);
	mf_sched_step(&s);
	xfer(&s, 0, 1, &b[1], 2, false);
	mf_sched_step(&s);
	xfer(&s, 1, 2, &b[2], 1, false);
	mf_sched_end(&s);
	EXPECT_EQ(mf_check(&t, &s, &st, NULL, 0), 0);
	EXPECT_EQ(mf_timeline_alloc(&tl, &t, &s), 0);
	EXPECT_EQ(mf_sched_time(&t, &s, &tm, NULL, &tl), 0);
	/* 8 Gbit/s: 1 ns a byte; step 1: 550 + 10, step 2: 350 + 10 */
	EXPECT_EQ(tl.step_ns[0], 560);
	EXPECT_EQ(tl.total_ns, 560 + 360);
	EXPECT_EQ(tl.arrive[2], 920);
	tm.async = true;
	EXPECT_EQ(mf_sched_time(&t, &s, &tm, NULL, &tl), -EINVAL);
	mf_timeline_free(&tl);
	mf_sched_free(&s);
}

int main(void)
{
	RUN(test_allreduce_exchange);
	RUN(test_copy_collectives);
	RUN(test_timing_block_bytes);
	return mf_test_done();
}
