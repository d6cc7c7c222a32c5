#!/bin/bash
# SPDX-License-Identifier: MIT
# B2 cost inside the generated program: with kernel.bpf_stats_enabled=1
# the kernel times every run of every BPF program; run_time_ns / run_cnt of
# the tracer's program is the average cost of one event inside the program
# (the tracepoint dispatch around it is not included). Same scripts and
# workload as B1 (LOOP_N/5 iterations: only the average matters). The
# counters are read from /proc/PID/fdinfo of the tracer's program fd while
# it is still attached: the numbers `bpftool prog show` prints. The empty
# probe `{ }` shows what the measurement itself costs (two clock reads per
# run; about 50 ns on a VM): subtract it to get the program's own work.
. "$(dirname "$0")/lib.sh"

declare -A SCRIPT=(
	[keyed]='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
	[plain]='tracepoint:raw_syscalls:sys_enter { @ = count(); }'
	[empty]='tracepoint:raw_syscalls:sys_enter { }'
)
rm -f "$RAW"/b2.*

old=$(sysctl -n kernel.bpf_stats_enabled)
bench_cleanup() { sysctl -qw kernel.bpf_stats_enabled="$old"; }
if ! sysctl -qw kernel.bpf_stats_enabled=1; then
	note "B2: cannot set kernel.bpf_stats_enabled"
	for s in keyed plain empty; do row B2 "B2 ns/event, $s" ns n/a bpftrace n/a -; done
	exit 0
fi

n=$((LOOP_N / 5))
for rep in $(seq "$REPS"); do
	log "B2 rep $rep/$REPS"
	for tool in lantern bpftrace; do
		for s in keyed plain empty; do
			key=$tool.$s
			[ -z "${FAILED[$key]:-}" ] || continue
			if ! tracer_start "$tool" "${SCRIPT[$s]}" "b2.$key"; then
				FAILED[$key]=$(fail_reason "$WORK/b2.$key.err")
				log "B2 $key failed: ${FAILED[$key]}"
				continue
			fi
			runstat_to "$WORK/b2.workload" 300 "$PROGS/getppid_loop" "$n"
			read -r t c < <(prog_stats "$TRACER_PID")
			tracer_stop "$TRACER_PID"
			if [ "${c:-0}" -gt 0 ]; then
				echo "$(calc "$t / $c") $c" >>"$RAW/b2.$key"
			else
				FAILED[$key]="no BPF program with run_cnt > 0 found in /proc/PID/fdinfo"
			fi
		done
	done
done
bench_cleanup

declare -A ns
for s in keyed plain empty; do
	for tool in lantern bpftrace; do
		ns[$tool]=$(median "$RAW/b2.$tool.$s")
		[ -z "${FAILED[$tool.$s]:-}" ] || note "B2 ${SCRIPT[$s]}: $tool failed: ${FAILED[$tool.$s]}"
	done
	case $s in
	keyed) label='B2 ns/event in program, @[comm] = count()' target='<= 200' ;;
	plain) label='B2 ns/event in program, @ = count()' target='<= 70' ;;
	empty) label='B2 ns/event in program, empty { } (floor)' target='-' ;;
	esac
	row B2 "$label" ns "${ns[lantern]}" bpftrace "${ns[bpftrace]}" "$target"
done
