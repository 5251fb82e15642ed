// SPDX-License-Identifier: GPL-2.0
/* route_hex.c - PLACEHOLDER, being written: algorithm A1 of 003. */
#include "route.h"

int mf_hex_route_next(u32 n, u32 cur, u32 dst)
{
	return -EOPNOTSUPP;
}

u32 mf_hex_distance(u32 n, u32 a, u32 b)
{
	return 0;
}

void mf_hex_route_vector(u32 n, u32 a, u32 b, s32 *mx, s32 *my, s32 *mz)
{
	*mx = *my = *mz = 0;
}
