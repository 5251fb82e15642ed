// SPDX-License-Identifier: GPL-2.0
/* Every collective algorithm on every shape up to 64 nodes, checked
 * symbolically by the checker and run on data against a direct
 * reduction computed here; 003's global sum in 2n + 1 steps, and the
 * 2n - 2 of the all-port reversal.  The exhaustive minimum number of
 * steps of an allreduce: test_coll_min.c.
 */
#include <stdlib.h>

#include "mf_test.h"
#include "coll.h"
#include "algo.h"
#include "bound_model.h"

static u32 nshapes;
static struct mf_topo shapes[160];

static void add_shape(u32 kind, u32 d, u32 a, u32 b, u32 c)
{
	u32 dims[3] = { a, b, c };

	if (mf_topo_init(&shapes[nshapes], kind, d, dims) == 0 &&
	    shapes[nshapes].nodes <= 64)
		nshapes++;
}

static void make_shapes(void)
{
	u32 a, b, k;

	for (k = 0; k < 2; k++) {
		u32 kind = k ? MESHFABRIC_KIND_TORUS : MESHFABRIC_KIND_MESH;

		for (a = 2; a <= 13; a++)
			add_shape(kind, 1, a, 0, 0);
		add_shape(kind, 1, 32, 0, 0);
		add_shape(kind, 1, 64, 0, 0);
		for (a = 2; a <= 8; a += 1 + (a >= 5))
			for (b = a; b <= 8; b += 1 + (b >= 5))
				add_shape(kind, 2, a, b, 0);
		add_shape(kind, 3, 2, 2, 2);
		add_shape(kind, 3, 2, 3, 4);
		add_shape(kind, 3, 3, 3, 3);
		add_shape(kind, 3, 4, 4, 4);
		add_shape(kind, 3, 2, 4, 8);
	}
	for (a = 2; a <= 5; a++)
		add_shape(MESHFABRIC_KIND_HEX, 1, a, 0, 0);
}

/* The test's own op: a op b on a value of type (as an u64 bit pattern). */
static u64 ref_op(u32 op, u32 type, u64 a, u64 b)
{
	bool wide = type == MF_RTYPE_S64 || type == MF_RTYPE_U64;
	bool sgn = type == MF_RTYPE_S32 || type == MF_RTYPE_S64;
	s64 sa = wide ? (s64)a : (s32)(u32)a, sb = wide ? (s64)b : (s32)(u32)b;
	u64 ua = wide ? a : (u32)a, ub = wide ? b : (u32)b, r;

	switch (op) {
	case MF_ROP_SUM:
		r = ua + ub;
		break;
	case MF_ROP_MIN:
		r = sgn ? (u64)(sa < sb ? sa : sb) : (ua < ub ? ua : ub);
		break;
	case MF_ROP_MAX:
		r = sgn ? (u64)(sa > sb ? sa : sb) : (ua > ub ? ua : ub);
		break;
	case MF_ROP_BAND:
		r = ua & ub;
		break;
	case MF_ROP_BOR:
		r = ua | ub;
		break;
	default:
		r = ua ^ ub;
	}
	return wide ? r : (u32)r;
}

static u64 get(const void *buf, u32 type, size_t i)
{
	if (mf_rtype_size(type) == 4)
		return ((const u32 *)buf)[i];
	return ((const u64 *)buf)[i];
}

static void put(void *buf, u32 type, size_t i, u64 v)
{
	if (mf_rtype_size(type) == 4)
		((u32 *)buf)[i] = (u32)v;
	else
		((u64 *)buf)[i] = v;
}

static bool coll_reduces(u32 coll)
{
	return coll == MF_COLL_REDUCE || coll == MF_COLL_ALLREDUCE ||
	       coll == MF_COLL_REDUCE_SCATTER;
}

/* Run s on data and compare every node's defined result with the
 * direct computation.
 */
static void data_check(const struct mf_topo *t, const struct mf_sched *s,
		       u32 coll, u32 op, u32 type, const char *what)
{
	u32 n = t->nodes, nb = mf_sched_nblocks(s), es = mf_rtype_size(type);
	u32 count = nb * 2 + 3, v, e, b, owner, from;
	void *in = calloc((size_t)n * count, es), *buf = calloc((size_t)n * count, es);
	bool need;
	u64 want;
	u32 bad = 0;

	for (v = 0; v < n; v++)
		for (e = 0; e < count; e++)
			put(in, type, (size_t)v * count + e,
			    ((u64)rand() << 33) ^ ((u64)rand() << 11) ^ rand());
	memcpy(buf, in, (size_t)n * count * es);
	EXPECT_EQ(mf_coll_run(t, s, op, type, count, buf), 0);
	for (v = 0; v < n; v++) {
		for (e = 0; e < count; e++) {
			/* the block of element e: the largest b with
			 * b * count / nb <= e
			 */
			for (b = nb; b-- > 0;)
				if ((u64)b * count / nb <= e)
					break;
			owner = b / (nb / (coll == MF_COLL_ALLTOALL ? n * n : n) ?
				     nb / (coll == MF_COLL_ALLTOALL ? n * n : n) : 1);
			switch (coll) {
			case MF_COLL_REDUCE:
			case MF_COLL_GATHER:
				need = v == s->source;
				break;
			case MF_COLL_REDUCE_SCATTER:
			case MF_COLL_SCATTER:
				need = b / (nb / n) == v;
				break;
			case MF_COLL_ALLTOALL:
				need = b % n == v;
				break;
			default:
				need = true;
			}
			if (!need)
				continue;
			if (coll_reduces(coll)) {
				want = get(in, type, e);
				for (from = 1; from < n; from++)
					want = ref_op(op, type, want,
						      get(in, type, (size_t)from * count + e));
			} else {
				from = coll == MF_COLL_BCAST ||
				       coll == MF_COLL_SCATTER ? s->source :
				       coll == MF_COLL_ALLTOALL ? b / n :
				       b / (nb / n);
				(void)owner;
				want = get(in, type, (size_t)from * count + e);
			}
			bad += get(buf, type, (size_t)v * count + e) != want;
		}
	}
	EXPECT_MSG(!bad, "%s: %u elements differ from the direct result", what,
		   bad);
	free(in);
	free(buf);
}

static void shape_name(const struct mf_topo *t, char *buf, size_t len)
{
	u32 i;
	int k = snprintf(buf, len, "%s ", mf_topo_kind_name(t->kind));

	for (i = 0; i < t->ndims; i++)
		k += snprintf(buf + k, len - k, "%s%u", i ? "x" : "", t->dims[i]);
}

/* Every algorithm x collective x shape, symbolically (the checker: the
 * op does not matter there); data for every op x type on the reductions
 * up to 9 nodes, one op and type each above.
 */
static void test_every_algorithm_every_shape(void)
{
	u32 i, a, coll, op, type, planned = 0, refused = 0;
	struct mf_coll_result res;
	struct mf_sched s;
	char name[64], what[160];
	int err;

	srand(23);
	make_shapes();
	for (i = 0; i < nshapes; i++) {
		const struct mf_topo *t = &shapes[i];

		shape_name(t, name, sizeof(name));
		for (coll = 0; coll < MF_COLL_COUNT; coll++) {
			for (a = 0; a < MF_CALGO_COUNT; a++) {
				struct mf_coll_req rq = {
					.coll = coll, .algo = a,
					.root = t->nodes / 3, .bytes = 4096,
					.esize = 8,
					/* tree: the one-port binomial tree
					 * (auto's searches take long; the
					 * reversals of the others are below)
					 */
					.bcast = MESHFABRIC_ALGO_BINOMIAL,
				};

				err = mf_coll_plan(t, &rq, &s, &res);
				snprintf(what, sizeof(what), "%s %s %s",
					 name, mf_coll_name(coll), mf_calgo_name(a));
				if (err == -EOPNOTSUPP) {
					refused++;
					EXPECT_MSG(a != MF_CALGO_AUTO, "%s: nothing", what);
					mf_sched_free(&s);
					continue;
				}
				EXPECT_MSG(!err, "%s: %d %s", what, err, res.why);
				if (err) {
					mf_sched_free(&s);
					continue;
				}
				planned++;
				EXPECT_EQ(s.coll, coll);
				/* every op x type up to 9 nodes */
				if (coll_reduces(coll) && t->nodes <= 9) {
					for (op = 0; op < MF_ROP_COUNT; op++)
						for (type = 0; type < MF_RTYPE_COUNT; type++)
							data_check(t, &s, coll, op, type, what);
				} else {
					data_check(t, &s, coll, coll % MF_ROP_COUNT,
						   coll % MF_RTYPE_COUNT, what);
				}
				mf_sched_free(&s);
			}
		}
	}
	printf("# %u shapes: %u schedules checked and run, %u refused\n",
	       nshapes, planned, refused);
	EXPECT(planned > 500);
}

/* Reduce as the reverse of a broadcast: the same steps and TCD (a
 * reversed eyes or split keeps its minimum TCD).
 */
static void test_reduce_reverses_broadcast(void)
{
	static const u32 ids[] = { MESHFABRIC_ALGO_EYES, MESHFABRIC_ALGO_SPLIT,
				   MESHFABRIC_ALGO_MINTCD, MESHFABRIC_ALGO_HEX,
				   MESHFABRIC_ALGO_FLOOD,
				   MESHFABRIC_ALGO_BINOMIAL };
	u32 i, j, n = 0;
	struct mf_coll_result res;
	struct mf_stats bst;
	struct mf_sched s;

	for (i = 0; i < nshapes; i++) {
		for (j = 0; j < sizeof(ids) / sizeof(ids[0]); j++) {
			struct mf_coll_req rq = { .coll = MF_COLL_REDUCE,
						  .algo = MF_CALGO_TREE,
						  .bcast = ids[j], .root = 0,
						  .bytes = 64, .esize = 8 };
			const struct mf_algo *al = mf_algo_by_id(ids[j]);

			/* the searches (split, mintcd) up to 32 nodes */
			if (al->supports(&shapes[i]) ||
			    ((ids[j] == MESHFABRIC_ALGO_SPLIT ||
			      ids[j] == MESHFABRIC_ALGO_MINTCD) &&
			     shapes[i].nodes > 32))
				continue;
			if (mf_test_plan(&shapes[i], ids[j], 0, &bst))
				continue;
			EXPECT_EQ(mf_coll_plan(&shapes[i], &rq, &s, &res), 0);
			EXPECT_EQ(res.st.steps, bst.steps);
			EXPECT_EQ(res.st.tcd, bst.tcd);
			EXPECT_EQ(res.st.contention, bst.contention);
			mf_sched_free(&s);
			n++;
		}
	}
	printf("# %u broadcasts reversed into reduces\n", n);
	EXPECT(n > 50);
}

/* 003 section IV: the global sum on H_n in 2n + 1 steps (n - 1 toward the
 * centre, A2's n + 2 out); the all-port tree (flood turned round, then
 * flood) in 2(n - 1), the distance bound of twice the radius.
 */
static void test_003_global_sum(void)
{
	u32 n;

	for (n = 3; n <= 8; n++) {
		struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE,
					  .algo = MF_CALGO_003, .bytes = 8,
					  .esize = 8 };
		struct mf_coll_result res;
		struct mf_coll_bounds lb;
		struct mf_sched s;
		struct mf_topo t;

		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_HEX, 1, &n), 0);
		EXPECT_EQ(mf_coll_plan(&t, &rq, &s, &res), 0);
		EXPECT_EQ(res.st.steps, 2 * n + 1);
		mf_sched_free(&s);
		rq.algo = MF_CALGO_TREE;
		rq.bcast = MESHFABRIC_ALGO_FLOOD;
		EXPECT_EQ(mf_coll_plan(&t, &rq, &s, &res), 0);
		EXPECT_EQ(res.st.steps, 2 * (n - 1));
		mf_sched_free(&s);
		mf_coll_bounds(&t, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ONE_PORT,
			       0, 8, &lb);
		EXPECT_EQ(lb.distance, n - 1);	/* H_n's diameter */
	}
}

static void test_types_and_ops(void)
{
	s32 a[3] = { -5, 7, 2147483647 }, b[3] = { 3, -9, 1 };
	u64 x = 12, y = 10;

	EXPECT_EQ(mf_rtype_by_name("f32"), -EOPNOTSUPP);
	EXPECT_EQ(mf_rtype_by_name("double"), -EOPNOTSUPP);
	EXPECT_EQ(mf_rtype_by_name("s16"), -EINVAL);
	EXPECT_EQ(mf_rtype_by_name("u64"), MF_RTYPE_U64);
	EXPECT_EQ(mf_rop_by_name("bxor"), MF_ROP_BXOR);
	EXPECT_EQ(mf_coll_by_name("reduce-scatter"), MF_COLL_REDUCE_SCATTER);
	EXPECT_EQ(mf_calgo_by_name("swing"), MF_CALGO_SWING);
	EXPECT_EQ(mf_rop_combine(MF_ROP_SUM, MF_RTYPE_S32, a, b, 3), 0);
	EXPECT_EQ(a[0], -2);
	EXPECT_EQ(a[1], -2);
	EXPECT_EQ(a[2], (s32)-2147483648LL);	/* wraps */
	EXPECT_EQ(mf_rop_combine(MF_ROP_MIN, MF_RTYPE_S32, a, b, 3), 0);
	EXPECT_EQ(a[1], -9);
	EXPECT_EQ(mf_rop_combine(MF_ROP_BAND, MF_RTYPE_U64, &x, &y, 1), 0);
	EXPECT_EQ(x, 8);
	EXPECT_EQ(mf_rop_combine(MF_ROP_COUNT, MF_RTYPE_U64, &x, &y, 1),
		  -EINVAL);
}

/* Swing's peers: rho(s) = 1, -1, 3, -5, 11 (the paper's), and on a ring
 * of 2^k each rank's contributions reach every rank once in k steps.
 */
static void test_swing_steps(void)
{
	u32 n;

	for (n = 2; n <= 64; n *= 2) {
		struct mf_coll_req rq = { .coll = MF_COLL_ALLREDUCE,
					  .algo = MF_CALGO_SWING_LAT,
					  .bytes = 64, .esize = 8 };
		struct mf_coll_result res;
		struct mf_sched s;
		struct mf_topo t;
		u32 k = 0;

		while ((1U << k) < n)
			k++;
		EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, 1, &n), 0);
		EXPECT_EQ(mf_coll_plan(&t, &rq, &s, &res), 0);
		EXPECT_EQ(res.st.steps, k);
		/* step 3 (rho = 3): rank 0 -> 3 */
		if (n >= 8) {
			EXPECT_EQ(s.send[s.step[2]].src, 0);
			EXPECT_EQ(s.send[s.step[2]].dst, 3);
		}
		if (n >= 16)
			EXPECT_EQ(s.send[s.step[3]].dst, n - 5);
		mf_sched_free(&s);
	}
}

/* The all-port step bound of every collective is the broadcast counting
 * bound (bound_model.h, the test's own): from the root where there is
 * one, else the largest over all nodes (each node must hear from every
 * other, a reduce to it turned round).  The one-port bound is
 * ceil(log2 N).  Meshes (a corner has d links, the centre 2d), tori with
 * a side of 2 (one link along it) and H_n.
 */
static void test_step_bounds(void)
{
	static const u32 shapes[][5] = {
		/* kind, d, sides */
		{ MESHFABRIC_KIND_MESH, 2, 8, 8, 1 },
		{ MESHFABRIC_KIND_MESH, 3, 2, 3, 5 },
		{ MESHFABRIC_KIND_MESH, 1, 9, 1, 1 },
		{ MESHFABRIC_KIND_TORUS, 3, 2, 4, 5 },
		{ MESHFABRIC_KIND_TORUS, 2, 7, 7, 1 },
		{ MESHFABRIC_KIND_HEX, 1, 4, 1, 1 },
	};
	u32 i, coll, root, v, want, one, worst;
	struct mf_coll_bounds lb;
	struct mf_topo t;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		EXPECT_EQ(mf_topo_init(&t, shapes[i][0], shapes[i][1],
				       &shapes[i][2]), 0);
		for (one = 0; (1U << one) < t.nodes; one++)
			;
		/* the largest bound over every node, by brute force */
		for (v = 0, worst = 0; v < t.nodes; v++)
			if (counting_bound(&t, v) > worst)
				worst = counting_bound(&t, v);
		for (coll = 0; coll < MF_COLL_COUNT; coll++) {
			bool rooted = coll == MF_COLL_BCAST ||
				      coll == MF_COLL_REDUCE ||
				      coll == MF_COLL_GATHER ||
				      coll == MF_COLL_SCATTER;

			for (root = 0; root < t.nodes; root += 1 + t.nodes / 4) {
				want = rooted ? counting_bound(&t, root) : worst;
				mf_coll_bounds(&t, coll,
					       MESHFABRIC_MODEL_ALL_PORT, root,
					       64, &lb);
				EXPECT_MSG(lb.steps == want,
					   "shape %u %s from %u: %u, want %u",
					   i, mf_coll_name(coll), root,
					   lb.steps, want);
				mf_coll_bounds(&t, coll,
					       MESHFABRIC_MODEL_ONE_PORT, root,
					       64, &lb);
				EXPECT_EQ(lb.steps, one);
			}
		}
	}
	/* by hand: 8x8 mesh, 4 steps from a corner (1 + 2 + 3 * 4 + ...
	 * reaches 64 only in the fourth), 3 from (3,4) and no fewer
	 */
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_MESH, 2, shapes[0] + 2), 0);
	mf_coll_bounds(&t, MF_COLL_BCAST, MESHFABRIC_MODEL_ALL_PORT, 0, 8, &lb);
	EXPECT_EQ(lb.steps, 4);
	mf_coll_bounds(&t, MF_COLL_ALLREDUCE, MESHFABRIC_MODEL_ALL_PORT, 35, 8,
		       &lb);
	EXPECT_EQ(lb.steps, 4);
	mf_coll_bounds(&t, MF_COLL_BCAST, MESHFABRIC_MODEL_ALL_PORT, 35, 8, &lb);
	EXPECT_EQ(lb.steps, 3);
}

int main(void)
{
	RUN(test_types_and_ops);
	RUN(test_every_algorithm_every_shape);
	RUN(test_reduce_reverses_broadcast);
	RUN(test_003_global_sum);
	RUN(test_swing_steps);
	RUN(test_step_bounds);
	return mf_test_done();
}
