// SPDX-License-Identifier: GPL-2.0
/*
 * netns.c - named network namespaces of a fabric's nodes, created in
 * bulk by this process (contract in netns.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>

#include "netns.h"
#include "parse.h"

/*
 * <sched.h> is shadowed by the core's sched.h on the include path: the
 * two glibc calls and the flag, from <linux/sched.h> and glibc's manual.
 */
#include <linux/sched.h>
int setns(int fd, int nstype);
int unshare(int flags);

void mf_netns_name(const struct mf_topo *t, const char *fabric, u32 node,
		   char *buf, size_t len)
{
	char c[MF_MAX_DIMS * 11];

	mf_format_coords(t, node, '-', c, sizeof(c));
	snprintf(buf, len, "%s-%s", fabric, c);
}

void mf_netns_path(const struct mf_topo *t, const char *fabric, u32 node,
		   char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s/", MF_NETNS_DIR);

	if (n < len)
		mf_netns_name(t, fabric, node, buf + n, len - n);
}

static int fail(char *err, size_t errlen, int e, const char *what,
		const char *name)
{
	snprintf(err, errlen, "%s%s%s: %s", what, name ? " " : "",
		 name ? name : "",
		 e == EEXIST ? "exists already" : strerror(e));
	return -e;
}

/* As iproute2: make MF_NETNS_DIR a shared mount point, so that the bind
 * mounts propagate to every mount namespace (and unmounts too). */
static int netns_dir_setup(char *err, size_t errlen)
{
	bool made = false;

	if (mkdir("/var/run", 0755) && errno != EEXIST)
		return fail(err, errlen, errno, "mkdir", "/var/run");
	if (mkdir(MF_NETNS_DIR, 0755) && errno != EEXIST)
		return fail(err, errlen, errno, "mkdir", MF_NETNS_DIR);
	while (mount("", MF_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		if (errno != EINVAL || made)
			return fail(err, errlen, errno, "mount --make-shared",
				    MF_NETNS_DIR);
		if (mount(MF_NETNS_DIR, MF_NETNS_DIR, "none", MS_BIND | MS_REC,
			  NULL))
			return fail(err, errlen, errno, "mount --bind",
				    MF_NETNS_DIR);
		made = true;
	}
	return 0;
}

int mf_netns_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int mf_netns_enter(const char *path)
{
	int fd = mf_netns_open(path), e = 0;

	if (fd < 0)
		return fd;
	if (setns(fd, CLONE_NEWNET))
		e = -errno;
	close(fd);
	return e;
}

void mf_netns_delete_fabric(const struct mf_topo *t, const char *fabric,
			    u32 count)
{
	char path[128];
	u32 i;

	for (i = 0; i < count; i++) {
		mf_netns_path(t, fabric, i, path, sizeof(path));
		umount2(path, MNT_DETACH);
		unlink(path);
	}
}

/* Node i: the file, a new namespace mounted on it (and entered), its fds. */
static int netns_create_one(const char *path, const char *name, int *nsfd,
			    int *nlfd, char *err, size_t errlen)
{
	int fd, e;

	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0)
		return fail(err, errlen, errno, "network namespace", name);
	close(fd);
	if (unshare(CLONE_NEWNET)) {
		e = errno;
		unlink(path);
		return fail(err, errlen, e, "unshare(CLONE_NEWNET)", NULL);
	}
	if (mount("/proc/self/ns/net", path, "none", MS_BIND, NULL)) {
		e = errno;
		unlink(path);
		return fail(err, errlen, e, "bind mount of network namespace",
			    name);
	}
	*nsfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*nsfd < 0) {
		e = errno;
		goto undo_mount;
	}
	*nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (*nlfd < 0) {
		e = errno;
		close(*nsfd);
		goto undo_mount;
	}
	return 0;
undo_mount:
	umount2(path, MNT_DETACH);
	unlink(path);
	return fail(err, errlen, e, "network namespace", name);
}

int mf_netns_create_fabric(const struct mf_topo *t, const char *fabric,
			   mf_netns_each_fn each, void *arg,
			   volatile int *interrupted, char *err, size_t errlen)
{
	return mf_netns_create_part(t, fabric, NULL, 0, each, arg,
				    interrupted, err, errlen);
}

int mf_netns_create_part(const struct mf_topo *t, const char *fabric,
			 const u8 *part, u8 mypart, mf_netns_each_fn each,
			 void *arg, volatile int *interrupted, char *err,
			 size_t errlen)
{
	char path[128], name[96];
	int self, nsfd = -1, nlfd = -1, e = 0;
	u32 i, made = 0;

	e = netns_dir_setup(err, errlen);
	if (e)
		return e;
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return fail(err, errlen, errno, "/proc/self/ns/net", NULL);
	for (i = 0; i < t->nodes; i++) {
		if (interrupted && *interrupted) {
			e = -EINTR;
			snprintf(err, errlen, "interrupted");
			break;
		}
		if (part && part[i] != mypart) {
			made++;	/* another host's: none here */
			continue;
		}
		mf_netns_name(t, fabric, i, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", MF_NETNS_DIR, name);
		e = netns_create_one(path, name, &nsfd, &nlfd, err, errlen);
		if (e)
			break;
		made++;
		e = each(arg, i, nsfd, nlfd, err, errlen);
		close(nsfd);
		close(nlfd);
		if (e)
			break;
	}
	if (setns(self, CLONE_NEWNET) && !e)
		e = fail(err, errlen, errno, "setns back", NULL);
	close(self);
	if (e)
		mf_netns_delete_fabric(t, fabric, made);
	return e;
}
