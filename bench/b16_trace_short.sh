#!/bin/bash
# SPDX-License-Identifier: MIT
# B16 short commands under lantern trace, strace and perf trace: the whole
# run's wall time (runstat: fork to reap; the tracer's start-up, the
# command, its end and the tracer's teardown, as the user waits for the
# prompt), output to a file. Commands:
#   true     /bin/true
#   ls       ls /
#   lsl      ls -l /usr/bin (about 4,000 calls)
# each traced whole and with -e trace=openat (perf trace: -e openat), and
# `lantern trace -c /bin/true` (strace -c, perf trace -s). Ratios: lantern
# over strace (< 1: lantern is quicker).
. "$(dirname "$0")/lib.sh"

out=$WORK/b16.trace
rm -f "$RAW"/b16.*

# tracer TOOL VARIANT: the command line before the traced command
tracer()
{
	case $1.$2 in
	lantern.all) echo "$LANTERN trace -o $out" ;;
	lantern.openat) echo "$LANTERN trace -e trace=openat -o $out" ;;
	lantern.summary) echo "$LANTERN trace -c -o $out" ;;
	strace.all) echo "strace -o $out" ;;
	strace.openat) echo "strace -e trace=openat -o $out" ;;
	strace.summary) echo "strace -c -o $out" ;;
	perf.all) echo "perf trace -o $out --" ;;
	perf.openat) echo "perf trace -e openat -o $out --" ;;
	perf.summary) echo "perf trace -s -o $out --" ;;
	esac
}

# command NAME: the traced command
command_of()
{
	case $1 in
	true) echo /bin/true ;;
	ls) echo "ls /" ;;
	lsl) echo "ls -l /usr/bin" ;;
	esac
}

cases="true.all true.openat ls.all ls.openat lsl.all lsl.openat true.summary"
tools="lantern strace"
command -v perf >/dev/null && tools="$tools perf"

for rep in $(seq "$REPS"); do
	log "B16 rep $rep/$REPS"
	for c in $cases; do
		for tool in $tools; do
			[ -z "${FAILED[b16.$c.$tool]:-}" ] || continue
			# shellcheck disable=SC2046
			if ! runstat_to "$RAW/b16.$c.$tool" 60 $(tracer "$tool" "${c#*.}") $(command_of "${c%%.*}"); then
				FAILED[b16.$c.$tool]=$(fail_reason "$RAW/b16.$c.$tool.err")
				log "b16 $c $tool failed: ${FAILED[b16.$c.$tool]}"
			fi
		done
		# the untraced command, for reference
		# shellcheck disable=SC2046
		runstat_to "$RAW/b16.$c.none" 60 $(command_of "${c%%.*}")
	done
done

ms() { calc "$(median "$RAW/$1")" / 1e6; }
label()
{
	local what
	case ${1%%.*} in
	true) what=/bin/true ;;
	ls) what="ls /" ;;
	lsl) what="ls -l /usr/bin" ;;
	esac
	case ${1#*.} in
	all) echo "B16 trace $what" ;;
	openat) echo "B16 trace -e openat $what" ;;
	summary) echo "B16 trace -c $what" ;;
	esac
}
for c in $cases; do
	for tool in $tools; do
		[ -n "${FAILED[b16.$c.$tool]:-}" ] && note "B16 $c: $tool failed: ${FAILED[b16.$c.$tool]}"
	done
	target=-
	case $c in true.all | true.openat) target='<= 20' ;; esac
	note "B16 $(label "$c" | cut -d' ' -f2-): untraced $(ms "b16.$c.none") ms"
	row B16 "$(label "$c")" ms "$(ms "b16.$c.lantern")" strace "$(ms "b16.$c.strace")" "$target"
	case " $tools " in *" perf "*)
		row B16 "$(label "$c") (perf)" ms "$(ms "b16.$c.lantern")" "perf trace" "$(ms "b16.$c.perf")" - ;;
	esac
done
