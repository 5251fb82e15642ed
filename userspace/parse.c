// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - parsing and printing of topologies, nodes and names
 * (contract in parse.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "route.h"

int mf_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Parse decimal digits at *p (no sign); 1 if it overflowed max, -1 if none. */
static int scan_u64(const char **p, u64 max, u64 *v)
{
	const char *s = *p;
	u64 x = 0;
	bool big = false;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (!big && x > (max - (u64)(*s - '0')) / 10)
			big = true;
		if (!big)
			x = x * 10 + (u64)(*s - '0');
	}
	*p = s;
	*v = x;
	return big ? 1 : 0;
}

int mf_parse_u32(const char *s, u32 min, u32 max, u32 *v)
{
	u64 x;

	if (!s || scan_u64(&s, U32_MAX, &x) || *s || x < min || x > max)
		return -1;
	*v = (u32)x;
	return 0;
}

int mf_parse_dims(const char *s, u32 *dims, u32 *ndims, char *err,
		  size_t errlen)
{
	const char *p = s;
	u64 v, nodes = 1;
	u32 n = 0;
	int r;

	if (!*s)
		return mf_err(err, errlen, "empty size list (expected e.g. 8x8)");
	for (;;) {
		if (n == MF_MAX_DIMS)
			return mf_err(err, errlen,
				    "'%.60s': more than %u dimensions", s,
				    MF_MAX_DIMS);
		r = scan_u64(&p, MF_MAX_NODES, &v);
		if (r < 0) {
			if (!*p)
				return mf_err(err, errlen,
					    "'%.60s': missing size after 'x'",
					    s);
			return mf_err(err, errlen,
				    "'%.60s': '%c' where a size was expected",
				    s, *p);
		}
		if (r > 0)
			return mf_err(err, errlen,
				    "'%.60s': size too large (the limit is %u "
				    "nodes)",
				    s, MF_MAX_NODES);
		if (v < 2)
			return mf_err(err, errlen,
				    "'%.60s': size %llu too small (each size "
				    "must be >= 2)",
				    s, (unsigned long long)v);
		nodes *= v;
		if (nodes > MF_MAX_NODES)
			return mf_err(err, errlen,
				    "'%.60s': too many nodes (the limit is %u)",
				    s,
				    MF_MAX_NODES);
		dims[n++] = (u32)v;
		if (!*p)
			break;
		if (*p != 'x' && *p != 'X')
			return mf_err(err, errlen,
				    "'%.60s': '%c' where 'x' was expected",
				    s, *p);
		p++;
	}
	*ndims = n;
	return 0;
}

int mf_parse_topo(u32 kind, const char *s, struct mf_topo *t, char *err,
		  size_t errlen)
{
	u32 dims[MF_MAX_DIMS], ndims = 1;
	const char *opt = kind == MESHFABRIC_KIND_HEX ? "--hex" :
			  kind == MESHFABRIC_KIND_MESH ? "--mesh" : "--torus";
	char why[128];
	u64 v;
	int r;

	if (kind == MESHFABRIC_KIND_HEX) {
		const char *p = s;

		r = scan_u64(&p, U32_MAX, &v);
		if (r < 0 || *p)
			return mf_err(err, errlen,
				    "%s '%.60s': expected a number N >= 2",
				    opt, s);
		if (!r && v < 2)
			return mf_err(err, errlen, "%s %llu: N must be >= 2", opt,
				    (unsigned long long)v);
		if (r || v > 8192 || 3 * v * v - 3 * v + 1 > MF_MAX_NODES)
			return mf_err(err, errlen,
				    "%s '%.60s': too many nodes (the limit is "
				    "%u)", opt, s,
				    MF_MAX_NODES);
		dims[0] = (u32)v;
	} else if (mf_parse_dims(s, dims, &ndims, why, sizeof(why))) {
		return mf_err(err, errlen, "%s %s", opt, why);
	}
	r = mf_topo_init(t, kind, ndims, dims);
	if (r)
		return mf_err(err, errlen, "%s '%.60s': invalid topology", opt,
			    s);
	return 0;
}

int mf_topo_arg_set(struct mf_topo_arg *ta, int key, const char *text,
		    char *err, size_t errlen)
{
	if (ta->kind)
		return mf_err(err, errlen,
			    "give only one topology (--mesh, --torus or "
			    "--hex)");
	ta->kind = (u32)(key - 0x100);
	ta->text = text;
	return 0;
}

int mf_topo_arg_build(const struct mf_topo_arg *ta, struct mf_topo *t,
		      char *err, size_t errlen)
{
	if (!ta->kind)
		return mf_err(err, errlen,
			    "no topology given (--mesh AxBx..., --torus "
			    "AxBx... or --hex N)");
	return mf_parse_topo(ta->kind, ta->text, t, err, errlen);
}

int mf_parse_node(const struct mf_topo *t, const char *s, u32 *id, char *err,
		  size_t errlen)
{
	u32 c[MF_MAX_DIMS], n = 0;
	const char *p = s;
	char shape[96];
	u64 v;
	int r;

	mf_format_shape(t, shape, sizeof(shape));
	if (!strchr(s, ',')) {
		r = scan_u64(&p, U32_MAX, &v);
		if (r < 0 || *p)
			return mf_err(err, errlen,
				    "node '%.40s': expected %s", s,
				    t->kind == MESHFABRIC_KIND_HEX ?
				    "an address"
				    : "coordinates like 3,4 or a node id");
		if (r || v >= t->nodes)
			return mf_err(err, errlen,
				    "node %.40s: not in %s %s (0..%u)", s,
				    mf_topo_kind_name(t->kind), shape,
				    t->nodes - 1);
		*id = (u32)v;
		return 0;
	}
	if (t->kind == MESHFABRIC_KIND_HEX)
		return mf_err(err, errlen,
			    "node '%.40s': hex nodes are given by their "
			    "address (0..%u)",
			    s, t->nodes - 1);
	for (;;) {
		if (n == t->ndims)
			return mf_err(err, errlen,
				    "node '%.40s': %s %s has %u coordinates",
				    s, mf_topo_kind_name(t->kind), shape,
				    t->ndims);
		r = scan_u64(&p, U32_MAX, &v);
		if (r < 0)
			return mf_err(err, errlen, "node '%.40s': bad coordinate",
				    s);
		if (r || v >= t->dims[n])
			return mf_err(err, errlen,
				    "node '%.40s': coordinate %u must be below "
				    "%u", s, n,
				    t->dims[n]);
		c[n++] = (u32)v;
		if (!*p)
			break;
		if (*p != ',')
			return mf_err(err, errlen, "node '%.40s': bad coordinate",
				    s);
		p++;
	}
	if (n != t->ndims)
		return mf_err(err, errlen,
			    "node '%.40s': %s %s has %u coordinates", s,
			    mf_topo_kind_name(t->kind), shape, t->ndims);
	*id = mf_topo_id(t, c);
	return 0;
}

int mf_parse_algo(const char *s, u32 *id, char *err, size_t errlen)
{
	const struct mf_algo *a;
	char known[160] = "auto";
	size_t len;
	u32 i;

	if (!strcmp(s, "auto")) {
		*id = MESHFABRIC_ALGO_AUTO;
		return 0;
	}
	a = mf_algo_by_name(s);
	if (a) {
		*id = a->id;
		return 0;
	}
	for (i = 0; mf_algos[i]; i++) {
		len = strlen(known);
		snprintf(known + len, sizeof(known) - len, ", %s",
			 mf_algos[i]->name);
	}
	return mf_err(err, errlen, "unknown algorithm '%.40s' (known: %s)", s,
		    known);
}

int mf_parse_routing(const char *s, u32 *routing, char *err, size_t errlen)
{
	int r = mf_route_by_name(s);

	if (r < 0)
		return mf_err(err, errlen,
			    "unknown routing '%.40s' (known: dor, diagonal, "
			    "cdo, a1, default)",
			    s);
	*routing = (u32)r;
	return 0;
}

int mf_pick(const char *s, const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	return -1;
}

int mf_parse_model(const char *s, u32 *model, char *err, size_t errlen)
{
	static const char *const names[] = {
		[MESHFABRIC_MODEL_ONE_PORT] = "one-port",
		[MESHFABRIC_MODEL_ALL_PORT] = "all-port",
	};
	int m = mf_pick(s, names, sizeof(names) / sizeof(names[0]));

	if (m < 0)
		return mf_err(err, errlen,
			    "unknown port model '%.40s' (known: one-port, "
			    "all-port)", s);
	*model = (u32)m;
	return 0;
}

const char *mf_model_name(u32 model)
{
	return model == MESHFABRIC_MODEL_ALL_PORT ? "all-port" : "one-port";
}

void mf_format_shape(const struct mf_topo *t, char *buf, size_t len)
{
	size_t n = 0;
	u32 i;

	if (t->kind == MESHFABRIC_KIND_HEX) {
		snprintf(buf, len, "H_%u", t->dims[0]);
		return;
	}
	buf[0] = 0;
	for (i = 0; i < t->ndims && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, i ? "x%u" : "%u",
				      t->dims[i]);
}

void mf_format_coords(const struct mf_topo *t, u32 id, char sep, char *buf,
		      size_t len)
{
	u32 c[MF_MAX_DIMS], i;
	size_t n = 0;

	if (t->kind == MESHFABRIC_KIND_HEX) {
		snprintf(buf, len, "%u", id);
		return;
	}
	mf_topo_coords(t, id, c);
	buf[0] = 0;
	for (i = 0; i < t->ndims && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%.*s%u", i ? 1 : 0,
				      &sep, c[i]);
}

void mf_format_node(const struct mf_topo *t, u32 id, char *buf, size_t len)
{
	mf_format_coords(t, id, ',', buf, len);
}

void mf_format_mac(u32 fabric, u32 node, char *buf, size_t len)
{
	snprintf(buf, len, "02:6d:%02x:%02x:%02x:%02x", fabric & 255,
		 (node >> 16) & 255, (node >> 8) & 255, node & 255);
}

void mf_format_port(const struct mf_topo *t, u32 port, char *buf, size_t len)
{
	if (port >= t->nports)		/* an external port's extra port */
		snprintf(buf, len, "e%u", port - t->nports);
	else
		mf_topo_port_name(t, port, buf, len);	/* ethtool's names */
}

int mf_routing_for(const struct mf_topo *t, u32 routing, u32 *out, char *err,
		   size_t errlen)
{
	static const char *const kinds[] = {
		[MESHFABRIC_KIND_MESH] = "meshes",
		[MESHFABRIC_KIND_TORUS] = "tori",
		[MESHFABRIC_KIND_HEX] = "hexagonal meshes",
	};

	if (mf_route_valid(t, routing))
		return mf_err(err, errlen, "routing %s is not defined on %s",
			      mf_route_name(routing), kinds[t->kind]);
	*out = mf_route_resolve(t, routing);
	return 0;
}

/* Port of t named name ("x+", "+11") or numbered ("0".."nports-1"). */
int mf_parse_port(const struct mf_topo *t, const char *name, u32 *port)
{
	char buf[16];
	u32 p;

	for (p = 0; p < t->nports; p++) {
		mf_format_port(t, p, buf, sizeof(buf));
		if (!strcmp(buf, name)) {
			*port = p;
			return 0;
		}
	}
	return mf_parse_u32(name, 0, t->nports - 1, port);
}

int mf_parse_xport(const struct mf_topo *t, const char *name, u32 *port)
{
	u32 k;

	if (name[0] == 'e' &&
	    !mf_parse_u32(name + 1, 0, MESHFABRIC_PORTS_MAX - 1, &k)) {
		*port = t->nports + k;
		return 0;
	}
	return mf_parse_port(t, name, port);
}
