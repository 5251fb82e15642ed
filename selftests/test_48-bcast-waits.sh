# SPDX-License-Identifier: GPL-2.0
# BCAST's waits (issue 21, finding 4): two BCASTs racing on a slow timed
# fabric.  A 4-node line with 10 s links: a BCAST from node 0 takes 30 s
# of fabric time.  Before, the second BCAST waited for the first's
# bcast_lock in mutex_lock (D state, TASK_UNINTERRUPTIBLE) for the first's
# whole fabric time, SIGKILL did not end it, and the hung-task detector
# reported it.  Now the first sleeps without the lock (killable), the
# second plans at once and sleeps killably too: SIGKILL ends either at
# once, and with hung_task_timeout_secs at 3 s nothing is reported.
. ./lib.sh
load
HT=/proc/sys/kernel/hung_task_timeout_secs
ht_old=$(cat $HT 2>/dev/null)
hung() { dmesg | grep -c "blocked for more than"; }
hung0=$(hung)
[ -n "$ht_old" ] && echo 3 >$HT
create --mesh 4 --name tw --no-ipv6 --link-delay 10s
# bcast_bg OUT: a BCAST from node 0 in the background, its pid in $bpid
bcast_bg() { "$MF" bcast tw --from 0 >"$1" 2>&1 & bpid=$!; }
# killed_in PID: SIGKILL PID, print the seconds until it is gone
killed_in() {
	_t0=$(uptime_s)
	kill -9 "$1"
	wait "$1" 2>/dev/null
	elapsed "$_t0"
}
# state PID: the process's state letter and its kernel wait channel
state() { echo "$(cut -d' ' -f3 /proc/"$1"/stat) $(cat /proc/"$1"/wchan)"; }

t0=$(uptime_s)
bcast_bg $TMP/a
a=$bpid
sleep 2
bcast_bg $TMP/b
b=$bpid
sleep 6
note "first BCAST: $(state $a); second: $(state $b)"
check "the second BCAST does not wait on the first's lock" \
	sh -c "! grep -q mutex /proc/$b/wchan"
kb=$(killed_in $b)
note "SIGKILL of the waiting BCAST took $kb s (review: 266.9 s)"
check "the second BCAST ends within 3 s of SIGKILL" \
	awk -v t="$kb" 'BEGIN { exit !(t < 3) }'
wait $a
ea=$(elapsed "$t0")
check "the first BCAST completes" grep -q "delivered        3 of 3" $TMP/a
note "first BCAST: $ea s (fabric time 30 s)"
# a sleeping one killed: also at once
bcast_bg $TMP/c
c=$bpid
sleep 4
kc=$(killed_in $c)
note "SIGKILL of a sleeping timed BCAST took $kc s"
check "a sleeping timed BCAST ends within 3 s of SIGKILL" \
	awk -v t="$kc" 'BEGIN { exit !(t < 3) }'
# the hung-task detector checks every 3 s: give it two rounds more
sleep 7
check_eq "no hung-task report (hung_task_timeout_secs 3)" "$(hung)" "$hung0"
[ -n "$ht_old" ] && echo "$ht_old" >$HT
check "destroy" "$MF" destroy tw
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
