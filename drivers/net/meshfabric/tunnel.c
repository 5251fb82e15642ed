// SPDX-License-Identifier: GPL-2.0
/*
 * tunnel.c - one fabric over several hosts: the cut links' UDP tunnel
 * (TUNNEL_SET, TUNNEL_GET; docs/multihost.md).
 *
 * Each host holds a part of the fabric: the same fabric (id, topology,
 * routing) everywhere, f->part[] saying which host holds each node.  A
 * frame that reaches a cut link has been counted on it and has crossed
 * its link model on the sender's host (forward.c, tqueue.c); it then
 * travels in one Geneve datagram (RFC 8926; the uapi header gives the
 * option) to the peer of the part at the far end, whose module goes on
 * from the node it entered, as if from the neighbour (mf_forward_rx).
 * Node broadcasts travel once to every other part and are flooded there
 * from the same source over the same spanning tree (bcast.c).  A BCAST's
 * send that reaches a cut travels with a second option saying where in
 * the schedule it is, and the receiving host's bcast.c goes on with it.
 *
 * The socket is the kernel's udp_tunnel API's: udp_sock_create() in the
 * namespace of the process that configured it (held until teardown),
 * setup_udp_tunnel_sock() with mf_tunnel_rcv as encap_rcv, and
 * udp_tunnel_xmit_skb() / udp_tunnel6_xmit_skb() with a route looked up
 * per frame (no cache: one lookup per frame that crosses hosts).
 *
 * Locking: f->tun is set under f->lock by TUNNEL_SET and cleared under it
 * by teardown; the data path (ndo_start_xmit, the timed queue's timer,
 * encap_rcv) reads it under RCU and the socket's sk_user_data under RCU
 * (teardown clears both and waits for a grace period before the socket
 * goes).  The counters are atomic; heard[] is written by encap_rcv with
 * WRITE_ONCE and read with READ_ONCE; down is the keepalive work's own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/jhash.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/uaccess.h>
#include <net/gro.h>
#include <net/ip.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include "mf.h"
#include "schedcode.h"
#include "trace.h"

int mf_validate_tunnel(const struct meshfabric_tunnel *tu)
{
	if ((tu->flags & ~MESHFABRIC_TUNNEL_IPV6) || tu->nparts < 2 ||
	    tu->nparts > MESHFABRIC_TUNNEL_MAX_PARTS ||
	    tu->part >= tu->nparts || tu->port > U16_MAX || !tu->map_ptr ||
	    !tu->peers_ptr || tu->mtu || tu->tx_frames || tu->tx_bytes ||
	    tu->rx_frames || tu->rx_bytes || tu->rx_errors || tu->tx_errors ||
	    tu->alive || tu->reserved)
		return -EINVAL;
	if (tu->keepalive_ms && (tu->keepalive_ms < 100 ||
				 tu->keepalive_ms > 60000))
		return -EINVAL;
	return 0;
}

/* The kernel's udp_tunnel API (CONFIG_NET_UDP_TUNNEL, a module in
 * Debian's kernels; the debug kernel and KUnit's UML build lack it):
 * without it, TUNNEL_SET answers -EOPNOTSUPP and no fabric has a part.
 */
#if IS_REACHABLE(CONFIG_NET_UDP_TUNNEL)

/* The Geneve header and meshfabric's one option (uapi header), 24 bytes */
struct mf_geneve {
	u8 ver_len;		/* version 0 (top 2 bits), options' words */
	u8 oc;			/* O (0x80), C (0x40: a critical option) */
	__be16 proto;		/* ETH_P_TEB */
	u8 vni[3];		/* 0 */
	u8 rsvd;
	__be16 opt_class;	/* MESHFABRIC_GENEVE_CLASS */
	u8 opt_type;		/* MESHFABRIC_GENEVE_TYPE */
	u8 opt_len;		/* 3 words of data (low 5 bits) */
	u8 fabric;
	u8 flags;		/* MESHFABRIC_GENEVE_F_* */
	u8 port;
	u8 part;
	__be32 node;
	__be32 step;
} __packed;

/* A BCAST's send: the second option (uapi header), after struct
 * mf_geneve
 */
struct mf_geneve_sched {
	__be16 opt_class;	/* MESHFABRIC_GENEVE_CLASS */
	u8 opt_type;		/* MESHFABRIC_GENEVE_TYPE_SCHED */
	u8 opt_len;		/* 4 words of data */
	__be32 source;
	__be32 send;
	__be32 hop;
	u8 algo;
	u8 flags;		/* MESHFABRIC_GENEVE_SF_* */
	u8 rsvd[2];
} __packed;

/* A timed BCAST's send: the third option (uapi header) */
struct mf_geneve_time {
	__be16 opt_class;	/* MESHFABRIC_GENEVE_CLASS */
	u8 opt_type;		/* MESHFABRIC_GENEVE_TYPE_TIME */
	u8 opt_len;		/* 4 words of data */
	__be64 sent;
	__be64 arrive;
} __packed;

/* The options after meshfabric's: a BCAST's send (sched), timed or not */
struct mf_geneve_xopts {
	struct mf_geneve_sched so;
	struct mf_geneve_time to;
} __packed;

/* A collective's frame: the path option's header (uapi header), its
 * ports after it
 */
struct mf_geneve_path {
	__be16 opt_class;	/* MESHFABRIC_GENEVE_CLASS */
	u8 opt_type;		/* MESHFABRIC_GENEVE_TYPE_PATH */
	u8 opt_len;		/* ceil(hops / 8) words of data */
	u8 ports[MF_PATH_BYTES];
} __packed;

#define MF_GENEVE_OPT_WORDS	4	/* option header and data */
#define MF_GENEVE_SCHED_WORDS	5	/* the second option's */
#define MF_GENEVE_TIME_WORDS	5	/* the third option's */
#define MF_GENEVE_CRITICAL	0x40
#define MF_TUNNEL_HLEN		(sizeof(struct udphdr) + sizeof(struct mf_geneve))
static_assert(sizeof(struct mf_geneve) == 24);
static_assert(sizeof(struct mf_geneve_sched) == MF_GENEVE_SCHED_WORDS * 4);
static_assert(sizeof(struct mf_geneve_time) == MF_GENEVE_TIME_WORDS * 4);
/* an option's length is 5 bits of words, all options' 6 bits */
static_assert(DIV_ROUND_UP(MESHFABRIC_TUNNEL_PATH_HOPS, 8) <= 0x1f);
static_assert(MF_GENEVE_OPT_WORDS + 1 +
	      DIV_ROUND_UP(MESHFABRIC_TUNNEL_PATH_HOPS, 8) <= 0x3f);
static_assert(MESHFABRIC_TUNNEL_OVERHEAD4 ==
	      sizeof(struct iphdr) + MF_TUNNEL_HLEN + ETH_HLEN);
static_assert(MESHFABRIC_TUNNEL_OVERHEAD6 ==
	      sizeof(struct ipv6hdr) + MF_TUNNEL_HLEN + ETH_HLEN);

union mf_taddr {
	__be32 v4;
	struct in6_addr v6;
};

struct mf_tunnel {
	struct mf_fabric *f;	/* no reference: teardown stops us first */
	struct socket *sock;
	struct net *net;	/* the socket's namespace, referenced */
	bool ipv6;
	__be16 port;
	u32 nparts;
	u32 mtu;
	u32 keepalive_ms;
	union mf_taddr peer[MESHFABRIC_TUNNEL_MAX_PARTS];	/* immutable */
	/* jiffies of the last datagram from each part (0: never) */
	unsigned long heard[MESHFABRIC_TUNNEL_MAX_PARTS];
	u64 down;		/* parts whose cut links the work set down */
	struct delayed_work ka;
	atomic64_t tx_frames, tx_bytes, rx_frames, rx_bytes;
	atomic64_t rx_errors, tx_errors;
};

/* The UDP source port: a hash of the inner MAC pair, in 49152..65535
 * (RFC 6335's dynamic ports), so that the underlay spreads node pairs.
 */
static __be16 mf_tunnel_sport(const struct sk_buff *skb)
{
	u8 macs[2 * ETH_ALEN];
	u32 hash = 0;

	if (!skb_copy_bits(skb, 0, macs, sizeof(macs)))
		hash = jhash(macs, sizeof(macs), 0);
	return htons(49152 + reciprocal_scale(hash, 16384));
}

/* gh, then words 4-byte words of the options xo, in front of skb */
static int mf_tunnel_encap(struct sk_buff *skb, const struct dst_entry *dst,
			   unsigned int iphlen, bool csum,
			   const struct mf_geneve *gh, const void *xo, u32 words)
{
	int err;

	err = skb_cow_head(skb, LL_RESERVED_SPACE(dst->dev) +
			   dst->header_len + iphlen + MF_TUNNEL_HLEN +
			   words * 4);
	if (err)
		return err;
	err = udp_tunnel_handle_offloads(skb, csum);
	if (err)
		return err;
	if (words)
		memcpy(__skb_push(skb, words * 4), xo, words * 4);
	memcpy(__skb_push(skb, sizeof(*gh)), gh, sizeof(*gh));
	skb_set_inner_protocol(skb, htons(ETH_P_TEB));
	return 0;
}

/* Send skb (an Ethernet frame at data, or empty: a keepalive) to the peer
 * of part, with words 4-byte words of the options xo after meshfabric's
 * (0: none).  Consumes skb.  Caller holds RCU with BH disabled.
 */
static bool mf_tunnel_send(struct mf_tunnel *t, u32 part, u8 flags, u32 node,
			   u8 port, u32 step, const void *xo, u32 words,
			   struct sk_buff *skb)
{
	struct mf_fabric *f = t->f;
	struct sock *sk = t->sock->sk;
	unsigned int len = skb->len;
	__be16 sport = mf_tunnel_sport(skb);
	struct mf_geneve gh = {
		.ver_len = MF_GENEVE_OPT_WORDS + words,
		.oc = MF_GENEVE_CRITICAL,
		.proto = htons(ETH_P_TEB),
		.opt_class = htons(MESHFABRIC_GENEVE_CLASS),
		.opt_type = MESHFABRIC_GENEVE_TYPE,
		.opt_len = MF_GENEVE_OPT_WORDS - 1,
		.fabric = f->id,
		.flags = flags,
		.port = port,
		.part = f->mypart,
		.node = htonl(node),
		.step = htonl(step),
	};

	/* leaving for another namespace: no node's device, socket or mark;
	 * no device of ours counts it (iptunnel_xmit counts skb->dev's)
	 */
	skb_scrub_packet(skb, true);
	skb->dev = NULL;
	skb_reset_mac_header(skb);
	if (!t->ipv6) {
		struct flowi4 fl4 = {
			.daddr = t->peer[part].v4,
			.flowi4_proto = IPPROTO_UDP,
			.fl4_sport = sport,
			.fl4_dport = t->port,
		};
		struct rtable *rt = ip_route_output_key(t->net, &fl4);

		if (IS_ERR(rt))
			goto err;
		if (mf_tunnel_encap(skb, &rt->dst, sizeof(struct iphdr), false,
				    &gh, xo, words)) {
			ip_rt_put(rt);
			goto err;
		}
		/* no DF: a frame bigger than the path (a BCAST payload)
		 * is fragmented by the underlay rather than lost
		 */
		mf_udp_tunnel_xmit_skb(rt, sk, skb, fl4.saddr, fl4.daddr, 0,
				       ip4_dst_hoplimit(&rt->dst), 0, sport,
				       t->port, true, true);
	} else {
		struct flowi6 fl6 = {
			.daddr = t->peer[part].v6,
			.flowi6_proto = IPPROTO_UDP,
			.fl6_sport = sport,
			.fl6_dport = t->port,
		};
		struct dst_entry *dst = ip6_dst_lookup_flow(t->net, sk, &fl6,
							    NULL);

		if (IS_ERR(dst))
			goto err;
		if (mf_tunnel_encap(skb, dst, sizeof(struct ipv6hdr), true,
				    &gh, xo, words)) {
			dst_release(dst);
			goto err;
		}
		/* as over IPv4 (no DF): a frame bigger than the path (a BCAST
		 * payload) is fragmented here rather than dropped, which
		 * IPv6 does to a packet without ignore_df (ip6_fragment)
		 */
		skb->ignore_df = 1;
		mf_udp_tunnel6_xmit_skb(dst, sk, skb, NULL, &fl6.saddr,
					&fl6.daddr, 0, ip6_dst_hoplimit(dst),
					0, sport, t->port, false);
	}
	atomic64_inc(&t->tx_frames);
	atomic64_add(len, &t->tx_bytes);
	return true;
err:
	atomic64_inc(&t->tx_errors);
	kfree_skb(skb);
	return false;
}

bool mf_tunnel_xmit(struct mf_fabric *f, const struct mf_cut *cut,
		    struct sk_buff *skb)
{
	struct mf_tunnel *t = rcu_dereference(f->tun);

	if (!t) {
		kfree_skb(skb);
		return false;
	}
	return mf_tunnel_send(t, f->part[cut->node], 0, cut->node, cut->port,
			      cut->hops, NULL, 0, skb);
}

void mf_tunnel_bcast(struct mf_fabric *f, u32 source, struct sk_buff *skb)
{
	struct mf_tunnel *t = rcu_dereference(f->tun);
	struct sk_buff *c;
	u32 part;

	if (!t)
		return;
	for (part = 0; part < t->nparts; part++) {
		if (part == f->mypart)
			continue;
		c = skb_clone(skb, GFP_ATOMIC | __GFP_NOWARN);
		if (!c) {
			atomic64_inc(&t->tx_errors);
			continue;
		}
		mf_tunnel_send(t, part, MESHFABRIC_GENEVE_F_BCAST, source,
			       0xff, U32_MAX, NULL, 0, c);
	}
}

bool mf_tunnel_sched(struct mf_fabric *f, const struct mf_sched_pos *pos,
		     const struct mf_xtime *xt, struct sk_buff *frame)
{
	bool timed = pos->flags & MF_POS_TIMED;
	struct mf_geneve_xopts xo = {
		.so = {
			.opt_class = htons(MESHFABRIC_GENEVE_CLASS),
			.opt_type = MESHFABRIC_GENEVE_TYPE_SCHED,
			.opt_len = MF_GENEVE_SCHED_WORDS - 1,
			.source = htonl(pos->source),
			.send = htonl(pos->send),
			.hop = htonl(pos->hop),
			.algo = pos->algo,
			.flags = pos->flags & MF_POS_ASYNC ?
				 MESHFABRIC_GENEVE_SF_ASYNC : 0,
		},
	};
	u32 words = MF_GENEVE_SCHED_WORDS;
	struct mf_tunnel *t;
	struct sk_buff *c;
	bool ok = false;

	if (timed) {
		xo.to = (struct mf_geneve_time){
			.opt_class = htons(MESHFABRIC_GENEVE_CLASS),
			.opt_type = MESHFABRIC_GENEVE_TYPE_TIME,
			.opt_len = MF_GENEVE_TIME_WORDS - 1,
			.sent = cpu_to_be64(xt->sent),
			.arrive = cpu_to_be64(xt->arrive),
		};
		words += MF_GENEVE_TIME_WORDS;
	}

	local_bh_disable();
	rcu_read_lock();
	t = rcu_dereference(f->tun);
	c = t ? skb_clone(frame, GFP_ATOMIC | __GFP_NOWARN) : NULL;
	if (c)
		ok = mf_tunnel_send(t, f->part[pos->node],
				    MESHFABRIC_GENEVE_F_SCHED, pos->node,
				    pos->port, pos->step, &xo, words, c);
	else if (t)
		atomic64_inc(&t->tx_errors);
	rcu_read_unlock();
	local_bh_enable();
	return ok;
}

bool mf_tunnel_path(struct mf_fabric *f, u32 node, u32 in_port,
		    const u8 *packed, u32 from, u32 hops,
		    struct sk_buff *frame)
{
	struct mf_geneve_path po = {
		.opt_class = htons(MESHFABRIC_GENEVE_CLASS),
		.opt_type = MESHFABRIC_GENEVE_TYPE_PATH,
		.opt_len = DIV_ROUND_UP(hops, 8),
	};
	struct mf_tunnel *t;
	struct sk_buff *c;
	bool ok = false;

	if (hops > MESHFABRIC_TUNNEL_PATH_HOPS)
		return false;
	mf_path_tail(packed, from, hops, po.ports);
	local_bh_disable();
	rcu_read_lock();
	t = rcu_dereference(f->tun);
	c = t ? skb_clone(frame, GFP_ATOMIC | __GFP_NOWARN) : NULL;
	if (c)
		ok = mf_tunnel_send(t, f->part[node], MESHFABRIC_GENEVE_F_PATH,
				    node, in_port, hops, &po, 1 + po.opt_len,
				    c);
	else if (t)
		atomic64_inc(&t->tx_errors);
	rcu_read_unlock();
	local_bh_enable();
	return ok;
}

/* The hosts a collective frame's path from node (ours) crosses between:
 * the part changes along its hops (ports, 4 bits each), or -1 if a port
 * is not a link of the node it is taken at.  RCU.
 */
static int mf_path_crossings(struct mf_fabric *f, const u8 *part, u32 node,
			     const u8 *ports, u32 hops)
{
	u32 np = f->topo.nports, h, port, next;
	int cross = 0;

	for (h = 0; h < hops; h++) {
		port = mf_path_port(ports, h);
		if (port >= np || !mf_topo_is_link(&f->topo, node, port))
			return -1;
		next = f->links.peer[(u64)node * np + port];
		if (next == MESHFABRIC_NO_PEER)
			return -1;
		cross += part[next] != part[node];
		node = next;
	}
	return cross;
}

/* A collective's frame that entered node (ours), or starts there, with
 * `hops` hops left, their ports at ports (4 bits each, high bits first):
 * each link counted here (the host of its sending end), as unicast is,
 * never over a link down or into a node gone; handed on where the path
 * reaches another part; delivered at its end if that node's MAC is the
 * frame's destination.  The path may cross between hosts at most nparts
 * times from here (coll.c refuses schedules that would), so that a
 * forged one cannot bounce between hosts hop after hop.  encap_rcv
 * (softirq); consumes skb; a drop counts in rx_errors.
 */
static void mf_tunnel_path_rx(struct mf_tunnel *t, u32 node, const u8 *ports,
			      u32 hops, struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	struct mf_fabric *f = t->f;
	const u8 *part = READ_ONCE(f->part);
	u32 np = f->topo.nports, h, next;
	int why = MF_DROP_NO_DEST, c;
	struct net_device *dev;
	u64 l;

	c = part ? mf_path_crossings(f, part, node, ports, hops) : -1;
	if (c < 0 || c > t->nparts)
		goto drop;
	for (h = 0; h < hops; h++) {
		l = (u64)node * np + mf_path_port(ports, h);
		next = f->links.peer[l];
		if (READ_ONCE(f->links.st[l].down)) {
			why = MF_DROP_LINK_DOWN;
			goto drop;
		}
		mf_link_count(f, l, 1, skb->len);
		if (part[next] != f->mypart) {
			mf_tunnel_path(f, next,
				       mf_topo_port(&f->topo, next, node),
				       ports, h + 1, hops - h - 1, skb);
			consume_skb(skb);
			return;
		}
		if (mf_node_gone(f, next)) {
			why = MF_DROP_NODE_GONE;
			goto drop;
		}
		node = next;
	}
	dev = rcu_dereference(f->node[node].dev);
	if (!dev || mf_mac_node(f, eth->h_dest) != node)
		goto drop;
	mf_deliver_rx(f, node, dev, skb);
	return;
drop:
	atomic64_inc(&t->rx_errors);
	trace_meshfabric_drop(f->id, node, skb->len, why);
	kfree_skb(skb);
}

int mf_tunnel_sched_fits(struct mf_fabric *f, unsigned int len, bool timed)
{
	unsigned int room = IP_MAX_MTU - MF_TUNNEL_HLEN -
			    sizeof(struct mf_geneve_sched) -
			    (timed ? sizeof(struct mf_geneve_time) : 0) -
			    sizeof(struct iphdr);
	struct mf_tunnel *t;

	rcu_read_lock();
	t = rcu_dereference(f->tun);
	if (t && t->ipv6)
		room += sizeof(struct iphdr);	/* IPv6's length excludes it */
	rcu_read_unlock();
	return len <= room ? 0 : -EMSGSIZE;
}

/* Did skb come from the address configured for part's peer? */
static bool mf_tunnel_from_peer(const struct mf_tunnel *t,
				const struct sk_buff *skb, u32 part)
{
	if (!t->ipv6)
		return ip_hdr(skb)->saddr == t->peer[part].v4;
	return ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &t->peer[part].v6);
}

/* A frame GRO merged (GSO) still has the outer UDP header as its
 * transport header: point it at the inner TCP or UDP header, which the
 * link model reads for the segments' size (forward.c's mf_frame_size).
 * GRO merges TCP and UDP over IPv4 and IPv6 only: false for anything
 * else, or headers not there.
 */
static bool mf_tunnel_inner_l4(struct sk_buff *skb)
{
	unsigned int off = ETH_HLEN, l4;
	__be16 proto;
	u8 next;

	if (!skb_is_gso(skb))
		return true;
	if (!pskb_may_pull(skb, ETH_HLEN))
		return false;
	proto = eth_hdr(skb)->h_proto;
	if (proto == htons(ETH_P_IP)) {
		if (!pskb_may_pull(skb, off + sizeof(struct iphdr)))
			return false;
		next = ip_hdr(skb)->protocol;
		off += ip_hdrlen(skb);
	} else if (proto == htons(ETH_P_IPV6)) {
		if (!pskb_may_pull(skb, off + sizeof(struct ipv6hdr)))
			return false;
		next = ipv6_hdr(skb)->nexthdr;
		off += sizeof(struct ipv6hdr);
	} else {
		return false;
	}
	if (next == IPPROTO_TCP)
		l4 = sizeof(struct tcphdr);
	else if (next == IPPROTO_UDP)
		l4 = sizeof(struct udphdr);
	else
		return false;
	if (!pskb_may_pull(skb, off + l4))
		return false;
	skb_set_transport_header(skb, off);
	return next != IPPROTO_TCP ||
	       pskb_may_pull(skb, off + tcp_hdrlen(skb));
}

/* encap_rcv: skb->data at the UDP header.  0: consumed. */
static int mf_tunnel_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct mf_tunnel *t = rcu_dereference_sk_user_data(sk);
	const struct mf_geneve_sched *so;
	const struct mf_geneve_time *to;
	struct mf_sched_pos pos = { 0 };
	unsigned int hlen = MF_TUNNEL_HLEN;
	const struct mf_geneve_path *po;
	struct mf_xtime xt = { 0 };
	u8 ports[MF_PATH_BYTES];
	u32 words;
	const struct mf_geneve *gh;
	const struct ethhdr *eth;
	struct mf_fabric *f;
	u32 part, node, port, step, np;
	u8 flags;
	u64 l;

	if (!t)
		goto drop;
	f = t->f;
	if (!pskb_may_pull(skb, MF_TUNNEL_HLEN))
		goto bad;
	gh = (const struct mf_geneve *)(udp_hdr(skb) + 1);
	/* a BCAST's send: its second option follows, and on timed links
	 * the third
	 */
	if (gh->flags == MESHFABRIC_GENEVE_F_SCHED &&
	    (gh->ver_len == MF_GENEVE_OPT_WORDS + MF_GENEVE_SCHED_WORDS ||
	     gh->ver_len == MF_GENEVE_OPT_WORDS + MF_GENEVE_SCHED_WORDS +
			    MF_GENEVE_TIME_WORDS)) {
		if (gh->ver_len != MF_GENEVE_OPT_WORDS + MF_GENEVE_SCHED_WORDS)
			pos.flags = MF_POS_TIMED;
		hlen += sizeof(*so) + (pos.flags ? sizeof(*to) : 0);
		if (!pskb_may_pull(skb, hlen))
			goto bad;
		gh = (const struct mf_geneve *)(udp_hdr(skb) + 1);
		so = (const struct mf_geneve_sched *)(gh + 1);
		if (so->opt_class != htons(MESHFABRIC_GENEVE_CLASS) ||
		    so->opt_type != MESHFABRIC_GENEVE_TYPE_SCHED ||
		    (so->opt_len & 0x1f) != MF_GENEVE_SCHED_WORDS - 1 ||
		    (so->flags & ~MESHFABRIC_GENEVE_SF_ASYNC) ||
		    (so->flags && !pos.flags) || so->rsvd[0] || so->rsvd[1])
			goto bad;
		pos.source = ntohl(so->source);
		pos.send = ntohl(so->send);
		pos.hop = ntohl(so->hop);
		pos.algo = so->algo;
		if (so->flags)
			pos.flags |= MF_POS_ASYNC;
		to = (const struct mf_geneve_time *)(so + 1);
		if (pos.flags) {
			xt.sent = be64_to_cpu(to->sent);
			xt.arrive = be64_to_cpu(to->arrive);
			/* a broadcast ends within the horizon (BCAST), a
			 * send leaves before it arrives, and only a timed
			 * fabric here takes times (its frames wait in the
			 * timed queue)
			 */
			if (to->opt_class != htons(MESHFABRIC_GENEVE_CLASS) ||
			    to->opt_type != MESHFABRIC_GENEVE_TYPE_TIME ||
			    (to->opt_len & 0x1f) != MF_GENEVE_TIME_WORDS - 1 ||
			    xt.arrive > MESHFABRIC_HORIZON_NS ||
			    xt.sent > xt.arrive ||
			    !READ_ONCE(f->links.timed))
				goto bad;
		}
	} else if (gh->flags == MESHFABRIC_GENEVE_F_PATH) {
		/* a collective's frame: its path's option follows */
		words = DIV_ROUND_UP(ntohl(gh->step), 8);
		if (ntohl(gh->step) > MESHFABRIC_TUNNEL_PATH_HOPS ||
		    gh->ver_len != MF_GENEVE_OPT_WORDS + 1 + words)
			goto bad;
		hlen += 4 * (1 + words);
		if (!pskb_may_pull(skb, hlen))
			goto bad;
		gh = (const struct mf_geneve *)(udp_hdr(skb) + 1);
		po = (const struct mf_geneve_path *)(gh + 1);
		if (po->opt_class != htons(MESHFABRIC_GENEVE_CLASS) ||
		    po->opt_type != MESHFABRIC_GENEVE_TYPE_PATH ||
		    (po->opt_len & 0x1f) != words)
			goto bad;
		/* kept: the header goes with iptunnel_pull_header(); the
		 * bits past the last port are 0
		 */
		memcpy(ports, po->ports, 4 * words);
		if (memchr_inv(ports + DIV_ROUND_UP(ntohl(gh->step), 2), 0,
			       4 * words - DIV_ROUND_UP(ntohl(gh->step), 2)) ||
		    (ntohl(gh->step) & 1 &&
		     ports[ntohl(gh->step) / 2] & 0xf))
			goto bad;
	} else if (gh->ver_len != MF_GENEVE_OPT_WORDS) {
		goto bad;
	}
	if (gh->oc != MF_GENEVE_CRITICAL ||
	    gh->proto != htons(ETH_P_TEB) || gh->vni[0] || gh->vni[1] ||
	    gh->vni[2] || gh->opt_class != htons(MESHFABRIC_GENEVE_CLASS) ||
	    gh->opt_type != MESHFABRIC_GENEVE_TYPE ||
	    (gh->opt_len & 0x1f) != MF_GENEVE_OPT_WORDS - 1 ||
	    gh->fabric != (u8)f->id)
		goto bad;
	part = gh->part;
	flags = gh->flags;
	port = gh->port;
	node = ntohl(gh->node);
	step = ntohl(gh->step);
	/* from the part's peer only: a host that merely reaches the port
	 * injects no frame and keeps no silent part alive
	 */
	if (part >= t->nparts || part == f->mypart ||
	    !mf_tunnel_from_peer(t, skb, part))
		goto bad;
	WRITE_ONCE(t->heard[part], jiffies ?: 1);
	if (flags == MESHFABRIC_GENEVE_F_KEEPALIVE) {
		consume_skb(skb);
		return 0;
	}
	if (node >= f->topo.nodes ||
	    iptunnel_pull_header(skb, hlen, htons(ETH_P_TEB), true))
		goto bad;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	if (!mf_tunnel_inner_l4(skb))
		goto bad;
	eth = eth_hdr(skb);
	atomic64_inc(&t->rx_frames);
	atomic64_add(skb->len, &t->rx_bytes);
	if (flags == MESHFABRIC_GENEVE_F_BCAST) {
		/* a broadcast of a node of the sender's part */
		if (f->part[node] != part ||
		    !is_multicast_ether_addr(eth->h_dest))
			goto bad;
		mf_bcast_queue(f, node, skb);
		return 0;
	}
	np = f->topo.nports;
	l = (u64)node * np + port;
	if (flags == MESHFABRIC_GENEVE_F_PATH) {
		/* a collective's frame from node (ours) on, a frame of that
		 * node's own (its source MAC), or into it by port from the
		 * sender's part
		 */
		if (mf_node_remote(f, node) ||
		    is_multicast_ether_addr(eth->h_dest) ||
		    (port == 0xff && mf_mac_node(f, eth->h_source) != node) ||
		    (port != 0xff &&
		     (port >= np || !mf_topo_is_link(&f->topo, node, port) ||
		      f->links.peer[l] == MESHFABRIC_NO_PEER ||
		      f->part[f->links.peer[l]] != part)))
			goto bad;
		mf_tunnel_path_rx(t, node, ports, step, skb);
		return 0;
	}
	/* unicast or a BCAST's send into node (ours) by port, from the
	 * sender's part
	 */
	if ((flags && flags != MESHFABRIC_GENEVE_F_SCHED) ||
	    mf_node_remote(f, node) || port >= np ||
	    !mf_topo_is_link(&f->topo, node, port) ||
	    f->links.peer[l] == MESHFABRIC_NO_PEER ||
	    f->part[f->links.peer[l]] != part ||
	    is_multicast_ether_addr(eth->h_dest) != !!flags)
		goto bad;
	if (flags) {
		/* the rest (the schedule's path) is checked by the work */
		if (hlen == MF_TUNNEL_HLEN || pos.source >= f->topo.nodes ||
		    !is_broadcast_ether_addr(eth->h_dest))
			goto bad;
		pos.step = step;
		pos.node = node;
		pos.port = port;
		if (!mf_bcast_queue_sched(f, &pos, pos.flags ? &xt : NULL,
					  part, skb))		/* freed */
			atomic64_inc(&t->rx_errors);
		return 0;
	}
	mf_forward_rx(f, node, step, skb);
	return 0;
bad:
	if (t)
		atomic64_inc(&t->rx_errors);
drop:
	kfree_skb(skb);
	return 0;
}

/* GRO, as geneve.c's: the datagrams of one flow (the whole 24-byte
 * header equal: fabric, part, node, port and hop count; the UDP and IP
 * layers have compared the rest) are merged before encap_rcv, with their
 * inner Ethernet frames merged by eth_gro_receive, so that a TCP stream
 * that crosses hosts enters the far part as 64 KiB frames rather than one
 * per underlay MTU.  Keepalives and node broadcasts (flags) are not
 * merged.  Called by the UDP layer in softirq, under RCU.
 */
static struct sk_buff *mf_tunnel_gro_receive(struct sock *sk,
					     struct list_head *head,
					     struct sk_buff *skb)
{
	unsigned int off = skb_gro_offset(skb);
	const struct mf_geneve *gh, *gh2;
	struct sk_buff *pp = NULL, *p;
	int flush = 1;

	gh = skb_gro_header(skb, off + sizeof(*gh), off);
	if (unlikely(!gh))
		goto out;
	if (gh->ver_len != MF_GENEVE_OPT_WORDS ||
	    gh->oc != MF_GENEVE_CRITICAL || gh->proto != htons(ETH_P_TEB) ||
	    gh->flags)
		goto out;
	list_for_each_entry(p, head, list) {
		if (!NAPI_GRO_CB(p)->same_flow)
			continue;
		gh2 = (const struct mf_geneve *)(p->data + off);
		if (memcmp(gh, gh2, sizeof(*gh)))
			NAPI_GRO_CB(p)->same_flow = 0;
	}
	skb_gro_pull(skb, sizeof(*gh));
	skb_gro_postpull_rcsum(skb, gh, sizeof(*gh));
	pp = call_gro_receive(eth_gro_receive, head, skb);
	flush = 0;
out:
	skb_gro_flush_final(skb, pp, flush);
	return pp;
}

static int mf_tunnel_gro_complete(struct sock *sk, struct sk_buff *skb,
				  int nhoff)
{
	/* skb->encapsulation is set: eth_gro_complete() sets the inner MAC
	 * header, and encap_rcv's iptunnel_pull_header() clears the tunnel's
	 * GSO bits, leaving the inner frame's
	 */
	return eth_gro_complete(skb, nhoff + sizeof(struct mf_geneve));
}

/* Parts heard from within 3 keepalive intervals (3 s without keepalive). */
static u64 mf_tunnel_alive(const struct mf_tunnel *t)
{
	unsigned long win = msecs_to_jiffies(3 * (t->keepalive_ms ?: 1000));
	unsigned long h;
	u64 alive = 0;
	u32 part;

	for (part = 0; part < t->nparts; part++) {
		h = READ_ONCE(t->heard[part]);
		if (h && time_before(jiffies, h + win))
			alive |= BIT_ULL(part);
	}
	return alive;
}

/* Every cut link between this host and part down (or up) on this host. */
static void mf_tunnel_part_state(struct mf_tunnel *t, u32 part, bool down)
{
	struct mf_fabric *f = t->f;
	const struct mf_topo *topo = &f->topo;
	struct meshfabric_link_set ls = {
		.id = f->id,
		.flags = MESHFABRIC_LINK_STATE,
		.down = down,
	};
	u32 node, port, peer;

	for (node = 0; node < topo->nodes; node++) {
		if (f->part[node] != f->mypart)
			continue;
		for (port = 0; port < topo->nports; port++) {
			if (!mf_topo_is_link(topo, node, port))
				continue;
			peer = f->links.peer[(u64)node * topo->nports + port];
			if (f->part[peer] != part)
				continue;
			ls.node = node;
			ls.port = port;
			if (mf_link_set(f, &ls) < 0)
				pr_warn_ratelimited("fabric %u: cut link %u:%u stays %s\n",
						    f->id, node, port,
						    down ? "up" : "down");
		}
		cond_resched();
	}
	pr_info("fabric %u: part %u %s, its cut links %s\n", f->id, part,
		down ? "silent" : "heard again", down ? "down" : "up");
}

/* Keepalives to every peer; cut links of parts that went silent (heard
 * once, then not for 3 intervals) down, of parts heard again up.
 */
static void mf_tunnel_ka(struct work_struct *work)
{
	struct mf_tunnel *t = container_of(to_delayed_work(work),
					   struct mf_tunnel, ka);
	struct mf_fabric *f = t->f;
	struct sk_buff *skb;
	u64 alive;
	u32 part;

	for (part = 0; part < t->nparts; part++) {
		struct ethhdr *eth;

		if (part == f->mypart)
			continue;
		skb = alloc_skb(MAX_HEADER + MF_TUNNEL_HLEN +
				sizeof(struct ipv6hdr) + ETH_HLEN, GFP_KERNEL);
		if (!skb) {
			atomic64_inc(&t->tx_errors);
			continue;
		}
		skb_reserve(skb, MAX_HEADER + MF_TUNNEL_HLEN +
			    sizeof(struct ipv6hdr));
		/* an inner header alone (the uapi header's keepalive), so
		 * that dissectors see a whole Ethernet frame
		 */
		eth = skb_put(skb, ETH_HLEN);
		eth_broadcast_addr(eth->h_dest);
		mf_node_mac(f, 0, eth->h_source);
		eth->h_source[3] = 0xff;
		eth->h_source[4] = 0xff;
		eth->h_source[5] = f->mypart;
		eth->h_proto = htons(ETH_P_802_EX1);
		local_bh_disable();
		rcu_read_lock();
		mf_tunnel_send(t, part, MESHFABRIC_GENEVE_F_KEEPALIVE, 0, 0xff,
			       U32_MAX, NULL, 0, skb);
		rcu_read_unlock();
		local_bh_enable();
	}
	alive = mf_tunnel_alive(t);
	for (part = 0; part < t->nparts; part++) {
		bool heard = READ_ONCE(t->heard[part]);

		if (part == f->mypart || !heard)
			continue;
		if (!(alive & BIT_ULL(part)) && !(t->down & BIT_ULL(part))) {
			t->down |= BIT_ULL(part);
			mf_tunnel_part_state(t, part, true);
		} else if ((alive & BIT_ULL(part)) &&
			   (t->down & BIT_ULL(part))) {
			t->down &= ~BIT_ULL(part);
			mf_tunnel_part_state(t, part, false);
		}
	}
	queue_delayed_work(system_wq, &t->ka,
			   msecs_to_jiffies(t->keepalive_ms));
}

/* The smallest path MTU to the peers, or a negative errno. */
static int mf_tunnel_path_mtu(struct mf_tunnel *t, u32 mypart)
{
	int mtu = INT_MAX;
	u32 part;

	for (part = 0; part < t->nparts; part++) {
		if (part == mypart)
			continue;
		if (!t->ipv6) {
			struct flowi4 fl4 = {
				.daddr = t->peer[part].v4,
				.flowi4_proto = IPPROTO_UDP,
				.fl4_dport = t->port,
			};
			struct rtable *rt = ip_route_output_key(t->net, &fl4);

			if (IS_ERR(rt))
				return PTR_ERR(rt);
			mtu = min_t(int, mtu, dst_mtu(&rt->dst));
			ip_rt_put(rt);
		} else {
			struct flowi6 fl6 = {
				.daddr = t->peer[part].v6,
				.flowi6_proto = IPPROTO_UDP,
				.fl6_dport = t->port,
			};
			struct dst_entry *dst;

			dst = ip6_dst_lookup_flow(t->net, t->sock->sk, &fl6,
						  NULL);
			if (IS_ERR(dst))
				return PTR_ERR(dst);
			mtu = min_t(int, mtu, dst_mtu(dst));
			dst_release(dst);
		}
	}
	return mtu;
}

/* Copy and check the map (every entry a part, every part a node) and the
 * peers (unicast addresses of the family).
 */
static int mf_tunnel_tables(struct mf_tunnel *t, const struct meshfabric_tunnel *tu,
			    u8 *map)
{
	u8 addr[16];
	u64 seen = 0;
	u32 i;

	if (copy_from_user(map, u64_to_user_ptr(tu->map_ptr), tu->nodes))
		return -EFAULT;
	for (i = 0; i < tu->nodes; i++) {
		if (map[i] >= tu->nparts)
			return -EINVAL;
		seen |= BIT_ULL(map[i]);
	}
	if (seen != GENMASK_ULL(tu->nparts - 1, 0))
		return -EINVAL;
	for (i = 0; i < tu->nparts; i++) {
		if (i == tu->part)
			continue;
		if (copy_from_user(addr, u64_to_user_ptr(tu->peers_ptr) +
				   i * sizeof(addr), sizeof(addr)))
			return -EFAULT;
		if (!t->ipv6) {
			if (memchr_inv(addr + 4, 0, 12))
				return -EINVAL;
			memcpy(&t->peer[i].v4, addr, 4);
			if (ipv4_is_zeronet(t->peer[i].v4) ||
			    ipv4_is_multicast(t->peer[i].v4) ||
			    ipv4_is_lbcast(t->peer[i].v4))
				return -EINVAL;
		} else {
			memcpy(&t->peer[i].v6, addr, 16);
			if (ipv6_addr_any(&t->peer[i].v6) ||
			    ipv6_addr_is_multicast(&t->peer[i].v6))
				return -EINVAL;
		}
	}
	return 0;
}

int mf_tunnel_set(struct mf_fabric *f, struct meshfabric_tunnel *tu)
{
	struct udp_tunnel_sock_cfg tcfg = {};
	struct udp_port_cfg ucfg = {};
	struct mf_tunnel *t;
	u8 *map = NULL;
	int err, mtu;
	u32 i;

	if (tu->nodes != f->topo.nodes)
		return -EINVAL;
	t = mf_counted_zalloc(sizeof(*t));
	map = mf_counted_zalloc(tu->nodes);
	if (!t || !map) {
		err = -ENOMEM;
		goto free;
	}
	t->f = f;
	t->ipv6 = tu->flags & MESHFABRIC_TUNNEL_IPV6;
	t->nparts = tu->nparts;
	t->keepalive_ms = tu->keepalive_ms;
	t->port = htons(tu->port ?: MESHFABRIC_TUNNEL_PORT);
	err = mf_tunnel_tables(t, tu, map);
	if (err)
		goto free;
	if (mutex_lock_killable(&f->lock)) {
		err = -EINTR;
		goto free;
	}
	err = -ENOENT;
	if (f->dead)
		goto unlock;
	err = -EBUSY;
	if (f->part || rcu_access_pointer(f->tun))
		goto unlock;
	for (i = 0; i < f->topo.nodes; i++)
		if (READ_ONCE(f->node[i].state) != MF_NODE_ABSENT)
			goto unlock;
	if (t->ipv6) {
		ucfg.family = AF_INET6;
		ucfg.local_ip6 = in6addr_any;
		ucfg.ipv6_v6only = 1;
		ucfg.use_udp6_rx_checksums = 1;
		ucfg.use_udp6_tx_checksums = 1;
	} else {
		ucfg.family = AF_INET;
		ucfg.local_ip.s_addr = htonl(INADDR_ANY);
	}
	ucfg.local_udp_port = t->port;
	t->net = get_net(current->nsproxy->net_ns);
	err = udp_sock_create(t->net, &ucfg, &t->sock);
	if (err)
		goto put_net;
	mtu = mf_tunnel_path_mtu(t, tu->part);
	if (mtu < 0) {
		err = mtu;
		goto release;
	}
	mtu -= t->ipv6 ? MESHFABRIC_TUNNEL_OVERHEAD6 :
			 MESHFABRIC_TUNNEL_OVERHEAD4;
	if (mtu < MESHFABRIC_TUNNEL_MIN_MTU) {
		err = -EMSGSIZE;
		goto release;
	}
	t->mtu = mtu;
	INIT_DELAYED_WORK(&t->ka, mf_tunnel_ka);
	f->mypart = tu->part;
	f->nparts = tu->nparts;
	/* mypart before part: a reader that sees the map sees its part */
	smp_store_release(&f->part, map);
	rcu_assign_pointer(f->tun, t);
	tcfg.sk_user_data = t;
	tcfg.encap_type = 1;
	tcfg.encap_rcv = mf_tunnel_rcv;
	tcfg.gro_receive = mf_tunnel_gro_receive;
	tcfg.gro_complete = mf_tunnel_gro_complete;
	mf_setup_udp_tunnel_sock(t->net, t->sock, &tcfg);
	if (t->keepalive_ms)
		queue_delayed_work(system_wq, &t->ka, 0);
	mutex_unlock(&f->lock);
	tu->mtu = mtu;
	return 0;
release:
	mf_udp_tunnel_sock_release(t->sock);
put_net:
	put_net(t->net);
unlock:
	mutex_unlock(&f->lock);
free:
	mf_counted_free(map);
	mf_counted_free(t);
	return err;
}

int mf_tunnel_get(struct mf_fabric *f, struct meshfabric_tunnel *tu)
{
	u64 map_ptr = tu->map_ptr, peers_ptr = tu->peers_ptr;
	struct meshfabric_tunnel_peer *peers;
	struct mf_tunnel *t;
	int err = 0;
	u32 i;

	/* the peers are copied out after the lock: a caller who can only
	 * see the fabric must not hold f->lock across a user page fault
	 */
	peers = kcalloc(MESHFABRIC_TUNNEL_MAX_PARTS, sizeof(*peers),
			GFP_KERNEL_ACCOUNT);
	if (!peers)
		return -ENOMEM;
	if (mutex_lock_killable(&f->lock)) {
		err = -EINTR;
		goto out;
	}
	t = rcu_dereference_protected(f->tun, lockdep_is_held(&f->lock));
	if (!t) {
		mutex_unlock(&f->lock);
		err = -ENODATA;
		goto out;
	}
	memset(tu, 0, sizeof(*tu));
	tu->id = f->id;
	tu->flags = t->ipv6 ? MESHFABRIC_TUNNEL_IPV6 : 0;
	tu->part = f->mypart;
	tu->nparts = t->nparts;
	tu->nodes = f->topo.nodes;
	tu->port = ntohs(t->port);
	tu->map_ptr = map_ptr;
	tu->peers_ptr = peers_ptr;
	tu->keepalive_ms = t->keepalive_ms;
	tu->mtu = t->mtu;
	tu->tx_frames = atomic64_read(&t->tx_frames);
	tu->tx_bytes = atomic64_read(&t->tx_bytes);
	tu->rx_frames = atomic64_read(&t->rx_frames);
	tu->rx_bytes = atomic64_read(&t->rx_bytes);
	tu->rx_errors = atomic64_read(&t->rx_errors);
	tu->tx_errors = atomic64_read(&t->tx_errors);
	tu->alive = mf_tunnel_alive(t);
	for (i = 0; i < t->nparts; i++)
		memcpy(peers[i].addr, &t->peer[i], t->ipv6 ? 16 : 4);
	mutex_unlock(&f->lock);
	if (peers_ptr &&
	    copy_to_user(u64_to_user_ptr(peers_ptr), peers,
			 array_size(tu->nparts, sizeof(*peers))))
		err = -EFAULT;
	/* the map is immutable once set and lives with f */
	if (!err && map_ptr && copy_to_user(u64_to_user_ptr(map_ptr), f->part,
					    f->topo.nodes))
		err = -EFAULT;
out:
	kfree(peers);
	return err;
}

u32 mf_tunnel_mtu(struct mf_fabric *f)
{
	struct mf_tunnel *t;
	u32 mtu;

	rcu_read_lock();
	t = rcu_dereference(f->tun);
	mtu = t ? t->mtu : 0;
	rcu_read_unlock();
	return mtu;
}

void mf_tunnel_stop(struct mf_fabric *f)
{
	struct mf_tunnel *t;

	mutex_lock(&f->lock);
	t = rcu_replace_pointer(f->tun, NULL, lockdep_is_held(&f->lock));
	mutex_unlock(&f->lock);
	if (!t)
		return;
	cancel_delayed_work_sync(&t->ka);
	/* no encap_rcv finds t after the grace period, nor does a sender
	 * that read f->tun before it was cleared still use it (every
	 * kernel: 7.2's udp_tunnel_sock_release no longer waits itself)
	 */
	rcu_assign_sk_user_data(t->sock->sk, NULL);
	synchronize_rcu();
	mf_udp_tunnel_sock_release(t->sock);
	put_net(t->net);
	mf_counted_free(t);
}

#else	/* !CONFIG_NET_UDP_TUNNEL */

int mf_tunnel_set(struct mf_fabric *f, struct meshfabric_tunnel *tu)
{
	return -EOPNOTSUPP;
}

int mf_tunnel_get(struct mf_fabric *f, struct meshfabric_tunnel *tu)
{
	return -ENODATA;
}

u32 mf_tunnel_mtu(struct mf_fabric *f)
{
	return 0;
}

/* never called: no fabric has a part without a tunnel */
bool mf_tunnel_xmit(struct mf_fabric *f, const struct mf_cut *cut,
		    struct sk_buff *skb)
{
	kfree_skb(skb);
	return false;
}

void mf_tunnel_bcast(struct mf_fabric *f, u32 source, struct sk_buff *skb)
{
}

bool mf_tunnel_sched(struct mf_fabric *f, const struct mf_sched_pos *pos,
		     const struct mf_xtime *xt, struct sk_buff *frame)
{
	return false;
}

int mf_tunnel_sched_fits(struct mf_fabric *f, unsigned int len, bool timed)
{
	return 0;
}

bool mf_tunnel_path(struct mf_fabric *f, u32 node, u32 in_port,
		    const u8 *packed, u32 from, u32 hops,
		    struct sk_buff *frame)
{
	return false;
}

void mf_tunnel_stop(struct mf_fabric *f)
{
}

#endif	/* CONFIG_NET_UDP_TUNNEL */
