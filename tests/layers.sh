#!/usr/bin/env bash
# The layering of src/ stays as src/README.md draws it: every #include "DIR/..."
# of a file in src/FOLDER/ names FOLDER itself or a folder the table under
# "Layers" lets FOLDER include. Also: no local `extern` declarations in .c
# files (declare in the owner's header), no file past 800 lines and no
# function past 150.
#
#   tests/layers.sh
set -u
cd "$(dirname "$0")/.."
doc=src/README.md
fail=0

declare -A allowed
while IFS='|' read -r _ folder deps _; do
	folder=$(echo "$folder" | tr -d ' `')
	[ -n "$folder" ] && allowed[$folder]=" $(echo "$deps" | tr -d '`') "
done < <(sed -n '/<!-- layers -->/,/<!-- \/layers -->/p' "$doc" | grep '^| `')
if [ ${#allowed[@]} -lt 5 ]; then
	echo "FAIL layers: no layer table in $doc"
	exit 1
fi

for f in $(find src -mindepth 2 -name '*.[ch]' | sort); do
	folder=$(echo "$f" | cut -d/ -f2)
	if [ -z "${allowed[$folder]+x}" ]; then
		echo "FAIL layers: src/$folder is not in the table of $doc"
		fail=1
		continue
	fi
	while IFS= read -r inc; do
		dir=${inc%%/*}
		[ "$dir" = "$folder" ] && continue
		case "${allowed[$folder]}" in
		*" $dir "*) ;;
		*)
			echo "FAIL layers: $f includes $inc, but $folder may not include $dir (see $doc)"
			fail=1
			;;
		esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done

# the session's state is runtime/'s: front ends use runtime/session.h's accessors
for f in $(grep -rl 'include[[:space:]]*"runtime/session_impl.h"' src | grep -v '^src/runtime/' | sort); do
	echo "FAIL layers: $f includes runtime/session_impl.h: outside src/runtime, use runtime/session.h"
	fail=1
done

for f in $(find src -name '*.c' | sort); do
	if grep -nE '^[[:space:]]*extern[[:space:]]' "$f"; then
		echo "FAIL layers: $f declares an extern: declare it in its owner's header"
		fail=1
	fi
done

# funcs FILE: every function body past 150 lines, whatever the brace style:
# top-level braces counted outside comments, strings and characters; a
# block whose head has '=' or starts struct/union/enum is data, not code.
funcs()
{
	awk -v f="$1" '
	{
		line = $0; out = ""
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1); two = substr(line, i, 2)
			if (incomment) { if (two == "*/") { incomment = 0; i++ } continue }
			if (two == "/*") { incomment = 1; i++; continue }
			if (two == "//") break
			if (ch == "\"" || ch == "\047") {
				q = ch
				for (i++; i <= length(line) && substr(line, i, 1) != q; i++)
					if (substr(line, i, 1) == "\\") i++
				continue
			}
			out = out ch
		}
		for (i = 1; i <= length(out); i++) {
			ch = substr(out, i, 1)
			if (ch == "{") {
				if (depth == 0) {
					start = NR
					data = (head substr(out, 1, i - 1)) ~ /=[[:space:]]*$|^[[:space:]]*(static[[:space:]]+|const[[:space:]]+|typedef[[:space:]]+)*(struct|union|enum)([[:space:]]|$)/
				}
				depth++
			} else if (ch == "}" && depth > 0) {
				if (--depth == 0 && !data && NR - start > 150) {
					print "FAIL layers: " f ":" start ": a function of " NR - start " lines (at most 150)"
					bad = 1
				}
			}
		}
		if (depth == 0) head = (out ~ /;[[:space:]]*$|^[[:space:]]*#/ || out ~ /^[[:space:]]*$/) ? "" : head out " "
	}
	END { exit bad }' "$1"
}

for f in $(find src -name '*.[ch]' | sort); do
	n=$(wc -l < "$f")
	if [ "$n" -gt 800 ]; then
		echo "FAIL layers: $f has $n lines (at most 800: split it by topic)"
		fail=1
	fi
	funcs "$f" || fail=1
done

if [ $fail = 0 ]; then
	echo "layers: every include follows $doc"
fi
exit $fail
