#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Decide exactly whether an all-port broadcast of K steps exists.

    scripts/allport-ilp.py --mesh 4x6x7 --from 0,0,0 --steps 3
    scripts/allport-ilp.py --torus 5x5x6 --from 0 --steps 3 --time 60 --json
    build/meshfabric -j plan --mesh 4x4 --algo wormhole --steps | \\
        scripts/allport-ilp.py --check -

The model is wormhole's (docs/wormhole.md): in a step every informed node
starts messages along paths of any length, no directed link carries two
messages in one step, every node is informed exactly once.  A step is
then a flow: each informed node v emits n_v units (at most its links),
each node informed in the step absorbs one, every directed link carries 0
or 1, and the flow decomposes into the step's paths (integral flows do).
The integer program below asks for K such steps that inform every node;
CBC (coinor-cbc, a branch-and-bound solver) decides it:

  - infeasible: no schedule of K steps exists, from this source, whatever
    the method (a lower bound above the counting bound where the search
    stops short of that bound: docs/wormhole.md, "Exact answers");
  - feasible: the solution is decomposed into paths and checked here (the
    checker below, not the C one): a schedule of K steps;
  - unknown: the time limit (--time, default 60 s) passed first.

CBC gets half the time for this model and, if that does not decide it,
the rest for the model with the boundary (see --bound below) in the
last step as a cut: the nodes left to it are at most the links from an
informed node to an uninformed one (a row, and two rows per link that
make each link's term 1 at most where the link leaves the informed
set).  The cut decides some shapes fast that the model alone leaves
undecided (3x6x9 from a corner: no 3 steps, 5 s with it, undecided
after 30 s without) and slows others (4x11x27 from a corner, no 4
steps: 10 s with it, 3 s without; one run each, alone).  --json says
which decided ("cut": true or false).

--bound gives a lower bound instead, from a relaxation small enough for
any shape up to the script's limit: the class flow.  The nodes fall into
classes (a mesh: each coordinate's distance to the nearer end, capped at
2; a torus: each coordinate's distance to the source's, capped at 2; the
source alone), whose nodes have as many links each.  Any schedule's step
t gives, per class c: x_t,c its nodes informed after the step, s_t,c the
messages they start (at most deg_c x_t-1,c), and per pair of classes
f_t,a,b the links from a to b the step's paths take (at most the links
there are from a to b: the paths are link-disjoint).  A path from class
c0 to class c1 leaves a class by one more link than it enters it if
that class is c0, by one fewer if c1 (links within a class aside), so

    sum_b f_t,c,b - sum_a f_t,a,c = s_t,c - (x_t,c - x_t-1,c)

and every new node of c is entered by its path's last link, every
message leaves its sender by its first: sum_a f_t,a,c >= x_t,c -
x_t-1,c, sum_b f_t,c,b >= s_t,c.  And the boundary: every new node's
path leaves the set informed before the step by a link of its own (the
paths start inside it, end outside it, and share no link), so a step
informs at most as many nodes as there are links out of that set.  Per
pair of classes, b_t,a,b such links run from a to b: at most the links
there are, at most l_a,b x_t-1,a (an informed node of a has at most
l_a,b links into b) and at most l_b,a (n_b - x_t-1,b) (each of the
n_b - x_t-1,b nodes of b not informed has at most l_b,a links from a),
and

    sum_c (x_t,c - x_t-1,c) <= sum_a,b b_t,a,b.

Where a class's nodes are informed densely, many of their links join
two informed nodes and lead out of the set no more: 3x3x35 from node
247 and 2x3x3x19 from node 184, 3 steps by the classes alone, need 4
with the boundary (the exact program agrees).  The whole fabric
informed after K steps, integral counts: if CBC finds no such numbers,
no K-step schedule exists.  The bound is the fewest steps, from the
counting bound up, for which it finds them (a class's faces have fewer
links and are entered through few links, which the counting bound does
not see).  --sweep FILE
gives it for every shape a `make wormhole-sweep` lists (shapes above the
counting bound), and says where wormhole's steps are optimal.  A sweep
run with --retry N gives each shape's steps at effort N too: the fewer
count, and shapes that reach the counting bound there are "reached".

Exit status: 0 decided (either way), 2 unknown, 1 an error (one line on
stderr).  --check FILE (- for stdin) checks a schedule in the JSON of
`meshfabric -j plan ... --steps` with the same checker instead: exit 0
if valid, 1 if not, with the reason.  --json prints the result as one
JSON object (with the schedule, in plan's format, when feasible).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


class Topo:
    """Node ids as meshfabric numbers them: dimension 0 varies fastest."""

    def __init__(self, kind, dims):
        self.kind, self.dims = kind, dims
        self.n = 1
        for s in dims:
            self.n *= s
        self.stride = [1]
        for s in dims[:-1]:
            self.stride.append(self.stride[-1] * s)

    def degrees(self):
        """Every node's links, computed once."""
        if not hasattr(self, "_deg"):
            self._deg = [len(list(self.neighbours(v)))
                         for v in range(self.n)]
        return self._deg

    def coords(self, v):
        return [v // st % s for st, s in zip(self.stride, self.dims)]

    def neighbours(self, v):
        """A torus side of 2 has one link, as meshfabric's (a mesh's)."""
        c = self.coords(v)
        for i, s in enumerate(self.dims):
            for step in (1, -1):
                w = c[i] + step
                if self.kind == "torus" and s > 2:
                    w %= s
                elif not 0 <= w < s:
                    continue
                yield v + (w - c[i]) * self.stride[i]


def fail(msg):
    print(f"allport-ilp: {msg}", file=sys.stderr)
    sys.exit(1)


def parse_topo(args):
    return make_topo("mesh" if args.mesh else "torus",
                     args.mesh or args.torus)


def make_topo(kind, text):
    if not re.fullmatch(r"[0-9]+(x[0-9]+)*", text):
        fail(f"bad sizes '{text}': NxMx..., e.g. 4x6x7")
    if len(text) > 64:
        fail(f"bad sizes '{text[:16]}...': too long")
    dims = [int(s) for s in text.split("x")]
    if len(dims) > 8 or min(dims) < 1:
        fail(f"bad sizes '{text}': 1 to 8 dimensions of at least 1")
    t = Topo(kind, dims)
    if t.n > 20000:
        fail(f"{t.n} nodes: too many for this exact search (at most 20000)")
    return t


def parse_node(t, text):
    if len(text) > 128:
        fail(f"bad node '{text[:16]}...': too long")
    if re.fullmatch(r"[0-9]+", text):
        v = int(text)
    elif re.fullmatch(r"[0-9]+(,[0-9]+)*", text):
        c = [int(s) for s in text.split(",")]
        if len(c) != len(t.dims) or any(x >= s for x, s in zip(c, t.dims)):
            fail(f"node '{text}' is not in the {len(t.dims)}-D topology")
        v = sum(x * st for x, st in zip(c, t.stride))
    else:
        fail(f"bad node '{text}': an id or coordinates x,y,...")
    if v >= t.n:
        fail(f"node {v} is not in the topology ({t.n} nodes)")
    return v


def check(t, source, steps):
    """The schedule's faults, or None: every node informed exactly once,
    senders informed before their step, paths along links from src to
    dst, no directed link twice in a step."""
    informed = {source: 0}
    for k, step in enumerate(steps, 1):
        used = set()
        for m in step:
            src, dst, path = m["src"], m["dst"], m["path"]
            if informed.get(src, k) >= k:
                return f"step {k}: {src} sends before it is informed"
            if not path or path[0] != src or path[-1] != dst or len(path) < 2:
                return f"step {k}: the path of {src} -> {dst} does not join them"
            for a, b in zip(path, path[1:]):
                if not 0 <= a < t.n or b not in set(t.neighbours(a)):
                    return f"step {k}: {a} -> {b} is not a link"
                if (a, b) in used:
                    return f"step {k}: link {a} -> {b} carries two messages"
                used.add((a, b))
            if dst in informed:
                return f"step {k}: {dst} is informed twice"
            informed[dst] = k
    if len(informed) != t.n:
        return f"{t.n - len(informed)} nodes never informed"
    return None


def lp_rows(rows):
    """The rows of a model, each cut into lines of at most about 200
    characters at its spaces (continuations indented).  CBC's LP reader
    (CoinUtils 2.11) reads a line in chunks of 1023 characters and can
    join a token across them: a row of exactly such a length took the
    next line's first word into its right-hand side (found by review,
    on the cut of mesh 2x4x4x14)."""
    lines = []
    for i, r in enumerate(rows):
        line = f" c{i}:"
        for word in r.split():
            if len(line) + len(word) >= 200:
                lines.append(line)
                line = "   "
            line += " " + word
        lines.append(line)
    return lines


def lp_text(t, source, K, cut=True):
    """CPLEX LP: x_v_s informed after step s (1..K-1), f_a_b_s a link's
    flow, n_v_s the messages v starts in step s; and the boundary's
    cut."""
    rows, bounds, ints, bins = [], [], [], []
    deg = t.degrees()
    for s in range(1, K + 1):
        for v in range(t.n):
            terms = [f"+ f_{v}_{w}_{s}" for w in t.neighbours(v)]
            terms += [f"- f_{w}_{v}_{s}" for w in t.neighbours(v)]
            terms.append(f"- n_{v}_{s}")
            rhs = 0
            # out - in - n + (x_s - x_{s-1}) = 0: the received unit
            if s < K:
                terms.append(f"+ x_{v}_{s}")
            else:
                rhs -= 1
            if s > 1:
                terms.append(f"- x_{v}_{s - 1}")
            elif v == source:
                rhs += 1
            rows.append(" ".join(terms) + f" = {rhs}")
            if s > 1:
                rows.append(f"n_{v}_{s} - {deg[v]} x_{v}_{s - 1} <= 0")
                bounds.append(f"0 <= n_{v}_{s} <= {deg[v]}")
            else:
                bounds.append(f"0 <= n_{v}_{s} <= {deg[v] if v == source else 0}")
            ints.append(f"n_{v}_{s}")
            if s < K:
                bins.append(f"x_{v}_{s}")
                if s > 1:
                    rows.append(f"x_{v}_{s} - x_{v}_{s - 1} >= 0")
            bins += [f"f_{v}_{w}_{s}" for w in t.neighbours(v)]
        if s < K:
            rows.append(f"x_{source}_{s} = 1")
        if s != K or s == 1 or not cut:
            continue
        # the boundary (see --bound), a cut that no schedule violates:
        # b_v_w_s is 1 at most where v is informed before the last step
        # and w is not; every node left is reached by a path that leaves
        # the informed set by a link of its own, so the nodes left are at
        # most their sum.  Before the last step the informed set is
        # sparse and the cut rarely binds: there it only slowed CBC down
        # (4x11x27 from a corner, no 4 steps, one run beside another job:
        # 40 s with it in every step, 17 s in the last alone, 5 s
        # without).  It helps CBC on some shapes and hinders it on
        # others, so solve() tries the model without it first
        # (docs/wormhole.md)
        out = []
        for v in range(t.n):
            for w in t.neighbours(v):
                out.append(f"- b_{v}_{w}_{s}")
                bounds.append(f"0 <= b_{v}_{w}_{s} <= 1")
                rows.append(f"b_{v}_{w}_{s} - x_{v}_{s - 1} <= 0")
                rows.append(f"b_{v}_{w}_{s} + x_{w}_{s - 1} <= 1")
        left = " ".join(f"- x_{v}_{s - 1}" for v in range(t.n))
        rows.append(f"{left} {' '.join(out)} <= {-t.n}")
    out = ["Minimize", " obj: 0 n_0_1", "Subject To"]
    out += lp_rows(rows)
    out += ["Bounds"] + [" " + b for b in bounds]
    out += ["General"] + [" " + g for g in ints]
    out += ["Binary"] + [" " + b for b in bins]
    out.append("End")
    return "\n".join(out) + "\n"


def decompose(t, source, K, val):
    """The solution's flow as paths, step by step (plan's JSON steps)."""
    informed = {source}
    steps = []
    for s in range(1, K + 1):
        flow = {}
        for v in range(t.n):
            for w in t.neighbours(v):
                if val.get(f"f_{v}_{w}_{s}", 0) > 0.5:
                    flow.setdefault(v, []).append(w)
        sends = {v: round(val.get(f"n_{v}_{s}", 0)) for v in informed}
        new = {v for v in range(t.n) if v not in informed and
               (s == K or val.get(f"x_{v}_{s}", 0) > 0.5)}
        step = []
        for v in sorted(sends):
            for _ in range(sends[v]):
                path, seen = [v], {v: 0}
                while path[-1] not in new:	# new: not yet informed, unclaimed
                    outs = flow.get(path[-1])
                    if not outs:
                        return None
                    w = outs.pop()
                    if w in seen:	# a cycle: dropped
                        for u in path[seen[w] + 1:]:
                            del seen[u]
                        path = path[:seen[w] + 1]
                        continue
                    seen[w] = len(path)
                    path.append(w)
                new.discard(path[-1])
                step.append({"src": v, "dst": path[-1], "path": path})
        informed |= {m["dst"] for m in step}
        steps.append(step)
    return steps


def cbc_run(text, secs, sol=None):
    """CBC on an LP-format model: infeasible, feasible or unknown (the
    time ran out), and the solution's values when feasible and sol.
    CBC 2.10.8 (Debian 12) can abort in its presolve (an assertion in
    ClpNonLinearCost, seen on the class flow of mesh 2x2x558): then once
    more without the presolve, which changes how it solves, not what."""
    cbc = shutil.which("cbc")
    if not cbc:
        fail("cbc not found: apt-get install coinor-cbc (make setup)")
    for opts in ([], ["presolve", "off"]):
        with tempfile.TemporaryDirectory(prefix="allport-ilp.") as tmp:
            lp, out = os.path.join(tmp, "p.lp"), os.path.join(tmp, "p.sol")
            with open(lp, "w") as fh:
                fh.write(text)
            run = subprocess.run([cbc, lp, "sec", str(secs), "threads", "1"]
                                 + opts + ["solve", "solu", out],
                                 capture_output=True, text=True)
            said = re.findall(r"^(?:Result - .*|Problem is infeasible.*)$",
                              run.stdout, re.M)
            if not said:
                continue
            if "infeasible" in said[-1]:
                return "infeasible", None
            if "Optimal solution found" in said[-1]:
                val = {}
                if sol:
                    with open(out) as fh:
                        for line in fh:
                            f = line.split()
                            if len(f) >= 3 and f[0].isdigit():
                                val[f[1]] = float(f[2])
                return "feasible", val
            if "Stopped on time" in said[-1]:
                return "unknown", None
            fail(f"cbc: {said[-1]}")
    fail("cbc ended without an answer: " +
         ((run.stdout + run.stderr).strip().splitlines() or
          ["no output"])[-1])


def counting_bound(t, source):
    """Lemma 1 of 002 refined by degree (mf_allport_bound): each step,
    the source and the other informed nodes, at best those of the most
    links, inform one new node per link."""
    deg = t.degrees()
    top = sorted(deg, reverse=True)
    informed, k = 1, 0
    while informed < t.n:
        informed += deg[source] + sum(top[:informed - 1])
        k += 1
    return k


def classes(t, source):
    """The classes (see --bound): the source's, their sizes and links,
    the links from class to class, and per pair of classes the most
    links one node of the first has into the second."""
    sc = t.coords(source)
    key = {}
    for v in range(t.n):
        c = t.coords(v)
        if v == source:
            k = ("source",)
        elif t.kind == "mesh":
            k = tuple(min(x, s - 1 - x, 2) for x, s in zip(c, t.dims))
        else:
            k = tuple(min((x - y) % s, (y - x) % s, 2)
                      for x, y, s in zip(c, sc, t.dims))
        key[v] = k
    ids = {k: i for i, k in enumerate(sorted(set(key.values()), key=str))}
    cls = [ids[key[v]] for v in range(t.n)]
    size, deg, links, most = [0] * len(ids), [0] * len(ids), {}, {}
    degs = t.degrees()
    for v in range(t.n):
        a, per = cls[v], {}
        for w in t.neighbours(v):
            links[(a, cls[w])] = links.get((a, cls[w]), 0) + 1
            per[cls[w]] = per.get(cls[w], 0) + 1
        for b, m in per.items():
            most[(a, b)] = max(most.get((a, b), 0), m)
        size[a] += 1
        deg[a] = max(deg[a], degs[v])
    return cls[source], size, deg, links, most


def class_lp(cl, K, boundary=True):
    """The class flow of K steps over classes cl (see --bound) in CPLEX
    LP format; with the boundary's rows unless boundary is False."""
    src, size, deg, links, most = cl
    C, rows, bounds, ints = len(size), [], [], []
    outs = {c: [b for (a, b) in links if a == c] for c in range(C)}
    ins = {c: [a for (a, b) in links if b == c] for c in range(C)}
    for c in range(C):
        rows.append(f"x_{c}_0 = {int(c == src)}")
        rows.append(f"x_{c}_{K} = {size[c]}")
        ints += [f"x_{c}_{s}" for s in range(K + 1)]
    for s in range(1, K + 1):
        for (a, b), m in links.items():
            bounds.append(f"0 <= f_{a}_{b}_{s} <= {m}")
            ints.append(f"f_{a}_{b}_{s}")
        for c in range(C):
            new = f"x_{c}_{s} - x_{c}_{s - 1}"
            bounds.append(f"0 <= x_{c}_{s} <= {size[c]}")
            bounds.append(f"0 <= m_{c}_{s} <= {deg[c] * size[c]}")
            ints.append(f"m_{c}_{s}")
            rows.append(f"{new} >= 0")
            rows.append(f"m_{c}_{s} - {deg[c]} x_{c}_{s - 1} <= 0")
            # conservation: links within the class cancel
            o = " ".join(f"+ f_{c}_{b}_{s}" for b in outs[c] if b != c)
            i = " ".join(f"- f_{a}_{c}_{s}" for a in ins[c] if a != c)
            rows.append(f"{o} {i} - m_{c}_{s} + {new} = 0")
            into = " ".join(f"+ f_{a}_{c}_{s}" for a in ins[c])
            out = " ".join(f"+ f_{c}_{b}_{s}" for b in outs[c])
            rows.append(f"{into} - x_{c}_{s} + x_{c}_{s - 1} >= 0")
            rows.append(f"{out} - m_{c}_{s} >= 0")
        if not boundary:
            continue
        # the links out of the informed set: b_a_b_s from a node of a
        # informed before step s to one of b not; each new node's path
        # leaves that set by a link of its own
        for (a, b), m in links.items():
            z = f"b_{a}_{b}_{s}"
            bounds.append(f"0 <= {z} <= {m}")
            rows.append(f"{z} - {most[(a, b)]} x_{a}_{s - 1} <= 0")
            rows.append(f"{z} + {most[(b, a)]} x_{b}_{s - 1} <= "
                        f"{most[(b, a)] * size[b]}")
        new = " ".join(f"+ x_{c}_{s} - x_{c}_{s - 1}" for c in range(C))
        out = " ".join(f"- b_{a}_{b}_{s}" for (a, b) in links)
        rows.append(f"{new} {out} <= 0")
    text = ["Minimize", " obj: 0 x_0_0", "Subject To"]
    text += lp_rows(rows)
    text += ["Bounds"] + [" " + b for b in bounds]
    text += ["General"] + [" " + g for g in ints] + ["End"]
    return "\n".join(text) + "\n"


def class_bound(t, source, cb, secs, upto=64):
    """The fewest steps from the counting bound cb up (to upto at most)
    that the class flow allows: a lower bound; whether it was decided
    there (False: undecided in secs, the bound holds all the same); the
    classes."""
    cl, k = classes(t, source), cb
    while k < upto:
        res, _ = cbc_run(class_lp(cl, k), secs)
        if res != "infeasible":
            return k, res == "feasible", cl
        k += 1
    return k, True, cl


def bound(args):
    t = parse_topo(args)
    source = parse_node(t, args.source)
    t0 = time.monotonic()
    cb = counting_bound(t, source)
    k, decided, cl = class_bound(t, source, cb, args.time)
    secs = time.monotonic() - t0
    name = f"{t.kind} {'x'.join(map(str, t.dims))}"
    where = ",".join(map(str, t.coords(source)))
    if args.json:
        print(json.dumps({"topology": {"kind": t.kind, "dims": t.dims},
                          "source": source, "nodes": t.n,
                          "counting_bound": cb, "class_bound": k,
                          "classes": len(cl[1]),
                          "decided": decided, "seconds": round(secs, 2)},
                         separators=(",", ":")))
    else:
        print(f"{name} from {where}: at least {k} steps (class flow"
              f"{'' if decided else f', undecided at {k} after {args.time} s'}"
              f"; counting bound {cb}; {secs:.2f} s)")
    return 0 if decided else 2


def sweep(args):
    """The class bound of every shape a wormhole sweep lists."""
    try:
        fh = sys.stdin if args.sweep == "-" else open(args.sweep)
        lines = fh.read().splitlines()
    except OSError as e:
        fail(f"cannot read {args.sweep}: {e.strerror}")
    except ValueError as e:	# not UTF-8
        fail(f"cannot read {args.sweep}: {e}")
    kinds = {ln.split()[0] for ln in lines
             if re.match(r"(mesh|torus) d=", ln)}
    if len(kinds) != 1:
        fail(f"{args.sweep}: {'no' if not kinds else 'more than one'} "
             "'mesh d=' or 'torus d=' summary line (one sweep, as make "
             "wormhole-sweep prints it)")
    kind = kinds.pop()
    efforts = {m.group(1) for m in
               (re.search(r"; effort ([0-9]+): ", ln) for ln in lines) if m}
    if len(efforts) > 1:
        fail(f"{args.sweep}: retried at more than one effort (one sweep "
             "has one)")
    shapes = optimal = undecided = reached = 0
    for ln in lines:
        m = re.match(r"([0-9x]+) from ([0-9]+): ([0-9]+) steps, "
                     r"bound ([0-9]+)(?: \([0-9.]+ s\))?"
                     r"(?:; effort ([0-9]+): ([0-9]+) steps)?", ln)
        if not m:
            continue
        t = make_topo(kind, m.group(1))
        if max(len(m.group(i) or "") for i in range(2, 7)) > 16:
            fail(f"{ln[:40]}...: a number too long")
        source, steps, cb = int(m.group(2)), int(m.group(3)), int(m.group(4))
        if source >= t.n:
            fail(f"{ln}: node {source} is not in the topology")
        here = counting_bound(t, source)
        if here != cb:
            fail(f"{m.group(1)} from {source}: counting bound "
                 f"{here} here, {cb} in the sweep")
        if steps <= cb:
            fail(f"{ln}: a sweep lists shapes above the counting bound")
        shapes += 1
        head = f"{m.group(1)} from {source}: {steps} steps"
        if m.group(5):
            # --retry: the shape built again at a higher effort; its
            # steps are the best known
            e, again = int(m.group(5)), int(m.group(6))
            head += f", effort {e}: {again} steps"
            if again < cb:
                fail(f"{ln}: {again} steps, below the counting bound")
            if again == cb:
                reached += 1
                print(f"{head}, bound {cb}: reached", flush=True)
                continue
            steps = min(steps, again)
        k, decided, cl = class_bound(t, source, cb, args.time, steps)
        if k == steps and decided:
            # a schedule of `steps` exists: the relaxation must allow it
            res, _ = cbc_run(class_lp(cl, steps), args.time)
            if res == "infeasible":
                fail(f"{m.group(1)} from {source}: the class flow refuses "
                     f"{steps} steps, which wormhole takes")
        optimal += k == steps
        undecided += not decided
        say = "optimal" if k == steps else \
            "undecided" if not decided else "open"
        print(f"{head}, bound {cb}, class bound {k}: {say}", flush=True)
    more = f", {reached} reach it at effort {efforts.pop()}" if efforts else ""
    print(f"{kind}: {shapes} shapes above the counting bound{more}, "
          f"{optimal} at their class bound (wormhole optimal), {undecided} "
          f"undecided in {args.time} s")
    return 0


def schedule_json(t, source, steps):
    """A schedule of steps (decompose's) in plan's JSON."""
    return {"topology": {"kind": t.kind, "dims": t.dims}, "algo": "ilp",
            "model": "all-port", "source": source, "nodes": t.n,
            "steps": steps}


def solve(args):
    t = parse_topo(args)
    source = parse_node(t, args.source)
    K = args.steps
    if not 1 <= K <= 64:
        fail(f"--steps {K}: 1 to 64")
    name = f"{t.kind} {'x'.join(map(str, t.dims))}"
    where = ",".join(map(str, t.coords(source)))
    res = {"topology": {"kind": t.kind, "dims": t.dims}, "source": source,
           "nodes": t.n, "steps": K}
    t0 = time.monotonic()
    # half the time without the boundary's cut, the rest with it: each
    # decides shapes the other does not in that time
    half = (args.time + 1) // 2
    res["result"], val = cbc_run(lp_text(t, source, K, False), half, True)
    res["cut"] = False
    if res["result"] == "unknown" and args.time > half:
        res["result"], val = cbc_run(lp_text(t, source, K), args.time - half,
                                     True)
        res["cut"] = True
    secs = time.monotonic() - t0
    if res["result"] == "feasible":
        steps = decompose(t, source, K, val)
        why = "the flow does not decompose" if steps is None else \
            check(t, source, steps)
        if why:
            fail(f"cbc's solution is not a schedule: {why}")
        res["schedule"] = schedule_json(t, source, steps)
    res["seconds"] = round(secs, 2)
    if args.json:
        print(json.dumps(res, separators=(",", ":")))
    else:
        say = {"infeasible": f"no schedule of {K} steps exists",
               "feasible": f"a schedule of {K} steps (checked, "
                           f"{sum(len(s) for s in res.get('schedule', {}).get('steps', []))} sends)",
               "unknown": f"undecided after {args.time} s"}[res["result"]]
        print(f"{name} from {where}: {say} (cbc, {secs:.2f} s)")
    return 2 if res["result"] == "unknown" else 0


def check_file(args):
    try:
        fh = sys.stdin if args.check == "-" else open(args.check)
        d = json.load(fh)
        t = Topo(d["topology"]["kind"], d["topology"]["dims"])
        steps = d["steps"]
        source = d["source"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"cannot read a schedule from {args.check}: {e}")
    why = check(t, source, steps)
    if why:
        print(f"invalid: {why}")
        return 1
    print(f"valid: {len(steps)} steps, {sum(len(s) for s in steps)} sends")
    return 0


class Parser(argparse.ArgumentParser):
    def error(self, message):	# one line, exit 1, as every other error
        fail(message)


def main():
    p = Parser(
        prog="allport-ilp.py", description=__doc__.split("\n")[0],
        epilog="Exit 0: decided (infeasible or feasible), 2: undecided in "
               "--time, 1: an error.  docs/wormhole.md, \"Exact answers\".")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--mesh", metavar="DIMS", help="a mesh, e.g. 4x6x7")
    g.add_argument("--torus", metavar="DIMS", help="a torus, e.g. 5x5x6")
    g.add_argument("--check", metavar="FILE",
                   help="check a schedule in the JSON of `meshfabric -j plan "
                        "... --steps` (- for stdin) instead of solving")
    g.add_argument("--sweep", metavar="FILE",
                   help="the class bound (--bound) of every shape a `make "
                        "wormhole-sweep` lists (- for stdin)")
    p.add_argument("--from", dest="source", metavar="NODE",
                   help="the source: an id or coordinates x,y,... (default 0)")
    p.add_argument("--steps", type=int, metavar="K",
                   help="decide whether K steps suffice (1..64)")
    p.add_argument("--bound", action="store_true",
                   help="a lower bound instead: the fewest steps the class "
                        "flow (a relaxation, any size) allows")
    p.add_argument("--time", type=int, default=60, metavar="SEC",
                   help="CBC's limit in CPU seconds (default 60; "
                   "--steps: the first half without the boundary's cut, "
                   "the rest, if any, with it)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object, with the schedule when feasible")
    args = p.parse_args()
    if args.time < 1:
        fail(f"--time {args.time}: at least 1 second")
    if args.check:
        return check_file(args)
    if args.sweep:
        if args.steps is not None or args.bound or args.source is not None:
            fail("--sweep takes the shapes, sources and steps from its list: "
                 "no --steps, --bound or --from with it")
        return sweep(args)
    if args.source is None:
        args.source = "0"
    if args.bound:
        if args.steps is not None:
            fail("--bound finds the steps: no --steps with it")
        return bound(args)
    if args.steps is None:
        fail("--steps K (or --bound) is required with --mesh or --torus")
    return solve(args)


if __name__ == "__main__":
    sys.exit(main())
