# SPDX-License-Identifier: MIT
# Shared helpers of the benchmark scripts; sourced, never run.
#
# run.sh exports:
#   LANTERN    lantern binary            BPFTRACE  bpftrace binary
#   RUNSTAT    bench/runstat.c, built    PROGS     directory of the workloads
#   REPS       repetitions per figure    LOOP_N    getppid_loop iterations (~1 s)
#   ROWS       file the table rows are appended to
#   RAW        directory of raw samples (one file per figure and tool)
#   WORK       scratch directory (tracer output, generated scripts)
#
# A benchmark script measures, then calls `row` once per line of the table.
# Every figure is a median over REPS samples; a tool that fails gets "n/a"
# and a note that says why, and the other figures still run.

set -u

TRACERS_FILE=$WORK/tracers.$$ # pids of tracers this script started

# Kill whatever tracer this script left running (by pid, never by name).
cleanup_tracers()
{
	[ -f "$TRACERS_FILE" ] || return 0
	local pid
	while read -r pid; do
		kill -0 "$pid" 2>/dev/null || continue
		kill -INT "$pid" 2>/dev/null
		sleep 0.5
		kill -KILL "$pid" 2>/dev/null
	done <"$TRACERS_FILE"
	rm -f "$TRACERS_FILE"
}
bench_cleanup() { :; } # a benchmark script may redefine it
trap 'cleanup_tracers; bench_cleanup' EXIT
trap 'exit 130' INT TERM

log() { printf '  %s\n' "$*" >&2; }

# median FILE [COLUMN]: median of a column (default 1) of a samples file,
# over the lines whose third column (the status) is 0 or absent; or n/a.
median()
{
	awk -v c="${2:-1}" '(NF < 3 || $3 == 0) && $c ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ { print $c }' \
		"$1" 2>/dev/null | sort -g | awk '{ v[NR] = $1 } END {
			if (NR == 0) { print "n/a"; exit }
			if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# calc EXPR: floating-point arithmetic; n/a in, n/a out.
calc()
{
	case "$*" in *n/a*) echo n/a; return ;; esac
	awk "BEGIN { printf \"%.6g\n\", $* }"
}

# tool_cmd TOOL: the command line of a tracer (lantern or bpftrace).
tool_cmd()
{
	case "$1" in
	lantern) echo "$LANTERN" ;;
	bpftrace) echo "$BPFTRACE" ;;
	*) echo "unknown tool $1" >&2; return 1 ;;
	esac
}

# note TEXT: a footnote printed under the table.
note() { printf 'note\t%s\n' "$*" >>"$ROWS"; }

# fail_reason FILE: the line of a tracer's stderr that says what went wrong.
fail_reason()
{
	local r
	r=$(grep -v 'RLIMIT_MEMLOCK' "$1" 2>/dev/null | grep -m1 -iE 'error|not supported|cannot|failed' |
		tr -s ' \t' ' ' | cut -c1-160)
	[ -n "$r" ] || r=$(grep -v 'RLIMIT_MEMLOCK' "$1" 2>/dev/null | grep -m1 . | cut -c1-160)
	echo "${r:-no message}"
}

# row ID LABEL UNIT LANTERN PEER PEERVALUE TARGET
#   One line of the table. UNIT: x, ms, ns, MB, KB. PEER: the peer's name
#   or "-" when there is none. TARGET: "<= NUMBER" in UNIT, or "-".
row()
{
	printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$ROWS"
}

# runstat_to FILE TIMEOUT CMD...: run CMD, append "wall_ns maxrss_kb status"
# to FILE; the command's stdout and stderr go to FILE.out and FILE.err.
runstat_to()
{
	local file=$1 timeout=$2
	shift 2
	"$RUNSTAT" -o "$file.last" -t "$timeout" "$@" >"$file.out" 2>"$file.err" </dev/null
	local rc=$?
	sed -e 's/wall_ns=//' -e 's/maxrss_kb=//' -e 's/status=//' "$file.last" >>"$file"
	return $rc
}

# tracer_start TOOL SCRIPT TAG: start a tracer in the background, wait until
# it printed "Attaching" (and a short settle time); its pid is in TRACER_PID.
# Its output goes to $WORK/TAG.out and $WORK/TAG.err. Fails if the tracer
# exits or does not attach within ATTACH_TIMEOUT seconds.
ATTACH_TIMEOUT=${ATTACH_TIMEOUT:-30}
tracer_start()
{
	local tool=$1 script=$2 tag=$3 cmd
	cmd=$(tool_cmd "$tool") || return 1
	"$cmd" -e "$script" >"$WORK/$tag.out" 2>"$WORK/$tag.err" </dev/null &
	local pid=$! i=0
	TRACER_PID=$pid # for the caller
	echo "$pid" >>"$TRACERS_FILE"
	while ! grep -q Attaching "$WORK/$tag.out" 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" 2>/dev/null
			return 1
		fi
		i=$((i + 1))
		if [ $i -gt $((ATTACH_TIMEOUT * 20)) ]; then
			echo "did not attach within ${ATTACH_TIMEOUT}s" >>"$WORK/$tag.err"
			tracer_stop "$pid" 2
			return 1
		fi
		sleep 0.05
	done
	# "Attaching N probes..." is printed before the probes attach.
	sleep 0.3
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		return 1
	fi
}

# tracer_stop PID [SECONDS]: SIGINT, then SIGTERM after SECONDS (default
# STOP_TIMEOUT, 60), SIGKILL 5 s later.
STOP_TIMEOUT=${STOP_TIMEOUT:-60}
tracer_stop()
{
	local pid=$1 limit=${2:-$STOP_TIMEOUT} i=0
	kill -INT "$pid" 2>/dev/null
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -eq $((limit * 20)) ]; then
			kill -TERM "$pid" 2>/dev/null
		elif [ $i -ge $(((limit + 5) * 20)) ]; then
			kill -KILL "$pid" 2>/dev/null
			break
		fi
		sleep 0.05
	done
	wait "$pid" 2>/dev/null
	local rc=$?
	sed -i "/^$pid\$/d" "$TRACERS_FILE" 2>/dev/null
	return $rc
}

# prog_stats PID: "run_time_ns run_cnt" of the tracer's BPF program that
# ran most (read from /proc/PID/fdinfo, the counters `bpftool prog show`
# prints; this way programs of other processes never get mixed in).
prog_stats()
{
	local pid=$1 fd
	for fd in /proc/"$pid"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:bpf-prog" ] || continue
		awk '/^run_time_ns:/ { t = $2 } /^run_cnt:/ { c = $2 } END { print t + 0, c + 0 }' \
			/proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null
	done | sort -k2,2n | tail -n1
}

# Failures, by "NAME.TOOL": the reason, shown as a note; later repetitions
# of a figure that failed are skipped.
declare -A FAILED=()

# sample NAME TOOL TIMEOUT ARGS...: run the tool once with ARGS under
# runstat; the sample goes to $RAW/NAME.TOOL ("wall_ns maxrss_kb status").
sample()
{
	local name=$1 tool=$2 timeout=$3 cmd
	shift 3
	[ -z "${FAILED[$name.$tool]:-}" ] || return 1
	cmd=$(tool_cmd "$tool") || return 1
	if ! runstat_to "$RAW/$name.$tool" "$timeout" "$cmd" "$@"; then
		local st
		st=$(tail -n1 "$RAW/$name.$tool" | awk '{ print $3 }')
		FAILED[$name.$tool]="exit status $st: $(fail_reason "$RAW/$name.$tool.err")"
		[ "$st" != 124 ] || FAILED[$name.$tool]="timed out after ${timeout}s"
		log "$name $tool failed: ${FAILED[$name.$tool]}"
		return 1
	fi
}

# failed_note NAME TOOL WHAT: a note if the figure failed.
failed_note()
{
	[ -z "${FAILED[$1.$2]:-}" ] || note "$3: $2 failed: ${FAILED[$1.$2]}"
}
