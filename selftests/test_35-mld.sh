# SPDX-License-Identifier: GPL-2.0
# Multicast membership reports (MLD) are consumed at the sender, never
# flooded through the broadcast schedule: a fabric has no multicast router
# to hear them.  With router solicitations and DAD off, the only frames
# the nodes send when IPv6 comes up are MLD reports, so no link may count
# a packet and no node may receive one, while the senders' tx counters do
# grow.  (Without the rule every report reached all other nodes.)
# The tool's create gives nodes no link-local address (no reports then):
# here the namespaces come from `ip netns add` and the nodes from raw
# requests (mkfabric, attach: lib.sh).
. ./lib.sh
load
i=0
while [ $i -lt 9 ]; do
	"$IP" netns add m$i &&
	"$IP" netns exec m$i sh -c 'cd /proc/sys/net/ipv6/conf/default &&
		echo 0 >router_solicitations && echo 0 >accept_dad' ||
		nok "namespace m$i, its ipv6 sysctls"
	i=$((i + 1))
done
set -- $(mkfabric torus 3x3 dor mld)
id=$1
"$MF" stats mld --reset >/dev/null
up() {	# attach, then every node's interface up
	for i in 0 1 2 3 4 5 6 7 8; do
		[ "$(attach "$id" $i m$i)" = 0 ] || return 1
	done
	for i in 0 1 2 3 4 5 6 7 8; do
		"$IP" -n m$i link set dev mf${id}n$i up || return 1
	done
}
check "ATTACH 3x3, up, IPv6 on" up
sleep 3		# MLDv2 reports: at once, then robustness repeats within 1 s
sum() {	# sum of statistic $1 over the 9 nodes
	_s=0 _i=0
	while [ $_i -lt 9 ]; do
		_v=$("$IP" netns exec m$_i \
			cat /sys/class/net/mf${id}n$_i/statistics/$1)
		_s=$((_s + _v))
		_i=$((_i + 1))
	done
	echo $_s
}
tx=$(sum tx_packets)
note "nodes sent $tx frames at IPv6 link-up"
check "the nodes sent MLD reports (tx_packets > 0)" test "$tx" -gt 0
check_eq "no link carried a frame" "$(links mld | wc -l)" 0
check_eq "no node received a frame" "$(sum rx_packets)" 0
check "destroy" "$MF" destroy mld
"$IP" -all netns delete
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
