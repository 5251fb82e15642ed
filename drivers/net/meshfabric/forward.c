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
	if (!skb_is_gso(skb))
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

/* A timed frame (mf.h's link.c): reserve its slot on every link of its
 * path now, then let it wait in the fabric's time-ordered queue for its
 * arrival.  Consumes skb; the drop reason, or -1 if it is on its way.
 */
static int mf_forward_timed(struct mf_fabric *f, const struct mf_fstate *fs,
			    u32 src, u32 dst, u32 hops0, struct sk_buff *skb)
{
	u32 hops = hops0, limit = fs ? f->topo.nodes :
				  mf_topo_diameter(&f->topo);
	bool rated = READ_ONCE(f->links.rated);
	u32 np = f->topo.nports, from;
	struct mf_walk w;
	enum mf_drop_reason why;
	u64 l;
	struct mf_tframe fr = { .surv = U64_MAX };
	int port;

	mf_frame_size(skb, &fr);
	fr.sent = ktime_get_ns();
	fr.head = fr.sent;
	fr.tail = fr.sent;
	mf_walk_start(&f->rt, fs, src, dst, &w);
	while (w.cur != dst) {
		from = w.cur;
		port = mf_walk_hop(&f->rt, f->links.peer, fs, &w);
		if (port < 0) {
			why = MF_DROP_LINK_DOWN;
			goto drop;
		}
		if (++hops > limit || mf_node_gone(f, w.cur)) {
			why = MF_DROP_NODE_GONE;
			goto drop;
		}
		l = (u64)from * np + port;
		/* loss only: no slot to reserve, no time to add */
		if (rated ? !mf_link_reserve(f, l, &fr, &why) :
			    !mf_link_pass(f, l, &fr, &why))
			goto drop;
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
	trace_meshfabric_forward(f->id, src, dst, hops - hops0, fr.len);
	if (!mf_tq_enqueue(f, dst, skb, fr.tail))
		return MF_DROP_QUEUE_FULL;	/* skb freed */
	return -1;
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

/* Unicast skb from node src (of this host; hops0 hops behind it) to
 * dst: through the timed links, or at once; on to another host over a
 * cut link.  Consumes skb: -1 if it is on its way, else the drop reason.
 * Caller holds RCU, BH disabled.
 */
static int mf_unicast(struct mf_fabric *f, u32 src, u32 dst, u32 hops0,
		      struct sk_buff *skb)
{
	const struct mf_fstate *fs = rcu_dereference(f->fstate);
	enum mf_drop_reason reason = MF_DROP_NODE_GONE;
	unsigned int len = skb->len;
	struct net_device *peer;
	struct mf_cut cut;
	int hops;

	if (src == dst) {	/* entered from the tunnel at dst */
		hops = 0;
		peer = rcu_dereference(f->node[dst].dev);
		goto deliver;
	}
	if (READ_ONCE(f->links.timed))
		return mf_forward_timed(f, fs, src, dst, hops0, skb);
	peer = rcu_dereference(f->node[dst].dev);
	/* no peer and here: the walk does not run */
	hops = peer || mf_node_remote(f, dst) ?
	       mf_forward_walk(f, fs, src, dst, hops0,
			       skb_is_gso(skb) ?
			       max_t(u32, 1, skb_shinfo(skb)->gso_segs) : 1,
			       len, &reason, &cut) : -1;
	if (hops == MF_WALK_CUT)
		return mf_tunnel_xmit(f, &cut, skb) ? -1 : MF_DROP_TUNNEL;
	if (hops < 0)
		goto drop;
	trace_meshfabric_forward(f->id, src, dst, hops, len);
deliver:
	if (!peer)
		goto drop;
	/* dev_forward_skb() frees the skb and counts rx_dropped on failure. */
	if (dev_forward_skb(peer, skb) == NET_RX_SUCCESS)
		dev_sw_netstats_rx_add(peer, len);
	return -1;
drop:
	kfree_skb(skb);
	return reason;
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
	ret = mf_unicast(f, node, dst, hops, skb);
	if (ret >= 0)
		trace_meshfabric_drop(f->id, node, len, ret);
}

netdev_tx_t mf_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct mf_ndev *priv = netdev_priv(dev);
	struct mf_fabric *f = priv->fabric;
	unsigned int len = skb->len;
	enum mf_drop_reason reason = MF_DROP_NO_DEST;
	const struct ethhdr *eth;
	int ret;
	s64 dst;

	if (!pskb_may_pull(skb, ETH_HLEN))
		goto drop;	/* a runt: nowhere to go */
	eth = (const struct ethhdr *)skb->data;
	if (is_multicast_ether_addr(eth->h_dest)) {
		if (mf_is_membership_report(skb)) {
			dev_sw_netstats_tx_add(dev, 1, len);
			consume_skb(skb);
			return NETDEV_TX_OK;
		}
		if (READ_ONCE(f->part)) {	/* and to the other hosts */
			rcu_read_lock();
			mf_tunnel_bcast(f, priv->node, skb);
			rcu_read_unlock();
		}
		if (mf_bcast_queue(f, priv->node, skb)) {
			dev_sw_netstats_tx_add(dev, 1, len);
		} else {
			trace_meshfabric_drop(f->id, priv->node, len,
					      MF_DROP_QUEUE_FULL);
			dev_core_stats_tx_dropped_inc(dev);
		}
		return NETDEV_TX_OK;
	}
	dst = mf_mac_node(f, eth->h_dest);
	if (dst < 0 || dst == priv->node) {
		reason = MF_DROP_NO_DEST;
		goto drop;
	}
	rcu_read_lock();
	ret = mf_unicast(f, priv->node, dst, 0, skb);
	rcu_read_unlock();
	if (ret >= 0) {		/* dropped, skb freed */
		trace_meshfabric_drop(f->id, priv->node, len, ret);
		dev_core_stats_tx_dropped_inc(dev);
	} else {
		dev_sw_netstats_tx_add(dev, 1, len);
	}
	return NETDEV_TX_OK;

drop:
	trace_meshfabric_drop(f->id, priv->node, len, reason);
	dev_core_stats_tx_dropped_inc(dev);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}
