#!/usr/bin/env bash
# Userspace build with -Wall -Wextra -Werror, release and sanitizer flavours.
cd "${MF_TOP:-.}"
if make -s -j"$(nproc)" tool tests >build/build.log 2>&1; then
	echo "ok 1 - userspace builds with -Werror (release and ASan/UBSan)"
else
	sed 's/^/# /' build/build.log | tail -n 40
	echo "not ok 1 - userspace builds with -Werror (release and ASan/UBSan)"
fi
