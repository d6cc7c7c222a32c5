#!/bin/bash
# SPDX-License-Identifier: MIT
# B10 cost per uprobe hit: uprobe_target calls lantern_add() and
# lantern_nop5() N times each; the figure is (traced - untraced wall time)
# / hits, in ns, the median over REPS pairs of runs, for `@ = count()` on
#   nop5   lantern_nop5's entry: a 5-byte nop, which kernels since 6.x
#          uprobe with a call instead of a breakpoint trap
#   trap   lantern_add's entry: an ordinary instruction, a trap per hit
#   ret    lantern_nop5's return (uretprobe)
# Each tracer's count is checked: a lost hit is flagged.
. "$(dirname "$0")/lib.sh"

T=$PROGS/uprobe_target
declare -A SCRIPT=(
	[nop5]="uprobe:$T:lantern_nop5 { @ = count(); }"
	[trap]="uprobe:$T:lantern_add { @ = count(); }"
	[ret]="uretprobe:$T:lantern_nop5 { @ = count(); }"
)
# traps cost microseconds in a virtual machine: fewer of them
declare -A HITS=([nop5]=${B10_N:-2000000} [trap]=$((${B10_N:-2000000} / 10)) [ret]=${B10_N:-2000000})
rm -f "$RAW"/b10.*

for rep in $(seq "$REPS"); do
	log "B10 rep $rep/$REPS"
	for tool in lantern bpftrace; do
		for s in nop5 trap ret; do
			key=$tool.$s n=${HITS[$s]}
			[ -z "${FAILED[$key]:-}" ] || continue
			runstat_to "$RAW/b10.untraced.$key" 300 "$T" "$n"
			if ! tracer_start "$tool" "${SCRIPT[$s]}" "b10.$key"; then
				FAILED[$key]=$(fail_reason "$WORK/b10.$key.err")
				log "B10 $key failed: ${FAILED[$key]}"
				continue
			fi
			runstat_to "$RAW/b10.$key" 300 "$T" "$n"
			tracer_stop "$TRACER_PID"
			u=$(tail -n1 "$RAW/b10.untraced.$key" | cut -d' ' -f1)
			t=$(tail -n1 "$RAW/b10.$key" | cut -d' ' -f1)
			calc "($t - $u) / $n" >>"$RAW/b10.cost.$key"
			c=$(grep -E '^@: ' "$WORK/b10.$key.out" | awk '{ print $2 }')
			[ "${c:-0}" -ge "$n" ] ||
				note "B10 ${SCRIPT[$s]}: $tool counted ${c:-nothing} of $n calls (rep $rep)"
		done
	done
done

note "B10 workload: uprobe_target N; ${HITS[nop5]} hits on nop5 sites, ${HITS[trap]} on trap sites"
for s in nop5 trap ret; do
	declare -A cost=()
	for tool in lantern bpftrace; do
		cost[$tool]=$(median "$RAW/b10.cost.$tool.$s")
		[ -z "${FAILED[$tool.$s]:-}" ] || note "B10 ${SCRIPT[$s]}: $tool failed: ${FAILED[$tool.$s]}"
	done
	case $s in
	nop5) label='B10 ns per uprobe hit, nop5 site' ;;
	trap) label='B10 ns per uprobe hit, trap site' ;;
	ret) label='B10 ns per uretprobe hit' ;;
	esac
	row B10 "$label" ns "${cost[lantern]}" bpftrace "${cost[bpftrace]}" '-'
done
