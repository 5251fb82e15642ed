#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test VM's base initramfs (uncompressed newc cpio) for
# scripts/vm.sh:  scripts/vm/mkinitramfs.sh OUT.cpio KVER
#   /init                    scripts/vm/init
#   /bin/busybox             busybox-static (applets installed at boot)
#   /usr/sbin/ip             iproute2 and the libraries ldd names (call it
#                            by full path: busybox's sh prefers its applet)
#   /mf/meshfabric           build/meshfabric (if built) and its libraries
#   /mf/meshfabric.ko        $MF_VM_KO (default drivers/net/meshfabric/
#                            meshfabric.ko), if built
#   /mf/selftests/           the repo's selftests/
#   /usr/bin/mpirun.openmpi  Open MPI (orterun, orted, components, PMIx,
#   /mf/mf-mpirun            libraries: 20 MB) if installed (make setup:
#                            openmpi-bin), and scripts/mf-mpirun; left out
#                            with MF_VM_MPI=0
#   /lib/modules/KVER/...    veth.ko from $MF_VM_MODDIR (default
#                            /lib/modules/KVER: linux-image), decompressed
#                            if the kernel's package ships it as .ko.xz
# The per-run command is a second cpio appended by scripts/vm.sh.
set -eu
out=$1
kver=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/mf-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# copy a binary and the shared libraries it needs, at their own paths
add_bin() {
	local src=$1 dst=$2 lib
	mkdir -p "$stage$(dirname "$dst")"
	cp -L "$src" "$stage$dst"
	for lib in $(ldd "$src" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,run,tmp,root,etc,mf,lib64}
bb=$(command -v busybox || true)
if [ -z "$bb" ] || ldd "$bb" >/dev/null 2>&1; then
	# must be the static build (busybox-static)
	[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 && bb=/bin/busybox
fi
if [ -z "$bb" ] || ldd "$bb" >/dev/null 2>&1; then
	echo "mkinitramfs: busybox-static missing (make setup)" >&2
	exit 1
fi
cp "$bb" "$stage/bin/busybox"
install -m 755 "$top/scripts/vm/init" "$stage/init"
add_bin /usr/sbin/ip /usr/sbin/ip
mkdir -p "$stage/etc/iproute2"
[ -d /etc/iproute2 ] && cp -r /etc/iproute2/. "$stage/etc/iproute2/" 2>/dev/null || true
[ -d /usr/share/iproute2 ] && mkdir -p "$stage/usr/share" &&
	cp -r /usr/share/iproute2 "$stage/usr/share/" 2>/dev/null || true
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"
echo "127.0.0.1 localhost" >"$stage/etc/hosts"

# ethtool (test_39) and benchmarks: iperf3 (make setup installs both),
# strace if present, and
# the static programs the bench scripts build into build/guest/
[ -x /usr/bin/iperf3 ] && add_bin /usr/bin/iperf3 /usr/bin/iperf3
[ -x /usr/bin/strace ] && add_bin /usr/bin/strace /usr/bin/strace
[ -x /usr/sbin/ethtool ] && add_bin /usr/sbin/ethtool /usr/sbin/ethtool
# perf only on request (MF_VM_PERF=1: 33 MB with its libraries), for profiles
if [ "${MF_VM_PERF:-0}" = 1 ] && [ -x /usr/bin/perf ]; then
	add_bin /usr/bin/perf /usr/bin/perf
fi
# MPI across the fabric (test_57, coll-bench): Open MPI's mpirun and
# orted, its components and PMIx's (loaded at run time), the libraries
# ldd names for all of them (one ldd for all), its configuration and help
# texts, and the launcher
ma=$(${CC:-cc} -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
ompi=/usr/lib/$ma/openmpi
pmix=/usr/lib/$ma/pmix2
if [ "${MF_VM_MPI:-1}" = 1 ] && [ -x /usr/bin/orterun ] && [ -x /usr/bin/orted ] &&
   [ -d "$ompi/lib/openmpi3" ]; then
	mkdir -p "$stage$ompi/lib/openmpi3" "$stage$pmix/lib/pmix" "$stage/usr/share"
	cp -L /usr/bin/orterun "$stage/usr/bin/mpirun.openmpi"
	cp -L /usr/bin/orted "$stage/usr/bin/orted"
	cp -L "$ompi"/lib/openmpi3/*.so "$stage$ompi/lib/openmpi3/"
	[ -d "$pmix/lib/pmix" ] && cp -L "$pmix"/lib/pmix/*.so "$stage$pmix/lib/pmix/"
	# shellcheck disable=SC2046
	for lib in $(ldd /usr/bin/orterun /usr/bin/orted "$ompi"/lib/openmpi3/*.so \
		$(ls "$pmix"/lib/pmix/*.so 2>/dev/null) 2>/dev/null |
		grep -oE '/[^ :]+\.so[^ :]*' | sort -u); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
	cp -r /etc/openmpi "$stage/etc/"
	[ -d /usr/share/openmpi ] && cp -r /usr/share/openmpi "$stage/usr/share/"
	install -m 755 "$top/scripts/mf-mpirun" "$stage/mf/mf-mpirun"
fi
if [ -d "$top/build/guest" ]; then
	mkdir -p "$stage/mf/guest"
	cp -r "$top/build/guest/." "$stage/mf/guest/"
fi
[ -x "$top/build/meshfabric" ] && add_bin "$top/build/meshfabric" /mf/meshfabric
[ -f "$top/build/link_meshfabric.so" ] && install -D -m 0644 "$top/build/link_meshfabric.so" "$stage/usr/lib/$(${CC:-cc} -print-multiarch 2>/dev/null)/ip/link_meshfabric.so"
ko=${MF_VM_KO:-$top/drivers/net/meshfabric/meshfabric.ko}
[ -f "$ko" ] && cp "$ko" "$stage/mf/meshfabric.ko"
if [ -d "$top/selftests" ]; then
	mkdir -p "$stage/mf/selftests"
	cp -r "$top/selftests/." "$stage/mf/selftests/"
fi
moddir=${MF_VM_MODDIR-/lib/modules/$kver}
veth=$moddir/kernel/drivers/net/veth.ko
if [ -n "$moddir" ] && { [ -f "$veth" ] || [ -f "$veth.xz" ]; }; then
	mkdir -p "$stage/lib/modules/$kver/kernel/drivers/net"
	if [ -f "$veth" ]; then
		cp "$veth" "$stage/lib/modules/$kver/kernel/drivers/net/"
	else
		xz -dc "$veth.xz" >"$stage/lib/modules/$kver/kernel/drivers/net/veth.ko"
	fi
	echo "kernel/drivers/net/veth.ko:" >"$stage/lib/modules/$kver/modules.dep"
fi
# meshfabric.ko's dependencies where the kernel builds them as modules
# (init loads them), a NIC for the two-guest tests (scripts/vm2.sh) and
# Geneve, the plain tunnel scripts/multihost-bench.sh compares against
for m in kernel/net/ipv4/udp_tunnel.ko kernel/net/ipv6/ip6_udp_tunnel.ko \
	kernel/drivers/net/ethernet/intel/e1000/e1000.ko \
	kernel/drivers/net/geneve.ko; do
	[ -n "$moddir" ] || break
	mkdir -p "$stage/lib/modules/$kver/$(dirname "$m")"
	if [ -f "$moddir/$m" ]; then
		cp "$moddir/$m" "$stage/lib/modules/$kver/$m"
	elif [ -f "$moddir/$m.xz" ]; then
		xz -dc "$moddir/$m.xz" >"$stage/lib/modules/$kver/$m"
	fi
done

(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet -R 0:0) >"$out.tmp"
mv "$out.tmp" "$out"
