// SPDX-License-Identifier: GPL-2.0
/* Fault sets, routing around down links, and repair of broadcast
 * schedules (contract in faults.h, design in docs/faults.md).
 */
#include "faults.h"
#include "route.h"

#define EXC_SHIFT	5
#define EXC_UNREACH	31	/* port field of an unreachable pair */
#define NONE		U32_MAX

void mf_faults_init(struct mf_faults *f)
{
	memset(f, 0, sizeof(*f));
}

void mf_faults_free(struct mf_faults *f)
{
	mf_free(f->link);
	memset(f, 0, sizeof(*f));
}

/* Index of the first entry >= key in the sorted a[0..n-1]. */
static u32 lower_bound(const u64 *a, u32 n, u64 key)
{
	u32 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert_link(struct mf_faults *f, u64 link)
{
	u32 i = lower_bound(f->link, f->n, link), j;

	if (i < f->n && f->link[i] == link)
		return 0;
	if (f->n >= MF_FAULTS_MAX)
		return -E2BIG;
	if (f->n == f->cap) {
		u32 cap = f->cap ? 2 * f->cap : 16;
		u64 *p = mf_grow(f->link, f->n, cap, sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->link = p;
		f->cap = cap;
	}
	for (j = f->n; j > i; j--)
		f->link[j] = f->link[j - 1];
	f->link[i] = link;
	f->n++;
	return 0;
}

int mf_faults_add_link(struct mf_faults *f, const struct mf_topo *t,
		       u32 node, u32 port)
{
	s64 v;
	int pa, pb, err;

	if (node >= t->nodes || port >= t->nports)
		return -EINVAL;
	v = mf_topo_neighbor(t, node, port);
	if (v < 0)
		return -ENOENT;
	pa = mf_topo_port(t, node, (u32)v);
	pb = mf_topo_port(t, (u32)v, node);
	if (pa < 0 || pb < 0)
		return -EINVAL;
	if (f->n + 2 > MF_FAULTS_MAX)
		return -E2BIG;
	err = insert_link(f, mf_topo_link(t, node, (u32)pa));
	if (!err)
		err = insert_link(f, mf_topo_link(t, (u32)v, (u32)pb));
	return err;
}

int mf_faults_add_node(struct mf_faults *f, const struct mf_topo *t,
		       u32 node)
{
	u32 p;
	int err;

	if (node >= t->nodes)
		return -EINVAL;
	for (p = 0; p < t->nports; p++) {
		err = mf_faults_add_link(f, t, node, p);
		if (err && err != -ENOENT)
			return err;
	}
	f->ndown_nodes++;
	return 0;
}

bool mf_faults_down(const struct mf_faults *f, const struct mf_topo *t,
		    u32 a, u32 port)
{
	u64 link;
	s64 v;
	int p;
	u32 i;

	if (!f || !f->n)
		return false;
	v = mf_topo_neighbor(t, a, port);
	if (v < 0)
		return false;
	p = mf_topo_port(t, a, (u32)v);
	if (p < 0)
		return false;
	link = mf_topo_link(t, a, (u32)p);
	i = lower_bound(f->link, f->n, link);
	return i < f->n && f->link[i] == link;
}

/* ------------------------------------------------------------ routing */

/* Scratch of mf_froute_build, N entries each (cnt: diameter + 2). */
struct fwork {
	u32 *mark;		/* stamp: node is in U (default path crosses) */
	u32 *fin;		/* stamp: surviving distance final */
	u32 *df;		/* surviving distance to dst, nodes in U */
	u32 *lab0;		/* its first estimate, through nodes outside U */
	u32 *list;		/* U */
	u32 *srt;		/* U with finite lab0, sorted by it */
	u32 *q;			/* FIFO of the relaxation */
	u32 *cnt;		/* counting sort */
	u32 *aff;		/* bitmap of affected destinations */
	u32 *nbr;		/* neighbour of (node, port), NONE at a border */
	u8 *down;		/* (node, port) is down */
	/* tori and H_n (homogeneous): next port and distance by offset
	 * dst - node, and each node's offset in off[] (NULL on meshes)
	 */
	u8 *nt;
	u32 *dt;
	u32 *off;
	u32 diam;
	/* tori and H_n: the offsets o != 0 grouped by nt[o] (olist[ostart[p]
	 * .. ostart[p + 1]), the destinations a link through port p
	 * affects, as offsets from its tail) and the (node, dst) pairs whose
	 * default path uses a link through port p (load[p])
	 */
	u32 *olist;
	u32 *ostart;
	u64 *load;
	const struct mf_froute_ctl *ctl;
	int err;		/* the yield's error: the build stops */
};

/* The build's scheduling point (struct mf_froute_ctl). */
static int fyield(const struct fwork *w)
{
	return w->ctl && w->ctl->yield ? w->ctl->yield(w->ctl->arg) : 0;
}

/* In the loops over nodes (or over U): yield every 1024 iterations (i)
 * of the loop, true once the yield failed (w->err says why).  Counted
 * per loop, so up to 2047 iterations pass between two yields across the
 * end of one loop and the start of the next; relax()'s counting sort
 * (two short passes over U) has none.
 */
static bool fstop(struct fwork *w, u32 i)
{
	if (!w->err && !(i & 1023) && i)
		w->err = fyield(w);
	return w->err;
}

/* Heap sort of a[0..n-1] (no recursion, no extra memory), yielding as
 * the build does (unsorted if the yield stops it: the build ends).
 */
static void sift(u64 *a, u32 i, u32 n)
{
	u32 c;
	u64 x;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		x = a[i];
		a[i] = a[c];
		a[c] = x;
		i = c;
	}
}

static void sort_u64(struct fwork *w, u64 *a, u32 n)
{
	u32 i;
	u64 x;

	for (i = n / 2; i-- > 0 && !fstop(w, i);)
		sift(a, i, n);
	for (i = n; i-- > 1 && !fstop(w, i);) {
		x = a[0];
		a[0] = a[i];
		a[i] = x;
		sift(a, 0, i);
	}
}

/* Port of v (offset offv from dst) towards dst. */
static u32 hop(const struct mf_froute *r, const struct fwork *w, u32 v,
	       u32 offv, u32 dst)
{
	return w->nt ? w->nt[offv]
		     : (u32)mf_route_next(&r->t, r->routing, v, dst);
}

/* Fault-free distance of v (offset offv) to dst. */
static u32 dist0(const struct mf_froute *r, const struct fwork *w, u32 v,
		 u32 offv, u32 dst)
{
	return w->dt ? w->dt[offv] : mf_topo_distance(&r->t, v, dst);
}

/* Offset of the neighbour through port p of a node of offset off: one
 * hop away from dst's point of view is the reverse hop from the offset.
 */
static u32 noff(const struct fwork *w, u32 np, u32 off, u32 p)
{
	return w->nt ? w->nbr[(size_t)off * np + (p ^ 1)] : 0;
}

/* The neighbour the default routing forwards cur to on the way to dst. */
static u32 default_next(const struct mf_froute *r, const struct fwork *w,
			u32 cur, u32 dst)
{
	int port = mf_route_next(&r->t, r->routing, cur, dst);

	return port < 0 ? NONE : w->nbr[(size_t)cur * r->t.nports + port];
}

static void fwork_free(struct fwork *w)
{
	mf_free_all(w->mark, w->fin, w->df, w->lab0, w->list, w->srt, w->q,
		    w->cnt, w->aff, w->nbr, w->down, w->nt, w->dt, w->off,
		    w->olist, w->ostart, w->load);
}

/* Tori and H_n: olist, ostart and load from nt[] and dt[].  The default
 * tree of destination 0: the node at offset o (from 0's point of view)
 * forwards to the one at noff(o, nt[o]); its subtree size, summed over
 * the offsets whose hop is p, is the load of a link through p (the
 * routing is translation invariant).  Subtree sizes in off[], the order
 * by decreasing distance in srt[] (counting sort into cnt[]).
 */
static int port_tables(const struct mf_topo *t, struct fwork *w)
{
	u32 n = t->nodes, np = t->nports, i, o, d, par;

	w->olist = mf_alloc_array(n, sizeof(u32), false);
	w->ostart = mf_alloc_array(np + 1, sizeof(u32), true);
	w->load = mf_alloc_array(np, sizeof(u64), true);
	if (!w->olist || !w->ostart || !w->load)
		return -ENOMEM;
	/* every pass over the nodes yields per 1024 (fstop) */
	for (o = 1; o < n && !fstop(w, o); o++)
		w->ostart[w->nt[o] + 1]++;
	for (i = 0; i < np; i++)
		w->ostart[i + 1] += w->ostart[i];
	memcpy(w->q, w->ostart, np * sizeof(u32));
	for (o = 1; o < n && !fstop(w, o); o++)
		w->olist[w->q[w->nt[o]]++] = o;
	/* offsets by decreasing distance */
	memset(w->cnt, 0, ((size_t)w->diam + 3) * sizeof(u32));
	for (o = 0; o < n && !fstop(w, o); o++)
		w->cnt[w->diam - w->dt[o]]++;
	for (d = 0, i = 0; d <= w->diam; d++) {
		par = w->cnt[d];
		w->cnt[d] = i;
		i += par;
	}
	for (o = 0; o < n && !fstop(w, o); o++) {
		w->srt[w->cnt[w->diam - w->dt[o]]++] = o;
		w->off[o] = 1;
	}
	for (i = 0; i < n && !fstop(w, i); i++) {
		o = w->srt[i];
		if (!o)
			continue;
		par = noff(w, np, o, w->nt[o]);
		w->off[par] += w->off[o];
		w->load[w->nt[o]] += w->off[o];
	}
	return w->err;
}

static int fwork_alloc(struct fwork *w, const struct mf_topo *t,
		       u32 routing, const struct mf_faults *f,
		       const struct mf_froute_ctl *ctl)
{
	size_t n = t->nodes, np = t->nports, i;
	int err;
	u32 p;
	s64 v;

	memset(w, 0, sizeof(*w));
	w->ctl = ctl;
	w->diam = mf_topo_diameter(t);
	w->mark = mf_alloc_array(n, sizeof(u32), true);
	w->fin = mf_alloc_array(n, sizeof(u32), true);
	w->df = mf_alloc_array(n, sizeof(u32), false);
	w->lab0 = mf_alloc_array(n, sizeof(u32), false);
	w->list = mf_alloc_array(n, sizeof(u32), false);
	w->srt = mf_alloc_array(n, sizeof(u32), false);
	w->q = mf_alloc_array(n, sizeof(u32), false);
	w->cnt = mf_alloc_array((size_t)w->diam + 3, sizeof(u32), true);
	w->aff = mf_alloc_array(n / 32 + 1, sizeof(u32), true);
	w->nbr = mf_alloc_array(n * np, sizeof(u32), false);
	w->down = mf_alloc_array(n * np, 1, true);
	if (!w->mark || !w->fin || !w->df || !w->lab0 || !w->list ||
	    !w->srt || !w->q || !w->cnt || !w->aff || !w->nbr || !w->down)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		for (p = 0; p < np; p++) {
			v = mf_topo_neighbor(t, (u32)i, p);
			w->nbr[i * np + p] = v < 0 ? NONE : (u32)v;
		}
		err = (i & 1023) ? 0 : fyield(w);
		if (err)
			return err;
	}
	for (i = 0; i < f->n; i++) {
		u32 a = (u32)(f->link[i] / np), b = w->nbr[f->link[i]];

		/* every port of a towards b (two on a size-2 torus ring) */
		for (p = 0; p < np; p++)
			if (w->nbr[(size_t)a * np + p] == b)
				w->down[(size_t)a * np + p] = 1;
	}
	if (t->kind == MESHFABRIC_KIND_MESH)
		return 0;
	w->nt = mf_alloc_array(n, 1, false);
	w->dt = mf_alloc_array(n, sizeof(u32), false);
	w->off = mf_alloc_array(n, sizeof(u32), false);
	if (!w->nt || !w->dt || !w->off)
		return -ENOMEM;
	w->nt[0] = 0xff;
	w->dt[0] = 0;
	for (i = 1; i < n; i++) {
		w->nt[i] = (u8)mf_route_next(t, routing, 0, (u32)i);
		w->dt[i] = mf_topo_distance(t, 0, (u32)i);
		err = (i & 1023) ? 0 : fyield(w);
		if (err)
			return err;
	}
	return port_tables(t, w);
}

/* Meshes: the nodes from which a shortest path to dst may pass through a
 * (so the nodes whose default path to dst may): per dimension, those on
 * a's far side from dst, every coordinate where a and dst agree.
 */
static u64 mesh_box(const struct mf_topo *t, u32 a, u32 dst)
{
	u32 ca[MESHFABRIC_MAX_DIMS], cd[MESHFABRIC_MAX_DIMS], i;
	u64 box = 1;

	mf_topo_coords(t, a, ca);
	mf_topo_coords(t, dst, cd);
	for (i = 0; i < t->ndims; i++)
		box *= ca[i] < cd[i] ? ca[i] + 1 :
		       ca[i] > cd[i] ? t->dims[i] - ca[i] : t->dims[i];
	return box;
}

/* mf_froute_work() with w's tables into *work; f not empty.  0, or the
 * yield's error.
 */
static int work_of(const struct mf_froute *r, struct fwork *w,
		   const struct mf_faults *f, u64 limit, u64 *work_out)
{
	const struct mf_topo *t = &r->t;
	u32 i, a, b, p, dst, np = t->nports;
	u64 work = 0;
	int err;

	for (i = 0; i < f->n; i++) {
		a = (u32)(f->link[i] / np);
		b = w->nbr[f->link[i]];
		if (w->nt) {
			/* every port of a towards b (two on a size-2 ring) */
			for (p = 0; p < np; p++)
				if (w->nbr[(size_t)a * np + p] == b)
					work += w->load[p] + w->ostart[p + 1] -
						w->ostart[p];
		} else {
			work += t->nodes;	/* the scan for destinations */
			for (dst = 0; dst < t->nodes && !fstop(w, dst); dst++)
				if (dst != a && default_next(r, w, a, dst) == b)
					work += mesh_box(t, a, dst);
			err = w->err ?: fyield(w);
			if (err)
				return err;
		}
		if (limit && work > limit)
			break;
	}
	*work_out = work;
	return 0;
}

/* Surviving distance of w to dst: computed for U, closed form outside. */
static u32 fdist(const struct mf_froute *r, const struct fwork *w, u32 stamp,
		 u32 v, u32 offv, u32 dst)
{
	return w->mark[v] == stamp ? w->df[v] : dist0(r, w, v, offv, dst);
}

/* U = the nodes whose default path to dst crosses a down link: the tails
 * of the down links the default tree of dst uses, and everything that
 * routes through them (the tree read backwards).  Returns |U|.
 */
static u32 collect(const struct mf_froute *r, struct fwork *w, u32 dst,
		   u32 stamp)
{
	const struct mf_topo *t = &r->t;
	u32 i, a, nu = 0, x, p, v, np = t->nports, offv = 0;

	for (i = 0; i < r->f->n; i++) {
		a = (u32)(r->f->link[i] / np);
		if (a != dst && w->mark[a] != stamp &&
		    default_next(r, w, a, dst) == w->nbr[r->f->link[i]]) {
			w->mark[a] = stamp;
			w->list[nu++] = a;
			if (w->off)
				w->off[a] = mf_topo_sub(t, dst, a);
		}
	}
	for (i = 0; i < nu && !fstop(w, i); i++) {
		x = w->list[i];
		for (p = 0; p < np; p++) {
			v = w->nbr[(size_t)x * np + p];
			if (v == NONE || v == dst || w->mark[v] == stamp)
				continue;
			if (w->off)
				offv = noff(w, np, w->off[x], p);
			if (w->nbr[(size_t)v * np + hop(r, w, v, offv, dst)] != x)
				continue;
			w->mark[v] = stamp;
			w->list[nu++] = v;
			if (w->off)
				w->off[v] = offv;
		}
	}
	return nu;
}

/* Surviving distances df[] of U: estimates through the up links to nodes
 * outside U (whose default paths survive, so their distance is the
 * fault-free one), then a unit-weight Dijkstra inside U: a FIFO of
 * relaxed nodes merged with the estimates sorted by counting sort.
 */
static void relax(const struct mf_froute *r, struct fwork *w, u32 dst,
		  u32 stamp, u32 nu)
{
	const struct mf_topo *t = &r->t;
	u32 i, u, p, v, lab, lo = NONE, hi = 0, ns = 0, si = 0, qh = 0, qt = 0;
	size_t l;

	for (i = 0; i < nu; i++) {
		if (fstop(w, i))
			return;
		u = w->list[i];
		w->lab0[u] = NONE;
		for (p = 0; p < t->nports; p++) {
			l = (size_t)u * t->nports + p;
			v = w->nbr[l];
			if (v == NONE || w->mark[v] == stamp || w->down[l])
				continue;
			lab = dist0(r, w, v, w->off ? noff(w, t->nports,
							   w->off[u], p) : 0,
				    dst) + 1;
			if (lab < w->lab0[u])
				w->lab0[u] = lab;
		}
		w->df[u] = w->lab0[u];
		if (w->lab0[u] == NONE)
			continue;
		ns++;
		if (w->lab0[u] < lo)
			lo = w->lab0[u];
		if (w->lab0[u] > hi)
			hi = w->lab0[u];
	}
	if (!ns)
		return;
	/* counting sort of the estimates (all in 1 .. diameter + 1) */
	for (i = lo; i <= hi; i++)
		w->cnt[i - lo] = 0;
	for (i = 0; i < nu; i++)
		if (w->lab0[w->list[i]] != NONE)
			w->cnt[w->lab0[w->list[i]] - lo]++;
	for (i = lo, lab = 0; i <= hi; i++) {
		p = w->cnt[i - lo];
		w->cnt[i - lo] = lab;
		lab += p;
	}
	for (i = 0; i < nu; i++) {
		u = w->list[i];
		if (w->lab0[u] != NONE)
			w->srt[w->cnt[w->lab0[u] - lo]++] = u;
	}
	while ((si < ns || qh < qt) && !fstop(w, si + qh)) {
		if (qh < qt && (si >= ns || w->df[w->q[qh]] <= w->lab0[w->srt[si]])) {
			u = w->q[qh++];
		} else {
			u = w->srt[si++];
			if (w->df[u] != w->lab0[u])
				continue;	/* a smaller one is queued */
		}
		if (w->fin[u] == stamp)
			continue;
		w->fin[u] = stamp;
		for (p = 0; p < t->nports; p++) {
			l = (size_t)u * t->nports + p;
			v = w->nbr[l];
			if (v == NONE || w->mark[v] != stamp || w->fin[v] == stamp ||
			    w->df[v] <= w->df[u] + 1 || w->down[l])
				continue;
			w->df[v] = w->df[u] + 1;
			w->q[qt++] = v;
		}
	}
}

/* Twice the room for r's exceptions, copied EXC_COPY at a time with a
 * yield between pieces: one copy of 2 MiB (2^18 exceptions) kept a CPU
 * about 100 ms under emulation (test_43's sleepers).
 */
#define EXC_COPY	8192u
static int grow_exc(struct mf_froute *r, struct fwork *w, u32 *cap)
{
	u32 n = *cap ? 2 * *cap : 64, i, k;
	u64 *p = mf_alloc_array(n, sizeof(*p), false);
	int err;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < r->nexc; i += k) {
		err = i ? fyield(w) : 0;
		if (err) {
			mf_free(p);
			return err;
		}
		k = r->nexc - i < EXC_COPY ? r->nexc - i : EXC_COPY;
		memcpy(p + i, r->exc + i, (size_t)k * sizeof(*p));
	}
	mf_free(r->exc);
	r->exc = p;
	*cap = n;
	return 0;
}

static int add_exc(struct mf_froute *r, struct fwork *w, u32 *cap, u32 dst,
		   u32 node, u32 port)
{
	int err;

	if (r->nexc >= MF_FROUTE_MAX_EXC)
		return -E2BIG;
	if (r->nexc == *cap) {
		err = grow_exc(r, w, cap);
		if (err)
			return err;
	}
	r->exc[r->nexc++] = (((u64)dst * r->t.nodes + node) << EXC_SHIFT) | port;
	return 0;
}

/* The exceptions of one affected destination, appended in node order. */
static int build_dst(struct mf_froute *r, struct fwork *w, u32 *cap, u32 dst)
{
	const struct mf_topo *t = &r->t;
	u32 stamp = dst + 1, nu, i, u, p, first = r->nexc, want, offu, port;
	size_t l;
	int err;

	nu = collect(r, w, dst, stamp);
	if (!w->err)
		relax(r, w, dst, stamp, nu);
	for (i = 0; i < nu && !w->err; i++) {
		if (fstop(w, i))
			break;
		u = w->list[i];
		if (w->df[u] == NONE) {
			r->unreachable++;
			err = add_exc(r, w, cap, dst, u, EXC_UNREACH);
			if (err)
				return err;
			continue;
		}
		want = w->df[u] - 1;
		offu = w->off ? w->off[u] : 0;
		port = hop(r, w, u, offu, dst);
		l = (size_t)u * t->nports + port;
		if (!w->down[l] && fdist(r, w, stamp, w->nbr[l],
					 noff(w, t->nports, offu, port),
					 dst) == want)
			continue;	/* the default hop is still shortest */
		for (p = 0; p < t->nports; p++) {
			l = (size_t)u * t->nports + p;
			if (w->nbr[l] != NONE && !w->down[l] &&
			    fdist(r, w, stamp, w->nbr[l],
				  noff(w, t->nports, offu, p), dst) == want)
				break;
		}
		if (p == t->nports)
			return -EPROTO;	/* df[] is wrong: cannot happen */
		err = add_exc(r, w, cap, dst, u, p);
		if (err)
			return err;
	}
	if (w->err)
		return w->err;
	if (r->nexc > first)
		r->ndst++;
	sort_u64(w, r->exc + first, r->nexc - first);
	return w->err;
}

/* Mark the destinations whose default tree uses a down link in w->aff. */
static int affected(const struct mf_froute *r, struct fwork *w)
{
	const struct mf_faults *f = r->f;
	u32 i, j, a, b, p, dst, np = r->t.nports;
	int err;

	for (i = 0; i < f->n; i++) {
		a = (u32)(f->link[i] / np);
		b = w->nbr[f->link[i]];
		if (w->nt) {
			for (p = 0; p < np; p++) {
				if (w->nbr[(size_t)a * np + p] != b)
					continue;
				for (j = w->ostart[p]; j < w->ostart[p + 1] &&
				     !fstop(w, j); j++) {
					dst = mf_topo_add(&r->t, a, w->olist[j]);
					w->aff[dst / 32] |= 1U << (dst % 32);
				}
			}
		} else {
			for (dst = 0; dst < r->t.nodes && !fstop(w, dst); dst++)
				if (dst != a && default_next(r, w, a, dst) == b)
					w->aff[dst / 32] |= 1U << (dst % 32);
		}
		err = w->err ?: fyield(w);
		if (err)
			return err;
	}
	return 0;
}

/* The per-destination index of the exceptions (sorted by destination). */
static int index_exc(struct mf_froute *r, struct fwork *w)
{
	u32 n = r->t.nodes, i, d = 0;

	r->idx = mf_alloc_array((size_t)n + 1, sizeof(u32), false);
	if (!r->idx)
		return -ENOMEM;
	for (i = 0; i < r->nexc; i++) {
		if (fstop(w, i))
			return w->err;
		u32 dst = (u32)((r->exc[i] >> EXC_SHIFT) / n);

		while (d <= dst)
			r->idx[d++] = i;
	}
	while (d <= n)
		r->idx[d++] = r->nexc;
	return 0;
}

int mf_froute_build_ctl(struct mf_froute *r, const struct mf_topo *t,
			u32 routing, const struct mf_faults *f,
			const struct mf_froute_ctl *ctl)
{
	u64 limit = ctl ? ctl->max_work : 0;
	struct fwork w;
	u32 dst, cap = 0;
	int err;

	memset(r, 0, sizeof(*r));
	if (mf_route_valid(t, routing))
		return -EINVAL;
	r->t = *t;
	r->routing = mf_route_resolve(t, routing);
	r->f = f;
	if (!f || !f->n)
		return 0;
	err = fwork_alloc(&w, t, r->routing, f, ctl);
	if (err)
		goto out;
	err = work_of(r, &w, f, limit, &r->work);
	if (!err && limit && r->work > limit)
		err = -E2BIG;	/* refused before the work */
	if (!err)
		err = affected(r, &w);
	for (dst = 0; !err && dst < t->nodes; dst++) {
		if (!(w.aff[dst / 32] & (1U << (dst % 32))))
			continue;
		err = build_dst(r, &w, &cap, dst);
		if (!err)
			err = fyield(&w);
	}
	if (!err)
		err = index_exc(r, &w);
out:
	fwork_free(&w);
	return err;
}

int mf_froute_build(struct mf_froute *r, const struct mf_topo *t,
		    u32 routing, const struct mf_faults *f)
{
	return mf_froute_build_ctl(r, t, routing, f, NULL);
}

u64 mf_froute_work(const struct mf_topo *t, u32 routing,
		   const struct mf_faults *f, u64 limit,
		   const struct mf_froute_ctl *ctl)
{
	struct mf_froute r = { .t = *t };
	struct fwork w;
	u64 work = U64_MAX;

	if (!f || !f->n)
		return 0;
	if (mf_route_valid(t, routing))
		return U64_MAX;
	r.routing = mf_route_resolve(t, routing);
	r.f = f;
	if (!fwork_alloc(&w, t, r.routing, f, ctl) &&
	    work_of(&r, &w, f, limit, &work))
		work = U64_MAX;
	fwork_free(&w);
	return work;
}

void mf_froute_free(struct mf_froute *r)
{
	mf_free_all(r->exc, r->idx);
	memset(r, 0, sizeof(*r));
}

int mf_froute_next(const struct mf_froute *r, u32 cur, u32 dst)
{
	u64 key;
	u32 i, lo, hi;

	if (cur >= r->t.nodes || dst >= r->t.nodes)
		return -EINVAL;
	if (cur == dst)
		return -ENOENT;
	if (r->nexc) {
		lo = r->idx ? r->idx[dst] : 0;
		hi = r->idx ? r->idx[dst + 1] : r->nexc;
		key = ((u64)dst * r->t.nodes + cur) << EXC_SHIFT;
		i = lo + lower_bound(r->exc + lo, hi - lo, key);
		if (i < hi && (r->exc[i] >> EXC_SHIFT) == key >> EXC_SHIFT) {
			i = (u32)(r->exc[i] & ((1U << EXC_SHIFT) - 1));
			return i == EXC_UNREACH ? -EHOSTUNREACH : (int)i;
		}
	}
	return mf_route_next(&r->t, r->routing, cur, dst);
}

void mf_froute_dst(const struct mf_froute *r, u32 dst,
		   struct mf_froute_dst *d)
{
	u64 key = ((u64)dst * r->t.nodes) << EXC_SHIFT;

	d->base = (u64)dst * r->t.nodes;
	d->lo = r->nexc ? lower_bound(r->exc, r->nexc, key) : 0;
	d->hi = d->lo;
	if (d->lo < r->nexc && dst < r->t.nodes)
		d->hi = lower_bound(r->exc + d->lo, r->nexc - d->lo,
				    key + ((u64)r->t.nodes << EXC_SHIFT)) +
			d->lo;
	d->first = 0;
	d->last = 0;
	if (d->lo < d->hi) {
		d->first = (u32)((r->exc[d->lo] >> EXC_SHIFT) - d->base);
		d->last = (u32)((r->exc[d->hi - 1] >> EXC_SHIFT) - d->base);
	}
}

int mf_froute_exc(const struct mf_froute *r, const struct mf_froute_dst *d,
		  u32 cur)
{
	u64 key, e;
	u32 i;

	if (d->lo == d->hi)
		return -ENOENT;
	key = (d->base + cur) << EXC_SHIFT;
	i = d->lo + lower_bound(r->exc + d->lo, d->hi - d->lo, key);
	if (i == d->hi)
		return -ENOENT;
	e = r->exc[i];
	if ((e >> EXC_SHIFT) != key >> EXC_SHIFT)
		return -ENOENT;
	e &= (1U << EXC_SHIFT) - 1;
	return e == EXC_UNREACH ? -EHOSTUNREACH : (int)e;
}

int mf_froute_path(const struct mf_froute *r, u32 src, u32 dst, u32 *path,
		   u32 max)
{
	u32 len = 0, cur = src;
	int port;
	s64 next;

	if (src >= r->t.nodes || dst >= r->t.nodes || !max)
		return -EINVAL;
	path[0] = src;
	while (cur != dst) {
		port = mf_froute_next(r, cur, dst);
		if (port < 0)
			return port;
		next = mf_topo_neighbor(&r->t, cur, (u32)port);
		if (next < 0 || len + 1 >= r->t.nodes ||
		    mf_faults_down(r->f, &r->t, cur, (u32)port))
			return -EPROTO;	/* a bug, never loop or cross a fault */
		if (len + 2 > max)
			return -ERANGE;
		cur = (u32)next;
		path[++len] = cur;
	}
	return (int)len;
}

/* ------------------------------------------------------------- repair */

struct rwork {
	const struct mf_froute *r;
	const struct mf_sched *in;
	struct mf_sched *out;
	struct mf_repair *rep;
	u32 *informed;		/* 1: the source; step i: i + 2; 0: not yet */
	u32 *busy;		/* one-port: per node, all-port: per link */
	u32 *owner;		/* nearest available informed node (BFS) */
	u32 *q;			/* BFS queue */
	u32 *pend;		/* reachable destinations still to serve */
	u32 *path;		/* one path, N entries */
	u32 npend;
	u32 out_stamp;		/* stamp of the open output step */
	bool all_port;
	const struct mf_froute_ctl *ctl;	/* its yield, per step */
};

/* The repair's scheduling point between steps: ctl's yield (its error
 * stops the repair), 0 without one.
 */
static int ryield(const struct rwork *w)
{
	return w->ctl && w->ctl->yield ? w->ctl->yield(w->ctl->arg) : 0;
}

static u32 *busy_mark(struct rwork *w, u32 src, u32 port)
{
	return w->all_port ? &w->busy[mf_topo_link(&w->r->t, src, port)]
			   : &w->busy[src];
}

/* Emit path[0..hops] in the step stamped stamp if its first port is free. */
static int emit(struct rwork *w, const u32 *path, u32 hops, u32 stamp)
{
	int port = mf_topo_port(&w->r->t, path[0], path[1]);
	u32 *b;
	int err;

	if (port < 0)
		return -EPROTO;
	b = busy_mark(w, path[0], (u32)port);
	if (*b == stamp)
		return 1;	/* port taken in this step */
	if (w->out_stamp != stamp) {
		err = mf_sched_step(w->out);
		if (err)
			return err;
		w->out_stamp = stamp;
	}
	err = mf_sched_send(w->out, path, hops);
	if (err)
		return err;
	*b = stamp;
	w->informed[path[hops]] = stamp;
	return 0;
}

static bool path_up(const struct mf_froute *r, const u32 *p, u32 hops)
{
	u32 h;
	int port;

	for (h = 0; h < hops; h++) {
		port = mf_topo_port(&r->t, p[h], p[h + 1]);
		if (port < 0 || mf_faults_down(r->f, &r->t, p[h], (u32)port))
			return false;
	}
	return true;
}

/* Serve pending destinations in the step stamped stamp: a multi-source BFS
 * from the nodes informed before it gives each destination its nearest
 * sender; each sender serves at most what its port model allows.
 */
static int serve(struct rwork *w, u32 stamp, u32 *served)
{
	const struct mf_topo *t = &w->r->t;
	u32 i, k, h = 0, tl = 0, x, p, keep = 0;
	s64 v;
	int len, err;

	*served = 0;
	for (x = 0; x < t->nodes; x++) {
		if (!(x & 1023))
			mf_resched();
		w->owner[x] = NONE;
		if (w->informed[x] && w->informed[x] < stamp &&
		    (w->all_port || w->busy[x] != stamp)) {
			w->owner[x] = x;
			w->q[tl++] = x;
		}
	}
	while (h < tl) {
		x = w->q[h++];
		if (!(h & 1023))
			mf_resched();
		for (p = 0; p < t->nports; p++) {
			v = mf_topo_neighbor(t, x, p);
			if (v < 0 || w->owner[v] != NONE ||
			    mf_faults_down(w->r->f, t, x, p))
				continue;
			w->owner[v] = w->owner[x];
			w->q[tl++] = (u32)v;
		}
	}
	for (i = 0; i < w->npend; i++) {
		if (!(i & 1023))
			mf_resched();
		k = w->pend[i];
		x = w->owner[k];
		err = 1;
		if (x != NONE) {
			len = mf_froute_path(w->r, x, k, w->path, t->nodes);
			if (len <= 0)
				return len < 0 ? len : -EPROTO;
			err = emit(w, w->path, (u32)len, stamp);
			if (err < 0)
				return err;
		}
		if (err)
			w->pend[keep++] = k;
		else
			(*served)++;
	}
	w->npend = keep;
	return 0;
}

/* Mark the nodes the source reaches (informed[] used as scratch). */
static u32 reach(struct rwork *w, u8 *ok)
{
	const struct mf_topo *t = &w->r->t;
	u32 h = 0, tl = 0, x, p;
	s64 v;

	ok[w->in->source] = 1;
	w->q[tl++] = w->in->source;
	while (h < tl) {
		x = w->q[h++];
		for (p = 0; p < t->nports; p++) {
			v = mf_topo_neighbor(t, x, p);
			if (v < 0 || ok[v] || mf_faults_down(w->r->f, t, x, p))
				continue;
			ok[v] = 1;
			w->q[tl++] = (u32)v;
		}
	}
	return tl;
}

/* ok[]: 1 the source reaches the node, 2 it was also queued in pend[]. */
static int repair_steps(struct rwork *w, u8 *ok)
{
	const struct mf_sched *in = w->in;
	const struct mf_send *m;
	u32 i, j, n, stamp = 1, served;
	const u32 *p;
	int err, len;

	for (i = 0; i < in->nsteps; i++) {
		stamp = i + 2;
		err = ryield(w);
		if (err)
			return err;
		m = mf_sched_sends(in, i, &n);
		for (j = 0; j < n; j++, m++) {
			if (!(j & 1023))
				mf_resched();
			if (w->informed[m->dst] || !ok[m->dst])
				continue;
			err = 1;
			if (w->informed[m->src] && w->informed[m->src] < stamp) {
				p = &in->path[m->path];
				len = (int)m->hops;
				if (!path_up(w->r, p, m->hops)) {
					len = mf_froute_path(w->r, m->src, m->dst,
							     w->path,
							     w->r->t.nodes);
					if (len <= 0)
						return len < 0 ? len : -EPROTO;
					p = w->path;
				}
				err = emit(w, p, (u32)len, stamp);
				if (err < 0)
					return err;
				if (!err && p == w->path)
					w->rep->rerouted++;
			}
			if (err) {
				ok[m->dst] = 2;
				w->pend[w->npend++] = m->dst;
				w->rep->moved++;
			}
		}
		if (w->npend) {
			err = serve(w, stamp, &served);
			if (err)
				return err;
		}
	}
	/* a reachable node no send was for (not from a valid schedule) */
	for (i = 0; i < w->r->t.nodes; i++)
		if (ok[i] == 1 && !w->informed[i])
			w->pend[w->npend++] = i;
	while (w->npend) {
		stamp++;
		err = ryield(w) ?: serve(w, stamp, &served);
		if (err)
			return err;
		if (!served)
			return -EPROTO;	/* reachable but not served: a bug */
	}
	return 0;
}

int mf_sched_repair(const struct mf_froute *r, const struct mf_sched *in,
		    struct mf_sched *out, struct mf_repair *rep)
{
	return mf_sched_repair_ctl(r, in, out, rep, NULL);
}

int mf_sched_repair_ctl(const struct mf_froute *r, const struct mf_sched *in,
			struct mf_sched *out, struct mf_repair *rep,
			const struct mf_froute_ctl *ctl)
{
	const struct mf_topo *t = &r->t;
	struct rwork w = { 0 };
	u8 *ok = NULL;
	u32 nbusy;
	int err = -ENOMEM;

	memset(rep, 0, sizeof(*rep));
	mf_sched_init(out, in->model, in->source);
	if (in->source >= t->nodes || in->open)
		return -EINVAL;
	w.r = r;
	w.in = in;
	w.out = out;
	w.rep = rep;
	w.ctl = ctl;
	w.all_port = in->model == MESHFABRIC_MODEL_ALL_PORT;
	nbusy = w.all_port ? t->nodes * t->nports : t->nodes;
	w.informed = mf_alloc_array(t->nodes, sizeof(u32), true);
	w.busy = mf_alloc_array(nbusy, sizeof(u32), true);
	w.owner = mf_alloc_array(t->nodes, sizeof(u32), false);
	w.q = mf_alloc_array(t->nodes, sizeof(u32), false);
	w.pend = mf_alloc_array(t->nodes, sizeof(u32), false);
	w.path = mf_alloc_array(t->nodes, sizeof(u32), false);
	ok = mf_alloc_array(t->nodes, 1, true);
	if (!w.informed || !w.busy || !w.owner || !w.q || !w.pend || !w.path ||
	    !ok)
		goto out;
	rep->unreachable = t->nodes - reach(&w, ok);
	w.informed[in->source] = 1;
	err = repair_steps(&w, ok);
	if (!err)
		err = mf_sched_end(out);
out:
	mf_free_all(w.informed, w.busy, w.owner, w.q, w.pend, w.path, ok);
	return err;
}
