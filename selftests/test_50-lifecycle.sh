# SPDX-License-Identifier: GPL-2.0
# Life cycle: a namespace deleted takes its node's netdev with it and the
# fabric reports the node GONE (routes: EHOSTUNREACH, broadcasts:
# ENETDOWN) until it is attached again; `ip link del` likewise; rmmod with
# live fabrics (and traffic) releases everything.
. ./lib.sh
load
"$MFCTL" netns add l 9 || nok "netns add"
set -- $("$MFCTL" create torus 3x3)
id=$1
check "ATTACH 3x3" "$MFCTL" attach "$id" l -u -n
check "BCAST with every node present" "$MFCTL" bcast "$id" 0 auto
"$IP" netns del l4
check "namespace of node 4 deleted: INFO reports 1 gone" \
	wait_until 20 gone_is "$id" 1
check_eq "INFO: node 4 flags GONE, no ifindex" \
	"$("$MFCTL" nodes "$id" | awk '$1 == 4 { print $2, $3 }')" "2 0"
# 3x3 torus, x first: (0,1) -> (1,2) is 3 -> 4 -> 7
check_rc "ROUTE through the gone node: EHOSTUNREACH" 113 "$MFCTL" route "$id" 3 7
check_rc "ROUTE to the gone node: EHOSTUNREACH" 113 "$MFCTL" route "$id" 0 4
check_eq "ROUTE avoiding it still works" "$("$MFCTL" route "$id" 0 1)" "0 1"
check_rc "BCAST with a node gone: ENETDOWN" 100 "$MFCTL" bcast "$id" 0 auto
check "ip link del of node 2's netdev" "$IP" -n l2 link del "mf${id}n2"
check "INFO reports 2 gone" wait_until 10 gone_is "$id" 2
"$IP" netns add l4
check "re-ATTACH node 4 into a new namespace" "$MFCTL" attach1 "$id" 4 /var/run/netns/l4
check "re-ATTACH node 2 with a chosen name" "$MFCTL" attach1 "$id" 2 /var/run/netns/l2 fab2
check_eq "INFO: 9 present, 0 gone" "$(info "$id" present) $(info "$id" gone)" "9 0"
"$IP" -n l2 link set fab2 up
"$IP" -n l4 link set "mf${id}n4" up
check "BCAST works again" "$MFCTL" bcastall "$id" l flood 64 0
check "DESTROY" "$MFCTL" destroy "$id"
check_eq "allocation counter back to 0" "$(allocated)" 0
"$MFCTL" netns del l 9

# rmmod with live fabrics and traffic
"$MFCTL" netns add r 16
set -- $("$MFCTL" create torus 4x4)
id1=$1
set -- $("$MFCTL" create mesh 2x2)
id2=$1
check "ATTACH a 4x4 torus with addresses" "$MFCTL" attach "$id1" r -a -n
check "ATTACH a 2x2 mesh into the same namespaces" "$MFCTL" attach "$id2" r -u
check "ping over the 4x4 torus" "$IP" netns exec r0 ping -c 1 -W 3 10.0.0.11
"$IP" netns exec r0 ping -c 100000 -i 0.01 -W 1 10.0.0.11 >/dev/null 2>&1 &
pinger=$!
sleep 1
exec 3</dev/meshfabric
check "rmmod refused while /dev/meshfabric is open" sh -c '! rmmod meshfabric 2>/dev/null'
exec 3<&-
check "rmmod with 2 live fabrics, 20 netdevs, traffic" rmmod meshfabric
kill $pinger 2>/dev/null
wait $pinger 2>/dev/null
check_eq "no node netdev left in the namespaces" \
	"$("$IP" -n r0 -o link show | grep -c "mf")" 0
check "dmesg reports no leak at unload" sh -c '! dmesg | grep -q "meshfabric: leak"'
check "insmod after that" insmod "$KO"
check_eq "allocation counter 0" "$(allocated)" 0
check "rmmod" unload
"$MFCTL" netns del r 16
