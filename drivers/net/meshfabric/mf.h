/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mf.h - internals of meshfabric.ko shared by its files and by the KUnit
 * suites: the fabric object, its nodes, routing table, link counters and
 * broadcast schedule cache; the functions each file provides.
 *
 * Lock order: mf_fabrics_lock -> fabric->lock -> RTNL; fabric->bcast_lock
 * is taken alone (never with RTNL or fabric->lock held).  The forwarding
 * path (ndo_start_xmit) takes no lock: it reads node devices under RCU.
 */
#ifndef MF_H
#define MF_H

#include <linux/types.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <linux/atomic.h>
#include <linux/meshfabric.h>

#include "topo.h"
#include "route.h"
#include "sched.h"
#include "check.h"
#include "linkacct.h"
#include "algo.h"

/* Node states (MESHFABRIC_NODE_* in INFO are derived from these). */
enum mf_node_state {
	MF_NODE_ABSENT,		/* never attached (or fabric being destroyed) */
	MF_NODE_PRESENT,	/* netdev registered */
	MF_NODE_GONE,		/* netdev deleted (namespace died, ip link del) */
};

struct mf_node {
	/* Written under RTNL only; read under RCU (data path) or RTNL. */
	struct net_device __rcu *dev;
	/* Written under RTNL only; read with READ_ONCE() anywhere. */
	u8 state;
};

/* Per directed link counters; atomics, no lock. */
struct mf_linkctr {
	atomic64_t packets;
	atomic64_t bytes;
};

/* Routing table.  Tori and hexagonal meshes route homogeneously (004
 * section 2.1): one table of N next ports indexed by the offset
 * mf_topo_sub(dst, cur) serves every node.  Meshes (next == NULL) use
 * the core's dimension-order routing per hop.  Callers only use
 * mf_rt_next(); per-node overrides (a failed link breaks homogeneity)
 * would be consulted there first without touching them.
 * Immutable after creation: no lock.
 */
struct mf_rtable {
	const struct mf_topo *topo;
	u32 routing;		/* resolved MESHFABRIC_ROUTE_* */
	u8 *next;		/* homogeneous table, or NULL */
	size_t bytes;		/* memory of next[] */
};

#define MF_SCHED_CACHE	8	/* (algo, source) schedules kept per fabric */

struct mf_cached_sched {
	bool valid;
	u32 algo;		/* requested MESHFABRIC_ALGO_* */
	u32 used;		/* algorithm that ran (AUTO resolved) */
	u32 source;
	u64 stamp;		/* LRU clock */
	struct mf_sched sched;
	struct mf_stats stats;	/* mf_check()'s, computed once at build */
};

struct mf_fabric {
	struct kref ref;	/* list reference + one per user (ioctl, work) */
	u32 id;			/* immutable */
	char name[MESHFABRIC_NAME_LEN];	/* immutable */
	/* Immutable, referenced: the user namespace owning the creator's
	 * netns.  Changing the fabric (DESTROY, ATTACH, BCAST, a counter
	 * reset) needs CAP_NET_ADMIN there, not only in the caller's own.
	 */
	struct user_namespace *owner;
	struct mf_topo topo;	/* immutable */
	u32 routing;		/* resolved, immutable */
	struct mf_rtable rt;	/* immutable */
	u64 nlinks;		/* nodes * nports, immutable */
	struct mf_node *node;	/* nodes entries; rules in struct mf_node */
	struct mf_linkctr *link;	/* nlinks entries; atomics */

	/* Serialises ATTACH and teardown of this fabric; protects dead. */
	struct mutex lock;
	bool dead;		/* torn down: no more ATTACH */

	/* Serialises broadcasts; protects cache[], clock, acct. */
	struct mutex bcast_lock;
	struct mf_cached_sched cache[MF_SCHED_CACHE];
	u64 clock;
	struct mf_linkacct acct;	/* allocated on first broadcast */

	/* Broadcast frames sent by nodes, drained by bcast_work. */
	struct sk_buff_head bcast_q;	/* its own spinlock */
	struct work_struct bcast_work;
};

/* netdev_priv() of a node's netdev; immutable after registration. */
struct mf_ndev {
	struct mf_fabric *fabric;
	u32 node;
};

/* Queue bound: frames beyond it are dropped (tx_dropped). */
#define MF_BCAST_QLEN	4096

/* main.c: counted allocations (module parameter "allocated"). */
extern atomic_long_t mf_allocated;
void *mf_kzalloc(size_t size);
void mf_kfree(void *p);
static inline void mf_count_get(void)
{
	atomic_long_inc(&mf_allocated);
}

static inline void mf_count_put(void)
{
	atomic_long_dec(&mf_allocated);
}

/* ioctl.c: validators (non-static for KUnit) and the ioctl entry. */
int mf_validate_create(const struct meshfabric_create *c);
int mf_validate_bcast(const struct meshfabric_bcast *b);
long mf_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* fabric.c */
int mf_fabric_create(const struct meshfabric_create *c,
		     struct mf_fabric **out);
struct mf_fabric *mf_fabric_get(u32 id);
void mf_fabric_put(struct mf_fabric *f);
int mf_fabric_destroy(u32 id);
int mf_fabric_remove(u32 id, const struct mf_fabric *expect, bool check);
bool mf_fabric_owner_capable(const struct mf_fabric *f);
void mf_fabric_destroy_all(void);
int mf_fabric_attach(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname);
bool mf_node_gone(const struct mf_fabric *f, u32 node);

/* rtable.c */
int mf_rt_init(struct mf_rtable *rt, const struct mf_topo *t, u32 routing);
void mf_rt_free(struct mf_rtable *rt);
int mf_rt_next(const struct mf_rtable *rt, u32 cur, u32 dst);
/* Walk cur -> dst along the table; path (max entries) may be NULL. */
int mf_rt_path(const struct mf_rtable *rt, u32 src, u32 dst, u32 *path,
	       u32 max);

/* netdev.c */
int mf_netdev_register_ops(void);
void mf_netdev_unregister_ops(void);
int mf_netdev_create(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname);
void mf_node_mac(const struct mf_fabric *f, u32 node, u8 *mac);
/* Node id of a MAC of fabric f, or -1. */
s64 mf_mac_node(const struct mf_fabric *f, const u8 *mac);

/* forward.c */
netdev_tx_t mf_xmit(struct sk_buff *skb, struct net_device *dev);
void mf_link_count(struct mf_fabric *f, u64 link, unsigned int bytes);

/* bcast.c */
struct mf_bcast_result {
	u32 algo;
	struct mf_stats stats;
	u32 delivered;
	u64 elapsed_ns;
};

/* Broadcast frame (an Ethernet frame; its skb->dev is overwritten) from
 * source along the schedule of algo; does not consume frame.  fallback:
 * if no algorithm covers the topology, use one send per step from the
 * source (frames sent by nodes must always get through).
 */
int mf_bcast_run(struct mf_fabric *f, u32 source, u32 algo,
		 struct sk_buff *frame, bool fallback,
		 struct mf_bcast_result *res);
/* Queue a frame sent by node source; false (skb freed) if the queue is full. */
bool mf_bcast_queue(struct mf_fabric *f, u32 source, struct sk_buff *skb);
void mf_bcast_work(struct work_struct *work);
void mf_bcast_free(struct mf_fabric *f);

#endif /* MF_H */
