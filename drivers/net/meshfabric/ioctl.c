// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - the ioctl ABI of /dev/meshfabric (documented command by
 * command in include/uapi/linux/meshfabric.h): argument validation, the
 * permission rule, copying in and out.  The validators are non-static for
 * the KUnit suites.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/nsproxy.h>
#include <linux/rtnetlink.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <linux/miscdevice.h>
#include "mf.h"
#include "name.h"

/* The ABI's sizes (no implicit padding, same in 32- and 64-bit). */
static_assert(sizeof(struct meshfabric_create) == 88);
static_assert(sizeof(struct meshfabric_destroy) == 16);
static_assert(sizeof(struct meshfabric_node_info) == 64);
static_assert(sizeof(struct meshfabric_info) == 128);
static_assert(sizeof(struct meshfabric_attach_entry) == 24);
static_assert(sizeof(struct meshfabric_attach) == 32);
static_assert(sizeof(struct meshfabric_route) == 40);
static_assert(sizeof(struct meshfabric_bcast) == 96);
static_assert(sizeof(struct meshfabric_link_entry) == 32);
static_assert(sizeof(struct meshfabric_link_stats) == 40);
static_assert(sizeof(struct meshfabric_link_set) == 64);
static_assert(sizeof(struct meshfabric_link_info) == 104);
static_assert(sizeof(struct meshfabric_link_get) == 56);
static_assert(sizeof(struct meshfabric_tunnel) == 112);
static_assert(sizeof(struct meshfabric_tunnel_peer) == 16);
static_assert(sizeof(struct meshfabric_port) == 48);
static_assert(sizeof(struct meshfabric_port_info) == 64);
static_assert(sizeof(struct meshfabric_port_get) == 32);

#define MF_CHUNK	64	/* entries copied per round trip */

/* CAP_NET_ADMIN in the user namespace owning the caller's netns. */
static bool mf_capable(void)
{
	return ns_capable(current->nsproxy->net_ns->user_ns, CAP_NET_ADMIN);
}

static bool mf_all_zero(const void *p, size_t n)
{
	return !memchr_inv(p, 0, n);
}

int mf_validate_create(const struct meshfabric_create *c)
{
	u64 nodes = 1;
	u32 i;

	if ((c->flags & ~MESHFABRIC_CREATE_ID) ||
	    !mf_all_zero(c->reserved, sizeof(c->reserved)))
		return -EINVAL;
	if ((c->flags & MESHFABRIC_CREATE_ID) && c->id >= MESHFABRIC_MAX_IDS)
		return -EINVAL;
	if (c->kind < MESHFABRIC_KIND_MESH || c->kind > MESHFABRIC_KIND_HEX)
		return -EINVAL;
	if (!c->ndims || c->ndims > MESHFABRIC_MAX_DIMS)
		return -EINVAL;
	if (c->kind == MESHFABRIC_KIND_HEX && c->ndims != 1)
		return -EINVAL;
	for (i = c->ndims; i < MESHFABRIC_MAX_DIMS; i++)
		if (c->dims[i])
			return -EINVAL;
	for (i = 0; i < c->ndims; i++) {
		if (c->dims[i] < 2)
			return -EINVAL;
		if (c->dims[i] > MESHFABRIC_MAX_NODES)
			return -E2BIG;
		nodes *= c->dims[i];
		if (nodes > MESHFABRIC_MAX_NODES)
			return -E2BIG;
	}
	if (c->kind == MESHFABRIC_KIND_HEX &&
	    3ULL * c->dims[0] * (c->dims[0] - 1) + 1 > MESHFABRIC_MAX_NODES)
		return -E2BIG;
	if (c->routing > MESHFABRIC_ROUTE_MAX)
		return -EINVAL;
	return mf_name_check((const char *)c->name, sizeof(c->name), false);
}

int mf_validate_bcast(const struct meshfabric_bcast *b)
{
	if ((b->flags & ~MESHFABRIC_BCAST_ASYNC) || b->crossed)
		return -EINVAL;
	if (b->algo > MESHFABRIC_ALGO_MAX && b->algo != MESHFABRIC_ALGO_USER)
		return -EINVAL;
	if (b->len > MESHFABRIC_MAX_PAYLOAD)
		return -E2BIG;
	if (b->ethertype < ETH_P_802_3_MIN || b->ethertype > 0xffff)
		return -EINVAL;
	return 0;
}

int mf_validate_sched_load(const struct meshfabric_sched_load *sl)
{
	if ((sl->flags & ~MESHFABRIC_SCHED_UNLOAD) || sl->tcd ||
	    sl->max_link_load || sl->reserved0 || sl->contention ||
	    sl->reserved)
		return -EINVAL;
	if (sl->flags & MESHFABRIC_SCHED_UNLOAD)
		return sl->model || sl->nsteps || sl->nsends || sl->code_ptr ||
		       sl->code_len ? -EINVAL : 0;
	if (sl->model != MESHFABRIC_MODEL_ONE_PORT &&
	    sl->model != MESHFABRIC_MODEL_ALL_PORT)
		return -EINVAL;
	return sl->code_len > MESHFABRIC_SCHED_CODE_MAX ? -E2BIG : 0;
}

int mf_validate_link_set(const struct meshfabric_link_set *ls)
{
	const u32 known = MESHFABRIC_LINK_RATE | MESHFABRIC_LINK_DELAY |
			  MESHFABRIC_LINK_QUEUE | MESHFABRIC_LINK_LOSS |
			  MESHFABRIC_LINK_SWITCHING | MESHFABRIC_LINK_STATE;

	if (!ls->flags || (ls->flags & ~known) || ls->count ||
	    ls->reserved0 || ls->reserved)
		return -EINVAL;
	if (ls->down > 1 ||
	    (ls->down && !(ls->flags & MESHFABRIC_LINK_STATE)))
		return -EINVAL;
	/* fields not applied must be zero too: nothing is ignored */
	if (ls->rate > MESHFABRIC_RATE_MAX ||
	    (ls->rate && !(ls->flags & MESHFABRIC_LINK_RATE)))
		return -EINVAL;
	if (ls->delay_ns > MESHFABRIC_DELAY_MAX ||
	    (ls->delay_ns && !(ls->flags & MESHFABRIC_LINK_DELAY)))
		return -EINVAL;
	if ((ls->flags & MESHFABRIC_LINK_QUEUE) ?
	    !ls->queue || ls->queue > MESHFABRIC_QUEUE_MAX : ls->queue)
		return -EINVAL;
	if (ls->loss > MESHFABRIC_LOSS_MAX ||
	    (ls->loss && !(ls->flags & MESHFABRIC_LINK_LOSS)))
		return -EINVAL;
	if (ls->switching > MESHFABRIC_SWITCH_CUT_THROUGH ||
	    (ls->switching && !(ls->flags & MESHFABRIC_LINK_SWITCHING)))
		return -EINVAL;
	return 0;
}

int mf_validate_link_get(const struct meshfabric_link_get *lg)
{
	if ((lg->flags & ~MESHFABRIC_LINK_XPORTS) || lg->nlinks ||
	    lg->switching || lg->now_ns ||
	    !mf_all_zero(lg->reserved, sizeof(lg->reserved)))
		return -EINVAL;
	return 0;
}

static long mf_ioc_create(void __user *argp)
{
	struct meshfabric_create c;
	struct mf_fabric *f;
	int err;

	if (copy_from_user(&c, argp, sizeof(c)))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	err = mf_validate_create(&c);
	if (err)
		return err;
	err = mf_fabric_create(&c, &f);
	if (err)
		return err;
	c.id = f->id;
	c.nodes = f->topo.nodes;
	c.nports = f->topo.nports;
	err = 0;
	if (copy_to_user(argp, &c, sizeof(c))) {
		/* our reference keeps f, so its id cannot have been reused */
		mf_fabric_destroy(f);
		err = -EFAULT;
	}
	mf_fabric_put(f);
	return err;
}

static long mf_ioc_destroy(void __user *argp)
{
	struct meshfabric_destroy d;

	if (copy_from_user(&d, argp, sizeof(d)))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	if ((d.flags & ~MESHFABRIC_DESTROY_CHECK) || d.reserved)
		return -EINVAL;
	return mf_fabric_destroy_checked(d.id, d.flags &
					  MESHFABRIC_DESTROY_CHECK);
}

static void mf_fill_node(struct mf_fabric *f, u32 node,
			 struct meshfabric_node_info *ni)
{
	struct net_device *dev = rtnl_dereference(f->node[node].dev);
	u8 state = READ_ONCE(f->node[node].state);

	memset(ni, 0, sizeof(*ni));
	ni->node = node;
	mf_topo_coords(&f->topo, node, ni->coords);
	if (dev) {
		ni->flags |= MESHFABRIC_NODE_PRESENT;
		ni->ifindex = dev->ifindex;
		ni->netns_ino = dev_net(dev)->ns.inum;
		strscpy(ni->ifname, dev->name, sizeof(ni->ifname));
	} else if (state == MF_NODE_GONE) {
		ni->flags |= MESHFABRIC_NODE_GONE;
	}
}

static int mf_info_nodes(struct mf_fabric *f, struct meshfabric_info *in)
{
	struct meshfabric_node_info __user *up = u64_to_user_ptr(in->nodes_ptr);
	struct meshfabric_node_info *buf;
	u32 n, i, k, done = 0;
	int err = 0;

	if (in->first > f->topo.nodes)
		return -EINVAL;
	n = min(in->count, f->topo.nodes - in->first);
	buf = mf_counted_zalloc(MF_CHUNK * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	while (done < n) {
		k = min_t(u32, MF_CHUNK, n - done);
		rtnl_lock();
		for (i = 0; i < k; i++)
			mf_fill_node(f, in->first + done + i, &buf[i]);
		rtnl_unlock();
		if (copy_to_user(up + done, buf, k * sizeof(*buf))) {
			err = -EFAULT;
			break;
		}
		done += k;
	}
	mf_counted_free(buf);
	in->count = done;
	return err;
}

static long mf_ioc_info(void __user *argp)
{
	const struct mf_fstate *fs;
	struct meshfabric_info in;
	struct mf_fabric *f;
	u32 i;
	int err = 0;

	if (copy_from_user(&in, argp, sizeof(in)))
		return -EFAULT;
	if (in.flags || in.reserved0)
		return -EINVAL;
	f = mf_fabric_get_checked(in.id, MF_NEED_VISIBLE);
	if (IS_ERR(f))
		return PTR_ERR(f);
	in.own = mf_fabric_owned(f);
	in.kind = f->topo.kind;
	in.ndims = f->topo.ndims;
	memcpy(in.dims, f->topo.dims, sizeof(in.dims));
	in.routing = f->routing;
	in.nodes = f->topo.nodes;
	in.nports = f->topo.nports;
	in.present = 0;
	in.gone = 0;
	for (i = 0; i < f->topo.nodes; i++) {
		u8 state = READ_ONCE(f->node[i].state);

		in.present += state == MF_NODE_PRESENT;
		in.gone += state == MF_NODE_GONE;
	}
	in.table_bytes = f->rt.bytes;
	rcu_read_lock();
	fs = rcu_dereference(f->fstate);
	in.fault_bytes = fs ? mf_froute_bytes(&fs->route) +
			      fs->faults.cap * sizeof(*fs->faults.link) : 0;
	/* both directions of each down link are in the fault set */
	in.down_links = fs ? fs->faults.n / 2 : 0;
	rcu_read_unlock();
	memset(in.name, 0, sizeof(in.name));
	strscpy(in.name, f->name, sizeof(in.name));
	if (in.nodes_ptr)
		err = mf_info_nodes(f, &in);
	else
		in.count = 0;
	mf_fabric_put(f);
	if (err)
		return err;
	return copy_to_user(argp, &in, sizeof(in)) ? -EFAULT : 0;
}

static int mf_attach_entry(struct mf_fabric *f,
			   const struct meshfabric_attach_entry *e)
{
	struct net *net;
	int err;

	if (e->node >= f->topo.nodes)
		return -EINVAL;
	/* an interface name: dev_valid_name() decides in mf_netdev_create */
	if (!memchr(e->ifname, 0, sizeof(e->ifname)))
		return -EINVAL;
	net = get_net_ns_by_fd(e->netns_fd);
	if (IS_ERR(net))
		return PTR_ERR(net);
	if (ns_capable(net->user_ns, CAP_NET_ADMIN))
		err = mf_fabric_attach(f, e->node, net, e->ifname);
	else
		err = -EPERM;
	put_net(net);
	return err;
}

static long mf_ioc_attach(void __user *argp)
{
	struct meshfabric_attach __user *uarg = argp;
	struct meshfabric_attach_entry __user *ue;
	struct meshfabric_attach_entry e;
	struct meshfabric_attach a;
	struct mf_fabric *f;
	u32 done = 0;
	int err = 0;

	if (copy_from_user(&a, argp, sizeof(a)))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	if (a.flags || a.reserved)
		return -EINVAL;
	if (a.count > MESHFABRIC_MAX_NODES)
		return -E2BIG;
	f = mf_fabric_get_checked(a.id, MF_NEED_ADMIN);
	if (IS_ERR(f))
		return PTR_ERR(f);
	ue = u64_to_user_ptr(a.entries_ptr);
	for (done = 0; done < a.count; done++) {
		if (copy_from_user(&e, ue + done, sizeof(e))) {
			err = -EFAULT;
			break;
		}
		err = mf_attach_entry(f, &e);
		if (err)
			break;
		if (fatal_signal_pending(current)) {
			done++;
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	mf_fabric_put(f);
	if (put_user(done, &uarg->done))
		return -EFAULT;
	return err;
}

static long mf_ioc_route(void __user *argp)
{
	struct meshfabric_route r;
	struct mf_fabric *f;
	u32 *path = NULL, max, i;
	int hops, err = 0;

	if (copy_from_user(&r, argp, sizeof(r)))
		return -EFAULT;
	if (r.flags || r.reserved)
		return -EINVAL;
	f = mf_fabric_get_checked(r.id, MF_NEED_VISIBLE);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (r.src >= f->topo.nodes || r.dst >= f->topo.nodes) {
		err = -EINVAL;
		goto out;
	}
	/* around links down a path may be longer than the diameter */
	max = f->topo.nodes + 1;
	path = mf_counted_zalloc(array_size(max, sizeof(*path)));
	if (!path) {
		err = -ENOMEM;
		goto out;
	}
	rcu_read_lock();
	hops = mf_rt_path(f, r.src, r.dst, path, max);
	rcu_read_unlock();
	if (hops < 0) {
		err = hops;
		goto out;
	}
	for (i = 0; i <= (u32)hops; i++)
		if (mf_node_gone(f, path[i]))
			err = -EHOSTUNREACH;
	if (err)
		goto out;
	r.hops = hops;
	if (r.path_ptr && r.path_max < r.hops + 1)
		err = -ENOSPC;
	else if (r.path_ptr &&
		 copy_to_user(u64_to_user_ptr(r.path_ptr), path,
			      (r.hops + 1) * sizeof(*path)))
		err = -EFAULT;
	if ((!err || err == -ENOSPC) && copy_to_user(argp, &r, sizeof(r)))
		err = -EFAULT;
out:
	mf_counted_free(path);
	mf_fabric_put(f);
	return err;
}

/* size: sizeof(struct meshfabric_bcast), or 88 for BCAST_V1 (without
 * unreachable).
 */
static long mf_ioc_bcast(void __user *argp, size_t size)
{
	struct mf_bcast_result res;
	struct meshfabric_bcast b;
	struct mf_fabric *f;
	struct sk_buff *skb;
	int err = 0;
	u32 i;

	memset(&b, 0, sizeof(b));
	if (copy_from_user(&b, argp, size))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	err = mf_validate_bcast(&b);
	if (err)
		return err;
	f = mf_fabric_get_checked(b.id, MF_NEED_ADMIN);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (b.source >= f->topo.nodes) {
		err = -EINVAL;
		goto out;
	}
	/* split over hosts: this host's nodes */
	for (i = 0; i < f->topo.nodes; i++)
		if (READ_ONCE(f->node[i].state) != MF_NODE_PRESENT &&
		    !mf_node_remote(f, i))
			err = -ENETDOWN;
	if (err)
		goto out;
	skb = mf_bcast_frame(f, &b);
	if (IS_ERR(skb)) {
		err = PTR_ERR(skb);
		goto out;
	}
	err = mf_bcast_run(f, b.source, b.algo, b.flags, skb, &res);
	if (err)
		kfree_skb(skb);
	else
		consume_skb(skb);
	if (err) {
		mf_free(res.step_ns);
		goto out;
	}
	if (b.step_ns_ptr) {
		void __user *up = u64_to_user_ptr(b.step_ns_ptr);
		size_t n = min(b.steps, res.stats.steps) * sizeof(u64);

		if (res.step_ns ? copy_to_user(up, res.step_ns, n) :
				  clear_user(up, n))
			err = -EFAULT;
	}
	mf_free(res.step_ns);
	if (err)
		goto out;
	b.algo = res.algo;
	b.steps = res.stats.steps;
	b.sends = res.stats.sends;
	b.tcd = res.stats.tcd;
	b.max_link_load = res.stats.max_link_load;
	b.contention = res.stats.contention;
	b.delivered = res.delivered;
	b.elapsed_ns = res.elapsed_ns;
	b.fabric_time_ns = res.fabric_time_ns;
	b.unreachable = res.unreachable;
	b.crossed = res.crossed;
	if (copy_to_user(argp, &b, size))
		err = -EFAULT;
out:
	mf_fabric_put(f);
	return err;
}

/* SCHED_LOAD: the encoding is copied in whole (at most
 * MESHFABRIC_SCHED_CODE_MAX bytes, charged to the caller), decoded and
 * checked before anything changes; the checker's reason goes to why_ptr.
 */
static long mf_ioc_sched_load(void __user *argp)
{
	struct meshfabric_sched_load sl;
	struct mf_stats st = { 0 };
	struct mf_fabric *f;
	char why[96] = "";
	u8 *code = NULL;
	long err;

	if (copy_from_user(&sl, argp, sizeof(sl)))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	err = mf_validate_sched_load(&sl);
	if (err)
		return err;
	f = mf_fabric_get_checked(sl.id, MF_NEED_ADMIN);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = -EINVAL;
	if (sl.source >= f->topo.nodes)
		goto out;
	if (sl.flags & MESHFABRIC_SCHED_UNLOAD) {
		err = mf_bcast_user_unload(f, sl.source);
		goto out;
	}
	err = -E2BIG;
	if (sl.nsends > f->topo.nodes)
		goto out;
	err = -ENOMEM;
	code = kvmalloc(max_t(u32, sl.code_len, 1), GFP_KERNEL_ACCOUNT);
	if (!code)
		goto out;
	err = -EFAULT;
	if (copy_from_user(code, u64_to_user_ptr(sl.code_ptr), sl.code_len))
		goto out;
	err = mf_bcast_user_load(f, sl.model, sl.source, sl.nsteps,
				 sl.nsends, code, sl.code_len, &st, why,
				 sizeof(why));
	if (err == -EINVAL && sl.why_ptr && sl.why_len) {
		why[min_t(size_t, sl.why_len, sizeof(why)) - 1] = '\0';
		if (copy_to_user(u64_to_user_ptr(sl.why_ptr), why,
				 strlen(why) + 1))
			err = -EFAULT;
	}
	if (err)
		goto out;
	/* the schedule is kept whatever the copy does */
	sl.nsteps = st.steps;
	sl.tcd = st.tcd;
	sl.max_link_load = st.max_link_load;
	sl.contention = st.contention;
	if (copy_to_user(argp, &sl, sizeof(sl)))
		err = -EFAULT;
out:
	kvfree(code);
	mf_fabric_put(f);
	return err;
}

static void mf_link_entry(struct mf_fabric *f, u64 l, u64 now, void *p)
{
	struct meshfabric_link_entry *le = p;

	memset(le, 0, sizeof(*le));
	mf_link_name(f, l, &le->node, &le->port, &le->peer);
	mf_link_read(f, l, &le->packets, &le->bytes);
}

static void mf_link_info_entry(struct mf_fabric *f, u64 l, u64 now, void *p)
{
	mf_link_info(f, l, now, p);
}

/* Copy the entries of links first .. first + *count - 1 (size bytes
 * each, filled by fill at time now) to user memory at ptr, MF_CHUNK at
 * a time; *count becomes the number copied.  No lock is held: a caller
 * whose buffer faults slowly (userfaultfd) stalls no other reader.
 */
static int mf_link_copy(struct mf_fabric *f, u64 ptr, u32 first, u32 *count,
			bool xports, size_t size, u64 now,
			void (*fill)(struct mf_fabric *f, u64 l, u64 now,
				     void *entry))
{
	u8 __user *up = u64_to_user_ptr(ptr);
	u32 n, i, k, done = 0;
	int err = 0;
	u8 *buf;

	/* a read never spans links.n: the topology's links, or the extra
	 * ports' past them if asked for (uapi, MESHFABRIC_IOC_LINK_STATS)
	 */
	n = min_t(u64, *count, (first < f->links.n || !xports ? f->links.n :
				mf_links_all(f)) - first);
	buf = mf_counted_zalloc(MF_CHUNK * size);
	if (!buf)
		return -ENOMEM;
	while (done < n) {
		k = min_t(u32, MF_CHUNK, n - done);
		for (i = 0; i < k; i++)
			fill(f, (u64)first + done + i, now, buf + i * size);
		if (copy_to_user(up + done * size, buf, k * size)) {
			err = -EFAULT;
			break;
		}
		done += k;
		cond_resched();
	}
	mf_counted_free(buf);
	*count = done;
	return err;
}

static long mf_ioc_link_stats(void __user *argp)
{
	struct meshfabric_link_stats ls;
	struct mf_fabric *f;
	bool reset;
	int err = 0;

	if (copy_from_user(&ls, argp, sizeof(ls)))
		return -EFAULT;
	if ((ls.flags & ~(MESHFABRIC_LINK_STATS_RESET |
			  MESHFABRIC_LINK_XPORTS)) || ls.reserved0 ||
	    ls.reserved)
		return -EINVAL;
	reset = ls.flags & MESHFABRIC_LINK_STATS_RESET;
	f = mf_fabric_get_checked(ls.id, reset ? MF_NEED_ADMIN :
						 MF_NEED_VISIBLE);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (ls.first > (ls.flags & MESHFABRIC_LINK_XPORTS ?
			mf_links_all(f) : f->links.n)) {
		err = -EINVAL;
		goto out;
	}
	ls.nlinks = f->links.n;
	/* No lock is held while copying out: a caller whose buffer faults
	 * slowly (userfaultfd) must not stall other readers of the fabric.
	 */
	if (ls.links_ptr)
		err = mf_link_copy(f, ls.links_ptr, ls.first, &ls.count,
				   ls.flags & MESHFABRIC_LINK_XPORTS,
				   sizeof(struct meshfabric_link_entry), 0,
				   mf_link_entry);
	else
		ls.count = 0;
	if (!err && copy_to_user(argp, &ls, sizeof(ls)))
		err = -EFAULT;
	/* only once everything reached the caller: what was read is never
	 * lost (frames counted between the copy and the reset are)
	 */
	if (!err && reset)
		mf_link_reset(f);
out:
	mf_fabric_put(f);
	return err;
}

static long mf_ioc_link_set(void __user *argp)
{
	struct meshfabric_link_set ls;
	struct mf_fabric *f;
	int ret;

	if (copy_from_user(&ls, argp, sizeof(ls)))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	ret = mf_validate_link_set(&ls);
	if (ret)
		return ret;
	f = mf_fabric_get_checked(ls.id, MF_NEED_ADMIN);
	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = mf_link_set(f, &ls);
	mf_fabric_put(f);
	if (ret < 0)
		return ret;
	ls.count = ret;
	/* the links changed whatever the copy does: nothing to undo */
	return copy_to_user(argp, &ls, sizeof(ls)) ? -EFAULT : 0;
}

static long mf_ioc_link_get(void __user *argp)
{
	struct meshfabric_link_get lg;
	struct mf_fabric *f;
	int err = 0;

	if (copy_from_user(&lg, argp, sizeof(lg)))
		return -EFAULT;
	err = mf_validate_link_get(&lg);
	if (err)
		return err;
	f = mf_fabric_get_checked(lg.id, MF_NEED_VISIBLE);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (lg.first > (lg.flags & MESHFABRIC_LINK_XPORTS ?
			mf_links_all(f) : f->links.n)) {
		err = -EINVAL;
		goto out;
	}
	lg.nlinks = f->links.n;
	lg.switching = READ_ONCE(f->links.switching);
	lg.now_ns = ktime_get_ns();
	if (lg.links_ptr)
		err = mf_link_copy(f, lg.links_ptr, lg.first, &lg.count,
				   lg.flags & MESHFABRIC_LINK_XPORTS,
				   sizeof(struct meshfabric_link_info),
				   lg.now_ns, mf_link_info_entry);
	else
		lg.count = 0;
	if (!err && copy_to_user(argp, &lg, sizeof(lg)))
		err = -EFAULT;
out:
	mf_fabric_put(f);
	return err;
}

static long mf_ioc_tunnel(void __user *argp, bool set)
{
	struct meshfabric_tunnel tu;
	struct mf_fabric *f;
	int err;

	if (copy_from_user(&tu, argp, sizeof(tu)))
		return -EFAULT;
	if (set) {
		if (!mf_capable())
			return -EPERM;
		err = mf_validate_tunnel(&tu);
		if (err)
			return err;
	}
	f = mf_fabric_get_checked(tu.id, set ? MF_NEED_ADMIN : MF_NEED_VISIBLE);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = set ? mf_tunnel_set(f, &tu) : mf_tunnel_get(f, &tu);
	mf_fabric_put(f);
	if (err)
		return err;
	/* SET: the tunnel stays whatever the copy does (DESTROY ends it) */
	return copy_to_user(argp, &tu, sizeof(tu)) ? -EFAULT : 0;
}

int mf_validate_port(const struct meshfabric_port *mp)
{
	if ((mp->flags & ~MESHFABRIC_PORT_DETACH) || mp->reserved0 ||
	    mp->reserved)
		return -EINVAL;
	if (mp->flags & MESHFABRIC_PORT_DETACH)
		return mp->netns_fd ||
		       !mf_all_zero(mp->ifname, sizeof(mp->ifname)) ?
		       -EINVAL : 0;
	/* an interface name, NUL-terminated and not empty */
	if (!mp->ifname[0] || !memchr(mp->ifname, 0, sizeof(mp->ifname)))
		return -EINVAL;
	return 0;
}

static long mf_ioc_port(void __user *argp)
{
	struct meshfabric_port mp;
	struct mf_fabric *f;
	struct net *net;
	int err;

	if (copy_from_user(&mp, argp, sizeof(mp)))
		return -EFAULT;
	if (!mf_capable())
		return -EPERM;
	err = mf_validate_port(&mp);
	if (err)
		return err;
	f = mf_fabric_get_checked(mp.id, MF_NEED_ADMIN);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (mp.flags & MESHFABRIC_PORT_DETACH) {
		err = mf_port_detach(f, mp.node, mp.port);
		goto out;
	}
	net = get_net_ns_by_fd(mp.netns_fd);
	if (IS_ERR(net)) {
		err = PTR_ERR(net);
		goto out;
	}
	/* the netdev's namespace is the caller's to change too */
	if (ns_capable(net->user_ns, CAP_NET_ADMIN))
		err = mf_port_attach(f, mp.node, mp.port, net,
				     (const char *)mp.ifname);
	else
		err = -EPERM;
	put_net(net);
out:
	mf_fabric_put(f);
	return err;
}

static long mf_ioc_port_get(void __user *argp)
{
	struct meshfabric_port_info *pi;
	struct meshfabric_port_get pg;
	struct mf_fabric *f;
	int err = 0;
	u32 n;

	if (copy_from_user(&pg, argp, sizeof(pg)))
		return -EFAULT;
	if (pg.flags || pg.reserved)
		return -EINVAL;
	f = mf_fabric_get_checked(pg.id, MF_NEED_VISIBLE);
	if (IS_ERR(f))
		return PTR_ERR(f);
	pi = kcalloc(MESHFABRIC_PORTS_MAX, sizeof(*pi), GFP_KERNEL_ACCOUNT);
	if (!pi) {
		err = -ENOMEM;
		goto out;
	}
	pg.total = mf_port_get(f, pi, MESHFABRIC_PORTS_MAX);
	n = pg.ports_ptr ? min(pg.count, pg.total) : 0;
	if (n && copy_to_user(u64_to_user_ptr(pg.ports_ptr), pi,
			      array_size(n, sizeof(*pi))))
		err = -EFAULT;
	pg.count = n;
	if (!err && copy_to_user(argp, &pg, sizeof(pg)))
		err = -EFAULT;
	kfree(pi);
out:
	mf_fabric_put(f);
	return err;
}

long mf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case MESHFABRIC_IOC_CREATE:
		return mf_ioc_create(argp);
	case MESHFABRIC_IOC_DESTROY:
		return mf_ioc_destroy(argp);
	case MESHFABRIC_IOC_INFO:
		return mf_ioc_info(argp);
	case MESHFABRIC_IOC_ATTACH:
		return mf_ioc_attach(argp);
	case MESHFABRIC_IOC_ROUTE:
		return mf_ioc_route(argp);
	case MESHFABRIC_IOC_BCAST:
		return mf_ioc_bcast(argp, sizeof(struct meshfabric_bcast));
	case MESHFABRIC_IOC_BCAST_V1:
		return mf_ioc_bcast(argp, 88);
	case MESHFABRIC_IOC_LINK_STATS:
		return mf_ioc_link_stats(argp);
	case MESHFABRIC_IOC_LINK_SET:
		return mf_ioc_link_set(argp);
	case MESHFABRIC_IOC_LINK_GET:
		return mf_ioc_link_get(argp);
	case MESHFABRIC_IOC_SCHED_LOAD:
		return mf_ioc_sched_load(argp);
	case MESHFABRIC_IOC_TUNNEL_SET:
		return mf_ioc_tunnel(argp, true);
	case MESHFABRIC_IOC_TUNNEL_GET:
		return mf_ioc_tunnel(argp, false);
	case MESHFABRIC_IOC_PORT:
		return mf_ioc_port(argp);
	case MESHFABRIC_IOC_PORT_GET:
		return mf_ioc_port_get(argp);
	case MESHFABRIC_IOC_COLLECTIVE:
		return mf_capable() ? mf_ioc_collective(argp) : -EPERM;
	}
	return -ENOTTY;
}

static const struct file_operations mf_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = mf_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* Mode 0666, as /dev/net/tun: the uapi header says why. */
static struct miscdevice mf_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "meshfabric",
	.fops = &mf_fops,
	.mode = 0666,
};

int mf_ioctl_init(void)
{
	return misc_register(&mf_misc);
}

void mf_ioctl_exit(void)
{
	misc_deregister(&mf_misc);
}
