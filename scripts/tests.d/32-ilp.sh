#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Exact answers for all-port broadcasts (scripts/allport-ilp.py: wormhole's
# model as an integer program that CBC decides; docs/wormhole.md, "Exact
# answers"), as TAP:
#  - the script's checker (python, not the C one) accepts the tool's
#    wormhole schedules and names what is wrong in broken ones;
#  - it agrees with the unit tests' exhaustive decision of 2 steps
#    (test_two_steps_exhaustive, a max flow of their own): 2x3x6 from a
#    node of 5 links and 3x3x5 from one of 6 need 3 steps, 3x3x3 from its
#    centre and 2x3x5 from (0,1,2) take 2;
#  - the schedules it finds pass the C checker (plan --schedule) with the
#    steps asked for;
#  - where wormhole stays one step above the counting bound (computed
#    here from the nodes' links, as Lemma 1 of 002 refined by degree), it
#    proves that step needed on 2x5x13 and 4x6x7 from a corner: no
#    schedule of the bound's steps exists, so wormhole's are optimal;
#  - the class flow (--bound, --sweep): a lower bound from a relaxation.
#    It must allow every schedule the tool or the ILP finds (never above
#    their steps), and every step count it refuses the exact ILP must
#    refuse too: on every shape a sweep of 3-D meshes up to 200 nodes
#    from a corner lists above the counting bound, and on 4x11x27 from a
#    corner (1188 nodes), which it proves needs 5 steps, wormhole's;
#    with the boundary (links out of the informed set), 3x3x35 from
#    node 247 needs 4 steps, which the classes alone do not show and the
#    exact ILP confirms; the ILP, given the boundary as a cut for the
#    second half of its time, proves 3x6x9 from a corner needs 4.
#    (On mesh 2x2x558 CBC's presolve aborts, and the script solves
#    again without it.)
#  - the sweep's --retry N: the shapes it lists above the bound, built
#    again at effort N, take what plan --effort N takes, between the
#    counting bound and their first steps, and its summary counts them;
#    --sweep of such a list calls those at the bound "reached" and
#    bounds the others against their best steps (the ILP confirms each
#    it calls optimal).
cd "${MF_TOP:-.}" || exit 1
MF=build/meshfabric
ILP=scripts/allport-ilp.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. scripts/tap.sh

need_tool build/bench/sweep_wormhole
if ! command -v cbc >/dev/null; then
	notok "cbc (coinor-cbc) is installed: make setup"
	exit 1
fi

# the counting bound, refined by degree: informed nodes other than the
# source have at best the most links there are, one new node per link
cp scripts/tests.d/topomodel.py "$TMP/"
bound() { # bound mesh|torus DIMS NODE-ID (tests.d/topomodel.py)
	PYTHONPATH=$TMP python3 -c '
import sys, topomodel
print(topomodel.counting_bound(sys.argv[1], [int(x) for x in sys.argv[2].split("x")], int(sys.argv[3])))' "$@"
}

# ---------------------------------------------------------------- checker
for a in "--mesh 4x6x7 --from 0,0,0" "--torus 5x5x6" "--mesh 3x3x3x3 --from 0,0,0,0"; do
	# shellcheck disable=SC2086
	"$MF" plan --json $a --algo wormhole >"$TMP/w.json"
	check "checker: wormhole on ${a#--} valid here too" \
		bash -c "$ILP --check - <$TMP/w.json | grep -q '^valid'"
done
"$MF" plan --json --mesh 3x3 --from 1,1 --algo wormhole >"$TMP/s.json"
broken() { # broken WANT EDIT: the checker's verdict on an edited schedule
	local want=$1 edit=$2 got
	got=$(python3 -c "
import json; d = json.load(open('$TMP/s.json')); $edit; print(json.dumps(d))" |
		"$ILP" --check -)
	case $got in
	"invalid: $want"*) ok "checker: '$edit' is refused ($got)" ;;
	*) notok "checker: '$edit' is refused as '$want' (got '$got')" ;;
	esac
}
broken "step 2: link 4 -> 1 carries two messages" \
	'd["steps"][1][0]["path"] = [3, 4, 1, 0]; d["steps"][1][2]["path"] = [5, 4, 1, 2]'
broken "step 1: 0 sends before it is informed" \
	'd["steps"][0][0]["src"] = 0; d["steps"][0][0]["path"] = [0, 3]'
broken "step 2: 3 -> 1 is not a link" 'd["steps"][1][0]["path"] = [3, 1, 0]'
broken "1 nodes never informed" 'd["steps"][1].pop()'
broken "step 2: 0 is informed twice" \
	'd["steps"][1].append({"src": 5, "dst": 0, "path": [5, 4, 1, 0]})'

# ---------------------------------------------------------------- errors
bad() { # bad ARGS...: exit 1, one line on stderr, nothing on stdout
	"$ILP" "$@" >"$TMP/o" 2>"$TMP/e"
	local rc=$?
	if [ "$rc" = 1 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ]; then
		ok "allport-ilp.py $*: exit 1, one line ($(cat "$TMP/e"))"
	else
		notok "allport-ilp.py $*: exit 1, one line (rc $rc: $(tr '\n' '|' <"$TMP/e"))"
	fi
}
bad --mesh 4x4
bad --mesh 4y4 --steps 2
bad --mesh 4x4 --from 4,0 --steps 2
bad --torus 4x4 --from 0,0,0 --steps 2
bad --mesh 4x4 --steps 0
bad --check "$TMP/none.json"
bad --mesh 4x4 --steps 2 --bogus
bad --mesh 4x4 --bound --steps 2
bad --sweep "$TMP/none.txt"
printf '2x5x13 from 0: 4 steps, bound 3 (0.18 s)\n' >"$TMP/nosummary.txt"
bad --sweep "$TMP/nosummary.txt"
printf '2x3x5 from 30: 4 steps, bound 3 (0.1 s)\nmesh d=3, ...\n' >"$TMP/badnode.txt"
bad --sweep "$TMP/badnode.txt"
bad --sweep "$TMP/badnode.txt" --from 1
printf 'mesh d=2, ...\n3x3 from 0: 1 steps, bound 2 (0.1 s)\n' >"$TMP/below.txt"
bad --sweep "$TMP/below.txt"
printf '\377\376 mesh d=2\n' >"$TMP/binary.txt"
bad --sweep "$TMP/binary.txt"
printf 'mesh d=3, ...\n2x5x13 from 0: 4 steps, bound 3 (0.1 s); effort 4: 2 steps (1 s)\n' >"$TMP/retrybelow.txt"
bad --sweep "$TMP/retrybelow.txt"
printf 'mesh d=3, ...\n2x5x13 from 0: 4 steps, bound 3 (0.1 s); effort 4: 3 steps (1 s)\n2x5x13 from 1: 4 steps, bound 3 (0.1 s); effort 5: 3 steps (1 s)\n' >"$TMP/retrymixed.txt"
bad --sweep "$TMP/retrymixed.txt"

# ---------------------------------------------------------------- 2 steps
# ILP SHAPE NODE STEPS WANT: the script's answer; feasible ones checked
# again by the C checker
ilp() {
	local shape=$1 node=$2 k=$3 want=$4 got
	got=$("$ILP" --mesh "$shape" --from "$node" --steps "$k" --json --time 300)
	case $want in
	infeasible)
		check "mesh $shape from $node: no schedule of $k steps" \
			python3 -c 'import json, sys; assert json.loads(sys.argv[1])["result"] == "infeasible", sys.argv[1]' "$got" ;;
	feasible)
		printf '%s' "$got" | python3 -c 'import json, sys; json.dump(json.load(sys.stdin).get("schedule"), sys.stdout)' >"$TMP/ilp.json"
		check "mesh $shape from $node: a schedule of $k steps, valid under the C checker" \
			bash -c "$MF plan --mesh $shape --schedule $TMP/ilp.json --summary | grep -q '^steps  *$k\$'" ;;
	esac
}
ilp 2x3x6 0,1,1 2 infeasible
ilp 2x3x6 0,1,1 3 feasible
ilp 3x3x5 1,1,2 2 infeasible
ilp 3x3x5 1,1,2 3 feasible
ilp 3x3x3 1,1,1 2 feasible
ilp 2x3x5 0,1,2 2 feasible

# ---------------------------------------------------------------- optimal above the bound
for shape in 2x5x13 4x6x7; do
	b=$(bound mesh "$shape" 0)
	w=$("$MF" plan --mesh "$shape" --from 0,0,0 --algo wormhole --summary | awk '$1 == "steps" { print $2 }')
	check "mesh $shape from a corner: wormhole $w steps, one above the counting bound $b" \
		[ "$w" = $((b + 1)) ]
	ilp "$shape" 0,0,0 "$b" infeasible
done
ilp 4x4x4 0,0,0 3 feasible

# ---------------------------------------------------------------- class flow
# cbound KIND SHAPE NODE: the class bound (--bound --json)
cbound() {
	"$ILP" --"$1" "$2" --from "$3" --bound --json --time 120 |
		python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["decided"], d; print(d["class_bound"])'
}
# never above a schedule's steps: wormhole's (checked by mf_check), and
# the ILP's 3 steps on 2x3x6 from (0,1,1), where 2 are impossible
for a in "mesh 4x4x4x4 0,0,0,0" "mesh 3x3x3x3 1,1,1,1" "mesh 2x3x21 0,0,0 --effort 50" \
	"mesh 2x2x558 0,0,0" \
	"mesh 8x8x8 3,4,2" "torus 5x5x6 0,0,0" "torus 4x4x4 0,0,0" "mesh 2x3x6 0,1,1"; do
	set -- $a
	w=$("$MF" plan --"$1" "$2" --from "$3" --algo wormhole --summary $4 $5 |
		awk '$1 == "steps" { print $2 }')
	c=$(cbound "$1" "$2" "$3")
	b=$(bound "$1" "$2" "$(python3 -c "
import sys; d = [int(x) for x in sys.argv[1].split('x')]; c = [int(x) for x in sys.argv[2].split(',')]
v, s = 0, 1
for x, n in zip(c, d): v += x * s; s *= n
print(v)" "$2" "$3")")
	within=false
	[ -n "$c" ] && [ "$b" -le "$c" ] && [ "$c" -le "$w" ] && within=true
	check "class bound of $1 $2 from $3 ($c) between the counting bound ($b) and wormhole's steps ($w)" \
		$within
done
check "class bound of mesh 2x3x6 from 0,1,1: 3, the exact answer" \
	[ "$(cbound mesh 2x3x6 0,1,1)" = 3 ]

# a sweep's shapes: every step count the class flow refuses, the ILP does
build/bench/sweep_wormhole mesh 3 --max-nodes 200 >"$TMP/sweep.txt"
"$ILP" --sweep "$TMP/sweep.txt" --time 60 >"$TMP/cls.txt"
comment "$TMP/cls.txt"
n=$(grep -c 'from 0:' "$TMP/sweep.txt")
lines=$(grep -c ', class bound [0-9]' "$TMP/cls.txt")
each=false
[ "$n" -gt 0 ] && [ "$lines" = "$n" ] &&
	grep -q "^mesh: $n shapes above the counting bound" "$TMP/cls.txt" && each=true
check "--sweep: a line for each of the $n shapes the sweep lists ($lines), and its summary" \
	$each
opt=0
while read -r shape _ node steps _ _ b _ _ cb say; do
	node=${node%:} cb=${cb%:}
	if [ "$say" = optimal ]; then
		opt=$((opt + 1))
		got=$("$ILP" --mesh "$shape" --from "$node" --steps $((steps - 1)) --json --time 300)
		check "mesh $shape from a corner: class bound $cb = wormhole's steps; the ILP finds no $((steps - 1))" \
			python3 -c 'import json, sys; assert json.loads(sys.argv[1])["result"] == "infeasible", sys.argv[1]' "$got"
	fi
done <"$TMP/cls.txt"
check "--sweep: wormhole optimal on $opt of the $n shapes, as its summary says" \
	grep -q "^mesh: $n shapes above the counting bound, $opt at their class bound" "$TMP/cls.txt"
check "--sweep: the class bound proves some of them (the six the ILP does)" [ "$opt" = 6 ]

# --retry: the shapes left above the bound, built again at a higher
# effort; each agrees with plan at that effort, none goes below the
# counting bound (computed here) or above its first steps, and the
# summary counts those still above
for a in "--retry abc" "--retry 4294967298" "--effort 3 --retry 2" "--retry -1"; do
	# shellcheck disable=SC2086
	build/bench/sweep_wormhole mesh 2 --max-nodes 12 $a >/dev/null 2>"$TMP/e"
	rc=$?
	check "sweep_wormhole $a: usage, exit 2" \
		[ "$rc:$(grep -c '^usage: ' "$TMP/e")" = 2:1 ]
done
# retry_sweep NAME ARGS...: the checks above on one sweep's --retry 4
# list; adds the shapes reached only at effort 4 to $reached_all
reached_all=0
retry_sweep() {
	local name=$1 f="$TMP/retry-$1.txt" above=0 still=0 reached=0
	local shape node steps s2 b p ok rr best cb say got
	shift
	build/bench/sweep_wormhole "$@" --retry 4 >"$f"
	comment "$f"
	while read -r shape _ node steps _ _ _ _ _ _ _ s2 _; do
		node=${node%:}
		above=$((above + 1))
		b=$(bound mesh "$shape" "$node")
		p=$("$MF" plan --mesh "$shape" --from "$node" --algo wormhole --effort 4 --summary |
			awk '$1 == "steps" { print $2 }')
		ok=false
		[ "$s2" = "$p" ] && [ "$b" -le "$s2" ] && [ "$s2" -le "$steps" ] && ok=true
		check "--retry 4 ($name): mesh $shape from $node: $steps steps, then $s2 (plan --effort 4: $p; bound $b)" \
			$ok
		if [ "$s2" -gt "$b" ]; then still=$((still + 1)); else reached=$((reached + 1)); fi
	done < <(grep ' from [0-9]*: .*; effort 4: ' "$f")
	check "--retry 4 ($name): a line for each of the $above shapes above, summary: $still still above" \
		grep -q "^at effort 4: $still of the $above still above" "$f"
	reached_all=$((reached_all + reached))
	# --sweep of that list: the shapes reached at effort 4 are "reached",
	# the others get their class bound against their best steps; each it
	# calls optimal has no schedule one step shorter (the exact ILP)
	"$ILP" --sweep "$f" --time 60 >"$TMP/rcls-$name.txt"
	comment "$TMP/rcls-$name.txt"
	check "--sweep of a --retry list ($name): $reached reached, its summary says so" \
		grep -q "^mesh: $above shapes above the counting bound, $reached reach it at effort 4, " "$TMP/rcls-$name.txt"
	rr=$(grep -c ', effort 4: [0-9]* steps, bound [0-9]*: reached$' "$TMP/rcls-$name.txt")
	check "--sweep of a --retry list ($name): a reached line for each ($rr)" [ "$rr" = "$reached" ]
	while read -r shape _ node _ _ _ _ best _ _ _ _ _ cb say; do
		node=${node%:} cb=${cb%:}
		[ "$say" = optimal ] || continue
		# --from takes the node id as the sweep lists it
		got=$("$ILP" --mesh "$shape" --from "$node" --steps $((best - 1)) --json --time 300)
		check "mesh $shape from $node: class bound $cb = its best steps $best; the ILP finds no $((best - 1))" \
			python3 -c 'import json, sys; assert json.loads(sys.argv[1])["result"] == "infeasible", sys.argv[1]' "$got"
	done < <(grep ', effort 4: .*class bound' "$TMP/rcls-$name.txt")
}
# 3-D meshes from a random node: 4x6x7 from node 20 stays above at
# effort 4, and its class bound proves it optimal
retry_sweep 3d-random mesh 3 --max-nodes 200 --from random
# 2-D meshes of sides 3 or more from a random node: 3x126 and 3x128
# from nodes 293 and 30 reach the bound at effort 4 only, 11 others stay
# above, and the class bound proves 5x25 from node 51 optimal (before
# the local search's starts by free links: 3x126, 3x130 and 3x133 from
# nodes 293, 96 and 11 at effort 4 only, 10 others above; 3x130 is at
# the bound at the default now, 3x128 from node 30 went above it, and
# 3x133 stays above at effort 4; 10x31 from a corner played this part,
# in a sweep of sides 10 or more from a corner, until the second extension
# reached it at the default; 14x22 before that, until the nearest
# swaps; 2x3x28 from node 11 in the 3-D sweep before that, until the
# local search went on near a finish)
retry_sweep 2d-random mesh 2 --min-side 3 --max-nodes 400 --from random
check "--retry 4: some shape reaches the bound only at effort 4 ($reached_all)" [ "$reached_all" -gt 0 ]

w=$("$MF" plan --mesh 4x11x27 --from 0,0,0 --algo wormhole --summary | awk '$1 == "steps" { print $2 }')
c=$(cbound mesh 4x11x27 0,0,0)
b=$(bound mesh 4x11x27 0)
five=false
[ "$c" = 5 ] && [ "$w" = 5 ] && [ "$b" = 4 ] && five=true
check "mesh 4x11x27 from a corner: class bound $c = wormhole's $w, one above the counting bound $b" \
	$five
ilp 4x11x27 0,0,0 4 infeasible

# ilp_py CODE ARGS...: python CODE with the script loaded as m
ilp_py() {
	python3 -c "
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('ilp', sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
$1" "$ILP" "${@:2}"
}
# the boundary (links out of the informed set) in the class flow: mesh
# 3x3x35 from node 247 (1,1,27) needs 4 steps by it, 3 by the classes
# alone, and the exact program refuses 3 (docs/wormhole.md, "The
# boundary"); wormhole takes 4
c=$(cbound mesh 3x3x35 1,1,27)
c0=$(ilp_py '
t = m.make_topo("mesh", "3x3x35"); cl = m.classes(t, 247)
print(m.cbc_run(m.class_lp(cl, 3, boundary=False), 120)[0])')
b=$(bound mesh 3x3x35 247)
w=$("$MF" plan --mesh 3x3x35 --from 1,1,27 --algo wormhole --summary | awk '$1 == "steps" { print $2 }')
four=false
[ "$c" = 4 ] && [ "$c0" = feasible ] && [ "$b" = 3 ] && [ "$w" = 4 ] && four=true
check "mesh 3x3x35 from 1,1,27: class bound $c with the boundary, 3 steps $c0 without it, counting bound $b, wormhole $w" \
	$four
ilp 3x3x35 1,1,27 3 infeasible
# the exact program's second half, with the boundary as a cut: 3x6x9
# from a corner has no 3-step schedule (about 5 s with the cut; the
# model alone is undecided after 30 s), so wormhole's 4 are optimal
w=$("$MF" plan --mesh 3x6x9 --from 0,0,0 --algo wormhole --summary | awk '$1 == "steps" { print $2 }')
got=$("$ILP" --mesh 3x6x9 --from 0,0,0 --steps 3 --json --time 40)
check "mesh 3x6x9 from 0,0,0: no schedule of 3 steps within 40 s, in the cut's half; wormhole $w" \
	python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["result"] == "infeasible" and d["cut"] and sys.argv[2] == "4", sys.argv[1:]' "$got" "$w"
# the model with the cut keeps the schedules: solved alone where 2
# steps exist (3x3x3 from its centre, 2x3x5 from (0,1,2): the
# exhaustive decision above), its answer decomposes into a schedule
# that the script's checker and the C one accept
for a in 3x3x3:13 2x3x5:14; do
	set -- "${a%:*}" "${a#*:}"
	ilp_py '
t = m.make_topo("mesh", sys.argv[2]); src = int(sys.argv[3])
res, val = m.cbc_run(m.lp_text(t, src, 2, cut=True), 120, True)
assert res == "feasible", res
steps = m.decompose(t, src, 2, val)
assert steps is not None and m.check(t, src, steps) is None
json.dump(m.schedule_json(t, src, steps), open(sys.argv[4], "w"))' \
		"$1" "$2" "$TMP/cut.json"
	check "mesh $1 from node $2: the model with the cut finds 2 steps, valid under both checkers" \
		bash -c "$MF plan --mesh $1 --schedule $TMP/cut.json --summary | grep -q '^steps  *2\$'"
done

tap_end
