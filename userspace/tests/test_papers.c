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
 * 2, H_2 = K_7 has 6, a path 1).
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

int main(void)
{
	RUN(test_connectivity);
	return mf_test_done();
}
