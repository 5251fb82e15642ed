// SPDX-License-Identifier: GPL-2.0
/* route_cdo.c - PLACEHOLDER, being written. */
#include "route.h"

int mf_route_cdo_next(const struct mf_topo *t, u32 cur, u32 dst)
{
	return mf_route_dor_next(t, cur, dst);
}
