/* SPDX-License-Identifier: GPL-2.0 */
/* Fabric topologies: node ids, coordinates, ports, neighbours,
 * distances.
 *
 * Mesh and torus: d dimensions (1..8), size >= 2 in each.  The node
 * number is x0 + n0 * (x1 + n1 * (x2 + ...)).
 * Port p of a mesh/torus node: dimension p / 2, direction + (p even) or
 * - (p odd).  A mesh border port has no neighbour.  In a torus dimension
 * of size 2 both ports lead to the same neighbour; the pair is then one
 * link and mf_topo_port() names it by the + port.
 *
 * Hex: the C-wrapped hexagonal mesh H_n of 003 (n >= 2), p = 3n^2-3n+1
 * nodes, node id = the paper's single-number address.  dims[0] = n,
 * ndims = 1.  Node i is adjacent to i+1, i-1, i+(3n-1), i-(3n-1),
 * i+(3n-2), i-(3n-2) (mod p) (003, after Theorem 1): ports 0..5 in that
 * order.
 *
 * All functions are pure; a topology is a small value type.
 */
#ifndef MF_TOPO_H
#define MF_TOPO_H

#include "mf_compat.h"
#include <linux/meshfabric.h>

#define MF_MAX_DIMS	MESHFABRIC_MAX_DIMS
#define MF_MAX_NODES	((u32)BIT(26))	/* core limit; the module's is lower */
#define MF_HEX_PORTS	6

struct mf_topo {
	u32 kind;		/* MESHFABRIC_KIND_* */
	u32 ndims;		/* hex: 1 */
	u32 dims[MF_MAX_DIMS];	/* hex: dims[0] = n */
	u32 stride[MF_MAX_DIMS];	/* mesh/torus: id stride of each dim */
	u32 nodes;
	u32 nports;		/* 2 * ndims, or 6 for hex */
};

/* Fill *t.  -EINVAL for a bad kind, ndims or size; -E2BIG above MF_MAX_NODES. */
int mf_topo_init(struct mf_topo *t, u32 kind, u32 ndims, const u32 *dims);

/* Mesh/torus coordinates of id (ndims entries).  Hex: c[0] = id. */
void mf_topo_coords(const struct mf_topo *t, u32 id, u32 *c);
/* Inverse of mf_topo_coords; coordinates must be in range. */
u32 mf_topo_id(const struct mf_topo *t, const u32 *c);

/* Neighbour of id through port, or -ENOENT (mesh border / bad port). */
s64 mf_topo_neighbor(const struct mf_topo *t, u32 id, u32 port);
/* Port of a that leads to b, or -EINVAL if they are not adjacent. */
int mf_topo_port(const struct mf_topo *t, u32 a, u32 b);
/* True if port of a is a directed link of its own: it has a neighbour
 * and is the port mf_topo_port() names for it (not the - port of a size-2
 * torus dimension, whose link is the + port's).
 */
bool mf_topo_is_link(const struct mf_topo *t, u32 a, u32 port);
/* Number of links of node a (its ports that are links of their own). */
u32 mf_topo_degree(const struct mf_topo *t, u32 a);
/* Number of the directed link (a, port): a * nports + port. */
static inline u64 mf_topo_link(const struct mf_topo *t, u32 a, u32 port)
{
	return (u64)a * t->nports + port;
}

/* Shortest-path distance in hops. */
u32 mf_topo_distance(const struct mf_topo *t, u32 a, u32 b);
u32 mf_topo_diameter(const struct mf_topo *t);

/* Signed shortest offset from a to b along dimension dim (mesh: b - a;
 * torus: in (-n/2, n/2], ties towards +).  Mesh/torus only.
 */
s32 mf_topo_delta(const struct mf_topo *t, u32 a, u32 b, u32 dim);

/* Translation: the node at coordinates (id + off) (torus and hex only). */
u32 mf_topo_add(const struct mf_topo *t, u32 id, u32 off);
/* The offset off with mf_topo_add(t, a, off) == b (torus and hex only). */
u32 mf_topo_sub(const struct mf_topo *t, u32 b, u32 a);

/* The name of port as users see it (meshfabric stats, ethtool -S): x+,
 * y-, z+ for up to 3 dimensions, d4+ beyond, +1, -1, +(3n-1), ... on
 * H_n.  At most 12 bytes with the NUL.
 */
void mf_topo_port_name(const struct mf_topo *t, u32 port, char *buf,
		       size_t len);

/* "mesh", "torus", "hex". */
const char *mf_topo_kind_name(u32 kind);

/* Distance in H_n, provided by route_hex.c (algorithm A1). */
u32 mf_hex_distance(u32 n, u32 a, u32 b);

#endif /* MF_TOPO_H */
