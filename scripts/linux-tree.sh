#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the Debian linux-source-6.1 tarball once, outside the checkout,
# and print the tree's path.  Idempotent: a tree that is complete (stamp
# file present) is reused; an interrupted extraction is redone.
#
#   scripts/linux-tree.sh pristine   scripts/ only, unmodified (checkpatch.pl
#                                    with --no-tree needs nothing else)
#   scripts/linux-tree.sh kunit      the whole tree; the KUnit runner writes
#                                    into it (driver copied in, Kconfig
#                                    hooked) and kunit.py builds from it
#   scripts/linux-tree.sh debug      the whole tree, unmodified: the debug
#                                    kernel is built from it with O=
#                                    (scripts/kernels-debug.sh)
#
# Separate trees because kunit.py and the runner modify theirs, while
# checkpatch and the debug kernel must see an unmodified one.  Root: $MF_KTREE_ROOT, default
# /var/tmp/meshfabric.  Tarball: $MF_LINUX_TARBALL, default
# /usr/src/linux-source-6.1.tar.xz.
set -eu
which=${1:-pristine}
root=${MF_KTREE_ROOT:-/var/tmp/meshfabric}
tarball=${MF_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
case $which in
pristine) dir=$root/linux-source-6.1 ;;
kunit) dir=$root/kunit-tree ;;
debug) dir=$root/debug-tree ;;
*) echo "usage: $0 pristine|kunit|debug" >&2; exit 2 ;;
esac
stamp=$dir/.meshfabric-extracted
if [ -f "$stamp" ]; then
	echo "$dir"
	exit 0
fi
if [ ! -f "$tarball" ]; then
	echo "linux-tree: $tarball missing (make setup installs linux-source-6.1)" >&2
	exit 1
fi
mkdir -p "$root"
# One extraction at a time (40-kernel and kunit may start together).
exec 9>"$root/.lock-$which"
flock 9
if [ ! -f "$stamp" ]; then
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	echo "linux-tree: extracting $tarball into $dir" >&2
	if [ "$which" = pristine ]; then
		tar -xf "$tarball" -C "$dir.tmp" --strip-components=1 \
			--wildcards '*/scripts/*'
	else
		tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
	fi
	mv "$dir.tmp" "$dir"
	touch "$stamp"
fi
echo "$dir"
