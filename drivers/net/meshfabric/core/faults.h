/* SPDX-License-Identifier: GPL-2.0 */
/* Faults: a set of down links, routing around them, and broadcast
 * schedules repaired around them (issue 12; design in docs/faults.md).
 *
 * A fault set holds down links.  A link is down in both directions: adding
 * (a, port) marks the directed links a -> b and b -> a, each under the
 * port mf_topo_port() names (so the - port of a size-2 torus dimension is
 * the + port's link).  A down node is all its links.
 *
 * Fault routing (struct mf_froute) is the configured routing's next-hop
 * function plus, per fault set, a sorted table of exceptions (dst, node,
 * port) only where the default path from node to dst crosses a down link
 * and the default next hop no longer lies on a shortest path of the
 * surviving graph.  Without faults the table is empty and every hop is
 * mf_route_next()'s.  With faults every path is a shortest path of the
 * surviving graph, and where the routing's own path survives it is kept.
 * Memory: 8 bytes per exception, at most one exception per (node, dst)
 * pair whose default path crosses a fault; no N^2 table.
 */
#ifndef MF_FAULTS_H
#define MF_FAULTS_H

#include "sched.h"

/* Most down directed links in one set (512 links, both directions). */
#define MF_FAULTS_MAX		1024
/* Most exceptions of one fault routing, 8 bytes each: 4 MiB, the kernel's
 * bound (docs/faults.md: a 64x64 torus with 10 failed links needs about
 * 30000).
 */
#define MF_FROUTE_MAX_EXC	((u32)BIT(19))

struct mf_faults {
	u32 n;			/* down directed links */
	u32 cap;
	u64 *link;		/* sorted mf_topo_link() numbers */
	u32 ndown_nodes;	/* nodes given down with mf_faults_add_node */
};

void mf_faults_init(struct mf_faults *f);
void mf_faults_free(struct mf_faults *f);
/* Mark the link of node through port down (both directions).  -EINVAL bad
 * node or port, -ENOENT no link there (mesh border), -E2BIG above
 * MF_FAULTS_MAX, -ENOMEM.  Adding a down link again changes nothing.
 */
int mf_faults_add_link(struct mf_faults *f, const struct mf_topo *t,
		       u32 node, u32 port);
/* Mark every link of node down. */
int mf_faults_add_node(struct mf_faults *f, const struct mf_topo *t,
		       u32 node);
/* True if the link leaving a through port is down (f may be NULL). */
bool mf_faults_down(const struct mf_faults *f, const struct mf_topo *t,
		    u32 a, u32 port);

/* Routing around a fault set. */
struct mf_froute {
	struct mf_topo t;
	u32 routing;		/* resolved MESHFABRIC_ROUTE_* */
	const struct mf_faults *f;	/* the caller's, kept while r is used */
	u64 *exc;		/* sorted ((dst * nodes + node) << 5) | port */
	u32 *idx;		/* per destination: exc[idx[d] .. idx[d + 1]) */
	u32 nexc;		/* exceptions */
	u32 ndst;		/* destinations with at least one */
	u32 unreachable;	/* of them, (node, dst) pairs with no path */
	u64 work;		/* mf_froute_work() of f when built */
};

/* Bounds and scheduling of one build (the kernel's; NULL: none). */
struct mf_froute_ctl {
	/* refuse (-E2BIG) before any work a set whose mf_froute_work()
	 * exceeds this (0: no bound)
	 */
	u64 max_work;
	/* called between bounded pieces of work (at most a destination, or
	 * about 1024 iterations of a loop over the nodes, apart; faults.c's
	 * fstop()); a non-zero return stops the build with it
	 * (the kernel: cond_resched(), -EINTR on a fatal signal)
	 */
	int (*yield)(void *arg);
	void *arg;
};

/* An upper bound on the work of building the routing around f, computed
 * before it in O(|f| + N) on tori and H_n: per down directed link, the
 * (node, dst) pairs whose default path uses it (which bounds the nodes the
 * build visits: every node of U(dst) is such a pair for some link), plus
 * the destinations it affects.  On tori and H_n a link's pairs depend
 * only on its port (the routing is translation invariant); on meshes the
 * bound counts, per destination the link affects, the nodes from which a
 * shortest path to it may pass through the link's tail (a box).
 * Returns it, or a value above limit (not exact) once it exceeds limit
 * (limit 0: none); U64_MAX on -ENOMEM or a bad routing.
 */
u64 mf_froute_work(const struct mf_topo *t, u32 routing,
		   const struct mf_faults *f, u64 limit,
		   const struct mf_froute_ctl *ctl);

/* Build the exceptions of routing (MESHFABRIC_ROUTE_*, default resolved)
 * around f (NULL or empty: none) on t.  -EINVAL bad routing, -E2BIG above
 * MF_FROUTE_MAX_EXC exceptions, -ENOMEM.  Free with mf_froute_free
 * whatever the result.  Work: O(deg) per (node, dst) pair whose default
 * path crosses a fault, plus the destinations each fault affects (found
 * from per-port tables on tori and H_n, O(N) per fault on meshes).
 */
int mf_froute_build(struct mf_froute *r, const struct mf_topo *t,
		    u32 routing, const struct mf_faults *f);
/* mf_froute_build() bounded and scheduled by ctl (NULL: as it): -E2BIG
 * before any work if mf_froute_work() exceeds ctl->max_work, ctl->yield's
 * error if it stops the build (nothing is left: free r as always).
 */
int mf_froute_build_ctl(struct mf_froute *r, const struct mf_topo *t,
			u32 routing, const struct mf_faults *f,
			const struct mf_froute_ctl *ctl);
void mf_froute_free(struct mf_froute *r);
/* Port of cur towards dst; -ENOENT if cur == dst, -EHOSTUNREACH if dst
 * cannot be reached from cur, -EINVAL bad node.  O(log e) for the e
 * exceptions of dst (the per-destination index), O(1) for a destination
 * without any.
 */
int mf_froute_next(const struct mf_froute *r, u32 cur, u32 dst);
/* The data path's lookup (one frame's walk, O(1) loads per hop where dst
 * has no exception): the exceptions towards one destination, found once
 * per frame, then searched per hop within that range only (at most
 * log2(MF_FROUTE_MAX_EXC) steps; none for a node outside the span of
 * their nodes).  Where a node has no exception the routing's own next
 * hop applies (the caller's table walk).
 */
struct mf_froute_dst {
	u64 base;		/* dst * nodes */
	u32 lo, hi;		/* exc[lo..hi): dst's exceptions */
	u32 first, last;	/* their nodes span first..last (if any) */
};

void mf_froute_dst(const struct mf_froute *r, u32 dst,
		   struct mf_froute_dst *d);
/* The exception of cur in d: its port, -EHOSTUNREACH (dst cannot be
 * reached from cur), or -ENOENT (none: the routing's own next hop).
 */
int mf_froute_exc(const struct mf_froute *r, const struct mf_froute_dst *d,
		  u32 cur);

/* The path src .. dst as mf_route_path(); -EHOSTUNREACH if none. */
int mf_froute_path(const struct mf_froute *r, u32 src, u32 dst, u32 *path,
		   u32 max);
/* Bytes of routing state besides the fault-free table. */
static inline u64 mf_froute_bytes(const struct mf_froute *r)
{
	return (u64)r->nexc * sizeof(*r->exc) + sizeof(*r) +
	       (r->idx ? ((u64)r->t.nodes + 1) * sizeof(*r->idx) : 0);
}

/* What mf_sched_repair() did. */
struct mf_repair {
	u32 unreachable;	/* nodes the source cannot reach */
	u32 rerouted;		/* sends kept in their step on a new path */
	u32 moved;		/* destinations served by another send */
};

/* Repair a valid fault-free schedule in around the faults of r: sends over
 * a down link are rerouted along surviving shortest paths in their step
 * where the port model allows; destinations whose sender is not informed
 * in time (or whose port is taken) are served by an idle informed node in
 * the same or a later step (extra steps at the end as needed).  Every node
 * the source reaches is informed exactly once; the others are counted in
 * rep->unreachable.  out need not be initialised; free it with
 * mf_sched_free whatever the result.  -ENOMEM, -EPROTO (no progress: a
 * bug).
 */
int mf_sched_repair(const struct mf_froute *r, const struct mf_sched *in,
		    struct mf_sched *out, struct mf_repair *rep);
/* mf_sched_repair() with ctl's yield (ctl->max_work unused; NULL: none)
 * between steps: its error stops the repair and is returned.
 */
int mf_sched_repair_ctl(const struct mf_froute *r, const struct mf_sched *in,
			struct mf_sched *out, struct mf_repair *rep,
			const struct mf_froute_ctl *ctl);

#endif /* MF_FAULTS_H */
