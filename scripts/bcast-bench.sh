#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Broadcast-offload benchmark, `make bcast-bench`: in ONE run of the test
# VM (scripts/vm.sh), on a 32x32 torus (`meshfabric create --torus 32x32
# --ipv4 10.0.0.0/16`), the time until the last of the 1023 other nodes
# holds a payload sent from (0,0):
#
#   BCAST        `meshfabric bcast f --from 0,0 --size S` (algorithm auto),
#                received by an AF_PACKET socket (ethertype 0x88b5, bound
#                to the node's interface) in every node's namespace;
#   fan-out      what a user does without the offload: from (0,0)'s
#                namespace, sendto() of one S-byte UDP datagram to each of
#                the 1023 node addresses, each received by a UDP socket
#                in its node's namespace (with permanent neighbour entries
#                for all 1023 at the source, set up before: resolving
#                them by ARP is 1023 broadcasts to 1023 nodes each, and
#                does not finish in the TCG guest);
#
# for S = 64 B and 64 KiB (the UDP fan-out sends 65507 B, the IPv4
# maximum).  One program, build/guest/fanout (scripts/bench/fanout.c,
# static), opens all receivers (setns() into each namespace) and polls
# them from one process; it also sends the fan-out, or runs the tool for
# BCAST (so BCAST's time includes starting the tool: the line "tool
# start" gives that cost alone).  Each measurement has ROUNDS rounds: the
# first warms the caches (neighbours, routes, the schedule cache) and is
# not counted; the table shows the median of the others.
#
#   scripts/bcast-bench.sh [--mem MB] [--rounds N]
#
# The guest needs /mf/guest/fanout (scripts/vm/mkinitramfs.sh copies
# build/guest/).  MF_VM_SH runs another vm.sh.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init bcast-bench 3072
rounds=4
bench_opt() { case $1 in --rounds) rounds=$2; return 2 ;; esac; return 0; }
bench_args "[--mem MB] [--rounds N]" 30 "$@"
[ "$rounds" -ge 2 ] 2>/dev/null || { echo "bcast-bench: --rounds must be >= 2" >&2; exit 2; }
bench_build
mkdir -p build/guest
${CC:-cc} -static -O2 -Wall -Wextra -Werror -o build/guest/fanout scripts/bench/fanout.c ||
	{ echo "bcast-bench: building build/guest/fanout failed (static libc: libc6-dev)" >&2; exit 1; }

guest=$(cat <<'GUEST'
F=/mf/guest/fanout
if [ ! -x $F ]; then
	echo "BENCH error /mf/guest/fanout missing: scripts/vm/mkinitramfs.sh must copy build/guest/"
	exit 1
fi
insmod /mf/meshfabric.ko || exit 1
echo "# guest: $(nproc) cpus, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MB"
now() { cut -d' ' -f1 /proc/uptime; }
t=$(now)
meshfabric create --torus 32x32 --name b --no-ipv6 --ipv4 10.0.0.0/16 || exit 1
echo "# created 32x32 in $(echo "$t $(now)" | awk '{ print $2 - $1 }') s"
src=b-0-0
[ -e /var/run/netns/$src ] || { echo "BENCH error no namespace $src"; exit 1; }
# permanent neighbours at the source: the fan-out measures sending, not ARP
$F neigh b $src 0 >/tmp/neigh || exit 1
/usr/sbin/ip -n $src -batch /tmp/neigh || exit 1
echo "# $(wc -l </tmp/neigh) permanent neighbour entries in $src"
echo "# one BCAST as the tool reports it:"
meshfabric bcast b --from 0,0 --size 64 | sed 's/^/#   /'
for size in 64 65536; do
	$F bcast b $src $size $ROUNDS -- meshfabric bcast b --from 0,0 --size $size 2>/tmp/bc.err |
		sed 's/^/BENCH /'
	grep '^#' /tmp/bc.err
	awk -v s=$size '$1 == "elapsed" { print "BENCH KERNEL", s, ++r, $2 }' /tmp/bc.err
	$F udp b $src $size $ROUNDS | sed 's/^/BENCH /'
done
# the tool's own start-up: 20 runs of `meshfabric list`
t=$(now)
i=0
while [ $i -lt 20 ]; do meshfabric list >/dev/null; i=$((i + 1)); done
echo "BENCH toolstart $(echo "$t $(now)" | awk '{ printf "%.0f", ($2 - $1) * 1e6 / 20 }')"
meshfabric destroy b
exit 0
GUEST
)
bench_vm "a few minutes" 1500 "ROUNDS=$rounds; $guest" -E '^# |vm: |BENCH error'
# median over rounds 2.. of field F (us or cmd_us) for MODE SIZE
med() {
	awk -v m="$1" -v s="$2" -v f="$3" '
	$1 == "BENCH" && $2 == "FANOUT" && $3 == m && $5 > 1 {
		for (i = 4; i < NF; i++) if ($i == "size") sz = $(i + 1)
		if ((s == 64 && sz == 64) || (s != 64 && sz > 64)) {
			for (i = 4; i < NF; i++) {
				if ($i == f) v[n++] = $(i + 1)
				if ($i == "got") g = $(i + 1)
				if ($i == "receivers") r = $(i + 1)
			}
			if (g != r) bad = 1
		}
	}
	END {
		if (!n || bad) { print "-"; exit }
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		printf "%.1f", (n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2) / 1000
	}' "$out"
}
# median over rounds 2.. of the kernel's own BCAST time (elapsed_ns)
kmed() {
	awk -v s="$1" '$1 == "BENCH" && $2 == "KERNEL" && $3 == s && $4 > 1 { v[n++] = $5 }
	END {
		if (!n) { print "-"; exit }
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		printf "%.1f", (n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2) / 1000
	}' "$out"
}
rat() { awk -v b="$1" -v u="$2" 'BEGIN { if (b + 0 > 0 && u + 0 > 0) printf "%.1fx", u / b; else print "-" }'; }
printf '\n%-8s %16s %14s %14s %16s %10s %10s\n' "payload" "UDP fan-out ms" "BCAST tool ms" "(tool exit)" "BCAST kernel ms" \
	"ratio tool" "ratio kern"
for s in 64 65536; do
	b=$(med bcast $s us) bc=$(med bcast $s cmd_us) u=$(med udp $s us) k=$(kmed $s)
	printf '%-8s %16s %14s %14s %16s %10s %10s\n' "$([ $s = 64 ] && echo "64 B" || echo "64 KiB")" \
		"$u" "$b" "$bc" "$k" "$(rat "$b" "$u")" "$(rat "$k" "$u")"
done
echo "UDP fan-out: first sendto to the receipt by the last of 1023 nodes (one process, neighbours resolved);"
echo "BCAST tool: fork+exec of \`meshfabric bcast\` to the receipt by the last node (AF_PACKET);"
echo "BCAST kernel: the ioctl's delivery loop as the kernel reports it (elapsed_ns; deliveries run"
echo "  their receive path inside it), without the tool's start-up; ratio = fan-out / BCAST."
ts=$(awk '$1 == "BENCH" && $2 == "toolstart" { printf "%.1f", $3 / 1000 }' "$out")
echo "tool start (meshfabric list), included in the BCAST times: ${ts:--} ms"
echo "(32x32 torus, 1023 receivers, median of rounds 2..$rounds of one run, TCG guest; ratio = fan-out / BCAST, goal of issue 15: >= 20x)"
exit "$rc"
