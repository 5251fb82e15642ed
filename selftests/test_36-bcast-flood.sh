# SPDX-License-Identifier: GPL-2.0
# Issue 9 item 1: a process with no capabilities in a node's namespace
# floods UDP broadcasts, pinned to CPU 0, for 20 s.  The machine stays
# usable: `ip link add`/`del` of a veth pair in the initial namespace, on
# CPU 0, takes under 3 s or 5 times as long as beside an ordinary busy
# process, 10 s at most (below; 16 s with the old queue on system_wq),
# and two other nodes of the fabric still ping each other.  Then the
# broadcast queue's byte limits (item 3), the receiver's MTU (item 9) and
# node frames building no schedule (items 5 and 8).
. ./lib.sh
load
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
create --torus 8x8 --name fl --ipv4 10.9.0.0/16
alloc0=$(allocated)	# before the nodes' first ND/ARP broadcasts
id=$("$MF" -j list | sed -n 's/.*"name":"fl","id":\([0-9]*\).*/\1/p')
dbg=/sys/kernel/debug/meshfabric/$id

# veth add + del on CPU 0, in seconds (busybox sh: /proc/uptime)
veth_time() {
	t0=$(uptime_s)
	taskset 1 "$IP" link add mfv0 type veth peer name mfv1 &&
		taskset 1 "$IP" link del mfv0
	elapsed "$t0"
}
idle=$(veth_time)
note "veth add+del on CPU 0, idle: $idle s"
# five runs, one a second; the worst in $worst
veth_worst() {
	worst=0
	for i in 1 2 3 4 5; do
		t=$(veth_time)
		note "veth add+del on CPU 0 $1: $t s"
		worst=$(echo "$t $worst" | awk '{ print ($1 > $2) ? $1 : $2 }')
		sleep 1
	done
}
# the control: the same runs beside an ordinary process spinning in user
# space on CPU 0, the flooder's CPU (the emulated guest's own speed and
# its host's load count in both)
/mf/selftests/mfdos burn 0 30 &
bpid=$!
sleep 1
veth_worst "beside a CPU hog"
kill $bpid 2>/dev/null
wait $bpid 2>/dev/null
cworst=$worst

"$IP" netns exec fl-0-0 "$MFCTL" flood 10.9.255.255 20 1400 >/tmp/flood.$$ 2>&1 &
fpid=$!
sleep 3
veth_worst "during the flood"
b=$(addr_of fl 6,6 4)
check "during the flood: node 5,5 pings 6,6 ($b)" \
	"$MF" exec fl 5,5 -- ping -c 3 -W 3 "$b"
check "during the flood: queue within 4 MiB, sender within its 256 KiB" \
	test "$(cat $dbg/bcastq_max_bytes)" -le 262144
wait $fpid
note "flood (uid 65534, CPU 0): $(cat /tmp/flood.$$)"
check "the flooder ran without privileges and sent frames" \
	grep -q '^sent [1-9]' /tmp/flood.$$
# The goal (issue 9): under 1 s; with the old queue on system_wq it took
# 16 s.  Under TCG the guest alone misses the goal: in a quiet full run
# (stop 36) the five runs took 0.84-1.37 s during the flood against
# 0.14 s idle (0.21-0.23 s before f4c5f46, docs/design.md).  And the
# flood costs CPU 0 more than one busy process does (the flooder, the
# broadcast queue's worker and the receivers' softirqs; and since both
# vCPUs are one host thread, f4c5f46, CPU 1's share of the work slows
# CPU 0 too): in three runs of this test alone, worst 0.76, 0.58 and
# 1.16 s against 0.28, 0.28 and 0.48 s beside the hog, 2.1-2.7 times.
# So the bound is 3 s or 5 times the control's worst, whichever is
# larger, and at most 10 s: 2.2 times the worst measured, and the old
# queue's 16 s fails however slow the control.
vb=$(awk -v c="$cworst" 'BEGIN { x = 5 * c; x = (x > 3) ? x : 3
	print (x < 10) ? x : 10 }')
check_timed "veth add+del on CPU 0 under $vb s during the flood (worst $worst s, beside a CPU hog $cworst s)" \
	awk -v w="$worst" -v b="$vb" 'BEGIN { exit !(w < b) }'

# item 3: 64 KiB broadcasts from 20 senders: the queue holds at most its
# byte limit, each sender at most its share
echo 0 >$dbg/bcastq_max_bytes
for n in 0 1 2 3 4 5 6 7; do
	for m in 0 1; do
		"$IP" -n fl-$n-$m link set dev fl mtu 65000
	done
done
pids=
for n in 0 1 2 3 4 5 6 7; do
	for m in 0 1; do
		"$IP" netns exec fl-$n-$m "$MFCTL" flood 10.9.255.255 4 60000 >/dev/null 2>&1 &
		pids="$pids $!"
	done
done
wait $pids
max=$(cat $dbg/bcastq_max_bytes)
note "64 KiB broadcasts from 16 senders: queue peaked at $max bytes"
# (a test of the test: frames were queued; how far the peak goes depends
# on how fast the guest drains, so only one frame's size is certain)
check "the queue held 64 KiB broadcasts" test "$max" -ge 60000
check "and within the 4 MiB byte limit" test "$max" -le 4194304

# item 9: a receiver whose MTU is below the frame gets nothing
rx() { "$IP" netns exec "fl-$1" cat "/sys/class/net/fl/statistics/$2"; }
"$IP" -n fl-3-3 link set dev fl mtu 1280
wait_until 10 sh -c "[ \$(cat $dbg/bcastq_bytes) = 0 ]"
a0=$(rx 3-3 rx_packets) d0=$(rx 3-3 rx_dropped) c0=$(rx 4-4 rx_packets)
"$IP" netns exec fl-0-0 "$MFCTL" flood 10.9.255.255 0.2 1400 >/tmp/flood.$$ 2>&1
wait_until 10 sh -c "[ \$(cat $dbg/bcastq_bytes) = 0 ]"
got=$(($(rx 4-4 rx_packets) - c0))
note "sent $(awk '{ print $2 }' /tmp/flood.$$), flooded $got (the rest over the sender's share)"
check "MTU 1500: node 4,4 received the flooded 1442-byte frames" test "$got" -gt 0
check_eq "MTU 1280: node 3,3 received none of them" $(($(rx 3-3 rx_packets) - a0)) 0
check "and counted each as rx_dropped (at least $got)" \
	test $(($(rx 3-3 rx_dropped) - d0)) -ge "$got"

# items 5 and 8: frames from more sources than the offload's 8-entry
# schedule cache build no schedule (the old module built AUTO's search
# into that cache, each entry a counted allocation, and rebuilt it per
# frame once more than 8 nodes sent)
for n in 0 1 2 3 4 5 6 7; do
	"$IP" netns exec fl-$n-7 "$MFCTL" flood 10.9.255.255 0.1 100 >/dev/null 2>&1
done
wait_until 10 sh -c "[ \$(cat $dbg/bcastq_bytes) = 0 ]"
check_eq "broadcasts from 40 sources built no schedule (allocations as at create)" \
	"$(allocated)" "$alloc0"

check "destroy fl" "$MF" destroy fl
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
rm -f /tmp/flood.$$
check "rmmod" unload
