#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what a fresh Debian 12 machine lacks to build and test meshfabric
# (run as root).  Idempotent: does nothing when everything is present.
#   toolchain           gcc make, gcc-multilib (i386 unit tests,
#                       32-bit compat ioctl selftest), qemu-user (runs
#                       the i386 unit tests where the kernel cannot)
#   kernel module       linux-headers-amd64 (and kmod, libelf-dev)
#   VM selftests        linux-image-amd64 qemu-system-x86 busybox-static cpio
#                       iproute2
#   KUnit / checkpatch  linux-source-6.1 (tree + kunit.py + checkpatch.pl),
#                       flex bison bc python3 perl
#   installation        dkms (the 45-dkms suite runs `dkms build`)
#   other kernels       mmdebstrap (the sid chroot with sid's gcc for the
#                       newest kernel), dwarves (pahole: the BTF of modules
#                       for 6.12 and later); scripts/kernels.sh fetches
#                       the kernels themselves into /var/tmp/meshfabric
#   debug kernel        libssl-dev, bc, flex, bison (already above) build
#                       it from linux-source-6.1 (scripts/kernels-debug.sh)
#   benchmarks          iperf3, and ethtool for a selftest (both copied
#                       into the VM's initramfs)
#   MPI across the fabric  openmpi-bin and libopenmpi-dev (mpirun, orted,
#                       mpicc: test_57 and make coll-bench, in the
#                       initramfs)
#   multi-host          tshark (Wireshark's dissectors decode the cut
#                       link's capture in scripts/multihost-test.sh)
#   exact all-port      coinor-cbc (CBC, the integer-program solver of
#                       scripts/allport-ilp.py and the 32-ilp suite)
set -eu
PKGS="gcc gcc-multilib qemu-user make perl python3 bc flex bison cpio kmod libelf-dev libssl-dev
      xz-utils linux-source-6.1 linux-headers-amd64 linux-image-amd64
      qemu-system-x86 busybox-static iproute2 procps rsync dkms iperf3 ethtool
      mmdebstrap dwarves util-linux openmpi-bin libopenmpi-dev tshark coinor-cbc"
missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "setup: all packages present"
	exit 0
fi
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "setup: done"
