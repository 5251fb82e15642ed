# SPDX-License-Identifier: GPL-2.0
# The CLI suites' own model of a fabric (30-cli, 31-coll-cli, 32-ilp):
# node ids and coordinates as topo.h numbers them, links from the
# definitions, and the counting bound of a broadcast.  Written from the
# definitions, not from the C core, so the suites check the tool against
# it.  Not a suite (test.sh runs tests.d/*.sh only).

def coords(dims, i):
    c = []
    for x in dims: c.append(i % x); i //= x
    return c

def ident(dims, c):
    i = 0
    for x, v in zip(reversed(dims), reversed(c)): i = i * x + v
    return i

def nodes(kind, dims):
    if kind == "hex":
        n = dims[0]; return 3 * n * n - 3 * n + 1
    p = 1
    for x in dims: p *= x
    return p

def degree(kind, dims, v):
    """Links of node v: a wrapped hex's 6 (none alone); on a torus one
    along a side of 2; on a mesh one or two per side, as v lies."""
    if kind == "hex": return 6 if nodes(kind, dims) > 1 else 0
    return sum((1 if s == 2 else 2) if kind == "torus" else (c > 0) + (c < s - 1)
               for c, s in zip(coords(dims, v), dims))

def counting_bound(kind, dims, src, model="all-port"):
    """Fewest steps of a broadcast from src by counting what a step can
    inform: one-port, each informed node informs one more (ceil(log2 N));
    all-port, one new node per link of an informed node, the source's
    own links and at best the largest degrees of the fabric for the
    others (docs/wormhole.md, Lower bounds: all nodes' degrees, the
    source's among them)."""
    N, informed, k = nodes(kind, dims), 1, 0
    if model == "one-port":
        while informed < N: informed *= 2; k += 1
        return k
    top = sorted((degree(kind, dims, v) for v in range(N)), reverse=True)
    while informed < N:
        informed += degree(kind, dims, src) + sum(top[:informed - 1]); k += 1
    return k
