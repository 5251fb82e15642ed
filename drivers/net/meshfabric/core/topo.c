// SPDX-License-Identifier: GPL-2.0
/* Mesh, torus and hexagonal-mesh addressing (contract in topo.h).
 */
#include "topo.h"

int mf_topo_init(struct mf_topo *t, u32 kind, u32 ndims, const u32 *dims)
{
	u64 nodes = 1;
	u32 i;

	memset(t, 0, sizeof(*t));
	if (kind == MESHFABRIC_KIND_HEX) {
		u64 n;

		if (ndims != 1 || dims[0] < 2)
			return -EINVAL;
		n = dims[0];
		if (n > 8192)
			return -E2BIG;
		nodes = 3 * n * n - 3 * n + 1;
		if (nodes > MF_MAX_NODES)
			return -E2BIG;
		t->kind = kind;
		t->ndims = 1;
		t->dims[0] = (u32)n;
		t->stride[0] = 1;
		t->nodes = (u32)nodes;
		t->nports = MF_HEX_PORTS;
		return 0;
	}
	if (kind != MESHFABRIC_KIND_MESH && kind != MESHFABRIC_KIND_TORUS)
		return -EINVAL;
	if (ndims < 1 || ndims > MF_MAX_DIMS)
		return -EINVAL;
	for (i = 0; i < ndims; i++) {
		if (dims[i] < 2)
			return -EINVAL;
		if (dims[i] > MF_MAX_NODES)
			return -E2BIG;
		t->stride[i] = (u32)nodes;
		nodes *= dims[i];
		if (nodes > MF_MAX_NODES)
			return -E2BIG;
		t->dims[i] = dims[i];
	}
	t->kind = kind;
	t->ndims = ndims;
	t->nodes = (u32)nodes;
	t->nports = 2 * ndims;
	return 0;
}

void mf_topo_coords(const struct mf_topo *t, u32 id, u32 *c)
{
	u32 i;

	if (t->kind == MESHFABRIC_KIND_HEX) {
		c[0] = id;
		return;
	}
	for (i = 0; i < t->ndims; i++) {
		c[i] = id % t->dims[i];
		id /= t->dims[i];
	}
}

u32 mf_topo_id(const struct mf_topo *t, const u32 *c)
{
	u32 id = 0, i;

	if (t->kind == MESHFABRIC_KIND_HEX)
		return c[0];
	for (i = 0; i < t->ndims; i++)
		id += c[i] * t->stride[i];
	return id;
}

static u32 hex_offset(u32 n, u32 port)
{
	u32 p = 3 * n * n - 3 * n + 1;
	u32 off;

	switch (port / 2) {
	case 0:
		off = 1;
		break;
	case 1:
		off = 3 * n - 1;
		break;
	default:
		off = 3 * n - 2;
		break;
	}
	return (port & 1) ? p - off : off;
}

s64 mf_topo_neighbor(const struct mf_topo *t, u32 id, u32 port)
{
	u32 dim, x, n;

	if (port >= t->nports || id >= t->nodes)
		return -ENOENT;
	if (t->kind == MESHFABRIC_KIND_HEX)
		return ((u64)id + hex_offset(t->dims[0], port)) % t->nodes;
	dim = port / 2;
	n = t->dims[dim];
	x = (id / t->stride[dim]) % n;
	if (!(port & 1)) {
		if (x + 1 < n)
			return id + t->stride[dim];
		if (t->kind == MESHFABRIC_KIND_MESH)
			return -ENOENT;
		return id - (u64)(n - 1) * t->stride[dim];
	}
	if (x > 0)
		return id - t->stride[dim];
	if (t->kind == MESHFABRIC_KIND_MESH)
		return -ENOENT;
	return id + (u64)(n - 1) * t->stride[dim];
}

int mf_topo_port(const struct mf_topo *t, u32 a, u32 b)
{
	u32 i, xa, xb, n, dim = MF_MAX_DIMS, port = 0;

	if (a >= t->nodes || b >= t->nodes || a == b)
		return -EINVAL;
	if (t->kind == MESHFABRIC_KIND_HEX) {
		u32 off = (b + t->nodes - a) % t->nodes;

		for (i = 0; i < MF_HEX_PORTS; i++)
			if (hex_offset(t->dims[0], i) == off)
				return i;
		return -EINVAL;
	}
	for (i = 0; i < t->ndims; i++) {
		n = t->dims[i];
		xa = (a / t->stride[i]) % n;
		xb = (b / t->stride[i]) % n;
		if (xa == xb)
			continue;
		if (dim != MF_MAX_DIMS)
			return -EINVAL;	/* differ in two dimensions */
		dim = i;
		if (xb == xa + 1)
			port = 2 * i;
		else if (xa == xb + 1)
			port = 2 * i + 1;
		else if (t->kind == MESHFABRIC_KIND_TORUS && xa == n - 1 && xb == 0)
			port = 2 * i;
		else if (t->kind == MESHFABRIC_KIND_TORUS && xb == n - 1 && xa == 0)
			port = 2 * i + 1;
		else
			return -EINVAL;
		/* size-2 torus dimension: one link, named by the + port */
		if (t->kind == MESHFABRIC_KIND_TORUS && n == 2)
			port = 2 * i;
	}
	return dim == MF_MAX_DIMS ? -EINVAL : (int)port;
}

bool mf_topo_is_link(const struct mf_topo *t, u32 a, u32 port)
{
	s64 v = mf_topo_neighbor(t, a, port);

	return v >= 0 && mf_topo_port(t, a, (u32)v) == (int)port;
}

u32 mf_topo_degree(const struct mf_topo *t, u32 a)
{
	u32 p, deg = 0;

	for (p = 0; p < t->nports; p++)
		deg += mf_topo_is_link(t, a, p);
	return deg;
}

s32 mf_topo_delta(const struct mf_topo *t, u32 a, u32 b, u32 dim)
{
	u32 n = t->dims[dim];
	s32 xa = (s32)((a / t->stride[dim]) % n);
	s32 xb = (s32)((b / t->stride[dim]) % n);
	s32 d = xb - xa;

	if (t->kind == MESHFABRIC_KIND_TORUS) {
		if (d < 0)
			d += (s32)n;
		/* now 0 <= d < n: take the shorter way, ties towards + */
		if (2 * (u32)d > n)
			d -= (s32)n;
	}
	return d;
}

u32 mf_topo_distance(const struct mf_topo *t, u32 a, u32 b)
{
	u32 i, sum = 0;
	s32 d;

	if (t->kind == MESHFABRIC_KIND_HEX)
		return mf_hex_distance(t->dims[0], a, b);
	for (i = 0; i < t->ndims; i++) {
		d = mf_topo_delta(t, a, b, i);
		sum += (u32)(d < 0 ? -d : d);
	}
	return sum;
}

u32 mf_topo_diameter(const struct mf_topo *t)
{
	u32 i, sum = 0;

	if (t->kind == MESHFABRIC_KIND_HEX)
		return t->dims[0] - 1;	/* 003: H_n has diameter n - 1 */
	for (i = 0; i < t->ndims; i++)
		sum += t->kind == MESHFABRIC_KIND_MESH ? t->dims[i] - 1
						       : t->dims[i] / 2;
	return sum;
}

u32 mf_topo_add(const struct mf_topo *t, u32 id, u32 off)
{
	u32 i, r = 0, n;

	if (t->kind == MESHFABRIC_KIND_HEX)
		return (u32)(((u64)id + off) % t->nodes);
	for (i = 0; i < t->ndims; i++) {
		n = t->dims[i];
		r += (((id / t->stride[i]) % n + (off / t->stride[i]) % n) % n) *
		     t->stride[i];
	}
	return r;
}

u32 mf_topo_sub(const struct mf_topo *t, u32 b, u32 a)
{
	u32 i, r = 0, n;

	if (t->kind == MESHFABRIC_KIND_HEX)
		return (u32)(((u64)b + t->nodes - a) % t->nodes);
	for (i = 0; i < t->ndims; i++) {
		n = t->dims[i];
		r += (((b / t->stride[i]) % n + n - (a / t->stride[i]) % n) % n) *
		     t->stride[i];
	}
	return r;
}

void mf_topo_port_name(const struct mf_topo *t, u32 port, char *buf,
		       size_t len)
{
	static const char axis[] = "xyz";
	u32 n = t->dims[0], dim = port / 2;
	char sign = (port & 1) ? '-' : '+';

	if (t->kind == MESHFABRIC_KIND_HEX) {
		/* ports 0..5 are +1, -1, +(3n-1), -(3n-1), +(3n-2), -(3n-2) */
		u32 off = dim == 0 ? 1 : dim == 1 ? 3 * n - 1 : 3 * n - 2;

		snprintf(buf, len, "%c%u", sign, off);
	} else if (t->ndims <= 3) {
		snprintf(buf, len, "%c%c", axis[dim], sign);
	} else {
		snprintf(buf, len, "d%u%c", dim, sign);
	}
}

const char *mf_topo_kind_name(u32 kind)
{
	switch (kind) {
	case MESHFABRIC_KIND_MESH:
		return "mesh";
	case MESHFABRIC_KIND_TORUS:
		return "torus";
	case MESHFABRIC_KIND_HEX:
		return "hex";
	}
	return "unknown";
}
