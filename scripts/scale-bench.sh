#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Scale benchmark of `meshfabric create/destroy` against the plain
# iproute2 way of building the same thing, in ONE run of the test VM
# (scripts/vm.sh):
#
#   scripts/scale-bench.sh [--mem MB] [--big] [--baseline-big]
#   make scale-bench
#
# meshfabric: `meshfabric create --torus NxN --no-ipv6 --ipv4 10.0.0.0/16`
# (N = 32 and 64: 1024 and 4096 namespaces, netdevs, IPv4 addresses as
# the baseline has, all up) and `destroy`.
# Baseline, the fast way a user would do it with iproute2 (`ip -batch`,
# no process per object): the same function, i.e. every node reaches
# every other over IP along the torus: namespaces (one `ip -batch`),
# a veth pair for every torus link created directly in its two
# namespaces (one `ip -batch`), and per node one `ip netns exec NS sh`
# that enables forwarding and runs `ip -batch` with lo up, the node
# address, its 4 links up and a /32 route to every other node via the
# dimension-order next hop (N*N routes in all).  The batch files are
# generated before the clock starts.  Both fabrics are checked with a
# ping from (0,0) to the farthest node before they are destroyed.
# The baseline runs for 32x32 (64x64 only with --baseline-big: 16.7 M
# routes; otherwise its time is extrapolated from 32x32 and marked so).
#
# Output: one table (times in seconds, ratio = baseline / meshfabric).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init scale-bench 6144
bigbase=0 timeout=3000
bench_opt() {
	case $1 in
	--baseline-big) bigbase=1; return 1 ;;
	--timeout) timeout=$2; return 2 ;;
	esac
	return 0
}
bench_args "[--mem MB] [--baseline-big] [--timeout SEC]" 28 "$@"
bench_build

guest=$(cat <<'GUEST'
IP=/usr/sbin/ip
insmod /mf/meshfabric.ko || exit 1
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko
echo "# guest: $(nproc) cpus, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MB"
for n in 32 64; do
	sync; echo 3 >/proc/sys/vm/drop_caches
	t=$(now)
	meshfabric create --torus ${n}x$n --name s --no-ipv6 --ipv4 10.0.0.0/16 >/tmp/c.out ||
		{ cat /tmp/c.out; exit 1; }
	echo "BENCH mf_create_$n $(dt $t)"
	id=$((n / 2 + n / 2 * n + 1))
	far=10.0.$((id >> 8)).$((id & 255))
	meshfabric exec s 0,0 -- ping -c1 -W5 "$far" >/dev/null && echo "BENCH mf_ping_$n ok" ||
		echo "BENCH mf_ping_$n FAILED"
	t=$(now)
	meshfabric destroy s >/dev/null || exit 1
	echo "BENCH mf_destroy_$n $(dt $t)"
	# let the namespaces' asynchronous cleanup finish before going on
	t=$(now)
	while [ -n "$(ls /sys/module/meshfabric/holders 2>/dev/null)" ] ||
	      [ "$(cat /sys/module/meshfabric/parameters/allocated 2>/dev/null || echo 0)" != 0 ]; do
		sleep 0.2
	done
	sleep 2
	echo "# meshfabric ${n}x$n: namespaces released $(dt $t) s after destroy"
done

# ---- baseline: iproute2 with ip -batch
base() {	# base N
	n=$1
	d=/tmp/rb$n
	rm -rf $d; mkdir -p $d
	t=$(now)
	awk -v n=$n -v d=$d 'BEGIN {
		for (x = 0; x < n; x++) for (y = 0; y < n; y++) {
			print "netns add b-" x "-" y > (d "/ns")
			print "netns del b-" x "-" y > (d "/del")
			xp = (x + 1) % n; yp = (y + 1) % n
			print "link add xp netns b-" x "-" y " type veth peer name xm netns b-" xp "-" y > (d "/veth")
			print "link add yp netns b-" x "-" y " type veth peer name ym netns b-" x "-" yp > (d "/veth")
		}
		for (x = 0; x < n; x++) for (y = 0; y < n; y++) {
			f = d "/n-" x "-" y
			print "link set lo up" > f
			print "addr add 10." x "." y ".1/32 dev lo" > f
			print "link set xp up" > f; print "link set xm up" > f
			print "link set yp up" > f; print "link set ym up" > f
			for (u = 0; u < n; u++) for (v = 0; v < n; v++) {
				if (u == x && v == y) continue
				if (u != x) {
					dx = (u - x + n) % n
					if (dx <= n / 2) { dev = "xp"; hx = (x + 1) % n } else { dev = "xm"; hx = (x - 1 + n) % n }
					hy = y
				} else {
					dy = (v - y + n) % n
					if (dy <= n / 2) { dev = "yp"; hy = (y + 1) % n } else { dev = "ym"; hy = (y - 1 + n) % n }
					hx = x
				}
				print "route add 10." u "." v ".1/32 via 10." hx "." hy ".1 dev " dev " onlink" > f
			}
			close(f)
		}
	}'
	echo "# baseline ${n}x$n: batch files generated in $(dt $t) s ($(cat $d/n-* | wc -l) node commands)"
	sync; echo 3 >/proc/sys/vm/drop_caches
	ulimit -n 65536		# ip -batch keeps a netns fd open per "netns NAME"
	t0=$(now)
	$IP -batch $d/ns || return 1
	t1=$(now)
	$IP -batch $d/veth || return 1
	t2=$(now)
	x=0
	while [ $x -lt $n ]; do
		y=0
		while [ $y -lt $n ]; do
			$IP netns exec b-$x-$y sh -c "echo 1 >/proc/sys/net/ipv4/ip_forward && $IP -batch $d/n-$x-$y" || return 1
			y=$((y + 1))
		done
		x=$((x + 1))
	done
	t3=$(now)
	echo "BENCH base_create_$n $(dt $t0)"
	echo "# baseline ${n}x$n: namespaces $(echo "$t0 $t1" | awk '{ print $2 - $1 }') s, veth pairs $(echo "$t1 $t2" | awk '{ print $2 - $1 }') s, addresses+forwarding+routes $(echo "$t2 $t3" | awk '{ print $2 - $1 }') s"
	h=$((n / 2))
	$IP netns exec b-0-0 ping -c1 -W5 10.$h.$h.1 >/dev/null && echo "BENCH base_ping_$n ok" ||
		echo "BENCH base_ping_$n FAILED"
	t=$(now)
	$IP -batch $d/del || return 1
	echo "BENCH base_destroy_$n $(dt $t)"
	rm -rf $d
}
base 32 || echo "BENCH base_create_32 FAILED"
[ "${BIGBASE:-0}" = 1 ] && { sleep 5; base 64 || echo "BENCH base_create_64 FAILED"; }
rmmod meshfabric
exit 0
GUEST
)
bench_vm "this takes a few minutes" "$timeout" "BIGBASE=$bigbase; $BENCH_GUEST_LIB$guest" -E '^# |vm: '
printf '\n%-34s %12s %12s %8s\n' "torus (nodes)" "meshfabric" "iproute2" "ratio"
for n in 32 64; do
	mc=$(bench_get mf_create_$n) md=$(bench_get mf_destroy_$n)
	bc=$(bench_get base_create_$n) bd=$(bench_get base_destroy_$n)
	note=""
	if [ -z "$bc" ] && [ -n "$(bench_get base_create_32)" ] && [ "$n" = 64 ]; then
		# extrapolate: the baseline is dominated by its N^2 routes
		bc=$(awk -v b="$(bench_get base_create_32)" 'BEGIN { printf "%.0f", b * 16 }')
		bd=$(awk -v b="$(bench_get base_destroy_32)" 'BEGIN { printf "%.0f", b * 4 }')
		note="~"
	fi
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b != "") printf "%.0fx", b / a; else print "-" }'; }
	printf '%-34s %12s %12s %8s\n' "create ${n}x$n ($((n * n)))" "${mc:-FAIL}" "$note${bc:--}" "$note$(ratio "$mc" "$bc")"
	printf '%-34s %12s %12s %8s\n' "destroy ${n}x$n" "${md:-FAIL}" "$note${bd:--}" "$note$(ratio "$md" "$bd")"
	printf '%-34s %12s %12s\n' "ping (0,0) -> ($((n / 2)),$((n / 2)))" "$(bench_get mf_ping_$n)" "$(bench_get base_ping_$n)"
done
[ "$bigbase" = 1 ] || echo "(~: 64x64 baseline extrapolated from 32x32: create x16 for its N^2 routes, destroy x4; --baseline-big measures it)"
echo "(seconds in the TCG guest; ratio = iproute2 / meshfabric)"
exit "$rc"
