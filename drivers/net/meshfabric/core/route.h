/* SPDX-License-Identifier: GPL-2.0 */
/* Routing functions: the next hop from a current node towards a
 * destination.  Every routing here is deterministic, uses shortest paths
 * only, and decides from (current, destination) alone, so the paths to one
 * destination form a tree (004 section 2) and, on tori and H_n, depend
 * only on the offset destination - current (homogeneous routing): one
 * table of N next ports serves every node.
 *
 *   MESHFABRIC_ROUTE_DOR       dimension order, lowest dimension first
 *                              (004 Definition 3; any fixed order has the
 *                              same Delta, Theorem 4), mesh and torus
 *   MESHFABRIC_ROUTE_DIAGONAL  004 Definition 4, torus (and mesh)
 *   MESHFABRIC_ROUTE_A1        003 algorithm A1, hex only
 *   MESHFABRIC_ROUTE_CDO       cyclic dimension order of 002, mesh/torus
 *   MESHFABRIC_ROUTE_DEFAULT   DOR for mesh/torus, A1 for hex
 */
#ifndef MF_ROUTE_H
#define MF_ROUTE_H

#include "topo.h"

/* -EINVAL if routing is unknown or not defined on t's kind, else 0. */
int mf_route_valid(const struct mf_topo *t, u32 routing);
/* Resolve MESHFABRIC_ROUTE_DEFAULT for t. */
u32 mf_route_resolve(const struct mf_topo *t, u32 routing);

/* Port of cur to forward on towards dst; -ENOENT if cur == dst. */
int mf_route_next(const struct mf_topo *t, u32 routing, u32 cur, u32 dst);

/* Write the path src .. dst (at most max entries) into path; returns its
 * length in hops, -ERANGE if max is too small, -EINVAL on bad input.
 */
int mf_route_path(const struct mf_topo *t, u32 routing, u32 src, u32 dst,
		  u32 *path, u32 max);

/* "dor", "diagonal", "a1", "cdo"; NULL if unknown. */
const char *mf_route_name(u32 routing);
/* MESHFABRIC_ROUTE_* of a name, or -EINVAL. */
int mf_route_by_name(const char *name);

/* Hexagonal routing (route_hex.c): A1's (m_x, m_y, m_z) from a to b. */
void mf_hex_route_vector(u32 n, u32 a, u32 b, s32 *mx, s32 *my, s32 *mz);

/* Delta(R) of 004 Definition 1 for a homogeneous routing on a torus: the
 * largest difference between the sizes of the subtrees S_i of the
 * communication graph G_0 (rooted at the children of node 0).  size[p]
 * receives the size of the subtree behind port p of node 0 (nports
 * entries; 0 where no subtree hangs).  analyze.c.
 */
int mf_route_delta(const struct mf_topo *t, u32 routing, u64 *delta,
		   u64 *size);

/* The vertex connectivity (the fewest nodes whose removal disconnects t,
 * nodes - 1 for a complete graph) and edge connectivity (the fewest
 * links) of t, by max-flow (analyze.c).  O(kappa * N) max-flows of at
 * most nports + 1 searches each: an offline tool for small fabrics,
 * -E2BIG above 4096 nodes, -ENOMEM.
 */
int mf_topo_connectivity(const struct mf_topo *t, u32 *vertex, u32 *edge);

/* Per-algorithm next-hop functions behind mf_route_next (one file each). */
int mf_route_dor_next(const struct mf_topo *t, u32 cur, u32 dst);
int mf_route_diagonal_next(const struct mf_topo *t, u32 cur, u32 dst);
int mf_route_cdo_next(const struct mf_topo *t, u32 cur, u32 dst);
int mf_hex_route_next(u32 n, u32 cur, u32 dst);
#endif /* MF_ROUTE_H */
