// SPDX-License-Identifier: GPL-2.0
/*
 * link.c - timed links: each directed link's rate, delay and queue limit
 * (struct mf_linkstate) and loss (links.loss[]), LINK_SET and LINK_GET's
 * entries, and the reservation a timed unicast frame makes on each link
 * of its path.
 *
 * The model is the core's (timing.h), followed per frame in O(hops) with
 * no timer per hop: when a frame is sent, it reserves its slot on every
 * link of its path at once (start = max(ready, busy), busy = its end),
 * then waits in the fabric's time-ordered queue (tqueue.c) for its
 * arrival.  The approximation: a link serves frames in the order they were
 * SENT, not in the order they reach it; the two differ only when a frame
 * sent later reaches a shared link earlier (a shorter way there), which
 * then waits behind the earlier-sent one.  The queue limit is checked
 * against the backlog the frame finds: (busy - ready) / its serialisation
 * time frames ahead of it.  An unlimited link (rate 0) has no busy-until:
 * it serialises nothing, so no frame waits for it.  Loss: one draw per
 * frame (mf.h, mf_loss_hop), so a hop costs a bounded number of loads,
 * one compare-and-exchange (rated links only) and one product.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include "mf.h"
#include "trace.h"

void mf_links_defaults(struct mf_fabric *f)
{
	u64 l;

	for (l = 0; l < mf_links_all(f); l++) {
		atomic64_set(&f->links.st[l].busy, 0);
		f->links.st[l].queue = MESHFABRIC_QUEUE_DEFAULT;
	}
	f->links.switching = MESHFABRIC_SWITCH_STORE_FORWARD;
}

void mf_link_restart(struct mf_fabric *f, u64 l)
{
	struct mf_linkstate *st = &f->links.st[l];

	lockdep_assert_held(&f->lock);
	atomic64_set(&st->busy, 0);
	WRITE_ONCE(st->rate, 0);
	WRITE_ONCE(st->delay_ns, 0);
	WRITE_ONCE(st->queue, MESHFABRIC_QUEUE_DEFAULT);
	WRITE_ONCE(f->links.loss[l], 0);
	WRITE_ONCE(st->down, 0);
	/* the counters: as LINK_STATS' reset does it, for this link */
	mutex_lock(&f->stats_lock);
	mf_link_rebase(f, l);
	mutex_unlock(&f->stats_lock);
}

void mf_links_timed_update(struct mf_fabric *f)
{
	const struct mf_linkstate *st = f->links.st;
	bool timed = false, rated = false;
	u64 l;

	lockdep_assert_held(&f->lock);
	for (l = 0; l < mf_links_all(f) && !rated; l++) {
		/* an extra port's link counts while its port is bound */
		if (l >= f->links.n &&
		    !rcu_access_pointer(f->ports[l - f->links.n]))
			continue;
		rated = st[l].rate || st[l].delay_ns;
		timed |= rated || f->links.loss[l];
		if (!(l & 65535))
			cond_resched();
	}
	WRITE_ONCE(f->links.rated, rated);
	WRITE_ONCE(f->links.timed, timed);
}

static void mf_link_apply(struct mf_fabric *f, u64 l,
			  const struct meshfabric_link_set *ls)
{
	struct mf_linkstate *st = &f->links.st[l];

	if (ls->flags & MESHFABRIC_LINK_RATE)
		WRITE_ONCE(st->rate, ls->rate);
	if (ls->flags & MESHFABRIC_LINK_DELAY)
		WRITE_ONCE(st->delay_ns, ls->delay_ns);
	if (ls->flags & MESHFABRIC_LINK_QUEUE)
		WRITE_ONCE(st->queue, ls->queue);
	if (ls->flags & MESHFABRIC_LINK_LOSS)
		WRITE_ONCE(f->links.loss[l], ls->loss);
}

/* Is the link of node through port one LINK_SET with node and port
 * (MESHFABRIC_ALL: any) names, in either direction?
 */
static bool mf_link_selected(const struct mf_fabric *f,
			     const struct meshfabric_link_set *ls, u32 node,
			     u32 port)
{
	u32 peer = f->links.peer[(u64)node * f->topo.nports + port];
	int back;

	if ((ls->node == MESHFABRIC_ALL || ls->node == node) &&
	    (ls->port == MESHFABRIC_ALL || ls->port == port))
		return true;
	/* the reverse direction: the peer's port back (topo.h: in a size-2
	 * torus dimension the + port both ways)
	 */
	back = mf_topo_port(&f->topo, peer, node);
	return back >= 0 && (ls->node == MESHFABRIC_ALL || ls->node == peer) &&
	       (ls->port == MESHFABRIC_ALL || ls->port == (u32)back);
}

static void mf_fstate_destroy(struct mf_fstate *fs)
{
	mf_froute_free(&fs->route);
	mf_faults_free(&fs->faults);
	mf_counted_free(fs);
}

static void mf_fstate_free_rcu(struct rcu_head *head)
{
	mf_fstate_destroy(container_of(head, struct mf_fstate, rcu));
}

void mf_fstate_free(struct mf_fabric *f)
{
	struct mf_fstate *fs = rcu_dereference_protected(f->fstate, true);

	if (fs)
		mf_fstate_destroy(fs);
	RCU_INIT_POINTER(f->fstate, NULL);
}

bool mf_node_cut(const struct mf_fabric *f, u32 node)
{
	const struct mf_topo *t = &f->topo;
	bool any = false;
	u32 p;

	for (p = 0; p < t->nports; p++) {
		if (!mf_topo_is_link(t, node, p))
			continue;
		if (!READ_ONCE(f->links.st[(u64)node * t->nports + p].down))
			return false;
		any = true;
	}
	return any;
}

/* Carrier of node as its links say: off when all are down, else on. */
static void mf_node_carrier(struct mf_fabric *f, u32 node)
{
	struct net_device *dev;

	rcu_read_lock();
	dev = rcu_dereference(f->node[node].dev);
	if (dev && mf_node_cut(f, node))
		netif_carrier_off(dev);
	else if (dev)
		netif_carrier_on(dev);
	rcu_read_unlock();
}

/* The fault-routing build's scheduling point (struct mf_froute_ctl): it
 * yields the CPU between bounded pieces of work, and a fatal signal stops
 * it (nothing is published).
 */
static int mf_froute_yield(void *arg)
{
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

static const struct mf_froute_ctl mf_froute_limits = {
	.max_work = MESHFABRIC_FAULT_WORK,
	.yield = mf_froute_yield,
};

/* Fault-routing builds in flight: one per owner at a time, so that the
 * work an owner causes at once is one build's, at most
 * MESHFABRIC_FAULT_WORK, however many fabrics and callers it has.  Keys
 * are the owners' accounts (f->quota, the fabric itself without one),
 * compared, never dereferenced.  Under mf_fbuild_lock.
 */
#define MF_FBUILD_SLOTS	64
static DEFINE_SPINLOCK(mf_fbuild_lock);
static const void *mf_fbuild_key[MF_FBUILD_SLOTS];
static DECLARE_WAIT_QUEUE_HEAD(mf_fbuild_wq);

static bool mf_fbuild_claim(const void *key, int *slot)
{
	int i, got = -1;

	spin_lock(&mf_fbuild_lock);
	for (i = 0; i < MF_FBUILD_SLOTS; i++) {
		if (mf_fbuild_key[i] == key) {
			got = -1;
			break;
		}
		if (!mf_fbuild_key[i] && got < 0)
			got = i;
	}
	if (got >= 0)
		mf_fbuild_key[got] = key;
	spin_unlock(&mf_fbuild_lock);
	*slot = got;
	return got >= 0;
}

static void mf_fbuild_release(int slot)
{
	spin_lock(&mf_fbuild_lock);
	mf_fbuild_key[slot] = NULL;
	spin_unlock(&mf_fbuild_lock);
	wake_up_all(&mf_fbuild_wq);
}

/* Is ls the change the routing around fs last refused (E2BIG)? */
static bool mf_fstate_refused(const struct mf_fstate *fs,
			      const struct meshfabric_link_set *ls)
{
	return fs && fs->refused && fs->refused_node == ls->node &&
	       fs->refused_port == ls->port && fs->refused_down == !!ls->down;
}

int mf_link_set_state(struct mf_fabric *f,
		      const struct meshfabric_link_set *ls)
{
	const struct mf_topo *t = &f->topo;
	struct mf_fstate *fs, *old;
	u32 node, port, count = 0;
	bool down, changed = false;
	int err;
	u64 l;

	lockdep_assert_held(&f->lock);
	old = rcu_dereference_protected(f->fstate, lockdep_is_held(&f->lock));
	/* the same change refused again: refused before any work */
	if (mf_fstate_refused(old, ls))
		return -E2BIG;
	fs = mf_counted_zalloc(sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	mf_faults_init(&fs->faults);
	/* the new fault set: every link down after the change */
	for (node = 0; node < t->nodes; node++) {
		for (port = 0; port < t->nports; port++) {
			if (!mf_topo_is_link(t, node, port))
				continue;
			l = (u64)node * t->nports + port;
			down = f->links.st[l].down;
			if (mf_link_selected(f, ls, node, port)) {
				changed |= down != !!ls->down;
				down = ls->down;
				count++;
			}
			if (!down)
				continue;
			err = mf_faults_add_link(&fs->faults, t, node, port);
			if (err)
				goto err;
		}
		if (!(node & 1023))
			cond_resched();
	}
	/* bounded (-E2BIG before the work), scheduled, killable */
	err = mf_froute_build_ctl(&fs->route, t, f->routing, &fs->faults,
				  &mf_froute_limits);
	if (err)
		goto err;
	/* nothing can fail from here: apply, then publish at once */
	for (node = 0; node < t->nodes; node++) {
		for (port = 0; port < t->nports; port++)
			if (mf_topo_is_link(t, node, port) &&
			    mf_link_selected(f, ls, node, port))
				WRITE_ONCE(f->links.st[(u64)node * t->nports +
						       port].down, ls->down);
		if (!(node & 1023))
			cond_resched();
	}
	/* bound external ports: their state only (nothing routes through
	 * them)
	 */
	count += mf_port_set_down(f, ls->node, ls->port, ls->down);
	if (!fs->faults.n) {
		mf_fstate_destroy(fs);
		fs = NULL;
	} else {
		/* a new generation only if a link changed: the schedules
		 * BCAST repaired around the same set stay valid
		 */
		fs->gen = !changed && old ? old->gen : ++f->fgen;
	}
	old = rcu_replace_pointer(f->fstate, fs, lockdep_is_held(&f->lock));
	if (old)
		call_rcu(&old->rcu, mf_fstate_free_rcu);
	mf_bcast_links_changed(f);
	for (node = 0; node < t->nodes; node++) {
		mf_node_carrier(f, node);
		if (!(node & 1023))
			cond_resched();
	}
	return count;
err:
	mf_fstate_destroy(fs);
	if (err == -E2BIG && old) {
		/* remembered until the fault set changes (fields no reader
		 * of the published state uses, written under f->lock)
		 */
		old->refused_node = ls->node;
		old->refused_port = ls->port;
		old->refused_down = !!ls->down;
		old->refused = true;
	}
	return err;
}

/* ls was validated by mf_validate_link_set() (ioctl.c). */
int mf_link_set(struct mf_fabric *f, const struct meshfabric_link_set *ls)
{
	const struct mf_topo *t = &f->topo;
	u32 n0 = 0, n1 = t->nodes, p0 = 0, p1 = t->nports, node, port, i, nx;
	u64 xl[MESHFABRIC_PORTS_MAX];
	int count = 0;

	if (ls->node != MESHFABRIC_ALL) {
		if (ls->node >= t->nodes)
			return -EINVAL;
		n0 = ls->node;
		n1 = n0 + 1;
	}
	if (ls->port != MESHFABRIC_ALL) {
		/* a port by name must be a link of its own (or a bound
		 * external port's, port.c: a border or an extra port)
		 */
		if (ls->port >= t->nports + MESHFABRIC_PORTS_MAX ||
		    ls->node == MESHFABRIC_ALL ||
		    !mf_link_exists(f, ls->node, ls->port))
			return -EINVAL;
		p0 = min(ls->port, t->nports);	/* an extra port: none */
		p1 = min(ls->port + 1, t->nports);
	}
	if (ls->flags & MESHFABRIC_LINK_STATE) {
		/* one fault-routing build per owner at a time; waits and the
		 * build itself end on a fatal signal
		 */
		const void *key = READ_ONCE(f->quota) ?: (void *)f;
		int slot, err;

		err = wait_event_killable(mf_fbuild_wq,
					  mf_fbuild_claim(key, &slot));
		if (err)
			return err;
		err = mutex_lock_killable(&f->lock);
		if (err) {
			mf_fbuild_release(slot);
			return err;
		}
		count = mf_link_set_state(f, ls);
		mf_fbuild_release(slot);
		if (count < 0) {
			mutex_unlock(&f->lock);
			return count;
		}
	} else if (mutex_lock_killable(&f->lock)) {
		return -EINTR;	/* a fault-routing build holds it long */
	}
	if (ls->flags & MESHFABRIC_LINK_STATE) {
		if (ls->flags == MESHFABRIC_LINK_STATE)
			goto out;
		count = 0;	/* the same links: counted once, below */
	}
	for (node = n0; node < n1; node++) {
		for (port = p0; port < p1; port++) {
			if (!mf_link_exists(f, node, port))
				continue;
			mf_link_apply(f, (u64)node * t->nports + port, ls);
			count++;
		}
		if (!(node & 1023))
			cond_resched();
	}
	/* the bound extra ports named (the links past links.n) */
	nx = mf_port_xlinks(f, ls->node, ls->port, xl);
	for (i = 0; i < nx; i++)
		mf_link_apply(f, xl[i], ls);
	count += nx;
	if (ls->flags & MESHFABRIC_LINK_SWITCHING)
		WRITE_ONCE(f->links.switching, ls->switching);
	mf_links_timed_update(f);
out:
	mutex_unlock(&f->lock);
	/* BCAST's schedules repaired around the old set: freed now */
	if (ls->flags & MESHFABRIC_LINK_STATE)
		mf_bcast_faults_changed(f);
	trace_meshfabric_link_set(f->id, ls->node, ls->port, ls->flags,
				  ls->rate, ls->delay_ns, ls->queue, ls->loss,
				  ls->switching, ls->down);
	return count;
}

void mf_link_name(const struct mf_fabric *f, u64 l, u32 *node, u32 *port,
		  u32 *peer)
{
	const struct mf_topo *t = &f->topo;

	*peer = MESHFABRIC_NO_PEER;
	if (l >= f->links.n) {
		/* an extra port's slot: its port, or none bound there */
		if (!mf_port_of_slot(f, l - f->links.n, node, port)) {
			*node = MESHFABRIC_ALL;
			*port = MESHFABRIC_ALL;
		}
		return;
	}
	*node = l / t->nports;
	*port = l % t->nports;
	/* no link of its own: a mesh border, or the - port of a size-2
	 * torus dimension (that link is the + port's)
	 */
	if (mf_topo_is_link(t, *node, *port))
		*peer = f->links.peer[l];
}

void mf_link_info(struct mf_fabric *f, u64 l, u64 now,
		  struct meshfabric_link_info *li)
{
	const struct mf_linkstate *st = &f->links.st[l];
	struct mf_linkctr c;
	u64 busy;

	memset(li, 0, sizeof(*li));
	mf_link_name(f, l, &li->node, &li->port, &li->peer);
	li->flags = READ_ONCE(st->down) ? MESHFABRIC_LINKF_DOWN : 0;
	if (li->peer == MESHFABRIC_NO_PEER && li->port != MESHFABRIC_ALL &&
	    mf_port_bound(f, li->node, li->port))
		li->flags |= MESHFABRIC_LINKF_PORT;
	li->rate = READ_ONCE(st->rate);
	li->delay_ns = READ_ONCE(st->delay_ns);
	li->queue = READ_ONCE(st->queue);
	li->loss = READ_ONCE(f->links.loss[l]);
	mf_link_read_all(f, l, &c);
	li->packets = c.packets;
	li->bytes = c.bytes;
	li->drop_loss = c.drop_loss;
	li->drop_queue = c.drop_queue;
	li->busy_ns = c.busy_ns;
	busy = atomic64_read(&st->busy);
	li->backlog_ns = busy > now ? busy - now : 0;
}

void mf_link_model(const void *fabric, u64 l, struct mf_link_model *out)
{
	const struct mf_fabric *f = fabric;

	out->rate = READ_ONCE(f->links.st[l].rate);
	out->delay_ns = READ_ONCE(f->links.st[l].delay_ns);
}

bool mf_link_loses(struct mf_fabric *f, u64 l)
{
	u32 loss = READ_ONCE(f->links.loss[l]);

	if (!loss || get_random_u32_below(MESHFABRIC_LOSS_MAX) >= loss)
		return false;
	f->links.row[smp_processor_id()][l].drop_loss++;
	return true;
}

bool mf_link_reserve(struct mf_fabric *f, u64 l, struct mf_tframe *fr,
		     enum mf_drop_reason *why)
{
	struct mf_linkctr *c = &f->links.row[smp_processor_id()][l];
	struct mf_linkstate *st = &f->links.st[l];
	u64 rate = READ_ONCE(st->rate), delay = READ_ONCE(st->delay_ns);
	u64 horizon = fr->sent + MESHFABRIC_HORIZON_NS;
	u32 queue = READ_ONCE(st->queue);
	u64 ser = mf_ser_ns(fr->seg_bytes, rate);
	u64 old, start, end;

	if (mf_loss_hop(&fr->ld, fr->segs, READ_ONCE(f->links.loss[l]))) {
		c->drop_loss += fr->segs;
		*why = MF_DROP_LOSS;
		return false;
	}
	/* an unlimited link serialises nothing: no frame waits for it (as
	 * timing.h's free = start + 0, never after a later frame is ready),
	 * so its busy-until is neither read nor written: a pure loss or
	 * delay link costs no atomic
	 */
	if (!rate) {
		if (fr->tail + delay > horizon)
			goto full;
		c->packets += fr->segs;
		c->bytes += fr->len;
		fr->head += delay;
		fr->tail += delay;
		return true;
	}
	/* a frame that could not arrive within the horizon is refused
	 * before it takes any time (no time value can then overflow: every
	 * busy-until is below sent + horizon)
	 */
	if (ser > MESHFABRIC_HORIZON_NS / fr->segs)
		goto full;
	old = atomic64_read(&st->busy);
	do {
		/* frames ahead of this one when it reaches the link */
		if (ser && old > fr->head &&
		    div64_u64(old - fr->head, ser) + fr->segs > queue)
			goto full;
		start = max(fr->head, old);
		/* its last segment leaves once it is here (store-and-forward:
		 * whole; cut-through: its last bit) and its turn came
		 */
		end = start + fr->segs * ser;
		if (READ_ONCE(f->links.switching) ==
		    MESHFABRIC_SWITCH_CUT_THROUGH)
			end = max(end, fr->tail);
		else
			end = max(end, fr->tail + ser);
		if (end + delay > horizon)
			goto full;
	} while (!atomic64_try_cmpxchg(&st->busy, &old, end));
	c->packets += fr->segs;
	c->bytes += fr->len;
	c->busy_ns += fr->segs * ser;
	fr->head = start + delay;
	if (READ_ONCE(f->links.switching) != MESHFABRIC_SWITCH_CUT_THROUGH)
		fr->head += ser;
	fr->tail = end + delay;
	return true;
full:
	c->drop_queue += fr->segs;
	*why = MF_DROP_QUEUE_FULL;
	return false;
}
