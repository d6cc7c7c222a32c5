#!/usr/bin/env bash
# leftovers.sh BEFORE: compare snapshot.sh now with the BEFORE snapshot.
# The kernel frees programs and maps a little after their last fd closes,
# so wait up to 5 s for them to go. Prints "clean" or what is left.
here=$(cd "$(dirname "$0")" && pwd)
for _ in $(seq 50); do
	"$here/snapshot.sh" > "$1.now"
	if cmp -s "$1" "$1.now"; then
		echo clean
		exit 0
	fi
	sleep 0.1
done
echo "left behind:"
comm -13 "$1" "$1.now"
exit 1
