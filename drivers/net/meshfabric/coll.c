// SPDX-License-Identifier: GPL-2.0
/*
 * coll.c - collectives executed by the kernel (MESHFABRIC_IOC_COLLECTIVE,
 * documented in the uapi header).
 *
 * The schedule is the core's (mf_coll_plan: the closed-form builders of
 * `meshfabric plan --coll`, checked by the core's checker), built per
 * call, or with MESHFABRIC_CALGO_USER the caller's: decoded by the core
 * (mf_coll_decode) and checked by the same checker before anything is
 * sent or reserved.  The call then runs it step by step on the data: each send's
 * blocks are read from its source as the step began (a snapshot), sent
 * as frames (struct meshfabric_coll_hdr after the Ethernet header)
 * counted on every directed link of the send's path and delivered to the
 * destination's netdev, then copied or combined (the core's
 * mf_rop_combine, integers only) into the destination's vector.  After
 * the last step each node gets its result as a frame, and the results
 * are compared with the direct computation (coll_direct(): the inputs
 * folded element by element, never the schedule).
 *
 * On timed links the schedule is first run in fabric time by the core's
 * mf_sched_time(), after what the links already carry, reserving its
 * slots (bcast.c, mf_sched_reserve_timed, as BCAST does); each step's
 * frames then go at that step's end in fabric time, the call sleeping in
 * between (killable).
 *
 * Locking: the call's state (struct mf_coll_call) is its own.  The
 * fabric is held by the ioctl's reference; f->bcast_lock is taken
 * (killable) only around the timing and reservation, so that BCASTs and
 * collectives reserve link slots one at a time; planning, the data work,
 * the frames and the sleeps hold no lock (node netdevs are read under
 * RCU by mf_deliver).
 *
 * Bounds: nodes <= MESHFABRIC_COLL_MAX_NODES (alltoall
 * MESHFABRIC_COLL_A2A_NODES) bound the schedule's size and the planning;
 * nodes * count * element size <= MESHFABRIC_COLL_MAX_BYTES bounds the
 * memory (inputs and results, counted allocations charged to the
 * caller's memory cgroup) and, with the steps, the data work; there is a
 * scheduling point per send and a fatal-signal check per step.  A user's
 * schedule is bounded by its encoding (MESHFABRIC_SCHED_CODE_MAX bytes,
 * the MESHFABRIC_COLL_USER_* caps on blocks, sends and block entries, its
 * decoded arrays counted allocations) and by the bytes its sends move
 * (MESHFABRIC_COLL_USER_BYTES), which bound its data work as the
 * builders' shapes bound theirs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include "mf.h"
#include "coll.h"
#include "schedcode.h"

/* The uapi's numbers are the core's. */
static_assert(MESHFABRIC_COLL_BROADCAST == MF_COLL_BCAST);
static_assert(MESHFABRIC_COLL_ALLREDUCE == MF_COLL_ALLREDUCE);
static_assert(MESHFABRIC_COLL_ALLTOALL == MF_COLL_ALLTOALL);
static_assert(MESHFABRIC_COLL_MAX + 1 == MF_COLL_COUNT);
static_assert(MESHFABRIC_ROP_BXOR == MF_ROP_BXOR);
static_assert(MESHFABRIC_ROP_MAX_ID + 1 == MF_ROP_COUNT);
static_assert(MESHFABRIC_RTYPE_U64 == MF_RTYPE_U64);
static_assert(MESHFABRIC_RTYPE_F32 == MF_RTYPE_COUNT);
static_assert(MESHFABRIC_CALGO_SWING == MF_CALGO_SWING);
static_assert(MESHFABRIC_CALGO_MAX + 1 == MF_CALGO_COUNT);
static_assert(MESHFABRIC_CALGO_USER == MF_CALGO_COUNT);
static_assert(MESHFABRIC_COLL_USER_CELLS == MF_COLL_CODE_CELLS);
static_assert(MESHFABRIC_COLL_USER_SENDS == MF_COLL_CODE_SENDS);
static_assert(MESHFABRIC_COLL_USER_BLKS == MF_COLL_CODE_BLKS);
static_assert(sizeof(struct meshfabric_coll_hdr) + ETH_HLEN ==
	      MESHFABRIC_COLL_FRAME_HDR);
static_assert(sizeof(struct meshfabric_collective) == 176);

/* The module's COLLECTIVE calls (meshfabric_coll_hdr.seq). */
static atomic_t mf_coll_seq = ATOMIC_INIT(0);

struct mf_coll_call {
	struct mf_fabric *f;
	const struct meshfabric_collective *c;
	struct mf_sched s;
	u32 n, es, nb, seq, ethertype;
	size_t vbytes;		/* count * es */
	u8 *in;			/* n vectors: the inputs */
	u8 *buf;		/* n vectors: the running values */
	u8 *snap;		/* a step's payloads */
	u64 *send_bytes;	/* sends: payload bytes */
	u64 *link_bytes;	/* directed links: bytes this call */
	struct mf_linkacct acct;
	struct mf_timeline tl;
	struct mf_stats st;	/* the checker's */
	u32 algo_run;
	bool timed;
	/* split over hosts (tunnel.c; written once, f->part): the part
	 * holding each node, read once, so that the whole call sees one
	 * answer; NULL on one host
	 */
	const u8 *part;
	u32 chunk;		/* a frame's payload, at most */
	u32 unhanded;		/* frames not handed to another host */
	u64 t0, frames, bytes;
	u32 delivered;
	char why[128];
};

int mf_validate_collective(const struct meshfabric_collective *c)
{
	bool user;

	if ((c->flags & ~MESHFABRIC_COLL_GENERATE) || c->nblocks || c->sends ||
	    c->max_link_load || c->tcd || c->contention || c->frames ||
	    c->link_bytes || c->max_link_bytes || c->fabric_time_ns ||
	    c->elapsed_ns || c->digest || c->delivered || c->match ||
	    c->reserved)
		return -EINVAL;
	user = c->algo == MESHFABRIC_CALGO_USER;
	if (c->coll > MESHFABRIC_COLL_MAX ||
	    (c->algo > MESHFABRIC_CALGO_MAX && !user))
		return -EINVAL;
	/* the user's schedule: with CALGO_USER only, and then given */
	if (user != !!c->sched_ptr || !c->sched_ptr != !c->sched_len)
		return -EINVAL;
	if (c->sched_len > MESHFABRIC_SCHED_CODE_MAX)
		return -E2BIG;
	if (c->type == MESHFABRIC_RTYPE_F32 || c->type == MESHFABRIC_RTYPE_F64)
		return -EOPNOTSUPP;
	if (c->type > MESHFABRIC_RTYPE_U64 || c->op > MESHFABRIC_ROP_MAX_ID)
		return -EINVAL;
	if (!c->count)
		return -EINVAL;
	if (!!(c->flags & MESHFABRIC_COLL_GENERATE) == !!c->in_ptr)
		return -EINVAL;
	if (c->ethertype && (c->ethertype < ETH_P_802_3_MIN ||
			     c->ethertype > 0xffff))
		return -EINVAL;
	return 0;
}

/* Node v's element j of the generator (the uapi's formula). */
static void coll_gen(void *dst, u32 es, u32 v, u32 j)
{
	u64 x = (u64)(v + 1) * 0x9e3779b97f4a7c15ULL +
		(u64)j * 0xd1b54a32d192ed03ULL;

	if (es == 8)
		*(u64 *)dst = x;
	else
		*(u32 *)dst = (u32)(x >> 32);
}

static int coll_inputs(struct mf_coll_call *cc)
{
	const struct meshfabric_collective *c = cc->c;
	u32 v, j;

	if (!(c->flags & MESHFABRIC_COLL_GENERATE))
		return copy_from_user(cc->in, u64_to_user_ptr(c->in_ptr),
				      cc->n * cc->vbytes) ? -EFAULT : 0;
	for (v = 0; v < cc->n; v++) {
		for (j = 0; j < c->count; j++)
			coll_gen(cc->in + v * cc->vbytes + (size_t)j * cc->es,
				 cc->es, v, j);
		cond_resched();
	}
	return 0;
}

/* Bytes [*lo, *hi) of block b in a vector. */
static void coll_block(const struct mf_coll_call *cc, u32 b, size_t *lo,
		       size_t *hi)
{
	u32 count = cc->c->count;

	*lo = (size_t)div_u64((u64)b * count, cc->nb) * cc->es;
	*hi = (size_t)div_u64((u64)(b + 1) * count, cc->nb) * cc->es;
}

/* Which input node v ends with in block b (sched.h's definitions, written
 * here from the uapi's words, not from the checker): the node whose input
 * it copies, MF_COLL_REDUCED for the reduction of all, or -1 (none).
 */
#define MF_COLL_REDUCED	(-2)
static s64 coll_want(const struct mf_coll_call *cc, u32 v, u32 b)
{
	u32 n = cc->n, root = cc->c->root, per = cc->nb / n, k;

	switch (cc->c->coll) {
	case MESHFABRIC_COLL_BROADCAST:
		return root;
	case MESHFABRIC_COLL_REDUCE:
		return v == root ? MF_COLL_REDUCED : -1;
	case MESHFABRIC_COLL_ALLREDUCE:
		return MF_COLL_REDUCED;
	case MESHFABRIC_COLL_REDUCE_SCATTER:
		return b / per == v ? MF_COLL_REDUCED : -1;
	case MESHFABRIC_COLL_ALLGATHER:
		return b / per;
	case MESHFABRIC_COLL_GATHER:
		return v == root ? (s64)(b / per) : -1;
	case MESHFABRIC_COLL_SCATTER:
		return b / per == v ? (s64)root : -1;
	}
	k = cc->nb / n / n;		/* alltoall */
	return (b / k) % n == v ? (s64)(b / (n * k)) : -1;
}

/* Split over hosts: a send's path must fit the tunnel's path option and
 * cross between hosts at most as many times as there are parts (the
 * receiving hosts drop one that would cross more: tunnel.c).
 */
static int coll_path_fits(struct mf_coll_call *cc, const struct mf_send *sd)
{
	const u32 *p = &cc->s.path[sd->path];
	u32 h, cross = 0;

	if (!cc->part)
		return 0;
	for (h = 0; h < sd->hops; h++)
		cross += cc->part[p[h]] != cc->part[p[h + 1]];
	if (sd->hops > MESHFABRIC_TUNNEL_PATH_HOPS) {
		snprintf(cc->why, sizeof(cc->why),
			 "a path of %u hops: across hosts at most %u",
			 sd->hops, MESHFABRIC_TUNNEL_PATH_HOPS);
		return -E2BIG;
	}
	if (cross > cc->f->nparts) {
		snprintf(cc->why, sizeof(cc->why),
			 "a path crossing between hosts %u times: at most %u (the parts)",
			 cross, cc->f->nparts);
		return -E2BIG;
	}
	return 0;
}

/* Each send's payload and the largest step's, then the snapshot. */
static int coll_sizes(struct mf_coll_call *cc)
{
	const struct mf_sched *s = &cc->s;
	u64 most = 0, step;
	size_t lo, hi;
	const u32 *ids;
	u64 all = 0;
	u32 i, k, j, n;
	int err;

	cc->send_bytes = mf_alloc_array(max(s->nsends, 1U), sizeof(u64),
					false);
	if (!cc->send_bytes)
		return -ENOMEM;
	for (i = 0; i < s->nsteps; i++) {
		step = 0;
		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			err = coll_path_fits(cc, &s->send[k]);
			if (err)
				return err;
			ids = mf_send_blocks(s, k, &n);
			cc->send_bytes[k] = 0;
			for (j = 0; j < n; j++) {
				coll_block(cc, ids[j] & ~MF_BLK_COMBINE, &lo,
					   &hi);
				cc->send_bytes[k] += hi - lo;
			}
			step += cc->send_bytes[k];
		}
		most = max(most, step);
		all += step;
	}
	if (cc->c->algo == MESHFABRIC_CALGO_USER &&
	    all > MESHFABRIC_COLL_USER_BYTES) {
		snprintf(cc->why, sizeof(cc->why),
			 "the sends of this schedule move %llu bytes, above %llu",
			 all, MESHFABRIC_COLL_USER_BYTES);
		return -E2BIG;
	}
	/* the step's snapshot: every send of the step reads its blocks;
	 * all-port sends may copy one node's vector to each neighbour
	 */
	if (most > 4ULL * MESHFABRIC_COLL_MAX_BYTES) {
		snprintf(cc->why, sizeof(cc->why),
			 "a step of this schedule moves %llu bytes, above %u",
			 most, 4 * MESHFABRIC_COLL_MAX_BYTES);
		return -E2BIG;
	}
	cc->snap = mf_counted_zalloc(max_t(u64, most, 1));
	return cc->snap ? 0 : -ENOMEM;
}

/* One frame of a send (or a result): header, then len bytes of data. */
static struct sk_buff *coll_frame(struct mf_coll_call *cc, u8 kind, u32 step,
				  u32 src, u32 dst, u32 first, u32 nblocks,
				  u32 offset, u32 total, const u8 *data,
				  u32 len)
{
	struct meshfabric_coll_hdr *h;
	struct sk_buff *skb;
	struct ethhdr *eth;
	int err;

	skb = alloc_skb_with_frags(MESHFABRIC_COLL_FRAME_HDR, len, 0, &err,
				   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!skb)
		return ERR_PTR(err);
	eth = skb_put(skb, ETH_HLEN);
	mf_node_mac(cc->f, dst, eth->h_dest);
	mf_node_mac(cc->f, src, eth->h_source);
	eth->h_proto = htons(cc->ethertype);
	h = skb_put_zero(skb, sizeof(*h));
	h->version = 1;
	h->kind = kind;
	h->coll = cc->c->coll;
	h->op = cc->c->op;
	h->type = cc->c->type;
	h->seq = htonl(cc->seq);
	h->step = htonl(step);
	h->src = htonl(src);
	h->dst = htonl(dst);
	h->first = htonl(first);
	h->nblocks = htonl(nblocks);
	h->offset = htonl(offset);
	h->bytes = htonl(total);
	skb->data_len = len;
	skb->len += len;
	if (len && skb_store_bits(skb, MESHFABRIC_COLL_FRAME_HDR, data, len)) {
		kfree_skb(skb);
		return ERR_PTR(-EFAULT);
	}
	return skb;
}

/* Is node held by another host? */
static bool coll_remote(const struct mf_coll_call *cc, u32 node)
{
	return cc->part && cc->part[node] != cc->f->mypart;
}

/* Hand frame to the host of path[0] (a node of another part), entering
 * it by in_port (0xff: it starts there), with the rest of path (hops
 * hops) left; cc->unhanded counts a failure.
 */
static void coll_hand(struct mf_coll_call *cc, const u32 *path, u32 hops,
		      u32 in_port, struct sk_buff *frame)
{
	u8 ports[MF_PATH_BYTES];

	/* coll_sizes() bounded hops by MESHFABRIC_TUNNEL_PATH_HOPS, and
	 * mf_check() proved the path a chain of neighbours
	 */
	if (WARN_ON_ONCE(mf_path_pack(&cc->f->topo, path, hops, ports)) ||
	    !mf_tunnel_path(cc->f, path[0], in_port, ports, 0, hops, frame))
		cc->unhanded++;
}

/* Send data (total bytes) as frames of at most cc->chunk bytes, each
 * counted on the links of path (hops of them) and delivered to dst;
 * *ok: every frame was accepted here (not: handed to another host).
 * Split over hosts, a link is counted (and the frame delivered) by the
 * host of its sending end (of dst): a frame from another part's node
 * goes to its host, one whose path reaches another part goes on from
 * there (coll_hand).  The call's statistics count every hop.  0 or
 * -ENOMEM.
 */
static int coll_send(struct mf_coll_call *cc, u8 kind, u32 step, u32 src,
		     u32 dst, u32 first, u32 nblocks, const u32 *path,
		     u32 hops, const u8 *data, u64 total, bool *ok)
{
	const struct mf_topo *t = &cc->f->topo;
	struct mf_fabric *f = cc->f;
	bool here = !coll_remote(cc, src);
	u32 len, h, cut;
	u64 off = 0, link;
	struct sk_buff *skb;
	int port;

	*ok = true;
	do {
		len = min_t(u64, total - off, cc->chunk);
		skb = coll_frame(cc, kind, step, src, dst, first, nblocks,
				 off, total, data + off, len);
		if (IS_ERR(skb))
			return PTR_ERR(skb);
		cut = here ? U32_MAX : 0;
		local_bh_disable();	/* this CPU's counters */
		for (h = 0; h < hops; h++) {
			/* mf_check() proved path[h], path[h + 1] adjacent */
			port = mf_topo_port(t, path[h], path[h + 1]);
			link = mf_topo_link(t, path[h], port);
			if (cut == U32_MAX) {
				mf_link_count(f, link, 1, skb->len);
				if (coll_remote(cc, path[h + 1]))
					cut = h + 1;
			}
			cc->link_bytes[link] += skb->len;
			cc->frames++;
			cc->bytes += skb->len;
		}
		local_bh_enable();
		if (cut != U32_MAX) {	/* delivered there, if at all */
			coll_hand(cc, (hops ? path : &src) + cut, hops - cut,
				  cut ? mf_topo_port(t, path[cut], path[cut - 1]) :
					0xff, skb);
			*ok = false;
		} else if (!mf_deliver(f, dst, skb, 0)) {
			*ok = false;
		}
		consume_skb(skb);
		off += len;
	} while (off < total);
	return 0;
}

/* Step i: snapshot every send's blocks at their source, send the frames,
 * then copy or combine them at the destinations.
 */
static int coll_step(struct mf_coll_call *cc, u32 i)
{
	const struct mf_sched *s = &cc->s;
	const struct mf_topo *t = &cc->f->topo;
	size_t at = 0, start, lo, hi;
	const struct mf_send *sd;
	const u32 *ids;
	u32 k, j, n, h;
	bool ok;
	int err, port;
	u8 *d;

	mf_linkacct_step(&cc->acct);
	for (k = s->step[i]; k < s->step[i + 1]; k++) {
		sd = &s->send[k];
		ids = mf_send_blocks(s, k, &n);
		for (j = 0; j < n; j++) {
			coll_block(cc, ids[j] & ~MF_BLK_COMBINE, &lo, &hi);
			memcpy(cc->snap + at, cc->buf + sd->src * cc->vbytes + lo,
			       hi - lo);
			at += hi - lo;
		}
		for (h = 0; h < sd->hops; h++) {
			const u32 *p = &s->path[sd->path];

			port = mf_topo_port(t, p[h], p[h + 1]);
			mf_linkacct_hop(&cc->acct, mf_topo_link(t, p[h], port));
		}
	}
	if (cc->timed) {
		err = mf_wait_until(cc->f, cc->t0 + cc->tl.step_ns[i]);
		if (err)
			return err;
	}
	at = 0;
	for (k = s->step[i]; k < s->step[i + 1]; k++) {
		sd = &s->send[k];
		ids = mf_send_blocks(s, k, &n);
		err = coll_send(cc, n && (ids[0] & MF_BLK_COMBINE) ?
				MESHFABRIC_COLLF_COMBINE : MESHFABRIC_COLLF_COPY,
				i, sd->src, sd->dst,
				n ? ids[0] & ~MF_BLK_COMBINE : 0, n,
				&s->path[sd->path], sd->hops, cc->snap + at,
				cc->send_bytes[k], &ok);
		if (err)
			return err;
		start = at;
		for (j = 0; j < n; j++) {
			coll_block(cc, ids[j] & ~MF_BLK_COMBINE, &lo, &hi);
			d = cc->buf + sd->dst * cc->vbytes + lo;
			if (ids[j] & MF_BLK_COMBINE)
				mf_rop_combine(cc->c->op, cc->c->type, d,
					       cc->snap + at,
					       (hi - lo) / cc->es);
			else
				memcpy(d, cc->snap + at, hi - lo);
			at += hi - lo;
		}
		WARN_ON_ONCE(at - start != cc->send_bytes[k]);
		cond_resched();
	}
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/* Compare every node's result with the direct computation and zero
 * what the collective does not give it: true if all equal.
 */
static int coll_direct(struct mf_coll_call *cc, bool *match)
{
	const struct meshfabric_collective *c = cc->c;
	u8 *red = NULL, *want, *got;
	size_t lo, hi;
	u32 v, b;
	s64 w;

	*match = true;
	if (c->coll <= MESHFABRIC_COLL_REDUCE_SCATTER &&
	    c->coll != MESHFABRIC_COLL_BROADCAST) {
		red = mf_counted_zalloc(cc->vbytes);
		if (!red)
			return -ENOMEM;
		memcpy(red, cc->in, cc->vbytes);
		for (v = 1; v < cc->n; v++)
			mf_rop_combine(c->op, c->type, red,
				       cc->in + v * cc->vbytes, c->count);
	}
	for (v = 0; v < cc->n; v++) {
		got = cc->buf + v * cc->vbytes;
		for (b = 0; b < cc->nb; b++) {
			coll_block(cc, b, &lo, &hi);
			w = coll_want(cc, v, b);
			if (w == -1) {
				memset(got + lo, 0, hi - lo);
				continue;
			}
			if (WARN_ON_ONCE(w != MF_COLL_REDUCED &&
					 (w < 0 || w >= cc->n))) {
				*match = false;
				continue;
			}
			want = w == MF_COLL_REDUCED ? red :
			       cc->in + (size_t)w * cc->vbytes;
			if (memcmp(got + lo, want + lo, hi - lo))
				*match = false;
		}
		cond_resched();
	}
	mf_counted_free(red);
	return 0;
}

/* FNV-1a 64 of the results. */
static u64 coll_digest(const u8 *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h = (h ^ p[i]) * 0x100000001b3ULL;
		if (!(i & 0xfffff))
			cond_resched();
	}
	return h;
}

/* The user's schedule (CALGO_USER): copied in, decoded, then checked by
 * the core's checker, the reason of a refusal in cc->why.
 */
static int coll_user(struct mf_coll_call *cc)
{
	const struct meshfabric_collective *c = cc->c;
	u8 *code;
	int err;

	code = kvmalloc(c->sched_len, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!code)
		return -ENOMEM;
	if (copy_from_user(code, u64_to_user_ptr(c->sched_ptr), c->sched_len))
		err = -EFAULT;
	else
		err = mf_coll_decode(&cc->f->topo, c->coll, c->root, code,
				     c->sched_len, &cc->s, cc->why,
				     sizeof(cc->why));
	kvfree(code);
	if (!err)
		err = mf_check(&cc->f->topo, &cc->s, &cc->st, cc->why,
			       sizeof(cc->why));
	if (err == -E2BIG && !cc->why[0])
		snprintf(cc->why, sizeof(cc->why),
			 "the checker's state of this schedule is above %llu bytes",
			 MF_CHECK_STATE_MAX);
	cc->algo_run = MESHFABRIC_CALGO_USER;
	return err;
}

/* Plan (or take the user's) and on timed links reserve the schedule. */
static int coll_plan(struct mf_coll_call *cc)
{
	const struct meshfabric_collective *c = cc->c;
	struct mf_fabric *f = cc->f;
	struct mf_coll_req rq = { .coll = c->coll, .algo = c->algo,
				  .root = c->root, .bytes = cc->vbytes,
				  .esize = cc->es };
	struct mf_timing tm = { .switching = READ_ONCE(f->links.switching),
				.bytes = MESHFABRIC_COLL_FRAME_HDR,
				.get = mf_link_model, .ctx = f };
	struct mf_coll_result res;
	u64 *blk;
	int err;

	if (cc->timed)
		rq.tm = &tm;
	if (c->algo == MESHFABRIC_CALGO_USER) {
		err = coll_user(cc);
		if (err)
			return err;
	} else {
		err = mf_coll_plan(&f->topo, &rq, &cc->s, &res);
		if (err == -EOPNOTSUPP || err == -EPROTO)
			strscpy(cc->why, res.why, sizeof(cc->why));
		if (err == -EPROTO)
			pr_err_ratelimited("collective schedule of %s rejected: %s\n",
					   mf_calgo_name(res.algo), res.why);
		if (err)
			return err;
		cc->algo_run = res.algo;
		cc->st = res.st;
	}
	cc->nb = mf_sched_nblocks(&cc->s);
	if (!cc->timed)
		return 0;
	blk = mf_alloc_array(cc->nb, sizeof(u64), false);
	if (!blk)
		return -ENOMEM;
	mf_coll_block_bytes(&cc->s, cc->vbytes, cc->es, blk);
	tm.blk_bytes = blk;
	err = mutex_lock_killable(&f->bcast_lock);
	if (!err) {
		cc->t0 = ktime_get_ns();
		err = mf_sched_reserve_timed(f, &cc->s, &tm, cc->t0, &cc->tl);
		mutex_unlock(&f->bcast_lock);
	} else {
		err = -EINTR;
	}
	mf_free(blk);
	return err;
}

#define MF_COLL_NO_FLOAT \
	"floating-point types are refused: the kernel combines integers only (s32, u32, s64, u64)"

/* Why a collective was refused, to the caller's why_ptr. */
static int coll_why(const struct meshfabric_collective *c, const char *why)
{
	size_t n;

	if (!c->why_ptr || !c->why_len || !why[0])
		return 0;
	n = min_t(size_t, strlen(why), c->why_len - 1);
	if (copy_to_user(u64_to_user_ptr(c->why_ptr), why, n) ||
	    put_user(0, (char __user *)u64_to_user_ptr(c->why_ptr) + n))
		return -EFAULT;
	return 0;
}

static void coll_free(struct mf_coll_call *cc)
{
	mf_sched_free(&cc->s);
	mf_timeline_free(&cc->tl);
	if (cc->acct.stamp)
		mf_linkacct_free(&cc->acct);
	mf_free(cc->send_bytes);
	mf_counted_free(cc->snap);
	mf_counted_free(cc->link_bytes);
	mf_counted_free(cc->buf);
	mf_counted_free(cc->in);
}

/* The fabric's part of the checks (the struct's: mf_validate_collective). */
static int coll_check_fabric(struct mf_coll_call *cc)
{
	const struct meshfabric_collective *c = cc->c;
	struct mf_fabric *f = cc->f;
	u32 v;

	if (cc->n > MESHFABRIC_COLL_MAX_NODES ||
	    (c->coll == MESHFABRIC_COLL_ALLTOALL &&
	     cc->n > MESHFABRIC_COLL_A2A_NODES)) {
		snprintf(cc->why, sizeof(cc->why),
			 "collectives run on fabrics of at most %u nodes (alltoall %u)",
			 MESHFABRIC_COLL_MAX_NODES, MESHFABRIC_COLL_A2A_NODES);
		return -E2BIG;
	}
	if ((u64)cc->n * c->count * cc->es > MESHFABRIC_COLL_MAX_BYTES) {
		snprintf(cc->why, sizeof(cc->why),
			 "nodes x count x element size above %u bytes",
			 MESHFABRIC_COLL_MAX_BYTES);
		return -E2BIG;
	}
	if (c->root >= cc->n) {
		snprintf(cc->why, sizeof(cc->why), "root %u: the fabric has %u nodes",
			 c->root, cc->n);
		return -EINVAL;
	}
	/* split over hosts: this host's nodes */
	for (v = 0; v < cc->n; v++)
		if (!coll_remote(cc, v) &&
		    READ_ONCE(f->node[v].state) != MF_NODE_PRESENT)
			return -ENETDOWN;
	if (rcu_access_pointer(f->fstate)) {
		snprintf(cc->why, sizeof(cc->why),
			 "links are down: collective schedules are not repaired");
		return -ENETUNREACH;
	}
	return 0;
}

static int coll_run(struct mf_coll_call *cc)
{
	struct mf_fabric *f = cc->f;
	bool ok, match;
	int err;
	u32 i, v;

	cc->part = READ_ONCE(f->part);
	err = coll_check_fabric(cc);
	if (err)
		return err;
	cc->in = mf_counted_zalloc(cc->n * cc->vbytes);
	cc->buf = mf_counted_zalloc(cc->n * cc->vbytes);
	cc->link_bytes = mf_counted_zalloc(array_size(f->links.n, sizeof(u64)));
	if (!cc->in || !cc->buf || !cc->link_bytes)
		return -ENOMEM;
	err = coll_inputs(cc);
	if (err)
		return err;
	memcpy(cc->buf, cc->in, cc->n * cc->vbytes);
	err = mf_linkacct_init(&cc->acct, &f->topo);
	if (err)
		return err;
	cc->timed = READ_ONCE(f->links.timed);
	cc->chunk = cc->part ? MESHFABRIC_COLL_SPLIT_PAYLOAD :
			       MESHFABRIC_MAX_PAYLOAD;
	err = coll_plan(cc);
	if (!err)
		err = coll_sizes(cc);
	if (err)
		return err;
	if (!cc->timed)
		cc->t0 = ktime_get_ns();
	cc->seq = atomic_inc_return(&mf_coll_seq);
	for (i = 0; i < cc->s.nsteps; i++) {
		err = coll_step(cc, i);
		if (err)
			return err;
	}
	err = coll_direct(cc, &match);
	if (err)
		return err;
	for (v = 0; v < cc->n; v++) {
		err = coll_send(cc, MESHFABRIC_COLLF_RESULT, cc->s.nsteps, v, v,
				0, cc->nb, NULL, 0, cc->buf + v * cc->vbytes,
				cc->vbytes, &ok);
		if (err)
			return err;
		cc->delivered += ok;
		cond_resched();
	}
	/* nothing acknowledges a frame handed over, but one that could not
	 * even leave is a failure to say
	 */
	if (cc->unhanded) {
		snprintf(cc->why, sizeof(cc->why),
			 "%u frames could not be handed to other hosts (see the tunnel's tx_errors)",
			 cc->unhanded);
		return -EHOSTUNREACH;
	}
	return match ? 1 : 0;
}

long mf_ioc_collective(void __user *argp)
{
	struct meshfabric_collective c;
	struct mf_coll_call *cc;
	u64 l, most = 0;
	int err, match;
	size_t n;

	if (copy_from_user(&c, argp, sizeof(c)))
		return -EFAULT;
	err = mf_validate_collective(&c);
	if (err == -EOPNOTSUPP)
		return coll_why(&c, MF_COLL_NO_FLOAT) ?: err;
	if (err)
		return err;
	cc = kzalloc_obj(*cc, GFP_KERNEL_ACCOUNT);
	if (!cc)
		return -ENOMEM;
	cc->f = mf_fabric_get_checked(c.id, MF_NEED_ADMIN);
	if (IS_ERR(cc->f)) {
		err = PTR_ERR(cc->f);
		kfree(cc);
		return err;
	}
	cc->c = &c;
	cc->n = cc->f->topo.nodes;
	cc->es = mf_rtype_size(c.type);
	cc->vbytes = (size_t)c.count * cc->es;
	cc->ethertype = c.ethertype ?: MESHFABRIC_COLL_ETHERTYPE;
	mf_sched_init(&cc->s, 0, 0);
	match = coll_run(cc);
	err = match < 0 ? match : 0;
	if (err) {
		if (coll_why(&c, cc->why))
			err = -EFAULT;
		goto out;
	}
	if (c.out_ptr && copy_to_user(u64_to_user_ptr(c.out_ptr), cc->buf,
				      cc->n * cc->vbytes)) {
		err = -EFAULT;
		goto out;
	}
	if (c.step_ns_ptr) {
		void __user *up = u64_to_user_ptr(c.step_ns_ptr);

		n = min(c.steps, cc->s.nsteps) * sizeof(u64);
		if (cc->timed ? copy_to_user(up, cc->tl.step_ns, n) :
				clear_user(up, n)) {
			err = -EFAULT;
			goto out;
		}
	}
	for (l = 0; l < cc->f->links.n; l++)
		most = max(most, cc->link_bytes[l]);
	c.algo = cc->algo_run;
	c.nblocks = cc->nb;
	c.steps = cc->s.nsteps;
	c.sends = cc->s.nsends;
	c.tcd = cc->st.tcd;
	c.max_link_load = cc->acct.max_load;
	c.contention = cc->acct.contention;
	c.frames = cc->frames;
	c.link_bytes = cc->bytes;
	c.max_link_bytes = most;
	c.fabric_time_ns = cc->timed ? cc->tl.total_ns : 0;
	c.elapsed_ns = ktime_get_ns() - cc->t0;
	c.digest = coll_digest(cc->buf, cc->n * cc->vbytes);
	c.delivered = cc->delivered;
	c.match = match;
	if (copy_to_user(argp, &c, sizeof(c)))
		err = -EFAULT;
out:
	coll_free(cc);
	mf_fabric_put(cc->f);
	kfree(cc);
	return err;
}
