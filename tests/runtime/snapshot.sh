#!/usr/bin/env bash
# The kernel objects a lantern run could leave behind, one per line, sorted:
# BPF programs and maps named lt_*, BPF links and perf events of those
# programs, and the dynamic probes in tracefs (uprobe_events, kprobe_events).
# Two snapshots taken before and after a run must be equal.
progs=$(bpftool prog list 2>/dev/null | sed -n 's/^\([0-9]*\): [a-z_]*  name \(lt_[^ ]*\).*/\1 \2/p')
ids=" $(echo "$progs" | cut -d' ' -f1 | tr '\n' ' ') "
{
	echo "$progs" | sed '/^$/d; s/^/prog /'
	bpftool map list 2>/dev/null | sed -n 's/^\([0-9]*\): [a-z_]*  name \(lt_[^ ]*\).*/map \1 \2/p'
	bpftool link list 2>/dev/null | sed -n 's/^\([0-9]*\): .* prog \([0-9]*\).*/\1 \2/p' |
		while read -r link prog; do [[ "$ids" == *" $prog "* ]] && echo "link $link prog $prog"; done
	bpftool perf list 2>/dev/null | sed -n 's/.*prog_id \([0-9]*\).*/\1/p' |
		while read -r prog; do [[ "$ids" == *" $prog "* ]] && echo "perf prog $prog"; done
	for f in /sys/kernel/tracing/uprobe_events /sys/kernel/tracing/kprobe_events; do
		[ -r "$f" ] && sed "s|^|$(basename "$f") |" "$f"
	done
} | sort
