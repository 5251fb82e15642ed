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
OUT=$(mktemp -d)
# on any exit (^C, a CI timeout's TERM), stop the binaries still running
# before their files go
stop() {
	local p
	for p in $(jobs -p); do
		pkill -P "$p" 2>/dev/null	# the binary: start_test's child
		kill "$p" 2>/dev/null
	done
	wait
	rm -rf "$OUT"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The binaries to run, as "FLAVOUR BINARY [CASE]" lines, in report order
list_tests() {
	local flavour t f
	for flavour in rel san m32; do
		for t in build/$flavour/tests/test_*; do
			[ -x "$t" ] || continue
			if [ -z "${MF_TEST_FILTER:-}" ]; then
				echo "$flavour $t"
				continue
			fi
			for f in $MF_TEST_FILTER; do
				[ "$(basename "$t")" = "${f%%/*}" ] || continue
				case $f in
				*/*) echo "$flavour $t ${f#*/}" ;;
				*) echo "$flavour $t" ;;
				esac
			done
		done
	done
}
# The i386 binaries run natively where the kernel runs them (IA32
# emulation), else under qemu-i386 (qemu-user, which make setup
# installs): some kernels leave IA32 out (this workplace's 6.18 hosts,
# where exec fails with status 126).  The probe asks a binary for a
# case it does not have, so it runs none.
m32_exec=
for t in build/m32/tests/test_*; do
	[ -x "$t" ] || continue
	MF_TEST_CASE=__probe "$t" </dev/null >/dev/null 2>&1
	if [ $? = 126 ] && command -v qemu-i386 >/dev/null; then
		m32_exec=qemu-i386
		note "m32: this kernel does not run i386 binaries: under qemu-i386"
	fi
	break
done
# start_test N FLAVOUR BINARY [CASE]: run it into $OUT/N.out and $OUT/N.rc
start_test() {
	local exec=
	[ "$2" = m32 ] && exec=$m32_exec
	MF_TEST_CASE=${4:-} $exec "$3" </dev/null >"$OUT/$1.out" 2>&1
	echo $? >"$OUT/$1.rc"
}
# report_test N FLAVOUR BINARY [CASE]: its TAP lines, renumbered as this
# suite's
report_test() {
	local name rc line
	name=$(basename "$3")
	note "$2: $name${4:+ $4}"
	rc=$(cat "$OUT/$1.rc")
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$2 $name: ${line#ok * - }" ;;
		"not ok "*) notok "$2 $name: ${line#not ok * - }" ;;
		[0-9]*..[0-9]*) ;;
		*) echo "$line" ;;
		esac
	done <"$OUT/$1.out"
	if [ "$rc" != 0 ] && ! grep -q '^not ok' "$OUT/$1.out"; then
		notok "$2 $name exited $rc"
	fi
}
# The binaries run as many at a time as there are CPUs (they are
# independent, and none is timed against the clock but test_remote's
# sleeps, which run in parallel anyway); the report keeps their order.
list_tests >"$OUT/jobs"
n=0
running=0
cpus=$(nproc)
# shellcheck disable=SC2086
while read -r flavour t c; do
	n=$((n + 1))
	start_test $n "$flavour" "$t" $c &
	running=$((running + 1))
	if [ "$running" -ge "$cpus" ]; then
		wait -n
		running=$((running - 1))
	fi
done <"$OUT/jobs"
wait
n=0
# shellcheck disable=SC2086
while read -r flavour t c; do
	n=$((n + 1))
	report_test $n "$flavour" "$t" $c
done <"$OUT/jobs"
if [ -n "${MF_TEST_FILTER:-}" ] && [ "$tap_n" = 0 ]; then
	notok "no unit test binary named in '$MF_TEST_FILTER' (build/*/tests/)"
fi
tap_end
