#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: numbers, not pass/fail.
#  1. runs every benchmark program build/bench/bench_* (userspace/bench/),
#  2. times the tool end to end: `meshfabric plan --summary` (build + check +
#     print) with elapsed seconds and peak RSS, for eyes on 256^2, 512^2 and
#     1024^2 meshes (goal: 1024x1024 under 2 s, memory linear in nodes), and
#     tsay-wang on the 1024x1024 and 101x101x101 tori;
#  3. prints the table.
# Uses /usr/bin/time -v when installed, otherwise python3's getrusage.
#   scripts/bench.sh [--quick]     --quick: tool table only, no bench programs
set -u
cd "$(dirname "$0")/.."
MF=build/meshfabric
quick=0
[ "${1:-}" = --quick ] && quick=1

make -s tool bench-progs || exit 1

if [ $quick = 0 ]; then
	for b in build/bench/bench_*; do
		[ -x "$b" ] || continue
		echo "==== $(basename "$b")"
		"$b"
		echo
	done
fi

# measure ARGS... -> "ELAPSED_S MAXRSS_KIB RC" for one run of the tool
measure() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v -o "$tmp/time" "$MF" "$@" >"$tmp/out" 2>"$tmp/err"
		local rc=$?
		awk -v rc=$rc '
			/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = 0
				for (i = 1; i <= n; i++) s = s * 60 + t[i] }
			/Maximum resident set size/ { r = $NF }
			END { printf "%.3f %d %d\n", s, r, rc }' "$tmp/time"
	else
		python3 - "$MF" "$@" <<'EOF'
import resource, subprocess, sys, time
t = time.monotonic()
p = subprocess.run(sys.argv[1:], stdout=open("/dev/null", "w"), stderr=subprocess.DEVNULL)
el = time.monotonic() - t
print("%.3f %d %d" % (el, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode))
EOF
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "==== meshfabric plan --summary (build + check + print), $(nproc) cores"
printf '%-30s %10s %9s %10s %10s %12s %s\n' "plan" "nodes" "seconds" "RSS MiB" \
	"B/node" "tcd" "steps"
row() { # row LABEL NODES ARGS...
	local label=$1 nodes=$2; shift 2
	read -r el rss rc < <(measure plan --summary "$@")
	if [ "$rc" = 0 ]; then
		tcd=$(awk '$1 == "tcd" { print $2 }' "$tmp/out")
		steps=$(awk '$1 == "steps" { print $2 }' "$tmp/out")
		printf '%-30s %10d %9s %10.1f %10.0f %12s %s\n' "$label" "$nodes" "$el" \
			"$(echo "$rss / 1024" | bc -l)" "$(echo "$rss * 1024 / $nodes" | bc -l)" \
			"$tcd" "$steps"
	else
		printf '%-30s %10d %s\n' "$label" "$nodes" "failed: $(head -n 1 "$tmp/err")"
	fi
}
row "eyes mesh 256x256" 65536 --mesh 256x256 --algo eyes --from 0,0
row "eyes mesh 512x512" 262144 --mesh 512x512 --algo eyes --from 0,0
row "eyes mesh 1024x1024" 1048576 --mesh 1024x1024 --algo eyes --from 0,0
row "eyes mesh 1024x1024 (centre)" 1048576 --mesh 1024x1024 --algo eyes --from 512,512
row "eyes torus 1024x1024" 1048576 --torus 1024x1024 --algo eyes --from 0,0
row "binomial mesh 1024x1024" 1048576 --mesh 1024x1024 --algo binomial --from 0,0
row "tsay-wang torus 1024x1024" 1048576 --torus 1024x1024 --algo tsay-wang --from 0,0
row "tsay-wang torus 101x101x101" 1030301 --torus 101x101x101 --algo tsay-wang --from 0,0,0
echo "(goal: eyes 1024x1024 under 2 s; RSS per node constant = memory linear in nodes)"
read -r el rss rc < <(measure plan --json --mesh 1024x1024 --algo eyes --from 0,0)
echo "plan --json, eyes 1024x1024 (streamed to /dev/null): $el s, $((rss / 1024)) MiB, exit $rc"
# wormhole (all-port, multi-hop sends): the same shapes through the tool
row "wormhole torus 1024x1024" 1048576 --torus 1024x1024 --algo wormhole --from 0,0
row "wormhole mesh 1024x1024" 1048576 --mesh 1024x1024 --algo wormhole --from 0,0
row "wormhole torus 101x101x101" 1030301 --torus 101x101x101 --algo wormhole --from 0,0,0
row "wormhole mesh 101x101x101" 1030301 --mesh 101x101x101 --algo wormhole --from 0,0,0
# the chains of subgroups (search_lattice.c): a perfect schedule, and a
# 2^20-node torus whose count factors
row "wormhole torus 2x12x54" 1296 --torus 2x12x54 --algo wormhole --from 0,0,0
row "wormhole torus 64x64x64x4" 1048576 --torus 64x64x64x4 --algo wormhole --from 0,0,0,0
