# SPDX-License-Identifier: GPL-2.0
# The tool's fabric life cycle on meshfabric.ko: create / list / show /
# exec / destroy on a mesh, a torus and a hexagonal mesh (namespaces,
# interfaces, default IPv6 unique local addresses, everything up), then
# ping between every ordered pair of nodes of a 4x4 torus (240 pings).
. ./lib.sh
load
nsof() { "$IP" netns list | awk '{ print $1 }' | grep -c "^$1-"; }

for spec in "mesh 3x4 m 12 2,3" "torus 4x3x2 t 24 3,2,1" "hex 3 h 19 18"; do
	set -- $spec
	kind=$1 shape=$2 name=$3 nodes=$4 last=$5
	create --$kind $shape --name $name
	check_eq "$name: one namespace per node ($nodes)" "$(nsof $name)" $nodes
	check_eq "$name: list shows it with $nodes nodes present" \
		"$("$MF" list | awk -v n=$name '$1 == n { print $5, $6 }')" "$nodes $nodes"
	check_eq "$name: show reports $nodes nodes up" \
		"$("$MF" show $name --nodes | grep -c ' up ')" $nodes
	a=$(addr_of $name $last)
	case $a in fd*::1:*) ok "$name: node $last has its ULA $a" ;;
	*) nok "$name: node $last has a ULA (got '$a')" ;; esac
	ns0=$("$MF" show $name 0 | awk '$1 == "namespace" { print $2 }')
	check "$name: node 0's interface '$name' is up in namespace $ns0" \
		sh -c "'$IP' -n $ns0 link show dev $name | grep -q ',UP'"
	check "$name: exec runs in the node's namespace (sees interface $name)" \
		"$MF" exec $name 0 -- "$IP" link show dev $name
	check "$name: exec node 0 -- ping -c1 node $last ($a)" \
		"$MF" exec $name 0 -- ping -c1 -W2 "$a"
	check_eq "$name: route $name 0 $last (the kernel's) = the offline route" \
		"$("$MF" route $name 0 $last)" \
		"$("$MF" route --$kind $shape --from 0 --to $last)"
	check "$name: show -j is one JSON line" \
		sh -c "[ \$('$MF' -j show $name | wc -l) = 1 ]"
	check "destroy $name" "$MF" destroy $name
	check_eq "$name: no namespace left" "$(nsof $name)" 0
	check_eq "$name: no fabric left" "$("$MF" list --names | grep -c "^$name\$")" 0
done

# no --name: the kernel's name mf<id> names the namespaces and interface
create --mesh 2x2
check_eq "unnamed fabric: list shows mf0, namespaces mf0-0-0 .. mf0-1-1" \
	"$("$MF" list --names) $(nsof mf0)" "mf0 4"
check "unnamed fabric: interface mf0 in mf0-1-1" "$IP" -n mf0-1-1 link show dev mf0
check "destroy mf0" "$MF" destroy mf0

# every ordered pair of a 4x4 torus, IPv6 (default) and IPv4 (--ipv4)
create --torus 4x4 --name p --ipv4 10.9.0.0/24
addrs6= addrs4=
n=0
while [ $n -lt 16 ]; do
	addrs6="$addrs6 $(addr_of p $n 6)"
	addrs4="$addrs4 $(addr_of p $n 4)"
	n=$((n + 1))
done
check_eq "IPv4 addresses are 10.9.0.(node+1)" "$(echo $addrs4 | awk '{ print $1, $16 }')" \
	"10.9.0.1 10.9.0.16"
t0=$(uptime_s)
fail=0 pings=0
src=0
for a0 in $addrs6; do
	out=$("$MF" exec p $src -- sh -c "
		for a in $addrs6; do
			[ \$a = $a0 ] && continue
			ping -c1 -W1 \$a >/dev/null 2>&1 && echo ok || echo \"FAIL $src -> \$a\"
		done")
	pings=$((pings + $(echo "$out" | grep -c .)))
	bad=$(echo "$out" | grep -c FAIL)
	[ "$bad" = 0 ] || note "$(echo "$out" | grep FAIL | head -3)"
	fail=$((fail + bad))
	src=$((src + 1))
done
check_eq "ping6 between every pair of the 4x4 torus: $pings pings, all answered" "$pings $fail" "240 0"
note "240 IPv6 pings: $(elapsed "$t0") s"
t0=$(uptime_s)
out=$("$MF" exec p 0 -- sh -c "for a in $addrs4; do ping -c1 -W1 \$a >/dev/null 2>&1 || echo FAIL \$a; done")
check_eq "IPv4 ping from 0,0 to every node" "$out" ""
note "16 IPv4 pings: $(elapsed "$t0") s"
check "stats: links counted traffic" sh -c "'$MF' stats p | grep -q 'directed links used'"
check "stats --svg writes a picture" sh -c "'$MF' stats p --svg /tmp/p.svg >/dev/null && grep -q '</svg>' /tmp/p.svg"
check "bcast from a corner reaches the 15 others" \
	sh -c "'$MF' bcast p --from 3,3 | grep -q 'delivered        15 of 15'"
# no link-local address on a node (addr_gen_mode none), and its
# namespace's IPv6 default as in any new namespace
"$IP" netns add q
fresh=$("$IP" netns exec q cat /proc/sys/net/ipv6/conf/default/addr_gen_mode)
"$IP" netns del q
check_eq "node (1,1): addr_gen_mode 1 (none), no fe80::, the default back to $fresh" \
	"$("$MF" exec p 1,1 -- sh -c 'cat /proc/sys/net/ipv6/conf/p/addr_gen_mode
		/usr/sbin/ip -6 addr show dev p | grep -c "inet6 fe80"
		cat /proc/sys/net/ipv6/conf/default/addr_gen_mode' | tr '\n' ' ')" "1 0 $fresh "
check "destroy p" "$MF" destroy p
check_eq "no namespace left" "$("$IP" netns list | wc -l)" 0
wait_until 10 sh -c "[ \$(cat $PARAM) = 0 ]"
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
rm -f /tmp/p.svg
