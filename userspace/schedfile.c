// SPDX-License-Identifier: GPL-2.0
/*
 * schedfile.c - plan's JSON read back as a schedule (schedfile.h):
 *   {"topology":{"kind":"mesh","dims":[4,4]},"model":"one-port",
 *    "source":0,"steps":[[{"src":0,"dst":1,"path":[0,1]}],...]}
 * bcast --steps --json calls the steps "schedule"; both are read.
 * A collective's (plan --coll --steps --json) has "collective", "root"
 * and "blocks" (its block count) for "source", and every send its
 * "blocks":[ids] and "combine":true|false.
 * Other keys are ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedfile.h"
#include "coll.h"
#include "jread.h"
#include "parse.h"
#include "schedcode.h"

#define FILE_MAX	(256U << 20)	/* bytes of JSON read at most */

static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 1 << 16, n = 0, got;
	char *buf = NULL, *nb;

	if (!f) {
		snprintf(err, errlen, "%.80s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		nb = realloc(buf, cap);
		if (!nb) {
			snprintf(err, errlen, "%.80s: out of memory", path);
			break;
		}
		buf = nb;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f)) {
				snprintf(err, errlen, "%.80s: %s", path,
					 strerror(errno));
				break;
			}
			if (f != stdin)
				fclose(f);
			*len = n;
			return buf;
		}
		if (cap >= FILE_MAX) {
			snprintf(err, errlen, "%.80s: larger than %u MiB", path,
				 FILE_MAX >> 20);
			break;
		}
		cap *= 2;
	}
	free(buf);
	if (f != stdin)
		fclose(f);
	return NULL;
}

/* The document's topology is t's. */
static int same_topo(const struct mf_jval *doc, const struct mf_topo *t,
		     char *err, size_t errlen)
{
	const struct mf_jval *topo = mf_jget(doc, "topology");
	const struct mf_jval *kind = mf_jget(topo, "kind");
	const struct mf_jval *dims = mf_jget(topo, "dims");
	u32 d[MESHFABRIC_MAX_DIMS], i;
	struct mf_topo ft;
	u32 k;
	char a[96], b[96];

	if (!kind || kind->type != MF_J_STR || !dims ||
	    dims->type != MF_J_ARR || !dims->n ||
	    dims->n > MESHFABRIC_MAX_DIMS) {
		snprintf(err, errlen, "no topology {\"kind\", \"dims\"}");
		return -1;
	}
	for (k = MESHFABRIC_KIND_MESH; k <= MESHFABRIC_KIND_HEX; k++)
		if (!strcmp(kind->str, mf_topo_kind_name(k)))
			break;
	for (i = 0; i < dims->n; i++)
		if (!mf_jget_u32(&dims->v[i], &d[i]))
			k = 0;
	if (k > MESHFABRIC_KIND_HEX || !k ||
	    mf_topo_init(&ft, k, (u32)dims->n, d)) {
		snprintf(err, errlen, "topology: not a valid mesh, torus or hex");
		return -1;
	}
	if (ft.kind != t->kind || ft.ndims != t->ndims ||
	    memcmp(ft.dims, t->dims, t->ndims * sizeof(t->dims[0]))) {
		mf_format_shape(&ft, a, sizeof(a));
		mf_format_shape(t, b, sizeof(b));
		snprintf(err, errlen, "the schedule is for a %s %.40s, the fabric is a %s %.40s",
			 mf_topo_kind_name(ft.kind), a,
			 mf_topo_kind_name(t->kind), b);
		return -1;
	}
	return 0;
}

/* A collective send's "blocks" and "combine" given to the send appended
 * last; ids scratch of at least the blocks.
 */
static int add_blocks(const struct mf_jval *x, struct mf_sched *s, u32 *ids,
		      char *err, size_t errlen)
{
	const struct mf_jval *b = mf_jget(x, "blocks"), *c = mf_jget(x, "combine");
	u32 i;

	if (!b || b->type != MF_J_ARR || !b->n ||
	    b->n > mf_sched_nblocks(s) || !c || c->type != MF_J_BOOL) {
		snprintf(err, errlen, "want \"blocks\": [1 .. %u block ids], \"combine\": true or false",
			 mf_sched_nblocks(s));
		return -1;
	}
	for (i = 0; i < b->n; i++)
		if (!mf_jget_u32(&b->v[i], &ids[i]) ||
		    ids[i] >= mf_sched_nblocks(s)) {
			snprintf(err, errlen, "blocks entry %u: not a block below %u",
				 i, mf_sched_nblocks(s));
			return -1;
		}
	if (mf_sched_blocks(s, ids, (u32)b->n, c->u)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* One send {"src","dst","path"} appended to s; path scratch of nodes
 * (and of a collective's blocks).
 */
static int add_send(const struct mf_jval *x, const struct mf_topo *t,
		    struct mf_sched *s, u32 *path, char *err, size_t errlen)
{
	const struct mf_jval *p = mf_jget(x, "path");
	u32 src, dst, i;

	if (!mf_jget_u32(mf_jget(x, "src"), &src) ||
	    !mf_jget_u32(mf_jget(x, "dst"), &dst) || !p ||
	    p->type != MF_J_ARR || p->n < 2 || p->n > t->nodes) {
		snprintf(err, errlen, "want {\"src\", \"dst\", \"path\": [at least 2 nodes]}");
		return -1;
	}
	for (i = 0; i < p->n; i++)
		if (!mf_jget_u32(&p->v[i], &path[i]) || path[i] >= t->nodes) {
			snprintf(err, errlen, "path entry %u: not a node of the fabric", i);
			return -1;
		}
	if (path[0] != src || path[p->n - 1] != dst) {
		snprintf(err, errlen, "path runs from %u to %u, not from src %u to dst %u",
			 path[0], path[p->n - 1], src, dst);
		return -1;
	}
	if (mf_sched_send(s, path, (u32)p->n - 1)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return s->xblk ? add_blocks(x, s, path, err, errlen) : 0;
}

static int build(const struct mf_jval *doc, const struct mf_topo *t,
		 struct mf_sched *s, char *err, size_t errlen)
{
	const struct mf_jval *steps = mf_jget(doc, "steps");
	const struct mf_jval *model = mf_jget(doc, "model");
	const struct mf_jval *coll = mf_jget(doc, "collective");
	char why[128];
	u32 source, m, i, j, *path, nb = 1;
	int r = 0;

	if (!steps)
		steps = mf_jget(doc, "schedule");
	if (!steps || steps->type != MF_J_ARR) {
		snprintf(err, errlen, "no \"steps\" (plan --json without --summary writes them)");
		return -1;
	}
	if (!model || model->type != MF_J_STR ||
	    mf_parse_model(model->str, &m, why, sizeof(why))) {
		snprintf(err, errlen, "no \"model\": one-port or all-port");
		return -1;
	}
	if (coll) {
		if (coll->type != MF_J_STR || mf_coll_by_name(coll->str) < 0 ||
		    !mf_jget_u32(mf_jget(doc, "root"), &source) ||
		    source >= t->nodes ||
		    !mf_jget_u32(mf_jget(doc, "blocks"), &nb) ||
		    (u64)nb * t->nodes > MF_COLL_CODE_CELLS ||
		    mf_coll_init(s, (u32)mf_coll_by_name(coll->str), m, source,
				 nb)) {
			snprintf(err, errlen, "want \"collective\", \"root\" (a node) and \"blocks\" (1 .. %u / nodes)",
				 (u32)MF_COLL_CODE_CELLS);
			return -1;
		}
	} else if (!mf_jget_u32(mf_jget(doc, "source"), &source) ||
		   source >= t->nodes) {
		snprintf(err, errlen, "no \"source\" node of the fabric");
		return -1;
	} else {
		mf_sched_init(s, m, source);
	}
	path = calloc(t->nodes > nb ? t->nodes : nb, sizeof(*path));
	if (!path) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; !r && i < steps->n; i++) {
		const struct mf_jval *st = &steps->v[i];

		if (st->type != MF_J_ARR || mf_sched_step(s)) {
			snprintf(err, errlen, "step %u: not an array of sends", i);
			r = -1;
		}
		for (j = 0; !r && j < st->n; j++) {
			r = add_send(&st->v[j], t, s, path, why, sizeof(why));
			if (r)
				snprintf(err, errlen, "step %u send %u: %s", i, j,
					 why);
		}
	}
	free(path);
	if (!r && mf_sched_end(s)) {
		snprintf(err, errlen, "out of memory");
		r = -1;
	}
	return r;
}

int mf_sched_read(const char *path, const struct mf_topo *t,
		  struct mf_sched *s, char *err, size_t errlen)
{
	struct mf_jval doc;
	char why[192];
	size_t len;
	char *text;
	int r;

	mf_sched_init(s, 0, 0);
	text = slurp(path, &len, err, errlen);
	if (!text)
		return -1;
	r = mf_jparse(text, len, &doc, why, sizeof(why));
	free(text);
	if (!r)
		r = same_topo(&doc, t, why, sizeof(why));
	if (!r)
		r = build(&doc, t, s, why, sizeof(why));
	mf_jfree(&doc);
	if (r)
		snprintf(err, errlen, "%.80s: %s", path, why);
	return r;
}

int mf_sched_read_from(const char *path, const struct mf_topo *t,
		       const char *from, u32 source, struct mf_sched *s,
		       char *err, size_t errlen)
{
	if (mf_sched_read(path, t, s, err, errlen))
		return -1;
	if (from && source != s->source) {
		snprintf(err, errlen,
			 "--from %.40s: the schedule in %.80s starts at node %u",
			 from, path, s->source);
		return -1;
	}
	return 0;
}
