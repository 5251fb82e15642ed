# SPDX-License-Identifier: GPL-2.0
#
# TAP output of the shell suites in scripts/tests.d/ (sourced; bash):
#   ok WHAT            "ok N - WHAT"
#   notok WHAT         "not ok N - WHAT"
#   note TEXT          "# TEXT"
#   comment FILE       FILE's lines as "# ..." comments (at most 40)
#   check WHAT CMD...  ok if CMD succeeds, else notok with its output
#   tap_end            the plan "1..N"
#   need_tool [T...]   make -s tool (and targets T) into $MF, else one
#                      "not ok" and exit 1 (uses the suite's $TMP, $MF)
# N counts this suite's result lines; scripts/test.sh counts "ok" and
# "not ok" lines of every suite.  tap_n may be set first when the suite
# passes on numbered lines of its own (50-vm).
tap_n=${tap_n:-0}
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
notok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
note() { echo "# $*"; }
comment() { head -n 40 "$@" | sed 's/^/# /'; }
check() {
	local what=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$what"
	else
		printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
		notok "$what"
	fi
}
tap_end() { echo "1..$tap_n"; }
need_tool() {
	if ! make -s tool "$@" >"$TMP/build.log" 2>&1 || [ ! -x "$MF" ]; then
		sed 's/^/# /' "$TMP/build.log" | tail -n 20
		notok "the tool builds (everything below needs it)"
		exit 1
	fi
}
