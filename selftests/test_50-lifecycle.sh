# SPDX-License-Identifier: GPL-2.0
# Life cycle: a namespace deleted takes its node's netdev with it and the
# fabric reports the node gone (routes: "a node on the path is gone",
# broadcasts: "a node is down or gone") until it is attached again; `ip
# link del` likewise; rmmod with live fabrics (and traffic) releases
# everything.
. ./lib.sh
load
create --torus 3x3 --name l --no-ipv6
check "bcast with every node present" "$MF" bcast l
"$IP" netns del l-1-1
check "namespace of node 4 deleted: show reports 1 gone" \
	wait_until 20 gone_is l 1
check_eq "show: node 4 gone, no ifindex" \
	"$(node l 4 state) $(node l 4 ifindex)" "gone 0"
# 3x3 torus, x first: (0,1) -> (1,2) is 3 -> 4 -> 7
gone="a node on the path is gone"
check_fails "route through the gone node: EHOSTUNREACH" "$gone" \
	"$MF" route l 3 7
check_fails "route to the gone node: EHOSTUNREACH" "$gone" "$MF" route l 0 4
check_eq "route avoiding it still works" "$(path l 0 1)" "0 1"
check_fails "bcast with a node gone: ENETDOWN" "a node is down or gone" \
	"$MF" bcast l
check "ip link del of node 2's netdev" "$IP" -n l-2-0 link del dev l
check "show reports 2 gone" wait_until 10 gone_is l 2
"$IP" netns add l-1-1
lid=$(fab l id)
check_eq "re-ATTACH node 4 into a new namespace" "$(attach "$lid" 4 l-1-1)" 0
check_eq "re-ATTACH node 2 with a chosen name" \
	"$(attach "$lid" 2 l-2-0 fab2)" 0
check_eq "show: 9 present, 0 gone" "$(fab l present) $(fab l gone)" "9 0"
"$IP" -n l-2-0 link set fab2 up
"$IP" -n l-1-1 link set "mf$(fab l id)n4" up
check "BCAST works again" "$MFCTL" bcastall "$lid" flood 64 0
check "destroy l" "$MF" destroy l
check_eq "allocation counter back to 0" "$(allocated_settled)" 0

# destroy deletes the namespaces first and leaves their netdevs to the
# kernel's cleanup of the namespaces (asynchronous, as `ip netns del`);
# a namespace someone keeps (here a second mount) loses its netdev at
# once; the name is free at once; rmmod right away waits for the cleanup
create --torus 4x4 --name d --no-ipv6
touch /var/run/netns/keep
mount -o bind /var/run/netns/d-1-1 /var/run/netns/keep
check "destroy d" "$MF" destroy d
check_eq "a kept namespace lost its netdev when destroy returned" \
	"$("$IP" -n keep -o link show | grep -cv ': lo:')" 0
check_eq "the namespaces are gone" "$(ls /var/run/netns | grep -c '^d-')" 0
check "the name is free at once: create d again" \
	sh -c "'$MF' create --torus 4x4 --name d --no-ipv6 >/dev/null"
check "destroy d, and rmmod at once" sh -c "'$MF' destroy d && rmmod meshfabric"
check "dmesg reports no leak at unload" \
	sh -c '! dmesg | grep -q "meshfabric: leak"'
umount /var/run/netns/keep
rm -f /var/run/netns/keep
check "insmod again" insmod "$KO"

# rmmod with live fabrics and traffic: a 4x4 torus, and a 2x2 mesh whose
# nodes live in the torus' namespaces of the same coordinates
create --torus 4x4 --name r --ipv4 10.0.0.0/8 --no-ipv6
set -- $(mkfabric mesh 2x2 dor r2)
id2=$1
up2() {
	for n in 0 1 2 3; do
		[ "$(attach "$id2" $n r-$((n % 2))-$((n / 2)))" = 0 ] || return 1
	done
	for n in 0 1 2 3; do
		"$IP" -n r-$((n % 2))-$((n / 2)) link set mf${id2}n$n up ||
			return 1
	done
}
check "ATTACH a 2x2 mesh into the same namespaces" up2
check "ping over the 4x4 torus" "$IP" netns exec r-0-0 ping -c 1 -W 3 10.0.0.11
"$IP" netns exec r-0-0 ping -c 100000 -i 0.01 -W 1 10.0.0.11 >/dev/null 2>&1 &
pinger=$!
sleep 1
exec 3</dev/meshfabric
check "rmmod refused while /dev/meshfabric is open" \
	sh -c '! rmmod meshfabric 2>/dev/null'
exec 3<&-
check "rmmod with 2 live fabrics, 20 netdevs, traffic" rmmod meshfabric
kill $pinger 2>/dev/null
wait $pinger 2>/dev/null
check_eq "no node netdev left in the namespaces" \
	"$("$IP" -n r-0-0 -o link show | grep -cv ': lo:')" 0
check "dmesg reports no leak at unload" \
	sh -c '! dmesg | grep -q "meshfabric: leak"'
check "insmod after that" insmod "$KO"
check_eq "allocation counter 0" "$(allocated_settled)" 0
check "rmmod" unload
