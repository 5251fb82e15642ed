/* SPDX-License-Identifier: GPL-2.0 */
/*
 * partition.h - a fabric cut into parts for several hosts
 * (docs/multihost.md, "Partitioning"): meshes and tori in slabs along
 * one dimension.
 */
#ifndef MF_PARTITION_H
#define MF_PARTITION_H

#include "topo.h"

/* Links (undirected) a cut of t into nparts slabs along dim crosses:
 * (nparts - 1) cuts of a mesh, nparts of a torus (its wrap-around: one
 * cut when nparts is 2 and the dimension's size is 2, whose two links
 * are one), each crossing nodes / dims[dim] links.  0 if dim cannot be
 * cut in nparts (fewer nodes along it than parts).
 */
u64 mf_partition_slab_cut(const struct mf_topo *t, u32 dim, u32 nparts);
/* The dimension whose cut into nparts slabs crosses the fewest links
 * (the lowest such), or -1 if none can be (hex, or too few nodes along
 * every dimension).
 */
int mf_partition_best_dim(const struct mf_topo *t, u32 nparts);
/* part[node] for the slabs along dim: part p holds the coordinates c
 * with floor(c * nparts / dims[dim]) = p (sizes differing by at most 1).
 */
void mf_partition_slabs(const struct mf_topo *t, u32 dim, u32 nparts,
			u8 *part);
/* Undirected links whose ends are in different parts (by their links). */
u64 mf_partition_count_cut(const struct mf_topo *t, const u8 *part);

#endif /* MF_PARTITION_H */
