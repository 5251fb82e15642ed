# SPDX-License-Identifier: GPL-2.0
# Issues 9 and 21: the ioctl fuzzer (mfctl fuzz, selftests/mfctl.c) for
# MF_FUZZ_SECONDS (default 60; two thirds from the 64-bit build, one
# third from the i386 one through the compat path): 4 workers issue every
# command of the uapi with structure-aware inputs (near-valid requests on
# the fabrics they made, LINK_SET's fields around their limits, schedules
# built by the core then mutated for SCHED_LOAD, BCAST_V1, user pointers
# that fault) while a reaper DESTROYs the fabrics in use and deletes named
# namespaces holding nodes (as `ip netns del`), namespaces die with nodes
# in them after a flood, and processes of new user namespaces issue their
# own; rmmod is tried all along: it must fail, the device is open.  Every
# MESHFABRIC_IOC_* of the header (selftests/uapi_ioctls, made from it by
# the Makefile) must have been issued, with the counts per command and
# per errno printed.  The kernel log must stay clean (scripts/vm.sh fails
# the run on a WARNING, BUG, KASAN, lockdep, hung task or leak line), and
# the allocation counter returns to 0 once the fabrics left are destroyed.
. ./lib.sh
load
# the netdevs PORT binds external ports to: veth pairs fzv0/fzv1 ..
# fzv6/fzv7 (deleted at the end)
modprobe veth 2>/dev/null || insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
for i in 0 2 4 6; do
	"$IP" link add fzv$i type veth peer name fzv$((i + 1))
done
secs=${MF_FUZZ_SECONDS:-60}
n64=$((secs * 2 / 3))
exec 3</dev/meshfabric		# open all along: rmmod must fail
while [ ! -e $TMP/done ]; do
	rmmod meshfabric 2>/dev/null && echo "rmmod succeeded" >>$TMP/bad
	sleep 0.1
done >/dev/null 2>&1 &
rpid=$!
"$MFCTL" fuzz "$n64" ${MF_FUZZ_SEED:-} >$TMP/fuzz 2>&1
rc=$?
if [ -x ./mfctl32 ]; then
	./mfctl32 fuzz $((secs - n64)) ${MF_FUZZ_SEED:-} >$TMP/fuzz32 2>&1
	rc32=$?
else
	echo "# mfctl32 missing (make -C selftests; gcc-multilib)" >$TMP/fuzz32
	rc32=1
fi
touch $TMP/done
wait $rpid
exec 3<&-
cat $TMP/fuzz $TMP/fuzz32
check_eq "fuzz: nothing impossible happened ($n64 s)" "$rc" 0
check "fuzz made calls" grep -q '^# calls in all: [1-9]' $TMP/fuzz
check "uapi_ioctls lists the header's commands (make -C selftests)" \
	test -s ./uapi_ioctls
for c in $(cat ./uapi_ioctls); do
	check "fuzz issued $c (64-bit and i386)" \
		sh -c "grep -q '^# ioctl $c  *calls  *[1-9]' $TMP/fuzz &&
		       grep -q '^# ioctl $c  *calls  *[1-9]' $TMP/fuzz32"
done
check "fuzz: namespaces died with nodes in them" \
	grep -q 'namespaces died [1-9]' $TMP/fuzz
check "fuzz: named namespaces deleted while in use" \
	grep -q 'named namespaces deleted [1-9]' $TMP/fuzz
check_eq "fuzz from i386 (compat): nothing impossible ($((secs - n64)) s)" \
	"$rc32" 0
check "fuzz from i386 made calls" grep -q '^# calls in all: [1-9]' $TMP/fuzz32
check "rmmod failed all along while the device was open" test ! -e $TMP/bad
# what the fuzzer left; a refusal is in the log
"$MF" destroy --all >$TMP/destroy 2>&1 || sed 's/^/# destroy: /' $TMP/destroy
# destroy --all takes the caller's own fabrics, not those of the user
# namespaces below it (the fuzzer's children make such fabrics, which
# outlive them): DESTROY of every id, counted
i=0 more=0
while [ $i -lt 256 ]; do
	[ "$("$MFCTL" ioctl $i DESTROY 2>/dev/null)" = 0 ] && more=$((more + 1))
	i=$((i + 1))
done
note "fabrics of user namespaces destroyed by id: $more"
# namespaces die asynchronously (cleanup_net)
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod after the fuzzer" unload
for i in 0 2 4 6; do
	"$IP" link del fzv$i 2>/dev/null
done
