// SPDX-License-Identifier: GPL-2.0
/*
 * uapi_test.c - KUnit suite meshfabric_uapi: ioctl argument validation of
 * meshfabric.ko as parameterised tables, each bad input against the errno
 * the ABI header (include/uapi/linux/meshfabric.h) documents for it:
 * non-zero flags or reserved fields and unknown kinds, routings and
 * algorithms -EINVAL, sizes above the documented limits -E2BIG, unknown
 * commands -ENOTTY; then the checks that need the fabric list: routing
 * not defined on the kind -EINVAL, a name in use -EEXIST, an unknown id
 * -ENOENT, more than MESHFABRIC_MAX_FABRICS fabrics -E2BIG.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "mf.h"
#include "name.h"
#include "mf_kunit.h"

/* A bad input: the u32 at byte offset off of a valid request set to
 * value (MF_UF_NONE: none), or the name set, against the errno expected.
 */
struct mf_uapi_case {
	const char *desc;
	size_t off;
	u32 value;
	const char *name;	/* create: bytes copied (up to 16, no NUL added) */
	int err;
};

#define MF_UF_NONE	SIZE_MAX
#define MF_UC(field)	offsetof(struct meshfabric_create, field)
#define MF_UB(field)	offsetof(struct meshfabric_bcast, field)
#define MF_UL(field)	offsetof(struct meshfabric_collective, field)

static void mf_uapi_apply(void *req, const struct mf_uapi_case *p)
{
	if (p->off != MF_UF_NONE)
		*(u32 *)((u8 *)req + p->off) = p->value;
}

/* CREATE: applied to a valid 4 x 4 torus request */
static const struct mf_uapi_case mf_create_cases[] = {
	{ "valid 4x4 torus", MF_UF_NONE, 0, NULL, 0 },
	{ "flags CREATE_ID (id 0)", MF_UC(flags), MESHFABRIC_CREATE_ID, NULL, 0 },
	{ "flags 2", MF_UC(flags), 2, NULL, -EINVAL },
	{ "flags 0x80000000", MF_UC(flags), 0x80000000, NULL, -EINVAL },
	{ "reserved[0]", MF_UC(reserved[0]), 1, NULL, -EINVAL },
	{ "reserved[2]", MF_UC(reserved[2]), 7, NULL, -EINVAL },
	{ "kind 0", MF_UC(kind), 0, NULL, -EINVAL },
	{ "kind 4", MF_UC(kind), 4, NULL, -EINVAL },
	{ "kind ~0", MF_UC(kind), 0xffffffff, NULL, -EINVAL },
	{ "ndims 0", MF_UC(ndims), 0, NULL, -EINVAL },
	{ "ndims 9", MF_UC(ndims), MESHFABRIC_MAX_DIMS + 1, NULL, -EINVAL },
	{ "dims[0] 0", MF_UC(dims[0]), 0, NULL, -EINVAL },
	{ "dims[1] 1", MF_UC(dims[1]), 1, NULL, -EINVAL },
	{ "dims[2] set beyond ndims", MF_UC(dims[2]), 4, NULL, -EINVAL },
	{ "dims[7] set beyond ndims", MF_UC(dims[7]), 2, NULL, -EINVAL },
	{ "dims[0] 65537 (> MAX_NODES)", MF_UC(dims[0]), MESHFABRIC_MAX_NODES + 1, NULL,
	  -E2BIG },
	{ "dims[0] ~0", MF_UC(dims[0]), 0xffffffff, NULL, -E2BIG },
	{ "16384x4 = MAX_NODES", MF_UC(dims[0]), MESHFABRIC_MAX_NODES / 4, NULL, 0 },
	{ "16385x4 > MAX_NODES", MF_UC(dims[0]), MESHFABRIC_MAX_NODES / 4 + 1, NULL,
	  -E2BIG },
	{ "routing 5", MF_UC(routing), MESHFABRIC_ROUTE_MAX + 1, NULL, -EINVAL },
	{ "routing ~0", MF_UC(routing), 0xffffffff, NULL, -EINVAL },
	/* names accepted */
	{ "name empty", MF_UF_NONE, 0, "", 0 },
	{ "name f1.x_y", MF_UF_NONE, 0, "f1.x_y", 0 },
	{ "name mf12a", MF_UF_NONE, 0, "mf12a", 0 },
	{ "name mf", MF_UF_NONE, 0, "mf", 0 },
	{ "name 15 chars", MF_UF_NONE, 0, "abcdefghijklmno", 0 },
	/* and refused; '-' would make the tool's namespace names NAME-x-y
	 * ambiguous
	 */
	{ "name f-1", MF_UF_NONE, 0, "f-1", -EINVAL },
	{ "name 1f (digit first)", MF_UF_NONE, 0, "1f", -EINVAL },
	{ "name lo", MF_UF_NONE, 0, "lo", -EINVAL },
	{ "name mf12 (reserved)", MF_UF_NONE, 0, "mf12", -EINVAL },
	{ "name without NUL", MF_UF_NONE, 0, "abcdefghijklmnop", -EINVAL },
	{ "name with space", MF_UF_NONE, 0, "a b", -EINVAL },
	{ "name with slash", MF_UF_NONE, 0, "a/b", -EINVAL },
	{ "name with newline", MF_UF_NONE, 0, "a\nb", -EINVAL },
};

/* BCAST: applied to a valid request */
static const struct mf_uapi_case mf_bcast_cases[] = {
	{ "valid", MF_UF_NONE, 0, NULL, 0 },
	{ "flags async", MF_UB(flags), MESHFABRIC_BCAST_ASYNC, NULL, 0 },
	{ "flags 2", MF_UB(flags), 2, NULL, -EINVAL },
	{ "flags ~0", MF_UB(flags), 0xffffffff, NULL, -EINVAL },
	{ "algo auto", MF_UB(algo), MESHFABRIC_ALGO_AUTO, NULL, 0 },
	{ "algo max", MF_UB(algo), MESHFABRIC_ALGO_MAX, NULL, 0 },
	{ "algo max + 1", MF_UB(algo), MESHFABRIC_ALGO_MAX + 1, NULL, -EINVAL },
	{ "algo user", MF_UB(algo), MESHFABRIC_ALGO_USER, NULL, 0 },
	{ "algo user + 1", MF_UB(algo), MESHFABRIC_ALGO_USER + 1, NULL, -EINVAL },
	{ "len 0", MF_UB(len), 0, NULL, 0 },
	{ "len MAX_PAYLOAD", MF_UB(len), MESHFABRIC_MAX_PAYLOAD, NULL, 0 },
	{ "len MAX_PAYLOAD + 1", MF_UB(len), MESHFABRIC_MAX_PAYLOAD + 1, NULL,
	  -E2BIG },
	{ "len ~0", MF_UB(len), 0xffffffff, NULL, -E2BIG },
	{ "ethertype 0x05ff", MF_UB(ethertype), 0x05ff, NULL, -EINVAL },
	{ "ethertype 0", MF_UB(ethertype), 0, NULL, -EINVAL },
	{ "ethertype 0x0600", MF_UB(ethertype), 0x0600, NULL, 0 },
	{ "ethertype 0xffff", MF_UB(ethertype), 0xffff, NULL, 0 },
	{ "ethertype 0x10000", MF_UB(ethertype), 0x10000, NULL, -EINVAL },
};

/* COLLECTIVE: applied to a valid allreduce of the generator's */
static const struct mf_uapi_case mf_coll_cases[] = {
	{ "valid allreduce", MF_UF_NONE, 0, NULL, 0 },
	{ "flags 0 without inputs", MF_UL(flags), 0, NULL, -EINVAL },
	{ "flags 3", MF_UL(flags), 3, NULL, -EINVAL },
	{ "inputs and the generator", MF_UL(in_ptr), 8, NULL, -EINVAL },
	{ "coll alltoall", MF_UL(coll), MESHFABRIC_COLL_ALLTOALL, NULL, 0 },
	{ "coll 8", MF_UL(coll), MESHFABRIC_COLL_MAX + 1, NULL, -EINVAL },
	{ "op bxor", MF_UL(op), MESHFABRIC_ROP_BXOR, NULL, 0 },
	{ "op 6", MF_UL(op), MESHFABRIC_ROP_MAX_ID + 1, NULL, -EINVAL },
	{ "type u64", MF_UL(type), MESHFABRIC_RTYPE_U64, NULL, 0 },
	{ "type f32 refused", MF_UL(type), MESHFABRIC_RTYPE_F32, NULL,
	  -EOPNOTSUPP },
	{ "type f64 refused", MF_UL(type), MESHFABRIC_RTYPE_F64, NULL,
	  -EOPNOTSUPP },
	{ "type 6", MF_UL(type), 6, NULL, -EINVAL },
	{ "type ~0", MF_UL(type), 0xffffffff, NULL, -EINVAL },
	{ "algo 003", MF_UL(algo), MESHFABRIC_CALGO_003, NULL, 0 },
	{ "algo user without a schedule", MF_UL(algo), MESHFABRIC_CALGO_USER,
	  NULL, -EINVAL },
	{ "algo 11", MF_UL(algo), MESHFABRIC_CALGO_USER + 1, NULL, -EINVAL },
	{ "sched_ptr without algo user", MF_UL(sched_ptr), 8, NULL, -EINVAL },
	{ "sched_len without algo user", MF_UL(sched_len), 8, NULL, -EINVAL },
	{ "count 0", MF_UL(count), 0, NULL, -EINVAL },
	{ "count ~0 (the fabric bounds it)", MF_UL(count), 0xffffffff, NULL, 0 },
	{ "ethertype 0x05ff", MF_UL(ethertype), 0x05ff, NULL, -EINVAL },
	{ "ethertype 0x0600", MF_UL(ethertype), 0x0600, NULL, 0 },
	{ "ethertype 0x10000", MF_UL(ethertype), 0x10000, NULL, -EINVAL },
	{ "out field match", MF_UL(match), 1, NULL, -EINVAL },
	{ "out field digest", MF_UL(digest), 1, NULL, -EINVAL },
	{ "out field nblocks", MF_UL(nblocks), 1, NULL, -EINVAL },
	{ "reserved", MF_UL(reserved), 1, NULL, -EINVAL },
};

static void mf_uapi_desc(const struct mf_uapi_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mf_create, mf_create_cases, mf_uapi_desc);
KUNIT_ARRAY_PARAM(mf_bcast, mf_bcast_cases, mf_uapi_desc);
KUNIT_ARRAY_PARAM(mf_coll, mf_coll_cases, mf_uapi_desc);

static void mf_uapi_valid_create(struct meshfabric_create *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = MESHFABRIC_KIND_TORUS;
	c->ndims = 2;
	c->dims[0] = 4;
	c->dims[1] = 4;
	c->routing = MESHFABRIC_ROUTE_DEFAULT;
}

static void mf_uapi_test_create(struct kunit *test)
{
	const struct mf_uapi_case *p = test->param_value;
	struct meshfabric_create c;

	mf_uapi_valid_create(&c);
	mf_uapi_apply(&c, p);
	if (p->name)
		memcpy(c.name, p->name, min(strlen(p->name), sizeof(c.name)));
	KUNIT_EXPECT_EQ(test, mf_validate_create(&c), p->err);
}

static void mf_uapi_test_bcast(struct kunit *test)
{
	const struct mf_uapi_case *p = test->param_value;
	struct meshfabric_bcast b;

	memset(&b, 0, sizeof(b));
	b.algo = MESHFABRIC_ALGO_FLOOD;
	b.len = 100;
	b.ethertype = 0x88b5;
	mf_uapi_apply(&b, p);
	KUNIT_EXPECT_EQ(test, mf_validate_bcast(&b), p->err);
}

static void mf_uapi_test_collective(struct kunit *test)
{
	const struct mf_uapi_case *p = test->param_value;
	struct meshfabric_collective c;

	memset(&c, 0, sizeof(c));
	c.flags = MESHFABRIC_COLL_GENERATE;
	c.coll = MESHFABRIC_COLL_ALLREDUCE;
	c.type = MESHFABRIC_RTYPE_S64;
	c.count = 16;
	mf_uapi_apply(&c, p);
	KUNIT_EXPECT_EQ(test, mf_validate_collective(&c), p->err);
}

/* Hexagonal sizes: p = 3n^2 - 3n + 1 against MESHFABRIC_MAX_NODES. */
static void mf_uapi_test_create_hex(struct kunit *test)
{
	struct meshfabric_create c;
	u32 n;

	memset(&c, 0, sizeof(c));
	c.kind = MESHFABRIC_KIND_HEX;
	c.ndims = 1;
	for (n = 140; n < 160; n++) {
		c.dims[0] = n;
		KUNIT_EXPECT_EQ_MSG(test, mf_validate_create(&c),
				    3 * n * n - 3 * n + 1 > MESHFABRIC_MAX_NODES ?
				    -E2BIG : 0, "H_%u", n);
	}
	c.dims[0] = 4;
	c.ndims = 2;
	c.dims[1] = 4;
	KUNIT_EXPECT_EQ(test, mf_validate_create(&c), -EINVAL);
}

static void mf_uapi_test_unknown_cmd(struct kunit *test)
{
	/* unknown numbers, and known numbers with a wrong size or direction */
	KUNIT_EXPECT_EQ(test, mf_ioctl(NULL, _IO(MESHFABRIC_IOC_MAGIC, 0), 0),
			(long)-ENOTTY);
	KUNIT_EXPECT_EQ(test, mf_ioctl(NULL, _IO(MESHFABRIC_IOC_MAGIC, 99), 0),
			(long)-ENOTTY);
	KUNIT_EXPECT_EQ(test, mf_ioctl(NULL, _IOWR(MESHFABRIC_IOC_MAGIC, 1, u64), 0),
			(long)-ENOTTY);
	KUNIT_EXPECT_EQ(test, mf_ioctl(NULL, _IOR(MESHFABRIC_IOC_MAGIC, 6,
						  struct meshfabric_bcast), 0),
			(long)-ENOTTY);
	KUNIT_EXPECT_EQ(test, mf_ioctl(NULL, _IOWR('T', 1, struct meshfabric_create),
				       0), (long)-ENOTTY);
}

/* Issue 9 item 7: the name rule reads no byte past the name's array, even
 * for "mf" and 14 digits with no NUL (the old check ran strspn() over the
 * digits first).  The buffer is exactly 16 bytes of its own allocation,
 * so KASAN (kunit/kasan.kunitconfig) reports any read beyond it.
 */
static void mf_uapi_test_name_bounds(struct kunit *test)
{
	char *name = kunit_kmalloc(test, MESHFABRIC_NAME_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, name);
	memcpy(name, "mf", 2);
	memset(name + 2, '7', MESHFABRIC_NAME_LEN - 2);
	KUNIT_EXPECT_EQ(test, mf_name_check(name, MESHFABRIC_NAME_LEN, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mf_name_check(name, MESHFABRIC_NAME_LEN, true),
			-EINVAL);
	name[MESHFABRIC_NAME_LEN - 1] = 0;
	KUNIT_EXPECT_EQ(test, mf_name_check(name, MESHFABRIC_NAME_LEN, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mf_name_check(name, MESHFABRIC_NAME_LEN, true), 0);
}

/* LINK_SET: the valid request v with one change (a statement) in ls is
 * refused.
 */
#define MF_LS_BAD(change)						\
	do {								\
		ls = v;							\
		change;							\
		KUNIT_EXPECT_EQ(test, mf_validate_link_set(&ls), -EINVAL); \
	} while (0)

/* LINK_SET: every field at and past its limit, fields set without their
 * flag, reserved fields; and a fabric's links against node and port.
 */
static void mf_uapi_test_link_set(struct kunit *test)
{
	struct meshfabric_link_set ls, v = {
		.flags = MESHFABRIC_LINK_RATE | MESHFABRIC_LINK_DELAY |
			 MESHFABRIC_LINK_QUEUE | MESHFABRIC_LINK_LOSS |
			 MESHFABRIC_LINK_SWITCHING,
		.node = MESHFABRIC_ALL, .port = MESHFABRIC_ALL,
		.rate = MESHFABRIC_RATE_MAX, .delay_ns = MESHFABRIC_DELAY_MAX,
		.queue = MESHFABRIC_QUEUE_MAX, .loss = MESHFABRIC_LOSS_MAX,
		.switching = MESHFABRIC_SWITCH_CUT_THROUGH,
	};
	struct meshfabric_create c;
	struct mf_fabric *f;

	KUNIT_EXPECT_EQ(test, mf_validate_link_set(&v), 0);
	ls = v;
	ls.flags = 0;
	ls.rate = 0;
	ls.delay_ns = 0;
	ls.queue = 0;
	ls.loss = 0;
	ls.switching = 0;
	KUNIT_EXPECT_EQ(test, mf_validate_link_set(&ls), -EINVAL);
	MF_LS_BAD(ls.flags |= 1U << 6);	/* unknown */
	MF_LS_BAD(ls.rate++);
	MF_LS_BAD(ls.delay_ns++);
	MF_LS_BAD(ls.queue++);
	MF_LS_BAD(ls.queue = 0);
	MF_LS_BAD(ls.loss++);
	MF_LS_BAD(ls.switching++);
	MF_LS_BAD(ls.flags = MESHFABRIC_LINK_RATE);	/* delay etc. without flags */
	MF_LS_BAD(ls.count = 1);
	MF_LS_BAD(ls.reserved = 1);

	/* a 3x2 mesh: 7 links each way, 14 directed */
	memset(&c, 0, sizeof(c));
	c.kind = MESHFABRIC_KIND_MESH;
	c.ndims = 2;
	c.dims[0] = 3;
	c.dims[1] = 2;
	strscpy((char *)c.name, "kunit_ls", sizeof(c.name));
	KUNIT_ASSERT_EQ(test, mf_fabric_create(&c, &f), 0);
	memset(&ls, 0, sizeof(ls));
	ls.flags = MESHFABRIC_LINK_DELAY;
	ls.delay_ns = 1000;
	ls.node = MESHFABRIC_ALL;
	ls.port = MESHFABRIC_ALL;
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 14);
	KUNIT_EXPECT_TRUE(test, f->links.timed);
	ls.node = 0;			/* (0,0): x+ and y+ */
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 2);
	ls.port = 1;			/* x-: a border */
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), -EINVAL);
	ls.port = 4;			/* an extra port (e0), not bound */
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), -EINVAL);
	ls.node = 6;			/* no such node */
	ls.port = 0;
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), -EINVAL);
	ls.node = MESHFABRIC_ALL;	/* a port needs its node */
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), -EINVAL);
	ls.port = MESHFABRIC_ALL;
	ls.delay_ns = 0;
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 14);
	KUNIT_EXPECT_FALSE(test, f->links.timed);
	KUNIT_EXPECT_EQ(test, mf_fabric_destroy(f), 0);
	mf_fabric_put(f);
}

static int mf_uapi_path(struct mf_fabric *f, u32 a, u32 b, u32 *path)
{
	int hops;

	rcu_read_lock();
	hops = mf_rt_path(f, a, b, path, f->topo.nodes + 1);
	rcu_read_unlock();
	return hops;
}

/* Links down on a 3x3 mesh: routes go around them with the surviving
 * graph's BFS lengths (worked out by hand below), a node whose links are
 * all down is unreachable, and up restores the table's routes.
 */
/* What INFO reports as down_links (the fault state's links, both
 * directions each), checked against the directed links LINK_SET marked
 * down: each link down counts twice there too.
 */
static u32 mf_kt_down_links(struct kunit *test, struct mf_fabric *f)
{
	struct mf_fstate *fs;
	u32 n, marked = 0;
	u64 l;

	for (l = 0; l < f->links.n; l++)
		marked += READ_ONCE(f->links.st[l].down);
	rcu_read_lock();
	fs = rcu_dereference(f->fstate);
	n = fs ? fs->faults.n / 2 : 0;
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, n, marked / 2);
	return n;
}

static void mf_uapi_test_link_state(struct kunit *test)
{
	struct meshfabric_link_set ls = {
		.flags = MESHFABRIC_LINK_STATE, .down = 1,
		.node = 0, .port = 0,		/* (0,0) x+ */
	};
	struct meshfabric_create c = {
		.kind = MESHFABRIC_KIND_MESH, .ndims = 2, .dims = { 3, 3 },
		.name = "kunit_st",
	};
	struct mf_fabric *f;
	u32 path[10], i;

	KUNIT_EXPECT_EQ(test, mf_validate_link_set(&ls), 0);
	ls.down = 2;
	KUNIT_EXPECT_EQ(test, mf_validate_link_set(&ls), -EINVAL);
	ls.down = 1;
	ls.flags = MESHFABRIC_LINK_DELAY;	/* down without its flag */
	KUNIT_EXPECT_EQ(test, mf_validate_link_set(&ls), -EINVAL);
	ls.flags = MESHFABRIC_LINK_STATE;
	ls.reserved0 = 1;
	KUNIT_EXPECT_EQ(test, mf_validate_link_set(&ls), -EINVAL);
	ls.reserved0 = 0;

	KUNIT_ASSERT_EQ(test, mf_fabric_create(&c, &f), 0);
	/* (0,0) -x- (1,0) down, both directions (2 directed links counted):
	 * 0 -> 1 goes 0, 3, 4, 1
	 */
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 2);
	KUNIT_EXPECT_EQ(test, mf_kt_down_links(test, f), 1U);
	KUNIT_EXPECT_TRUE(test, f->links.st[0].down);
	KUNIT_EXPECT_TRUE(test, f->links.st[1 * 4 + 1].down);	/* 1 x- */
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 0, 1, path), 3);
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 1, 0, path), 3);
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 0, 8, path), 4);	/* as before */
	/* and node 4 (1,1) cut off (4 links, 8 directed): 3 -> 5 goes
	 * 3, 6, 7, 8, 5 (4 hops), 0 -> 4 is unreachable
	 */
	ls.node = 4;
	ls.port = MESHFABRIC_ALL;
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 8);
	KUNIT_EXPECT_EQ(test, mf_kt_down_links(test, f), 5U);
	KUNIT_EXPECT_TRUE(test, mf_node_cut(f, 4));
	KUNIT_EXPECT_FALSE(test, mf_node_cut(f, 0));
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 3, 5, path), 4);
	for (i = 0; i <= 4; i++)
		KUNIT_EXPECT_NE(test, path[i], 4U);
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 0, 4, path), -EHOSTUNREACH);
	/* 0 -> 1 now: 0, 3, 6, 7, 8, 5, 2, 1 */
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 0, 1, path), 7);
	/* everything up: the table's routes */
	ls.node = MESHFABRIC_ALL;
	ls.down = 0;
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 24);
	KUNIT_EXPECT_EQ(test, mf_kt_down_links(test, f), 0U);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(f->fstate));
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 0, 1, path), 1);
	KUNIT_EXPECT_EQ(test, mf_uapi_path(f, 0, 4, path), 2);
	KUNIT_EXPECT_EQ(test, mf_fabric_destroy(f), 0);
	mf_fabric_put(f);
}

/* The horizon (review finding: busy-until could pass 2^63 and a frame's
 * ktime turn negative): a link of 1 bit/s refuses a frame at once, one
 * of 1 Mbit/s with a queue of 10^6 takes frames only until their
 * arrival would pass MESHFABRIC_HORIZON_NS, and busy-until stays below.
 */
static void mf_uapi_test_horizon(struct kunit *test)
{
	struct meshfabric_link_set ls = {
		.flags = MESHFABRIC_LINK_RATE | MESHFABRIC_LINK_QUEUE,
		.node = 0, .port = 0, .rate = 1, .queue = MESHFABRIC_QUEUE_MAX,
	};
	struct meshfabric_create c = {
		.kind = MESHFABRIC_KIND_MESH, .ndims = 1, .dims = { 3 },
		.name = "kunit_hz",
	};
	struct mf_tframe fr = { .segs = 1, .seg_bytes = 1514, .len = 1514 };
	enum mf_drop_reason why;
	struct mf_fabric *f;
	u32 taken = 0, i;
	bool ok;

	KUNIT_ASSERT_EQ(test, mf_fabric_create(&c, &f), 0);
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 1);
	local_bh_disable();
	ok = mf_link_reserve(f, 0, &fr, &why);
	local_bh_enable();
	KUNIT_EXPECT_FALSE(test, ok);
	KUNIT_EXPECT_EQ(test, (int)why, (int)MF_DROP_QUEUE_FULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->links.st[0].busy), 0LL);
	ls.rate = 1000000;	/* 12.112 ms a frame: 4953 fit in 60 s */
	KUNIT_EXPECT_EQ(test, mf_link_set(f, &ls), 1);
	for (i = 0; i < 6000; i++) {
		memset(&fr, 0, sizeof(fr));
		fr.segs = 1;
		fr.seg_bytes = 1514;
		fr.len = 1514;
		local_bh_disable();
		taken += mf_link_reserve(f, 0, &fr, &why);
		local_bh_enable();
	}
	KUNIT_EXPECT_EQ(test, taken, (u32)(MESHFABRIC_HORIZON_NS / 12112000));
	KUNIT_EXPECT_LE(test, (u64)atomic64_read(&f->links.st[0].busy),
			MESHFABRIC_HORIZON_NS);
	KUNIT_EXPECT_EQ(test, mf_fabric_destroy(f), 0);
	mf_fabric_put(f);
}

/* Checks that need the fabric list (mf_fabric_create). */
static void mf_uapi_test_fabric_rules(struct kunit *test)
{
	struct mf_fabric *f[MESHFABRIC_MAX_FABRICS + 1], *g;
	long base = atomic_long_read(&mf_allocated);
	struct meshfabric_create c;
	u32 i, made = 0;
	int err;

	mf_uapi_valid_create(&c);
	c.routing = MESHFABRIC_ROUTE_A1;	/* hex only */
	KUNIT_EXPECT_EQ(test, mf_validate_create(&c), 0);
	KUNIT_EXPECT_EQ(test, mf_fabric_create(&c, &g), -EINVAL);

	memset(&c, 0, sizeof(c));
	c.kind = MESHFABRIC_KIND_HEX;
	c.ndims = 1;
	c.dims[0] = 3;
	c.routing = MESHFABRIC_ROUTE_DOR;	/* mesh/torus only */
	KUNIT_EXPECT_EQ(test, mf_fabric_create(&c, &g), -EINVAL);

	/* MESHFABRIC_MAX_FABRICS alive at once, then -E2BIG */
	memset(f, 0, sizeof(f));
	mf_uapi_valid_create(&c);
	c.dims[0] = 2;
	c.dims[1] = 2;
	for (i = 0; i <= MESHFABRIC_MAX_FABRICS; i++) {
		snprintf((char *)c.name, sizeof(c.name), "kunit_u%u", i);
		err = mf_fabric_create(&c, &f[i]);
		if (err) {
			f[i] = NULL;
			KUNIT_EXPECT_EQ(test, err, -E2BIG);
			break;
		}
		made++;
	}
	KUNIT_EXPECT_EQ(test, made, (u32)MESHFABRIC_MAX_FABRICS);

	/* a name in use */
	if (f[0]) {
		strscpy((char *)c.name, "kunit_u0", sizeof(c.name));
		mf_fabric_destroy(f[made - 1]);
		mf_fabric_put(f[made - 1]);
		f[made - 1] = NULL;
		KUNIT_EXPECT_EQ(test, mf_fabric_create(&c, &g), -EEXIST);
	}
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		if (!f[i])
			continue;
		KUNIT_EXPECT_EQ(test, mf_fabric_destroy(f[i]), 0);
		/* destroyed fabrics are unknown */
		KUNIT_EXPECT_EQ(test, mf_fabric_destroy(f[i]), -ENOENT);
		KUNIT_EXPECT_EQ(test, mf_fabric_destroy_checked(f[i]->id, false),
				-ENOENT);
		KUNIT_EXPECT_NULL(test, mf_fabric_get(f[i]->id));
		mf_fabric_put(f[i]);
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mf_allocated), base);
}

/* PORT (issue 25): every field mf_validate_port checks, each alone on an
 * otherwise valid attach or detach, against the uapi's rules.
 */
static void mf_uapi_test_port(struct kunit *test)
{
	struct meshfabric_port a = { .netns_fd = 3, .ifname = "veth0" };
	struct meshfabric_port d = { .flags = MESHFABRIC_PORT_DETACH };
	struct meshfabric_port p;

	KUNIT_EXPECT_EQ(test, mf_validate_port(&a), 0);
	KUNIT_EXPECT_EQ(test, mf_validate_port(&d), 0);
	p = a;
	p.flags = 2;
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = a;
	p.reserved0 = 1;
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = a;
	p.reserved = 1;
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = a;
	p.ifname[0] = 0;	/* no name */
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = a;
	memset(p.ifname, 'a', sizeof(p.ifname));	/* no NUL */
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = a;
	memset(p.ifname, 'a', sizeof(p.ifname) - 1);	/* 15: the longest */
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), 0);
	p = d;
	p.netns_fd = 3;		/* detach names no netdev */
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = d;
	p.ifname[15] = 'x';
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
	p = d;
	p.flags |= 2;
	KUNIT_EXPECT_EQ(test, mf_validate_port(&p), -EINVAL);
}

static struct kunit_case mf_uapi_test_cases[] = {
	KUNIT_CASE_PARAM(mf_uapi_test_create, mf_create_gen_params),
	KUNIT_CASE_PARAM(mf_uapi_test_bcast, mf_bcast_gen_params),
	KUNIT_CASE_PARAM(mf_uapi_test_collective, mf_coll_gen_params),
	KUNIT_CASE(mf_uapi_test_name_bounds),
	KUNIT_CASE(mf_uapi_test_create_hex),
	KUNIT_CASE(mf_uapi_test_unknown_cmd),
	KUNIT_CASE(mf_uapi_test_link_set),
	KUNIT_CASE(mf_uapi_test_link_state),
	KUNIT_CASE(mf_uapi_test_horizon),
	KUNIT_CASE(mf_uapi_test_fabric_rules),
	KUNIT_CASE(mf_uapi_test_port),
	{}
};

MF_KUNIT_SUITE(uapi);
