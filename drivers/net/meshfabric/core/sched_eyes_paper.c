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
 *     submesh" (001: "in the 1st submesh"): a proper rotation of the box
 *     that brings S into the low half of every dimension.  It reflects
 *     the dimensions in which S is in the high half; when that is an odd
 *     number of them, a rotation must also swap two dimensions: in 2-D
 *     the only two, in 3-D the first two that the steps cross (there
 *     are three rotations to choose from; this is our choice).
 *  2. d steps, each crossing one dimension of the rotated box in the
 *     papers' fixed order: 2-D x then y (the first send goes to the
 *     upper-right eye E_k(2)); 3-D x, z, y (001 numbers its eyes so that
 *     E_k(2), E_k(3), E_k(5) differ from E_k(1) in x, z, y).  In step t
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
	u8 ord[EP_MAX_D];	/* rotated dimension crossed by step i */
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
	u32 rs[EP_MAX_D];	/* S in the rotated box */
	u8 perm[EP_MAX_D];	/* rotated dimension i is mesh dimension perm[i] */
	bool refl[EP_MAX_D];	/* rotated dimension i runs backwards */
};

static void ep_box(const struct eyes_paper *e, u32 j, u32 entry,
		   struct ep_box *b)
{
	u32 c[MF_MAX_DIMS], side = 1U << j, h = side / 2, i, odd = 0;
	bool high[EP_MAX_D];

	mf_topo_coords(e->t, entry, c);
	for (i = 0; i < e->d; i++) {
		b->org[i] = c[i] & ~(side - 1);
		c[i] -= b->org[i];
		high[i] = c[i] >= h;
		odd ^= high[i];
		b->perm[i] = i;
	}
	if (odd) {	/* a proper rotation: swap the first two crossed */
		b->perm[e->ord[0]] = e->ord[1];
		b->perm[e->ord[1]] = e->ord[0];
	}
	for (i = 0; i < e->d; i++) {
		u32 m = b->perm[i];

		b->refl[i] = high[m];
		b->rs[i] = high[m] ? side - 1 - c[m] : c[m];
	}
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
			u32 s = b->rs[e->ord[t]], v;

			if (t < low)
				v = (s > slo ? s - slo : slo - s) <
				    (s > shi ? s - shi : shi - s) ? slo : shi;
			else
				v = m & (1U << t) ? hi : lo;
			r[e->ord[t]] = v;
		}
	}
	for (i = 0; i < e->d; i++) {
		u32 mdim = b->perm[i];

		c[mdim] = b->org[mdim] + (b->refl[i] ? side - 1 - r[i] : r[i]);
	}
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
	e.ord[0] = 0;
	if (e.d == 2) {
		e.ord[1] = 1;
	} else {
		e.ord[1] = 2;
		e.ord[2] = 1;
	}
	return eyes_paper_run(&e, source, s);
}

MF_ALGO_DEFINE(eyes_paper, "eyes-paper", MESHFABRIC_ALGO_EYES_PAPER,
	       MESHFABRIC_MODEL_ONE_PORT,
	       "2^k x 2^k and 2^k x 2^k x 2^k meshes", .reproduction = true);
