# SPDX-License-Identifier: GPL-2.0
# Several processes at once: creating/attaching/broadcasting/destroying
# fabrics, broadcasting on a fabric destroyed under them, deleting the
# namespaces of a fabric being broadcast on, pinging through a fabric being
# destroyed.  No oops, no warning (the harness scans the kernel log), no
# leak (allocation counter back to 0).
. ./lib.sh
load
for p in ca cb cs cf; do "$MFCTL" netns add $p 16; done
churn() {	# churn PREFIX KIND DIMS ROUNDS
	r=0
	while [ $r -lt $4 ]; do
		set -- "$1" "$2" "$3" "$4" $("$MFCTL" create "$2" "$3") || return 1
		"$MFCTL" attach "$5" "$1" -u -n 2>/dev/null || return 2
		"$MFCTL" bcast "$5" 0 auto >/dev/null || return 3
		"$MFCTL" destroy "$5" || return 4
		r=$((r + 1))
	done
}
set -- $("$MFCTL" create torus 4x4 dor shared)
shared=$1
"$MFCTL" attach "$shared" cs -a -n 2>/dev/null
set -- $("$MFCTL" create torus 4x4 dor doomed)
doomed=$1
"$MFCTL" attach "$doomed" cf -u -n 2>/dev/null
t0=$(uptime_s)
churn ca torus 4x4 15 & p1=$!
churn cb mesh 4x4 15 & p2=$!
"$MFCTL" loop "$shared" 100000 & p3=$!
"$MFCTL" loop "$shared" 100000 & p4=$!
"$MFCTL" loop "$doomed" 100000 & p5=$!
"$IP" netns exec cs0 ping -c 100000 -i 0.01 -W 1 10.0.0.11 >/dev/null 2>&1 & p6=$!
sleep 3
"$MFCTL" netns del cf 16	# the doomed fabric's namespaces die under load
sleep 2
check "DESTROY the shared fabric under 2 broadcasters and a ping" "$MFCTL" destroy "$shared"
wait $p1; r1=$?
wait $p2; r2=$?
wait $p3; r3=$?
wait $p4; r4=$?
wait $p5; r5=$?
kill $p6 2>/dev/null; wait $p6 2>/dev/null
check_eq "15 create/attach/bcast/destroy rounds on a torus, in parallel" $r1 0
check_eq "15 rounds on a mesh, in parallel" $r2 0
check_eq "broadcasters end cleanly when their fabric is destroyed" "$r3 $r4" "0 0"
check_eq "broadcaster ends cleanly when its namespaces die (ENETDOWN)" $r5 0
check "the doomed fabric sees all 16 nodes gone" \
	wait_until 20 gone_is "$doomed" 16
check "DESTROY it" "$MFCTL" destroy "$doomed"
note "concurrency phase: $(elapsed "$t0") s"
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
for p in ca cb cs; do "$MFCTL" netns del $p 16; done
