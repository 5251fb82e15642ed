# SPDX-License-Identifier: GPL-2.0
# Issue 21, finding 3: a frame's cost is bounded by a constant per hop,
# whatever the links' loss and the links down.  The review's scenario: on
# a line (1-D mesh) of 65536 nodes (only nodes 0, 1 and 65534 have
# netdevs), raw 64-byte frames go from node 0 to node 65534 (65534 hops)
# inside the sender's send call (ndo_start_xmit, BH disabled), on two
# such lines: A with every link up, B with one link down elsewhere
# (65534 - 65535, off the path: every destination then has an exception,
# node 65535 cut off).  ns per frame: A untimed, B untimed (down), A with
# every link lossy (1 ppb, the review's setting), B lossy (both).
# The review measured, over 65534 hops: 2.1-2.6 ms untimed, 12.7-14.8 ms
# with one link down, 576-985 ms with 1 ppb loss.
# The host is shared and the guest emulated: a sample varies several
# times over with the host's load, so each round samples the four
# settings back to back, MF_HOP_ROUNDS rounds, and the least of each is
# compared.  Bounds asserted (the issue's goal: lossy within 2x untimed;
# measured in the TCG guest, docs/performance.md): lossy within 2x
# untimed, down and both within 3x.  MF_KO=another module measures it
# the same way.
. ./lib.sh
S=${MF_HOP_SECONDS:-1}
R=${MF_HOP_ROUNDS:-5}
load
a=$(mkfabric mesh 65536 | cut -d' ' -f1)
b=$(mkfabric mesh 65536 | cut -d' ' -f1)
hop_nodes "$a" 0 1 65534
hop_nodes "$b" 0 1 65534
flood() {	# flood ID: ns per frame of S seconds of frames 0 -> 65534
	"$IP" netns exec "mf${1}n0" "$MFCTL" flood \
		"mf${1}n0/$(mac_of "$1" 65534)" "$S" 64 | awk '{ print $6 }'
}
hops=$(path "mf$a" 0 65534 | wc -w)
check_eq "the path 0 -> 65534 has 65534 hops" "$((hops - 1))" 65534
check "B: a link down off the path" "$MF" link set "mf$b" 65534 x+ down
hops=$(path "mf$b" 0 65534 | wc -w)
check_eq "B: the path 0 -> 65534 still has 65534 hops" "$((hops - 1))" 65534
untimed= down= lossy= both=
for r in $(seq "$R"); do
	for f in $a $b; do "$MF" link set "mf$f" all all loss 0 >/dev/null; done
	least untimed "$(flood "$a")"
	least down "$(flood "$b")"
	for f in $a $b; do
		"$MF" link set "mf$f" all all loss 0.0000001% >/dev/null
	done
	least lossy "$(flood "$a")"
	least both "$(flood "$b")"
done
note "65534 hops, least ns per frame of $R: untimed $untimed," \
	"a link down $down, lossy (1 ppb) $lossy, both $both"
note "ns per hop: untimed $((untimed / 65534)), down $((down / 65534))," \
	"lossy $((lossy / 65534)), both $((both / 65534))"
check_timed "lossy within 2x untimed ($lossy vs $untimed)" \
	test "$lossy" -le $((untimed * 2))
check_timed "a link down within 3x untimed ($down vs $untimed)" \
	test "$down" -le $((untimed * 3))
check_timed "lossy with a link down within 3x untimed ($both vs $untimed)" \
	test "$both" -le $((untimed * 3))
"$MF" destroy "mf$a"
"$MF" destroy "mf$b"
