# SPDX-License-Identifier: GPL-2.0
# The tunnel's input from the network (tunnel.c, mf_tunnel_rcv): a part
# 0 of 2 of a 2x2 mesh (id 5; part 0 holds x = 0: nodes 0 and 2) whose
# peer for part 1 is 10.9.0.2, a plain namespace "atk" at the far end of
# a veth.  From there, mftunfrag sends node 0 a unicast frame by each of
# its ports 0..3, as part 1 (one of the four is node 0's cut link to
# node 1: the module refuses the other three), each datagram in two IP
# fragments whose first ends 8 bytes into the inner Ethernet header.
#   - from 10.9.0.3 (any host that reaches the port, or forges a source
#     address): all 4 refused, node 0 receives nothing, part 1 is not
#     marked heard;
#   - from 10.9.0.2, the peer: 3 refused, node 0 receives exactly one
#     frame (its inner header reassembled whole), part 1 heard.
. ./lib.sh
load
split_2x2
# tunnel FIELD: rx frames (1), refused (2), parts heard (3)
tunnel() {
	"$MF" show t | awk -v k="$1" '
		/parts heard/ { heard = $NF }
		/ rx / { for (i = 1; i <= NF; i++) {
				if ($(i + 1) == "refused") refused = $i
			} }
		END { if (k == 2) print refused; else print heard }'
}
node_rx() { "$IP" -n t-0-0 -s -j link show t | sed 's/.*"rx":{"bytes":[0-9]*,"packets":\([0-9]*\).*/\1/'; }
rx0=$(node_rx)
ref0=$(tunnel 2)
"$IP" netns exec atk /mf/selftests/mftunfrag 10.9.0.1 6081 5 1 1 4 40 10.9.0.3 >/dev/null
sleep 1
check_eq "forged source: 4 datagrams refused" $(($(tunnel 2) - ref0)) 4
check_eq "forged source: node 0 receives nothing" "$(node_rx)" "$rx0"
check_eq "forged source: part 1 not heard" "$(tunnel 3)" 0x0
"$IP" netns exec atk /mf/selftests/mftunfrag 10.9.0.1 6081 5 1 1 4 40 10.9.0.2 >/dev/null
sleep 1
check_eq "the peer: 3 of 4 refused (not its cut link)" $(($(tunnel 2) - ref0)) 7
check_eq "the peer: node 0 receives one frame" "$(node_rx)" $((rx0 + 1))
# heard means within 3 s (3 keepalive intervals of 1 s): the datagrams
# again, and the mask read at once (the debug kernel took longer than
# that over the checks above)
"$IP" netns exec atk /mf/selftests/mftunfrag 10.9.0.1 6081 5 1 1 4 40 10.9.0.2 >/dev/null
check_eq "the peer: part 1 heard" "$(tunnel 3)" 0x2
check "destroy" "$MF" destroy t
check_eq "allocated objects back to 0" "$(allocated_settled)" 0
