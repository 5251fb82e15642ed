// SPDX-License-Identifier: GPL-2.0
/* Collective operations, reduction ops and types, the reference combine,
 * a data run of a schedule, and the lower bounds (coll.h).
 */
#include "coll.h"

static const char *const coll_names[MF_COLL_COUNT] = {
	"broadcast", "reduce", "allreduce", "reduce-scatter", "allgather",
	"gather", "scatter", "alltoall",
};

static const char *const rop_names[MF_ROP_COUNT] = {
	"sum", "min", "max", "band", "bor", "bxor",
};

static const char *const rtype_names[MF_RTYPE_COUNT] = {
	"s32", "u32", "s64", "u64",
};

static int by_name(const char *const *names, u32 n, const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -EINVAL;
}

const char *mf_coll_name(u32 coll)
{
	return coll < MF_COLL_COUNT ? coll_names[coll] : NULL;
}

int mf_coll_by_name(const char *name)
{
	if (!strcmp(name, "bcast"))
		return MF_COLL_BCAST;
	return by_name(coll_names, MF_COLL_COUNT, name);
}

const char *mf_rop_name(u32 op)
{
	return op < MF_ROP_COUNT ? rop_names[op] : NULL;
}

int mf_rop_by_name(const char *name)
{
	return by_name(rop_names, MF_ROP_COUNT, name);
}

const char *mf_rtype_name(u32 type)
{
	return type < MF_RTYPE_COUNT ? rtype_names[type] : NULL;
}

int mf_rtype_by_name(const char *name)
{
	static const char *const floats[] = {
		"f16", "bf16", "f32", "f64", "float", "double", "half", NULL
	};
	u32 i;

	for (i = 0; floats[i]; i++)
		if (!strcmp(name, floats[i]))
			return -EOPNOTSUPP;
	return by_name(rtype_names, MF_RTYPE_COUNT, name);
}

u32 mf_rtype_size(u32 type)
{
	return type == MF_RTYPE_S32 || type == MF_RTYPE_U32 ? 4 : 8;
}

/* One element: a op b, signed or not; sums wrap (done unsigned). */
static u64 combine_one(u32 op, bool sgn, u64 a, u64 b)
{
	switch (op) {
	case MF_ROP_SUM:
		return a + b;
	case MF_ROP_MIN:
		if (sgn)
			return (s64)b < (s64)a ? b : a;
		return b < a ? b : a;
	case MF_ROP_MAX:
		if (sgn)
			return (s64)b > (s64)a ? b : a;
		return b > a ? b : a;
	case MF_ROP_BAND:
		return a & b;
	case MF_ROP_BOR:
		return a | b;
	}
	return a ^ b;
}

int mf_rop_combine(u32 op, u32 type, void *dst, const void *src, u32 n)
{
	bool sgn = type == MF_RTYPE_S32 || type == MF_RTYPE_S64;
	u32 i;

	if (op >= MF_ROP_COUNT || type >= MF_RTYPE_COUNT)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (mf_rtype_size(type) == 8) {
			u64 *d = dst;
			const u64 *s = src;

			d[i] = combine_one(op, sgn, d[i], s[i]);
		} else if (sgn) {
			s32 *d = dst;
			const s32 *s = src;

			d[i] = (s32)combine_one(op, true, (u64)(s64)d[i],
						(u64)(s64)s[i]);
		} else {
			u32 *d = dst;
			const u32 *s = src;

			d[i] = (u32)combine_one(op, false, d[i], s[i]);
		}
	}
	return 0;
}

/* Elements [*lo, *hi) of block b of nb over count. */
static void block_range(u32 count, u32 nb, u32 b, u32 *lo, u32 *hi)
{
	*lo = (u32)mf_div64((u64)b * count, nb);
	*hi = (u32)mf_div64((u64)(b + 1) * count, nb);
}

int mf_coll_run(const struct mf_topo *t, const struct mf_sched *s, u32 op,
		u32 type, u32 count, void *buf)
{
	u32 es = mf_rtype_size(type), nb = mf_sched_nblocks(s);
	u32 i, k, j, n, lo, hi, most = 0;
	u8 *data = buf, *snap;
	size_t at;
	const u32 *ids;

	if (type >= MF_RTYPE_COUNT || op >= MF_ROP_COUNT)
		return -EINVAL;
	for (i = 0; i < s->nsteps; i++) {
		u32 sz = 0;

		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			ids = mf_send_blocks(s, k, &n);
			for (j = 0; j < n; j++) {
				block_range(count, nb, ids[j] & ~MF_BLK_COMBINE,
					    &lo, &hi);
				sz += hi - lo;
			}
		}
		if (sz > most)
			most = sz;
	}
	snap = mf_alloc_array(most ? most : 1, es, false);
	if (!snap)
		return -ENOMEM;
	for (i = 0; i < s->nsteps; i++) {
		at = 0;
		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			ids = mf_send_blocks(s, k, &n);
			for (j = 0; j < n; j++) {
				block_range(count, nb, ids[j] & ~MF_BLK_COMBINE,
					    &lo, &hi);
				memcpy(snap + at * es, data +
				       ((size_t)s->send[k].src * count + lo) * es,
				       (size_t)(hi - lo) * es);
				at += hi - lo;
			}
		}
		at = 0;
		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			ids = mf_send_blocks(s, k, &n);
			for (j = 0; j < n; j++) {
				u8 *d;

				block_range(count, nb, ids[j] & ~MF_BLK_COMBINE,
					    &lo, &hi);
				d = data + ((size_t)s->send[k].dst * count + lo) *
					   es;
				if (ids[j] & MF_BLK_COMBINE)
					mf_rop_combine(op, type, d, snap + at * es,
						       hi - lo);
				else
					memcpy(d, snap + at * es,
					       (size_t)(hi - lo) * es);
				at += hi - lo;
			}
		}
	}
	mf_free(snap);
	return 0;
}

void mf_coll_block_bytes(const struct mf_sched *s, u64 bytes, u32 esize,
			 u64 *out)
{
	u32 nb = mf_sched_nblocks(s), b;
	u64 count = mf_div64(bytes + esize - 1, esize);

	for (b = 0; b < nb; b++)
		out[b] = (mf_div64((b + 1) * count, nb) -
			  mf_div64(b * count, nb)) * esize;
}

u32 mf_allport_bound(const struct mf_topo *t, u32 source)
{
	u64 hist[2 * MF_MAX_DIMS + 1] = { 0 }, informed = 1, more, left, k;
	u32 v, steps = 0;
	int g;

	for (v = 0; v < t->nodes; v++)
		hist[mf_topo_degree(t, v)]++;
	while (informed < t->nodes) {
		more = mf_topo_degree(t, source);
		left = informed - 1;
		for (g = 2 * MF_MAX_DIMS; g >= 0 && left; g--) {
			k = hist[g] < left ? hist[g] : left;
			more += k * (u64)g;
			left -= k;
		}
		if (!more)
			return U32_MAX;
		informed += more;
		steps++;
	}
	return steps;
}

void mf_coll_bounds(const struct mf_topo *t, u32 coll, u32 model, u32 root,
		    u64 bytes, struct mf_coll_bounds *b)
{
	u32 n = t->nodes, v, d, least = root, deg, fewest = U32_MAX;
	u64 reach = 1, share = mf_div64(bytes * (n - 1), n);
	bool rooted = coll == MF_COLL_BCAST || coll == MF_COLL_REDUCE ||
		      coll == MF_COLL_GATHER || coll == MF_COLL_SCATTER;

	/* one-port: the nodes that hold (or fed) a value at most double a
	 * step.  All-port: the broadcast counting bound from the root; a
	 * reduce or gather is one turned round.  Without a root, every node
	 * must hear from all: the bound from a node of the fewest links,
	 * the largest over the nodes.
	 */
	b->steps = 0;
	if (model == MESHFABRIC_MODEL_ALL_PORT) {
		for (v = 0; !rooted && v < n; v++) {
			deg = mf_topo_degree(t, v);
			if (deg < fewest) {
				fewest = deg;
				least = v;
			}
		}
		b->steps = mf_allport_bound(t, least);
	} else {
		for (; reach < n; b->steps++)
			reach *= 2;
	}
	b->distance = 0;
	if (rooted) {
		for (v = 0; v < n; v++) {
			d = mf_topo_distance(t, root, v);
			if (d > b->distance)
				b->distance = d;
		}
	} else {
		b->distance = mf_topo_diameter(t);
	}
	switch (coll) {
	case MF_COLL_ALLREDUCE:
		b->node_bytes = 2 * share;
		break;
	case MF_COLL_BCAST:
	case MF_COLL_REDUCE:
		b->node_bytes = bytes;
		break;
	default:
		b->node_bytes = share;
	}
}
