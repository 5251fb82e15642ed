# SPDX-License-Identifier: GPL-2.0
# A peer's collective frames (tunnel.c: Geneve flag 8 and its path
# option, mf_tunnel_path_rx): part 0 of 2 of a 2x2 mesh (id 5; nodes 0 =
# 0,0 and 2 = 0,1 here; ports x+ 0, x- 1, y+ 2, y- 3; node 0's cut link
# is its x+ to node 1), its peer for part 1 the namespace "atk"
# (10.9.0.2).  mfpath sends one datagram per case, as part 1:
#   - into node 0 by x+ with no hop left, to node 0: delivered there;
#   - one hop more, y+ to node 2: delivered at node 2, link 0 y+ counted;
#   - y+ then x+ (into node 3, part 1's): handed back, our tunnel sends
#     one datagram more;
#   - starting at node 0 (port 255) with node 0's source MAC: delivered
#     at node 2; with node 1's source MAC: refused;
#   - refused, nothing delivered nor counted: 249 hops (above the 248 a
#     5-bit option length holds), an option length that does not match
#     the hops, a port above the node's ports, a path ending at a node
#     that is not the frame's destination, a broadcast destination, the
#     bits after the last port not 0, a path crossing between hosts 3
#     times (x+ x- x+: more than the 2 parts), and y+ while the link 0-2
#     is down.
. ./lib.sh
load
split_2x2
# tunnel FIELD: refused (2), tx frames (3)
tunnel() {
	"$MF" show t | awk -v k="$1" '
		/ rx / { for (i = 1; i <= NF; i++)
				if ($(i + 1) == "refused") refused = $i }
		/ tx / { for (i = 1; i <= NF; i++)
				if ($i == "tx") tx = $(i + 1) }
		END { print k == 2 ? refused : tx }'
}
rx() { "$IP" -n "t-$1" -s -j link show t | sed 's/.*"rx":{"bytes":[0-9]*,"packets":\([0-9]*\).*/\1/'; }
# packets of node 0's link through port $1
lk() { "$MF" link show t 0,0 "$1" -j | tr -d '\n ' | sed -n 's/.*"packets":\([0-9]*\).*/\1/p'; }
path() { "$IP" netns exec atk /mf/selftests/mfpath 10.9.0.1 6081 5 1 "$@" >/dev/null; }
# the state: node 0's and node 2's frames, link 0 y+, refused, tx
state() { echo "$(rx 0-0) $(rx 0-1) $(lk y+) $(tunnel 2) $(tunnel 3)"; }
# expect DELTA...: the state now less $before, field by field
delta() {
	# shellcheck disable=SC2046,SC2086 # the fields, split on purpose
	set -- $before $(state)
	echo "$(($6 - $1)) $(($7 - $2)) $(($8 - $3)) $(($9 - $4)) $((${10} - $5))"
}
settle() { sleep 0.5; }
before=$(state)
path 0 0 1 0
settle
check_eq "no hop left, into node 0: delivered there" "$(delta)" "1 0 0 0 0"
before=$(state)
path 0 0 1 2 2
settle
check_eq "y+ to node 2: delivered there, link 0 y+ counted" "$(delta)" "0 1 1 0 0"
before=$(state)
path 0 0 1 3 2 0
settle
check_eq "y+ then x+ into node 3: handed back (one datagram sent)" \
	"$(delta)" "0 0 1 0 1"
before=$(state)
path 0 255 0 2 2
settle
check_eq "starting at node 0, its own frame: delivered at node 2" \
	"$(delta)" "0 1 1 0 0"
before=$(state)
path 0 255 1 2 2
settle
check_eq "starting at node 0, node 1's frame: refused" "$(delta)" "0 0 0 1 0"
before=$(state)
path 0 0 1 0 '249*2'
MFPATH_WORDS=2 path 0 0 1 2 2
path 0 0 1 0 7
path 0 0 1 2
path 0 0 1 -1 2
MFPATH_PAD=5 path 0 0 1 2 2
path 0 0 1 1 0 1 0
settle
check_eq "7 bad paths refused, nothing delivered, counted or sent" \
	"$(delta)" "0 0 0 7 0"
check "link 0 y+ down" "$MF" link set t 0,0 y+ down
before=$(state)
path 0 0 1 2 2
settle
check_eq "y+ while the link is down: refused" "$(delta)" "0 0 0 1 0"
check "link 0 y+ up" "$MF" link set t 0,0 y+ up
check "destroy" "$MF" destroy t
"$IP" netns del atk
check_eq "allocated objects back to 0" "$(allocated_settled)" 0
