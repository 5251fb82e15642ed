// SPDX-License-Identifier: GPL-2.0
/*
 * rtable.c - the kernel's routing tables, built at fabric creation from
 * the core's routing function mf_route_next() (contract in mf.h, struct
 * mf_rtable).  Tori and hexagonal meshes: one table of N next ports
 * indexed by the offset dst - cur (homogeneous routing, 004 section 2.1):
 * O(N) bytes, O(1) lookup.  Meshes: dimension order computed per hop.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "mf.h"

static bool mf_rt_homogeneous(const struct mf_topo *t)
{
	return t->kind == MESHFABRIC_KIND_TORUS ||
	       t->kind == MESHFABRIC_KIND_HEX;
}

int mf_rt_init(struct mf_rtable *rt, const struct mf_topo *t, u32 routing)
{
	u32 off;
	int port;

	memset(rt, 0, sizeof(*rt));
	rt->topo = t;
	rt->routing = routing;
	if (!mf_rt_homogeneous(t))
		return 0;
	rt->next = mf_kzalloc(t->nodes);
	if (!rt->next)
		return -ENOMEM;
	rt->bytes = t->nodes;
	/* next[0] (cur == dst) is never read. */
	for (off = 1; off < t->nodes; off++) {
		port = mf_route_next(t, routing, 0, off);
		if (port < 0 || port >= (int)t->nports) {
			mf_rt_free(rt);
			return port < 0 ? port : -EINVAL;
		}
		rt->next[off] = (u8)port;
		if (!(off & 4095))
			cond_resched();
	}
	return 0;
}

void mf_rt_free(struct mf_rtable *rt)
{
	mf_kfree(rt->next);
	rt->next = NULL;
	rt->bytes = 0;
}

int mf_rt_next(const struct mf_rtable *rt, u32 cur, u32 dst)
{
	if (cur == dst)
		return -ENOENT;
	if (rt->next)
		return rt->next[mf_topo_sub(rt->topo, dst, cur)];
	return mf_route_next(rt->topo, rt->routing, cur, dst);
}

int mf_rt_path(const struct mf_rtable *rt, u32 src, u32 dst, u32 *path,
	       u32 max)
{
	u32 cur = src, hops = 0, limit = mf_topo_diameter(rt->topo);
	int port;
	s64 next;

	if (path && max)
		path[0] = src;
	while (cur != dst) {
		port = mf_rt_next(rt, cur, dst);
		if (port < 0)
			return port;
		next = mf_topo_neighbor(rt->topo, cur, port);
		if (next < 0 || hops >= limit)
			return -EINVAL;	/* a routing bug: never loop */
		cur = next;
		hops++;
		if (path && hops < max)
			path[hops] = cur;
	}
	return hops;
}
