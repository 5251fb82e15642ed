// SPDX-License-Identifier: GPL-2.0
/*
 * partition.c - slabs of meshes and tori for multi-host fabrics
 * (partition.h).  The cut's size is a closed form; the tool prints it and
 * the unit test (test_partition.c) checks it against a count by brute
 * force over every link.
 */
#include "partition.h"

u64 mf_partition_slab_cut(const struct mf_topo *t, u32 dim, u32 nparts)
{
	u64 cuts;

	if (t->kind == MESHFABRIC_KIND_HEX || dim >= t->ndims ||
	    nparts < 2 || t->dims[dim] < nparts)
		return 0;
	cuts = nparts - 1;
	/* the wrap-around link, unless it is the + link already counted
	 * (a size-2 dimension: one link between its two nodes)
	 */
	if (t->kind == MESHFABRIC_KIND_TORUS && t->dims[dim] > 2)
		cuts++;
	return cuts * (t->nodes / t->dims[dim]);
}

int mf_partition_best_dim(const struct mf_topo *t, u32 nparts)
{
	u64 best = 0, c;
	int dim = -1;
	u32 d;

	for (d = 0; d < t->ndims; d++) {
		c = mf_partition_slab_cut(t, d, nparts);
		if (c && (dim < 0 || c < best)) {
			best = c;
			dim = d;
		}
	}
	return dim;
}

void mf_partition_slabs(const struct mf_topo *t, u32 dim, u32 nparts,
			u8 *part)
{
	u32 c[MF_MAX_DIMS], id;

	for (id = 0; id < t->nodes; id++) {
		mf_topo_coords(t, id, c);
		part[id] = (u8)((u64)c[dim] * nparts / t->dims[dim]);
	}
}

u64 mf_partition_count_cut(const struct mf_topo *t, const u8 *part)
{
	u64 n = 0;
	u32 id, p;
	s64 nb;

	for (id = 0; id < t->nodes; id++)
		for (p = 0; p < t->nports; p++) {
			if (!mf_topo_is_link(t, id, p))
				continue;
			nb = mf_topo_neighbor(t, id, p);
			if (nb >= 0 && part[nb] != part[id])
				n++;
		}
	return n / 2;	/* each link from both ends */
}
