#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: meshfabric in one command, on a fresh Debian 12 machine.
# Installs what is missing (scripts/setup.sh, as root or with sudo),
# builds the tool and the module, boots the test VM (scripts/vm.sh: the
# stock Debian kernel under qemu), loads meshfabric.ko and runs:
#
#   meshfabric create --torus 7x7 --name f0     49 namespaces, addresses
#   meshfabric show f0 3,4                       a node and its address
#   meshfabric exec f0 0,0 -- ping ...           across the fabric
#   meshfabric bcast f0 --from 0,0 --steps       broadcast from a corner:
#                                                statistics and schedule
#   meshfabric stats f0                          per-link counters
#   meshfabric destroy f0
#
# then unloads the module and powers the VM off.  Arguments replace the
# scenario by one meshfabric command (run in the VM, module loaded):
#   make demo ARGS="create --hex 4"      scripts/demo.sh create --hex 4
# The output is also written to build/demo.log.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p build
log=build/demo.log
say() { echo "== $*"; }

{
say "setup: packages (scripts/setup.sh)"
bash scripts/setup.sh || { echo "demo: setup failed (run as root, or with sudo)"; exit 1; }
say "build: the tool and meshfabric.ko"
make -s tool || { echo "demo: building the tool failed"; exit 1; }
make -s module >build/demo-module.log 2>&1 ||
	{ tail -n 20 build/demo-module.log; echo "demo: building the module failed"; exit 1; }

if [ $# -gt 0 ]; then
	q=
	for a in "$@"; do
		q="$q '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
	done
	scenario="run meshfabric$q; rc=\$?; run meshfabric list; meshfabric destroy --all >/dev/null 2>&1"
else
	scenario='
run meshfabric create --torus 7x7 --name f0 || exit 1
run meshfabric list
run meshfabric show f0 3,4
a34=$(addr f0 3,4) a66=$(addr f0 6,6)
run meshfabric exec f0 0,0 -- ping -c 3 $a34
run meshfabric exec f0 0,0 -- ping -c 1 $a66
meshfabric stats f0 --reset >/dev/null
run meshfabric bcast f0 --from 0,0 --steps
run meshfabric stats f0 --top 10
run meshfabric destroy f0
run /usr/sbin/ip netns list
rc=0'
fi
guest='
run() { echo; echo "\$ $*"; "$@"; }
addr() { meshfabric show "$1" "$2" | awk '"'"'$1 == "address" { sub("/.*", "", $2); print $2; exit }'"'"'; }
echo "== in the VM: kernel $(uname -r), loading meshfabric.ko"
insmod /mf/meshfabric.ko || exit 1
'"$scenario"'
echo
echo "== unloading meshfabric.ko"
rmmod meshfabric || rc=1
exit $rc'
say "boot: test VM (qemu, Debian kernel)"
scripts/vm.sh --timeout 600 -- sh -c "$guest"
rc=$?
[ $rc = 0 ] && say "demo: done, VM shut down cleanly" || say "demo: FAILED (status $rc)"
exit $rc
} 2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
