#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Selftests of meshfabric.ko, kselftest style (TAP).  They run INSIDE the
# test VM, as root, with the module NOT loaded:
#
#   make module && make -C selftests && scripts/vm.sh -- /mf/selftests/run.sh
#   scripts/vm.sh -- /mf/selftests/run.sh 40-bcast     # one test alone
#
# BUILD NOTE for scripts/tests.d/50-vm.sh: selftests/mfctl (the ioctl
# helper, static, links the portable core) must be built on the host
# before the initramfs is made: `make -C selftests` (then scripts/vm.sh).
#
# Each selftests/test_NAME.sh prints "ok - what" / "not ok - what" lines
# (and "# comments"); this script numbers them ("ok N - what"), prints
# the plan and exits non-zero if any check failed or a test script exited
# non-zero.  Arguments select tests by NAME (e.g. 30-ping).
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
if [ $# -gt 0 ]; then
	tests=
	for n in "$@"; do tests="$tests test_${n#test_}"; done
else
	tests=$(ls test_*.sh | sed 's/\.sh$//')
fi
echo "TAP version 13"
n=0
fail=0
if [ ! -x ./mfctl ]; then
	echo "not ok 1 - selftests/mfctl missing: run 'make -C selftests' on the host"
	echo "1..1"
	exit 1
fi
res=/tmp/mf-selftest.$$
for t in $tests; do
	t=${t%.sh}
	echo "# ---- $t"
	start=$(cut -d' ' -f1 /proc/uptime)
	if [ ! -f "$t.sh" ]; then
		n=$((n + 1)); fail=$((fail + 1))
		echo "not ok $n - $t: no such test"
		continue
	fi
	sh "./$t.sh" >"$res.out" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*|"ok")
			n=$((n + 1)); echo "ok $n ${line#ok }" ;;
		"not ok"*)
			n=$((n + 1)); fail=$((fail + 1))
			echo "not ok $n ${line#not ok }" ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done <"$res.out"
	end=$(cut -d' ' -f1 /proc/uptime)
	if [ $rc != 0 ]; then
		n=$((n + 1)); fail=$((fail + 1))
		echo "not ok $n - $t exited with status $rc"
	fi
	echo "# $t: $(echo "$end $start" | awk '{printf "%.1f", $1 - $2}') s"
done
rm -f "$res.out"
echo "1..$n"
echo "# selftests: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
