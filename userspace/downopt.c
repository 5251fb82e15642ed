// SPDX-License-Identifier: GPL-2.0
/*
 * downopt.c - --down NODE:PORT and --down-node NODE (downopt.h).
 */
#include <string.h>

#include "downopt.h"
#include "parse.h"

int mf_down_arg_add(struct mf_down_args *d, const char *val, bool node,
		    char *err, size_t errlen)
{
	if (d->n >= MF_DOWN_ARGS_MAX)
		return mf_err(err, errlen, "at most %u --down and --down-node options",
			      MF_DOWN_ARGS_MAX);
	d->val[d->n] = val;
	d->node[d->n++] = node;
	return 0;
}

static void port_list(const struct mf_topo *t, char *buf, size_t len)
{
	size_t off = 0;
	char name[16];
	u32 p;

	buf[0] = '\0';
	for (p = 0; p < t->nports && off < len; p++) {
		mf_format_port(t, p, name, sizeof(name));
		off += snprintf(buf + off, len - off, "%s%s", p ? ", " : "", name);
	}
}

static int one_link(const char *val, const struct mf_topo *t,
		    struct mf_faults *f, char *err, size_t errlen)
{
	const char *colon = strrchr(val, ':');
	char node[64], ports[96];
	u32 id, port;
	int r;

	if (!colon || colon == val || !colon[1] ||
	    (size_t)(colon - val) >= sizeof(node))
		return mf_err(err, errlen, "--down '%.40s': expected NODE:PORT, e.g. 3,4:x+",
			      val);
	memcpy(node, val, colon - val);
	node[colon - val] = '\0';
	if (mf_parse_node(t, node, &id, err, errlen))
		return -1;
	if (mf_parse_port(t, colon + 1, &port)) {
		port_list(t, ports, sizeof(ports));
		return mf_err(err, errlen, "--down '%.40s': no port '%.16s' (%s)", val,
			      colon + 1, ports);
	}
	r = mf_faults_add_link(f, t, id, port);
	if (r == -ENOENT)
		return mf_err(err, errlen, "--down '%.40s': no link there (mesh border)",
			      val);
	if (r)
		return mf_err(err, errlen, "--down '%.40s': %s", val,
			      r == -E2BIG ? "too many down links" : strerror(-r));
	return 0;
}

int mf_down_args_build(const struct mf_down_args *d, const struct mf_topo *t,
		       struct mf_faults *f, char *err, size_t errlen)
{
	u32 i, id;
	int r;

	mf_faults_init(f);
	for (i = 0; i < d->n; i++) {
		if (!d->node[i]) {
			if (one_link(d->val[i], t, f, err, errlen))
				return -1;
			continue;
		}
		if (mf_parse_node(t, d->val[i], &id, err, errlen))
			return -1;
		r = mf_faults_add_node(f, t, id);
		if (r)
			return mf_err(err, errlen, "--down-node '%.40s': %s", d->val[i],
				      r == -E2BIG ? "too many down links" : strerror(-r));
	}
	return 0;
}
