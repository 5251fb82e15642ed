/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - a picture of a fabric with every directed link coloured by its
 * load (packets), for `meshfabric stats --svg FILE`.
 *
 * Layout: 2-D meshes and tori as a grid (x right, y down), 1-D as a row,
 * d > 2 as a projected grid (even dimensions side by side along x, odd
 * ones along y, with a gap between blocks); a hexagonal mesh H_n as the
 * hexagon of radius n-1 around node 0 (each node at the lattice point of
 * its shortest vector from 0).  A directed link a->b is the half of the
 * segment a-b on a's side, so both directions show; a link whose ends
 * are not adjacent in the picture (torus wrap-around, hex wrap, d > 2)
 * is a short stub leaving a in the link's direction.  Colour: grey for
 * unused, then blue -> yellow -> red up to the busiest link.
 */
#ifndef MF_SVG_H
#define MF_SVG_H

#include <stdio.h>
#include <linux/meshfabric.h>

#include "topo.h"

/* links: every directed link (node * nports + port order), coloured by
 * their packets field, which counts what (e.g. "packets", or "us busy"
 * for stats --svg-by busy).  0 or -errno.
 */
int mf_svg_write(FILE *f, const struct mf_topo *t, const char *title,
		 const struct meshfabric_link_entry *links, u32 nlinks,
		 const char *what);

#endif /* MF_SVG_H */
