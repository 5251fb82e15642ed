#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# KUnit runner (issue 6): runs the meshfabric KUnit suites under UML with
# kunit.py from Debian's linux-source-6.1 and prints TAP, one line per
# test case:  "ok - kunit <config> <suite>.<case>" / "not ok - ...".
#
#   scripts/kunit.sh                   both configurations (default kasan)
#   scripts/kunit.sh default           one (kunit/<name>.kunitconfig)
#   MF_KUNIT_FILTER='meshfabric_topo*' scripts/kunit.sh default
#
# The kernel tree (scripts/linux-tree.sh kunit) and one build directory
# per configuration live outside the checkout under $MF_KTREE_ROOT
# (default /var/tmp/meshfabric), so a second run rebuilds only what
# changed: files are copied into the tree with rsync --checksum, which
# leaves unchanged files (and their mtimes) alone.
#
# Into the tree go drivers/net/meshfabric/ (build products excluded),
# kunit/*.c -> drivers/net/meshfabric/kunit/, the uapi header, and one
# line each in drivers/net/Kconfig and drivers/net/Makefile.
#
# A configuration fails (one "not ok" line per reason) when the build
# fails, kunit.py reports no results, or the kernel log (build dir
# test.log) holds a KASAN, lockdep, BUG, WARNING or Oops report, even if
# every case passed.  Timings go to "# " comment lines.  The log scan is
# not redundant: on UML 6.1 a KASAN report inside a test case (measured
# with a deliberate kmalloc(8)[8] write) leaves the case passing.
#
# Measured on 2 shared cores (load ~4 from other builds): first build +
# run 364 s (default), 445 s (kasan); unchanged rerun 5-7 s; one test
# file changed 6 s (default) / 9 s (kasan).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
root=${MF_KTREE_ROOT:-/var/tmp/meshfabric}
jobs=${MF_KUNIT_JOBS:-2}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(default kasan)

fail() { echo "not ok - kunit $*"; }

# One run at a time: runs share the tree and the build directories.
mkdir -p "$root"
exec 8>"$root/.kunit.lock"
if ! flock -n 8; then
	echo "# kunit: another run holds $root/.kunit.lock, waiting"
	flock 8
fi

tree=$(bash "$top/scripts/linux-tree.sh" kunit) || {
	fail "kernel tree: linux-source-6.1 could not be extracted"
	exit 1
}

# --- place the driver into the tree -------------------------------------
dst=$tree/drivers/net/meshfabric
mkdir -p "$dst/kunit"
rsync -rc --delete \
	--exclude='kunit/' \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='*.a' --exclude='modules.order' \
	--exclude='Module.symvers' --exclude='*.d' --exclude='.*' \
	"$top/drivers/net/meshfabric/" "$dst/"
rsync -rc --delete --include='*.c' --include='*.h' --exclude='*' \
	"$top/kunit/" "$dst/kunit/"
rsync -c "$top/include/uapi/linux/meshfabric.h" "$tree/include/uapi/linux/"

grep -q 'drivers/net/meshfabric/Kconfig' "$tree/drivers/net/Kconfig" ||
	sed -i 's|^endif # NETDEVICES|source "drivers/net/meshfabric/Kconfig"\n\n&|' \
		"$tree/drivers/net/Kconfig"
grep -q 'meshfabric/' "$tree/drivers/net/Makefile" ||
	echo 'obj-$(CONFIG_MESHFABRIC) += meshfabric/' >>"$tree/drivers/net/Makefile"
if ! grep -q 'drivers/net/meshfabric/Kconfig' "$tree/drivers/net/Kconfig"; then
	fail "kernel tree: could not hook drivers/net/Kconfig"
	exit 1
fi

# --- run each configuration ---------------------------------------------
status=0
for cfg in "${configs[@]}"; do
	kcfg=$top/kunit/$cfg.kunitconfig
	bdir=$root/kunit-build-$cfg
	log=$root/kunit-$cfg.out
	json=$root/kunit-$cfg.json
	if [ ! -f "$kcfg" ]; then
		fail "$cfg: no $kcfg"
		status=1
		continue
	fi
	mkdir -p "$bdir"
	first=incremental
	[ -f "$bdir/vmlinux" ] || first=first
	rm -f "$json" "$bdir/test.log"
	start=$(date +%s)
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run \
		--kunitconfig="$kcfg" --build_dir="$bdir" --jobs="$jobs" \
		--timeout="${MF_KUNIT_TIMEOUT:-600}" --json="$json" \
		${MF_KUNIT_FILTER:+"$MF_KUNIT_FILTER"}) >"$log" 2>&1 </dev/null
	rc=$?
	secs=$(( $(date +%s) - start ))
	echo "# kunit $cfg: kunit.py exited $rc after ${secs} s ($first build + run)"
	grep -E '^\[..:..:..\] (Elapsed|Testing complete)' "$log" | sed 's/^/# /'
	if [ ! -s "$json" ]; then
		sed 's/^/# /' "$log" | tail -n 60
		fail "$cfg: build or boot failed, no results (log $log)"
		status=1
		continue
	fi
	python3 - "$json" "$cfg" <<'EOF' || status=1
import json, sys
data = json.load(open(sys.argv[1]))
cfg = sys.argv[2]
bad = 0
count = {}
params = {}
def line(ok, name, status):
    skip = " # SKIP" if status == "SKIP" else ""
    print("%s - kunit %s %s%s" % ("ok" if ok else "not ok", cfg, name, skip))
for suite in data.get("sub_groups", []):
    sname = suite["name"]
    for c in suite.get("test_cases", []):
        ok = c["status"] in ("PASS", "SKIP")
        bad += not ok
        count[sname] = count.get(sname, 0) + 1
        line(ok, "%s.%s" % (sname, c["name"]), c["status"])
    # parameterised cases: one line per parameter
    for case in suite.get("sub_groups", []):
        count[sname] = count.get(sname, 0) + 1
        for c in case.get("test_cases", []):
            ok = c["status"] in ("PASS", "SKIP")
            bad += not ok
            params[sname] = params.get(sname, 0) + 1
            line(ok, "%s.%s [%s]" % (sname, case["name"], c["name"]), c["status"])
if not count:
    print("not ok - kunit %s: no test cases reported" % cfg)
    bad += 1
for s, n in sorted(count.items()):
    print("# kunit %s: suite %s: %d cases, %d parameter rows" % (cfg, s, n, params.get(s, 0)))
sys.exit(1 if bad else 0)
EOF
	# Kernel reports that do not fail a test case by themselves.
	reports=$(grep -nE 'BUG: KASAN|KASAN:|WARNING: (possible|inconsistent|suspicious)|possible circular locking|possible recursive locking|INFO: lockdep|DEBUG_LOCKS_WARN_ON|BUG:|WARNING:|Oops|general protection fault|Kernel panic|unreferenced object' \
		"$bdir/test.log" 2>/dev/null | head -n 20)
	if [ -n "$reports" ]; then
		printf '%s\n' "$reports" | sed 's/^/# /'
		fail "$cfg: kernel log free of KASAN/lockdep/BUG/WARNING reports"
		status=1
	else
		echo "ok - kunit $cfg: kernel log free of KASAN/lockdep/BUG/WARNING reports"
	fi
	[ $rc = 0 ] || status=1
done
exit $status
