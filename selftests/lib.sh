# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the selftests (sourced).  busybox sh.
MFCTL=${MFCTL:-/mf/selftests/mfctl}
KO=${MF_KO:-/mf/meshfabric.ko}
IP=${MF_IP:-/usr/sbin/ip}
PARAM=/sys/module/meshfabric/parameters/allocated

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
note() { echo "# $*"; }
# check "what" CMD...: ok if CMD succeeds
check() {
	_what=$1; shift
	if "$@"; then ok "$_what"; else nok "$_what"; fi
}
# check_rc "what" WANT CMD...: ok if CMD exits with status WANT
check_rc() {
	_what=$1; _want=$2; shift 2
	"$@" >/dev/null 2>&1
	_rc=$?
	if [ "$_rc" = "$_want" ]; then ok "$_what"; else nok "$_what (status $_rc, want $_want)"; fi
}
# check_eq "what" GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1 (got '$2', want '$3')"; fi
}
load() { lsmod | grep -q '^meshfabric ' || insmod "$KO"; }
unload() { lsmod | grep -q '^meshfabric ' && rmmod meshfabric; }
allocated() { cat "$PARAM"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
elapsed() { echo "$1 $(uptime_s)" | awk '{printf "%.2f", $2 - $1}'; }
# value of KEY in `mfctl info ID`
info() { "$MFCTL" info "$1" | awk -v k="$2" '$1 == k { print $2 }'; }
# wait_until SECONDS CMD...: poll CMD every 0.1 s
wait_until() {
	_t=$(($1 * 10)); shift
	while [ $_t -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_t=$((_t - 1))
	done
	return 1
}
# gone_is ID N: INFO reports N nodes gone
gone_is() { test "$(info "$1" gone)" = "$2"; }
mac_of() {	# mac_of FABRIC NODE
	printf '02:6d:%02x:%02x:%02x:%02x\n' "$1" $(($2 >> 16 & 255)) \
		$(($2 >> 8 & 255)) $(($2 & 255))
}
addr_of() {	# addr_of FABRIC NODE [4]: the node's IPv6 (or IPv4) address
	"${MF:-meshfabric}" show "$1" "$2" | awk -v v="${3:-6}" '$1 == "address" {
		if ((v == 6) == (index($2, ":") > 0)) { sub("/.*", "", $2); print $2; exit } }'
}
