# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the selftests (sourced).  busybox sh.
#
# The tests drive what users run: the meshfabric tool ($MF) and iproute2
# ($IP); selftests/mfctl only for what the tool cannot do (mfctl.c: raw
# requests, listeners in every namespace, the fuzzer, floods).  As
# tools/testing/selftests/wireguard/netns.sh, a trap cleans up when a test
# ends, passing or not: every fabric, every named namespace, background
# jobs, the module, so the next test starts from nothing.
MF=${MF:-meshfabric}
MFCTL=${MFCTL:-/mf/selftests/mfctl}
KO=${MF_KO:-/mf/meshfabric.ko}
IP=${MF_IP:-/usr/sbin/ip}
PARAM=/sys/module/meshfabric/parameters/allocated
TMP=/tmp/mf-test.$$

cleanup() {
	set +e
	# shellcheck disable=SC2046
	kill $(jobs -p) 2>/dev/null
	if [ -e /dev/meshfabric ]; then
		for f in $("$MF" list --names 2>/dev/null); do
			"$MF" destroy "$f" >/dev/null 2>&1
		done
	fi
	"$IP" -all netns delete 2>/dev/null
	lsmod | grep -q '^meshfabric ' && rmmod meshfabric 2>/dev/null
	rm -rf "$TMP" "$TMP".*
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$TMP"

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; }
note() { echo "# $*"; }
# check "what" CMD...: ok if CMD succeeds
check() {
	_what=$1; shift
	if "$@"; then ok "$_what"; else nok "$_what"; fi
}
# debug_kernel: the debug kernel (scripts/kernels-debug.sh: KASAN,
# lockdep, kmemleak, ...), on which everything runs several times slower
debug_kernel() {
	case $(uname -r) in *-mfdebug) return 0 ;; esac
	return 1
}
# check_timed "what" CMD...: a wall-clock bound calibrated on the stock
# kernel: as check; on the debug kernel a miss is a TAP SKIP with the
# reason (the documented per-kernel difference: README, "Kernels"), the
# paths having run under the sanitizers all the same
check_timed() {
	_what=$1; shift
	if "$@"; then
		ok "$_what"
	elif debug_kernel; then
		ok "$_what # SKIP a stock-kernel time bound, missed on the debug kernel"
	else
		nok "$_what"
	fi
}
# check_rc "what" WANT CMD...: ok if CMD exits with status WANT
check_rc() {
	_what=$1; _want=$2; shift 2
	"$@" >/dev/null 2>&1
	_rc=$?
	if [ "$_rc" = "$_want" ]; then
		ok "$_what"
	else
		nok "$_what (status $_rc, want $_want)"
	fi
}
# check_eq "what" GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		nok "$1 (got '$2', want '$3')"
	fi
}
# check_fails "what" PATTERN CMD...: CMD exits non-zero, its error
# matches PATTERN
check_fails() {
	_what=$1 _pat=$2; shift 2
	if "$@" >/dev/null 2>"$TMP/err" || ! grep -q "$_pat" "$TMP/err"; then
		nok "$_what (stderr '$(head -c 200 "$TMP/err")')"
	else
		ok "$_what"
	fi
}
# create ARGS...: check `meshfabric create ARGS`, note how long it took
create() {
	_t0=$(uptime_s)
	check "create $*" "$MF" create "$@"
	note "create: $(elapsed "$_t0") s"
}
# need_iperf: iperf3 in the guest, or a failure and the test ends
IPERF=/usr/bin/iperf3
need_iperf() {
	[ -x $IPERF ] && return 0
	nok "iperf3 in the guest (make setup installs it)"
	exit 0
}
load() { lsmod | grep -q '^meshfabric ' || insmod "$KO"; }
unload() { lsmod | grep -q '^meshfabric ' && rmmod meshfabric; }
allocated() { cat "$PARAM"; }
# allocated_settled: the allocation counter once the namespaces a
# `meshfabric destroy` deleted are cleaned up (the kernel unregisters
# their netdevs asynchronously, as after `ip netns del`, and cleanup_net
# runs namespaces' exits in batches; the fabric lives until its last
# netdev is gone): polls for 0 as long as the counter keeps falling (120 s
# without progress ends it, 600 s at most, for a loaded TCG guest: after
# the fuzzer's thousands of namespaces, one cleanup_net batch frees its
# fabrics only at its end, and CI's guest once took over 30 s for it,
# the counter at 2954 when the old limit gave up and 0 at rmmod), notes
# how long it took, prints the counter; when it is not 0, notes what
# still holds it (to stderr, so the test's log has it)
allocated_settled() {
	_t0=$(uptime_s)
	_last=$(allocated)
	_still=0
	_all=0
	while [ "$(allocated)" != 0 ] && [ $_still -lt 1200 ] &&
	      [ $_all -lt 6000 ]; do
		sleep 0.1
		_now=$(allocated)
		if [ "$_now" = "$_last" ]; then
			_still=$((_still + 1))
		else
			_still=0
			_last=$_now
		fi
		_all=$((_all + 1))
	done
	_left=$(allocated)
	if [ "$_left" = 0 ]; then
		note "allocation counter at 0 after $(elapsed "$_t0") s" >&2
	else
		note "allocation counter $_left after $(elapsed "$_t0") s;" \
		     "fabrics: $("$MF" -j list 2>&1 | head -c 2000)" >&2
		note "network namespaces held by processes: $(for _f in \
			/proc/[0-9]*/ns/net; do readlink "$_f"; done 2>/dev/null |
			sort -u | wc -l), processes: $(ls -d /proc/[0-9]* |
			wc -l), named: $(ls /var/run/netns 2>/dev/null |
			wc -l), node netdevs here: $("$IP" -o link show \
			type meshfabric 2>/dev/null | wc -l)" >&2
	fi
	echo "$_left"
}
# split_2x2: part 0 of 2 of a 2x2 mesh "t" (id 5; nodes 0 and 2 here)
# whose peer for part 1 is the plain namespace "atk" (10.9.0.2) at the
# far end of a veth u0/u1 (10.9.0.1 here): tests 53 and 54
split_2x2() {
	modprobe veth 2>/dev/null ||
		insmod /lib/modules/$(uname -r)/kernel/drivers/net/veth.ko 2>/dev/null
	"$IP" netns add atk
	"$IP" link add u0 type veth peer name u1 netns atk
	"$IP" addr add 10.9.0.1/24 dev u0
	"$IP" link set u0 up
	"$IP" -n atk addr add 10.9.0.2/24 dev u1
	"$IP" -n atk link set u1 up
	create --mesh 2x2 --name t --id 5 --ipv4 10.0.0.0/24 --no-ipv6 \
		--part 0/2 --peer 10.9.0.1 --peer 10.9.0.2
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
elapsed() { echo "$1 $(uptime_s)" | awk '{printf "%.2f", $2 - $1}'; }
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
# jget KEY: the first KEY's value in the JSON on stdin, without quotes
# or brackets ("a" -> a, [3,4] -> 3,4)
jget() {
	grep -o "\"$1\":\(\[[^]]*\]\|\"[^\"]*\"\|[^,}]*\)" | head -n 1 |
		sed 's/^"[^"]*"://; s/["[]//g; s/]//g'
}
# fab FABRIC KEY: a field of `meshfabric -j show FABRIC` (nodes, present,
# gone, table_bytes, routing, kind, id, ...)
fab() { "$MF" -j show "$1" | jget "$2"; }
# node FABRIC NODE KEY: a field of the node (state, ifindex, ifname,
# namespace, mac, coords)
node() { "$MF" -j show "$1" "$2" | sed 's/.*"nodes_shown"://' | jget "$3"; }
# gone_is FABRIC N: the fabric reports N nodes gone
gone_is() { test "$(fab "$1" gone)" = "$2"; }
# path FABRIC SRC DST: the kernel's route, node ids separated by spaces
path() {
	"$MF" -j route "$1" "$2" "$3" |
		sed -n 's/.*"path":\[\([0-9,]*\)\].*/\1/p' | tr , ' '
}
# links FABRIC: "node peer packets bytes" of every link that counted
links() {
	"$MF" -j stats "$1" | sed 's/.*"links":\[//; s/},{/}\
{/g' |
		tr ':,{}' '    ' |
		awk '$1 == "\"node\"" { print $2, $6, $8, $10 }'
}
mac_of() {	# mac_of FABRIC_ID NODE: the uapi's layout 02:6d:FF:NN:NN:NN
	printf '02:6d:%02x:%02x:%02x:%02x\n' "$1" $(($2 >> 16 & 255)) \
		$(($2 >> 8 & 255)) $(($2 & 255))
}
addr_of() {	# addr_of FABRIC NODE [4]: the node's IPv6 (or IPv4) address
	"$MF" show "$1" "$2" | awk -v v="${3:-6}" '$1 == "address" &&
		(v == 6) == (index($2, ":") > 0) {
			sub("/.*", "", $2)
			print $2
			exit
		}'
}
# mkfabric KIND DIMS ROUTING NAME: a fabric without netdevs (a raw CREATE,
# which the tool never does): prints "ID NODES NPORTS", or fails
mkfabric() {
	_k=$(echo "mesh torus hex" | tr ' ' '\n' | grep -nx "$1" | cut -d: -f1)
	_r=$(echo "dor diagonal a1 cdo" | tr ' ' '\n' | grep -nx "$3" | cut -d: -f1)
	set -- $("$MFCTL" ioctl 0 CREATE kind="$_k" routing="${_r:-0}" \
		ndims="$(echo "$2" | tr x '\n' | grep -c .)" dims="$(echo "$2" | tr x ,)" \
		name="$4" @id @nodes @nports)
	[ "$1" = 0 ] && echo "$2 $3 $4"
}
# attach ID NODE NETNS [IFNAME]: ATTACH node NODE of fabric ID into the
# namespace NETNS (the tool attaches into its own only): prints 0 or the
# errno's name
attach() {
	"$IP" netns exec "$3" "$MFCTL" ioctl "$1" ATTACH node="$2" \
		${4:+ifname="$4"}
}
# hop_nodes ID NODE..: each NODE of fabric ID attached into a namespace
# named as its netdev (mfIDnNODE), the netdev up (bench_hop.sh, test_44)
hop_nodes() {
	_id=$1
	shift
	for _n in "$@"; do
		"$IP" netns add "mf${_id}n$_n"
		attach "$_id" "$_n" "mf${_id}n$_n" >/dev/null
		"$IP" -n "mf${_id}n$_n" link set "mf${_id}n$_n" up
	done
}
# least VAR VALUE: VAR becomes VALUE if it is empty or larger
least() {
	eval "_o=\$$1"
	[ -z "$_o" ] || [ "$2" -lt "$_o" ] && eval "$1=$2"
}
# bad_ioctls MFCTL: the requests of bad_ioctl.tab from MFCTL (mfctl,
# mfctl32) on a 2x2 torus made for them, each answer against the table's
bad_ioctls() {
	_id=$("$1" ioctl 0 CREATE name=badt @id | awk '$1 == 0 { print $2 }')
	set -f
	grep -v '^#' ./bad_ioctl.tab | while IFS='|' read -r _want _req _what; do
		# shellcheck disable=SC2086
		check_eq "bad ioctl: $(echo $_what) -> $(echo $_want)" \
			"$("$1" ioctl "$_id" $_req)" "$(echo $_want)"
	done
	set +f
	"$MF" destroy un1 >/dev/null 2>&1
}
