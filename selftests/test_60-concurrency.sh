# SPDX-License-Identifier: GPL-2.0
# Several processes at once: creating/broadcasting/destroying fabrics,
# broadcasting on a fabric destroyed under them, deleting the namespaces
# of a fabric being broadcast on, pinging through a fabric being
# destroyed, all with the tool.  No oops, no warning (the harness scans
# the kernel log), no leak (allocation counter back to 0).
. ./lib.sh
load
churn() {	# churn NAME KIND DIMS ROUNDS
	r=0
	while [ $r -lt $4 ]; do
		"$MF" create --$2 $3 --name $1 --no-ipv6 >/dev/null || return 1
		"$MF" bcast $1 >/dev/null || return 3
		"$MF" destroy $1 >/dev/null || return 4
		r=$((r + 1))
	done
}
# bcasts NAME N: broadcast until the fabric is gone; 0 if it ended so
bcasts() {
	while "$MF" bcast $1 >/dev/null 2>$TMP/b$2; do :; done
	grep -q "no fabric named\|No such file\|down or gone" $TMP/b$2 ||
		{ cat $TMP/b$2; return 1; }
}
"$MF" create --torus 4x4 --name shared --ipv4 10.0.0.0/8 --no-ipv6 >/dev/null
"$MF" create --torus 4x4 --name doomed --no-ipv6 >/dev/null
t0=$(uptime_s)
churn ca torus 4x4 15 & p1=$!
churn cb mesh 4x4 15 & p2=$!
(bcasts shared 3) & p3=$!
(bcasts shared 4) & p4=$!
(bcasts doomed 5) & p5=$!
"$IP" netns exec shared-0-0 ping -c 100000 -i 0.01 -W 1 10.0.0.11 \
	>/dev/null 2>&1 &
p6=$!
sleep 3
for ns in $("$IP" netns list | awk '/^doomed-/ { print $1 }'); do
	"$IP" netns del $ns	# the doomed fabric's namespaces die under load
done
sleep 2
check "destroy the shared fabric under 2 broadcasters and a ping" \
	"$MF" destroy shared
wait $p1; r1=$?
wait $p2; r2=$?
wait $p3; r3=$?
wait $p4; r4=$?
wait $p5; r5=$?
kill $p6 2>/dev/null; wait $p6 2>/dev/null
check_eq "15 create/bcast/destroy rounds on a torus, in parallel" $r1 0
check_eq "15 rounds on a mesh, in parallel" $r2 0
check_eq "broadcasters end cleanly when their fabric is destroyed" \
	"$r3 $r4" "0 0"
check_eq "broadcaster ends cleanly when its namespaces die (ENETDOWN)" $r5 0
check "the doomed fabric sees all 16 nodes gone" \
	wait_until 20 gone_is doomed 16
check "destroy it" "$MF" destroy doomed
note "concurrency phase: $(elapsed "$t0") s"
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
