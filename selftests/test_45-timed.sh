# SPDX-License-Identifier: GPL-2.0
# Issue 11: timed links.  On a 7x7 torus with 100 Mbit/s and 1 ms links:
# ping RTT across h = 1..4 hops, less the same path's RTT on 1000 Gbit/s
# links without delay (the guest's own stack and timer time), is 2h(1 ms + ser) (store-and-forward) and
# 2(h ms + ser) (cut-through) within 20% or 500 us (least of 10 pings; measured
# under TCG: 2-10% off, once 16%; a miss under 1 ms measures the base and
# the path again, up to 3 tries, as CI once saw 1 hop +722 us); broadcasts' fabric time equals `meshfabric plan`'s to the
# nanosecond (sync and async, both switchings, with and without
# contention); UDP and TCP through a 10 Mbit/s link stay below 10 Mbit/s
# (TCP: the link busy at most 100%, the receiver within 5%) and within
# 10% of it; a 1% loss link drops within binomial bounds and
# counts every frame; a full queue drops and counts; destroy with frames
# in flight.  The wall-clock bounds (RTT, rates, fan-out) are the stock
# kernel's: on the debug kernel a miss is a SKIP (check_timed); the
# fabric-time checks, computed by the model, stay exact on every kernel.
. ./lib.sh
MF=${MF:-meshfabric}
IPERF=/usr/bin/iperf3
load
# mid FILE: the receiver's Mbit/s over the middle of an iperf3 test, from
# the server's own one-second intervals (--get-server-output) between 1 s
# and 5 s: the test's ends are not the link's (slow start; at the end the
# client's TEST_END crosses the same full queue and may wait for a
# retransmission while the link idles)
mid() {
	awk '/Server output/ { s = 1 } s && / sec / && $3 ~ /^[0-9.]+-[0-9.]+$/ {
		split($3, t, "-"); if (t[1] + 0 >= 1 && t[2] + 0 <= 5) {
			v = $7; if ($8 ~ /^K/) v /= 1000; sum += v; n++ } }
		END { if (n) printf "%.2f", sum / n; else print 0 }' "$1"
}
# sent FILE: the same for the client's intervals (what it offered)
sent() {
	awk '/Server output/ { exit } / sec / && $3 ~ /^[0-9.]+-[0-9.]+$/ {
		split($3, t, "-"); if (t[1] + 0 >= 1 && t[2] + 0 <= 5) {
			v = $7; if ($8 ~ /^K/) v /= 1000; sum += v; n++ } }
		END { if (n) printf "%.2f", sum / n; else print 0 }' "$1"
}
json() {	# json KEY: the first numeric value of KEY in stdin
	sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1
}
arr() {		# arr KEY: the array KEY of stdin, as "a,b,c"
	sed -n "s/.*\"$1\":\[\([0-9,]*\)\].*/\1/p" | head -n 1
}
# rtt SIZE DST: the least RTT in us of 10 pings after a warm-up one (the
# least: the guest's own stack time under TCG varies by 0.5-2 ms)
rtt() {
	"$MF" exec tl 0,0 -- ping -c 1 -W 2 -s "$1" "$2" >/dev/null
	"$MF" exec tl 0,0 -- ping -c 10 -i 0.2 -W 2 -s "$1" "$2" |
		sed -n 's|.*= \([0-9.]*\)/.*|\1|p' | awk '{ printf "%d", $1 * 1000 }'
}
# within GOT WANT PERCENT: |GOT - WANT| <= PERCENT of WANT, or 500 us: the
# guest's timer jitter under TCG, which 15% of a 1-hop RTT (300 us) does
# not cover (measured on the least of 10 pings, 1 hop, 1372 B: +310 us in
# one run, +442 us in a fresh-clone CI run with the host otherwise idle;
# 2- to 4-hop paths mostly within 7%, but once +1077 us, 16%, at 3 hops,
# 1372 B on the 6.12 guest, the host otherwise idle: hence 20%)
# (FLOOR, default 500: within GOT WANT 0 1000 is |GOT - WANT| <= 1000 us)
within() { awk -v g="$1" -v w="$2" -v p="$3" -v f="${4:-500}" 'BEGIN { d = g - w; if (d < 0) d = -d; t = w * p / 100; if (t < f) t = f; exit !(d <= t) }'; }
# the stack's own RTT, and the timer's: timed links of 1000 Gbit/s, no
# delay (the model's time is then below 1 us)
check "create --torus 7x7 --link-rate 1000gbit" \
	"$MF" create --torus 7x7 --name tl --ipv4 10.5.0.0/16 --no-ipv6 \
	--link-rate 1000gbit
nodes="1,0 2,0 3,0 3,1"
for node in $nodes; do
	dst=$(addr_of tl "$node" 4)
	for size in 56 1372; do
		eval "base_${size}_$(echo $node | tr , _)=$(rtt $size $dst)"
	done
done
check "link set all all rate 100mbit delay 1ms" \
	"$MF" link set tl all all rate 100mbit delay 1ms
check_eq "link show: (0,0) x+ has rate 100Mbit delay 1ms" \
	"$("$MF" link show tl 0,0 x+ | awk 'NR == 2 { print $7, $9 }')" "100Mbit 1ms"
# every link (a line "NODE PORT -> PEER: up rate R delay D ..." each,
# then its counters): 7 x 7 nodes, 4 ports each
check_eq "link show: all $((7 * 7 * 4)) links have rate 100Mbit delay 1ms" \
	"$("$MF" link show tl | awk '$3 == "->" { n++; if ($7 != "100Mbit" || $9 != "1ms") bad++ }
		END { print n, bad + 0 }')" "$((7 * 7 * 4)) 0"
check_rc "link set: rate 2x is refused" 2 "$MF" link set tl 0,0 x+ rate 2x
check_rc "link set: loss 101% is refused" 2 "$MF" link set tl 0,0 x+ loss 101%
check_rc "link set: delay 11s is refused" 2 "$MF" link set tl 0,0 x+ delay 11s
check_rc "link set: unknown port" 2 "$MF" link set tl 0,0 z+ rate 1mbit
check_rc "link set: nothing to set" 2 "$MF" link set tl 0,0 x+
check_eq "a refused link set changed nothing" \
	"$("$MF" link show tl 0,0 x+ | awk 'NR == 2 { print $7, $9 }')" "100Mbit 1ms"
h=1
for node in $nodes; do
	dst=$(addr_of tl "$node" 4)
	for size in 56 1372; do
		# frame: ICMP payload + 8 + IP 20 + Ethernet 14
		ser=$(( (size + 42) * 8 * 10 ))	# ns at 100 Mbit/s
		want=$(( 2 * h * (1000000 + ser) / 1000 ))
		bvar=base_${size}_$(echo $node | tr , _)
		eval "base=\$$bvar"
		try=1
		while :; do
			got=$(( $(rtt "$size" "$dst") - base ))
			note "store-and-forward, $h hops, $size B, try $try: RTT - RTT at 1000 Gbit/s ($base us) = $got us, model $want us"
			within "$got" "$want" 20 && break
			# the guest's speed drifts (a CI run: +722 us at 1 hop,
			# +358 and -1 us at 4 hops): measure the base again
			# beside the timed path, then the path.  Not for a miss
			# of 1 ms or more, a hop's delay in one direction: that
			# fails at once.  The tries are for 1 and 2 hops, where
			# 20% is 403 to 890 us; at 3 and 4 hops it is over 1.2 ms
			[ $try -lt 3 ] && within "$got" "$want" 0 1000 || break
			"$MF" link set tl all all rate 1000gbit delay 0 >/dev/null &&
				base=$(rtt "$size" "$dst") &&
				"$MF" link set tl all all rate 100mbit delay 1ms >/dev/null ||
				{ nok "link set for a second try"; break; }
			eval "$bvar=\$base"
			try=$((try + 1))
		done
		check_timed "ping $h hops ${size} B: RTT within 20% of 2h(1ms + ser)" \
			within "$got" "$want" 20
	done
	h=$((h + 1))
done
"$MF" link set tl all all switching cut-through >/dev/null
dst=$(addr_of tl 3,1 4)
ser=$(( 1414 * 8 * 10 ))
want=$(( 2 * (4000000 + ser) / 1000 ))
got=$(( $(rtt 1372 "$dst") - base_1372_3_1 ))
note "cut-through, 4 hops, 1372 B: RTT - RTT at 1000 Gbit/s = $got us, model $want us"
check_timed "cut-through: RTT within 20% of 2(h ms + ser)" within "$got" "$want" 20

# broadcasts: the kernel's fabric time is plan's on an idle fabric
for sw in store-and-forward cut-through; do
	"$MF" link set tl all all switching $sw >/dev/null
	for mode in sync async; do
		for algo in tsay-wang binomial flood auto; do
			k=$("$MF" -j bcast tl --from 2,3 --algo $algo --mode $mode --size 100)
			p=$("$MF" -j plan --torus 7x7 --from 2,3 --algo $algo --mode $mode \
				--size 100 --link-rate 100mbit --link-delay 1ms \
				--switching $sw --summary)
			kt=$(echo "$k" | json fabric_time_ns)
			pt=$(echo "$p" | json fabric_time_ns)
			note "$sw $mode $algo: kernel $kt ns, plan $pt ns"
			check_eq "bcast $algo $mode $sw: fabric time = plan's" "$kt" "$pt"
			check_eq "bcast $algo $mode $sw: step times = plan's" \
				"$(echo "$k" | arr step_ns)" "$(echo "$p" | arr step_ns)"
			check_eq "bcast $algo $mode $sw: the algorithm plan ran" \
				"$(echo "$k" | sed -n 's/.*"algo":"\([^"]*\)".*/\1/p')" \
				"$(echo "$p" | sed -n 's/.*"algo":"\([^"]*\)".*/\1/p')"
			check_eq "bcast $algo $mode $sw: 48 delivered" \
				"$(echo "$k" | json delivered)" 48
		done
	done
done
check "destroy tl" "$MF" destroy tl

# throughput through a 10 Mbit/s link (2 hops of 100 Mbit/s, then 10)
if [ -x $IPERF ]; then
	"$MF" create --torus 4x4 --name tp --ipv4 10.6.0.0/16 --no-ipv6 \
		--link-rate 100mbit --link-delay 100us >/dev/null
	dst=$(addr_of tp 2,0 4)
	"$MF" exec tp 0,0 -- ping -c 1 -W 2 "$dst" >/dev/null
	# the path at 100 Mbit/s: UDP offered at 150 Mbit/s, and TCP; each
	# gets min(R, what its sender manages in the TCG guest), never more.
	# Both vCPUs run on one host thread (scripts/vm.sh), so the sender
	# can starve the receiver: a CI-like full run received 66.10 Mbit/s
	# of 120.38 sent (96.95 of 150.25 in the run before).  A run below
	# is run again, up to 3 tries; a run above R fails at once
	udp_ok() { awk -v r="$1" -v o="$2" 'BEGIN { w = o < 97.1 ? o : 97.1; exit !(r >= 0.9 * w && r <= 100) }'; }
	try=1
	while :; do
		"$MF" exec tp 2,0 -- $IPERF -s -D -1 >/dev/null
		sleep 1
		"$MF" exec tp 0,0 -- $IPERF -c "$dst" -u -b 150M -l 1400 -t 6 \
			--get-server-output >/tmp/udp100.$$ 2>&1
		r=$(mid /tmp/udp100.$$) o=$(sent /tmp/udp100.$$)
		note "UDP at 150 Mbit/s into 100 Mbit/s links, try $try: received $r Mbit/s (the sender managed $o)"
		udp_ok "$r" "$o" && break
		awk -v r="$r" 'BEGIN { exit !(r <= 100) }' && [ $try -lt 3 ] || break
		try=$((try + 1))
	done
	check_timed "UDP through 100 Mbit/s: within 10% below min(R, offered), never above" \
		udp_ok "$r" "$o"
	"$MF" exec tp 2,0 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	"$MF" exec tp 0,0 -- $IPERF -c "$dst" -t 6 --get-server-output >/tmp/tcp100.$$ 2>&1
	r=$(mid /tmp/tcp100.$$)
	note "TCP through 100 Mbit/s links: $r Mbit/s"
	check "TCP through 100 Mbit/s: never above R" \
		awk -v r="$r" 'BEGIN { exit !(r > 0 && r <= 100) }'
	# a queue of 1000 frames (1.15 s at 10 Mbit/s) bridges the sender's
	# stalls under TCG: with 100 (0.12 s) the link idled now and then
	"$MF" link set tp 1,0 x+ rate 10mbit >/dev/null
	"$MF" exec tp 2,0 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	"$MF" exec tp 0,0 -- $IPERF -c "$dst" -u -b 20M -l 1400 -t 6 \
		--get-server-output >/tmp/udp.$$ 2>&1
	r=$(mid /tmp/udp.$$)
	note "UDP at 20 Mbit/s into a 10 Mbit/s link: received $r Mbit/s"
	check_timed "UDP through 10 Mbit/s: within 10% below, never above" \
		awk -v r="$r" 'BEGIN { exit !(r >= 9 && r <= 10) }'
	"$MF" exec tp 2,0 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	busy0=$("$MF" -j link show tp 1,0 x+ | sed 's/.*"now_ns":\([0-9]*\).*"busy_ns":\([0-9]*\).*/\1 \2/')
	"$MF" exec tp 0,0 -- $IPERF -c "$dst" -t 6 --get-server-output >/tmp/tcp.$$ 2>&1
	r=$(mid /tmp/tcp.$$)
	busy1=$("$MF" -j link show tp 1,0 x+ | sed 's/.*"now_ns":\([0-9]*\).*"busy_ns":\([0-9]*\).*/\1 \2/')
	"$MF" stats tp --svg /tmp/busy.$$.svg --svg-by busy >/dev/null
	us=$(( $("$MF" -j link show tp 1,0 x+ | json busy_ns) / 1000 ))
	check "stats --svg-by busy colours by busy time: the busiest link is (1,0) x+" \
		grep -q "busiest $us us busy" /tmp/busy.$$.svg
	busy=$(echo $busy0 $busy1 | awk '{ printf "%.1f", ($4 - $2) * 100 / ($3 - $1) }')
	note "TCP through a 10 Mbit/s link: $r Mbit/s; the link was busy $busy% of the time"
	# never above: the link's own busy time; the receiver's 1 s
	# intervals run on the guest's clock (10.21 Mbit/s measured with the
	# link busy 94.2%), hence 5% over R there
	check_timed "TCP through 10 Mbit/s: within 10% below, never above" \
		awk -v r="$r" -v b="$busy" 'BEGIN { exit !(r >= 9 && r <= 10.5 && b > 0 && b <= 100) }'
	# two paced UDP flows of 6 Mbit/s through (1,0) x+ (12 into 10):
	# about R/2 each; then two of 12 Mbit/s on disjoint 10 Mbit/s links,
	# (1,0) x+ and (0,2) x+: about R each.  Queues of 1000 frames take
	# 5.8 s to fill at 12 into 10 Mbit/s, so the clients' control
	# connections (TCP through the same links) are not refused.  (Unpaced
	# floods share a FIFO link by the rate each offers: hence paced flows.)
	"$MF" link set tp 0,2 x+ rate 10mbit >/dev/null
	d2=$(addr_of tp 3,0 4)
	d3=$(addr_of tp 1,2 4)
	for p in "0,0 $dst" "1,0 $d2" "0,2 $d3"; do
		set -- $p
		"$MF" exec tp "$1" -- ping -c 1 -W 2 "$2" >/dev/null
	done
	udp() {	# udp NODE DST PORT RATE: a 6 s paced flow
		"$MF" exec tp "$1" -- $IPERF -c "$2" -p "$3" -u -b "$4" -l 1400 -t 6 \
			--get-server-output >/tmp/u$3.$$ 2>&1
	}
	mbit() { mid /tmp/u$1.$$; }
	# flows RATE "NODE DST PORT SERVER" "NODE DST PORT SERVER": two
	# paced flows at once, each to an iperf3 server on node SERVER
	# A client that reports no interval at all (mid prints "0", not
	# "0.00") never ran: its control connection failed, which is not
	# what the check is about; the pair is then run once more.
	flows() {
		_rate=$1 _a=$2 _b=$3
		for _try in 1 2; do
			for _f in "$_a" "$_b"; do
				set -- $_f
				"$MF" exec tp "$4" -- $IPERF -s -p "$3" -D -1 >/dev/null
			done
			sleep 1
			for _f in "$_a" "$_b"; do
				set -- $_f
				udp "$1" "$2" "$3" "$_rate" &
			done
			wait
			_ran=1
			for _f in "$_a" "$_b"; do
				set -- $_f
				if [ "$(mbit "$3")" = 0 ]; then
					_ran=0
					# its one-off server still listens: the
					# next try's client finds it there
					note "flow to port $3 did not run: $(tail -n 1 /tmp/u$3.$$)"
				fi
			done
			[ $_ran = 1 ] && break
		done
	}
	flows 6M "0,0 $dst 5301 2,0" "1,0 $d2 5302 3,0"
	f1=$(mbit 5301) f2=$(mbit 5302)
	note "two paced flows of 6 Mbit/s through one 10 Mbit/s link: $f1 and $f2 Mbit/s"
	check_timed "two flows sharing a link: each within 20% of R/2, together at most R" \
		awk -v a="$f1" -v b="$f2" 'BEGIN { exit !(a > 3.88 && a < 5.82 && b > 3.88 && b < 5.82 && a + b <= 10) }'
	flows 12M "0,0 $dst 5301 2,0" "0,2 $d3 5303 1,2"
	f1=$(mbit 5301) f3=$(mbit 5303) o1=$(sent /tmp/u5301.$$) o3=$(sent /tmp/u5303.$$)
	note "two flows of 12 Mbit/s on disjoint 10 Mbit/s links: $f1 and $f3 Mbit/s (the senders managed $o1 and $o3)"
	# each gets min(what its sender offered, R's 9.71 Mbit/s of payload)
	check_timed "flows on disjoint links: each within 10% below min(R, offered), never above R" \
		awk -v a="$f1" -v b="$f3" -v oa="$o1" -v ob="$o3" 'BEGIN {
			wa = oa < 9.71 ? oa : 9.71; wb = ob < 9.71 ? ob : 9.71
			exit !(a >= 0.9 * wa && a <= 10 && b >= 0.9 * wb && b <= 10) }'
	check "destroy tp" "$MF" destroy tp
else
	nok "iperf3 in the guest"
fi

# loss and queue limits on a 2-node line
"$MF" create --mesh 2 --name lq --ipv4 10.7.0.0/16 --no-ipv6 >/dev/null
dst=$(addr_of lq 1 4)
"$MF" exec lq 0 -- ping -c 1 -W 2 "$dst" >/dev/null
"$MF" link set lq 0 x+ loss 1% >/dev/null
"$MF" stats lq --reset >/dev/null
# 2 s floods until more than 5000 frames went (one flood on the stock
# kernel; the debug kernel sends about 600 a second)
k=0
while :; do
	"$IP" netns exec lq-0 "$MFCTL" flood "$dst" 2 200 >/dev/null 2>&1
	set -- $("$MF" -j link show lq 0 x+ | sed 's/.*"packets":\([0-9]*\).*"drop_loss":\([0-9]*\),"drop_queue":\([0-9]*\).*/\1 \2 \3/')
	n=$(($1 + $2)) k=$((k + 1))
	[ "$n" -le 5000 ] && [ $k -lt 20 ] || break
done
note "1% loss: $2 lost of $n frames"
check_eq "ethtool -S portx+_tx_drop_loss counts them too" \
	"$("$IP" netns exec lq-0 ethtool -S lq | awk '$1 == "portx+_tx_drop_loss:" { print $2 }')" "$2"
check_eq "stats counts the losses as link show does" \
	"$("$MF" -j stats lq | sed -n 's/.*"dropped":\([0-9]*\).*/\1/p')" "$2"
check "loss 1%: lost within 5 standard deviations of n/100 (binomial)" \
	awk -v n="$n" -v l="$2" 'BEGIN { d = l - n / 100; exit !(n > 5000 && d * d < 25 * n * 0.0099) }'
"$MF" link set lq 0 x+ loss 0 rate 1mbit queue 5 >/dev/null
"$MF" stats lq --reset >/dev/null
"$MF" -j monitor lq --interval 1 --count 1 >/tmp/mon.$$ &
"$IP" netns exec lq-0 "$MFCTL" flood "$dst" 1 200 >/dev/null 2>&1
wait
set -- $("$MF" -j link show lq 0 x+ | sed 's/.*"packets":\([0-9]*\).*"drop_loss":\([0-9]*\),"drop_queue":\([0-9]*\).*/\1 \2 \3/')
note "queue 5 at 1 Mbit/s, 1 s flood: $1 sent, $3 refused"
check "a full queue drops and counts" test "$3" -gt 0
dps=$(sed -n 's/.*"node":0,"port":0,[^}]*"dps":\([0-9]*\).*/\1/p' /tmp/mon.$$)
note "monitor: (0) x+ dropped ${dps:-?} frames/s"
check "monitor shows the drops per second" test "${dps:-0}" -gt 0
check "at most 1 s of 1 Mbit/s plus the queue crossed" test "$1" -le $((1000000 / (242 * 8) * 2 + 5))
# frames in flight at destroy: 1 s of delay
"$MF" link set lq all all delay 1s rate 0 >/dev/null
"$MF" exec lq 0 -- ping -c 2 -W 1 "$dst" >/dev/null 2>&1 &
sleep 0.5
check "destroy lq with frames in flight" "$MF" destroy lq
wait
check_eq "no fabric objects left" "$(allocated_settled)" 0

# 004 in wall time: on a 7x7 torus of 1 Mbit/s links, a fan-out of 48
# datagrams of 1400 B from (0,0) ends when the root link carrying the
# largest subtree of the routing's communication graph (analyze) has sent
# its frames: about 21 serialisations with dor, 12 with diagonal.
ser=$(( 1442 * 8 * 1000 ))	# ns: 1400 B + UDP 8 + IP 20 + Ethernet 14
for routing in dor diagonal; do
	sub=$("$MF" -j analyze --torus 7x7 --routing $routing |
		sed 's/},{/\n/g' | sed -n 's/.*"size":\([0-9]*\).*/\1/p' | sort -n | tail -n 1)
	"$MF" create --torus 7x7 --name fo --routing $routing --ipv4 10.8.0.0/16 \
		--no-ipv6 --link-rate 1mbit >/dev/null
	us=$(/mf/selftests/fanout udp fo fo-0-0 1400 2 2>/dev/null |
		awk '$4 == 2 { for (i = 1; i < NF; i++) if ($i == "us") print $(i + 1) }')
	n=$(awk -v us="$us" -v s="$ser" 'BEGIN { printf "%.1f", us * 1000 / s }')
	note "fan-out, $routing: $us us = $n serialisations; largest subtree $sub"
	check_timed "fan-out with $routing takes the largest subtree ($sub) to sub + 6 serialisations" \
		awk -v n="$n" -v s="$sub" 'BEGIN { exit !(n >= s && n <= s + 6) }'
	eval "fo_$routing=$n"
	"$MF" destroy fo >/dev/null
done
check_timed "fan-out: dor / diagonal = 21/12 within 15%" \
	awk -v a="$fo_dor" -v b="$fo_diagonal" 'BEGIN { r = a / b / (21 / 12); exit !(r > 0.85 && r < 1.15) }'
