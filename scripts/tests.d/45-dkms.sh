#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installation: `dkms build` of meshfabric.ko (scripts/dkms.sh build: add,
# build, remove again, so the machine is left as it was) against Debian
# 12's 6.1 and 6.12 headers as scripts/kernels.sh unpacked them under
# /var/tmp/meshfabric (dkms --kernelsourcedir: nothing installed), and
# `make install` into a DESTDIR.
cd "${MF_TOP:-.}"
. scripts/tap.sh
mkdir -p build
ver=$(make -s --no-print-directory version)
for k in 6.1 6.12; do
	if ! d=$(bash scripts/kernels.sh fetch "$k" 2>build/dkms-$k.log); then
		comment build/dkms-$k.log
		notok "dkms: Debian's $k headers unpacked (scripts/kernels.sh fetch $k)"
		continue
	fi
	kver=$(basename "$d")
	if ko=$(bash scripts/dkms.sh build "$ver-ci" "$kver" "$d/kdir" 2>build/dkms-$k.log); then
		echo "# dkms built $ko"
		ok "dkms build of meshfabric $ver for $kver"
	else
		grep -v "readelf: Warning" build/dkms-$k.log | tail -n 20 | sed 's/^/# /'
		notok "dkms build of meshfabric $ver for $kver"
	fi
done
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
