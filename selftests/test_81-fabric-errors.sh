# SPDX-License-Identifier: GPL-2.0
# The tool's failure cases: each prints one line "meshfabric: ...",
# exits non-zero and leaves no namespace, netdev or fabric behind:
# module not loaded, bad input, name in use, a namespace name taken
# (fails midway, after the fabric and some namespaces were made), out of
# memory midway (the debugfs knob meshfabric/fail_netdev_after), no privilege, and
# an interrupted create.
. ./lib.sh
E=/tmp/mf-err.$$
nns() { "$IP" netns list | wc -l; }
nfab() { "$MF" list --names 2>/dev/null | wc -l; }
# fails WANT_RC "what" ARGS...: status WANT_RC, one line on stderr, no stdout
fails() {
	_want=$1 _what=$2; shift 2
	"$MF" "$@" >$E.out 2>$E.err
	_rc=$?
	if [ $_rc = "$_want" ] && [ ! -s $E.out ] && [ "$(wc -l <$E.err)" = 1 ] &&
	   grep -q '^meshfabric: ' $E.err; then
		ok "$_what: exit $_rc, one line: $(cat $E.err)"
	else
		nok "$_what: exit $_rc (want $_want), stderr '$(head -c 300 $E.err)', stdout '$(head -c 100 $E.out)'"
	fi
}
clean() {	# clean "what": nothing left behind
	check_eq "$1: no namespace, no fabric left" "$(nns) $(nfab)" "0 0"
}

unload 2>/dev/null
fails 1 "module not loaded" create --torus 2x2 --name a
check "the message names the module" grep -q 'no such device; is meshfabric.ko loaded? (modprobe meshfabric)' $E.err
check_eq "module not loaded: no namespace left" "$(nns)" 0
load
fails 2 "bad shape 1x4" create --torus 1x4
fails 2 "bad shape 8x" create --mesh 8x
fails 2 "too many nodes 300x300" create --mesh 300x300
fails 2 "bad hex size 1" create --hex 1
fails 2 "no topology" create --name a
fails 2 "bad name a-b" create --torus 2x2 --name a-b
fails 2 "bad name, 16 characters" create --torus 2x2 --name abcdefghijklmnop
fails 2 "routing a1 on a torus" create --torus 4x4 --routing a1
fails 2 "IPv4 prefix too small" create --torus 4x4 --ipv4 10.0.0.0/28
fails 2 "bad IPv4 prefix" create --torus 4x4 --ipv4 10.0.0.300/24
clean "bad input"

create --torus 3x3 --name f0
fails 1 "name in use" create --mesh 2x2 --name f0
check "the message says it exists" grep -q "exists already" $E.err
check_eq "name in use: f0 untouched (9 namespaces, 1 fabric)" "$(nns) $(nfab)" "9 1"
check "destroy f0" "$MF" destroy f0
fails 1 "destroy of an unknown fabric" destroy f0
fails 1 "show of an unknown fabric" show nosuch
fails 2 "exec without a command" exec f0 0,0 --
clean "name in use"

# a namespace of the new fabric exists already: fails at node (1,1)
# after CREATE and four namespaces; everything is undone.
"$IP" netns add g-1-1
fails 1 "a node's namespace name is taken (g-1-1)" create --torus 3x3 --name g
check_eq "midway failure: only the user's g-1-1 remains, no fabric" \
	"$("$IP" netns list | awk '{ print $1 }') $(nfab)" "g-1-1 0"
check "midway failure: no netdev 'g' in g-1-1" sh -c "! '$IP' -n g-1-1 link show g 2>/dev/null"
"$IP" netns del g-1-1

# out of memory midway: the 6th netdev allocation fails with -ENOMEM
FAIL=/sys/kernel/debug/meshfabric/fail_netdev_after
echo 5 >$FAIL
fails 1 "out of memory at the 6th netdev" create --torus 3x3 --name o
check "the message says out of memory" grep -qi 'memory' $E.err
check_eq "the injected failure was used up" "$(cat $FAIL)" -1
clean "out of memory"
check_eq "out of memory: allocation counter back to 0" "$(allocated_settled)" 0
echo -1 >$FAIL

# no privilege: a new user namespace (no CAP_NET_ADMIN over this netns)
if unshare -U true 2>/dev/null; then
	unshare -U "$MF" create --torus 3x3 --name u >$E.out 2>$E.err
	rc=$?
	check_eq "unprivileged (unshare -U): exit 1, one line" "$rc $(wc -l <$E.err) $(wc -c <$E.out)" "1 1 0"
	note "$(cat $E.err)"
	clean "unprivileged"
	unshare -Ur "$MF" create --torus 3x3 --name u >$E.out 2>$E.err
	rc=$?
	check_eq "root of a new user namespace (unshare -Ur): exit 1, one line" \
		"$rc $(wc -l <$E.err) $(wc -c <$E.out)" "1 1 0"
	note "$(cat $E.err)"
	clean "unshare -Ur"
else
	nok "unshare -U is not available in this VM"
fi

# interrupted: SIGINT during create of 256 nodes leaves all or nothing
"$MF" create --torus 16x16 --name i >/dev/null 2>$E.err &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 0 ]; then
	check_eq "SIGINT came late: the whole fabric exists" "$(nns) $(nfab)" "256 1"
	"$MF" destroy i >/dev/null
else
	check_eq "SIGINT during create: exit 1, '$(cat $E.err)'" "$rc $(wc -l <$E.err)" "1 1"
fi
clean "interrupted create"
wait_until 10 sh -c "[ \$(cat $PARAM) = 0 ]"
check_eq "allocation counter back to 0" "$(allocated_settled)" 0
check "rmmod" unload
rm -f $E.out $E.err
