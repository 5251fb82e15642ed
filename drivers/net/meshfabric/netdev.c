// SPDX-License-Identifier: GPL-2.0
/*
 * netdev.c - one Ethernet netdev per node, created directly in its target
 * namespace (dev_net_set() before register_netdevice(), never a move).
 *
 * A node's netdev dies with its namespace (or `ip link del`): our
 * rtnl_link_ops->dellink (called under RTNL for both) marks the node
 * GONE before queueing the unregistration, like veth clears its peer.
 * NETIF_F_NETNS_LOCAL keeps the device from being moved to init_net when
 * its namespace dies.  Per-CPU tstats are freed by the destructor, after
 * the RCU grace period that ends every sender still seeing the device.
 * The MAC address names the node (forward.c) and cannot be changed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>
#include <net/net_namespace.h>
#include "mf.h"

void mf_node_mac(const struct mf_fabric *f, u32 node, u8 *mac)
{
	mac[0] = 0x02;		/* locally administered, unicast */
	mac[1] = 0x6d;		/* 'm' */
	mac[2] = f->id;
	mac[3] = node >> 16;
	mac[4] = node >> 8;
	mac[5] = node;
}

s64 mf_mac_node(const struct mf_fabric *f, const u8 *mac)
{
	u32 node;

	if (mac[0] != 0x02 || mac[1] != 0x6d || mac[2] != f->id)
		return -1;
	node = (u32)mac[3] << 16 | (u32)mac[4] << 8 | mac[5];
	return node < f->topo.nodes ? node : -1;
}

/* Called under RTNL: the node loses its device. */
static void mf_node_detach(struct net_device *dev)
{
	struct mf_ndev *priv = netdev_priv(dev);
	struct mf_node *n = &priv->fabric->node[priv->node];

	if (rtnl_dereference(n->dev) != dev)
		return;
	RCU_INIT_POINTER(n->dev, NULL);
	WRITE_ONCE(n->state, MF_NODE_GONE);
}

static void mf_ndo_uninit(struct net_device *dev)
{
	mf_node_detach(dev);
}

static int mf_ndo_open(struct net_device *dev)
{
	netif_carrier_on(dev);
	return 0;
}

static int mf_ndo_stop(struct net_device *dev)
{
	netif_carrier_off(dev);
	return 0;
}

static const struct net_device_ops mf_netdev_ops = {
	.ndo_uninit = mf_ndo_uninit,
	.ndo_open = mf_ndo_open,
	.ndo_stop = mf_ndo_stop,
	.ndo_start_xmit = mf_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_validate_addr = eth_validate_addr,
};

static void mf_netdev_destructor(struct net_device *dev)
{
	free_percpu(dev->tstats);
	mf_count_put();
}

static void mf_dellink(struct net_device *dev, struct list_head *head)
{
	mf_node_detach(dev);
	unregister_netdevice_queue(dev, head);
}

/* No .setup/.alloc: `ip link add type meshfabric` is refused. */
static struct rtnl_link_ops mf_link_ops = {
	.kind = "meshfabric",
	.dellink = mf_dellink,
};

static void mf_netdev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &mf_netdev_ops;
	dev->rtnl_link_ops = &mf_link_ops;
	dev->priv_flags |= IFF_NO_QUEUE;
	/* mf_xmit queues and forwards the skb itself: never a shared one */
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->features |= NETIF_F_LLTX | NETIF_F_NETNS_LOCAL;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
}

/* Fault injection for the selftests (as netdevsim's debugfs knobs): the
 * netdev allocation after this many more fails with -ENOMEM, so that the
 * tool's unwinding of a create that runs out of memory midway is tested.
 * -1 (default): never.  Set by root through sysfs; read and counted down
 * under RTNL, which serialises every netdev creation.
 */
static int fail_netdev_after = -1;
module_param(fail_netdev_after, int, 0600);
MODULE_PARM_DESC(fail_netdev_after,
		 "testing: fail the netdev allocation after N more with -ENOMEM (-1: never)");

static bool mf_fail_injected(void)
{
	int n = READ_ONCE(fail_netdev_after);

	if (n < 0)
		return false;
	WRITE_ONCE(fail_netdev_after, n - 1);
	return n == 0;
}

int mf_netdev_create(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname)
{
	char name[IFNAMSIZ];
	struct net_device *dev;
	struct mf_ndev *priv;
	u8 mac[ETH_ALEN];
	int err;

	ASSERT_RTNL();
	if (ifname && ifname[0])
		strscpy(name, ifname, sizeof(name));
	else
		snprintf(name, sizeof(name), "mf%un%u", f->id, node);
	if (!dev_valid_name(name))
		return -EINVAL;
	if (mf_fail_injected())
		return -ENOMEM;
	dev = alloc_netdev(sizeof(*priv), name, NET_NAME_USER, mf_netdev_setup);
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
	err = register_netdevice(dev);
	if (err)
		goto err_free_tstats;
	/* Destructors only once registered (they run at unregistration). */
	mf_count_get();
	dev->needs_free_netdev = true;
	dev->priv_destructor = mf_netdev_destructor;
	rcu_assign_pointer(f->node[node].dev, dev);
	WRITE_ONCE(f->node[node].state, MF_NODE_PRESENT);
	return 0;

err_free_tstats:
	free_percpu(dev->tstats);
err_free_netdev:
	free_netdev(dev);
	return err;
}

int mf_netdev_register_ops(void)
{
	return rtnl_link_register(&mf_link_ops);
}

void mf_netdev_unregister_ops(void)
{
	rtnl_link_unregister(&mf_link_ops);
}
