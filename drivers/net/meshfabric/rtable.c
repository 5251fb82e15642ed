// SPDX-License-Identifier: GPL-2.0
/*
 * rtable.c - the kernel's routing tables, built at fabric creation from
 * the core's routing function mf_route_next() (layout and walk in mf.h,
 * struct mf_rtable).  A frame's hop is table loads: no division, no
 * routing function call on the data path.
 *  - Tori and H_n: one next port per offset dst - cur (homogeneous
 *    routing, 004 section 2.1): N bytes.
 *  - Meshes: one next port per coordinate difference dst - cur: the box
 *    of differences has prod(2 n_i - 1) < 2^d N entries (at most 7^8 =
 *    5.8 MB at the 65536-node limit, for 4^8).  Every routing of the core
 *    on a mesh depends on the difference only (mf_topo_delta), which the
 *    KUnit suite checks pair by pair against mf_route_next().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "mf.h"

static bool mf_rt_homogeneous(const struct mf_topo *t)
{
	return t->kind == MESHFABRIC_KIND_TORUS ||
	       t->kind == MESHFABRIC_KIND_HEX;
}

/* A pair (cur, dst) of the mesh with difference key; false for key 0. */
static bool mf_rt_mesh_pair(const struct mf_rtable *rt, u64 key, u32 *cur,
			    u32 *dst)
{
	const struct mf_topo *t = rt->topo;
	u32 a[MF_MAX_DIMS], b[MF_MAX_DIMS], i, w;
	bool zero = true;
	s64 d;

	for (i = 0; i < t->ndims; i++) {
		w = 2 * t->dims[i] - 1;
		d = (s64)(key % w) - (t->dims[i] - 1);
		key /= w;
		a[i] = d < 0 ? (u32)-d : 0;
		b[i] = a[i] + d;
		zero &= !d;
	}
	*cur = mf_topo_id(t, a);
	*dst = mf_topo_id(t, b);
	return !zero;
}

int mf_rt_init(struct mf_rtable *rt, const struct mf_topo *t, u32 routing,
	       const u32 *peer)
{
	u32 cur, dst, i;
	u64 key;
	int port;

	memset(rt, 0, sizeof(*rt));
	rt->topo = t;
	rt->routing = routing;
	rt->by_offset = mf_rt_homogeneous(t);
	if (rt->by_offset) {
		rt->nkeys = t->nodes;
	} else {
		rt->nkeys = 1;
		for (i = 0; i < t->ndims; i++) {
			rt->kstride[i] = rt->nkeys;
			rt->kmove[2 * i] = rt->nkeys;		/* + port */
			rt->kmove[2 * i + 1] = -(s64)rt->nkeys;	/* - port */
			rt->nkeys *= 2 * t->dims[i] - 1;
		}
	}
	rt->next = mf_counted_zalloc(rt->nkeys);
	if (!rt->next)
		return -ENOMEM;
	rt->bytes = rt->nkeys;
	/* the key of cur == dst is never read */
	for (key = 0; key < rt->nkeys; key++) {
		if (rt->by_offset) {
			if (!key)
				continue;
			cur = 0;
			dst = key;
		} else if (!mf_rt_mesh_pair(rt, key, &cur, &dst)) {
			continue;
		}
		port = mf_route_next(t, routing, cur, dst);
		if (port < 0 || port >= (int)t->nports ||
		    peer[(u64)cur * t->nports + port] == MESHFABRIC_NO_PEER) {
			mf_rt_free(rt);
			return port < 0 ? port : -EINVAL;
		}
		rt->next[key] = (u8)port;
		if (!(key & 4095))
			cond_resched();
	}
	return 0;
}

void mf_rt_free(struct mf_rtable *rt)
{
	mf_counted_free(rt->next);
	rt->next = NULL;
	rt->bytes = 0;
}

void mf_rt_walk_start(const struct mf_rtable *rt, u32 src, u32 dst,
		      struct mf_walk *w)
{
	const struct mf_topo *t = rt->topo;
	u32 i;

	w->cur = src;
	if (rt->by_offset) {
		w->key = mf_topo_sub(t, dst, src);
		return;
	}
	w->key = 0;
	for (i = 0; i < t->ndims; i++)
		w->key += (u64)(mf_topo_delta(t, src, dst, i) + t->dims[i] - 1) *
			  rt->kstride[i];
}

int mf_rt_path(const struct mf_fabric *f, u32 src, u32 dst, u32 *path,
	       u32 max)
{
	const struct mf_fstate *fs = rcu_dereference(f->fstate);
	/* around links down a path may exceed the diameter */
	u32 hops = 0, limit = fs ? f->topo.nodes : mf_topo_diameter(&f->topo);
	struct mf_walk w;

	if (path && max)
		path[0] = src;
	if (src == dst)
		return 0;
	mf_walk_start(&f->rt, fs, src, dst, &w);
	while (w.cur != dst) {
		if (hops >= limit)
			return -EINVAL;	/* a routing bug: never loop */
		if (mf_walk_hop(&f->rt, f->links.peer, fs, &w) < 0)
			return -EHOSTUNREACH;
		hops++;
		if (path && hops < max)
			path[hops] = w.cur;
	}
	return hops;
}
