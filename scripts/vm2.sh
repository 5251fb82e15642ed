#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Two test VMs (scripts/vm.sh) joined by a virtual wire: each guest has an
# e1000 NIC on a qemu `-netdev dgram` socket pair on the host's loopback,
# so each one's frames reach the other and nothing else.  The guests run
# two commands at once and this script collects both outputs.
#
#   scripts/vm2.sh [--kernel K] [--timeout SEC] [--mem MB] [--pcap FILE]
#                  --a 'SHELL CMD' --b 'SHELL CMD'
#
# In the guests: e1000.ko is at /lib/modules/$(uname -r) (vm/mkinitramfs.sh);
# MF_VM2_ROLE=a or b, MF_VM2_ADDR (192.168.77.1 or .2) and MF_VM2_PEER
# (the other's) are set for CMD, which brings eth0 up itself (or sources
# /mf/selftests/multihost.sh, which does).  --pcap FILE: the wire as guest
# a's NIC sees it (qemu's filter-dump), for tshark.
# Output: guest a's lines prefixed "a| ", b's "b| ", both whole in
# build/vm2/a.log and b.log.  Exit status: 0 if both guests' vm.sh exit 0,
# else the first non-zero one (a's first).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
vmargs=() cmda= cmdb= pcap=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel|--timeout|--mem) vmargs+=("$1" "$2"); shift 2 ;;
	--a) cmda=$2; shift 2 ;;
	--b) cmdb=$2; shift 2 ;;
	--pcap) pcap=$2; shift 2 ;;
	-h|--help) sed -n '3,21p' "$0"; exit 0 ;;
	*) echo "usage: $0 [--kernel K] [--timeout SEC] [--mem MB] [--pcap FILE] --a CMD --b CMD" >&2
	   exit 2 ;;
	esac
done
if [ -z "$cmda" ] || [ -z "$cmdb" ]; then
	echo "usage: $0 [--kernel K] [--timeout SEC] [--mem MB] [--pcap FILE] --a CMD --b CMD" >&2
	exit 2
fi
out=$top/build/vm2
mkdir -p "$out"
# two UDP ports on loopback, free now (the kernel picks them)
read -r pa pb < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
wire() { # own port, other's port, mac, extra
	echo "-netdev dgram,id=w0,local.type=inet,local.host=127.0.0.1,local.port=$1,remote.type=inet,remote.host=127.0.0.1,remote.port=$2 -device e1000,netdev=w0,mac=$3${4:+ $4}"
}
dump=
[ -n "$pcap" ] && rm -f "$pcap" && dump="-object filter-dump,id=d0,netdev=w0,file=$pcap"
guest() { # role addr peer cmd
	printf 'export MF_VM2_ROLE=%s MF_VM2_ADDR=%s MF_VM2_PEER=%s\n%s\n' \
		"$1" "$2" "$3" "$4"
}
MF_VM_QEMU_ARGS=$(wire "$pa" "$pb" 52:54:00:77:00:01 "$dump") \
	bash "$top/scripts/vm.sh" "${vmargs[@]}" -- sh -c \
	"$(guest a 192.168.77.1 192.168.77.2 "$cmda")" >"$out/a.log" 2>&1 &
ja=$!
MF_VM_QEMU_ARGS=$(wire "$pb" "$pa" 52:54:00:77:00:02) \
	bash "$top/scripts/vm.sh" "${vmargs[@]}" -- sh -c \
	"$(guest b 192.168.77.2 192.168.77.1 "$cmdb")" >"$out/b.log" 2>&1 &
jb=$!
wait "$ja"
ra=$?
wait "$jb"
rb=$?
sed 's/^/a| /' "$out/a.log"
sed 's/^/b| /' "$out/b.log"
[ "$ra" != 0 ] && exit "$ra"
exit "$rb"
