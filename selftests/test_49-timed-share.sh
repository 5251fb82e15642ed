# SPDX-License-Identifier: GPL-2.0
# Issue 21, finding 2: timed frames are charged to the memory cgroup of
# their fabric's creator, and shared so that no owner starves another.
# The review's attack: an unprivileged owner (a user namespace, in a
# memory cgroup capped at 64 MiB) floods 8 fabrics of its own whose links
# hold frames 10 s (here: 16 s of flood, root's pings after 10 s); it
# pinned 229 MiB outside its cgroup (0 MiB charged) and root's timed
# fabric lost every ping.  Asserted here: during the
# flood root's timed fabric loses no ping; the attacker's cgroup is
# charged at least 16 MiB and its frames hold at most the owner's share
# (MESHFABRIC_TIMED_OWNER, 32 MiB) plus 8 MiB; destroying its fabrics
# gives the charge back (within 4 MiB).  Measured, and printed: the cost
# of the charge on the timed data path, ns per frame of a fabric created
# in a cgroup (copied into charged memory) against one created in the
# root cgroup (nothing to charge), 64- and 1400-byte frames, least of 6
# samples taken in turn.  The two fabrics differ in nothing else (run
# with MF_KO=the old module, the same pair gives the baseline ratio).
. ./lib.sh
load
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none "$CG"
# a kernel without the memory cgroup (CONFIG_MEMCG) has nothing to
# charge: the whole test is about its charges
if ! grep -qw memory "$CG/cgroup.controllers" 2>/dev/null; then
	ok "timed frames charged to the memory cgroup # SKIP this kernel has no memory cgroup"
	unload
	exit 0
fi
echo +memory >"$CG/cgroup.subtree_control"
mkdir -p "$CG/mfatk" "$CG/mfcost"
echo 64M >"$CG/mfatk/memory.max"
mib() { echo $(($(cat "$CG/$1/memory.current") >> 20)); }

# root's timed fabric: 1 ms links
"$MF" create --mesh 2 --name rt --ipv4 10.9.0.0/16 --no-ipv6 \
	--link-delay 1ms >/dev/null
rdst=$(addr_of rt 1 4)
"$MF" exec rt 0 -- ping -c 1 -W 2 "$rdst" >/dev/null

# the attacker: one user namespace creating 8 fabrics, in mfatk
cat >"$TMP/atk.sh" <<EOS
echo \$\$ >$CG/mfatk/cgroup.procs
exec unshare -Urn sh -c 'for i in 1 2 3 4 5 6 7 8; do
	$MFCTL ioctl 0 CREATE kind=1 ndims=1 dims=2 name=atk\$i @id
done >$TMP/atk.ids; sleep 120'
EOS
sh "$TMP/atk.sh" &
wait_until 10 test "$(wc -l 2>/dev/null <"$TMP/atk.ids")" = 8
check_eq "the attacker created 8 fabrics" "$(grep -c '^0 ' "$TMP/atk.ids")" 8
base=$(mib mfatk)
i=0
for id in $(awk '{ print $2 }' "$TMP/atk.ids"); do
	i=$((i + 1))
	for n in 0 1; do
		"$IP" netns add "atk$i-$n"
		attach "$id" $n "atk$i-$n" >/dev/null
		"$IP" -n "atk$i-$n" link set "mf${id}n$n" up
	done
	"$MF" link set "atk$i" all all delay 10s >/dev/null
	"$IP" -n "atk$i-0" addr add "10.20.$i.1/24" dev "mf${id}n0"
	"$IP" -n "atk$i-1" addr add "10.20.$i.2/24" dev "mf${id}n1"
	"$IP" -n "atk$i-0" neigh add "10.20.$i.2" lladdr "$(mac_of "$id" 1)" \
		dev "mf${id}n0"
	# 60000-byte datagrams: 41 fragments (frames) per send
	"$IP" netns exec "atk$i-0" "$MFCTL" flood "10.20.$i.2" 16 60000 \
		>/dev/null 2>&1 &
done
sleep 10	# the pool fills (frames wait 10 s)
during=$(mib mfatk)
got=$("$MF" exec rt 0 -- ping -c 10 -i 0.2 -W 3 "$rdst" |
	sed -n 's/.* \([0-9]*\) packets received.*/\1/p')
during2=$(mib mfatk)
[ "$during2" -gt "$during" ] && during=$during2
note "attacker's cgroup: $base MiB before, $during MiB during the flood"
check_eq "root's timed fabric: 10 of 10 pings during the flood" "$got" 10
check "the attacker's cgroup is charged (>= 16 MiB more: $base -> $during)" \
	test "$during" -ge $((base + 16))
check "the owner's frames stay within its share (<= 32 + 8 MiB more)" \
	test "$during" -le $((base + 40))
sleep 5		# the floods end
for i in 1 2 3 4 5 6 7 8; do "$MF" destroy "atk$i" >/dev/null; done
after=$(mib mfatk)
note "attacker's cgroup after destroy: $after MiB"
check "destroy gives the charge back (within 4 MiB: $after vs $base)" \
	test "$after" -le $((base + 4))

# the cost of the charge: a rated fabric created in mfcost (charged copy)
# and one created in the root cgroup (nothing to charge), 64-byte frames
sh -c "echo \$\$ >$CG/mfcost/cgroup.procs && exec $MF create --mesh 2 \
	--name cc --ipv4 10.21.0.0/16 --no-ipv6 --link-rate 100gbit" >/dev/null
"$MF" create --mesh 2 --name cr --ipv4 10.22.0.0/16 --no-ipv6 \
	--link-rate 100gbit >/dev/null
flood() {	# flood FABRIC SIZE: ns per frame of 1 s of frames 0 -> 1
	"$IP" netns exec "$1-0" "$MFCTL" flood "$1/$(mac_of \
		"$("$MF" -j show "$1" | jget id)" 1)" 1 "$2" | awk '{ print $6 }'
}
for size in 64 1400; do
	cc= cr=
	for r in 1 2 3 4 5 6; do	# in turn first, against the drift
		if [ $((r % 2)) = 1 ]; then
			least cr "$(flood cr $size)"
			least cc "$(flood cc $size)"
		else
			least cc "$(flood cc $size)"
			least cr "$(flood cr $size)"
		fi
	done
	note "timed data path, ns per $size-byte frame (least of 6):" \
		"charged $cc, uncharged $cr"
done
# the copies are the frames: a 60000-byte datagram (41 fragments, each
# copied) crosses the charged fabric with its pattern intact
"$IP" netns exec cc-1 "$MFCTL" recv 60000 20 &
rpid=$!
sleep 1
"$MF" exec cc 0 -- ping -c 1 -W 2 "$(addr_of cc 1 4)" >/dev/null
"$IP" netns exec cc-0 "$MFCTL" flood "$(addr_of cc 1 4)" 0 60000 >/dev/null
check "a datagram crosses the charged fabric intact" wait $rpid
"$MF" destroy cc >/dev/null
"$MF" destroy cr >/dev/null
"$MF" destroy rt >/dev/null
