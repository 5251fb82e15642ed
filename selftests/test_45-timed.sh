# SPDX-License-Identifier: GPL-2.0
# Issue 11: timed links.  On a 7x7 torus with 100 Mbit/s and 1 ms links:
# ping RTT across h = 1..4 hops, less the same path's RTT on 1000 Gbit/s
# links without delay (the guest's own stack and timer time), is 2h(1 ms + ser) (store-and-forward) and
# 2(h ms + ser) (cut-through) within 15% (least of 10 pings; measured
# under TCG: 2-10% off); broadcasts' fabric time equals `meshfabric plan`'s to the
# nanosecond (sync and async, both switchings, with and without
# contention); UDP and TCP through a 10 Mbit/s link stay below 10 Mbit/s
# and within 10% of it; a 10% loss link drops within binomial bounds and
# counts every frame; a full queue drops and counts; destroy with frames
# in flight.
. ./lib.sh
MF=${MF:-meshfabric}
IPERF=/usr/bin/iperf3
load
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
# within GOT WANT PERCENT
within() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'; }
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
	"$("$MF" link show tl 0,0 x+ | awk 'NR == 2 { print $6, $8 }')" "100Mbit 1ms"
check_rc "link set: rate 2x is refused" 2 "$MF" link set tl 0,0 x+ rate 2x
check_rc "link set: loss 101% is refused" 2 "$MF" link set tl 0,0 x+ loss 101%
check_rc "link set: delay 11s is refused" 2 "$MF" link set tl 0,0 x+ delay 11s
check_rc "link set: unknown port" 2 "$MF" link set tl 0,0 z+ rate 1mbit
check_rc "link set: nothing to set" 2 "$MF" link set tl 0,0 x+
check_eq "a refused link set changed nothing" \
	"$("$MF" link show tl 0,0 x+ | awk 'NR == 2 { print $6, $8 }')" "100Mbit 1ms"
h=1
for node in $nodes; do
	dst=$(addr_of tl "$node" 4)
	for size in 56 1372; do
		# frame: ICMP payload + 8 + IP 20 + Ethernet 14
		ser=$(( (size + 42) * 8 * 10 ))	# ns at 100 Mbit/s
		want=$(( 2 * h * (1000000 + ser) / 1000 ))
		eval "base=\$base_${size}_$(echo $node | tr , _)"
		got=$(( $(rtt "$size" "$dst") - base ))
		note "store-and-forward, $h hops, $size B: RTT - RTT at 1000 Gbit/s ($base us) = $got us, model $want us"
		check "ping $h hops ${size} B: RTT within 15% of 2h(1ms + ser)" \
			within "$got" "$want" 15
	done
	h=$((h + 1))
done
"$MF" link set tl all all switching cut-through >/dev/null
dst=$(addr_of tl 3,1 4)
ser=$(( 1414 * 8 * 10 ))
want=$(( 2 * (4000000 + ser) / 1000 ))
got=$(( $(rtt 1372 "$dst") - base_1372_3_1 ))
note "cut-through, 4 hops, 1372 B: RTT - RTT at 1000 Gbit/s = $got us, model $want us"
check "cut-through: RTT within 15% of 2(h ms + ser)" within "$got" "$want" 15

# broadcasts: the kernel's fabric time is plan's on an idle fabric
for sw in store-and-forward cut-through; do
	"$MF" link set tl all all switching $sw >/dev/null
	for mode in sync async; do
		for algo in tsay-wang binomial flood; do
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
	"$MF" link set tp 1,0 x+ rate 10mbit queue 100 >/dev/null
	dst=$(addr_of tp 2,0 4)
	"$MF" exec tp 0,0 -- ping -c 1 -W 2 "$dst" >/dev/null
	"$MF" exec tp 2,0 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	r=$("$MF" exec tp 0,0 -- $IPERF -c "$dst" -u -b 20M -l 1400 -t 4 2>&1 |
		awk '/receiver/ { v = $7; u = $8 } END { if (u ~ /^K/) v /= 1000; print v }')
	note "UDP at 20 Mbit/s into a 10 Mbit/s link: received $r Mbit/s"
	check "UDP through 10 Mbit/s: within 10% below, never above" \
		awk -v r="$r" 'BEGIN { exit !(r >= 9 && r <= 10) }'
	"$MF" exec tp 2,0 -- $IPERF -s -D -1 >/dev/null
	sleep 1
	r=$("$MF" exec tp 0,0 -- $IPERF -c "$dst" -t 5 -O 1 2>&1 |
		awk '/receiver/ { v = $7; u = $8 } END { if (u ~ /^K/) v /= 1000; print v }')
	note "TCP through a 10 Mbit/s link: $r Mbit/s"
	check "TCP through 10 Mbit/s: within 10% below, never above" \
		awk -v r="$r" 'BEGIN { exit !(r >= 9 && r <= 10) }'
	check "destroy tp" "$MF" destroy tp
else
	nok "iperf3 in the guest"
fi

# loss and queue limits on a 2-node line
"$MF" create --mesh 2 --name lq --ipv4 10.7.0.0/16 --no-ipv6 >/dev/null
dst=$(addr_of lq 1 4)
"$MF" exec lq 0 -- ping -c 1 -W 2 "$dst" >/dev/null
"$MF" link set lq 0 x+ loss 10% >/dev/null
"$MF" stats lq --reset >/dev/null
/mf/selftests/mfflood flood lq-0 "$dst" 2 200 >/dev/null 2>&1
set -- $("$MF" -j link show lq 0 x+ | sed 's/.*"packets":\([0-9]*\).*"drop_loss":\([0-9]*\),"drop_queue":\([0-9]*\).*/\1 \2 \3/')
n=$(($1 + $2))
note "10% loss: $2 lost of $n frames"
check "loss 10%: lost within 5 standard deviations of n/10" \
	awk -v n="$n" -v l="$2" 'BEGIN { d = l - n / 10; exit !(n > 500 && d * d < 25 * n * 0.09) }'
"$MF" link set lq 0 x+ loss 0 rate 1mbit queue 5 >/dev/null
"$MF" stats lq --reset >/dev/null
/mf/selftests/mfflood flood lq-0 "$dst" 1 200 >/dev/null 2>&1
set -- $("$MF" -j link show lq 0 x+ | sed 's/.*"packets":\([0-9]*\).*"drop_loss":\([0-9]*\),"drop_queue":\([0-9]*\).*/\1 \2 \3/')
note "queue 5 at 1 Mbit/s, 1 s flood: $1 sent, $3 refused"
check "a full queue drops and counts" test "$3" -gt 0
check "at most 1 s of 1 Mbit/s plus the queue crossed" test "$1" -le $((1000000 / (242 * 8) * 2 + 5))
# frames in flight at destroy: 1 s of delay
"$MF" link set lq all all delay 1s rate 0 >/dev/null
"$MF" exec lq 0 -- ping -c 2 -W 1 "$dst" >/dev/null 2>&1 &
sleep 0.5
check "destroy lq with frames in flight" "$MF" destroy lq
wait
check "no fabric objects left" test "$(allocated)" = 0
