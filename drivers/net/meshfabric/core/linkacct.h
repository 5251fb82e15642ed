/* SPDX-License-Identifier: GPL-2.0 */
/* Per-step directed-link load accounting, shared by the
 * schedule checker and the kernel's broadcast executor so that both count
 * step contention the same way.
 *
 * Step contention: within one step, a directed link carrying k >= 2 sends
 * adds k - 1 to the contention count.  max_load is the largest k seen.
 * O(1) per hop; steps are separated by a stamp, never by clearing.
 */
#ifndef MF_LINKACCT_H
#define MF_LINKACCT_H

#include "topo.h"

struct mf_linkacct {
	u64 nlinks;
	u32 *stamp;		/* step + 1 in which load[] was last written */
	u32 *load;
	u32 cur;		/* current step + 1 */
	u32 max_load;
	u64 contention;
};

int mf_linkacct_init(struct mf_linkacct *a, const struct mf_topo *t);
static inline void mf_linkacct_step(struct mf_linkacct *a)
{
	a->cur++;
}

/* Account one hop on link; returns the link's load in this step. */
static inline u32 mf_linkacct_hop(struct mf_linkacct *a, u64 link)
{
	u32 l;

	if (a->stamp[link] != a->cur) {
		a->stamp[link] = a->cur;
		a->load[link] = 0;
	}
	l = ++a->load[link];
	if (l > 1)
		a->contention++;
	if (l > a->max_load)
		a->max_load = l;
	return l;
}

void mf_linkacct_free(struct mf_linkacct *a);

#endif /* MF_LINKACCT_H */
