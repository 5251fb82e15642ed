#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Selftests of meshfabric.ko in a VM (scripts/vm.sh: Debian's 6.1 kernel
# under qemu TCG): builds the module, the tool and selftests/mfctl, boots
# once, runs /mf/selftests/run.sh and passes its TAP lines through, then
# one line for the VM itself (selftests' exit status and a kernel log free of
# warnings, oopses, KASAN/lockdep and leak reports).
#   MF_VM_TIMEOUT (default 1500 s), MF_VM_MEM (default 1536 MB),
#   MF_SELFTESTS="test_a test_b" to run only some (or scripts/test.sh vm
#   40-bcast 50-lifecycle: MF_TEST_FILTER).
cd "${MF_TOP:-.}"
. scripts/tap.sh
mkdir -p build
if ! make -s module >build/vm-module.log 2>&1; then
	tail -n 20 build/vm-module.log | sed 's/^/# /'
	notok "vm: meshfabric.ko builds (no selftests run)"
	exit 0
fi
if ! make -s tool >build/vm-tool.log 2>&1; then
	tail -n 20 build/vm-tool.log | sed 's/^/# /'
	notok "vm: build/meshfabric builds (no selftests run)"
	exit 0
fi
# The selftests' static helpers (mfctl, mfctl32) are built on the host.
if ! make -s -C selftests >build/vm-selftests-build.log 2>&1; then
	tail -n 20 build/vm-selftests-build.log | sed 's/^/# /'
	notok "vm: selftests helpers build (make -C selftests)"
	exit 0
fi
# shellcheck disable=SC2086
bash scripts/vm.sh --timeout "${MF_VM_TIMEOUT:-1500}" --mem "${MF_VM_MEM:-1536}" \
	-- sh /mf/selftests/run.sh ${MF_SELFTESTS:-${MF_TEST_FILTER:-}} >build/vm-selftests.log 2>&1
rc=$?
# TAP lines of the selftests as they are; everything else as comments.
sed -E '/^(not )?ok( |$)/!s/^/# /' build/vm-selftests.log
tap_n=$(grep -cE '^(not )?ok( |$)' build/vm-selftests.log)
if [ $rc = 0 ]; then
	ok "vm: selftests exit 0, guest kernel log clean"
else
	why=$(grep -m1 '^vm: ' build/vm-selftests.log)
	notok "vm: selftests exit 0, guest kernel log clean (${why:-status $rc})"
fi
