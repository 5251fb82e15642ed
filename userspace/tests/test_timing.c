// SPDX-License-Identifier: GPL-2.0
/*
 * test_timing.c - a broadcast schedule in fabric time (core/timing.c).
 *
 * Expected values come from the test itself:
 *  - on contention-free schedules, the closed forms of the link model:
 *    synchronous steps, a send of h hops takes h * (ser + delay)
 *    (store-and-forward) or h * delay + ser (cut-through), a step the
 *    longest of its sends, the broadcast the sum of its steps;
 *  - on any schedule, an independent simulator written here: no heap, it
 *    scans every pending hop for the earliest (time, send, hop) each round
 *    (O(TCD * sends)), with the same FIFO rule on each link;
 *  - asynchronous is never later than synchronous on contention-free
 *    schedules, per node and in all.
 */
#include <stdlib.h>
#include <string.h>

#include "mf_test.h"
#include "algo.h"
#include "check.h"
#include "timing.h"

static u64 ser(u64 bytes, u64 rate)
{
	/* ceil(bytes * 8 * 1e9 / rate), computed without the core */
	return rate ? (bytes * 8000000000ULL + rate - 1) / rate : 0;
}

/* The contention-free closed form, synchronous. */
static u64 closed_form(const struct mf_sched *s, u64 sr, u64 d, bool ct,
		       u64 *step_end)
{
	u64 total = 0, worst, x;
	const struct mf_send *sd;
	u32 i, k, n;

	for (i = 0; i < s->nsteps; i++) {
		sd = mf_sched_sends(s, i, &n);
		worst = 0;
		for (k = 0; k < n; k++) {
			x = ct ? sd[k].hops * d + sr : sd[k].hops * (sr + d);
			if (x > worst)
				worst = x;
		}
		total += worst;
		step_end[i] = total;
	}
	return total;
}

/* The independent simulator, synchronous steps: total fabric time,
 * arrivals in arrive[].  Each step: every send pending at the step's
 * start; each round takes the earliest (time, send) pending hop.
 */
static u64 scan_sim(const struct mf_topo *t, const struct mf_sched *s,
		    u64 sr, u64 d, bool ct, u64 *arrive, u64 *step_end)
{
	u64 *ready = calloc(s->nsends + 1, sizeof(u64)), start, at = 0;
	u64 *free_at = calloc((size_t)t->nodes * t->nports, sizeof(u64));
	u32 *hop = calloc(s->nsends + 1, sizeof(u32));
	bool *live = calloc(s->nsends + 1, sizeof(bool));
	u32 i, j, best;

	for (i = 0; i < t->nodes; i++)
		arrive[i] = UINT64_MAX;
	arrive[s->source] = 0;
	for (i = 0; i < s->nsteps; i++) {
		u64 end = at;

		for (j = s->step[i]; j < s->step[i + 1]; j++) {
			live[j] = true;
			ready[j] = at;
		}
		for (;;) {
			best = s->nsends;
			for (j = s->step[i]; j < s->step[i + 1]; j++)
				if (live[j] && (best == s->nsends ||
						ready[j] < ready[best]))
					best = j;
			if (best == s->nsends)
				break;
			const struct mf_send *sd = &s->send[best];
			const u32 *p = &s->path[sd->path];
			int port = mf_topo_port(t, p[hop[best]],
						p[hop[best] + 1]);
			u64 l = mf_topo_link(t, p[hop[best]], port);

			start = ready[best] > free_at[l] ? ready[best] :
							   free_at[l];
			free_at[l] = start + sr;
			if (++hop[best] < sd->hops) {
				ready[best] = start + d + (ct ? 0 : sr);
				continue;
			}
			live[best] = false;
			arrive[sd->dst] = start + sr + d;
			if (arrive[sd->dst] > end)
				end = arrive[sd->dst];
		}
		step_end[i] = end;
		at = end;
	}
	free(ready);
	free(free_at);
	free(hop);
	free(live);
	return at;
}

struct shape {
	u32 kind, ndims, dims[3];
};

static const struct shape shapes[] = {
	{ MESHFABRIC_KIND_MESH, 2, { 4, 4 } },
	{ MESHFABRIC_KIND_MESH, 2, { 5, 3 } },
	{ MESHFABRIC_KIND_MESH, 2, { 5, 5 } },
	{ MESHFABRIC_KIND_TORUS, 2, { 5, 5 } },
	{ MESHFABRIC_KIND_TORUS, 2, { 4, 4 } },
	{ MESHFABRIC_KIND_MESH, 3, { 4, 2, 3 } },
	{ MESHFABRIC_KIND_TORUS, 3, { 3, 3, 3 } },
	{ MESHFABRIC_KIND_HEX, 1, { 3 } },
	{ MESHFABRIC_KIND_MESH, 1, { 7 } },
};

/* The next (shape, algorithm) pair, from shapes[*si] and mf_algos[*a] on,
 * where the algorithm covers the shape: t is set; false after the last.
 */
static bool next_case(u32 *si, u32 *a, struct mf_topo *t)
{
	for (; *si < sizeof(shapes) / sizeof(shapes[0]); (*si)++, *a = 0) {
		const struct shape *sh = &shapes[*si];

		if (mf_topo_init(t, sh->kind, sh->ndims, sh->dims))
			continue;
		for (; mf_algos[*a]; (*a)++)
			if (!mf_algos[*a]->supports(t))
				return true;
	}
	return false;
}

struct model {
	u64 rate, delay, bytes;
};

static const struct model models[] = {
	{ 100000000, 1000000, 78 },	/* 100 Mbit/s, 1 ms, 64 B */
	{ 1000000, 0, 1414 },		/* 1 Mbit/s, no delay, 1400 B */
	{ 0, 5000, 100 },		/* unlimited rate, 5 us */
	{ 999999937, 333, 65550 },	/* odd rate: rounding up */
};

/* Every algorithm x every source x shape x model x switching: the core
 * against the scanning simulator, and against the closed form where the
 * schedule is contention-free.
 */
static void test_sync_matches_models(void)
{
	u32 si, a, src, mi, sw, i, checked = 0, closed = 0, contended = 0;
	struct mf_topo t;

	for (si = 0, a = 0; next_case(&si, &a, &t); a++) {
		for (src = 0; src < t.nodes; src += 3) {
			struct mf_plan_result res;
			struct mf_sched s;

			if (mf_plan_checked(&t, mf_algos[a]->id, 0, src,
					    MESHFABRIC_ROUTE_DEFAULT,
					    &s, &res)) {
				mf_sched_free(&s);
				continue;
			}
			for (mi = 0; mi < 4; mi++)
			for (sw = 0; sw < 2; sw++) {
				const struct model *m = &models[mi];
				struct mf_link_model lm = {
					m->rate, m->delay };
				struct mf_timing tm = {
					.switching = sw,
					.bytes = m->bytes, .ctx = &lm };
				struct mf_timeline tl;
				u64 sr = ser(m->bytes, m->rate);
				u64 *arr = calloc(t.nodes, 8);
				u64 *se = calloc(s.nsteps + 1, 8);
				u64 want;

				EXPECT(!mf_timeline_alloc(&tl, &t, &s));
				EXPECT(!mf_sched_time(&t, &s, &tm, NULL,
						      &tl));
				want = scan_sim(&t, &s, sr, m->delay,
						sw, arr, se);
				EXPECT_MSG(tl.total_ns == want,
					   "%s src %u model %u sw %u: %llu vs %llu",
					   mf_algos[a]->name, src, mi, sw,
					   (unsigned long long)tl.total_ns,
					   (unsigned long long)want);
				for (i = 0; i < t.nodes; i++)
					EXPECT(tl.arrive[i] == arr[i]);
				for (i = 0; i < s.nsteps; i++)
					EXPECT(tl.step_ns[i] == se[i]);
				if (res.stats.max_link_load <= 1) {
					EXPECT(closed_form(&s, sr,
						m->delay, sw, se) ==
					       tl.total_ns);
					closed++;
				} else {
					contended++;
				}
				checked++;
				mf_timeline_free(&tl);
				free(arr);
				free(se);
			}
			mf_sched_free(&s);
		}
	}
	printf("# %u timelines checked, %u against the closed form, %u with contention\n",
	       checked, closed, contended);
	EXPECT(checked > 500);
	EXPECT(closed > 300);
	EXPECT(contended > 20);
}

/* Asynchronous steps are never later than synchronous ones on
 * contention-free schedules: per node and in all.
 */
static void test_async_not_later(void)
{
	u32 si, a, src, i, earlier = 0, n = 0;
	struct mf_topo t;

	for (si = 0, a = 0; next_case(&si, &a, &t); a++) {
		for (src = 0; src < t.nodes; src++) {
			struct mf_link_model lm = { 10000000, 20000 };
			struct mf_timing sy = { .bytes = 1000,
						.ctx = &lm };
			struct mf_timing as = sy;
			struct mf_timeline a1, a2;
			struct mf_plan_result res;
			struct mf_sched s;

			if (mf_plan_checked(&t, mf_algos[a]->id, 0, src,
					    MESHFABRIC_ROUTE_DEFAULT,
					    &s, &res) ||
			    res.stats.max_link_load > 1) {
				mf_sched_free(&s);
				continue;
			}
			as.async = true;
			EXPECT(!mf_timeline_alloc(&a1, &t, &s));
			EXPECT(!mf_timeline_alloc(&a2, &t, &s));
			EXPECT(!mf_sched_time(&t, &s, &sy, NULL, &a1));
			EXPECT(!mf_sched_time(&t, &s, &as, NULL, &a2));
			for (i = 0; i < t.nodes; i++)
				EXPECT(a2.arrive[i] <= a1.arrive[i]);
			EXPECT(a2.total_ns <= a1.total_ns);
			earlier += a2.total_ns < a1.total_ns;
			n++;
			mf_timeline_free(&a1);
			mf_timeline_free(&a2);
			mf_sched_free(&s);
		}
	}
	printf("# %u schedules, async earlier on %u\n", n, earlier);
	EXPECT(n > 100);
	EXPECT(earlier > 0);
}

/* By hand: binomial on a 4-node line from 0 sends 0->2 (2 hops), then
 * 0->1 and 2->3.  ser s, delay d, store-and-forward.  Sync: 2(s+d), then
 * (s+d): 3(s+d).  Async: 0->1 leaves when 0->2 has left its first link
 * (at s) and arrives at 2s + d; 2->3 as in sync.
 */
static void test_async_by_hand(void)
{
	u32 dims[1] = { 4 }, p02[3] = { 0, 1, 2 }, p01[2] = { 0, 1 };
	u32 p23[2] = { 2, 3 };
	struct mf_link_model lm = { 8000000, 1000 };	/* 1 byte/us */
	struct mf_timing tm = { .bytes = 100, .ctx = &lm, .async = true };
	struct mf_timeline tl;
	struct mf_topo t;
	struct mf_sched s;
	u64 sr = 100000, d = 1000;

	EXPECT(!mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, dims));
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 0);
	EXPECT(!mf_sched_step(&s));
	EXPECT(!mf_sched_send(&s, p02, 2));
	EXPECT(!mf_sched_step(&s));
	EXPECT(!mf_sched_send(&s, p01, 1));
	EXPECT(!mf_sched_send(&s, p23, 1));
	EXPECT(!mf_sched_end(&s));
	EXPECT(!mf_timeline_alloc(&tl, &t, &s));
	EXPECT(!mf_sched_time(&t, &s, &tm, NULL, &tl));
	EXPECT_EQ(tl.arrive[2], 2 * (sr + d));
	EXPECT_EQ(tl.arrive[1], 2 * sr + d);
	EXPECT_EQ(tl.arrive[3], 3 * (sr + d));
	EXPECT_EQ(tl.total_ns, 3 * (sr + d));
	tm.async = false;
	EXPECT(!mf_sched_time(&t, &s, &tm, NULL, &tl));
	EXPECT_EQ(tl.arrive[1], 3 * (sr + d));
	EXPECT_EQ(tl.step_ns[0], 2 * (sr + d));
	EXPECT_EQ(tl.step_ns[1], 3 * (sr + d));
	/* cut-through: 2d + s, then d + s */
	tm.switching = MESHFABRIC_SWITCH_CUT_THROUGH;
	EXPECT(!mf_sched_time(&t, &s, &tm, NULL, &tl));
	EXPECT_EQ(tl.step_ns[0], 2 * d + sr);
	EXPECT_EQ(tl.total_ns, 3 * d + 2 * sr);
	mf_timeline_free(&tl);
	mf_sched_free(&s);
}

/* Links already busy (the kernel's case): free[] delays the first hop. */
static void test_busy_links(void)
{
	u32 dims[1] = { 3 }, p[3] = { 0, 1, 2 };
	struct mf_link_model lm = { 8000000, 0 };
	struct mf_timing tm = { .bytes = 10, .ctx = &lm };
	struct mf_timeline tl;
	struct mf_topo t;
	struct mf_sched s;
	u64 free[6] = { 0 };

	EXPECT(!mf_topo_init(&t, MESHFABRIC_KIND_MESH, 1, dims));
	mf_sched_init(&s, MESHFABRIC_MODEL_ONE_PORT, 0);
	EXPECT(!mf_sched_step(&s));
	EXPECT(!mf_sched_send(&s, p, 2));
	EXPECT(!mf_sched_step(&s));
	p[0] = 2;
	p[1] = 1;
	EXPECT(!mf_sched_send(&s, p, 1));
	EXPECT(!mf_sched_end(&s));
	EXPECT(!mf_timeline_alloc(&tl, &t, &s));
	free[mf_topo_link(&t, 1, 0)] = 50000;	/* 1 -> 2 busy for 50 us */
	EXPECT(!mf_sched_time(&t, &s, &tm, free, &tl));
	/* 0->1 at 0..10 us, 1->2 waits until 50, ends 60; then 2->1 */
	EXPECT_EQ(tl.arrive[2], 60000);
	EXPECT_EQ(tl.arrive[1], 70000);
	EXPECT_EQ(free[mf_topo_link(&t, 1, 0)], 60000);
	mf_timeline_free(&tl);
	mf_sched_free(&s);
}

int main(void)
{
	RUN(test_sync_matches_models);
	RUN(test_async_not_later);
	RUN(test_async_by_hand);
	RUN(test_busy_links);
	return mf_test_done();
}
