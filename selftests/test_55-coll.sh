# SPDX-License-Identifier: GPL-2.0
# Issue 23: collectives executed by the kernel (COLLECTIVE ioctl,
# `meshfabric coll`) on a 4x4 torus, a 3x3 mesh and H_3 (19 nodes):
#  - allreduce of the uapi's generator for every op x type: every node's
#    result equals the reduction computed by `mfctl collref` from the
#    header's formula (the test's own arithmetic);
#  - every collective x every algorithm that builds it: the results equal
#    the direct computation (the tool's own, and the kernel's);
#  - the frames: LINK_STATS counts exactly the TCD `meshfabric plan
#    --coll` gives, and a node's netdev receives one frame per send to it
#    plus its result;
#  - timed links: the kernel's fabric time and step times equal `plan
#    --coll`'s to the nanosecond; under an iperf3 flow the same
#    collective takes longer;
#  - auto and tree planned by the tool, as plan --coll plans them, and
#    handed to the kernel (CALGO_USER): on the 3x3 mesh and the 4x4
#    torus on timed links, coll --algo auto runs plan --coll --algo
#    auto's algorithm in plan's fabric time to the ns; --in-kernel the
#    module's own choice; a schedule of plan's read back (--schedule)
#    gives the direct results; forged ones are refused with the
#    checker's line;
#  - refusals with a one-line reason; the allocation counter back to 0.
. ./lib.sh
load
note "allocated at load: $(allocated)"
create --torus 4x4 --name ct --ipv4 10.9.0.0/16 --no-ipv6
create --mesh 3x3 --name cm --no-ipv6
create --hex 3 --name ch --no-ipv6
shape() {	# the plan arguments of fabric $1
	case $1 in
	ct) echo "--torus 4x4" ;;
	cm) echo "--mesh 3x3" ;;
	ch) echo "--hex 3" ;;
	esac
}
# 1. allreduce, every op x type, against the test's own reduction
for f in ct cm ch; do
	n=$(fab $f nodes) bad=0 runs=0
	for t in s32 u32 s64 u64; do
		for o in sum min max band bor bxor; do
			want=$("$MFCTL" collref $t $o "$n" 5)
			got=$("$MF" coll $f allreduce --op $o --type $t --count 5 \
				--results 2>&1)
			runs=$((runs + 1))
			wrong=$(echo "$got" | awk -v w="$want" -v n="$n" '
				/^node [0-9]+:/ { sub(/^node [0-9]+: /, "");
					k++; if ($0 != w) bad++ }
				END { print (k == n ? bad + 0 : "nodes " k) }')
			if [ "$wrong" != 0 ] ||
			   ! echo "$got" | grep -q '^match  *yes (kernel yes'; then
				bad=$((bad + 1))
				note "$f $t $o: want $want; $(echo "$got" | head -n 3)"
			fi
		done
	done
	check_eq "$f ($n nodes): allreduce of every op x type = the test's reduction on every node ($runs runs)" \
		$bad 0
done
# 2. every collective x algorithm: the direct computation (tool and
# kernel), with a root that is not 0 for the rooted ones
for f in ct cm ch; do
	runs=0 bad=0 skipped=0
	for c in allreduce reduce reduce-scatter allgather gather scatter \
		 alltoall broadcast; do
		for a in auto tree ring recdbl rabenseifner bucket swing \
			 swing-lat shift 003; do
			"$MF" -j coll $f $c --algo $a --type u32 --op bxor \
				--count 23 --root 2 >$TMP/o 2>$TMP/e
			rc=$?
			if [ $rc != 0 ] && grep -q "does not" $TMP/e; then
				skipped=$((skipped + 1))
				continue
			fi
			runs=$((runs + 1))
			if [ $rc != 0 ] || ! grep -q '"match":true' $TMP/o; then
				bad=$((bad + 1))
				note "$f $c $a: rc $rc $(head -c 200 $TMP/e)"
			fi
		done
	done
	note "$f: $runs collective x algorithm runs, $skipped not built on this shape"
	check_eq "$f: every collective x algorithm equals the direct computation" \
		"$bad $((runs > 20))" "0 1"
done
# 3. the frames: on the links (LINK_STATS) and at a node's netdev
"$MF" stats ct --reset >/dev/null
k=$("$MF" -j coll ct allreduce --algo ring --count 64 --type s64)
p=$("$MF" -j plan --torus 4x4 --coll allreduce --algo ring --size 512 --steps)
check_eq "ring allreduce on ct: LINK_STATS frames = plan's TCD, bytes = the call's" \
	"$("$MF" -j stats ct | jget packets) $("$MF" -j stats ct | jget bytes)" \
	"$(echo "$p" | jget tcd) $(echo "$k" | jget link_bytes)"
ifn=$(node ct 1,1 ifname)
rx() {	# /proc/net/dev: the namespace's own
	"$MF" exec ct 1,1 -- cat /proc/net/dev |
		awk -v i="$ifn" '{ sub(/^ */, ""); split($0, a, ":") }
			a[1] == i { split(a[2], b, " "); print b[2] }'
}
r0=$(rx)
"$MF" coll ct allreduce --algo ring --count 64 >/dev/null
r1=$(rx)
to5=$(echo "$p" | grep -o '"dst":5,' | wc -l)
check_eq "node (1,1) receives a frame per send to it ($to5) and its result" \
	$((r1 - r0)) $((to5 + 1))
# 4. timed links: the kernel's fabric time is plan's to the nanosecond,
# for the algorithm that ran (auto: the tool's choice, plan's; tree: the
# tool's, its broadcast possibly a search's, handed to the kernel)
for f in ct cm ch; do
	"$MF" link set $f all all rate 1gbit delay 10us >/dev/null
	bad=0 runs=0
	for a in auto tree ring recdbl bucket swing swing-lat rabenseifner; do
		for cnt in 1 100 3000; do
			k=$("$MF" -j coll $f allreduce --algo $a --count $cnt \
				--type s64 2>/dev/null) || continue
			ran=$(echo "$k" | jget algo)
			# shellcheck disable=SC2046
			p=$("$MF" -j plan $(shape $f) --coll allreduce --algo $ran \
				--size $((cnt * 8)) --link-rate 1gbit \
				--link-delay 10us)
			runs=$((runs + 1))
			got="$(echo "$k" | jget fabric_ns) $(echo "$k" | jget algo)"
			want="$(echo "$p" | jget fabric_time_ns) $(echo "$p" | jget algo)"
			last=$(echo "$k" | jget step_ns | tr ',' '\n' | tail -n 1)
			[ "$got" = "$want" ] && [ "$last" = "${got%% *}" ] &&
				echo "$k" | grep -q '"match":true' ||
				{ bad=$((bad + 1)); note "$f $a $cnt: kernel $got (last step $last), plan $want"; }
		done
	done
	note "$f timed: $runs runs; e.g. $(echo "$k" | jget algo) $(echo "$k" | jget fabric_ns) ns, $(echo "$k" | jget elapsed_ns) ns wall"
	check_eq "$f: fabric time = plan --coll's to the ns, last step = total ($runs runs)" \
		"$bad $((runs >= 9))" "0 1"
done
# 4b. auto: the algorithm and fabric time of plan --coll --algo auto, on
# the 3x3 mesh and the 4x4 torus; the module's own choice beside it
for f in cm ct; do
	bad=0 runs=0
	for c in allreduce reduce allgather reduce-scatter broadcast; do
		for cnt in 1 1024; do
			k=$("$MF" -j coll $f $c --count $cnt --type s64 2>&1)
			# shellcheck disable=SC2046
			p=$("$MF" -j plan $(shape $f) --coll $c --algo auto \
				--size $((cnt * 8)) --link-rate 1gbit \
				--link-delay 10us)
			runs=$((runs + 1))
			got="$(echo "$k" | jget algo) $(echo "$k" | jget fabric_ns) $(echo "$k" | jget planned)"
			want="$(echo "$p" | jget algo) $(echo "$p" | jget fabric_time_ns) here"
			[ "$got" = "$want" ] && echo "$k" | grep -q '"match":true' ||
				{ bad=$((bad + 1)); note "$f $c $cnt: coll $got, plan $want $(echo "$k" | head -c 200)"; }
		done
	done
	check_eq "$f: coll --algo auto = plan --coll --algo auto: algorithm, fabric time to the ns, direct results ($runs runs)" \
		"$bad $runs" "0 10"
	for c in allreduce reduce allgather; do
		ker=$("$MF" -j coll $f $c --count 1024 --in-kernel)
		here=$("$MF" -j coll $f $c --count 1024)
		note "$f $c of 8 KiB, 1 Gbit/s, 10 us: --in-kernel $(echo "$ker" | jget algo) $(echo "$ker" | jget fabric_ns) ns; planned here $(echo "$here" | jget algo) $(echo "$here" | jget fabric_ns) ns"
	done
	check_eq "$f: --in-kernel runs the module's own plan" \
		"$(echo "$ker" | jget planned) $(echo "$ker" | grep -c '"match":true')" \
		"kernel 1"
done
# the 3x3 mesh's reduce tree planned here turns round a broadcast the
# module cannot build (measured: 303,872 ns against the module's 683,712)
ker=$("$MF" -j coll cm reduce --count 1024 --in-kernel)
here=$("$MF" -j coll cm reduce --count 1024)
note "cm reduce to node 0: module $(echo "$ker" | jget fabric_ns) ns, planned here $(echo "$here" | jget fabric_ns) ns"
check "cm reduce: the tree planned here (a broadcast the module lacks) is faster and gives the direct results" \
	sh -c "[ $(echo "$here" | jget fabric_ns) -lt $(echo "$ker" | jget fabric_ns) ] &&
	       [ $(echo "$here" | grep -c '"match":true') = 1 ]"
# a schedule of plan's through a file: the direct results, plan's time;
# forged (every copy made a combine: a contribution counted twice; a
# copy collective that combines) refused with the checker's line
# shellcheck disable=SC2046
"$MF" -j plan --mesh 3x3 --coll allreduce --algo tree --size 800 \
	--link-rate 1gbit --link-delay 10us --steps >$TMP/tree.json
k=$("$MF" -j coll cm allreduce --schedule $TMP/tree.json --count 100 --type u64 --op bxor)
check_eq "cm: plan's tree allreduce from a file: direct results, plan's fabric time" \
	"$(echo "$k" | jget planned) $(echo "$k" | jget fabric_ns) $(echo "$k" | grep -c '"match":true')" \
	"file $(jget fabric_time_ns <$TMP/tree.json) 1"
"$MF" -j plan --mesh 3x3 --coll allreduce --algo ring --size 800 --steps |
	sed 's/"combine":false/"combine":true/g' >$TMP/twice.json
check_fails "cm: a forged allreduce counting a contribution twice: the checker's line" \
	"refused.*counts node [0-9]*'s block [0-9]* twice" \
	"$MF" coll cm allreduce --schedule $TMP/twice.json --count 9
"$MF" -j plan --mesh 3x3 --coll allgather --algo ring --size 800 --steps |
	sed 's/"combine":false/"combine":true/' >$TMP/comb.json
check_fails "cm: a forged allgather that combines: the checker's line" \
	"combines outside a reduction" \
	"$MF" coll cm allgather --schedule $TMP/comb.json --count 9
check_fails "cm: a schedule of another collective" "a schedule of allgather, not reduce" \
	"$MF" coll cm reduce --schedule $TMP/comb.json
check_fails "cm: a torus's schedule on the mesh" "the schedule is for a torus" \
	sh -c "'$MF' -j plan --torus 3x3 --coll allreduce --steps | '$MF' coll cm allreduce --schedule -"
# 5. under an iperf3 flow through the same links the collective is slower
if [ -x $IPERF ]; then
	"$MF" link set ct all all rate 100mbit delay 100us >/dev/null
	idle=$("$MF" -j coll ct allreduce --algo ring --count 1024 | jget fabric_ns)
	dst=$(addr_of ct 2,0 4)
	"$MF" exec ct 0,0 -- ping -c 1 -W 2 "$dst" >/dev/null
	"$MF" exec ct 2,0 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	pk() { "$MF" -j link show ct 0,0 | grep -o '"packets": *[0-9]*' |
		awk -F: '{ s += $2 } END { print s + 0 }'; }
	p0=$(pk)
	"$MF" exec ct 0,0 -- $IPERF -c "$dst" -t 30 >/dev/null 2>&1 &
	ipid=$!
	# the flow is on the links once 0,0's links count its frames (a
	# loaded or debug guest took more than the 2 s once waited)
	k=0
	while [ $k -lt 40 ] && [ "$(pk)" -lt $((p0 + 100)) ]; do
		sleep 0.5
		k=$((k + 1))
	done
	sleep 1
	# TCP through 100 Mbit/s queues backs off now and then, and an
	# emulated debug guest once ran the collective in such a gap (busy
	# equal to idle): up to 5 runs, 1 s apart, the slowest counts
	busy=0 n=0
	while [ $n -lt 5 ] && [ "$busy" -lt $((idle + 121000)) ]; do
		b=$("$MF" -j coll ct allreduce --algo ring --count 1024 | jget fabric_ns)
		[ "${b:-0}" -gt "$busy" ] && busy=$b
		n=$((n + 1))
		[ "$busy" -lt $((idle + 121000)) ] && sleep 1
	done
	kill $ipid 2>/dev/null
	wait
	note "ring allreduce of 8 KiB on 100 Mbit/s, 100 us links: $idle ns idle, $busy ns under iperf3 (slowest of $n runs)"
	# one 1514-byte frame ahead on one link delays it by its 121 us
	check "under an iperf3 flow: slower by at least one frame's 121 us" \
		test "$busy" -ge $((idle + 121000))
else
	echo "ok - collective under iperf3 # SKIP no iperf3"
fi
# 6. refusals
check_fails "a float type is refused" "floating point" \
	"$MF" coll ct allreduce --type f32
check_fails "swing on H_3: why" "does not build" \
	"$MF" coll ch allreduce --algo swing
check_fails "vectors past the kernel's bound" "above" \
	"$MF" coll ct allreduce --count 200000
check_fails "an unknown collective" "want allreduce" \
	"$MF" coll ct allsum
for f in ct cm ch; do
	check "destroy $f" "$MF" destroy $f
done
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
