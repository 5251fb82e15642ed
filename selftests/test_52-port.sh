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
# deleting the veth, its namespace or the fabric while bound unbinds it.
# Extra ports (e0..: beyond a node's degree): on a 3x3 torus, which has
# no border port, e0 of (1,1) bound to a veth: pings to (0,0), 2 hops
# away, and back; e0's link counts exactly the replies and the torus's
# links 2 x 2 per round trip; down on it stops the pings and downs no
# torus link; detach and attach again restart its link; deleting the
# veth unbinds it; a raw PORT beyond nports + 16 is EINVAL, twice EBUSY.
# A mesh node with a border and an extra port bound forwards between
# them.  On a hex mesh H_3, e0 of node 0 reaches node 2, 2 hops away,
# with exact counts.  The allocation counter returns to 0.
. ./lib.sh
load
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
# no IPv6 anywhere: its multicasts (DAD, router solicitations) would
# cross the port and the counts below would not be exact
noipv6() {
	"$IP" netns exec "$1" sh -c 'for c in all default '"$2"'; do
		echo 1 >/proc/sys/net/ipv6/conf/$c/disable_ipv6; done'
}
# port_get FABRIC KEY: a field of its (first) bound port, -j port show
port_get() { "$MF" -j port show "$1" | jget "$2"; }
# pinged_exactly FABRIC NS IF MAC ID DST DNS N: with the neighbours of
# NS (its IF, MAC) and of node DST (namespace DNS) pinned (no ARP), the
# counters reset, N pings from NS to DST: the port's link sent exactly
# the N replies (98 bytes each: ICMP echo reply, 56 data) and the port
# took in the N requests
pinged_exactly() {
	_dip=$(addr_of "$1" "$6" 4)
	"$IP" -n "$2" neigh replace "$_dip" lladdr "$(mac_of "$5" "$6")" \
		dev "$3" nud permanent
	"$IP" -n "$7" neigh replace $oip lladdr "$4" dev "$1" nud permanent
	"$MF" stats "$1" --reset >/dev/null
	_rx0=$(port_get "$1" rx_packets)
	check "$1: ping -c $8 $2 -> node $6" \
		"$IP" netns exec "$2" ping -c "$8" -i 0.2 -W 3 "$_dip"
	check_eq "$1: the port's link: tx packets = $8 (the replies)" \
		"$(port_get "$1" tx_packets)" "$8"
	check_eq "$1: the port's link: tx bytes = $8 x 98" \
		"$(port_get "$1" tx_bytes)" $(($8 * 98))
	check_eq "$1: the port: rx packets grew by $8 (the requests)" \
		$(($(port_get "$1" rx_packets) - _rx0)) "$8"
}
# outside WNS WDEV ONS ODEV: a veth, WDEV (up, to bind) in new namespace
# WNS, ODEV (up, $oip) in new namespace ONS, IPv6 off in both; prints
# ODEV's MAC
outside() {
	"$IP" netns add "$1"
	"$IP" netns add "$3"
	noipv6 "$1"
	noipv6 "$3"
	"$IP" -n "$1" link add "$2" type veth peer name "$4" netns "$3"
	"$IP" -n "$1" link set "$2" up
	"$IP" -n "$3" addr add $oip/8 dev "$4"
	"$IP" -n "$3" link set "$4" up
	"$IP" -n "$3" link show "$4" | awk '$1 == "link/ether" { print $2 }'
}
# fabric KIND DIMS NAME: create it (IPv4 10/8), IPv6 off in its nodes
fabric() {
	create --"$1" "$2" --name "$3" --ipv4 10.0.0.0/8 --no-ipv6
	for ns in $("$IP" netns list | awk -v p="^$3-" '$1 ~ p { print $1 }'); do
		noipv6 "$ns" "$3"
	done
}
fabric mesh 3x3 p
id=$(fab p id)
dst=8 dns=p-2-2
dip=$(addr_of p $dst 4)
oip=10.255.0.1 wip=10.254.0.1
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
wmac=$("$IP" -n wire link show ext0 | awk '$1 == "link/ether" { print $2 }')
# wire and out know each other for good: no ARP between them.  wire's
# ARP probes for out (after it answers the ping below) bypass the port,
# and out's replies to them enter it as frames for ext0's MAC, which the
# fabric drops: a count of the port's drops then included one of them
# whenever the probes fell in its window.
"$IP" -n wire neigh replace $oip lladdr "$omac" dev ext0 nud permanent
"$IP" -n out neigh replace $wip lladdr "$wmac" dev ext1 nud permanent
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
n=5
pinged_exactly p out ext1 "$omac" $id $dst $dns $n
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
# (the pinned entries deleted: a flush leaves permanent ones)
"$IP" -n out neigh del $dip dev ext1
"$IP" -n $dns neigh del $oip dev p
check "(2,2) -> out: ping resolves (ARP out of the port) and answers" \
	"$MF" exec p $dst -- ping -c 2 -W 3 $oip
check_eq "out learned (2,2)'s MAC from its ARP request" \
	"$("$IP" -n out neigh show $dip dev ext1 | awk '{ print $3 }')" \
	"$(mac_of "$id" $dst)"
check_eq "(2,2) learned out's MAC from its answer" \
	"$("$IP" -n $dns neigh show $oip dev p | awk '{ print $3 }')" "$omac"
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
rxd=$(port_get p rx_dropped)
check_rc "port down: pings fail" 1 \
	"$IP" netns exec out ping -c 2 -i 0.2 -W 1 $dip
check_eq "port down: the 2 requests were dropped as they arrived" \
	$(($(port_get p rx_dropped) - rxd)) 2
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
"$IP" netns del wire
"$IP" netns del out

# ---- extra ports (port numbers nports and up, e0..e15): a torus has no
# border port, so only an extra port reaches it
fabric torus 3x3 t
tid=$(fab t id)
tmac=$(outside tw tx0 to tx1)
# node 4 = (1,1); node 0 = (0,0) is 1 + 1 = 2 hops away on a 3x3 torus
src=4 dst=0 dns=t-0-0
dip=$(addr_of t $dst 4)
check_fails "torus: x- of (1,1) has a neighbour (no border port)" "has a neighbour" \
	"$MF" port attach t $src x- dev tx0 netns tw
check_fails "torus: e16 is beyond the extra ports (usage)" "unknown port" \
	"$MF" port attach t $src e16 dev tx0 netns tw
check_eq "raw PORT: port 20 (nports 4 + 16) -> EINVAL" \
	"$("$IP" netns exec tw "$MFCTL" ioctl "$tid" PORT node=$src port=20 ifname=tx0)" EINVAL
check "attach tx0 (netns tw) to extra port e0 of (1,1)" \
	"$MF" port attach t $src e0 dev tx0 netns tw
check_fails "attach e0 of (1,1) twice fails (EBUSY)" "already bound" \
	"$MF" port attach t $src e0 dev tx0 netns tw
check_eq "raw PORT: the same extra port (4 = e0) again -> EBUSY" \
	"$("$IP" netns exec tw "$MFCTL" ioctl "$tid" PORT node=$src port=4 ifname=tx0)" EBUSY
check_eq "port show -j: port 4 (e0: nports 4 + 0) of node 4" \
	"$("$MF" -j port show t | jget port) $("$MF" -j port show t | jget node)" "4 4"
check "port show (text) names it e0" sh -c "'$MF' port show t | grep -q 'port e0:'"
check_eq "link show: e0's link, peer external" \
	"$("$MF" -j link show t $src e0 | jget peer)" external
check "out -> (0,0) (2 hops from (1,1)) through e0: ping answers" \
	"$IP" netns exec to ping -c 2 -W 3 $dip
check "e0's link counted the 2 replies before the reset" \
	test "$("$MF" -j link show t $src e0 | jget packets)" -ge 2
n=4
pinged_exactly t to tx1 "$tmac" $tid $dst $dns $n
check_eq "link show t $src e0: packets $n (reset with the others)" \
	"$("$MF" -j link show t $src e0 | jget packets)" $n
# the topology's links (stats: LINK_STATS, nlinks = 9 x 4) carried each
# frame 2 hops each way and nothing else: 2 x 2 x n; the port's link is
# not one of them
tot=$(links t | awk '$2 < 9 { s += $3 } END { print s + 0 }')
check_eq "torus links: 2 hops x 2 ways x $n = $((4 * n)) frames, no more" \
	"$tot" $((4 * n))
check_eq "stats: 36 directed torus links, the port's not among them" \
	"$("$MF" -j stats t | jget nlinks)" 36
check "link set t $src e0 down" "$MF" link set t $src e0 down
check_eq "e0's link down" "$("$MF" -j link show t $src e0 | jget state)" down
rxd=$(port_get t rx_dropped)
check_rc "e0 down: pings fail" 1 \
	"$IP" netns exec to ping -c 2 -i 0.2 -W 1 $dip
check_eq "e0 down: the 2 requests dropped as they arrived" \
	$(($(port_get t rx_dropped) - rxd)) 2
check_eq "e0 down: no torus link went down (routing unchanged)" \
	"$("$MF" -j link show t | grep -o '"state":"down"' | wc -l)" 1
check "link set t $src e0 up" "$MF" link set t $src e0 up
check "e0 up: ping again" "$IP" netns exec to ping -c 1 -W 3 $dip
# detach, then attach again: the slot's link starts afresh
check "link set t $src e0 loss 100%" "$MF" link set t $src e0 loss 100%
check "port detach t $src e0" "$MF" port detach t $src e0
check_fails "link set on the detached extra port fails" "no link on port" \
	"$MF" link set t $src e0 loss 0%
check_rc "detached: (0,0) unreachable from out" 1 \
	"$IP" netns exec to ping -c 1 -W 1 $dip
check "attach e0 again" "$MF" port attach t $src e0 dev tx0 netns tw
check_eq "re-attached: e0's link loss back to 0" \
	"$("$MF" -j link show t $src e0 | jget loss_ppb)" 0
check_eq "re-attached: e0's link counters from 0" \
	"$("$MF" -j link show t $src e0 | jget packets)" 0
check "re-attached: ping through e0" \
	"$IP" netns exec to ping -c 2 -i 0.2 -W 3 $dip
check_eq "re-attached: e0's link counted the 2 replies" \
	"$("$MF" -j link show t $src e0 | jget packets)" 2
"$IP" -n tw link del tx0
check "veth deleted while bound to e0: the port is unbound" \
	wait_until 10 sh -c "! '$MF' -j port show t | grep -q '\"dev\"'"
check_fails "link set on e0 after the veth went fails" "no link on port" \
	"$MF" link set t $src e0 loss 0%
check "destroy t" "$MF" destroy t
"$IP" netns del tw
"$IP" netns del to

# ---- a mesh node with a border port and an extra port: (0,0) of a 3x3
# mesh, x- to namespace ma, e0 to namespace mb; ma and mb reach (2,2)
# and each other (learned MACs: in at x-, out at e0 of the same node)
fabric mesh 3x3 m
for s in a b; do
	"$IP" netns add mw$s
	"$IP" netns add m$s
	noipv6 mw$s
	noipv6 m$s
	"$IP" -n mw$s link add w$s type veth peer name o$s netns m$s
	"$IP" -n mw$s link set w$s up
	"$IP" -n m$s link set o$s up
done
"$IP" -n ma addr add 10.255.0.1/8 dev oa
"$IP" -n mb addr add 10.255.0.2/8 dev ob
check "mesh: attach wa to the border port x- of (0,0)" \
	"$MF" port attach m 0 x- dev wa netns mwa
check "mesh: attach wb to the extra port e0 of (0,0)" \
	"$MF" port attach m 0 e0 dev wb netns mwb
check_eq "mesh: port show lists both" \
	"$("$MF" -j port show m | grep -o '"dev":"w[ab]"' | tr '\n' ' ')" \
	'"dev":"wa" "dev":"wb" '
mdip=$(addr_of m 8 4)
check "mesh: ma -> (2,2) through x-" "$IP" netns exec ma ping -c 1 -W 3 $mdip
check "mesh: mb -> (2,2) through e0" "$IP" netns exec mb ping -c 1 -W 3 $mdip
check "mesh: ma -> mb through the fabric (x- in, e0 out)" \
	"$IP" netns exec ma ping -c 1 -W 3 10.255.0.2
amac=$("$IP" -n ma link show oa | awk '$1 == "link/ether" { print $2 }')
bmac=$("$IP" -n mb link show ob | awk '$1 == "link/ether" { print $2 }')
"$IP" -n ma neigh replace 10.255.0.2 lladdr "$bmac" dev oa nud permanent
"$IP" -n mb neigh replace 10.255.0.1 lladdr "$amac" dev ob nud permanent
# and (2,2) them: it answered their pings, and its ARP probes of them
# (about 5 s later) would cross the fabric and both ports in the count
"$IP" -n m-2-2 neigh replace 10.255.0.1 lladdr "$amac" dev m nud permanent
"$IP" -n m-2-2 neigh replace 10.255.0.2 lladdr "$bmac" dev m nud permanent
"$MF" stats m --reset >/dev/null
n=3
check "mesh: ping -c $n ma -> mb" \
	"$IP" netns exec ma ping -c $n -i 0.2 -W 3 10.255.0.2
check_eq "mesh: e0's link counted the $n requests" \
	"$("$MF" -j link show m 0 e0 | jget packets)" $n
check_eq "mesh: x-'s link counted the $n replies" \
	"$("$MF" -j link show m 0 x- | jget packets)" $n
check_eq "mesh: no topology link carried them (same node)" \
	"$(links m | awk '$2 < 9 { s += $3 } END { print s + 0 }')" 0
check "destroy m with both bound" "$MF" destroy m

# ---- a hex mesh H_3 (19 nodes, ports +-1, +-8, +-7 mod 19): e0 of node
# 0; node 2 is no neighbour of 0 (2 is not +-1, +-7, +-8 mod 19): 2 hops
fabric hex 3 h
hid=$(fab h id)
hmac=$(outside hw hx0 ho hx1)
check "hex: attach hx0 to the extra port e0 of node 0" \
	"$MF" port attach h 0 e0 dev hx0 netns hw
check_eq "hex: port show -j: port 6 (e0: nports 6 + 0)" \
	"$(port_get h port)" 6
check "hex: ho -> node 2 through e0" \
	"$IP" netns exec ho ping -c 2 -W 3 "$(addr_of h 2 4)"
n=3
pinged_exactly h ho hx1 "$hmac" $hid 2 "$(node h 2 namespace)" $n
check_eq "hex links: 2 hops x 2 ways x $n = $((4 * n)) frames, no more" \
	"$(links h | awk '$2 < 19 { s += $3 } END { print s + 0 }')" $((4 * n))
check "destroy h" "$MF" destroy h
check_eq "allocated objects back to 0" "$(allocated_settled)" 0
