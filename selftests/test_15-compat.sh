# SPDX-License-Identifier: GPL-2.0
# 32-bit userspace on the 64-bit kernel (compat_ptr_ioctl): every ioctl
# issued by an i386 build of mfctl must behave exactly as from the 64-bit
# one: the bad-input table, and CREATE, INFO, ATTACH, ROUTE, BCAST,
# LINK_STATS, DESTROY with their user pointers, compared with mfctl's
# answers on the same fabric.
. ./lib.sh
M32=/mf/selftests/mfctl32
load
if [ ! -x "$M32" ]; then
	nok "selftests/mfctl32 built (make -C selftests; needs gcc-multilib)"
	exit 1
fi
check_eq "mfctl32 is an i386 program" "$(head -c 5 "$M32" | od -An -tx1 | tr -d ' ')" \
	"7f454c4601"
echo "# the bad-input table, from 32-bit userspace"
"$M32" bad | sed 's/^\(not \)\{0,1\}ok \([0-9]*\) - /\1ok \2 - compat: /'
"$M32" netns add c 25 || nok "netns add"
set -- $("$M32" create torus 5x5 dor c5)
id=$1
check_eq "CREATE (compat): 25 nodes, 4 ports" "$2 $3" "25 4"
check_eq "INFO (compat) == INFO" "$("$M32" info "$id")" "$("$MFCTL" info "$id")"
check "ATTACH 25 nodes (compat)" "$M32" attach "$id" c -u -n
check_eq "INFO nodes array (compat) == native" "$("$M32" nodes "$id")" \
	"$("$MFCTL" nodes "$id")"
bad=0
for pair in "0 24" "3 17" "12 12" "24 0" "7 13"; do
	set -- $pair
	[ "$("$M32" route "$id" $1 $2)" = "$("$MFCTL" route "$id" $1 $2)" ] ||
		{ bad=$((bad + 1)); note "route $1 -> $2 differs"; }
done
check_eq "ROUTE paths (compat) == native, 5 pairs" $bad 0
check "BCAST from every node (compat), each listener hears once" \
	"$M32" bcastall "$id" c flood 256
check_eq "LINK_STATS (compat) == native" "$("$M32" links "$id" -a)" \
	"$("$MFCTL" links "$id" -a)"
"$M32" links "$id" -r >/dev/null
check_eq "LINK_STATS reset (compat): no link counts" "$("$MFCTL" links "$id" | wc -l)" 0
check "DESTROY (compat)" "$M32" destroy "$id"
"$M32" netns del c 25
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
