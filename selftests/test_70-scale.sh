# SPDX-License-Identifier: GPL-2.0
# Scale: a 32x32 torus, 1024 netdevs each in its own namespace, created
# by the tool with one batched ATTACH, used (a broadcast heard exactly
# once by each of the 1023 others, ping across the diameter) and
# destroyed.
. ./lib.sh
load
create --torus 32x32 --name s --ipv4 10.0.0.0/8 --no-ipv6
check_eq "1024 namespaces" "$("$IP" netns list | grep -c '^s-')" 1024
check_eq "32x32 torus: 1024 nodes" "$(fab s nodes)" 1024
check_eq "show: present 1024" "$(fab s present)" 1024
t0=$(uptime_s)
"$MFCTL" bcastall "$(fab s id)" auto 64 0 >$TMP/sc
check "broadcast from (0,0): each of 1023 namespaces heard it once" test $? = 0
note "$(cat $TMP/sc); $(elapsed "$t0") s with 1024 listeners"
# (16,16) = node 528, address 10.0.2.17: 32 hops away
check "ping (0,0) -> (16,16) across the diameter" \
	"$IP" netns exec s-0-0 ping -c 2 -W 5 10.0.2.17
check_eq "route (0,0) -> (16,16): 32 hops" "$(path s 0 528 | wc -w)" 33
t0=$(uptime_s)
check "destroy s" "$MF" destroy s
note "destroy 1024 nodes and namespaces: $(elapsed "$t0") s"
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
