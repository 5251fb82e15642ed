// SPDX-License-Identifier: GPL-2.0
/* One-port point-to-point broadcast in H_n, algorithm A2 of
 * 003 (Chen, Shin & Kandlur, section IV-C): n + 2 steps for n >= 3,
 * 3 steps for n = 2.  Every send is one hop to a neighbour, so the TCD is
 * p - 1 (the least possible) and no link is used twice (no contention).
 *
 * Geometry (source at the centre, directions as in route_hex.c): the six
 * unit directions in clockwise order are D_0..D_5 = x, y, z, -x, -y, -z
 * (rotate(D_i, +60 deg) = D_{i+1}); every node but the source is uniquely
 * u D_i + v D_{i+1} with u >= 1, v >= 0, u + v <= n - 1 (sector i, ring
 * u + v).  The corners u D_i form the spokes, and from each corner a ray
 * in direction D_{i+1} covers the rest of the sector.
 *
 * Phase 1 (steps 1-3, A2's source and count = 1, 2 procedures):
 *   1: 0 -> x
 *   2: 0 -> z, x -> x + z = y
 *   3: 0 -> -y, x -> x - y = -z, z -> z - y = -x
 * Phase 2 (steps 4 .. n + 2): a ring-u corner u D_i sends along D_i to
 * (u+1) D_i in step u + 3 and along D_{i+1} to u D_i + D_{i+1} in step
 * u + 4; a non-corner u D_i + v D_{i+1} sends along D_{i+1} in step
 * u + v + 4; nothing is sent into ring n (which wraps onto informed
 * nodes).  So ring m's corners are informed in step m + 2 and its other
 * nodes in step m + 3; ring n - 1 is done in step n + 2.
 *
 * Departure from 003: A2's pseudo-code lets a corner with count <= n + 1
 * send twice more; the ring-(n-1) corners have count = n + 1, so taken
 * literally they would send in steps n + 2 and n + 3 to nodes outside the
 * ring structure, i.e. (by the wrapping) to nodes already informed, and
 * the broadcast would take n + 3 steps and inform nodes twice.  We stop
 * corners at ring n - 1 (count <= n), which gives the paper's n + 2 steps
 * (Theorem 3).  Also A2's test "from-dirn = z" at count 2 is ambiguous
 * (both z and x + z receive along z in step 2); only z sends in step 3
 * (x + z - y is the source).
 *
 * From any other source the schedule is translated by adding the source
 * modulo p (H_n is node-symmetric, Corollary 1.1).
 */
#include "algo.h"

enum { HEX_X, HEX_Y, HEX_Z, HEX_NX, HEX_NY, HEX_NZ };

/* Address change of one hop in direction dir (route_hex.c, 003 A1). */
static u32 hex_dir_off(u32 n, u32 p, u32 dir)
{
	u32 off;

	switch (dir % 3) {
	case HEX_X:
		off = 1;
		break;
	case HEX_Y:
		off = p - (3 * n - 2);
		break;
	default:
		off = p - (3 * n - 1);
		break;
	}
	return dir >= 3 ? p - off : off;
}

/* The node source + u D_i + v D_{i+1}. */
static u32 hex_at(u32 n, u32 p, u32 source, u32 i, u32 u, u32 v)
{
	u64 a = source;

	a += (u64)u * hex_dir_off(n, p, i % 6);
	a += (u64)v * hex_dir_off(n, p, (i + 1) % 6);
	return (u32)(a % p);
}

static int hex_send(struct mf_sched *s, u32 a, u32 b)
{
	u32 path[2] = { a, b };

	return mf_sched_send(s, path, 1);
}

static int hex_supports(const struct mf_topo *t)
{
	return t->kind == MESHFABRIC_KIND_HEX ? 0 : -EOPNOTSUPP;
}

/* Phase 1 (A2's source procedure and its count = 1, 2 cases): step, sender
 * and receiver as directions from the source (HEX_CENTRE: the source).
 * x + z = y, x - y = -z and z - y = -x.
 */
#define HEX_CENTRE 6
static const u8 hex_phase1[6][3] = {
	{ 1, HEX_CENTRE, HEX_X },
	{ 2, HEX_CENTRE, HEX_Z }, { 2, HEX_X, HEX_Y },
	{ 3, HEX_CENTRE, HEX_NY }, { 3, HEX_X, HEX_NZ }, { 3, HEX_Z, HEX_NX },
};

static u32 hex_ring1(u32 n, u32 p, u32 source, u32 dir)
{
	if (dir == HEX_CENTRE)
		return source;
	return (u32)(((u64)source + hex_dir_off(n, p, dir)) % p);
}

static int hex_build(const struct mf_topo *t, u32 source, u32 routing,
		     struct mf_sched *s)
{
	u32 n = t->dims[0], p = t->nodes, step, i, u, v, m;
	int err;

	(void)routing;	/* every send is one hop */
	if (t->kind != MESHFABRIC_KIND_HEX || n < 2 || source >= p)
		return -EINVAL;
	err = mf_sched_reserve(s, p - 1, 2 * (p - 1));
	if (err)
		return err;

	for (i = 0; i < 6; i++) {
		if (s->nsteps < hex_phase1[i][0]) {
			err = mf_sched_step(s);
			if (err)
				return err;
		}
		err = hex_send(s, hex_ring1(n, p, source, hex_phase1[i][1]),
			       hex_ring1(n, p, source, hex_phase1[i][2]));
		if (err)
			return err;
	}

	/* phase 2: in step `step`, ring step - 3 corners extend their spokes,
	 * ring step - 4 (corners and rays) extends the rays.  None for n = 2.
	 */
	for (step = 4; n >= 3 && step <= n + 2; step++) {
		err = mf_sched_step(s);
		if (err)
			return err;
		for (i = 0; i < 6; i++) {
			u = step - 3;
			if (u <= n - 2) {
				err = hex_send(s, hex_at(n, p, source, i, u, 0),
					       hex_at(n, p, source, i, u + 1, 0));
				if (err)
					return err;
			}
			m = step - 4;
			if (m < 1 || m > n - 2)
				continue;
			for (v = 0; v < m; v++) {
				u = m - v;
				err = hex_send(s, hex_at(n, p, source, i, u, v),
					       hex_at(n, p, source, i, u, v + 1));
				if (err)
					return err;
			}
		}
	}
	return mf_sched_end(s);
}

MF_ALGO_DEFINE(hex, "hex", MESHFABRIC_ALGO_HEX,
	       MESHFABRIC_MODEL_ONE_PORT, "hexagonal meshes H_n (--hex N)");
