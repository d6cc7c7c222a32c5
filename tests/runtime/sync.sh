# Synchronisation for the runtime tests, sourced in every RUN (run.sh):
# a test waits for an event, never for a guessed time.
#
#   attached CMD [ARGS...]
#       Starts CMD (a lantern command: `lantern ...` or `lantern trace ...`)
#       in the background with __BPFTRACE_NOTIFY_PROBES_ATTACHED set, and
#       returns once lantern has printed that line (every probe is
#       attached: on stderr, or on stdout under today's dialect, as
#       bpftrace 0.26), or has ended, or after $ATTACH_TIMEOUT seconds
#       (10); the last two say so on stderr and return 1. The line itself is
#       taken out of lantern's output; the rest passes through unchanged,
#       stdout in its order with stderr when both go to one place.
#       Redirections of the call are lantern's (`attached lantern ... > out`).
#       After it, $! is the background job: `wait $!` returns lantern's
#       status once lantern and its stderr are done. $LANTERN_PID is
#       lantern's own process: send it the signals (the job's shell ignores
#       SIGINT), stop it, read its fds (objects.sh).
#
#   asleep PID...
#       Waits until each PID sleeps in nanosleep or clock_nanosleep: the
#       workload has started (exec'd, its libraries mapped) and reached its
#       loop. For -p tests: the process lantern is pointed at is ready.
#       At most 10 s; says so on stderr and returns 1 if not.
#
#   waitfor FILE REGEX [N]
#       Waits until N (1) lines of FILE match the extended REGEX: the output
#       the test acts on next has come. At most 10 s, as asleep.

attached() {
	local dir job i
	dir=$(mktemp -d "${TMPDIR:-/tmp}/attached.XXXXXX") || return 1
	(
		# lantern's stderr and stdout through _attached_filter (one, when
		# both go to one place, so that their order stays): the
		# notification is on stderr (bpftrace 0.17) or stdout (today's)
		if [ /dev/stdout -ef /dev/stderr ]; then
			exec > >(_attached_filter "$dir/attached") 2>&1
			filter=$!
		else
			exec > >(_attached_filter "$dir/attached")
			filter=$!
			exec 2> >(_attached_filter "$dir/attached" >&2)
			filter2=$!
		fi
		__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 LANTERN_TEST_PIDFILE="$dir/pid" "$@"
		status=$?
		exec >&- 2>&-
		wait $filter ${filter2:-} # all of lantern's output is out
		exit $status
	) &
	job=$!
	for ((i = 0; i < ${ATTACH_TIMEOUT:-10} * 100; i++)); do
		[ -e "$dir/attached" ] && break
		kill -0 $job 2> /dev/null || break
		sleep 0.01
	done
	LANTERN_PID=$(cat "$dir/pid" 2> /dev/null)
	if [ -e "$dir/attached" ]; then
		rm -rf "$dir"
		return 0
	fi
	rm -rf "$dir"
	if kill -0 $job 2> /dev/null; then
		echo "attached: $1 did not attach within ${ATTACH_TIMEOUT:-10} s" >&2
	else
		echo "attached: $1 ended before it attached" >&2
	fi
	return 1
}

# Copies its input but the notification, which creates the file $1 instead;
# then cat copies the rest. (bash's read takes one byte at a time from a
# pipe: what follows the line is left to cat.)
_attached_filter() {
	local line
	while IFS= read -r line; do
		if [ "$line" = __BPFTRACE_NOTIFY_PROBES_ATTACHED ]; then
			: > "$1"
			exec cat
		fi
		printf '%s\n' "$line"
	done
	printf '%s' "$line"
}

asleep() {
	local pid i nr arch
	arch=$(uname -m)
	for pid in "$@"; do
		for ((i = 0; i < 1000; i++)); do
			read -r nr _ < /proc/"$pid"/syscall 2> /dev/null || break
			case $arch:$nr in
			x86_64:35 | x86_64:230 | aarch64:101 | aarch64:115) continue 2 ;;
			esac
			sleep 0.01
		done
		echo "asleep: process $pid did not reach a sleep within 10 s" >&2
		return 1
	done
}

waitfor() {
	local i n
	for ((i = 0; i < 1000; i++)); do
		n=$(grep -c -E -- "$2" "$1" 2> /dev/null)
		[ "${n:-0}" -ge "${3:-1}" ] && return 0
		sleep 0.01
	done
	echo "waitfor: $1 has not ${3:-1} lines matching $2 after 10 s" >&2
	return 1
}
