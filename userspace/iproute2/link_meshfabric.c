// SPDX-License-Identifier: GPL-2.0
/*
 * link_meshfabric.c - iproute2 plugin for the "meshfabric" link kind:
 * `ip -d link show` prints a node interface's fabric and coordinates
 *
 *     meshfabric fabric t id 0 node 3 coords (1,1) kind torus dims 2x2
 *
 * and `ip -j -d link show` the same under "linkinfo": {"info_data": {...}}
 * as "fabric", "fabric_id", "node", "coords" [..], "kind", "dims" [..].
 * The attributes are IFLA_MESHFABRIC_* of the uapi meshfabric.h, filled
 * by the module's rtnl_link_ops (drivers/net/meshfabric/netdev.c).
 *
 * ip finds the plugin as $IP_LIB_DIR/link_<kind>.so (default LIBDIR/ip:
 * /usr/lib/ip upstream, /usr/lib/<multiarch>/ip on Debian; make install
 * uses IPLIBDIR) and looks up the symbol <kind>_link_util (iproute2's
 * ip/iplink.c, get_link_kind).  The plugin is built without iproute2's
 * sources: struct link_util is declared here with the layout of
 * iproute2 6.1 (Debian 12) ip/ip_common.h, unchanged since 5.x, and ip's
 * JSON printers (print_color_string, print_color_uint, open_json_array,
 * close_json_array of lib/json_print.c; print_string and print_uint are
 * inline wrappers of the first two) are found at run time with dlsym(),
 * which works because ip is linked with -export-dynamic as upstream's
 * Makefile does.  Should they be missing, the plugin prints the text
 * form with fprintf() (JSON output then lacks info_data's fields).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/meshfabric.h>
#include "topo.h"

/* iproute2 6.1 ip/ip_common.h: the layout ip expects (do not reorder) */
struct link_util {
	struct link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n);
	void (*print_opt)(struct link_util *lu, FILE *f, struct rtattr *tb[]);
	void (*print_xstats)(struct link_util *lu, FILE *f,
			     struct rtattr *xstats);
	void (*print_help)(struct link_util *lu, int argc, char **argv,
			   FILE *f);
	int (*parse_ifla_xstats)(struct link_util *lu, int argc, char **argv);
	int (*print_ifla_xstats)(struct nlmsghdr *n, void *arg);
};

/* iproute2 6.1 include/json_print.h and include/color.h */
enum { MF_PRINT_FP = 1, MF_PRINT_JSON = 2, MF_PRINT_ANY = 4 };
#define MF_COLOR_NONE	6

typedef int (*mf_print_str_fn)(int type, int color, const char *key,
			       const char *fmt, const char *value);
typedef int (*mf_print_uint_fn)(int type, int color, const char *key,
				const char *fmt, unsigned int value);
typedef void (*mf_json_array_fn)(int type, const char *str);

static struct {
	bool resolved;
	mf_print_str_fn str;
	mf_print_uint_fn uint;
	mf_json_array_fn open_arr;
	mf_json_array_fn close_arr;
} ip;

/* Look ip's printers up once; false if any is missing. */
static bool mf_ip_printers(void)
{
	if (!ip.resolved) {
		ip.resolved = true;
		/* casts through void *: POSIX's way for dlsym() results */
		*(void **)&ip.str = dlsym(RTLD_DEFAULT, "print_color_string");
		*(void **)&ip.uint = dlsym(RTLD_DEFAULT, "print_color_uint");
		*(void **)&ip.open_arr = dlsym(RTLD_DEFAULT, "open_json_array");
		*(void **)&ip.close_arr = dlsym(RTLD_DEFAULT, "close_json_array");
	}
	return ip.str && ip.uint && ip.open_arr && ip.close_arr;
}

/* u32 attribute a, or false if absent or short */
static bool mf_attr_u32(const struct rtattr *a, __u32 *v)
{
	if (!a || RTA_PAYLOAD(a) < sizeof(*v))
		return false;
	memcpy(v, RTA_DATA(a), sizeof(*v));
	return true;
}

/* u32 array attribute a into v (MESHFABRIC_MAX_DIMS entries): entries */
static unsigned int mf_attr_arr(const struct rtattr *a, __u32 *v)
{
	unsigned int n;

	if (!a)
		return 0;
	n = RTA_PAYLOAD(a) / sizeof(*v);
	if (n > MESHFABRIC_MAX_DIMS)
		n = MESHFABRIC_MAX_DIMS;
	memcpy(v, RTA_DATA(a), n * sizeof(*v));
	return n;
}

/* "1,2,3" (sep ",") or "4x4" (sep "x") */
static void mf_join(char *buf, size_t len, const __u32 *v, unsigned int n,
		    const char *sep)
{
	size_t k = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? sep : "",
				      v[i]);
}

/* JSON array key of n entries (ip's printers resolved) */
static void mf_json_u32s(const char *key, const __u32 *v, unsigned int n)
{
	unsigned int i;

	ip.open_arr(MF_PRINT_JSON, key);
	for (i = 0; i < n; i++)
		ip.uint(MF_PRINT_JSON, MF_COLOR_NONE, NULL, NULL, v[i]);
	ip.close_arr(MF_PRINT_JSON, NULL);
}

static void meshfabric_print_opt(struct link_util *lu, FILE *f,
				 struct rtattr *tb[])
{
	__u32 id = 0, node = 0, kind = 0;
	__u32 coords[MESHFABRIC_MAX_DIMS], dims[MESHFABRIC_MAX_DIMS];
	char name[MESHFABRIC_NAME_LEN] = "", cs[128], ds[128];
	unsigned int nc, nd;
	const struct rtattr *a;

	if (!tb)
		return;
	a = tb[IFLA_MESHFABRIC_FABRIC_NAME];
	if (a)
		snprintf(name, sizeof(name), "%.*s", (int)RTA_PAYLOAD(a),
			 (const char *)RTA_DATA(a));
	mf_attr_u32(tb[IFLA_MESHFABRIC_FABRIC_ID], &id);
	mf_attr_u32(tb[IFLA_MESHFABRIC_NODE], &node);
	mf_attr_u32(tb[IFLA_MESHFABRIC_KIND], &kind);
	nc = mf_attr_arr(tb[IFLA_MESHFABRIC_COORDS], coords);
	nd = mf_attr_arr(tb[IFLA_MESHFABRIC_DIMS], dims);
	mf_join(cs, sizeof(cs), coords, nc, ",");
	mf_join(ds, sizeof(ds), dims, nd, "x");

	if (!mf_ip_printers()) {
		fprintf(f, "fabric %s id %u node %u coords (%s) kind %s dims %s ",
			name, id, node, cs, mf_topo_kind_name(kind), ds);
		return;
	}
	ip.str(MF_PRINT_ANY, MF_COLOR_NONE, "fabric", "fabric %s ", name);
	ip.uint(MF_PRINT_ANY, MF_COLOR_NONE, "fabric_id", "id %u ", id);
	ip.uint(MF_PRINT_ANY, MF_COLOR_NONE, "node", "node %u ", node);
	ip.str(MF_PRINT_FP, MF_COLOR_NONE, NULL, "coords (%s) ", cs);
	mf_json_u32s("coords", coords, nc);
	ip.str(MF_PRINT_ANY, MF_COLOR_NONE, "kind", "kind %s ",
	       mf_topo_kind_name(kind));
	ip.str(MF_PRINT_FP, MF_COLOR_NONE, NULL, "dims %s ", ds);
	mf_json_u32s("dims", dims, nd);
}

static void meshfabric_print_help(struct link_util *lu, int argc,
				  char **argv, FILE *f)
{
	fprintf(f,
		"meshfabric links are created by `meshfabric create`, not by\n"
		"ip link add; ip -d link show prints their fabric and node.\n");
}

__attribute__((visibility("default")))
struct link_util meshfabric_link_util = {
	.id = "meshfabric",
	.maxattr = IFLA_MESHFABRIC_MAX,
	.print_opt = meshfabric_print_opt,
	.print_help = meshfabric_print_help,
};
