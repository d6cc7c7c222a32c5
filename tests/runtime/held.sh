#!/usr/bin/env bash
# held.sh: what the test's lantern runs so far held when they exited (the
# wrapper, tests/record.c, reads it at lantern's exit stop). lantern's
# teardown releases every object it made, on every path: prints "nothing
# held at exit", or what was held.
#
# In LeakSanitizer builds (make asan) the wrapper cannot ptrace lantern and
# only samples its objects while it runs: then the check is the weaker one
# that the objects seen are gone (within 5 s, gone.sh).
here=$(cd "$(dirname "$0")" && pwd)
runs=${LANTERN_TEST_RUNS:?held.sh runs in a runtime test}
held=$(cat "$runs"/*/held 2> /dev/null | sort -u)
if [ -n "$held" ]; then
	echo "held at exit:" $held
	exit 1
fi
cat "$runs"/*/seen 2> /dev/null | sort -u > "$runs/seen.all"
if [ -s "$runs/seen.all" ] && ! left=$("$here/gone.sh" "$runs/seen.all"); then
	echo "$left"
	exit 1
fi
echo "nothing held at exit"
