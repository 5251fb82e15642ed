#!/usr/bin/env bash
# Host unit tests of the core and the tool: release build, under
# AddressSanitizer + UBSan, and as i386 binaries (32-bit size_t).  Each
# test binary prints TAP (userspace/tests/mf_test.h).
#   MF_TEST_FILTER="test_route ..."   only these binaries;
#   "test_route/test_shortest_paths"  only that case of it (MF_TEST_CASE)
# (scripts/test.sh unit test_route/test_shortest_paths sets the filter).
cd "${MF_TOP:-.}"
. scripts/tap.sh
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# run_test FLAVOUR BINARY [CASE]: its TAP lines, renumbered as this suite's
run_test() {
	local name out rc line
	name=$(basename "$2")
	note "$1: $name${3:+ $3}"
	out=$(MF_TEST_CASE=${3:-} "$2" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$1 $name: ${line#ok * - }" ;;
		"not ok "*) notok "$1 $name: ${line#not ok * - }" ;;
		[0-9]*..[0-9]*) ;;
		*) echo "$line" ;;
		esac
	done <<<"$out"
	if [ $rc != 0 ] && ! grep -q '^not ok' <<<"$out"; then
		notok "$1 $name exited $rc"
	fi
}
for flavour in rel san m32; do
	for t in build/$flavour/tests/test_*; do
		[ -x "$t" ] || continue
		if [ -z "${MF_TEST_FILTER:-}" ]; then
			run_test $flavour "$t"
			continue
		fi
		for f in $MF_TEST_FILTER; do
			[ "$(basename "$t")" = "${f%%/*}" ] || continue
			case $f in
			*/*) run_test $flavour "$t" "${f#*/}" ;;
			*) run_test $flavour "$t" ;;
			esac
		done
	done
done
if [ -n "${MF_TEST_FILTER:-}" ] && [ "$tap_n" = 0 ]; then
	notok "no unit test binary named in '$MF_TEST_FILTER' (build/*/tests/)"
fi
tap_end
