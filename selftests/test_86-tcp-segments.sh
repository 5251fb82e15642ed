# SPDX-License-Identifier: GPL-2.0
# Issue 15 (counters): a TCP stream crosses the fabric as large GSO
# segments, and the link counters count its segments (gso_segs), so they
# equal what TCP itself counts: on the link (0,0) x+ -> (1,0), the packets
# of a 3 s iperf3 stream equal the sender's OutSegs + RetransSegs, and the
# frames on the link are fewer than the segments (GSO passed through).
. ./lib.sh
load
need_iperf
create --torus 4x4 --name ts --ipv4 10.4.0.0/16 --no-ipv6
dst=$(addr_of ts 1,0 4)
"$MF" exec ts 0,0 -- ping -c 1 -W 2 "$dst" >/dev/null	# ARP first
"$MF" exec ts 1,0 -- $IPERF -s -D -1 >/dev/null
sleep 1
segs() {	# OutSegs + RetransSegs of the TCP MIB in namespace $1
	"$IP" netns exec "$1" cat /proc/net/snmp | awk '$1 == "Tcp:" {
		if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		print $(c["OutSegs"]) + $(c["RetransSegs"]) }'
}
insegs() {	# IP segments received in namespace $1 (every ECN class)
	"$IP" netns exec "$1" cat /proc/net/netstat | awk '$1 == "IpExt:" {
		if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		print $(c["InNoECTPkts"]) + $(c["InECT1Pkts"]) + \
		      $(c["InECT0Pkts"]) + $(c["InCEPkts"]) }'
}
link() {	# packets and bytes of (0,0) x+
	"$MF" -j stats ts | sed -n 's/.*{"node":0,"port":0,"peer":1,"packets":\([0-9]*\),"bytes":\([0-9]*\)[,}].*/\1 \2/p'
}
"$MF" stats ts --reset >/dev/null
s0=$(segs ts-0-0)
r0=$(insegs ts-1-0)
f0=$("$IP" netns exec ts-1-0 cat /sys/class/net/ts/statistics/rx_packets)
"$MF" exec ts 0,0 -- $IPERF -c "$dst" -t 3 >/tmp/tcp.$$ 2>&1
s1=$(segs ts-0-0)
r1=$(insegs ts-1-0)
set -- $(link)
pk=$1 by=$2
rx=$(($("$IP" netns exec ts-1-0 cat /sys/class/net/ts/statistics/rx_packets) - f0))
note "iperf3 TCP: $(grep receiver /tmp/tcp.$$ | awk '{ print $7, $8 }'); sender segments $((s1 - s0)); receiver segments $((r1 - r0)) in $rx frames; link packets $pk, bytes $by"
check_eq "link (0,0) x+ counted the sender's TCP segments" "$pk" $((s1 - s0))
check_eq "link (0,0) x+ counted the receiver's IP segments" "$pk" $((r1 - r0))
check "segments crossed as GSO frames (fewer frames than segments at the receiver)" \
	test "$rx" -gt 0 -a "$rx" -lt "$pk"
check "destroy ts" "$MF" destroy ts
rm -f /tmp/tcp.$$
check "rmmod" unload
