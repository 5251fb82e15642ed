// SPDX-License-Identifier: GPL-2.0
/* Per-step link load accounting (contract in linkacct.h).
 */
#include "linkacct.h"

int mf_linkacct_init(struct mf_linkacct *a, const struct mf_topo *t)
{
	memset(a, 0, sizeof(*a));
	a->nlinks = (u64)t->nodes * t->nports;
	a->stamp = mf_alloc_array(a->nlinks, sizeof(u32), true);
	a->load = mf_alloc_array(a->nlinks, sizeof(u32), false);
	if (!a->stamp || !a->load) {
		mf_linkacct_free(a);
		return -ENOMEM;
	}
	return 0;
}

void mf_linkacct_free(struct mf_linkacct *a)
{
	mf_free(a->stamp);
	mf_free(a->load);
	a->stamp = NULL;
	a->load = NULL;
}
