# SPDX-License-Identifier: GPL-2.0
# bash completion for meshfabric(8).
#
# Commands and their options are read from the tool itself
# (`meshfabric help --commands`, `meshfabric CMD --help`), so a new command
# completes without touching this file.  Values of the options that take a
# fixed set of names are listed below; fabric names (for the fabric
# commands) come from `meshfabric list --names` when the tool has it.

_meshfabric_fabrics()
{
	"$1" list --names 2>/dev/null
}

# The extra ports' names (external ports beyond a node's degree).
_meshfabric_xports()
{
	local k
	for ((k = 0; k < 16; k++)); do echo "e$k"; done
}

_meshfabric()
{
	local cur prev tool cmd i words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	tool=${COMP_WORDS[0]}
	COMPREPLY=()

	# the command: first word after the global options
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			words="-j --json -h --help -V --version"
		else
			words=$("$tool" help --commands 2>/dev/null)
		fi
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi

	case $prev in
	--algo)
		# plan --coll and coll: the collective algorithms
		if [[ " ${COMP_WORDS[*]} " == *" --coll "* || $cmd == coll ]]; then
			words="auto tree ring recdbl rabenseifner bucket swing
			       swing-lat shift 003"
		else
			words="auto eyes hex tree binomial flood tsay-wang mintcd
			       wormhole split eyes-paper"
		fi ;;
	--bcast)
		words="auto eyes hex tree binomial flood tsay-wang mintcd wormhole
		       split eyes-paper" ;;
	--coll)
		words="broadcast reduce allreduce reduce-scatter allgather gather
		       scatter alltoall" ;;
	--op)
		words="sum min max band bor bxor" ;;
	--type)
		words="s32 u32 s64 u64" ;;
	--routing)
		words="default dor diagonal cdo a1" ;;
	--model)
		words="one-port all-port" ;;
	--format)
		words="text json dot summary" ;;
	--mesh|--torus)
		words="4x4 8x8 16x16 5x5 7x7 4x4x4" ;;
	--hex)
		words="2 3 4 5 6 7 8" ;;
	--switching|switching)
		words="store-and-forward cut-through" ;;
	--mode)
		words="sync async" ;;
	--svg-by)
		words="packets busy" ;;
	--link-rate|rate)
		words="1mbit 10mbit 100mbit 1gbit 10gbit" ;;
	--link-delay|delay)
		words="100us 1ms 10ms" ;;
	--link-loss|loss)
		words="0.1% 1% 10%" ;;
	--effort)
		words="1 10 100" ;;
	--link-queue|queue|--size|--count|--root|--ethertype)
		return 0 ;;
	--input)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	--paper)
		words="000 001 002 003 004" ;;
	--schedule|--partition)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	--keepalive)
		words="500ms 1s 5s" ;;
	--from|--to|--name|--svg|--prefix|--ipv4|--id|--part|--peer|--tunnel-port)
		return 0 ;;	# free-form values
	--down|--down-node)
		return 0 ;;	# NODE:PORT (3,4:x+) and NODE, free-form
	*)
		if [[ $cur == -* ]]; then
			words=$("$tool" "$cmd" --help 2>/dev/null |
				grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' |
				sed 's/^[ ,]*//' | sort -u)
		elif [ "$cmd" = help ]; then
			words=$("$tool" help --commands 2>/dev/null)
		else
			case $cmd in
			destroy|show|exec|bcast|stats|monitor)
				words=$(_meshfabric_fabrics "$tool") ;;
			port)
				# port attach|detach|show NAME NODE PORT dev IFNAME [netns NS]
				# (PORT: a border port, x- ..., or an extra port e0..e15)
				case $prev in
				port) words="attach detach show" ;;
				attach|detach|show) words=$(_meshfabric_fabrics "$tool") ;;
				dev) words=$(ls /sys/class/net 2>/dev/null) ;;
				netns) words=$(ip netns list 2>/dev/null | cut -d' ' -f1) ;;
				*)
					if ((COMP_CWORD == i + 4)); then
						words=$(_meshfabric_xports)
					else
						words="dev netns"
					fi ;;
				esac ;;
			coll)
				# coll NAME COLLECTIVE
				if [ "$prev" = coll ]; then
					words=$(_meshfabric_fabrics "$tool")
				else
					words="allreduce reduce reduce-scatter
					       allgather gather scatter alltoall
					       broadcast"
				fi ;;
			link)
				# link set|show NAME NODE PORT PARAMETER VALUE...
				case $prev in
				link) words="set show" ;;
				set|show) words=$(_meshfabric_fabrics "$tool") ;;
				*)
					if ((COMP_CWORD == i + 4)); then
						words="all $(_meshfabric_xports)"
					else
						words="rate delay queue loss switching all"
					fi ;;
				esac ;;
			*)
				return 0 ;;
			esac
		fi ;;
	esac
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
	return 0
}

complete -F _meshfabric meshfabric
