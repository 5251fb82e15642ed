// SPDX-License-Identifier: GPL-2.0
/*
 * test_papers.c - mf_topo_connectivity (analyze.c), which `meshfabric
 * papers` uses for 003's "6-connected and 6-edge connected" and Table I,
 * against exhaustive removal: the connectivity is the size of the least
 * set of nodes (links) whose removal disconnects the rest, found here by
 * trying every set of that size and one less with a BFS, on small meshes,
 * tori and wrapped hexagonal meshes (links: up to 30); and against the
 * closed forms (a
 * torus with every size >= 3 is 2d-connected, a mesh min-degree d, a ring
 * 2, H_2 = K_7 has 6, a path 1).  And 004's rho (Lemma 2, Theorem 1),
 * counted with mf_route_next, against a model of dimension order.
 */
#include "mf_test.h"
#include "route.h"

struct graph {
	u32 n, deg[64], adj[64][16];	/* adj: neighbour node per link end */
};

static void graph_of(const struct mf_topo *t, struct graph *g)
{
	u32 v, port;

	memset(g, 0, sizeof(*g));
	g->n = t->nodes;
	for (v = 0; v < t->nodes; v++)
		for (port = 0; port < t->nports; port++)
			if (mf_topo_is_link(t, v, port) &&
			    mf_topo_neighbor(t, v, port) != (s64)v) {
				/* w lists v from its own port */
				g->adj[v][g->deg[v]++] =
					(u32)mf_topo_neighbor(t, v, port);
			}
}

/* Is g connected without the nodes in gone (bit mask) and the links in
 * cut (bit mask over link ends, ordered as in adj)?
 */
static bool connected(const struct graph *g, u64 gone, const u8 cut[64][16])
{
	u32 q[64], h = 0, tl = 0, v, i, seen = 0, alive = 0;
	u64 vis = 0;

	for (v = 0; v < g->n; v++)
		alive += !(gone >> v & 1);
	for (v = 0; v < g->n && (gone >> v & 1); v++)
		;
	if (alive <= 1)
		return true;
	q[tl++] = v;
	vis |= 1ULL << v;
	while (h < tl) {
		v = q[h++];
		seen++;
		for (i = 0; i < g->deg[v]; i++) {
			u32 w = g->adj[v][i];

			if ((gone >> w & 1) || (vis >> w & 1) || (cut && cut[v][i]))
				continue;
			vis |= 1ULL << w;
			q[tl++] = w;
		}
	}
	return seen == alive;
}

/* Does some set of k nodes disconnect g?  Recursive choice from `from`. */
static bool node_cut(const struct graph *g, u32 k, u32 from, u64 gone)
{
	u32 v;

	if (!k)
		return !connected(g, gone, NULL);
	for (v = from; v < g->n; v++)
		if (node_cut(g, k - 1, v + 1, gone | 1ULL << v))
			return true;
	return false;
}

/* Does some set of k links disconnect g?  Links as (v, i) with v < w. */
static bool link_cut(const struct graph *g, u32 k, u32 from, u8 cut[64][16])
{
	u32 e, v, i, j;
	bool r;

	if (!k)
		return !connected(g, 0, (const u8 (*)[16])cut);
	for (e = from; e < g->n * 16; e++) {
		v = e / 16;
		i = e % 16;
		if (i >= g->deg[v] || g->adj[v][i] < v)
			continue;
		/* cut both ends of this link end pair (the first matching w end) */
		for (j = 0; j < g->deg[g->adj[v][i]]; j++)
			if (g->adj[g->adj[v][i]][j] == v &&
			    !cut[g->adj[v][i]][j])
				break;
		cut[v][i] = 1;
		cut[g->adj[v][i]][j] = 1;
		r = link_cut(g, k - 1, e + 1, cut);
		cut[v][i] = 0;
		cut[g->adj[v][i]][j] = 0;
		if (r)
			return true;
	}
	return false;
}

static void check(u32 kind, u32 d, const u32 *dims, u32 want_v, u32 want_e)
{
	struct mf_topo t;
	struct graph g;
	u8 cut[64][16];
	u32 kv = 0, ke = 0;

	EXPECT_EQ(mf_topo_init(&t, kind, d, dims), 0);
	EXPECT(t.nodes <= 64);
	EXPECT_EQ(mf_topo_connectivity(&t, &kv, &ke), 0);
	EXPECT_EQ(kv, want_v);
	EXPECT_EQ(ke, want_e);
	graph_of(&t, &g);
	memset(cut, 0, sizeof(cut));
	/* exhaustive: nothing smaller disconnects, and a set this size does
	 * (a complete graph is never disconnected by removing nodes)
	 */
	if (kv < t.nodes - 1) {
		EXPECT(!node_cut(&g, kv - 1, 0, 0));
		EXPECT(node_cut(&g, kv, 0, 0));
	} else {
		EXPECT(!node_cut(&g, t.nodes - 2, 0, 0));
	}
	/* links: exhaustive while the sets are few (up to 30 links); above,
	 * want_e is the closed form (Mader: a connected vertex-transitive
	 * graph's edge connectivity is its degree)
	 */
	if (t.nodes * t.nports / 2 <= 30) {
		EXPECT(!link_cut(&g, ke - 1, 0, cut));
		EXPECT(link_cut(&g, ke, 0, cut));
	}
}

static void test_connectivity(void)
{
	static const u32 d2[2] = { 2, 2 }, d3[2] = { 3, 3 }, d4[2] = { 4, 4 };
	static const u32 r6[1] = { 6 }, p5[1] = { 5 }, c3[3] = { 3, 3, 3 };
	static const u32 d35[2] = { 3, 5 }, h2[1] = { 2 }, h3[1] = { 3 };
	static const u32 h4[1] = { 4 };

	check(MESHFABRIC_KIND_MESH, 1, p5, 1, 1);
	check(MESHFABRIC_KIND_TORUS, 1, r6, 2, 2);
	check(MESHFABRIC_KIND_MESH, 2, d4, 2, 2);
	check(MESHFABRIC_KIND_MESH, 2, d35, 2, 2);
	check(MESHFABRIC_KIND_TORUS, 2, d3, 4, 4);
	check(MESHFABRIC_KIND_TORUS, 2, d4, 4, 4);
	check(MESHFABRIC_KIND_TORUS, 2, d35, 4, 4);
	check(MESHFABRIC_KIND_TORUS, 2, d2, 2, 2);	/* a 4-cycle */
	check(MESHFABRIC_KIND_TORUS, 3, c3, 6, 6);
	check(MESHFABRIC_KIND_HEX, 1, h2, 6, 6);	/* K_7 */
	check(MESHFABRIC_KIND_HEX, 1, h3, 6, 6);
	check(MESHFABRIC_KIND_HEX, 1, h4, 6, 6);
}

/* Port of node 0 towards +e_dim (plus) or -e_dim. */
static u32 port_of(const struct mf_topo *t, u32 dim, bool plus)
{
	u32 c[MF_MAX_DIMS] = { 0 };

	c[dim] = plus ? 1 : t->dims[dim] - 1;
	return (u32)mf_topo_port(t, 0, mf_topo_id(t, c));
}

/* 004 Lemma 2 and Theorem 1 (the rows of `meshfabric papers`) under dor
 * on T_K^n.  rho: the all-to-all broadcast along input graphs counted at
 * node 0 with mf_route_next (0 forwards A's message to its neighbour Y
 * iff Y's next hop towards A is 0), by the distance of A.  The model,
 * written here: dor corrects dimension 0 first, so the path from 0 to Z
 * starts in Z's lowest non-zero dimension, towards Z (the subtrees of the
 * output graph G_0^(o)), and the path from Z to 0 ends in its highest
 * (the subtrees of the input graph G_0^(i)).  rho equals the output
 * graph's level counts, not the input graph's that Theorem 1 prints.
 */
static void rho_dor(u32 n, u32 K)
{
	u32 dims[MF_MAX_DIMS], rho[8][16], outm[8][16], inm[8][16];
	u32 q, a, y, z, c[MF_MAX_DIMS], k, lo, hi, l, differ = 0, sum;
	struct mf_topo t;
	int port;

	memset(rho, 0, sizeof(rho));
	memset(outm, 0, sizeof(outm));
	memset(inm, 0, sizeof(inm));
	for (k = 0; k < n; k++)
		dims[k] = K;
	EXPECT_EQ(mf_topo_init(&t, MESHFABRIC_KIND_TORUS, n, dims), 0);
	for (q = 0; q < t.nports; q++) {
		y = (u32)mf_topo_neighbor(&t, 0, q);
		for (a = 0; a < t.nodes; a++) {
			if (a == y)
				continue;
			port = mf_route_next(&t, MESHFABRIC_ROUTE_DOR, y, a);
			EXPECT(port >= 0);
			if (port >= 0 && mf_topo_neighbor(&t, y, (u32)port) == 0)
				rho[q][mf_topo_distance(&t, a, 0)]++;
		}
	}
	for (z = 1; z < t.nodes; z++) {
		mf_topo_coords(&t, z, c);
		for (l = 0, k = 0; k < n; k++)
			l += c[k] <= K / 2 ? c[k] : K - c[k];
		for (lo = 0; !c[lo]; lo++)
			;
		for (hi = n - 1; !c[hi]; hi--)
			;
		outm[port_of(&t, lo, c[lo] <= K / 2)][l - 1]++;
		inm[port_of(&t, hi, c[hi] <= K / 2)][l - 1]++;
	}
	for (l = 0; l < 16; l++) {
		for (sum = 0, q = 0; q < t.nports; q++) {
			EXPECT_EQ(rho[q][l], outm[q][l]);
			differ += rho[q][l] != inm[q][l];
			sum += rho[q][l];
		}
		/* every point at level l + 1 has one parent at level l */
		for (k = 0, z = 1; z < t.nodes; z++)
			k += mf_topo_distance(&t, z, 0) == l + 1;
		EXPECT_EQ(sum, k);
	}
	EXPECT(differ > 0);
}

static void test_rho(void)
{
	rho_dor(2, 5);
	rho_dor(2, 7);
	rho_dor(3, 5);
}

int main(void)
{
	RUN(test_connectivity);
	RUN(test_rho);
	return mf_test_done();
}
