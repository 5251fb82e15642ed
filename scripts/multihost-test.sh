#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The two-guest test of a multi-host fabric (issue 25; docs/multihost.md):
# scripts/vm2.sh boots two guests joined by a virtual wire, each running
# its side of selftests/multihost.sh (a 4x4 torus split in two), and this
# script asserts, from both outputs:
#   - each guest's own checks passed (MTU 1434, ARP across the cut, 64/64
#     pings across it, TCP across it, b's cut links down once a left);
#   - link counters: for every directed link, guest a's plus guest b's
#     packets and bytes over the pings equal the one-guest run's of the
#     same pings (a single guest, whole fabric): each link counted once;
#     and the same for the BCASTs (every algorithm of the module that
#     covers the torus, from a node on each side: the offload crossing
#     the cut, each host running its part of the schedule);
#   - the wire (guest a's NIC, qemu filter-dump) decoded by tshark holds
#     Geneve on UDP 6081 with meshfabric's option (class 0xfff0), shown.
#   scripts/multihost-test.sh [--kernel K]
# Output: TAP lines; build/vm2/{a,b}.log, build/vm2/wire.pcap.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/tap.sh
out=build/vm2
mkdir -p "$out"
make -s tool module >/dev/null || { notok "build"; exit 1; }
t0=$(date +%s)
bash scripts/vm2.sh "$@" --timeout 400 --mem 1024 --pcap "$out/wire.pcap" \
	--a 'sh /mf/selftests/multihost.sh' --b 'sh /mf/selftests/multihost.sh' \
	>"$out/both.log" 2>&1
rc=$?
echo "# two guests: $(( $(date +%s) - t0 )) s wall, vm2.sh status $rc"
grep -E 'multihost:|^[ab]\| (tunnel|  *tx)|vm: ' "$out/both.log" | sed 's/^/# /'
if [ "$rc" = 0 ] && ! grep -q 'multihost: FAIL' "$out/both.log"; then
	ok "both guests' checks ($(grep -c 'multihost: ok' "$out/both.log") ok lines)"
else
	notok "both guests' checks"
fi
# guest a's + guest b's counters of a workload against the one guest's
sums() { # a-tag b-tag ref-tag what
	if python3 - "$out/both.log" "$1" "$2" "$3" <<'PY'
import json, sys
keys = sys.argv[2:5]
c = {}
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    for k in keys:
        i = line.find(k + " ")
        if i >= 0:
            c[k] = json.loads(line[i + len(k) + 1:])
if len(c) != 3:
    print("# link counters missing: %s" % sorted(set(keys) - set(c)))
    sys.exit(1)
def table(j):
    return {(l["node"], l["port"]): (l["packets"], l["bytes"]) for l in j["links"]}
a, b, r = (table(c[k]) for k in keys)
bad = []
for key in sorted(set(a) | set(b) | set(r)):
    s = tuple(x + y for x, y in zip(a.get(key, (0, 0)), b.get(key, (0, 0))))
    if s != r.get(key, (0, 0)):
        bad.append((key, a.get(key), b.get(key), r.get(key)))
tot = lambda t: sum(v[0] for v in t.values())
print("# %s packets: a %d + b %d = %d, one guest %d; links used: one guest %d"
      % (keys[2], tot(a), tot(b), tot(a) + tot(b), tot(r), sum(1 for v in r.values() if v[0])))
if bad or not tot(r):
    for x in bad[:10]:
        print("#   link %s: a %s b %s one guest %s" % x)
    sys.exit(1)
PY
	then
		ok "link counters of a and b add up to the one-guest run's, $4 (every link, packets and bytes)"
	else
		notok "link counters of a and b add up to the one-guest run's, $4"
	fi
}
sums COUNTERS-A COUNTERS-B COUNTERS-REF pings
sums BCAST-A BCAST-B BCAST-REF "BCAST offload"
sums COLL-A COLL-B COLL-REF collectives
# the frames each node received in the collectives: a's and b's nodes
# against the one guest's
if python3 - "$out/both.log" <<'PY'
import json, sys
c = {}
for line in open(sys.argv[1], errors="replace"):
    for k in ("COLLRX-A", "COLLRX-B", "COLLRX-REF"):
        i = line.find(k + " ")
        if i >= 0:
            c[k] = json.loads(line[i + len(k) + 1:])
if len(c) != 3:
    print("# frame counts missing: %s" % sorted({"COLLRX-A", "COLLRX-B", "COLLRX-REF"} - set(c)))
    sys.exit(1)
split = dict(c["COLLRX-A"], **c["COLLRX-B"])
bad = [(n, split.get(n), v) for n, v in sorted(c["COLLRX-REF"].items()) if split.get(n) != v]
print("# collectives: frames received a %d + b %d, one guest %d (16 nodes)"
      % (sum(c["COLLRX-A"].values()), sum(c["COLLRX-B"].values()), sum(c["COLLRX-REF"].values())))
for x in bad[:8]:
    print("#   node %s: split %s one guest %s" % x)
sys.exit(1 if bad or len(split) != 16 or not sum(split.values()) else 0)
PY
then
	ok "every node received the same collective frames split as on one guest"
else
	notok "every node received the same collective frames split as on one guest"
fi
if command -v tshark >/dev/null && command -v editcap >/dev/null &&
	[ -s "$out/wire.pcap" ]; then
	# the first echo request between two nodes (10.0.0.0/24) on the wire:
	# the pings come first, so the first 2000 frames hold it.  tshark
	# reads a copy of those only: its time grows faster than the frames.
	# The TCP test puts 100k+ frames (200 MB at 480 Mbit/s) on the wire;
	# tshark -V took over 25 minutes on such a capture, and on one of
	# 67814 frames -c 20000 with a filter took 10 minutes (-V) and over
	# 8 (without), where the first 2000 take 1 s each.  (-c counts the
	# frames the filter shows, not those read.)
	editcap -r "$out/wire.pcap" "$out/first.pcap" 1-2000
	dec=$(tshark -r "$out/first.pcap" -V \
		-Y 'geneve && icmp && ip.src == 10.0.0.0/24' 2>/dev/null |
		awk '/^Frame /{n++} n==1' |
		sed -n '/^User Datagram Protocol/,/^Internet Protocol Version 4, Src: 10/p')
	printf '%s\n' "$dec" | sed 's/^/# /'
	n=$(tshark -r "$out/first.pcap" -Y geneve 2>/dev/null | wc -l)
	all=$(capinfos -cM "$out/wire.pcap" 2>/dev/null | awk '/packets/ { print $NF }')
	echo "# Geneve datagrams in the wire's first 2000 frames (guest a's NIC): $n; frames in all: ${all:-?}"
	if printf '%s\n' "$dec" | grep -q 'Generic Network Virtualization Encapsulation' &&
		printf '%s\n' "$dec" | grep -qi 'Class: .*0xfff0'; then
		ok "tshark decodes the cut link as Geneve with option class 0xfff0"
	else
		notok "tshark decodes the cut link as Geneve with option class 0xfff0"
	fi
else
	notok "tshark and a capture of the wire"
fi
tap_end 2>/dev/null || true
