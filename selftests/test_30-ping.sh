# SPDX-License-Identifier: GPL-2.0
# Ordinary IP over the fabric: ARP through the broadcast schedule, ping
# between namespaces, hop-by-hop per-link counters on exactly the routed
# paths, standard netdev counters; IPv6 neighbour discovery.
. ./lib.sh
load
"$MFCTL" netns add p 49 || nok "netns add"
set -- $("$MFCTL" create torus 7x7)
id=$1
t0=$(uptime_s)
check "ATTACH 49 nodes with IPv4 10.0.0.(node+1)/8, up, no IPv6" \
	"$MFCTL" attach "$id" p -a -n
note "attach + setup: $(elapsed "$t0") s"
src=0 dst=31	# (0,0) and (3,4): id = x + 7 y
sif=mf${id}n$src dif=mf${id}n$dst
dip=$("$MFCTL" ip $dst) sip=$("$MFCTL" ip $src)
check "ping (0,0) -> (3,4) resolves and answers" \
	"$IP" netns exec p$src ping -c 2 -W 3 "$dip"
check "ARP of (0,0) learnt (3,4)'s MAC" \
	sh -c "'$IP' -n p$src neigh show $dip | grep -q $(mac_of "$id" $dst)"
check "ARP of (3,4) learnt (0,0)'s MAC" \
	sh -c "'$IP' -n p$dst neigh show $sip | grep -q $(mac_of "$id" $src)"
# neighbours resolved: pin them so no ARP probe runs during the count
"$IP" -n p$src neigh replace "$dip" lladdr "$(mac_of "$id" $dst)" dev $sif nud permanent
"$IP" -n p$dst neigh replace "$sip" lladdr "$(mac_of "$id" $src)" dev $dif nud permanent
stat() { "$IP" netns exec "p$1" cat "/sys/class/net/$2/statistics/$3"; }
tx0=$(stat $src $sif tx_packets) rx0=$(stat $src $sif rx_packets)
tx1=$(stat $dst $dif tx_packets) rx1=$(stat $dst $dif rx_packets)
"$MFCTL" links "$id" -r >/dev/null
n=5
check "ping -c $n (0,0) -> (3,4)" "$IP" netns exec p$src ping -c $n -i 0.2 -W 3 "$dip"
# expected: every directed link of route(src,dst) and route(dst,src),
# each crossed n times; nothing else.
{
	set -- $("$MFCTL" route "$id" $src $dst)
	while [ $# -gt 1 ]; do echo "$1 $2 $n"; shift; done
	set -- $("$MFCTL" route "$id" $dst $src)
	while [ $# -gt 1 ]; do echo "$1 $2 $n"; shift; done
} | sort >/tmp/want.$$
"$MFCTL" links "$id" | awk '{ print $1, $3, $4 }' | sort >/tmp/got.$$
note "links used: $(tr '\n' ';' </tmp/got.$$)"
check_eq "route (0,0)->(3,4) has 6 hops (3 + 3 on a 7x7 torus)" \
	"$("$MFCTL" route "$id" $src $dst | wc -w)" 7
check "per-link counters grew on exactly the links of both routed paths" \
	cmp -s /tmp/want.$$ /tmp/got.$$
check_eq "(0,0) tx_packets grew by $n" $(($(stat $src $sif tx_packets) - tx0)) $n
check_eq "(0,0) rx_packets grew by $n" $(($(stat $src $sif rx_packets) - rx0)) $n
check_eq "(3,4) rx_packets grew by $n" $(($(stat $dst $dif rx_packets) - rx1)) $n
check_eq "(3,4) tx_packets grew by $n" $(($(stat $dst $dif tx_packets) - tx1)) $n
bytes=$("$MFCTL" links "$id" | awk 'NR == 1 { print $5 }')
check_eq "link byte counter: $n frames of 98 bytes (ICMP echo, 56 data)" "$bytes" $((n * 98))
# issue 9 item 10: a reset whose copy-out faults resets nothing, and no
# count is lost (the old code zeroed each chunk before copying it)
"$MFCTL" links "$id" >/tmp/before.$$
check_rc "LINK_STATS reset into an unmapped buffer: EFAULT" 14 \
	"$MFCTL" links "$id" -r -F
"$MFCTL" links "$id" >/tmp/after.$$
note "before: $(tr '\n' ';' </tmp/before.$$) after: $(tr '\n' ';' </tmp/after.$$)"
# (ARP probes may add frames meanwhile: no count may go down or vanish)
check "the failed reset lost no count" awk '
	NR == FNR { p[$1 " " $2] = $4; next }
	($1 " " $2) in p { if ($4 < p[$1 " " $2]) bad = 1; seen++ }
	END { exit bad || seen != length(p) }' /tmp/before.$$ /tmp/after.$$
"$MFCTL" links "$id" -r >/dev/null
check_eq "a reset that reaches the caller zeroes every link" \
	"$("$MFCTL" links "$id" | wc -l)" 0
rm -f /tmp/before.$$ /tmp/after.$$
fail=0
i=1
while [ $i -lt 49 ]; do
	"$IP" netns exec p$src ping -c 1 -W 3 "10.0.0.$((i + 1))" >/dev/null 2>&1 ||
		{ fail=$((fail + 1)); note "ping 0 -> $i failed"; }
	i=$((i + 1))
done
check_eq "ping from (0,0) to each of the 48 other nodes" $fail 0
check "DESTROY" "$MFCTL" destroy "$id"
"$MFCTL" netns del p 49

# IPv6: neighbour discovery (multicast) through the broadcast schedule
"$MFCTL" netns add q 9
set -- $("$MFCTL" create torus 3x3)
id=$1
check "ATTACH 3x3 with IPv6" "$MFCTL" attach "$id" q -u
"$IP" -n q0 -6 addr add fd00::1/64 dev mf${id}n0 nodad
"$IP" -n q8 -6 addr add fd00::9/64 dev mf${id}n8 nodad
check "ping6 node 0 -> node 8 (neighbour discovery over the fabric)" \
	"$IP" netns exec q0 ping6 -c 2 -W 3 fd00::9
check "DESTROY" "$MFCTL" destroy "$id"
"$MFCTL" netns del q 9
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
rm -f /tmp/want.$$ /tmp/got.$$
