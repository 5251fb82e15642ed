# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
#
# Shared shape of the VM benchmarks (create-profile.sh, scale-bench.sh,
# dataplane-bench.sh, bcast-bench.sh): sourced, not run.
#
#   . "$(dirname "$0")/bench-lib.sh"
#   bench_init NAME MEM          cd to the top, mem=MEM, vmsh (MF_VM_SH)
#   bench_opt() { ... }          the script's own options: called with the
#                                remaining arguments, returns how many it
#                                took (1 or 2), 0 for an unknown option
#   bench_args "USAGE" LAST "$@" parse --mem MB, --kernel K (vm.sh's
#                                --kernel: host, 6.1, 6.12, 7.2, debug),
#                                -h (prints lines 3..LAST of the script)
#                                and the script's options
#   bench_build                  make the tool and the module
#   bench_vm NOTE TIMEOUT GUEST GREP_ARGS...
#                                boot the VM with $mem MB, run the guest
#                                script (sh -c), keep its output in $out,
#                                show what `grep GREP_ARGS` keeps of it,
#                                host load before and after; sets rc
#   bench_get KEY                the value of the guest's "BENCH KEY value"
#
# $BENCH_GUEST_LIB is shell for the guest: now (uptime in seconds) and
# dt T0 (seconds since T0, two decimals).
bench_init() {
	bench=$1 mem=$2 kname=host
	top=$(cd "$(dirname "$0")/.." && pwd)
	cd "$top" || exit 1
	vmsh=${MF_VM_SH:-scripts/vm.sh}
}

bench_args() {
	local usage=$1 help=$2 k
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--mem) mem=$2; shift 2; continue ;;
		--kernel) kname=$2; shift 2; continue ;;
		-h|--help) sed -n "3,${help}p" "$0"; exit 0 ;;
		esac
		k=0
		[ "$(type -t bench_opt)" = function ] && { bench_opt "$@"; k=$?; }
		[ "$k" -gt 0 ] || { echo "usage: $0 $usage" >&2; exit 2; }
		shift "$k"
	done
}

bench_build() {
	make -s tool >/dev/null || { echo "$bench: make tool failed" >&2; exit 1; }
	make -s module >/dev/null 2>&1 || [ -f drivers/net/meshfabric/meshfabric.ko ] ||
		{ echo "$bench: make module failed" >&2; exit 1; }
}

bench_vm() {
	local note=$1 timeout=$2 guest=$3
	shift 3
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	echo "# $bench: booting the VM (kernel $kname, -m $mem, TCG); $note"
	echo "# host load before: $(uptime)"
	"$vmsh" --kernel "$kname" --mem "$mem" --timeout "$timeout" -- sh -c "$guest" | tee "$out" | grep "$@"
	rc=${PIPESTATUS[0]}
	echo "# host load after: $(uptime)"
}

bench_get() {
	awk -v k="$1" '$1 == "BENCH" && $2 == k { print $3 }' "$out"
}

# shellcheck disable=SC2016
BENCH_GUEST_LIB='now() { cut -d" " -f1 /proc/uptime; }
dt() { echo "$1 $(now)" | awk "{ printf \"%.2f\", \$2 - \$1 }"; }
'
