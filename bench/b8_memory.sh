#!/bin/bash
# SPDX-License-Identifier: MIT
# B8 peak memory: the tracer's maximum RSS (ru_maxrss from wait4, through
# runstat) in the B6 and B7 runs; no runs of its own, so run it after them.
. "$(dirname "$0")/lib.sh"

mb()
{
	calc "$(median "$RAW/$1.$2" 2)" / 1024
}
for f in b6.begin b6.tp1 b7.many; do
	if ! ls "$RAW/$f".* >/dev/null 2>&1; then
		note "B8: no samples of $f (run B6 and B7 before B8)"
	fi
done
row B8 'B8 max RSS, BEGIN { exit(); }' MB "$(mb b6.begin lantern)" bpftrace "$(mb b6.begin bpftrace)" '<= 4'
row B8 'B8 max RSS, 1 tracepoint + interval 1s' MB "$(mb b6.tp1 lantern)" bpftrace "$(mb b6.tp1 bpftrace)" '<= 4'
row B8 'B8 max RSS, 500-line script compile only' MB "$(mb b6.gen500 lantern)" bpftrace "$(mb b6.gen500 bpftrace)" -
row B8 'B8 max RSS, B7 sys_enter_* for 1 s' MB "$(mb b7.many lantern)" bpftrace "$(mb b7.many bpftrace)" '<= 16'
