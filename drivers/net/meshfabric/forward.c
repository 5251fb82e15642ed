// SPDX-License-Identifier: GPL-2.0
/*
 * forward.c - the data path of a node's netdev (ndo_start_xmit).
 *
 * Unicast to another node's MAC: walk the routing table from the source
 * node to the destination node (mf.h: a hop is table loads), counting the
 * frame on every directed link it crosses in this CPU's counters, then
 * hand it to the destination's netdev (dev_forward_skb: scrubbed,
 * eth_type_trans, netif_rx).  A GONE node on the way drops it.
 * On a fabric with timed links (link.c) the frame reserves its slots on
 * the links of its path and waits for its arrival time in tqueue.c.
 * Broadcast and multicast: queued, bounded, for bcast.c's flood, which
 * runs on the module's workqueue.  Multicast membership reports
 * (MLD, IGMP) are consumed, not flooded: a fabric has no multicast router
 * to hear them (as a snooping switch without a querier), and flooding the
 * reports every node sends at link-up through an N-node schedule costs
 * O(N^2) deliveries that stall neighbour discovery on large fabrics.
 * Lockless: node devices are read under RCU, tables are immutable,
 * counters are per CPU (ndo_start_xmit runs with BH disabled).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/icmpv6.h>
#include <linux/igmp.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include "mf.h"
#include "trace.h"

/* mf_forward_walk()'s and mf_forward_timed()'s: the frame left this
 * host over a cut link (struct mf_cut says where to).
 */
#define MF_WALK_CUT	(-2)

/* Count the frame along the routed path (around links down: fs) from
 * src, which it reached after hops0 hops: its hops, -1 if it cannot get
 * through (a GONE node on the way, or links down cutting dst off: *why
 * says which), or MF_WALK_CUT when it reaches a node of another host
 * (*cut: the link is counted here, by the sender's host).  Per hop:
 * table loads and this CPU's counters.
 */
static int mf_forward_walk(struct mf_fabric *f, const struct mf_fstate *fs,
			   u32 src, u32 dst, u32 hops0, unsigned int packets,
			   unsigned int len, enum mf_drop_reason *why,
			   struct mf_cut *cut)
{
	u32 hops = hops0, limit = fs ? f->topo.nodes :
				  mf_topo_diameter(&f->topo);
	u32 np = f->topo.nports;
	struct mf_walk w;
	u32 from;
	int port;

	mf_walk_start(&f->rt, fs, src, dst, &w);
	while (w.cur != dst) {
		from = w.cur;
		port = mf_walk_hop(&f->rt, f->links.peer, fs, &w);
		if (unlikely(port < 0)) {
			*why = MF_DROP_LINK_DOWN;
			return -1;
		}
		if (++hops > limit || mf_node_gone(f, w.cur)) {
			*why = MF_DROP_NODE_GONE;
			return -1;
		}
		mf_link_count(f, (u64)from * np + port, packets, len);
		if (unlikely(mf_node_remote(f, w.cur))) {
			cut->node = w.cur;
			cut->port = mf_topo_port(&f->topo, w.cur, from);
			cut->hops = hops;
			return MF_WALK_CUT;
		}
	}
	return hops - hops0;
}

/* The wire size of one segment of skb (a GSO frame's segments all have
 * its headers; the last one may be shorter: counted as long).
 */
static void mf_frame_size(const struct sk_buff *skb, struct mf_tframe *fr)
{
	unsigned int hdr;

	fr->len = skb->len;
	fr->segs = 1;
	fr->seg_bytes = skb->len;
	/* no transport header in the frame (not set, or before it): whole */
	if (!skb_is_gso(skb) || !skb_transport_header_was_set(skb) ||
	    skb_transport_offset(skb) < 0)
		return;
	hdr = skb_transport_offset(skb);
	if (skb_shinfo(skb)->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6))
		hdr += tcp_hdrlen(skb);
	else
		hdr += sizeof(struct udphdr);
	fr->seg_bytes = min(skb->len, hdr + skb_shinfo(skb)->gso_size);
	/* gso_segs may be 0 (SKB_GSO_DODGY, from a packet socket): count */
	fr->segs = skb_shinfo(skb)->gso_size && skb->len > hdr ?
		   DIV_ROUND_UP(skb->len - hdr, skb_shinfo(skb)->gso_size) : 1;
}

/* A timed frame (mf.h's link.c) from src, hops0 hops behind it: reserve
 * its slot on every link of its path now (and on dst's external port's
 * link: port not MF_PORT_NONE), then let it wait in the fabric's
 * time-ordered queue for its arrival (at dst, or at the cut link's far
 * end: on to another host then).  Consumes skb; the drop reason, or -1
 * if it is on its way.
 */
static int mf_forward_timed(struct mf_fabric *f, const struct mf_fstate *fs,
			    u32 src, u32 dst, u32 hops0, u32 port,
			    struct sk_buff *skb)
{
	u32 hops = hops0, limit = fs ? f->topo.nodes :
				  mf_topo_diameter(&f->topo);
	bool rated = READ_ONCE(f->links.rated);
	u32 np = f->topo.nports, from;
	struct mf_walk w;
	enum mf_drop_reason why;
	u64 l;
	struct mf_tframe fr = { .ld.surv = U64_MAX };
	/* loss only (!rated): the frame's draw, segments and length apart
	 * from fr, whose address mf_link_reserve takes, so that the compiler
	 * may keep them in registers: the survival chance then stays in one
	 * and a hop stores nothing to the stack (a hop's cost: selftest 44)
	 */
	struct mf_lossdraw ld = { .surv = U64_MAX };
	u32 segs, len;
	int hop;

	mf_frame_size(skb, &fr);
	segs = fr.segs;
	len = fr.len;
	fr.sent = ktime_get_ns();
	fr.head = fr.sent;
	fr.tail = fr.sent;
	w.cur = src;
	if (src != dst)
		mf_walk_start(&f->rt, fs, src, dst, &w);
	while (w.cur != dst) {
		from = w.cur;
		hop = mf_walk_hop(&f->rt, f->links.peer, fs, &w);
		if (hop < 0) {
			why = MF_DROP_LINK_DOWN;
			goto drop;
		}
		if (++hops > limit || mf_node_gone(f, w.cur)) {
			why = MF_DROP_NODE_GONE;
			goto drop;
		}
		l = (u64)from * np + hop;
		if (rated) {
			if (!mf_link_reserve(f, l, &fr, &why))
				goto drop;
		} else if (!mf_link_pass(f, l, &ld, segs, len)) {
			/* loss only: no slot to reserve, no time to add */
			goto lost;
		}
		if (unlikely(mf_node_remote(f, w.cur))) {
			/* crosses the cut link's model here, then the
			 * tunnel at its arrival time
			 */
			struct mf_cut cut = {
				.node = w.cur,
				.port = mf_topo_port(&f->topo, w.cur, from),
				.hops = hops,
			};

			if (!mf_tq_enqueue_cut(f, &cut, skb, fr.tail))
				return MF_DROP_QUEUE_FULL;	/* freed */
			return -1;
		}
	}
	if (port != MF_PORT_NONE) {
		/* the port's link: gone if it was unbound meanwhile */
		l = mf_port_link(f, dst, port);
		why = l == U64_MAX ? MF_DROP_NODE_GONE : MF_DROP_LINK_DOWN;
		if (l == U64_MAX || READ_ONCE(f->links.st[l].down) ||
		    (rated && !mf_link_reserve(f, l, &fr, &why)))
			goto drop;
		if (!rated && !mf_link_pass(f, l, &ld, segs, len))
			goto lost;
	}
	trace_meshfabric_forward(f->id, src, dst, hops - hops0, fr.len);
	if (!mf_tq_enqueue(f, dst, port, skb, fr.tail))
		return MF_DROP_QUEUE_FULL;	/* skb freed */
	return -1;
lost:
	why = MF_DROP_LOSS;
drop:
	kfree_skb(skb);
	return why;
}

/* True for an MLD (ICMPv6 130/131/132/143) or IGMP frame. */
static bool mf_is_membership_report(const struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	unsigned int off = ETH_HLEN;
	const struct ipv6hdr *ip6;
	const struct iphdr *ip;
	struct ipv6hdr ip6buf;
	struct iphdr ipbuf;
	u8 nexthdr, buf[2];
	const u8 *h;

	if (eth->h_proto == htons(ETH_P_IP)) {
		ip = skb_header_pointer(skb, off, sizeof(ipbuf), &ipbuf);
		return ip && ip->protocol == IPPROTO_IGMP;
	}
	if (eth->h_proto != htons(ETH_P_IPV6))
		return false;
	ip6 = skb_header_pointer(skb, off, sizeof(ip6buf), &ip6buf);
	if (!ip6)
		return false;
	nexthdr = ip6->nexthdr;
	off += sizeof(*ip6);
	/* MLD messages carry a hop-by-hop router alert option first. */
	if (nexthdr == NEXTHDR_HOP) {
		h = skb_header_pointer(skb, off, sizeof(buf), buf);
		if (!h)
			return false;
		nexthdr = h[0];
		off += (h[1] + 1) * 8;
	}
	if (nexthdr != IPPROTO_ICMPV6)
		return false;
	h = skb_header_pointer(skb, off, 1, buf);
	return h && (*h == ICMPV6_MGM_QUERY || *h == ICMPV6_MGM_REPORT ||
		     *h == ICMPV6_MGM_REDUCTION || *h == ICMPV6_MLD2_REPORT);
}

/* Route skb from node src (of this host; hops0 hops behind it) to node
 * dst (src == dst: no link, e.g. entered from the tunnel at dst), then
 * hand it to dst's netdev or, port not MF_PORT_NONE, send it out of dst's
 * external port; on to another host where the path crosses a cut link.
 * Consumes skb: -1 on its way, else the drop reason.
 */
static int mf_forward(struct mf_fabric *f, u32 src, u32 dst, u32 hops0,
		      u32 port, struct sk_buff *skb)
{
	enum mf_drop_reason reason = MF_DROP_NODE_GONE;
	unsigned int len = skb->len, packets;
	struct net_device *peer = NULL;
	const struct mf_fstate *fs;
	struct mf_cut cut;
	int hops = 0, ret;

	rcu_read_lock();
	fs = rcu_dereference(f->fstate);
	/* timed: but a frame that entered at dst from the tunnel crossed
	 * its links' model on the sending host
	 */
	if (READ_ONCE(f->links.timed) &&
	    (src != dst || port != MF_PORT_NONE)) {
		ret = mf_forward_timed(f, fs, src, dst, hops0, port, skb);
		rcu_read_unlock();
		return ret;
	}
	packets = skb_is_gso(skb) ? max_t(u32, 1, skb_shinfo(skb)->gso_segs) :
				    1;
	/* no peer here, or the port's node GONE: the walk does not run */
	if (port == MF_PORT_NONE)
		peer = rcu_dereference(f->node[dst].dev);
	if ((port == MF_PORT_NONE && !peer && !mf_node_remote(f, dst)) ||
	    (port != MF_PORT_NONE && mf_node_gone(f, dst)))
		goto drop;
	if (src != dst)
		hops = mf_forward_walk(f, fs, src, dst, hops0, packets, len,
				       &reason, &cut);
	if (hops == MF_WALK_CUT) {
		ret = mf_tunnel_xmit(f, &cut, skb) ? -1 : MF_DROP_TUNNEL;
		rcu_read_unlock();
		return ret;
	}
	if (hops < 0 || (port == MF_PORT_NONE && !peer))
		goto drop;
	trace_meshfabric_forward(f->id, src, dst, hops, len);
	if (port != MF_PORT_NONE) {
		ret = mf_port_send(f, dst, port, skb, packets, false);
		rcu_read_unlock();
		return ret;
	}
	/* dev_forward_skb() frees the skb and counts rx_dropped on failure. */
	if (dev_forward_skb(peer, skb) == NET_RX_SUCCESS)
		dev_sw_netstats_rx_add(peer, len);
	rcu_read_unlock();
	return -1;
drop:
	rcu_read_unlock();
	kfree_skb(skb);
	return reason;
}

/* A broadcast or multicast frame of src (in_port: arrived at src's
 * external port): copies out of the other external ports, to src itself
 * if it came from outside, and the fabric's flood.  Consumes skb.
 */
static int mf_forward_multi(struct mf_fabric *f, u32 src, u32 in_port,
			    struct sk_buff *skb)
{
	struct net_device *dev;
	struct sk_buff *copy;
	unsigned int len = skb->len;

	if (READ_ONCE(f->part))		/* and to the other hosts */
		mf_tunnel_bcast(f, src, skb);
	mf_port_flood(f, src, in_port, skb, 1);
	if (in_port != MF_PORT_NONE) {
		rcu_read_lock();
		dev = rcu_dereference(f->node[src].dev);
		copy = dev ? skb_clone(skb, GFP_ATOMIC) : NULL;
		if (copy && dev_forward_skb(dev, copy) == NET_RX_SUCCESS)
			dev_sw_netstats_rx_add(dev, len);
		rcu_read_unlock();
	}
	return mf_bcast_queue(f, src, skb) ? -1 : MF_DROP_QUEUE_FULL;
}

int mf_forward_frame(struct mf_fabric *f, u32 src, u32 in_port,
		     struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	u32 dst, port = MF_PORT_NONE;
	s64 node;

	if (in_port != MF_PORT_NONE && mf_node_gone(f, src)) {
		kfree_skb(skb);
		return MF_DROP_NODE_GONE;
	}
	if (is_multicast_ether_addr(eth->h_dest)) {
		if (mf_is_membership_report(skb)) {
			consume_skb(skb);
			return -1;
		}
		return mf_forward_multi(f, src, in_port, skb);
	}
	node = mf_mac_node(f, eth->h_dest);
	if (node >= 0) {
		dst = node;
		/* a node does not send to itself; from outside: delivered */
		if (dst == src && in_port == MF_PORT_NONE) {
			kfree_skb(skb);
			return MF_DROP_NO_DEST;
		}
	} else if (!mf_port_lookup(f, eth->h_dest, &dst, &port)) {
		/* unknown: copies out of the external ports, if any */
		if (!mf_port_flood(f, src, in_port, skb, 1)) {
			kfree_skb(skb);
			return MF_DROP_NO_DEST;
		}
		consume_skb(skb);
		return -1;
	} else if (dst == src && port == in_port) {
		consume_skb(skb);	/* learned where it came from */
		return -1;
	}
	return mf_forward(f, src, dst, 0, port, skb);
}

void mf_forward_rx(struct mf_fabric *f, u32 node, u32 hops,
		   struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	unsigned int len = skb->len;
	s64 dst = mf_mac_node(f, eth->h_dest);
	int ret;

	if (dst < 0 || mf_node_remote(f, node)) {
		trace_meshfabric_drop(f->id, node, len, MF_DROP_NO_DEST);
		kfree_skb(skb);
		return;
	}
	ret = mf_forward(f, node, dst, hops, MF_PORT_NONE, skb);
	if (ret >= 0)
		trace_meshfabric_drop(f->id, node, len, ret);
}

netdev_tx_t mf_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct mf_ndev *priv = netdev_priv(dev);
	struct mf_fabric *f = priv->fabric;
	unsigned int len = skb->len;
	int ret;

	if (!pskb_may_pull(skb, ETH_HLEN)) {	/* a runt: nowhere to go */
		trace_meshfabric_drop(f->id, priv->node, len, MF_DROP_NO_DEST);
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	rcu_read_lock();	/* the external ports */
	ret = mf_forward_frame(f, priv->node, MF_PORT_NONE, skb);
	rcu_read_unlock();
	if (ret >= 0) {		/* dropped, skb freed */
		trace_meshfabric_drop(f->id, priv->node, len, ret);
		dev_core_stats_tx_dropped_inc(dev);
	} else {
		dev_sw_netstats_tx_add(dev, 1, len);
	}
	return NETDEV_TX_OK;
}
