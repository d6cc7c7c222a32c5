#!/bin/bash
# SPDX-License-Identifier: MIT
# B1 counting overhead: how much slower the getppid() loop runs while a
# tracer counts every syscall. Each traced run of `getppid_loop LOOP_N` is
# paired with an untraced run just before it; the figure is the median of
# traced / untraced wall time over REPS pairs (pairs cancel slow drifts of
# a shared machine). The empty probe `{ }` gives the floor: what attaching
# any program to raw_syscalls:sys_enter costs before it does any work
# (slow-path syscall entry, dispatch). The tracer's own count is checked after it stops: a
# tracer that lost events is flagged rather than silently fast.
. "$(dirname "$0")/lib.sh"

declare -A SCRIPT=(
	[keyed]='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
	[plain]='tracepoint:raw_syscalls:sys_enter { @ = count(); }'
	[empty]='tracepoint:raw_syscalls:sys_enter { }'
)
declare -A PATTERN=([keyed]='^@\[getppid_loop\]: ' [plain]='^@: ')
rm -f "$RAW"/b1.*

# one warm-up run, not counted
"$RUNSTAT" -o "$WORK/b1.warm" -t 300 "$PROGS/getppid_loop" "$LOOP_N"

for rep in $(seq "$REPS"); do
	log "B1 rep $rep/$REPS"
	for tool in lantern bpftrace; do
		for s in keyed plain empty; do
			key=$tool.$s
			[ -z "${FAILED[$key]:-}" ] || continue
			runstat_to "$RAW/b1.untraced.$key" 300 "$PROGS/getppid_loop" "$LOOP_N"
			if ! tracer_start "$tool" "${SCRIPT[$s]}" "b1.$key"; then
				FAILED[$key]=$(fail_reason "$WORK/b1.$key.err")
				log "B1 $key failed: ${FAILED[$key]}"
				continue
			fi
			runstat_to "$RAW/b1.$key" 300 "$PROGS/getppid_loop" "$LOOP_N"
			tracer_stop "$TRACER_PID"
			u=$(tail -n1 "$RAW/b1.untraced.$key" | cut -d' ' -f1)
			t=$(tail -n1 "$RAW/b1.$key" | cut -d' ' -f1)
			calc "$t / $u" >>"$RAW/b1.ratio.$key"
			[ "$s" != empty ] || continue
			n=$(grep -E "${PATTERN[$s]}" "$WORK/b1.$key.out" | awk '{ print $2 }')
			if [ "${n:-0}" -lt "$LOOP_N" ]; then
				note "B1 ${SCRIPT[$s]}: $tool counted ${n:-nothing} of at least $LOOP_N getppid() calls (rep $rep)"
			fi
		done
	done
done

cat "$RAW"/b1.untraced.* >"$RAW/b1.untraced" 2>/dev/null
base=$(median "$RAW/b1.untraced")
note "B1 workload: getppid_loop $LOOP_N, untraced $(calc "int($base / 1e6)") ms ($(calc "int($base / $LOOP_N)") ns/call)"
declare -A slow
for s in keyed plain empty; do
	for tool in lantern bpftrace; do
		slow[$tool]=$(median "$RAW/b1.ratio.$tool.$s")
		[ -z "${FAILED[$tool.$s]:-}" ] || note "B1 ${SCRIPT[$s]}: $tool failed: ${FAILED[$tool.$s]}"
	done
	case $s in
	keyed) label='B1 slowdown, @[comm] = count()' target='<= 1.6' ;;
	plain) label='B1 slowdown, @ = count()' target='-' ;;
	empty) label='B1 slowdown, empty probe { } (floor)' target='-' ;;
	esac
	row B1 "$label" x "${slow[lantern]}" bpftrace "${slow[bpftrace]}" "$target"
done
