#!/usr/bin/env bash
# The dynamic probes in tracefs (uprobe_events, kprobe_events) that could be
# the test's lantern runs': named lantern or lt_, or with the pid of one of
# its runs in their name (as libbpf and bcc name the probes they make
# there). lantern makes none (it uses the perf probe PMUs): a run must leave
# none. Another tracer's probes are not looked at.
runs=${LANTERN_TEST_RUNS:?tracefs_probes.sh runs in a runtime test}
pids=$(cat "$runs"/*/pid 2> /dev/null | tr '\n' '|')
re="lantern|lt_${pids:+|_(${pids%|})(_|\$| )}"
for f in /sys/kernel/tracing/uprobe_events /sys/kernel/tracing/kprobe_events \
	/sys/kernel/debug/tracing/uprobe_events /sys/kernel/debug/tracing/kprobe_events; do
	[ -r "$f" ] && grep -E -- "$re" "$f" | sed "s|^|$f |"
done | sort -u
exit 0
