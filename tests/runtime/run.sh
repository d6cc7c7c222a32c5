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
#   STATUS: 0              (expected exit status, default 0)
#   EXPECT:                (exact stdout+stderr follows, to the end of the file)
#   EXPECT-RE:             (or: every following line is an extended regex that
#                           some output line must match, in order)
#
# RUN is a shell command; `lantern` is the binary under test, $PROGS the
# directory of the workload programs (tests/progs) and $FIXTURES that of the
# scripts tests run (tests/runtime/fixtures). The last line printed
# is "N passed, N failed".
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
export PATH="$here/bin:$PATH"
mkdir -p "$here/bin"
cat > "$here/bin/lantern" <<WRAP
#!/bin/sh
exec "$bin/lantern" "\$@"
WRAP
chmod +x "$here/bin/lantern"

if [ "$(id -u)" != 0 ]; then
	echo "runtime tests: all $(ls "$here"/cases/*.test | wc -l) skipped (they attach real probes: root)" |
		tee -a "$root/$build/skipped"
	exit 0
fi

pass=0
fail=0
failed=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in "$here"/cases/*.test; do
	name=$(basename "$t" .test)
	if [ -n "$pattern" ] && [[ "$name" != *$pattern* ]]; then
		continue
	fi
	run=$(sed -n 's/^RUN: //p' "$t")
	to=$(sed -n 's/^TIMEOUT: //p' "$t")
	want_status=$(sed -n 's/^STATUS: //p' "$t")
	mode=exact
	grep -q '^EXPECT-RE:$' "$t" && mode=re
	sed -n '/^EXPECT\(-RE\)\?:$/,$p' "$t" | tail -n +2 > "$tmp/want"
	(cd "$tmp" && timeout -k 5 "${to:-20}" bash -c "$run") > "$tmp/got" 2>&1
	status=$?
	ok=1
	if [ "$status" != "${want_status:-0}" ]; then
		ok=0
		why="exit status $status, expected ${want_status:-0}"$'\n'"--- output:"$'\n'"$(head -20 "$tmp/got")"
	elif [ $mode = exact ]; then
		if ! cmp -s "$tmp/want" "$tmp/got"; then
			ok=0
			why=$(diff -u "$tmp/want" "$tmp/got" | head -40)
		fi
	else
		line=0
		while IFS= read -r re; do
			[ -z "$re" ] && continue
			found=$(tail -n +$((line + 1)) "$tmp/got" | grep -n -E -m1 -- "$re" | cut -d: -f1)
			if [ -z "$found" ]; then
				ok=0
				why="no line matches: $re"$'\n'"--- output:"$'\n'"$(head -40 "$tmp/got")"
				break
			fi
			line=$((line + found))
		done < "$tmp/want"
	fi
	if [ $ok = 1 ]; then
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
