# SPDX-License-Identifier: GPL-2.0
# Schedules chosen in userspace, run by the kernel (SCHED_LOAD, issue 13):
# `meshfabric bcast NAME --schedule FILE` hands the kernel plan's JSON
# or a user's own; the kernel checks it with the shared checker and runs
# it, or refuses it with the checker's reason.  References: plan's
# summary for its own schedule; for the hand-written one, steps = 24 and
# TCD = the sum of Manhattan distances, computed here by awk; each of the
# 24 other nodes' rx_packets grows by one.
. ./lib.sh
load
create --mesh 5x5 --name u --no-ipv6
# sched FILE SRC_X SRC_Y [twice]: the source sends to every other node,
# one send a step, x first then y (dimension order); "twice" sends to
# node 0 twice and leaves node 24 out (24 sends, one node informed
# twice: for the checker to find).  Prints the TCD.
sched() {
	awk -v sx="$2" -v sy="$3" -v twice="$4" -v out="$1" 'BEGIN {
	src = sx + 5 * sy
	printf "{\"topology\":{\"kind\":\"mesh\",\"dims\":[5,5]}," \
	       "\"model\":\"one-port\",\"source\":%d,\"steps\":[", src >out
	n = 0
	for (v = 0; v < 25; v++) {
		if (v == src || (twice && v == 24))
			continue
		reps = (twice && v == 0) ? 2 : 1
		for (r = 0; r < reps; r++) {
			x = sx; y = sy; p = src
			while (x != v % 5) { x += (v % 5 > x) ? 1 : -1; p = p "," x + 5 * y }
			while (y != int(v / 5)) { y += (int(v / 5) > y) ? 1 : -1; p = p "," x + 5 * y }
			printf "%s[{\"src\":%d,\"dst\":%d,\"path\":[%s]}]", \
			       n++ ? "," : "", src, v, p >out
			tcd += (sx > v % 5 ? sx - v % 5 : v % 5 - sx) + \
			       (sy > int(v / 5) ? sy - int(v / 5) : int(v / 5) - sy)
		}
	}
	print "]}" >out
	print tcd
	}'
}
rx_all() {	# rx_packets of every node's netdev, one line
	for y in 0 1 2 3 4; do for x in 0 1 2 3 4; do
		"$IP" netns exec "u-$x-$y" cat /sys/class/net/u/statistics/rx_packets
	done; done | tr '\n' ' '
}
grew() {	# grew BEFORE AFTER SRC: 1 for each node but SRC that got one
	echo "$1" "$2" | awk -v s="$3" '{
		bad = 0
		for (i = 1; i <= 25; i++)
			if ($(25 + i) - $i != (i - 1 != s)) bad++
		print bad }'
}

# plan's own schedule, from a file: split on 5x5 from (2,1)
"$MF" -j plan --mesh 5x5 --from 2,1 --algo split >$TMP/split.json
want="$(jget steps <$TMP/split.json) $(jget tcd <$TMP/split.json)"
before=$(rx_all)
"$MF" -j bcast u --schedule $TMP/split.json >$TMP/out
check_eq "plan's split schedule run by the kernel: exit 0" $? 0
check_eq "algo user, steps and TCD of plan's summary" \
	"$(jget algo <$TMP/out) $(jget steps <$TMP/out) $(jget tcd <$TMP/out)" \
	"user $want"
check_eq "24 nodes got the frame, each once (rx_packets)" \
	"$(jget delivered <$TMP/out) $(grew "$before" "$(rx_all)" 7)" "24 0"

# a user's own schedule, one send a step, written here
tcd=$(sched $TMP/own.json 3 4)
"$MF" stats u --reset >/dev/null
before=$(rx_all)
"$MF" -j bcast u --schedule - <$TMP/own.json >$TMP/out
check_eq "own schedule from stdin: steps 24, TCD $tcd (sum of distances)" \
	"$(jget steps <$TMP/out) $(jget tcd <$TMP/out)" "24 $tcd"
check_eq "own schedule: 24 nodes got the frame once" \
	"$(grew "$before" "$(rx_all)" 23)" 0
sum=$(links u | awk '{ p += $3 } END { print p + 0 }')
check_eq "link counters sum to its TCD" "$sum" "$tcd"
"$MF" bcast u --schedule $TMP/own.json --steps >$TMP/out
check "text output names the file and lists 24 steps" \
	sh -c "grep -q 'algorithm  *$TMP/own.json (one-port)' $TMP/out &&
	       grep -c '^step [0-9]*: 1 send$' $TMP/out | grep -qx 24"

# refused: the kernel's checker says why, nothing runs
sched $TMP/bad.json 3 4 twice >/dev/null
before=$(rx_all)
check_fails "node 0 informed twice: refused by the kernel with the checker's reason" \
	"refused by the kernel: step [0-9]*: node 0 informed twice" \
	"$MF" bcast u --schedule $TMP/bad.json
check_eq "nothing delivered by the refused one" "$(rx_all)" "$before"
"$MF" -j plan --mesh 4x4 --algo eyes >$TMP/4x4.json
check_fails "a schedule of another shape" \
	"the schedule is for a mesh 4x4, the fabric is a mesh 5x5" \
	"$MF" bcast u --schedule $TMP/4x4.json
check_fails "--schedule with --algo" "exclude each other" \
	"$MF" bcast u --schedule $TMP/own.json --algo eyes
check_fails "--from other than the schedule's source" "starts at node 23" \
	"$MF" bcast u --schedule $TMP/own.json --from 0
check_fails "a missing file" "No such file" \
	"$MF" bcast u --schedule $TMP/none.json

# links down: the loaded schedule is repaired as the kernel's own are
"$MF" link set u 3,4 x- down >/dev/null
"$MF" -j bcast u --schedule $TMP/own.json >$TMP/out
check_eq "around a down link: delivered + unreachable = 24" \
	"$(( $(jget delivered <$TMP/out) + $(jget unreachable <$TMP/out) ))" 24
"$MF" link set u 3,4 x- up >/dev/null

check "destroy u" "$MF" destroy u
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
