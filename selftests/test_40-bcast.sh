# SPDX-License-Identifier: GPL-2.0
# The broadcast offload on a 7x7 torus: from every one of the 49 nodes,
# for every builder of the module covering the torus (auto and the
# searches: 9 sources through the tool, which plans them and hands the
# kernel the schedule), the kernel's statistics equal
# `meshfabric plan`'s (steps, sends, TCD, max link load, contention) and
# an AF_PACKET listener in each namespace sees the payload exactly once
# (48 receptions, none at the source).  Then a 64 KiB payload, and the
# per-link counters of one broadcast (meshfabric bcast, stats) sum to
# its TCD.
. ./lib.sh
load
create --torus 7x7 --name b --no-ipv6
# reference statistics of (algo, source): meshfabric plan, offline
ref() {
	"$MF" plan --torus 7x7 --from "$2" --algo "$1" --format json \
		--summary 2>/dev/null | tr '{,}' '\n\n\n' | awk -F: '
	{ v[$1] = $2 }
	END {
		if (!("\"steps\"" in v))
			exit 1
		print v["\"steps\""], v["\"sends\""], v["\"tcd\""],
		      v["\"max_link_load\""], v["\"contention_free\""] != "true"
	}'
}
# the module's own builders, run by the kernel from a raw BCAST
for algo in flood tree binomial tsay-wang eyes hex; do
	if ! ref $algo 0 >/dev/null; then
		echo "ok - $algo: does not cover a 7x7 torus # SKIP"
		continue
	fi
	t0=$(uptime_s)
	"$MFCTL" bcastall "$(fab b id)" $algo 64 >$TMP/bc
	rc=$?
	check_eq "$algo: 49 broadcasts, each heard once by the 48 others" \
		"$rc $(wc -l <$TMP/bc)" "0 49"
	mism=0 ns=0
	while read -r _ s _ a _ st _ se _ tcd _ ml _ co _ dl _ el _ rx _; do
		want=$(ref $algo $s) || { mism=$((mism + 1)); continue; }
		got="$st $se $tcd $ml $((co > 0))"
		[ "$got" = "$want" ] ||
			{ mism=$((mism + 1)); note "src $s: $got, plan $want"; }
		ns=$((ns + el))
	done <$TMP/bc
	what="steps, sends, TCD, max link load, contention = meshfabric plan"
	check_eq "$algo: $what, all 49 sources" $mism 0
	set -- $(head -n 1 $TMP/bc)
	note "$algo: src 0: $*; mean kernel time $((ns / 49)) ns;" \
		"$(elapsed "$t0") s"
done
# auto and the searches are planned by the tool and handed to the kernel
# (SCHED_LOAD); the module has no searches (raw BCAST: EOPNOTSUPP)
for algo in auto mintcd wormhole split; do
	if ! ref $algo 0 >/dev/null; then
		echo "ok - $algo: does not cover a 7x7 torus # SKIP"
		continue
	fi
	mism=0
	for s in 0 5 10 17 24 31 38 43 48; do
		k=$("$MF" -j bcast b --from $s --algo $algo)
		got="$(echo "$k" | jget steps) $(echo "$k" | jget sends)"
		got="$got $(echo "$k" | jget tcd) $(echo "$k" | jget max_link_load)"
		got="$got $(( $(echo "$k" | jget contention) > 0 ))"
		want=$(ref $algo $s)
		[ "$got $(echo "$k" | jget delivered)" = "$want 48" ] ||
			{ mism=$((mism + 1)); note "src $s: $got, plan $want"; }
	done
	check_eq "$algo via the tool: plan's statistics, 48 delivered, 9 sources" \
		$mism 0
	check_eq "$algo: the tool names what it planned" \
		"$(echo "$k" | jget algo)" \
		"$("$MF" -j plan --torus 7x7 --from 48 --algo $algo --summary |
			jget algo)"
done
check_fails "a raw BCAST of split: the module has no searches" \
	"not supported" "$MFCTL" bcastall "$(fab b id)" split 64 0
"$MFCTL" bcastall "$(fab b id)" flood 65536 24 >$TMP/bc
check "64 KiB payload from (3,3): delivered once to each of the 48 others" \
	test $? = 0
note "$(cat $TMP/bc)"
"$MF" stats b --reset >/dev/null
tcd=$("$MF" -j bcast b --from 10 --algo tree --size 100 | jget tcd)
sum=$(links b | awk '{ p += $3 } END { print p + 0 }')
check_eq "link counters of one tree broadcast sum to its TCD" "$sum" "$tcd"
check "destroy b" "$MF" destroy b
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
