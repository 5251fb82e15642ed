# SPDX-License-Identifier: GPL-2.0
# Issue 14 (ethtool): `ethtool -i` names the driver and its version, and
# `ethtool -S` on a node's interface gives per port tx and rx packets and
# bytes equal to the link counters `meshfabric stats` shows (tx: the
# node's link out of the port; rx: the neighbour's link into it).
. ./lib.sh
ET=/usr/sbin/ethtool
load
# IPv4 only: no router solicitations changing counters between the reads
create --torus 4x4 --name et --ipv4 10.7.0.0/16 --no-ipv6
check "ethtool -i: driver meshfabric" \
	sh -c "'$IP' netns exec et-1-1 $ET -i et | grep -q '^driver: meshfabric'"
check_eq "ethtool -i: version = the module's" \
	"$("$IP" netns exec et-1-1 $ET -i et | awk '$1 == "version:" { print $2 }')" \
	"$(cat /sys/module/meshfabric/version)"
for pair in "0,0 2,1" "1,1 3,3" "1,2 1,0"; do
	set -- $pair
	"$MF" exec et "$1" -- ping -c 3 -i 0.2 -W 2 "$(addr_of et "$2" 4)" >/dev/null
done
# The neighbours the pings learned made permanent: a unicast ARP probe
# (a reachable entry going stale, 5 s later) must not change a counter
# between the two reads below (the debug kernel was slow enough).
for ns in et-0-0 et-2-1 et-1-1 et-3-3 et-1-2 et-1-0; do
	"$IP" -n "$ns" neigh show dev et | while read -r a l mac _; do
		[ "$l" = lladdr ] || continue
		"$IP" -n "$ns" neigh replace "$a" lladdr "$mac" dev et nud permanent
	done
done
"$MF" stats et --all >/tmp/st.$$
for node in 1,1 0,0; do
	ns=et-$(echo $node | tr , -)
	"$IP" netns exec "$ns" $ET -S et >/tmp/et.$$
	bad=0
	for port in x+ x- y+ y-; do
		tx=$(awk -v n="$node" -v p="$port" '$1 == n && $2 == p { print $4 }' /tmp/st.$$)
		peer=$(awk -v n="$node" -v p="$port" '$1 == n && $2 == p { print $3 }' /tmp/st.$$)
		rev=$(echo $port | tr '+-' '-+')
		rx=$(awk -v n="$peer" -v p="$rev" '$1 == n && $2 == p { print $4 }' /tmp/st.$$)
		etx=$(awk -v k="port${port}_tx_packets:" '$1 == k { print $2 }' /tmp/et.$$)
		erx=$(awk -v k="port${port}_rx_packets:" '$1 == k { print $2 }' /tmp/et.$$)
		[ "$tx" = "$etx" ] && [ "$rx" = "$erx" ] || {
			bad=1
			note "$node $port: stats tx $tx rx $rx, ethtool tx $etx rx $erx"
		}
	done
	check_eq "ethtool -S of $node: every port's tx/rx = meshfabric stats" $bad 0
done
check "some port counted traffic (a test of the test)" \
	sh -c "awk '\$4 > 0' /tmp/st.$$ | grep -q ."
check "destroy et" "$MF" destroy et
rm -f /tmp/st.$$ /tmp/et.$$
check "rmmod" unload
