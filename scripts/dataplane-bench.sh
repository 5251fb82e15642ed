#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Data-path benchmark, `make dataplane-bench`: in ONE run of the test VM
# (scripts/vm.sh, Debian's 6.1 kernel under qemu TCG), four paths between
# two network namespaces, measured one after the other with iperf3 3.x:
#
#   veth pair     a direct veth pair between two namespaces
#   veth chain    7 namespaces in a line of veth pairs, kernel IP
#                 forwarding, static /32 routes: 6 hops (the hop count of
#                 (0,0) -> (3,3) on a 7x7 torus)
#   mf 1 hop      meshfabric 7x7 torus, (0,0) -> (1,0)
#   mf 6 hops     meshfabric 7x7 torus, (0,0) -> (3,3)
#
# For each: TCP throughput (iperf3 -t 5, receiver), UDP 1400-byte
# datagrams at full speed (iperf3 -u -b 0 -l 1400: receiver rate and
# loss), 64-byte UDP datagrams per second (-u -b 0 -l 64, datagrams the
# receiver got / seconds) and the average ping RTT of 20 pings (after one
# warm-up ping that resolves ARP).  Then one table and the ratios of
# meshfabric 6 hops to the veth pair and to the veth chain, and the veth
# pair's own ratio to the chain: the most "6 hops / chain" can be for a
# path that only matches the pair.  Fairness: both kinds of interface
# keep their defaults, MTU 1500; the guest prints the MTU, the GSO/TSO
# limits and the offloads on for the veth and the meshfabric interface,
# and the offloads either has that the other lacks.
#
#   scripts/dataplane-bench.sh [--mem MB] [--time SEC]
#
# The guest is emulated (TCG, 2 vCPUs): absolute numbers say little and
# vary with the host's load; compare rows of the same run.  iperf3 must be
# in the guest at /usr/bin/iperf3 (scripts/vm/mkinitramfs.sh copies it
# from the host; make setup installs it).  MF_VM_SH runs another vm.sh.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init dataplane-bench 2048
secs=5
bench_opt() { case $1 in --time) secs=$2; return 2 ;; esac; return 0; }
bench_args "[--mem MB] [--time SEC]" 32 "$@"
bench_build

guest=$(cat <<'GUEST'
IP=/usr/sbin/ip
IPERF=/usr/bin/iperf3
if [ ! -x $IPERF ]; then
	echo "BENCH error iperf3 missing in the guest (/usr/bin/iperf3): scripts/vm/mkinitramfs.sh must copy it"
	exit 1
fi
insmod /mf/meshfabric.ko || exit 1
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko || exit 1
echo "# guest: $(nproc) cpus, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MB, $($IPERF --version | head -n 1)"
up() { $IP -n $1 link set dev $2 up; }

# (a) veth pair
$IP netns add va && $IP netns add vb || exit 1
$IP link add v0 netns va type veth peer name v1 netns vb || exit 1
$IP -n va addr add 10.1.0.1/24 dev v0; $IP -n vb addr add 10.1.0.2/24 dev v1
up va lo; up vb lo; up va v0; up vb v1

# (b) veth chain c0 - c1 - ... - c6, forwarding in c1..c5, /32 routes to the ends
i=0
while [ $i -le 6 ]; do $IP netns add c$i; up c$i lo; i=$((i + 1)); done
i=0
while [ $i -lt 6 ]; do
	j=$((i + 1))
	$IP link add east netns c$i type veth peer name west netns c$j || exit 1
	$IP -n c$i addr add 10.2.$i.1/24 dev east; $IP -n c$j addr add 10.2.$i.2/24 dev west
	up c$i east; up c$j west
	i=$j
done
i=1
while [ $i -le 5 ]; do
	$IP netns exec c$i sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward'
	i=$((i + 1))
done
i=0
while [ $i -le 6 ]; do
	[ $i -lt 6 ] && $IP -n c$i route add 10.2.5.2/32 via 10.2.$i.2 dev east
	[ $i -gt 0 ] && $IP -n c$i route add 10.2.0.1/32 via 10.2.$((i - 1)).1 dev west
	i=$((i + 1))
done

# (c), (d) meshfabric 7x7 torus
meshfabric create --torus 7x7 --name f --no-ipv6 --ipv4 10.0.0.0/24 || exit 1
nsof() { meshfabric show f $1 | awk '$1 == "namespace" { print $2 }'; }
v4of() { meshfabric show f $1 | awk '$1 == "address" && index($2, ":") == 0 { sub("/.*", "", $2); print $2; exit }'; }
echo "# meshfabric route (0,0) -> (3,3): $(meshfabric route --torus 7x7 --from 0,0 --to 3,3 |
	awk '$1 == "length" || $1 == "path"' | tr '\n' ' ')"

# Fair: the same MTU, offloads and GSO limits on both kinds of interface.
offl() {	# offl NS DEV: MTU, GSO/TSO limits and the offloads that are on
	$IP -n $1 -d link show dev $2 | awk '{
		for (i = 1; i < NF; i++)
			if ($i == "mtu" || $i == "gso_max_size" || $i == "tso_max_size" ||
			    $i == "gso_max_segs" || $i == "gro_max_size")
				printf "%s %s ", $i, $(i + 1) }'
	$IP netns exec $1 /usr/sbin/ethtool -k $2 2>/dev/null |
		awk '$2 == "on" { sub(":", "", $1); printf "%s ", $1 }'
	echo
}
vo=$(offl va v0) mo=$(offl $(nsof 0,0) f)
echo "# veth v0:  $vo"
echo "# mf node:  $mo"
echo "# offloads on veth only: $(for w in $vo; do case " $mo " in *" $w "*) ;; *) printf '%s ' "$w" ;; esac; done)"
echo "# offloads on meshfabric only: $(for w in $mo; do case " $vo " in *" $w "*) ;; *) printf '%s ' "$w" ;; esac; done)"

run() {	# run LABEL SRC_NS DST_NS DST_ADDR
	label=$1 src=$2 dst=$3 addr=$4
	echo "# $label: $src -> $dst ($addr)"
	$IP netns exec $dst $IPERF -s -D -I /tmp/iperf.pid || { echo "BENCH $label error iperf3 -s"; return; }
	sleep 1
	$IP netns exec $src ping -c 1 -W 5 $addr >/dev/null || echo "# $label: warm-up ping failed"
	$IP netns exec $src $IPERF -c $addr -t $SECS -f m >/tmp/tcp 2>&1
	awk -v l="$label" '/receiver/ { for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print "BENCH", l, "tcp", $(i - 1) }' /tmp/tcp
	grep -q receiver /tmp/tcp || { echo "# $label tcp:"; cat /tmp/tcp; }
	for len in 1400 64; do
		$IP netns exec $src $IPERF -c $addr -u -b 0 -l $len -t $SECS -f m >/tmp/udp 2>&1
		awk -v l="$label" -v len=$len '/receiver/ {
			split($3, iv, "-"); secs = iv[2]
			for (i = 1; i <= NF; i++) {
				if ($i == "Mbits/sec") mbit = $(i - 1)
				if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, lt, "/"); lost = lt[1]; tot = lt[2] }
			}
			pct = tot > 0 ? 100 * lost / tot : 0
			if (len == 1400) print "BENCH", l, "udp", mbit, sprintf("%.1f", pct)
			else print "BENCH", l, "pps", sprintf("%.0f", (tot - lost) / secs), sprintf("%.1f", pct)
		}' /tmp/udp
		grep -q receiver /tmp/udp || { echo "# $label udp $len:"; cat /tmp/udp; }
	done
	$IP netns exec $src ping -c 20 -i 0.1 -W 5 $addr >/tmp/ping 2>&1
	awk -v l="$label" -F'[/ =]+' '/round-trip|rtt/ { print "BENCH", l, "rtt", $(NF - 2) }' /tmp/ping
	kill $(cat /tmp/iperf.pid) 2>/dev/null
	sleep 1
}
run pair va vb 10.1.0.2
run chain c0 c6 10.2.5.2
run mf1 $(nsof 0,0) $(nsof 1,0) $(v4of 1,0)
run mf6 $(nsof 0,0) $(nsof 3,3) $(v4of 3,3)
echo "# meshfabric stats after the runs:"
meshfabric stats f | head -n 12 | sed "s/^/#   /"
meshfabric destroy f
rmmod meshfabric 2>/dev/null
exit 0
GUEST
)
bench_vm "about 3 minutes" 900 "SECS=$secs; $guest" -E '^# |vm: |BENCH error'
get() { awk -v p="$1" -v m="$2" -v f="${3:-4}" '$1 == "BENCH" && $2 == p && $3 == m { print $f }' "$out"; }
printf '\n%-34s %10s %16s %12s %10s\n' "path" "TCP Mbit/s" "UDP1400 Mbit/s" "UDP64 pps" "RTT ms"
for p in pair chain mf1 mf6; do
	case $p in
	pair) l="veth pair (direct)" ;;
	chain) l="veth chain, IP forwarding, 6 hops" ;;
	mf1) l="meshfabric 1 hop (0,0)->(1,0)" ;;
	mf6) l="meshfabric 6 hops (0,0)->(3,3)" ;;
	esac
	u=$(get $p udp) ul=$(get $p udp 5) pp=$(get $p pps) pl=$(get $p pps 5)
	printf '%-34s %10s %16s %12s %10s\n' "$l" "$(get $p tcp)" \
		"${u:--}${ul:+ (${ul}% loss)}" "${pp:--}" "$(get $p rtt)"
done
ratio() {	# ratio METRIC OTHER [inverse [PATH]]: PATH (mf6) / OTHER (RTT: OTHER / PATH, higher is better)
	awk -v a="$(get "${4:-mf6}" "$1")" -v b="$(get "$2" "$1")" -v inv="${3:-0}" 'BEGIN {
		if (a == "" || b == "" || a + 0 == 0 || b + 0 == 0) { printf "%8s", "-"; exit }
		printf "%7.2fx", inv ? b / a : a / b }'
}
printf '\n%-34s %8s %8s %8s %8s\n' "ratio (higher = meshfabric better)" "TCP" "UDP1400" "UDP64" "RTT"
for o in pair chain; do
	printf '%-34s %s %s %s %s\n' "meshfabric 6 hops / veth $o" "$(ratio tcp $o)" \
		"$(ratio udp $o)" "$(ratio pps $o)" "$(ratio rtt $o 1)"
done
# the ceiling of "6 hops / chain" for any path no faster than a direct pair
printf '%-34s %s %s %s %s\n' "(veth pair / veth chain)" "$(ratio tcp chain 0 pair)" \
	"$(ratio udp chain 0 pair)" "$(ratio pps chain 0 pair)" "$(ratio rtt chain 1 pair)"
echo "(one run, TCG guest; RTT ratio is veth RTT / meshfabric RTT; goal of issue 15: 6 hops >= 1x pair, >= 3x chain;"
echo " the last row is the best \"6 hops / chain\" of a path that only matches the direct pair)"
exit "$rc"
