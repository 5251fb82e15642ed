// SPDX-License-Identifier: GPL-2.0
/* All-port broadcast along the long axis of a fabric whose cross-section
 * is the 4-cycle: the tori 2x2xL and 4xL, and the meshes 2x2xL; and of
 * the meshes 2x3xL, 2x4xL and 3x3xL (search.h, docs/wormhole.md
 * "Columns").  The tool's only.
 *
 * A column is the cross-section at one place along the axis: on the
 * 4-cycle 4 nodes, a row each, the rows in the cycle's order.  Every
 * node has 4 links (the mesh's end columns 3), so the counting bound
 * allows 5 times the informed nodes after each step, and on long
 * shapes the local search falls short near that (the torus 2x2x760 and
 * above, at every budget tried).  Here the sets are laid out instead:
 *
 * - Before the last step one node informed in most columns: blocks of 5
 *   columns with rows 0, 1, 2, 0 and one column empty (col_a), and of 6
 *   with rows 0, 1, 0, 2, 0 and one empty (col_b), so that 4 of every 5
 *   nodes are left, about what 4 links each can reach.  A mesh ends in
 *   2 columns of rows 0 and 2 (col_e) at each end: its end nodes have 3
 *   links, and neither plain blocks nor any block of 5 columns with one
 *   empty (all 1280) reach every node there.  The blocks were found by
 *   maximum flows over every choice of rows (17 of the 256 blocks of 5
 *   repeat on a torus; 4692 pairs of such a block and a block of 6 work
 *   in every order tried); the end was the first of a few tried that
 *   works.  On a torus the blocks start at the source's column; on a
 *   mesh they run from it to each end.
 * - Each earlier step's informed nodes are a fifth of the next step's,
 *   one in every 5 along the axis: on a torus every fifth from the
 *   source, on a mesh the middle one of each window of 5 (cols_parents).
 *   Between two of them along the axis lie at most 4 new ones, which the
 *   two can reach with their 4 links: rightward ones in their own row
 *   and, up or down the column first, in another; leftward likewise.  No
 *   one else's sends use the links between them.
 * - The meshes 2x3xL, 2x4xL and 3x3xL likewise, from a pattern of the
 *   last step's senders that repeats every few columns (cols_pats), and
 *   each earlier step's one in every 6 (3x3: 7), the one of the most
 *   links near the middle of each window.  On 2x3xL, whose columns have
 *   6 nodes and the 2 middles of the side of 3 have 5 links, one middle
 *   in every column on alternating sides; on 2x4xL 4 senders of 5 links
 *   in every 3 columns.  Both reach every node with no link to spare,
 *   so the step before the last needs no more senders than the bound
 *   counts; 3x3xL's pattern takes 6 senders in every 4 columns where
 *   36 / 7 would do, and helps where the bound leaves room.
 *
 * Nothing here trusts that: mf_search_levels computes each step's flow
 * and fails if it falls short, and mf_check checks the schedule.
 */
#include "search.h"

#define COL_NONE	4	/* no node informed in this column */
/* Layouts tried on the flows, at most, per call: a failing one costs a
 * few maximum flows over the fabric.  Uncapped, the 3x3xL from 1812
 * random nodes were found from 1656, 1598 of them within 24 layouts,
 * and a miss took up to 224; the 2x4xL were all found within 13, a
 * miss taking up to 72.
 */
#define COLS_FLOWS	24

u32 mf_search_columns_on = 1;

static const u8 col_a[] = { 0, 1, 2, 0, COL_NONE };
static const u8 col_b[] = { 0, 1, 0, 2, 0, COL_NONE };
static const u8 col_e[] = { 0, 2 };

/* A 3-D mesh whose cross-section is side[0] x side[1]: the last step's
 * senders in column col are the bits of mask[(col + phase) % period]
 * (bit x * side[1] + y for the node at (x, y)), an end column's also
 * those of end[]; earlier steps' senders are one in every win, a
 * sender's most links + 1.  Found by maximum flows on rings of columns
 * and on ends (a local search for the fewest senders, from random
 * orders); tried at every phase, mirrored along each side and along the
 * axis (mf_search_columns).
 */
struct cols_pat {
	u8 side[2], period, win;
	u16 mask[4], end[4];
};

static const struct cols_pat cols_pats[] = {
	/* 2x3: the middles, of 5 links, alternating sides; an end's
	 * middles have 4: the corner beside each too
	 */
	{ { 2, 3 }, 2, 6, { BIT(1), BIT(4) }, { BIT(0), BIT(3) } },
	/* 3x3: 6 senders, of 4 to 6 links, in every 4 columns (37 nodes'
	 * worth of 36), enough at the ends too
	 */
	{ { 3, 3 }, 4, 7, { BIT(2) | BIT(4), BIT(1) | BIT(7), BIT(4), BIT(7) },
	  { 0 } },
	/* 2x4: 4 senders of 5 links in every 3 columns, one column
	 * empty (24 nodes' worth of 24), enough at the ends
	 */
	{ { 2, 4 }, 3, 6, { BIT(1) | BIT(6), 0, BIT(2) | BIT(5) }, { 0 } },
};

struct cols {
	const struct mf_topo *t;
	u32 axis, len;		/* the long axis and its side */
	u32 ax[2], nax;		/* the cross-section's axes: 2 of side 2, or 1
				 * of 4; a pattern's, in its sides' order
				 */
	u32 row0, col0;		/* the source's row (4-cycle), column (rev) */
	u32 source;
	u32 win;		/* senders' links + 1: 5, or the pattern's */
	const struct cols_pat *pat;	/* a mesh's pattern, or NULL */
	u32 mirror;		/* bit k < 2: the pattern's side k reversed;
				 * bit 2: its columns
				 */
	bool rev;		/* a pattern's columns counted from the far
				 * end: the source's in the first half, so
				 * that the layouts from either end mirror
				 * each other
				 */
	bool torus;
};

/* The row of coordinates c: the 4-cycle (0,0) (1,0) (1,1) (0,1), or the
 * coordinate along a side of 4.
 */
static u32 cols_row(const struct cols *g, const u32 *c)
{
	if (g->nax == 1)
		return c[g->ax[0]];
	return c[g->ax[0]] ? (c[g->ax[1]] ? 2 : 1) : (c[g->ax[1]] ? 3 : 0);
}

/* The node at row r, column col of the laid-out fabric: the source at
 * row 0, and on a torus at column 0.
 */
static u32 cols_node(const struct cols *g, u32 r, u32 col)
{
	u32 c[MF_MAX_DIMS];

	r = (r + g->row0) & 3;
	if (g->torus)
		col = (col + g->col0) % g->len;
	c[g->axis] = col;
	if (g->nax == 1) {
		c[g->ax[0]] = r;
	} else {
		c[g->ax[0]] = r == 1 || r == 2;
		c[g->ax[1]] = r >= 2;
	}
	return mf_topo_id(g->t, c);
}

/* Whether the mesh t has pat's cross-section; if so its axes in g (the
 * last axis whose other sides are the pattern's along).
 */
static bool cols_match(struct cols *g, const struct mf_topo *t,
		       const struct cols_pat *pat)
{
	u32 a, i, j;

	for (a = t->ndims; t->ndims == 3 && a-- > 0;) {
		i = (a + 1) % 3;
		j = (a + 2) % 3;
		if (t->dims[i] != pat->side[0] || t->dims[j] != pat->side[1])
			swap(i, j);
		if (t->dims[i] != pat->side[0] || t->dims[j] != pat->side[1])
			continue;
		g->ax[0] = i;
		g->ax[1] = j;
		g->axis = a;
		g->nax = 2;
		g->pat = pat;
		g->win = pat->win;
		return true;
	}
	return false;
}

/* The shape's axes and the source's place; -EINVAL if it is not one of
 * those above.
 */
static int cols_shape(struct cols *g, const struct mf_topo *t, u32 source)
{
	u32 c[MF_MAX_DIMS], i, p, two = 0;
	struct cols m, best = { .pat = NULL };

	memset(g, 0, sizeof(*g));
	g->t = t;
	g->torus = t->kind == MESHFABRIC_KIND_TORUS;
	if ((!g->torus && t->kind != MESHFABRIC_KIND_MESH) || source >= t->nodes)
		return -EINVAL;
	g->source = source;
	g->win = 5;
	if (t->ndims == 3) {
		for (i = 0; i < 3; i++) {
			if (t->dims[i] == 2 && two < 2)
				g->ax[two++] = i;
			else
				g->axis = i;
		}
		g->nax = 2;
	} else if (t->ndims == 2 && g->torus) {
		g->axis = t->dims[0] == 4 ? 1 : 0;
		g->ax[0] = 1 - g->axis;
		g->nax = t->dims[g->ax[0]] == 4;
		two = 2 * g->nax;
	}
	/* or a mesh of a pattern's cross-section, the longest axis along */
	for (p = 0; two != 2 && !g->torus && p < ARRAY_SIZE(cols_pats); p++) {
		m = *g;
		if (cols_match(&m, t, &cols_pats[p]) &&
		    (!best.pat || t->dims[m.axis] > t->dims[best.axis]))
			best = m;
	}
	if (best.pat) {
		*g = best;
		two = 2;
	}
	g->len = t->dims[g->axis];
	if (two != 2 || g->len < 3)
		return -EINVAL;
	mf_topo_coords(t, source, c);
	g->row0 = g->pat ? 0 : cols_row(g, c);
	g->col0 = c[g->axis];
	if (g->pat && 2 * g->col0 >= g->len) {
		g->rev = true;
		g->col0 = g->len - 1 - g->col0;
	}
	return 0;
}

/* Fill n columns from out[0] on with the last step's senders (their
 * rows; COL_NONE where none): j blocks of 6, then blocks of 5, then (end)
 * a mesh's end.  A mesh's end column alone (n = 1) is the source's.
 * false if the columns do not split so.
 */
static bool cols_run(u8 *out, u32 n, bool end)
{
	u32 rest, m, j, b, w;

	if (end && n == 1) {
		out[0] = 0;
		return true;
	}
	rest = n - (end ? sizeof(col_e) : 0);
	m = rest / 5;
	j = rest % 5;
	if ((end && n < sizeof(col_e)) || m < j)
		return false;
	for (b = 0; b < m; b++, out += w) {
		w = b < j ? sizeof(col_b) : sizeof(col_a);
		memcpy(out, b < j ? col_b : col_a, w);
	}
	if (end)
		memcpy(out, col_e, sizeof(col_e));
	return true;
}

/* Lay out the last step's senders (row[col], COL_NONE where none), the
 * source's column first (cols_node): on a torus around the ring; on a
 * mesh from the source's column to each end (tmp: room for the
 * leftward run).  false if the columns do not split so.
 */
static bool cols_layout(const struct cols *g, u8 *row, u8 *tmp)
{
	u32 i;

	if (g->torus)
		return cols_run(row, g->len, false);
	if (!cols_run(row + g->col0, g->len - g->col0, true) ||
	    !cols_run(tmp, g->col0 + 1, true))
		return false;
	for (i = 1; i <= g->col0; i++)
		row[g->col0 - i] = tmp[i];
	return true;
}

/* The last step's senders of the 4-cycle's layout row[], in order along
 * the axis from the source's column (cols_node), into list[]; how many.
 */
static u32 cols_list4(const struct cols *g, const u8 *row, u32 *list)
{
	u32 col, n = 0;

	for (col = 0; col < g->len; col++)
		if (row[col] != COL_NONE)
			list[n++] = cols_node(g, row[col], col);
	return n;
}

/* The places of a pattern's cross-section (its bits beyond are not
 * read).
 */
static u32 cols_places(const struct cols *g)
{
	return g->pat->side[0] * g->pat->side[1];
}

/* Coordinate x along a pattern's side k, mirrored or not. */
static u32 cols_flip(const struct cols *g, u32 k, u32 x)
{
	return g->mirror & BIT(k) ? g->pat->side[k] - 1 - x : x;
}

/* The pattern's column at column col, mirrored or not. */
static u32 cols_pcol(const struct cols *g, u32 col)
{
	return g->mirror & BIT(2) ? g->len - 1 - col : col;
}

/* The node at place b of a pattern's cross-section (see cols_pat), in
 * column col.
 */
static u32 cols_node_at(const struct cols *g, u32 b, u32 col)
{
	u32 c[MF_MAX_DIMS], h = g->pat->side[1];

	c[g->ax[0]] = cols_flip(g, 0, b / h);
	c[g->ax[1]] = cols_flip(g, 1, b % h);
	c[g->axis] = g->rev ? g->len - 1 - col : col;
	return mf_topo_id(g->t, c);
}

/* Whether the source is one of its column's senders at phase. */
static bool cols_has_source(const struct cols *g, u32 phase)
{
	const struct cols_pat *pat = g->pat;
	u32 c[MF_MAX_DIMS], b;

	mf_topo_coords(g->t, g->source, c);
	b = cols_flip(g, 0, c[g->ax[0]]) * pat->side[1] +
	    cols_flip(g, 1, c[g->ax[1]]);
	return pat->mask[(cols_pcol(g, g->col0) + phase) % pat->period] &
	       BIT(b);
}

/* The last step's senders of a mesh's pattern at phase, in order along
 * the axis, into list[]; how many.  The source comes first in its
 * column, whether the pattern has it or not, and if not it stands in
 * for an end column's extra senders.
 */
static u32 cols_list(const struct cols *g, u32 phase, u32 *list)
{
	const struct cols_pat *pat = g->pat;
	u32 col, m, b, v, j, n = 0;

	for (col = 0; col < g->len; col++) {
		j = (cols_pcol(g, col) + phase) % pat->period;
		m = pat->mask[j];
		if ((!col || col == g->len - 1) &&
		    (col != g->col0 || cols_has_source(g, phase)))
			m |= pat->end[j];
		if (col == g->col0)
			list[n++] = g->source;
		for (b = 0; b < cols_places(g); b++) {
			if (!(m & BIT(b)))
				continue;
			v = cols_node_at(g, b, col);
			if (v != g->source)
				list[n++] = v;
		}
	}
	return n;
}

/* The sender of a window of w nodes of a mesh (left: left of the
 * source): the middle one (in a short window the one farther out);
 * with a pattern, whose senders' links differ, the one of the most links
 * nearest it.
 */
static u32 cols_pick(const struct cols *g, const u32 *node, u32 w, bool left)
{
	u32 mid = left ? w - 1 - w / 2 : w / 2, best = mid, i, gi, gb, di, db;

	for (i = 0; g->pat && i < w; i++) {
		gi = mf_topo_degree(g->t, node[i]);
		gb = mf_topo_degree(g->t, node[best]);
		di = i > mid ? i - mid : mid - i;
		db = best > mid ? best - mid : mid - best;
		if (gi > gb || (gi == gb && di < db))
			best = i;
	}
	return node[best];
}

/* The senders of the step before, from the n of list[] (in order along
 * the axis, the source at s0), into out[]; how many.  Torus: every fifth
 * from the source, round the ring.  Mesh: the source keeps its links'
 * worth of neighbours in the list, o of them on its left (s0 + tilt mod
 * win, at most all but one and at most s0, more near the right end),
 * and the rest, outward from them, falls into windows of win (fewer at
 * the ends), each sent to by its middle node (in a short window the one
 * farther out): a window's nodes are reached by sends inside it only,
 * about half each way.
 */
static u32 cols_parents(const struct cols *g, const u32 *list, u32 n, u32 s0,
			u32 deg, u32 tilt, u32 *out)
{
	u32 i, keep = 0, lo, hi, w, win = g->win, o = (s0 + tilt) % win;
	u32 right = n - 1 - s0;

	if (g->torus) {
		for (i = 0; i < n; i += win)
			out[keep++] = list[i];
		return keep;
	}
	if (o > deg - 1)
		o = deg - 1;
	if (o > s0)
		o = s0;
	if (deg - o > right)
		o = deg - right < s0 ? deg - right : s0;
	lo = s0 - o;
	hi = lo + deg + 1 < n ? lo + deg + 1 : n;
	/* the windows left of lo, from the far end in */
	w = lo % win ? lo % win : win;
	for (i = 0; i < lo; i += w, w = win)
		out[keep++] = cols_pick(g, list + i, w, true);
	out[keep++] = list[s0];
	for (i = hi; i < n; i += w) {
		w = n - i < win ? n - i : win;
		out[keep++] = cols_pick(g, list + i, w, false);
	}
	return keep;
}

/* The levels (lvl[], every node's step) from the n last senders of
 * list[] (room for twice them; overwritten) with the mesh's windows
 * shifted by tilt; false if the steps do not reach back to the source
 * alone.
 */
static bool cols_levels(const struct cols *g, u32 *list, u32 n, u32 deg,
			u32 steps, u32 tilt, u8 *lvl)
{
	u32 i, k, s0;

	memset(lvl, steps, g->t->nodes);
	/* step k's new nodes: the senders before step k + 1 that do not
	 * send before step k
	 */
	for (k = steps - 1; k >= 1; k--) {
		for (i = 0, s0 = 0; i < n; i++) {
			lvl[list[i]] = k;
			if (list[i] == g->source)
				s0 = i;
		}
		n = cols_parents(g, list, n, s0, deg, tilt, list + i);
		memcpy(list, list + i, n * sizeof(*list));
		if (n == 1 && k > 1)
			return false;	/* steps 1 .. k - 1 would be empty */
	}
	return n == 1;
}

/* A digest of the layout list[0..n) with the windows' tilt. */
static u64 cols_sum(const u32 *list, u32 n, u32 tilt)
{
	u64 h = 14695981039346656037ULL ^ tilt;
	u32 i;

	for (i = 0; i < n; i++)
		h = (h ^ list[i]) * 1099511628211ULL;
	return h;
}

/* Whether sum is one of the n of tried[]. */
static bool cols_seen(const u64 *tried, u32 n, u64 sum)
{
	while (n--)
		if (tried[n] == sum)
			return true;
	return false;
}

int mf_search_columns(const struct mf_topo *t, u32 source, u32 steps,
		      struct mf_sched *s)
{
	u32 *list = NULL, i, n, ways, phases, ph, tries, deg, flows = 0;
	u64 tried[COLS_FLOWS], sum;
	bool first;
	u8 *row = NULL, *lvl = NULL;
	struct cols g;
	int err;

	memset(s, 0, sizeof(*s));
	err = cols_shape(&g, t, source);
	if (err)
		return err;
	if (steps < 1 || steps > 255)
		return -EINVAL;
	deg = mf_topo_degree(t, source);
	if (!g.pat)
		row = mf_alloc_array(2 * g.len, 1, false);
	/* the last senders (each node once at most), and room after them
	 * for their parents
	 */
	list = mf_alloc_array(2 * (size_t)t->nodes, sizeof(u32), false);
	lvl = mf_alloc_array(t->nodes, 1, false);
	err = -ENOMEM;
	if ((!g.pat && !row) || !list || !lvl)
		goto out;
	err = -ESRCH;
	if (!g.pat) {
		memset(row, COL_NONE, g.len);
		if (!cols_layout(&g, row, row + g.len))
			goto out;
	}
	/* a mesh's windows shifted by each of win offsets, until one
	 * works; a torus has one way, and so has a mesh from an end column
	 * (its source's neighbours in the list all lie on one side)
	 */
	ways = g.torus || !g.col0 || g.col0 == g.len - 1 ? 1 : g.win;
	phases = g.pat ? g.pat->period : 1;
	tries = g.pat ? 2 * phases * ways * 8 : ways;
	for (i = 0; err == -ESRCH && i < tries && flows < COLS_FLOWS; i++) {
		/* a pattern's phases that have the source first, then the
		 * others; then the same mirrored along its sides and the
		 * axis
		 */
		ph = i / ways % phases;
		g.mirror = i / (2 * phases * ways);
		first = !(i / (phases * ways) % 2);
		if (g.pat && cols_has_source(&g, ph) != first)
			continue;
		n = g.pat ? cols_list(&g, ph, list) : cols_list4(&g, row, list);
		/* a mirror can repeat another's layout (2x3: a side's
		 * mirror is the other phase): each once on the flows
		 */
		sum = cols_sum(list, n, i % ways);
		if (cols_seen(tried, flows, sum) ||
		    !cols_levels(&g, list, n, deg, steps, i % ways, lvl))
			continue;
		lvl[source] = 0;
		err = mf_search_levels(t, source, steps, lvl, s);
		tried[flows++] = sum;
	}
out:
	mf_free_all(row, list, lvl);
	return err;
}
