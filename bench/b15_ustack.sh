#!/bin/bash
# SPDX-License-Identifier: MIT
# B15 user stacks by DWARF: profile:hz:999 with user stacks of a busy
# Debian python3 (no frame pointers) for 10 s. lantern: @[ustack] =
# count() of that process (snapshots unwound in user space); perf: perf
# record --call-graph dwarf -F 999 -p PID for 10 s, then perf script (the
# unwinding happens there). Figures: each tool's CPU time (user + system,
# all its processes: bash's `time`), lantern's median time to unwind one
# sample (LANTERN_USTACK_STATS) and the frames per sample of each (as deep
# as perf's?). Several repetitions (B15_REPS, default 3), medians.
. "$(dirname "$0")/lib.sh"

SECS=${B15_SECS:-10}
REPS15=${B15_REPS:-3}
PY=/usr/bin/python3
LOAD='while True: sum(i*i for i in range(100000))'
rm -f "$RAW"/b15.*

# cpu_of CMD...: run it, append "cpu_ms" (user + system of it and its children) to stdout
cpu_of()
{
	local TIMEFORMAT='%U %S' t
	t=$( { time "$@" >/dev/null 2>>"$WORK/b15.err"; } 2>&1)
	awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.0f\n", (a[1] + a[2]) * 1000 }'
}

start_python()
{
	"$PY" -c "$LOAD" &
	PYPID=$!
	sleep 0.5
}

if ! command -v perf >/dev/null || ! [ -x "$PY" ]; then
	note "B15: needs perf and Debian's python3"
	exit 0
fi
for rep in $(seq "$REPS15"); do
	log "B15 rep $rep/$REPS15"
	start_python
	# lantern's stderr (the statistics line) goes to b15.err
	c=$(cpu_of env LANTERN_USTACK_STATS=1 "$LANTERN" -q -e "profile:hz:999 /pid == $PYPID/ { @[ustack] = count(); } interval:s:$SECS { exit(); }")
	kill "$PYPID"
	wait "$PYPID" 2>/dev/null
	echo "$c 0 0" >>"$RAW/b15.lantern"
	grep 'user stacks:' "$WORK/b15.err" | tail -n1 |
		sed -n 's/.*median \([0-9.]*\) us each, \([0-9.]*\) frames.*/\1 \2/p' |
		awk '{ printf "%.0f 0 0 %s\n", $1 * 1000, $2 }' >>"$RAW/b15.unwind"

	start_python
	c1=$(cpu_of perf record -q -F 999 --call-graph dwarf -o "$WORK/b15.data" -p "$PYPID" -- sleep "$SECS")
	kill "$PYPID"
	wait "$PYPID" 2>/dev/null
	c2=$(cpu_of perf script -i "$WORK/b15.data")
	perf script -i "$WORK/b15.data" 2>/dev/null >"$WORK/b15.script"
	echo "$((c1 + c2)) 0 0 $c1 $c2" >>"$RAW/b15.perf"
	# frames per sample (perf script: one line per frame, a blank line after each sample)
	awk 'NF == 0 { if (f) { s++; t += f } f = 0; next } /^[ \t]/ { f++ } END { printf "%.1f 0 0\n", s ? t / s : 0 }' \
		"$WORK/b15.script" >>"$RAW/b15.perf_frames"
done

# A program with frame pointers costs what it cost before: the same
# profile of calls_loop_fp, ustack_unwind=auto (one hash lookup, then the
# kernel's walk) against fp (the code of before); ns per run of the
# program (bpf_stats), which includes the runs the predicate filters out.
stats_old=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
sysctl -qw kernel.bpf_stats_enabled=1
for rep in $(seq "$REPS15"); do
	for mode in fp auto; do
		LANTERN_USTACK_UNWIND=$mode "$LANTERN" -q -e 'profile:hz:999 /pid == cpid/ { @[ustack] = count(); }' \
			-c "$PROGS/calls_loop_fp $((SECS * 1000))" >/dev/null 2>&1 &
		lp=$!
		echo "$lp" >>"$TRACERS_FILE"
		sleep "$((SECS - 1))"
		prog_stats "$lp" | awk '$2 > 0 { printf "%.0f 0 0\n", $1 / $2 }' >>"$RAW/b15.fp_$mode"
		wait "$lp"
	done
done
sysctl -qw kernel.bpf_stats_enabled="$stats_old"

lm=$(median "$RAW/b15.lantern")
pm=$(median "$RAW/b15.perf")
row B15 "B15 ustack by DWARF, python3 ${SECS} s: CPU" ms "$lm" "perf" "$pm" "<= $pm"
row B15 "B15 unwind of one sample, median" ns "$(median "$RAW/b15.unwind")" - - '-'
row B15 "B15 frames per sample" frames "$(median "$RAW/b15.unwind" 4)" "perf" "$(median "$RAW/b15.perf_frames")" '-'
row B15 "B15 frame pointers: program run, auto" ns "$(median "$RAW/b15.fp_auto")" "fp (before)" "$(median "$RAW/b15.fp_fp")" '-'
note "B15: perf's CPU is perf record ($(median "$RAW/b15.perf" 4) ms) + perf script ($(median "$RAW/b15.perf" 5) ms); $REPS15 runs of ${SECS} s"
