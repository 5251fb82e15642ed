#!/usr/bin/env bash
# Host unit tests of the core and the tool: release build, under
# AddressSanitizer + UBSan, and as i386 binaries (32-bit size_t).  Each test binary prints TAP.
cd "${MF_TOP:-.}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for flavour in rel san m32; do
	for t in build/$flavour/tests/test_*; do
		[ -x "$t" ] || continue
		echo "# $flavour: $(basename "$t")"
		out=$("$t" 2>&1)
		rc=$?
		printf '%s\n' "$out" | sed -E "s/^(ok|not ok) [0-9]+ - /\1 - $flavour $(basename "$t"): /"
		if [ $rc != 0 ] && ! printf '%s\n' "$out" | grep -q '^not ok'; then
			echo "not ok - $flavour $(basename "$t") exited $rc"
		fi
	done
done
