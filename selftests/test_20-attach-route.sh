# SPDX-License-Identifier: GPL-2.0
# create: one netdev per node, made directly in its namespace (one ATTACH),
# MAC from fabric and node; show reports each node's namespace, ifindex,
# name and MAC as iproute2 sees them; route gives the kernel's tables'
# paths (checked against hand-derived dimension order).
. ./lib.sh
load
# watch init_net: a netdev created here and moved would show up
"$IP" -o monitor link >$TMP/mon 2>&1 &
mon=$!
sleep 0.3
create --torus 5x5 --name a5 --no-ipv6
sleep 0.3
kill $mon 2>/dev/null
wait $mon 2>/dev/null
check "no node netdev ever appeared in the initial namespace" \
	sh -c "! grep -q ': a5[:@]' $TMP/mon"
check_eq "show: present 25" "$(fab a5 present)" 25
id=$(fab a5 id)
"$MF" -j show a5 --nodes | sed 's/.*"nodes_shown":\[//; s/},{/}\
{/g' >$TMP/nodes
bad=0
i=0
while [ $i -lt 25 ]; do
	j=$(sed -n "$((i + 1))p" $TMP/nodes)
	ns=a5-$((i % 5))-$((i / 5))
	l=$("$IP" -n $ns -o link show dev a5 2>/dev/null)
	idx=${l%%:*}
	mac=$(echo "$l" | sed 's/.*link\/ether \([^ ]*\).*/\1/')
	got="$(echo "$j" | jget node) $(echo "$j" | jget state)"
	got="$got $(echo "$j" | jget namespace) $(echo "$j" | jget ifindex)"
	got="$got $(echo "$j" | jget ifname) $(echo "$j" | jget mac)"
	# exec refuses a namespace whose inode is not the node's (INFO)
	[ "$got" = "$i up $ns $idx a5 $(mac_of "$id" $i)" ] &&
		[ "$mac" = "$(mac_of "$id" $i)" ] && "$MF" exec a5 $i -- true ||
		{ bad=$((bad + 1)); note "node $i: $got; ip: $l"; }
	i=$((i + 1))
done
check_eq "show: each node up in its namespace (inode), ifindex, name, MAC" \
	$bad 0
# 5x5 torus, dimension order x then y, offsets in (-2.5, 2.5] (topo.h):
# (0,0) -> (3,4): x 0 -> 4 -> 3 (-2), y 0 -> 4 (-1): ids 0 4 3 23
check_eq "route a5 (0,0) (3,4)" "$(path a5 0 23)" "0 4 3 23"
# (1,1) -> (3,3): x +2: 6 7 8, y +2: 13 18
check_eq "route a5 (1,1) (3,3)" "$(path a5 6 18)" "6 7 8 13 18"
check_eq "route a5 (4,4) (0,0) wraps" "$(path a5 24 0)" "24 20 0"
check_eq "route to itself" "$(path a5 7 7)" "7"
check_eq "ATTACH an attached node again: EBUSY" "$(attach "$id" 3 a5-4-0)" EBUSY
# keep three nodes' namespaces past destroy, to look inside them after
for n in 0-0 2-1 4-4; do
	touch /var/run/netns/keep$n
	mount --bind /var/run/netns/a5-$n /var/run/netns/keep$n
done
check "destroy a5" "$MF" destroy a5
left=0
for n in 0-0 2-1 4-4; do
	"$IP" -n keep$n -o link show | grep -q ": a5[:@]" && left=$((left + 1))
done
check_eq "destroy removed the netdevs (nodes 0, 7, 24 checked)" $left 0
check_fails "show after destroy: no such fabric" "no fabric named" "$MF" show a5
# a mesh routes per hop (dimension order): (0,0)->(2,1) on 3x3
mkfabric mesh 3x3 dor m3 >/dev/null
check_eq "route on a 3x3 mesh (0,0)->(2,1)" "$(path m3 0 5)" "0 1 2 5"
check "destroy mesh" "$MF" destroy m3
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
