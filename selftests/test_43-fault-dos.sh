# SPDX-License-Identifier: GPL-2.0
# Issue 21 finding 1: fault-routing rebuilds must not stall the machine.
# First a control (sleepers and veth beside two CPU hogs).  Then two
# ordinary users (uids 65534 and 65533, two real users since the quotas
# are per real user; each then in a user and network namespace of its
# own, as `unshare -Urn`), one pinned to each CPU, each create a
# 256x256 torus (no netdevs) and set y+ links down one by one until
# LINK_SET refuses one, then repeat the refused call (mfdos attack).
# Meanwhile `ip link add`/`del` of a veth pair in the initial namespace
# must take under 1 s, and a 1 ms sleeper pinned to each CPU must never
# wake more than 250 ms late where the other CPU's did not, nor 1 s in
# any case (or 3 times the control, below).
# Last, a refusal before the work.
. ./lib.sh
DOS=/mf/selftests/mfdos
SECS=${MF_DOS_SECONDS:-90}
load
modprobe veth 2>/dev/null ||
	insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
veth_time() {
	t0=$(uptime_s)
	"$IP" link add mfv0 type veth peer name mfv1 && "$IP" link del mfv0
	elapsed "$t0"
}
# phase SECONDS: veth add+del every second meanwhile; worst in $worst
phase() {
	worst=0 n=0
	t0=$(uptime_s)
	while [ "$(elapsed "$t0" | cut -d. -f1)" -lt "$1" ]; do
		t=$(veth_time)
		n=$((n + 1))
		worst=$(echo "$t $worst" | awk '{ print ($1 > $2) ? $1 : $2 }')
		sleep 1
	done
}
# the control first: the same sleepers and veth runs while two ordinary
# processes spin in user space, one per CPU (the guest is emulated on a
# shared host: busy vCPUs wait for the host as the attackers' would)
# (as long as the attack: the worst of a longer run is larger)
"$DOS" burn 0 "$SECS" &
"$DOS" burn 1 "$SECS" &
"$DOS" lat 0 "$SECS" >$TMP/b0 2>$TMP/b0.log &
"$DOS" lat 1 "$SECS" >$TMP/b1 2>$TMP/b1.log &
sleep 2
phase $((SECS - 8))
wait
vworst=$worst
note "control (two CPU hogs): veth add+del worst $worst s ($n runs);" \
	"sleepers: $(cat $TMP/b0) / $(cat $TMP/b1)"
# attacker 1 starts 2 s after attacker 0: the two run the same calls on
# the same shape, and in step a stall of the module's on both CPUs would
# look like the machine's (below)
"$DOS" attack 0 "$SECS" >$TMP/a0 2>$TMP/a0.log &
(sleep 2 && exec "$DOS" attack 1 $((SECS - 2))) >$TMP/a1 2>$TMP/a1.log &
"$DOS" lat 0 "$SECS" >$TMP/l0 2>$TMP/l0.log &
"$DOS" lat 1 "$SECS" >$TMP/l1 2>$TMP/l1.log &
sleep 2
phase $((SECS - 8))
wait
# late A B: of sleeper A's late wake-ups (mfdos lat's "late_ms D woke T"
# lines, T ascending), "OWN M": OWN the worst of those that were its
# CPU's own, M how many were the machine's and over 100 ms late.  One is
# the machine's when sleeper B (the other CPU) woke within 20 ms of it
# after a delay at most 20 ms shorter: the whole emulated machine stood
# still (see below).  One pass over each list.
late() {
	awk -v other="$2" '
	BEGIN {
		while ((getline l < other) > 0)
			if (split(l, f) == 4 && f[1] == "late_ms") {
				d[++n] = f[2]
				w[n] = f[4]
			}
		j = 1
	}
	$1 == "late_ms" && NF == 4 {
		while (j <= n && w[j] < $4 - 0.02)
			j++
		own = 1
		for (k = j; k <= n && w[k] <= $4 + 0.02; k++)
			if (d[k] >= $2 - 20)
				own = 0
		if (own && $2 > worst)
			worst = $2
		if (!own && $2 > 100)
			m++
	}
	END { print worst + 0, m + 0 }' "$1"
}
# lt W B: W is a number below B (an empty or broken W fails)
lt() {
	awk -v w="$1" -v b="$2" 'BEGIN { exit !(w ~ /^[0-9.]+$/ && w + 0 < b + 0) }'
}
for c in 0 1; do
	late $TMP/b$c.log $TMP/b$((1 - c)).log >$TMP/cl$c
	late $TMP/l$c.log $TMP/l$((1 - c)).log >$TMP/ll$c
	note "attacker on CPU $c: $(cat $TMP/a$c)"
	note "  calls: $(tr '\n' ';' <$TMP/a$c.log | head -c 1500)"
	note "sleeper on CPU $c: $(cat $TMP/l$c), its own worst and the" \
		"machine's stalls over 100 ms: $(cat $TMP/ll$c)" \
		"(control $(cat $TMP/cl$c))"
	note "  over 20 ms: $(tr '\n' ';' <$TMP/l$c.log | head -c 1000)"
	note "  control over 20 ms: $(tr '\n' ';' <$TMP/b$c.log | head -c 1000)"
done
note "veth add+del during the attack: $n runs, worst $worst s"
# The goal (issue 21): veth under 1 s, sleepers under 100 ms late.  The
# guest is emulated on a shared host whose load alone can exceed both, so
# each bound is the goal or 3 times the same run's control (two user-space
# CPU hogs instead of the attackers), whichever is larger: the attack must
# cost the machine no more than ordinary busy processes do.  Before the
# fix the attack took veth to 136 s and the sleepers to 60-66 s (a soft
# lockup), against 5.1 s and 1.1-1.6 s idle (host load ~18).  After it
# (MF_DOS_SECONDS=120): veth 6.8 s, sleepers 0.9 s, against the
# control's 9.2 s and 1.5-1.7 s.
# The whole emulated machine stands still at times, whatever runs in it:
# in 50-vm this guest's two vCPUs are one host thread (scripts/vm.sh),
# and both sleepers then wake late together, by the same amount.
# Measured: in the control, with user-space hogs only, 320.1 and 322.7 ms
# (a full run of stop 35); under the attack, 341.8 and 343.1 ms against
# a control of 13.3 and 18.0 (stop 35's CI run, which this test failed
# with one bound of 250 ms for every wake-up).  A CPU the module keeps
# busy delays its own sleeper alone: 106.7 ms on CPU 0 and 101.6 on CPU
# 1, 5.5 s apart, each 2 s before its attacker's call ended (control 88
# ms): the copy of the grown exceptions, since made in pieces
# (faults.c); after it 58.1 and 38.4 ms (control 74 ms; docs/faults.md).
# So three bounds:
# - every wake-up: 1 s (3 times the machine's longest stall measured) or
#   3 times the control's worst; the bug this guards against took the
#   sleepers to 60 s;
# - a sleeper's own wake-ups (the other CPU's sleeper did not wake late
#   with it): 250 ms or 3 times the control's own; the goal is 100 ms,
#   and a TCG guest promises no better than 250 (one woke 101.1 ms late
#   against a control of 13.3 on a quiet host);
# - the machine's stalls over 100 ms that CPU 0's sleeper saw: 3 or 3
#   times the control's (one in each of the runs above that had any):
#   a stall the module caused on both CPUs at once, in every call,
#   would pass the second bound.
# A sleeper's control is the worse of the two CPUs'.
bound() { awk -v g="$1" -v b="$2" -v k="$3" 'BEGIN { x = k * b; print (x > g) ? x : g }'; }
vb=$(bound 1 "$vworst" 3)
lworst=$(cat $TMP/b0 $TMP/b1 | awk '$2 > w { w = $2 } END { print w + 0 }')
oworst=$(cat $TMP/cl0 $TMP/cl1 | awk '$1 > w { w = $1 } END { print w + 0 }')
lb=$(bound 1000 "$lworst" 3)
ob=$(bound 250 "$oworst" 3)
mb=$(bound 3 "$(cut -d' ' -f2 $TMP/cl0)" 3)
for c in 0 1; do
	check "attacker $c changed links and was refused or kept going" \
		grep -q "^down [1-9]" $TMP/a$c
	check "sleeper on CPU $c woke at most $lb ms late" \
		awk -v b="$lb" '/^worst_ms / { ok = $2 < b } END { exit !ok }' $TMP/l$c
	own=$(cut -d' ' -f1 $TMP/ll$c)
	check "sleeper on CPU $c: under $ob ms late alone (worst $own ms)" \
		lt "$own" "$ob"
done
m=$(cut -d' ' -f2 $TMP/ll0)
check "the machine stood still over 100 ms at most $mb times ($m)" \
	lt "$m" "$((${mb%.*} + 1))"
check "veth add+del under $vb s during the attack (worst $worst s)" \
	awk -v w="$worst" -v b="$vb" 'BEGIN { exit !(w < b) }'

# Refused before the work: a 65536-node ring as an ordinary user, one
# link down: its routing would visit 2^30 pairs; LINK_SET refuses after
# the O(N) count (-E2BIG; 0.8-2.1 s in a loaded VM), and again when
# repeated.
"$DOS" refuse 0 >$TMP/r 2>&1
note "ring of 65536, one link down: $(cat $TMP/r)"
check "ring of 65536: refused (E2BIG), twice" \
	grep -q "^refused Argument list too long twice" $TMP/r
check "no fabric left behind the attackers' namespaces" \
	wait_until 20 sh -c "[ -z \"\$('$MF' list --names)\" ]"
check "rmmod" unload
