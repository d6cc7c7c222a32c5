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
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

for f in $(find src -name '*.c' | sort); do
	if grep -nE '^[[:space:]]*extern[[:space:]]' "$f"; then
		echo "FAIL layers: $f declares an extern: declare it in its owner's header"
		fail=1
	fi
done

for f in $(find src -name '*.[ch]' | sort); do
	n=$(wc -l < "$f")
	if [ "$n" -gt 800 ]; then
		echo "FAIL layers: $f has $n lines (at most 800: split it by topic)"
		fail=1
	fi
	awk -v f="$f" '/^\{/ { start = NR } /^\}/ { if (start && NR - start > 150) { print "FAIL layers: " f ":" start ": a function of " NR - start " lines (at most 150)"; bad = 1 } start = 0 } END { exit bad }' "$f" || fail=1
done

if [ $fail = 0 ]; then
	echo "layers: every include follows $doc"
fi
exit $fail
