#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (README, .ci/run): runs every suite in scripts/tests.d/
# in name order.  Each suite prints TAP ("ok N - ..." / "not ok N - ...")
# on stdout; this script counts top-level result lines of every suite and
# ends with one line "N passed, N failed".  A suite that exits non-zero
# without reporting a failure counts as one failure.  Nothing is skipped
# silently: a suite that cannot run must say "not ok".
#
#   scripts/test.sh              all suites
#   scripts/test.sh 20 vm        only suites whose file name contains 20 or vm
#   scripts/test.sh unit test_route
#                                an argument naming no suite narrows the
#   scripts/test.sh unit test_route/test_shortest_paths
#                                chosen suites (MF_TEST_FILTER): one unit
#   scripts/test.sh vm 40-bcast  test binary, one case of it, one selftest
set -u
cd "$(dirname "$0")/.."
export MF_TOP=$PWD
suites= filter=
for f in "$@"; do
	if (cd scripts/tests.d && ls -- *.sh) | grep -qF -- "$f"; then
		suites="$suites $f"
	else
		filter="$filter $f"
	fi
done
export MF_TEST_FILTER=${filter# }
if [ -n "$filter" ] && [ -z "$suites" ]; then
	echo "test.sh: no suite named in '$*' (scripts/tests.d/)" >&2
	exit 2
fi
# shellcheck disable=SC2086
set -- $suites
logdir=${MF_LOGDIR:-build/test-logs}
mkdir -p "$logdir"
passed=0 failed=0
for suite in scripts/tests.d/*.sh; do
	name=$(basename "$suite" .sh)
	if [ $# -gt 0 ]; then
		want=0
		for f in "$@"; do case $name in *"$f"*) want=1 ;; esac; done
		[ $want = 1 ] || continue
	fi
	echo "# ---- suite $name"
	start=$(date +%s)
	bash "$suite" 2>&1 | tee "$logdir/$name.log"
	rc=${PIPESTATUS[0]}
	p=$(grep -cE '^ok( |$)' "$logdir/$name.log")
	f=$(grep -cE '^not ok( |$)' "$logdir/$name.log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - suite $name exited $rc"
		f=1
	fi
	secs=$(( $(date +%s) - start ))
	echo "# suite $name: $p passed, $f failed ($secs s)"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
