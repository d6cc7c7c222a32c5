#!/usr/bin/env bash
# leftovers.sh BEFORE: what snapshot.sh shows now that the BEFORE snapshot
# did not. The kernel frees programs and maps a little after their last fd
# closes, so wait up to 5 s for them to go. Prints "clean" or what is left.
# (Objects in BEFORE that are gone now are fine: an earlier run's, freed.)
here=$(cd "$(dirname "$0")" && pwd)
for _ in $(seq 50); do
	"$here/snapshot.sh" > "$1.now"
	if [ -z "$(comm -13 "$1" "$1.now")" ]; then
		echo clean
		exit 0
	fi
	sleep 0.1
done
echo "left behind:"
comm -13 "$1" "$1.now"
exit 1
