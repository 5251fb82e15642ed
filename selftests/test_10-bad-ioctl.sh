# SPDX-License-Identifier: GPL-2.0
# The table of bad ioctl inputs and their errnos (bad_ioctl.tab, issued
# by mfctl: what reaches the driver through the ioctl; the validation of
# the fields themselves is KUnit's, kunit/uapi_test.c), permissions,
# user namespaces, limits.
. ./lib.sh
load
bad_ioctls "$MFCTL"

# A fabric belongs to the user namespace owning its creator's netns, and
# only that user namespace and its ancestors see it (issue 9 item 6):
# root of a new user namespace (with its own netns) may create fabrics of
# its own, and neither sees nor changes this one: every command answers
# as for a missing fabric.
create --torus 3x3 --name r3
ur() { unshare -Urn "$MF" "$@"; }
gone="no fabric named 'r3'"
check_fails "userns root: destroy of root's fabric" "$gone" ur destroy r3
check_fails "userns root: bcast on root's fabric" "$gone" ur bcast r3
check "root: the same bcast reaches the 8 others" \
	sh -c "'$MF' bcast r3 | grep -q 'delivered        8 of 8'"
check_fails "userns root: stats --reset" "$gone" ur stats r3 --reset
check_fails "userns root: stats" "$gone" ur stats r3
id=$(fab r3 id)
check_eq "userns root: ATTACH a node into its own netns: ENOENT" \
	"$(unshare -Urn "$MFCTL" ioctl "$id" ATTACH)" ENOENT
check_fails "userns root: show of root's fabric" "$gone" ur show r3
check_fails "userns root: route on root's fabric" "$gone" ur route r3 0 8
check "userns root: CREATE and destroy of its own fabric" \
	unshare -Urn sh -c \
	"'$MFCTL' ioctl 0 CREATE kind=1 name=u1 | grep -qx 0 && '$MF' destroy u1"
# root sees a fabric of a user namespace below it, as the owner does
unshare -Urn sh -c "'$MFCTL' ioctl 0 CREATE kind=1 name=u2 >$TMP/ur && sleep 3" &
upid=$!
wait_until 5 test -s $TMP/ur
check "root sees the user namespace's fabric (show)" "$MF" show u2
check "root may destroy it (CAP_NET_ADMIN over its owner)" "$MF" destroy u2
wait $upid

# Limits per owner (uapi: MESHFABRIC_USERNS_*): a user namespace creates
# fabrics until refused, pinning a bounded amount of memory, and real root
# still creates afterwards.  64x64 tori: 16 of them reach USERNS_NODES
# well within USERNS_BYTES (a 16x16x16 torus, 6 ports a node, is 4.2 MiB:
# the bytes limit would refuse the 16th first).
mem_kb() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
before=$(mem_kb)
unshare -Urn sh -c "
	n=0
	while [ \$n -lt 40 ] &&
	      '$MFCTL' ioctl 0 CREATE ndims=2 dims=64,64 >$TMP/lim &&
	      [ \"\$(cat $TMP/lim)\" = 0 ]; do
		n=\$((n + 1))
	done
	echo \$n >$TMP/limn
	sleep 4" &
upid=$!
wait_until 60 test -s $TMP/limn
made=$(cat $TMP/limn)
after=$(mem_kb)
note "user namespace created $made fabrics of 4096 nodes before:" \
	"$(cat $TMP/lim)"
note "memory they pin: $(( (before - after) / 1024 )) MiB (MemAvailable drop)"
check_eq "user namespace: 16 fabrics of 4096 nodes (USERNS_NODES 65536)" \
	"$made" 16
check "refused with E2BIG" grep -qx E2BIG $TMP/lim
check "pinned memory under the 64 MiB per user namespace (+8 MiB slack)" \
	test $(( (before - after) / 1024 )) -lt 72
check "real root still creates a fabric" "$MF" create --mesh 2x2 --name rr
check "and destroys it" "$MF" destroy rr
wait $upid
# the user namespace is gone, its fabrics stay (as root's do) until
# destroyed: root sees and destroys them
left=0
for f in $("$MF" list --names); do
	[ "$f" = r3 ] && continue
	"$MF" destroy "$f" >/dev/null && left=$((left + 1))
done
check_eq "root destroyed the user namespace's 16 fabrics" "$left" 16
check "root: destroy r3" "$MF" destroy r3
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
