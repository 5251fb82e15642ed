// SPDX-License-Identifier: GPL-2.0
/* The 'diagonal' routing of 004 (Jerebic & Trobec,
 * Definition 4), next hop from (cur, dst) only, contract in route.h.
 *
 * Let d = dst - cur per dimension (mf_topo_delta: on a torus the shorter
 * way, offset n/2 of an even ring counted as +n/2; on a mesh the plain
 * difference).  The paper's point Y is cur - dst = -d; the hop reduces
 * |d_r| by one, so every path is a shortest path.  s = max |d_i|.
 *
 *  1. Diagonal point, |d_1| = ... = |d_n|: r = b(d) mod n, where b reads
 *     the signs as a binary number, digit k (from the most significant,
 *     k = 1..n) being 1 when sgn(d_k) != sgn(d_1).  b(d) = b(-d), so the
 *     routing is symmetric.
 *  2. Otherwise: p = the highest dimension with |d_p| < s, and r = the
 *     first dimension cyclically after p with |d_r| = s.
 *
 * Departures from the text of 004 (both checked against Theorem 5 by
 * userspace/tests/test_route.c):
 *  - b: the printed formula sums (1 + sgn(x_1) sgn(x_k)) / 2 * 2^(n-k),
 *    which maps onto 2^(n-1) .. 2^n - 1, while the prose says the map is
 *    onto 0 .. 2^(n-1) - 1 with opposite signs as digit 1; we follow the
 *    prose ((1 - sgn sgn) / 2).  Both give the same Delta for n = 2..4.
 *  - case 2: the paper sets r = 1 + (p mod n), i.e. the dimension just
 *    after p.  When p = n that is dimension 1, whose coordinate can be
 *    non-maximal or even 0 (e.g. Y = (0, 2, 1)), and a hop on a zero
 *    coordinate is no move.  The prose ("extending the area of zeroes ...
 *    in a cyclical manner") continues cyclically to the next maximal
 *    coordinate, which is what we do; it agrees with the formula whenever
 *    the formula names a maximal coordinate.
 *
 * The next hop depends only on d, so on a torus the routing is
 * homogeneous (004 section 2.1), and on a mesh it depends only on the
 * coordinate difference (the mesh extension: the same rule, every hop
 * moves towards dst and so stays inside the mesh).
 */
#include "route.h"

int mf_route_diagonal_next(const struct mf_topo *t, u32 cur, u32 dst)
{
	s32 d[MF_MAX_DIMS];
	u32 n = t->ndims, i, s = 0, p = 0, r, b = 0;
	bool diag = true;

	for (i = 0; i < n; i++) {
		u32 a;

		d[i] = mf_topo_delta(t, cur, dst, i);
		a = (u32)(d[i] < 0 ? -d[i] : d[i]);
		if (a > s)
			s = a;
	}
	if (!s)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		u32 a = (u32)(d[i] < 0 ? -d[i] : d[i]);

		if (a != s) {
			diag = false;
			p = i;	/* ends as the highest non-maximal dimension */
		}
	}
	if (diag) {
		bool neg0 = d[0] < 0;

		for (i = 1; i < n; i++)
			if (d[i] < 0 ? !neg0 : neg0)
				b |= 1U << (n - 1 - i);
		r = b % n;
	} else {
		r = (p + 1) % n;
		while (d[r] != (s32)s && d[r] != -(s32)s)
			r = (r + 1) % n;
	}
	return d[r] > 0 ? (int)(2 * r) : (int)(2 * r + 1);
}
