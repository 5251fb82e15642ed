/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dev.h - the tool's access to meshfabric.ko: thin wrappers around the
 * ioctls of /dev/meshfabric (include/uapi/linux/meshfabric.h) and the
 * lookup of fabrics by name.
 *
 * A fabric's name (CREATE's name field, at most 15 characters) is its
 * handle for users; the kernel's id (0..MESHFABRIC_MAX_IDS-1) is
 * found again by asking INFO for every id.  Every function returns 0 or
 * a negative errno and prints nothing, except mf_dev_open_or_fail which
 * prints the one-line error of the tool.
 */
#ifndef MF_DEV_H
#define MF_DEV_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/meshfabric.h>

#include "topo.h"

#define MF_DEV_PATH "/dev/meshfabric"

/* Open /dev/meshfabric once (cached); -errno. */
int mf_dev_open(void);
/*
 * mf_dev_open, or print the tool's one-line error (module missing, no
 * permission) and return -1.
 */
int mf_dev_open_or_fail(void);
/* Text for errno err (positive) of an ioctl that changes state. */
const char *mf_dev_strerror(int err);

int mf_dev_create(struct meshfabric_create *c);
/* DESTROY; flags MESHFABRIC_DESTROY_CHECK: only whether it would succeed */
int mf_dev_destroy(uint32_t id, uint32_t flags);
/* INFO of id; nodes (count entries from first) may be NULL. */
int mf_dev_info(uint32_t id, struct meshfabric_info *in,
		struct meshfabric_node_info *nodes, uint32_t first,
		uint32_t count);
/* INFO of the fabric called name: -ENOENT if none. */
int mf_dev_find(const char *name, struct meshfabric_info *in);
/*
 * Open the device and find fabric name (INFO into *in, topology into *t);
 * on failure print the tool's one-line error and return MF_EXIT_FAIL, or
 * MF_EXIT_USAGE for cmd when name is NULL (no NAME was given).
 */
struct mf_cmd;
int mf_dev_lookup_or_fail(const struct mf_cmd *cmd, const char *name,
			  struct meshfabric_info *in, struct mf_topo *t);
/* Every node's info (malloc'ed array of in->nodes entries in *nodes). */
int mf_dev_nodes(const struct meshfabric_info *in,
		 struct meshfabric_node_info **nodes);
/* The core's topology of a fabric described by INFO. */
int mf_dev_topo(const struct meshfabric_info *in, struct mf_topo *t);
int mf_dev_attach(uint32_t id, struct meshfabric_attach_entry *e,
		  uint32_t count, uint32_t *done);
int mf_dev_bcast(struct meshfabric_bcast *b);
/* SCHED_LOAD: the kernel checks and keeps a schedule (-EINVAL: the
 * checker's reason at why_ptr).
 */
int mf_dev_sched_load(struct meshfabric_sched_load *sl);
/* COLLECTIVE (-EOPNOTSUPP, -EINVAL, ...: the reason at why_ptr). */
int mf_dev_collective(struct meshfabric_collective *c);
/* The kernel's route from src to dst: the number of hops, path[0..hops]
 * filled (max entries), or a negative errno.
 */
int mf_dev_route(uint32_t id, uint32_t src, uint32_t dst, uint32_t *path,
		 uint32_t max);
/* Every directed link's counters (malloc'ed, *n = nodes * nports). */
int mf_dev_links(uint32_t id, bool reset, struct meshfabric_link_entry **e,
		 uint32_t *n);

/* PORT: attach or detach an external port. */
int mf_dev_port(struct meshfabric_port *mp);
/* PORT_GET: the bound ports into pi (MESHFABRIC_PORTS_MAX entries). */
int mf_dev_port_get(uint32_t id, struct meshfabric_port_info *pi,
		    uint32_t *n);
/* LINK_SET (ls->count set). */
int mf_dev_link_set(struct meshfabric_link_set *ls);
/* TUNNEL_SET / TUNNEL_GET: 0 or -errno. */
int mf_dev_tunnel_set(struct meshfabric_tunnel *tu);
int mf_dev_tunnel_get(struct meshfabric_tunnel *tu);
/* Every directed link's parameters and counters (LINK_GET; malloc'ed,
 * *n entries); out (may be NULL) gets the header: switching, now_ns.
 */
int mf_dev_link_get(uint32_t id, struct meshfabric_link_info **e,
		    uint32_t *n, struct meshfabric_link_get *out);
/* The links of the bound extra ports (LINK_GET past the topology's
 * nlinks links; slots with none bound left out) into
 * e[MESHFABRIC_PORTS_MAX]: 0 and *n, or -errno.
 */
int mf_dev_xlink_get(uint32_t id, uint32_t nlinks,
		     struct meshfabric_link_info *e, uint32_t *n);

#endif /* MF_DEV_H */
