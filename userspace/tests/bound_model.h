/* SPDX-License-Identifier: GPL-2.0 */
/* The counting lower bound of an all-port broadcast, the tests' own model
 * (for test_wormhole.c and test_coll_algo.c; a header of static
 * functions): node degrees from mf_topo_neighbor() only, not from the
 * core's mf_topo_degree() or mf_allport_bound().
 */
#ifndef MF_TEST_BOUND_MODEL_H
#define MF_TEST_BOUND_MODEL_H

#include "topo.h"

/* Number of distinct neighbours (= outgoing links) of v, from
 * mf_topo_neighbor() only.
 */
static u32 degree(const struct mf_topo *t, u32 v)
{
	s64 nb[2 * MF_MAX_DIMS];
	u32 p, q, k = 0;

	for (p = 0; p < t->nports; p++) {
		s64 w = mf_topo_neighbor(t, v, p);

		if (w < 0)
			continue;
		for (q = 0; q < k && nb[q] != w; q++)
			;
		if (q == k)
			nb[k++] = w;
	}
	return k;
}

/*
 * The counting bound: in a step every informed node starts at most one
 * send per outgoing link, so informed(t + 1) <= informed(t) + deg(source)
 * + the sum of the informed(t) - 1 largest degrees of the topology.  The
 * bound is the first t at which this reaches N.
 */
static u32 counting_bound(const struct mf_topo *t, u32 src)
{
	u64 hist[2 * MF_MAX_DIMS + 1] = { 0 }, informed = 1;
	u32 v, steps = 0;

	for (v = 0; v < t->nodes; v++)
		hist[degree(t, v)]++;
	while (informed < t->nodes) {
		u64 more = degree(t, src), left = informed - 1;
		int g;

		for (g = 2 * MF_MAX_DIMS; g >= 0 && left; g--) {
			u64 k = hist[g] < left ? hist[g] : left;

			more += k * (u64)g;
			left -= k;
		}
		informed += more;
		steps++;
	}
	return steps;
}

#endif /* MF_TEST_BOUND_MODEL_H */
