#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# multihost-bench.sh - one guest's side of the two-guest benchmark
# (scripts/multihost-bench.sh, through scripts/vm2.sh; MF_VM2_ROLE a or b).
# Not a test: it prints figures (BENCH lines) for issue 25's performance
# items, each ratio from the same guests in the same run.
#   1. TCP across one cut link: a 1-D mesh of 4 nodes split in two
#      (a: nodes 0, 1; b: nodes 2, 3), iperf3 from node 0 to node 3 (one
#      fabric hop on each side and the cut link, untimed links), against
#      a plain Geneve veth pair between the same guests (on each guest a
#      namespace's veth into the root namespace, which routes it into a
#      geneve device, VNI 9, UDP 6082: one hop on each side too),
#      MF_MHB_SECONDS each, MF_MHB_ROUNDS rounds alternating.
#   2. Creation: a 64x64 torus (MF_MHB_SIDE) split in two slabs created by
#      both guests at once, against the whole torus created by guest a
#      alone; and their destroys.  Times are the guests' own clocks.
# The guests meet at marks (an address 192.168.77.N added to eth0 that
# the other waits for), on the underlay, never the fabric.
set -u
IP=/usr/sbin/ip
MF=/mf/meshfabric
secs=${MF_MHB_SECONDS:-5}
rounds=${MF_MHB_ROUNDS:-3}
side=${MF_MHB_SIDE:-64}
say() { echo "multihost-bench: $*"; }
mark() { $IP addr add 192.168.77."$1"/32 dev eth0; }
await() {
	i=0
	until ping -c1 -W1 192.168.77."$1" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 900 ] || { say "FAIL waited 900 s for mark $1"; exit 1; }
	done
}
now() { cut -d' ' -f1 /proc/uptime; }
since() { echo "$(now) $1" | awk '{printf "%.2f", $1 - $2}'; }
mod() { # insmod a module of the running kernel by its path in the tree
	insmod /lib/modules/"$(uname -r)"/kernel/"$1" 2>/dev/null
}

mod drivers/net/ethernet/intel/e1000/e1000.ko
mod drivers/net/geneve.ko
mod drivers/net/veth.ko
$IP link set eth0 up
$IP addr add "$MF_VM2_ADDR"/24 dev eth0
insmod /mf/meshfabric.ko || { say "FAIL insmod"; exit 1; }
sysctl -qw net.core.devconf_inherit_init_net=1
sysctl -qw net.ipv6.conf.default.disable_ipv6=1
if [ "$MF_VM2_ROLE" = a ]; then me=0; else me=1; fi
i=0
until ping -c1 -W1 "$MF_VM2_PEER" >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 400 ] || { say "FAIL the peer guest never answered"; exit 1; }
done

# 1. TCP: the fabric's cut link against a plain Geneve pair
$MF create --mesh 4 --name mb --id 9 --ipv4 10.0.0.0/24 --no-ipv6 \
	--part $me/2 --peer 192.168.77.1 --peer 192.168.77.2 ||
	{ say "FAIL create the 4-node mesh, part $me"; exit 1; }
# the plain pair: namespace g --veth--> this guest's root namespace,
# which routes it into a geneve device to the other guest (a hop on each
# side, as the fabric's path has)
mine=$((me + 1)) theirs=$((2 - me))
$IP netns add g
$IP link add gnv type geneve id 9 remote "$MF_VM2_PEER" dstport 6082 ||
	{ say "FAIL geneve device (geneve.ko in the guest?)"; exit 1; }
$IP addr add 10.9.0.$mine/24 dev gnv
$IP link set gnv up
$IP link add gv0 type veth peer name gv1
$IP link set gv1 netns g
$IP addr add 10.9.$mine.1/24 dev gv0
$IP link set gv0 up
$IP -n g addr add 10.9.$mine.2/24 dev gv1
$IP -n g link set gv1 mtu 1450 up	# the geneve device's MTU: no PMTU discovery
$IP link set gv0 mtu 1450
$IP -n g link set lo up
$IP -n g route add default via 10.9.$mine.1
$IP route add 10.9.$theirs.0/24 via 10.9.0.$theirs dev gnv
sysctl -qw net.ipv4.ip_forward=1
say "MTU: fabric node $($IP -n mb-$((3 * me)) link show mb | grep -o 'mtu [0-9]*'), geneve $($IP link show gnv | grep -o 'mtu [0-9]*')"
# static neighbours: no ARP inside the measured seconds
if [ $me = 0 ]; then
	$IP -n mb-0 neigh replace 10.0.0.4 lladdr 02:6d:09:00:00:03 dev mb nud permanent
else
	$IP -n mb-3 neigh replace 10.0.0.1 lladdr 02:6d:09:00:00:00 dev mb nud permanent
	$IP netns exec mb-3 iperf3 -s -D >/dev/null 2>&1
	$IP netns exec g iperf3 -s -D >/dev/null 2>&1
fi
mark $((10 + me))
await $((11 - me))
rate() { # namespace server: receiver Mbit/s, or 0
	$IP netns exec "$1" iperf3 -c "$2" -t "$secs" -f m 2>/dev/null |
		awk '/receiver/ {print $(NF-2); f=1} END {if (!f) print 0}'
}
if [ $me = 0 ]; then
	# warm both paths (ARP on the Geneve pair, the sockets) first
	$IP netns exec g ping -c2 -W5 10.9.2.2 >/dev/null 2>&1
	$IP netns exec mb-0 ping -c2 -W5 10.0.0.4 >/dev/null 2>&1
	r=1
	while [ $r -le "$rounds" ]; do
		m=$(rate mb-0 10.0.0.4)
		g=$(rate g 10.9.2.2)
		echo "BENCH tcp round $r meshfabric $m geneve $g"
		r=$((r + 1))
	done
	mark 12
else
	await 12
fi
$MF destroy mb
$IP netns del g
$IP link del gnv

# 2. Creation of a side x side torus: two guests at once, then one alone
create() { # name part-args...: prints the seconds
	n=$1
	shift
	t=$(now)
	$MF create --torus "${side}x$side" --name "$n" --id 10 --no-ipv6 \
		--ipv4 10.64.0.0/16 "$@" >/dev/null || { echo fail; return; }
	since "$t"
}
destroy() {
	t=$(now)
	$MF destroy "$1" >/dev/null || { echo fail; return; }
	since "$t"
}
mark $((20 + me))
await $((21 - me))
c=$(create mc --part $me/2 --peer 192.168.77.1 --peer 192.168.77.2)
echo "BENCH create two part $me ${side}x$side $c"
mark $((22 + me))
await $((23 - me))
d=$(destroy mc)
echo "BENCH destroy two part $me ${side}x$side $d"
mark $((24 + me))
await $((25 - me))
if [ $me = 0 ]; then
	c=$(create mc)
	echo "BENCH create one ${side}x$side $c"
	d=$(destroy mc)
	echo "BENCH destroy one ${side}x$side $d"
	mark 26
	await 27	# b saw it: a may power off now
else
	await 26
	mark 27
	sleep 5	# a sees it before this guest powers off
fi
say "done"
