# SPDX-License-Identifier: GPL-2.0
# Issue 12: links and nodes that fail.  On a 5x5 torus: with (0,0) x+
# down, ping (0,0) -> (1,0) still works (3 hops around, the surviving
# graph's BFS length) and neither direction of that link counts a frame;
# with the 4 links of (2,2) down, a broadcast reaches 23 nodes and
# reports 1 unreachable, ping to (2,2) fails, (2,2) has no carrier; up
# restores the 1-hop route and 24 deliveries.  Then a link flapping every
# 100 ms for 10 s under an iperf3 stream and broadcasts: no kernel
# warning, traffic resumes, destroy and rmmod with faults set leave
# nothing.  Last, the routing state and update time of 10 failed links
# on a 64x64 torus (at most 4 MiB; under 500 ms each in the TCG guest,
# 137 ms measured; 17-20 ms native in make bench), and one failed
# link on 256x256.
. ./lib.sh
MF=${MF:-meshfabric}
IPERF=/usr/bin/iperf3
load
json() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }
dmesg -c >/dev/null 2>&1
check "create --torus 5x5 --name ft" \
	"$MF" create --torus 5x5 --name ft --ipv4 10.9.0.0/16 --no-ipv6
d10=$(addr_of ft 1,0 4) d22=$(addr_of ft 2,2 4)
"$MF" exec ft 0,0 -- ping -c 1 -W 2 "$d10" >/dev/null
check "link set ft 0,0 x+ down" "$MF" link set ft 0,0 x+ down
check_eq "link show: (0,0) x+ is DOWN" \
	"$("$MF" link show ft 0,0 x+ | awk 'NR == 2 { print $5 }')" DOWN
check_eq "link show: (1,0) x- (the other direction) is DOWN" \
	"$("$MF" link show ft 1,0 x- | awk 'NR == 2 { print $5 }')" DOWN
check_eq "route (0,0) -> (1,0) goes around: 3 hops" \
	"$("$MF" -j route ft 0,0 1,0 | json length)" 3
"$MF" stats ft --reset >/dev/null
check "ping (0,0) -> (1,0) with the link down" \
	sh -c "'$MF' exec ft 0,0 -- ping -c 3 -W 2 $d10 >/dev/null"
pk() { "$MF" -j link show ft "$1" "$2" | json packets; }
check_eq "no frame crossed (0,0) x+" "$(pk 0,0 x+)" 0
check_eq "no frame crossed (1,0) x-" "$(pk 1,0 x-)" 0
check_eq "show: 1 link down" "$("$MF" -j show ft | json down_links)" 1
check "node set ft 2,2 down" "$MF" node set ft 2,2 down
check_eq "show: 5 links down" "$("$MF" -j show ft | json down_links)" 5
b=$("$MF" -j bcast ft --from 0,0)
check_eq "bcast around (2,2): 23 delivered" "$(echo "$b" | json delivered)" 23
check_eq "bcast around (2,2): 1 unreachable" "$(echo "$b" | json unreachable)" 1
pd=$("$MF" -j plan --torus 5x5 --from 0,0 --summary --down 0,0:x+ --down-node 2,2)
check_eq "the kernel's repaired broadcast has plan --down's steps and TCD" \
	"$(echo "$b" | json steps) $(echo "$b" | json tcd)" \
	"$(echo "$pd" | json steps) $(echo "$pd" | json tcd)"
check_eq "bcast reports the fault-free TCD as plan --down does" \
	"$(echo "$b" | json fault_free_tcd)" "$(echo "$pd" | json fault_free_tcd)"
check "bcast --steps around the faults: the tool rebuilds the kernel's repaired schedule" \
	sh -c "'$MF' bcast ft --from 0,0 --steps >/dev/null"
check_rc "ping (2,2) fails" 1 "$MF" exec ft 0,0 -- ping -c 1 -W 1 "$d22"
check "(2,2) has no carrier (ip link: NO-CARRIER)" \
	sh -c "'$IP' -n ft-2-2 link show ft | grep -q NO-CARRIER"
check_rc "route to (2,2) is refused" 1 "$MF" route ft 0,0 2,2
check "node set ft 2,2 up; link set ft 0,0 x+ up" \
	sh -c "'$MF' node set ft 2,2 up && '$MF' link set ft 0,0 x+ up"
check_eq "up: route (0,0) -> (1,0) is 1 hop again" \
	"$("$MF" -j route ft 0,0 1,0 | json length)" 1
check_eq "up: bcast delivers 24" "$("$MF" -j bcast ft --from 0,0 | json delivered)" 24
check "up: (2,2) has its carrier" \
	sh -c "! '$IP' -n ft-2-2 link show ft | grep -q NO-CARRIER"
check "up: ping (2,2)" sh -c "'$MF' exec ft 0,0 -- ping -c 1 -W 2 $d22 >/dev/null"

# issue 21 finding 8: no blackout after a restore.  The review's sequence:
# (0,0) x+ down, the four links of (2,2) down one by one, a ping that
# fails, then all of them up; the first packet after the restore must be
# delivered (the review saw the first `ping -c1 -W2` fail).  Then the
# blackout itself: pings every 100 ms right after the restore, whose
# first answered sequence number must be 0, as for a veth pair whose
# carrier comes back (measured alongside).
down22() {
	"$MF" link set ft 0,0 x+ down &&
	for p in x+ x- y+ y-; do "$MF" link set ft 2,2 $p $1 || return 1; done
}
restore() {
	for p in x+ x- y+ y-; do "$MF" link set ft 2,2 $p up || return 1; done
	"$MF" link set ft 0,0 x+ up
}
first_seq() { sed -n 's/.*seq=\([0-9]*\) .*/\1/p' | head -n 1; }
check "(0,0) x+ and the four links of (2,2) down, one by one" down22 down
check_rc "ping (2,2) fails while they are down" 1 \
	"$MF" exec ft 0,0 -- ping -c 1 -W 1 "$d22"
check "restored" restore
check "the first ping after the restore is answered" \
	sh -c "'$MF' exec ft 0,0 -- ping -c 1 -W 2 $d22 >/dev/null"
down22 down >/dev/null
"$MF" exec ft 0,0 -- ping -c 1 -W 1 "$d22" >/dev/null 2>&1
restore >/dev/null
fab=$("$MF" exec ft 0,0 -- ping -c 20 -i 0.1 -W 1 "$d22" | first_seq)
modprobe veth 2>/dev/null ||
	insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
"$IP" netns add mfva && "$IP" netns add mfvb &&
	"$IP" link add va netns mfva type veth peer name vb netns mfvb &&
	"$IP" -n mfva addr add 10.8.0.1/24 dev va &&
	"$IP" -n mfvb addr add 10.8.0.2/24 dev vb &&
	"$IP" -n mfva link set va up && "$IP" -n mfvb link set vb up
"$IP" netns exec mfva ping -c 1 -W 2 10.8.0.2 >/dev/null 2>&1
"$IP" -n mfvb link set vb down
"$IP" netns exec mfva ping -c 1 -W 1 10.8.0.2 >/dev/null 2>&1
"$IP" -n mfvb link set vb up
veth=$("$IP" netns exec mfva ping -c 20 -i 0.1 -W 1 10.8.0.2 | first_seq)
"$IP" netns del mfva
"$IP" netns del mfvb
note "first answered ping every 100 ms after a restore: fabric seq ${fab:-none}, veth carrier back seq ${veth:-none}"
check_eq "restore: the first packet is delivered (no blackout)" "$fab" 0
check "and no longer a blackout than a veth pair's carrier" \
	test -n "$fab" -a -n "$veth" -a "${fab:-99}" -le "${veth:-0}"

# flapping under load: (1,1) x+ every 100 ms for 10 s while a TCP stream
# (0,1) -> (3,1) crosses it and broadcasts run
if [ -x $IPERF ]; then
	d31=$(addr_of ft 3,1 4)
	"$MF" exec ft 0,1 -- ping -c 1 -W 2 "$d31" >/dev/null
	"$MF" exec ft 3,1 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	"$MF" exec ft 0,1 -- $IPERF -c "$d31" -t 10 >/tmp/flap.$$ 2>&1 &
	i=0
	while [ $i -lt 100 ]; do
		[ $((i % 2)) = 0 ] && s=down || s=up
		"$MF" link set ft 1,1 x+ $s
		[ $((i % 10)) = 0 ] && "$MF" bcast ft --from 4,4 >/dev/null
		sleep 0.1
		i=$((i + 1))
	done
	"$MF" link set ft 1,1 x+ up
	wait
	note "iperf3 under flapping: $(grep receiver /tmp/flap.$$ | awk '{ print $7, $8 }')"
	check "the TCP stream survived the flapping" grep -q receiver /tmp/flap.$$
	check "traffic resumes: ping (0,1) -> (3,1)" \
		sh -c "'$MF' exec ft 0,1 -- ping -c 1 -W 2 $d31 >/dev/null"
else
	nok "iperf3 in the guest"
fi
check "no warning in the kernel log" \
	sh -c "! dmesg | grep -qiE 'WARNING|BUG|Oops|leak'"
"$MF" link set ft 0,0 y+ down >/dev/null
"$MF" node set ft 4,4 down >/dev/null
check "destroy with faults set" "$MF" destroy ft

# routing state and update time on 64x64 with 10 failed links
mkfabric torus 64x64 dor big >/dev/null
# the update's own time: 10 state changes less 10 parameter changes of the
# same links (both pay the tool's start and name lookup under TCG)
nodes="0 9 77 500 1000 2047 2500 3000 3333 4095"
t0=$(uptime_s)
for n in $nodes; do "$MF" link set big "$n" x+ queue 999; done
t1=$(uptime_s)
for n in $nodes; do
	"$MF" link set big "$n" x+ down || nok "link set big $n x+ down"
done
t2=$(uptime_s)
ms=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { d = (c - b) - (b - a); if (d < 0) d = 0; printf "%d", d * 1000 / 10 }')
bytes=$("$MF" -j show big | json fault_bytes)
note "64x64 torus, 10 links down: routing state $bytes bytes; update $ms ms each (link set down: $(awk -v b="$t1" -v c="$t2" 'BEGIN { printf "%d", (c - b) * 100 }') ms, queue: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 100 }') ms per call)"
check "64x64, 10 links down: routing state at most 4 MiB" test "$bytes" -le 4194304
# the issue's 100 ms is native time: the core builds this state in 17-20
# ms on the host (make bench, bench_faults; 19-21 ms with issue 21's
# bounds and index); TCG runs it about 7 times slower (137 ms measured),
# so the guest checks a 500 ms bound, or 3 times one queue call of the
# same run where the host is so loaded that the tool's own call costs
# more (a shared host at load 18: 994 ms per queue call, 2069 ms update)
qms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 100 }')
lim=$((3 * qms > 500 ? 3 * qms : 500))
check "64x64: each update under $lim ms in the TCG guest" test "$ms" -lt "$lim"
check_eq "64x64: route around (0,0) x+ has 3 hops" \
	"$("$MF" -j route big 0,0 1,0 | json length)" 3
check "destroy big" "$MF" destroy big
mkfabric torus 256x256 dor huge >/dev/null
check "256x256: one link down" "$MF" link set huge 0,0 x+ down
check_eq "256x256: route around it has 3 hops" \
	"$("$MF" -j route huge 0,0 1,0 | json length)" 3
check "destroy huge" "$MF" destroy huge

# issue 21: BCAST on a faulted fabric plans, repairs and checks once per
# fault set (cached by its generation), not on every call.  A 16x16 torus
# (BCAST wants every node present), (0,0) x+ and the four links of (5,5)
# down: auto (every candidate repaired and checked) from (0,0) twice,
# then (5,5) x+ up (a new generation: the cache must not answer) and
# twice again.  Each answer must match a breadth-first search of the
# faulted torus written here: its unreachable count, and every other
# node delivered.  Planning time = the ioctl's wall time less the
# executor's elapsed_ns.
check "create --torus 16x16 --name fc" \
	"$MF" create --torus 16x16 --name fc --ipv4 10.10.0.0/16 --no-ipv6
fid=$(fab fc id)
"$MF" link set fc 0,0 x+ down >/dev/null
"$MF" node set fc 5,5 down >/dev/null
# bfs "X,Y:X,Y ...": nodes of the 16x16 torus (0,0) cannot reach with
# those links down
bfs() {
	awk -v down="$1" 'BEGIN {
		n = 16; split(down, d, " ")
		for (i in d) { split(d[i], e, ":"); cut[e[1] ":" e[2]] = 1; cut[e[2] ":" e[1]] = 1 }
		seen[0] = 1; q[0] = 0; h = 0; t = 1
		while (h < t) {
			v = q[h++]; x = v % n; y = int(v / n)
			nb[0] = (x + 1) % n + y * n; nb[1] = (x + n - 1) % n + y * n
			nb[2] = x + ((y + 1) % n) * n; nb[3] = x + ((y + n - 1) % n) * n
			for (k = 0; k < 4; k++) {
				w = nb[k]
				if (w in seen) continue
				if ((x "," y ":" (w % n) "," int(w / n)) in cut) continue
				seen[w] = 1; q[t++] = w
			}
		}
		print n * n - t
	}'
}
# fbcast: one auto BCAST from node 0 of fc: "plan_ms unreachable delivered"
fbcast() {
	"$MFCTL" ioctl "$fid" BCAST source=0 algo=0 @unreachable @delivered \
		@elapsed_ns time | awk '$1 == 0 { printf "%.1f %d %d\n", ($5 - $4) / 1e6, $2, $3; ok = 1 }
		END { if (!ok) print "- - -" }'
}
b1=$(fbcast) b2=$(fbcast)
"$MF" link set fc 5,5 x+ up >/dev/null
b3=$(fbcast) b4=$(fbcast)
note "16x16 auto BCAST (plan ms, unreachable, delivered): 5 links down: $b1 then $b2;" \
	"(5,5) x+ up: $b3 then $b4"
u1=$(bfs "0,0:1,0 5,5:6,5 5,5:4,5 5,5:5,6 5,5:5,4")
u3=$(bfs "0,0:1,0 5,5:4,5 5,5:5,6 5,5:5,4")
check_eq "BFS of the faulted torus: (5,5) cut off, then reachable" "$u1 $u3" "1 0"
r() { echo "$1" | cut -d' ' -f2-; }
check_eq "both BCASTs on the first fault set: $u1 unreachable, the others delivered" \
	"$(r "$b1") / $(r "$b2")" "$u1 $((255 - u1)) / $u1 $((255 - u1))"
check_eq "both BCASTs after (5,5) x+ up: $u3 unreachable (no stale cache)" \
	"$(r "$b3") / $(r "$b4")" "$u3 $((255 - u3)) / $u3 $((255 - u3))"
# measured (TCG guest, host load 15): first 9.3-57.8 ms, second 0.2-0.3
# ms; after the change 3.2-28.3 ms, then 0.2 ms.  main before the cache,
# same scenario: 37.2, 17.2, 13.5 ms, every call planning again
check "the second BCAST on the same faults plans in under half the first's time" \
	awk -v a="${b1%% *}" -v b="${b2%% *}" 'BEGIN { exit !(b < a / 2) }'
check "and again after the change" \
	awk -v a="${b3%% *}" -v b="${b4%% *}" 'BEGIN { exit !(b < a / 2) }'
check "destroy fc" "$MF" destroy fc
check "rmmod" unload
check "nothing left allocated" sh -c "! lsmod | grep -q '^meshfabric '"
