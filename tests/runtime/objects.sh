#!/usr/bin/env bash
# objects.sh PID: the BPF programs, maps and links process PID and its
# descendants hold ("prog 12", "map 7", "link 3"), from their fdinfo. The
# descendants: $! of `lantern ... &` is lantern's wrapper (tests/record.c),
# lantern its child.
tree() {
	local c
	echo "$1"
	for c in $(cat /proc/"$1"/task/*/children 2> /dev/null); do
		tree "$c"
	done
}
for p in $(tree "$1"); do
	cat /proc/"$p"/fdinfo/* 2> /dev/null
done | sed -n 's/^\(prog\|map\|link\)_id:[[:space:]]*\([0-9]*\)$/\1 \2/p' | sort -u
