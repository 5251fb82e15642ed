// SPDX-License-Identifier: GPL-2.0
/* Routing dispatch, paths, names, and dimension-order routing
 * (004 Definition 3), contract in route.h.
 */
#include "route.h"

static const char *const route_names[MESHFABRIC_ROUTE_MAX + 1] = {
	[MESHFABRIC_ROUTE_DEFAULT] = "default",
	[MESHFABRIC_ROUTE_DOR] = "dor",
	[MESHFABRIC_ROUTE_DIAGONAL] = "diagonal",
	[MESHFABRIC_ROUTE_A1] = "a1",
	[MESHFABRIC_ROUTE_CDO] = "cdo",
};

const char *mf_route_name(u32 routing)
{
	return routing <= MESHFABRIC_ROUTE_MAX ? route_names[routing] : NULL;
}

int mf_route_by_name(const char *name)
{
	u32 i;

	for (i = 0; i <= MESHFABRIC_ROUTE_MAX; i++)
		if (!strcmp(route_names[i], name))
			return (int)i;
	return -EINVAL;
}

int mf_route_valid(const struct mf_topo *t, u32 routing)
{
	bool hex = t->kind == MESHFABRIC_KIND_HEX;

	switch (routing) {
	case MESHFABRIC_ROUTE_DEFAULT:
		return 0;
	case MESHFABRIC_ROUTE_A1:
		return hex ? 0 : -EINVAL;
	case MESHFABRIC_ROUTE_DOR:
	case MESHFABRIC_ROUTE_DIAGONAL:
	case MESHFABRIC_ROUTE_CDO:
		return hex ? -EINVAL : 0;
	}
	return -EINVAL;
}

u32 mf_route_resolve(const struct mf_topo *t, u32 routing)
{
	if (routing != MESHFABRIC_ROUTE_DEFAULT)
		return routing;
	return t->kind == MESHFABRIC_KIND_HEX ? MESHFABRIC_ROUTE_A1
					      : MESHFABRIC_ROUTE_DOR;
}

int mf_route_dor_next(const struct mf_topo *t, u32 cur, u32 dst)
{
	u32 i;
	s32 d;

	for (i = 0; i < t->ndims; i++) {
		d = mf_topo_delta(t, cur, dst, i);
		if (d)
			return d > 0 ? (int)(2 * i) : (int)(2 * i + 1);
	}
	return -ENOENT;
}

int mf_route_next(const struct mf_topo *t, u32 routing, u32 cur, u32 dst)
{
	if (cur >= t->nodes || dst >= t->nodes || mf_route_valid(t, routing))
		return -EINVAL;
	if (cur == dst)
		return -ENOENT;
	switch (mf_route_resolve(t, routing)) {
	case MESHFABRIC_ROUTE_DOR:
		return mf_route_dor_next(t, cur, dst);
	case MESHFABRIC_ROUTE_DIAGONAL:
		return mf_route_diagonal_next(t, cur, dst);
	case MESHFABRIC_ROUTE_CDO:
		return mf_route_cdo_next(t, cur, dst);
	case MESHFABRIC_ROUTE_A1:
		return mf_hex_route_next(t->dims[0], cur, dst);
	}
	return -EINVAL;
}

int mf_route_path(const struct mf_topo *t, u32 routing, u32 src, u32 dst,
		  u32 *path, u32 max)
{
	u32 len = 0, cur = src, limit = mf_topo_diameter(t);
	int port;
	s64 next;

	if (src >= t->nodes || dst >= t->nodes || !max)
		return -EINVAL;
	path[0] = src;
	while (cur != dst) {
		port = mf_route_next(t, routing, cur, dst);
		if (port < 0)
			return port;
		next = mf_topo_neighbor(t, cur, (u32)port);
		if (next < 0 || len >= limit)
			return -EINVAL;	/* a routing bug, never loop */
		if (len + 2 > max)
			return -ERANGE;
		cur = (u32)next;
		path[++len] = cur;
	}
	return (int)len;
}
