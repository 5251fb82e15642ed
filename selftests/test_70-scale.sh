# SPDX-License-Identifier: GPL-2.0
# Scale: a 32x32 torus, 1024 netdevs each in its own namespace, created
# with one batched ATTACH, used (a broadcast heard exactly once by each of
# the 1023 others, ping across the diameter) and destroyed.
. ./lib.sh
load
t0=$(uptime_s)
check "1024 namespaces" "$MFCTL" netns add s 1024
note "1024 namespaces: $(elapsed "$t0") s"
set -- $("$MFCTL" create torus 32x32)
id=$1
check_eq "32x32 torus: 1024 nodes" "$2" 1024
t0=$(uptime_s)
check "ATTACH 1024 nodes (one ioctl), addresses, up" "$MFCTL" attach "$id" s -a -n
note "attach + addresses + up: $(elapsed "$t0") s"
check_eq "INFO: present 1024" "$(info "$id" present)" 1024
t0=$(uptime_s)
"$MFCTL" bcastall "$id" s auto 64 0 >/tmp/sc.$$
check "broadcast from (0,0): each of 1023 namespaces heard it once" test $? = 0
note "$(cat /tmp/sc.$$); $(elapsed "$t0") s with 1024 listeners"
# (16,16) = node 528, address 10.0.2.17: 32 hops away
check "ping (0,0) -> (16,16) across the diameter" \
	"$IP" netns exec s0 ping -c 2 -W 5 10.0.2.17
check_eq "ROUTE (0,0) -> (16,16): 32 hops" "$("$MFCTL" route "$id" 0 528 | wc -w)" 33
t0=$(uptime_s)
check "DESTROY" "$MFCTL" destroy "$id"
note "destroy 1024 netdevs: $(elapsed "$t0") s"
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
"$MFCTL" netns del s 1024
rm -f /tmp/sc.$$
