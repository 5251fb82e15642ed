// SPDX-License-Identifier: GPL-2.0
/*
 * netdev.c - one Ethernet netdev per node, created directly in its target
 * namespace (dev_net_set() before register_netdevice(), never a move).
 *
 * A node's netdev dies with its namespace (or `ip link del`): our
 * rtnl_link_ops->dellink (called under RTNL for both) marks the node
 * GONE before queueing the unregistration, like veth clears its peer.
 * Each netdev holds a reference on its fabric, so a netdev that outlives
 * the fabric's teardown (its namespace's cleanup unregisters it later,
 * fabric.c) never sees the fabric freed.
 * NETIF_F_NETNS_LOCAL keeps the device from being moved to init_net when
 * its namespace dies.  Per-CPU tstats are freed by the destructor, after
 * the RCU grace period that ends every sender still seeing the device.
 * The MAC address names the node (mf.h, mf_node_mac) and cannot be
 * changed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/netlink.h>
#include <net/rtnetlink.h>
#include <net/net_namespace.h>
#include "mf.h"

/* Called under RTNL: the node loses its device. */
static void mf_node_detach(struct net_device *dev)
{
	struct mf_ndev *priv = netdev_priv(dev);
	struct mf_node *n = &priv->fabric->node[priv->node];

	if (rtnl_dereference(n->dev) != dev)
		return;
	RCU_INIT_POINTER(n->dev, NULL);
	WRITE_ONCE(n->state, MF_NODE_GONE);
	mf_bcast_node_changed(priv->fabric, priv->node);
}

static void mf_ndo_uninit(struct net_device *dev)
{
	mf_node_detach(dev);
}

static const struct net_device_ops mf_netdev_ops = {
	.ndo_uninit = mf_ndo_uninit,
	.ndo_start_xmit = mf_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_validate_addr = eth_validate_addr,
};

/* ethtool -i and -S: per port tx (the node's outgoing link) and rx (the
 * neighbour's link towards the node) packets and bytes, the counters
 * `meshfabric stats` shows, under the port names it uses; and of the
 * outgoing link (timed links, link.c): frames dropped by loss and by a
 * full queue, the time spent serialising and the work queued now (ns).
 */
static const char *const mf_port_stats[] = {
	"tx_packets", "tx_bytes", "rx_packets", "rx_bytes",
	"tx_drop_loss", "tx_drop_queue", "tx_busy_ns", "tx_backlog_ns",
};

static void mf_get_drvinfo(struct net_device *dev,
			   struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->version, MF_VERSION, sizeof(info->version));
}

static int mf_get_sset_count(struct net_device *dev, int sset)
{
	struct mf_ndev *priv = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return priv->fabric->topo.nports * ARRAY_SIZE(mf_port_stats);
}

static void mf_get_strings(struct net_device *dev, u32 sset, u8 *buf)
{
	struct mf_ndev *priv = netdev_priv(dev);
	const struct mf_topo *t = &priv->fabric->topo;
	char port[16];
	u32 p, i;

	if (sset != ETH_SS_STATS)
		return;
	for (p = 0; p < t->nports; p++) {
		mf_topo_port_name(t, p, port, sizeof(port));
		for (i = 0; i < ARRAY_SIZE(mf_port_stats); i++)
			ethtool_sprintf(&buf, "port%s_%s", port, mf_port_stats[i]);
	}
}

static void mf_get_ethtool_stats(struct net_device *dev,
				 struct ethtool_stats *stats, u64 *data)
{
	struct mf_ndev *priv = netdev_priv(dev);
	struct mf_fabric *f = priv->fabric;
	u32 np = f->topo.nports, p, peer;
	u64 l, busy, now = ktime_get_ns();
	struct mf_linkctr c;
	int back;

	for (p = 0; p < np; p++, data += ARRAY_SIZE(mf_port_stats)) {
		memset(data, 0, ARRAY_SIZE(mf_port_stats) * sizeof(*data));
		/* no link of its own: a mesh border, or the - port of a
		 * size-2 torus dimension (the pair is the + port's link)
		 */
		if (!mf_topo_is_link(&f->topo, priv->node, p))
			continue;
		l = (u64)priv->node * np + p;
		mf_link_read_all(f, l, &c);
		data[0] = c.packets;
		data[1] = c.bytes;
		data[4] = c.drop_loss;
		data[5] = c.drop_queue;
		data[6] = c.busy_ns;
		busy = atomic64_read(&f->links.st[l].busy);
		data[7] = busy > now ? busy - now : 0;
		/* rx: the neighbour's link towards us, which is its port
		 * p ^ 1 but in a size-2 torus dimension, where it is its
		 * + port as ours is (topo.h)
		 */
		peer = f->links.peer[l];
		back = mf_topo_port(&f->topo, peer, priv->node);
		if (back >= 0)
			mf_link_read(f, (u64)peer * np + back, &data[2],
				     &data[3]);
	}
}

static const struct ethtool_ops mf_ethtool_ops = {
	.get_drvinfo = mf_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = mf_get_sset_count,
	.get_strings = mf_get_strings,
	.get_ethtool_stats = mf_get_ethtool_stats,
};

static void mf_netdev_destructor(struct net_device *dev)
{
	struct mf_ndev *priv = netdev_priv(dev);

	free_percpu(dev->tstats);
	mf_count_put();
	mf_fabric_put(priv->fabric);	/* may free it: the last user */
}

static void mf_dellink(struct net_device *dev, struct list_head *head)
{
	mf_node_detach(dev);
	unregister_netdevice_queue(dev, head);
}

/* IFLA_INFO_DATA (uapi meshfabric.h): what `ip -d link show` prints with
 * the iproute2 plugin.  The kernel fills them and never parses them (no
 * newlink/changelink); the policy documents and bounds them.
 */
static struct netlink_range_validation mf_nl_node_range = {
	.max = MESHFABRIC_MAX_NODES - 1,
};

static const struct nla_policy mf_nl_policy[IFLA_MESHFABRIC_MAX + 1] = {
	[IFLA_MESHFABRIC_FABRIC_ID] =
		NLA_POLICY_MAX(NLA_U32, MESHFABRIC_MAX_IDS - 1),
	[IFLA_MESHFABRIC_FABRIC_NAME] = { .type = NLA_NUL_STRING,
					  .len = MESHFABRIC_NAME_LEN - 1 },
	[IFLA_MESHFABRIC_NODE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &mf_nl_node_range),
	[IFLA_MESHFABRIC_COORDS] =
		NLA_POLICY_RANGE(NLA_BINARY, sizeof(u32),
				 MESHFABRIC_MAX_DIMS * sizeof(u32)),
	[IFLA_MESHFABRIC_KIND] =
		NLA_POLICY_RANGE(NLA_U32, MESHFABRIC_KIND_MESH,
				 MESHFABRIC_KIND_HEX),
	[IFLA_MESHFABRIC_DIMS] =
		NLA_POLICY_RANGE(NLA_BINARY, sizeof(u32),
				 MESHFABRIC_MAX_DIMS * sizeof(u32)),
};

static size_t mf_get_size(const struct net_device *dev)
{
	const struct mf_ndev *priv = netdev_priv(dev);
	size_t arr = priv->fabric->topo.ndims * sizeof(u32);

	return nla_total_size(sizeof(u32)) +		/* FABRIC_ID */
	       nla_total_size(MESHFABRIC_NAME_LEN) +	/* FABRIC_NAME */
	       nla_total_size(sizeof(u32)) +		/* NODE */
	       nla_total_size(arr) +			/* COORDS */
	       nla_total_size(sizeof(u32)) +		/* KIND */
	       nla_total_size(arr);			/* DIMS */
}

static int mf_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct mf_ndev *priv = netdev_priv(dev);
	const struct mf_fabric *f = priv->fabric;
	const struct mf_topo *t = &f->topo;
	size_t arr = t->ndims * sizeof(u32);
	u32 c[MESHFABRIC_MAX_DIMS];

	mf_topo_coords(t, priv->node, c);
	if (nla_put_u32(skb, IFLA_MESHFABRIC_FABRIC_ID, f->id) ||
	    nla_put_string(skb, IFLA_MESHFABRIC_FABRIC_NAME, f->name) ||
	    nla_put_u32(skb, IFLA_MESHFABRIC_NODE, priv->node) ||
	    nla_put(skb, IFLA_MESHFABRIC_COORDS, arr, c) ||
	    nla_put_u32(skb, IFLA_MESHFABRIC_KIND, t->kind) ||
	    nla_put(skb, IFLA_MESHFABRIC_DIMS, arr, t->dims))
		return -EMSGSIZE;
	return 0;
}

/* No .setup/.alloc: `ip link add type meshfabric` is refused. */
static struct rtnl_link_ops mf_link_ops = {
	.kind = "meshfabric",
	.maxtype = IFLA_MESHFABRIC_MAX,
	.policy = mf_nl_policy,
	.dellink = mf_dellink,
	.get_size = mf_get_size,
	.fill_info = mf_fill_info,
};

bool mf_netdev_is_node(const struct net_device *dev)
{
	return dev->netdev_ops == &mf_netdev_ops;
}

#define MF_FEATURES (NETIF_F_SG | NETIF_F_FRAGLIST | NETIF_F_HW_CSUM | \
		     NETIF_F_RXCSUM | NETIF_F_SCTP_CRC | NETIF_F_HIGHDMA | \
		     NETIF_F_GSO_SOFTWARE | NETIF_F_GSO_ENCAP_ALL)

static void mf_netdev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &mf_netdev_ops;
	dev->ethtool_ops = &mf_ethtool_ops;
	dev->rtnl_link_ops = &mf_link_ops;
	dev->priv_flags |= IFF_NO_QUEUE;
	/* mf_xmit queues and forwards the skb itself: never a shared one */
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->priv_flags |= IFF_DISABLE_NETPOLL;	/* counters need BH context */
	/* What veth offers: scatter-gather, any checksum, software GSO.  A
	 * frame crosses the fabric as the sender built it, a 64 KiB TCP
	 * segment in its pages, never linearised with a high-order
	 * GFP_ATOMIC allocation (dev_forward_skb hands the skb on as it is);
	 * link counters count its segments (gso_segs).
	 */
	mf_netdev_set_lltx_netns_local(dev);
	dev->features |= MF_FEATURES;
	dev->hw_features |= MF_FEATURES;
	dev->hw_enc_features |= MF_FEATURES;
	/* veth's TSO limit: BIG TCP (IPv6) GSO frames up to 512 KiB once
	 * `ip link set gso_max_size` raises a node's limit
	 */
	netif_set_tso_max_size(dev, GSO_MAX_SIZE);
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
}

int mf_netdev_create(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname)
{
	unsigned char assign = NET_NAME_USER;
	char name[IFNAMSIZ];
	struct net_device *dev;
	struct mf_ndev *priv;
	u8 mac[ETH_ALEN];
	int err;

	ASSERT_RTNL();
	if (ifname && ifname[0]) {
		strscpy(name, ifname, sizeof(name));
	} else {
		snprintf(name, sizeof(name), "mf%un%u", f->id, node);
		assign = NET_NAME_ENUM;	/* chosen by the kernel */
	}
	if (!dev_valid_name(name))
		return -EINVAL;
	if (mf_fail_netdev_injected())
		return -ENOMEM;
	dev = alloc_netdev(sizeof(*priv), name, assign, mf_netdev_setup);
	if (!dev)
		return -ENOMEM;
	priv = netdev_priv(dev);
	priv->fabric = f;
	priv->node = node;
	mf_node_mac(f, node, mac);
	eth_hw_addr_set(dev, mac);
	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!dev->tstats) {
		err = -ENOMEM;
		goto err_free_netdev;
	}
	dev_net_set(dev, net);
	/* a part of a multi-host fabric: room for the tunnel's headers */
	dev->max_mtu = mf_tunnel_mtu(f) ?: dev->max_mtu;
	dev->mtu = min(dev->mtu, dev->max_mtu);
	/* The carrier follows the node's links only (link.c), not open and
	 * stop: a node with a link has it from birth, and its operstate is
	 * UP from birth (reported DOWN while the device is down), so `ip
	 * link` says UP as for veth without the linkwatch event (a
	 * NETDEV_CHANGE, which walks every namespace of the system: see
	 * docs/performance.md) that a carrier raised in ndo_open costs.
	 * A node cut off by down links registers without carrier, and
	 * linkwatch_init_dev() sets its operstate.
	 */
	if (mf_node_cut(f, node))
		netif_carrier_off(dev);
	else
		dev->operstate = IF_OPER_UP;
	err = register_netdevice(dev);
	if (err)
		goto err_free_tstats;
	/* Destructors only once registered (they run at unregistration). */
	mf_count_get();
	kref_get(&f->ref);	/* the netdev's, dropped by its destructor */
	dev->needs_free_netdev = true;
	dev->priv_destructor = mf_netdev_destructor;
	rcu_assign_pointer(f->node[node].dev, dev);
	WRITE_ONCE(f->node[node].state, MF_NODE_PRESENT);
	mf_bcast_node_changed(f, node);
	return 0;

err_free_tstats:
	free_percpu(dev->tstats);
err_free_netdev:
	free_netdev(dev);
	return err;
}

int mf_netdev_init(void)
{
	return rtnl_link_register(&mf_link_ops);
}

void mf_netdev_exit(void)
{
	rtnl_link_unregister(&mf_link_ops);
}
