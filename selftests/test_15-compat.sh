# SPDX-License-Identifier: GPL-2.0
# 32-bit userspace on the 64-bit kernel (compat_ptr_ioctl): every ioctl
# issued by i386 programs must behave exactly as from 64-bit ones: the
# bad-input table (mfctl32), and the tool built for i386 (meshfabric32:
# CREATE, ATTACH, INFO, ROUTE, BCAST, LINK_STATS, DESTROY with their user
# pointers), compared with the 64-bit tool's answers on the same fabric.
. ./lib.sh
M32=/mf/selftests/mfctl32
T32=/mf/selftests/meshfabric32
load
if [ ! -x "$M32" ] || [ ! -x "$T32" ]; then
	nok "mfctl32, meshfabric32 built (make -C selftests; gcc-multilib)"
	exit 1
fi
elf() { head -c 5 "$1" | od -An -tx1 | tr -d ' '; }
check_eq "mfctl32 and meshfabric32 are i386 programs" \
	"$(elf $M32) $(elf $T32)" "7f454c4601 7f454c4601"
echo "# the bad-input table, from 32-bit userspace"
bad_ioctls "$M32" | sed 's/^\(not \)\{0,1\}ok - /\1ok - compat: /'
check "create (compat): CREATE, one ATTACH, INFO" \
	"$T32" create --torus 5x5 --name c5 --no-ipv6
ports=$("$T32" show c5 0 | awk '$1 == "neighbours" { print NF - 1 }')
check_eq "CREATE (compat): 25 nodes, 4 ports (node 0's neighbours)" \
	"$(fab c5 nodes) $ports" "25 4"
check_eq "INFO (compat) == INFO" "$("$T32" -j list)" "$("$MF" -j list)"
check_eq "ATTACH (compat): 25 nodes present" "$(fab c5 present)" 25
check_eq "INFO nodes array (compat) == native" "$("$T32" -j show c5 --nodes)" \
	"$("$MF" -j show c5 --nodes)"
bad=0
for pair in "0 24" "3 17" "12 12" "24 0" "7 13"; do
	set -- $pair
	[ "$("$T32" -j route c5 $1 $2)" = "$("$MF" -j route c5 $1 $2)" ] ||
		{ bad=$((bad + 1)); note "route $1 -> $2 differs"; }
done
check_eq "ROUTE paths (compat) == native, 5 pairs" $bad 0
check "BCAST from every node (compat), each listener hears once" \
	"$M32" bcastall "$(fab c5 id)" flood 256
check_eq "LINK_STATS (compat) == native" "$("$T32" -j stats c5 --all)" \
	"$("$MF" -j stats c5 --all)"
"$T32" stats c5 --reset >/dev/null
check_eq "LINK_STATS reset (compat): no link counts" "$(links c5 | wc -l)" 0
check "DESTROY (compat)" "$T32" destroy c5
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
