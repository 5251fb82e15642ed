// SPDX-License-Identifier: GPL-2.0
/*
 * loss_test.c - KUnit suite meshfabric_loss: the loss draw of timed
 * frames (mf.h, mf_loss_pass/mf_loss_pow/mf_loss_hop) against models
 * computed here by other means:
 *  - the chance a segment crosses, 2^64 (1 - loss / 10^9), equals a long
 *    division done in two 32-bit halves, for chosen and pseudo-random
 *    losses, and is exact at 1/4, 1/2 and 1;
 *  - (1 - p)^segs by squaring equals the product of segs factors (within
 *    their truncations), and is exact for p = 1/2;
 *  - the chance a frame of s segments is lost over n links of p equals
 *    1 - (1 - p)^(n s) from its binomial series, at the review's 1 ppb
 *    over 65534 hops;
 *  - with real draws, 100000 frames of 2 segments over 3 links of 10% are
 *    lost on each link with the model's frequencies (5 sigma).
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/random.h>

#include "mf.h"
#include "mf_kunit.h"

#define MF_KT_E9	1000000000ULL

/* floor(loss * 2^64 / 10^9) by long division in two 32-bit halves. */
static u64 mf_kt_loss_frac(u32 loss)
{
	u32 rem;
	u64 hi = div_u64_rem((u64)loss << 32, MF_KT_E9, &rem);

	return (hi << 32) + div_u64((u64)rem << 32, MF_KT_E9);
}

static void mf_loss_test_pass(struct kunit *test)
{
	static const u32 fixed[] = { 1, 2, 7, 1000, 123456789, 999999999 };
	u32 i, loss;

	KUNIT_EXPECT_EQ(test, mf_loss_pass(500000000), 1ULL << 63);
	KUNIT_EXPECT_EQ(test, mf_loss_pass(250000000), 3ULL << 62);
	KUNIT_EXPECT_EQ(test, mf_loss_pass(MESHFABRIC_LOSS_MAX), 0ULL);
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		KUNIT_EXPECT_EQ(test, mf_loss_pass(fixed[i]),
				-mf_kt_loss_frac(fixed[i]));
	for (i = 0; i < 1000; i++) {
		loss = get_random_u32_below(MESHFABRIC_LOSS_MAX - 1) + 1;
		KUNIT_EXPECT_EQ(test, mf_loss_pass(loss),
				-mf_kt_loss_frac(loss));
	}
}

static void mf_loss_test_pow(struct kunit *test)
{
	static const u32 losses[] = { 1, 1000, 10000000, 300000000,
				      900000000 };
	u64 pass, naive, got, diff;
	u32 i, s;

	/* (1/2)^s = 2^(64 - s): products of powers of two are exact */
	for (s = 1; s <= 64; s++)
		KUNIT_EXPECT_EQ(test, mf_loss_pow(1ULL << 63, s),
				1ULL << (64 - s));
	for (i = 0; i < ARRAY_SIZE(losses); i++) {
		pass = mf_loss_pass(losses[i]);
		naive = pass;
		for (s = 1; s <= 300; s++) {
			if (s > 1)
				naive = mul_u64_u64_shr(naive, pass, 64);
			got = mf_loss_pow(pass, s);
			diff = got > naive ? got - naive : naive - got;
			/* each product truncates by < 1 unit */
			KUNIT_EXPECT_LE_MSG(test, diff, 2ULL * s,
					    "loss %u segs %u", losses[i], s);
		}
	}
	KUNIT_EXPECT_EQ(test, mf_loss_pow(0, 5), 0ULL);
}

/* 10^18 (1 - (1 - loss / 10^9)^m) by its alternating binomial series:
 * t_(k+1) = t_k (m - k) p / (k + 1), until the terms vanish.
 */
static u64 mf_kt_series_e18(u32 loss, u64 m)
{
	u64 t = m * loss * MF_KT_E9, sum = 0;
	u32 k;

	for (k = 0; t && k < m; k++) {
		if (k & 1)
			sum -= t;
		else
			sum += t;
		t = mul_u64_u64_div_u64(t, (m - k - 1) * loss,
					(k + 2) * MF_KT_E9);
	}
	return sum;
}

static void mf_loss_test_path(struct kunit *test)
{
	static const struct { u32 loss, hops, segs; } c[] = {
		{ 1, 65534, 1 }, { 1, 65534, 44 }, { 1000, 1000, 3 },
		{ 100000, 100, 1 },
	};
	struct mf_lossdraw ld;
	u64 want, got, diff;
	u32 i, h;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		memset(&ld, 0, sizeof(ld));
		ld.surv = U64_MAX;
		ld.drawn = true;
		ld.draw = 0;		/* never lost: ld.surv is S_n */
		for (h = 0; h < c[i].hops; h++)
			KUNIT_ASSERT_FALSE(test, mf_loss_hop(&ld, c[i].segs,
							     c[i].loss));
		got = mul_u64_u64_shr(U64_MAX - ld.surv, 1000000000000000000ULL,
				      64);
		want = mf_kt_series_e18(c[i].loss,
					(u64)c[i].hops * c[i].segs);
		diff = got > want ? got - want : want - got;
		/* 10^-9 relative, or the truncations (< 1e-15 absolute) */
		KUNIT_EXPECT_LE_MSG(test, diff, want / 1000000000 + 1000,
				    "loss %u hops %u segs %u: %llu vs %llu e-18",
				    c[i].loss, c[i].hops, c[i].segs, got, want);
	}
	/* loss 0 never draws nor loses; loss 100% always loses */
	memset(&ld, 0, sizeof(ld));
	ld.surv = U64_MAX;
	KUNIT_EXPECT_FALSE(test, mf_loss_hop(&ld, 1, 0));
	KUNIT_EXPECT_FALSE(test, ld.drawn);
	KUNIT_EXPECT_TRUE(test, mf_loss_hop(&ld, 1, MESHFABRIC_LOSS_MAX));
}

/* |x - n q| <= 5 sqrt(n q (1 - q)), q = num / den, in integers. */
static bool mf_kt_within_5sigma(u64 x, u64 n, u64 num, u64 den)
{
	u64 mean = div64_u64(n * num, den);
	u64 d = x > mean ? x - mean : mean - x;

	/* d^2 <= 25 n q (1 - q) = 25 n num (den - num) / den^2 */
	if (d >= 1U << 16)
		return false;
	return d * d <= div64_u64(25 * n * num * (den - num), den * den) + 1;
}

static void mf_loss_test_draws(struct kunit *test)
{
	const u32 n = 100000, loss = 100000000;	/* 10% per segment */
	u32 lost[4] = { 0 }, i, h;
	struct mf_lossdraw ld;

	for (i = 0; i < n; i++) {
		memset(&ld, 0, sizeof(ld));
		ld.surv = U64_MAX;
		for (h = 0; h < 3; h++)
			if (mf_loss_hop(&ld, 2, loss))
				break;
		lost[h]++;
	}
	/* per link the frame crosses with 0.81: lost on link 1, 2, 3 with
	 * 0.19, 0.81 * 0.19, 0.81^2 * 0.19; through with 0.81^3
	 */
	KUNIT_EXPECT_TRUE(test, mf_kt_within_5sigma(lost[0], n, 19, 100));
	KUNIT_EXPECT_TRUE(test, mf_kt_within_5sigma(lost[1], n, 1539, 10000));
	KUNIT_EXPECT_TRUE(test, mf_kt_within_5sigma(lost[2], n, 124659,
						    1000000));
	KUNIT_EXPECT_TRUE(test, mf_kt_within_5sigma(lost[3], n, 531441,
						    1000000));
	kunit_info(test, "lost on links 1-3: %u %u %u, through %u of %u",
		   lost[0], lost[1], lost[2], lost[3], n);
}

static struct kunit_case mf_loss_test_cases[] = {
	KUNIT_CASE(mf_loss_test_pass),
	KUNIT_CASE(mf_loss_test_pow),
	KUNIT_CASE(mf_loss_test_path),
	KUNIT_CASE(mf_loss_test_draws),
	{}
};

MF_KUNIT_SUITE(loss);
