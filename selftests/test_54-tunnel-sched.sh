# SPDX-License-Identifier: GPL-2.0
# A peer's BCAST sends (tunnel.c, Geneve flag 4 and its second option,
# then bcast.c's mf_bcast_resume) must not empty the shared schedule
# cache: a datagram naming an algorithm the module lacks (0xfe, and
# mintcd, a userspace search), or one of its own that does not cover the
# topology (hex and tsay-wang on a mesh), used to evict a cached
# schedule before the planning failed (the last stop's review: the
# least recently used one; the next failures reused its free slot).
# Part 0 of 2 of a 2x2 mesh (id 5; nodes 0 and 2 here), its peer for
# part 1 the plain namespace "atk" (10.9.0.2) at the far end of a veth:
#   - 8 BCASTs fill the cache (eyes, tree, binomial and flood from 0,0
#     and 0,1): debugfs bcast_plans counts 8 schedules built, and 8 again
#     after the same 8 once more (the counter sees cache hits: it cannot
#     pass by counting nothing);
#   - atk sends node 0, by each of its 4 ports, one datagram per source
#     0..3 for each of those 4 algorithms (64; the tunnel takes the 16
#     by the cut link and refuses the other 48);
#   - the same 8 BCASTs again build nothing: bcast_plans stays 8.
. ./lib.sh
load
split_2x2
plans() { cat /sys/kernel/debug/meshfabric/5/bcast_plans; }
# tunnel FIELD: rx frames (1), refused (2)
tunnel() {
	"$MF" show t | awk -v k="$1" '
		/ rx / { for (i = 1; i <= NF; i++) {
				if ($(i + 1) == "refused") refused = $i
				if ($i == "rx") rx = $(i + 1)
			} }
		END { print k == 2 ? refused : rx }'
}
eight() {
	bad=0
	for from in 0,0 0,1; do
		for al in eyes tree binomial flood; do
			"$MF" bcast t --from $from --algo $al >/dev/null 2>&1 ||
				bad=$((bad + 1))
		done
	done
	echo $bad
}
check_eq "8 BCASTs on the split fabric" "$(eight)" 0
check_eq "8 schedules built" "$(plans)" 8
check_eq "the same 8 again: cached, none built" "$(eight)$(plans)" 08
rx0=$(tunnel 1) ref0=$(tunnel 2)
for port in 0 1 2 3; do
	"$IP" netns exec atk /mf/selftests/mfsched 10.9.0.1 6081 5 1 0 $port 4 \
		254,7,2,6 >/dev/null
done
# the module's work takes them in turn, in order: 0xfe's and mintcd's
# go at once, then hex's and tsay-wang's 8 are counted (bcast_resumed)
resumed() { cat /sys/kernel/debug/meshfabric/5/bcast_resumed; }
all_resumed() { [ "$(resumed)" -ge 8 ]; }
wait_until 60 all_resumed
check_eq "the work took hex's and tsay-wang's 8 sends" "$(resumed)" 8
# rx counts every datagram with a good header, refused those it then
# turns away (a port without a link from part 1)
check_eq "the peer's 64 datagrams received" $(($(tunnel 1) - rx0)) 64
check_eq "the 48 by other ports refused, 16 by the cut link taken" \
	$(($(tunnel 2) - ref0)) 48
check_eq "the 8 BCASTs after them: still cached, none built" \
	"$(eight)$(plans)" 08
check "destroy" "$MF" destroy t
"$IP" netns del atk
check_eq "allocated objects back to 0" "$(allocated_settled)" 0
