// SPDX-License-Identifier: GPL-2.0
/* Shortest-path routing in the C-wrapped hexagonal mesh H_n
 * of 003 (Chen, Shin & Kandlur), algorithm A1 (contract in route.h/topo.h).
 *
 * Addresses are the paper's single numbers 0 .. p - 1, p = 3n^2 - 3n + 1.
 * A1 maps k = [dst - src]_p to (m_x, m_y, m_z), the signed hop counts of a
 * shortest path along the paper's x, y and z directions; the distance is
 * |m_x| + |m_y| + |m_z| (Theorem 2; checked against BFS by test_hex.c).
 *
 * Directions and ports.  003's routing functions give the address change
 * of one hop: R_{m_x-1}(i) = i + 1, so +x is +1; R_{m_y-1}(i) =
 * i + 3n^2 - 6n + 3 = i - (3n - 2), so +y is -(3n - 2); R_{m_z-1}(i) =
 * i + 3n^2 - 6n + 2 = i - (3n - 1), so +z is -(3n - 1) (consistent with
 * Theorem 1 and with z = y - x).  In topo.h's port numbering (0: +1,
 * 1: -1, 2: +(3n-1), 3: -(3n-1), 4: +(3n-2), 5: -(3n-2)) that is
 *   +x = port 0, -x = port 1, -z = port 2, +z = port 3, -y = port 4,
 *   +y = port 5.
 *
 * Next hop: A1 is evaluated afresh at every node from (cur, dst) alone (the
 * paper instead carries the vector as a routing record; both give the same
 * shortest distances) and the first non-zero component in the fixed order
 * x, y, z is corrected by one hop.  Every hop lowers the distance by one,
 * so paths are shortest, and the choice depends only on [dst - cur]_p
 * (homogeneous: one table of p ports serves every node).
 */
#include "route.h"

static void hex_a1(u32 n, u32 k, s32 *mx, s32 *my, s32 *mz)
{
	s64 nn = n, p = 3 * nn * nn - 3 * nn + 1, r, t;

	*mx = 0;
	*my = 0;
	*mz = 0;
	if (n < 2)
		return;
	if (k < n) {
		*mx = (s32)k;
		return;
	}
	if (k > 3 * nn * nn - 4 * nn + 1) {
		*mx = (s32)(k - p);
		return;
	}
	r = (k - nn) / (3 * nn - 2);
	t = (k - nn) % (3 * nn - 2);
	if (t <= nn + r - 1) {
		/* dst in the lower part of the H_n centred at src */
		if (t <= r) {
			*mx = (s32)(t - r);
			*mz = (s32)(nn - r - 1);
		} else if (t >= nn - 1) {
			*mx = (s32)(t - nn + 1);
			*my = (s32)(nn - r - 1);
		} else {
			*my = (s32)(t - r);
			*mz = (s32)(nn - t - 1);
		}
	} else {
		/* dst in the upper part */
		if (t <= 2 * nn - 2) {
			*mx = (s32)(t + 2 - 2 * nn);
			*my = (s32)(-r - 1);
		} else if (t >= 2 * nn + r - 1) {
			*mx = (s32)(t - 2 * nn - r + 1);
			*mz = (s32)(-r - 1);
		} else {
			*my = (s32)(t + 1 - 2 * nn - r);
			*mz = (s32)(2 * nn - t - 2);
		}
	}
}

/* k = [b - a]_p */
static u32 hex_k(u32 n, u32 a, u32 b)
{
	u64 p = 3 * (u64)n * n - 3 * (u64)n + 1;

	return (u32)(((u64)b % p + p - (u64)a % p) % p);
}

void mf_hex_route_vector(u32 n, u32 a, u32 b, s32 *mx, s32 *my, s32 *mz)
{
	hex_a1(n, n < 2 ? 0 : hex_k(n, a, b), mx, my, mz);
}

static u32 abs32(s32 v)
{
	return v < 0 ? (u32)-v : (u32)v;
}

u32 mf_hex_distance(u32 n, u32 a, u32 b)
{
	s32 mx, my, mz;

	mf_hex_route_vector(n, a, b, &mx, &my, &mz);
	return abs32(mx) + abs32(my) + abs32(mz);
}

int mf_hex_route_next(u32 n, u32 cur, u32 dst)
{
	s32 mx, my, mz;

	if (n < 2)
		return -EINVAL;
	mf_hex_route_vector(n, cur, dst, &mx, &my, &mz);
	if (mx)
		return mx > 0 ? 0 : 1;	/* R_{m_x-1}: +1; R_{m_x+1}: -1 */
	if (my)
		return my > 0 ? 5 : 4;	/* R_{m_y-1}: -(3n-2); R_{m_y+1}: +(3n-2) */
	if (mz)
		return mz > 0 ? 3 : 2;	/* R_{m_z-1}: -(3n-1); R_{m_z+1}: +(3n-1) */
	return -ENOENT;
}
