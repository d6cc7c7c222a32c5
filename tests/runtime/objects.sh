#!/usr/bin/env bash
# objects.sh PID: the BPF programs, maps and links process PID holds
# ("prog 12", "map 7", "link 3"), from its fdinfo.
cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^\(prog\|map\|link\)_id:[[:space:]]*\([0-9]*\)$/\1 \2/p' | sort -u
