# SPDX-License-Identifier: GPL-2.0
# The broadcast offload on a 7x7 torus: from every one of the 49 nodes,
# for every algorithm covering the torus, the kernel's statistics equal
# `meshfabric plan`'s (steps, sends, TCD, max link load, contention) and
# an AF_PACKET listener in each namespace sees the payload exactly once
# (48 receptions, none at the source).  Then a 64 KiB payload, and the
# per-link counters of one broadcast sum to its TCD.
. ./lib.sh
load
"$MFCTL" netns add b 49 || nok "netns add"
set -- $("$MFCTL" create torus 7x7)
id=$1
check "ATTACH 49 nodes, up" "$MFCTL" attach "$id" b -u -n
tool=$(command -v meshfabric)
# reference statistics of (algo, source): the tool, else the core in mfctl
ref() {
	if [ -n "$tool" ]; then
		j=$(meshfabric plan --torus 7x7 --from "$2" --algo "$1" --format json --summary 2>/dev/null) || return 1
		for k in steps sends tcd max_link_load; do
			echo "$j" | sed -n "s/.*\"$k\":\([0-9]*\).*/\1/p"
		done | tr '\n' ' '
		echo "$j" | grep -q '"contention_free":true' && echo 0 || echo 1
	else
		set -- $("$MFCTL" plan torus 7x7 "$2" "$1") || return 1
		echo "$4 $6 $8 ${10} $((${12} > 0))"
	fi
}
[ -n "$tool" ] && note "reference: meshfabric plan" ||
	note "reference: mfctl plan (tool not in the image; same core)"
for algo in auto flood tree binomial tsay-wang eyes hex mintcd wormhole split; do
	if ! "$MFCTL" plan torus 7x7 0 $algo >/dev/null 2>&1; then
		echo "ok - $algo: does not cover a 7x7 torus # SKIP"
		continue
	fi
	t0=$(uptime_s)
	"$MFCTL" bcastall "$id" b $algo 64 >/tmp/bc.$$
	rc=$?
	check_eq "$algo: 49 broadcasts, each heard exactly once by the 48 others" \
		"$rc $(wc -l </tmp/bc.$$)" "0 49"
	mism=0 ns=0
	while read -r _ s _ a _ st _ se _ tcd _ ml _ co _ dl _ el _ rx _; do
		want=$(ref $algo $s) || { mism=$((mism + 1)); continue; }
		got="$st $se $tcd $ml $((co > 0))"
		[ "$got" = "$want" ] || { mism=$((mism + 1)); note "src $s: kernel $got, plan $want"; }
		ns=$((ns + el))
	done </tmp/bc.$$
	check_eq "$algo: steps, sends, TCD, max link load, contention = meshfabric plan, all 49 sources" $mism 0
	set -- $(head -n 1 /tmp/bc.$$)
	note "$algo: src 0: $*; mean kernel time $((ns / 49)) ns; $(elapsed "$t0") s"
done
"$MFCTL" bcastall "$id" b flood 65536 24 >/tmp/bc.$$
check "64 KiB payload from (3,3): delivered once to each of the 48 others" test $? = 0
note "$(cat /tmp/bc.$$)"
"$MFCTL" links "$id" -r >/dev/null
set -- $("$MFCTL" bcast "$id" 10 tree 100)
sum=$("$MFCTL" links "$id" | awk '{ p += $4 } END { print p + 0 }')
check_eq "link counters of one tree broadcast sum to its TCD" "$sum" "$8"
check "DESTROY" "$MFCTL" destroy "$id"
"$MFCTL" netns del b 49
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
rm -f /tmp/bc.$$
