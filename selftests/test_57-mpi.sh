#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# MPI across the fabric (docs/collectives.md): Debian's Open MPI, one rank in
# each node's namespace of a 2x4 torus, started by scripts/mf-mpirun
# (/mf/mf-mpirun in the guest), runs MPI_Allreduce (s64 sum) in
# selftests/mf_allreduce, which checks its result against the closed form
# it computes itself.  The traffic must have crossed the fabric:
#   - every node's fabric interface received at least (ITERS + 1) * M
#     bytes: for a fixed own input, a node's M-byte result takes every
#     value as the others' inputs vary, so no protocol delivers it in
#     fewer than M bytes (warm-up call + ITERS timed calls);
#   - the fabric's links together carried at least N times that.
# All on timed links (100 Mbit/s, 100 us): the wall time of one call is
# at least the lower bound (distance x delay + the bytes a node must send
# over all 4 ports, computed here and equal to what `meshfabric plan`
# prints), and is shown beside the modelled fabric time of the same
# algorithm: Open MPI's ring (coll_tuned_allreduce_algorithm 4), rank r on
# node r as in the plan.  One mpirun of 8 ranks: starting a daemon and a
# rank per node takes most of the test's time in the emulated guest (on
# a 4x4 torus about 100 s of its 2 CPUs on an idle host, over 200 s on a
# loaded one, measured; hence 2x4, which took 30 to 93 s, and a limit
# of 400 s).
. ./lib.sh
N=8
COUNT=1024		# 8 KiB of s64
ITERS=3
M=$((COUNT * 8))
RUN=/mf/mf-mpirun
PROG=/mf/selftests/mf_allreduce
if [ ! -x "$PROG" ] || [ ! -x /usr/bin/mpirun.openmpi ] || [ ! -x "$RUN" ]; then
	nok "Open MPI in the guest: $PROG, /usr/bin/mpirun.openmpi and $RUN (make setup installs openmpi-bin and libopenmpi-dev; make -C selftests builds mf_allreduce)"
	exit 1
fi
load || exit 1
create --torus 2x4 --name mpi --ipv4 10.57.0.0/16 --no-ipv6
# rx_bytes NODE: the node's fabric interface, read in its namespace
rx_bytes() { "$MF" exec mpi "$1" -- cat /sys/class/net/mpi/statistics/rx_bytes; }
link_bytes() { links mpi | awk '{ s += $4 } END { print s + 0 }'; }
i=0
while [ $i -lt $N ]; do
	eval "rx0_$i=$(rx_bytes $i)"
	i=$((i + 1))
done
lb0=$(link_bytes)
check "link set all all rate 100mbit delay 100us" \
	"$MF" link set mpi all all rate 100mbit delay 100us
t0=$(uptime_s)
MF_MPIRUN_ARGS="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4" \
	timeout 400 "$RUN" mpi "$PROG" $COUNT $ITERS >"$TMP/out" 2>"$TMP/err"
rc=$?
note "mf-mpirun: $(elapsed "$t0") s: $(cat "$TMP/out")"
[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err" | head -n 10
check_eq "mf-mpirun runs MPI_Allreduce on $N ranks, every result equal to the closed form" \
	"$rc $(awk '{ print $3, $11 }' "$TMP/out")" "0 $N 1"
us=$(awk '{ print $13 }' "$TMP/out")
low=$(( (ITERS + 1) * M ))
short=
i=0
while [ $i -lt $N ]; do
	d=$(( $(rx_bytes $i) - $(eval "echo \$rx0_$i") ))
	[ "$d" -ge $low ] || short="$short $i:$d"
	i=$((i + 1))
done
check_eq "every node's fabric interface received at least $low bytes" "${short:-none short}" "none short"
dl=$(( $(link_bytes) - lb0 ))
note "fabric links carried $dl bytes for $((ITERS + 1)) allreduces of $M bytes"
check "the fabric's links carried at least $((N * low)) bytes ($dl)" test "$dl" -ge $((N * low))

plan() { "$MF" plan --torus 2x4 --coll allreduce --size $M --link-rate 100mbit \
	--link-delay 100us -j "$@"; }
# the time bound, computed here: the diameter (1 + 2 hops) of delays,
# and the 2 (N - 1) / N * M bytes a node must send over its 4 ports
bound=$(awk -v m=$M -v n=$N 'BEGIN { printf "%d", 3 * 100000 + 2 * (n - 1) / n * m * 8 / 4e8 * 1e9 }')
check_eq "plan prints the same time bound ($bound ns)" "$(plan --algo ring | jget time_ns)" "$bound"
model=$(plan --algo ring | jget fabric_time_ns)
note "MPI_Allreduce $M B (ring), 100 Mbit/s 100 us: MPI $us us per call; model (ring) $((model / 1000)) us; lower bound $((bound / 1000)) us; MPI/model $(awk -v a="$us" -v b="$model" 'BEGIN { printf "%.2f", a * 1000 / b }')"
check "MPI's wall time ($us us) is at least the lower bound ($((bound / 1000)) us)" \
	awk -v a="$us" -v b="$bound" 'BEGIN { exit !(a * 1000 >= b) }'
