// SPDX-License-Identifier: GPL-2.0
/* Growable storage for collective schedules (contract in sched.h).
 */
#include "sched.h"
#include "route.h"

void mf_sched_init(struct mf_sched *s, u32 model, u32 source)
{
	memset(s, 0, sizeof(*s));
	s->model = model;
	s->source = source;
}

/* p (*cap elements of size bytes) grown to at least need elements, or p
 * unchanged with *err set (-E2BIG above U32_MAX elements, -ENOMEM).
 */
static void *grow(void *p, u32 *cap, u64 need, size_t size, int *err)
{
	u64 n = *cap ? *cap : 16;
	void *q;

	*err = 0;
	if (need <= *cap)
		return p;
	*err = -E2BIG;
	if (need > U32_MAX)
		return p;
	while (n < need)
		n *= 2;
	if (n > U32_MAX)
		n = U32_MAX;
	*err = -ENOMEM;
	q = mf_grow(p, *cap, n, size);
	if (!q)
		return p;
	*err = 0;
	*cap = (u32)n;
	return q;
}

static int grow_u32(u32 **p, u32 *cap, u64 need)
{
	int err;

	*p = grow(*p, cap, need, sizeof(u32), &err);
	return err;
}

static int grow_send(struct mf_sched *s, u64 need)
{
	int err;

	s->send = grow(s->send, &s->cap_send, need, sizeof(*s->send), &err);
	return err;
}

int mf_sched_reserve(struct mf_sched *s, u32 nsends, u32 npath)
{
	int err = grow_send(s, nsends);

	if (!err)
		err = grow_u32(&s->path, &s->cap_path, npath);
	return err;
}

int mf_sched_step(struct mf_sched *s)
{
	int err = grow_u32(&s->step, &s->cap_step, (u64)s->nsteps + 2);

	if (err)
		return err;
	s->step[s->nsteps++] = s->nsends;
	s->open = true;
	return 0;
}

/* Reserve room for one send of hops links; returns its path slot. */
static u32 *send_slot(struct mf_sched *s, u32 hops, int *err)
{
	*err = -EINVAL;
	if (!s->open)
		return NULL;
	*err = grow_send(s, (u64)s->nsends + 1);
	if (!*err && s->xblk)
		*err = grow_u32(&s->xblk, &s->cap_xblk, (u64)s->nsends + 2);
	if (!*err)
		*err = grow_u32(&s->path, &s->cap_path, (u64)s->npath + hops + 1);
	if (*err)
		return NULL;
	return &s->path[s->npath];
}

static void send_commit(struct mf_sched *s, u32 hops)
{
	struct mf_send *m = &s->send[s->nsends++];
	u32 *p = &s->path[s->npath];

	m->src = p[0];
	m->dst = p[hops];
	m->path = s->npath;
	m->hops = hops;
	s->npath += hops + 1;
	if (s->xblk)
		s->xblk[s->nsends] = s->nblk;	/* no block yet */
}

int mf_coll_init(struct mf_sched *s, u32 coll, u32 model, u32 root,
		 u32 nblocks)
{
	mf_sched_init(s, model, root);
	if (coll >= MF_COLL_COUNT || !nblocks || nblocks > MF_BLK_MAX)
		return -EINVAL;
	s->coll = coll;
	s->nblocks = nblocks;
	if (grow_u32(&s->xblk, &s->cap_xblk, 2))
		return -ENOMEM;
	s->xblk[0] = 0;
	return 0;
}

int mf_sched_blocks(struct mf_sched *s, const u32 *ids, u32 n, bool combine)
{
	u32 i;
	int err;

	if (!s->xblk || !s->nsends)
		return -EINVAL;
	err = grow_u32(&s->blk, &s->cap_blk, (u64)s->nblk + n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		s->blk[s->nblk++] = ids[i] | (combine ? MF_BLK_COMBINE : 0);
	s->xblk[s->nsends] = s->nblk;
	return 0;
}

int mf_sched_send(struct mf_sched *s, const u32 *path, u32 hops)
{
	int err;
	u32 *p = send_slot(s, hops, &err);

	if (!p)
		return err;
	memcpy(p, path, ((size_t)hops + 1) * sizeof(u32));
	send_commit(s, hops);
	return 0;
}

int mf_sched_send_dor(struct mf_sched *s, const struct mf_topo *t,
		      u32 src, u32 dst, const u8 *order)
{
	u32 hops = mf_topo_distance(t, src, dst), i, k, cur = src, n, x;
	s32 d;
	int err;
	u32 *p = send_slot(s, hops, &err);

	if (!p)
		return err;
	if (t->kind == MESHFABRIC_KIND_HEX)
		return -EINVAL;
	p[0] = src;
	k = 1;
	for (i = 0; i < t->ndims; i++) {
		u32 dim = order ? order[i] : i;

		if (dim >= t->ndims)
			return -EINVAL;
		n = t->dims[dim];
		d = mf_topo_delta(t, cur, dst, dim);
		while (d) {
			x = (cur / t->stride[dim]) % n;
			if (d > 0) {
				cur = x + 1 < n ? cur + t->stride[dim]
						: cur - (n - 1) * t->stride[dim];
				d--;
			} else {
				cur = x > 0 ? cur - t->stride[dim]
					    : cur + (n - 1) * t->stride[dim];
				d++;
			}
			p[k++] = cur;
		}
	}
	if (k != hops + 1 || cur != dst)
		return -EINVAL;	/* order was not a permutation */
	send_commit(s, hops);
	return 0;
}

int mf_sched_send_route(struct mf_sched *s, const struct mf_topo *t,
			u32 routing, u32 src, u32 dst)
{
	u32 hops = mf_topo_distance(t, src, dst);
	int err, len;
	u32 *p = send_slot(s, hops, &err);

	if (!p)
		return err;
	len = mf_route_path(t, routing, src, dst, p, hops + 1);
	if (len < 0)
		return len;
	if ((u32)len != hops)
		return -EINVAL;
	send_commit(s, hops);
	return 0;
}

int mf_sched_end(struct mf_sched *s)
{
	int err = grow_u32(&s->step, &s->cap_step, (u64)s->nsteps + 1);

	if (err)
		return err;
	if (s->nsteps && s->step[s->nsteps - 1] == s->nsends)
		s->nsteps--;	/* drop a trailing empty step */
	s->step[s->nsteps] = s->nsends;
	s->open = false;
	return 0;
}

size_t mf_sched_bytes(const struct mf_sched *s)
{
	return (size_t)s->cap_step * sizeof(*s->step) +
	       (size_t)s->cap_send * sizeof(*s->send) +
	       (size_t)s->cap_path * sizeof(*s->path) +
	       ((size_t)s->cap_xblk + s->cap_blk) * sizeof(u32);
}

void mf_sched_free(struct mf_sched *s)
{
	mf_free_all(s->step, s->send, s->path, s->xblk, s->blk);
	memset(s, 0, sizeof(*s));
}

/* One line of mf_dist_transform: n entries base + x * st; laps = 2 on a
 * ring, 1 on a path.
 */
static void dist_line(u32 *v, u32 base, u32 st, u32 n, u32 laps)
{
	u32 lap, x, idx, prev;

	prev = v[base];
	for (lap = 0; lap < laps; lap++) {
		for (x = lap ? 0 : 1; x < n; x++) {
			idx = base + x * st;
			if (prev + 1 < v[idx])
				v[idx] = prev + 1;
			prev = v[idx];
		}
	}
	prev = v[base + (n - 1) * st];
	for (lap = 0; lap < laps; lap++) {
		for (x = lap ? n : n - 1; x-- > 0;) {
			idx = base + x * st;
			if (prev + 1 < v[idx])
				v[idx] = prev + 1;
			prev = v[idx];
		}
	}
}

void mf_dist_transform(u32 *v, u32 d, const u32 *len, u32 rings)
{
	u32 j, n, st, lo, hi, laps, size = 1;

	for (j = 0; j < d; j++)
		size *= len[j];
	for (j = 0, st = 1; j < d; st *= len[j], j++) {
		n = len[j];
		if (n < 2)
			continue;
		laps = (rings & (1U << j)) && n > 2 ? 2 : 1;
		for (hi = 0; hi < size; hi += n * st)
			for (lo = 0; lo < st; lo++)
				dist_line(v, hi + lo, st, n, laps);
	}
}
