/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mf_test.h - a tiny TAP test harness for host unit tests.
 *
 *   static void test_x(void) { EXPECT(a == b); EXPECT_EQ(x, 69); }
 *   int main(void) { RUN(test_x); return mf_test_done(); }
 *
 * Each RUN prints one "ok N - name" or "not ok N - name" line; failed
 * expectations print "# file:line: ..." diagnostics (at most 10 per case).
 * MF_TEST_CASE=name in the environment runs only the cases of that name
 * (scripts/test.sh unit test_route/test_shortest_paths sets it).
 * Expected values must come from an independent source (a paper's closed
 * form, exhaustive search, BFS, a symmetry), never from the code under test.
 */
#ifndef MF_TEST_H
#define MF_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "algo.h"

static int mf_t_cases, mf_t_failed_cases, mf_t_case_fails;

#define EXPECT(cond) do { \
		if (!(cond)) { \
			if (mf_t_case_fails++ < 10) \
				printf("# %s:%d: EXPECT(%s) failed\n", \
				       __FILE__, __LINE__, #cond); \
		} \
	} while (0)

#define EXPECT_EQ(a, b) do { \
		long long mf_a_ = (long long)(a), mf_b_ = (long long)(b); \
		if (mf_a_ != mf_b_) { \
			if (mf_t_case_fails++ < 10) \
				printf("# %s:%d: %s == %lld, expected " \
				       "%s == %lld\n", __FILE__, __LINE__, \
				       #a, mf_a_, #b, mf_b_); \
		} \
	} while (0)

/* Like EXPECT but with a printf-style context message. */
#define EXPECT_MSG(cond, ...) do { \
		if (!(cond)) { \
			if (mf_t_case_fails++ < 10) { \
				printf("# %s:%d: EXPECT(%s) failed: ", \
				       __FILE__, __LINE__, #cond); \
				printf(__VA_ARGS__); \
				printf("\n"); \
			} \
		} \
	} while (0)

static inline void mf_test_run(const char *name, void (*fn)(void))
{
	const char *only = getenv("MF_TEST_CASE");

	if (only && *only && strcmp(only, name))
		return;
	mf_t_case_fails = 0;
	fn();
	mf_t_cases++;
	if (mf_t_case_fails) {
		mf_t_failed_cases++;
		printf("not ok %d - %s (%d failed expectations)\n", mf_t_cases,
		       name, mf_t_case_fails);
	} else {
		printf("ok %d - %s\n", mf_t_cases, name);
	}
	fflush(stdout);
}

#define RUN(fn) mf_test_run(#fn, fn)

static inline int mf_test_done(void)
{
	const char *only = getenv("MF_TEST_CASE");

	if (only && *only && !mf_t_cases) {
		printf("not ok 1 - no case named %s\n1..1\n", only);
		return 1;
	}
	printf("1..%d\n", mf_t_cases);
	return mf_t_failed_cases ? 1 : 0;
}

/* t = the kind's n x ... x n of d dimensions (d <= MF_MAX_DIMS),
 * EXPECTing mf_topo_init() to accept it.
 */
static inline void mf_test_cube(struct mf_topo *t, u32 kind, u32 d, u32 n)
{
	u32 dims[MF_MAX_DIMS], i;

	for (i = 0; i < d; i++)
		dims[i] = n;
	EXPECT_EQ(mf_topo_init(t, kind, d, dims), 0);
}

/* Builds algorithm id from src on t (default routing) and checks it with
 * mf_check(), EXPECTing both to succeed: 0 with *st filled, or the
 * error.  The statistics are the independent checker's.
 */
static inline int mf_test_plan(const struct mf_topo *t, u32 id, u32 src,
			       struct mf_stats *st)
{
	struct mf_sched s;
	char err[160] = "";
	int ret = mf_plan(t, id, src, MESHFABRIC_ROUTE_DEFAULT, &s, NULL);

	EXPECT_MSG(ret == 0, "plan algo %u src %u: %d", id, src, ret);
	if (!ret) {
		ret = mf_check(t, &s, st, err, sizeof(err));
		EXPECT_MSG(ret == 0, "algo %u src %u: %s", id, src, err);
	}
	mf_sched_free(&s);
	return ret;
}

#endif /* MF_TEST_H */
