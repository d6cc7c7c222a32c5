#!/bin/bash
# SPDX-License-Identifier: MIT
# gen_script.sh [LINES]: print a bpftrace script of LINES lines (default 500)
# for the B6 compile-time figure: one block of 14 lines per syscall entry
# tracepoint (filters, variables, keyed and plain aggregations, if/else,
# printf), and a BEGIN and END. Only features lantern and bpftrace 0.17
# both accept; compile it, do not run it (it would print a lot).
lines=${1:-500}
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing

echo 'BEGIN { printf("generated script\n"); @start = nsecs; }'
n=1
k=0
for dir in "$tracefs"/events/syscalls/sys_enter_*; do
	ev=${dir##*/}
	[ $((n + 14 + 1)) -le "$lines" ] || break
	k=$((k + 1))
	cat <<EOB
tracepoint:syscalls:$ev /pid != $k/ {
	\$nr = args->__syscall_nr;
	@calls[probe] = count();
	@by_comm[comm, $k] = count();
	@nr_sum = sum(\$nr + $k);
	@last[cpu] = max(nsecs);
	@p$k = avg(\$nr * $k);
	if (\$nr > $k) {
		@hi[tid] = min(\$nr - $k);
	} else {
		printf("$ev %s %d %d\n", comm, pid, \$nr);
	}
	@h = hist(\$nr);
}
EOB
	n=$((n + 14))
done
# pad with plain statements to exactly LINES lines
echo 'END {'
n=$((n + 1))
while [ $n -lt $((lines - 1)) ]; do
	echo "	@pad = sum($n);"
	n=$((n + 1))
done
echo '}'
