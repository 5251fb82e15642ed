#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The selftests on the kernels other than the host's stock 6.1 (50-vm):
#   6.12, 7.2  Debian 12's 6.12 and the newest kernel in Debian's archive
#              (sid), fetched and unpacked by scripts/kernels.sh: the
#              module must build with W=1 and no warning, then the named
#              subset below runs in the VM (load, a small torus pinged
#              all pairs, broadcast, timed links, faults, destroy,
#              unload)
#   debug      the debug kernel (scripts/kernels-debug.sh: built once from
#              linux-source-6.1, cached): the debug subset below (the
#              whole suite with MF_DEBUG_FULL=1), then a kmemleak scan; any KASAN, UBSAN, KFENCE, lockdep, RCU, debug-objects,
#              kmemleak or WARN report fails it (scripts/vm.sh)
# The selftests' TAP lines are passed through with the kernel's name.
# The debug kernel runs when it is built (cached under /var/tmp/meshfabric:
# `make kernels`, or scripts/kernels-debug.sh) or MF_DEBUG_KERNEL=1 asks
# for it to be built here: its build and its suite under KASAN and lockdep
# in TCG have not yet been timed on a quiet machine, and CI allows 90
# minutes for everything.  When it is left out, a comment says so.
#   MF_KERNELS_TEST="6.12 7.2 debug" chooses the kernels,
#   MF_KERNEL_SUBSET and MF_DEBUG_SUBSET the subsets, MF_VM_TIMEOUT / MF_VM_DEBUG_TIMEOUT
#   the time limits (s).
cd "${MF_TOP:-.}"
. scripts/tap.sh
mkdir -p build
subset=${MF_KERNEL_SUBSET:-00-load 30-ping 40-bcast 45-timed 46-faults 50-lifecycle}
# On the debug kernel the paths the sanitizers must watch, none of them
# timed against the wall clock: module load, who may do what from a user
# namespace, netdevs and forwarding, node and offloaded broadcasts,
# faults, the asynchronous DESTROY racing namespace teardown, external
# ports (rx_handler on a veth), collectives executed by the kernel, the
# tunnel's input from the network (fragments, a peer's BCAST sends), the
# ioctl fuzzer (every command, user collective schedules).  The whole suite (MF_DEBUG_FULL=1) takes longer
# than the test command's budget under KASAN and lockdep in TCG, and its
# throughput checks are calibrated for the stock kernel.
dsubset=${MF_DEBUG_SUBSET:-00-load 11-userns 30-ping 40-bcast 46-faults 50-lifecycle 52-port 53-tunnel-input 54-tunnel-sched 55-coll 56-tunnel-path 90-fuzz}
[ "${MF_DEBUG_FULL:-0}" = 1 ] && dsubset=
if ! make -s tool >build/vm-tool.log 2>&1 ||
   ! make -s -C selftests >build/vm-selftests-build.log 2>&1; then
	notok "kernels: the tool and the selftests' helpers build"
	exit 0
fi
kernels=${MF_KERNELS_TEST:-}
if [ -z "$kernels" ]; then
	kernels="6.12 7.2"
	if [ "${MF_DEBUG_KERNEL:-0}" = 1 ] || bash scripts/kernels-debug.sh --check; then
		kernels="$kernels debug"
	else
		note "debug kernel not built: not run (make kernels, or MF_DEBUG_KERNEL=1)"
	fi
fi
for k in $kernels; do
	log=build/vm-kernel-$k.log
	start=$(date +%s)
	if ko=$(bash scripts/kernels.sh module "$k" 2>build/kernels-$k.log); then
		if grep -qi 'warning' "$(dirname "$ko")/module.log"; then
			grep -i 'warning' "$(dirname "$ko")/module.log" | comment
			notok "[$k] meshfabric.ko builds with W=1 and no warning"
		else
			ok "[$k] meshfabric.ko builds with W=1 and no warning ($(basename "${ko%/ko/*/meshfabric.ko}"))"
		fi
	else
		comment build/kernels-$k.log
		notok "[$k] meshfabric.ko builds (scripts/kernels.sh module $k)"
		continue
	fi
	if [ "$k" = debug ]; then
		# shellcheck disable=SC2086
		bash scripts/vm.sh --kernel debug --mem 2048 \
			--timeout "${MF_VM_DEBUG_TIMEOUT:-2400}" \
			-- sh /mf/selftests/run.sh ${MF_TEST_FILTER:-$dsubset} >"$log" 2>&1
	else
		# shellcheck disable=SC2086
		bash scripts/vm.sh --kernel "$k" --mem 1536 \
			--timeout "${MF_VM_TIMEOUT:-1500}" \
			-- sh /mf/selftests/run.sh ${MF_TEST_FILTER:-$subset} >"$log" 2>&1
	fi
	rc=$?
	sed -E "/^(not )?ok( |$)/!s/^/# /; s/^((not )?ok [0-9]+ )/\\1[$k] /" "$log"
	secs=$(( $(date +%s) - start ))
	if [ $rc = 0 ]; then
		ok "[$k] selftests exit 0, guest kernel log clean ($secs s)"
	else
		why=$(grep -m1 '^vm: ' "$log")
		notok "[$k] selftests exit 0, guest kernel log clean (${why:-status $rc}; $secs s)"
	fi
done
