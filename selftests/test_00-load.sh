# SPDX-License-Identifier: GPL-2.0
# Load/unload, the misc device, create/info/destroy, routing table sizes,
# the allocation counter.
. ./lib.sh
check "insmod meshfabric.ko" insmod "$KO"
check "/dev/meshfabric is a character device" test -c /dev/meshfabric
check_eq "allocation counter is 0 after load" "$(allocated)" 0
check_rc "ip link add type meshfabric is refused" 2 \
	"$IP" link add x0 type meshfabric
out=$("$MFCTL" create torus 7x7 dor t7)
set -- $out
id=$1
check_eq "CREATE 7x7 torus: nodes, nports" "$2 $3" "49 4"
check_eq "INFO: name" "$(info "$id" name)" t7
check_eq "INFO: kind torus" "$(info "$id" kind)" 2
check_eq "INFO: present 0 before ATTACH" "$(info "$id" present)" 0
check_eq "INFO: 7x7 torus routing table: one byte per node (49)" \
	"$(info "$id" table_bytes)" 49
# coordinates: node id = x + 7 y (topo.h); check a few by hand
check_eq "INFO: node 31 is (3,4)" \
	"$("$MFCTL" nodes "$id" | awk '$1 == 31 { print $6 }')" "3,4"
check_eq "INFO: node 48 is (6,6), absent" \
	"$("$MFCTL" nodes "$id" | awk '$1 == 48 { print $2, $3, $6 }')" "0 0 6,6"
a=$(allocated)
check "allocation counter counts the fabric ($a)" test "$a" -gt 0
set -- $("$MFCTL" create torus 64x64)
id64=$1
tb=$(info "$id64" table_bytes)
check_eq "64x64 torus: routing table is 4096 bytes" "$tb" 4096
check "64x64 torus: routing table <= 64 KiB" test "$tb" -le 65536
set -- $("$MFCTL" create mesh 8x8)
check_eq "8x8 mesh: one byte per coordinate difference (15 x 15)" "$(info "$1" table_bytes)" $((15 * 15))
check "DESTROY mesh" "$MFCTL" destroy "$1"
set -- $("$MFCTL" create torus 2x3x4 cdo)
check_eq "2x3x4 torus with cdo routing: 24 nodes, 6 ports" "$2 $3" "24 6"
check "DESTROY 2x3x4" "$MFCTL" destroy "$1"
check "DESTROY 64x64" "$MFCTL" destroy "$id64"
check "DESTROY 7x7" "$MFCTL" destroy "$id"
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" rmmod meshfabric
check "insmod again" insmod "$KO"
check "rmmod again" rmmod meshfabric
