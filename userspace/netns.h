/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netns.h - the named network namespaces of a fabric's nodes, made and
 * removed the way `ip netns add/del` does (iproute2's convention): the
 * namespace of node N of fabric F is bind-mounted on
 * /var/run/netns/<F>-<coordinates>, e.g. "f0-3-4" for node (3,4) of a
 * 2-D mesh or torus, "f0-1-0-2" in 3-D, "f0-11" for address 11 of a
 * hexagonal mesh.  `ip netns list`, `ip -n f0-3-4 ...` and
 * `ip netns exec f0-3-4 ...` see them.
 *
 * Creating many at once is fast: this process unshare()s a new network
 * namespace, bind-mounts it, opens what the caller needs inside it (a
 * namespace fd for ATTACH, an rtnetlink socket for addresses), lets the
 * caller set the node up, and goes on with the next; no process per
 * namespace.  Functions return 0 or a
 * negative errno with a one-line reason in err.
 */
#ifndef MF_NETNS_H
#define MF_NETNS_H

#include <stddef.h>

#include "topo.h"

#define MF_NETNS_DIR "/var/run/netns"

/* "<fabric>-<x0>-<x1>..." (hex: "<fabric>-<address>"). */
void mf_netns_name(const struct mf_topo *t, const char *fabric, u32 node,
		   char *buf, size_t len);
/* MF_NETNS_DIR "/" + that name. */
void mf_netns_path(const struct mf_topo *t, const char *fabric, u32 node,
		   char *buf, size_t len);

/*
 * Node setup, called by mf_netns_create_fabric() inside node's new
 * namespace (the calling process has entered it), with nsfd an fd of it
 * and nlfd an rtnetlink socket in it (both closed after the call):
 * 0, or a negative errno with a one-line reason in err.
 */
typedef int (*mf_netns_each_fn)(void *arg, u32 node, int nsfd, int nlfd,
				char *err, size_t errlen);
/*
 * Create the namespaces of nodes 0..t->nodes-1, one after the other, and
 * set each node up with each() before the next namespace exists: every
 * netdev event the setup raises costs the kernel a walk over all the
 * namespaces of the system (docs/performance.md), so the walk is over
 * the nodes made so far, not over all of them.  On failure the
 * namespaces made so far are removed (what each() did inside them goes
 * with them).  *interrupted (if not NULL) is polled: when it becomes
 * non-zero the work stops with -EINTR.
 */
int mf_netns_create_fabric(const struct mf_topo *t, const char *fabric,
			   mf_netns_each_fn each, void *arg,
			   volatile int *interrupted, char *err, size_t errlen);
/* The same for the nodes of part mypart only (part[node]; NULL: all). */
int mf_netns_create_part(const struct mf_topo *t, const char *fabric,
			 const u8 *part, u8 mypart, mf_netns_each_fn each,
			 void *arg, volatile int *interrupted, char *err,
			 size_t errlen);
/* Remove the namespaces of nodes 0..count-1 (missing ones are fine). */
void mf_netns_delete_fabric(const struct mf_topo *t, const char *fabric,
			    u32 count);
/* Enter the network namespace at path (setns); -errno. */
int mf_netns_enter(const char *path);
/* Open the namespace at path, O_RDONLY|O_CLOEXEC; -errno. */
int mf_netns_open(const char *path);

#endif /* MF_NETNS_H */
