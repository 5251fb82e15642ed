# SPDX-License-Identifier: GPL-2.0
# The table of bad ioctl inputs and their errnos (selftests/mfctl.c,
# cmd_bad), permissions, limits.
. ./lib.sh
load
"$MFCTL" bad
echo "# mfctl bad exited $?"

# A fabric belongs to the user namespace owning its creator's netns, and
# only that user namespace and its ancestors see it (issue 9 item 6):
# root of a new user namespace (with its own netns) may create fabrics of
# its own, and neither sees nor changes this one: every command answers
# ENOENT, exactly as for a missing fabric.  mfctl exits with the errno
# (ENOENT 2).
set -- $("$MFCTL" create torus 3x3)
id=$1
ur() { unshare -Urn "$MFCTL" "$@"; }
check_rc "userns root: DESTROY of root's fabric: ENOENT" 2 ur destroy "$id"
check_rc "userns root: BCAST on root's fabric: ENOENT" 2 ur bcast "$id" 0 flood
check_rc "root: the same BCAST gets past the check (ENETDOWN: no netdevs)" 100 \
	"$MFCTL" bcast "$id" 0 flood
check_rc "userns root: LINK_STATS reset: ENOENT" 2 ur links "$id" -r
check_rc "userns root: LINK_STATS read: ENOENT" 2 ur links "$id"
check_rc "userns root: ATTACH a node into its own netns: ENOENT" 2 \
	ur attach1 "$id" 0 /proc/self/ns/net
check_rc "userns root: INFO of root's fabric: ENOENT" 2 ur info "$id"
check_rc "userns root: ROUTE on root's fabric: ENOENT" 2 ur route "$id" 0 8
check "userns root: CREATE and DESTROY of its own fabric" \
	unshare -Urn sh -c "set -- \$('$MFCTL' create mesh 2x2) && '$MFCTL' destroy \$1"
# root sees a fabric of a user namespace below it, as the owner does
unshare -Urn sh -c "'$MFCTL' create mesh 2x2 >/tmp/mf-ur.$$ && sleep 3" &
upid=$!
wait_until 5 test -s /tmp/mf-ur.$$
uid=$(cut -d' ' -f1 /tmp/mf-ur.$$)
check "root sees the user namespace's fabric (INFO)" "$MFCTL" info "$uid"
check "root may destroy it (CAP_NET_ADMIN over its owner)" "$MFCTL" destroy "$uid"
wait $upid
rm -f /tmp/mf-ur.$$

# Limits per owner (uapi: MESHFABRIC_USERNS_*): a user namespace creates
# fabrics until refused, pinning a bounded amount of memory, and real root
# still creates afterwards.
mem_kb() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
before=$(mem_kb)
unshare -Urn sh -c "
	n=0
	while [ \$n -lt 40 ] && '$MFCTL' create torus 16x16x16 >/dev/null 2>/tmp/mf-lim.$$; do
		n=\$((n + 1))
	done
	echo \$n >/tmp/mf-limn.$$
	sleep 4" &
upid=$!
wait_until 60 test -s /tmp/mf-limn.$$
made=$(cat /tmp/mf-limn.$$)
after=$(mem_kb)
note "user namespace created $made fabrics of 4096 nodes before: $(cat /tmp/mf-lim.$$)"
note "memory they pin: $(( (before - after) / 1024 )) MiB (MemAvailable drop)"
check_eq "user namespace: 16 fabrics of 4096 nodes (MESHFABRIC_USERNS_NODES 65536)" \
	"$made" 16
check "refused with E2BIG" grep -q "Argument list too long" /tmp/mf-lim.$$
check "pinned memory under the 64 MiB per user namespace (+8 MiB slack)" \
	test $(( (before - after) / 1024 )) -lt 72
set -- $("$MFCTL" create torus 4x4)
check "real root still creates a fabric" test -n "$1"
check "and destroys it" "$MFCTL" destroy "$1"
wait $upid
rm -f /tmp/mf-lim.$$ /tmp/mf-limn.$$
# the user namespace is gone, its fabrics stay (as root's do) until
# destroyed: root sees and destroys them
left=0
for i in $(seq 0 255); do
	[ "$i" = "$id" ] && continue
	"$MFCTL" destroy "$i" 2>/dev/null && left=$((left + 1))
done
check_eq "root destroyed the user namespace's 16 fabrics" "$left" 16
check "root: DESTROY" "$MFCTL" destroy "$id"
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
