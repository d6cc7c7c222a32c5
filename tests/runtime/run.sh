#!/usr/bin/env bash
# Runtime tests: real probes on the running kernel (needs root).
#
#   tests/runtime/run.sh BUILD_DIR [NAME_PATTERN]
#
# Each tests/runtime/cases/*.test is a small file:
#
#   # what it checks
#   RUN: lantern -e 'BEGIN { printf("hi\n"); exit(); }'
#   TIMEOUT: 10            (seconds, default 20)
#   STATUS: 0              (the exit status of each lantern run, default 0)
#   EXPECT:                (exact stdout+stderr follows, to the end of the file)
#   EXPECT-RE:             (or: every following line is an extended regex that
#                           some output line must match, in order)
#
# RUN is a bash command; `lantern` is the binary under test, $PROGS the
# directory of the workload programs (tests/progs), $FIXTURES that of the
# scripts tests run (tests/runtime/fixtures), $RUNTIME this directory (the
# helper scripts) and $LANTERN_BIN the binary itself, not wrapped. The
# functions of sync.sh are defined: `attached lantern ...` starts lantern in
# the background and returns once its probes are attached, `asleep PID`
# waits for a workload to be ready, `waitfor FILE REGEX` for output. A
# test waits for events, not for time: a `sleep` in a test is part of its
# workload, and says so. ($! of `lantern ... &` is the wrapper below, not
# lantern: it passes signals on, but SIGSTOP, which only $LANTERN_PID of
# `attached` stops; objects.sh PID looks at PID's children too.)
#
# Beyond its output, every test checks that:
#
# - Each lantern run ends with the status the test expects, whatever the
#   commands around it do. `lantern` runs through BUILD_DIR/tests/record
#   (tests/record.c), which writes each run's status (128+N when signal N
#   killed it) in a directory of the test; runs count in the order they
#   start. STATUS lists the statuses of the runs in that order, its last
#   value going for the rest: `STATUS: 1` says that every run exits with 1,
#   `STATUS: 0 1` that the first succeeds and the others exit with 1; `0|1`
#   accepts either (a run whose outcome depends on the machine). A run
#   that never ended (its wrapper killed) fails the test. RUN's own status
#   must be 0, or STATUS's last value (a RUN that is just `lantern ...`).
# - No diagnostic comes unexpected. An output line that is one of lantern's
#   (ERROR: or WARNING:, after an optional "file:line:col: ") or a
#   sanitizer's (AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer,
#   "runtime error:") fails the test unless an EXPECT-RE line matches it (an
#   EXPECT test lists it in its output). Sanitizer reports are also written
#   to files of the test (log_path), wherever lantern's stderr goes: one
#   there fails the test.
# - Nothing is left behind: the BPF programs, maps and links a run still
#   held when it exited (record reads them at lantern's ptrace exit stop;
#   in LeakSanitizer builds, which cannot be ptraced, it samples them while
#   lantern runs) must be gone within 5 s after the test (gone.sh). Only the
#   test's own lantern runs are looked at, so a tracer running elsewhere on
#   the machine never fails a test. (held.sh checks that a run held nothing
#   at all at exit; the teardown tests use it.)
#
# The last line printed is "N passed, N failed".
set -u
# one suite of real probes at a time on this kernel (other checkouts, helpers);
# the workloads do not inherit the lock
if [ -z "${LANTERN_PROBES_LOCKED:-}" ]; then
	LANTERN_PROBES_LOCKED=1 exec flock -o /tmp/lantern-probes.lock "$0" "$@"
fi
build=${1:-build}
pattern=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(cd "$root/$build" && pwd)
export PROGS="$bin/progs"
export FIXTURES="$here/fixtures"
export RUNTIME="$here"
export LANTERN_BIN="$bin/lantern"
export PATH="$here/bin:$PATH"
if [ ! -x "$bin/tests/record" ]; then
	echo "runtime tests: $bin/tests/record is missing (make $build/tests/record)" >&2
	exit 1
fi
mkdir -p "$here/bin"
cat > "$here/bin/lantern" <<WRAP
#!/bin/sh
exec "$bin/tests/record" "$bin/lantern" "\$@"
WRAP
chmod +x "$here/bin/lantern"
# LeakSanitizer ptraces the process at its exit, which a ptraced lantern
# forbids: record samples lantern's objects instead
if grep -q -e __asan_init -e __lsan_ "$bin/lantern"; then
	export LANTERN_TEST_SAMPLE=1
fi

if [ "$(id -u)" != 0 ]; then
	echo "runtime tests: all $(ls "$here"/cases/*.test | wc -l) skipped (they attach real probes: root)" |
		tee -a "$root/$build/skipped"
	exit 0
fi

diagnostic='^([^ ]*: )?(ERROR|WARNING):|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:'

pass=0
fail=0
failed=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The lantern runs of the test in $tmp/runs: their statuses against STATUS
# ($1), sanitizer reports and unfinished runs. Prints what is wrong.
check_runs() {
	local want=($1) n dir got expect
	for n in $(ls "$tmp/runs" | grep -E '^[0-9]+$' | sort -n); do
		dir=$tmp/runs/$n
		expect=${want[$((n - 1))]:-${want[-1]}}
		if [ ! -e "$dir/status" ]; then
			echo "lantern run $n did not end: lantern $(head -c 300 "$dir/cmd")"
			continue
		fi
		got=$(cat "$dir/status")
		if [[ "|$expect|" != *"|$got|"* ]]; then
			echo "lantern run $n exited with $got$([ "$got" -gt 128 ] && echo " (killed by signal $((got - 128))?)"), expected $expect: lantern $(head -c 300 "$dir/cmd")"
		fi
	done
	for f in "$tmp"/runs/sanitizer*; do
		[ -e "$f" ] || continue
		echo "sanitizer report ($(basename "$f")):"
		head -30 "$f"
	done
}

# The output's diagnostics that no EXPECT-RE line matches.
unexpected_diagnostics() {
	local line re ok
	grep -E -- "$diagnostic" "$tmp/got" | while IFS= read -r line; do
		ok=
		while IFS= read -r re; do
			[ -n "$re" ] && printf '%s\n' "$line" | grep -q -E -- "$re" && ok=1 && break
		done < "$tmp/want"
		[ -z "$ok" ] && printf 'unexpected: %s\n' "$line"
	done
}

for t in "$here"/cases/*.test; do
	name=$(basename "$t" .test)
	if [ -n "$pattern" ] && [[ "$name" != *$pattern* ]]; then
		continue
	fi
	run=$(sed -n 's/^RUN: //p' "$t")
	to=$(sed -n 's/^TIMEOUT: //p' "$t")
	want_status=$(sed -n 's/^STATUS: //p' "$t")
	want_status=${want_status:-0}
	mode=exact
	grep -q '^EXPECT-RE:$' "$t" && mode=re
	sed -n '/^EXPECT\(-RE\)\?:$/,$p' "$t" | tail -n +2 > "$tmp/want"
	rm -rf "$tmp/runs" "$tmp/work"
	mkdir "$tmp/runs" "$tmp/work"
	san="log_path=$tmp/runs/sanitizer"
	(cd "$tmp/work" && LANTERN_TEST_RUNS="$tmp/runs" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$san" \
		UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}$san" \
		timeout -k 5 "${to:-20}" bash -c ". '$here/sync.sh'; $run") > "$tmp/got" 2>&1
	status=$?
	why=""
	runs=$(check_runs "$want_status")
	last=${want_status##* }
	if [ "$status" != 0 ] && [[ "|$last|" != *"|$status|"* ]]; then
		why="exit status $status (124: timed out), expected 0$([ "$last" != 0 ] && echo " or $last")"$'\n'"--- output:"$'\n'"$(head -20 "$tmp/got")"
	elif [ -n "$runs" ]; then
		why="$runs"$'\n'"--- output:"$'\n'"$(head -20 "$tmp/got")"
	elif [ $mode = exact ]; then
		if ! cmp -s "$tmp/want" "$tmp/got"; then
			why=$(diff -u "$tmp/want" "$tmp/got" | head -40)
		fi
	else
		line=0
		while IFS= read -r re; do
			[ -z "$re" ] && continue
			found=$(tail -n +$((line + 1)) "$tmp/got" | grep -n -E -m1 -- "$re" | cut -d: -f1)
			if [ -z "$found" ]; then
				why="no line matches: $re"$'\n'"--- output:"$'\n'"$(head -40 "$tmp/got")"
				break
			fi
			line=$((line + found))
		done < "$tmp/want"
		if [ -z "$why" ]; then
			bad=$(unexpected_diagnostics)
			[ -n "$bad" ] && why="$bad"$'\n'"--- output:"$'\n'"$(head -40 "$tmp/got")"
		fi
	fi
	# what the test's runs held when they exited is gone
	if [ -z "$why" ]; then
		cat "$tmp"/runs/*/held "$tmp"/runs/*/seen 2> /dev/null | sort -u > "$tmp/held"
		if [ -s "$tmp/held" ] && ! left=$("$here/gone.sh" "$tmp/held"); then
			why="BPF objects lantern held are still there: $(echo $left)"
		fi
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "PASS $name"
	else
		fail=$((fail + 1))
		failed+=("$name")
		echo "FAIL $name: $why"
	fi
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
