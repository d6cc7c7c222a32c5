#!/bin/bash
# SPDX-License-Identifier: MIT
# B3, B4, B5: lantern trace against strace and perf trace, the traced
# command being `getppid_loop N`, started by runstat so that the loop's own
# wall time is measured inside the traced run. Two figures per tracer:
#   loop   the loop's wall time traced over its wall time untraced (an
#          untraced run just before each traced one): what the traced
#          program suffers, BENCHMARKS.md's figure;
#   whole  the tracer's whole run (start-up, the end, draining) over the
#          untraced loop.
#
#   B3  every call decoded to a file   lantern trace -f -o F / strace -f -o F / perf trace -o F
#   B4  the summary table              lantern trace -f -c  / strace -c -f     / perf trace -s
#   B5  only openat, the loop running  lantern trace -f -e trace=openat
#                                      / strace --seccomp-bpf -f -e trace=openat / perf trace -e openat
#   B4's floor: two empty programs on raw_syscalls' sys_enter and sys_exit
#   (lantern -e '...' -c), what any tracer of every call pays before doing
#   anything; B4 is also given over it. And B4's clock floor: the same two
#   programs reading the clock (bpf_ktime_get_ns), what any tracer that
#   times every call pays: B4 over it is what -c's programs add to that
#
# lantern runs B3_N calls (default 1,000,000, as BENCHMARKS.md says); strace
# and perf trace are 100-900x slower here, so they run B3_PEER_N calls
# (default 100,000) and min(REPS, 3) times. B3 also checks that every call
# reached the file (lantern: "... events lost ..." otherwise).
. "$(dirname "$0")/lib.sh"

N=${B3_N:-1000000}
PN=${B3_PEER_N:-100000}
PREPS=$((REPS < 3 ? REPS : 3))
command -v strace >/dev/null || note "B3-B5: no strace (apt-get install strace)"
command -v perf >/dev/null || note "B3-B5: no perf (apt-get install linux-perf)"
out=$WORK/b3.trace
rm -f "$RAW"/b3.* "$RAW"/b4.* "$RAW"/b5.* "$RAW"/b4floor.* "$RAW"/b4clock.*
# the floor's tracer: the traced command as lantern's -c
cat >"$WORK/floor.sh" <<'FLOOR'
#!/bin/sh
exec "$LANTERN" -e 'rawtracepoint:sys_enter { } rawtracepoint:sys_exit { }' -c "$*"
FLOOR
chmod +x "$WORK/floor.sh"
cat >"$WORK/clock.sh" <<'CLOCK'
#!/bin/sh
exec "$LANTERN" -e 'rawtracepoint:sys_enter { $t = nsecs; } rawtracepoint:sys_exit { $t = nsecs; }' -c "$*"
CLOCK
chmod +x "$WORK/clock.sh"

# cmd BENCH TOOL: the tracer's command line before the traced command
cmd()
{
	case $1.$2 in
	b3.lantern) echo "$LANTERN trace -f -o $out" ;;
	b3.strace) echo "strace -f -o $out" ;;
	b3.perf) echo "perf trace -o $out --" ;;
	b4.lantern) echo "$LANTERN trace -f -c -o $out" ;;
	b4.strace) echo "strace -c -f -o $out" ;;
	b4.perf) echo "perf trace -s -o $out --" ;;
	b5.lantern) echo "$LANTERN trace -f -e trace=openat -o $out" ;;
	b5.strace) echo "strace --seccomp-bpf -f -e trace=openat -o $out" ;;
	b5.perf) echo "perf trace -e openat -o $out --" ;;
	b4floor.lantern) echo "$WORK/floor.sh" ;;
	b4clock.lantern) echo "$WORK/clock.sh" ;;
	esac
}

# one BENCH TOOL CALLS: a traced run after an untraced one; the ratios to
# RAW/BENCH.TOOL (the loop) and RAW/BENCH.whole.TOOL (the tracer's run)
one()
{
	local b=$1 tool=$2 n=$3 u t w
	runstat_to "$RAW/$b.untraced.$tool" 300 "$PROGS/getppid_loop" "$n"
	rm -f "$WORK/inner"
	# shellcheck disable=SC2046
	if ! runstat_to "$RAW/$b.run.$tool" 600 $(cmd "$b" "$tool") "$RUNSTAT" -o "$WORK/inner" -t 600 \
		"$PROGS/getppid_loop" "$n" || [ ! -s "$WORK/inner" ]; then
		FAILED[$b.$tool]=$(fail_reason "$RAW/$b.run.$tool.err")
		log "$b $tool failed: ${FAILED[$b.$tool]}"
		return 1
	fi
	u=$(tail -n1 "$RAW/$b.untraced.$tool" | cut -d' ' -f1)
	w=$(tail -n1 "$RAW/$b.run.$tool" | cut -d' ' -f1)
	t=$(sed -n 's/.*wall_ns=\([0-9]*\).*/\1/p' "$WORK/inner")
	calc "$t / $u" >>"$RAW/$b.$tool"
	calc "$w / $u" >>"$RAW/$b.whole.$tool"
	if [ "$b" = b3 ]; then
		# calls that reached the file; lantern says "... N events lost ..." where it lost some
		got=$(grep -c 'getppid()' "$out")
		lost=$(awk '/events lost/ { n += $2 } END { print n + 0 }' "$out" "$RAW/$b.run.$tool.err")
		echo "$(calc "100 * $got / $n") $lost" >>"$RAW/b3.delivered.$tool"
	fi
}

for b in b3 b4 b4floor b4clock b5; do
	for rep in $(seq "$REPS"); do
		log "$b rep $rep/$REPS"
		[ -n "${FAILED[$b.lantern]:-}" ] || one "$b" lantern "$N"
		[ "$rep" -le "$PREPS" ] && [ "$b" != b4floor ] && [ "$b" != b4clock ] || continue
		for tool in strace perf; do
			command -v "$tool" >/dev/null || continue
			[ -n "${FAILED[$b.$tool]:-}" ] || one "$b" "$tool" "$PN"
		done
	done
done

note "B3-B5 workload: getppid_loop, $N calls under lantern, $PN under strace and perf trace (both are far slower); untraced $(calc "int($(median "$RAW/b3.untraced.lantern") / 1e6)") ms for $N"
for b in b3 b4 b5; do
	case $b in
	b3) label='B3 lantern trace, every call to a file' target='<= 4' ;;
	b4) label='B4 lantern trace -c (summary)' target='<= 1.6' ;;
	b5) label='B5 lantern trace -e trace=openat' target='<= 1.2' ;;
	esac
	l=$(median "$RAW/$b.lantern")
	row "${b^^}" "$label" x "$l" strace "$(median "$RAW/$b.strace")" "$target"
	row "${b^^}" "$label" x "$l" "perf trace" "$(median "$RAW/$b.perf")" "$target"
	row "${b^^}" "${label%%,*} (whole run)" x "$(median "$RAW/$b.whole.lantern")" strace \
		"$(median "$RAW/$b.whole.strace")" '-'
	for tool in lantern strace perf; do
		[ -z "${FAILED[$b.$tool]:-}" ] || note "$b: $tool failed: ${FAILED[$b.$tool]}"
	done
done
row B4 'B4 floor: empty raw_syscalls enter + exit' x "$(median "$RAW/b4floor.lantern")" - - '-'
row B4 'B4 clock floor: raw_syscalls enter + exit reading the clock' x "$(median "$RAW/b4clock.lantern")" - - '-'
note "B4 over its floor (two empty programs on raw_syscalls): $(calc "$(median "$RAW/b4.lantern") / $(median "$RAW/b4floor.lantern")")x (target <= 1.25)"
note "B4 over its clock floor (the same two programs, each reading the clock): $(calc "$(median "$RAW/b4.lantern") / $(median "$RAW/b4clock.lantern")")x; the clock floor over the floor: $(calc "$(median "$RAW/b4clock.lantern") / $(median "$RAW/b4floor.lantern")")x"
note "B3-B5: the rows give the loop's slowdown inside the traced run; (whole run): the tracer's start-up to its end over the untraced loop"
for tool in lantern strace perf; do
	[ -s "$RAW/b3.delivered.$tool" ] || continue
	note "B3 $tool: $(median "$RAW/b3.delivered.$tool")% of the calls in the file, $(median "$RAW/b3.delivered.$tool" 2) reported lost"
done
