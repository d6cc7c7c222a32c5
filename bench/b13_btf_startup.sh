#!/bin/bash
# SPDX-License-Identifier: MIT
# B13 start-up with kernel types: wall time (fork to reap) of
#   `BEGIN { printf("%d\n", curtask->real_parent->pid); exit(); }`
# lantern reads the kernel's BTF lazily and converts only the types the
# script follows; bpftrace 0.17 parses BTF and builds with clang. The
# samples' peak RSS are reported too.
. "$(dirname "$0")/lib.sh"

script='BEGIN { printf("%d\n", curtask->real_parent->pid); exit(); }'
rm -f "$RAW"/b13.*

for rep in $(seq "$REPS"); do
	log "B13 rep $rep/$REPS"
	sample b13.begin bpftrace 60 -e "$script"
	for _ in 1 2 3 4; do
		sample b13.begin lantern 60 -e "$script"
	done
done

ms()
{
	calc "$(median "$RAW/$1.$2") / 1e6"
}

# mb NAME TOOL: median peak RSS in MB
mb()
{
	calc "$(median "$RAW/$1.$2" 2) / 1024"
}

for tool in lantern bpftrace; do
	failed_note b13.begin $tool "B13 $script"
done
row B13 'B13 curtask->real_parent->pid, BEGIN wall' ms "$(ms b13.begin lantern)" bpftrace "$(ms b13.begin bpftrace)" '<= 20'
row B13 'B13 the same, peak RSS' MB "$(mb b13.begin lantern)" bpftrace "$(mb b13.begin bpftrace)" -
