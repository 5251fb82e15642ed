// SPDX-License-Identifier: GPL-2.0
/*
 * acct.c - accounting, the bottom layer every other file calls into and
 * which calls none of them: the counted allocator (every object the module
 * holds for a user, charged to the caller's memory cgroup and counted in
 * the "allocated" parameter) and the owners' accounts that hold the
 * uapi's limits (MESHFABRIC_MAX_FABRICS, MESHFABRIC_USERNS_*).
 *
 * An account is keyed by the real user, as the kernel's ucounts key
 * RLIMIT_NPROC and the user namespace limits: real root's fabrics (owned
 * by the initial user namespace) are one account, and every other fabric
 * is counted against the kuid owning the outermost user namespace above
 * its owner, the user who created that namespace tree.  Creating more
 * user namespaces, siblings or nested, gives no new quota: one uid cannot
 * multiply its share, and other uids keep theirs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include "mf.h"

atomic_long_t mf_allocated = ATOMIC_LONG_INIT(0);

/* Every allocation a user triggers goes through here: zeroed, charged to
 * the caller's memory cgroup, counted in "allocated".
 */
void *mf_counted_zalloc(size_t size)
{
	void *p = kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);

	if (p)
		mf_count_get();
	return p;
}

void mf_counted_free(void *p)
{
	if (!p)
		return;
	kvfree(p);
	mf_count_put();
}

static int mf_allocated_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&mf_allocated));
}

static const struct kernel_param_ops mf_allocated_ops = {
	.get = mf_allocated_get,
};

module_param_cb(allocated, &mf_allocated_ops, NULL, 0444);
MODULE_PARM_DESC(allocated, "objects currently allocated by the module");

/* An account: root (the initial user namespace's fabrics), or the real
 * user uid (every other fabric whose outermost user namespace uid owns).
 * The outermost namespaces real root creates (containers: LXC, nspawn
 * -U, userns-remap) are one account each (top), not one shared uid 0:
 * a tenant cannot take another's share, and only real root can make
 * more such accounts.  Listed while it counts a fabric; top is compared,
 * never dereferenced (the fabrics it counts hold their owner namespace,
 * and so its ancestors).  All fields and the list under
 * mf_acct_lock, the innermost lock: nothing is taken under it.
 */
struct mf_owner {
	struct list_head list;
	bool root;
	kuid_t uid;		/* !root: the real user */
	const struct user_namespace *top;	/* uid is root: its tree */
	u32 fabrics;
	u64 nodes;
	u64 bytes;
	atomic_long_t timed;	/* tqueue.c's, lock-free: mf_owner_timed */
};

static DEFINE_MUTEX(mf_acct_lock);
static LIST_HEAD(mf_owners);		/* under mf_acct_lock */
static u32 mf_userns_fabrics;		/* non-root fabrics, same lock */

/* The outermost ancestor of user namespace ns below the initial one:
 * its owner is the real user behind ns (ucounts' key at the top level).
 */
static const struct user_namespace *
mf_top_ns(const struct user_namespace *ns)
{
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns;
}

static bool mf_owner_over(const struct mf_owner *o, const struct mf_fabric *f)
{
	if (o->root)
		return o->fabrics >= MESHFABRIC_MAX_FABRICS;
	return o->fabrics >= MESHFABRIC_USERNS_FABRICS ||
	       mf_userns_fabrics >= MESHFABRIC_USERNS_TOTAL ||
	       o->nodes + f->topo.nodes > MESHFABRIC_USERNS_NODES ||
	       o->bytes + f->footprint > MESHFABRIC_USERNS_BYTES;
}

static void mf_owner_unlist(struct mf_owner *o)
{
	list_del(&o->list);
	kfree(o);
	mf_count_put();
}

int mf_owner_charge(struct mf_fabric *f)
{
	bool root = f->owner == &init_user_ns;
	const struct user_namespace *top = NULL;
	kuid_t uid = GLOBAL_ROOT_UID;
	struct mf_owner *o;
	int err = 0;

	if (!root) {
		top = mf_top_ns(f->owner);
		uid = top->owner;
		/* only real root's containers are accounts of their own */
		if (!uid_eq(uid, GLOBAL_ROOT_UID))
			top = NULL;
	}
	mutex_lock(&mf_acct_lock);
	list_for_each_entry(o, &mf_owners, list)
		if (o->root == root && uid_eq(o->uid, uid) && o->top == top)
			goto found;
	o = kzalloc_obj(*o, GFP_KERNEL_ACCOUNT);
	if (!o) {
		err = -ENOMEM;
		goto out;
	}
	mf_count_get();
	o->root = root;
	o->uid = uid;
	o->top = top;
	list_add(&o->list, &mf_owners);
found:
	if (mf_owner_over(o, f)) {
		if (!o->fabrics)
			mf_owner_unlist(o);
		err = -E2BIG;
		goto out;
	}
	o->fabrics++;
	o->nodes += f->topo.nodes;
	o->bytes += f->footprint;
	if (!root)
		mf_userns_fabrics++;
	f->quota = o;
out:
	mutex_unlock(&mf_acct_lock);
	return err;
}

void mf_owner_uncharge(struct mf_fabric *f)
{
	struct mf_owner *o = f->quota;

	if (!o)
		return;
	mutex_lock(&mf_acct_lock);
	f->quota = NULL;
	if (!o->root)
		mf_userns_fabrics--;
	o->nodes -= f->topo.nodes;
	o->bytes -= f->footprint + f->charged;
	if (!--o->fabrics)
		mf_owner_unlist(o);
	mutex_unlock(&mf_acct_lock);
}

/* The owner's timed-frame account: listed while f counts in it, so for
 * as long as f holds frames (f's release stops its timed queue, giving
 * every frame's share back, before it uncharges f: fabric.c,
 * mf_fabric_free).  Lock-free.
 */
atomic_long_t *mf_owner_timed(const struct mf_fabric *f)
{
	struct mf_owner *o = f->quota;

	return o && !o->root ? &o->timed : NULL;
}

int mf_fabric_charge(struct mf_fabric *f, s64 bytes)
{
	struct mf_owner *o;
	int err = 0;

	mutex_lock(&mf_acct_lock);
	o = f->quota;
	if (bytes > 0 && o && !o->root &&
	    o->bytes + bytes > MESHFABRIC_USERNS_BYTES) {
		err = -E2BIG;
	} else {
		f->charged += bytes;
		if (o)
			o->bytes += bytes;
	}
	mutex_unlock(&mf_acct_lock);
	return err;
}

int mf_acct_init(void)
{
	return 0;
}

/* The last layer out: every object must be back by now. */
void mf_acct_exit(void)
{
	long left = atomic_long_read(&mf_allocated);

	if (left)
		pr_err("leak: %ld objects still allocated at unload\n", left);
}
