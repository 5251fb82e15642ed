# SPDX-License-Identifier: GPL-2.0
# ATTACH: one netdev per node, created directly in its namespace, MAC from
# fabric and node; INFO reports ifindex and namespace; ROUTE follows the
# kernel's tables (paths checked against hand-derived dimension order).
. ./lib.sh
load
"$MFCTL" netns add a 25 || nok "netns add"
set -- $("$MFCTL" create torus 5x5 dor a5)
id=$1
# watch init_net: a netdev created here and moved would show up
"$IP" -o monitor link >/tmp/mon.$$ 2>&1 &
mon=$!
sleep 0.3
check "ATTACH 25 nodes, one namespace each" "$MFCTL" attach "$id" a -u -n
sleep 0.3
kill $mon 2>/dev/null
wait $mon 2>/dev/null
check "no node netdev ever appeared in the initial namespace" \
	sh -c "! grep -q 'mf${id}n' /tmp/mon.$$"
check_eq "INFO: present 25" "$(info "$id" present)" 25
"$MFCTL" nodes "$id" >/tmp/nodes.$$
bad=0
i=0
while [ $i -lt 25 ]; do
	set -- $(awk -v n=$i '$1 == n' /tmp/nodes.$$)
	ino=$(stat -L -c %i /var/run/netns/a$i)
	l=$("$IP" -n a$i -o link show dev "$5" 2>/dev/null)
	idx=${l%%:*}
	mac=$(echo "$l" | sed 's/.*link\/ether \([^ ]*\).*/\1/')
	[ "$2" = 1 ] && [ "$4" = "$ino" ] && [ "$3" = "$idx" ] &&
		[ "$5" = "mf${id}n$i" ] && [ "$mac" = "$(mac_of "$id" $i)" ] ||
		{ bad=$((bad + 1)); note "node $i: $* ino $ino idx $idx mac $mac"; }
	i=$((i + 1))
done
check_eq "INFO: each node present, in its namespace (inode), ifindex, name, MAC" $bad 0
# 5x5 torus, dimension order x then y, offsets in (-2.5, 2.5] (topo.h):
# (0,0) -> (3,4): x 0 -> 4 -> 3 (-2), y 0 -> 4 (-1): ids 0 4 3 23
check_eq "ROUTE (0,0)->(3,4)" "$("$MFCTL" route "$id" 0 23)" "0 4 3 23"
# (1,1) -> (3,3): x +2: 6 7 8, y +2: 13 18
check_eq "ROUTE (1,1)->(3,3)" "$("$MFCTL" route "$id" 6 18)" "6 7 8 13 18"
check_eq "ROUTE (4,4)->(0,0) wraps" "$("$MFCTL" route "$id" 24 0)" "24 20 0"
check_eq "ROUTE to itself" "$("$MFCTL" route "$id" 7 7)" "7"
check_rc "ATTACH an attached node again: EBUSY" 16 \
	"$MFCTL" attach1 "$id" 3 /var/run/netns/a4
check "DESTROY" "$MFCTL" destroy "$id"
left=0
for i in 0 7 24; do
	"$IP" -n a$i -o link show | grep -q "mf${id}n" && left=$((left + 1))
done
check_eq "DESTROY removed the netdevs (nodes 0, 7, 24 checked)" $left 0
check_eq "INFO after DESTROY: ENOENT" "$("$MFCTL" info "$id" >/dev/null 2>&1; echo $?)" 2
# a mesh routes per hop (dimension order): (0,0)->(2,1) on 3x3
set -- $("$MFCTL" create mesh 3x3)
check_eq "ROUTE on a 3x3 mesh (0,0)->(2,1)" "$("$MFCTL" route "$1" 0 5)" "0 1 2 5"
check "DESTROY mesh" "$MFCTL" destroy "$1"
"$MFCTL" netns del a 25
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
rm -f /tmp/mon.$$ /tmp/nodes.$$
