// SPDX-License-Identifier: GPL-2.0
/*
 * fabric.c - fabric objects: creation (topology, routing table, link
 * counters), the list of live fabrics, references, attach and teardown.
 *
 * mf_fabrics_lock protects mf_fabrics (id -> fabric, the list's reference)
 * and name uniqueness.  A fabric is freed when its last reference goes;
 * its netdevs are gone by then (teardown unregisters them under RTNL and
 * waits for the broadcast work).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/rtnetlink.h>
#include <linux/nsproxy.h>
#include <linux/user_namespace.h>
#include <net/net_namespace.h>
#include "mf.h"

static DEFINE_MUTEX(mf_fabrics_lock);
static DEFINE_IDR(mf_fabrics);		/* under mf_fabrics_lock */

static void mf_fabric_free(struct mf_fabric *f)
{
	if (f->owner)
		put_user_ns(f->owner);
	mf_bcast_free(f);
	mf_rt_free(&f->rt);
	mf_kfree(f->link);
	mf_kfree(f->node);
	mutex_destroy(&f->bcast_lock);
	mutex_destroy(&f->lock);
	mf_kfree(f);
}

static void mf_fabric_release(struct kref *ref)
{
	mf_fabric_free(container_of(ref, struct mf_fabric, ref));
}

void mf_fabric_put(struct mf_fabric *f)
{
	kref_put(&f->ref, mf_fabric_release);
}

struct mf_fabric *mf_fabric_get(u32 id)
{
	struct mf_fabric *f;

	mutex_lock(&mf_fabrics_lock);
	f = idr_find(&mf_fabrics, id);
	if (f)
		kref_get(&f->ref);
	mutex_unlock(&mf_fabrics_lock);
	return f;
}

static bool mf_name_taken(const char *name)
{
	struct mf_fabric *f;
	int id;

	lockdep_assert_held(&mf_fabrics_lock);
	idr_for_each_entry(&mf_fabrics, f, id)
		if (!strcmp(f->name, name))
			return true;
	return false;
}

/* c was validated by mf_validate_create(). */
int mf_fabric_create(const struct meshfabric_create *c,
		     struct mf_fabric **out)
{
	struct mf_fabric *f;
	int err, id;

	f = mf_kzalloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	kref_init(&f->ref);
	f->owner = get_user_ns(current->nsproxy->net_ns->user_ns);
	mutex_init(&f->lock);
	mutex_init(&f->bcast_lock);
	skb_queue_head_init(&f->bcast_q);
	INIT_WORK(&f->bcast_work, mf_bcast_work);
	err = mf_topo_init(&f->topo, c->kind, c->ndims, c->dims);
	if (err)
		goto err_free;
	if (f->topo.nodes > MESHFABRIC_MAX_NODES) {
		err = -E2BIG;
		goto err_free;
	}
	err = mf_route_valid(&f->topo, c->routing);
	if (err)
		goto err_free;
	f->routing = mf_route_resolve(&f->topo, c->routing);
	f->nlinks = (u64)f->topo.nodes * f->topo.nports;
	f->node = mf_kzalloc(array_size(f->topo.nodes, sizeof(*f->node)));
	f->link = mf_kzalloc(array_size(f->nlinks, sizeof(*f->link)));
	if (!f->node || !f->link) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mf_rt_init(&f->rt, &f->topo, f->routing);
	if (err)
		goto err_free;

	mutex_lock(&mf_fabrics_lock);
	id = idr_alloc(&mf_fabrics, NULL, 0, MESHFABRIC_MAX_FABRICS,
		       GFP_KERNEL);
	if (id < 0) {
		err = id == -ENOSPC ? -E2BIG : id;
		goto err_unlock;
	}
	f->id = id;
	if (c->name[0])
		strscpy(f->name, c->name, sizeof(f->name));
	else
		snprintf(f->name, sizeof(f->name), "mf%d", id);
	if (mf_name_taken(f->name)) {
		idr_remove(&mf_fabrics, id);
		err = -EEXIST;
		goto err_unlock;
	}
	idr_replace(&mf_fabrics, f, id);
	kref_get(&f->ref);	/* the caller's */
	mutex_unlock(&mf_fabrics_lock);
	*out = f;
	return 0;

err_unlock:
	mutex_unlock(&mf_fabrics_lock);
err_free:
	mf_fabric_free(f);
	return err;
}

int mf_fabric_attach(struct mf_fabric *f, u32 node, struct net *net,
		     const char *ifname)
{
	int err;

	if (node >= f->topo.nodes)
		return -EINVAL;
	mutex_lock(&f->lock);
	if (f->dead) {
		err = -ENOENT;
		goto out;
	}
	rtnl_lock();
	if (rtnl_dereference(f->node[node].dev))
		err = -EBUSY;
	else
		err = mf_netdev_create(f, node, net, ifname);
	rtnl_unlock();
out:
	mutex_unlock(&f->lock);
	return err;
}

/* Unregister every netdev of f (already out of mf_fabrics) and its work. */
static void mf_fabric_teardown(struct mf_fabric *f)
{
	LIST_HEAD(kill);
	struct net_device *dev;
	u32 i;

	mutex_lock(&f->lock);
	f->dead = true;
	rtnl_lock();
	for (i = 0; i < f->topo.nodes; i++) {
		dev = rtnl_dereference(f->node[i].dev);
		WRITE_ONCE(f->node[i].state, MF_NODE_ABSENT);
		if (!dev)
			continue;
		RCU_INIT_POINTER(f->node[i].dev, NULL);
		unregister_netdevice_queue(dev, &kill);
	}
	unregister_netdevice_many(&kill);
	rtnl_unlock();
	mutex_unlock(&f->lock);
	/* No netdev can queue a frame any more. */
	cancel_work_sync(&f->bcast_work);
	skb_queue_purge(&f->bcast_q);
}

bool mf_fabric_owner_capable(const struct mf_fabric *f)
{
	return ns_capable(f->owner, CAP_NET_ADMIN);
}

/* Take fabric id off the list and tear it down.  -ENOENT if there is no
 * such fabric, or it is not expect (when given: an id may have been
 * reused); -EPERM when check is set and the caller lacks CAP_NET_ADMIN
 * over the fabric's owner.
 */
int mf_fabric_remove(u32 id, const struct mf_fabric *expect, bool check)
{
	struct mf_fabric *f;

	mutex_lock(&mf_fabrics_lock);
	f = idr_find(&mf_fabrics, id);
	if (!f || (expect && f != expect)) {
		mutex_unlock(&mf_fabrics_lock);
		return -ENOENT;
	}
	if (check && !mf_fabric_owner_capable(f)) {
		mutex_unlock(&mf_fabrics_lock);
		return -EPERM;
	}
	idr_remove(&mf_fabrics, id);
	mutex_unlock(&mf_fabrics_lock);
	mf_fabric_teardown(f);
	mf_fabric_put(f);	/* the list's */
	return 0;
}

int mf_fabric_destroy(u32 id)
{
	return mf_fabric_remove(id, NULL, false);
}

/* Module unload: no ioctl can run (the misc device is gone). */
void mf_fabric_destroy_all(void)
{
	struct mf_fabric *f;
	int id;

	for (;;) {
		id = 0;
		mutex_lock(&mf_fabrics_lock);
		f = idr_get_next(&mf_fabrics, &id);
		if (f)
			idr_remove(&mf_fabrics, id);
		mutex_unlock(&mf_fabrics_lock);
		if (!f)
			break;
		mf_fabric_teardown(f);
		mf_fabric_put(f);
	}
	idr_destroy(&mf_fabrics);
}
