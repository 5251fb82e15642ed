// SPDX-License-Identifier: GPL-2.0
/*
 * port.c - external ports: a node's border port bound to an existing
 * Ethernet netdev (the uapi's MESHFABRIC_IOC_PORT, docs/multihost.md).
 *
 * Frames the fabric routes out of the port leave through the netdev
 * (dev_queue_xmit); frames arriving on it enter the fabric at the node
 * through an rx_handler, as the bridge, macvlan and ipvlan take their
 * lower devices' frames (forward.c, mf_forward_frame, then treats them as
 * the node's own).  The port is a border port of a mesh (no neighbour)
 * or an extra port beyond the node's degree (nports .. nports +
 * MESHFABRIC_PORTS_MAX - 1, any topology).  The port's link (struct
 * mf_links): a border port's is the node's directed link through that
 * port, an extra port's the link links.n + its slot in f->ports[],
 * restarted (defaults, counters from zero) each time a port is bound
 * there; its rate, delay, loss, state and counters are any link's.
 *
 * Lifetime.  f->ports[] is written under RTNL only (attach, detach, the
 * netdev's NETDEV_UNREGISTER, teardown), read under RCU (the data path)
 * or RTNL.  A port holds its netdev (netdev_hold) and is the netdev's
 * rx_handler_data; unbinding unregisters the handler (which waits for the
 * readers of the handler), undoes the promiscuity and frees the port
 * after a grace period (the data path's readers of f->ports[]).  A port
 * holds no reference on its fabric: the fabric's teardown unbinds every
 * port under RTNL before its last reference can go.  Lock order as
 * everywhere: f->lock (attach checks dead under it) -> RTNL (->
 * f->stats_lock, to restart an extra port's link).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include "mf.h"

#define MF_MAC_VALID	BIT_ULL(48)	/* a learned entry: MAC | valid */

struct mf_port {
	struct mf_fabric *f;	/* immutable; outlives the port (above) */
	u32 node;		/* immutable */
	u32 port;		/* immutable */
	u32 slot;		/* immutable: its index in f->ports[] */
	u64 link;		/* immutable: its link (struct mf_links) */
	struct net_device *dev;	/* immutable, held */
	netdevice_tracker tracker;
	/* Learned source MACs (ether_addr_to_u64 | MF_MAC_VALID, 0 free):
	 * written by the receive path on any CPU with WRITE_ONCE, read with
	 * READ_ONCE (64-bit loads: the module depends on 64BIT); a race
	 * loses at most one entry, which the next frame learns again.
	 */
	u64 mac[MESHFABRIC_PORT_MACS];
	atomic_t mac_next;	/* the slot to replace next */
	atomic64_t rx_packets;
	atomic64_t rx_bytes;
	atomic64_t rx_dropped;
	struct rcu_head rcu;
};

static struct mf_port *mf_port_slot(const struct mf_fabric *f, u32 i)
{
	return rcu_dereference_check(f->ports[i], lockdep_rtnl_is_held());
}

/* The port bound at node's port, or NULL.  RCU or RTNL. */
static struct mf_port *mf_port_find(const struct mf_fabric *f, u32 node,
				    u32 port)
{
	struct mf_port *p;
	u32 i;

	if (!READ_ONCE(f->nports_bound))
		return NULL;
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		p = mf_port_slot(f, i);
		if (p && p->node == node && p->port == port)
			return p;
	}
	return NULL;
}

bool mf_port_bound(const struct mf_fabric *f, u32 node, u32 port)
{
	bool bound;

	rcu_read_lock();
	bound = mf_port_find(f, node, port);
	rcu_read_unlock();
	return bound;
}

u32 mf_port_set_down(struct mf_fabric *f, u32 node, u32 port, bool down)
{
	struct mf_port *p;
	u32 i, n = 0;

	rcu_read_lock();
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		p = mf_port_slot(f, i);
		if (!p || (node != MESHFABRIC_ALL && node != p->node) ||
		    (port != MESHFABRIC_ALL && port != p->port))
			continue;
		WRITE_ONCE(f->links.st[p->link].down, down);
		n++;
	}
	rcu_read_unlock();
	return n;
}

u32 mf_port_xlinks(const struct mf_fabric *f, u32 node, u32 port,
		   u64 *links)
{
	struct mf_port *p;
	u32 i, n = 0;

	rcu_read_lock();
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		p = mf_port_slot(f, i);
		if (!p || p->port < f->topo.nports ||
		    (node != MESHFABRIC_ALL && node != p->node) ||
		    (port != MESHFABRIC_ALL && port != p->port))
			continue;
		links[n++] = p->link;
	}
	rcu_read_unlock();
	return n;
}

u64 mf_port_link(const struct mf_fabric *f, u32 node, u32 port)
{
	struct mf_port *p;

	if (port < f->topo.nports)
		return (u64)node * f->topo.nports + port;
	p = mf_port_find(f, node, port);
	return p ? p->link : U64_MAX;
}

bool mf_port_of_slot(const struct mf_fabric *f, u32 slot, u32 *node,
		     u32 *port)
{
	struct mf_port *p;
	bool bound = false;

	rcu_read_lock();
	p = slot < MESHFABRIC_PORTS_MAX ? mf_port_slot(f, slot) : NULL;
	if (p && p->port >= f->topo.nports) {
		*node = p->node;
		*port = p->port;
		bound = true;
	}
	rcu_read_unlock();
	return bound;
}

bool mf_port_lookup(const struct mf_fabric *f, const u8 *mac, u32 *node,
		    u32 *port)
{
	u64 key = ether_addr_to_u64(mac) | MF_MAC_VALID;
	struct mf_port *p;
	u32 i, j;

	if (!READ_ONCE(f->nports_bound))
		return false;
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		p = mf_port_slot(f, i);
		if (!p)
			continue;
		for (j = 0; j < MESHFABRIC_PORT_MACS; j++) {
			if (READ_ONCE(p->mac[j]) == key) {
				*node = p->node;
				*port = p->port;
				return true;
			}
		}
	}
	return false;
}

/* Learn src at p (a MAC learned at another port moves here).  RCU. */
static void mf_port_learn(struct mf_port *p, const u8 *src)
{
	u64 key = ether_addr_to_u64(src) | MF_MAC_VALID;
	struct mf_fabric *f = p->f;
	struct mf_port *q;
	u32 i, j;

	for (j = 0; j < MESHFABRIC_PORT_MACS; j++)
		if (READ_ONCE(p->mac[j]) == key)
			return;
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		q = mf_port_slot(f, i);
		if (!q || q == p)
			continue;
		for (j = 0; j < MESHFABRIC_PORT_MACS; j++)
			if (READ_ONCE(q->mac[j]) == key)
				WRITE_ONCE(q->mac[j], 0);
	}
	j = (u32)atomic_inc_return(&p->mac_next) % MESHFABRIC_PORT_MACS;
	WRITE_ONCE(p->mac[j], key);
}

/* Send skb out of p's netdev: consumes it. */
static void mf_port_xmit(struct mf_port *p, struct sk_buff *skb)
{
	skb_scrub_packet(skb, true);
	skb->dev = p->dev;
	skb_reset_mac_header(skb);
	dev_queue_xmit(skb);
}

int mf_port_send(struct mf_fabric *f, u32 node, u32 port,
		 struct sk_buff *skb, unsigned int packets, bool counted)
{
	enum mf_drop_reason why = MF_DROP_NODE_GONE;
	struct mf_port *p;
	u64 l;

	rcu_read_lock();
	p = mf_port_find(f, node, port);
	if (!p)
		goto drop;
	l = p->link;
	if (!counted) {
		why = MF_DROP_LINK_DOWN;
		if (READ_ONCE(f->links.st[l].down))
			goto drop;
		why = MF_DROP_LOSS;
		if (mf_link_loses(f, l))
			goto drop;
		mf_link_count(f, l, packets, skb->len);
	}
	mf_port_xmit(p, skb);
	rcu_read_unlock();
	return -1;
drop:
	rcu_read_unlock();
	kfree_skb(skb);
	return why;
}

unsigned int mf_port_flood(struct mf_fabric *f, u32 node, u32 port,
			   struct sk_buff *skb, unsigned int packets)
{
	struct sk_buff *copy;
	unsigned int sent = 0;
	struct mf_port *p;
	u32 i;

	if (!READ_ONCE(f->nports_bound))
		return 0;
	rcu_read_lock();
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		p = mf_port_slot(f, i);
		if (!p || (p->node == node && p->port == port) ||
		    mf_node_gone(f, p->node))
			continue;
		copy = skb_clone(skb, GFP_ATOMIC);
		if (copy && mf_port_send(f, p->node, p->port, copy, packets,
					 false) < 0)
			sent++;
	}
	rcu_read_unlock();
	return sent;
}

/* The rx_handler of a bound netdev: every frame enters the fabric. */
static rx_handler_result_t mf_port_rx(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct mf_port *p = rcu_dereference(skb->dev->rx_handler_data);
	struct mf_fabric *f = p->f;
	const struct ethhdr *eth;
	unsigned int len;

	if (unlikely(skb->pkt_type == PACKET_LOOPBACK))
		return RX_HANDLER_PASS;
	/* a port down takes nothing in either direction */
	if (READ_ONCE(f->links.st[p->link].down)) {
		atomic64_inc(&p->rx_dropped);
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		atomic64_inc(&p->rx_dropped);
		return RX_HANDLER_CONSUMED;
	}
	/* the frame as it was on the wire: from its Ethernet header */
	skb_push(skb, ETH_HLEN);
	len = skb->len;
	eth = (const struct ethhdr *)skb->data;
	if (is_valid_ether_addr(eth->h_source) &&
	    mf_mac_node(f, eth->h_source) < 0)
		mf_port_learn(p, eth->h_source);
	if (mf_forward_frame(f, p->node, p->port, skb) < 0) {
		atomic64_inc(&p->rx_packets);
		atomic64_add(len, &p->rx_bytes);
	} else {
		atomic64_inc(&p->rx_dropped);
	}
	return RX_HANDLER_CONSUMED;
}

static bool mf_port_is_bound_dev(const struct net_device *dev)
{
	return rcu_access_pointer(dev->rx_handler) == mf_port_rx;
}

static int mf_port_lower_is_node(struct net_device *lower,
				 struct netdev_nested_priv *priv)
{
	return mf_netdev_is_node(lower);
}

/* Does dev lead into a fabric when it sends: a node's netdev, or a
 * device stacked on one (VLAN, macvlan, ipvlan, bond, bridge)?  Under
 * RTNL.
 */
static bool mf_port_dev_is_node(struct net_device *dev)
{
	return mf_netdev_is_node(dev) ||
	       netdev_walk_all_lower_dev(dev, mf_port_lower_is_node, NULL);
}

int mf_port_attach(struct mf_fabric *f, u32 node, u32 port, struct net *net,
		   const char *ifname)
{
	const struct mf_topo *t = &f->topo;
	struct net_device *dev;
	struct mf_port *p, *q;
	int err, slot = -1;
	u32 i;

	/* a border port (no neighbour) or an extra port */
	if (node >= t->nodes || port >= t->nports + MESHFABRIC_PORTS_MAX ||
	    (port < t->nports &&
	     f->links.peer[(u64)node * t->nports + port] !=
	     MESHFABRIC_NO_PEER))
		return -EINVAL;
	/* split over hosts: the node's host binds its ports */
	if (mf_node_remote(f, node))
		return -EREMOTE;
	p = mf_counted_zalloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	if (mutex_lock_killable(&f->lock)) {
		mf_counted_free(p);
		return -EINTR;
	}
	err = -ENOENT;
	if (f->dead)
		goto out;
	rtnl_lock();
	err = -EBUSY;
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		q = rtnl_dereference(f->ports[i]);
		if (!q && slot < 0)
			slot = i;
		if (q && q->node == node && q->port == port)
			goto unlock;
	}
	err = -E2BIG;
	if (slot < 0)
		goto unlock;
	err = -ENODEV;
	dev = __dev_get_by_name(net, ifname);
	if (!dev)
		goto unlock;
	/* not a node's netdev nor one over it: what the port sends would
	 * come back into a fabric at once, and a broadcast would go round
	 * for ever, copied to every port and node each time
	 */
	err = -EINVAL;
	if (dev->type != ARPHRD_ETHER || dev->addr_len != ETH_ALEN ||
	    (dev->flags & IFF_LOOPBACK) || mf_port_dev_is_node(dev))
		goto unlock;
	err = -EBUSY;
	if (rtnl_dereference(dev->rx_handler))
		goto unlock;
	p->f = f;
	p->node = node;
	p->port = port;
	p->slot = slot;
	p->link = port < t->nports ? (u64)node * t->nports + port :
		  f->links.n + slot;
	p->dev = dev;
	err = dev_set_promiscuity(dev, 1);
	if (err)
		goto unlock;
	err = netdev_rx_handler_register(dev, mf_port_rx, p);
	if (err) {
		dev_set_promiscuity(dev, -1);
		goto unlock;
	}
	netdev_hold(dev, &p->tracker, GFP_KERNEL);
	rcu_assign_pointer(f->ports[slot], p);
	WRITE_ONCE(f->nports_bound, f->nports_bound + 1);
	p = NULL;
unlock:
	rtnl_unlock();
	/* An extra port's link starts afresh, once bound (a failed attach
	 * leaves the slot's as it was): after RTNL, since the counters'
	 * reset waits for stats_lock.  LINK_SET waits for f->lock; frames
	 * the port took meanwhile (a few, at most) are not counted.
	 */
	if (!err && port >= t->nports) {
		mf_link_restart(f, f->links.n + slot);
		mf_links_timed_update(f);
	}
out:
	mutex_unlock(&f->lock);
	mf_counted_free(p);
	return err;
}

static void mf_port_free_rcu(struct rcu_head *head)
{
	mf_counted_free(container_of(head, struct mf_port, rcu));
}

/* Unbind p: its netdev as it was before attach.  Under RTNL. */
static void mf_port_unbind(struct mf_port *p)
{
	struct mf_fabric *f = p->f;

	ASSERT_RTNL();
	RCU_INIT_POINTER(f->ports[p->slot], NULL);
	WRITE_ONCE(f->nports_bound, f->nports_bound - 1);
	/* waits for the handler's readers (synchronize_net) */
	netdev_rx_handler_unregister(p->dev);
	dev_set_promiscuity(p->dev, -1);
	netdev_put(p->dev, &p->tracker);
	call_rcu(&p->rcu, mf_port_free_rcu);
}

int mf_port_detach(struct mf_fabric *f, u32 node, u32 port)
{
	struct mf_port *p;
	int err = -ENOENT;

	if (node >= f->topo.nodes ||
	    port >= f->topo.nports + MESHFABRIC_PORTS_MAX)
		return -EINVAL;
	if (mutex_lock_killable(&f->lock))
		return -EINTR;
	rtnl_lock();
	p = mf_port_find(f, node, port);
	if (p) {
		mf_port_unbind(p);
		err = 0;
	}
	rtnl_unlock();
	/* an unbound slot's link times nothing (a netdev's removal leaves
	 * that to the next LINK_SET or attach)
	 */
	if (!err)
		mf_links_timed_update(f);
	mutex_unlock(&f->lock);
	return err;
}

void mf_port_detach_all(struct mf_fabric *f)
{
	struct mf_port *p;
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < MESHFABRIC_PORTS_MAX; i++) {
		p = rtnl_dereference(f->ports[i]);
		if (p)
			mf_port_unbind(p);
	}
}

u32 mf_port_get(struct mf_fabric *f, struct meshfabric_port_info *out,
		u32 max)
{
	struct meshfabric_port_info *pi;
	struct mf_port *p;
	u32 i, j, n = 0;

	rtnl_lock();	/* the netdevs' names */
	for (i = 0; i < MESHFABRIC_PORTS_MAX && n < max; i++) {
		p = rtnl_dereference(f->ports[i]);
		if (!p)
			continue;
		pi = &out[n++];
		memset(pi, 0, sizeof(*pi));
		pi->node = p->node;
		pi->port = p->port;
		pi->ifindex = p->dev->ifindex;
		pi->netns_ino = dev_net(p->dev)->ns.inum;
		strscpy(pi->ifname, p->dev->name, sizeof(pi->ifname));
		pi->rx_packets = atomic64_read(&p->rx_packets);
		pi->rx_bytes = atomic64_read(&p->rx_bytes);
		pi->rx_dropped = atomic64_read(&p->rx_dropped);
		for (j = 0; j < MESHFABRIC_PORT_MACS; j++)
			pi->learned += !!READ_ONCE(p->mac[j]);
	}
	rtnl_unlock();
	return n;
}

static int mf_port_upper_is_bound(struct net_device *upper,
				  struct netdev_nested_priv *priv)
{
	return mf_port_is_bound_dev(upper);
}

/* Would linking dev under upper put a node below a bound port (a node,
 * or a device over one, enslaved to a bridge or bond that is a port)?
 * Under RTNL.
 */
static bool mf_port_link_loops(struct net_device *dev,
			       struct net_device *upper)
{
	bool loops;

	if (!mf_port_dev_is_node(dev))
		return false;
	rcu_read_lock();
	loops = mf_port_is_bound_dev(upper) ||
		netdev_walk_all_upper_dev_rcu(upper, mf_port_upper_is_bound,
					      NULL);
	rcu_read_unlock();
	return loops;
}

/* A bound netdev leaves (deleted, or moved to another namespace): the
 * port is unbound.  A node, or a device over one, is not linked below a
 * bound port (attach's rule, kept afterwards).  Under RTNL.
 */
static int mf_port_event(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *cu = ptr;

	if (event == NETDEV_PRECHANGEUPPER) {
		if (cu->linking && mf_port_link_loops(dev, cu->upper_dev))
			return notifier_from_errno(-EBUSY);
		return NOTIFY_DONE;
	}
	if (event != NETDEV_UNREGISTER || !mf_port_is_bound_dev(dev))
		return NOTIFY_DONE;
	mf_port_unbind(rtnl_dereference(dev->rx_handler_data));
	return NOTIFY_OK;
}

static struct notifier_block mf_port_notifier = {
	.notifier_call = mf_port_event,
};

int mf_port_init(void)
{
	return register_netdevice_notifier(&mf_port_notifier);
}

void mf_port_exit(void)
{
	unregister_netdevice_notifier(&mf_port_notifier);
}
