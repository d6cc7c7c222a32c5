#!/bin/bash
# SPDX-License-Identifier: MIT
# B14 metrics: Prometheus scrapes of `lantern --metrics` while B11 runs.
# The script is B11's printf of every getppid() of the -c child plus a
# count() map with 10,000 keys (nsecs % 10000: the loop fills every key in
# its first milliseconds); curl fetches /metrics every second while it runs.
# Figures: the time of a scrape (median and worst, from curl's time_total),
# the page's keys, and what B11 must still hold: events lost (0) and the
# share delivered. There is no peer on this machine (ebpf_exporter, the
# reference design, is not packaged for Debian 12): no ratio.
. "$(dirname "$0")/lib.sh"

KEYS=10000
SCRIPT='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf("%s %d %d %d %d %d\n", comm, pid, tid, cpu, nsecs, 42); @keys[nsecs % '$KEYS'] = count(); }'
n=$((LOOP_N / 10))
out=/dev/shm/lantern-b14.$$
[ -d /dev/shm ] || out=$WORK/b14.outfile
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rm -f "$RAW"/b14.*
bench_cleanup() { rm -f "$out" "$out.err"; }

for rep in $(seq "$REPS"); do
	log "B14 rep $rep/$REPS"
	# the loop runs ~1 s traced: 4x as long, so that several scrapes land during it
	LANTERN_MAP_KEYS_MAX=$KEYS "$LANTERN" --metrics "127.0.0.1:$port" -e "$SCRIPT" \
		-c "$PROGS/getppid_loop $((n * 4))" >"$out" 2>"$out.err" </dev/null &
	pid=$!
	echo "$pid" >>"$TRACERS_FILE"
	scrapes=0
	while kill -0 "$pid" 2>/dev/null; do
		t=$(curl -sf -o "$WORK/b14.page" -w '%{time_total}' "http://127.0.0.1:$port/metrics") || { sleep 0.05; continue; }
		keys=$(grep -c '^lantern_keys_total' "$WORK/b14.page")
		# a scrape counts once the map is full (the first ones may see it filling)
		[ "$keys" = $KEYS ] && echo "$(calc "$t * 1000") 0 0 $keys" >>"$RAW/b14.scrape" && scrapes=$((scrapes + 1))
		sleep 1
	done
	wait "$pid"
	printed=$(grep -c ' 42$' "$out")
	lost=$(awk '/^Lost [0-9]+ events/ { n += $2 } END { print n + 0 }' "$out")
	echo "$lost 0 0 $(calc "100 * $printed / ($n * 4)") $scrapes" >>"$RAW/b14.run"
done

row B14 "B14 scrape of $KEYS keys during B11, median" ms "$(median "$RAW/b14.scrape")" - - "<= 50"
row B14 "B14 scrape, the slowest" ms "$(sort -g "$RAW/b14.scrape" 2>/dev/null | tail -n1 | cut -d' ' -f1)" - - "<= 50"
row B14 "B14 B11 events lost meanwhile" lost "$(median "$RAW/b14.run")" - - "<= 0"
row B14 "B14 B11 events delivered" % "$(median "$RAW/b14.run" 4)" - - '-'
note "B14: $(wc -l <"$RAW/b14.scrape" 2>/dev/null || echo 0) scrapes of a full map over $REPS runs; no peer (ebpf_exporter is not packaged here)"
