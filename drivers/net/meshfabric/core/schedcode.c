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

/* Bytes of send i's source, hop count and ports; 0 if its path is not a
 * chain of neighbours.
 */
static size_t code_path_len(const struct mf_topo *t,
			    const struct mf_sched *s, u32 i)
{
	const struct mf_send *x = &s->send[i];
	const u32 *p = &s->path[x->path];
	u32 h;

	for (h = 0; h < x->hops; h++)
		if (hop_port(t, p[h], p[h + 1]) < 0)
			return 0;
	return leb_len(x->src) + leb_len(x->hops) + x->hops;
}

static u8 *code_path_put(u8 *p, const struct mf_topo *t,
			 const struct mf_sched *s, const struct mf_send *x)
{
	const u32 *path = &s->path[x->path];
	u32 h;

	p = leb_put(p, x->src);
	p = leb_put(p, x->hops);
	for (h = 0; h < x->hops; h++)
		*p++ = (u8)hop_port(t, path[h], path[h + 1]);
	return p;
}

/* A send's source, hop count and ports at code[*pos] into path (*hops + 1
 * node ids, at most the nodes): 0, or -EINVAL with the reason (step i,
 * send j).
 */
static int code_path_get(const struct mf_topo *t, const u8 *code, size_t len,
			 size_t *pos, u32 *path, u32 *hops, u32 i, u32 j,
			 char *err, size_t errlen)
{
	u32 src, h;
	s64 nb;

	if (!leb_get(code, len, pos, &src) || !leb_get(code, len, pos, hops) ||
	    src >= t->nodes || !*hops || *hops >= t->nodes ||
	    *hops > len - *pos) {
		snprintf(err, errlen,
			 "step %u send %u: bad node or hop count at byte %zu",
			 i, j, *pos);
		return -EINVAL;
	}
	path[0] = src;
	for (h = 0; h < *hops; h++) {
		nb = mf_topo_neighbor(t, path[h], code[*pos]);
		if (nb < 0) {
			snprintf(err, errlen,
				 "step %u send %u: node %u has no link through port %u",
				 i, j, path[h], code[*pos]);
			return -EINVAL;
		}
		(*pos)++;
		path[h + 1] = (u32)nb;
	}
	return 0;
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
		h = code_path_len(t, s, i);
		if (!h)
			return 0;
		n += h;
	}
	return n;
}

s64 mf_sched_encode(const struct mf_topo *t, const struct mf_sched *s,
		    u8 *buf, size_t len)
{
	size_t need = mf_sched_code_len(t, s);
	u8 *p = buf;
	u32 i, j, count;

	if (!need && (s->nsteps || s->xblk))
		return -EINVAL;
	if (need > len)
		return -ENOSPC;
	for (i = 0; i < s->nsteps; i++) {
		const struct mf_send *x = mf_sched_sends(s, i, &count);

		p = leb_put(p, count);
		for (j = 0; j < count; j++)
			p = code_path_put(p, t, s, &x[j]);
	}
	return p - buf;
}

int mf_sched_decode(const struct mf_topo *t, u32 model, u32 source,
		    u32 nsteps, u32 nsends, const u8 *code, size_t len,
		    struct mf_sched *s, char *err, size_t errlen)
{
	u32 i, j, count, hops, sends = 0, *path;
	size_t pos = 0;
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
			ret = code_path_get(t, code, len, &pos, path, &hops,
					    i, j, err, errlen);
			if (ret)
				goto out;
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

/* The run of consecutive block ids of a send that starts at ids[k]: its
 * length.
 */
static u32 run_len(const u32 *ids, u32 n, u32 k)
{
	u32 m = 1;

	while (k + m < n && (ids[k + m] & MF_BLK_MAX) ==
			    (ids[k + m - 1] & MF_BLK_MAX) + 1)
		m++;
	return m;
}

/* Bytes of send i's blocks (2 * runs + combine, then each run's first
 * block and length); 0 if it carries none or mixes copy and combine.
 */
static size_t blk_len(const struct mf_sched *s, u32 i)
{
	u32 n, k, m, runs = 0;
	const u32 *ids = mf_send_blocks(s, i, &n);
	size_t bytes = 0;

	for (k = 0; k < n; k++)
		if ((ids[k] ^ ids[0]) & MF_BLK_COMBINE)
			return 0;
	for (k = 0; k < n; k += m) {
		m = run_len(ids, n, k);
		bytes += leb_len(ids[k] & MF_BLK_MAX) + leb_len(m);
		runs++;
	}
	return n ? bytes + leb_len(2 * runs + 1) : 0;
}

static u8 *blk_put(u8 *p, const struct mf_sched *s, u32 i)
{
	u32 n, k, m, runs = 0;
	const u32 *ids = mf_send_blocks(s, i, &n);

	for (k = 0; k < n; k += run_len(ids, n, k))
		runs++;
	p = leb_put(p, 2 * runs + !!(ids[0] & MF_BLK_COMBINE));
	for (k = 0; k < n; k += m) {
		m = run_len(ids, n, k);
		p = leb_put(p, ids[k] & MF_BLK_MAX);
		p = leb_put(p, m);
	}
	return p;
}

size_t mf_coll_code_len(const struct mf_topo *t, const struct mf_sched *s)
{
	size_t n, b;
	u32 i;

	n = leb_len(s->model) + leb_len(mf_sched_nblocks(s)) +
	    leb_len(s->nsteps);
	for (i = 0; i < s->nsteps; i++)
		n += leb_len(s->step[i + 1] - s->step[i]);
	for (i = 0; i < s->nsends; i++) {
		b = blk_len(s, i);
		if (!b || !code_path_len(t, s, i))
			return 0;
		n += code_path_len(t, s, i) + b;
	}
	return n;
}

s64 mf_coll_encode(const struct mf_topo *t, const struct mf_sched *s,
		   u8 *buf, size_t len)
{
	size_t need = mf_coll_code_len(t, s);
	u8 *p = buf;
	u32 i, k;

	if (!need)
		return -EINVAL;
	if (need > len)
		return -ENOSPC;
	p = leb_put(p, s->model);
	p = leb_put(p, mf_sched_nblocks(s));
	p = leb_put(p, s->nsteps);
	for (i = 0; i < s->nsteps; i++) {
		p = leb_put(p, s->step[i + 1] - s->step[i]);
		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			p = code_path_put(p, t, s, &s->send[k]);
			p = blk_put(p, s, k);
		}
	}
	return p - buf;
}

/* Send j of step i's blocks at code[*pos] into ids (at most nb), then
 * given to the send appended last; *nblk counts them all.
 */
static int blk_get(struct mf_sched *s, const u8 *code, size_t len,
		   size_t *pos, u32 *ids, u32 *nblk, u32 i, u32 j, char *err,
		   size_t errlen)
{
	u32 nb = mf_sched_nblocks(s), r2, r, first, m, n = 0;

	if (!leb_get(code, len, pos, &r2) || r2 < 2 || r2 / 2 > nb) {
		snprintf(err, errlen,
			 "step %u send %u: bad block run count at byte %zu",
			 i, j, *pos);
		return -EINVAL;
	}
	for (r = 0; r < r2 / 2; r++) {
		if (!leb_get(code, len, pos, &first) ||
		    !leb_get(code, len, pos, &m) || !m || first >= nb ||
		    m > nb - first || m > nb - n) {
			snprintf(err, errlen,
				 "step %u send %u: bad block run at byte %zu (%u blocks)",
				 i, j, *pos, nb);
			return -EINVAL;
		}
		if (m > MF_COLL_CODE_BLKS - *nblk) {
			snprintf(err, errlen,
				 "more than %u blocks carried in all",
				 (u32)MF_COLL_CODE_BLKS);
			return -E2BIG;
		}
		*nblk += m;
		while (m--)
			ids[n++] = first++;
	}
	return mf_sched_blocks(s, ids, n, r2 & 1);
}

int mf_coll_decode(const struct mf_topo *t, u32 coll, u32 root,
		   const u8 *code, size_t len, struct mf_sched *s, char *err,
		   size_t errlen)
{
	u32 model, nb, nsteps, i, j, count, hops, sends = 0, nblk = 0;
	u32 *path = NULL, *ids = NULL;
	size_t pos = 0;
	int ret;

	mf_sched_init(s, 0, root);
	if (!leb_get(code, len, &pos, &model) ||
	    !leb_get(code, len, &pos, &nb) ||
	    !leb_get(code, len, &pos, &nsteps) ||
	    (model != MESHFABRIC_MODEL_ONE_PORT &&
	     model != MESHFABRIC_MODEL_ALL_PORT) || !nb || nsteps > len) {
		snprintf(err, errlen,
			 "bad model, block or step count at byte %zu", pos);
		return -EINVAL;
	}
	if ((u64)t->nodes * nb > MF_COLL_CODE_CELLS) {
		snprintf(err, errlen,
			 "%u blocks on %u nodes: nodes x blocks above %u", nb,
			 t->nodes, (u32)MF_COLL_CODE_CELLS);
		return -E2BIG;
	}
	if (coll >= MF_COLL_COUNT || root >= t->nodes) {
		snprintf(err, errlen, "collective %u, root %u: bad", coll,
			 root);
		return -EINVAL;
	}
	ret = mf_coll_init(s, coll, model, root, nb);
	if (ret)
		return ret;
	path = mf_alloc_array(t->nodes, sizeof(*path), false);
	ids = mf_alloc_array(nb, sizeof(*ids), false);
	if (!path || !ids)
		ret = -ENOMEM;
	for (i = 0; !ret && i < nsteps; i++) {
		ret = mf_sched_step(s);
		if (ret)
			break;
		if (!leb_get(code, len, &pos, &count) || count > len - pos) {
			snprintf(err, errlen,
				 "step %u: bad send count at byte %zu", i, pos);
			ret = -EINVAL;
			break;
		}
		/* every port model: at most a send per node and port */
		if (count > t->nodes * t->nports) {
			snprintf(err, errlen,
				 "step %u: %u sends, more than the fabric's ports",
				 i, count);
			ret = -EINVAL;
			break;
		}
		if (count > MF_COLL_CODE_SENDS - sends) {
			snprintf(err, errlen, "more than %u sends",
				 (u32)MF_COLL_CODE_SENDS);
			ret = -E2BIG;
			break;
		}
		sends += count;
		for (j = 0; !ret && j < count; j++) {
			ret = code_path_get(t, code, len, &pos, path, &hops,
					    i, j, err, errlen);
			if (!ret)
				ret = mf_sched_send(s, path, hops);
			if (!ret)
				ret = blk_get(s, code, len, &pos, ids, &nblk, i,
					      j, err, errlen);
		}
		mf_resched();
	}
	if (!ret && pos != len) {
		snprintf(err, errlen,
			 "%u sends in %u steps used %zu of %zu bytes: bytes left over",
			 sends, nsteps, pos, len);
		ret = -EINVAL;
	}
	if (!ret)
		ret = mf_sched_end(s);
	mf_free(ids);
	mf_free(path);
	return ret;
}

int mf_path_pack(const struct mf_topo *t, const u32 *path, u32 hops,
		 u8 *out)
{
	u32 h;
	int port;

	memset(out, 0, (hops + 1) / 2);
	for (h = 0; h < hops; h++) {
		port = mf_topo_port(t, path[h], path[h + 1]);
		if (port < 0 || port > 0xf)
			return -EINVAL;
		out[h / 2] |= port << (h & 1 ? 0 : 4);
	}
	return 0;
}

void mf_path_tail(const u8 *packed, u32 from, u32 n, u8 *out)
{
	u32 k;

	memset(out, 0, (n + 1) / 2);
	for (k = 0; k < n; k++)
		out[k / 2] |= mf_path_port(packed, from + k) <<
			      (k & 1 ? 0 : 4);
}
