#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Collective benchmark, `make coll-bench` (issue 23): allreduce (s64 sum)
# on tori, every algorithm at every power-of-two size from 8 B to 16 MiB.
#
#   model   on the host: `meshfabric plan --torus SHAPE --coll allreduce
#           --algo A --size S --link-rate RATE --link-delay DELAY -j`, its
#           fabric time and its lower bound (bounds.time_ns), for the
#           16x16 and 8x8x8 tori of 10 Gbit/s, 1 us links;
#   kernel  in ONE run of the test VM: the kernel's fabric time of the same
#           allreduce, `meshfabric coll FABRIC allreduce --op sum --type s64
#           --count S/8 --algo A -j` ("fabric_ns"), on a 16x16 torus (and
#           8x8x8 where the guest holds it) with those links, up to
#           --kernel-max bytes (frames through an emulated guest);
#           without `meshfabric coll` in the tool the column is reported
#           missing, with the reason;
#   MPI     in the same VM run: Debian's Open MPI, one rank in each node of
#           a 2x4 torus (scripts/mf-mpirun), selftests/mf_allreduce at 8 B,
#           8 KiB and 64 KiB on untimed links, then on links of 100 Mbit/s,
#           100 us, with Open MPI's
#           allreduce forced to recursive doubling, ring and Rabenseifner
#           in turn (coll_tuned_allreduce_algorithm 3, 4, 6): MPI's wall
#           time per call against the offload's fabric time (`meshfabric
#           coll --algo` the same, if present) and the model of the same
#           algorithm (rank r on node r in both).
#
# Results go to build/coll-bench/ (model.tsv, kernel.tsv or kernel.why,
# mpi.tsv or mpi.why), then scripts/coll-report.py writes the table
# build/coll-bench/coll-bench.md and the plots coll-bench-SHAPE.svg;
# --docs copies them into docs/.
#
#   scripts/coll-bench.sh [--quick] [--no-vm | --vm-only] [--docs]
#                         [--mem MB] [--kernel-max BYTES]
#                         [--kernel-sizes "BYTES ..."]
#   --quick   the model on a 4x4 torus only, sizes 8 B, 4 KiB, 1 MiB, no VM
#             (what scripts/tests.d/32-coll-bench.sh runs)
#   --no-vm   the model only; the kernel and MPI columns are reported
#             missing
#   --vm-only keep the model of an earlier run (its model.tsv), run the VM
#             part only
#   --kernel-sizes "S ..."
#             the kernel's column at these sizes only (of those up to
#             --kernel-max): every size of every algorithm on both tori
#             takes the emulated guest hours; "8 512 32768" a fraction
# MF_VM_SH runs another vm.sh; MF_COLL_BENCH_TIMEOUT limits the VM part
# (seconds, default 3000).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init coll-bench 3072
quick=0 novm=0 vmonly=0 docs=0 kmax=1048576 ksizes=
bench_opt() {
	case $1 in
	--quick) quick=1; novm=1; return 1 ;;
	--no-vm) novm=1; return 1 ;;
	--vm-only) vmonly=1; return 1 ;;
	--docs) docs=1; return 1 ;;
	--kernel-max) kmax=$2; return 2 ;;
	--kernel-sizes) ksizes=$2; return 2 ;;
	esac
	return 0
}
bench_args "[--quick] [--no-vm | --vm-only] [--docs] [--mem MB] [--kernel-max BYTES] [--kernel-sizes \"BYTES ...\"]" 47 "$@"
MF=build/meshfabric
OUT=${MF_COLL_BENCH_OUT:-build/coll-bench}
make -s tool >/dev/null || { echo "coll-bench: make tool failed" >&2; exit 1; }
if [ $vmonly = 1 ] && [ -s "$OUT/model.tsv" ]; then
	mv "$OUT/model.tsv" "$OUT.model.tsv"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	mv "$OUT.model.tsv" "$OUT/model.tsv"
else
	vmonly=0
	rm -rf "$OUT"
	mkdir -p "$OUT"
fi

rate=10gbit delay=1us
algos="tree ring recdbl rabenseifner bucket swing swing-lat"
if [ $quick = 1 ]; then
	shapes="4x4" sizes="8 4096 1048576"
else
	shapes="16x16 8x8x8" sizes=
	s=8
	while [ $s -le $((16 << 20)) ]; do sizes="$sizes $s"; s=$((s * 2)); done
fi

# model: one plan per (shape, algo, size)
[ $vmonly = 1 ] && shapes= && echo "# coll-bench: the model of $OUT/model.tsv"
[ -z "$shapes" ] || echo "# coll-bench: model, $(echo $shapes) tori, $rate $delay links, $(echo $sizes | wc -w) sizes"
[ $vmonly = 1 ] || printf '# shape\trate\tdelay\talgo\tbytes\tsteps\tmodel_ns\tbound_ns\n' >"$OUT/model.tsv"
for shape in $shapes; do
	for algo in $algos; do
		for size in $sizes; do
			j=$(nice "$MF" plan --torus "$shape" --coll allreduce --algo "$algo" \
				--size "$size" --op sum --type s64 --link-rate $rate \
				--link-delay $delay -j 2>"$OUT/err") || {
				echo "# plan $shape $algo $size: $(head -n 1 "$OUT/err")"
				continue
			}
			python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print("\t".join(str(x) for x in (sys.argv[2], sys.argv[3], sys.argv[4], d["algo"],
      d["bytes"], d["summary"]["steps"], d["summary"]["fabric_time_ns"],
      d["bounds"]["time_ns"])))' "$j" "$shape" "$rate" "$delay" >>"$OUT/model.tsv"
		done
	done
done
rm -f "$OUT/err"

# the kernel's column needs `meshfabric coll` (issue 23, deliverable 4)
has_coll=0
if "$MF" coll --help >/dev/null 2>&1; then
	has_coll=1
else
	echo "this build of meshfabric has no 'coll' command (\`meshfabric coll FABRIC allreduce ...\`, issue 23 deliverable 4): no kernel fabric times; rerun \`make coll-bench\` on a tree that has it" >"$OUT/kernel.why"
fi
if [ $novm = 1 ]; then
	[ $has_coll = 1 ] && echo "not measured: --no-vm or --quick (the model only)" >"$OUT/kernel.why"
	echo "not measured: --no-vm or --quick (the model only)" >"$OUT/mpi.why"
else
	bench_build
	make -s -C selftests >/dev/null 2>&1
	[ -x selftests/mf_allreduce ] ||
		echo "selftests/mf_allreduce not built: Open MPI missing on the host (make setup: openmpi-bin, libopenmpi-dev)" >"$OUT/mpi.why"
	# shellcheck disable=SC2016
	guest=$BENCH_GUEST_LIB'
insmod /mf/meshfabric.ko || exit 1
HAS_COLL='$has_coll' KMAX='$kmax' SIZES="'"${ksizes:-$sizes}"'" ALGOS="'"$algos"'"
echo "# guest: $(nproc) cpus, $(awk "/MemTotal/ { print int(\$2 / 1024) }" /proc/meminfo) MB"
if [ $HAS_COLL = 1 ]; then
	for shape in 16x16 8x8x8; do
		t=$(now)
		if ! meshfabric create --torus $shape --name cb --no-ipv6 \
			--link-rate 10gbit --link-delay 1us >/dev/null 2>/tmp/err; then
			echo "BENCH kwhy $shape: create failed in the guest: $(head -n 1 /tmp/err)"
			continue
		fi
		echo "# created $shape in $(dt $t) s"
		for algo in $ALGOS; do
			for size in $SIZES; do
				[ $size -le $KMAX ] || continue
				ns=$(meshfabric coll cb allreduce --op sum --type s64 \
					--count $(( (size + 7) / 8 )) --algo $algo -j 2>/tmp/err |
					grep -o "\"fabric_ns\":[0-9]*" | head -n 1 | cut -d: -f2)
				[ -n "$ns" ] || { echo "# coll $shape $algo $size: $(head -n 1 /tmp/err)"; ns=-; }
				echo "BENCH kern $shape $algo $size $ns"
			done
		done
		meshfabric destroy cb
	done
fi
if [ -x /mf/selftests/mf_allreduce ] && [ -x /mf/mf-mpirun ]; then
	meshfabric create --torus 2x4 --name mp --no-ipv6 --ipv4 10.58.0.0/16 >/dev/null || exit 1
	# untimed links first (MPI alone: its software in the emulated guest),
	# then timed ones
	for links in untimed timed; do
	if [ $links = timed ]; then
		meshfabric link set mp all all rate 100mbit delay 100us || exit 1
	fi
	for a in recdbl:3 ring:4 rabenseifner:6; do
		algo=${a%:*}
		t=$(now)
		MF_MPIRUN_ARGS="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm ${a#*:}" \
			timeout 900 /mf/mf-mpirun mp /mf/selftests/mf_allreduce 1,1024,8192 2 >/tmp/out 2>/tmp/err
		echo "# mpi $links $algo: $(dt $t) s, $(grep -v setpgid /tmp/err | head -n 3 | tr "\n" " ")"
		sed "s/^/# /" /tmp/out
		awk "\$11 == 1 { print \$7, \$13 }" /tmp/out | while read -r size u; do
			c=-
			if [ $HAS_COLL = 1 ] && [ $links = timed ]; then
				c=$(meshfabric coll mp allreduce --op sum --type s64 --count $(( size / 8 )) \
					--algo $algo -j 2>/dev/null |
					grep -o "\"fabric_ns\":[0-9]*" | head -n 1 | cut -d: -f2)
			fi
			echo "BENCH mpi $links 2x4 $algo $size $u ${c:--}"
		done
	done
	done
	echo "# links of mp after MPI: $(meshfabric -j link show mp | grep -o "\"drop_[a-z]*\":[0-9]*" |
		awk -F: "{ s[\$1] += \$2 } END { for (k in s) printf \"%s %d \", k, s[k] }")"
else
	echo "BENCH mwhy Open MPI or mf_allreduce missing in the guest"
fi
'
	bench_vm "kernel fabric times and MPI" "${MF_COLL_BENCH_TIMEOUT:-3000}" "$guest" -E '^(BENCH|#)'
	awk '$1 == "BENCH" && $2 == "kern" { printf "%s\t%s\t%s\t%s\n", $3, $4, $5, $6 }' \
		"$out" >"$OUT/kernel.tsv"
	kw=$(awk '$1 == "BENCH" && $2 == "kwhy" { $1 = $2 = ""; print substr($0, 3) }' "$out")
	[ -n "$kw" ] && echo "in the guest: $kw" >>"$OUT/kernel.why"
	[ -s "$OUT/kernel.tsv" ] || rm -f "$OUT/kernel.tsv"
	: >"$OUT/mpi.tsv"
	awk '$1 == "BENCH" && $2 == "mpi" && $3 == "timed" { print $4, $5, $6, $7, $8 }' "$out" |
	while read -r shape a size u c; do
		j=$("$MF" plan --torus "$shape" --coll allreduce --algo "$a" --size "$size" \
			--link-rate 100mbit --link-delay 100us -j)
		un=$(awk -v a="$a" -v s="$size" '$1 == "BENCH" && $2 == "mpi" &&
			$3 == "untimed" && $5 == a && $6 == s { print $7 }' "$out")
		python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print("\t".join(sys.argv[2:10] + [str(d["summary"]["fabric_time_ns"]), str(d["bounds"]["time_ns"])]))' \
			"$j" "$shape" 100mbit 100us "$size" "$u" "${un:--}" "$c" "$a" >>"$OUT/mpi.tsv"
	done
	[ -s "$OUT/mpi.tsv" ] || {
		rm -f "$OUT/mpi.tsv"
		[ -f "$OUT/mpi.why" ] || echo "MPI did not run in the guest (see the guest's lines above)" >"$OUT/mpi.why"
	}
fi
python3 scripts/coll-report.py "$OUT" || exit 1
echo "# coll-bench: $OUT/coll-bench.md, $(cd "$OUT" && ls coll-bench-*.svg | tr '\n' ' ')"
if [ $docs = 1 ]; then
	cp "$OUT"/coll-bench.md "$OUT"/coll-bench-*.svg docs/
	echo "# coll-bench: copied into docs/"
fi
cat "$OUT/coll-bench.md"
