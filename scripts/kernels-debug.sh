#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel of the test VM, built once and cached, the way
# WireGuard's selftests build theirs (DEBUG_KERNEL=yes): Debian's
# linux-source-6.1 (its own tree, scripts/linux-tree.sh debug), `make
# allnoconfig` plus scripts/kernels/debug.config (the VM's needs, the
# selftests' needs, KASAN, KFENCE, lockdep, kmemleak, debug objects,
# UBSAN, DEBUG_LIST, DEBUG_NET), built with the host's gcc (the compiler
# Debian builds 6.1 with) under `nice`.
#
#   scripts/kernels-debug.sh          build if needed; print the kernel
#                                     directory (see below)
#   scripts/kernels-debug.sh --check  exit 0 if the cached build is current
#
# Output: $MF_KERNELS/debug/ (default /var/tmp/meshfabric/kernels/debug):
#   vmlinuz       the bzImage
#   build/        the O= build tree: headers for `make -C build M=...`
#   kver          the kernel release (uname -r in the guest)
#   stamp         what the build was made from (config, tarball, gcc);
#                 a different input rebuilds, the same one never does
# Log: build.log beside them.  Concurrent callers wait on one lock.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=${MF_KERNELS:-/var/tmp/meshfabric/kernels}
out=$root/debug
frag=$top/scripts/kernels/debug.config
tarball=${MF_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${MF_DEBUG_JOBS:-$(nproc)}

key=$( {
	sha256sum "$frag" | cut -d' ' -f1
	stat -c '%s %Y' "$tarball" 2>/dev/null
	gcc --version | head -n 1
} | sha256sum | cut -d' ' -f1)
current() { [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$key" ] &&
	[ -f "$out/vmlinuz" ]; }
if [ "${1:-}" = --check ]; then
	current
	exit
fi
if current; then
	echo "$out"
	exit 0
fi
mkdir -p "$out"
# its own lock: scripts/kernels.sh holds "$root/.lock-debug" (the lock of
# the kernel it is asked for, debug) while it runs this script, and a
# second open file on that name would wait for it forever
exec 9>"$root/.lock-debug-build"
flock 9
if current; then
	echo "$out"
	exit 0
fi
tree=$(bash "$top/scripts/linux-tree.sh" debug)
rm -f "$out/stamp" "$out/vmlinuz"
b=$out/build
log=$out/build.log
echo "kernels-debug: building the debug kernel in $b (log $log)" >&2
{
	make -C "$tree" O="$b" KCONFIG_ALLCONFIG="$frag" allnoconfig
	# Every option the fragment asks for must have survived Kconfig's
	# dependencies: a silently dropped KASAN would make the run worthless.
	miss=
	while IFS= read -r l; do
		case $l in CONFIG_*=*) ;; *) continue ;; esac
		opt=${l%%=*} val=${l#*=}
		if [ "$val" = n ]; then
			grep -qx "$opt=y" "$b/.config" && miss="$miss $l"
		else
			grep -qxF "$l" "$b/.config" || miss="$miss $l"
		fi
	done <"$frag"
	if [ -n "$miss" ]; then
		echo "kernels-debug: not in .config:$miss"
		exit 1
	fi
	nice -n 10 make -C "$tree" O="$b" -j"$jobs" bzImage modules
} >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	echo "kernels-debug: build failed (log $log)" >&2
	exit 1
}
cp "$b/arch/x86/boot/bzImage" "$out/vmlinuz"
make -s -C "$tree" O="$b" kernelrelease >"$out/kver"
echo "$key" >"$out/stamp"
echo "$out"
