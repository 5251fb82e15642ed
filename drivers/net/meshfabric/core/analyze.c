// SPDX-License-Identifier: GPL-2.0
/* analyze.c - PLACEHOLDER, being written: Delta(R) of 004. */
#include "route.h"

int mf_route_delta(const struct mf_topo *t, u32 routing, u64 *delta,
		   u64 *size)
{
	return -EOPNOTSUPP;
}
