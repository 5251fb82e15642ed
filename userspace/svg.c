// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - the fabric as an SVG picture with links coloured by load
 * (contract in svg.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "parse.h"

struct pt {
	double x, y;
};

static double dmin(double a, double b)
{
	return a < b ? a : b;
}

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

/* Unit vector of a port (mesh/torus: dims 0, 1 along x, y; higher ones
 * along diagonals, so their stubs differ from the grid's). */
static struct pt port_dir(const struct mf_topo *t, u32 port)
{
	static const double hx[3][2] = { { 1, 0 }, { 0.5, 0.8660254 }, { -0.5, 0.8660254 } };
	struct pt v;
	double s = (port & 1) ? -1 : 1;
	u32 d = port / 2;

	if (t->kind == MESHFABRIC_KIND_HEX) {
		/* ports 0/1: +-1, 2/3: +-(3n-1) = (+1) + (+(3n-2)), 4/5: +-(3n-2) */
		v.x = s * hx[d][0];
		v.y = s * hx[d][1];
		return v;
	}
	if (d == 0 || (d == 1 && t->ndims > 1)) {
		v.x = d == 0 ? s : 0;
		v.y = d == 1 ? s : 0;
		return v;
	}
	/* dims 2..7 (no libm: a table of unit vectors) */
	{
		static const double diag[6][2] = {
			{ 0.8, 0.6 }, { 0.6, 0.8 }, { -0.6, 0.8 },
			{ -0.8, 0.6 }, { 0.96, 0.28 }, { 0.28, 0.96 },
		};

		v.x = s * diag[(d - 2) % 6][0];
		v.y = s * diag[(d - 2) % 6][1];
	}
	return v;
}

static int layout(const struct mf_topo *t, struct pt *p)
{
	u32 c[MF_MAX_DIMS], i, d, *queue, head = 0, tail = 0, port;
	unsigned char *seen;
	double sx, sy;
	s64 nb;

	if (t->kind != MESHFABRIC_KIND_HEX) {
		for (i = 0; i < t->nodes; i++) {
			mf_topo_coords(t, i, c);
			p[i].x = p[i].y = 0;
			sx = sy = 1;
			for (d = 0; d < t->ndims; d++) {
				if (d % 2 == 0) {
					p[i].x += c[d] * sx;
					sx = sx * t->dims[d] + 1;
				} else {
					p[i].y += c[d] * sy;
					sy = sy * t->dims[d] + 1;
				}
			}
		}
		return 0;
	}
	/* hex: breadth-first from node 0 along unit vectors; every node lies
	 * within distance n-1, so each gets its point of the hexagon. */
	queue = calloc(t->nodes, sizeof(*queue));
	seen = calloc(t->nodes, 1);
	if (!queue || !seen) {
		free(queue);
		free(seen);
		return -ENOMEM;
	}
	p[0].x = p[0].y = 0;
	seen[0] = 1;
	queue[tail++] = 0;
	while (head < tail) {
		i = queue[head++];
		for (port = 0; port < t->nports; port++) {
			struct pt v = port_dir(t, port);

			nb = mf_topo_neighbor(t, i, port);
			if (nb < 0 || seen[nb])
				continue;
			seen[nb] = 1;
			p[nb].x = p[i].x + v.x;
			p[nb].y = p[i].y + v.y;
			queue[tail++] = (u32)nb;
		}
	}
	free(queue);
	free(seen);
	return 0;
}

static void colour(double f, char *buf, size_t len)
{
	/* blue (43,131,186) -> yellow (255,255,191) -> red (215,25,28) */
	double r, g, b;

	if (f < 0.5) {
		f *= 2;
		r = 43 + f * (255 - 43);
		g = 131 + f * (255 - 131);
		b = 186 + f * (191 - 186);
	} else {
		f = (f - 0.5) * 2;
		r = 255 + f * (215 - 255);
		g = 255 + f * (25 - 255);
		b = 191 + f * (28 - 191);
	}
	snprintf(buf, len, "#%02x%02x%02x", (int)r, (int)g, (int)b);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

int mf_svg_write(FILE *f, const struct mf_topo *t, const char *title,
		 const struct meshfabric_link_entry *links, u32 nlinks,
		 const char *what)
{
	double minx = 1e18, miny = 1e18, maxx = -1e18, maxy = -1e18, unit, w, h;
	double x0, y0, x1, y1, dx, dy, dist, fr;
	u64 maxp = 0, used = 0;
	char col[16], a[64], b[64], pn[16];
	struct pt *p, v;
	u32 i, k;
	int err;

	p = calloc(t->nodes, sizeof(*p));
	if (!p)
		return -ENOMEM;
	err = layout(t, p);
	if (err) {
		free(p);
		return err;
	}
	for (i = 0; i < t->nodes; i++) {
		minx = dmin(minx, p[i].x);
		maxx = dmax(maxx, p[i].x);
		miny = dmin(miny, p[i].y);
		maxy = dmax(maxy, p[i].y);
	}
	for (k = 0; k < nlinks; k++) {
		if (links[k].packets > maxp)
			maxp = links[k].packets;
		if (links[k].packets)
			used++;
	}
	w = maxx - minx + 1;
	h = maxy - miny + 1;
	unit = 900.0 / dmax(w, h);
	if (unit > 60)
		unit = 60;
	if (unit < 6)
		unit = 6;
#define X(v) (((v) - minx + 0.5) * unit + 20)
#define Y(v) (((v) - miny + 0.5) * unit + 50)
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	/* at least as wide as the two header lines (about 500 px) */
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\">\n", dmax(w * unit + 40, 520), h * unit + 90);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"20\" y=\"22\" font-size=\"15\">");
	xml_text(f, title);
	fprintf(f, "</text>\n<text x=\"20\" y=\"40\" font-size=\"11\">%llu of %u directed "
		"links used, busiest %llu %s; a link a-&gt;b is drawn on a's side</text>\n",
		(unsigned long long)used, nlinks, (unsigned long long)maxp, what);
	fprintf(f, "<g stroke-linecap=\"round\">\n");
	for (k = 0; k < nlinks; k++) {
		const struct meshfabric_link_entry *e = &links[k];

		if (e->peer == MESHFABRIC_NO_PEER || e->node >= t->nodes || e->peer >= t->nodes)
			continue;
		x0 = p[e->node].x;
		y0 = p[e->node].y;
		dx = p[e->peer].x - x0;
		dy = p[e->peer].y - y0;
		dist = dx * dx + dy * dy;
		if (dist < 1.02) {
			x1 = x0 + dx / 2;
			y1 = y0 + dy / 2;
		} else {
			v = port_dir(t, e->port);
			x1 = x0 + v.x * 0.35;
			y1 = y0 + v.y * 0.35;
		}
		fr = maxp ? (double)e->packets / (double)maxp : 0;
		if (e->packets)
			colour(fr, col, sizeof(col));
		else
			strcpy(col, "#d0d0d0");
		mf_format_node(t, e->node, a, sizeof(a));
		mf_format_node(t, e->peer, b, sizeof(b));
		mf_format_port(t, e->port, pn, sizeof(pn));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"%.1f\"><title>%s -&gt; %s (%s): %llu %s, %llu bytes"
			"</title></line>\n", X(x0), Y(y0), X(x1), Y(y1), col,
			(e->packets ? 1.5 + 3.5 * fr : 1) * (unit >= 20 ? 1 : unit / 20),
			a, b, pn, (unsigned long long)e->packets, what,
			(unsigned long long)e->bytes);
	}
	fprintf(f, "</g>\n<g fill=\"#404040\">\n");
	for (i = 0; i < t->nodes; i++) {
		mf_format_node(t, i, a, sizeof(a));
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"><title>%s</title></circle>\n",
			X(p[i].x), Y(p[i].y), unit * 0.12, a);
		if (t->nodes <= 100 && unit >= 30)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">%s</text>\n",
				X(p[i].x) + 3, Y(p[i].y) - 3, a);
	}
	fprintf(f, "</g>\n");
	/* legend */
	y0 = h * unit + 70;
	for (i = 0; i <= 10; i++) {
		colour(i / 10.0, col, sizeof(col));
		fprintf(f, "<rect x=\"%u\" y=\"%.0f\" width=\"20\" height=\"10\" fill=\"%s\"/>\n",
			20 + i * 20, y0, col);
	}
	fprintf(f, "<text x=\"250\" y=\"%.0f\" font-size=\"11\">0 .. %llu %s "
		"(grey: unused)</text>\n", y0 + 9, (unsigned long long)maxp, what);
	fprintf(f, "</svg>\n");
#undef X
#undef Y
	free(p);
	return ferror(f) ? -EIO : 0;
}
