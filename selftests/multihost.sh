#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# multihost.sh - one guest's side of the two-guest test (run by
# scripts/multihost-test.sh through scripts/vm2.sh; MF_VM2_ROLE a or b).
# A 4x4 torus, fabric id 7, split in two slabs: guest a holds part 0
# (x = 0, 1), guest b part 1 (x = 2, 3); 8 cut links.  Steps, the guests
# meeting at marks (an address 192.168.77.N one of them adds to its NIC
# and the other waits for: the underlay, never the fabric, so that the
# fabric's counters see only the workload):
#   1. both create their part; the nodes' MTU must be 1434 (1500 - 66)
#   2. a: node 0,0 pings node 2,0 across the cut with ARP (a node
#      broadcast that must cross the tunnel and be answered)
#   3. both: static neighbours for every cross pair, counters reset
#   4. a: every node of a pings every node of b (64 pairs), one ping each
#   5. both print their link counters (COUNTERS-A, COUNTERS-B lines)
#   5b. BCAST offload across the cut: counters reset, a broadcasts from
#      0,0 and then b from 3,3, with every algorithm of the module that
#      covers a 4x4 torus (those `meshfabric plan` builds); each guest
#      checks that each of its nodes received one frame per broadcast not
#      its own (node netdevs' rx_packets), that a broadcast from the other
#      part's node is refused, and prints BCAST-A / BCAST-B counters
#   6. a: a TCP stream (iperf3, 3 s) from node 1,0 to node 2,1 across
#      the 1500-byte underlay; the tunnel's counters; b: its tunnel took
#      fewer than half as many datagrams as its NIC took frames (GRO),
#      and its timed link 2,0 -> 2,1 counted the segments, not the
#      merged frames
#   7. a destroys its part: b's keepalive (1 s) must take its cut links
#      down; a then runs the same workload on the whole fabric alone and
#      prints COUNTERS-REF, which the host compares with A + B; and the
#      same broadcasts on the whole fabric alone: BCAST-REF.
#   5c. collectives across the cut (a runs them: an allreduce planned by
#      the tool, a reduce to 3,3 and a broadcast from 2,0, b's nodes,
#      planned by the kernel, of frames above the nodes' MTU): each
#      result checked by the kernel and the tool; COLL-A / COLL-B link
#      counters and COLLRX-A / COLLRX-B frames each node received, which
#      the host compares with the same collectives on the whole fabric
#      alone (COLL-REF, COLLRX-REF).
#   8. a drives b (selftests/mfrsh as MF_SSH, b serving it on TCP 2222):
#      create --drive with b's tool failing must name b's failure and
#      leave no part on a; then create --drive makes both parts (a ping
#      across the cut, a BCAST of 65449 bytes, the most one datagram
#      carries, taken by b's tunnel), then on timed links (3 s on a,
#      2 s on b) a BCAST whose fabric time is plan's and whose frames
#      reach b's nodes in two waves at a's times (b's timed queue, its
#      model shifted onto a's), and destroy --drive removes both.
#   9. the same over an IPv6 underlay (fd77::1, fd77::2): node MTU 1414,
#      a ping across the cut, a BCAST of 65470 bytes refused and one of
#      65469 (the most over IPv6) taken by b's tunnel.
# The host side asserts; this script prints "multihost: ok ..." and
# "multihost: FAIL ..." lines and exits non-zero on a failure it sees.
set -u
IP=/usr/sbin/ip
MF=/mf/meshfabric
ID=7
fails=0
ok() { echo "multihost: ok $*"; }
fail() { echo "multihost: FAIL $*"; fails=$((fails + 1)); }
mark() { $IP addr add 192.168.77."$1"/32 dev eth0; }
await() {
	n=0
	until ping -c1 -W1 192.168.77."$1" >/dev/null 2>&1; do
		n=$((n + 1))
		if [ $n -ge 400 ]; then
			fail "waited 400 s for mark $1"
			exit 1
		fi
	done
}
now() { cut -d' ' -f1 /proc/uptime; }
# the module's algorithms that cover a 4x4 torus (the tool's planner
# says, offline)
ALGOS=
for al in eyes hex tree binomial flood tsay-wang; do
	$MF plan --torus 4x4 --algo $al >/dev/null 2>&1 && ALGOS="$ALGOS $al"
done
# frames the node netdevs of part $1 (all: every node) received, "x,y=N"
rx_of() {
	for a in $(if [ "$1" = all ]; then nodes_of 0; nodes_of 1; else nodes_of "$1"; fi); do
		echo "$a=$($IP netns exec mh-${a%,*}-${a#*,} cat /sys/class/net/mh/statistics/rx_packets)"
	done
}
# no link down: on a loaded host a late keepalive takes the cut links
# down for a moment (the hosts' schedules would differ: each repairs
# around what it sees); wait for them, 60 s at most
links_up() {
	n=0
	while $MF link show mh -j | grep -q '"state": *"down"'; do
		[ $n = 0 ] && echo "multihost: links down (a late keepalive), waiting"
		n=$((n + 1))
		[ $n -ge 120 ] && return 1
		sleep 0.5
	done
}
# the collectives of 5c on fabric $1, each result checked (kernel and
# tool), $2 of the result frames delivered on this guest; their frame
# counts (link crossings, the whole schedule's) into FRAMES
colls() {
	FRAMES=
	for c in "allreduce --count 64" "reduce --root 3,3 --count 400 --in-kernel" \
		 "broadcast --root 2,0 --count 500 --type s64 --in-kernel"; do
		links_up || fail "links down for 60 s before coll $c"
		# shellcheck disable=SC2086
		if out=$($MF coll "$1" $c -j 2>&1) &&
		   echo "$out" | tr -d '\n ' | grep -q '"match":true'; then
			out=$(echo "$out" | tr -d '\n ')
			fr=$(echo "$out" | sed -n 's/.*"frames":\([0-9]*\).*/\1/p')
			dl=$(echo "$out" | sed -n 's/.*"delivered":\([0-9]*\).*/\1/p')
			FRAMES="$FRAMES $fr"
			echo "multihost: coll $c: $fr frames, $dl delivered here"
			[ "$dl" = "$2" ] || fail "coll $c: $dl results delivered, want $2"
		else
			fail "coll $c on $1: $out"
		fi
	done
}
# frames each node of part $1 (all: every node) received, as JSON
# {"x,y": N, ...}, less rx_of's list $2
rx_json() {
	printf '{'
	sep=
	for e in $(rx_of "$1"); do
		node=${e%=*}
		b=$(echo "$2" | tr ' ' '\n' | grep "^$node=" | cut -d= -f2)
		printf '%s"%s": %s' "$sep" "$node" $((${e#*=} - b))
		sep=', '
	done
	printf '}'
}
# too_long WHAT CMD...: CMD must fail, saying the payload is too long to
# cross hosts (BCAST's limit per datagram)
too_long() {
	what=$1
	shift
	if out=$("$@" 2>&1); then
		fail "$what accepted"
	elif echo "$out" | grep -q "too long to cross hosts"; then
		ok "$what refused: $out"
	else
		fail "$what: $out"
	fi
}
# BCAST from node $1 with every algorithm of ALGOS
bcasts() {
	for al in $ALGOS; do
		links_up || fail "links down for 60 s before bcast $al"
		if out=$($MF bcast mh --from "$1" --algo $al -j 2>&1); then
			echo "multihost: bcast from $1 $al: $(echo "$out" | tr -d '\n ' |
				grep -o '"delivered":[0-9]*,"unreachable":[0-9]*,"crossed":[0-9]*')"
		else
			fail "bcast from $1 with $al: $out"
		fi
	done
}
# each node of rx_of's "before" ($1) and "after" ($2) lists got one frame
# per broadcast whose source it is not: 0,0's and 3,3's, K algorithms each
check_rx() {
	k=$(echo $ALGOS | wc -w)
	bad=0 sum=0
	for e in $2; do
		node=${e%=*}
		b=$(echo "$1" | tr ' ' '\n' | grep "^$node=" | cut -d= -f2)
		got=$((${e#*=} - b))
		want=$((2 * k))
		[ "$node" = 0,0 ] || [ "$node" = 3,3 ] && want=$k
		sum=$((sum + got))
		[ "$got" = "$want" ] || { echo "multihost: node $node received $got, want $want"; bad=$((bad + 1)); }
	done
	[ $bad = 0 ] && ok "$3: every node received one frame per broadcast ($sum frames, $k algorithms:$ALGOS)" ||
		fail "$3: $bad nodes received a wrong count"
}

insmod /lib/modules/"$(uname -r)"/kernel/drivers/net/ethernet/intel/e1000/e1000.ko
$IP link set eth0 up
$IP addr add "$MF_VM2_ADDR"/24 dev eth0
insmod /mf/meshfabric.ko || { fail "insmod"; exit 1; }
# no IPv6 on the nodes (no DAD, router solicitations: no traffic but ours)
sysctl -qw net.core.devconf_inherit_init_net=1
sysctl -qw net.ipv6.conf.default.disable_ipv6=1
if [ "$MF_VM2_ROLE" = a ]; then me=0 other=1; else me=1 other=0; fi
# node i = x + 4y; part 0 holds x = 0, 1
nodes_of() { for y in 0 1 2 3; do for x in $(if [ "$1" = 0 ]; then echo 0 1; else echo 2 3; fi); do echo "$x,$y"; done; done; }
nid() { echo $((${1%,*} + 4 * ${1#*,})); }
hex2() { printf '%02x' "$1"; }
# static neighbours from each node of part $1 to each node of part $2
neighbours() {
	for a in $(nodes_of "$1"); do
		ns=mh-${a%,*}-${a#*,}
		for b in $(nodes_of "$2"); do
			j=$(nid "$b")
			$IP -n "$ns" neigh replace 10.0.0.$((j + 1)) \
				lladdr 02:6d:07:00:00:"$(hex2 "$j")" dev mh nud permanent ||
				fail "neighbour $a -> $b"
		done
	done
}
pings() {
	good=0
	for a in $(nodes_of 0); do
		for b in $(nodes_of 1); do
			j=$(nid "$b")
			if $IP netns exec mh-${a%,*}-${a#*,} ping -c1 -W5 \
				10.0.0.$((j + 1)) >/dev/null 2>&1; then
				good=$((good + 1))
			else
				echo "multihost: no answer $a -> $b"
			fi
		done
	done
	echo "$good"
}

# the peer guest is up (the underlay answers)
n=0
until ping -c1 -W1 "$MF_VM2_PEER" >/dev/null 2>&1; do
	n=$((n + 1))
	[ $n -ge 400 ] && { fail "peer guest never answered"; exit 1; }
done
t0=$(now)
$MF create --torus 4x4 --name mh --id $ID --ipv4 10.0.0.0/24 --no-ipv6 \
	--part $me/2 --peer 192.168.77.1 --peer 192.168.77.2 \
	--keepalive 1s || { fail "create part $me"; exit 1; }
echo "multihost: part $me created in $(echo "$(now) $t0" | awk '{printf "%.2f", $1 - $2}') s"
mtu=$($IP -n mh-$((2 * me))-0 link show mh | grep -o 'mtu [0-9]*' | cut -d' ' -f2)
[ "$mtu" = 1434 ] && ok "node MTU 1434 (1500-byte underlay - 66)" ||
	fail "node MTU $mtu, want 1434"

if [ "$MF_VM2_ROLE" = a ]; then
	mark 10
	await 20
	if $IP netns exec mh-0-0 ping -c1 -W10 10.0.0.3 >/dev/null 2>&1; then
		ok "0,0 -> 2,0 across the cut, neighbour found by ARP (a broadcast through the tunnel)"
	else
		fail "0,0 -> 2,0 with ARP"
	fi
	neighbours 0 1
	mark 11
	await 21
	# counted from here: b's neighbours are static too (an ARP probe
	# b's node 2,0 sent, 5 s after step 2, before them is answered by
	# 0,0 over a's links: seen in two runs as one 42-byte frame more
	# than the one-guest run on 0,0 x+ and 1,0 x+)
	$MF stats mh --reset >/dev/null
	links_up || fail "links down for 60 s before the pings"
	t1=$(now)
	good=$(pings)
	echo "multihost: 64 pings in $(echo "$(now) $t1" | awk '{printf "%.1f", $1 - $2}') s"
	[ "$good" = 64 ] && ok "every pair across the cut answers (64/64)" ||
		fail "$good of 64 pairs across the cut answer"
	echo "COUNTERS-A $($MF stats mh --all -j | tr -d '\n')"
	mark 12
	await 22
	# BCAST across the cut: a from 0,0, then b from 3,3
	[ -n "$ALGOS" ] || fail "no algorithm covers a 4x4 torus"
	before=$(rx_of 0)
	$MF stats mh --reset >/dev/null
	mark 14
	await 24
	bcasts 0,0
	if $MF bcast mh --from 2,0 >/dev/null 2>&1; then
		fail "bcast from 2,0 (guest b's node) accepted on a"
	else
		ok "bcast from the other part's node refused"
	fi
	# one byte more than a datagram carries (uapi: 65449 over IPv4)
	too_long "bcast of 65450 bytes across hosts" \
		$MF bcast mh --from 0,0 --size 65450
	sleep 2		# the other part's sends, handed back and forth
	mark 15
	await 25
	check_rx "$before" "$(rx_of 0)" "bcast, part 0"
	echo "BCAST-A $($MF stats mh --all -j | tr -d '\n')"
	mark 16
	# 5c. collectives across the cut, from here
	$MF stats mh --reset >/dev/null
	before=$(rx_of 0)
	mark 17
	await 27
	colls mh 8
	split_frames=$FRAMES
	# the frames handed to b and back: until a's tunnel takes no more
	# for 1 s (10 s at most)
	tunrx() { $MF show mh -j | tr -d '\n ' | sed -n 's/.*"rx_frames":\([0-9]*\).*/\1/p'; }
	n=0 r=$(tunrx) r1=
	while [ $n -lt 10 ] && [ "$r" != "$r1" ]; do
		sleep 1
		r1=$r r=$(tunrx) n=$((n + 1))
	done
	echo "COLL-A $($MF stats mh --all -j | tr -d '\n')"
	echo "COLLRX-A $(rx_json 0 "$before")"
	mark 18
	await 26	# b counted too, before the TCP stream to its node
	out=$($IP netns exec mh-1-0 iperf3 -c 10.0.0.7 -t 3 -f m 2>&1)
	rate=$(echo "$out" | grep -E 'receiver' | awk '{print $(NF-2), $(NF-1)}')
	if [ -n "$rate" ]; then
		ok "TCP 1,0 -> 2,1 across the cut: $rate"
	else
		echo "$out" | sed 's/^/# /'
		fail "TCP stream across the cut"
	fi
	$MF show mh 2>&1 | grep -A1 "^tunnel"
	$MF destroy mh
	mark 13
	# the reference: the whole fabric on this guest, the same workload
	$MF create --torus 4x4 --name mh --id $ID --ipv4 10.0.0.0/24 \
		--no-ipv6 >/dev/null || fail "create the whole fabric"
	neighbours 0 1
	neighbours 1 0
	$MF stats mh --reset >/dev/null
	good=$(pings)
	[ "$good" = 64 ] && ok "one guest: 64/64" || fail "one guest: $good of 64"
	echo "COUNTERS-REF $($MF stats mh --all -j | tr -d '\n')"
	before=$(rx_of all)
	$MF stats mh --reset >/dev/null
	bcasts 0,0
	bcasts 3,3
	check_rx "$before" "$(rx_of all)" "bcast, one guest"
	echo "BCAST-REF $($MF stats mh --all -j | tr -d '\n')"
	before=$(rx_of all)
	$MF stats mh --reset >/dev/null
	colls mh 16
	[ "$FRAMES" = "$split_frames" ] &&
		ok "collectives: the same frame counts split as on one guest ($FRAMES)" ||
		fail "collectives: frames split$split_frames, one guest$FRAMES"
	echo "COLL-REF $($MF stats mh --all -j | tr -d '\n')"
	echo "COLLRX-REF $(rx_json all "$before")"
	$MF destroy mh
	# 8. b driven from here: create --drive, destroy --drive over
	# mfrsh (ssh's convention over nc; b serves it)
	await 30
	export MF_SSH=/mf/selftests/mfrsh MF_REMOTE_TOOL=/mf/meshfabric
	drive="--torus 4x4 --name md --id 9 --ipv4 10.0.0.0/24 --no-ipv6
		--part 0/2 --peer 192.168.77.1 --peer 192.168.77.2"
	on_b() { $MF_SSH 192.168.77.2 "$*"; }
	# b's tunnel's rx_bytes on fabric $1
	trxb() { on_b /mf/meshfabric show "$1" -j | tr -d '\n ' |
		sed -n 's/.*"rx_bytes":\([0-9]*\).*/\1/p'; }
	# BCASTs of $2 bytes from 0,0 on $1, up to 3, until b's tunnel took
	# the frame ($2 + 14 bytes).  The wire (qemu's socket) may drop a
	# fragment of the burst, and b's queue share (256 KiB of truesize)
	# holds about two such datagrams at once.  Sets t0 (b's bytes
	# before), n (broadcasts), big (1: taken), out (the last answer).
	big_bcast() {
		t0=$(trxb "$1") n=0 big=0
		while [ $n -lt 3 ] && [ "$big" = 0 ]; do
			out=$($MF bcast "$1" --from 0,0 --size "$2" -j 2>&1) ||
				fail "bcast of $2 bytes on $1: $out"
			n=$((n + 1))
			w=0
			while [ $w -lt 10 ]; do
				[ $(($(trxb "$1") - t0)) -ge $(($2 + 14)) ] &&
					big=1 && break
				sleep 0.5
				w=$((w + 1))
			done
		done
	}
	# b's create fails (its tool is false): a's part goes again
	# shellcheck disable=SC2086
	if out=$(MF_REMOTE_TOOL=false $MF create $drive --drive 2>&1); then
		fail "create --drive succeeded with b failing"
	elif echo "$out" | grep -q "part 1 on 192.168.77.2 (ssh, exit 1)" &&
	     [ -z "$($MF list --names)" ]; then
		ok "create --drive: b's failure named, a's part undone: $out"
	else
		fail "create --drive with b failing: $out; left: $($MF list --names)"
	fi
	# shellcheck disable=SC2086
	if out=$($MF create $drive --drive 2>&1); then
		echo "$out" | sed 's/^/multihost: drive: /'
		[ "$(on_b /mf/meshfabric list --names)" = md ] &&
			ok "create --drive: b holds part 1" ||
			fail "create --drive: b holds '$(on_b /mf/meshfabric list --names)'"
		$IP netns exec md-0-0 ping -c1 -W10 10.0.0.3 >/dev/null 2>&1 &&
			ok "create --drive: 0,0 -> 2,0 across the cut" ||
			fail "create --drive: 0,0 -> 2,0"
		# 2,0 learned 0,0 from its ARP request and answered through
		# the entry, which it would probe 5 s later: the answer to that
		# probe, one frame on b's nodes, made the timed BCAST's count
		# below end at 9 in a full run (stop 36).  Both entries go.
		echo "multihost: 2,0's neighbours, flushed: $(on_b $IP -n md-2-0 neigh show dev md | tr '\n' ';')"
		$IP -n md-0-0 neigh flush dev md
		on_b $IP -n md-2-0 neigh flush dev md
		# the longest BCAST payload one datagram carries crosses (the
		# underlay fragments it, b reassembles it, its tunnel takes the
		# 65463-byte frame): b's tunnel counts its bytes.  The wire
		# (qemu's socket) may drop a fragment of the burst, and b's
		# queue share (256 KiB of truesize) holds about two such
		# datagrams at once, so the frame may not reach every node of
		# b: up to 3 broadcasts, and node 2,0's bytes only printed
		rxb() { on_b $IP netns exec md-2-0 cat /sys/class/net/md/statistics/rx_bytes; }
		r0=$(rxb)
		big_bcast md 65449
		echo "multihost: bcast of 65449 bytes, $n broadcast(s): b's tunnel took $(($(trxb md) - t0)) bytes, node 2,0 $(($(rxb) - r0)) ($(echo "$out" | tr -d '\n ' | grep -o '"crossed":[0-9]*'))"
		if [ "$big" = 1 ]; then
			ok "bcast of 65449 bytes crossed: b's tunnel took a 65463-byte frame"
		else
			fail "bcast of 65449 bytes never reached b's tunnel"
			$MF show md | grep -A1 "^tunnel" | sed 's/^/multihost: a: /'
			on_b /mf/meshfabric show md | grep -A1 "^tunnel" | sed 's/^/multihost: b: /'
		fi
		# timed links across hosts: a gives every link 3 s, b 2 s
		# (each host's own model: a shift between them).  a's BCAST
		# reports its model of the whole schedule, which plan
		# computes offline, to the nanosecond.  Eyes from 0,0
		# informs b's nodes in steps 3 and 4: in a's model step 3
		# ends at 9 s, and b, shifting its own model (step 3 at 6 s,
		# step 4 at 8 s) onto that, delivers 4 nodes at 9 s and 4 at
		# 11 s through its timed queue.  So b's count, sampled from
		# a while the call runs, is still 0 in a sample begun 7 s
		# after the call (a shift ignored would deliver at 6 s, one
		# of the wrong sign at 3 s, an untimed part at once), climbs
		# in two waves (a partial count seen between 0 and 8), and
		# ends at 8.  (The 65449-byte BCASTs above are done: b's
		# counts settled while a polled its tunnel.)
		rxsum() { on_b "for n in 2-0 2-1 2-2 2-3 3-0 3-1 3-2 3-3; do $IP netns exec md-\$n cat /sys/class/net/md/statistics/rx_packets; done" |
			awk '{s += $1} END {print s + 0}'; }
		# shellcheck disable=SC2086
		$MF link set md all all rate 100mbit delay 3s >/dev/null &&
		on_b /mf/meshfabric link set md all all rate 100mbit delay 2s >/dev/null ||
			fail "link set md all all: a 3 s, b 2 s"
		want=$($MF plan --torus 4x4 --from 0,0 --algo eyes --size 1000 \
			--link-rate 100mbit --link-delay 3s -j | tr -d '\n ' |
			sed -n 's/.*"fabric_time_ns":\([0-9]*\).*/\1/p')
		# timed: the time option takes 20 bytes of the datagram
		too_long "timed bcast of 65430 bytes across hosts (65429 at most)" \
			$MF bcast md --from 0,0 --size 65430
		r0=$(rxsum) seen="" late0=""
		tb0=$(now)
		$MF bcast md --from 0,0 --algo eyes --size 1000 -j >/tmp/tb.json 2>&1 &
		tb=$!
		el=0
		while [ "$el" -lt 40 ]; do
			ts=$(now)
			d=$(($(rxsum) - r0))
			el=$(echo "$ts $tb0" | awk '{printf "%d", $1 - $2}')
			if [ "$d" = 0 ]; then
				l=$(echo "$ts $tb0" | awk '$1 - $2 >= 7 {printf "%.1f", $1 - $2}')
				[ -n "$l" ] && late0=$l
			fi
			case " $seen " in *" $d "*) ;; *) seen="$seen $d" ;; esac
			[ "$d" -ge 8 ] && ! kill -0 $tb 2>/dev/null && break
			sleep 0.2
		done
		wait $tb || fail "timed bcast across hosts: $(cat /tmp/tb.json)"
		d=$(($(rxsum) - r0))
		case " $seen " in *" $d "*) ;; *) seen="$seen $d" ;; esac
		got=$(tr -d '\n ' </tmp/tb.json | sed -n 's/.*"fabric_time_ns":\([0-9]*\).*/\1/p')
		echo "multihost: timed bcast: fabric time $got ns (plan $want), b's nodes received, in turn:$seen"
		[ -n "$want" ] && [ "$got" = "$want" ] &&
			ok "timed bcast across hosts: fabric time $got ns, as plan's" ||
			fail "timed bcast across hosts: fabric time '$got', plan '$want'"
		case "$seen" in
		*" 8") ;;
		*) fail "timed bcast: b's nodes received$seen, not 8 in the end" ;;
		esac
		if echo "$seen" | tr ' ' '\n' | grep -qx '[1-7]'; then
			ok "timed bcast: b delivered in waves (seen:$seen)"
		else
			fail "timed bcast: b's nodes received$seen: no wave between 0 and 8"
		fi
		[ -n "$late0" ] &&
			ok "timed bcast: b's nodes had nothing in a sample begun $late0 s after the call (its first wave: 9 s)" ||
			fail "timed bcast: no count of 0 in a sample begun 7 s or more after the call"
		n=$(on_b "dmesg | grep -c 'not continued'")
		[ "$n" = 0 ] && ok "timed bcast: b continued every send" ||
			fail "timed bcast: b refused $n sends (dmesg 'not continued')"
		out=$($MF destroy md --drive 2>&1)
		echo "$out" | sed 's/^/multihost: drive: /'
		[ -z "$($MF list --names)" ] &&
		[ -z "$(on_b /mf/meshfabric list --names)" ] &&
			ok "destroy --drive: gone on both guests" ||
			fail "destroy --drive: a has '$($MF list --names)', b '$(on_b /mf/meshfabric list --names)'"
	else
		fail "create --drive: $out"
	fi
	# 9. an IPv6 underlay: the cut links over udp_tunnel6
	$IP -6 addr add fd77::1/64 dev eth0 nodad
	on_b $IP -6 addr add fd77::2/64 dev eth0 nodad
	drive6="--torus 4x4 --name m6 --id 11 --ipv4 10.0.0.0/24 --no-ipv6
		--part 0/2 --peer fd77::1 --peer fd77::2"
	# shellcheck disable=SC2086
	if out=$($MF create $drive6 --drive 2>&1); then
		mtu=$($IP -n m6-0-0 link show m6 | grep -o 'mtu [0-9]*' | cut -d' ' -f2)
		[ "$mtu" = 1414 ] && ok "IPv6 underlay: node MTU 1414 (1500 - 86)" ||
			fail "IPv6 underlay: node MTU $mtu, want 1414"
		$IP netns exec m6-0-0 ping -c1 -W10 10.0.0.3 >/dev/null 2>&1 &&
			ok "IPv6 underlay: 0,0 -> 2,0 across the cut" ||
			fail "IPv6 underlay: 0,0 -> 2,0"
		too_long "IPv6 underlay: bcast of 65470 bytes" \
			$MF bcast m6 --from 0,0 --size 65470
		# 65469 bytes, the most over IPv6: fragmented by the sender
		# (ignore_df), reassembled by b, whose tunnel takes the
		# 65483-byte frame (lossy in bursts, as over IPv4: 3 tries)
		big_bcast m6 65469
		[ "$big" = 1 ] &&
			ok "IPv6 underlay: bcast of 65469 bytes crossed ($n broadcast(s), b's tunnel took $(($(trxb m6) - t0)) bytes)" ||
			fail "IPv6 underlay: bcast of 65469 bytes never reached b's tunnel"
		$MF destroy m6 --drive >/dev/null 2>&1 ||
			fail "IPv6 underlay: destroy --drive"
	else
		fail "IPv6 underlay: create --drive: $out"
	fi
	mark 31
	sleep 5		# b polls for the mark each second: not gone before
else
	await 10
	mark 20
	await 11
	neighbours 1 0
	$MF stats mh --reset >/dev/null
	$IP netns exec mh-2-1 iperf3 -s -D -1 >/dev/null 2>&1
	mark 21
	await 12
	echo "COUNTERS-B $($MF stats mh --all -j | tr -d '\n')"
	mark 22
	await 14
	before=$(rx_of 1)
	$MF stats mh --reset >/dev/null
	mark 24
	await 15
	bcasts 3,3
	sleep 2
	mark 25
	await 16
	check_rx "$before" "$(rx_of 1)" "bcast, part 1"
	echo "BCAST-B $($MF stats mh --all -j | tr -d '\n')"
	# 5c. a's collectives: this part's counters and frames
	await 17
	$MF stats mh --reset >/dev/null
	before=$(rx_of 1)
	links_up || fail "links down for 60 s before the collectives"
	mark 27
	await 18
	echo "COLL-B $($MF stats mh --all -j | tr -d '\n')"
	echo "COLLRX-B $(rx_json 1 "$before")"
	# GRO: the TCP stream's datagrams merged before the tunnel takes them
	tun_rx() { $MF show mh -j | tr -d '\n ' | sed -n 's/.*"rx_frames":\([0-9]*\).*/\1/p'; }
	wire_rx() { cat /sys/class/net/eth0/statistics/rx_packets; }
	# the stream's hop after the cut, 2,0 -> 2,1 (path 1,0 2,0 2,1),
	# timed (10 Gbit/s): the link model must count the merged frames'
	# segments, not the frames
	$MF link set mh 2,0 y+ rate 10gbit >/dev/null || fail "link set 2,0 y+"
	lp() { $MF link show mh 2,0 y+ -j | tr -d '\n ' | sed -n 's/.*"packets":\([0-9]*\).*/\1/p'; }
	t0=$(tun_rx) w0=$(wire_rx) l0=$(lp)
	mark 26
	await 13
	t1=$(tun_rx) w1=$(wire_rx) l1=$(lp)
	tr=$((t1 - t0)) wr=$((w1 - w0)) lr=$((l1 - l0))
	echo "multihost: during the TCP stream b's NIC took $wr frames, its tunnel $tr (GRO), the timed link 2,0 y+ counted $lr packets"
	[ "$wr" -gt 200 ] && [ $((2 * tr)) -lt "$wr" ] &&
		ok "GRO: the tunnel took fewer than half the wire's frames ($tr of $wr)" ||
		fail "GRO: the tunnel took $tr frames of the wire's $wr"
	# each wire frame a segment: the timed link counts them one by one
	[ $((2 * lr)) -gt "$wr" ] &&
		ok "timed link after the cut counts the merged frames' segments ($lr of the wire's $wr)" ||
		fail "timed link after the cut counted $lr packets for the wire's $wr frames"
	# a is gone: within 3 keepalives (3 s) and the work's rounds
	t1=$(now)
	n=0 down=0
	while [ $n -lt 60 ]; do
		down=$($MF link show mh -j | grep -o "\"state\": *\"down\"" | wc -l)
		[ "$down" -ge 16 ] && break
		sleep 0.5
		n=$((n + 1))
	done
	echo "multihost: $down directed links down $(echo "$(now) $t1" | awk '{printf "%.1f", $1 - $2}') s after a left"
	[ "$down" = 16 ] && ok "b's 8 cut links (16 directed) went down when a left" ||
		fail "$down directed links down, want 16"
	$MF destroy mh
	# 8. driven by a (mfrsh: a remote shell on TCP 2222)
	nc -ll -p 2222 -e /bin/sh &
	ncpid=$!
	mark 30
	await 31
	kill $ncpid
fi
[ $fails = 0 ]
