# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): TCP throughput (iperf3, MF_PORT_SECONDS each,
# default 4) from a plain namespace "out" over a veth pair: to the other
# end of the pair itself (plain veth), then with that end bound to the
# external port x- of node (0,0) of a 3x3 mesh, to node (0,0) (the port
# only) and to node (2,2) (the port and 4 hops).  The guest is emulated
# (TCG): compare numbers from one run only.
. ./lib.sh
S=${MF_PORT_SECONDS:-4}
need_iperf
load
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
"$MF" create --mesh 3x3 --name p --ipv4 10.0.0.0/8 --no-ipv6 >/dev/null
"$IP" netns add wire
"$IP" netns add out
"$IP" -n wire link add ext0 type veth peer name ext1 netns out
"$IP" -n wire addr add 10.254.0.1/8 dev ext0
"$IP" -n wire link set ext0 up
"$IP" -n out addr add 10.255.0.1/8 dev ext1
"$IP" -n out link set ext1 up
mbit() {	# mbit NS-OF-SERVER ADDRESS: the receiver's Mbit/s
	"$IP" netns exec "$1" $IPERF -s -D -1 >/dev/null
	sleep 0.5
	"$IP" netns exec out $IPERF -c "$2" -t "$S" -f m 2>&1 |
		awk '/receiver/ { print $7 }'
}
veth=$(mbit wire 10.254.0.1)
"$MF" port attach p 0 x- dev ext0 netns wire
# a first short run resolves the neighbours through the port
mbit p-2-2 "$(addr_of p 8 4)" >/dev/null
far=$(mbit p-2-2 "$(addr_of p 8 4)")
near=$(mbit p-0-0 "$(addr_of p 0 4)")
echo "# TCP, $S s each: plain veth $veth Mbit/s; through the port to" \
	"(0,0) $near Mbit/s, to (2,2) (4 hops) $far Mbit/s"
"$MF" destroy p >/dev/null
