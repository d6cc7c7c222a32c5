#!/bin/bash
# SPDX-License-Identifier: MIT
# B7 many probes: `tracepoint:syscalls:sys_enter_* { @[probe] = count(); }`
# (every syscall entry tracepoint, about 360) ending after 1 s; wall - 1 s
# is what attaching and detaching them costs (plus start-up and printing).
# Both tracers may take tens of seconds here, so B7 runs B7_REPS times
# (default 1) rather than REPS. The samples' peak RSS serve B8.
. "$(dirname "$0")/lib.sh"

script='tracepoint:syscalls:sys_enter_* { @[probe] = count(); } interval:s:1 { exit(); }'
reps=${B7_REPS:-1}
rm -f "$RAW"/b7.*

for rep in $(seq "$reps"); do
	for tool in lantern bpftrace; do
		log "B7 rep $rep/$reps $tool"
		sample b7.many "$tool" 180 -e "$script"
	done
done

declare -A s
for tool in lantern bpftrace; do
	failed_note b7.many $tool "B7"
	s[$tool]=$(calc "$(median "$RAW/b7.many.$tool") / 1e6 - 1000")
done
n=$(cat "$RAW/b7.many.lantern.out" "$RAW/b7.many.bpftrace.out" 2>/dev/null |
	grep -m1 -o 'Attaching [0-9]* probes' | grep -o '[0-9][0-9]*')
note "B7: ${n:-?} probes (with the interval), $reps repetitions (B7_REPS)"
row B7 'B7 sys_enter_* for 1 s, wall - 1 s' ms "${s[lantern]}" bpftrace "${s[bpftrace]}" '<= 1000'
