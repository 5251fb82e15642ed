#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel code quality: checkpatch.pl --strict (from linux-source-6.1,
# extracted once by scripts/linux-tree.sh into a pristine tree outside the
# checkout) on every kernel file, one TAP line per file, and the
# out-of-tree module build with W=1 and no warnings.
#
# checkpatch runs with --no-tree -f (files, not patches, outside a kernel
# tree).  Ignored checks, and why:
#   everywhere:
#     FILE_PATH_CHANGES   patch-only check (MAINTAINERS updates)
#   core/mf_compat.h only:
#     PREFER_KERNEL_TYPES its userspace branch defines u8..s64 from
#                         <stdint.h> types; that is its purpose
#   compat.h only:
#     LINUX_VERSION_CODE, CONSTANT_COMPARISON
#                         the one header whose purpose is to test the
#                         kernel's version (LINUX_VERSION_CODE >=
#                         KERNEL_VERSION(...)), as backports' headers do
#   trace.h only:
#     OPEN_ENDED_LINE, PARENTHESIS_ALIGNMENT
#                         TRACE_EVENT's layout, as in include/trace/events/
# Every other finding is a "not ok" with checkpatch's lines as comments.
cd "${MF_TOP:-.}"
. scripts/tap.sh
mkdir -p build
tree=$(bash scripts/linux-tree.sh pristine 2>build/linux-tree.log)
cp=$tree/scripts/checkpatch.pl
if [ -z "$tree" ] || [ ! -f "$cp" ]; then
	sed 's/^/# /' build/linux-tree.log
	notok "checkpatch.pl available (linux-source-6.1 tree)"
else
	files=$(find drivers/net/meshfabric kunit -name '*.[ch]' 2>/dev/null |
		grep -v '\.mod\.c$' | LC_ALL=C sort)
	files="$files include/uapi/linux/meshfabric.h"
	[ -f drivers/net/meshfabric/Kconfig ] && files="$files drivers/net/meshfabric/Kconfig"
	for f in $files; do
		ignore=FILE_PATH_CHANGES
		case $f in
		drivers/net/meshfabric/core/mf_compat.h)
			ignore=$ignore,PREFER_KERNEL_TYPES ;;
		drivers/net/meshfabric/compat.h)
			ignore=$ignore,LINUX_VERSION_CODE,CONSTANT_COMPARISON ;;
		drivers/net/meshfabric/trace.h)
			ignore=$ignore,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT ;;
		esac
		out=$(perl "$cp" --strict --no-tree -f --terse --show-types \
			--no-summary --ignore "$ignore" "$f" 2>&1)
		if [ $? = 0 ] && [ -z "$out" ]; then
			ok "checkpatch --strict $f"
		else
			printf '%s\n' "$out" | sed 's/^/# /'
			notok "checkpatch --strict $f"
		fi
	done
fi

# The module: W=1, and no line of the build may say "warning".
if [ ! -f Kbuild ] && [ ! -f drivers/net/meshfabric/Kbuild ]; then
	notok "module builds with W=1 and no warnings # no Kbuild yet"
	exit 0
fi
make -s module >build/module.log 2>&1
rc=$?
if [ $rc = 0 ] && ! grep -qiE 'warning|error' build/module.log &&
	[ -f drivers/net/meshfabric/meshfabric.ko ]; then
	ok "module builds with W=1 and no warnings"
else
	grep -iE 'warning|error' build/module.log | head -n 40 | sed 's/^/# /'
	[ $rc = 0 ] || tail -n 20 build/module.log | sed 's/^/# /'
	notok "module builds with W=1 and no warnings"
fi
