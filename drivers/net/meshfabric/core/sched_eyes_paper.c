// SPDX-License-Identifier: GPL-2.0
/* `eyes-paper`: Cang & Wu's broadcast algorithms run as printed, on
 * 2^k x 2^k meshes (000 Algorithm 1) and 2^k x 2^k x 2^k meshes (001
 * Algorithm 2), so that the papers' figures can be reproduced, including
 * the ones that are not minimal.  It is a reproduction: `auto` never
 * picks it (struct mf_algo.reproduction); `eyes` computes the optimum.
 *
 * The algorithm, level by level (a level is a box of side 2^j with one
 * informed node S, its entry; the levels run j = k .. 1):
 *  1. "Rotate the mesh, if necessary, until S is in the upper-left
 *     submesh" (001: "in the 1st submesh"): the box is reflected in the
 *     dimensions in which S is in the high half, and the order in which
 *     the steps cross the dimensions is the frame of S's submesh.  In
 *     2-D a proper rotation is unique: it also swaps the two dimensions
 *     when S is in the high half of exactly one.  In 3-D the
 *     text does not say which of three rotations; 001's Appendix B
 *     (Eqs. 19-21) fixes the frames of the eight submeshes: u, v, w run
 *     along P1, P2, P3 in submeshes 1, 2, 3, 5 and 8 and along P3, P2,
 *     P1 in submeshes 4, 6 and 7 (each a proper rotation of the 1st
 *     frame).  So the steps cross x, z, y
 *     when S is in none or one or all three of the high halves, and
 *     y, z, x when it is in two (docs/eyes.md).
 *  2. d steps, each crossing one dimension of the box in that order:
 *     2-D x then y (the first send goes to the upper-right eye E_k(2));
 *     3-D P1, P2, P3 = x, z, y (001 numbers its eyes so that E_k(2),
 *     E_k(3), E_k(5) differ from E_k(1) in x, z, y).  In step t
 *     every informed node sends across that dimension: a node other than
 *     S to its mirror (E_k(2) -> E_k(4), ...); S to the eye of the other
 *     half that is nearest to it among the papers' candidates (000: E_k(3)
 *     or E_(k-1)(1); 001: E_k(3) or E^(3)_(k-1)(5), then one of
 *     E^(5)_(k-1)(1..4)), i.e. the near-side eye coordinate hi_j of the
 *     crossed dimension, the coordinate lo_j = E_j(1)'s in the dimensions
 *     not crossed yet, and in the crossed ones the eye coordinate of the
 *     sub-box (lo_(j-1) or hi_(j-1)) closer to S.  The two candidates of a
 *     crossed dimension are a_(j-1) apart, an odd number, so "closer" never
 *     ties.  A node that received from S then sends its mirror in the
 *     later steps (001: E^(3)_(k-1)(5) -> E^(7)_(k-1)(1)).
 *  3. Every sub-box of side 2^(j-1) now holds one informed node and
 *     runs the same procedure.
 * Eye coordinates (000 Eq. 2, 001 section 2.1): lo_j = (2^(j+1) +
 * (-1)^j - 3) / 6 and hi_j = lo_j + a_j, a_j = (2^j - (-1)^j) / 3.
 *
 * Paths are dimension-ordered shortest paths (mf_sched_send_dor).  The
 * sends of one step lie in disjoint boxes (the parts of each level's box
 * cut so far), so a schedule has no step contention.
 *
 * Where the papers' text and this code meet (userspace/tests/
 * test_eyes_paper.c, `meshfabric papers`): from an eye the TCD is 000
 * Eq. 10 / 001 Eq. 13, from a corner 000 Eq. 9; on 4x4 from (1, 0) it
 * is 17 (000's appendix) where 16 is reachable, on 8x8 from (0, 3) 75
 * where `eyes` reaches 74: 000 Theorem 2 and 001 Theorem 3 do not hold
 * for the algorithms as printed.
 */
#include "algo.h"

#define EP_MAX_D	3

struct eyes_paper {
	const struct mf_topo *t;
	u32 d, k;
};

/* The low eye coordinate of a box of side 2^j (0 for j = 0). */
static u32 ep_lo(u32 j)
{
	u32 p = 1U << (j + 1);

	return (j & 1 ? p - 1 - 3 : p + 1 - 3) / 6;
}

/* a_j, the side of the eye square (0 for j = 0). */
static u32 ep_a(u32 j)
{
	u32 p = 1U << j;

	return (j & 1 ? p + 1 : p - 1) / 3;
}

static int eyes_paper_supports(const struct mf_topo *t)
{
	if (t->kind != MESHFABRIC_KIND_MESH)
		return -EOPNOTSUPP;
	if (t->ndims < 2 || t->ndims > EP_MAX_D)
		return -EOPNOTSUPP;
	if (!mf_topo_is_pow2_cube(t, NULL) || t->dims[0] < 2)
		return -EOPNOTSUPP;
	return 0;
}

/* A box of side 2^j entered at node e, seen through its rotation. */
struct ep_box {
	u32 org[EP_MAX_D];	/* low corner, mesh coordinates */
	u32 rs[EP_MAX_D];	/* S, reflected into the low half of each */
	u8 ord[EP_MAX_D];	/* the dimension step t crosses */
	bool refl[EP_MAX_D];	/* dimension i runs backwards */
};

/* The step order of a box whose entry is in the high half of `nhigh`
 * dimensions: 000 Algorithm 1's rotation in 2-D, 001 Appendix B's frame
 * of the entry's submesh in 3-D.
 */
static const u8 ep_order[2][4][EP_MAX_D] = {
	{ { 0, 1 }, { 1, 0 }, { 0, 1 } },
	{ { 0, 2, 1 }, { 0, 2, 1 }, { 1, 2, 0 }, { 0, 2, 1 } },
};

static void ep_box(const struct eyes_paper *e, u32 j, u32 entry,
		   struct ep_box *b)
{
	u32 c[MF_MAX_DIMS], side = 1U << j, h = side / 2, i, nhigh = 0;

	mf_topo_coords(e->t, entry, c);
	for (i = 0; i < e->d; i++) {
		b->org[i] = c[i] & ~(side - 1);
		c[i] -= b->org[i];
		b->refl[i] = c[i] >= h;
		nhigh += b->refl[i];
		b->rs[i] = b->refl[i] ? side - 1 - c[i] : c[i];
	}
	memcpy(b->ord, ep_order[e->d - 2][nhigh], sizeof(b->ord));
}

/* The node that holds the message in sub-box mask m (bit t: the half
 * crossed in step t) after the first d steps of the level.
 */
static u32 ep_node(const struct eyes_paper *e, u32 j, const struct ep_box *b,
		   u32 m)
{
	u32 r[EP_MAX_D], c[MF_MAX_DIMS], lo = ep_lo(j), hi = lo + ep_a(j);
	u32 slo = ep_lo(j - 1), shi = slo + ep_a(j - 1), side = 1U << j;
	u32 i, t, low = 0;

	if (!m) {
		memcpy(r, b->rs, sizeof(r));
	} else {
		while (!(m & (1U << low)))
			low++;
		for (t = 0; t < e->d; t++) {
			u32 s = b->rs[b->ord[t]], v;

			if (t < low)
				v = (s > slo ? s - slo : slo - s) <
				    (s > shi ? s - shi : shi - s) ? slo : shi;
			else
				v = m & (1U << t) ? hi : lo;
			r[b->ord[t]] = v;
		}
	}
	for (i = 0; i < e->d; i++)
		c[i] = b->org[i] + (b->refl[i] ? side - 1 - r[i] : r[i]);
	return mf_topo_id(e->t, c);
}

static int eyes_paper_run(struct eyes_paper *e, u32 source,
			  struct mf_sched *s)
{
	u32 nsub = 1U << e->d, nb = 1, j, t, b, m, *ent, *nent;
	struct ep_box box;
	int err = 0;

	ent = mf_alloc_array(e->t->nodes, sizeof(u32), false);
	nent = mf_alloc_array(e->t->nodes, sizeof(u32), false);
	if (!ent || !nent) {
		err = -ENOMEM;
		goto out;
	}
	ent[0] = source;
	for (j = e->k; j >= 1; j--) {
		for (t = 0; t < e->d; t++) {
			err = mf_sched_step(s);
			if (err)
				goto out;
			for (b = 0; b < nb; b++) {
				ep_box(e, j, ent[b], &box);
				for (m = 0; m < (1U << t); m++) {
					u32 src = ep_node(e, j, &box, m);
					u32 dst = ep_node(e, j, &box,
							  m | 1U << t);

					err = mf_sched_send_dor(s, e->t, src,
								dst, NULL);
					if (err)
						goto out;
				}
			}
		}
		for (b = 0; b < nb; b++) {
			ep_box(e, j, ent[b], &box);
			for (m = 0; m < nsub; m++)
				nent[b * nsub + m] = ep_node(e, j, &box, m);
		}
		nb *= nsub;
		swap(ent, nent);
	}
	err = mf_sched_end(s);
out:
	mf_free(ent);
	mf_free(nent);
	return err;
}

static int eyes_paper_build(const struct mf_topo *t, u32 source, u32 routing,
			    struct mf_sched *s)
{
	struct eyes_paper e;

	if (eyes_paper_supports(t) || source >= t->nodes)
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	mf_topo_is_pow2_cube(t, &e.k);
	e.t = t;
	e.d = t->ndims;
	return eyes_paper_run(&e, source, s);
}

MF_ALGO_DEFINE(eyes_paper, "eyes-paper", MESHFABRIC_ALGO_EYES_PAPER,
	       MESHFABRIC_MODEL_ONE_PORT,
	       "2^k x 2^k and 2^k x 2^k x 2^k meshes", .reproduction = true);
