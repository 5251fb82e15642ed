# SPDX-License-Identifier: GPL-2.0
# Issue 25, external ports (meshfabric port; uapi MESHFABRIC_IOC_PORT): a
# veth end bound to the border port x- of node (0,0) of a 3x3 mesh, its
# peer in a plain namespace "out" with an address.  The plain namespace
# pings node (2,2), 4 hops away, and back; a node pings it first (its
# ARP broadcast leaves through the port); the port's link counts the
# frames that leave through it and the routed links the frames between
# (as `meshfabric route` gives them); loss 100% and down on the port stop
# the pings, a delay on it shows in the round trip; detach gives the veth
# back (no rx_handler: it answers for itself again, promiscuity off);
# deleting the veth, its namespace or the fabric while bound unbinds it;
# the allocation counter returns to 0.
. ./lib.sh
load
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
create --mesh 3x3 --name p --ipv4 10.0.0.0/8 --no-ipv6
id=$(fab p id)
dst=8 dns=p-2-2
dip=$(addr_of p $dst 4)
oip=10.255.0.1 wip=10.254.0.1

# no IPv6 anywhere: its multicasts (DAD, router solicitations) would
# cross the port and the counts below would not be exact
noipv6() {
	"$IP" netns exec "$1" sh -c 'for c in all default '"$2"'; do
		echo 1 >/proc/sys/net/ipv6/conf/$c/disable_ipv6; done'
}
for ns in $("$IP" netns list | awk '$1 ~ /^p-/ { print $1 }'); do
	noipv6 "$ns" p
done
# wire: the namespace of the bound end (ext0); out: the plain host (ext1)
"$IP" netns add wire
"$IP" netns add out
noipv6 wire
noipv6 out
"$IP" -n wire link add ext0 type veth peer name ext1 netns out
"$IP" -n wire addr add $wip/8 dev ext0
"$IP" -n wire link set ext0 up
"$IP" -n out addr add $oip/8 dev ext1
"$IP" -n out link set ext1 up
omac=$("$IP" -n out link show ext1 | awk '$1 == "link/ether" { print $2 }')
check "before attach: out reaches wire's ext0 itself" \
	"$IP" netns exec out ping -c 1 -W 3 $wip
promisc() {	# promisc NS DEV: the netdev's promiscuity count
	"$IP" -n "$1" -d link show "$2" | sed -n 's/.*promiscuity \([0-9]*\).*/\1/p'
}
check_eq "before attach: ext0 not promiscuous" "$(promisc wire ext0)" 0

# refusals: a port with a neighbour, lo, an unknown netdev
check_fails "attach to x+ of (0,0) (it has a neighbour) fails" "has a neighbour" \
	"$MF" port attach p 0 x+ dev ext0 netns wire
check_fails "attach lo fails" "not an Ethernet" "$MF" port attach p 0 x- dev lo
check_fails "attach a netdev that does not exist fails" "no netdev" \
	"$MF" port attach p 0 x- dev nosuch0 netns wire
check "attach ext0 (netns wire) to x- of (0,0)" \
	"$MF" port attach p 0 x- dev ext0 netns wire
check_fails "attach x- twice fails (EBUSY)" "already bound" \
	"$MF" port attach p 0 x- dev ext0 netns wire
check_fails "attach ext0 to another port fails (its rx_handler is taken)" "is taken" \
	"$MF" port attach p 0 y- dev ext0 netns wire
check_eq "port show: one port" "$("$MF" -j port show p | grep -o '"dev":"ext0"')" \
	'"dev":"ext0"'
check_eq "port show: its namespace by name" \
	"$("$MF" -j port show p | jget netns)" wire
check_eq "attached: ext0 promiscuous" "$(promisc wire ext0)" 1
check_rc "attached: out no longer reaches ext0's own address (frames go into the fabric)" 1 \
	"$IP" netns exec out ping -c 1 -W 2 $wip

check "out -> (2,2) (4 hops): ping resolves and answers" \
	"$IP" netns exec out ping -c 2 -W 3 $dip
check_eq "the port learned out's MAC" "$("$MF" -j port show p | jget learned)" 1
# neighbours pinned: no ARP during the count
"$IP" -n out neigh replace $dip lladdr "$(mac_of "$id" $dst)" dev ext1 nud permanent
"$IP" -n $dns neigh replace $oip lladdr "$omac" dev p nud permanent
"$MF" stats p --reset >/dev/null
rx0=$("$MF" -j port show p | jget rx_packets)
n=5
check "ping -c $n out -> (2,2)" \
	"$IP" netns exec out ping -c $n -i 0.2 -W 3 $dip
port_get() { "$MF" -j port show p | jget "$1"; }
check_eq "port link (0,0) x-: tx packets = $n (the replies)" \
	"$(port_get tx_packets)" $n
check_eq "port link: tx bytes = $n x 98 (ICMP echo reply, 56 data)" \
	"$(port_get tx_bytes)" $((n * 98))
check_eq "port: rx packets grew by $n (the requests)" \
	$(($(port_get rx_packets) - rx0)) $n
check_eq "link show lists the port's link as external" \
	"$("$MF" -j link show p 0 x- | jget peer)" external
check_eq "link show: the port link's packets" \
	"$("$MF" -j link show p 0 x- | jget packets)" $n
# the routed links: route(0,8) and route(8,0), each crossed n times
{
	set -- $(path p 0 $dst)
	while [ $# -gt 1 ]; do echo "$1 $2 $n"; shift; done
	set -- $(path p $dst 0)
	while [ $# -gt 1 ]; do echo "$1 $2 $n"; shift; done
} | sort >$TMP/want
links p | awk '$2 < 9 { print $1, $2, $3 }' | sort >$TMP/got
note "links used: $(tr '\n' ';' <$TMP/got)"
check_eq "route (0,0)->(2,2) has 4 hops" "$(path p 0 $dst | wc -w)" 5
check "fabric links counted exactly the routed paths, both ways" \
	cmp -s $TMP/want $TMP/got

# a node reaches out first: its ARP broadcast leaves through the port
"$IP" -n out neigh flush dev ext1
"$IP" -n $dns neigh flush dev p
check "(2,2) -> out: ping resolves (ARP out of the port) and answers" \
	"$MF" exec p $dst -- ping -c 2 -W 3 $oip
"$IP" -n out neigh replace $dip lladdr "$(mac_of "$id" $dst)" dev ext1 nud permanent
"$IP" -n $dns neigh replace $oip lladdr "$omac" dev p nud permanent

# the port's link model: loss, state, delay
check "link set p 0 x- loss 100%" "$MF" link set p 0 x- loss 100%
l0=$("$MF" -j link show p 0 x- | jget drop_loss)
check_rc "loss 100% on the port: pings fail" 1 \
	"$IP" netns exec out ping -c 2 -i 0.2 -W 1 $dip
check_eq "the port link dropped the 2 replies (loss)" \
	$(($("$MF" -j link show p 0 x- | jget drop_loss) - l0)) 2
check "link set p 0 x- loss 0%" "$MF" link set p 0 x- loss 0%
check "loss 0%: ping again" "$IP" netns exec out ping -c 1 -W 3 $dip
check "link set p 0 x- down" "$MF" link set p 0 x- down
check_eq "link show: the port's link down" \
	"$("$MF" -j link show p 0 x- | jget state)" down
rxd=$(port_get rx_dropped)
check_rc "port down: pings fail" 1 \
	"$IP" netns exec out ping -c 2 -i 0.2 -W 1 $dip
check_eq "port down: the 2 requests were dropped as they arrived" \
	$(($(port_get rx_dropped) - rxd)) 2
check "link set p 0 x- up" "$MF" link set p 0 x- up
check "port up: ping again" "$IP" netns exec out ping -c 1 -W 3 $dip
# a delay on the port's link: the replies wait it (timed path, tqueue)
check "link set p 0 x- delay 50ms" "$MF" link set p 0 x- delay 50ms
rtt=$("$IP" netns exec out ping -c 3 -i 0.2 -W 3 $dip |
	sed -n 's/.*= \([0-9.]*\)\/.*/\1/p')
note "rtt min with 50ms on the port: $rtt ms"
check "delay 50ms on the port: every round trip >= 50 ms" \
	awk -v r="$rtt" 'BEGIN { exit !(r != "" && r >= 50) }'
check "link set p 0 x- delay 0" "$MF" link set p 0 x- delay 0

# detach: ext0 as it was
check "port detach p 0 x-" "$MF" port detach p 0 x-
check_fails "detach twice fails" "not bound" "$MF" port detach p 0 x-
check_eq "detached: ext0 not promiscuous" "$(promisc wire ext0)" 0
check_eq "detached: port show lists none" \
	"$("$MF" -j port show p | grep -c '"dev"')" 0
check "detached: out reaches ext0's own address again (no rx_handler)" \
	"$IP" netns exec out ping -c 1 -W 3 $wip
check_rc "detached: (2,2) unreachable from out" 1 \
	"$IP" netns exec out ping -c 1 -W 1 $dip
check_fails "link set on the detached port fails" "no link on port" \
	"$MF" link set p 0 x- loss 1%

# the veth deleted while bound
check "attach again" "$MF" port attach p 0 x- dev ext0 netns wire
"$IP" -n wire link del ext0
check "veth deleted while bound: the port is unbound" \
	wait_until 10 sh -c "! '$MF' -j port show p | grep -q '\"dev\"'"
# its namespace deleted while bound
"$IP" -n wire link add ext0 type veth peer name ext1 netns out
check "attach a new veth" "$MF" port attach p 0 x- dev ext0 netns wire
"$IP" netns del wire
check "netns of the veth deleted while bound: the port is unbound" \
	wait_until 10 sh -c "! '$MF' -j port show p | grep -q '\"dev\"'"
# the fabric destroyed while bound: the veth survives, as it was
"$IP" netns add wire
"$IP" -n wire link add ext0 type veth peer name ext2 netns out
check "attach a third veth" "$MF" port attach p 0 y- dev ext0 netns wire
check "destroy p while bound" "$MF" destroy p
check_eq "after destroy: ext0 still there, not promiscuous" \
	"$(promisc wire ext0)" 0
"$IP" -n wire addr add $wip/8 dev ext0
"$IP" -n wire link set ext0 up
"$IP" -n out addr add 10.253.0.1/8 dev ext2
"$IP" -n out link set ext2 up
check "after destroy: ext0 works standalone" \
	"$IP" netns exec out ping -c 1 -W 3 -I ext2 $wip
check_eq "allocated objects back to 0" "$(allocated_settled)" 0
