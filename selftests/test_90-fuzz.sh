# SPDX-License-Identifier: GPL-2.0
# Issue 9: the ioctl fuzzer.  Four processes issue random ioctls (random
# commands, sizes, fields, pointers, fds, ids) interleaved with namespace
# deletion, DESTROY, ATTACH races, broadcast floods and rmmod attempts for
# MF_FUZZ_SECONDS (default 60; longer by setting it).  The kernel log must
# stay clean (scripts/vm.sh fails the run on a WARNING, BUG, KASAN,
# lockdep, hung task or leak line), and the module's allocation counter
# returns to 0 once the fuzzer destroyed what was left.
. ./lib.sh
load
secs=${MF_FUZZ_SECONDS:-60}
/mf/selftests/mffuzz -t "$secs" ${MF_FUZZ_SEED:+-s "$MF_FUZZ_SEED"} >/tmp/fuzz.$$ 2>&1
rc=$?
cat /tmp/fuzz.$$
check_eq "mffuzz: nothing impossible happened ($secs s)" "$rc" 0
check "mffuzz made calls" grep -q '^# calls in all: [1-9]' /tmp/fuzz.$$
# namespaces of the fuzzer's children die asynchronously (cleanup_net)
check "allocation counter back to 0" wait_until 30 test "$(allocated)" = 0
check "rmmod after the fuzzer" unload
rm -f /tmp/fuzz.$$
