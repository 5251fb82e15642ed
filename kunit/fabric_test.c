// SPDX-License-Identifier: GPL-2.0
/*
 * fabric_test.c - KUnit suite meshfabric_fabric: fabrics of real netdevs
 * created from kernel code (UML), checked against the portable core:
 *  - the kernel's routing tables (rtable.c) give the core's routed path
 *    for every pair, and a 64 x 64 torus's table fits in 64 KiB (issue 4);
 *  - each node's MAC is 02:6d:<fabric>:<node, 24 bits> (uapi header);
 *  - a unicast frame sent by a node's netdev arrives at the destination's
 *    netdev only, and exactly the directed links of the core's routed path
 *    count it once (packets and bytes);
 *  - the broadcast offload delivers to every other node exactly once and
 *    returns the statistics of mf_plan + mf_check for the same topology,
 *    algorithm and source; the link counters grow by the TCD;
 *  - a node whose netdev is deleted is GONE: broadcasts from it fail with
 *    -ENETDOWN, from elsewhere reach the others; destroy releases
 *    everything (the module's allocation counter returns to its start);
 *  - frames broadcast by nodes reach every present node a search over the
 *    nodes not GONE reaches (absent nodes relay), along a tree of links.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <net/net_namespace.h>

#include "mf.h"
#include "mf_kunit.h"
#include "mf_bfs.h"

#define MF_KT_ETHERTYPE	0x88b5	/* IEEE local experimental */
#define MF_KT_PAYLOAD	100

struct mf_kt {
	struct mf_fabric *f;
	long allocated;		/* mf_allocated before the test */
};

static int mf_kt_init(struct kunit *test)
{
	struct mf_kt *kt = kunit_kzalloc(test, sizeof(*kt), GFP_KERNEL);

	if (!kt)
		return -ENOMEM;
	kt->allocated = atomic_long_read(&mf_allocated);
	test->priv = kt;
	return 0;
}

/* Runs after every case, also after a failed assertion. */
static void mf_kt_exit(struct kunit *test)
{
	struct mf_kt *kt = test->priv;

	if (kt->f) {
		KUNIT_EXPECT_EQ(test, mf_fabric_destroy(kt->f), 0);
		mf_fabric_put(kt->f);
		kt->f = NULL;
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mf_allocated), kt->allocated);
}

/* Create a fabric, attach every node in init_net and bring it up. */
static struct mf_fabric *mf_kt_fabric_r(struct kunit *test, u32 kind,
					u32 ndims, const u32 *dims, u32 routing,
					bool attach)
{
	struct mf_kt *kt = test->priv;
	struct meshfabric_create c;
	struct net_device *dev;
	u32 i;

	memset(&c, 0, sizeof(c));
	c.kind = kind;
	c.ndims = ndims;
	memcpy(c.dims, dims, ndims * sizeof(u32));
	c.routing = routing;
	strscpy((char *)c.name, "kunit_fabric", sizeof(c.name));
	KUNIT_ASSERT_EQ(test, mf_validate_create(&c), 0);
	KUNIT_ASSERT_EQ(test, mf_fabric_create(&c, &kt->f), 0);
	if (!attach)
		return kt->f;
	for (i = 0; i < kt->f->topo.nodes; i++)
		KUNIT_ASSERT_EQ(test, mf_fabric_attach(kt->f, i, &init_net, NULL), 0);
	rtnl_lock();
	for (i = 0; i < kt->f->topo.nodes; i++) {
		dev = rtnl_dereference(kt->f->node[i].dev);
		if (dev)
			dev_open(dev, NULL);
	}
	rtnl_unlock();
	return kt->f;
}

static struct mf_fabric *mf_kt_fabric(struct kunit *test, u32 kind, u32 ndims,
				      const u32 *dims, bool attach)
{
	return mf_kt_fabric_r(test, kind, ndims, dims, 0, attach);
}

static struct net_device *mf_kt_dev(struct mf_fabric *f, u32 node)
{
	return rtnl_dereference(f->node[node].dev);
}

static u64 mf_kt_rx(struct mf_fabric *f, u32 node)
{
	struct rtnl_link_stats64 st = {};
	struct net_device *dev;

	rtnl_lock();
	dev = mf_kt_dev(f, node);
	if (dev)
		dev_get_stats(dev, &st);
	rtnl_unlock();
	return st.rx_packets;
}

/* MAC of a node as include/uapi/linux/meshfabric.h defines it. */
static void mf_kt_mac(u32 fabric, u32 node, u8 *mac)
{
	mac[0] = 0x02;
	mac[1] = 0x6d;
	mac[2] = fabric;
	mac[3] = node >> 16;
	mac[4] = node >> 8;
	mac[5] = node;
}

static struct sk_buff *mf_kt_frame(struct kunit *test, const u8 *dst,
				   const u8 *src)
{
	struct sk_buff *skb = alloc_skb(ETH_HLEN + MF_KT_PAYLOAD + NET_IP_ALIGN,
					GFP_KERNEL);
	struct ethhdr *eth;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_IP_ALIGN);
	skb_reset_mac_header(skb);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, dst);
	ether_addr_copy(eth->h_source, src);
	eth->h_proto = htons(MF_KT_ETHERTYPE);
	memset(skb_put(skb, MF_KT_PAYLOAD), 0x5a, MF_KT_PAYLOAD);
	skb->protocol = htons(MF_KT_ETHERTYPE);
	return skb;
}

static u64 *mf_kt_links(struct kunit *test, struct mf_fabric *f, bool bytes)
{
	u64 *v = kunit_kcalloc(test, f->links.n, sizeof(u64), GFP_KERNEL);
	u64 l, p, b;

	KUNIT_ASSERT_NOT_NULL(test, v);
	for (l = 0; l < f->links.n; l++) {
		mf_link_read(f, l, &p, &b);
		v[l] = bytes ? b : p;
	}
	return v;
}

static const struct mf_kt_topo mf_kt_topos[] = {
	{ "torus 4x4", MESHFABRIC_KIND_TORUS, 2, { 4, 4 } },
	{ "torus 5x3", MESHFABRIC_KIND_TORUS, 2, { 5, 3 } },
	{ "torus 3x3x3", MESHFABRIC_KIND_TORUS, 3, { 3, 3, 3 } },
	{ "mesh 4x3", MESHFABRIC_KIND_MESH, 2, { 4, 3 } },
	{ "hex 3", MESHFABRIC_KIND_HEX, 1, { 3 } },
	/* meshes route by the coordinate difference, for every routing */
	{ "mesh 5x4 diagonal", MESHFABRIC_KIND_MESH, 2, { 5, 4 },
	  MESHFABRIC_ROUTE_DIAGONAL },
	{ "mesh 3x4x2 cdo", MESHFABRIC_KIND_MESH, 3, { 3, 4, 2 },
	  MESHFABRIC_ROUTE_CDO },
	{ "mesh 7", MESHFABRIC_KIND_MESH, 1, { 7 } },
	{ "torus 6x5 diagonal", MESHFABRIC_KIND_TORUS, 2, { 6, 5 },
	  MESHFABRIC_ROUTE_DIAGONAL },
	{ "torus 2x3x2 cdo", MESHFABRIC_KIND_TORUS, 3, { 2, 3, 2 },
	  MESHFABRIC_ROUTE_CDO },
};

KUNIT_ARRAY_PARAM(mf_kt_topo, mf_kt_topos, mf_kt_topo_desc);

/* The kernel's table against the core's routing function, every pair. */
static void mf_fabric_test_routes(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u32 a, b, *want, *got;
	struct mf_fabric *f;
	int lw, lg;

	f = mf_kt_fabric_r(test, c->kind, c->ndims, c->dims, c->routing, false);
	want = kunit_kcalloc(test, f->topo.nodes + 1, sizeof(u32), GFP_KERNEL);
	got = kunit_kcalloc(test, f->topo.nodes + 1, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (a = 0; a < f->topo.nodes; a++)
		for (b = 0; b < f->topo.nodes; b++) {
			lw = mf_route_path(&f->topo, f->routing, a, b, want,
					   f->topo.nodes + 1);
			rcu_read_lock();
			lg = mf_rt_path(f, a, b, got, f->topo.nodes + 1);
			rcu_read_unlock();
			KUNIT_ASSERT_EQ_MSG(test, lg, lw, "%u -> %u", a, b);
			KUNIT_EXPECT_EQ(test, (u32)lg, mf_topo_distance(&f->topo, a, b));
			KUNIT_EXPECT_EQ(test, memcmp(want, got, (lw + 1) * sizeof(u32)), 0);
		}
}

/* Issue 4: the routing tables of a 64 x 64 torus take at most 64 KiB. */
static void mf_fabric_test_table_size(struct kunit *test)
{
	static const u32 dims[2] = { 64, 64 };
	struct mf_fabric *f;

	f = mf_kt_fabric(test, MESHFABRIC_KIND_TORUS, 2, dims, false);
	KUNIT_EXPECT_LE(test, f->rt.bytes, (size_t)64 * 1024);
	KUNIT_EXPECT_GT(test, f->rt.bytes, (size_t)0);
}

static void mf_fabric_test_unicast(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u32 src, dst, i, *path, pairs = 0;
	u64 *before, *after, *bbefore, *bafter, *rx0, l;
	u8 smac[ETH_ALEN], dmac[ETH_ALEN];
	struct net_device *sdev;
	struct mf_fabric *f;
	struct sk_buff *skb;
	int len, port;

	f = mf_kt_fabric_r(test, c->kind, c->ndims, c->dims, c->routing, true);
	path = kunit_kcalloc(test, f->topo.nodes + 1, sizeof(u32), GFP_KERNEL);
	rx0 = kunit_kcalloc(test, f->topo.nodes, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_NOT_NULL(test, rx0);
	rtnl_lock();
	for (i = 0; i < f->topo.nodes; i++) {
		mf_kt_mac(f->id, i, smac);
		KUNIT_EXPECT_TRUE(test, ether_addr_equal(mf_kt_dev(f, i)->dev_addr, smac));
	}
	rtnl_unlock();

	for (src = 0; src < f->topo.nodes; src += 2) {
		for (dst = 0; dst < f->topo.nodes; dst += 3) {
			if (src == dst)
				continue;
			pairs++;
			for (i = 0; i < f->topo.nodes; i++)
				rx0[i] = mf_kt_rx(f, i);
			before = mf_kt_links(test, f, false);
			bbefore = mf_kt_links(test, f, true);
			mf_kt_mac(f->id, src, smac);
			mf_kt_mac(f->id, dst, dmac);
			skb = mf_kt_frame(test, dmac, smac);
			rtnl_lock();
			sdev = mf_kt_dev(f, src);
			dev_hold(sdev);
			rtnl_unlock();
			skb->dev = sdev;
			dev_queue_xmit(skb);
			dev_put(sdev);
			after = mf_kt_links(test, f, false);
			bafter = mf_kt_links(test, f, true);

			/* arrives at dst only */
			for (i = 0; i < f->topo.nodes; i++)
				KUNIT_EXPECT_EQ_MSG(test, mf_kt_rx(f, i) - rx0[i],
						    (u64)(i == dst), "%u -> %u at %u",
						    src, dst, i);
			/* counted once on each link of the core's path */
			len = mf_route_path(&f->topo, f->routing, src, dst, path,
					    f->topo.nodes + 1);
			KUNIT_ASSERT_GT(test, len, 0);
			for (i = 0; i < (u32)len; i++) {
				port = mf_topo_port(&f->topo, path[i], path[i + 1]);
				KUNIT_ASSERT_GE(test, port, 0);
				l = mf_topo_link(&f->topo, path[i], port);
				after[l]--;
				bafter[l] -= ETH_HLEN + MF_KT_PAYLOAD;
			}
			for (l = 0; l < f->links.n; l++) {
				KUNIT_EXPECT_EQ_MSG(test, after[l], before[l],
						    "%u -> %u link %llu", src, dst, l);
				KUNIT_EXPECT_EQ_MSG(test, bafter[l], bbefore[l],
						    "%u -> %u link %llu", src, dst, l);
			}
			kunit_kfree(test, before);
			kunit_kfree(test, after);
			kunit_kfree(test, bbefore);
			kunit_kfree(test, bafter);
		}
	}
	KUNIT_EXPECT_GT(test, pairs, 0U);
}

static const struct mf_kt_topo mf_kt_bcasts[] = {
	{ "eyes torus 4x4", MESHFABRIC_KIND_TORUS, 2, { 4, 4 }, MESHFABRIC_ALGO_EYES },
	{ "eyes mesh 4x4", MESHFABRIC_KIND_MESH, 2, { 4, 4 }, MESHFABRIC_ALGO_EYES },
	{ "tsay-wang torus 5x5", MESHFABRIC_KIND_TORUS, 2, { 5, 5 },
	  MESHFABRIC_ALGO_TSAY_WANG },
	{ "tree torus 5x5", MESHFABRIC_KIND_TORUS, 2, { 5, 5 }, MESHFABRIC_ALGO_TREE },
	{ "binomial mesh 4x3", MESHFABRIC_KIND_MESH, 2, { 4, 3 },
	  MESHFABRIC_ALGO_BINOMIAL },
	{ "flood torus 3x3x3", MESHFABRIC_KIND_TORUS, 3, { 3, 3, 3 },
	  MESHFABRIC_ALGO_FLOOD },
	{ "hex A2 H_3", MESHFABRIC_KIND_HEX, 1, { 3 }, MESHFABRIC_ALGO_HEX },
	{ "auto hex H_4", MESHFABRIC_KIND_HEX, 1, { 4 }, MESHFABRIC_ALGO_AUTO },
	{ "auto torus 7x7", MESHFABRIC_KIND_TORUS, 2, { 7, 7 }, MESHFABRIC_ALGO_AUTO },
};

KUNIT_ARRAY_PARAM(mf_kt_bcast, mf_kt_bcasts, mf_kt_topo_desc);

static void mf_fabric_test_bcast(struct kunit *test)
{
	const struct mf_kt_topo *c = test->param_value;
	u64 *before, *after, *rx0, sum, l;
	const struct mf_algo *used;
	struct mf_bcast_result res;
	u8 smac[ETH_ALEN], bmac[ETH_ALEN];
	struct mf_stats want;
	struct mf_fabric *f;
	struct sk_buff *skb;
	struct mf_sched s;
	char err[128];
	u32 src, i;

	f = mf_kt_fabric(test, c->kind, c->ndims, c->dims, true);
	rx0 = kunit_kcalloc(test, f->topo.nodes, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rx0);
	eth_broadcast_addr(bmac);
	for (src = 0; src < f->topo.nodes; src += f->topo.nodes / 3 + 1) {
		/* what the core says, independently of the module's cache */
		KUNIT_ASSERT_EQ(test, mf_plan(&f->topo, c->algo, src,
					      MESHFABRIC_ROUTE_DEFAULT, &s, &used), 0);
		KUNIT_ASSERT_EQ(test, mf_check(&f->topo, &s, &want, err, sizeof(err)), 0);
		mf_sched_free(&s);

		for (i = 0; i < f->topo.nodes; i++)
			rx0[i] = mf_kt_rx(f, i);
		before = mf_kt_links(test, f, false);
		mf_kt_mac(f->id, src, smac);
		skb = mf_kt_frame(test, bmac, smac);
		KUNIT_ASSERT_EQ(test,
				mf_bcast_run(f, src, c->algo, 0, skb, &res), 0);
		kfree_skb(skb);
		after = mf_kt_links(test, f, false);

		KUNIT_EXPECT_EQ(test, res.algo, used->id);
		KUNIT_EXPECT_EQ(test, res.stats.steps, want.steps);
		KUNIT_EXPECT_EQ(test, res.stats.sends, want.sends);
		KUNIT_EXPECT_EQ(test, res.stats.tcd, want.tcd);
		KUNIT_EXPECT_EQ(test, res.stats.max_link_load, want.max_link_load);
		KUNIT_EXPECT_EQ(test, res.stats.contention, want.contention);
		KUNIT_EXPECT_EQ(test, res.delivered, f->topo.nodes - 1);
		for (i = 0; i < f->topo.nodes; i++)
			KUNIT_EXPECT_EQ_MSG(test, mf_kt_rx(f, i) - rx0[i],
					    (u64)(i != src), "source %u node %u", src, i);
		sum = 0;
		for (l = 0; l < f->links.n; l++)
			sum += after[l] - before[l];
		KUNIT_EXPECT_EQ(test, sum, want.tcd);
		kunit_kfree(test, before);
		kunit_kfree(test, after);
	}
}

/* A node whose netdev goes away is GONE, and the fabric says so. */
static void mf_fabric_test_node_gone(struct kunit *test)
{
	static const u32 dims[2] = { 4, 4 };
	u8 smac[ETH_ALEN], bmac[ETH_ALEN];
	struct mf_bcast_result res;
	struct net_device *dev;
	struct mf_fabric *f;
	struct sk_buff *skb;
	const u32 gone = 5;
	int ret;

	f = mf_kt_fabric(test, MESHFABRIC_KIND_TORUS, 2, dims, true);
	KUNIT_EXPECT_FALSE(test, mf_node_gone(f, gone));
	rtnl_lock();
	dev = mf_kt_dev(f, gone);
	unregister_netdevice(dev);
	rtnl_unlock();
	KUNIT_EXPECT_TRUE(test, mf_node_gone(f, gone));

	eth_broadcast_addr(bmac);
	mf_kt_mac(f->id, gone, smac);
	skb = mf_kt_frame(test, bmac, smac);
	KUNIT_EXPECT_EQ(test, mf_bcast_run(f, gone, MESHFABRIC_ALGO_FLOOD, 0,
					   skb, &res), -ENETDOWN);
	/* from elsewhere: refused, or every other node but the gone one */
	ret = mf_bcast_run(f, 0, MESHFABRIC_ALGO_FLOOD, 0, skb, &res);
	if (ret)
		KUNIT_EXPECT_EQ(test, ret, -ENETDOWN);
	else
		KUNIT_EXPECT_EQ(test, res.delivered, f->topo.nodes - 2);
	kfree_skb(skb);

	/* attaching again brings it back */
	KUNIT_EXPECT_EQ(test, mf_fabric_attach(f, gone, &init_net, NULL), 0);
	KUNIT_EXPECT_FALSE(test, mf_node_gone(f, gone));
	KUNIT_EXPECT_EQ(test, mf_fabric_attach(f, gone, &init_net, NULL), -EBUSY);
}

/* A schedule of the user's own (SCHED_LOAD): the source sends to every
 * other node in a step of its own along dimension order, a schedule no
 * builder makes; its steps (N - 1) and TCD (the sum of the distances from
 * the source, |dx| + |dy| on a mesh) are computed here.  drop leaves the
 * last node out (the decoder counts the sends), twice sends to node 0 (1
 * from source 0) twice (with drop: the count is right, the checker
 * refuses it).
 */
static void mf_kt_user_sched(struct kunit *test, const struct mf_topo *t,
			     u32 src, bool drop, bool twice, u8 **code,
			     size_t *len, struct mf_sched *s)
{
	u32 v, last = src == t->nodes - 1 ? t->nodes - 2 : t->nodes - 1;

	mf_sched_init(s, MESHFABRIC_MODEL_ONE_PORT, src);
	for (v = 0; v < t->nodes; v++) {
		if (v == src || (drop && v == last))
			continue;
		KUNIT_ASSERT_EQ(test, mf_sched_step(s), 0);
		KUNIT_ASSERT_EQ(test, mf_sched_send_dor(s, t, src, v, NULL), 0);
		if (twice && v == (src ? 0 : 1)) {
			KUNIT_ASSERT_EQ(test, mf_sched_step(s), 0);
			KUNIT_ASSERT_EQ(test,
					mf_sched_send_dor(s, t, src, v, NULL), 0);
		}
	}
	KUNIT_ASSERT_EQ(test, mf_sched_end(s), 0);
	*len = mf_sched_code_len(t, s);
	*code = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *code);
	KUNIT_ASSERT_EQ(test, mf_sched_encode(t, s, *code, *len), (s64)*len);
}

static void mf_fabric_test_user_sched(struct kunit *test)
{
	static const u32 dims[2] = { 5, 3 };
	u8 smac[ETH_ALEN], bmac[ETH_ALEN], *code;
	const u32 src = 7;	/* (2, 1) */
	struct mf_bcast_result res;
	struct mf_fabric *f;
	struct mf_sched s;
	struct mf_stats st;
	struct sk_buff *skb;
	u64 tcd = 0, *rx0;
	char why[96];
	size_t len;
	u32 v;
	int i;

	f = mf_kt_fabric(test, MESHFABRIC_KIND_MESH, 2, dims, true);
	for (v = 0; v < f->topo.nodes; v++)
		tcd += abs((int)(v % 5) - 2) + abs((int)(v / 5) - 1);
	eth_broadcast_addr(bmac);
	mf_kt_mac(f->id, src, smac);
	skb = mf_kt_frame(test, bmac, smac);

	/* nothing loaded yet; the searches are the tool's (algo.h) */
	KUNIT_EXPECT_EQ(test, mf_bcast_run(f, src, MESHFABRIC_ALGO_USER, 0,
					   skb, &res), -ENOENT);
	for (i = MESHFABRIC_ALGO_MINTCD; i <= MESHFABRIC_ALGO_EYES_PAPER; i++)
		KUNIT_EXPECT_EQ(test, mf_bcast_run(f, src, i, 0, skb, &res),
				-EOPNOTSUPP);
	mf_kt_user_sched(test, &f->topo, src, false, false, &code, &len, &s);
	KUNIT_EXPECT_EQ(test, mf_bcast_user_load(f, s.model, src, s.nsteps,
						 s.nsends, code, len, &st, why,
						 sizeof(why)), 0);
	mf_sched_free(&s);
	KUNIT_EXPECT_EQ(test, st.steps, f->topo.nodes - 1);
	KUNIT_EXPECT_EQ(test, st.tcd, tcd);
	rx0 = kunit_kcalloc(test, f->topo.nodes, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rx0);
	for (v = 0; v < f->topo.nodes; v++)
		rx0[v] = mf_kt_rx(f, v);
	KUNIT_EXPECT_EQ(test, mf_bcast_run(f, src, MESHFABRIC_ALGO_USER, 0,
					   skb, &res), 0);
	KUNIT_EXPECT_EQ(test, res.algo, MESHFABRIC_ALGO_USER);
	KUNIT_EXPECT_EQ(test, res.stats.steps, f->topo.nodes - 1);
	KUNIT_EXPECT_EQ(test, res.stats.tcd, tcd);
	KUNIT_EXPECT_EQ(test, res.delivered, f->topo.nodes - 1);
	for (v = 0; v < f->topo.nodes; v++)
		KUNIT_EXPECT_EQ(test, mf_kt_rx(f, v) - rx0[v], (u64)(v != src));

	/* refused with the checker's reason; the loaded one stays */
	mf_kt_user_sched(test, &f->topo, src, true, true, &code, &len, &s);
	KUNIT_EXPECT_EQ(test, mf_bcast_user_load(f, s.model, src, s.nsteps,
						 s.nsends, code, len, &st, why,
						 sizeof(why)), -EINVAL);
	mf_sched_free(&s);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, strstr(why, "informed twice"));
	mf_kt_user_sched(test, &f->topo, src, true, false, &code, &len, &s);
	KUNIT_EXPECT_EQ(test, mf_bcast_user_load(f, s.model, src, s.nsteps,
						 s.nsends, code, len, &st, why,
						 sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, strstr(why, "has 14 sends"));
	/* an encoding cut short */
	KUNIT_EXPECT_EQ(test, mf_bcast_user_load(f, s.model, src, s.nsteps,
						 s.nsends, code, len - 1, &st,
						 why, sizeof(why)), -EINVAL);
	mf_sched_free(&s);
	KUNIT_EXPECT_EQ(test, mf_bcast_run(f, src, MESHFABRIC_ALGO_USER, 0,
					   skb, &res), 0);
	KUNIT_EXPECT_EQ(test, res.stats.tcd, tcd);

	/* MESHFABRIC_USER_SCHEDS sources more: the first one is replaced */
	for (i = 0; i <= MESHFABRIC_USER_SCHEDS; i++) {
		if (i == src)
			continue;
		mf_kt_user_sched(test, &f->topo, i, false, false, &code, &len,
				 &s);
		KUNIT_EXPECT_EQ(test, mf_bcast_user_load(f, s.model, i,
							 s.nsteps, s.nsends,
							 code, len, &st, why,
							 sizeof(why)), 0);
		mf_sched_free(&s);
	}
	KUNIT_EXPECT_EQ(test, mf_bcast_run(f, src, MESHFABRIC_ALGO_USER, 0,
					   skb, &res), -ENOENT);
	KUNIT_EXPECT_EQ(test, mf_bcast_user_unload(f, 0), 0);
	KUNIT_EXPECT_EQ(test, mf_bcast_user_unload(f, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, mf_bcast_run(f, 1, MESHFABRIC_ALGO_USER, 0,
					   skb, &res), 0);
	KUNIT_EXPECT_EQ(test, res.delivered, f->topo.nodes - 1);
	kfree_skb(skb);
	/* what the kept schedules held is on the owner's account, until
	 * they go
	 */
	KUNIT_EXPECT_GT(test, f->charged, 7 * (s64)(f->topo.nodes - 1) * 16);
	for (i = 1; i <= MESHFABRIC_USER_SCHEDS; i++)
		KUNIT_EXPECT_EQ(test, mf_bcast_user_unload(f, i),
				i == src ? -ENOENT : 0);
	KUNIT_EXPECT_EQ(test, f->charged, 0);
}

/* mf_bfs_skip's skip: GONE nodes relay nothing */
static bool mf_kt_skip_gone(const void *ctx, const struct mf_topo *t, u32 u,
			    u32 p, u32 v)
{
	return mf_node_gone(ctx, v);
}

/* Frames broadcast by nodes (the flood, issue 21 finding 7) on a 6x6
 * torus with some nodes attached, one GONE: from each present source,
 * every present node that a breadth-first search over the nodes not GONE
 * reaches (absent ones relay, as unicast) gets the frame once, nobody
 * else does; the links counted (once each) form a tree oriented away
 * from the source, spanning those nodes, with present nodes only as
 * leaves (no branch to absent nodes only) and no GONE node.
 */
static void mf_fabric_test_flood_relay(struct kunit *test)
{
	static const u32 dims[2] = { 6, 6 };
	u8 smac[ETH_ALEN], bmac[ETH_ALEN];
	u32 *dist, *q, *dl, n, src, v, p, round, edges, h, tl;
	u64 *before, pk, by, l, nl, want;
	struct mf_fabric *f;
	struct sk_buff *skb;
	u64 *rx0;
	bool leaf;
	u8 state;

	f = mf_kt_fabric(test, MESHFABRIC_KIND_TORUS, 2, dims, false);
	n = f->topo.nodes;
	nl = f->links.n;
	dist = kunit_kcalloc(test, n, sizeof(*dist), GFP_KERNEL);
	q = kunit_kcalloc(test, n, sizeof(*q), GFP_KERNEL);
	dl = kunit_kcalloc(test, nl, sizeof(*dl), GFP_KERNEL);
	before = kunit_kcalloc(test, nl, sizeof(*before), GFP_KERNEL);
	rx0 = kunit_kcalloc(test, n, sizeof(*rx0), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dist && q && dl && before && rx0);
	eth_broadcast_addr(bmac);
	for (round = 0; round < 3; round++) {
		/* attach more nodes each round: a spread-out few first */
		for (v = 0; v < n; v++) {
			if (((v * 7 + round * 5) % 11) > round * 2 ||
			    rcu_access_pointer(f->node[v].dev))
				continue;
			KUNIT_ASSERT_EQ(test, mf_fabric_attach(f, v, &init_net,
							       NULL), 0);
			rtnl_lock();
			dev_open(mf_kt_dev(f, v), NULL);
			rtnl_unlock();
		}
		if (round == 1) {	/* one node GONE: it stops the flood */
			for (v = 0; !rcu_access_pointer(f->node[v].dev); v++)
				;
			rtnl_lock();
			unregister_netdevice(mf_kt_dev(f, v));
			rtnl_unlock();
		}
		for (src = 0; src < n; src++) {
			if (READ_ONCE(f->node[src].state) != MF_NODE_PRESENT)
				continue;
			for (v = 0; v < n; v++)
				rx0[v] = mf_kt_rx(f, v);
			for (l = 0; l < nl; l++)
				mf_link_read(f, l, &before[l], &by);
			mf_kt_mac(f->id, src, smac);
			skb = mf_kt_frame(test, bmac, smac);
			KUNIT_ASSERT_TRUE(test, mf_bcast_queue(f, src, skb));
			flush_work(&f->bq.work);
			mf_bfs_skip(&f->topo, src, dist, q, mf_kt_skip_gone, f);
			for (v = 0; v < n; v++) {
				want = v != src && dist[v] != U32_MAX &&
				       READ_ONCE(f->node[v].state) ==
				       MF_NODE_PRESENT;
				KUNIT_EXPECT_EQ_MSG(test,
						    mf_kt_rx(f, v) - rx0[v],
						    want, "round %u src %u node %u",
						    round, src, v);
			}
			/* the counted links: a tree away from src */
			edges = 0;
			for (l = 0; l < nl; l++) {
				mf_link_read(f, l, &pk, &by);
				dl[l] = pk - before[l];
				KUNIT_EXPECT_LE(test, dl[l], 1U);
				edges += dl[l];
			}
			for (v = 0; v < n; v++)
				dist[v] = U32_MAX;
			dist[src] = 0;
			h = 0;
			tl = 0;
			q[tl++] = src;
			while (h < tl) {
				v = q[h++];
				leaf = true;
				for (p = 0; p < f->topo.nports; p++) {
					l = (u64)v * f->topo.nports + p;
					if (!dl[l])
						continue;
					leaf = false;
					if (dist[f->links.peer[l]] != U32_MAX)
						continue;
					dist[f->links.peer[l]] = 1;
					q[tl++] = f->links.peer[l];
				}
				KUNIT_EXPECT_FALSE(test, mf_node_gone(f, v));
				state = READ_ONCE(f->node[v].state);
				if (leaf && v != src)
					KUNIT_EXPECT_EQ(test, state,
							(u8)MF_NODE_PRESENT);
			}
			/* connected with tl - 1 edges: a tree */
			KUNIT_EXPECT_EQ_MSG(test, edges, tl - 1,
					    "round %u src %u", round, src);
		}
	}
}

static struct kunit_case mf_fabric_test_cases[] = {
	KUNIT_CASE_PARAM(mf_fabric_test_routes, mf_kt_topo_gen_params),
	KUNIT_CASE(mf_fabric_test_table_size),
	KUNIT_CASE_PARAM(mf_fabric_test_unicast, mf_kt_topo_gen_params),
	KUNIT_CASE_PARAM(mf_fabric_test_bcast, mf_kt_bcast_gen_params),
	KUNIT_CASE(mf_fabric_test_node_gone),
	KUNIT_CASE(mf_fabric_test_flood_relay),
	KUNIT_CASE(mf_fabric_test_user_sched),
	{}
};

MF_KUNIT_SUITE(fabric, .init = mf_kt_init, .exit = mf_kt_exit);
