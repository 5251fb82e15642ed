# SPDX-License-Identifier: GPL-2.0
# Issue 14 (tracepoints): with events/meshfabric enabled, a ping leaves
# meshfabric_forward events with its fabric, source, destination, hops
# and bytes; a broadcast offload one meshfabric_bcast_step per step; a
# broadcast frame too big for a receiver's MTU a meshfabric_drop with
# reason mtu and that node; a link set a meshfabric_link_set, and a timed
# broadcast its fabric time in the last step's event.  A timed unicast
# frame dropped on its way names the reason: loss on a fabric of loss
# only, queue_full where a link with a rate has its queue full.
. ./lib.sh
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
[ -d $T/events ] || T=/sys/kernel/debug/tracing
load
create --torus 4x4 --name tr --ipv4 10.6.0.0/16 --no-ipv6
id=$("$MF" -j list | sed -n 's/.*"name":"tr","id":\([0-9]*\).*/\1/p')
check "tracefs has events/meshfabric" test -d $T/events/meshfabric
echo 1 >$T/events/meshfabric/enable
echo >$T/trace
"$MF" exec tr 0,0 -- ping -c 2 -W 2 "$(addr_of tr 2,1 4)" >/dev/null
# node (2,1) is 2 + 4 * 1 = 6, 3 hops away; ICMP echo of 56 bytes: 98
check_eq "ping (0,0) -> (2,1): 2 meshfabric_forward events src=0 dst=6 hops=3 bytes=98" \
	"$(grep -c "meshfabric_forward: fabric=$id src=0 dst=6 hops=3 bytes=98" $T/trace)" 2
steps=$("$MF" -j bcast tr --from 1,1 | sed -n 's/.*"steps":\([0-9]*\).*/\1/p')
check_eq "bcast: one meshfabric_bcast_step per step ($steps)" \
	"$(grep -c "meshfabric_bcast_step: fabric=$id step=" $T/trace)" "$steps"
check "bcast: the last step's number is steps - 1" \
	grep -q "meshfabric_bcast_step: fabric=$id step=$((steps - 1)) " $T/trace
"$IP" -n tr-1-1 link set dev tr mtu 1280
"$IP" netns exec tr-0-0 "$MFCTL" flood 10.6.255.255 0.05 1400 >/dev/null
wait_until 5 grep -q "meshfabric_drop: fabric=$id node=5 bytes=1442 reason=mtu" $T/trace
check "a 1442-byte broadcast: meshfabric_drop node=5 (1,1) reason=mtu" \
	grep -q "meshfabric_drop: fabric=$id node=5 bytes=1442 reason=mtu" $T/trace
# a link parameter change: node (1,0) = 1, port x+ = 0; and a timed
# broadcast's steps carry their fabric time (tsay-wang on 4x4: 2 steps)
"$MF" link set tr 1,0 x+ rate 10mbit delay 2ms >/dev/null
check "link set: meshfabric_link_set node=1 port=0 rate=10000000 delay_ns=2000000" \
	grep -q "meshfabric_link_set: fabric=$id node=1 port=0 flags=0x3 rate=10000000 delay_ns=2000000 " $T/trace
"$MF" link set tr all all delay 1ms >/dev/null
check "link set all: node=-1 port=-1" \
	grep -q "meshfabric_link_set: fabric=$id node=-1 port=-1 flags=0x2 rate=0 delay_ns=1000000 " $T/trace
ft=$("$MF" -j bcast tr --algo tsay-wang --from 0,0 | sed -n 's/.*"fabric_time_ns":\([0-9]*\).*/\1/p')
check "a timed broadcast's last step names its fabric time ($ft ns)" \
	grep -q "meshfabric_bcast_step: fabric=$id step=1 sends=.* fabric_ns=$ft" $T/trace
# a timed unicast frame's drop reason, on a 2-node line (node 0 sends)
"$MF" create --mesh 2 --name tq --ipv4 10.8.0.0/16 --no-ipv6 >/dev/null
qid=$("$MF" -j list | sed -n 's/.*"name":"tq","id":\([0-9]*\).*/\1/p')
dst=$(addr_of tq 1 4)
"$MF" exec tq 0 -- ping -c 1 -W 2 "$dst" >/dev/null
"$MF" link set tq 0 x+ loss 100% >/dev/null
echo >$T/trace
"$IP" netns exec tq-0 "$MFCTL" flood "$dst" 0.2 200 >/dev/null 2>&1
check "loss only, 100%: meshfabric_drop node=0 reason=loss" \
	grep -q "meshfabric_drop: fabric=$qid node=0 bytes=242 reason=loss" $T/trace
"$MF" link set tq 0 x+ loss 0 rate 1mbit queue 1 >/dev/null
echo >$T/trace
"$IP" netns exec tq-0 "$MFCTL" flood "$dst" 0.2 200 >/dev/null 2>&1
check "1 Mbit/s, queue 1: meshfabric_drop node=0 reason=queue_full" \
	grep -q "meshfabric_drop: fabric=$qid node=0 bytes=242 reason=queue_full" $T/trace
check "1 Mbit/s, queue 1: no drop named loss" \
	sh -c "! grep -q 'meshfabric_drop: fabric=$qid .*reason=loss' $T/trace"
echo 0 >$T/events/meshfabric/enable
check "destroy tq" "$MF" destroy tq
check "destroy tr" "$MF" destroy tr
check "rmmod" unload
