// SPDX-License-Identifier: GPL-2.0
/* Cyclic-dimension-order routing (002, Tsay & Wang,
 * section 2) as a next-hop function of (cur, dst), contract in route.h.
 *
 * In 002 a path corrects one dimension completely before turning to
 * another, visiting the differing dimensions i_1 < ... < i_k in cyclic
 * order from a starting dimension i_j that the SENDER chooses per message
 * (it is how 002 keeps the 2d messages of one source apart).  A routing
 * function sees only (cur, dst), so the starting dimension must be a
 * function of the offset d = dst - cur alone, and it must be chosen again
 * identically at every node of the path.  We use:
 *
 *   D = { i : d_i != 0 }; for i in D, gap(i) = the number of dimensions
 *   strictly between i's cyclic predecessor in D and i (d - 1 if |D| = 1).
 *   The path starts at the dimension with the largest gap.  Ties (only
 *   possible at a path's first dimension) are broken by the sign pattern
 *   of d over D, read as in the diagonal routing's b (route_diagonal.c):
 *   the c candidates, in increasing order, are numbered 0 .. c - 1 and
 *   candidate (b mod c) starts.
 *
 * Why this is consistent: while the starting dimension j is corrected, D
 * and the signs do not change, so j stays chosen; once d_j = 0, j's
 * successor in D inherits gap(j) + 1 + its own gap, now strictly the
 * largest, so the path continues with the next dimension in cyclic order,
 * exactly as in 002.  Every dimension is corrected along its shorter way
 * (mf_topo_delta, ties of even rings towards +), so all paths are
 * shortest paths; 002's "same direction in all dimensions" holds for its
 * own destinations, which lie within n/2 in every dimension.  The hop
 * depends only on d: homogeneous on tori.  On a mesh the same rule on the
 * plain coordinate difference.
 */
#include "route.h"

int mf_route_cdo_next(const struct mf_topo *t, u32 cur, u32 dst)
{
	s32 d[MF_MAX_DIMS];
	u32 n = t->ndims, i, first = n, last = n, prev, best = 0;
	u32 gap[MF_MAX_DIMS];
	u32 ncand = 0, b = 0, k, r = n;
	bool first_neg = false;

	for (i = 0; i < n; i++) {
		d[i] = mf_topo_delta(t, cur, dst, i);
		if (!d[i])
			continue;
		if (first == n) {
			first = i;
			first_neg = d[i] < 0;
		}
		last = i;
	}
	if (first == n)
		return -ENOENT;
	/* largest gap and the number of dimensions that reach it */
	prev = last;
	for (i = first; i < n; i++) {
		if (!d[i])
			continue;
		gap[i] = prev == i ? n - 1 : (i + n - prev - 1) % n;
		prev = i;
		if (!ncand || gap[i] > best) {
			best = gap[i];
			ncand = 1;
		} else if (gap[i] == best) {
			ncand++;
		}
	}
	if (ncand > 1)
		for (i = first + 1; i < n; i++)
			if (d[i] && (d[i] < 0 ? !first_neg : first_neg))
				b |= 1U << (n - 1 - i);
	k = b % ncand;
	for (i = first; i < n; i++) {
		if (d[i] && gap[i] == best && !k--) {
			r = i;
			break;
		}
	}
	return d[r] > 0 ? (int)(2 * r) : (int)(2 * r + 1);
}
