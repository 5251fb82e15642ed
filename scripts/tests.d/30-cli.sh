#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# CLI tests of the meshfabric tool (build/meshfabric, and build/san/meshfabric
# under ASan/UBSan for a few runs), as TAP.  Every value is checked against
# an independent source: the papers' closed forms, a breadth-first search and
# a schedule checker written here in python3 (not the C checker), the JSON
# grammar (python3's json module), groff for the man page, bash for the
# completion.  Nothing is skipped: what cannot run says "not ok".
cd "${MF_TOP:-.}" || exit 1
MF=build/meshfabric
SAN=build/san/meshfabric
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

. scripts/tap.sh

need_tool "$SAN"
ok "the tool builds"

# ---------------------------------------------------------------- help
help_ok() { # exit 0, something on stdout, nothing on stderr
	"$@" >"$TMP/o" 2>"$TMP/e" && [ -s "$TMP/o" ] && [ ! -s "$TMP/e" ]
}
check "meshfabric help, -h, --help, -V" \
	bash -c "$(declare -f help_ok); TMP=$TMP; help_ok $MF help && help_ok $MF -h &&
		 help_ok $MF --help && help_ok $MF -V && help_ok $MF --version"
cmds=$($MF help --commands)
for c in $cmds; do
	check "meshfabric $c --help exits 0 with usage on stdout" \
		bash -c "$(declare -f help_ok); TMP=$TMP; help_ok $MF $c --help &&
			 grep -q '^usage: meshfabric $c' $TMP/o && help_ok $MF help $c"
done

# ---------------------------------------------------------------- errors
# Each bad input: exit status as given, exactly one line on stderr starting
# with "meshfabric: ", nothing on stdout.
bad() { # bad RC ARGS...
	local want=$1; shift
	"$MF" "$@" >"$TMP/o" 2>"$TMP/e"
	local rc=$?
	if [ "$rc" = "$want" ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ] &&
	   grep -q '^meshfabric: ' "$TMP/e"; then
		ok "error exit $want, one line: meshfabric $*"
	else
		echo "# rc=$rc stdout=$(head -c 200 "$TMP/o" | tr '\n' ' ') stderr=$(tr '\n' '|' <"$TMP/e")"
		notok "error exit $want, one line: meshfabric $*"
	fi
}
bad 2
bad 2 bogus
bad 2 --bogus
bad 2 help bogus
bad 2 plan
bad 2 plan --bogus
bad 2 plan --mesh 8x
bad 2 plan --mesh 0x4
bad 2 plan --mesh 1x4
bad 2 plan --mesh 2x2x2x2x2x2x2x2x2
bad 2 plan --mesh 99999999999x2
bad 2 plan --mesh 9000x9000
bad 2 plan --mesh ''
bad 2 plan --mesh 8x8 --torus 8x8
bad 2 plan --mesh 8x8 --from
bad 2 plan --mesh 8x8 --from 8,0
bad 2 plan --mesh 8x8 --from 1,2,3
bad 2 plan --mesh 8x8 --from 64
bad 2 plan --mesh 8x8 --algo nope
bad 2 plan --mesh 8x8 --routing nope
bad 2 plan --mesh 8x8 --routing a1
bad 2 plan --mesh 8x8 --model two-port
bad 2 plan --mesh 8x8 --format xml
bad 2 plan --mesh 8x8 --json --format dot
bad 2 plan --mesh 8x8 --steps --summary
bad 2 plan --mesh 8x8 extra
bad 2 plan --hex 1
bad 2 plan --hex 4 --from 1,1
bad 2 plan --hex 4 --from 37
bad 2 plan --json=yes --mesh 4x4
bad 2 route --mesh 4x4 --from 0,0
bad 2 route --hex 4 --from 11 --to 5 --routing dor
bad 1 analyze --mesh 80x80
bad 2 analyze --torus 4x4 --routing a1
bad 2 analyze --torus 4x
bad 1 plan --mesh 6x6 --algo eyes
if grep -q "6x6 is not one" "$TMP/e" && grep -q "covers" "$TMP/e"; then
	ok "plan --algo eyes on 6x6 names the shapes eyes covers"
else
	echo "# stderr: $(cat "$TMP/e")"
	notok "plan --algo eyes on 6x6 names the shapes eyes covers"
fi

# ---------------------------------------------------------------- plan JSON
# An independent schedule checker: neighbours from the definitions (topo.h
# ids; H_n: i +- 1, i +- (3n-1), i +- (3n-2) mod p, 003), every node
# informed exactly once, senders informed earlier, port model, link loads,
# and the JSON shape of the brief, key for key.
# Ids, coordinates, degrees and the counting bound: topomodel.py, shared
# by the python checkers below
cp scripts/tests.d/topomodel.py "$TMP/"
cat >"$TMP/checkplan.py" <<'EOF'
import json, sys
import topomodel
from collections import Counter
d = json.load(sys.stdin)
want_keys = ["topology", "algo", "model", "source", "nodes", "summary", "steps"]
if d["algo"] in ("tree", "binomial"):   # the algorithms that follow a routing
    want_keys.insert(3, "routing")
    assert d["routing"] in ("dor", "diagonal", "cdo", "a1"), d["routing"]
assert list(d.keys()) == want_keys, "keys %s" % list(d.keys())
topo = d["topology"]; kind = topo["kind"]; dims = topo["dims"]
assert list(topo.keys()) == ["kind", "dims"]
assert list(d["summary"].keys()) == ["steps", "sends", "tcd", "max_link_load", "contention_free", "counting_bound"]
N = topomodel.nodes(kind, dims)
assert d["nodes"] == N, (d["nodes"], N)
def coords(i): return topomodel.coords(dims, i)
def counting_bound():   # fewest steps by counting the nodes a step informs
    return topomodel.counting_bound(kind, dims, d["source"], d["model"])
def ident(c): return topomodel.ident(dims, c)
def adjacent(a, b):
    if kind == "hex":
        n = dims[0]
        return (b - a) % N in {1, N - 1, 3*n - 1, N - 3*n + 1, 3*n - 2, N - 3*n + 2}
    ca, cb = coords(a), coords(b)
    diff = [i for i in range(len(dims)) if ca[i] != cb[i]]
    if len(diff) != 1: return False
    i = diff[0]; delta = abs(ca[i] - cb[i])
    return delta == 1 or (kind == "torus" and delta == dims[i] - 1)
informed = {d["source"]: -1}
tcd = 0; sends = 0; maxload = 0
for s, step in enumerate(d["steps"]):
    assert step, "empty step %d" % s
    senders = Counter(); links = Counter()
    for m in step:
        assert list(m.keys()) == ["src", "dst", "path"]
        p = m["path"]
        assert p[0] == m["src"] and p[-1] == m["dst"] and len(p) >= 2, m
        assert informed.get(m["src"], s) < s, "sender %d not informed before step %d" % (m["src"], s)
        assert m["dst"] not in informed, "node %d informed twice" % m["dst"]
        informed[m["dst"]] = s
        for a, b in zip(p, p[1:]):
            assert adjacent(a, b), "%d-%d not adjacent" % (a, b)
            links[(a, b)] += 1
        senders[(m["src"], p[1]) if d["model"] == "all-port" else m["src"]] += 1
        tcd += len(p) - 1; sends += 1
    assert max(senders.values()) == 1, "port model %s broken in step %d" % (d["model"], s)
    maxload = max(maxload, max(links.values()))
assert len(informed) == N, "%d of %d informed" % (len(informed), N)
sm = d["summary"]
got = (sm["steps"], sm["sends"], sm["tcd"], sm["max_link_load"], sm["contention_free"])
want = (len(d["steps"]), sends, tcd, maxload, maxload <= 1)
assert got == want, "summary %s, recomputed %s" % (got, want)
cb = counting_bound()
assert sm["counting_bound"] == cb, "counting bound %s, recomputed %d" % (sm["counting_bound"], cb)
assert len(d["steps"]) >= cb, "%d steps, below the counting bound %d" % (len(d["steps"]), cb)
print("%s %s steps=%d tcd=%d" % (d["algo"], dims, len(d["steps"]), tcd))
EOF

plan_json_ok() { # plan_json_ok ARGS...: valid JSON, shape, independent check
	"$MF" plan --json "$@" >"$TMP/p.json" 2>"$TMP/p.err" &&
		python3 "$TMP/checkplan.py" <"$TMP/p.json"
}
# The test matrix: every algorithm on the shapes it covers; an algorithm
# that covers none of them (or is not in this build) fails.
shapes="--mesh=4x4:--from=1,2 --mesh=8x8:--from=0,0 --mesh=8x8:--from=3,5
	--mesh=5x7:--from=2,3 --torus=8x8:--from=5,6 --torus=5x5:--from=0,0
	--torus=6x6:--from=2,3 --mesh=4x4x4:--from=1,2,3 --torus=4x4x4:--from=0,0,0
	--mesh=2x2x2x2:--from=1,0,1,0 --torus=7x7:--from=3,3 --hex=2:--from=0
	--hex=4:--from=11 --hex=5:--from=0 --mesh=16:--from=3 --torus=2x4x3:--from=1,2,1"
for algo in auto eyes hex tree binomial flood tsay-wang mintcd wormhole split; do
	covered=0 failed=0
	for s in $shapes; do
		args=$(echo "$s" | tr ':' ' ')
		# shellcheck disable=SC2086
		if plan_json_ok --algo "$algo" $args >"$TMP/c.out" 2>&1; then
			covered=$((covered + 1))
		elif grep -q "is not one" "$TMP/p.err"; then
			:	# the algorithm does not cover this shape: said so, exit 1
		elif grep -q "unknown algorithm" "$TMP/p.err"; then
			failed=$((failed + 1))
			echo "# $(cat "$TMP/p.err")"
			break
		else
			failed=$((failed + 1))
			echo "# $algo $args: $(cat "$TMP/p.err" "$TMP/c.out" | tail -n 3 | tr '\n' ' ')"
		fi
	done
	if [ $failed = 0 ] && [ $covered -gt 0 ]; then
		ok "plan --algo $algo --json: shape and independent check on $covered shapes"
	else
		notok "plan --algo $algo --json: shape and independent check ($covered ok, $failed failed)"
	fi
done

json_field() { # json_field EXPR < json
	python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}
# 000 Eq. 9: MD_k(0,0) = 18, 79, 318 for 4x4, 8x8, 16x16; steps 2k (one-port
# optimum log2 N).
for k in 2 3 4; do
	s=$((1 << k)); want=$( [ $k = 2 ] && echo 18 || { [ $k = 3 ] && echo 79 || echo 318; })
	got=$("$MF" plan --json --summary --mesh ${s}x${s} --from 0,0 --algo eyes 2>&1 |
	      json_field 'd["summary"]["tcd"], d["summary"]["steps"]' 2>/dev/null)
	if [ "$got" = "$want $((2 * k))" ]; then
		ok "eyes ${s}x${s} from a corner: TCD $want in $((2 * k)) steps (000 Eq. 9)"
	else
		notok "eyes ${s}x${s} from a corner: TCD $want in $((2 * k)) steps (000 Eq. 9), got '$got'"
	fi
done
# 000 section 2: sending to the submeshes' corners gives 84 on 8x8 from (0,0)
got=$("$MF" plan --json --summary --mesh 8x8 --from 0,0 --algo binomial 2>&1 |
      json_field 'd["summary"]["tcd"], d["summary"]["steps"]' 2>/dev/null)
if [ "$got" = "84 6" ]; then ok "binomial 8x8 from a corner: TCD 84, 6 steps (000 section 2)"
else notok "binomial 8x8 from a corner: TCD 84, 6 steps (000 section 2), got '$got'"; fi
# 003 Theorem 3: A2 broadcasts in n + 2 steps (3 for n = 2)
for hn in 2 3 4 7; do
	want=$(( hn == 2 ? 3 : hn + 2 ))
	got=$("$MF" plan --json --summary --hex $hn --from 0 --algo hex 2>&1 |
	      json_field 'd["summary"]["steps"], d["summary"]["sends"]' 2>/dev/null)
	if [ "$got" = "$want $((3 * hn * hn - 3 * hn))" ]; then
		ok "hex A2 on H_$hn: $want steps (003 Theorem 3)"
	else notok "hex A2 on H_$hn: $want steps (003 Theorem 3), got '$got'"; fi
done

# summary-only and text agree with the JSON
if "$MF" plan --mesh 8x8 --algo binomial --summary >"$TMP/s.txt" 2>&1 &&
   grep -qE '^tcd +84$' "$TMP/s.txt" && ! grep -q '^step ' "$TMP/s.txt" &&
   "$MF" plan --mesh 8x8 --algo binomial --format summary | cmp -s - "$TMP/s.txt" &&
   "$MF" plan --json --summary --mesh 8x8 --algo binomial | json_field '"steps" not in d' |
	grep -q True; then
	ok "plan --summary / --format summary print the summary only"
else notok "plan --summary / --format summary print the summary only"; fi
if "$MF" plan --mesh 4x4 --algo binomial >"$TMP/t.txt" 2>&1 &&
   [ "$(grep -c '^step ' "$TMP/t.txt")" = 4 ] &&
   [ "$(grep -c ' -> ' "$TMP/t.txt")" = 15 ]; then
	ok "plan text lists every step of a small fabric (4 steps, 15 sends on 4x4)"
else notok "plan text lists every step of a small fabric"; fi
# dot: a digraph with one labelled edge per send
if "$MF" plan --mesh 8x8 --algo binomial --format dot >"$TMP/g.dot" 2>&1 &&
   head -n 1 "$TMP/g.dot" | grep -q '^digraph' && tail -n 1 "$TMP/g.dot" | grep -q '^}' &&
   [ "$(grep -cE '^	n[0-9]+ -> n[0-9]+ \[label="[1-6]"\];$' "$TMP/g.dot")" = 63 ]; then
	ok "plan --format dot: digraph with 63 step-labelled sends on 8x8"
else notok "plan --format dot: digraph with 63 step-labelled sends on 8x8"; fi
# large JSON streams and parses
if "$MF" plan --json --mesh 256x256 --algo binomial --from 3,7 2>"$TMP/e" |
   python3 -m json.tool >/dev/null 2>&1; then
	ok "plan --json on 256x256 (65536 nodes) is valid JSON"
else notok "plan --json on 256x256 is valid JSON"; fi

# ---------------------------------------------------------------- route
# Path lengths against a breadth-first search written here; paths must be
# chains of neighbours from --from to --to.
cat >"$TMP/checkroute.py" <<'EOF'
import json, subprocess, sys, random
import topomodel
from collections import deque
mf, kind, shape, routing = sys.argv[1:5]
random.seed(1)
if kind == "hex":
    n = int(shape); N = 3 * n * n - 3 * n + 1
    def nbrs(i):
        return [(i + o) % N for o in (1, -1, 3*n - 1, -(3*n - 1), 3*n - 2, -(3*n - 2))]
    def fmt(i): return str(i)
else:
    dims = [int(x) for x in shape.split("x")]
    N = 1
    for x in dims: N *= x
    def coords(i): return topomodel.coords(dims, i)
    def ident(c): return topomodel.ident(dims, c)
    def nbrs(i):
        c = coords(i); out = []
        for k, x in enumerate(dims):
            for s in (1, -1):
                v = c[k] + s
                if kind == "torus": v %= x
                elif not 0 <= v < x: continue
                cc = list(c); cc[k] = v; out.append(ident(cc))
        return out
    def fmt(i): return ",".join(map(str, coords(i)))
def bfs(s):
    dist = {s: 0}; q = deque([s])
    while q:
        u = q.popleft()
        for v in nbrs(u):
            if v not in dist: dist[v] = dist[u] + 1; q.append(v)
    return dist
srcs = random.sample(range(N), min(N, 4))
bad = 0; count = 0
for s in srcs:
    dist = bfs(s)
    for t in random.sample(range(N), min(N, 10)):
        args = [mf, "route", "--json", "--" + kind, shape, "--from", fmt(s), "--to", fmt(t)]
        if routing != "default": args += ["--routing", routing]
        d = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
        p = d["path"]; count += 1
        okp = (p[0] == s and p[-1] == t and d["length"] == len(p) - 1 == dist[t]
               and all(b in nbrs(a) for a, b in zip(p, p[1:])))
        if not okp:
            bad += 1
            print("# %s %s %s %s->%s: length %d, BFS %d, path %s" % (kind, shape, routing, s, t, d["length"], dist[t], p))
print("# %d pairs" % count)
sys.exit(1 if bad else 0)
EOF
for spec in "mesh 5x7 dor" "mesh 3x4x5 dor" "torus 5x5 dor" "torus 6x4 dor" \
	    "torus 4x6x3 dor" "torus 5x5 diagonal" "torus 6x6 diagonal" "torus 5x5 cdo" \
	    "torus 4x4x4 cdo" "mesh 2x2x2x2 default" "hex 4 a1" "hex 7 a1" "hex 2 default"; do
	# shellcheck disable=SC2086
	check "route lengths equal BFS distances: $spec" python3 "$TMP/checkroute.py" "$MF" $spec
done
if "$MF" route --json --hex 4 --from 11 --to 5 2>&1 |
   json_field 'd["m"]["x"], d["m"]["y"], d["m"]["z"], d["length"]' | grep -qx '0 -2 -1 3'; then
	ok "route --hex 4 --from 11 --to 5: m = (0,-2,-1), 3 hops (003 example)"
else notok "route --hex 4 --from 11 --to 5: m = (0,-2,-1), 3 hops (003 example)"; fi

# ---------------------------------------------------------------- analyze
# 004 Theorem 4: Delta(dor) on T_K^n = (K-1)(K^(n-1)-1)/2; the subtrees of
# G_0 hold every node but 0.
for spec in "5 2" "7 2" "9 2" "5 3" "3 4"; do
	set -- $spec; K=$1 d=$2
	shape=$(python3 -c "print('x'.join(['$K'] * $d))")
	want=$(( (K - 1) * (K ** (d - 1) - 1) / 2 ))
	got=$("$MF" analyze --json --torus "$shape" --routing dor 2>&1 |
	      json_field 'd["delta"], sum(s["size"] for s in d["subtrees"]) == d["nodes"] - 1' 2>/dev/null)
	if [ "$got" = "$want True" ]; then ok "analyze --torus $shape dor: Delta $want (004 Theorem 4)"
	else notok "analyze --torus $shape dor: Delta $want (004 Theorem 4), got '$got'"; fi
done

# Meshes: Delta is the largest spread over every point X (004 Def. 1).
# Independently: under dimension order (lowest dimension first) the path
# from v enters X along the highest dimension in which they differ, from
# v's side; spread over the ports of X that have a link.
for shape in 3x3 4x5 3x4x2 6; do
	want=$(python3 - "$shape" <<'PY'
import itertools, sys
dims = [int(x) for x in sys.argv[1].split("x")]
pts = list(itertools.product(*[range(n) for n in dims]))
best = 0
for X in pts:
    cnt = {}
    for v in pts:
        if v == X:
            continue
        d = max(i for i in range(len(dims)) if v[i] != X[i])
        port = 2 * d + (0 if v[d] > X[d] else 1)
        cnt[port] = cnt.get(port, 0) + 1
    links = [2 * i + s for i in range(len(dims)) for s in (0, 1)
             if (X[i] + 1 < dims[i] if s == 0 else X[i] > 0)]
    sizes = [cnt.get(p, 0) for p in links]
    best = max(best, max(sizes) - min(sizes))
print(best)
PY
)
	got=$("$MF" analyze --json --mesh "$shape" --routing dor 2>&1 | json_field 'd["delta"]' 2>/dev/null)
	if [ "$got" = "$want" ]; then ok "analyze --mesh $shape dor: Delta $want (over every point, by enumeration)"
	else notok "analyze --mesh $shape dor: Delta $want, got '$got'"; fi
done

# ---------------------------------------------------------------- sanitizers
san_ok() {
	"$SAN" "$@" >"$TMP/san.out" 2>"$TMP/san.err"
	local rc=$?
	! grep -qE 'Sanitizer|runtime error' "$TMP/san.err" && echo $rc
}
# san_runs DESC "RC ARGS"...: one test, ok if the sanitizer build runs
# every ARGS (no blanks inside an argument) clean with exit status RC
san_runs() {
	local desc=$1 run
	shift
	for run; do
		# shellcheck disable=SC2086 # ARGS split on purpose
		if [ ! -x "$SAN" ] || [ "$(san_ok ${run#* })" != "${run%% *}" ]; then
			sed 's/^/# /' "$TMP/san.err" | head -n 20
			notok "$desc"
			return
		fi
	done
	ok "$desc"
}
san_runs "ASan/UBSan build: plan, route, analyze and errors run clean" \
	"0 plan --json --mesh 16x16 --from 3,4 --algo binomial" \
	"0 plan --torus 5x5 --format dot" "0 plan --hex 4 --from 11 --steps" \
	"0 route --json --hex 4 --from 11 --to 5" \
	"0 route --torus 4x5x6 --from 1,2,3 --to 3,4,0 --routing cdo" \
	"0 analyze --json --torus 5x5 --routing diagonal" \
	"2 plan --mesh 99999999999x2" \
	"2 plan --mesh 8x8 --from 1,2,3,4,5,6,7,8,9,10" "2 bogus --json"

# ---------------------------------------------------------------- docs
if command -v groff >/dev/null; then
	if groff -ww -z -man docs/meshfabric.8 >"$TMP/groff.err" 2>&1 && [ ! -s "$TMP/groff.err" ]; then
		ok "man page renders without warnings (groff -ww)"
	else sed 's/^/# /' "$TMP/groff.err" | head; notok "man page renders without warnings (groff -ww)"; fi
else
	notok "man page renders without warnings: groff not installed (apt-get install groff-base)"
fi
missing=
for c in $cmds; do
	grep -q "^\.SS $c\b\|^\.B meshfabric $c\|^\.SS \"$c" docs/meshfabric.8 || missing="$missing $c"
	for o in $("$MF" $c --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "\\-\\-${o#--}" docs/meshfabric.8 || missing="$missing $c:$o"
	done
done
if [ -z "$missing" ]; then ok "man page documents every command and option"
else notok "man page documents every command and option; missing:$missing"; fi
# ---------------------------------------------------------------- timed links
for a in "--link-rate 2x" "--link-rate -1mbit" "--link-rate 2000tbit" \
	 "--link-delay 11s" "--link-delay 1.5ns" "--link-delay -1ms" \
	 "--switching wormhole" "--mode later" "--size 70000"; do
	bad 2 plan --mesh 4x4 $a
done
bad 2 create --torus 4x4 --link-loss 101%
# ---------------------------------------------------------------- --effort
for a in 0 1001 x 1.5 -1; do
	bad 2 plan --torus 4x4 --effort "$a"
done
# the counting bound of an all-port broadcast from the mesh's corner
# (topomodel.py, as above)
bound=$(PYTHONPATH=$TMP python3 -c '
import sys, topomodel
print(topomodel.counting_bound("mesh", [int(x) for x in sys.argv[1].split("x")], 0))' 3x3x115)
eff=none
if plan_json_ok --mesh 3x3x115 --algo wormhole --effort 10 >/dev/null; then
	eff=$(json_field 'len(d["steps"])' <"$TMP/p.json")
	cp "$TMP/p.json" "$TMP/eff1.json"
fi
check "plan --effort 10: mesh 3x3x115 in its counting bound from a corner, $bound steps (got $eff; schedule checked here)" \
	[ "$eff" = "$bound" ]
"$MF" plan --json --mesh 3x3x115 --algo wormhole --effort 10 >"$TMP/eff2.json"
check "plan --effort 10: the same schedule on every run" cmp "$TMP/eff1.json" "$TMP/eff2.json"
def=none
if plan_json_ok --mesh 3x3x115 --algo wormhole >/dev/null; then
	def=$(json_field 'len(d["steps"])' <"$TMP/p.json")
fi
# a larger budget extends the same searches (same seeds), so it never
# takes more steps
check "plan without --effort: mesh 3x3x115 valid, $def steps, no fewer than with --effort 10 ($eff)" \
	[ "$def" -ge "$eff" ]
# the man page's example: the default stops one step above the bound
check "plan without --effort: mesh 3x3x115 one step above its bound, as meshfabric(8) says ($def, bound $bound)" \
	[ "$def" = "$((bound + 1))" ]
# ---------------------------------------------------------------- plan --schedule
# a schedule read back: the checker's figures are the builder's; a broken
# one is refused with the checker's reason (the edits below are made here)
"$MF" plan --json --mesh 4x4x4 --from 1,2,3 --algo wormhole >"$TMP/own.json"
"$MF" plan --json --mesh 4x4x4 --schedule "$TMP/own.json" >"$TMP/back.json"
check "plan --schedule: wormhole's 4x4x4 schedule read back, algo file, same summary and steps" \
	python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert b["algo"] == "file" and b["source"] == a["source"] == 1 + 2 * 4 + 3 * 16
assert a["summary"] == b["summary"] and a["steps"] == b["steps"], (a["summary"], b["summary"])' \
	"$TMP/own.json" "$TMP/back.json"
check "plan --schedule - reads stdin; --from that agrees" \
	bash -c "$MF plan --mesh 4x4x4 --from 1,2,3 --schedule - --summary <$TMP/own.json | grep -q '^algorithm  *file'"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
last = d["steps"][-1]
last.append(dict(last[0]))	# its destination informed twice
json.dump(d, open(sys.argv[2], "w"))
d["steps"][-1].pop()
m = d["steps"][-1][0]
m["path"] = m["path"][:1] + m["path"][2:] if len(m["path"]) > 2 else [m["src"], m["src"]]
json.dump(d, open(sys.argv[3], "w"))' "$TMP/own.json" "$TMP/twice.json" "$TMP/hole.json"
bad 1 plan --mesh 4x4x4 --schedule "$TMP/twice.json"
check "plan --schedule: a node informed twice is named" \
	grep -q "is invalid: step .*informed twice" "$TMP/e"
bad 1 plan --mesh 4x4x4 --schedule "$TMP/hole.json"
bad 1 plan --mesh 4x4x5 --schedule "$TMP/own.json"
bad 1 plan --mesh 4x4x4 --from 0,0,0 --schedule "$TMP/own.json"
bad 1 plan --mesh 4x4x4 --schedule "$TMP/nonexistent.json"
bad 2 plan --mesh 4x4x4 --schedule "$TMP/own.json" --algo wormhole
bad 2 plan --mesh 4x4x4 --schedule "$TMP/own.json" --effort 2
bad 2 plan --mesh 4x4x4 --schedule "$TMP/own.json" --down 0,0,0:x+
"$MF" plan --json --mesh 4x4 --coll allreduce --steps >"$TMP/coll.json"
bad 1 plan --mesh 4x4 --schedule "$TMP/coll.json"
san_runs "ASan/UBSan build: plan --schedule, valid and refused, runs clean" \
	"0 plan --mesh 4x4x4 --schedule $TMP/own.json --link-rate 1gbit" \
	"1 plan --mesh 4x4x4 --schedule $TMP/twice.json" \
	"1 plan --mesh 4x4x4 --schedule $TMP/hole.json" \
	"1 plan --mesh 4x4x4 --from 0,0,0 --schedule $TMP/own.json" \
	"1 plan --mesh 4x4 --schedule $TMP/coll.json"
bad 2 create --torus 4x4 --link-queue 0
# multi-host parts: refused before the module is asked
mh="--id 3 --part 0/2 --peer 192.0.2.1 --peer 192.0.2.2"
bad 2 create --torus 4x4 --part 2/2 --id 3 --peer 192.0.2.1 --peer 192.0.2.2
bad 2 create --torus 4x4 --part 0/2 --id 3 --peer 192.0.2.1
bad 2 create --torus 4x4 --part 0/2 --peer 192.0.2.1 --peer 192.0.2.2
bad 2 create --torus 4x4 $mh --peer ::1
bad 2 create --torus 4x4 --peer 192.0.2.1
bad 2 create --hex 3 $mh
bad 2 create --torus 4x4 $mh --keepalive 10ms
printf '0,0 0\n1,0 1\n0,1 0\n' >"$TMP/part"
bad 2 create --mesh 2x2 $mh --partition "$TMP/part"
printf '0,0 0\n1,0 1\n0,1 0\n0,1 1\n' >"$TMP/part"
bad 2 create --mesh 2x2 $mh --partition "$TMP/part"
bad 2 create --mesh 2x2 $mh --partition "$TMP/none"
# --drive (the other hosts over ssh) needs parts, and no partition file
bad 2 create --torus 4x4 --drive
printf '0,0 0\n1,0 1\n0,1 0\n1,1 1\n' >"$TMP/part"
bad 2 create --mesh 2x2 $mh --partition "$TMP/part" --drive
bad 2 destroy --drive
bad 2 link
bad 2 link bogus
# units as tc writes them: the same fabric time whatever the spelling
ft() { "$MF" plan --json --summary --torus 5x5 --from 2,2 --algo tsay-wang "$@" |
	json_field 'd["timing"]["fabric_time_ns"]'; }
t1=$(ft --link-rate 100mbit --link-delay 1ms) t2=$(ft --link-rate 100000000 --link-delay 1000)
t3=$(ft --link-rate 12.5mbps --link-delay 1000000ns) t4=$(ft --link-rate 0.1gbit --link-delay 0.001s)
if [ -n "$t1" ] && [ "$t1" = "$t2" ] && [ "$t2" = "$t3" ] && [ "$t3" = "$t4" ]; then
	ok "plan --link-rate/--link-delay: tc units agree ($t1 ns)"
else
	notok "plan --link-rate/--link-delay: tc units agree ($t1 $t2 $t3 $t4)"
fi
# the closed form of contention-free schedules, computed here from the
# JSON's paths: sum over steps of the longest send, h(ser + d) or hd + ser
for sw in store-and-forward cut-through; do
	got=$("$MF" plan --json --mesh 8x8 --from 2,3 --algo eyes --link-rate 1mbit \
		--link-delay 10us --size 1400 --switching $sw | python3 -c '
import json, sys
d = json.load(sys.stdin)
ser = -(-(1414 * 8 * 10**9) // 10**6)
ct = sys.argv[1] == "cut-through"
want = sum(max((len(s["path"]) - 1) * 10000 + ser if ct else
	       (len(s["path"]) - 1) * (ser + 10000) for s in st) for st in d["steps"])
print(d["timing"]["fabric_time_ns"] == want and d["summary"]["contention_free"], want)' $sw)
	case "$got" in
	True*) ok "plan --switching $sw: eyes 8x8 fabric time = the closed form (${got#True })" ;;
	*) notok "plan --switching $sw: eyes 8x8 fabric time = the closed form ($got)" ;;
	esac
done
comp=userspace/completion/meshfabric.bash
if bash -n "$comp" 2>"$TMP/e"; then ok "bash completion parses (bash -n)"
else sed 's/^/# /' "$TMP/e"; notok "bash completion parses (bash -n)"; fi
complete_words() { # complete_words WORD... : COMPREPLY for the last word
	bash -c '
		MESHFABRIC="$1"; shift
		complete() { :; }
		source "$0"
		meshfabric() { "$MESHFABRIC" "$@"; }
		COMP_WORDS=(meshfabric "$@"); COMP_CWORD=$#
		_meshfabric
		printf "%s\n" "${COMPREPLY[@]}"' "$comp" "$PWD/$MF" "$@" 2>&1 | sort | tr '\n' ' '
}
c1=$(complete_words pl) c2=$(complete_words plan --al) c3=$(complete_words plan --algo "")
c4=$(complete_words route --routing "") c5=$(complete_words analyze --)
case "$c1|$c2|$c3|$c4|$c5" in
	"plan |--algo |"*eyes*tsay-wang*"|"*a1*dor*"|"*--routing*--torus*)
		ok "bash completion completes commands, options and values" ;;
	*) echo "# got: '$c1' '$c2' '$c3' '$c4' '$c5'"
	   notok "bash completion completes commands, options and values" ;;
esac
# external ports: the extra ports e0..e15 where PORT goes, dev/netns after
c6=$(complete_words port attach f 0 "") c7=$(complete_words link set f 0 e)
c8=$(complete_words port attach f 0 e0 "")
case "$c6|$c7|$c8" in
	"e0 e1 e10 "*"e15 "*"e9 |e0 "*"e9 |dev netns ")
		ok "bash completion: extra ports (e0..e15) for port attach and link set" ;;
	*) echo "# got: '$c6' '$c7' '$c8'"
	   notok "bash completion: extra ports (e0..e15) for port attach and link set" ;;
esac

# ---------------------------------------------------------------- faults
# route/plan --down and --down-node (issue 12), against a model written
# here: neighbours and port names from the definitions (topo.h; H_n ports
# +1, -1, +(3n-1), -(3n-1), +(3n-2), -(3n-2)), a BFS that skips the down
# links, and a schedule checker that knows them.
cat >"$TMP/faultmodel.py" <<'EOF'
import json, random, subprocess, sys
import topomodel
from collections import deque
def model(kind, shape):
    m = {}
    if kind == "hex":
        n = int(shape); N = 3 * n * n - 3 * n + 1
        offs = [1, -1, 3*n - 1, -(3*n - 1), 3*n - 2, -(3*n - 2)]
        names = ["%+d" % o for o in offs]
        def nb(i, p): return (i + offs[p]) % N
        def fmt(i): return str(i)
    else:
        dims = [int(x) for x in shape.split("x")]
        N = 1
        for x in dims: N *= x
        names = []
        for k in range(len(dims)):
            for sg in "+-": names.append("xyz"[k] + sg)
        def coords(i): return topomodel.coords(dims, i)
        def ident(c): return topomodel.ident(dims, c)
        def nb(i, p):
            c = coords(i); k = p // 2; v = c[k] + (1 if p % 2 == 0 else -1)
            if kind == "torus": v %= dims[k]
            elif not 0 <= v < dims[k]: return None
            c[k] = v; return ident(c)
        def fmt(i): return ",".join(map(str, coords(i)))
    m.update(N=N, names=names, nb=nb, fmt=fmt)
    return m
def random_faults(m, rnd, k, node_down=False):
    down = set(); args = []
    while len(down) < k:
        a = rnd.randrange(m["N"]); p = rnd.randrange(len(m["names"]))
        b = m["nb"](a, p)
        if b is None or frozenset((a, b)) in down: continue
        down.add(frozenset((a, b))); args += ["--down", m["fmt"](a) + ":" + m["names"][p]]
    if node_down:
        a = rnd.randrange(m["N"]); args += ["--down-node", m["fmt"](a)]
        for p in range(len(m["names"])):
            b = m["nb"](a, p)
            if b is not None: down.add(frozenset((a, b)))
    return down, args
def start(argv):
    # argv[2:6]: the tool, kind, shape and the routing or algorithm; with
    # the model and an RNG seeded by the shape and that
    mf, kind, shape, what = argv[2:6]
    return mf, kind, shape, what, model(kind, shape), random.Random(shape + what)
def fault_sets(m, rnd, n, div, node_every):
    # n random fault sets of 1 to N/div links, a node down in every node_every-th
    for inst in range(n):
        yield random_faults(m, rnd, 1 + rnd.randrange(max(2, m["N"] // div)),
                            inst % node_every == node_every - 1)
def bfs(m, s, down):
    dist = {s: 0}; q = deque([s])
    while q:
        u = q.popleft()
        for p in range(len(m["names"])):
            v = m["nb"](u, p)
            if v is not None and v not in dist and frozenset((u, v)) not in down:
                dist[v] = dist[u] + 1; q.append(v)
    return dist
def up(m, down, a, b):
    return any(m["nb"](a, p) == b for p in range(len(m["names"]))) and frozenset((a, b)) not in down
EOF
cat >"$TMP/checkfaultroute.py" <<'EOF'
import json, subprocess, sys
sys.path.insert(0, sys.argv[1]); from faultmodel import *
mf, kind, shape, routing, m, rnd = start(sys.argv)
bad = pairs = refused = 0
for down, args in fault_sets(m, rnd, 8, 5, 3):
    for _ in range(6):
        s = rnd.randrange(m["N"]); t = rnd.randrange(m["N"])
        dist = bfs(m, s, down)
        cmd = [mf, "route", "--json", "--" + kind, shape, "--from", m["fmt"](s),
               "--to", m["fmt"](t), "--routing", routing] + args
        r = subprocess.run(cmd, capture_output=True, text=True); pairs += 1
        if t not in dist:
            refused += 1
            if not (r.returncode == 1 and not r.stdout and r.stderr.count("\n") == 1
                    and r.stderr.startswith("meshfabric: ") and "unreachable" in r.stderr):
                bad += 1; print("# not refused: %s -> %d %r" % (" ".join(cmd), r.returncode, r.stderr))
            continue
        d = json.loads(r.stdout); p = d["path"]
        if not (p[0] == s and p[-1] == t and d["length"] == len(p) - 1 == dist[t]
                and all(up(m, down, a, b) for a, b in zip(p, p[1:]))
                and d["down_links"] == len(down)):
            bad += 1; print("# %s: length %d, BFS %d, path %s" % (" ".join(cmd), d["length"], dist[t], p))
print("# %d pairs, %d refused as unreachable" % (pairs, refused))
sys.exit(1 if bad else 0)
EOF
cat >"$TMP/checkfaultplan.py" <<'EOF'
import json, subprocess, sys
sys.path.insert(0, sys.argv[1]); from faultmodel import *
mf, kind, shape, algo, m, rnd = start(sys.argv)
bad = plans = unreach_total = 0
for down, args in fault_sets(m, rnd, 6, 6, 2):
    src = rnd.randrange(m["N"])
    cmd = [mf, "plan", "--json", "--" + kind, shape, "--from", m["fmt"](src), "--algo", algo] + args
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout); reach = bfs(m, src, down)
        informed = {src: -1}; sends = tcd = 0
        for si, step in enumerate(d["steps"]):
            senders = set()
            for x in step:
                p = x["path"]
                assert p[0] == x["src"] and p[-1] == x["dst"] and len(p) >= 2
                assert informed.get(x["src"], si) < si, "sender not informed"
                assert x["dst"] not in informed, "informed twice"
                assert all(up(m, down, a, b) for a, b in zip(p, p[1:])), "crosses a down link: %s" % p
                key = (x["src"], p[1]) if d["model"] == "all-port" else x["src"]
                assert key not in senders, "port model"
                senders.add(key); informed[x["dst"]] = si; sends += 1; tcd += len(p) - 1
        assert set(informed) == set(reach), "informed %d, reachable %d" % (len(informed), len(reach))
        sm = d["summary"]; f = d["faults"]
        assert sm["unreachable"] == m["N"] - len(reach)
        assert sm["sends"] == sends and sm["sends"] + sm["unreachable"] == m["N"] - 1
        assert sm["tcd"] == tcd and sm["steps"] == len(d["steps"])
        assert f["down_links"] == len(down)
        assert f["fault_free_steps"] >= 1 and f["fault_free_tcd"] >= 1
        plans += 1; unreach_total += sm["unreachable"]
    except (AssertionError, ValueError, KeyError) as e:
        bad += 1; print("# %s: %s" % (" ".join(cmd), e))
print("# %d plans, %d unreachable nodes" % (plans, unreach_total))
sys.exit(1 if bad else 0)
EOF
for spec in "mesh 6x5 dor" "mesh 3x3x3 cdo" "torus 6x6 diagonal" "torus 5x4 cdo" \
	    "torus 2x5 dor" "hex 4 a1"; do
	# shellcheck disable=SC2086
	check "route --down: BFS lengths of the surviving graph, unreachable refused: $spec" \
		python3 "$TMP/checkfaultroute.py" "$TMP" "$MF" $spec
done
for spec in "mesh 8x8 eyes" "mesh 8x8 auto" "torus 8x8 tsay-wang" "torus 6x6 binomial" \
	    "torus 4x4x4 wormhole" "hex 4 hex" "hex 5 auto" "mesh 5x7 flood" "torus 8x8 mintcd"; do
	# shellcheck disable=SC2086
	check "plan --down --json: the reachable nodes once, no down link, unreachable: $spec" \
		python3 "$TMP/checkfaultplan.py" "$TMP" "$MF" $spec
done
if "$MF" plan --json --summary --mesh 4x4 --down-node 1,1 --from 0,0 |
   json_field 'd["summary"]["unreachable"], d["summary"]["sends"], "steps" in d' |
   grep -qx '1 14 False'; then
	ok "plan --down-node on a 4x4 mesh: unreachable 1, 14 sends"
else notok "plan --down-node on a 4x4 mesh: unreachable 1, 14 sends"; fi
if "$MF" route --torus 8x8 --from 0,0 --to 3,0 --down 1,0:x+ |
   grep -qx 'rerouted  yes' &&
   "$MF" route --torus 8x8 --from 0,0 --to 3,0 --down 5,5:x+ | grep -qx 'rerouted  no'; then
	ok "route --down: text says whether the routing's own path was kept"
else notok "route --down: text says whether the routing's own path was kept"; fi
bad 2 route --mesh 4x4 --from 0,0 --to 3,3 --down 0,0
bad 2 route --mesh 4x4 --from 0,0 --to 3,3 --down 0,0:q+
bad 2 route --mesh 4x4 --from 0,0 --to 3,3 --down 0,0:x-
bad 2 route --mesh 4x4 --from 0,0 --to 3,3 --down 9,9:x+
bad 2 route --mesh 4x4 --from 0,0 --to 3,3 --down :x+
bad 2 route --hex 3 --from 0 --to 5 --down 0:+2
bad 2 route --mesh 4x4 --from 0,0 --to 3,3 --down-node 1,2,3
bad 2 route f0 0 1 --down 0:x+
bad 1 route --mesh 4x4 --from 0,0 --to 3,3 --down-node 1,0 --down-node 0,1
bad 2 plan --torus 4x4 --down 1,1:z+
bad 2 plan --mesh 4x4 --down-node 16
san_runs "ASan/UBSan build: route and plan around faults run clean" \
	"0 plan --json --torus 6x6 --down 1,1:x+ --down-node 3,3 --from 0,0" \
	"0 plan --hex 4 --down-node 5 --down 0:+11 --algo hex --steps" \
	"0 route --mesh 5x5 --from 0,0 --to 4,4 --down 1,0:y+ --down 0,1:x+" \
	"1 route --mesh 4x4 --from 0,0 --to 3,3 --down-node 1,0 --down-node 0,1" \
	"2 plan --mesh 4x4 --down 0,0:x-"
# ---------------------------------------------------------------- papers
# eyes-paper (000 Algorithm 1, 001 Algorithm 2 as printed): the independent
# checker above, and the figures the papers print for the algorithms.
for a in "--mesh 8x8 --from 0,3" "--mesh 4x4x4 --from 0,1,2"; do
	# shellcheck disable=SC2086
	check "plan --algo eyes-paper --json $a: independent check" \
		plan_json_ok --algo eyes-paper $a
done
got=""
for a in "4x4 1,0" "4x4 0,1" "8x8 0,0" "8x8 0,3" "8x8 2,2"; do
	set -- $a
	got="$got $("$MF" plan --json --summary --mesh "$1" --from "$2" --algo eyes-paper 2>&1 |
		   json_field 'd["summary"]["tcd"]' 2>/dev/null)"
done
if [ "$got" = " 17 16 79 75 69" ]; then
	ok "eyes-paper: 17 from 1,0 and 16 from 0,1 on 4x4 (001 sec. 2), 79, 75, 69 on 8x8"
else
	notok "eyes-paper: 17 16 79 75 69 expected, got '$got'"
fi
bad 1 plan --torus 8x8 --algo eyes-paper
bad 2 papers --paper 005
bad 2 papers --json --markdown
bad 2 papers extra
# papers --json: the fields, the papers and verdicts allowed, and every
# claim's command runs (exit 0) with this build's tool.
cat >"$TMP/papers.py" <<'PYEOF'
import json, shlex, subprocess, sys
mf = sys.argv[1]
d = json.load(sys.stdin)
assert isinstance(d, list) and len(d) >= 100, "only %d claims" % len(d)
keys = ["paper", "claim", "case", "paper_value", "as_printed", "meshfabric",
        "verdict", "command"]
seen = set()
for c in d:
    for k in keys:
        assert isinstance(c.get(k), str) and (c[k] or k == "case"), (k, c)
    assert c["paper"] in ("000", "001", "002", "003", "004"), c
    assert c["verdict"] in ("holds", "false", "typo", "not reached"), c
    seen.add(c["paper"])
    argv = shlex.split(c["command"])
    assert argv[0] == "meshfabric", c["command"]
    r = subprocess.run([mf] + argv[1:], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    assert r.returncode == 0, (c["command"], r.stderr)
assert seen == {"000", "001", "002", "003", "004"}, seen
print("%d claims" % len(d))
PYEOF
if "$MF" papers --json >"$TMP/papers.json" 2>"$TMP/e" &&
   python3 "$TMP/papers.py" "$MF" <"$TMP/papers.json" >"$TMP/o" 2>&1; then
	ok "papers --json: $(cat "$TMP/o"), fields, verdicts, every command exits 0"
else
	sed 's/^/# /' "$TMP/e" "$TMP/o" | tail -n 5
	notok "papers --json: fields, verdicts, every command exits 0"
fi
# the claims the issue names, by their JSON
cat >"$TMP/papers2.py" <<'PYEOF'
import json, sys
d = json.load(sys.stdin)
def row(paper, claim, case):
    r = [c for c in d if c["paper"] == paper and c["claim"].startswith(claim)
         and c["case"] == case]
    assert len(r) == 1, (paper, claim, case, len(r))
    return r[0]
r = row("000", "Theorem 2: Algorithm 1 is minimal", "8x8 mesh from 0,3")
assert (r["as_printed"], r["meshfabric"], r["verdict"]) == ("75", "74", "false"), r
r = row("000", "Theorem 2: Algorithm 1 is minimal", "8x8 mesh from 3,2")
assert (r["as_printed"], r["meshfabric"], r["verdict"]) == ("70", "69", "false"), r
r = row("000", "Appendix: D_2(1,0)", "4x4 mesh from 1,0")
assert (r["as_printed"], r["meshfabric"], r["verdict"]) == ("17", "16", "false"), r
r = row("001", "Eq. 12: OD_k", "2x2x2 mesh")
assert r["verdict"] == "typo" and r["meshfabric"].startswith("7"), r
r = row("004", "Theorem 4: Delta(simple)", "T_5^3, dor")
assert (r["paper_value"], r["meshfabric"], r["verdict"]) == ("48", "48", "holds"), r
PYEOF
check "papers --json: 000 Theorem 2 (75/74, 70/69), 17 vs 16, 001 Eq. 12, 004 Theorem 4" \
	python3 "$TMP/papers2.py" <"$TMP/papers.json"
# docs/papers.md is generated, never edited: a fresh run must equal it
if "$MF" papers --markdown >"$TMP/papers.md" 2>"$TMP/e" &&
   diff -u docs/papers.md "$TMP/papers.md" >"$TMP/d" 2>&1; then
	ok "docs/papers.md equals meshfabric papers --markdown (make docs/papers.md)"
else
	sed 's/^/# /' "$TMP/e" "$TMP/d" | head -n 20
	notok "docs/papers.md equals meshfabric papers --markdown (make docs/papers.md)"
fi

tap_end
