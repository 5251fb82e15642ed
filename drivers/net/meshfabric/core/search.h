/* SPDX-License-Identifier: GPL-2.0 */
/* Schedule searches of the tool (never compiled into the module: the
 * kernel only checks and runs the schedules users load).  See
 * docs/wormhole.md ("search").
 */
#ifndef MF_SEARCH_H
#define MF_SEARCH_H

#include "sched.h"

/* How hard the tool's all-port searches try (plan --effort): wormhole
 * multiplies its search budgets (the flow search's, the local search's
 * and the chains') by it, and mf_search_allport its restarts.  1 (the
 * default) .. MF_SEARCH_EFFORT_MAX.  Set once, before planning; the
 * schedules stay deterministic for a given effort.
 */
#define MF_SEARCH_EFFORT_MAX	1000U
extern u32 mf_search_effort;

/* A local search that comes within this many nodes of finishing (and
 * within 1 in 128 of all the nodes) gets four times its budget (search.c,
 * srch_ls_within); 0 turns that off, and the second extension with it
 * (the tests, to show what it adds).
 */
extern u32 mf_search_near;

/* One that comes within this many nodes after those four times gets four
 * times that again (search.c, srch_ls_within); 0 turns the second
 * extension off (the tests, to show what it adds).
 */
extern u32 mf_search_last;

/* Half the local search's swaps move the earlier node nearest to the one
 * it swaps with (search.c, srch_nearest); 0 turns that off, and the search
 * runs the course it ran before (the tests, to show what it adds).
 */
extern u32 mf_search_nearest;

/* The local search's starts take a step's nodes by their free links,
 * what each adds to the links out of the informed set (search.c,
 * srch_key); 0 by their links alone, as before (the tests, to show what
 * it adds).
 */
extern u32 mf_search_free_links;

/* All-port search: a broadcast from source in at most `steps` steps on a
 * mesh or torus, each step a maximum set of link-disjoint paths from the
 * informed nodes to new nodes (a gammoid basis: augmenting paths), the
 * new nodes chosen farthest first from what is informed, ties broken by a
 * seeded generator; up to 256 (tori) or 32 (meshes) x mf_search_effort
 * restarts until found or `work` (about the number of link visits) runs
 * out.  If none is found, a local search over the steps' new sets
 * (search.c, srch_local) within `local` link visits more (0: none; 4
 * and 16 times that near a finish: mf_search_near, mf_search_last), its
 * generator seeded by seed.  0 and s filled (init done here, ended);
 * -ESRCH if none found within the work; -ENOMEM.  Deterministic for a
 * given (topology, source, steps, work, local, seed, mf_search_effort).
 */
int mf_search_allport(const struct mf_topo *t, u32 source, u32 steps,
		      u64 work, u64 local, u32 seed, struct mf_sched *s);

/* The all-port schedule whose step k (1..steps) informs exactly the nodes
 * of level k (lvl[v], one per node; 0 only at source), each step's sends
 * split from a maximum flow of the informed nodes to the step's nodes
 * (search.c).  0 and s filled (init done here, ended); -ESRCH if a step's
 * flow cannot reach all of its nodes; -EINVAL for levels out of range
 * or a source not alone at level 0; -ENOMEM.
 */
int mf_search_levels(const struct mf_topo *t, u32 source, u32 steps,
		     const u8 *lvl, struct mf_sched *s);

/* All-port broadcast along the long axis of a fabric with a small
 * cross-section (search_columns.c): the 4-cycle's, tori 2x2xL (any order
 * of the sides) and 4xL and meshes 2x2xL, and meshes 2x3xL, 2x4xL and
 * 3x3xL, from any node.  The last step's senders are a fixed pattern that
 * repeats along the axis (the 4-cycle's: one node in most columns), and
 * each earlier step's one in every 5 (2x3, 2x4: 6; 3x3: 7) of the next
 * one's along the axis; mf_search_levels builds the sends.  0 and s
 * filled; -ESRCH where the pattern does not fit `steps` or the fabric,
 * or a step's flow falls short (on the 4-cycle's layouts, never on the
 * shapes tested; a pattern's are tried at each phase and mirrored, up
 * to 24 of them on the flows); -EINVAL on other shapes or sources;
 * -ENOMEM.  Deterministic, and cheap: a few maximum flows each try.
 * mf_search_columns_on = 0 turns its use by wormhole off (the tests, to
 * show what the other searches reach alone).
 */
int mf_search_columns(const struct mf_topo *t, u32 source, u32 steps,
		      struct mf_sched *s);
extern u32 mf_search_columns_on;

/* All-port broadcast on a torus (any d) from a chain of subgroups
 * (search_lattice.c): in exactly `steps` steps, each informed node's
 * sends translates of a few walks, contention free by construction.
 * Searched over every chain whose indices are at most a node's links + 1,
 * within `work` (about the arcs visited).  0 and s filled (init done
 * here, ended); -ESRCH if none found; -EINVAL for other kinds, a bad
 * source or step count (0, or MF_LATTICE_MAXSTEPS and more); -ENOMEM.
 * Deterministic.
 */
#define MF_LATTICE_MAXSTEPS	32	/* steps below this */
int mf_search_lattice(const struct mf_topo *t, u32 source, u32 steps,
		      u64 work, struct mf_sched *s);

/* One-port search: a broadcast from source in `steps` steps of least
 * TCD found by seeded restarts of a step-by-step construction (search.c:
 * a maximum matching to new neighbours, then multi-hop sends over free
 * links to the nearest new nodes while the step informs too few to finish
 * in time), until the TCD is N - 1 or `work` runs out.  Every step is
 * contention free.  0 and s filled (the least TCD found), -ESRCH if no run
 * finished in `steps`, -ENOMEM.  Deterministic.
 */
int mf_search_oneport(const struct mf_topo *t, u32 source, u32 steps,
		      u64 work, struct mf_sched *s);

/* A schedule's TCD: the sum of its sends' path lengths. */
u64 mf_search_tcd(const struct mf_sched *s);

/* One-port search over interval orders (search_order.c): snake and band
 * orders of the whole fabric for every order of the axes (up to 4-D), intervals
 * cut in two at any rank that fits the budget (near halves beyond 64
 * ranks), each send costed by its distance in the fabric and then routed
 * over the links its step leaves free; every automorphism of the fabric
 * (axes of equal side, reflections, torus translations) applied to each
 * order.  The schedule of least TCD found for source in `steps` steps
 * (ceil(log2 N) or more), contention free.  0 and s filled, -ESRCH if no
 * read-off schedule could be routed, -EINVAL above MF_SEARCH_ORDER_NODES
 * nodes or on other kinds, -ENOMEM.  Deterministic.
 */
#define MF_SEARCH_ORDER_NODES	256U
int mf_search_order(const struct mf_topo *t, u32 source, u32 steps,
		    struct mf_sched *s);

#endif /* MF_SEARCH_H */
