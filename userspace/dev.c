// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - ioctl wrappers of /dev/meshfabric and fabric lookup by name
 * (contract in dev.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "cli.h"
#include "dev.h"

static int dev_fd = -1;

int mf_dev_open(void)
{
	if (dev_fd >= 0)
		return 0;
	dev_fd = open(MF_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (dev_fd < 0 && (errno == EACCES || errno == EPERM))
		dev_fd = open(MF_DEV_PATH, O_RDONLY | O_CLOEXEC);
	return dev_fd < 0 ? -errno : 0;
}

int mf_dev_open_or_fail(void)
{
	int err = mf_dev_open();

	if (!err)
		return 0;
	if (err == -ENOENT || err == -ENXIO || err == -ENODEV)
		mf_fail(MF_DEV_PATH ": no such device; "
			"is meshfabric.ko loaded? "
			"(modprobe meshfabric)");
	else
		mf_fail(MF_DEV_PATH ": %s", strerror(-err));
	return -1;
}

const char *mf_dev_strerror(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return "operation not permitted "
		       "(needs CAP_NET_ADMIN: run as root)";
	case E2BIG:
		return "over a limit (65536 nodes per fabric; 64 fabrics for "
		       "root; 16 fabrics, 65536 nodes and 64 MiB per user "
		       "namespace)";
	case ENOMEM:
		return "out of memory";
	default:
		return strerror(err);
	}
}

static int xioctl(unsigned long cmd, void *arg)
{
	int err = mf_dev_open();

	if (err)
		return err;
	return ioctl(dev_fd, cmd, arg) ? -errno : 0;
}

int mf_dev_create(struct meshfabric_create *c)
{
	return xioctl(MESHFABRIC_IOC_CREATE, c);
}

int mf_dev_destroy(uint32_t id, uint32_t flags)
{
	struct meshfabric_destroy d;

	memset(&d, 0, sizeof(d));
	d.id = id;
	d.flags = flags;
	return xioctl(MESHFABRIC_IOC_DESTROY, &d);
}

int mf_dev_info(uint32_t id, struct meshfabric_info *in,
		struct meshfabric_node_info *nodes, uint32_t first,
		uint32_t count)
{
	memset(in, 0, sizeof(*in));
	in->id = id;
	if (nodes) {
		in->nodes_ptr = (uintptr_t)nodes;
		in->first = first;
		in->count = count;
	}
	return xioctl(MESHFABRIC_IOC_INFO, in);
}

/* The fabric named name: the caller's own if it has one by that name (a
 * name is unique per owner), else the only visible one; -ENOENT, or
 * -ENOTUNIQ when fabrics of several user namespaces below share it.
 */
int mf_dev_find(const char *name, struct meshfabric_info *in)
{
	struct meshfabric_info tmp;
	uint32_t id, found = 0;
	int err;

	for (id = 0; id < MESHFABRIC_MAX_IDS; id++) {
		err = mf_dev_info(id, &tmp, NULL, 0, 0);
		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		if (strncmp((const char *)tmp.name, name, MESHFABRIC_NAME_LEN))
			continue;
		if (tmp.own) {
			*in = tmp;
			return 0;
		}
		if (!found++)
			*in = tmp;
	}
	return found == 1 ? 0 : found ? -ENOTUNIQ : -ENOENT;
}

int mf_dev_nodes(const struct meshfabric_info *in,
		 struct meshfabric_node_info **nodes)
{
	struct meshfabric_info tmp;
	int err;

	*nodes = calloc(in->nodes ? in->nodes : 1, sizeof(**nodes));
	if (!*nodes)
		return -ENOMEM;
	err = mf_dev_info(in->id, &tmp, *nodes, 0, in->nodes);
	if (!err && tmp.count != in->nodes)
		err = -EIO;
	if (err) {
		free(*nodes);
		*nodes = NULL;
	}
	return err;
}

int mf_dev_topo(const struct meshfabric_info *in, struct mf_topo *t)
{
	return mf_topo_init(t, in->kind, in->ndims, in->dims);
}

int mf_dev_attach(uint32_t id, struct meshfabric_attach_entry *e,
		  uint32_t count, uint32_t *done)
{
	struct meshfabric_attach a;
	int err;

	memset(&a, 0, sizeof(a));
	a.id = id;
	a.entries_ptr = (uintptr_t)e;
	a.count = count;
	err = xioctl(MESHFABRIC_IOC_ATTACH, &a);
	*done = a.done;
	return err;
}

int mf_dev_bcast(struct meshfabric_bcast *b)
{
	return xioctl(MESHFABRIC_IOC_BCAST, b);
}

int mf_dev_sched_load(struct meshfabric_sched_load *sl)
{
	return xioctl(MESHFABRIC_IOC_SCHED_LOAD, sl);
}

int mf_dev_collective(struct meshfabric_collective *c)
{
	return xioctl(MESHFABRIC_IOC_COLLECTIVE, c);
}

int mf_dev_route(uint32_t id, uint32_t src, uint32_t dst, uint32_t *path,
		 uint32_t max)
{
	struct meshfabric_route r;
	int err;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.src = src;
	r.dst = dst;
	r.path_ptr = (uintptr_t)path;
	r.path_max = max;
	err = xioctl(MESHFABRIC_IOC_ROUTE, &r);
	return err ? err : (int)r.hops;
}

/* How LINK_STATS and LINK_GET requests both begin. */
struct link_array_req {
	__u32 id;
	__u32 flags;
	__u64 links_ptr;
	__u32 first;
	__u32 count;
	__u32 nlinks;
};

#define LINK_ARRAY_REQ_LIKE(type) \
	_Static_assert(offsetof(type, nlinks) == \
		       offsetof(struct link_array_req, nlinks) && \
		       offsetof(type, links_ptr) == \
		       offsetof(struct link_array_req, links_ptr) && \
		       sizeof(type) <= 64, #type " begins as link_array_req")
LINK_ARRAY_REQ_LIKE(struct meshfabric_link_stats);
LINK_ARRAY_REQ_LIKE(struct meshfabric_link_get);

/*
 * The two calls of LINK_STATS and LINK_GET: the request as the caller
 * filled it (outputs zero, as the kernel wants) gives nlinks; the same
 * again with flags and an array of that many entries of size bytes
 * (*e, free it) fills it, *n entries.  req holds the second answer.
 */
static int link_array(unsigned long cmd, void *req, size_t len, __u32 flags,
		      size_t size, void **e, uint32_t *n)
{
	unsigned char asked[64];
	struct link_array_req h;
	int err;

	*e = NULL;
	memcpy(asked, req, len);
	err = xioctl(cmd, req);
	if (err)
		return err;
	memcpy(&h, req, sizeof(h));
	*e = calloc(h.nlinks ? h.nlinks : 1, size);
	if (!*e)
		return -ENOMEM;
	memcpy(req, asked, len);
	h.links_ptr = (uintptr_t)*e;
	h.count = h.nlinks;
	h.nlinks = 0;
	h.flags = flags;
	memcpy(req, &h, sizeof(h));
	err = xioctl(cmd, req);
	if (err) {
		free(*e);
		*e = NULL;
		return err;
	}
	memcpy(&h, req, sizeof(h));
	*n = h.count;
	return 0;
}

int mf_dev_links(uint32_t id, bool reset, struct meshfabric_link_entry **e,
		 uint32_t *n)
{
	struct meshfabric_link_stats ls;
	void *a;
	int err;

	memset(&ls, 0, sizeof(ls));
	ls.id = id;
	err = link_array(MESHFABRIC_IOC_LINK_STATS, &ls, sizeof(ls),
			 reset ? MESHFABRIC_LINK_STATS_RESET : 0, sizeof(**e),
			 &a, n);
	*e = a;
	return err;
}

int mf_dev_lookup_or_fail(const struct mf_cmd *cmd, const char *name,
			  struct meshfabric_info *in, struct mf_topo *t)
{
	int err;

	if (!name)
		return mf_usage(cmd, "which fabric? (meshfabric list)");
	if (mf_dev_open_or_fail())
		return MF_EXIT_FAIL;
	err = mf_dev_find(name, in);
	if (err == -ENOENT)
		return mf_fail("no fabric named '%.40s' (meshfabric list)",
			       name);
	if (err == -ENOTUNIQ)
		return mf_fail("fabric name '%.40s' is used in several user "
			       "namespaces below yours: run the command there",
			       name);
	if (err)
		return mf_fail("fabric information: %s", strerror(-err));
	err = mf_dev_topo(in, t);
	if (err)
		return mf_fail("fabric %s: unknown topology (kind %u)", name,
			       in->kind);
	return MF_EXIT_OK;
}

int mf_dev_link_set(struct meshfabric_link_set *ls)
{
	return xioctl(MESHFABRIC_IOC_LINK_SET, ls);
}

int mf_dev_tunnel_set(struct meshfabric_tunnel *tu)
{
	return xioctl(MESHFABRIC_IOC_TUNNEL_SET, tu);
}

int mf_dev_tunnel_get(struct meshfabric_tunnel *tu)
{
	return xioctl(MESHFABRIC_IOC_TUNNEL_GET, tu);
}

int mf_dev_port(struct meshfabric_port *mp)
{
	return xioctl(MESHFABRIC_IOC_PORT, mp);
}

int mf_dev_port_get(uint32_t id, struct meshfabric_port_info *pi,
		    uint32_t *n)
{
	struct meshfabric_port_get pg;
	int err;

	memset(&pg, 0, sizeof(pg));
	pg.id = id;
	pg.ports_ptr = (uintptr_t)pi;
	pg.count = MESHFABRIC_PORTS_MAX;
	err = xioctl(MESHFABRIC_IOC_PORT_GET, &pg);
	if (err)
		return err;
	*n = pg.count;
	return 0;
}

int mf_dev_xlink_get(uint32_t id, uint32_t nlinks,
		     struct meshfabric_link_info *e, uint32_t *n)
{
	struct meshfabric_link_get lg;
	uint32_t i, k = 0;
	int err;

	memset(&lg, 0, sizeof(lg));
	lg.id = id;
	lg.flags = MESHFABRIC_LINK_XPORTS;
	lg.first = nlinks;
	lg.count = MESHFABRIC_PORTS_MAX;
	lg.links_ptr = (uintptr_t)e;
	err = xioctl(MESHFABRIC_IOC_LINK_GET, &lg);
	if (err)
		return err;
	for (i = 0; i < lg.count && i < MESHFABRIC_PORTS_MAX; i++)
		if (e[i].node != MESHFABRIC_ALL)
			e[k++] = e[i];
	*n = k;
	return 0;
}

int mf_dev_link_get(uint32_t id, struct meshfabric_link_info **e,
		    uint32_t *n, struct meshfabric_link_get *out)
{
	struct meshfabric_link_get lg;
	void *a;
	int err;

	memset(&lg, 0, sizeof(lg));
	lg.id = id;
	err = link_array(MESHFABRIC_IOC_LINK_GET, &lg, sizeof(lg), 0,
			 sizeof(**e), &a, n);
	*e = a;
	if (!err && out)
		*out = lg;
	return err;
}
