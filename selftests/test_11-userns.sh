# SPDX-License-Identifier: GPL-2.0
# Unprivileged users and their user namespaces (issue 21, findings 5 and
# 6), as the review attacked: uid 65534 and uid 65533, each making user
# (and network) namespaces of its own, as Debian lets any user do.
#  - visibility: a fabric of uid 65534's namespace is seen by that uid
#    (CAP_NET_ADMIN over the namespace it created) and by real root, and
#    answers ENOENT, as a missing fabric, to uid 65533 and to a sibling
#    namespace;
#  - quota: a new sibling namespace per CREATE gives uid 65534 no more
#    than MESHFABRIC_USERNS_FABRICS (16; before: each namespace had 16,
#    so 8 namespaces took all 128 non-root fabrics), and uid 65533 still
#    creates while 65534 is at its limit.
. ./lib.sh
load

# as UID in a new user and network namespace: CREATE, prints "ERR ID"
ucreate() { "$MFCTL" ioctl 0 CREATE "uid:$1" userns netns kind=1 @id; }
set -- $(ucreate 65534)
check_eq "uid 65534 (new user namespace) creates a fabric" "$1" 0
id=$2
for cmd in INFO LINK_STATS ROUTE; do
	check_eq "uid 65533: $cmd of uid 65534's fabric answers ENOENT" \
		"$("$MFCTL" ioctl "$id" $cmd uid:65533)" ENOENT
	check_eq "uid 65534 in a sibling user namespace: $cmd ENOENT" \
		"$("$MFCTL" ioctl "$id" $cmd nobody userns)" ENOENT
done
check_eq "uid 65533: DESTROY answers EPERM, as for a missing id (255)" \
	"$("$MFCTL" ioctl "$id" DESTROY uid:65533) $("$MFCTL" ioctl 255 DESTROY uid:65533)" \
	"EPERM EPERM"
check_eq "uid 65534 (privileged over its namespace) sees it: INFO" \
	"$("$MFCTL" ioctl "$id" INFO nobody)" 0
check_eq "uid 65534: LINK_STATS" "$("$MFCTL" ioctl "$id" LINK_STATS nobody)" 0
check_eq "real root sees it: INFO" "$("$MFCTL" ioctl "$id" INFO)" 0

# quota per real user: a new namespace per call
made=1 last=0
while [ $made -lt 40 ]; do
	set -- $(ucreate 65534)
	last=$1
	[ "$last" = 0 ] || break
	made=$((made + 1))
done
note "uid 65534, one new user namespace per CREATE: $made fabrics, then $last"
check_eq "uid 65534 gets MESHFABRIC_USERNS_FABRICS (16) in all" "$made" 16
check_eq "the 17th is refused with E2BIG" "$last" E2BIG
set -- $(ucreate 65533)
check_eq "uid 65533 still creates while uid 65534 is at its limit" "$1" 0
check "real root still creates" "$MF" create --mesh 2x2 --name rr
n=0
for f in $("$MF" list --names); do
	"$MF" destroy "$f" >/dev/null && n=$((n + 1))
done
check_eq "real root sees and destroys all 18" "$n" 18
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
set -- $(ucreate 65534)
check_eq "uid 65534 creates again once its fabrics are gone" "$1" 0
check_eq "and real root destroys it" "$("$MFCTL" ioctl "$2" DESTROY)" 0
check "rmmod" unload
