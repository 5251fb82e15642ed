# SPDX-License-Identifier: GPL-2.0
# The table of bad ioctl inputs and their errnos (selftests/mfctl.c,
# cmd_bad), permissions, limits.
. ./lib.sh
load
"$MFCTL" bad
echo "# mfctl bad exited $?"
check_eq "allocation counter back to 0" "$(allocated)" 0
check "rmmod" unload
