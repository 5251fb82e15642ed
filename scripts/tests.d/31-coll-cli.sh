#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# CLI tests of `meshfabric plan --coll` (docs/collectives.md), as TAP.  The
# schedules printed with --steps --json are run here by a checker written
# in python3 (sets of contributions, not the C checker): every node ends
# with what the collective defines, every contribution once, one-port
# kept; the lower bounds are recomputed from their formulas.
cd "${MF_TOP:-.}" || exit 1
MF=build/meshfabric
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. scripts/tap.sh

need_tool

cp scripts/tests.d/topomodel.py "$TMP/"
cat >"$TMP/coll.py" <<'PYEOF'
import json, math, sys
import topomodel
from collections import Counter
d = json.load(sys.stdin)
N = d["nodes"]; nb = d["blocks"]; coll = d["collective"]; root = d["root"]
red = coll in ("reduce", "allreduce", "reduce-scatter")
per = max(1, nb // N if coll != "alltoall" else nb // (N * N))
def owner(b): return b // per
full = frozenset(range(N))
val = {}
for v in range(N):
    for b in range(nb):
        if red: val[v, b] = frozenset([v])
        elif coll in ("broadcast", "scatter"): val[v, b] = full if v == root else None
        elif coll == "alltoall": val[v, b] = full if b // (N * per) == v else None
        else: val[v, b] = full if owner(b) == v else None
for s, step in enumerate(d["steps"]):
    out = Counter(); inn = Counter(); pend = []
    for m in step:
        out[m["src"]] += 1; inn[m["dst"]] += 1
        for b in m["blocks"]:
            x = val[m["src"], b]
            assert x, "step %d: %d sends block %d it lacks" % (s, m["src"], b)
            pend.append((m["dst"], b, x, m["combine"]))
    if d["model"] == "one-port":
        assert max(out.values()) == 1 and max(inn.values()) == 1, "one-port broken in step %d" % s
    for v, b, x, comb in pend:
        if comb:
            assert red and not (val[v, b] & x), "step %d: %d counts a contribution twice" % (s, v)
            val[v, b] = val[v, b] | x
        else:
            val[v, b] = x
for v in range(N):
    for b in range(nb):
        need = {"broadcast": True, "allreduce": True, "allgather": True,
                "reduce": v == root, "gather": v == root,
                "reduce-scatter": owner(b) == v, "scatter": owner(b) == v,
                "alltoall": (b // per) % N == v}[coll]
        if need:
            assert val[v, b] == full, "node %d block %d: %s" % (v, b, val[v, b])
M = d["bytes"]
lb = d["bounds"]
kind, dims = d["topology"]["kind"], d["topology"]["dims"]
if d["model"] == "one-port":
    assert lb["steps"] == math.ceil(math.log2(N)), lb
elif coll in ("broadcast", "reduce", "gather", "scatter"):
    assert lb["steps"] == topomodel.counting_bound(kind, dims, root), lb
else:   # every node hears from all: the largest over the nodes
    assert lb["steps"] == max(topomodel.counting_bound(kind, dims, v) for v in range(N)), lb
share = M * (N - 1) // N
want = 2 * share if coll == "allreduce" else M if coll in ("broadcast", "reduce") else share
assert lb["node_bytes"] == want, (lb, want)
assert d["summary"]["steps"] == len(d["steps"]) >= lb["steps"]
print(coll, d["algo"], "steps", len(d["steps"]))
PYEOF

coll_ok() { # coll_ok ARGS...: the schedule checked here
	if "$MF" plan --json --steps "$@" >"$TMP/j" 2>"$TMP/e" &&
	   python3 "$TMP/coll.py" <"$TMP/j" >"$TMP/o" 2>&1; then
		ok "plan $* (checked in python: $(cat "$TMP/o"))"
	else
		sed 's/^/# /' "$TMP/e" "$TMP/o" | tail -n 5
		notok "plan $*"
	fi
}
coll_ok --torus 4x4 --coll allreduce --algo swing --size 1MiB --op sum --type s64
coll_ok --torus 8 --coll allreduce --algo swing-lat --size 64
coll_ok --torus 4x4 --coll reduce-scatter --algo swing --size 4KiB
coll_ok --mesh 3x5 --coll allreduce --algo bucket --size 15K
coll_ok --mesh 7 --coll allreduce --algo recdbl --size 8
coll_ok --mesh 6 --coll allreduce --algo rabenseifner --size 96
coll_ok --mesh 2x3 --coll allgather --algo ring --size 60
coll_ok --torus 5 --coll alltoall --algo shift --size 100
coll_ok --hex 3 --coll allreduce --algo 003 --size 8
coll_ok --mesh 4x4 --coll reduce --algo tree --bcast eyes --from 5 --size 8
coll_ok --mesh 4x4 --coll gather --algo tree --from 3 --size 160
coll_ok --mesh 3x3 --coll scatter --algo tree --from 4 --size 90
coll_ok --mesh 4x4 --coll broadcast --algo tree --bcast eyes --size 8
# all-port: the counting bound from the root, or the largest over the nodes
coll_ok --mesh 4x5 --coll allreduce --algo tree --bcast flood --size 8
coll_ok --mesh 3x4 --coll reduce --algo tree --bcast wormhole --from 5 --size 8
coll_ok --torus 2x3x4 --coll broadcast --algo tree --bcast wormhole --from 7 --size 8

# 003's global sum: 2n + 1 steps as printed, 2(n - 1) all-port
if s3=$("$MF" plan --hex 5 --coll allreduce --algo 003 --size 8 --json |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["steps"])') &&
   st=$("$MF" plan --hex 5 --coll allreduce --algo tree --bcast flood --size 8 --json |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["steps"])') &&
   [ "$s3" = 11 ] && [ "$st" = 8 ]; then
	ok "003 global sum on H_5: 11 steps (2n + 1), all-port tree 8 (2(n - 1))"
else
	notok "003 global sum on H_5: got '$s3' and '$st', want 11 and 8"
fi

# auto by the link model: latency-bound small, bandwidth-bound large
a8=$("$MF" plan --torus 16x16 --coll allreduce --size 8 --link-rate 10gbit --link-delay 1us --json |
     python3 -c 'import json,sys; print(json.load(sys.stdin)["algo"])')
a16=$("$MF" plan --torus 16x16 --coll allreduce --size 16MiB --link-rate 10gbit --link-delay 1us --json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["algo"])')
if [ "$a8" = swing-lat ] && [ "$a16" = bucket ]; then
	ok "auto on a 16x16 torus, 10 Gbit/s, 1 us: swing-lat at 8 B, bucket at 16 MiB"
else
	notok "auto on a 16x16 torus: got '$a8' at 8 B and '$a16' at 16 MiB"
fi

bad() { # bad RC ARGS...: exit status RC, one line on stderr
	local want=$1; shift
	"$MF" "$@" >"$TMP/o" 2>"$TMP/e"
	local rc=$?
	if [ "$rc" = "$want" ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ]; then
		ok "error exit $want, one line: meshfabric $*"
	else
		echo "# rc=$rc stderr=$(tr '\n' '|' <"$TMP/e")"
		notok "error exit $want, one line: meshfabric $*"
	fi
}
bad 2 plan --torus 4x4 --coll allreduce --type f32
bad 2 plan --torus 4x4 --coll allreduce --type double
bad 2 plan --torus 4x4 --coll allsum
bad 2 plan --torus 4x4 --coll allreduce --algo eyes
bad 2 plan --torus 4x4 --coll allreduce --op avg
bad 2 plan --torus 4x4 --coll allreduce --size 2GiB
bad 2 plan --torus 4x4 --coll allreduce --size 1XB
bad 2 plan --torus 4x4 --coll allreduce --down 0:x+
bad 2 plan --torus 4x4 --op sum
bad 1 plan --mesh 3x3 --coll allreduce --algo swing
bad 1 plan --torus 6x6 --coll allreduce --algo swing
bad 1 plan --mesh 4x4 --coll allreduce --algo 003
bad 1 plan --mesh 3 --coll reduce-scatter --algo rabenseifner
if grep -q -- '--coll' <("$MF" plan --help) && man -l docs/meshfabric.8 2>/dev/null |
   grep -q 'plan --coll'; then
	ok "plan --help and the man page document --coll"
else
	notok "plan --help and the man page document --coll"
fi
tap_end
