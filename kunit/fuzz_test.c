// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_test.c - KUnit suite meshfabric_fuzz: the seeded random sequences
 * of the VM fuzzer (mfctl fuzz, selftests/mfctl.c) that reach code
 * without a user, so that they also run under KASAN
 * (kunit/kasan.kunitconfig):
 *  - the validators of CREATE, BCAST and BCAST_V1 (its 88 bytes, the rest
 *    zero as the ioctl copies it), LINK_SET, LINK_GET and SCHED_LOAD:
 *    random, mostly near-valid structs; each validator accepts exactly
 *    what a restatement of the uapi rules written here accepts, and
 *    refuses with the errno of a rule the request breaks;
 *  - SCHED_LOAD's decoder: encodings of the core's schedules decode to
 *    the same schedule, and mutated ones (bits, bytes, truncation,
 *    insertion, the longest LEB128 numbers, wrong counts) either are
 *    refused or decode to sends whose paths are chains of neighbours;
 *  - the core: every algorithm on random small shapes and sources builds
 *    a schedule the checker accepts, and the checker rejects the same
 *    schedule with one path node replaced by a node that is not adjacent
 *    to its predecessor.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "mf.h"
#include "algo.h"
#include "check.h"
#include "schedcode.h"
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

/* The errnos a refused request may get: bit 0 -EINVAL, bit 1 -E2BIG. */
#define MF_FZ_INVAL	1U
#define MF_FZ_2BIG	2U

/* The validator's answer err against the rules broken (a mask of the
 * above): 0 if none, else the errno of one of them.
 */
static void mf_fz_expect(struct kunit *test, int err, u32 broken, u32 i)
{
	if (!broken)
		KUNIT_EXPECT_EQ_MSG(test, err, 0, "case %u", i);
	else
		KUNIT_EXPECT_TRUE_MSG(test,
				      (err == -EINVAL && (broken & MF_FZ_INVAL)) ||
				      (err == -E2BIG && (broken & MF_FZ_2BIG)),
				      "case %u: %d for rules %#x", i, err, broken);
}

/* Around lim, the first value out of range: mostly below it. */
static u64 mf_fz_near(struct rnd_state *r, u64 lim)
{
	u64 v = (u64)prandom_u32_state(r) << 32 | prandom_u32_state(r), rem;

	switch (mf_fz_pick(r, 10)) {
	case 0: return 0;
	case 1: return lim - 1;
	case 2: return lim;
	case 3: return lim + 1;
	case 4: return U32_MAX;
	case 5: return v;
	default:
		div64_u64_rem(v, lim ? lim : 1, &rem);
		return rem;
	}
}

/* BCAST's rules (uapi): flags, reserved, algo, len, ethertype. */
static u32 mf_fz_bcast_broken(const struct meshfabric_bcast *b)
{
	u32 broken = 0;

	if ((b->flags & ~MESHFABRIC_BCAST_ASYNC) || b->crossed)
		broken |= MF_FZ_INVAL;
	if (b->algo > MESHFABRIC_ALGO_MAX && b->algo != MESHFABRIC_ALGO_USER)
		broken |= MF_FZ_INVAL;
	if (b->len > MESHFABRIC_MAX_PAYLOAD)
		broken |= MF_FZ_2BIG;
	if (b->ethertype < 0x0600 || b->ethertype > 0xffff)
		broken |= MF_FZ_INVAL;
	return broken;
}

static void mf_fuzz_test_bcast(struct kunit *test)
{
	struct meshfabric_bcast b;
	struct rnd_state r;
	u32 i, accepted = 0, v1;

	prandom_seed_state(&r, MF_FZ_SEED + 2);
	for (i = 0; i < 20000; i++) {
		/* as the user wrote it: outputs may hold anything */
		prandom_bytes_state(&r, &b, sizeof(b));
		b.flags = mf_fz_pick(&r, 4) ? 0 : mf_fz_near(&r, 2);
		b.algo = mf_fz_pick(&r, 5) ? mf_fz_pick(&r, MESHFABRIC_ALGO_MAX + 1) :
			 mf_fz_pick(&r, 2) ? MESHFABRIC_ALGO_USER + mf_fz_pick(&r, 2) :
			 mf_fz_near(&r, MESHFABRIC_ALGO_MAX + 1);
		b.len = mf_fz_near(&r, MESHFABRIC_MAX_PAYLOAD + 1);
		b.ethertype = mf_fz_pick(&r, 3) ? 0x88b5 : mf_fz_near(&r, 0x10000);
		if (!mf_fz_pick(&r, 3))
			b.ethertype = 0x0600 - mf_fz_pick(&r, 2);
		v1 = mf_fz_pick(&r, 2);
		b.crossed = mf_fz_pick(&r, 10) ? 0 : prandom_u32_state(&r);
		if (v1)	/* BCAST_V1: 88 bytes copied into a zeroed struct */
			memset((u8 *)&b + 88, 0, sizeof(b) - 88);
		mf_fz_expect(test, mf_validate_bcast(&b), mf_fz_bcast_broken(&b), i);
		accepted += !mf_fz_bcast_broken(&b);
	}
	KUNIT_EXPECT_GT(test, accepted, 1000U);
	KUNIT_EXPECT_LT(test, accepted, 19000U);
}

/* LINK_SET's rules (uapi): flags known and not none, count and reserved
 * 0, each value within its limit, no value for a field not applied (the
 * ABI ignores nothing), down 0 or 1 with MESHFABRIC_LINK_STATE only.
 */
static u32 mf_fz_link_set_broken(const struct meshfabric_link_set *l)
{
	const u32 all = MESHFABRIC_LINK_RATE | MESHFABRIC_LINK_DELAY |
			MESHFABRIC_LINK_QUEUE | MESHFABRIC_LINK_LOSS |
			MESHFABRIC_LINK_SWITCHING | MESHFABRIC_LINK_STATE;
	bool bad;

	bad = !l->flags || (l->flags & ~all) || l->count || l->reserved0 ||
	      l->reserved;
	bad |= l->rate > MESHFABRIC_RATE_MAX ||
	       (l->rate && !(l->flags & MESHFABRIC_LINK_RATE));
	bad |= l->delay_ns > MESHFABRIC_DELAY_MAX ||
	       (l->delay_ns && !(l->flags & MESHFABRIC_LINK_DELAY));
	if (l->flags & MESHFABRIC_LINK_QUEUE)
		bad |= !l->queue || l->queue > MESHFABRIC_QUEUE_MAX;
	else
		bad |= l->queue != 0;
	bad |= l->loss > MESHFABRIC_LOSS_MAX ||
	       (l->loss && !(l->flags & MESHFABRIC_LINK_LOSS));
	bad |= l->switching > MESHFABRIC_SWITCH_CUT_THROUGH ||
	       (l->switching && !(l->flags & MESHFABRIC_LINK_SWITCHING));
	bad |= l->down > 1 || (l->down && !(l->flags & MESHFABRIC_LINK_STATE));
	return bad ? MF_FZ_INVAL : 0;
}

static void mf_fuzz_test_link_set(struct kunit *test)
{
	struct meshfabric_link_set l;
	struct rnd_state r;
	u32 i, f, accepted = 0;

	prandom_seed_state(&r, MF_FZ_SEED + 3);
	for (i = 0; i < 20000; i++) {
		memset(&l, 0, sizeof(l));
		f = mf_fz_pick(&r, 64);
		if (!mf_fz_pick(&r, 20))
			f |= 1U << mf_fz_pick(&r, 32);
		l.flags = f;
		/* node and port are checked against the fabric, not here */
		l.node = prandom_u32_state(&r);
		l.port = prandom_u32_state(&r);
		if (f & MESHFABRIC_LINK_RATE || !mf_fz_pick(&r, 20))
			l.rate = mf_fz_near(&r, MESHFABRIC_RATE_MAX + 1);
		if (f & MESHFABRIC_LINK_DELAY || !mf_fz_pick(&r, 20))
			l.delay_ns = mf_fz_near(&r, MESHFABRIC_DELAY_MAX + 1);
		if (f & MESHFABRIC_LINK_QUEUE || !mf_fz_pick(&r, 20))
			l.queue = mf_fz_near(&r, MESHFABRIC_QUEUE_MAX + 1);
		if (f & MESHFABRIC_LINK_LOSS || !mf_fz_pick(&r, 20))
			l.loss = mf_fz_near(&r, MESHFABRIC_LOSS_MAX + 1);
		if (f & MESHFABRIC_LINK_SWITCHING || !mf_fz_pick(&r, 20))
			l.switching = mf_fz_near(&r, MESHFABRIC_SWITCH_CUT_THROUGH + 1);
		if (f & MESHFABRIC_LINK_STATE || !mf_fz_pick(&r, 20))
			l.down = mf_fz_near(&r, 2);
		if (!mf_fz_pick(&r, 30))
			l.count = prandom_u32_state(&r);
		if (!mf_fz_pick(&r, 30))
			l.reserved0 = prandom_u32_state(&r);
		if (!mf_fz_pick(&r, 30))
			l.reserved = 1ULL << mf_fz_pick(&r, 64);
		mf_fz_expect(test, mf_validate_link_set(&l),
			     mf_fz_link_set_broken(&l), i);
		accepted += !mf_fz_link_set_broken(&l);
	}
	KUNIT_EXPECT_GT(test, accepted, 200U);
	KUNIT_EXPECT_LT(test, accepted, 19000U);
}

static void mf_fuzz_test_link_get(struct kunit *test)
{
	struct meshfabric_link_get lg;
	struct rnd_state r;
	u32 i, accepted = 0, broken;

	prandom_seed_state(&r, MF_FZ_SEED + 4);
	for (i = 0; i < 5000; i++) {
		/* in: id, links_ptr, first, count (checked against the
		 * fabric), flags MESHFABRIC_LINK_XPORTS or 0; the out
		 * fields and reserved must be 0
		 */
		memset(&lg, 0, sizeof(lg));
		lg.id = prandom_u32_state(&r);
		lg.links_ptr = (u64)prandom_u32_state(&r) << 32;
		lg.first = prandom_u32_state(&r);
		lg.count = prandom_u32_state(&r);
		if (!mf_fz_pick(&r, 3))
			((u8 *)&lg)[mf_fz_pick(&r, sizeof(lg))] ^=
				1 << mf_fz_pick(&r, 8);
		broken = (lg.flags & ~MESHFABRIC_LINK_XPORTS) || lg.nlinks ||
			 lg.switching || lg.now_ns ||
			 lg.reserved[0] || lg.reserved[1] ? MF_FZ_INVAL : 0;
		mf_fz_expect(test, mf_validate_link_get(&lg), broken, i);
		accepted += !broken;
	}
	KUNIT_EXPECT_GT(test, accepted, 3000U);
	KUNIT_EXPECT_LT(test, accepted, 4900U);
}

/* SCHED_LOAD's rules (uapi): flags, the out fields and reserved 0; an
 * UNLOAD names the source only; else a known model and code_len within
 * MESHFABRIC_SCHED_CODE_MAX (why_ptr and why_len may be anything).
 */
static u32 mf_fz_sched_load_broken(const struct meshfabric_sched_load *sl)
{
	u32 broken = 0;

	if ((sl->flags & ~MESHFABRIC_SCHED_UNLOAD) || sl->tcd ||
	    sl->max_link_load || sl->reserved0 || sl->contention || sl->reserved)
		broken |= MF_FZ_INVAL;
	if (sl->flags & MESHFABRIC_SCHED_UNLOAD) {
		if (sl->model || sl->nsteps || sl->nsends || sl->code_ptr ||
		    sl->code_len)
			broken |= MF_FZ_INVAL;
		return broken;
	}
	if (sl->model != MESHFABRIC_MODEL_ONE_PORT &&
	    sl->model != MESHFABRIC_MODEL_ALL_PORT)
		broken |= MF_FZ_INVAL;
	if (sl->code_len > MESHFABRIC_SCHED_CODE_MAX)
		broken |= MF_FZ_2BIG;
	return broken;
}

static void mf_fuzz_test_sched_load(struct kunit *test)
{
	struct meshfabric_sched_load sl;
	struct rnd_state r;
	u32 i, accepted = 0, unloads = 0;

	prandom_seed_state(&r, MF_FZ_SEED + 5);
	for (i = 0; i < 20000; i++) {
		memset(&sl, 0, sizeof(sl));
		sl.id = prandom_u32_state(&r);
		sl.source = prandom_u32_state(&r);
		sl.why_ptr = prandom_u32_state(&r);
		sl.why_len = prandom_u32_state(&r);
		if (mf_fz_pick(&r, 4)) {
			sl.model = mf_fz_pick(&r, 6) ? 1 + mf_fz_pick(&r, 2) :
				   mf_fz_near(&r, 3);
			sl.nsteps = prandom_u32_state(&r);
			sl.nsends = prandom_u32_state(&r);
			sl.code_ptr = prandom_u32_state(&r);
			sl.code_len = mf_fz_near(&r, MESHFABRIC_SCHED_CODE_MAX + 1);
		} else {
			sl.flags = MESHFABRIC_SCHED_UNLOAD;
			if (!mf_fz_pick(&r, 3))
				((u32 *)&sl)[3 + mf_fz_pick(&r, 3)] = 1;
		}
		if (!mf_fz_pick(&r, 8))
			((u8 *)&sl)[mf_fz_pick(&r, sizeof(sl))] ^=
				1 << mf_fz_pick(&r, 8);
		mf_fz_expect(test, mf_validate_sched_load(&sl),
			     mf_fz_sched_load_broken(&sl), i);
		accepted += !mf_fz_sched_load_broken(&sl);
		unloads += !mf_fz_sched_load_broken(&sl) &&
			   (sl.flags & MESHFABRIC_SCHED_UNLOAD);
	}
	KUNIT_EXPECT_GT(test, accepted, 2000U);
	KUNIT_EXPECT_GT(test, unloads, 500U);
	KUNIT_EXPECT_LT(test, accepted, 19000U);
}

/* An encoding mutated in place (len bytes of cap): its new length. */
static size_t mf_fz_mutate(struct rnd_state *r, u8 *code, size_t len,
			   size_t cap)
{
	size_t at = mf_fz_pick(r, len), i;

	switch (mf_fz_pick(r, 8)) {
	case 0:
		code[at] ^= 1 << mf_fz_pick(r, 8);
		break;
	case 6:	/* a small number: another port, count or node */
		code[at] = mf_fz_pick(r, 6);
		break;
	case 1:
		code[at] = prandom_u32_state(r);
		break;
	case 2:
		return at;			/* truncated */
	case 3:
		if (len < cap)			/* a byte inserted */
			memmove(code + at + 1, code + at, len++ - at);
		break;
	case 4:
		memmove(code + at, code + at + 1, --len - at);
		break;
	case 5:	/* the longest numbers LEB128 allows, and longer */
		for (i = at; i < len && i < at + 6; i++)
			code[i] = i < at + 4 + mf_fz_pick(r, 2) ? 0xff : 0x0f;
		break;
	default:
		while (len < cap && mf_fz_pick(r, 8))
			code[len++] = prandom_u32_state(r);
	}
	return len;
}

static void mf_fuzz_test_sched_code(struct kunit *test)
{
	u32 dims[3], i, a, src, k, nsteps, nsends, model, refused = 0, taken = 0;
	const struct mf_algo *used;
	struct mf_sched s, d;
	struct rnd_state r;
	struct mf_topo t;
	size_t len, cap = 4096;
	char why[96];
	u8 *code;
	s64 n;

	code = kunit_kzalloc(test, cap, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, code);
	prandom_seed_state(&r, MF_FZ_SEED + 6);
	for (i = 0; i < 400; i++) {
		u32 kind = 1 + mf_fz_pick(&r, 3);
		u32 nd = kind == MESHFABRIC_KIND_HEX ? 1 : 1 + mf_fz_pick(&r, 3);

		dims[0] = 2 + mf_fz_pick(&r, 4);
		dims[1] = 2 + mf_fz_pick(&r, 4);
		dims[2] = 2 + mf_fz_pick(&r, 2);
		KUNIT_ASSERT_EQ(test, mf_topo_init(&t, kind, nd, dims), 0);
		src = mf_fz_pick(&r, t.nodes);
		a = 1 + mf_fz_pick(&r, MESHFABRIC_ALGO_MAX);
		if (mf_plan(&t, a, src, MESHFABRIC_ROUTE_DEFAULT, &s, &used)) {
			mf_sched_free(&s);
			continue;
		}
		n = mf_sched_encode(&t, &s, code, cap);
		KUNIT_ASSERT_GT_MSG(test, n, 0, "algo %u", a);
		/* the encoding decodes to the schedule encoded */
		KUNIT_ASSERT_EQ(test, mf_sched_decode(&t, s.model, src, s.nsteps,
						      s.nsends, code, n, &d, why,
						      sizeof(why)), 0);
		KUNIT_EXPECT_EQ(test, d.nsends, s.nsends);
		KUNIT_EXPECT_EQ(test, d.npath, s.npath);
		KUNIT_EXPECT_EQ(test, memcmp(d.path, s.path,
					     s.npath * sizeof(*s.path)), 0);
		mf_sched_free(&d);
		nsteps = s.nsteps;
		nsends = s.nsends;
		model = s.model;
		mf_sched_free(&s);
		/* mutated: refused, or sends along chains of neighbours */
		for (k = 0; k < 8; k++) {
			u32 ns = nsteps, nn = nsends, m = model, j, p;
			int err;

			if (n <= 0)
				break;
			len = mf_fz_mutate(&r, code, n, cap);
			if (!mf_fz_pick(&r, 6))
				ns += mf_fz_pick(&r, 2) ? 1 : -1;
			if (!mf_fz_pick(&r, 6))
				nn += mf_fz_pick(&r, 2) ? 1 : -1;
			if (!mf_fz_pick(&r, 10))
				m ^= 3;
			err = mf_sched_decode(&t, m, src, ns, nn, code, len, &d,
					      why, sizeof(why));
			KUNIT_EXPECT_TRUE_MSG(test, !err || err == -EINVAL ||
					      err == -E2BIG, "err %d", err);
			if (err) {
				refused++;
				mf_sched_free(&d);
				break;	/* the encoding is spoilt: next one */
			}
			taken++;
			KUNIT_EXPECT_EQ(test, d.nsends, nn);
			for (j = 0; j < d.nsends; j++)
				for (p = d.send[j].path;
				     p < d.send[j].path + d.send[j].hops; p++)
					KUNIT_EXPECT_EQ(test,
							mf_topo_distance(&t, d.path[p],
									 d.path[p + 1]),
							1U);
			mf_sched_free(&d);
			n = len;
		}
	}
	kunit_info(test, "mutated encodings: %u refused, %u decoded\n",
		   refused, taken);
	/* a test of the test: mutations were refused and accepted */
	KUNIT_EXPECT_GT(test, refused, 100U);
	KUNIT_EXPECT_GT(test, taken, 0U);
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
	KUNIT_CASE(mf_fuzz_test_bcast),
	KUNIT_CASE(mf_fuzz_test_link_set),
	KUNIT_CASE(mf_fuzz_test_link_get),
	KUNIT_CASE(mf_fuzz_test_sched_load),
	KUNIT_CASE(mf_fuzz_test_sched_code),
	KUNIT_CASE(mf_fuzz_test_schedules),
	{}
};

MF_KUNIT_SUITE(fuzz);
