# SPDX-License-Identifier: GPL-2.0
# Multicast membership reports (MLD) are consumed at the sender, never
# flooded through the broadcast schedule: a fabric has no multicast router
# to hear them.  With router solicitations and DAD off, the only frames
# the nodes send when IPv6 comes up are MLD reports, so no link may count
# a packet and no node may receive one, while the senders' tx counters do
# grow.  (Without the rule every report reached all other nodes.)
. ./lib.sh
load
"$MFCTL" netns add m 9 || nok "netns add"
i=0
while [ $i -lt 9 ]; do
	"$IP" netns exec m$i sh -c 'echo 0 >/proc/sys/net/ipv6/conf/default/router_solicitations &&
		echo 0 >/proc/sys/net/ipv6/conf/default/accept_dad' ||
		nok "ipv6 sysctls in m$i"
	i=$((i + 1))
done
set -- $("$MFCTL" create torus 3x3)
id=$1
"$MFCTL" links "$id" -r >/dev/null
check "ATTACH 3x3, up, IPv6 on" "$MFCTL" attach "$id" m -u
sleep 3		# MLDv2 reports: at once, then robustness repeats within 1 s
sum() {	# sum of statistic $1 over the 9 nodes
	_s=0 _i=0
	while [ $_i -lt 9 ]; do
		_v=$("$IP" netns exec m$_i cat /sys/class/net/mf${id}n$_i/statistics/$1)
		_s=$((_s + _v))
		_i=$((_i + 1))
	done
	echo $_s
}
tx=$(sum tx_packets)
note "nodes sent $tx frames at IPv6 link-up"
check "the nodes sent MLD reports (tx_packets > 0)" test "$tx" -gt 0
check_eq "no link carried a frame" "$("$MFCTL" links "$id" | wc -l)" 0
check_eq "no node received a frame" "$(sum rx_packets)" 0
check "DESTROY" "$MFCTL" destroy "$id"
"$MFCTL" netns del m 9
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
