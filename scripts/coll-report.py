#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""coll-report.py - the table and the plot of `make coll-bench`.

  scripts/coll-report.py DIR

reads what scripts/coll-bench.sh left in DIR:
  model.tsv    shape rate delay algo bytes steps model_ns bound_ns
               (`meshfabric plan --coll allreduce -j`: summary.fabric_time_ns
               and bounds.time_ns)
  kernel.tsv   shape algo bytes fabric_ns  (`meshfabric coll ... -j`), or
  kernel.why   one line: why the kernel's column is missing
  mpi.tsv      shape rate delay bytes mpi_us untimed_us coll_ns algo model_ns
               bound_ns (untimed_us: MPI on untimed links; "-" when missing)
  mpi.why      one line: why the MPI rows are missing
and writes DIR/coll-bench.md (tables, and which of Swing, ring and
recursive doubling wins where, as ratios to the lower bound) and
DIR/coll-bench-SHAPE.svg per torus: time against size per algorithm, and
the ratio to the lower bound against size, log-log.  Python's standard
library only.
"""
import math
import os
import sys

COLOURS = {
    "tree": "#7f7f7f", "ring": "#1f77b4", "recdbl": "#2ca02c",
    "rabenseifner": "#9467bd", "bucket": "#ff7f0e", "swing": "#d62728",
    "swing-lat": "#e377c2", "003": "#8c564b",
}


def human(b):
    for unit, m in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= m and b % m == 0:
            return "%d %s" % (b // m, unit)
    return "%d B" % b


def us(ns):
    v = ns / 1000.0
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def read_tsv(path):
    if not os.path.exists(path):
        return []
    rows = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                rows.append(line.split("\t"))
    return rows


def read_why(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.read().strip()


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_plot(shape, link, series, bound):
    """series: {algo: [(bytes, ns, ratio)]}; bound: [(bytes, ns)]."""
    W, H = 1000, 460
    pw, ph = 380, 320          # one panel
    ox = (70, 570)             # panels' left edges
    oy = 60                    # top
    xs = sorted({b for pts in series.values() for b, _, _ in pts})
    t_all = [t for pts in series.values() for _, t, _ in pts] + [t for _, t in bound]
    r_all = [r for pts in series.values() for _, _, r in pts]
    lx0, lx1 = math.log10(xs[0]), math.log10(xs[-1])
    ty0 = math.floor(math.log10(min(t_all) / 1000.0))
    ty1 = math.ceil(math.log10(max(t_all) / 1000.0))
    ry0 = 0
    ry1 = max(1, math.ceil(math.log10(max(r_all))))

    def px(panel, b):
        return ox[panel] + (math.log10(b) - lx0) / (lx1 - lx0) * pw

    def py(v, v0, v1):
        return oy + ph - (math.log10(v) - v0) / (v1 - v0) * ph

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">' % (W, H, W, H),
           '<rect width="%d" height="%d" fill="white"/>' % (W, H),
           '<text x="%d" y="24" font-size="15" text-anchor="middle">allreduce on the %s '
           'torus, %s links: modelled time (meshfabric plan)</text>' % (W // 2, shape, esc(link))]
    titles = ("time (us)", "ratio to the lower bound")
    ranges = ((ty0, ty1), (ry0, ry1))
    for p in (0, 1):
        x0 = ox[p]
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#000"/>'
                   % (x0, oy, pw, ph))
        out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>'
                   % (x0 + pw // 2, oy - 8, titles[p]))
        v0, v1 = ranges[p]
        for e in range(v0, v1 + 1):
            y = py(10 ** e, v0, v1)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
                       % (x0, y, x0 + pw, y))
            lab = ("%g" % (10 ** e)) if p == 1 or -2 <= e <= 6 else "1e%d" % e
            out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>'
                       % (x0 - 4, y + 4, lab))
        for b in xs:
            if b in (8, 1024, 1 << 20) or b == xs[-1] or b == 64 << 10 or b == 64:
                x = px(p, b)
                out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'
                           % (x, oy, x, oy + ph))
                out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                           % (x, oy + ph + 16, human(b).replace(" ", "")))
        out.append('<text x="%d" y="%d" text-anchor="middle">message size (bytes, '
                   'whole vector)</text>' % (x0 + pw // 2, oy + ph + 36))
    # the lower bound, dashed, in the time panel
    pts = " ".join("%.1f,%.1f" % (px(0, b), py(t / 1000.0, ty0, ty1)) for b, t in bound)
    out.append('<polyline points="%s" fill="none" stroke="#000" stroke-dasharray="5,4"/>' % pts)
    for algo, pl in series.items():
        c = COLOURS.get(algo, "#000")
        pts = " ".join("%.1f,%.1f" % (px(0, b), py(t / 1000.0, ty0, ty1)) for b, t, _ in pl)
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2">'
                   '<title>%s</title></polyline>' % (pts, c, esc(algo)))
        pts = " ".join("%.1f,%.1f" % (px(1, b), py(r, ry0, ry1)) for b, _, r in pl)
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2">'
                   '<title>%s</title></polyline>' % (pts, c, esc(algo)))
    # legend, below the panels
    lx = 70
    for algo in list(series) + ["lower bound"]:
        c = COLOURS.get(algo, "#000")
        dash = ' stroke-dasharray="5,4"' if algo == "lower bound" else ""
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                   % (lx, H - 22, lx + 24, H - 22, c, dash))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 30, H - 18, esc(algo)))
        lx += 40 + 8 * len(algo)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def winners(rows, algos):
    """[(bytes, best algo, its ratio, {algo: ratio})] over ALGOS."""
    by = {}
    for r in rows:
        by.setdefault(r["bytes"], {})[r["algo"]] = r["ratio"]
    res = []
    for b in sorted(by):
        have = {a: by[b][a] for a in algos if a in by[b]}
        if not have:
            continue
        best = min(have, key=lambda a: (have[a], a))
        res.append((b, best, have[best], have))
    return res


def ranges_text(ws):
    """"swing-lat 8 B - 2 KiB, swing 4 KiB - 64 KiB, ..." from winners."""
    parts = []
    for b, best, _, _ in ws:
        if parts and parts[-1][0] == best:
            parts[-1][2] = b
        else:
            parts.append([best, b, b])
    return ", ".join("%s %s" % (a, human(lo) if lo == hi else "%s to %s" % (human(lo), human(hi)))
                     for a, lo, hi in parts)


def main():
    d = sys.argv[1]
    model = [dict(shape=r[0], rate=r[1], delay=r[2], algo=r[3], bytes=int(r[4]),
                  steps=int(r[5]), model=int(r[6]), bound=int(r[7]),
                  ratio=int(r[6]) / int(r[7]))
             for r in read_tsv(os.path.join(d, "model.tsv"))]
    kern = {(r[0], r[1], int(r[2])): r[3] for r in read_tsv(os.path.join(d, "kernel.tsv"))}
    kwhy = read_why(os.path.join(d, "kernel.why"))
    mpi = read_tsv(os.path.join(d, "mpi.tsv"))
    mwhy = read_why(os.path.join(d, "mpi.why"))
    md = ["# Collective benchmark (`make coll-bench`)", "",
          "Generated by `scripts/coll-bench.sh` (issue 23): allreduce (sum of s64) on",
          "tori, every algorithm of `meshfabric plan --coll allreduce` at every",
          "power-of-two message size from 8 B to 16 MiB (the whole vector).",
          "Columns: the modelled fabric time (`plan ... -j`: summary.fabric_time_ns,",
          "store-and-forward, synchronous steps), its ratio to the lower bound",
          "(bounds.time_ns: diameter x link delay + 2(N-1)/N x M bytes over all of",
          "a node's ports; docs/collectives.md), and the kernel's fabric time",
          "(`meshfabric coll FABRIC allreduce --op sum --type s64 --count M/8",
          "--algo A -j`: fabric_ns) on the same links in the test VM.", ""]
    if kwhy:
        md += ["**Kernel column missing:** " + kwhy, ""]
    # the kernel's points against the model's: equal to the ns, or not
    mt = {(r["shape"], r["algo"], r["bytes"]): r["model"] for r in model}
    kpts = [(k, int(v)) for k, v in kern.items() if v != "-" and k in mt]
    if kpts:
        same = sum(1 for k, v in kpts if v == mt[k])
        ksz = sorted({k[2] for k, _ in kpts})
        md += ["Kernel points: %d (sizes %s; the other sizes are not run in the"
               % (len(kpts), ", ".join(human(b) for b in ksz)),
               "guest: `--kernel-sizes`); %d of them equal the model's fabric time"
               % same,
               "to the nanosecond%s." % ("" if same == len(kpts) else
                                         ", %d differ" % (len(kpts) - same)), ""]
    shapes = []
    for r in model:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    for shape in shapes:
        rows = [r for r in model if r["shape"] == shape]
        link = "%s, %s" % (rows[0]["rate"], rows[0]["delay"])
        algos = []
        for r in rows:
            if r["algo"] not in algos:
                algos.append(r["algo"])
        sizes = sorted({r["bytes"] for r in rows})
        cell = {(r["algo"], r["bytes"]): r for r in rows}
        md += ["## %s torus, %s links" % (shape, link), "",
               "![allreduce on the %s torus](coll-bench-%s.svg)" % (shape, shape), "",
               "Modelled time in us (ratio to the lower bound); the least ratio of",
               "each size in bold.  Kernel: fabric_ns of `meshfabric coll`, in us.",
               "The bound lets a node use all its %d ports at once; every algorithm"
               % (2 * len(shape.split("x"))),
               "here is one-port (one send and one receive per node and step), so for",
               "large messages no ratio goes much below %d (the distance term of the"
               % (2 * len(shape.split("x"))),
               "bound lets it dip under by a hair).", ""]
        md.append("| size | bound us | " + " | ".join(algos) + " | kernel (" +
                  ", ".join(algos) + ") |")
        md.append("| --- | --- | " + " | ".join("---" for _ in algos) + " | --- |")
        for b in sizes:
            have = [cell[(a, b)] for a in algos if (a, b) in cell]
            best = min(x["ratio"] for x in have)
            cells = []
            for a in algos:
                x = cell.get((a, b))
                if not x:
                    cells.append("-")
                    continue
                t = "%s (%.2f)" % (us(x["model"]), x["ratio"])
                cells.append("**%s**" % t if x["ratio"] == best else t)
            kc = [kern.get((shape, a, b)) for a in algos]
            ktxt = ", ".join(us(int(k)) if k and k != "-" else "-" for k in kc)
            if not any(k and k != "-" for k in kc):
                ktxt = "not run" if kern else "missing"
            md.append("| %s | %s | %s | %s |" % (human(b), us(have[0]["bound"]),
                                                 " | ".join(cells), ktxt))
        md.append("")
        # Swing in its better form at each size (swing: bandwidth,
        # swing-lat: latency), against ring and recursive doubling
        three = [("Swing", ("swing", "swing-lat")), ("ring", ("ring",)),
                 ("recdbl", ("recdbl",))]
        tab = []
        for b in sizes:
            have = {}
            for name, forms in three:
                fs = [(cell[(f, b)]["ratio"], f) for f in forms if (f, b) in cell]
                if fs:
                    have[name] = min(fs)
            if have:
                best = min(have, key=lambda n: (have[n][0], n))
                tab.append((b, best, have))
        md += ["Of Swing (the better of its bandwidth form `swing` and its latency",
               "form `swing-lat` at each size), ring and recursive doubling, the least",
               "ratio to the lower bound wins: " +
               ranges_text([(b, best, 0, 0) for b, best, _ in tab]) + ".", ""]
        md += ["| size | Swing | ring | recdbl | winner |",
               "| --- | --- | --- | --- | --- |"]
        for b, best, have in tab:
            md.append("| %s | %s | %s |" % (human(b), " | ".join(
                ("%.2f" % have[n][0] + (" (%s)" % have[n][1] if n == "Swing" else ""))
                if n in have else "-" for n, _ in three), best))
        md.append("")
        wall = winners(rows, algos)
        md += ["Over every algorithm: " + ranges_text(wall) + ".", ""]
        series = {a: [(r["bytes"], r["model"], r["ratio"]) for r in rows if r["algo"] == a]
                  for a in algos}
        bound = [(b, cell[(algos[0], b)]["bound"]) for b in sizes if (algos[0], b) in cell]
        with open(os.path.join(d, "coll-bench-%s.svg" % shape), "w") as f:
            f.write(svg_plot(shape, link, series, bound))
    md += ["## MPI across the fabric", "",
           "Debian's Open MPI, one rank in each node's namespace (`scripts/mf-mpirun`),",
           "MPI_Allreduce of s64 sums over TCP through the fabric (pml ob1, btl tcp)",
           "on a 2x4 torus whose links are timed at 100 Mbit/s, 100 us, with Open",
           "MPI's allreduce forced to each algorithm in turn",
           "(coll_tuned_allreduce_algorithm 3 = recursive doubling, 4 = ring,",
           "6 = Rabenseifner), rank r on node r as in the plan.  MPI: the slowest",
           "rank's wall time per call (mean of 2 calls after a warm-up), in the",
           "emulated (TCG) guest.  Offload: the kernel's fabric time of `meshfabric",
           "coll --algo` the same, on the same fabric.  Model: `meshfabric plan` of",
           "the same algorithm on the same links, and the lower bound.  The same",
           "runs on untimed links show what the emulated guest's software costs",
           "alone: 8 ranks and 8 daemons polling on 2 emulated CPUs.", ""]
    if mwhy:
        md += ["**MPI rows missing:** " + mwhy, ""]
    if mpi:
        md += ["| torus | links | algo | size | MPI us | MPI us, untimed links | offload us | model us | bound us | MPI / model |",
               "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in mpi:
            shape, rate, delay, b, m_us, un_us, coll, malgo, mns, bns = r
            md.append("| %s | %s, %s | %s | %s | %.0f | %s | %s | %s | %s | %.1f |" % (
                shape, rate, delay, malgo, human(int(b)), float(m_us),
                "%.0f" % float(un_us) if un_us != "-" else "-",
                us(int(coll)) if coll != "-" else "missing", us(int(mns)),
                us(int(bns)), float(m_us) * 1000 / int(mns)))
        md.append("")
    with open(os.path.join(d, "coll-bench.md"), "w") as f:
        f.write("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
