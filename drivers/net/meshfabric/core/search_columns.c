// SPDX-License-Identifier: GPL-2.0
/* All-port broadcast along the long axis of a fabric whose cross-section
 * is the 4-cycle: the tori 2x2xL and 4xL, and the meshes 2x2xL; and of
 * the meshes 2x3xL (search.h, docs/wormhole.md "Columns").  The tool's
 * only.
 *
 * A column is the cross-section at one place along the axis: 4 nodes, a
 * row each, the rows in the cycle's order.  Every node has 4 links (the
 * mesh's end columns 3), so the counting bound allows 5 times the
 * informed nodes after each step, and on long shapes the local search
 * falls short near that (the torus 2x2x760 and above, at every budget
 * tried).  Here the sets are laid out instead:
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
 * - A mesh 2x3xL likewise, by sixes: its columns have 6 nodes, the 2
 *   middles of the side of 3 have 5 links, and the last step's senders
 *   are one middle in every column, on alternating sides (cols_list6),
 *   each earlier step's one in every 6.
 *
 * Nothing here trusts that: mf_search_levels computes each step's flow
 * and fails if it falls short, and mf_check checks the schedule.
 */
#include "search.h"

#define COL_NONE	4	/* no node informed in this column */

u32 mf_search_columns_on = 1;

static const u8 col_a[] = { 0, 1, 2, 0, COL_NONE };
static const u8 col_b[] = { 0, 1, 0, 2, 0, COL_NONE };
static const u8 col_e[] = { 0, 2 };

struct cols {
	const struct mf_topo *t;
	u32 axis, len;		/* the long axis and its side */
	u32 ax[2], nax;		/* the cross-section's axes: 2 of side 2, or 1
				 * of 4; a 2x3's: its side of 2, then of 3
				 */
	u32 row0, col0;		/* the source's row (a 2x3's: place along
				 * its side of 3) and column
				 */
	u32 source;
	u32 win;		/* senders' links + 1: 5, a 2x3's middles 6 */
	bool torus, six;	/* six: the mesh 2x3xL */
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

/* The shape's axes and the source's place; -EINVAL if it is not one of
 * those above.
 */
static int cols_shape(struct cols *g, const struct mf_topo *t, u32 source)
{
	u32 c[MF_MAX_DIMS], i, two = 0;

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
		/* a mesh 2x3xL: the first other side of 3 across, the
		 * third side along
		 */
		for (i = 0; two == 1 && !g->torus && i < 3; i++) {
			if (i != g->ax[0] && t->dims[i] == 3) {
				g->ax[1] = i;
				g->axis = 3 - g->ax[0] - i;
				g->six = true;
				g->win = 6;
				two = 2;
			}
		}
	} else if (t->ndims == 2 && g->torus) {
		g->axis = t->dims[0] == 4 ? 1 : 0;
		g->ax[0] = 1 - g->axis;
		g->nax = t->dims[g->ax[0]] == 4;
		two = 2 * g->nax;
	}
	g->len = t->dims[g->axis];
	if (two != 2 || g->len < 3)
		return -EINVAL;
	mf_topo_coords(t, source, c);
	g->row0 = g->six ? c[g->ax[1]] : cols_row(g, c);
	g->col0 = c[g->axis];
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

/* The node at (x, y) of a 2x3 cross-section, in column col. */
static u32 cols_node6(const struct cols *g, u32 x, u32 y, u32 col)
{
	u32 c[MF_MAX_DIMS];

	c[g->ax[0]] = x;
	c[g->ax[1]] = y;
	c[g->axis] = col;
	return mf_topo_id(g->t, c);
}

/* The last step's senders of the mesh 2x3xL, in order along the axis,
 * into list[]; how many.  A middle node of the side of 3 has 5 links
 * (3 across, 2 along), one fewer than the others of its column: in each
 * column the middle one on the side (of 2) that alternates from column
 * to column, the source's column's the source's if it is a middle, else
 * the one flip sides away.  The source comes first in its column, and
 * an end column, whose middles have 4 links, gets a second one, the
 * corner beside its middle, unless the source is already a second.
 * (Alternating middles reach every other node of a ring of columns, and
 * any two senders in an end column its end, by maximum flows; one side
 * throughout reaches only 3 in 5.)
 */
static u32 cols_list6(const struct cols *g, u32 flip, u32 *list)
{
	u32 c[MF_MAX_DIMS], col, x, n = 0, first, mid;

	mf_topo_coords(g->t, g->source, c);
	for (col = 0; col < g->len; col++) {
		first = n;
		x = (c[g->ax[0]] + flip + col + g->col0) & 1;
		mid = cols_node6(g, x, 1, col);
		if (col == g->col0)
			list[n++] = g->source;
		if (mid != g->source)
			list[n++] = mid;
		if ((!col || col == g->len - 1) && n - first < 2)
			list[n++] = cols_node6(g, x, 0, col);
	}
	return n;
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
		out[keep++] = list[i + w - 1 - w / 2];	/* as on the right */
	out[keep++] = list[s0];
	for (i = hi; i < n; i += w) {
		w = n - i < win ? n - i : win;
		out[keep++] = list[i + w / 2];
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

int mf_search_columns(const struct mf_topo *t, u32 source, u32 steps,
		      struct mf_sched *s)
{
	u32 *list = NULL, i, n, ways, flips, deg;
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
	row = mf_alloc_array(2 * g.len, 1, false);
	list = mf_alloc_array(2 * (g.len + 3), sizeof(u32), false);
	lvl = mf_alloc_array(t->nodes, 1, false);
	err = -ENOMEM;
	if (!row || !list || !lvl)
		goto out;
	err = -ESRCH;
	memset(row, COL_NONE, g.len);
	if (!g.six && !cols_layout(&g, row, row + g.len))
		goto out;
	/* a mesh's windows shifted by each of win offsets, until one
	 * works; a torus has one way, and so has a mesh from an end column
	 * (its source's neighbours in the list all lie on one side); a
	 * 2x3's middles alternate two ways from a source that is not one
	 */
	ways = g.torus || !g.col0 || g.col0 == g.len - 1 ? 1 : g.win;
	flips = g.six && g.row0 != 1 ? 2 : 1;
	for (i = 0; err == -ESRCH && i < ways * flips; i++) {
		n = g.six ? cols_list6(&g, i / ways, list) :
			    cols_list4(&g, row, list);
		if (!cols_levels(&g, list, n, deg, steps, i % ways, lvl))
			continue;
		lvl[source] = 0;
		err = mf_search_levels(t, source, steps, lvl, s);
	}
out:
	mf_free_all(row, list, lvl);
	return err;
}
