# SPDX-License-Identifier: GPL-2.0
# Load/unload, the misc device, fabrics and what `meshfabric show` reports
# of them (routing table sizes, coordinates, node states), the allocation
# counter.  The fabrics here have no netdevs (mfctl create: CREATE alone,
# which the tool never does), so the tool sees nodes absent.
. ./lib.sh
check "insmod meshfabric.ko" insmod "$KO"
check "/dev/meshfabric is a character device" test -c /dev/meshfabric
check_eq "allocation counter is 0 after load" "$(allocated)" 0
check_rc "ip link add type meshfabric is refused" 2 \
	"$IP" link add x0 type meshfabric
set -- $(mkfabric torus 7x7 dor t7)
check_eq "CREATE 7x7 torus: nodes, nports" "$2 $3" "49 4"
check_eq "list: the fabric t7" "$("$MF" list --names)" t7
check_eq "show: kind torus" "$(fab t7 kind)" torus
check_eq "show: 0 nodes present before ATTACH" "$(fab t7 present)" 0
check_eq "show: 7x7 torus routing table: one byte per node (49)" \
	"$(fab t7 table_bytes)" 49
# coordinates: node id = x + 7 y (topo.h); check a few by hand
check_eq "show: node 31 is (3,4)" "$(node t7 31 coords)" "3,4"
check_eq "show: node 48 is (6,6), absent" \
	"$(node t7 48 coords) $(node t7 48 state)" "6,6 absent"
a=$(allocated)
check "allocation counter counts the fabric ($a)" test "$a" -gt 0
mkfabric torus 64x64 dor t64 >/dev/null
tb=$(fab t64 table_bytes)
check_eq "64x64 torus: routing table is 4096 bytes" "$tb" 4096
check "64x64 torus: routing table <= 64 KiB" test "$tb" -le 65536
mkfabric mesh 8x8 dor m8 >/dev/null
check_eq "8x8 mesh: one byte per coordinate difference (15 x 15)" \
	"$(fab m8 table_bytes)" $((15 * 15))
check "destroy m8" "$MF" destroy m8
set -- $(mkfabric torus 2x3x4 cdo t234)
check_eq "2x3x4 torus with cdo routing: 24 nodes, 6 ports" "$2 $3" "24 6"
check "destroy t234" "$MF" destroy t234
check "destroy t64" "$MF" destroy t64
check "destroy t7" "$MF" destroy t7
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" rmmod meshfabric
check "insmod again" insmod "$KO"
check "rmmod again" rmmod meshfabric
