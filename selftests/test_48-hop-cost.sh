# SPDX-License-Identifier: GPL-2.0
# Issue 21, finding 3: a frame's cost is bounded by a constant per hop,
# whatever the links' loss and the links down.  The review's scenario: on
# a line (1-D mesh) of 65536 nodes (only nodes 0, 1 and 65534 have
# netdevs), raw 64-byte frames go from node 0 to node 65534 (65534 hops)
# inside the sender's send call (ndo_start_xmit, BH disabled): ns per
# frame untimed; every link lossy (1 ppb, the review's setting); and
# lossy with one link down elsewhere (65534 - 65535, off the path: every
# destination then has an exception, node 65535 cut off).
# The review measured, over 65534 hops: 2.1-2.6 ms untimed, 576-985 ms
# with 1 ppb loss, 12.7-14.8 ms with one link down.
# The host is shared and the guest emulated: single samples vary 3-4x
# with the host's load, so each setting is sampled MF_HOP_ROUNDS times,
# alternating with the untimed one, and the least of each is compared.
# Bounds asserted (measured in the TCG guest, docs/performance.md):
# lossy within 2x untimed (the goal), link down (lossy or not)
# within 3x.  MF_KO=another module measures it the same way.
. ./lib.sh
S=${MF_HOP_SECONDS:-1}
R=${MF_HOP_ROUNDS:-4}
load
set -- $(mkfabric mesh 65536)
id=$1
hop_nodes "$id" 0 1 65534
dst=$(mac_of "$id" 65534)
flood() {	# ns per frame of S seconds of frames 0 -> 65534
	"$IP" netns exec hop0 "$MFCTL" flood "mf${id}n0/$dst" "$S" 64 |
		awk '{ print $6 }'
}
hops=$(path "mf$id" 0 65534 | wc -w)
check_eq "the path 0 -> 65534 has 65534 hops" "$((hops - 1))" 65534
# least LOSS [faulted]: the least ns per frame over R samples with loss
# LOSS, each after one with no loss (without faulted, the least of those
# is kept in $untimed)
least() {
	_m=
	for _r in $(seq "$R"); do
		"$MF" link set "mf$id" all all loss 0 >/dev/null
		_u=$(flood)
		[ -z "$2" ] && { [ -z "$untimed" ] || [ "$_u" -lt "$untimed" ]; } &&
			untimed=$_u
		"$MF" link set "mf$id" all all loss "$1" >/dev/null
		_v=$(flood)
		[ -z "$_m" ] || [ "$_v" -lt "$_m" ] && _m=$_v
	done
	echo "$_m" >"$TMP.least"
}
untimed=
least 0.0000001%
lossy=$(cat "$TMP.least")
check "a link down off the path" "$MF" link set "mf$id" 65534 x+ down
least 0 faulted
down=$(cat "$TMP.least")
least 0.0000001% faulted
faulted=$(cat "$TMP.least")
note "65534 hops, least ns per frame of $R: untimed $untimed," \
	"lossy (1 ppb) $lossy, a link down $down, both $faulted"
note "ns per hop: untimed $((untimed / 65534)), lossy $((lossy / 65534))," \
	"down $((down / 65534)), both $((faulted / 65534))"
check "lossy within 2x untimed ($lossy vs $untimed)" \
	test "$lossy" -le $((untimed * 2))
check "a link down within 3x untimed ($down vs $untimed)" \
	test "$down" -le $((untimed * 3))
check "lossy with a link down within 3x untimed ($faulted vs $untimed)" \
	test "$faulted" -le $((untimed * 3))
"$MF" destroy "mf$id"
