// SPDX-License-Identifier: GPL-2.0
/* `binomial`: one-port recursive doubling on any mesh,
 * torus or hexagonal mesh, ceil(log2 N) steps.
 *
 * Submeshes.  Number the nodes in k-d order: the box of all nodes is cut
 * across its widest dimension (ties: the lowest dimension) into a lower
 * part of ceil(m/2) and an upper part of floor(m/2) slices, the lower part
 * is numbered first, and each part recursively the same way.  On a torus
 * (and H_n, whose addresses form the cyclic group Z_p, 003 Theorem 1, a
 * 1-D box of p nodes) the box is that of the offsets from the source, so
 * the source is rank 0 and the schedule from any source is the one from
 * node 0 translated; on a mesh it is the box of absolute coordinates.
 *
 * Doubling.  A submesh is a range of ranks with one informed node.  In
 * each step every range of length L >= 2 splits into its first ceil(L/2)
 * and its last floor(L/2) ranks; the informed node sends to the node at
 * the same relative position in the other half, i.e. rank offset r from
 * the half's start, clamped to the last rank when the other half is
 * shorter (the one position of the longer half without a counterpart).
 * Each half again holds exactly one informed node, so every node is
 * informed exactly once, and the longest range halves each step:
 * steps = ceil(log2 N) for every size (the one-port lower bound).
 *
 * When all sizes are powers of two the ranges are exactly the sub-boxes
 * of halving the widest dimension first, so the partner is the mirror
 * node of the other half-box (classic recursive doubling with alternating
 * dimensions; on a 2^k x 2^k mesh from a corner, TCD = sum over steps s
 * of 2^(s-1) 2^(k - ceil(s/2)), e.g. 84 on 8 x 8, the naive figure of
 * 000).  Otherwise halves of odd ranges need not be boxes (a range can
 * end inside a slice); the step count is still optimal, which box halves
 * cannot give (3 x 3 x 3 has no box half of at most 16 nodes).
 *
 * Paths: dimension order (mf_sched_send_dor) for the dor routing (the
 * default), else the routing passed (diagonal, cdo; a1 on H_n).
 */
#include "algo.h"
#include "route.h"

struct brange {
	u32 lo, len, x;		/* ranks lo .. lo + len - 1, x informed */
	u32 node;		/* the node of rank x */
};

struct kd_box {
	u32 nd;
	u32 dims[MF_MAX_DIMS];
};

static u32 widest(const struct kd_box *b, const u32 *m)
{
	u32 i, w = 0;

	for (i = 1; i < b->nd; i++)
		if (m[i] > m[w])
			w = i;
	return w;
}

/* k-d order both ways: the rank of the node at box coordinates c
 * (to_rank), or the box coordinates c of the node of rank r (returns r).
 */
static u32 kd_walk(const struct kd_box *b, u32 r, u32 *c, bool to_rank)
{
	u32 m[MF_MAX_DIMS], lo[MF_MAX_DIMS], i, h, size = 1, lower, rank = 0;

	for (i = 0; i < b->nd; i++) {	/* size <= MF_MAX_NODES */
		lo[i] = 0;
		m[i] = b->dims[i];
		size *= m[i];
	}
	while (size > 1) {
		i = widest(b, m);
		h = (m[i] + 1) / 2;
		lower = size / m[i] * h;
		if (to_rank ? c[i] < lo[i] + h : r < rank + lower) {
			m[i] = h;
			size = lower;
		} else {
			rank += lower;
			lo[i] += h;
			m[i] -= h;
			size -= lower;
		}
	}
	if (!to_rank)
		memcpy(c, lo, b->nd * sizeof(u32));
	return rank;
}

static u32 rank_node(const struct mf_topo *t, const struct kd_box *b,
		     u32 source, u32 r)
{
	u32 c[MF_MAX_DIMS];

	if (t->kind == MESHFABRIC_KIND_HEX)
		return mf_topo_add(t, source, r);
	kd_walk(b, r, c, false);
	if (t->kind == MESHFABRIC_KIND_MESH)
		return mf_topo_id(t, c);
	return mf_topo_add(t, source, mf_topo_id(t, c));
}

static int binomial_supports(const struct mf_topo *t)
{
	return 0;
}

static int binomial_build(const struct mf_topo *t, u32 source, u32 routing,
			  struct mf_sched *s)
{
	struct kd_box box;
	struct brange *rg;
	u32 count = 1, c, j, h, partner, a, d, off;
	u32 c0[MF_MAX_DIMS];
	int err;

	if (mf_route_valid(t, routing))
		return -EINVAL;
	routing = mf_route_resolve(t, routing);
	if (t->kind == MESHFABRIC_KIND_HEX) {
		box.nd = 1;
		box.dims[0] = t->nodes;
	} else {
		box.nd = t->ndims;
		memcpy(box.dims, t->dims, sizeof(box.dims));
	}
	rg = mf_alloc_array(t->nodes, sizeof(*rg), false);
	if (!rg)
		return -ENOMEM;
	err = mf_sched_reserve(s, t->nodes - 1, 0);
	if (err)
		goto out;
	rg[0].lo = 0;
	rg[0].len = t->nodes;
	rg[0].x = 0;
	rg[0].node = source;
	if (t->kind == MESHFABRIC_KIND_MESH) {
		mf_topo_coords(t, source, c0);
		rg[0].x = kd_walk(&box, 0, c0, true);
	}
	while (count < t->nodes) {
		err = mf_sched_step(s);
		if (err)
			goto out;
		for (c = count, j = 0; j < c; j++) {
			struct brange *r = &rg[j], *n = &rg[count];

			if (r->len < 2)
				continue;
			h = (r->len + 1) / 2;
			off = r->x - r->lo;
			if (off < h) {
				partner = r->lo + h + (off < r->len - h ? off : r->len - h - 1);
				n->lo = r->lo + h;
				n->len = r->len - h;
				r->len = h;
			} else {
				partner = r->lo + off - h;
				n->lo = r->lo;
				n->len = h;
				r->lo += h;
				r->len -= h;
			}
			n->x = partner;
			a = r->node;
			d = rank_node(t, &box, source, partner);
			n->node = d;
			count++;
			if (routing == MESHFABRIC_ROUTE_DOR)
				err = mf_sched_send_dor(s, t, a, d, NULL);
			else
				err = mf_sched_send_route(s, t, routing, a, d);
			if (err)
				goto out;
		}
	}
	err = mf_sched_end(s);
out:
	mf_free(rg);
	return err;
}

MF_ALGO_DEFINE(binomial, "binomial", MESHFABRIC_ALGO_BINOMIAL,
	       MESHFABRIC_MODEL_ONE_PORT,
	       "every mesh, torus and hexagonal mesh", .routed = true);
