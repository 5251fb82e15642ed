// SPDX-License-Identifier: GPL-2.0
/*
 * fabric.c - fabric objects: creation (topology, links, routing table),
 * the registry of live fabrics, the one visibility and permission check,
 * attach, teardown, and the debugfs directory (test knobs, queue
 * figures).  Allocations and the owners' limits are acct.c's.
 *
 * mf_fabrics_lock protects mf_fabrics (id -> fabric, the list's
 * reference) and name uniqueness.  A
 * fabric is freed when its last reference goes: the list's, an ioctl's,
 * and one per registered netdev (dropped by its destructor), so its
 * netdevs are gone by then (teardown unregisters them, or leaves those of
 * dying namespaces to the namespaces' cleanup, and stops the queues).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/nsproxy.h>
#include <linux/user_namespace.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include "mf.h"
#include "name.h"

static DEFINE_MUTEX(mf_fabrics_lock);
/* id -> fabric; written under mf_fabrics_lock (which also keeps the
 * names unique), an id reserved (NULL) while its fabric is being listed
 */
static DEFINE_XARRAY_ALLOC(mf_fabrics);
static struct dentry *mf_debugfs;	/* /sys/kernel/debug/meshfabric */

static void mf_links_free(struct mf_links *l)
{
	unsigned int cpu;

	if (l->row) {
		for_each_possible_cpu(cpu)
			mf_counted_free(l->row[cpu]);
		mf_counted_free(l->row);
	}
	mf_counted_free(l->st);
	mf_counted_free(l->loss);
	mf_counted_free(l->base);
	mf_counted_free(l->peer);
	memset(l, 0, sizeof(*l));
}

static int mf_links_init(struct mf_fabric *f)
{
	const struct mf_topo *t = &f->topo;
	struct mf_links *l = &f->links;
	unsigned int cpu;
	size_t bytes;
	u32 node, port;
	s64 peer;

	l->n = (u64)t->nodes * t->nports;
	/* the extra ports' links too (struct mf_links), but in peer[] */
	bytes = array_size(mf_links_all(f), sizeof(struct mf_linkctr));
	l->peer = mf_counted_zalloc(array_size(l->n, sizeof(*l->peer)));
	l->base = mf_counted_zalloc(bytes);
	l->row = mf_counted_zalloc(array_size(nr_cpu_ids, sizeof(*l->row)));
	l->st = mf_counted_zalloc(array_size(mf_links_all(f), sizeof(*l->st)));
	l->loss = mf_counted_zalloc(array_size(mf_links_all(f),
					       sizeof(*l->loss)));
	if (!l->peer || !l->base || !l->row || !l->st || !l->loss)
		goto err;
	f->footprint += l->n * sizeof(*l->peer) +
			mf_links_all(f) * (sizeof(*l->base) + sizeof(*l->st) +
					   sizeof(*l->loss));
	mf_links_defaults(f);
	for_each_possible_cpu(cpu) {
		l->row[cpu] = mf_counted_zalloc(bytes);
		if (!l->row[cpu])
			goto err;
		f->footprint += bytes;
	}
	for (node = 0; node < t->nodes; node++) {
		for (port = 0; port < t->nports; port++) {
			peer = mf_topo_neighbor(t, node, port);
			l->peer[(u64)node * t->nports + port] =
				peer < 0 ? MESHFABRIC_NO_PEER : (u32)peer;
		}
		if (!(node & 1023))
			cond_resched();
	}
	return 0;
err:
	mf_links_free(l);
	return -ENOMEM;
}

void mf_link_read_all(struct mf_fabric *f, u64 l, struct mf_linkctr *c)
{
	const struct mf_linkctr *r, *base = &f->links.base[l];
	unsigned int cpu;

	memset(c, 0, sizeof(*c));
	for_each_possible_cpu(cpu) {
		r = &f->links.row[cpu][l];
		c->packets += READ_ONCE(r->packets);
		c->bytes += READ_ONCE(r->bytes);
		c->drop_loss += READ_ONCE(r->drop_loss);
		c->drop_queue += READ_ONCE(r->drop_queue);
		c->busy_ns += READ_ONCE(r->busy_ns);
	}
	c->packets -= READ_ONCE(base->packets);
	c->bytes -= READ_ONCE(base->bytes);
	c->drop_loss -= READ_ONCE(base->drop_loss);
	c->drop_queue -= READ_ONCE(base->drop_queue);
	c->busy_ns -= READ_ONCE(base->busy_ns);
}

void mf_link_read(struct mf_fabric *f, u64 l, u64 *packets, u64 *bytes)
{
	struct mf_linkctr c;

	mf_link_read_all(f, l, &c);
	*packets = c.packets;
	*bytes = c.bytes;
}

/* Restart every counter from zero: the bases take the current sums (the
 * per-CPU rows are written by their CPUs only).  Resets are serialised by
 * stats_lock; readers do not take it (a base is one 64-bit store).
 */
void mf_link_rebase(struct mf_fabric *f, u64 l)
{
	struct mf_linkctr *base = &f->links.base[l], c;

	lockdep_assert_held(&f->stats_lock);
	mf_link_read_all(f, l, &c);
	WRITE_ONCE(base->packets, base->packets + c.packets);
	WRITE_ONCE(base->bytes, base->bytes + c.bytes);
	WRITE_ONCE(base->drop_loss, base->drop_loss + c.drop_loss);
	WRITE_ONCE(base->drop_queue, base->drop_queue + c.drop_queue);
	WRITE_ONCE(base->busy_ns, base->busy_ns + c.busy_ns);
}

void mf_link_reset(struct mf_fabric *f)
{
	u64 l;

	mutex_lock(&f->stats_lock);
	for (l = 0; l < mf_links_all(f); l++) {
		mf_link_rebase(f, l);
		if (!(l & 4095))
			cond_resched();
	}
	mutex_unlock(&f->stats_lock);
}

/* Frees f, in the order of what holds on to what: first everything that
 * is charged to the owner's account (the timed frames, whose shares point
 * into the account itself; the schedules cached and loaded, whose drops
 * give their bytes back), then the account (mf_owner_uncharge, which may
 * free it: nothing charged is touched after it), then the memory.
 */
static void mf_fabric_free(struct mf_fabric *f)
{
	mf_tq_stop(f);		/* done at teardown; created but never listed */
	mf_fstate_free(f);	/* the last reference: no reader left */
	mf_counted_free(f->part);	/* tunnel.c's map */
	mf_bcast_fabric_free(f);
	mf_owner_uncharge(f);	/* none if never charged */
	if (f->owner)
		put_user_ns(f->owner);
	mf_rt_free(&f->rt);
	mf_links_free(&f->links);
	mf_counted_free(f->node);
	mutex_destroy(&f->bcast_lock);
	mutex_destroy(&f->stats_lock);
	mutex_destroy(&f->lock);
	mf_counted_free(f);
}

static void mf_fabric_release(struct kref *ref)
{
	struct mf_fabric *f = container_of(ref, struct mf_fabric, ref);

	/* The owner's account holds the fabric until its memory is gone:
	 * destroyed, with netdevs waiting for their namespaces' cleanup,
	 * it still counts, so create-and-destroy loops stay in the quota
	 * (mf_fabric_free uncharges it once nothing charged is left).
	 */
	mf_fabric_free(f);
}

void mf_fabric_put(struct mf_fabric *f)
{
	kref_put(&f->ref, mf_fabric_release);
}

struct mf_fabric *mf_fabric_get(u32 id)
{
	struct mf_fabric *f;

	mutex_lock(&mf_fabrics_lock);
	f = xa_load(&mf_fabrics, id);
	if (f)
		kref_get(&f->ref);
	mutex_unlock(&mf_fabrics_lock);
	return f;
}

/* Who sees a fabric (INFO, ROUTE, LINK_STATS, LINK_GET, list): its owner
 * user namespace, and callers privileged over it: CAP_NET_ADMIN in the
 * owner (the user who created the owner namespace, from its parent; root
 * of an ancestor namespace; real root over every fabric).  An
 * unprivileged user of an ancestor namespace does not: the initial
 * namespace is everybody's ancestor, so ancestry alone would show every
 * user's fabrics to every other user.  noaudit: a list probes every id.
 */
bool mf_fabric_visible(const struct mf_fabric *f)
{
	return current_user_ns() == f->owner ||
	       ns_capable_noaudit(f->owner, CAP_NET_ADMIN);
}

/* The caller's user namespace is the fabric's owner. */
bool mf_fabric_owned(const struct mf_fabric *f)
{
	return current_user_ns() == f->owner;
}

/* CAP_NET_ADMIN over the caller's own netns and over the fabric's owner. */
static bool mf_fabric_admin(const struct mf_fabric *f)
{
	return ns_capable(current->nsproxy->net_ns->user_ns, CAP_NET_ADMIN) &&
	       ns_capable(f->owner, CAP_NET_ADMIN);
}

static int mf_fabric_check(const struct mf_fabric *f, unsigned int need)
{
	if (!f || !mf_fabric_visible(f))
		return -ENOENT;
	if (need == MF_NEED_ADMIN && !mf_fabric_admin(f))
		return -EPERM;
	return 0;
}

struct mf_fabric *mf_fabric_get_checked(u32 id, unsigned int need)
{
	struct mf_fabric *f;
	int err;

	mutex_lock(&mf_fabrics_lock);
	f = xa_load(&mf_fabrics, id);
	err = mf_fabric_check(f, need);
	if (!err)
		kref_get(&f->ref);
	mutex_unlock(&mf_fabrics_lock);
	return err ? ERR_PTR(err) : f;
}

static bool mf_name_taken(const char *name, const struct user_namespace *ns)
{
	struct mf_fabric *f;
	unsigned long id;

	lockdep_assert_held(&mf_fabrics_lock);
	xa_for_each(&mf_fabrics, id, f)
		if (f->owner == ns && !strcmp(f->name, name))
			return true;
	return false;
}

static void mf_fabric_debugfs(struct mf_fabric *f)
{
	char dir[16];

	snprintf(dir, sizeof(dir), "%u", f->id);
	f->debugfs = debugfs_create_dir(dir, mf_debugfs);
	debugfs_create_u32("bcastq_bytes", 0400, f->debugfs, &f->bq.bytes);
	debugfs_create_u32("bcastq_max_bytes", 0600, f->debugfs,
			   &f->bq.max_bytes);
	/* the flood: nodes the last frame visited, full builds */
	debugfs_create_u32("flood_last_work", 0400, f->debugfs,
			   &f->bq.last_work);
	debugfs_create_u32("flood_builds", 0400, f->debugfs, &f->bq.builds);
	/* BCAST: fault-free schedules built for the cache; other hosts'
	 * sends taken by the work (all but unknown algorithms)
	 */
	debugfs_create_u32("bcast_plans", 0400, f->debugfs, &f->plans);
	debugfs_create_u32("bcast_resumed", 0400, f->debugfs, &f->resumed);
}

/* c was validated by mf_validate_create(). */
int mf_fabric_create(const struct meshfabric_create *c,
		     struct mf_fabric **out)
{
	struct mf_fabric *f;
	int err;
	u32 id;

	f = mf_counted_zalloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	kref_init(&f->ref);
	f->owner = get_user_ns(current->nsproxy->net_ns->user_ns);
	mutex_init(&f->lock);
	mutex_init(&f->stats_lock);
	mutex_init(&f->bcast_lock);
	mf_tq_init(f);
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
	f->node = mf_counted_zalloc(array_size(f->topo.nodes, sizeof(*f->node)));
	if (!f->node) {
		err = -ENOMEM;
		goto err_free;
	}
	f->footprint = sizeof(*f) + f->topo.nodes * sizeof(*f->node);
	err = mf_links_init(f);
	if (!err)
		err = mf_rt_init(&f->rt, &f->topo, f->routing, f->links.peer);
	if (!err)
		err = mf_bcast_fabric_init(f);
	if (err)
		goto err_free;
	f->footprint += f->rt.bytes;	/* bcast's: mf_bcast_fabric_init */

	err = mf_owner_charge(f);
	if (err)
		goto err_free;
	mutex_lock(&mf_fabrics_lock);
	/* the id reserved (NULL: not found by a lookup) until listed;
	 * CREATE_ID: that id or none (a multi-host fabric's parts share it)
	 */
	if (c->flags & MESHFABRIC_CREATE_ID)
		err = xa_alloc(&mf_fabrics, &id, NULL, XA_LIMIT(c->id, c->id),
			       GFP_KERNEL);
	else
		err = xa_alloc(&mf_fabrics, &id, NULL,
			       XA_LIMIT(0, MESHFABRIC_MAX_IDS - 1), GFP_KERNEL);
	if (err) {
		err = err != -EBUSY ? err :
		      c->flags & MESHFABRIC_CREATE_ID ? -EBUSY : -E2BIG;
		goto err_unlock;
	}
	f->id = id;
	if (c->name[0])
		strscpy(f->name, c->name, sizeof(f->name));
	else
		snprintf(f->name, sizeof(f->name), "mf%u", id);
	if (mf_name_taken(f->name, f->owner)) {
		xa_erase(&mf_fabrics, id);
		err = -EEXIST;
		goto err_unlock;
	}
	/* the reserved slot exists: storing into it allocates nothing */
	xa_store(&mf_fabrics, id, f, GFP_KERNEL);
	mf_fabric_debugfs(f);	/* named by id: under the lock */
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
	/* killable: a LINK_SET's fault-routing build or a teardown may
	 * hold the lock for long
	 */
	if (mutex_lock_killable(&f->lock))
		return -EINTR;
	if (f->dead) {
		err = -ENOENT;
		goto out;
	}
	rtnl_lock();
	if (rtnl_dereference(f->node[node].dev))
		err = -EBUSY;
	else if (mf_node_remote(f, node))	/* another host's */
		err = -EREMOTE;
	else
		err = mf_netdev_create(f, node, net, ifname);
	rtnl_unlock();
out:
	mutex_unlock(&f->lock);
	return err;
}

/* Tear f (already out of mf_fabrics) down: unregister its netdevs, stop
 * its queues.  A netdev whose namespace is being deleted (its count is
 * 0: `meshfabric destroy` unmounts the namespaces first) is left to the
 * namespace's cleanup, which unregisters it (mf_dellink) asynchronously,
 * as `ip netns del` leaves its devices: the cleanup takes the namespaces
 * off the list first, so each netdev event walks fewer namespaces
 * (docs/performance.md), and this call returns at once.  Such a netdev
 * keeps f alive (its reference, dropped by its destructor) but carries
 * no frame: unicast finds no node device any more, the timed queue is
 * stopped, and mf_bcast_queue() refuses once dead is set, the grace
 * period below ending every sender that read dead before it was set.
 */
static void mf_fabric_teardown(struct mf_fabric *f)
{
	LIST_HEAD(kill);
	struct net_device *dev;
	bool left = false;
	u32 i;

	mutex_lock(&f->lock);
	WRITE_ONCE(f->dead, true);
	rtnl_lock();
	mf_port_detach_all(f);	/* their netdevs as they were */
	for (i = 0; i < f->topo.nodes; i++) {
		dev = rtnl_dereference(f->node[i].dev);
		WRITE_ONCE(f->node[i].state, MF_NODE_ABSENT);
		if (!dev)
			continue;
		RCU_INIT_POINTER(f->node[i].dev, NULL);
		/* under RTNL the namespace outlives its registered devices */
		if (!check_net(dev_net(dev))) {
			left = true;
			continue;
		}
		unregister_netdevice_queue(dev, &kill);
	}
	unregister_netdevice_many(&kill);
	rtnl_unlock();
	mutex_unlock(&f->lock);
	if (left)
		synchronize_rcu();
	/* The tunnel first: its receive path queues broadcasts without a
	 * netdev of ours, and no unregistration above need have waited for
	 * it; mf_tunnel_stop() waits for it (RCU).  Senders that still find
	 * no tunnel drop their frames.
	 */
	mf_tunnel_stop(f);
	/* No netdev or datagram can queue a frame any more. */
	mf_bcast_fabric_stop(f);
	mf_tq_stop(f);
}

/* Take f off the list (it must be listed) and tear it down. */
static void mf_fabric_unlist(struct mf_fabric *f)
{
	lockdep_assert_held(&mf_fabrics_lock);
	debugfs_remove_recursive(f->debugfs);	/* before the id is free */
	f->debugfs = NULL;
	xa_erase(&mf_fabrics, f->id);
}

/* DESTROY (or, check_only, whether DESTROY would be allowed now). */
int mf_fabric_destroy_checked(u32 id, bool check_only)
{
	struct mf_fabric *f;
	int err;

	mutex_lock(&mf_fabrics_lock);
	f = xa_load(&mf_fabrics, id);
	err = mf_fabric_check(f, MF_NEED_ADMIN);
	if (!err && !check_only)
		mf_fabric_unlist(f);
	mutex_unlock(&mf_fabrics_lock);
	if (err || check_only)
		return err;
	mf_fabric_teardown(f);
	mf_fabric_put(f);	/* the list's */
	return 0;
}

/* -ENOENT if f is not listed any more (destroyed meanwhile). */
int mf_fabric_destroy(struct mf_fabric *f)
{
	mutex_lock(&mf_fabrics_lock);
	if (xa_load(&mf_fabrics, f->id) != f) {
		mutex_unlock(&mf_fabrics_lock);
		return -ENOENT;
	}
	mf_fabric_unlist(f);
	mutex_unlock(&mf_fabrics_lock);
	mf_fabric_teardown(f);
	mf_fabric_put(f);	/* the list's */
	return 0;
}

/* Module unload: no ioctl can run (the misc device is gone). */
void mf_fabric_destroy_all(void)
{
	struct mf_fabric *f;
	unsigned long id;

	for (;;) {
		id = 0;
		mutex_lock(&mf_fabrics_lock);
		f = xa_find(&mf_fabrics, &id, ULONG_MAX, XA_PRESENT);
		if (f)
			mf_fabric_unlist(f);
		mutex_unlock(&mf_fabrics_lock);
		if (!f)
			break;
		mf_fabric_teardown(f);
		mf_fabric_put(f);
	}
	xa_destroy(&mf_fabrics);
}

/* Fault injection for the selftests, as netdevsim's debugfs knobs:
 * /sys/kernel/debug/meshfabric/fail_netdev_after.  The netdev allocation
 * after this many more fails with -ENOMEM, so that the tool's unwinding
 * of a create that runs out of memory midway is tested; -1 (default):
 * never.  Root only (debugfs, mode 0600); counted down under RTNL, which
 * serialises every netdev creation (mf_netdev_create).
 */
static int mf_fail_netdev_after = -1;

static int mf_fail_get(void *data, u64 *val)
{
	*val = (u64)(s64)READ_ONCE(mf_fail_netdev_after);
	return 0;
}

static int mf_fail_set(void *data, u64 val)
{
	s64 v = (s64)val;

	if (v < -1 || v > INT_MAX)
		return -EINVAL;
	WRITE_ONCE(mf_fail_netdev_after, (int)v);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(mf_fail_fops, mf_fail_get, mf_fail_set,
				"%lld\n");

bool mf_fail_netdev_injected(void)
{
	int n = READ_ONCE(mf_fail_netdev_after);

	ASSERT_RTNL();
	if (n < 0)
		return false;
	WRITE_ONCE(mf_fail_netdev_after, n - 1);
	return n == 0;
}

int mf_fabric_init(void)
{
	mf_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file_unsafe("fail_netdev_after", 0600, mf_debugfs, NULL,
				   &mf_fail_fops);
	return 0;
}

void mf_fabric_exit(void)
{
	rcu_barrier();		/* fault states replaced by LINK_SET (link.c) */
	debugfs_remove_recursive(mf_debugfs);
}
