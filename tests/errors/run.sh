#!/usr/bin/env bash
# The error corpus: every NAME.bt is a bad script; lantern must exit with
# status 1, print nothing on stdout and exactly NAME.err on stderr (code,
# line:col, underline, hint), in bounded time, and leave no BPF program,
# map or link of its own behind: lantern runs through BUILD_DIR/tests/record
# (tests/record.c), which notes the objects it held when it exited, and
# those must be gone within 5 s (tests/runtime/gone.sh). Only these runs'
# objects are looked at: a tracer running elsewhere changes nothing. Run as
# root (tracepoint names are checked against the running kernel).
# Positional parameter $1 is "hello".
#
# Without root, the cases that name a tracepoint are skipped (tracefs needs
# root); every other case compiles without root (compile() makes no kernel
# object) and must give the same diagnostics. BUILD_DIR/skipped says so.
#
#   tests/errors/run.sh BUILD_DIR [NAME_PATTERN]
#   LANTERN_UPDATE_ERRORS=1 tests/errors/run.sh build   rewrites the .err files
set -u
# one suite of real probes at a time on this kernel (other checkouts, helpers);
# the workloads do not inherit the lock
if [ -z "${LANTERN_PROBES_LOCKED:-}" ]; then
	LANTERN_PROBES_LOCKED=1 exec flock -o /tmp/lantern-probes.lock "$0" "$@"
fi
build=${1:-build}
pattern=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(cd "$here/../.." && pwd)
bin="$root_dir/$build/lantern"

root=1
[ "$(id -u)" = 0 ] || root=

record="$root_dir/$build/tests/record"
# LeakSanitizer ptraces the process at its exit, which a ptraced lantern
# forbids: record samples lantern's objects instead
grep -q -e __asan_init -e __lsan_ "$bin" && export LANTERN_TEST_SAMPLE=1

pass=0
fail=0
skip=0
failed=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/runs"
cd "$here"
for t in *.bt; do
	name=${t%.bt}
	if [ -n "$pattern" ] && [[ "$name" != *$pattern* ]]; then
		continue
	fi
	if [ -z "$root" ] && grep -q 'tracepoint:' "$t"; then
		skip=$((skip + 1))
		continue
	fi
	args=$(sed -n '1s|^// ARGS: ||p' "$t")
	# shellcheck disable=SC2086 # the options are words
	LANTERN_TEST_RUNS="$tmp/runs" timeout -k 2 10 "$record" "$bin" $args "$t" hello > "$tmp/out" 2> "$tmp/err"
	status=$?
	if [ -n "${LANTERN_UPDATE_ERRORS:-}" ]; then
		cp "$tmp/err" "$name.err"
	fi
	why=""
	if [ "$status" != 1 ]; then
		why="exit status $status (124: hang, >128: crash), expected 1"
	elif [ -s "$tmp/out" ]; then
		why="printed on stdout: $(head -3 "$tmp/out")"
	elif ! cmp -s "$name.err" "$tmp/err"; then
		why=$(diff -u "$name.err" "$tmp/err" | head -20)
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed+=("$name")
		echo "FAIL $name: $why"
	fi
done
cat "$tmp"/runs/*/held "$tmp"/runs/*/seen 2> /dev/null | sort -u > "$tmp/held"
if [ -n "$root" ] && [ -s "$tmp/held" ] && ! left=$("$here/../runtime/gone.sh" "$tmp/held"); then
	fail=$((fail + 1))
	echo "FAIL leftovers: BPF objects lantern held are still there: $left"
fi
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
if [ $skip -gt 0 ]; then
	echo "error corpus: $skip cases that name tracepoints skipped (tracefs needs root)" |
		tee -a "$root_dir/$build/skipped"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
