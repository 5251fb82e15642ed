# SPDX-License-Identifier: GPL-2.0
# 003's Table I on the running fabric: H_3 and the wrapped 4x4 square
# mesh are created, and their node and link counts, degree, diameter,
# connectivity and message density are measured on meshfabric.ko and
# compared with what `meshfabric papers` computes offline (BFS, link
# count, max-flow; the row "Table I: nodes, links, diameter, degree,
# connectivity, message density").
#  - nodes: `show -j`; links and degree: `stats -j --all` (directed links
#    per node); diameter: the kernel's routes from node 0 to every node
#    (both fabrics are node-symmetric);
#  - connectivity: five of node 0's neighbours down and node 0 still
#    reaches the node opposite; the sixth (the fourth on the torus) down
#    and it reaches nobody;
#  - message density: every node pings every other once, with permanent
#    neighbour entries so that only echo requests and replies travel; the
#    link counters then hold 2 x (messages per link) x links frames.
#    Measured in one TCG run: exactly that count on both fabrics (the
#    check allows 5% + 20 frames of background traffic).
. ./lib.sh
load
json() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" | head -n 1; }

# the offline row's "meshfabric" value: nodes, links, diam, degree, kappa,
# density
offline() {
	"$MF" -j papers --paper 003 | sed 's/},{/}\
{/g' | grep '"claim":"Table I: nodes' | grep "\"case\":\"$1\"" |
		sed 's/.*"meshfabric":"\([^"]*\)".*/\1/' | tr -d ,
}

# entries FABRIC: "node peer packets" of every directed link
entries() {
	"$MF" -j stats "$1" --all | sed 's/.*"links":\[//; s/},{/}\
{/g' | tr ':,{}' '    ' |
		awk '$1 == "\"node\"" { print $2, $6, $8 }'
}

table1() {	# table1 KIND SHAPE NAME CASE FAR
	kind=$1 shape=$2 name=$3 case=$4 far=$5
	set -- $(offline "$case")
	if [ $# -ne 6 ]; then
		nok "$case: the offline Table I row (got '$*')"
		return
	fi
	o_nodes=$1 o_links=$2 o_diam=$3 o_deg=$4 o_kappa=$5 o_dens=$6
	create --$kind $shape --name $name
	nodes=$(fab $name nodes)
	check_eq "$case: nodes (show -j) = offline" "$nodes" "$o_nodes"
	entries $name >"$TMP/e"
	check_eq "$case: links (stats --all, directed / 2) = offline" \
		$(($(wc -l <"$TMP/e") / 2)) "$o_links"
	check_eq "$case: degree of every node (least, largest) = offline" \
		"$(awk '{ d[$1]++ } END { lo = 1e9; hi = 0
			for (v in d) { if (d[v] < lo) lo = d[v]; if (d[v] > hi) hi = d[v] }
			print lo, hi }' "$TMP/e")" "$o_deg $o_deg"
	diam=0 td=0 v=1
	while [ $v -lt "$nodes" ]; do
		h=$(path $name 0 $v | wc -w)
		h=$((h - 1))
		[ $h -gt $diam ] && diam=$h
		td=$((td + h))
		v=$((v + 1))
	done
	check_eq "$case: diameter (the kernel's routes from node 0) = offline" \
		"$diam" "$o_diam"

	# connectivity: o_kappa - 1 neighbours of node 0 down, then all
	nbrs=$(awk '$1 == 0 { print $2 }' "$TMP/e" | sort -un)
	a_far=$(addr_of $name $far)
	i=0
	for nb in $nbrs; do
		i=$((i + 1))
		[ $i -lt "$o_kappa" ] && "$MF" node set $name $nb down
	done
	check "$case: $((o_kappa - 1)) neighbours of node 0 down, node 0 pings node $far" \
		"$MF" exec $name 0 -- ping -c1 -W3 "$a_far"
	"$MF" node set $name "$(echo $nbrs | awk '{ print $NF }')" down
	if "$MF" exec $name 0 -- ping -c1 -W1 "$a_far" >/dev/null 2>&1; then
		nok "$case: all $o_kappa neighbours down, node 0 reaches nobody"
	else
		ok "$case: all $o_kappa neighbours down, node 0 reaches nobody"
	fi
	for nb in $nbrs; do
		"$MF" node set $name $nb up
	done
	check "$case: neighbours up, node 0 pings node $far again" \
		"$MF" exec $name 0 -- ping -c1 -W2 "$a_far"

	# message density: one echo request from every node to every other
	addrs= v=0
	while [ $v -lt "$nodes" ]; do
		addrs="$addrs $(addr_of $name $v)"
		echo "$(addr_of $name $v) $(node $name $v mac)"
		v=$((v + 1))
	done >"$TMP/nb"
	v=0
	while [ $v -lt "$nodes" ]; do
		ns=$(node $name $v namespace)
		awk -v dev=$name '{ print "neigh replace", $1, "lladdr", $2,
			"dev", dev, "nud permanent" }' "$TMP/nb" |
			grep -v " $(node $name $v mac) " >"$TMP/batch"
		"$IP" -n "$ns" -batch "$TMP/batch" 2>/dev/null
		v=$((v + 1))
	done
	"$MF" stats $name --reset >/dev/null
	t0=$(uptime_s)
	lost=0 v=0
	while [ $v -lt "$nodes" ]; do
		me=$(addr_of $name $v)
		out=$("$MF" exec $name $v -- sh -c "
			for a in $addrs; do
				[ \$a = $me ] && continue
				ping -c1 -W2 \$a >/dev/null 2>&1 || echo lost
			done")
		lost=$((lost + $(echo "$out" | grep -c lost)))
		v=$((v + 1))
	done
	note "$case: $((nodes * (nodes - 1))) pings: $(elapsed "$t0") s"
	check_eq "$case: every ping answered" "$lost" 0
	frames=$(entries $name | awk '{ s += $3 } END { print s + 0 }')
	want=$((nodes * td * 2))
	note "$case: $frames frames on the links, 2 x $nodes x $td = $want expected; density $o_dens = $nodes x $td / $o_links"
	check "$case: all-to-all frames = 2 x density x links (+ 5% + 20)" \
		[ "$frames" -ge "$want" -a "$frames" -le $((want + want / 20 + 20)) ]
	check_eq "$case: density from the routes (p x td / links) = offline" \
		"$(awk -v p=$nodes -v t=$td -v l=$o_links 'BEGIN { printf "%g", p * t / l }')" \
		"$o_dens"
	check "destroy $name" "$MF" destroy $name
}

table1 hex 3 h3 H_3 9
table1 torus 4x4 sq "4x4 square mesh (wrapped)" 10
