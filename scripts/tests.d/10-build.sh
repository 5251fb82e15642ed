#!/usr/bin/env bash
# Userspace build with -Wall -Wextra -Werror, release and sanitizer flavours.
cd "${MF_TOP:-.}"
. scripts/tap.sh
if make -s -j"$(nproc)" tool tests >build/build.log 2>&1; then
	ok "userspace builds with -Werror (release and ASan/UBSan)"
else
	tail -n 40 build/build.log | sed 's/^/# /'
	notok "userspace builds with -Werror (release and ASan/UBSan)"
fi
