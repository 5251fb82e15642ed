#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installation: `dkms build` of meshfabric.ko against the installed
# linux-headers (scripts/dkms.sh build: add, build, remove again, so the
# machine is left as it was), and `make install` into a DESTDIR.
cd "${MF_TOP:-.}"
. scripts/tap.sh
mkdir -p build
ver=$(make -s --no-print-directory version)
kver=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's|.*/linux-headers-||' |
	sort -V | tail -n 1)
if [ -z "$kver" ]; then
	notok "dkms: no linux-headers-*-amd64 installed (make setup)"
elif ko=$(bash scripts/dkms.sh build "$ver-ci" "$kver" 2>build/dkms.log); then
	echo "# dkms built $ko"
	ok "dkms build of meshfabric $ver for $kver"
else
	sed 's/^/# /' build/dkms.log | tail -n 20
	notok "dkms build of meshfabric $ver for $kver"
fi
if [ ! -e "/usr/src/meshfabric-$ver-ci" ] &&
   ! dkms status -m meshfabric -v "$ver-ci" 2>/dev/null | grep -q .; then
	ok "dkms: nothing left behind"
else
	notok "dkms: nothing left behind"
fi
d=$(mktemp -d)
if make -s install DESTDIR="$d" >build/install.log 2>&1 &&
   [ -x "$d/usr/local/sbin/meshfabric" ] &&
   [ -f "$d/usr/local/share/man/man8/meshfabric.8" ] &&
   [ -f "$d/usr/local/share/bash-completion/completions/meshfabric" ]; then
	ok "make install DESTDIR: tool, man page, completion"
else
	notok "make install DESTDIR: tool, man page, completion"
fi
rm -rf "$d"
