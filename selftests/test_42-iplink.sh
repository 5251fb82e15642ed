# SPDX-License-Identifier: GPL-2.0
# Issue 14 (ip link): in a node's namespace, `ip -d link show` and
# `ip -j -d link show` name the node's fabric, its id (as `meshfabric
# list` gives it) and the node's id and coordinates (computed here from
# the node id: x = id mod n0, y = id div n0; on H_n the id), through
# the kernel's IFLA_MESHFABRIC_* attributes and the iproute2 plugin
# link_meshfabric.so.
# Then ethtool -S of every node of 2x2 and 2x3 tori equals `meshfabric
# stats` after pings: tx of a port is the node's link out of it, rx the
# neighbour's link into the node (in a size-2 dimension both are the +
# port's, and the - port has no link: 0).
. ./lib.sh
MF=${MF:-meshfabric}
ET=/usr/sbin/ethtool
load

check "ip link help meshfabric: the plugin's help" \
	sh -c "'$IP' link help meshfabric 2>&1 | grep -q 'meshfabric create'"

# name kind n0 n1 nodes to look at
for spec in "ia torus 2 2 0 1 2 3" "ib mesh 3 4 0 5 7 11"; do
	set -- $spec
	name=$1 kind=$2 n0=$3 n1=$4
	shift 4
	check "create --$kind ${n0}x$n1 --name $name" \
		"$MF" create --$kind ${n0}x$n1 --name $name --no-ipv6
	fid=$("$MF" list | awk -v n=$name '$1 == n { print $2 }')
	for id in "$@"; do
		x=$((id % n0)) y=$((id / n0))
		ns=$name-$x-$y
		want="meshfabric fabric $name id $fid node $id coords ($x,$y) kind $kind dims ${n0}x$n1 "
		got=$("$IP" -n $ns -d link show dev $name)
		case $got in
		*"$want"*) ok "$name node $id: ip -d link show says '$want'" ;;
		*) nok "$name node $id: ip -d link show says '$want'"
		   note "$got" ;;
		esac
		want="\"linkinfo\":{\"info_kind\":\"meshfabric\",\"info_data\":{\"fabric\":\"$name\",\"fabric_id\":$fid,\"node\":$id,\"coords\":[$x,$y],\"kind\":\"$kind\",\"dims\":[$n0,$n1]}}"
		got=$("$IP" -n $ns -j -d link show dev $name)
		case $got in
		*"$want"*) ok "$name node $id: ip -j -d link show has $want" ;;
		*) nok "$name node $id: ip -j -d link show has $want"
		   note "$got" ;;
		esac
	done
	check "destroy $name" "$MF" destroy $name
done

# H_3: the coordinate is the node's address, the size n (namespace ih-ID)
check "create --hex 3 --name ih" "$MF" create --hex 3 --name ih --no-ipv6
fid=$("$MF" list | awk '$1 == "ih" { print $2 }')
for id in 0 18; do
	want="meshfabric fabric ih id $fid node $id coords ($id) kind hex dims 3 "
	case $("$IP" -n ih-$id -d link show dev ih) in
	*"$want"*) ok "ih node $id: ip -d link show says '$want'" ;;
	*) nok "ih node $id: ip -d link show says '$want'" ;;
	esac
	want="\"info_data\":{\"fabric\":\"ih\",\"fabric_id\":$fid,\"node\":$id,\"coords\":[$id],\"kind\":\"hex\",\"dims\":[3]}"
	case $("$IP" -n ih-$id -j -d link show dev ih) in
	*"$want"*) ok "ih node $id: ip -j -d link show has $want" ;;
	*) nok "ih node $id: ip -j -d link show has $want" ;;
	esac
done
check "destroy ih" "$MF" destroy ih

# ethtool -S = meshfabric stats, every node of a 2xN torus
snap=/tmp/iplink.$$
# expected PORT: "PACKETS BYTES" of tx and rx from $snap.st (0 0 if no link)
expect() {
	awk -v a="$1" -v p="$2" '
		{ from[NR] = $1; port[NR] = $2; to[NR] = $3
		  pk[NR] = $4; by[NR] = $5 }
		END {
			tx = "0 0"; rx = "0 0"
			for (i = 1; i <= NR; i++)
				if (from[i] == a && port[i] == p) {
					tx = pk[i] " " by[i]; peer = to[i]
				}
			for (i = 1; i <= NR && peer != ""; i++)
				if (from[i] == peer && to[i] == a)
					rx = pk[i] " " by[i]
			print tx, rx
		}' $snap.st
}
# ethtool_all NAME NODES TAG: ethtool -S of node i into $snap.TAG.i
ethtool_all() {
	_i=0
	while [ $_i -lt $2 ]; do
		"$IP" netns exec $1-$((_i % 2))-$((_i / 2)) $ET -S $1 >$snap.$3.$_i
		_i=$((_i + 1))
	done
}
for n1 in 2 3; do
	name=ie$n1
	check "create --torus 2x$n1 --name $name --ipv4" \
		"$MF" create --torus 2x$n1 --name $name --ipv4 10.42.$n1.0/24 --no-ipv6
	nodes=$((2 * n1))
	for pair in "0,0 1,0" "0,0 0,1" "1,$((n1 - 1)) 0,0"; do
		set -- $pair
		"$MF" exec $name "$1" -- ping -c 2 -i 0.2 -W 2 \
			"$(addr_of $name "$2" 4)" >/dev/null
	done
	# one consistent snapshot: ethtool before and after stats agree
	tries=0
	while :; do
		ethtool_all $name $nodes e1
		"$MF" stats $name --all >$snap.st
		ethtool_all $name $nodes e2
		tries=$((tries + 1))
		[ "$(cat $snap.e1.*)" = "$(cat $snap.e2.*)" ] && break
		[ $tries -ge 5 ] && break
	done
	check_eq "$name: counters stood still around the reads" \
		"$(cat $snap.e1.*)" "$(cat $snap.e2.*)"
	bad=0 xrx=0
	id=0
	while [ $id -lt $nodes ]; do
		node=$((id % 2)),$((id / 2))
		for port in x+ x- y+ y-; do
			want=$(expect $node $port)
			got=$(awk -v k="port$port" '
				$1 == k "_tx_packets:" { tp = $2 }
				$1 == k "_tx_bytes:" { tb = $2 }
				$1 == k "_rx_packets:" { rp = $2 }
				$1 == k "_rx_bytes:" { rb = $2 }
				END { print tp, tb, rp, rb }' $snap.e2.$id)
			[ "$got" = "$want" ] || {
				bad=1
				note "$name $node $port: stats (tx, rx) $want, ethtool $got"
			}
			[ $port = x+ ] && xrx=$((xrx + $(echo $got | cut -d' ' -f3)))
		done
		id=$((id + 1))
	done
	check_eq "$name: ethtool -S of every node = meshfabric stats (tx, rx)" $bad 0
	# the size-2 dimension's link carried traffic both ways (a test of
	# the test: the rx it reports is the one that was wrong)
	check "$name: x+ ports received frames (rx $xrx)" test $xrx -gt 0
	check "destroy $name" "$MF" destroy $name
done
rm -f $snap.*
check "rmmod" unload
