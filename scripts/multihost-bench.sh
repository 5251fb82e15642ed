#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Two-guest benchmark of a multi-host fabric (issue 25's performance
# items; docs/multihost.md): scripts/vm2.sh boots two guests joined by a
# virtual wire, each running its side of selftests/multihost-bench.sh.
#   TCP      iperf3 from node 0 to node 3 of a 4-node mesh split in two
#            (one hop on each side and the cut link) against a plain
#            Geneve pair between the same guests, rounds alternating; the
#            ratio of the medians (and per round)
#   create   a SIDExSIDE torus split in two, both guests creating their
#            part at once (the slower one's time), against one guest
#            creating it whole; destroy likewise
# Numbers only (not a test); the guests are emulated (TCG), so ratios
# within this run are what to read.
#   scripts/multihost-bench.sh [--kernel K] [--mem MB] [--seconds S]
#                              [--rounds R] [--side N]
# Output: the figures; build/vm2/{a,b}.log, build/multihost-bench.txt.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
vmargs=() mem=2048 env=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) vmargs+=(--kernel "$2"); shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--seconds) env="$env MF_MHB_SECONDS=$2"; shift 2 ;;
	--rounds) env="$env MF_MHB_ROUNDS=$2"; shift 2 ;;
	--side) env="$env MF_MHB_SIDE=$2"; shift 2 ;;
	-h|--help) sed -n '3,19p' "$0"; exit 0 ;;
	*) echo "usage: $0 [--kernel K] [--mem MB] [--seconds S] [--rounds R] [--side N]" >&2
	   exit 2 ;;
	esac
done
make -s tool module >/dev/null || { echo "multihost-bench: build failed" >&2; exit 1; }
mkdir -p build/vm2
cmd="env$env sh /mf/selftests/multihost-bench.sh"
t0=$(date +%s)
bash scripts/vm2.sh "${vmargs[@]}" --timeout 3000 --mem "$mem" \
	--a "$cmd" --b "$cmd" >build/vm2/bench.log 2>&1
rc=$?
echo "# two guests: $(( $(date +%s) - t0 )) s wall, vm2.sh status $rc"
grep -E 'multihost-bench:' build/vm2/bench.log | sed 's/^/# /'
python3 - build/vm2/bench.log <<'PY' | tee build/multihost-bench.txt
import statistics, sys
tcp, create, destroy = [], {}, {}
for line in open(sys.argv[1], errors="replace"):
    w = line.split()
    if len(w) < 3 or w[1] != "BENCH":
        continue
    w = w[2:]
    if w[0] == "tcp":
        tcp.append((float(w[4]), float(w[6])))
    elif w[0] in ("create", "destroy") and w[-1] != "fail":
        d = create if w[0] == "create" else destroy
        d.setdefault(w[1], []).append(float(w[-1]))
if tcp:
    for i, (m, g) in enumerate(tcp, 1):
        print(f"tcp round {i}: meshfabric {m:.1f} Mbit/s, geneve {g:.1f} Mbit/s,"
              f" ratio {m / g if g else 0:.2f}")
    mm = statistics.median(m for m, _ in tcp)
    gm = statistics.median(g for _, g in tcp)
    print(f"tcp median: meshfabric {mm:.1f} Mbit/s, plain geneve {gm:.1f} Mbit/s,"
          f" ratio {mm / gm if gm else 0:.2f}")
else:
    print("tcp: no figures (see build/vm2/bench.log)")
for name, d in (("create", create), ("destroy", destroy)):
    if "one" in d and "two" in d:
        one, two = d["one"][0], max(d["two"])
        print(f"{name}: one guest {one:.2f} s, two guests {two:.2f} s"
              f" (parts {', '.join(f'{x:.2f}' for x in d['two'])}),"
              f" ratio two/one {two / one:.2f}")
    else:
        print(f"{name}: no figures ({d})")
PY
exit $rc
