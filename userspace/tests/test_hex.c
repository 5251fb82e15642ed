// SPDX-License-Identifier: GPL-2.0
/*
 * test_hex.c - the wrapped hexagonal mesh H_n of 003: addressing (node
 * count, six distinct neighbours, diameter), algorithm A1 (distance and
 * paths against BFS over mf_topo_neighbor, homogeneity, the paper's worked
 * example) and algorithm A2 (valid one-port broadcast from every source,
 * step count against Theorem 3 and the one-port doubling bound).
 */
#include <stdlib.h>
#include <string.h>

#include "mf_test.h"
#include "../../kunit/mf_bfs.h"
#include "algo.h"
#include "check.h"
#include "route.h"
#include "topo.h"

#define HEX_NMIN 2
#define HEX_NMAX 10

static int hex_init(struct mf_topo *t, u32 n)
{
	return mf_topo_init(t, MESHFABRIC_KIND_HEX, 1, &n);
}

/* The sum over steps of the most sends on one directed link in the step,
 * of algorithm id's schedule from node 0 (its own load table).
 */
static u64 serialised_steps(const struct mf_topo *t, u32 id)
{
	u32 *load = calloc((size_t)t->nodes * t->nodes, sizeof(u32));
	struct mf_plan_result res;
	const struct mf_send *sd;
	u32 i, k, h, n, most, a, b;
	struct mf_sched s;
	u64 cost = 0;

	EXPECT_EQ(mf_plan_checked(t, id, 0, 0, MESHFABRIC_ROUTE_DEFAULT, &s,
				  &res), 0);
	for (i = 0; i < s.nsteps; i++) {
		sd = mf_sched_sends(&s, i, &n);
		most = 0;
		memset(load, 0, (size_t)t->nodes * t->nodes * sizeof(u32));
		for (k = 0; k < n; k++)
			for (h = 0; h < sd[k].hops; h++) {
				a = s.path[sd[k].path + h];
				b = s.path[sd[k].path + h + 1];
				if (++load[a * t->nodes + b] > most)
					most = load[a * t->nodes + b];
			}
		cost += most;
	}
	mf_sched_free(&s);
	free(load);
	return cost;
}

/* BFS distances from a over mf_topo_neighbor: independent of A1. */
static void test_node_count_and_neighbours(void)
{
	u32 n, a, i, j;

	for (n = HEX_NMIN; n <= HEX_NMAX; n++) {
		struct mf_topo t;
		u64 p = 3 * n * n - 3 * n + 1;	/* 003 Lemma 1 */

		EXPECT_EQ(hex_init(&t, n), 0);
		EXPECT_EQ(t.nodes, p);
		EXPECT_EQ(t.nports, 6);
		for (a = 0; a < t.nodes; a++) {
			s64 nb[6];

			for (i = 0; i < 6; i++) {
				nb[i] = mf_topo_neighbor(&t, a, i);
				EXPECT(nb[i] >= 0 && nb[i] < t.nodes && nb[i] != a);
				/* the paper's offsets: +-1, +-(3n-1), +-(3n-2) */
				if (nb[i] >= 0) {
					u64 off = ((u64)nb[i] + p - a) % p;
					u64 want[6] = { 1, p - 1, 3 * n - 1,
							p - (3 * n - 1), 3 * n - 2,
							p - (3 * n - 2) };

					EXPECT_EQ(off, want[i]);
					EXPECT_EQ(mf_topo_port(&t, a, (u32)nb[i]), i);
					/* links are symmetric: port i ^ 1 leads back */
					EXPECT_EQ(mf_topo_neighbor(&t, (u32)nb[i], i ^ 1), a);
				}
				for (j = 0; j < i; j++)
					EXPECT(nb[i] != nb[j]);
			}
		}
	}
	/* n = 2: p = 7 and every node is adjacent to all six others (K_7) */
	{
		struct mf_topo t;
		u32 b;

		EXPECT_EQ(hex_init(&t, 2), 0);
		EXPECT_EQ(t.nodes, 7);
		for (a = 0; a < 7; a++)
			for (b = 0; b < 7; b++)
				if (a != b)
					EXPECT(mf_topo_port(&t, a, b) >= 0);
	}
}

/*
 * Distance, diameter and A1 paths against BFS from every node, and the
 * distance distribution of 003 Lemma 4 (6d nodes at distance d).
 */
static void test_a1_is_bfs(void)
{
	u32 n, a, b, i;

	for (n = HEX_NMIN; n <= HEX_NMAX; n++) {
		struct mf_topo t;
		u32 *d, *q, *path, ecc = 0, *ring;

		EXPECT_EQ(hex_init(&t, n), 0);
		d = malloc(t.nodes * sizeof(u32));
		q = malloc(t.nodes * sizeof(u32));
		path = malloc((t.nodes + 1) * sizeof(u32));
		ring = calloc(t.nodes, sizeof(u32));
		for (a = 0; a < t.nodes; a++) {
			mf_bfs_q(&t, a, d, q);
			for (b = 0; b < t.nodes; b++) {
				s32 mx, my, mz;
				int len;

				EXPECT(d[b] != U32_MAX);
				if (d[b] > ecc)
					ecc = d[b];
				if (a == 0)
					ring[d[b]]++;
				EXPECT_EQ(mf_hex_distance(n, a, b), d[b]);
				EXPECT_EQ(mf_topo_distance(&t, a, b), d[b]);
				mf_hex_route_vector(n, a, b, &mx, &my, &mz);
				/* the vector leads from a to b: +x = +1,
				 * +y = -(3n-2), +z = -(3n-1) (003 R functions)
				 */
				{
					s64 p = t.nodes, off;

					off = (s64)mx - (s64)my * (3 * n - 2) -
					      (s64)mz * (3 * n - 1);
					off = ((off % p) + p) % p;
					EXPECT_EQ(((s64)a + off) % p, b);
				}
				len = mf_route_path(&t, MESHFABRIC_ROUTE_A1, a, b,
						    path, t.nodes + 1);
				EXPECT_EQ(len, d[b]);
				if (len < 0)
					continue;
				EXPECT_EQ(path[0], a);
				EXPECT_EQ(path[len], b);
				for (i = 0; i < (u32)len; i++)
					EXPECT(mf_topo_port(&t, path[i], path[i + 1]) >= 0);
				if (a == b)
					EXPECT_EQ(mf_route_next(&t, MESHFABRIC_ROUTE_A1, a, b),
						  -ENOENT);
			}
		}
		/* 003 Lemma 4: diameter n - 1, and every ring d <= n - 1 has
		 * 6d nodes (td = sum 6 d^2)
		 */
		EXPECT_EQ(ecc, n - 1);
		EXPECT_EQ(mf_topo_diameter(&t), n - 1);
		for (i = 1; i < n; i++)
			EXPECT_EQ(ring[i], 6 * i);
		/* DEFAULT resolves to A1 on hex */
		EXPECT_EQ(mf_route_resolve(&t, MESHFABRIC_ROUTE_DEFAULT),
			  MESHFABRIC_ROUTE_A1);
		free(d);
		free(q);
		free(path);
		free(ring);
	}
}

/* Homogeneity: the next hop from cur to dst depends on dst - cur only. */
static void test_a1_homogeneous(void)
{
	u32 n, a, off;

	for (n = HEX_NMIN; n <= HEX_NMAX; n++) {
		struct mf_topo t;

		EXPECT_EQ(hex_init(&t, n), 0);
		for (off = 1; off < t.nodes; off++) {
			int p0 = mf_route_next(&t, MESHFABRIC_ROUTE_A1, 0, off);

			EXPECT(p0 >= 0 && p0 < 6);
			for (a = 1; a < t.nodes; a++)
				EXPECT_EQ(mf_route_next(&t, MESHFABRIC_ROUTE_A1, a,
							(a + off) % t.nodes), p0);
		}
	}
}

/* 003 section IV-B: n = 4, node 11 to node 5, k = 31, r = 2, t = 7. */
static void test_paper_example(void)
{
	s32 mx, my, mz;

	mf_hex_route_vector(4, 11, 5, &mx, &my, &mz);
	EXPECT_EQ(mx, 0);
	EXPECT_EQ(my, -2);
	EXPECT_EQ(mz, -1);
	/* and the route is isomorphic to the one from 0 to 31 */
	mf_hex_route_vector(4, 0, 31, &mx, &my, &mz);
	EXPECT_EQ(mx, 0);
	EXPECT_EQ(my, -2);
	EXPECT_EQ(mz, -1);
	EXPECT_EQ(mf_hex_distance(4, 11, 5), 3);
}

/* ceil(log2 p): one-port, the informed set at most doubles per step. */
static u32 doubling_bound(u32 p)
{
	u32 k = 0;

	while (((u64)1 << k) < p)
		k++;
	return k;
}

/*
 * A2 from every source: mf_check passes (every node informed exactly once,
 * one-port), n + 2 steps for n >= 3 (003 Theorem 3) and 3 for n = 2, which
 * equals the doubling bound ceil(log2 7) = 3 (H_2 is K_7); steps >= the
 * doubling bound always; every send is one hop, so TCD = p - 1 and no link
 * is loaded twice.
 */
static void test_a2_broadcast(void)
{
	u32 n, src;
	char err[160];

	for (n = HEX_NMIN; n <= 8; n++) {
		struct mf_topo t;

		EXPECT_EQ(hex_init(&t, n), 0);
		for (src = 0; src < t.nodes; src++) {
			const struct mf_algo *used = NULL;
			struct mf_sched s;
			struct mf_stats st;
			int rc;

			rc = mf_plan(&t, MESHFABRIC_ALGO_HEX, src,
				     MESHFABRIC_ROUTE_DEFAULT, &s, &used);
			EXPECT_EQ(rc, 0);
			if (!rc) {
				err[0] = 0;
				rc = mf_check(&t, &s, &st, err, sizeof(err));
				EXPECT_MSG(rc == 0, "n=%u src=%u: %s", n, src, err);
				EXPECT_EQ(s.source, src);
				EXPECT_EQ(s.model, MESHFABRIC_MODEL_ONE_PORT);
			}
			if (!rc) {
				EXPECT_EQ(st.steps, n >= 3 ? n + 2 : 3);
				EXPECT(st.steps >= doubling_bound(t.nodes));
				EXPECT(st.steps >= mf_topo_diameter(&t));
				EXPECT_EQ(st.sends, t.nodes - 1);
				EXPECT_EQ(st.tcd, t.nodes - 1);
				EXPECT_EQ(st.max_link_load, 1);
				EXPECT_EQ(st.contention, 0);
			}
			EXPECT(used == &mf_algo_hex);
			mf_sched_free(&s);
		}
	}
	/* n = 3, 4: n + 2 is exactly the doubling bound (Theorem 3's proof) */
	EXPECT_EQ(doubling_bound(19), 5);
	EXPECT_EQ(doubling_bound(37), 6);
	EXPECT_EQ(doubling_bound(7), 3);
}

/* The table entry, supports() and auto on H_n. */
static void test_a2_registration(void)
{
	const struct mf_algo *a = mf_algo_by_name("hex");
	struct mf_topo t, m;
	u32 dims[2] = { 4, 4 }, n;

	EXPECT(a == &mf_algo_hex);
	EXPECT(mf_algo_by_id(MESHFABRIC_ALGO_HEX) == &mf_algo_hex);
	EXPECT_EQ(hex_init(&t, 5), 0);
	EXPECT_EQ(mf_algo_hex.supports(&t), 0);
	EXPECT_EQ(mf_topo_init(&m, MESHFABRIC_KIND_TORUS, 2, dims), 0);
	EXPECT(mf_algo_hex.supports(&m) != 0);
	EXPECT_EQ(mf_topo_init(&m, MESHFABRIC_KIND_MESH, 2, dims), 0);
	EXPECT(mf_algo_hex.supports(&m) != 0);
	/*
	 * auto keeps the earliest completion with unlimited links: steps
	 * with their contention counted as serialisation, the sum over
	 * steps of the most sends on one directed link (issue 13), computed
	 * here from the schedules' paths with a link-load table of its own.
	 * A2 is contention-free in n + 2 steps; binomial takes ceil(log2 p)
	 * steps but loads links 2-3 times in some from n = 5 on, so A2 wins
	 * wherever its cost is not above binomial's (then on contention).
	 */
	for (n = 2; n <= 8; n++) {
		u64 ca, cb;

		EXPECT_EQ(hex_init(&t, n), 0);
		ca = serialised_steps(&t, MESHFABRIC_ALGO_HEX);
		cb = serialised_steps(&t, MESHFABRIC_ALGO_BINOMIAL);
		printf("# H_%u: A2 costs %llu, binomial %llu\n", n,
		       (unsigned long long)ca, (unsigned long long)cb);
		EXPECT_MSG(mf_algo_auto(&t, MESHFABRIC_MODEL_ONE_PORT, 0) ==
			   (ca <= cb ? &mf_algo_hex : &mf_algo_binomial),
			   "auto on H_%u", n);
	}
}

int main(void)
{
	RUN(test_node_count_and_neighbours);
	RUN(test_a1_is_bfs);
	RUN(test_a1_homogeneous);
	RUN(test_paper_example);
	RUN(test_a2_broadcast);
	RUN(test_a2_registration);
	return mf_test_done();
}
