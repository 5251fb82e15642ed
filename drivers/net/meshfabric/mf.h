/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mf.h - internals of meshfabric.ko shared by its files and by the KUnit
 * suites: the fabric object, its nodes, links, routing table and
 * broadcast state; the functions each file provides, in layers:
 *
 *   main.c (init/exit) -> ioctl.c (the ABI, the misc device)
 *     -> fabric.c (lifetime, registry, permissions) -> rtable.c (routing
 *        tables)
 *   netdev.c (node netdevs) -> forward.c (unicast) -> bcast.c (broadcast)
 *   port.c (external ports: netdevs bound to a node's border port) ->
 *     forward.c
 *   all of them -> acct.c (the counted allocator, owners and limits),
 *   which calls none of them
 *
 * Lock order: mf_fabrics_lock -> fabric->lock -> RTNL; acct.c's lock is
 * innermost (taken under any of them, takes none); fabric->bcast_lock
 * comes before fabric->lock (BCAST's repair around faults reads the
 * fault state under both) and is never taken with fabric->lock or RTNL
 * held; a LINK_SET's fault-routing build slot (link.c) comes before
 * fabric->lock; fabric->stats_lock is taken alone, or under
 * fabric->lock (an extra port's link restarted at attach), never with
 * RTNL.  The forwarding path
 * (ndo_start_xmit) takes no lock: it reads node devices under RCU,
 * immutable tables, and this CPU's counters.
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
#include <linux/list.h>
#include <linux/smp.h>
#include <linux/hrtimer.h>
#include <linux/rbtree.h>
#include <linux/math64.h>
#include <linux/random.h>
#include <linux/meshfabric.h>
#include "compat.h"

#include "topo.h"
#include "route.h"
#include "sched.h"
#include "check.h"
#include "linkacct.h"
#include "algo.h"
#include "timing.h"
#include "faults.h"
#include "schedcode.h"

/* The version of the module and its DKMS package (the Makefile reads it
 * from here: one source).
 */
#define MF_VERSION	"0.2.0"

/* Why a frame was dropped (the meshfabric_drop tracepoint's reason). */
enum mf_drop_reason {
	MF_DROP_NODE_GONE,	/* the destination, or a node on the way */
	MF_DROP_NO_DEST,	/* no node of the fabric has that MAC */
	MF_DROP_MTU,		/* the receiver's MTU is below the frame */
	MF_DROP_QUEUE_FULL,	/* a queue: broadcast (in all or the sender's
				 * share), a link's, or the timed frames'
				 */
	MF_DROP_LOSS,		/* a lossy link's draw */
	MF_DROP_LINK_DOWN,	/* links down cut the destination off */
	MF_DROP_TUNNEL,		/* a cut link's tunnel could not send it */
};

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

/* Counters of one directed link on one CPU. */
struct mf_linkctr {
	u64 packets;
	u64 bytes;
	u64 drop_loss;		/* frames the loss draw picked */
	u64 drop_queue;		/* frames refused by a full queue */
	u64 busy_ns;		/* time spent serialising frames */
};

/* A directed link's timing (link.c; the model is the core's timing.h).
 *  - busy: when the link is next free (CLOCK_MONOTONIC ns): the end of
 *    the last slot reserved on it (links with a rate only: rate 0 is
 *    unlimited).  Updated lock-free by compare and exchange (any CPU,
 *    any context); read with atomic64_read.
 *  - rate, delay_ns, queue: written under fabric->lock (LINK_SET)
 *    with WRITE_ONCE, read with READ_ONCE anywhere.  A frame may see one
 *    link's fields from two LINK_SETs at once; each value is valid.
 * The loss is not here but in struct mf_links' loss[] (same rules).
 */
struct mf_linkstate {
	atomic64_t busy;
	u64 rate;		/* bits/s; 0: unlimited */
	u64 delay_ns;
	u32 queue;		/* frames */
	u8 down;		/* as rate; both directions of a link agree */
};

/* Links down (link.c): the fault set and the core's routing around it
 * (faults.h), built under fabric->lock and published whole with RCU.
 */
struct mf_fstate {
	struct mf_faults faults;
	struct mf_froute route;	/* route.f points at faults */
	/* the fault set's generation (fabric->fgen when it was built; the
	 * previous set's when a LINK_SET changed no link): BCAST's cache of
	 * schedules repaired around it is keyed by it (bcast.c)
	 */
	u64 gen;
	struct rcu_head rcu;
	/* the last LINK_SET refused (-E2BIG) from this set: a repeat is
	 * refused before any work (link.c, under fabric->lock)
	 */
	bool refused;
	bool refused_down;
	u32 refused_node;
	u32 refused_port;
};

/* The directed links: link number l = node * nports + port.  This is the
 * one link object of the fabric; timed links and faults extend it here.
 * Links n .. n + MESHFABRIC_PORTS_MAX - 1 (mf_links_all) are the extra
 * ports' (port.c): link n + slot is the link of the extra port bound in
 * f->ports[slot], if any.  They have counters and state (row, base, st)
 * but no peer[] entry, and nothing of the topology (routing, faults,
 * BCAST, collectives, tunnel cuts) sees them: its loops stop at n.
 *  - peer[l]: the node at the other end, or MESHFABRIC_NO_PEER.
 *    Immutable after creation: read without a lock.
 *  - row[cpu][l]: the link's counters on that CPU.  Written only by that
 *    CPU with BH disabled (ndo_start_xmit runs so; the broadcast paths
 *    disable BH around counting), so plain u64 increments suffice and no
 *    cache line is shared between CPUs.  Read by summing the rows
 *    (READ_ONCE: a 64-bit load, the module depends on 64BIT).  One row
 *    per possible CPU (alloc_percpu is limited to 32 KiB per unit, far
 *    below nlinks * 16 bytes), allocated at creation and charged to the
 *    creator.
 *  - base[l]: what LINK_STATS subtracts (a reset stores the current sums
 *    here instead of writing other CPUs' rows).  Written under
 *    stats_lock (WRITE_ONCE), read without it (READ_ONCE).
 *  - loss[l]: the link's loss, parts per 10^9 (0: none).  Written under
 *    fabric->lock (LINK_SET) with WRITE_ONCE, read with READ_ONCE
 *    anywhere.  Apart from st[] so that a lossy frame's walk reads 4
 *    bytes a hop, not a struct mf_linkstate: on a long path nearly
 *    every hop's struct is a cache line of its own, the likely cause of
 *    a lossy hop costing twice an untimed one on CI's host (selftest
 *    44, docs/performance.md).
 */
struct mf_links {
	u64 n;			/* nodes * nports: the topology's links */
	u32 *peer;		/* n entries */
	struct mf_linkctr **row;	/* nr_cpu_ids rows of mf_links_all */
	struct mf_linkctr *base;	/* mf_links_all entries */
	/* mf_links_all entries, rules in mf_linkstate */
	struct mf_linkstate *st;
	u32 *loss;		/* mf_links_all entries, rules above */
	/* Written under fabric->lock (LINK_SET), read with READ_ONCE:
	 * timed: some link has a rate, a delay or a loss (frames then
	 * follow the link model; otherwise they cross the fabric at once);
	 * switching: MESHFABRIC_SWITCH_*.
	 */
	bool timed;
	bool rated;	/* some link has a rate or a delay (else loss only) */
	u32 switching;
};

/* Routing table (rtable.c), immutable after creation: no lock.  A frame's
 * walk carries a key besides the current node, and a hop is table loads:
 *  - tori and H_n route homogeneously (004 section 2.1): key = the offset
 *    dst - cur, next[key] is the port, and the key after the hop is the
 *    offset's neighbour through the reverse port (peer[] again);
 *  - meshes route by the coordinate difference dst - cur (every routing
 *    of the core depends on it only): key = its number in the box of
 *    differences, sum (d_i + n_i - 1) * kstride_i, next[key] is the port,
 *    and a hop along port p moves the key by kmove[p].
 * The key needs one subtraction of node ids per frame (a division per
 * dimension, once); the hops need none.
 */
struct mf_rtable {
	const struct mf_topo *topo;
	u32 routing;		/* resolved MESHFABRIC_ROUTE_* */
	bool by_offset;		/* tori and H_n */
	u8 *next;		/* port by key */
	u64 nkeys;
	s64 kmove[2 * MF_MAX_DIMS];	/* meshes: key change per port */
	u64 kstride[MF_MAX_DIMS];	/* meshes */
	size_t bytes;		/* memory of next[] */
};

struct mf_walk {
	u32 cur;
	u64 key;
	struct mf_froute_dst exc;	/* with links down: dst's exceptions */
};

#define MF_SCHED_CACHE	8	/* (algo, source, fgen) schedules per fabric */

struct mf_cached_sched {
	bool valid;
	u32 algo;		/* requested MESHFABRIC_ALGO_* */
	u32 used;		/* algorithm that ran (AUTO resolved) */
	u32 source;
	/* cache[]: 0 fault-free; else the mf_fstate gen it was repaired
	 * around (stale, and dropped, once the fault set changes)
	 */
	u64 fgen;
	u64 stamp;		/* LRU clock */
	/* bytes on the owner's account: user[], and cache[]'s repaired
	 * schedules (mf_fabric_charge; given back when dropped)
	 */
	size_t charged;
	struct mf_sched sched;
	struct mf_stats stats;	/* mf_check()'s, computed once at build */
};

/* Frames broadcast by nodes (ARP, ND, UDP broadcasts) wait here for the
 * module's workqueue.  All fields under q.lock.  Bounded in bytes
 * (truesize), in all and per sender, so one flooding node can neither pin
 * memory nor crowd other nodes' ARP/ND out.  Queued skbs are orphaned
 * and scrubbed at enqueue (bcast.c says why).
 */
#define MF_BCASTQ_BYTES		(4U << 20)	/* per fabric */
#define MF_BCASTQ_SOURCE_BYTES	(256U << 10)	/* per sending node or part */
/* Work (nodes of the flood's tree visited: links crossed and deliveries)
 * one run of the work may do before it requeues itself, so other work
 * and RTNL waiters get the CPU.
 */
#define MF_BCAST_BUDGET		65536

struct mf_bcastq {
	struct sk_buff_head q;
	u32 bytes;		/* truesize queued */
	u32 max_bytes;		/* high-water mark (debugfs) */
	u32 *src_bytes;		/* per source node: truesize queued */
	/* per part: truesize of the BCAST sends its host handed over, a
	 * share of their own whatever source they name (bcast.c)
	 */
	u32 part_bytes[MESHFABRIC_TUNNEL_MAX_PARTS];
	struct work_struct work;
	/* What the flood crosses changed: lgen counts changes of the links
	 * (down, up: mf_bcast_links_changed), gen those of nodes' states,
	 * each node marking itself in dirty first (mf_bcast_node_changed).
	 * Bumped after the change is visible; read by the work.
	 */
	atomic_t lgen;
	atomic_t gen;
	unsigned long *dirty;
	/* The flood's forest (bcast.c, mf_flood_build), the work's own (one
	 * run at a time): breadth-first over the nodes not GONE and the
	 * links up, from the lowest node of each component, numbered in
	 * preorder; rebuilt when lgen moves or a node enters or leaves it
	 * (GONE), updated in O(depth) amortised when a node becomes present.
	 */
	bool valid;		/* built at least once */
	u32 built_lgen, built_gen;	/* what it reflects */
	u32 last_work;		/* nodes the last frame visited (debugfs) */
	u32 builds;		/* full builds so far (debugfs) */
	u32 *order;		/* build: BFS order; flood: its stack */
	unsigned long *seen;	/* in the forest (not GONE at build) */
	unsigned long *counted;	/* present, counted in fen[] and top[] */
	u8 *up;			/* port to the parent, or 0xff (a root) */
	u32 *pre;		/* preorder number */
	u32 *size;		/* nodes in its subtree */
	u32 *grp;		/* its root's preorder number */
	u32 *top;		/* by a root's preorder number: the lowest
				 * common ancestor of the component's present
				 * nodes, or U32_MAX
				 */
	u32 *fen;		/* Fenwick tree over preorder numbers: present
				 * nodes (n + 1 entries)
				 */
};

/* Unicast frames of timed links wait here for their arrival time, in a
 * tree by time (as netem's tfifo), delivered by one hrtimer (softirq).
 * tree, bytes, stopped under lock (taken with BH disabled).
 */
struct mf_tqueue {
	spinlock_t lock;	/* the fields below but timer */
	struct rb_root_cached tree;
	u32 bytes;		/* truesize queued, <= MESHFABRIC_TIMED_BYTES */
	/* of which the timed BCASTs' from each other part (bcast.c), each
	 * <= MF_TQ_PART_BYTES: a peer's broadcasts leave the rest to
	 * unicast
	 */
	u32 part_bytes[MESHFABRIC_TUNNEL_MAX_PARTS];
	bool stopped;		/* teardown: no more frames */
	struct hrtimer timer;
	/* Immutable until teardown: who pays for the frames (tqueue.c),
	 * referenced; NULL: nobody is charged.
	 */
	struct mem_cgroup *memcg;
};

struct mf_owner;

struct mf_fabric {
	/* One reference for the fabric list, one per ioctl in flight.  The
	 * queue's work item holds none: teardown cancels it before the list
	 * reference is dropped.
	 */
	struct kref ref;
	u32 id;			/* immutable */
	char name[MESHFABRIC_NAME_LEN];	/* immutable */
	/* Immutable, referenced: the user namespace owning the creator's
	 * netns.  The fabric is visible to it and to whoever has
	 * CAP_NET_ADMIN there; changing it needs CAP_NET_ADMIN there
	 * (fabric.c, mf_fabric_get_checked).
	 */
	struct user_namespace *owner;
	struct mf_owner *quota;	/* owner's account (acct.c), immutable */
	size_t footprint;	/* bytes charged to acct, immutable */
	s64 charged;		/* more bytes charged (mf_fabric_charge) */
	struct mf_topo topo;	/* immutable */
	u32 routing;		/* resolved, immutable */
	struct mf_rtable rt;	/* immutable */
	struct mf_links links;	/* rules in struct mf_links */
	struct mf_node *node;	/* nodes entries; rules in struct mf_node */

	/* Serialises ATTACH and teardown of this fabric; protects dead's
	 * writes.  dead: torn down, no more ATTACH and no more frames.
	 * mf_bcast_queue() and BCAST's waits read it without the lock: a
	 * grace period separates its setting from the stop of the queues
	 * (fabric.c, mf_fabric_teardown).  Unicast needs no check: the
	 * nodes' devices are cleared first, and the timed queue refuses
	 * frames once stopped; nor does the flood, whose work is cancelled.
	 */
	struct mutex lock;
	bool dead;

	/* Serialises counter resets: links.base. */
	struct mutex stats_lock;

	/* Serialises BCAST ioctls' planning and sends, and the link
	 * reservations of timed COLLECTIVEs (coll.c: held for those
	 * only); protects cache[], user[], clock, plans, resumed,
	 * acct.  Taken killable, and held for CPU work only
	 * (with scheduling points): a timed BCAST sleeps until its arrivals
	 * after dropping it (bcast.c, mf_bcast_run), so no wait for it
	 * lasts a fabric time.
	 */
	struct mutex bcast_lock;
	struct mf_cached_sched cache[MF_SCHED_CACHE];
	/* schedules loaded by SCHED_LOAD, one per source (algo USER) */
	struct mf_cached_sched user[MESHFABRIC_USER_SCHEDS];
	u64 clock;
	u32 plans;	/* fault-free schedules built for cache[] (debugfs) */
	u32 resumed;	/* other hosts' BCAST sends taken by the work */
	struct mf_linkacct acct;	/* allocated on first broadcast */

	struct mf_bcastq bq;	/* frames broadcast by nodes */
	struct mf_tqueue tq;	/* timed frames on their way (tqueue.c) */
	/* Links down: NULL when none.  Replaced under lock (link.c), read
	 * under RCU by the data path; BCAST reads it under lock.
	 */
	struct mf_fstate __rcu *fstate;
	u64 fgen;		/* last fstate gen given; under lock */
	struct dentry *debugfs;	/* fabric.c */

	/* A part of a multi-host fabric (tunnel.c): part[node] is the part
	 * holding node, mypart this host's, nparts their number.  All
	 * written once, by
	 * TUNNEL_SET under lock before any node is attached (no frame is
	 * in flight then), part published last (smp_store_release); read
	 * with READ_ONCE anywhere; part freed with the fabric.  NULL: the
	 * whole fabric is here.  tun: the UDP socket and the peers, set
	 * under lock, read under RCU, released at teardown.
	 */
	u8 *part;
	u8 mypart;
	u8 nparts;
	struct mf_tunnel __rcu *tun;
	/* External ports (port.c): written under RTNL, read under RCU or
	 * RTNL; nports_bound (the non-NULL entries) with READ_ONCE.
	 */
	struct mf_port __rcu *ports[MESHFABRIC_PORTS_MAX];
	u32 nports_bound;
};

/* The links with state and counters: the topology's and the extra
 * ports' (struct mf_links).
 */
static inline u64 mf_links_all(const struct mf_fabric *f)
{
	return f->links.n + MESHFABRIC_PORTS_MAX;
}

/* netdev_priv() of a node's netdev; immutable after registration. */
struct mf_ndev {
	struct mf_fabric *fabric;
	u32 node;
};

/* --- inline accessors ---------------------------------------------- */

/* Node node's state changed (attached, GONE): call after writing it. */
static inline void mf_bcast_node_changed(struct mf_fabric *f, u32 node)
{
	smp_mb__before_atomic();	/* the state, then the mark */
	set_bit(node, f->bq.dirty);
	smp_mb__after_atomic();		/* the mark, then the generation */
	atomic_inc(&f->bq.gen);
}

/* Links went down or up: call after publishing them. */
static inline void mf_bcast_links_changed(struct mf_fabric *f)
{
	smp_mb__before_atomic();	/* the links, then the generation */
	atomic_inc(&f->bq.lgen);
}

static inline bool mf_node_gone(const struct mf_fabric *f, u32 node)
{
	return READ_ONCE(f->node[node].state) == MF_NODE_GONE;
}

/* Count one frame of bytes on link l.  Caller has BH disabled. */
static inline void mf_link_count(struct mf_fabric *f, u64 l,
				 unsigned int packets, unsigned int bytes)
{
	struct mf_linkctr *c = &f->links.row[smp_processor_id()][l];

	c->packets += packets;
	c->bytes += bytes;
}

/* The node MAC layout of the uapi: 02:6d:<fabric id>:<node, 24 bits>. */
static inline void mf_node_mac(const struct mf_fabric *f, u32 node, u8 *mac)
{
	mac[0] = 0x02;		/* locally administered, unicast */
	mac[1] = 0x6d;		/* 'm' */
	mac[2] = f->id;
	mac[3] = node >> 16;
	mac[4] = node >> 8;
	mac[5] = node;
}

/* Node id of a MAC of fabric f, or -1. */
static inline s64 mf_mac_node(const struct mf_fabric *f, const u8 *mac)
{
	u32 node;

	if (mac[0] != 0x02 || mac[1] != 0x6d || mac[2] != (u8)f->id)
		return -1;
	node = (u32)mac[3] << 16 | (u32)mac[4] << 8 | mac[5];
	return node < f->topo.nodes ? node : -1;
}

/* Is node held by another host (a multi-host fabric's other part)? */
static inline bool mf_node_remote(const struct mf_fabric *f, u32 node)
{
	const u8 *part = READ_ONCE(f->part);

	return part && part[node] != f->mypart;
}

/* --- acct.c ---------------------------------------------------------- */

/* Counted allocations (module parameter "allocated": objects the module
 * holds; 0 when no fabric exists), charged to the caller's memory cgroup.
 */
extern atomic_long_t mf_allocated;
void *mf_counted_zalloc(size_t size);
void mf_counted_free(void *p);
static inline void mf_count_get(void)
{
	atomic_long_inc(&mf_allocated);
}

static inline void mf_count_put(void)
{
	atomic_long_dec(&mf_allocated);
}

/* Count f (owner, topo.nodes and footprint set) on its owner's account,
 * keyed by the real user: -E2BIG past a limit of the uapi.
 */
int mf_owner_charge(struct mf_fabric *f);
/* Uncount f (no-op if it was never counted). */
void mf_owner_uncharge(struct mf_fabric *f);
/* Memory a fabric holds beyond its footprint (schedules loaded by
 * SCHED_LOAD), charged to its owner's account: -E2BIG past
 * MESHFABRIC_USERNS_BYTES for a user namespace; bytes < 0 releases.
 * Once the fabric is destroyed, its account no longer counts it.
 */
int mf_fabric_charge(struct mf_fabric *f, s64 bytes);
/* The truesize of the timed frames waiting in the fabrics of f's owner
 * (tqueue.c's share), or NULL for the initial namespace's fabrics.  The
 * account outlives f's frames (teardown drains them before release).
 */
atomic_long_t *mf_owner_timed(const struct mf_fabric *f);
int mf_acct_init(void);
/* Reports objects still allocated (a leak). */
void mf_acct_exit(void);

/* --- fabric.c -------------------------------------------------------- */

/* What a caller needs of a fabric (mf_fabric_get_checked). */
#define MF_NEED_VISIBLE	0	/* mf_fabric_visible() */
#define MF_NEED_ADMIN	1	/* and CAP_NET_ADMIN in the fabric's owner */

int mf_fabric_create(const struct meshfabric_create *c,
		     struct mf_fabric **out);
/* The fabric id with a reference, if the caller may see it (and, with
 * MF_NEED_ADMIN, change it): ERR_PTR(-ENOENT) or ERR_PTR(-EPERM).
 */
struct mf_fabric *mf_fabric_get_checked(u32 id, unsigned int need);
/* The fabric id with a reference, no check (kernel callers, KUnit). */
struct mf_fabric *mf_fabric_get(u32 id);
void mf_fabric_put(struct mf_fabric *f);
/* DESTROY: -ENOENT (missing or invisible), -EPERM (not an admin of it). */
int mf_fabric_destroy_checked(u32 id, bool check_only);
/* Destroy f (still listed under its id), no check: kernel callers. */
int mf_fabric_destroy(struct mf_fabric *f);
bool mf_fabric_visible(const struct mf_fabric *f);
bool mf_fabric_owned(const struct mf_fabric *f);
void mf_fabric_destroy_all(void);
int mf_fabric_attach(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname);
/* Link l's counters since the last reset. */
void mf_link_read_all(struct mf_fabric *f, u64 l, struct mf_linkctr *c);
void mf_link_read(struct mf_fabric *f, u64 l, u64 *packets, u64 *bytes);
/* Restart link l's counters from zero: its base takes the current sums.
 * Caller holds f->stats_lock.
 */
void mf_link_rebase(struct mf_fabric *f, u64 l);
/* Restart every link's counters from zero (takes f->stats_lock). */
void mf_link_reset(struct mf_fabric *f);
/* The fault-injection knob (debugfs): true if this netdev allocation
 * must fail.  Under RTNL.
 */
bool mf_fail_netdev_injected(void);
int mf_fabric_init(void);
void mf_fabric_exit(void);

/* --- rtable.c -------------------------------------------------------- */

int mf_rt_init(struct mf_rtable *rt, const struct mf_topo *t, u32 routing,
	       const u32 *peer);
void mf_rt_free(struct mf_rtable *rt);
/* Start a walk from src to dst (src != dst). */
void mf_rt_walk_start(const struct mf_rtable *rt, u32 src, u32 dst,
		      struct mf_walk *w);

/* Take port from w->cur: w->cur becomes the next node and the key
 * follows it, whichever port it is (the table's, or a fault detour's).
 */
static inline void mf_rt_walk_take(const struct mf_rtable *rt,
				   const u32 *peer, struct mf_walk *w,
				   u32 port)
{
	u32 np = rt->topo->nports;

	/* the reverse of every port is port ^ 1 (topo.h's numbering) */
	if (rt->by_offset)
		w->key = peer[w->key * np + (port ^ 1)];
	else
		w->key -= rt->kmove[port];
	w->cur = peer[(u64)w->cur * np + port];
}

/* One hop of a walk: the port taken (the link is cur * nports + port),
 * w->cur becomes the next node.  Table loads only.
 */
static inline u32 mf_rt_walk_hop(const struct mf_rtable *rt, const u32 *peer,
				 struct mf_walk *w)
{
	u32 port = rt->next[w->key];

	mf_rt_walk_take(rt, peer, w, port);
	return port;
}

/* Start a walk from src to dst (src != dst) on a fabric whose links fs
 * has down (NULL: none): the table's key, and dst's exceptions once.
 */
static inline void mf_walk_start(const struct mf_rtable *rt,
				 const struct mf_fstate *fs, u32 src, u32 dst,
				 struct mf_walk *w)
{
	w->cur = src;
	mf_rt_walk_start(rt, src, dst, w);
	if (fs)
		mf_froute_dst(&fs->route, dst, &w->exc);
}

/* One hop of a walk begun by mf_walk_start: the port taken, or -1 if dst
 * cannot be reached from w->cur.  Work per hop, whatever the faults: the
 * table's loads, plus where dst has exceptions (its paths cross a link
 * down) and w->cur lies within their span a search within them (at most
 * log2(MF_FROUTE_MAX_EXC) steps).
 */
static inline int mf_walk_hop(const struct mf_rtable *rt, const u32 *peer,
			      const struct mf_fstate *fs, struct mf_walk *w)
{
	int port;

	if (likely(!fs) || w->exc.lo == w->exc.hi ||
	    w->cur < w->exc.first || w->cur > w->exc.last)
		return mf_rt_walk_hop(rt, peer, w);
	port = mf_froute_exc(&fs->route, &w->exc, w->cur);
	if (port == -ENOENT)
		return mf_rt_walk_hop(rt, peer, w);
	if (port < 0)
		return -1;
	mf_rt_walk_take(rt, peer, w, port);
	return port;
}

/* Walk src -> dst along the table (around the links down); path (max
 * entries) may be NULL.  Returns the hops, -EHOSTUNREACH if links down
 * cut dst off, or -EINVAL for a routing bug.  Caller holds RCU.
 */
int mf_rt_path(const struct mf_fabric *f, u32 src, u32 dst, u32 *path,
	       u32 max);

/* --- link.c ---------------------------------------------------------- */

/* A frame's loss draw (mf_loss_hop): drawn at its first lossy link. */
struct mf_lossdraw {
	bool drawn;
	u32 memo_loss;		/* the last lossy link's loss, */
	u64 memo_pass;		/* and mf_loss_pass(it, segs) */
	u64 draw;		/* uniform in [0, 2^64) */
	u64 surv;		/* chance it crossed every link so far */
};

/* A timed frame crossing links: a burst of segs back-to-back segments
 * of seg_bytes each (1 for a frame that is not GSO).
 *  head: when its first segment is ready to take the next link;
 *  tail: when its last bit has reached the current node.
 */
struct mf_tframe {
	u64 sent;		/* when it was sent: the horizon's origin */
	u64 head;
	u64 tail;
	u32 segs;
	u32 seg_bytes;
	u32 len;		/* skb->len, for the byte counters */
	struct mf_lossdraw ld;	/* ld.surv starts at U64_MAX */
};

/* The loss model of timed links: each segment of a frame is lost on a
 * link with probability loss / 10^9, independently; a GSO frame is lost
 * whole if any of its segments is (the fabric does not split it).  So a
 * frame of s segments crosses links 1..k with probability
 *   S_k = prod (1 - p_i)^s,
 * and it is decided by one uniform draw U per frame: lost on the first
 * link k with U >= S_k (P = S_(k-1) - S_k: exactly the model's).  Per
 * lossy hop: one 64x64 -> 128-bit multiplication, plus an O(log s)
 * power where its loss differs from the previous lossy link's; no draw.
 * Probabilities are fractions of 2^64 (U64_MAX stands for 1), truncated:
 * each product errs by at most 2^-64.
 */

/* 2^64 (1 - loss / 10^9), the chance one segment crosses (loss > 0). */
static inline u64 mf_loss_pass(u32 loss)
{
	if (loss >= MESHFABRIC_LOSS_MAX)
		return 0;
	/* 2^64 / 10^9 = 18446744073.709551616: loss * 2^64 / 10^9, floor */
	return -((u64)loss * 18446744073ULL +
		 div_u64((u64)loss * 709551616ULL, MESHFABRIC_LOSS_MAX));
}

/* pass^segs (segs >= 1), by squaring: at most 2 log2(segs) products. */
static inline u64 mf_loss_pow(u64 pass, u32 segs)
{
	u64 r = U64_MAX;

	for (; segs; segs >>= 1) {
		if (segs & 1)
			r = r == U64_MAX ? pass : mul_u64_u64_shr(r, pass, 64);
		if (segs > 1)
			pass = mul_u64_u64_shr(pass, pass, 64);
	}
	return r;
}

/* Does a frame of segs segments, drawn as ld says, get lost on a link of
 * this loss?  Bounded work (above).
 */
static inline bool mf_loss_hop(struct mf_lossdraw *ld, u32 segs, u32 loss)
{
	if (!loss)
		return false;
	if (unlikely(loss != ld->memo_loss)) {
		ld->memo_loss = loss;
		ld->memo_pass = mf_loss_pow(mf_loss_pass(loss), segs);
	}
	if (unlikely(!ld->drawn)) {
		ld->draw = get_random_u64();
		ld->drawn = true;
	}
	ld->surv = mul_u64_u64_shr(ld->surv, ld->memo_pass, 64);
	return ld->draw >= ld->surv;
}

/* Set every link to the defaults of an untimed fabric. */
void mf_links_defaults(struct mf_fabric *f);
/* Link l (an extra port's, being bound) back to the defaults, its
 * counters from zero.  Under f->lock and RTNL, nothing sending on it.
 */
void mf_link_restart(struct mf_fabric *f, u64 l);
/* links.timed and links.rated as every link's parameters say (after a
 * change of them).  Under f->lock.
 */
void mf_links_timed_update(struct mf_fabric *f);
/* LINK_SET (validated fields; node and port checked here): the links
 * changed, or -EINVAL.  Takes f->lock.
 */
int mf_link_set(struct mf_fabric *f, const struct meshfabric_link_set *ls);
/* Link l's node, port and peer as LINK_STATS and LINK_GET give them
 * (an extra port's slot: its port, or MESHFABRIC_ALL twice if unbound).
 */
void mf_link_name(const struct mf_fabric *f, u64 l, u32 *node, u32 *port,
		  u32 *peer);
/* One LINK_GET entry at time now. */
void mf_link_info(struct mf_fabric *f, u64 l, u64 now,
		  struct meshfabric_link_info *li);
/* Reserve fr's slot on link l (struct mf_linkstate), count it, and move
 * fr to the next node: true, or false with *why set (the frame is
 * counted as dropped on l).  Caller has BH disabled.
 */
bool mf_link_reserve(struct mf_fabric *f, u64 l, struct mf_tframe *fr,
		     enum mf_drop_reason *why);
/* One hop of a frame (segs segments, len bytes, its draw ld) over link l
 * of a fabric with no rate and no delay on any link (links.rated false:
 * loss only): its times do not change, so only the loss draw and the
 * counters: true, or false (counted as dropped on l).  Caller has BH
 * disabled.
 */
static inline bool mf_link_pass(struct mf_fabric *f, u64 l,
				struct mf_lossdraw *ld, u32 segs, u32 len)
{
	struct mf_linkctr *c = &f->links.row[smp_processor_id()][l];

	if (unlikely(mf_loss_hop(ld, segs, READ_ONCE(f->links.loss[l])))) {
		c->drop_loss += segs;
		return false;
	}
	c->packets += segs;
	c->bytes += len;
	return true;
}

/* LINK_SET's MESHFABRIC_LINK_STATE (ls validated): the links of node
 * and port (MESHFABRIC_ALL: every one) down or up in both directions,
 * the routing around them rebuilt and published; the links changed or a
 * negative errno (nothing changed).  Caller holds f->lock.
 */
int mf_link_set_state(struct mf_fabric *f,
		      const struct meshfabric_link_set *ls);
/* True if every link of node is down (its carrier is then off). */
bool mf_node_cut(const struct mf_fabric *f, u32 node);
/* Free f's fault state (no reader left). */
void mf_fstate_free(struct mf_fabric *f);
/* One frame on link l: true if the link's loss draw picks it (counted).
 * Caller has BH disabled.
 */
bool mf_link_loses(struct mf_fabric *f, u64 l);
/* The link model of link l (mf_timing.get). */
void mf_link_model(const void *fabric, u64 l, struct mf_link_model *out);

/* --- tqueue.c -------------------------------------------------------- */

void mf_tq_init(struct mf_fabric *f);
/* Hand skb to node dst at time when (CLOCK_MONOTONIC ns); consumes skb.
 * False if the queue is full or stopped (skb freed).
 */
/* port: MF_PORT_NONE, or the external port of dst to send it out of. */
bool mf_tq_enqueue(struct mf_fabric *f, u32 dst, u32 port,
		   struct sk_buff *skb, u64 when);
#define MF_PORT_BCAST	(U32_MAX - 1)	/* mf_tq_enqueue_bcast's frames */
#define MF_TQ_PART_BYTES	(MESHFABRIC_TIMED_BYTES / 4)
/* As mf_tq_enqueue, a timed BCAST's frame that part's host sent
 * (bcast.c): delivered whatever dst's MTU, within part's share.
 */
bool mf_tq_enqueue_bcast(struct mf_fabric *f, u32 dst, u32 part,
			 struct sk_buff *skb, u64 when);
/* Teardown: no frame is delivered after this returns. */
void mf_tq_stop(struct mf_fabric *f);

/* Where a frame leaves this host: over the cut link into node (a node
 * of another part) through its port, with the hop count hops.
 */
struct mf_cut {
	u32 node;
	u32 port;
	u32 hops;
};

/* Hand skb to the tqueue as above, bound for another host over cut
 * (delivered there through the tunnel at time when).
 */
bool mf_tq_enqueue_cut(struct mf_fabric *f, const struct mf_cut *cut,
		       struct sk_buff *skb, u64 when);

/* --- tunnel.c -------------------------------------------------------- */

int mf_validate_tunnel(const struct meshfabric_tunnel *tu);
/* TUNNEL_SET (tu validated): the map and peers at tu's pointers; out:
 * tu->mtu.  Takes f->lock.
 */
int mf_tunnel_set(struct mf_fabric *f, struct meshfabric_tunnel *tu);
/* TUNNEL_GET: fills tu; -ENODATA without a tunnel. */
int mf_tunnel_get(struct mf_fabric *f, struct meshfabric_tunnel *tu);
/* The nodes' MTU on a multi-host fabric, or 0. */
u32 mf_tunnel_mtu(struct mf_fabric *f);
/* Send skb (an Ethernet frame at data) over cut to the host holding
 * cut->node; consumes skb; false if it could not be sent.  Caller holds
 * RCU with BH disabled.
 */
bool mf_tunnel_xmit(struct mf_fabric *f, const struct mf_cut *cut,
		    struct sk_buff *skb);
/* A node broadcast of node source: a copy to every other part (skb is
 * not consumed).  Caller holds RCU with BH disabled.
 */
void mf_tunnel_bcast(struct mf_fabric *f, u32 source, struct sk_buff *skb);

/* Where a BCAST's send crosses to another host (uapi: the option
 * MESHFABRIC_GENEVE_TYPE_SCHED): send number `send` of step `step` of
 * the schedule of (algo, source), at index hop of its path, where it
 * enters a node of another part by one of that node's ports.
 */
struct mf_sched_pos {
	u32 source;
	u32 step;
	u32 send;
	u32 hop;
	u32 node;
	u8 algo;	/* MESHFABRIC_ALGO_* (at most ALGO_MAX) */
	u8 port;	/* below nports */
	u8 flags;	/* MF_POS_* */
	u8 rsvd;
};

#define MF_POS_TIMED	BIT(0)	/* timed links: struct mf_xtime follows */
#define MF_POS_ASYNC	BIT(1)	/* timed: BCAST's MESHFABRIC_BCAST_ASYNC */

/* A timed BCAST's send that crosses: fabric times, in ns from the
 * broadcast's start (each host's model of its own part, docs/multihost.md)
 */
struct mf_xtime {
	u64 sent;	/* when the datagram leaves (the sender's now) */
	u64 arrive;	/* when the send's frame reaches its destination */
};

/* Send a clone of frame (a BCAST's) to the host of pos->node, with xt if
 * pos->flags has MF_POS_TIMED; false if it could not be sent.  Process
 * context, no lock needed.
 */
bool mf_tunnel_sched(struct mf_fabric *f, const struct mf_sched_pos *pos,
		     const struct mf_xtime *xt, struct sk_buff *frame);
/* The bytes of a collective frame's path in its option (4 bits a hop) */
#define MF_PATH_BYTES	(MESHFABRIC_TUNNEL_PATH_HOPS / 2)
/* Send a clone of frame (a collective's) to the host of node (a node of
 * another part), entering it by in_port (0xff: it starts there), with
 * `hops` hops left whose ports are those of packed from port number from
 * on (4 bits each, high bits first; at most MESHFABRIC_TUNNEL_PATH_HOPS);
 * false if it could not be sent.  Process context or softirq.
 */
bool mf_tunnel_path(struct mf_fabric *f, u32 node, u32 in_port,
		    const u8 *packed, u32 from, u32 hops,
		    struct sk_buff *frame);
/* 0 if a BCAST frame of len bytes fits one schedule datagram to another
 * host (the outer IP length is 16 bits; timed: with its fabric times),
 * else -EMSGSIZE.
 */
int mf_tunnel_sched_fits(struct mf_fabric *f, unsigned int len, bool timed);
/* Teardown (no frame is sent any more): release the socket. */
void mf_tunnel_stop(struct mf_fabric *f);

/* --- netdev.c -------------------------------------------------------- */

int mf_netdev_init(void);
void mf_netdev_exit(void);
int mf_netdev_create(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname);
/* dev is a node's netdev (of any fabric). */
bool mf_netdev_is_node(const struct net_device *dev);

/* --- forward.c ------------------------------------------------------- */

netdev_tx_t mf_xmit(struct sk_buff *skb, struct net_device *dev);
/* A unicast frame from the tunnel (data at its Ethernet header) that
 * entered node (local) after hops hops: on along the routing table as
 * if from the neighbour.  Consumes skb.  Caller holds RCU, BH off.
 */
void mf_forward_rx(struct mf_fabric *f, u32 node, u32 hops,
		   struct sk_buff *skb);
/* A frame (skb->data at its Ethernet header) that node src sends
 * (in_port MF_PORT_NONE) or that arrived at src's external port in_port:
 * routed, flooded or delivered as the uapi says (MESHFABRIC_IOC_PORT).
 * Consumes skb: -1 if it went on its way, else the drop reason.
 */
int mf_forward_frame(struct mf_fabric *f, u32 src, u32 in_port,
		     struct sk_buff *skb);

/* --- port.c ---------------------------------------------------------- */

#define MF_PORT_NONE	U32_MAX	/* not an external port */

int mf_port_init(void);
void mf_port_exit(void);
/* PORT: bind node's port to the netdev ifname of net / unbind it. */
int mf_port_attach(struct mf_fabric *f, u32 node, u32 port, struct net *net,
		   const char *ifname);
int mf_port_detach(struct mf_fabric *f, u32 node, u32 port);
/* Teardown: unbind every port.  Under RTNL. */
void mf_port_detach_all(struct mf_fabric *f);
/* PORT_GET: up to max bound ports into out; the number written. */
u32 mf_port_get(struct mf_fabric *f, struct meshfabric_port_info *out,
		u32 max);
/* LINK_SET's state on the bound ports node and port (MESHFABRIC_ALL:
 * any) name: the links changed.  Under f->lock.
 */
u32 mf_port_set_down(struct mf_fabric *f, u32 node, u32 port, bool down);
/* The links (struct mf_links) of the bound extra ports (port >= nports)
 * node and port (MESHFABRIC_ALL: any) name into links (room for
 * MESHFABRIC_PORTS_MAX): how many.  Takes RCU.
 */
u32 mf_port_xlinks(const struct mf_fabric *f, u32 node, u32 port,
		   u64 *links);
/* The link of node's port: a topology port's node * nports + port, a
 * bound extra port's (links.n + its slot), or U64_MAX (an extra port not
 * bound).  Caller holds RCU (or RTNL).
 */
u64 mf_port_link(const struct mf_fabric *f, u32 node, u32 port);
/* The extra port bound in slot (the link links.n + slot): true and its
 * node and port, or false.  Takes RCU.
 */
bool mf_port_of_slot(const struct mf_fabric *f, u32 slot, u32 *node,
		     u32 *port);
/* node's port is bound (takes RCU). */
bool mf_port_bound(const struct mf_fabric *f, u32 node, u32 port);
/* The port that learned mac, if any.  Caller holds RCU. */
bool mf_port_lookup(const struct mf_fabric *f, const u8 *mac, u32 *node,
		    u32 *port);
/* Send skb out of node's external port (consumed): -1 sent, else the drop
 * reason.  counted: the link model was applied on the way (timed), else
 * here (state, loss, counters; packets segments).  BH disabled.
 */
int mf_port_send(struct mf_fabric *f, u32 node, u32 port,
		 struct sk_buff *skb, unsigned int packets, bool counted);
/* Copies of skb out of every bound port but (node, port), each through
 * its link's state, loss and counters: the copies sent.  BH disabled.
 */
unsigned int mf_port_flood(struct mf_fabric *f, u32 node, u32 port,
			   struct sk_buff *skb, unsigned int packets);
/* The link of node through port exists: a topology link, or a bound
 * external port.
 */
static inline bool mf_link_exists(const struct mf_fabric *f, u32 node,
				  u32 port)
{
	return mf_topo_is_link(&f->topo, node, port) ||
	       (READ_ONCE(f->nports_bound) && mf_port_bound(f, node, port));
}

/* --- bcast.c --------------------------------------------------------- */

struct mf_bcast_result {
	u32 algo;
	struct mf_stats stats;
	u32 delivered;
	u64 elapsed_ns;
	u64 fabric_time_ns;
	u64 *step_ns;		/* out: the step times (timed), or NULL */
	u32 unreachable;	/* nodes cut off by links down */
	u32 crossed;		/* sends handed to other hosts */
};

int mf_bcast_init(void);
void mf_bcast_exit(void);
/* Per-fabric broadcast state: at creation, at teardown, at the end. */
int mf_bcast_fabric_init(struct mf_fabric *f);
void mf_bcast_fabric_stop(struct mf_fabric *f);
void mf_bcast_fabric_free(struct mf_fabric *f);
/* The BCAST frame: Ethernet header + len bytes copied once from user. */
struct sk_buff *mf_bcast_frame(struct mf_fabric *f,
			       const struct meshfabric_bcast *b);
/* Broadcast frame (an Ethernet frame; its skb->dev is overwritten) from
 * source along the schedule of algo; does not consume frame.
 */
int mf_bcast_run(struct mf_fabric *f, u32 source, u32 algo, u32 flags,
		 struct sk_buff *frame, struct mf_bcast_result *res);
/* SCHED_LOAD: decode code (the uapi's encoding), check it with the
 * core's checker (*st its statistics; -EINVAL with the reason in why) and
 * keep it as the schedule of source for MESHFABRIC_ALGO_USER.
 */
int mf_bcast_user_load(struct mf_fabric *f, u32 model, u32 source,
		       u32 nsteps, u32 nsends, const u8 *code, size_t len,
		       struct mf_stats *st, char *why, size_t whylen);
/* Forget the schedule loaded for source: -ENOENT if none. */
int mf_bcast_user_unload(struct mf_fabric *f, u32 source);
/* A LINK_SET changed the fault set (no lock held): stale repaired
 * schedules are dropped if bcast_lock is free.
 */
void mf_bcast_faults_changed(struct mf_fabric *f);
/* Queue a frame sent by node source (consumed); false if dropped. */
bool mf_bcast_queue(struct mf_fabric *f, u32 source, struct sk_buff *skb);
/* Queue a BCAST's send that crossed from part's host at pos (tunnel.c,
 * encap_rcv: skb the frame), for the work to go on with (consumed); xt:
 * its fabric times if pos->flags has MF_POS_TIMED (else NULL).
 */
bool mf_bcast_queue_sched(struct mf_fabric *f, const struct mf_sched_pos *pos,
			  const struct mf_xtime *xt, u32 part,
			  struct sk_buff *skb);
/* Hand skb (an Ethernet frame from another host or the timed queue,
 * consumed) to dev, a node's netdev, whatever its MTU (as mf_deliver()),
 * through netif_rx: any context, under RCU (dev read under it).
 */
void mf_deliver_rx(struct mf_fabric *f, u32 node, struct net_device *dev,
		   struct sk_buff *skb);
/* mf_deliver() flags */
#define MF_DELIVER_MTU	BIT(0)	/* honour the receiver's MTU */
/* Deliver a clone of frame to node's netdev (process context): true if
 * it was accepted.  Does not consume frame.
 */
bool mf_deliver(struct mf_fabric *f, u32 node, struct sk_buff *frame,
		unsigned int flags);
/* Run s in fabric time under tm on f's links after what is reserved on
 * them since t0 (CLOCK_MONOTONIC ns), reserve its slots and fill tl
 * (allocated here; freed on error).  -E2BIG past MESHFABRIC_HORIZON_NS
 * (nothing reserved).  Callers serialise on f->bcast_lock.
 */
int mf_sched_reserve_timed(struct mf_fabric *f, const struct mf_sched *s,
			   const struct mf_timing *tm, u64 t0,
			   struct mf_timeline *tl);
/* Sleep (killable) until CLOCK_MONOTONIC reaches when: 0, -EINTR on a
 * fatal signal, -ENOENT if f was torn down meanwhile.
 */
int mf_wait_until(struct mf_fabric *f, u64 when);

/* --- coll.c ---------------------------------------------------------- */

/* MESHFABRIC_IOC_COLLECTIVE (the caller's capability checked). */
long mf_ioc_collective(void __user *argp);
int mf_validate_collective(const struct meshfabric_collective *c);

/* --- ioctl.c --------------------------------------------------------- */

int mf_validate_create(const struct meshfabric_create *c);
int mf_validate_bcast(const struct meshfabric_bcast *b);
int mf_validate_link_set(const struct meshfabric_link_set *ls);
int mf_validate_sched_load(const struct meshfabric_sched_load *sl);
int mf_validate_link_get(const struct meshfabric_link_get *lg);
int mf_validate_port(const struct meshfabric_port *mp);
long mf_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int mf_ioctl_init(void);
void mf_ioctl_exit(void);

#endif /* MF_H */
