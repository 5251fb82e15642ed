// SPDX-License-Identifier: GPL-2.0
/*
 * selftest_moved_test.c - KUnit suite meshfabric_selftest_moved: checks
 * moved here from the VM selftests (issue 10 item 3), which need no user
 * process.  The VM fuzzer issued random command numbers (a tenth of its
 * calls, selftests/mffuzz.c before); here the same distribution, seeded:
 * magic 0xF4 with any direction, number and size, or any 32-bit value,
 * and mf_ioctl() answers -ENOTTY to every one that is not a command of
 * the uapi (those are the VM fuzzer's, selftests/mfctl.c).
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "mf.h"

static const unsigned int mf_moved_known[] = {
	MESHFABRIC_IOC_CREATE, MESHFABRIC_IOC_DESTROY, MESHFABRIC_IOC_INFO,
	MESHFABRIC_IOC_ATTACH, MESHFABRIC_IOC_ROUTE, MESHFABRIC_IOC_BCAST,
	MESHFABRIC_IOC_BCAST_V1, MESHFABRIC_IOC_LINK_STATS,
	MESHFABRIC_IOC_LINK_SET, MESHFABRIC_IOC_LINK_GET,
	MESHFABRIC_IOC_SCHED_LOAD, MESHFABRIC_IOC_COLLECTIVE,
	MESHFABRIC_IOC_PORT, MESHFABRIC_IOC_PORT_GET,
	MESHFABRIC_IOC_TUNNEL_SET, MESHFABRIC_IOC_TUNNEL_GET,
};

static bool mf_moved_is_known(unsigned int cmd)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(mf_moved_known); i++)
		if (cmd == mf_moved_known[i])
			return true;
	return false;
}

static void mf_moved_test_cmd_numbers(struct kunit *test)
{
	u32 i, tried = 0, magic = 0;
	struct rnd_state r;
	unsigned int cmd;

	prandom_seed_state(&r, 0x6d66636dULL);	/* "mfcm" */
	for (i = 0; i < 20000; i++) {
		if (prandom_u32_state(&r) % 2)
			cmd = _IOC(prandom_u32_state(&r) % 4,
				   MESHFABRIC_IOC_MAGIC,
				   prandom_u32_state(&r) % 16,
				   prandom_u32_state(&r) % 512);
		else
			cmd = prandom_u32_state(&r);
		if (mf_moved_is_known(cmd))
			continue;
		tried++;
		magic += _IOC_TYPE(cmd) == MESHFABRIC_IOC_MAGIC;
		KUNIT_EXPECT_EQ_MSG(test, mf_ioctl(NULL, cmd, 0), (long)-ENOTTY,
				    "cmd %#x", cmd);
	}
	/* a test of the test: mostly unknown numbers, half of them ours */
	KUNIT_EXPECT_GT(test, tried, 19000U);
	KUNIT_EXPECT_GT(test, magic, 9000U);
}

static struct kunit_case mf_moved_test_cases[] = {
	KUNIT_CASE(mf_moved_test_cmd_numbers),
	{}
};

static struct kunit_suite mf_moved_test_suite = {
	.name = "meshfabric_selftest_moved",
	.test_cases = mf_moved_test_cases,
};

kunit_test_suite(mf_moved_test_suite);
