/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * meshfabric.h - userspace ABI of meshfabric.ko (/dev/meshfabric).
 *
 * Constants in the first part are shared by the kernel module, the
 * userspace tool and the portable core: topology kinds, routing algorithms
 * and broadcast algorithms.  Their values are ABI and never change.
 */
#ifndef _UAPI_LINUX_MESHFABRIC_H
#define _UAPI_LINUX_MESHFABRIC_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* Topology kinds. */
#define MESHFABRIC_KIND_MESH		1	/* d-D mesh, 1 <= d <= 8 */
#define MESHFABRIC_KIND_TORUS		2	/* d-D torus, 1 <= d <= 8 */
#define MESHFABRIC_KIND_HEX		3	/* C-wrapped hexagonal mesh H_n */

#define MESHFABRIC_MAX_DIMS		8

/* Routing algorithms (next hop towards a destination, shortest paths). */
#define MESHFABRIC_ROUTE_DEFAULT	0	/* dor for mesh/torus, a1 for hex */
#define MESHFABRIC_ROUTE_DOR		1	/* dimension order, 004 Def. 3 */
#define MESHFABRIC_ROUTE_DIAGONAL	2	/* 004 Def. 4 (tori) */
#define MESHFABRIC_ROUTE_A1		3	/* 003 algorithm A1 (H_n) */
#define MESHFABRIC_ROUTE_CDO		4	/* cyclic dimension order, 002 */
#define MESHFABRIC_ROUTE_MAX		4

/* Broadcast algorithms. */
#define MESHFABRIC_ALGO_AUTO		0
#define MESHFABRIC_ALGO_EYES		1	/* 000/001, one-port */
#define MESHFABRIC_ALGO_HEX		2	/* 003 A2, one-port */
#define MESHFABRIC_ALGO_TREE		3	/* 004 communication graph, all-port */
#define MESHFABRIC_ALGO_BINOMIAL	4	/* recursive doubling, one-port */
#define MESHFABRIC_ALGO_FLOOD		5	/* all-port BFS */
#define MESHFABRIC_ALGO_TSAY_WANG	6	/* 002, all-port torus */
#define MESHFABRIC_ALGO_MINTCD		7	/* search, one-port */
#define MESHFABRIC_ALGO_WORMHOLE	8	/* box splitting, all-port */
#define MESHFABRIC_ALGO_SPLIT		9	/* unequal box splits, one-port */
#define MESHFABRIC_ALGO_EYES_PAPER	10	/* 000/001 as printed, one-port */
#define MESHFABRIC_ALGO_MAX		10
/* BCAST only: the schedule loaded for the source by SCHED_LOAD. */
#define MESHFABRIC_ALGO_USER		0x100

/* Port models. */
#define MESHFABRIC_MODEL_ONE_PORT	1
#define MESHFABRIC_MODEL_ALL_PORT	2

/* Switching of a fabric's links (LINK_SET; the core's timing.h). */
#define MESHFABRIC_SWITCH_STORE_FORWARD	0	/* the default */
#define MESHFABRIC_SWITCH_CUT_THROUGH	1

/*
 * ioctl ABI of /dev/meshfabric (misc device, meshfabric.ko).
 *
 * Conventions, for every command below:
 *  - structs hold __u32/__u64 (and __u8 arrays whose size is a multiple of
 *    8) only, with no implicit padding; sizes are fixed and part of the ABI;
 *  - user pointers are passed as __u64 (cast from a pointer);
 *  - reserved fields must be zero and unknown flags are rejected: -EINVAL;
 *  - an unknown command gets -ENOTTY; 32-bit callers use the same structs;
 *  - a fabric belongs to the user namespace owning its creator's network
 *    namespace (its owner).  It is visible (INFO, ROUTE, LINK_STATS,
 *    LINK_GET, and so `meshfabric list`) only to callers in the owner
 *    and to callers with CAP_NET_ADMIN in the owner: the user who created
 *    the owner (from outside it), root of an ancestor namespace, real
 *    root (every fabric).  An unprivileged user of an ancestor namespace
 *    does not see it (other users' fabrics stay private), nor does a
 *    sibling namespace.  An invisible fabric answers -ENOENT, exactly as
 *    a missing one;
 *  - commands that change state (CREATE, DESTROY, ATTACH, BCAST, LINK_SET,
 *    LINK_STATS with the reset flag) need CAP_NET_ADMIN in the user
 *    namespace owning the caller's network namespace, and all but CREATE
 *    also in the fabric's owner: -EPERM otherwise;
 *  - /dev/meshfabric is mode 0666, as /dev/net/tun: every command that
 *    changes anything checks capabilities itself, and the read-only ones
 *    (INFO, ROUTE, LINK_STATS, LINK_GET) let unprivileged users watch the
 *    fabrics their own user namespace may see;
 *  - a fabric id that names no fabric: -ENOENT; a node id out of range:
 *    -EINVAL; a limit below exceeded: -E2BIG (sizes) or -EINVAL;
 *  - a node is ABSENT until attached, PRESENT once its netdev exists and
 *    GONE after its netdev was deleted (its namespace died, or `ip link
 *    del`).  Routes and broadcasts involving a GONE node fail with
 *    -EHOSTUNREACH (route) / -ENETDOWN (broadcast); ATTACH may bring it
 *    back.
 *
 * Each node's netdev is an Ethernet device with MAC address
 * 02:6d:FF:NN:NN:NN (locally administered: 0x02, 'm', fabric id, node id
 * in 24 bits big endian).  Unicast frames to another node's MAC travel hop
 * by hop along the kernel's routing tables (each hop counted on its
 * directed link); broadcast and multicast frames are delivered exactly
 * once to every other present node that unicast could reach from the
 * sender, except multicast membership reports (MLD, IGMP), which are
 * consumed at the sender: a fabric has no multicast router.  As unicast,
 * they are relayed by ABSENT nodes and stopped by GONE nodes and links
 * down.  They follow a spanning tree of the fabric grown breadth-first
 * from the lowest node of each part, pruned to the smallest subtree that
 * joins its present nodes: each link of that subtree carries the frame
 * once, away from the sender, and is counted (the tree is rebuilt when
 * links go down or up or a node is deleted, not per frame).  A node whose MTU is below the frame's
 * payload does not receive it (its rx_dropped counts it).  Such frames
 * wait in a per-fabric queue of at most 4 MiB (truesize), of which one
 * sender may fill 256 KiB; beyond that they are dropped and counted as
 * the sender's tx_dropped.
 *
 * Directed link number: node * nports + port
 * (ports as in the core's topo.h: mesh/torus port 2d is dimension d in +
 * direction, 2d + 1 in - direction; hex ports 0..5).
 */

/*
 * Limits.  Fabrics owned by the initial user namespace (real root) and
 * fabrics owned by other user namespaces draw from separate pools, so no
 * user namespace can exhaust a limit for real root.  The USERNS limits
 * are per real user, as the kernel's ucounts (RLIMIT_NPROC): a fabric
 * owned by a user namespace counts against the uid (of the initial
 * namespace) that created its outermost ancestor below the initial one,
 * so more user namespaces, sibling or nested, give that uid no more
 * fabrics, nodes or bytes, and while one uid is at its limit every other
 * uid still gets its own (until USERNS_TOTAL, reached by 8 uids at their
 * limit).  An outermost user namespace that real root created (a
 * container) is an account of its own, not one shared by uid 0.  The
 * fabrics' memory is charged to the creating task's memory cgroup.
 * A destroyed fabric counts until its memory is freed (DESTROY: after
 * its last netdev).  Exceeding a limit: -E2BIG.
 */
#define MESHFABRIC_MAX_NODES		65536	/* nodes per fabric */
#define MESHFABRIC_MAX_FABRICS		64	/* root's fabrics alive at once */
#define MESHFABRIC_MAX_IDS		256	/* fabric ids 0..255 */
#define MESHFABRIC_USERNS_FABRICS	16	/* per real user */
#define MESHFABRIC_USERNS_NODES		65536	/* per real user, in all */
#define MESHFABRIC_USERNS_BYTES		(64U << 20)	/* memory per real user */
#define MESHFABRIC_USERNS_TOTAL		128	/* fabrics of all non-root owners */
#define MESHFABRIC_MAX_PAYLOAD		65536	/* BCAST payload bytes */
#define MESHFABRIC_NAME_LEN		16	/* with the final NUL */
#define MESHFABRIC_NO_PEER		0xffffffffU	/* link entry: no link */

#define MESHFABRIC_IOC_MAGIC		0xF4

/*
 * MESHFABRIC_IOC_CREATE: create a fabric of kind/ndims/dims with routing
 * (MESHFABRIC_ROUTE_*).  name: 1 to 15 ASCII letters, digits, '.' and
 * '_', a letter first, not "lo", NUL-terminated, unique among the fabrics
 * of its owner; empty means "mf<id>", and "mf<digits>" is reserved for
 * that.  '-' is refused: the tool names a node's namespace NAME-x-y, so
 * a '-' in NAME would make namespace names ambiguous; the tool names
 * node interfaces after the fabric, hence the letter and "lo" (the rule
 * is core/name.c's, shared by the kernel and the tool).  Out: id,
 * nodes, nports.  No netdev is created yet (see ATTACH).  The fabric
 * belongs to the user namespace owning the creator's netns (see the
 * conventions above for who sees and changes it).  -EINVAL bad
 * kind/dims/routing/name, -E2BIG more than MESHFABRIC_MAX_NODES nodes or
 * past a limit of its owner (Limits above), -EEXIST name in use by the
 * same owner.  flags MESHFABRIC_CREATE_ID: id is an input too, the id
 * wanted (below MESHFABRIC_MAX_IDS; -EBUSY if taken): every part of a
 * multi-host fabric (TUNNEL_SET) has the same id, which its MACs carry.
 */
#define MESHFABRIC_CREATE_ID		(1U << 0)

struct meshfabric_create {
	__u32 kind;			/* in: MESHFABRIC_KIND_* */
	__u32 ndims;			/* in: hex: 1 */
	__u32 dims[MESHFABRIC_MAX_DIMS];	/* in: sizes; hex: dims[0] = n */
	__u32 routing;			/* in: MESHFABRIC_ROUTE_* */
	__u32 flags;			/* in: MESHFABRIC_CREATE_* */
	__u8 name[MESHFABRIC_NAME_LEN];	/* in */
	__u32 id;			/* out; in with CREATE_ID */
	__u32 nodes;			/* out */
	__u32 nports;			/* out: ports per node */
	__u32 reserved[3];
};

/*
 * MESHFABRIC_IOC_DESTROY: delete fabric id and its netdevs.  The id and
 * the name are free when the call returns, and so is every netdev whose
 * namespace is alive.  A netdev whose namespace is being deleted (no
 * reference left: `ip netns del` of its last mount) is left to the
 * namespace's cleanup, which the kernel runs asynchronously, and carries
 * no frame meanwhile: `meshfabric destroy` deletes the namespaces first,
 * so that the cleanup takes them off the system's list before their
 * netdevs go (each netdev event walks every listed namespace).  rmmod
 * waits for that cleanup.  With MESHFABRIC_DESTROY_CHECK nothing is
 * deleted: the answer is what DESTROY would answer now (0, -ENOENT,
 * -EPERM), so that a tool deletes the namespaces only when the fabric
 * will follow.
 */
#define MESHFABRIC_DESTROY_CHECK	(1U << 0)

struct meshfabric_destroy {
	__u32 id;			/* in */
	__u32 flags;			/* in: MESHFABRIC_DESTROY_* */
	__u64 reserved;
};

/* Node flags (INFO). */
#define MESHFABRIC_NODE_PRESENT		(1U << 0)	/* netdev exists */
#define MESHFABRIC_NODE_GONE		(1U << 1)	/* netdev was deleted */

struct meshfabric_node_info {
	__u32 node;
	__u32 flags;			/* MESHFABRIC_NODE_* */
	__u32 coords[MESHFABRIC_MAX_DIMS];	/* hex: coords[0] = node */
	__u32 ifindex;			/* in its namespace; 0 if not present */
	__u32 netns_ino;		/* inode of its netns (stat -L); 0 if not */
	__u8 ifname[MESHFABRIC_NAME_LEN];	/* "" if not present */
};

/*
 * MESHFABRIC_IOC_INFO: describe fabric id.  Fills the out fields and, if
 * nodes_ptr is not 0, up to count struct meshfabric_node_info for nodes
 * first, first + 1, ...; count is set to the number written.  table_bytes
 * is the size of the routing table: next ports by offset (tori, H_n) or
 * by coordinate difference (meshes: prod(2 n_i - 1) bytes); fault_bytes
 * the routing state kept besides it while links are down (LINK_SET),
 * down_links how many links (both directions counted once) are down.
 * Fabric ids are 0 .. MESHFABRIC_MAX_IDS - 1.
 */
struct meshfabric_info {
	__u32 id;			/* in */
	__u32 flags;			/* in: 0 */
	__u64 nodes_ptr;		/* in: struct meshfabric_node_info[count] */
	__u32 first;			/* in: first node to describe */
	__u32 count;			/* in: capacity; out: entries written */
	__u32 kind;			/* out */
	__u32 ndims;			/* out */
	__u32 dims[MESHFABRIC_MAX_DIMS];	/* out */
	__u32 routing;			/* out: resolved MESHFABRIC_ROUTE_* */
	__u32 nodes;			/* out */
	__u32 nports;			/* out */
	__u32 present;			/* out: nodes with a netdev */
	__u32 gone;			/* out: nodes whose netdev was deleted */
	__u32 own;			/* out: 1 if the caller's user
					 * namespace owns the fabric
					 */
	__u64 table_bytes;		/* out: routing table memory */
	__u8 name[MESHFABRIC_NAME_LEN];	/* out */
	__u64 fault_bytes;		/* out: routing state around faults */
	__u32 down_links;		/* out: links down (LINK_SET) */
	__u32 reserved0;
};

struct meshfabric_attach_entry {
	__u32 node;			/* node id */
	__s32 netns_fd;			/* fd of a network namespace */
	__u8 ifname[MESHFABRIC_NAME_LEN];	/* "" = "mf<id>n<node>" */
};

/*
 * MESHFABRIC_IOC_ATTACH: create the netdevs of count nodes, each directly
 * in the namespace its netns_fd names (the caller needs CAP_NET_ADMIN over
 * that namespace too).  Entries are processed in order; on the first error
 * the call stops and returns it, done says how many entries succeeded (and
 * stay attached).  count <= MESHFABRIC_MAX_NODES.  -EBUSY node already
 * present, -EEXIST interface name taken in that namespace, -EBADF/-EINVAL
 * bad fd.
 */
struct meshfabric_attach {
	__u32 id;			/* in */
	__u32 flags;			/* in: 0 */
	__u64 entries_ptr;		/* in: struct meshfabric_attach_entry[] */
	__u32 count;			/* in */
	__u32 done;			/* out */
	__u64 reserved;
};

/*
 * MESHFABRIC_IOC_ROUTE: the path the kernel's routing tables give from src
 * to dst: hops + 1 node ids (src first) written to path_ptr if path_max is
 * large enough (else -ENOSPC with hops set); path_ptr 0 returns hops only.
 * -EHOSTUNREACH if a node on the path is GONE.
 */
struct meshfabric_route {
	__u32 id;			/* in */
	__u32 flags;			/* in: 0 */
	__u32 src;			/* in */
	__u32 dst;			/* in */
	__u64 path_ptr;			/* in: __u32[path_max] */
	__u32 path_max;			/* in: entries */
	__u32 hops;			/* out */
	__u64 reserved;
};

/*
 * MESHFABRIC_IOC_BCAST: broadcast one Ethernet frame (destination
 * ff:ff:ff:ff:ff:ff, source = source node's MAC, ethertype, payload of len
 * bytes) from node source to every other node with algorithm algo
 * (MESHFABRIC_ALGO_*, AUTO allowed) executed step by step by the kernel.
 * Every node must be PRESENT (-ENETDOWN otherwise); -EOPNOTSUPP if the
 * algorithm does not cover the topology, or is one the module does not
 * have: the searches (MINTCD, WORMHOLE, SPLIT) and EYES_PAPER run in
 * userspace only (`meshfabric plan`), whose schedules SCHED_LOAD hands
 * to the kernel (ALGO_USER); AUTO chooses among the module's own
 * builders (EYES, HEX, TREE, BINOMIAL, FLOOD, TSAY_WANG).
 * len <= MESHFABRIC_MAX_PAYLOAD
 * (-E2BIG); ethertype >= 0x0600 and <= 0xffff (-EINVAL).  The statistics
 * (steps, sends, tcd = sum of path lengths, max_link_load = most sends on
 * one directed link in one step, contention = sum over (step, link) of
 * load - 1) are those of `meshfabric plan` for the same topology,
 * algorithm, routing and source.  delivered counts recipients whose netdev
 * accepted the frame (nodes - 1 when all are up).
 *
 * Fabric time: on a fabric with timed links (LINK_SET), the schedule runs
 * on the links' model (rate, delay, switching; steps synchronous, or
 * asynchronous with MESHFABRIC_BCAST_ASYNC), after the frames already
 * queued on them; each recipient gets the frame at its arrival time and
 * the call returns after the last delivery (a fatal signal ends it early:
 * -EINTR, nothing copied out).  fabric_time_ns is when the last node got
 * the frame, in ns from the call's start, and if step_ns_ptr is not 0, the
 * last arrival of each step's sends is written there: steps (in) entries
 * at most, so set steps to the array's capacity; steps (out) is the
 * schedule's count whatever the capacity.  On an idle fabric these figures
 * equal `meshfabric plan`'s with the same link model.  A lossy link may
 * lose a send, and then the nodes below it in the schedule are not
 * reached (delivered says how many were); queue limits do not apply to
 * the offload.  Untimed fabrics (every link unlimited): fabric_time_ns 0.
 * Waits: BCASTs on one fabric plan and send one at a time, and a BCAST
 * waiting for its turn (or for SCHED_LOAD) waits killably for that CPU
 * work only, never for another's fabric time: a timed BCAST sleeps until
 * its arrivals without holding the fabric, so timed BCASTs overlap, each
 * after the sends the earlier ones reserved on the links (and refused
 * with -E2BIG if that passes the horizon).  Every sleep is killable
 * (-EINTR) and ends within MESHFABRIC_HORIZON_NS.
 *
 * Down links (LINK_SET): the schedule is repaired around them (sends
 * rerouted along surviving shortest paths, or moved to other senders and
 * steps; the statistics are the repaired schedule's) and unreachable
 * counts the nodes the source cannot reach; delivered + unreachable =
 * nodes - 1 when every reachable node accepted the frame.  The struct
 * grew by unreachable (and reserved, now crossed): the 88-byte form of
 * earlier releases, MESHFABRIC_IOC_BCAST_V1, is still served without
 * them.
 *
 * A fabric split over hosts (TUNNEL_SET): source must be a node of this
 * host (-EREMOTE), every node of this host PRESENT (the others' are
 * their hosts' business), the algorithm one the module builds itself
 * (not ALGO_USER: -EOPNOTSUPP), and the frame one datagram can carry:
 * len at most 65449 over IPv4 (the outer IP length is 16 bits: 65535
 * less 20 IPv4, 8 UDP, 24 Geneve, 20 schedule option and 14 Ethernet
 * bytes), 65469 over IPv6, 20 bytes less on timed links (the time
 * option), else -EMSGSIZE.  Every host builds the same schedule from
 * (topology, algo, source, links down), so they must have the same links
 * down; on timed links AUTO is resolved here (by this host's model) and
 * the algorithm it chose is what the other hosts build.  This host runs
 * the sends of the nodes it informs; a send whose path reaches a node
 * of another part is counted on its links up to the cut here and handed
 * to that part's host (the Geneve option says which send of which step,
 * and where on its path), which finishes
 * it and runs the later sends of the nodes it informs, handing back
 * where a path crosses again.  The call returns when this host's sends
 * are done, not the other hosts'.  Then delivered counts this host's
 * nodes that accepted the frame, crossed the sends handed to other hosts
 * (the first crossing of each: what the other hosts then do is counted
 * there, in their nodes' rx counters and their links' counters), and the
 * statistics are the whole schedule's, as on one host.  On one host
 * crossed is 0.  Timed links: fabric_time_ns and step_ns are the whole
 * schedule's in this host's model of every link (its LINK_SET figures
 * and reservations: give every host the same link models); a send that
 * crosses carries the fabric time it left at and the time the model
 * gives its arrival at its destination, and the receiving host, taking
 * the datagram's arrival as the former, delivers each node of its
 * subtree at the time its own model of the links, idle, gives (shifted
 * so that the send's destination gets the frame at the latter; it
 * reserves no slot), through the timed queue, whatever the MTU (each
 * sending part's frames within a quarter of MESHFABRIC_TIMED_BYTES; a
 * frame refused counts in the node's rx_dropped), and hands on the sends
 * that cross again likewise.  A host whose links are untimed refuses
 * timed datagrams.  The underlay's
 * real delay adds to the wall clock, not to the model.
 */
#define MESHFABRIC_BCAST_ASYNC		(1U << 0)

struct meshfabric_bcast {
	__u32 id;			/* in */
	__u32 flags;			/* in: MESHFABRIC_BCAST_* */
	__u32 source;			/* in */
	__u32 algo;			/* in: MESHFABRIC_ALGO_*; out: the one run */
	__u64 payload_ptr;		/* in */
	__u32 len;			/* in */
	__u32 ethertype;		/* in */
	__u32 steps;			/* in: step_ns capacity; out */
	__u32 sends;			/* out */
	__u64 tcd;			/* out */
	__u32 max_link_load;		/* out */
	__u32 delivered;		/* out */
	__u64 contention;		/* out */
	__u64 elapsed_ns;		/* out: CPU time of the executor */
	__u64 fabric_time_ns;		/* out */
	__u64 step_ns_ptr;		/* in: __u64[steps] or 0 */
	__u32 unreachable;		/* out: nodes cut off by down links */
	__u32 crossed;			/* in: 0; out: sends handed to other
					 * hosts (a split fabric)
					 */
};

struct meshfabric_link_entry {
	__u32 node;			/* node * nports + port (below) */
	__u32 port;
	__u32 peer;			/* MESHFABRIC_NO_PEER: no link */
	__u32 reserved;
	__u64 packets;			/* frames that crossed the link */
	__u64 bytes;			/* their bytes, Ethernet header included */
};

#define MESHFABRIC_LINK_STATS_RESET	(1U << 0)
#define MESHFABRIC_LINK_XPORTS		(1U << 1)	/* LINK_STATS, LINK_GET:
							 * the extra ports'
							 * links too
							 */

/*
 * MESHFABRIC_IOC_LINK_STATS: per directed link counters of links first ..
 * first + count - 1 into links_ptr (count set to the number written;
 * links_ptr 0 reads nothing).  With MESHFABRIC_LINK_STATS_RESET (needs
 * CAP_NET_ADMIN) every counter of the fabric restarts from zero once the
 * entries were copied out: on -EFAULT nothing is reset.  A link's
 * counts are those of frames that crossed it; peer MESHFABRIC_NO_PEER
 * marks a port with no link of its own (a mesh border, or the - port of a
 * size-2 torus dimension, whose link is the + port's).  Out: nlinks =
 * nodes * nports, the topology's links.
 *
 * first above nlinks: -EINVAL; a read stops at nlinks.
 *
 * With MESHFABRIC_LINK_XPORTS (asked for, so that a caller of an earlier
 * release, paging until a read is empty, sees what it saw), links
 * nlinks .. nlinks + MESHFABRIC_PORTS_MAX - 1 are the links of extra
 * ports (MESHFABRIC_IOC_PORT), one per slot of the fabric's bound ports:
 * first at or past nlinks reads them (a read never spans nlinks: count
 * stops there).  Such an entry names the extra port bound in its slot
 * (node, port >= nports; peer MESHFABRIC_NO_PEER), or has node and port
 * MESHFABRIC_ALL when none is bound there.  first above nlinks +
 * MESHFABRIC_PORTS_MAX: -EINVAL.
 */
struct meshfabric_link_stats {
	__u32 id;			/* in */
	__u32 flags;			/* in: MESHFABRIC_LINK_STATS_* */
	__u64 links_ptr;		/* in: struct meshfabric_link_entry[] */
	__u32 first;			/* in */
	__u32 count;			/* in: capacity; out: written */
	__u32 nlinks;			/* out */
	__u32 reserved0;
	__u64 reserved;
};

/*
 * Timed links.  Every directed link has a rate (bits/s, 0 = unlimited), a
 * delay (ns), a queue limit (frames) and a loss probability (parts per
 * billion: 10^9 = 100%); a fabric has one switching mode
 * (MESHFABRIC_SWITCH_*).  A fabric is created with every link unlimited
 * (rate 0, delay 0, loss 0, queue 1000, store-and-forward): frames then
 * cross it at once, as before.  Once a link has a rate, a delay or a
 * loss, every unicast frame follows the model of the core's timing.h: it
 * reserves its slot on each link of its path when it is sent (in the
 * order frames are sent, which approximates the order they reach a
 * link), and is handed to its destination at its arrival time.  A frame
 * that finds more frames queued ahead of it on a link than the queue
 * limit (backlog / its serialisation time), or that the loss draw picks,
 * is dropped there and counted on that link; a frame waiting for its
 * delivery pins no socket (orphaned).  Bounds, so that no user can pin
 * memory or time: a frame that would arrive more than
 * MESHFABRIC_HORIZON_NS after it was sent is dropped when sent (its
 * links' queues are too long for their rates), the frames of a fabric
 * waiting at once are at most MESHFABRIC_TIMED_BYTES of truesize and
 * those of all fabrics MESHFABRIC_TIMED_TOTAL; such drops count in the
 * sender's tx_dropped (tracepoint reason queue_full), and the slots a
 * frame dropped on its way reserved on earlier links stay taken (they
 * end within the horizon).  A BCAST whose fabric time would exceed the
 * horizon is refused (-E2BIG) before it reserves anything.  Waiting
 * frames are charged to the memory cgroup of the fabric's creator (a
 * cgroup at its limit drops them, reason queue_full), and shared: the
 * fabrics of one owner other than the initial user namespace hold at
 * most MESHFABRIC_TIMED_OWNER, all such owners together at most
 * MESHFABRIC_TIMED_USERNS, so the initial namespace's fabrics always
 * have the rest of MESHFABRIC_TIMED_TOTAL.  A GSO frame
 * of n segments is n back-to-back frames.  Frames broadcast by nodes
 * (ARP, ND) are not timed.
 */
#define MESHFABRIC_HORIZON_NS		60000000000ULL	/* 60 s */
#define MESHFABRIC_TIMED_BYTES		(32U << 20)	/* per fabric */
#define MESHFABRIC_TIMED_TOTAL		(256U << 20)	/* all fabrics */
#define MESHFABRIC_TIMED_OWNER		(32U << 20)	/* one userns owner */
#define MESHFABRIC_TIMED_USERNS		(128U << 20)	/* all userns owners */
#define MESHFABRIC_RATE_MAX		1000000000000000ULL	/* 1 Pbit/s */
#define MESHFABRIC_DELAY_MAX		10000000000ULL	/* 10 s */
#define MESHFABRIC_QUEUE_MAX		1000000	/* frames */
#define MESHFABRIC_QUEUE_DEFAULT	1000
#define MESHFABRIC_LOSS_MAX		1000000000	/* 100% */
#define MESHFABRIC_ALL			0xffffffffU	/* every node / port */

/* LINK_SET flags: which fields to apply. */
#define MESHFABRIC_LINK_RATE		(1U << 0)
#define MESHFABRIC_LINK_DELAY		(1U << 1)
#define MESHFABRIC_LINK_QUEUE		(1U << 2)
#define MESHFABRIC_LINK_LOSS		(1U << 3)
#define MESHFABRIC_LINK_SWITCHING	(1U << 4)	/* the fabric's */
#define MESHFABRIC_LINK_STATE		(1U << 5)	/* down or up */

/* LINK_GET flags of a link. */
#define MESHFABRIC_LINKF_DOWN		(1U << 0)
#define MESHFABRIC_LINKF_PORT		(1U << 1)	/* a bound external port */

/*
 * MESHFABRIC_IOC_LINK_SET: apply the fields flags names to the directed
 * link of node through port, to every port of node (port
 * MESHFABRIC_ALL), or to every link (node MESHFABRIC_ALL, port
 * MESHFABRIC_ALL); switching applies to the fabric.  Ports without a link
 * (MESHFABRIC_NO_PEER in LINK_STATS) are skipped by ALL and refused by
 * name (-EINVAL).  A bound external port's link is a link (its port a
 * border port, or an extra port numbered nports and up:
 * MESHFABRIC_IOC_PORT); an extra port not bound is refused by name
 * (-EINVAL).  Every value is checked before anything changes: -EINVAL
 * for a rate above MESHFABRIC_RATE_MAX, a delay above
 * MESHFABRIC_DELAY_MAX, a queue of 0 or above MESHFABRIC_QUEUE_MAX, a loss
 * above MESHFABRIC_LOSS_MAX, an unknown switching, node or port, no flag.
 * Frames already on their way keep the parameters they were sent with.
 * Out: count, the links changed.
 *
 * MESHFABRIC_LINK_STATE sets links down (down 1) or up (down 0), both
 * directions of each link (count counts both): node and port one link,
 * node and MESHFABRIC_ALL every link of the node, MESHFABRIC_ALL twice
 * every link.
 * No frame crosses a down link: with links down, every unicast route is
 * a shortest path of the surviving links (the routing's own path where
 * it survives), frames to a node that cannot be reached are dropped
 * (tx_dropped, tracepoint reason link_down), node broadcasts skip down
 * links and BCAST repairs its schedule.  The new routing state is built
 * and published at once (RCU): a frame sees the old routes or the new
 * ones, never a mix.  A node whose links are all down has its carrier
 * off.  At most MESHFABRIC_DOWN_MAX links down at once (-E2BIG), and
 * the routing state around them at most 4 MiB (-E2BIG).  The work of
 * building that state is bounded before it starts: a change whose fault
 * set has more than MESHFABRIC_FAULT_WORK (node, destination) pairs whose
 * default path crosses a down link (counted per down link, plus the
 * destinations each affects) is refused with -E2BIG and nothing done: on
 * a 256x256 torus about 7 links, on a 64x64 torus about 500.  A build is
 * interruptible by a fatal signal (nothing changes), runs one at a time
 * per owner, and BCAST reuses it.
 */
#define MESHFABRIC_DOWN_MAX		512
#define MESHFABRIC_FAULT_WORK		(1ULL << 25)
struct meshfabric_link_set {
	__u32 id;			/* in */
	__u32 flags;			/* in: MESHFABRIC_LINK_* */
	__u32 node;			/* in: node id or MESHFABRIC_ALL */
	__u32 port;			/* in: port or MESHFABRIC_ALL */
	__u64 rate;			/* in: bits/s, 0 = unlimited */
	__u64 delay_ns;			/* in */
	__u32 queue;			/* in: frames */
	__u32 loss;			/* in: parts per 10^9 */
	__u32 switching;		/* in: MESHFABRIC_SWITCH_* */
	__u32 count;			/* out */
	__u32 down;			/* in: MESHFABRIC_LINK_STATE: 1 down, 0 up */
	__u32 reserved0;
	__u64 reserved;
};

struct meshfabric_link_info {
	__u32 node;			/* as meshfabric_link_entry */
	__u32 port;
	__u32 peer;			/* MESHFABRIC_NO_PEER: no link */
	__u32 queue;			/* queue limit, frames */
	__u64 rate;			/* bits/s, 0 = unlimited */
	__u64 delay_ns;
	__u32 loss;			/* parts per 10^9 */
	__u32 flags;			/* MESHFABRIC_LINKF_* */
	__u64 packets;			/* as LINK_STATS */
	__u64 bytes;
	__u64 drop_loss;		/* frames lost on the link */
	__u64 drop_queue;		/* frames refused by a full queue */
	__u64 busy_ns;			/* time spent serialising frames */
	__u64 backlog_ns;		/* now: work queued on the link, ns */
	__u64 reserved[2];
};

/*
 * MESHFABRIC_IOC_LINK_GET: parameters, counters and backlog of links
 * first .. first + count - 1 (as LINK_STATS: extra ports' links past
 * nlinks with MESHFABRIC_LINK_XPORTS, the only flag; LINK_STATS' reset
 * restarts these counters too).  Out:
 * nlinks, the fabric's switching, and now_ns, the fabric clock
 * (CLOCK_MONOTONIC) when the entries were read, so that two reads give
 * utilisation = busy_ns difference / now_ns difference.
 */
struct meshfabric_link_get {
	__u32 id;			/* in */
	__u32 flags;			/* in: MESHFABRIC_LINK_XPORTS or 0 */
	__u64 links_ptr;		/* in: struct meshfabric_link_info[] */
	__u32 first;			/* in */
	__u32 count;			/* in: capacity; out: written */
	__u32 nlinks;			/* out */
	__u32 switching;		/* out: MESHFABRIC_SWITCH_* */
	__u64 now_ns;			/* out */
	__u64 reserved[2];
};

/*
 * MESHFABRIC_IOC_SCHED_LOAD: hand the kernel a broadcast schedule chosen in
 * userspace (`meshfabric bcast NAME --schedule FILE`, or any plan the tool
 * computed), so that BCAST with algo MESHFABRIC_ALGO_USER from source runs
 * it.  The kernel decodes it, checks it with the same checker as every
 * schedule it builds (the core's check.c: every node but the source
 * informed exactly once, by an informed sender, along a chain of
 * neighbours, the port model respected) and keeps it for the fabric, one
 * schedule per source, at most MESHFABRIC_USER_SCHEDS sources (loading
 * another source replaces the one loaded longest ago; loading the same
 * source again replaces its schedule).  Needs CAP_NET_ADMIN over the
 * fabric, as BCAST.
 *
 * The encoding (code_ptr, code_len bytes), in step order: for each of the
 * nsteps steps, the number of its sends; for each send, its source node
 * and its hop count h >= 1, then h bytes, the port (as LINK_STATS numbers
 * them: 2 * dimension, + 1 for the - direction; hex 0..5) taken at each
 * node of its path, the destination being where the last hop ends.
 * Numbers are unsigned LEB128 (7 bits a byte, low bits first, the high
 * bit set on all but the last byte, at most 5 bytes).  Every step has at
 * least one send, and nsends is nodes - 1 (a broadcast informs every
 * other node once).  model is MESHFABRIC_MODEL_ONE_PORT or _ALL_PORT.
 *
 * Errors: -EINVAL for a bad field, an encoding that does not decode
 * exactly (a port without a neighbour, counts that do not add up, bytes
 * left over) or a schedule the checker refuses; then, if why_ptr is not
 * 0, the reason, one NUL-terminated line of at most why_len bytes, is
 * written there (as the BPF verifier's log).  -E2BIG code_len above
 * MESHFABRIC_SCHED_CODE_MAX, nsends above the fabric's nodes, or a
 * schedule whose memory (about 16 bytes a send and 4 a path entry) would
 * take the owner past MESHFABRIC_USERNS_BYTES (kept schedules count
 * there, as fabrics do).  On
 * success the checker's statistics of the schedule are written out (those
 * `meshfabric plan` prints for it).  MESHFABRIC_SCHED_UNLOAD forgets the
 * schedule of source (-ENOENT if there is none); BCAST with ALGO_USER from
 * a source without one gets -ENOENT.  With links down, BCAST repairs the
 * loaded schedule as it repairs its own, if nsteps * nodes * ports is at
 * most MESHFABRIC_REPAIR_WORK (the repair's work), else -E2BIG.
 */
#define MESHFABRIC_USER_SCHEDS		8
#define MESHFABRIC_SCHED_CODE_MAX	(4U << 20)
#define MESHFABRIC_REPAIR_WORK		(1ULL << 27)
#define MESHFABRIC_SCHED_UNLOAD		(1U << 0)

struct meshfabric_sched_load {
	__u32 id;			/* in: fabric */
	__u32 flags;			/* in: MESHFABRIC_SCHED_* */
	__u32 source;			/* in */
	__u32 model;			/* in: MESHFABRIC_MODEL_* */
	__u32 nsteps;			/* in; out: after dropping empty tails */
	__u32 nsends;			/* in */
	__u64 code_ptr;			/* in: the encoding */
	__u32 code_len;			/* in: bytes */
	__u32 why_len;			/* in: bytes at why_ptr */
	__u64 why_ptr;			/* in: char[why_len] or 0 */
	__u64 tcd;			/* out: sum of path lengths */
	__u32 max_link_load;		/* out */
	__u32 reserved0;
	__u64 contention;		/* out */
	__u64 reserved;
};

/*
 * External ports (docs/multihost.md, "External ports"): a node's port
 * bound to an existing Ethernet netdev (a veth, a tap, a NIC), so that
 * hosts outside the fabric reach it and it reaches them.
 *
 * Which ports: a border port of a mesh, one with no neighbour
 * (MESHFABRIC_NO_PEER in LINK_STATS), or an extra port of any node of
 * any topology (mesh, torus, hex), beyond its degree: port numbers
 * nports .. nports + MESHFABRIC_PORTS_MAX - 1 (the tool names them e0,
 * e1, ...).  At most MESHFABRIC_PORTS_MAX ports of a fabric are bound at
 * once, border and extra together.  An extra port is no link of the
 * topology: routing, fault routing, BCAST schedules and the collectives
 * never use it; frames reach it along the fabric's links to its node.
 *
 * The port's link: a border port's is the directed link node * nports
 * + port; an extra port's is link nlinks + slot past the topology's
 * (LINK_STATS), slot its index among the fabric's bound ports.  Either
 * counts the frames the fabric sends out of the netdev and applies its
 * rate, delay, queue, loss and state to them; LINK_SET by node and port
 * accepts it while it is bound (ALL includes it then), and its state
 * (down) stops both directions.  A border port's settings stay with the
 * link across detach; an extra port's link starts afresh each time one
 * is bound in its slot (rate 0, delay 0, loss 0, queue
 * MESHFABRIC_QUEUE_DEFAULT, up, counters zero), and after detach keeps
 * what it had until then.  Frames arriving on the netdev are counted by
 * PORT_GET (rx_*).
 *
 * Forwarding: a frame arriving on the netdev enters the fabric at node,
 * as if node had sent it: to a node's MAC, routed there (node itself:
 * delivered to it); broadcast and multicast, delivered to node, flooded
 * to the other nodes as node's broadcasts are, and copied out of the
 * other bound ports; to a MAC learned at another port, routed to that
 * port's node and sent out of it; otherwise copied out of the other
 * bound ports.  The source MAC of each arriving unicast-sourced frame is
 * learned at the port (MESHFABRIC_PORT_MACS per port, the oldest
 * replaced; a MAC learned at another port moves).  A node's frame to a
 * MAC that is no node's: routed to the port that learned it, across the
 * links like any unicast, then out of it; not learned anywhere, copied
 * out of every bound port.  A node's broadcasts and multicasts are
 * copied out of every bound port too (counted on the port's link only,
 * not on the links to it).  Frames entering or leaving at a node whose
 * netdev is GONE are dropped.
 *
 * The netdev is put in promiscuous mode and given an rx_handler (so it
 * cannot be a bridge, bond, macvlan or ipvlan lower at the same time:
 * -EBUSY).  Detach, the netdev's unregistration (deletion, or a move to
 * another namespace) and DESTROY put it back as it was.
 */
#define MESHFABRIC_PORTS_MAX		16	/* bound ports per fabric */
#define MESHFABRIC_PORT_MACS		8	/* MACs learned per port */
#define MESHFABRIC_PORT_DETACH		(1U << 0)

/*
 * MESHFABRIC_IOC_PORT: bind port of node to the netdev ifname of the
 * namespace netns_fd names (flags 0), or unbind it (flags
 * MESHFABRIC_PORT_DETACH; netns_fd and ifname then 0).  The caller needs
 * CAP_NET_ADMIN over its own namespace, over the fabric's owner and over
 * the netdev's namespace.  -EINVAL unknown node, a port with a neighbour
 * (or the - port of a size-2 torus dimension), a port at or beyond
 * nports + MESHFABRIC_PORTS_MAX, nonzero reserved fields, a netdev that
 * is not Ethernet, a loopback, a meshfabric node or a device over one
 * (a VLAN, macvlan, bond... whose lower devices include a node: its
 * frames would come straight back into a fabric; nor, while bound, may a
 * node or such a device be linked below it, enslaved to a bound bridge or
 * bond: that link fails with -EBUSY); -ENODEV no such netdev; -EBUSY
 * port already bound, or the netdev has an rx_handler (already a port, a
 * bridge port...); -E2BIG MESHFABRIC_PORTS_MAX ports bound; -ENOENT
 * (detach) port not bound, or no such fabric; -EREMOTE node is another
 * host's (a fabric split over hosts: bind it there).
 */
struct meshfabric_port {
	__u32 id;			/* in: fabric */
	__u32 flags;			/* in: MESHFABRIC_PORT_* */
	__u32 node;			/* in */
	__u32 port;			/* in */
	__s32 netns_fd;			/* in: fd of a network namespace */
	__u32 reserved0;
	__u8 ifname[MESHFABRIC_NAME_LEN];	/* in: the netdev's name */
	__u64 reserved;
};

struct meshfabric_port_info {
	__u32 node;
	__u32 port;			/* >= nports: an extra port */
	__u32 ifindex;			/* the netdev's, in its namespace */
	__u32 netns_ino;		/* its namespace's inode number */
	__u8 ifname[MESHFABRIC_NAME_LEN];
	__u64 rx_packets;		/* frames that entered the fabric */
	__u64 rx_bytes;
	__u64 rx_dropped;		/* arrived, not forwarded */
	__u32 learned;			/* MACs learned at the port now */
	__u32 reserved;
};

/*
 * MESHFABRIC_IOC_PORT_GET: the bound ports of fabric id, by node and port,
 * into ports_ptr (count entries of room, at most MESHFABRIC_PORTS_MAX
 * written).  Out: count, the entries written; total, the ports bound.
 * A port at or past the fabric's nports is an extra port: its link is
 * the entry of LINK_GET past nlinks with the same node and port.
 */
struct meshfabric_port_get {
	__u32 id;			/* in */
	__u32 flags;			/* in: 0 */
	__u64 ports_ptr;		/* in: struct meshfabric_port_info[] */
	__u32 count;			/* in: capacity; out: written */
	__u32 total;			/* out */
	__u64 reserved;
};

/*
 * MESHFABRIC_IOC_COLLECTIVE: run a collective (docs/collectives.md) on the
 * fabric: the kernel builds the schedule with the core's closed-form
 * builders (the same as `meshfabric plan --coll`, checked by the same
 * checker), or runs one given by userspace (CALGO_USER, below), sends
 * every transfer as frames over the node netdevs, combines
 * at the receiver with integer arithmetic, and returns each node's
 * result, the kernel's comparison with the direct computation, the fabric
 * time (on timed links) and the statistics.  Needs CAP_NET_ADMIN over the
 * fabric, as BCAST; every node must be PRESENT (-ENETDOWN).
 *
 * In: coll (MESHFABRIC_COLL_*), op (MESHFABRIC_ROP_*: reductions only,
 * else 0), type (MESHFABRIC_RTYPE_*: element types; F32 and F64 are
 * refused with -EOPNOTSUPP: the kernel does no floating point, and never
 * approximates), algo (MESHFABRIC_CALGO_*; AUTO chooses by the modelled
 * fabric time on the fabric's links, else the fewest steps, as plan does),
 * root (rooted collectives: reduce, gather, scatter, broadcast; else 0),
 * count (elements of every node's vector, 1 ..), ethertype (of the
 * frames; 0 = MESHFABRIC_COLL_ETHERTYPE, else 0x0600 .. 0xffff).
 *
 * The data.  Node v's vector is elements v * count .. (v + 1) * count - 1
 * of in_ptr (element size 4 or 8 bytes, the host's byte order), or, with
 * MESHFABRIC_COLL_GENERATE (in_ptr 0), the generator's:
 *     x = (v + 1) * 0x9e3779b97f4a7c15 + j * 0xd1b54a32d192ed03 (mod 2^64)
 *     element j of node v = x (64-bit types), x >> 32 (32-bit types),
 *     read as two's complement for the signed types.
 * Every node holds the whole vector; which of its elements matter is the
 * collective's: a message of count elements is cut into the schedule's
 * nblocks blocks (block b: elements b * count / nblocks up to
 * (b + 1) * count / nblocks), and the core's sched.h defines what each
 * node starts with and ends with (allreduce: every node ends with the
 * whole reduced vector; reduce-scatter: node v with its share, elements
 * v * count / N .. (v + 1) * count / N - 1; alltoall: the vector is an
 * N x N matrix of blocks, row s node s's input, column d node d's result;
 * ...).  Out (out_ptr not 0): every node's result, nodes * count
 * elements: the elements the collective gives node v, and 0 for the
 * others.  match is 1 if every node's result equals the direct
 * computation (the reduction of all N inputs element by element in node
 * order, or the owner's input for the copy collectives), done by the
 * kernel without the schedule; digest is the FNV-1a 64 hash of the out
 * array's bytes.  nodes * count * element size is at most
 * MESHFABRIC_COLL_MAX_BYTES (-E2BIG): the kernel holds the inputs and the
 * results (charged to the caller's memory cgroup), and the payloads of
 * one step's sends, held while the step runs, at most 4 times that.
 * Fabrics of more than
 * MESHFABRIC_COLL_MAX_NODES nodes (MESHFABRIC_COLL_A2A_NODES for
 * alltoall, whose schedules hold N^2 blocks) are refused (-E2BIG).
 *
 * The frames.  Every send of the schedule is a frame from its source
 * node's MAC to its destination node's MAC, ethertype as given, with a
 * struct meshfabric_coll_hdr after the Ethernet header and the elements
 * of the blocks it carries after that (in the send's block order); a
 * send of more than MESHFABRIC_MAX_PAYLOAD payload bytes is cut into
 * frames of at most that much (hdr.offset: where a frame's payload
 * starts in its send's).  Each frame is counted on every directed link
 * of the send's path (LINK_STATS) and delivered to the destination's
 * netdev (a packet socket or tcpdump in the node's namespace sees it);
 * the receiver then combines (kind COMBINE) or copies (kind COPY) the
 * elements into its vector.  Once every step has run, each node receives
 * its result as one more frame (kind RESULT, to and from its own MAC,
 * its whole vector as out_ptr's, cut as above); delivered counts the
 * nodes whose netdev accepted it.  Frames go to the netdevs whatever
 * their MTU (as BCAST's).  Loss draws do not apply to collective frames
 * (a collective models a reliable transport); with links down the
 * collective is refused (-ENETUNREACH): its schedule is not repaired.
 *
 * Across hosts (a fabric split by TUNNEL_SET).  The caller gives every
 * node's input, so the data work (snapshots, combining, the results and
 * their check) is this host's, for every node; the frames are each
 * host's: a frame is counted on each directed link by the host of the
 * link's sending end, and delivered by the host of its destination.  A
 * frame from a node of another part goes to that part's host, which
 * sends it from there; a frame whose path reaches a node of another part
 * goes, from there, to that part's host (the Geneve flag
 * MESHFABRIC_GENEVE_F_PATH with the rest of its path in the option
 * MESHFABRIC_GENEVE_TYPE_PATH), which goes on along it, hands it on
 * where it crosses again, and delivers it at its end.  So the link
 * counters of all hosts add up to the one-host run's, and every node's
 * netdev gets its frames.  Only this host's nodes must be PRESENT;
 * delivered counts this host's nodes.  Frames carry at most
 * MESHFABRIC_COLL_SPLIT_PAYLOAD payload bytes (one datagram; a one-host
 * run cuts at MESHFABRIC_MAX_PAYLOAD: the counters are the same when no
 * send is longer), and a send's path has at most
 * MESHFABRIC_TUNNEL_PATH_HOPS hops and crosses between hosts at most as
 * many times as there are parts (-E2BIG with the reason; a receiving
 * host drops a path that would cross more, or over a link down there).
 * Nothing acknowledges a frame handed over; one that could not leave
 * (the tunnel's tx_errors) fails the call with -EHOSTUNREACH and the
 * reason, after the whole schedule ran.  Timed: the
 * fabric time is this host's model of the whole schedule; a step's
 * frames leave at its end in that time, and the other hosts deliver
 * them as they arrive (the underlay's delay is not in the model).
 *
 * Time.  On a fabric with timed links (LINK_SET), the schedule runs in
 * fabric time with the core's timing.h, synchronous, store-and-forward
 * or cut-through as the fabric switches, each send one frame of
 * MESHFABRIC_COLL_FRAME_HDR bytes plus its payload (the model `meshfabric
 * plan --coll` prints: the same figure to the nanosecond on an idle
 * fabric), after the frames already reserved on the links (a unicast
 * flow on them slows it), and its sends reserve their slots.  The call
 * runs each step's frames at that step's end in fabric time, sleeping in
 * between (killable: -EINTR), so fabric_time_ns and step_ns are the
 * model's and elapsed_ns the wall time.  A fabric time beyond
 * MESHFABRIC_HORIZON_NS is refused (-E2BIG) before anything is reserved.
 * Untimed, fabric_time_ns is 0 and the steps run at once.
 *
 * Out: algo (the one run), nblocks, steps (step_ns_ptr, if not 0, gets
 * min(steps in, steps run) entries: when each step ended, ns from the
 * start), sends, tcd, max_link_load and contention (the checker's
 * per-step link loads, as plan prints), frames and link_bytes (frames
 * counted on links, all hops, and their bytes), max_link_bytes (most
 * bytes on one directed link), fabric_time_ns, elapsed_ns, delivered,
 * match, digest.  A refused collective says why: -EOPNOTSUPP (the
 * algorithm does not build that collective on this shape, a float type)
 * and -EINVAL write one NUL-terminated line of at most why_len bytes to
 * why_ptr (if not 0).
 *
 * A schedule chosen in userspace (issue 23).  With algo
 * MESHFABRIC_CALGO_USER the kernel builds nothing: it runs the schedule
 * of sched_len bytes at sched_ptr (`meshfabric coll --algo auto` hands it
 * the one `meshfabric plan --coll` chooses, trees of the broadcast
 * searches included), after decoding it exactly and checking it with the
 * checker of every schedule it builds (the core's check.c: each send
 * carries blocks its source holds, combines only in a reduction and never
 * counts a contribution twice, paths are chains of neighbours, the port
 * model holds, and at the end every node holds what the collective
 * defines).  coll and root are the struct's; the encoding, in unsigned
 * LEB128 numbers as SCHED_LOAD's (7 bits a byte, low bits first, the high
 * bit set on all but the last byte, at most 5 bytes), is:
 *     model (MESHFABRIC_MODEL_ONE_PORT or _ALL_PORT), nblocks (1 ..),
 *     nsteps; then for each step the number of its sends (0 allowed), and
 *     for each send: its source node, its hop count h >= 1 and h bytes,
 *     the port taken at each node of its path (as SCHED_LOAD's; the
 *     destination is where the last hop ends), then 2 * runs + combine
 *     (runs >= 1; combine 1: the receiver combines every block of the
 *     send with the op, 0: it copies them), then each run's first block
 *     and length (>= 1): the send carries blocks first .. first +
 *     length - 1 of each run, in that order, all below nblocks.
 * Out: algo is MESHFABRIC_CALGO_USER; the rest as for the kernel's own.
 * Refused with -EINVAL and the reason at why_ptr: an encoding that does
 * not decode exactly (a port without a neighbour, a block past nblocks,
 * counts that do not add up, bytes left over) or a schedule the checker
 * refuses (its line, e.g. "step 2: node 1 counts node 0's block 0
 * twice"), before anything is sent or reserved.  -E2BIG: sched_len above
 * MESHFABRIC_SCHED_CODE_MAX, nodes * nblocks above
 * MESHFABRIC_COLL_USER_CELLS, more than MESHFABRIC_COLL_USER_SENDS sends
 * or MESHFABRIC_COLL_USER_BLKS blocks carried in all, or payloads adding
 * up to more than MESHFABRIC_COLL_USER_BYTES.  The encoding and the
 * decoded schedule are charged to the caller's memory cgroup.  sched_ptr
 * and sched_len are 0 with every other algo (-EINVAL).
 *
 * Versions: this is the first form of the struct (176 bytes); sched_ptr
 * and sched_len were its reserved[2], 0 in older binaries, which keeps
 * their behaviour.  A larger form will be served beside it, as BCAST_V1
 * is, and reserved fields must be 0.
 */
#define MESHFABRIC_COLL_BROADCAST	0
#define MESHFABRIC_COLL_REDUCE		1
#define MESHFABRIC_COLL_ALLREDUCE	2
#define MESHFABRIC_COLL_REDUCE_SCATTER	3
#define MESHFABRIC_COLL_ALLGATHER	4
#define MESHFABRIC_COLL_GATHER		5
#define MESHFABRIC_COLL_SCATTER		6
#define MESHFABRIC_COLL_ALLTOALL	7
#define MESHFABRIC_COLL_MAX		7

#define MESHFABRIC_ROP_SUM		0	/* wraps modulo 2^bits */
#define MESHFABRIC_ROP_MIN		1
#define MESHFABRIC_ROP_MAX		2
#define MESHFABRIC_ROP_BAND		3
#define MESHFABRIC_ROP_BOR		4
#define MESHFABRIC_ROP_BXOR		5
#define MESHFABRIC_ROP_MAX_ID		5

#define MESHFABRIC_RTYPE_S32		0
#define MESHFABRIC_RTYPE_U32		1
#define MESHFABRIC_RTYPE_S64		2
#define MESHFABRIC_RTYPE_U64		3
#define MESHFABRIC_RTYPE_F32		4	/* refused: -EOPNOTSUPP */
#define MESHFABRIC_RTYPE_F64		5	/* refused: -EOPNOTSUPP */

#define MESHFABRIC_CALGO_AUTO		0
#define MESHFABRIC_CALGO_TREE		1	/* reversed broadcast, broadcast */
#define MESHFABRIC_CALGO_RING		2
#define MESHFABRIC_CALGO_RECDBL		3	/* recursive doubling */
#define MESHFABRIC_CALGO_RABENSEIFNER	4
#define MESHFABRIC_CALGO_BUCKET		5	/* ring per dimension */
#define MESHFABRIC_CALGO_SWING		6
#define MESHFABRIC_CALGO_SWING_LAT	7
#define MESHFABRIC_CALGO_SHIFT		8	/* alltoall */
#define MESHFABRIC_CALGO_003		9	/* 003's global sum (H_n) */
#define MESHFABRIC_CALGO_MAX		9	/* the kernel's builders */
#define MESHFABRIC_CALGO_USER		10	/* the schedule at sched_ptr */

#define MESHFABRIC_COLL_GENERATE	(1U << 0)	/* inputs: the generator */

#define MESHFABRIC_COLL_ETHERTYPE	0x88b6	/* IEEE 802 local experimental 2 */
#define MESHFABRIC_COLL_MAX_BYTES	(16U << 20)	/* nodes * count * size */
#define MESHFABRIC_COLL_MAX_NODES	512
#define MESHFABRIC_COLL_A2A_NODES	64
/* CALGO_USER's bounds (the core's schedcode.h MF_COLL_CODE_*) */
#define MESHFABRIC_COLL_USER_CELLS	(1U << 18)	/* nodes * nblocks */
#define MESHFABRIC_COLL_USER_SENDS	(1U << 20)
#define MESHFABRIC_COLL_USER_BLKS	(1U << 22)	/* blocks of all sends */
#define MESHFABRIC_COLL_USER_BYTES	(16ULL * MESHFABRIC_COLL_MAX_BYTES)

/* Frame kinds (struct meshfabric_coll_hdr.kind). */
#define MESHFABRIC_COLLF_COPY		1
#define MESHFABRIC_COLLF_COMBINE	2
#define MESHFABRIC_COLLF_RESULT		3

/*
 * The header of a collective's frames, after the Ethernet header; every
 * field big endian.  seq numbers the module's COLLECTIVE calls; step is
 * the schedule's step (RESULT: the number of steps); src and dst the
 * send's nodes; first the first block it carries and nblocks how many
 * (the payload holds their elements in the schedule's order); offset the
 * bytes of the send's payload before this frame's; bytes the send's
 * payload in all.
 */
struct meshfabric_coll_hdr {
	__u8 version;			/* 1 */
	__u8 kind;			/* MESHFABRIC_COLLF_* */
	__u8 coll;			/* MESHFABRIC_COLL_* */
	__u8 op;			/* MESHFABRIC_ROP_* */
	__u8 type;			/* MESHFABRIC_RTYPE_* */
	__u8 reserved[3];
	__be32 seq;
	__be32 step;
	__be32 src;
	__be32 dst;
	__be32 first;
	__be32 nblocks;
	__be32 offset;
	__be32 bytes;
};

/* Bytes of a collective's frame before its payload (the model's). */
#define MESHFABRIC_COLL_FRAME_HDR	(14 + 40)

struct meshfabric_collective {
	__u32 id;			/* in: fabric */
	__u32 flags;			/* in: MESHFABRIC_COLL_GENERATE */
	__u32 coll;			/* in: MESHFABRIC_COLL_* */
	__u32 op;			/* in: MESHFABRIC_ROP_* */
	__u32 type;			/* in: MESHFABRIC_RTYPE_* */
	__u32 algo;			/* in: MESHFABRIC_CALGO_*; out: run */
	__u32 root;			/* in */
	__u32 count;			/* in: elements per node */
	__u32 ethertype;		/* in: 0 = MESHFABRIC_COLL_ETHERTYPE */
	__u32 steps;			/* in: step_ns capacity; out */
	__u64 in_ptr;			/* in: nodes * count elements, or 0 */
	__u64 out_ptr;			/* in: nodes * count elements, or 0 */
	__u64 step_ns_ptr;		/* in: __u64[steps] or 0 */
	__u64 why_ptr;			/* in: char[why_len] or 0 */
	__u32 why_len;			/* in */
	__u32 nblocks;			/* out */
	__u32 sends;			/* out */
	__u32 max_link_load;		/* out */
	__u64 tcd;			/* out */
	__u64 contention;		/* out */
	__u64 frames;			/* out: frames counted on links */
	__u64 link_bytes;		/* out: their bytes */
	__u64 max_link_bytes;		/* out */
	__u64 fabric_time_ns;		/* out */
	__u64 elapsed_ns;		/* out */
	__u64 digest;			/* out */
	__u32 delivered;		/* out: result frames accepted */
	__u32 match;			/* out: 1 if results are the direct ones */
	__u64 sched_ptr;		/* in: CALGO_USER: the encoding, else 0 */
	__u32 sched_len;		/* in: its bytes, else 0 */
	__u32 reserved;
};

#define MESHFABRIC_IOC_CREATE \
	_IOWR(MESHFABRIC_IOC_MAGIC, 1, struct meshfabric_create)
#define MESHFABRIC_IOC_DESTROY \
	_IOW(MESHFABRIC_IOC_MAGIC, 2, struct meshfabric_destroy)
#define MESHFABRIC_IOC_INFO \
	_IOWR(MESHFABRIC_IOC_MAGIC, 3, struct meshfabric_info)
#define MESHFABRIC_IOC_ATTACH \
	_IOWR(MESHFABRIC_IOC_MAGIC, 4, struct meshfabric_attach)
#define MESHFABRIC_IOC_ROUTE \
	_IOWR(MESHFABRIC_IOC_MAGIC, 5, struct meshfabric_route)
#define MESHFABRIC_IOC_BCAST \
	_IOWR(MESHFABRIC_IOC_MAGIC, 6, struct meshfabric_bcast)
/* BCAST of earlier releases: struct meshfabric_bcast's first 88 bytes */
#define MESHFABRIC_IOC_BCAST_V1 \
	_IOC(_IOC_READ | _IOC_WRITE, MESHFABRIC_IOC_MAGIC, 6, 88)
#define MESHFABRIC_IOC_LINK_STATS \
	_IOWR(MESHFABRIC_IOC_MAGIC, 7, struct meshfabric_link_stats)
#define MESHFABRIC_IOC_LINK_SET \
	_IOWR(MESHFABRIC_IOC_MAGIC, 8, struct meshfabric_link_set)
#define MESHFABRIC_IOC_LINK_GET \
	_IOWR(MESHFABRIC_IOC_MAGIC, 9, struct meshfabric_link_get)
#define MESHFABRIC_IOC_SCHED_LOAD \
	_IOWR(MESHFABRIC_IOC_MAGIC, 10, struct meshfabric_sched_load)
#define MESHFABRIC_IOC_COLLECTIVE \
	_IOWR(MESHFABRIC_IOC_MAGIC, 11, struct meshfabric_collective)
#define MESHFABRIC_IOC_PORT \
	_IOW(MESHFABRIC_IOC_MAGIC, 12, struct meshfabric_port)
#define MESHFABRIC_IOC_PORT_GET \
	_IOWR(MESHFABRIC_IOC_MAGIC, 13, struct meshfabric_port_get)
/* 14..17: multi-host fabrics (cut links), below */
#define MESHFABRIC_IOC_TUNNEL_SET \
	_IOWR(MESHFABRIC_IOC_MAGIC, 14, struct meshfabric_tunnel)
#define MESHFABRIC_IOC_TUNNEL_GET \
	_IOWR(MESHFABRIC_IOC_MAGIC, 15, struct meshfabric_tunnel)

/*
 * rtnetlink: IFLA_INFO_DATA of a node's netdev (link kind "meshfabric"),
 * which `ip -d link show` prints through the iproute2 plugin
 * (userspace/iproute2/link_meshfabric.c).  Filled by the kernel only: a
 * meshfabric link cannot be created or changed by rtnetlink.  Policy:
 *   FABRIC_ID    u32, 0 .. MESHFABRIC_MAX_IDS - 1
 *   FABRIC_NAME  NUL-terminated string, at most MESHFABRIC_NAME_LEN bytes
 *   NODE         u32, the node id
 *   COORDS       binary, __u32[ndims]: the node's coordinates (dimension
 *                0 first); hex: one entry, the node id
 *   KIND         u32, MESHFABRIC_KIND_*
 *   DIMS         binary, __u32[ndims]: the sizes; hex: one entry, n
 */
enum {
	IFLA_MESHFABRIC_UNSPEC,
	IFLA_MESHFABRIC_FABRIC_ID,
	IFLA_MESHFABRIC_FABRIC_NAME,
	IFLA_MESHFABRIC_NODE,
	IFLA_MESHFABRIC_COORDS,
	IFLA_MESHFABRIC_KIND,
	IFLA_MESHFABRIC_DIMS,
	__IFLA_MESHFABRIC_MAX
};

#define IFLA_MESHFABRIC_MAX	(__IFLA_MESHFABRIC_MAX - 1)

/*
 * Multi-host fabrics (docs/multihost.md).  One fabric id spread over
 * nparts hosts: every host creates the same fabric (same id, kind, dims,
 * routing) and tells its module, with TUNNEL_SET, which part it holds
 * (map: the part of every node) and where the other parts live (peers).
 * A host attaches only its own nodes (ATTACH of another part's node:
 * -EREMOTE).  A link whose ends are in two parts is a cut link: a frame
 * that reaches it is counted on it by the host that sends it over it (so
 * each directed link is counted once over all hosts: the sums of all
 * hosts' counters are the one-host figures), crosses it under its link
 * model there (rate, delay, loss, state), and then travels in one UDP
 * datagram to the peer of the part holding the node at its far end,
 * which goes on from that node as if the frame had come from the
 * neighbour.  Node broadcasts (ARP, ND) are flooded by the sender's host
 * and sent once to every other part, whose host floods them from the same
 * source over the same spanning tree: every node receives each once.
 *
 * Encapsulation: Geneve (RFC 8926), UDP port MESHFABRIC_TUNNEL_PORT
 * unless port says otherwise, protocol type 0x6558 (Ethernet), VNI 0,
 * one critical option, class MESHFABRIC_GENEVE_CLASS (0xfff0, RFC 8926's
 * range for experimental use), type MESHFABRIC_GENEVE_TYPE, 12 bytes:
 *
 *   0      fabric id
 *   1      flags: MESHFABRIC_GENEVE_F_*
 *   2      port: the port of node the frame enters by (0xff: none)
 *   3      part of the sender
 *   4..7   node, big endian: the node the frame enters (unicast, a
 *          schedule's send), the source node (a node broadcast), 0
 *          (keepalive)
 *   8..11  unicast: hops made so far; a schedule's send: its step; big
 *          endian (0xffffffff: none)
 *
 * A BCAST's send (flag MESHFABRIC_GENEVE_F_SCHED) carries a second
 * critical option, same class, type MESHFABRIC_GENEVE_TYPE_SCHED, 16
 * bytes, big endian (Geneve options length 9 words, the overhead 20
 * bytes more):
 *
 *   0..3   the BCAST's source node
 *   4..7   the send's index within its step
 *   8..11  hop: the index in the send's path of the node the frame
 *          enters (the links before it were counted by other hosts)
 *   12     the algorithm asked for (MESHFABRIC_ALGO_*, AUTO allowed;
 *          on timed links the one AUTO chose)
 *   13     flags: MESHFABRIC_GENEVE_SF_ASYNC (timed only)
 *   14..15 0
 *
 * On timed links a third critical option follows, same class, type
 * MESHFABRIC_GENEVE_TYPE_TIME, 16 bytes, big endian (options length 14
 * words): fabric times in ns from the broadcast's start, each at most
 * MESHFABRIC_HORIZON_NS:
 *
 *   0..7   when the datagram left (the sending host's fabric time)
 *   8..15  when the send's frame reaches its destination, in the
 *          sending host's model
 *
 * and the BCAST frame.  (A collective's frame, flag
 * MESHFABRIC_GENEVE_F_PATH, has instead: port 0xff if it starts at node,
 * a node of the receiving host (a send from that node, or its result:
 * the frame's source MAC is node's), else the port it enters node by;
 * bytes 8..11 the hops left, h, at most MESHFABRIC_TUNNEL_PATH_HOPS;
 * then a critical option, same class, type MESHFABRIC_GENEVE_TYPE_PATH,
 * of ceil(h / 8) words: the port taken at each node from node on, 4 bits
 * each, the first in the high bits of the first byte, unused bits 0
 * (options length 5 + ceil(h / 8) words); then the frame, whose
 * destination MAC is the node where the path ends.)  For a BCAST's
 * send, the receiving host builds the same schedule
 * (cached as BCAST caches it), checks that the send's path enters this
 * node by this port from the sender's part at that hop, finishes the
 * send and runs the later sends of the nodes it informs, at most one
 * schedule's sends per datagram (queued, bounded as node broadcasts).
 *
 * Overhead per frame: MESHFABRIC_TUNNEL_OVERHEAD4 (IPv4 underlay) or
 * MESHFABRIC_TUNNEL_OVERHEAD6 bytes.  MTU: TUNNEL_SET looks up the route
 * to every peer and sets the nodes' MTU (and their maximum) to the
 * smallest path MTU minus the overhead (out: mtu); below 1280 (IPv6's
 * minimum) it refuses with -EMSGSIZE.  A 1500-byte underlay gives
 * nodes 1434 bytes (IPv4) or 1414 (IPv6).
 */
#define MESHFABRIC_TUNNEL_PORT		6081	/* Geneve's IANA port */
#define MESHFABRIC_TUNNEL_MAX_PARTS	64
#define MESHFABRIC_TUNNEL_MIN_MTU	1280
#define MESHFABRIC_TUNNEL_OVERHEAD4	66	/* IPv4 20, UDP 8, Geneve 24,
						 * Ethernet 14
						 */
#define MESHFABRIC_TUNNEL_OVERHEAD6	86	/* IPv6 40 instead */
#define MESHFABRIC_GENEVE_CLASS		0xfff0
#define MESHFABRIC_GENEVE_TYPE		0xed	/* critical (0x80), 'm' */
#define MESHFABRIC_GENEVE_F_BCAST	(1U << 0)	/* a node broadcast */
#define MESHFABRIC_GENEVE_F_KEEPALIVE	(1U << 1)	/* an Ethernet header
							 * alone: broadcast
							 * to, 02:6d:ID:ff:
							 * ff:PART from,
							 * type 0x88b5
							 */
#define MESHFABRIC_GENEVE_F_SCHED	(1U << 2)	/* a BCAST's send */
#define MESHFABRIC_GENEVE_TYPE_SCHED	0xee	/* critical, its option */
#define MESHFABRIC_GENEVE_TYPE_TIME	0xef	/* critical: timed links */
#define MESHFABRIC_GENEVE_F_PATH	(1U << 3)	/* a collective's frame
							 * on its path
							 */
#define MESHFABRIC_GENEVE_TYPE_PATH	0xf0	/* critical, its option */
#define MESHFABRIC_TUNNEL_PATH_HOPS	248	/* 4 bits a hop, 31 words:
						 * an option's length is
						 * 5 bits
						 */
#define MESHFABRIC_COLL_SPLIT_PAYLOAD	64512	/* a frame's payload, split */
#define MESHFABRIC_GENEVE_SF_ASYNC	(1U << 0)	/* BCAST_ASYNC's model */

/* flags */
#define MESHFABRIC_TUNNEL_IPV6		(1U << 0)	/* peers are IPv6 */

/* The peer of one part: its address (IPv4: the first 4 bytes, the rest
 * zero).  The caller's own part's entry is not used.
 */
struct meshfabric_tunnel_peer {
	__u8 addr[16];
};

/*
 * MESHFABRIC_IOC_TUNNEL_SET: make fabric id the part numbered part of nparts (2 ..
 * MESHFABRIC_TUNNEL_MAX_PARTS), before any node is attached (-EBUSY
 * after, or if the fabric already has a tunnel).  map_ptr: __u8[nodes],
 * the part of each node (nodes must be the fabric's; every part must
 * hold a node); peers_ptr: struct meshfabric_tunnel_peer[nparts].  The
 * module opens a UDP socket on port (0: MESHFABRIC_TUNNEL_PORT) in the
 * caller's network namespace, bound to any address of its family
 * (-EADDRINUSE if another fabric or program holds it; a peer without a
 * route from there: -ENETUNREACH, -EHOSTUNREACH or -EADDRNOTAVAIL, as
 * the route lookup says; -EOPNOTSUPP on a kernel without
 * CONFIG_NET_UDP_TUNNEL).  A datagram is taken only from the address
 * of the peer of the part it names (refused, counted in rx_errors,
 * otherwise): each peer entry must be the address that host sends from
 * (its route's source towards this one).  This stops no one who can
 * forge source addresses on the underlay: it is no authentication, the
 * underlay must be trusted.  keepalive_ms
 * (0: none; else 100 .. 60000): every host sends each peer a keepalive
 * that often; a part not heard from for 3 intervals has its cut links
 * set down on this host (routes go around them where they can), and
 * up again when it is heard.  The socket is released when the fabric is
 * destroyed.  Out: mtu.
 *
 * MESHFABRIC_IOC_TUNNEL_GET: id in; the rest out (map_ptr and peers_ptr,
 * if not 0, get the tables); -ENODATA if the fabric has no tunnel.
 * Counters: frames and bytes sent and received (the inner frames), frames
 * received that were refused (bad header, fabric, node), frames that
 * could not be sent (no route, too big, full), and the parts heard from
 * within the last 3 keepalive intervals (bit per part).
 */
struct meshfabric_tunnel {
	__u32 id;
	__u32 flags;			/* MESHFABRIC_TUNNEL_* */
	__u32 part;
	__u32 nparts;
	__u32 nodes;			/* entries at map_ptr */
	__u32 port;			/* UDP port; 0: the default */
	__u64 map_ptr;			/* __u8[nodes] */
	__u64 peers_ptr;		/* struct meshfabric_tunnel_peer[] */
	__u32 keepalive_ms;
	__u32 mtu;			/* out: the nodes' MTU */
	__u64 tx_frames;		/* out (GET) */
	__u64 tx_bytes;
	__u64 rx_frames;
	__u64 rx_bytes;
	__u64 rx_errors;
	__u64 tx_errors;
	__u64 alive;			/* parts heard from, bit per part */
	__u64 reserved;
};

#endif /* _UAPI_LINUX_MESHFABRIC_H */
