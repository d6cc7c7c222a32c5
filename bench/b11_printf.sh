#!/bin/bash
# SPDX-License-Identifier: MIT
# B11 output throughput: a printf for every getppid() of a -c child, 64-byte
# records (comm and five integers), the tracer's output going to a file on
# tmpfs. The figure is events per second: events delivered (lines printed)
# over the tracer's whole wall time, and how many were lost ("Lost N
# events", which both tracers print). N is LOOP_N/10 calls.
. "$(dirname "$0")/lib.sh"

SCRIPT='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf("%s %d %d %d %d %d\n", comm, pid, tid, cpu, nsecs, 42); }'
n=$((LOOP_N / 10))
out=/dev/shm/lantern-b11.$$
[ -d /dev/shm ] || out=$WORK/b11.outfile
rm -f "$RAW"/b11.*
bench_cleanup() { rm -f "$out"; }

for rep in $(seq "$REPS"); do
	log "B11 rep $rep/$REPS"
	for tool in lantern bpftrace; do
		[ -z "${FAILED[b11.$tool]:-}" ] || continue
		cmd=$(tool_cmd "$tool")
		if ! "$RUNSTAT" -o "$WORK/b11.last" -t 300 sh -c "exec \"\$0\" -e \"\$1\" -c \"\$2\" > \"\$3\" 2>\"\$3.err\"" \
			"$cmd" "$SCRIPT" "$PROGS/getppid_loop $n" "$out" </dev/null >/dev/null 2>&1; then
			FAILED[b11.$tool]="exit status $(sed -n 's/.*status=//p' "$WORK/b11.last"): $(fail_reason "$out.err")"
			log "B11 $tool failed: ${FAILED[b11.$tool]}"
			continue
		fi
		wall=$(sed -n 's/.*wall_ns=\([0-9]*\).*/\1/p' "$WORK/b11.last")
		printed=$(grep -c ' 42$' "$out")
		lost=$(awk '/^Lost [0-9]+ events/ { n += $2 } END { print n + 0 }' "$out")
		echo "$(calc "$printed / ($wall / 1e9)") $lost 0 $printed" >>"$RAW/b11.$tool"
	done
done

declare -A rate lost pct
for tool in lantern bpftrace; do
	rate[$tool]=$(median "$RAW/b11.$tool")
	lost[$tool]=$(median "$RAW/b11.$tool" 2)
	pct[$tool]=$(calc "100 * $(median "$RAW/b11.$tool" 4) / $n")
	failed_note b11 "$tool" "B11 printf"
done
# The table's ratio is lantern / peer: events per second, higher is better here.
row B11 "B11 printf, events/s delivered" k/s "$(calc "int(${rate[lantern]} / 1000)")" bpftrace \
	"$(calc "int(${rate[bpftrace]} / 1000)")" '-'
row B11 "B11 printf, share of $n events delivered" % "${pct[lantern]}" bpftrace "${pct[bpftrace]}" '-'
row B11 "B11 printf, events reported lost" lost "${lost[lantern]}" bpftrace "${lost[bpftrace]}" '-'
note "B11: higher is better for events/s and % delivered; target >= 1000k/s with 0 lost"
