#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's kernels for the test VM, fetched from the archive and unpacked
# under /var/tmp/meshfabric without installing anything into the host:
#
#   scripts/kernels.sh fetch NAME    download and unpack (once); print the
#                                    kernel's directory
#   scripts/kernels.sh module NAME   build meshfabric.ko for that kernel
#                                    (W=1) into its directory; print the
#                                    .ko's path
#   scripts/kernels.sh kver NAME     the kernel release (uname -r)
#   scripts/kernels.sh names         the NAMEs
#   scripts/kernels.sh host          the host's kernel that `make module`
#                                    and `scripts/vm.sh` use by default:
#                                    the newest 6.1 (else any) release
#                                    with both /boot/vmlinuz and headers
#
# NAME:
#   6.1    Debian 12's stock kernel (bookworm: linux-image-amd64)
#   6.12   Debian 12's 6.12 (bookworm-security, linux-image-6.12.*+deb12,
#          the same kernel as bookworm-backports and trixie's series),
#          built with bookworm's gcc-12 as Debian builds it
#   sid    the newest kernel in Debian's archive (sid: linux-image-amd64;
#          7.2 when this was written), built with the gcc its headers
#          depend on (gcc-16) inside a sid chroot made by mmdebstrap
#   debug  the debug kernel (scripts/kernels-debug.sh)
# 7.2 is an alias of sid.
#
# Layout, $MF_KERNELS (default /var/tmp/meshfabric/kernels):
#   <kver>/root/        image, headers, headers-common, kbuild (dpkg-deb -x)
#   <kver>/vmlinuz      the kernel; <kver>/moddir: its /lib/modules/<kver>
#   <kver>/kdir         the headers (make -C kdir M=...)
#   <kver>/chroot       (sid) the chroot to build in, kdir inside it
#   <kver>/meshfabric.ko, module.log   the last `module` build
#   <NAME>.kver         NAME's resolved kernel release
# apt state: /var/tmp/meshfabric/apt/<dist>/ (its own sources.list, lists,
# .debs): the host's apt configuration and installed packages play no part.
# The archive is asked once per NAME; later runs use what is unpacked
# (MF_KERNELS_REFRESH=1 asks again).  A lock per distribution
# serialises what shares its state.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
base=${MF_TMP:-/var/tmp/meshfabric}
root=${MF_KERNELS:-$base/kernels}
aptroot=$base/apt
mirror=${MF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
secmirror=${MF_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
sidroot=$base/sid-chroot
say() { echo "kernels: $*" >&2; }
die() { say "$*"; exit 1; }

# apt with a private configuration and state for one distribution
dist_sources() {
	case $1 in
	bookworm)
		echo "deb [signed-by=$keyring] $mirror bookworm main"
		echo "deb [signed-by=$keyring] $mirror bookworm-updates main"
		echo "deb [signed-by=$keyring] $secmirror bookworm-security main"
		;;
	sid) echo "deb [signed-by=$keyring] $mirror sid main" ;;
	esac
}
papt() {
	local d=$aptroot/$1 cmd=$2
	shift 2
	"$cmd" -q -o Dir::State="$d/state" -o Dir::Cache="$d/cache" \
		-o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts="$d/empty" \
		-o Dir::Etc::Preferences="$d/empty/none" \
		-o Dir::Etc::PreferencesParts="$d/empty" \
		-o APT::Sandbox::User=root \
		-o Dir::State::Status="$d/state/status" \
		-o APT::Architecture=amd64 -o APT::Architectures::=amd64 \
		-o Acquire::Check-Valid-Until=false -o Acquire::Languages=none \
		-o Debug::NoLocking=true "$@"
}
apt_update() {
	local d=$aptroot/$1
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial" "$d/debs" \
		"$d/empty"
	[ -f "$d/state/status" ] || : >"$d/state/status"
	dist_sources "$1" >"$d/sources.list"
	if [ ! -f "$d/updated" ] || [ "${MF_KERNELS_REFRESH:-0}" = 1 ]; then
		say "apt-get update ($1, private lists in $d)"
		papt "$1" apt-get update >"$d/update.log" 2>&1 ||
			{ cat "$d/update.log" >&2; die "apt-get update ($1) failed"; }
		touch "$d/updated"
	fi
}
# the package a metapackage depends on (first alternative)
dep_of() { papt "$1" apt-cache depends "$2" | sed -n "s/^ *Depends: \($3\)$/\1/p" | head -n 1; }

# NAME -> distribution and kernel release
resolve() {
	local name=$1 h=
	case $name in
	6.1)
		apt_update bookworm
		h=$(dep_of bookworm linux-headers-amd64 'linux-headers-6\.1\..*-amd64')
		;;
	6.12)
		apt_update bookworm
		h=$(papt bookworm apt-cache pkgnames linux-headers-6.12. |
			grep -E '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' | sort -V | tail -n 1)
		;;
	sid)
		apt_update sid
		h=$(dep_of sid linux-headers-amd64 'linux-headers-.*-amd64')
		;;
	*) die "unknown kernel '$name' (6.1, 6.12, sid or 7.2, debug)" ;;
	esac
	[ -n "$h" ] || die "no linux-headers for $name in the archive"
	echo "${h#linux-headers-}"
}

dist_of() { case $1 in sid|debug) echo "$1" ;; *) echo bookworm ;; esac; }

# fetch NAME: unpack image, headers, headers-common, kbuild into <kver>/root
fetch() {
	local name=$1 kver dist d debs p deps
	kver=$(cached_kver "$name") || true
	if [ -n "$kver" ] && [ -f "$root/$kver/stamp" ] &&
	   [ "${MF_KERNELS_REFRESH:-0}" != 1 ]; then
		echo "$root/$kver"
		return
	fi
	dist=$(dist_of "$name")
	kver=$(resolve "$name") || exit 1
	d=$root/$kver
	if [ -f "$d/stamp" ]; then
		echo "$kver" >"$root/$name.kver"
		echo "$d"
		return
	fi
	debs=$aptroot/$dist/debs
	# headers-common and kbuild; sid's image is split into binary
	# (vmlinuz) and modules packages
	deps=$( {
		papt "$dist" apt-cache depends "linux-headers-$kver"
		papt "$dist" apt-cache depends "linux-image-$kver"
	} | sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\|binary\|modules\)-[^ <>]*\)$/\1/p' |
		sort -u)
	say "downloading linux-image-$kver linux-headers-$kver $(echo $deps) ($dist)"
	for p in "linux-image-$kver" "linux-headers-$kver" $deps; do
		ls "$debs/${p}_"*.deb >/dev/null 2>&1 && continue
		(cd "$debs" && papt "$dist" apt-get download "$p" >/dev/null) ||
			die "apt-get download $p failed"
	done
	rm -rf "$d.tmp"
	mkdir -p "$d.tmp/root"
	for p in "linux-image-$kver" "linux-headers-$kver" $deps; do
		dpkg-deb -x "$(ls "$debs/${p}_"*.deb | sort -V | tail -n 1)" "$d.tmp/root"
	done
	# the arch headers include the common ones by absolute path
	sed -i "s|^include /usr/src/|include $d/root/usr/src/|" \
		"$d.tmp/root/usr/src/linux-headers-$kver/Makefile"
	# vmlinuz: /boot (bookworm) or beside the modules (sid's split image)
	if [ -f "$d.tmp/root/boot/vmlinuz-$kver" ]; then
		ln -s "root/boot/vmlinuz-$kver" "$d.tmp/vmlinuz"
	else
		ln -s "root/usr/lib/modules/$kver/vmlinuz" "$d.tmp/vmlinuz"
	fi
	ln -s "root/lib/modules/$kver" "$d.tmp/moddir"
	[ -e "$d.tmp/root/lib/modules/$kver" ] ||
		ln -sfn "root/usr/lib/modules/$kver" "$d.tmp/moddir"
	ln -s "root/usr/src/linux-headers-$kver" "$d.tmp/kdir"
	[ -f "$d.tmp/vmlinuz" ] && [ -d "$d.tmp/moddir/kernel" ] &&
		[ -f "$d.tmp/kdir/Makefile" ] || die "unpacked $kver is incomplete"
	echo "$name $dist" >"$d.tmp/stamp"
	rm -rf "$d"
	mv "$d.tmp" "$d"
	echo "$kver" >"$root/$name.kver"
	echo "$d"
}

cached_kver() { [ -f "$root/$1.kver" ] && cat "$root/$1.kver"; }

# The sid chroot that builds modules for sid's kernel: the compiler its
# headers depend on, their kbuild programs (linked against sid's libc).
sid_chroot() {
	local kver=$1
	if [ ! -f "$sidroot/.meshfabric-ok" ]; then
		command -v mmdebstrap >/dev/null ||
			die "mmdebstrap missing (make setup)"
		say "making the sid chroot $sidroot (mmdebstrap, a few minutes)"
		rm -rf "$sidroot"
		mmdebstrap --variant=apt --mode=root \
			--aptopt='Acquire::Check-Valid-Until "false"' \
			--aptopt='Acquire::Languages "none"' \
			--dpkgopt='path-exclude=/usr/share/{doc,man,locale}/*' \
			--include="make,linux-headers-$kver" \
			sid "$sidroot" "$mirror" >"$base/sid-chroot.log" 2>&1 ||
			{ tail -n 20 "$base/sid-chroot.log" >&2; die "mmdebstrap failed"; }
		touch "$sidroot/.meshfabric-ok"
	fi
	if [ ! -f "$sidroot/usr/src/linux-headers-$kver/Makefile" ]; then
		say "installing linux-headers-$kver into the sid chroot"
		chroot "$sidroot" sh -c "apt-get -q -o Acquire::Check-Valid-Until=false update &&
			DEBIAN_FRONTEND=noninteractive apt-get -q -y install linux-headers-$kver" \
			>>"$base/sid-chroot.log" 2>&1 || die "headers into the chroot failed"
	fi
}

# Sources of the module, as DKMS gets them (scripts/dkms.sh stage)
copy_sources() {
	local dst=$1
	rm -rf "$dst"
	mkdir -p "$dst/drivers/net"
	cp -r "$top/Kbuild" "$top/include" "$dst/"
	cp -r "$top/drivers/net/meshfabric" "$dst/drivers/net/"
	find "$dst" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o \
		-name '*.mod' -o -name '*.mod.c' -o -name '.*.d' -o \
		-name 'modules.order' -o -name 'Module.symvers' \) -delete
}

# module NAME: meshfabric.ko built in a copy of the sources (the
# checkout's own objects stay those of `make module`)
module() {
	local name=$1 d kver src log rc=0
	if [ "$name" = debug ]; then
		d=$(bash "$top/scripts/kernels-debug.sh")
	else
		d=$(fetch "$name")
	fi
	log=$d/module.log
	src=$d/src
	# the same sources (and kernel) build the same module: reuse it.  Each
	# source tree's module is kept under its own key (two checkouts, or
	# worktrees, building for one kernel no longer overwrite each other's
	# .ko), and one build at a time per kernel (the build directory and
	# the log are shared): flock on the kernel's folder.
	local key out
	key=$( (cd "$top" && find Kbuild include drivers/net/meshfabric -type f \
		\( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) \
		-not -name '*.mod.c' | LC_ALL=C sort | xargs sha256sum;
		cat "$d/stamp" 2>/dev/null) | sha256sum | cut -d' ' -f1)
	out=$d/ko/$key
	exec 9>"$d/module.lock"
	flock 9
	if [ -f "$out/meshfabric.ko" ]; then
		touch "$out"
		echo "$out/meshfabric.ko"
		exec 9>&-
		return
	fi
	if [ "$name" = sid ]; then
		kver=$(basename "$d")
		sid_chroot "$kver"
		copy_sources "$sidroot/build/meshfabric"
		# objtool reads /proc: a proc mount private to this build
		unshare --mount sh -c 'mount -t proc proc "$1/proc" &&
			exec chroot "$1" make -C "/usr/src/linux-headers-$2" \
				M=/build/meshfabric W=1 modules' sh "$sidroot" "$kver" \
			>"$log" 2>&1 || rc=$?
		src=$sidroot/build/meshfabric
	else
		copy_sources "$src"
		local kdir=$d/kdir
		[ "$name" = debug ] && kdir=$d/build
		make -C "$kdir" M="$src" W=1 modules >"$log" 2>&1 || rc=$?
	fi
	if [ "$rc" != 0 ]; then
		tail -n 30 "$log" >&2
		die "meshfabric.ko for $name does not build (log $log)"
	fi
	mkdir -p "$out"
	cp "$src/drivers/net/meshfabric/meshfabric.ko" "$out/meshfabric.ko.tmp"
	cp "$log" "$out/module.log"
	mv "$out/meshfabric.ko.tmp" "$out/meshfabric.ko"
	# keep the 8 most recently used builds
	find "$d/ko" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
		sort -rn | tail -n +9 | cut -d' ' -f2- | xargs -r rm -rf
	exec 9>&-
	echo "$out/meshfabric.ko"
}

# The host's stock kernel: image and headers of one release, 6.1 first
host_kver() {
	local k best= best61=
	for k in $(ls /boot/vmlinuz-*-amd64 2>/dev/null | sed 's|.*/vmlinuz-||' | sort -V); do
		[ -f "/usr/src/linux-headers-$k/Makefile" ] || continue
		best=$k
		case $k in 6.1.*) best61=$k ;; esac
	done
	[ -n "${best61:-$best}" ] || return 1
	echo "${best61:-$best}"
}

name=${2:-}
[ "$name" = 7.2 ] && name=sid
if [ "${1:-}" = host ]; then
	host_kver
	exit
fi
mkdir -p "$root"
case ${1:-} in
names) echo "6.1 6.12 sid debug" ; exit 0 ;;
fetch|module|kver)
	case $name in
	6.1|6.12|sid|debug) ;;
	*) die "unknown kernel '$name' (6.1, 6.12, 7.2 or sid, debug)" ;;
	esac
	;;
*) die "usage: $0 fetch|module|kver NAME | names" ;;
esac
# one lock per distribution: its apt state, its kernels, its chroot
exec 9>"$root/.lock-$(dist_of "$name")"
flock 9
case $1 in
fetch) fetch "$name" ;;
module) module "$name" ;;
kver)
	if [ "$name" = debug ]; then
		cat "$(bash "$top/scripts/kernels-debug.sh")/kver"
	else
		basename "$(fetch "$name")"
	fi
	;;
esac
