#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make coll-bench` in its quick form (scripts/coll-bench.sh --quick: the
# model on a 4x4 torus, 8 B, 4 KiB and 1 MiB, no VM), as TAP.  The table
# and the plot are checked against what is computed here: the lower bound
# from its formula (diameter x delay + 2(N-1)/N x M over 4 ports), each
# ratio >= 1 and equal to model / bound, the plot's polylines one per
# algorithm and panel with one point per size, and the kernel's column
# reported missing with its reason when the tool has no `coll` command
# (not a number made up).  Also mf-mpirun's usage errors and its rsh
# agent's mapping of hosts to nodes.
cd "${MF_TOP:-.}" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. scripts/tap.sh

if MF_COLL_BENCH_OUT=$TMP/cb bash scripts/coll-bench.sh --quick >"$TMP/log" 2>&1; then
	ok "coll-bench --quick runs"
else
	comment "$TMP/log"
	notok "coll-bench --quick runs"
fi
cat >"$TMP/check.py" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
d = sys.argv[1]
rows = [l.rstrip("\n").split("\t") for l in open(d + "/model.tsv") if not l.startswith("#")]
algos = sorted({r[3] for r in rows})
assert algos == sorted("tree ring recdbl rabenseifner bucket swing swing-lat".split()), algos
assert len(rows) == 7 * 3, len(rows)
N, ports, diam, rate, delay = 16, 4, 4, 10e9, 1000
for shape, _, _, algo, b, steps, model, bound in rows:
    b, steps, model, bound = int(b), int(steps), int(model), int(bound)
    want = diam * delay + 2 * (N - 1) / N * b * 8 / (rate * ports) * 1e9
    assert abs(bound - want) <= 1, (algo, b, bound, want)
    assert model >= bound, (algo, b, model, bound)
    assert steps >= 4, (algo, steps)
md = open(d + "/coll-bench.md").read()
for shape, _, _, algo, b, steps, model, bound in rows:
    r = "(%.2f)" % (int(model) / int(bound))
    assert r in md, (algo, b, r)
root = ET.parse(d + "/coll-bench-4x4.svg").getroot()
ns = "{http://www.w3.org/2000/svg}"
lines = root.findall(ns + "polyline")
titled = [p for p in lines if p.find(ns + "title") is not None]
assert len(titled) == 2 * 7, len(titled)
assert all(len(p.get("points").split()) == 3 for p in lines), "3 points a line"
print("%d rows, %d polylines" % (len(rows), len(lines)))
PYEOF
if python3 "$TMP/check.py" "$TMP/cb" >"$TMP/o" 2>&1; then
	ok "model table, ratios and plot agree with the bound computed here ($(cat "$TMP/o"))"
else
	comment "$TMP/o"
	notok "model table, ratios and plot agree with the bound computed here"
fi
if build/meshfabric coll --help >/dev/null 2>&1; then
	check "with 'meshfabric coll', --quick says the kernel was not measured" \
		grep -q 'Kernel column missing:\*\* not measured' "$TMP/cb/coll-bench.md"
else
	check "without 'meshfabric coll', the kernel column is missing and says why" \
		grep -q "Kernel column missing:\*\* this build of meshfabric has no 'coll' command" \
		"$TMP/cb/coll-bench.md"
fi
check "no kernel numbers made up: no kernel.tsv" test ! -e "$TMP/cb/kernel.tsv"

# mf-mpirun's usage errors: exit 2 and one line, before any MPI
mpirun_bad() { # mpirun_bad WHAT ARGS...
	local what=$1 rc
	shift
	MF=build/meshfabric scripts/mf-mpirun "$@" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ]; then
		ok "mf-mpirun $what: exit 2, one line"
	else
		comment "$TMP/e"
		notok "mf-mpirun $what: exit 2, one line (got $rc)"
	fi
}
mpirun_bad "without a program" fabric
mpirun_bad "with an unknown option" -x fabric prog
MF_MPIRUN_FABRIC=f scripts/mf-mpirun --agent -x node3 true >/dev/null 2>"$TMP/e"
check "mf-mpirun --agent refuses a host not named nID" test $? = 2 -a -s "$TMP/e"
MF_MPIRUN_FABRIC='' scripts/mf-mpirun --agent n3 true >/dev/null 2>"$TMP/e"
check "mf-mpirun --agent outside mpirun (no fabric) is refused" test $? = 2 -a -s "$TMP/e"
# the agent runs the command in the node of its host's id, as sh -c
printf '#!/bin/sh\necho "$@"\n' >"$TMP/mf"
chmod +x "$TMP/mf"
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else notok "$1 (got '$2', want '$3')"; fi; }
check_eq "mf-mpirun --agent -x n12 CMD runs 'meshfabric exec FABRIC 12 -- sh -c CMD'" \
	"$(MF=$TMP/mf MF_MPIRUN_FABRIC=f TMPDIR=$TMP scripts/mf-mpirun --agent -x n12 orted a b)" \
	"exec f 12 -- sh -c orted a b"
tap_end
