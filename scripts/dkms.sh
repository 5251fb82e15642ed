#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# meshfabric.ko through DKMS (root):
#   scripts/dkms.sh install VERSION   copy the module's sources to
#       /usr/src/meshfabric-VERSION with a dkms.conf, `dkms add`, then
#       build and install for the running kernel (if its headers are
#       installed) and for every kernel whose headers are
#   scripts/dkms.sh remove VERSION    `dkms remove --all`, delete the copy
#   scripts/dkms.sh build VERSION KVER [KDIR]
#       add and build for KVER only, print the .ko's path, remove again
#       (the CI check of 45-dkms: leaves the machine as it was); KDIR:
#       headers outside /lib/modules/KVER/build (--kernelsourcedir), e.g.
#       those scripts/kernels.sh unpacked under /var/tmp/meshfabric
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-} ver=${2:-}
[ -n "$cmd" ] && [ -n "$ver" ] || {
	echo "usage: $0 install|remove VERSION | build VERSION KVER [KDIR]" >&2
	exit 2
}
command -v dkms >/dev/null || {
	echo "dkms: not installed (apt-get install dkms, or make setup)" >&2
	exit 1
}
src=/usr/src/meshfabric-$ver

stage() {
	rm -rf "$src"
	mkdir -p "$src"
	cp -r "$top/Kbuild" "$top/include" "$src/"
	mkdir -p "$src/drivers/net"
	cp -r "$top/drivers/net/meshfabric" "$src/drivers/net/"
	find "$src" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o \
		-name '*.mod' -o -name '*.mod.c' -o -name '.*.d' \) -delete
	sed "s/@VERSION@/$ver/" "$top/scripts/dkms/dkms.conf.in" >"$src/dkms.conf"
	dkms add -m meshfabric -v "$ver" >/dev/null
}

unstage() {
	dkms remove -m meshfabric -v "$ver" --all >/dev/null 2>&1 || true
	rm -rf "$src"
}

case $cmd in
install)
	dkms status -m meshfabric -v "$ver" 2>/dev/null | grep -q . && unstage
	stage
	kernels=
	for h in /lib/modules/*/build; do
		[ -e "$h/Makefile" ] && kernels="$kernels $(basename "$(dirname "$h")")"
	done
	running=$(uname -r)
	case " $kernels " in
	*" $running "*) ;;
	*) echo "dkms: no headers for the running kernel $running;" \
		"building for the installed headers only" ;;
	esac
	[ -n "$kernels" ] || { echo "dkms: no kernel headers installed" >&2; exit 1; }
	for k in $kernels; do
		dkms install -m meshfabric -v "$ver" -k "$k"
	done
	;;
remove)
	unstage
	echo "dkms: meshfabric $ver removed"
	;;
build)
	k=${3:?kernel version}
	unstage
	stage
	trap unstage EXIT
	kdir=${4:-}
	dkms build -m meshfabric -v "$ver" -k "$k" \
		${kdir:+--kernelsourcedir="$kdir"} >/dev/null
	ko=$(find "/var/lib/dkms/meshfabric/$ver/$k" -name meshfabric.ko | head -n 1)
	# built for exactly that kernel
	[ -n "$ko" ] && modinfo -F name "$ko" >/dev/null &&
		[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$k" ] &&
		echo "$ko"
	;;
*)
	echo "usage: $0 install|remove VERSION | build VERSION KVER" >&2
	exit 2
	;;
esac
