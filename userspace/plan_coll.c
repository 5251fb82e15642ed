// SPDX-License-Identifier: GPL-2.0
/*
 * plan_coll.c - `meshfabric plan --coll OP`: a collective schedule built
 * by the core (mf_coll_plan: built, then validated by the checker),
 * printed with its lower bounds beside its own figures.
 *
 * JSON (one line):
 *   {"topology":{...},"collective":"allreduce","op":"sum","type":"s64",
 *    "bytes":1048576,"algo":"swing","model":"one-port","root":0,
 *    "nodes":16,"blocks":16,
 *    "summary":{"steps":8,"sends":128,"tcd":...,"max_link_load":1,
 *               "contention":0,"node_bytes":...,"fabric_time_ns":...},
 *    "bounds":{"steps":4,"node_bytes":...,"distance":4,"time_ns":...},
 *    "steps":[[{"src":0,"dst":1,"path":[0,1],"blocks":[..],
 *               "combine":true}],...]}
 * "fabric_time_ns" and "time_ns" only with a link model (--link-rate,
 * --link-delay); "steps" only with --steps.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "coll.h"
#include "json.h"
#include "parse.h"
#include "plan_coll.h"

/* BYTES with an optional unit: B, k/K/KB (10^3), KiB, M/MB, MiB, G/GB, GiB. */
int mf_parse_bytes(const char *s, u64 max, u64 *out, char *err, size_t errlen)
{
	static const struct { const char *u; u64 m; } units[] = {
		{ "", 1 }, { "B", 1 }, { "k", 1000 }, { "K", 1000 },
		{ "KB", 1000 }, { "KiB", 1024 }, { "M", 1000000 },
		{ "MB", 1000000 }, { "MiB", 1 << 20 }, { "G", 1000000000 },
		{ "GB", 1000000000 }, { "GiB", 1 << 30 },
	};
	unsigned long long v = 0;
	u32 i;
	int n = 0;

	if (sscanf(s, "%llu%n", &v, &n) != 1 || s[0] == '-' || s[0] == '+')
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s + n, units[i].u))
			continue;
		if (v > max / units[i].m || v * units[i].m > max)
			goto bad;
		*out = v * units[i].m;
		return 0;
	}
bad:
	return mf_err(err, errlen, "'%.40s': want BYTES up to %llu (units B, K, KiB, M, MiB, G, GiB)",
		      s, (unsigned long long)max);
}

static void steps_json(struct mf_json *j, const struct mf_sched *s)
{
	u32 i, k, h, n, b;
	const u32 *ids;

	mf_json_key(j, "steps");
	mf_json_arr(j);
	for (i = 0; i < s->nsteps; i++) {
		mf_json_arr(j);
		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			const struct mf_send *x = &s->send[k];

			ids = mf_send_blocks(s, k, &n);
			mf_json_obj(j);
			mf_json_key(j, "src");
			mf_json_u64(j, x->src);
			mf_json_key(j, "dst");
			mf_json_u64(j, x->dst);
			mf_json_key(j, "path");
			mf_json_arr(j);
			for (h = 0; h <= x->hops; h++)
				mf_json_u64(j, s->path[x->path + h]);
			mf_json_close(j);
			mf_json_key(j, "blocks");
			mf_json_arr(j);
			for (b = 0; b < n; b++)
				mf_json_u64(j, ids[b] & ~MF_BLK_COMBINE);
			mf_json_close(j);
			mf_json_key(j, "combine");
			mf_json_bool(j, n && ids[0] & MF_BLK_COMBINE);
			mf_json_close(j);
		}
		mf_json_close(j);
	}
	mf_json_close(j);
}

/* "0-3,5,7": the block list of a send, runs joined. */
static void blocks_text(FILE *f, const u32 *ids, u32 n)
{
	u32 i = 0, a, b;

	while (i < n) {
		a = b = ids[i] & ~MF_BLK_COMBINE;
		while (i + 1 < n && (ids[i + 1] & ~MF_BLK_COMBINE) == b + 1) {
			b++;
			i++;
		}
		i++;
		if (a == b)
			fprintf(f, "%s%u", i > 1 ? "," : "", a);
		else
			fprintf(f, "%s%u-%u", i > b - a + 1 ? "," : "", a, b);
	}
}

static void steps_text(FILE *f, const struct mf_sched *s, const u64 *step_ns)
{
	u32 i, k, h, n;
	const u32 *ids;

	for (i = 0; i < s->nsteps; i++) {
		fprintf(f, "step %u: %u send%s", i + 1, s->step[i + 1] - s->step[i],
			s->step[i + 1] - s->step[i] == 1 ? "" : "s");
		if (step_ns)
			fprintf(f, ", done at %llu ns",
				(unsigned long long)step_ns[i]);
		fprintf(f, "\n");
		for (k = s->step[i]; k < s->step[i + 1]; k++) {
			const struct mf_send *x = &s->send[k];

			ids = mf_send_blocks(s, k, &n);
			fprintf(f, "  %u -> %u %s block%s ", x->src, x->dst,
				n && ids[0] & MF_BLK_COMBINE ? "combine" : "copy",
				n == 1 ? "" : "s");
			blocks_text(f, ids, n);
			fprintf(f, " (%u hop%s:", x->hops, x->hops == 1 ? "" : "s");
			for (h = 0; h <= x->hops; h++)
				fprintf(f, " %u", s->path[x->path + h]);
			fprintf(f, ")\n");
		}
	}
}

/* The time bound: the distance's delays plus the bytes some node must
 * move through all its ports at the link rate (0 if unlimited).
 */
static u64 time_bound(const struct mf_topo *t, const struct mf_coll_bounds *b,
		      const struct mf_link_model *lm)
{
	u32 ports = t->nports;

	return b->distance * lm->delay_ns +
	       (lm->rate ? mf_ser_ns(b->node_bytes, lm->rate * ports) : 0);
}

int mf_plan_coll(FILE *f, const struct mf_plan_coll_args *a)
{
	const struct mf_topo *t = a->t;
	struct mf_coll_req rq = { .coll = a->coll, .algo = a->algo,
				  .root = a->root, .bcast = a->bcast,
				  .model = a->model, .bytes = a->bytes,
				  .esize = mf_rtype_size(a->type) };
	/* the frames the kernel sends (COLLECTIVE): Ethernet header and
	 * struct meshfabric_coll_hdr before each send's payload
	 */
	struct mf_timing tm = { .bytes = MESHFABRIC_COLL_FRAME_HDR,
				.ctx = a->lm };
	struct mf_timeline tl = { 0 };
	struct mf_coll_result res;
	struct mf_coll_bounds lb;
	struct mf_sched s;
	u64 *blk = NULL, lbt = 0;
	int r, rc = MF_EXIT_FAIL;

	rq.tm = a->timed ? &tm : NULL;
	r = mf_coll_plan(t, &rq, &s, &res);
	if (r == -EOPNOTSUPP) {
		rc = mf_fail("%s", res.why);
		goto out;
	}
	if (r == -EPROTO) {
		rc = mf_fail("%s produced an invalid schedule: %s",
			     mf_calgo_name(res.algo), res.why);
		goto out;
	}
	if (r) {
		rc = mf_fail("%s %s: %s", mf_calgo_name(a->algo),
			     mf_coll_name(a->coll), mf_strerror(r));
		goto out;
	}
	mf_coll_bounds(t, a->coll, s.model, s.source, a->bytes, &lb);
	if (a->timed) {
		blk = calloc(mf_sched_nblocks(&s), sizeof(u64));
		r = blk ? mf_timeline_alloc(&tl, t, &s) : -ENOMEM;
		if (!r) {
			mf_coll_block_bytes(&s, a->bytes, rq.esize, blk);
			tm.blk_bytes = blk;
			r = mf_sched_time(t, &s, &tm, NULL, &tl);
		}
		if (r) {
			rc = mf_fail("fabric time: %s", mf_strerror(r));
			goto out;
		}
		lbt = time_bound(t, &lb, a->lm);
	}
	if (a->json) {
		struct mf_json j;

		mf_json_init(&j, f);
		mf_json_obj(&j);
		mf_json_topology(&j, t);
		mf_json_key(&j, "collective");
		mf_json_str(&j, mf_coll_name(a->coll));
		mf_json_key(&j, "op");
		mf_json_str(&j, mf_rop_name(a->op));
		mf_json_key(&j, "type");
		mf_json_str(&j, mf_rtype_name(a->type));
		mf_json_key(&j, "bytes");
		mf_json_u64(&j, a->bytes);
		mf_json_key(&j, "algo");
		mf_json_str(&j, mf_calgo_name(res.algo));
		mf_json_key(&j, "model");
		mf_json_str(&j, s.model == MESHFABRIC_MODEL_ALL_PORT ?
			    "all-port" : "one-port");
		mf_json_key(&j, "root");
		mf_json_u64(&j, s.source);
		mf_json_key(&j, "nodes");
		mf_json_u64(&j, t->nodes);
		mf_json_key(&j, "blocks");
		mf_json_u64(&j, mf_sched_nblocks(&s));
		mf_json_key(&j, "summary");
		mf_json_obj(&j);
		mf_json_key(&j, "steps");
		mf_json_u64(&j, res.st.steps);
		mf_json_key(&j, "sends");
		mf_json_u64(&j, res.st.sends);
		mf_json_key(&j, "tcd");
		mf_json_u64(&j, res.st.tcd);
		mf_json_key(&j, "max_link_load");
		mf_json_u64(&j, res.st.max_link_load);
		mf_json_key(&j, "contention");
		mf_json_u64(&j, res.st.contention);
		mf_json_key(&j, "node_bytes");
		mf_json_u64(&j, res.node_bytes);
		if (a->timed) {
			mf_json_key(&j, "fabric_time_ns");
			mf_json_u64(&j, tl.total_ns);
		}
		mf_json_close(&j);
		mf_json_key(&j, "bounds");
		mf_json_obj(&j);
		mf_json_key(&j, "steps");
		mf_json_u64(&j, lb.steps);
		mf_json_key(&j, "node_bytes");
		mf_json_u64(&j, lb.node_bytes);
		mf_json_key(&j, "distance");
		mf_json_u64(&j, lb.distance);
		if (a->timed) {
			mf_json_key(&j, "time_ns");
			mf_json_u64(&j, lbt);
		}
		mf_json_close(&j);
		if (a->steps)
			steps_json(&j, &s);
		mf_json_close(&j);
		mf_json_end(&j);
	} else {
		fprintf(f, "collective     %s", mf_coll_name(a->coll));
		if (a->coll <= MF_COLL_REDUCE_SCATTER && a->coll)
			fprintf(f, " (%s, %s)", mf_rop_name(a->op),
				mf_rtype_name(a->type));
		fprintf(f, ", %llu bytes, %u nodes\n",
			(unsigned long long)a->bytes, t->nodes);
		fprintf(f, "algo           %s (%s), %u block%s, root %u\n",
			mf_calgo_name(res.algo),
			s.model == MESHFABRIC_MODEL_ALL_PORT ? "all-port" :
			"one-port", mf_sched_nblocks(&s),
			mf_sched_nblocks(&s) == 1 ? "" : "s", s.source);
		fprintf(f, "               %-16s lower bound\n", "this schedule");
		fprintf(f, "steps          %-16u %u (%s)\n", res.st.steps,
			lb.steps, s.model == MESHFABRIC_MODEL_ALL_PORT ?
			"counting, by links" : "ceil(log2 N)");
		fprintf(f, "bytes/node     %-16llu %llu\n",
			(unsigned long long)res.node_bytes,
			(unsigned long long)lb.node_bytes);
		fprintf(f, "distance       %-16s %u hops\n", "", lb.distance);
		if (a->timed)
			fprintf(f, "fabric time    %-16llu %llu ns\n",
				(unsigned long long)tl.total_ns,
				(unsigned long long)lbt);
		fprintf(f, "sends          %u\ntcd            %llu\n"
			"max link load  %u\ncontention     %llu\n",
			res.st.sends, (unsigned long long)res.st.tcd,
			res.st.max_link_load,
			(unsigned long long)res.st.contention);
		if (a->steps)
			steps_text(f, &s, a->timed ? tl.step_ns : NULL);
	}
	rc = MF_EXIT_OK;
out:
	free(blk);
	mf_timeline_free(&tl);
	mf_sched_free(&s);
	return rc;
}
