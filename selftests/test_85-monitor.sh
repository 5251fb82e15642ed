# SPDX-License-Identifier: GPL-2.0
# Issue 14 (monitor): `meshfabric monitor -j` shows, on a link of the
# path, the rate of a known stream: iperf3 UDP at 10 Mbit/s of 1400-byte
# datagrams from (0,0) to (2,0) of a 4x4 torus; the link carries
# 1442-byte frames (Ethernet 14 + IPv4 20 + UDP 8 + 1400), so it must
# show the receiver's rate x 1442 / 1400 within 10%.
. ./lib.sh
load
need_iperf
create --torus 4x4 --name mo --ipv4 10.5.0.0/16 --no-ipv6
dst=$(addr_of mo 2,0 4)
"$MF" exec mo 2,0 -- $IPERF -s -D -1 >/dev/null
sleep 1
"$MF" exec mo 0,0 -- $IPERF -c "$dst" -u -b 10M -l 1400 -t 7 >/tmp/ip.$$ 2>&1 &
ipid=$!
sleep 2
"$MF" -j monitor mo --interval 2 --count 2 >/tmp/mo.$$
wait $ipid
cat /tmp/mo.$$ | sed 's/^/# /'
check_eq "monitor -j: one JSON line per interval" "$(wc -l </tmp/mo.$$)" 2
# the last interval's rate of (0,0) x+ (node 0, port 0), in bits/s
bps=$(tail -n 1 /tmp/mo.$$ | sed -n 's/.*"node":0,"port":0,"peer":1,"pps":[0-9]*,"bps":\([0-9]*\).*/\1/p')
rx=$(awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") print $i }' /tmp/ip.$$)
note "iperf3 receiver ${rx} Mbit/s of payload; monitor (0,0) x+ ${bps} bit/s"
check "monitor's rate on (0,0) x+ = receiver rate x 1442/1400, within 10%" \
	awk -v b="$bps" -v r="$rx" 'BEGIN { w = r * 1e6 * 1442 / 1400;
		exit !(b != "" && r > 0 && b > 0.9 * w && b < 1.1 * w) }'
check "destroy mo" "$MF" destroy mo
rm -f /tmp/mo.$$ /tmp/ip.$$
check "rmmod" unload
