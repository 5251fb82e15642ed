// SPDX-License-Identifier: GPL-2.0
/* The compact encoding of schedules (schedcode.h; format in the uapi
 * header, MESHFABRIC_IOC_SCHED_LOAD): per step the number of its sends,
 * per send its source node and its hop count as unsigned LEB128, then one
 * byte per hop, the port taken at each node of the path.  A path of h
 * hops costs h bytes where node ids would cost 4 (h + 1).
 */
#include "schedcode.h"

#define LEB_MAX	5	/* bytes of a u32 */

static size_t leb_len(u32 v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static u8 *leb_put(u8 *p, u32 v)
{
	while (v >= 0x80) {
		*p++ = (u8)(v | 0x80);
		v >>= 7;
	}
	*p++ = (u8)v;
	return p;
}

/* The u32 at code[*pos], *pos moved past it; false if truncated, longer
 * than LEB_MAX bytes or above U32_MAX.
 */
static bool leb_get(const u8 *code, size_t len, size_t *pos, u32 *v)
{
	u64 x = 0;
	u32 i;
	u8 b;

	for (i = 0; i < LEB_MAX && *pos < len; i++) {
		b = code[(*pos)++];
		x |= (u64)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = (u32)x;
			return x <= U32_MAX;
		}
	}
	return false;
}

/* The port of a that leads to b, or -1. */
static int hop_port(const struct mf_topo *t, u32 a, u32 b)
{
	return a < t->nodes && b < t->nodes ? mf_topo_port(t, a, b) : -1;
}

size_t mf_sched_code_len(const struct mf_topo *t, const struct mf_sched *s)
{
	size_t n = 0;
	u32 i, h;

	if (s->xblk || s->coll != MF_COLL_BCAST)
		return 0;	/* the encoding carries broadcasts only */
	for (i = 0; i < s->nsteps; i++)
		n += leb_len(s->step[i + 1] - s->step[i]);
	for (i = 0; i < s->nsends; i++) {
		const struct mf_send *x = &s->send[i];
		const u32 *p = &s->path[x->path];

		for (h = 0; h < x->hops; h++)
			if (hop_port(t, p[h], p[h + 1]) < 0)
				return 0;
		n += leb_len(x->src) + leb_len(x->hops) + x->hops;
	}
	return n;
}

s64 mf_sched_encode(const struct mf_topo *t, const struct mf_sched *s,
		    u8 *buf, size_t len)
{
	size_t need = mf_sched_code_len(t, s);
	u8 *p = buf;
	u32 i, j, h, count;

	if (!need && (s->nsteps || s->xblk))
		return -EINVAL;
	if (need > len)
		return -ENOSPC;
	for (i = 0; i < s->nsteps; i++) {
		const struct mf_send *x = mf_sched_sends(s, i, &count);

		p = leb_put(p, count);
		for (j = 0; j < count; j++) {
			const u32 *path = &s->path[x[j].path];

			p = leb_put(p, x[j].src);
			p = leb_put(p, x[j].hops);
			for (h = 0; h < x[j].hops; h++)
				*p++ = (u8)hop_port(t, path[h], path[h + 1]);
		}
	}
	return p - buf;
}

int mf_sched_decode(const struct mf_topo *t, u32 model, u32 source,
		    u32 nsteps, u32 nsends, const u8 *code, size_t len,
		    struct mf_sched *s, char *err, size_t errlen)
{
	u32 i, j, h, count, src, hops, sends = 0, *path;
	size_t pos = 0;
	s64 nb;
	int ret;

	mf_sched_init(s, model, source);
	if (source >= t->nodes || nsends != t->nodes - 1 || !nsteps ||
	    nsteps > nsends) {
		snprintf(err, errlen,
			 "%u steps and %u sends from node %u: a broadcast on %u nodes has %u sends",
			 nsteps, nsends, source, t->nodes, t->nodes - 1);
		return -EINVAL;
	}
	path = mf_alloc_array(t->nodes, sizeof(*path), false);
	ret = path ? mf_sched_reserve(s, nsends, 0) : -ENOMEM;
	for (i = 0; !ret && i < nsteps; i++) {
		ret = mf_sched_step(s);
		if (ret)
			break;
		ret = -EINVAL;
		if (!leb_get(code, len, &pos, &count) || !count ||
		    count > nsends - sends) {
			snprintf(err, errlen,
				 "step %u: bad send count at byte %zu", i, pos);
			break;
		}
		for (j = 0; j < count; j++) {
			if (!leb_get(code, len, &pos, &src) ||
			    !leb_get(code, len, &pos, &hops) ||
			    src >= t->nodes || !hops || hops >= t->nodes ||
			    hops > len - pos) {
				snprintf(err, errlen,
					 "step %u send %u: bad node or hop count at byte %zu",
					 i, j, pos);
				goto out;
			}
			path[0] = src;
			for (h = 0; h < hops; h++) {
				nb = mf_topo_neighbor(t, path[h], code[pos]);
				if (nb < 0) {
					snprintf(err, errlen,
						 "step %u send %u: node %u has no link through port %u",
						 i, j, path[h], code[pos]);
					goto out;
				}
				pos++;
				path[h + 1] = (u32)nb;
			}
			ret = mf_sched_send(s, path, hops);
			if (ret)
				goto out;
			ret = -EINVAL;
			sends++;
		}
		ret = 0;
	}
	if (!ret && (sends != nsends || pos != len)) {
		snprintf(err, errlen,
			 "%u sends in %u steps where %u were declared, %zu of %zu bytes used",
			 sends, nsteps, nsends, pos, len);
		ret = -EINVAL;
	}
	if (!ret)
		ret = mf_sched_end(s);
out:
	mf_free(path);
	return ret;
}
