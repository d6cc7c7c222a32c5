#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/run.sh [BUILD]: lantern's benchmarks against its peers (bpftrace),
# all in the same run; prints one table and writes it to
# bench/results/latest.txt. See bench/README.md.
#
# Environment:
#   LANTERN=PATH     lantern binary (default BUILD/lantern)
#   BPFTRACE=PATH    bpftrace binary (default: bpftrace from PATH)
#   REPS=N           repetitions per figure, medians reported (default 5)
#   B7_REPS=N        repetitions of B7, slow for every tracer (default 1)
#   BENCHES="b1 b6"  which benchmarks (default: all, in order)
#   LOOP_N=N         getppid_loop iterations (default: calibrated to ~1 s)
#   RESULTS=DIR      where latest.txt and raw/ go (default bench/results)
#   KEEP=1           keep the scratch directory (tracer output)
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac

export LANTERN=${LANTERN:-$BUILD/lantern}
export BPFTRACE=${BPFTRACE:-bpftrace}
export REPS=${REPS:-5}
BENCHES=${BENCHES:-"b1 b2 b3 b6 b7 b8 b9 b10 b11 b13 b14 b15 b16"}
export RESULTS=${RESULTS:-$here/results}

die() { echo "bench: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (BPF programs, tracefs, sysctl)"
[ -x "$LANTERN" ] || die "no lantern binary at $LANTERN (make, or LANTERN=path)"
LANTERN=$(cd "$(dirname "$LANTERN")" && pwd)/$(basename "$LANTERN")

# --- what the peers and helpers need, on a fresh Debian 12 -----------------
need=()
command -v "$BPFTRACE" >/dev/null || need+=(bpftrace)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
command -v strip >/dev/null || need+=(binutils)
command -v strace >/dev/null || need+=(strace)
command -v perf >/dev/null || need+=(linux-perf)
if [ ${#need[@]} -gt 0 ]; then
	echo "bench: installing ${need[*]}" >&2
	apt-get update -qq >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null ||
		die "could not install ${need[*]}"
fi
command -v "$BPFTRACE" >/dev/null || die "no bpftrace"
BPFTRACE=$(command -v "$BPFTRACE")

if [ ! -d /sys/kernel/tracing/events ] && [ ! -d /sys/kernel/debug/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		die "tracefs is not mounted and could not be mounted"
fi

# --- scratch space, helpers, workloads --------------------------------------
export WORK
WORK=$(mktemp -d /tmp/lantern-bench.XXXXXX) || die "mktemp failed"
stats_old=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
finish()
{
	# the benchmark scripts restore it themselves; this covers a kill
	sysctl -qw kernel.bpf_stats_enabled="$stats_old" 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then
		echo "bench: scratch kept in $WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap finish EXIT
trap 'exit 130' INT TERM

export RUNSTAT=$WORK/runstat
gcc -O2 -static -o "$RUNSTAT" "$here/runstat.c" 2>/dev/null ||
	gcc -O2 -o "$RUNSTAT" "$here/runstat.c" || die "cannot build runstat"

export PROGS=$BUILD/progs
if [ ! -x "$PROGS/getppid_loop" ]; then
	PROGS=$WORK/progs
	mkdir -p "$PROGS"
	for c in "$top"/tests/progs/*.c; do
		gcc -O1 -g -o "$PROGS/$(basename "$c" .c)" "$c" || die "cannot build $c"
	done
	gcc -O1 -g -fno-omit-frame-pointer -o "$PROGS/calls_loop_fp" "$top/tests/progs/calls_loop.c" ||
		die "cannot build calls_loop_fp"
fi

# getppid_loop iterations for about 1 s untraced
if [ -z "${LOOP_N:-}" ]; then
	best=
	for _ in 1 2 3; do
		"$RUNSTAT" -o "$WORK/cal" -t 60 "$PROGS/getppid_loop" 2000000
		t=$(sed 's/.*wall_ns=\([0-9]*\).*/\1/' "$WORK/cal")
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
	done
	LOOP_N=$(awk -v t="$best" 'BEGIN { n = int(2e9 / t + 0.5); if (n < 1) n = 1; if (n > 50) n = 50; print n * 1000000 }')
fi
export LOOP_N

export RAW=$RESULTS/raw
mkdir -p "$RAW"
rm -f "$RAW"/*
export ROWS=$WORK/rows
: >"$ROWS"

# --- run ----------------------------------------------------------------------
started=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for b in $BENCHES; do
	script=$(ls "$here/${b}"_*.sh 2>/dev/null | head -n1)
	if [ -z "$script" ]; then
		printf 'note\tno benchmark %s in bench/\n' "$b" >>"$ROWS"
		continue
	fi
	echo "bench: $(basename "$script")" >&2
	bash "$script"
	rc=$?
	[ $rc = 0 ] || printf 'note\t%s ended with status %d\n' "$(basename "$script")" $rc >>"$ROWS"
	[ $rc != 130 ] || exit 130
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the table ----------------------------------------------------------------
table()
{
	echo "lantern benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(($(date +%s) - started)) s"
	echo "  lantern:  $LANTERN ($("$LANTERN" -V 2>/dev/null | head -n1))"
	echo "  bpftrace: $BPFTRACE ($("$BPFTRACE" -V 2>/dev/null | head -n1))"
	echo "  kernel $(uname -r), $(nproc) CPUs, REPS=$REPS, LOOP_N=$LOOP_N," \
		"load average $load0 before, $load1 after"
	echo
	awk -F'\t' '
	function fmt(v, u) {
		if (v == "" || v == "-") return "-"
		if (v !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) return v
		if (u == "x") return sprintf("%.2fx", v)
		if (u == "ns") return sprintf("%.0f ns", v)
		if (u == "ms") return sprintf(v < 10 && v > -10 ? "%.2f ms" : "%.0f ms", v)
		if (u == "MB") return sprintf("%.1f MB", v)
		return v " " u
	}
	function num(v) { return v ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ }
	BEGIN {
		printf "%-48s %10s  %-20s %8s  %-10s %s\n", "benchmark", "lantern", "peer", "L/peer", "target", "met"
		printf "%-48s %10s  %-20s %8s  %-10s %s\n", "---------", "-------", "----", "------", "------", "---"
	}
	$1 == "row" {
		id = $2; label = $3; u = $4; l = $5; peer = $6; p = $7; t = $8
		ratio = (num(l) && num(p) && p != 0) ? sprintf(l / p < 0.1 && l / p > -0.1 ? "%.3f" : "%.2f", l / p) : "-"
		pv = peer == "-" ? "-" : peer " " fmt(p, u)
		tg = "-"; met = ""
		if (t != "-" && t != "") {
			split(t, a, " "); tg = a[1] " " fmt(a[2], u)
			if (num(l)) met = (l <= a[2]) ? "yes" : "no"
		}
		printf "%-48s %10s  %-20s %8s  %-10s %s\n", label, fmt(l, u), pv, ratio, tg, met
	}
	$1 == "note" { notes[++n] = $2 }
	END { if (n) print ""; for (i = 1; i <= n; i++) print "* " notes[i] }
	' "$ROWS"
}
table | tee "$RESULTS/latest.txt"
echo "bench: table in $RESULTS/latest.txt, samples in $RAW" >&2
