# SPDX-License-Identifier: GPL-2.0
# Issue 15 (offloads): node interfaces offer what veth offers and report
# carrier like veth (operstate UP), and a 64 KiB UDP datagram crosses the
# fabric intact, as IP fragments at MTU 1500 and as one 65000-byte frame
# in its pages at MTU 65535 (SG: never linearised).
. ./lib.sh
load
create --torus 5x5 --name of --ipv4 10.8.0.0/16
opstate() { "$IP" netns exec of-0-0 cat /sys/class/net/of/operstate; }
# UP from birth (the carrier follows the node's links, not open/stop), so
# no wait: a carrier raised by linkwatch would take up to a second
check_eq "operstate UP, as veth, once created" "$(opstate)" up
check "LOWER_UP" sh -c "'$IP' -n of-0-0 link show of | grep -q LOWER_UP"
"$IP" -n of-0-0 link set dev of down
check_eq "operstate DOWN when set down" "$(opstate)" down
"$IP" -n of-0-0 link set dev of up
check_eq "operstate UP again when set up" "$(opstate)" up
dst=$(addr_of of 2,2 4)
datagram() {	# datagram MTU: send 65000 bytes (0,0) -> (2,2), check them
	for n in 0-0 1-0 2-0 2-1 2-2 0-1 1-1 1-2; do
		"$IP" -n of-$n link set dev of mtu "$1" 2>/dev/null
	done
	"$IP" netns exec of-2-2 "$MFCTL" recv 65000 10 >/tmp/recv.$$ 2>&1 &
	rpid=$!
	wait_until 5 grep -q ready /tmp/recv.$$
	"$IP" netns exec of-0-0 "$MFCTL" flood "$dst" 0 65000 >/dev/null
	wait $rpid
	rc=$?
	note "MTU $1: $(tail -n 1 /tmp/recv.$$)"
	return $rc
}
check "64 KiB UDP datagram intact at MTU 1500 (fragments)" datagram 1500
check "64 KiB UDP datagram intact at MTU 65535 (one frame)" datagram 65535
check "destroy of" "$MF" destroy of
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
rm -f /tmp/recv.$$
check "rmmod" unload
