// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_test.c - KUnit suite meshfabric_fuzz: the seeded random sequences
 * of the VM fuzzer (selftests/mffuzz.c) that reach code without a user,
 * so that they also run under KASAN (kunit/kasan.kunitconfig):
 *  - CREATE validation: random, mostly near-valid structs; the validator
 *    accepts exactly what a restatement of the uapi rules written here
 *    accepts;
 *  - the core: every algorithm on random small shapes and sources builds
 *    a schedule the checker accepts, and the checker rejects the same
 *    schedule with one path node replaced by a node that is not adjacent
 *    to its predecessor.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "mf.h"
#include "algo.h"
#include "check.h"
#include "mf_kunit.h"

#define MF_FZ_SEED	0x6d66757aULL	/* "mfuz" */

static u32 mf_fz_pick(struct rnd_state *r, u32 n)
{
	return n ? prandom_u32_state(r) % n : 0;
}

/* The uapi's CREATE rules, restated: 0 if c is acceptable. */
static bool mf_fz_create_ok(const struct meshfabric_create *c)
{
	u64 nodes = 1;
	u32 i, len;

	if (c->flags || c->reserved[0] || c->reserved[1] || c->reserved[2])
		return false;
	if (c->kind < 1 || c->kind > 3 || c->ndims < 1 || c->ndims > 8)
		return false;
	if (c->kind == MESHFABRIC_KIND_HEX && c->ndims != 1)
		return false;
	for (i = 0; i < 8; i++) {
		if (i >= c->ndims) {
			if (c->dims[i])
				return false;
			continue;
		}
		if (c->dims[i] < 2 || c->dims[i] > 65536)
			return false;
		nodes *= c->dims[i];
		if (nodes > 65536)
			return false;
	}
	if (c->kind == MESHFABRIC_KIND_HEX &&
	    3ULL * c->dims[0] * (c->dims[0] - 1) + 1 > 65536)
		return false;
	if (c->routing > MESHFABRIC_ROUTE_MAX)
		return false;
	for (len = 0; len < 16 && c->name[len]; len++) {
		u8 ch = c->name[len];
		bool letter = (ch | 32) >= 'a' && (ch | 32) <= 'z';

		if (!letter && !(ch >= '0' && ch <= '9' && len) &&
		    !((ch == '.' || ch == '_') && len))
			return false;
	}
	if (len == 16)
		return false;
	if (len == 2 && !memcmp(c->name, "lo", 2))
		return false;
	if (len > 2 && c->name[0] == 'm' && c->name[1] == 'f') {
		for (i = 2; i < len; i++)
			if (c->name[i] < '0' || c->name[i] > '9')
				return true;
		return false;
	}
	return true;
}

static void mf_fuzz_test_create(struct kunit *test)
{
	static const char *const names[] = {
		"", "f0", "a-b", "lo", "mf7", "mf7x", "1a", "a.b_c", "a b",
	};
	struct meshfabric_create c;
	struct rnd_state r;
	u32 i, k, accepted = 0;

	prandom_seed_state(&r, MF_FZ_SEED);
	for (i = 0; i < 20000; i++) {
		memset(&c, 0, sizeof(c));
		c.kind = 1 + mf_fz_pick(&r, 4);
		c.ndims = mf_fz_pick(&r, 10);
		for (k = 0; k < 8; k++)
			if (k < c.ndims || !mf_fz_pick(&r, 50))
				c.dims[k] = mf_fz_pick(&r, 20) ? mf_fz_pick(&r, 20) :
					    prandom_u32_state(&r);
		c.routing = mf_fz_pick(&r, 7);
		if (!mf_fz_pick(&r, 30))
			c.flags = prandom_u32_state(&r);
		if (!mf_fz_pick(&r, 30))
			c.reserved[mf_fz_pick(&r, 3)] = prandom_u32_state(&r);
		if (mf_fz_pick(&r, 8))
			strscpy((char *)c.name, names[mf_fz_pick(&r, ARRAY_SIZE(names))],
				sizeof(c.name));
		else
			prandom_bytes_state(&r, c.name, sizeof(c.name));
		KUNIT_ASSERT_EQ_MSG(test, mf_validate_create(&c) == 0,
				    mf_fz_create_ok(&c), "case %u", i);
		accepted += mf_fz_create_ok(&c);
	}
	/* a test of the test: both outcomes occurred */
	KUNIT_EXPECT_GT(test, accepted, 100U);
	KUNIT_EXPECT_LT(test, accepted, 19900U);
}

static void mf_fuzz_test_schedules(struct kunit *test)
{
	u32 dims[3], i, a, src, rejected = 0;
	const struct mf_algo *used;
	struct mf_stats st;
	struct rnd_state r;
	struct mf_sched s;
	struct mf_topo t;
	char why[96];
	u32 kind, nd;

	prandom_seed_state(&r, MF_FZ_SEED + 1);
	for (i = 0; i < 300; i++) {
		kind = 1 + mf_fz_pick(&r, 3);
		nd = kind == MESHFABRIC_KIND_HEX ? 1 : 1 + mf_fz_pick(&r, 3);
		dims[0] = 2 + mf_fz_pick(&r, 4);
		dims[1] = 2 + mf_fz_pick(&r, 4);
		dims[2] = 2 + mf_fz_pick(&r, 2);
		KUNIT_ASSERT_EQ(test, mf_topo_init(&t, kind, nd, dims), 0);
		src = mf_fz_pick(&r, t.nodes);
		for (a = 1; a <= MESHFABRIC_ALGO_MAX; a++) {
			u32 sn, p, bad;

			if (mf_plan(&t, a, src, MESHFABRIC_ROUTE_DEFAULT, &s, &used)) {
				mf_sched_free(&s);
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test, mf_check(&t, &s, &st, why, sizeof(why)),
					    0, "algo %u: %s", a, why);
			/* one path node replaced by a non-neighbour of the
			 * node before it
			 */
			sn = mf_fz_pick(&r, s.nsends);
			p = s.send[sn].path + 1 + mf_fz_pick(&r, s.send[sn].hops);
			bad = mf_fz_pick(&r, t.nodes);
			if (mf_topo_distance(&t, s.path[p - 1], bad) != 1) {
				s.path[p] = bad;
				KUNIT_EXPECT_EQ_MSG(test,
						    mf_check(&t, &s, &st, why, sizeof(why)),
						    -EINVAL, "algo %u: mutilated", a);
				rejected++;
			}
			mf_sched_free(&s);
		}
	}
	KUNIT_EXPECT_GT(test, rejected, 100U);
}

static struct kunit_case mf_fuzz_test_cases[] = {
	KUNIT_CASE(mf_fuzz_test_create),
	KUNIT_CASE(mf_fuzz_test_schedules),
	{}
};

MF_KUNIT_SUITE(fuzz);
