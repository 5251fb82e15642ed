# SPDX-License-Identifier: GPL-2.0
# The table of bad ioctl inputs and their errnos (selftests/mfctl.c,
# cmd_bad), permissions, limits.
. ./lib.sh
load
"$MFCTL" bad
echo "# mfctl bad exited $?"

# A fabric belongs to the user namespace owning its creator's netns: root
# of a new user namespace (with its own netns) may create fabrics of its
# own but change none of this one.  mfctl exits with the errno (EPERM 1).
set -- $("$MFCTL" create torus 3x3)
id=$1
ur() { unshare -Urn "$MFCTL" "$@"; }
check_rc "userns root: DESTROY of root's fabric: EPERM" 1 ur destroy "$id"
check_rc "userns root: BCAST on root's fabric: EPERM" 1 ur bcast "$id" 0 flood
check_rc "root: the same BCAST gets past the check (ENETDOWN: no netdevs)" 100 \
	"$MFCTL" bcast "$id" 0 flood
check_rc "userns root: LINK_STATS reset: EPERM" 1 ur links "$id" -r
check_rc "userns root: ATTACH a node into its own netns: EPERM" 1 \
	ur attach1 "$id" 0 /proc/self/ns/net
check "userns root: INFO and ROUTE still allowed" \
	sh -c "unshare -Urn '$MFCTL' info $id >/dev/null && unshare -Urn '$MFCTL' route $id 0 8 >/dev/null"
check "userns root: CREATE and DESTROY of its own fabric" \
	unshare -Urn sh -c "set -- \$('$MFCTL' create mesh 2x2) && '$MFCTL' destroy \$1"
check "root: DESTROY" "$MFCTL" destroy "$id"
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
