// SPDX-License-Identifier: GPL-2.0
/* Independent validation of broadcast schedules (check.h).
 */
#include "check.h"
#include "linkacct.h"

/* -EINVAL, with the reason written to err when there is room for it. */
#define BAD(...) ((void)(err && errlen && snprintf(err, errlen, __VA_ARGS__)), \
		  -EINVAL)

/* The port model: one send per node (one-port, sent[]) or per outgoing
 * link (all-port, first[]) in the step stamped stamp; marks it used.
 */
static bool port_free(u32 *sent, u32 *first, u32 src, u64 link, u32 stamp)
{
	u32 *mark = sent ? &sent[src] : &first[link];

	if (*mark == stamp)
		return false;
	*mark = stamp;
	return true;
}

/* Nodes the source cannot reach over the links f leaves up (BFS). */
static int count_unreachable(const struct mf_topo *t, u32 source,
			     const struct mf_faults *f, u32 *out)
{
	u32 *q = mf_alloc_array(t->nodes, sizeof(u32), false);
	u8 *seen = mf_alloc_array(t->nodes, 1, true);
	u32 h = 0, tl = 0, x, p;
	s64 v;

	if (!q || !seen) {
		mf_free(q);
		mf_free(seen);
		return -ENOMEM;
	}
	seen[source] = 1;
	q[tl++] = source;
	while (h < tl) {
		x = q[h++];
		for (p = 0; p < t->nports; p++) {
			v = mf_topo_neighbor(t, x, p);
			if (v < 0 || seen[v] || mf_faults_down(f, t, x, p))
				continue;
			seen[v] = 1;
			q[tl++] = (u32)v;
		}
	}
	*out = t->nodes - tl;
	mf_free(q);
	mf_free(seen);
	return 0;
}

int mf_check(const struct mf_topo *t, const struct mf_sched *s,
	     struct mf_stats *st, char *err, size_t errlen)
{
	return mf_check_faults(t, s, NULL, st, err, errlen);
}

int mf_check_faults(const struct mf_topo *t, const struct mf_sched *s,
		    const struct mf_faults *f, struct mf_stats *st, char *err,
		    size_t errlen)
{
	struct mf_linkacct acc = { 0 };
	u32 *informed = NULL;	/* step + 1 in which a node was informed */
	u32 *sent = NULL;	/* one-port: step + 1 of a node's last send */
	u32 *first = NULL;	/* all-port: step + 1 of a link's last first-hop */
	u32 i, j, h, count = 1, nsends, unreachable = 0, most, load;
	u64 l;
	int ret;

	memset(st, 0, sizeof(*st));
	if (err && errlen)
		err[0] = '\0';
	if (s->model != MESHFABRIC_MODEL_ONE_PORT &&
	    s->model != MESHFABRIC_MODEL_ALL_PORT)
		return BAD("unknown port model %u", s->model);
	if (s->source >= t->nodes || !s->step || s->open)
		return BAD("source %u out of range, or the schedule not ended",
			   s->source);
	if (f && f->n) {
		ret = count_unreachable(t, s->source, f, &unreachable);
		if (ret)
			return ret;
	}
	ret = mf_linkacct_init(&acc, t);
	if (ret)
		return ret;
	informed = mf_alloc_array(t->nodes, sizeof(u32), true);
	if (s->model == MESHFABRIC_MODEL_ONE_PORT)
		sent = mf_alloc_array(t->nodes, sizeof(u32), true);
	else
		first = mf_alloc_array(acc.nlinks, sizeof(u32), true);
	ret = -ENOMEM;
	if (!informed || (!sent && !first))
		goto out;
	ret = 0;
	if (s->step[0] != 0 || s->step[s->nsteps] != s->nsends) {
		ret = BAD("step table does not cover the sends");
		goto out;
	}
	informed[s->source] = 1;	/* "step 0" */
	for (i = 0; i < s->nsteps; i++) {
		const struct mf_send *m;
		u32 stamp = i + 2;	/* step i is stamped i + 2 */

		if (s->step[i + 1] < s->step[i]) {
			ret = BAD("step %u: step table not increasing", i + 1);
			goto out;
		}
		m = mf_sched_sends(s, i, &nsends);
		mf_linkacct_step(&acc);
		most = 0;
		for (j = 0; j < nsends; j++, m++) {
			const u32 *p;
			int port;

			if (m->src >= t->nodes || m->dst >= t->nodes) {
				ret = BAD("step %u: node out of range", i + 1);
				goto out;
			}
			if (!m->hops || (u64)m->path + m->hops >= s->npath) {
				ret = BAD("step %u: send %u->%u has a bad path",
					  i + 1, m->src, m->dst);
				goto out;
			}
			p = &s->path[m->path];
			if (p[0] != m->src || p[m->hops] != m->dst) {
				ret = BAD("step %u: path of %u->%u does not join them",
					  i + 1, m->src, m->dst);
				goto out;
			}
			if (!informed[m->src] || informed[m->src] >= stamp) {
				ret = BAD("step %u: node %u sends before it is informed",
					  i + 1, m->src);
				goto out;
			}
			if (informed[m->dst]) {
				ret = BAD("step %u: node %u informed twice",
					  i + 1, m->dst);
				goto out;
			}
			informed[m->dst] = stamp;
			count++;
			for (h = 0; h < m->hops; h++) {
				port = mf_topo_port(t, p[h], p[h + 1]);
				if (port < 0) {
					ret = BAD("step %u: %u and %u are not adjacent",
						  i + 1, p[h], p[h + 1]);
					goto out;
				}
				if (mf_faults_down(f, t, p[h], (u32)port)) {
					ret = BAD("step %u: %u->%u crosses the down link %u-%u",
						  i + 1, m->src, m->dst, p[h],
						  p[h + 1]);
					goto out;
				}
				if (!h && !port_free(sent, first, m->src,
						     mf_topo_link(t, p[0], port),
						     stamp)) {
					ret = BAD("step %u: node %u sends twice (%s)",
						  i + 1, m->src, sent ? "one-port" :
						  "all-port: same port");
					goto out;
				}
				l = mf_topo_link(t, p[h], (u32)port);
				load = mf_linkacct_hop(&acc, l);
				if (load > most)
					most = load;
			}
			st->tcd += m->hops;
		}
		st->serial += most;
	}
	if (count != t->nodes - unreachable) {
		ret = BAD("%u of %u nodes informed, %u unreachable", count,
			  t->nodes, unreachable);
		goto out;
	}
	st->unreachable = unreachable;
	st->steps = s->nsteps;
	st->sends = s->nsends;
	st->max_link_load = acc.max_load;
	st->contention = acc.contention;
out:
	mf_linkacct_free(&acc);
	mf_free_all(informed, sent, first);
	return ret;
}
