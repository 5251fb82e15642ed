# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test; `make datapath-bench` runs it in the VM): the
# unicast data path's cost per hop on a ring of 65536 nodes.  Only the two
# ends get netdevs (attach, lib.sh); raw 64-byte frames from node 0 go to
# node 1 (1 hop) and to node 32768 (32768 hops, the ring's diameter);
# the forwarding happens inside the sender's send call, so
#   ns per hop = (t_far - t_near) / 32767.
# The guest is emulated (TCG): compare numbers from one run only.
. ./lib.sh
S=${MF_HOP_SECONDS:-2}
load
set -- $(mkfabric torus 65536)
id=$1
hop_nodes "$id" 0 1 32768
# raw frames for S seconds each: "sent N failed M ns_per_frame T"
near=$("$IP" netns exec "mf${id}n0" "$MFCTL" flood "mf${id}n0/$(mac_of "$id" 1)" "$S" 64 | awk '{ print $6 }')
far=$("$IP" netns exec "mf${id}n0" "$MFCTL" flood "mf${id}n0/$(mac_of "$id" 32768)" "$S" 64 | awk '{ print $6 }')
pk=$(links "mf$id" | awk '$1 == 16384 && $2 == 16385 { print $3 }')
echo "# ring of 65536 nodes, $S s of frames each:" \
	"1 hop $near ns/frame, 32768 hops $far ns/frame"
echo "# data path: $(( (far - near) / 32767 )) ns per hop" \
	"(frames counted mid-ring: $pk)"
"$MF" destroy "mf$id"
