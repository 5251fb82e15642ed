#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Where does `meshfabric create` spend its time?  In ONE run of the test VM
# (scripts/vm.sh), for each size (default 32x32 and 64x64 tori):
#
#   floor      `ip -batch` of "netns add" for the same count (the floor of
#              issue 15), and of "netns del";
#   plain      `meshfabric create --torus NxN --no-ipv6 --ipv4 10.0.0.0/16`
#              and `destroy`, timed only;
#   traced     the same create (and destroy) under strace (--seccomp-bpf, only the
#              syscalls that mark the tool's phases: ioctl, unshare, mount,
#              sendmsg, sendto) and ftrace function_graph on a few kernel functions
#              (set_ftrace_filter: namespace setup, sysctl/proc, mount
#              propagation, netdev registration, rtnetlink, uevents);
#              the floor again with ftrace (--plain: no traced runs);
#   stacks     with --stacks N, first: who waits for grace periods, in
#              one create and destroy of an NxN torus (function tracer,
#              func_stack_trace on synchronize_rcu, synchronize_net,
#              rcu_barrier, ...: calls per distinct call chain).
#   perf       with --perf: the plain floor and create/destroy under a
#              sampling profile (perf record -a -g, cpu-clock, 499 Hz;
#              perf in the guest: MF_VM_PERF=1, set by --perf), and the
#              CPU seconds under a few kernel functions (with their
#              callees): what a function_graph trace, which slows what
#              is called most, cannot weigh.
#
# The plain create is checked with a ping from (0,0) to the centre node.
#
# Per syscall and per traced function: calls, total seconds, mean, and the
# mean over the first and the last quarter of the calls (a last/first
# ratio well above 1 is a cost that grows with the number of namespaces
# already there).  Between runs it waits for the namespaces' asynchronous
# cleanup to finish.
#
#   scripts/create-profile.sh [--mem MB] [--kernel K] [--sizes "32 64"] [--plain]
#                             [--stacks N] [--perf]
#                             [--no-floor] [--rounds R]
#   --rounds R   the floor and the plain create/destroy R times, one after
#                the other, and the ratios per round and their median (on a
#                loaded host the load moves between runs: adjacent pairs)
#   (128x128: --sizes 128 --plain --mem 8192, about 25 minutes)
#
# strace must be in the guest at /usr/bin/strace for the strace part
# (otherwise skipped with a note); ftrace needs tracefs (Debian's kernel
# has the function_graph tracer).  MF_VM_SH runs another vm.sh.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init create-profile 6144
sizes="32 64" plain=0 stacks=0 nofloor=0 perf=0 rounds=1
bench_opt() {
	case $1 in
	--sizes) sizes=$2; return 2 ;;
	--plain) plain=1; return 1 ;;
	--stacks) stacks=$2; return 2 ;;
	--no-floor) nofloor=1; return 1 ;;
	--perf) perf=1; return 1 ;;
	--rounds) rounds=$2; return 2 ;;
	esac
	return 0
}
bench_args "[--mem MB] [--kernel K] [--sizes \"32 64\"] [--plain] [--stacks N] [--perf] [--no-floor] [--rounds R]" 46 "$@"
case $rounds in ''|*[!0-9]*|0) echo "create-profile: --rounds wants a count >= 1" >&2; exit 2 ;; esac
[ $perf = 1 ] && export MF_VM_PERF=1
bench_build

guest=$(cat <<'GUEST'
IP=/usr/sbin/ip
T=/sys/kernel/tracing
insmod /mf/meshfabric.ko || exit 1
echo "# guest: $(nproc) cpus, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MB, kernel $(uname -r)"
[ -d $T/options ] || mount -t tracefs nodev $T 2>/dev/null
FT=0
[ -w $T/current_tracer ] && grep -qw function_graph $T/available_tracers && FT=1
[ $FT = 1 ] || echo "# no function_graph tracer: ftrace part skipped"
ST=0
[ -x /usr/bin/strace ] && ST=1 || echo "# /usr/bin/strace missing in the guest: strace part skipped"
FUNCS="__x64_sys_unshare copy_net_ns setup_net ops_init __register_sysctl_table
proc_net_ns_init __x64_sys_mount path_mount do_loopback attach_recursive_mnt
propagate_mnt __x64_sys_ioctl register_netdevice netdev_register_kobject
device_add kobject_uevent_env __dev_open dev_open rtnetlink_rcv_msg
inet_rtm_newaddr do_setlink rtnl_newlink synchronize_rcu synchronize_net
rtnl_lock register_netdev unregister_netdevice_many cleanup_net
__x64_sys_umount __x64_sys_socket netlink_sendmsg addrconf_notify
inetdev_event fib_netdev_event unregister_netdevice_many_notify
netdev_run_todo netdev_wait_allrefs_any dev_close_many netdev_unregister_kobject
rtmsg_ifinfo neigh_ifdown rcu_barrier synchronize_rcu_expedited mf_ndo_uninit
kobject_del default_device_exit_batch mf_fabric_teardown"
ft_start() {
	[ $FT = 1 ] || return 0
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo 65536 >$T/buffer_size_kb
	: >$T/set_ftrace_filter
	for f in $FUNCS; do echo $f >>$T/set_ftrace_filter 2>/dev/null; done
	echo 1 >$T/options/funcgraph-tail 2>/dev/null
	echo 0 >$T/options/funcgraph-irqs 2>/dev/null
	: >$T/trace
	echo function_graph >$T/current_tracer
	echo 1 >$T/tracing_on
}
ft_stop() {	# ft_stop LABEL
	[ $FT = 1 ] || return 0
	echo 0 >$T/tracing_on
	ov=$(cat $T/per_cpu/cpu*/stats 2>/dev/null | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }')
	echo "# ftrace $1 (overrun $ov events): function calls total_s mean_us first_q_us last_q_us"
	awk -v l="$1" '
	/ us / && /\|/ {
		if (match($0, /[0-9]+\.[0-9]+ us/) == 0) next
		d = substr($0, RSTART, RLENGTH - 3) + 0
		s = $0; sub(/.*\| */, "", s)
		if (s ~ /^}/) { if (match(s, /\/\* [A-Za-z0-9_.]+ \*\//) == 0) next; f = substr(s, RSTART + 3, RLENGTH - 6) }
		else { f = s; sub(/\(.*/, "", f) }
		n[f]++; v[f, n[f]] = d; tot[f] += d
	}
	END {
		for (f in n) {
			q = int(n[f] / 4); if (q < 1) q = 1
			a = 0; b = 0
			for (i = 1; i <= q; i++) { a += v[f, i]; b += v[f, n[f] - q + i] }
			printf "FT %s %s %d %.3f %.1f %.1f %.1f\n", l, f, n[f], tot[f] / 1e6, tot[f] / n[f], a / q, b / q
		}
	}' $T/trace | sort -k5,5 -g -r
	echo nop >$T/current_tracer
	echo 1408 >$T/buffer_size_kb
}
st_report() {	# st_report LABEL FILE
	awk -v l="$1" '
	{
		ts = ""; for (i = 1; i <= 2; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) { ts = $i; k = i; break }
		if (ts == "") next
		if (t0 == "") t0 = ts
		tl = ts
		c = $(k + 1); sub(/\(.*/, "", c)
		if (!match($0, /<[0-9.]+>$/)) next
		d = substr($0, RSTART + 1, RLENGTH - 2) + 0
		n[c]++; v[c, n[c]] = d; tot[c] += d
		if (!(c in first)) first[c] = ts - t0
		last[c] = ts - t0
		if (c == "ioctl" && d > 0.005) printf "ST %s ioctl#%d at %.2f s: %.3f s\n", l, n[c], ts - t0, d
	}
	END {
		printf "ST %s total %.2f s (first traced syscall to exit)\n", l, tl - t0
		for (c in n) {
			q = int(n[c] / 4); if (q < 1) q = 1
			a = 0; b = 0
			for (i = 1; i <= q; i++) { a += v[c, i]; b += v[c, n[c] - q + i] }
			printf "ST %s %s calls %d in-syscall %.3f s, span %.2f..%.2f s, mean %.0f us, first_q %.0f us, last_q %.0f us\n",
				l, c, n[c], tot[c], first[c], last[c], tot[c] * 1e6 / n[c], a * 1e6 / q, b * 1e6 / q
		}
	}' "$2"
}
PF=0
if [ "$PERF" = 1 ]; then
	if [ -x /usr/bin/perf ]; then
		PF=1
		echo 0 >/proc/sys/kernel/kptr_restrict
		echo -1 >/proc/sys/kernel/perf_event_paranoid
	else
		echo "# no perf in the guest: --perf skipped"
	fi
fi
# run LABEL CMD...: CMD, under perf record with --perf
run() {
	_l=$1; shift
	[ $PF = 1 ] || { "$@"; return; }
	perf record -q -a -g -e cpu-clock -F 499 -o /tmp/perf.$_l -- "$@"
}
# perf_report LABEL SECONDS: CPU seconds under the functions of PERFSYMS
# (children: with what they call), of all $(nproc) CPUs' samples
PERFSYMS="native_safe_halt setup_net register_netdevice wireless_nlevent_flush
fib_create_info do_setlink __dev_open mf_ioctl __x64_sys_mount
__x64_sys_umount cleanup_net unregister_netdevice_many_notify
addrconf_notify inetdev_event netdev_register_kobject"
perf_report() {
	[ $PF = 1 ] && [ -f /tmp/perf.$1 ] || return 0
	perf report -i /tmp/perf.$1 --stdio --children --sort sym -g none 2>/dev/null |
	awk -v l=$1 -v s=$2 -v c=$(nproc) -v want="$PERFSYMS" '
	BEGIN { n = split(want, w, /[ \n]+/); for (i = 1; i <= n; i++) if (w[i] != "") k[w[i]] = 1 }
	$1 ~ /%$/ && $2 ~ /%$/ && ($NF in k) && !($NF in seen) {
		seen[$NF] = 1
		printf "PERF %s %s %.2f\n", l, $NF, $1 * s * c / 100
	}'
	rm -f /tmp/perf.$1
}
settle() {	# wait for asynchronous namespace cleanup (kworkers) to finish
	t=$(now)
	while [ "$(cat /sys/module/meshfabric/parameters/allocated 2>/dev/null || echo 0)" != 0 ]; do sleep 0.2; done
	idle=0 k=0
	while [ $idle -lt 5 ] && [ $k -lt 600 ]; do
		r=$(awk '{ split($4, a, "/"); print a[1] }' /proc/loadavg)
		[ "$r" -le 1 ] && idle=$((idle + 1)) || idle=0
		sleep 0.2; k=$((k + 1))
	done
	echo "# settled in $(dt $t) s"
}
floor() {	# floor COUNT [traced]
	c=$1
	awk -v c=$c 'BEGIN { for (i = 0; i < c; i++) { print "netns add z" i > "/tmp/zadd"; print "netns del z" i > "/tmp/zdel" } }'
	sync; echo 3 >/proc/sys/vm/drop_caches
	[ "${2:-}" ] && ft_start
	t=$(now)
	run floor_add_$c $IP -batch /tmp/zadd || return 1
	d=$(dt $t)
	echo "BENCH ${2:-}floor_add_$c $d"
	[ "${2:-}" ] && ft_stop "floor$c"
	[ "${2:-}" ] || perf_report floor_add_$c $d
	t=$(now)
	run floor_del_$c $IP -batch /tmp/zdel || return 1
	d=$(dt $t)
	echo "BENCH ${2:-}floor_del_$c $d"
	[ "${2:-}" ] || perf_report floor_del_$c $d
	settle
}
mf() {	# mf N [traced]
	n=$1
	sync; echo 3 >/proc/sys/vm/drop_caches
	m0=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
	if [ "${2:-}" ]; then
		ft_start
		t=$(now)
		if [ $ST = 1 ]; then
			strace -f -ttt -T --seccomp-bpf -e trace=ioctl,unshare,mount,sendmsg,sendto,exit_group \
				-o /tmp/st meshfabric create --torus ${n}x$n --name s --no-ipv6 --ipv4 10.0.0.0/16 >/tmp/c.out ||
				{ cat /tmp/c.out; return 1; }
		else
			meshfabric create --torus ${n}x$n --name s --no-ipv6 --ipv4 10.0.0.0/16 >/tmp/c.out ||
				{ cat /tmp/c.out; return 1; }
		fi
		echo "BENCH traced_mf_create_$n $(dt $t)"
		ft_stop "mf$n"
		[ $ST = 1 ] && st_report "mf$n" /tmp/st
	else
		t=$(now)
		run mf_create_$n meshfabric create --torus ${n}x$n --name s --no-ipv6 --ipv4 10.0.0.0/16 >/tmp/c.out ||
			{ cat /tmp/c.out; return 1; }
		d=$(dt $t)
		echo "BENCH mf_create_$n $d"
		perf_report mf_create_$n $d
		m1=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
		echo "BENCH mf_mem_$n $(( (m0 - m1) / 1024 ))"
		id=$((n / 2 + n / 2 * n + 1))
		meshfabric exec s 0,0 -- ping -c1 -W10 "10.0.$((id >> 8)).$((id & 255))" >/dev/null &&
			echo "BENCH mf_ping_$n ok" || echo "BENCH mf_ping_$n FAILED"
	fi
	head -n 1 /tmp/c.out | sed 's/^/# /'
	[ "${2:-}" ] && ft_start
	t=$(now)
	if [ "${2:-}" ]; then
		meshfabric destroy s >/dev/null || return 1
	else
		run mf_destroy_$n meshfabric destroy s >/dev/null || return 1
	fi
	d=$(dt $t)
	echo "BENCH ${2:-}mf_destroy_$n $d"
	[ "${2:-}" ] || perf_report mf_destroy_$n $d
	[ "${2:-}" ] && ft_stop "mfdestroy$n"
	settle
}
stacks() {	# stacks N: call chains of the grace-period waits of create/destroy
	[ -w $T/current_tracer ] && grep -qw function $T/available_tracers ||
		{ echo "# no function tracer: --stacks skipped"; return 0; }
	for step in create destroy; do
		echo 0 >$T/tracing_on
		echo nop >$T/current_tracer
		echo 16384 >$T/buffer_size_kb
		: >$T/set_ftrace_filter
		for f in synchronize_rcu synchronize_rcu_expedited synchronize_net \
			 rcu_barrier synchronize_srcu; do
			echo $f >>$T/set_ftrace_filter 2>/dev/null
		done
		: >$T/trace
		echo function >$T/current_tracer
		echo 1 >$T/options/func_stack_trace
		echo 1 >$T/tracing_on
		if [ $step = create ]; then
			meshfabric create --torus ${1}x$1 --name s --no-ipv6 --ipv4 10.0.0.0/16 >/dev/null || return 1
		else
			meshfabric destroy s >/dev/null || return 1
		fi
		echo 0 >$T/tracing_on
		echo 0 >$T/options/func_stack_trace
		echo "# grace-period waits in $step ${1}x$1 (calls, call chain):"
		awk '
		function flush() { if (key != "") n[key]++; key = "" }
		/<stack trace>/ { flush(); key = "-"; depth = 0; next }
		/^ => / && key != "" {
			if (++depth <= 9) { f = $2; sub(/\+.*/, "", f); key = (key == "-" ? f : key " < " f) }
			next
		}
		{ flush() }
		END { flush(); for (k in n) printf "%6d  %s\n", n[k], k }' $T/trace | sort -rn | head -n 12
		echo nop >$T/current_tracer
	done
	echo 1408 >$T/buffer_size_kb
	settle
}
[ "$STACKS" != 0 ] && { stacks $STACKS || echo "BENCH stacks FAILED"; }
r=1
while [ $r -le "$ROUNDS" ]; do
	for n in $SIZES; do
		c=$((n * n))
		[ "$NOFLOOR" = 1 ] || floor $c || echo "BENCH floor_$c FAILED"
		mf $n || echo "BENCH mf_$n FAILED"
		[ "$PLAIN" = 1 ] || [ $r -gt 1 ] && continue
		mf $n traced_ || echo "BENCH traced_mf_$n FAILED"
		[ $FT = 1 ] && { floor $c traced_ || echo "BENCH traced_floor_$c FAILED"; }
	done
	r=$((r + 1))
done
# rmmod's rtnl_link_unregister waits for the kernel's cleanup of the
# namespaces deleted last (pernet_ops_rwsem), which outlasts the hung-task
# detector's 120 s at 16384 nodes (an idle wait in cleanup_net, as after
# `ip netns del` of as many): not a hang of the module's
echo 0 >/proc/sys/kernel/hung_task_timeout_secs
rmmod meshfabric
exit 0
GUEST
)
bench_vm "64x64 takes about 10 minutes" 3000 "SIZES='$sizes' PLAIN=$plain STACKS=$stacks NOFLOOR=$nofloor PERF=$perf ROUNDS=$rounds; $BENCH_GUEST_LIB$guest" -vE '^BENCH|^FT|^ST|^PERF'
printf '\n%-8s %12s %12s %8s %12s %12s %8s %10s %10s %6s\n' nodes "ns floor s" "mf create s" ratio \
	"ns del s" "mf destroy s" ratio "us/node" "guest MiB" ping
for n in $sizes; do
	c=$((n * n))
	fa=$(bench_get floor_add_$c) fd=$(bench_get floor_del_$c) mc=$(bench_get mf_create_$n) md=$(bench_get mf_destroy_$n)
	# round i pairs the i-th floor with the i-th create; the first line
	# is the median of the rounds' ratios (of one round: that round)
	awk -v c=$c -v fa="$fa" -v fd="$fd" -v mc="$mc" -v md="$md" -v mem="$(bench_get mf_mem_$n | head -n 1)" \
	    -v ping="$(bench_get mf_ping_$n | sort -u | tr '\n' ' ')" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	BEGIN {
		n = split(fa, A, "\n"); split(fd, D, "\n"); m = split(mc, C, "\n"); split(md, E, "\n")
		if (m < n) n = m
		k = 0; l = 0
		for (i = 1; i <= n; i++) {
			if (A[i] > 0) rc[++k] = C[i] / A[i]
			if (D[i] > 0) rd[++l] = E[i] / D[i]
		}
		printf "%-8d %12s %12s %8s %12s %12s %8s %10s %10s %6s\n", c, A[1], C[1],
			(k ? sprintf("%.2fx", med(rc, k)) : "-"), D[1], E[1],
			(l ? sprintf("%.2fx", med(rd, l)) : "-"), (C[1] > 0 ? sprintf("%.0f", C[1] * 1e6 / c) : "-"), mem, ping
		for (i = 2; n > 1 && i <= n; i++)
			printf "%-8s %12s %12s %8s %12s %12s\n", "  round " i, A[i], C[i],
				(A[i] > 0 ? sprintf("%.2fx", C[i] / A[i]) : "-"), D[i], E[i]
		if (n > 1) printf "%-8s ratios are the median of %d rounds (round 1 on the first line)\n", "", n
	}'
done
if grep -q '^PERF ' "$out"; then
	echo
	echo "perf: CPU seconds under each function (with its callees) of all the guest's CPUs"
	echo "(native_safe_halt: idle; plain runs, perf's own cost included):"
	awk '$1 == "PERF" { if (!($2 in seen)) { seen[$2] = 1; l[++nl] = $2 }
		if (!($3 in fs)) { fs[$3] = 1; f[++nf] = $3 } v[$2, $3] = $4 }
	END {
		printf "%-34s", "function"; for (i = 1; i <= nl; i++) printf " %16s", l[i]; print ""
		for (j = 1; j <= nf; j++) {
			printf "%-34s", f[j]
			for (i = 1; i <= nl; i++) printf " %16s", ((l[i], f[j]) in v ? v[l[i], f[j]] : "-")
			print ""
		}
	}' "$out"
fi
echo
echo "strace phases of the traced create (tool syscalls; durations in the kernel):"
grep '^ST ' "$out" | cut -d' ' -f2-
echo
echo "ftrace function_graph (label function calls total_s mean_us first_quarter_us last_quarter_us), top 14 per run:"
for l in $(awk '$1 == "FT" { print $2 }' "$out" | uniq); do
	awk -v l=$l '$1 == "FT" && $2 == l' "$out" | head -n 14 | cut -d' ' -f2-
done
echo "(one run, TCG guest, -m $mem; traced runs are slower than plain ones; compare plain to the floor)"
exit "$rc"
