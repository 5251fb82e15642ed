# SPDX-License-Identifier: GPL-2.0
# Ordinary IP over the fabric: ARP through the broadcast schedule, ping
# between namespaces, hop-by-hop per-link counters (meshfabric stats) on
# exactly the routed paths (meshfabric route), standard netdev counters;
# IPv6 neighbour discovery.
. ./lib.sh
load
create --torus 7x7 --name p --ipv4 10.0.0.0/8 --no-ipv6
id=$(fab p id)
src=0 dst=31	# (0,0) and (3,4): id = x + 7 y
sns=p-0-0 dns=p-3-4
dip=$(addr_of p $dst 4) sip=$(addr_of p $src 4)
check "ping (0,0) -> (3,4) resolves and answers" \
	"$MF" exec p $src -- ping -c 2 -W 3 "$dip"
check "ARP of (0,0) learnt (3,4)'s MAC" \
	sh -c "'$IP' -n $sns neigh show $dip | grep -q $(mac_of "$id" $dst)"
check "ARP of (3,4) learnt (0,0)'s MAC" \
	sh -c "'$IP' -n $dns neigh show $sip | grep -q $(mac_of "$id" $src)"
# neighbours resolved: pin them so no ARP probe runs during the count
pin() { "$IP" -n $1 neigh replace "$2" lladdr "$3" dev p nud permanent; }
pin $sns "$dip" "$(mac_of "$id" $dst)"
pin $dns "$sip" "$(mac_of "$id" $src)"
stat() { "$IP" netns exec "$1" cat "/sys/class/net/p/statistics/$2"; }
tx0=$(stat $sns tx_packets) rx0=$(stat $sns rx_packets)
tx1=$(stat $dns tx_packets) rx1=$(stat $dns rx_packets)
"$MF" stats p --reset >/dev/null
n=5
check "ping -c $n (0,0) -> (3,4)" \
	"$MF" exec p $src -- ping -c $n -i 0.2 -W 3 "$dip"
# expected: every directed link of route(src,dst) and route(dst,src),
# each crossed n times; nothing else.
{
	set -- $(path p $src $dst)
	while [ $# -gt 1 ]; do echo "$1 $2 $n"; shift; done
	set -- $(path p $dst $src)
	while [ $# -gt 1 ]; do echo "$1 $2 $n"; shift; done
} | sort >$TMP/want
links p | awk '{ print $1, $2, $3 }' | sort >$TMP/got
note "links used: $(tr '\n' ';' <$TMP/got)"
check_eq "route (0,0)->(3,4) has 6 hops (3 + 3 on a 7x7 torus)" \
	"$(path p $src $dst | wc -w)" 7
check "per-link counters grew on exactly the links of both routed paths" \
	cmp -s $TMP/want $TMP/got
check_eq "(0,0) tx_packets grew by $n" $(($(stat $sns tx_packets) - tx0)) $n
check_eq "(0,0) rx_packets grew by $n" $(($(stat $sns rx_packets) - rx0)) $n
check_eq "(3,4) rx_packets grew by $n" $(($(stat $dns rx_packets) - rx1)) $n
check_eq "(3,4) tx_packets grew by $n" $(($(stat $dns tx_packets) - tx1)) $n
bytes=$(links p | awk 'NR == 1 { print $4 }')
check_eq "link byte counter: $n frames of 98 bytes (ICMP echo, 56 data)" \
	"$bytes" $((n * 98))
# issue 9 item 10: a reset whose copy-out faults resets nothing, and no
# count is lost (the old code zeroed each chunk before copying it)
links p >$TMP/before
# (a raw request: links_ptr 8, room for every link of the 7x7 torus)
check_eq "LINK_STATS reset into an unmapped buffer: EFAULT" "$("$MFCTL" ioctl \
	"$(fab p id)" LINK_STATS flags=1 links_ptr=8 count=$((49 * 4)))" EFAULT
links p >$TMP/after
note "before: $(tr '\n' ';' <$TMP/before) after: $(tr '\n' ';' <$TMP/after)"
# (ARP probes may add frames meanwhile: no count may go down or vanish)
check "the failed reset lost no count" awk '
	NR == FNR { p[$1 " " $2] = $3; next }
	($1 " " $2) in p { if ($3 < p[$1 " " $2]) bad = 1; seen++ }
	END { exit bad || seen != length(p) }' $TMP/before $TMP/after
"$MF" stats p --reset >/dev/null
check_eq "a reset that reaches the caller zeroes every link" \
	"$(links p | wc -l)" 0
fail=0
i=1
while [ $i -lt 49 ]; do
	"$IP" netns exec $sns ping -c 1 -W 3 "10.0.0.$((i + 1))" \
		>/dev/null 2>&1 ||
		{ fail=$((fail + 1)); note "ping 0 -> $i failed"; }
	i=$((i + 1))
done
check_eq "ping from (0,0) to each of the 48 other nodes" $fail 0
check "destroy p" "$MF" destroy p

# IPv6: neighbour discovery (multicast) through the broadcast schedule
create --torus 3x3 --name q
check "ping6 node 0 -> node 8 (neighbour discovery over the fabric)" \
	"$MF" exec q 0 -- ping6 -c 2 -W 3 "$(addr_of q 8)"
check "destroy q" "$MF" destroy q
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
