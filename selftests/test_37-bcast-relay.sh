# SPDX-License-Identifier: GPL-2.0
# Frames broadcast by nodes are relayed by absent nodes, as unicast is
# (issue 21, finding 7): on a 65536-node line with only nodes 0, 1 and
# 65535 attached, node 0 resolves 65535 by ARP and pings it (before: ARP
# failed, the flood stopped at the first absent node).  The links a
# broadcast crosses, against a model computed here (on a line the flood's
# tree is the path: every link away from the source, once); the work per
# frame is the pruned tree's nodes (debugfs flood_last_work: 2 while
# only nodes 0 and 1 are attached, however long the line), and the tree
# is built again when links change, not per frame nor per attach
# (flood_builds): a link down on the 8-node line stops the frame.
. ./lib.sh
load
dbg() { cat "/sys/kernel/debug/meshfabric/$1/$2"; }
# stats NAME: the link counters' summary, "USED PACKETS" (text: the
# JSON lists every link used)
stats() {
	"$MF" stats "$1" --top 1 | tail -n 1 |
		sed -n 's/.*: \([0-9]*\) of [0-9]* directed links used, \([0-9]*\) packets.*/\1 \2/p'
}
# up ID NODE NS ADDR: a namespace NS, no IPv6 (no ND/MLD frames of its
# own in the counts), node NODE attached into it as "l", ADDR/8 on it
up() {
	"$IP" netns add "$3"
	"$IP" netns exec "$3" sh -c \
		'echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6'
	attach "$1" "$2" "$3" l >/dev/null
	"$IP" -n "$3" addr add "$4/8" dev l
	"$IP" -n "$3" link set dev l up
}
# bcast_one NS NAME WANT: one raw broadcast frame from the node in NS,
# then wait (up to 30 s) until the links of NAME show "WANT WANT" (used,
# packets)
bcast_one() {
	"$IP" netns exec "$1" "$MFCTL" flood l/ff:ff:ff:ff:ff:ff 0 60 >/dev/null
	_t0=$(uptime_s)
	while [ "$(stats "$2")" != "$3 $3" ] &&
	      awk -v t="$(elapsed "$_t0")" 'BEGIN { exit !(t < 30) }'; do
		sleep 0.2
	done
}

# --- a short line first: the direction of every link, from a model
set -- $("$MFCTL" ioctl 0 CREATE kind=1 ndims=1 dims=8 name=l8 @id)
check_eq "create an 8-node line" "$1" 0
id8=$2
up "$id8" 0 l8a 10.8.0.1
up "$id8" 1 l8b 10.8.0.2
up "$id8" 7 l8c 10.8.0.8
# model: the tree is the path 0..7; from S every link k -> k+1 for
# k >= S and k -> k-1 for k <= S carries the frame once
model() {
	k=0
	while [ $k -lt 8 ]; do
		[ $k -ge "$1" ] && [ $k -lt 7 ] && echo "$k $((k + 1))"
		[ $k -le "$1" ] && [ $k -gt 0 ] && echo "$k $((k - 1))"
		k=$((k + 1))
	done
}
# links NAME: "node peer" of every link with one packet, sorted
links() {
	"$MF" -j stats "$1" | tr '{}' '\n\n' | tr -d '"()' | sed -n \
		's/.*node:\([0-9]*\),port:[^,]*,peer:\([0-9]*\),packets:1,.*/\1 \2/p' |
		sort
}
for src in 7:l8c 1:l8b 0:l8a; do
	n=${src%%:*} ns=${src#*:}
	"$MF" stats l8 --reset >/dev/null
	bcast_one "$ns" l8 7
	check_eq "8-node line, a broadcast from $n: each link away from $n, once" \
		"$(links l8 | tr '\n' ' ')" "$(model "$n" | sort | tr '\n' ' ')"
done
check_eq "and each once (7 links, 7 packets)" "$(stats l8)" "7 7"
check_eq "its work: all 8 nodes of the line (7 is attached)" \
	"$(dbg "$id8" flood_last_work)" 8

# --- the review's case: 65536 nodes, 0, 1 and 65535 attached
set -- $("$MFCTL" ioctl 0 CREATE kind=1 ndims=1 dims=65536 name=ln @id)
check_eq "create a 65536-node line" "$1" 0
id=$2
up "$id" 0 ln0 10.7.0.1
up "$id" 1 ln1 10.7.0.2
"$MF" stats ln --reset >/dev/null
bcast_one ln0 ln 1
check_eq "nodes 0 and 1 only: a broadcast crosses one link" "$(stats ln)" "1 1"
check_eq "its work: a tree of 2 nodes, not 65536" \
	"$(dbg "$id" flood_last_work)" 2
b0=$(dbg "$id" flood_builds)
up "$id" 65535 ln2 10.7.0.3
"$MF" stats ln --reset >/dev/null
bcast_one ln2 ln 65535
check_eq "65535 attached: its broadcast crosses the 65535 links, once each" \
	"$(stats ln)" "65535 65535"
check_eq "its work: all 65536 nodes (absent ones relay)" \
	"$(dbg "$id" flood_last_work)" 65536
rx() { "$IP" -n "$1" -s -j link show dev l | sed 's/.*"rx":{[^}]*"packets":\([0-9]*\).*/\1/'; }
check "node 0 pings 65535 (ARP through 65534 absent nodes)" \
	"$IP" netns exec ln0 ping -c 2 -W 10 10.7.0.3
t0=$(uptime_s)
for i in 1 2 3 4 5; do
	"$MF" stats ln --reset >/dev/null
	bcast_one ln1 ln 65535
done
note "5 broadcasts over the 65536-node line: $(elapsed "$t0") s (TCG)"
check_eq "the attach and 6 frames built nothing again" \
	"$(dbg "$id" flood_builds)" "$b0"
check "destroy" "$MF" destroy ln
# a link down cuts the 8-node line (on the long one, the fault routing
# of one link down passes its 4 MiB limit): node 0's broadcasts reach 1,
# not 7, and the forest is built once more
b0=$(dbg "$id8" flood_builds)
check "link set l8 3 x+ down" "$MF" link set l8 3 x+ down
r7=$(rx l8c) r1=$(rx l8b)
"$MF" stats l8 --reset >/dev/null
bcast_one l8a l8 1
check_eq "link 3-4 down: node 0's broadcast crosses 0-1 only" \
	"$(links l8 | tr '\n' ' ')" "0 1 "
check_eq "node 1 receives it, node 7 does not" \
	"$(($(rx l8b) - r1)) $(($(rx l8c) - r7))" "1 0"
check_eq "the link change built the forest once more" \
	"$(dbg "$id8" flood_builds)" $((b0 + 1))
check "destroy" "$MF" destroy l8

# A size-2 dimension: both ports of a node lead to the same neighbour and
# the link's state lives on the + port (topo.h).  With 0,0 x+ down the
# broadcast from 0,0 reaches 1,0 (node 1) around it, never through the
# - port, which is the same link.
set -- $("$MFCTL" ioctl 0 CREATE kind=2 ndims=2 dims=2,3 name=t23 @id)
check_eq "create a 2x3 torus" "$1" 0
id23=$2
for n in 0 1 2 3 4 5; do
	up "$id23" $n t23n$n 10.23.0.$((n + 1))
done
check "link set t23 0,0 x+ down" "$MF" link set t23 0,0 x+ down
"$MF" stats t23 --reset >/dev/null
bcast_one t23n0 t23 5
check_eq "2x3 torus, 0,0 x+ down: the broadcast reaches the 5 others once" \
	"$(stats t23)" "5 5"
check_eq "and never over the link that is down (either port of 0 to 1)" \
	"$(links t23 | grep -cxE '0 1|1 0')" 0
check "destroy" "$MF" destroy t23
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
