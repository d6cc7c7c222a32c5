#!/bin/bash
# SPDX-License-Identifier: MIT
# B6 start-up. Wall time (runstat: fork to reap) of:
#   begin    `BEGIN { exit(); }`
#   tp1      one tracepoint and `interval:s:1 { exit(); }`; reported as
#            wall - 1 s: compile, load, attach, detach, print
#   compile  the tp1 script compiled, nothing loaded: lantern `-d bpf`
#            (dump to a file) vs bpftrace 0.17 `--emit-elf FILE`
#   dryrun   lantern `--dry-run` (compile + load into the kernel, attach
#            nothing); bpftrace 0.17 has no equivalent
#   gen500   a generated 500-line script (gen_script.sh), compile only as
#            for "compile"
# The samples' peak RSS serve B8.
. "$(dirname "$0")/lib.sh"

begin='BEGIN { exit(); }'
tp1='tracepoint:syscalls:sys_enter_getppid { @ = count(); } interval:s:1 { exit(); }'
"$(dirname "$0")/gen_script.sh" 500 >"$WORK/gen500.bt"
rm -f "$RAW"/b6.*

# Runs that take milliseconds get 4 times as many samples: on a shared
# machine a single preemption is as long as the whole run.
for rep in $(seq "$REPS"); do
	log "B6 rep $rep/$REPS"
	for tool in lantern bpftrace; do
		sample b6.tp1 "$tool" 60 -e "$tp1"
	done
	sample b6.begin bpftrace 60 -e "$begin"
	sample b6.gen500 bpftrace 60 --emit-elf "$WORK/b6.gen500.o" "$WORK/gen500.bt"
	for _ in 1 2 3 4; do
		sample b6.begin lantern 60 -e "$begin"
		sample b6.compile lantern 60 -d bpf -e "$tp1"
		sample b6.compile bpftrace 60 --emit-elf "$WORK/b6.compile.o" -e "$tp1"
		sample b6.dryrun lantern 60 --dry-run -e "$tp1"
		sample b6.gen500 lantern 60 -d bpf "$WORK/gen500.bt"
		runstat_to "$RAW/b6.true" 10 true
	done
done

# ms NAME TOOL [MINUS_MS]: median wall time in ms
ms()
{
	local v
	v=$(median "$RAW/$1.$2")
	calc "$v / 1e6 - ${3:-0}"
}

note "B6: starting and reaping /bin/true takes $(calc "int($(median "$RAW/b6.true") / 1e4) / 100") ms here (part of every B6 figure)"
for tool in lantern bpftrace; do
	failed_note b6.begin $tool "B6 $begin"
	failed_note b6.tp1 $tool "B6 $tp1"
	failed_note b6.compile $tool "B6 compile only"
	failed_note b6.gen500 $tool "B6 500-line script"
done
failed_note b6.dryrun lantern "B6 --dry-run"

row B6 'B6 BEGIN { exit(); } wall' ms "$(ms b6.begin lantern)" bpftrace "$(ms b6.begin bpftrace)" '<= 2'
row B6 'B6 1 tracepoint + interval 1s, wall - 1 s' ms "$(ms b6.tp1 lantern 1000)" bpftrace "$(ms b6.tp1 bpftrace 1000)" '<= 30'
row B6 'B6 compile only: -d bpf / bpftrace --emit-elf' ms "$(ms b6.compile lantern)" bpftrace "$(ms b6.compile bpftrace)" '<= 1'
row B6 'B6 compile + load, no attach (--dry-run)' ms "$(ms b6.dryrun lantern)" - - -
row B6 'B6 500-line script, compile only (as above)' ms "$(ms b6.gen500 lantern)" bpftrace "$(ms b6.gen500 bpftrace)" '<= 20'
