#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/soak.sh MINUTES: lantern under a long, busy run (issue 15). A
# benchmark, not a test: make check never runs it; it prints PASS/FAIL lines
# and a summary for a human, and exits 0 on PASS, 1 on FAIL, 2 if it could
# not run. For MINUTES, all at once:
#
#   script   a map-heavy script (10,000 keys, a hist, kstack/ustack keys,
#            comm and str() keys, a printf per exec) on raw_syscalls,
#            sched_switch, openat, exec, a profile probe and a uprobe, served
#            with --metrics 127.0.0.1:PORT
#   trace    `lantern trace -f -o FILE` of lantern's own build, in a loop
#            (a copy of the tree, BUILD= a scratch dir, make -j2)
#   scraper  curl of /metrics every second
#
# Every 10 s the RSS (VmRSS, and its anonymous and file parts) and the open
# descriptors of both lantern processes go to samples.csv, with the BPF
# objects they hold. Then both get SIGINT, and the run is judged: after the
# first minute RSS grows by no more than 1 MB and descriptors not at all;
# every event lost is reported (the "lost" lines add up to the totals
# lantern counted); no BPF program, map, link or perf event of theirs is
# left, nor a tracefs probe or instance; the scrapes, builds and exit
# statuses. The last lines are the summary.
#
# The RSS judged leaves out the pages of the ELF files lantern maps whole to
# read them (elf_kb: the profiled programs' call frame information, symbols
# and DWARF, mapped by sym_elf_map and uwfile.c's eh_only). They are clean pages of the page cache,
# shared with the programs that run those files, and bounded (sym/uwfile.c's
# FILES_BYTES, symbols.c's caches); a profile of the whole machine maps a
# file when it first samples it, which may be at any time (a linker that
# loads its LLVM plugin, sampled in it once in a while). VmRSS's growth and
# elf_kb's are said beside the verdict.
#
# Environment:
#   LANTERN=PATH   lantern binary (default: BUILD/lantern of this tree)
#   BUILD=DIR      the tree's build directory (default build)
#   SOAK_DIR=DIR   where the scratch files go (default: a new /tmp/lantern-soak.*);
#                  it is kept (outputs, samples.csv, scrape.log, build.log)
#   KEEP=1         keep trace's whole output (else its last 1000 lines and
#                  its lost lines: trace.out.tail, trace.out.lost)
#   RSS_SLACK_KB   allowed RSS growth after the first minute (default 1024)
#   SOAK_RINGBUF_KB  the ring buffer of both (LANTERN_RINGBUF_KB): a small one
#                  (e.g. 4) loses events, to see that every loss is reported
#
# Runs hold /tmp/lantern-probes.lock, as the runtime test suites do, so that
# a soak and a suite never share the kernel.
set -u

die() { echo "soak: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: bench/soak.sh MINUTES"
secs=$(awk -v m="$1" 'BEGIN { if (m !~ /^[0-9]+(\.[0-9]+)?$/ || m <= 0) exit 1; printf "%d\n", m * 60 }') ||
	die "MINUTES must be a positive number, not '$1'"
[ "$(id -u)" = 0 ] || die "needs root (BPF programs, tracefs)"

if [ -z "${LANTERN_PROBES_LOCKED:-}" ]; then
	if ! flock -n /tmp/lantern-probes.lock true 2>/dev/null; then
		echo "soak: waiting for /tmp/lantern-probes.lock (a probe suite is running)" >&2
	fi
	LANTERN_PROBES_LOCKED=1 exec flock -o /tmp/lantern-probes.lock "$0" "$@"
fi
unset LANTERN_PROBES_LOCKED # the workloads are not suites

# The rest is one block: bash reads it whole before it runs, so the file
# may change (a checkout, an edit) while a soak runs.
{

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
LANTERN=${LANTERN:-$BUILD/lantern}
[ -x "$LANTERN" ] || die "no lantern binary at $LANTERN (make, or LANTERN=path)"
LANTERN=$(cd "$(dirname "$LANTERN")" && pwd)/$(basename "$LANTERN")
RSS_SLACK_KB=${RSS_SLACK_KB:-1024}
for t in curl bpftool python3 make gcc; do
	command -v $t >/dev/null || die "needs $t"
done
LIBC=$(ldd /bin/true | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
[ -n "$LIBC" ] && [ -r "$LIBC" ] || die "cannot find libc.so.6"

W=${SOAK_DIR:-$(mktemp -d /tmp/lantern-soak.XXXXXX)} || die "mktemp failed"
mkdir -p "$W" || die "cannot create $W"
W=$(cd "$W" && pwd)
log() { printf 'soak: %s\n' "$*" >&2; }

# --- the three jobs ---------------------------------------------------------
KEYS=10000
cat >"$W/soak.bt" <<EOF
tracepoint:raw_syscalls:sys_enter { @keys[nsecs % $KEYS] = count(); @calls[comm, args->id] = count(); }
tracepoint:raw_syscalls:sys_exit { @ret = hist(args->ret); }
tracepoint:sched:sched_switch { @switches[args->next_comm] = count(); @prev[str(args->prev_comm)] = sum(1); }
tracepoint:syscalls:sys_enter_openat { @files[str(args->filename)] = count(); }
tracepoint:sched:sched_process_exec { printf("soak-exec %s %d\n", comm, pid); @exec_sent = count(); }
profile:hz:499 { @stacks[kstack, ustack, comm] = count(); }
uprobe:$LIBC:execve { @execs[ustack(5), str(arg0)] = count(); }
interval:s:10 { @ticks = count(); }
EOF

# new user stacks, fast: the fill's (tests/progs/stacks_many.c, as the Makefile builds it)
gcc -O1 -o "$W/stacks_many" "$top/tests/progs/stacks_many.c" || die "cannot build tests/progs/stacks_many.c"
FILL_WALKS=12500 # of 2 ms each: 25 s

# the build loop: a copy of the tree, its own build directory; its pid is
# its process group's (setsid), which the end kills whatever is left of
mkdir -p "$W/tree"
cp -a "$top/Makefile" "$top/src" "$top/tests" "$top/doc" "$W/tree/" || die "cannot copy the tree"
rm -rf "$W/tree/tests/runtime/bin"
cat >"$W/build-loop.sh" <<EOF
#!/bin/bash
echo \$\$ >"$W/loop.pid"
# First fill the script's maps up to their $KEYS keys, so that what grows
# after the first minute is not a map filling up: a new user stack every
# 2 ms on each CPU for 25 s (@stacks, and the table of unwound stacks: the
# keys of @stacks and @execs, and 1,024), then an open of a new file name
# each (@files), an exec of one by a new process each (@execs). The builds
# follow (at about 36 s), so that the first one (the programs the unwinder
# meets) is about done by the end of the first minute.
"$W/stacks_many" $FILL_WALKS 2000 0 &
"$W/stacks_many" $FILL_WALKS 2000 $FILL_WALKS &
wait
for i in \$(seq $((KEYS + 500))); do
	: <"$W/fill.\$i"
	"$W/fill.\$i"
done 2>/dev/null
echo \$SECONDS >"$W/filled"
n=0
while [ ! -e "$W/stop" ]; do
	rm -rf "$W/build"
	start=\$(date +%s.%N)
	make -C "$W/tree" BUILD="$W/build" -j2 all >>"$W/build.log" 2>&1
	rc=\$?
	n=\$((n + 1))
	echo "\$n \$rc \$(awk -v s=\$start -v e=\$(date +%s.%N) 'BEGIN { printf "%.1f", e - s }')" >>"$W/builds"
done
EOF
: >"$W/builds"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$port/metrics
cat >"$W/scrape.sh" <<EOF
#!/bin/bash
# one line per scrape: unix time, ok|fail, curl's status, HTTP code, seconds;
# none while the file pause exists (a sample is taken: no scrape in flight)
while :; do
	if [ -e "$W/pause" ]; then
		touch "$W/paused"
		sleep 0.05
		continue
	fi
	rm -f "$W/paused"
	w=\$(curl -s -o "$W/page.tmp" --max-time 20 -w '%{http_code} %{time_total}' "$URL")
	rc=\$?
	if [ \$rc = 0 ] && [ "\${w%% *}" = 200 ]; then
		mv "$W/page.tmp" "$W/last.page"
		echo "\$(date +%s) ok \$rc \$w"
	else
		echo "\$(date +%s) fail \$rc \$w"
	fi
	sleep 1
done
EOF

# --- before ---------------------------------------------------------------
# tracefs_probes.sh looks for the probes of the runs under LANTERN_TEST_RUNS
# (RUN/pid files, as tests/record.c leaves them): the two lantern processes
mkdir -p "$W/runs"
tracefs_now()
{
	LANTERN_TEST_RUNS="$W/runs" "$top/tests/runtime/tracefs_probes.sh"
	local d
	for d in /sys/kernel/tracing/instances /sys/kernel/debug/tracing/instances; do
		[ -d "$d" ] && ls "$d" | sed "s|^|$d/|"
	done
	return 0
}
tracefs_now | sort -u >"$W/tracefs.before"

SCRIPT_PID= TRACE_PID= SCRAPER_PID=
cleanup()
{
	local p
	[ -z "$SCRAPER_PID" ] || kill "$SCRAPER_PID" 2>/dev/null
	for p in $SCRIPT_PID $TRACE_PID; do
		kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
	done
	touch "$W/stop"
	if [ -s "$W/loop.pid" ]; then
		kill -TERM -- -"$(cat "$W/loop.pid")" 2>/dev/null
	fi
	rm -rf "$W/tree" "$W/build" "$W/page.tmp" "$W/pause" "$W/paused"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "$1 minute(s); lantern $LANTERN; files in $W"
[ -z "${SOAK_RINGBUF_KB:-}" ] || export LANTERN_RINGBUF_KB=$SOAK_RINGBUF_KB
LANTERN_MAP_KEYS_MAX=$KEYS "$LANTERN" --metrics "127.0.0.1:$port" "$W/soak.bt" \
	>"$W/script.out" 2>"$W/script.err" </dev/null &
SCRIPT_PID=$!
mkdir -p "$W/runs/script" && echo "$SCRIPT_PID" >"$W/runs/script/pid"
for _ in $(seq 600); do
	grep -q Attaching "$W/script.out" 2>/dev/null && break
	kill -0 $SCRIPT_PID 2>/dev/null || break
	sleep 0.05
done
grep -q Attaching "$W/script.out" 2>/dev/null || die "the script did not start: $(head -3 "$W/script.err")"
"$LANTERN" trace -f -o "$W/trace.out" -- setsid bash "$W/build-loop.sh" \
	>"$W/trace.stdout" 2>"$W/trace.err" </dev/null &
TRACE_PID=$!
mkdir -p "$W/runs/trace" && echo "$TRACE_PID" >"$W/runs/trace/pid"
bash "$W/scrape.sh" >"$W/scrape.log" 2>/dev/null </dev/null &
SCRAPER_PID=$!
log "script pid $SCRIPT_PID (metrics on port $port), trace pid $TRACE_PID, scraper pid $SCRAPER_PID"

# --- the run: a sample every 10 s ----------------------------------------
echo "t_s,proc,pid,rss_kb,fds,anon_kb,file_kb,elf_kb" >"$W/samples.csv"
mkdir -p "$W/fds" # each sample's descriptors: fds/PROC.T
: >"$W/objects"
declare -A DIED=()
# PID's VmRSS, RssAnon and RssFile, and elf_kb: the RSS of its mappings
# that are a whole ELF file, read-only, the files lantern reads (libelf's
# ELF_C_READ_MMAP, uwfile.c's eh_only), in kB, read together (a file the
# unwinder opens or closes between two reads would count in one only). A
# library the loader maps is several mappings, none of them the whole file.
mem_kb()
{
	python3 - "$1" <<'PY' 2>/dev/null
import os, sys
pid = sys.argv[1]
st = dict(l.split(":", 1) for l in open("/proc/%s/status" % pid) if ":" in l)
kb, whole = 0, False
for line in open("/proc/%s/smaps" % pid):
    f = line.split()
    if len(f) >= 5 and not f[0].endswith(":"):
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        path = " ".join(f[5:])
        whole = False
        if f[1] == "r--p" and int(f[2], 16) == 0 and path.startswith("/"):
            try:
                with open(path, "rb") as e:
                    whole = hi - lo >= os.fstat(e.fileno()).st_size and e.read(4) == b"\x7fELF"
            except OSError:
                whole = path.endswith(" (deleted)")
    elif f and f[0] == "Rss:" and whole:
        kb += int(f[1])
print(*(st[k].split()[0] for k in ("VmRSS", "RssAnon", "RssFile")), kb)
PY
}
sample()
{
	local t=$1 name pid rss fds i
	# between two scrapes: a scrape's buffers and socket are not a leak
	touch "$W/pause"
	for i in $(seq 600); do
		[ -e "$W/paused" ] && break
		sleep 0.05
	done
	for name in script trace; do
		[ $name = script ] && pid=$SCRIPT_PID || pid=$TRACE_PID
		[ -z "${DIED[$name]:-}" ] || continue
		# VmRSS less elf_kb is judged; its anonymous and file parts tell a heap from mapped files
		read -r rss anon file elf < <(mem_kb $pid)
		[ -n "$elf" ] || continue
		# the fewest of 5 looks, 0.1 s apart: a descriptor open for a
		# moment (a /proc/PID/maps being read) is not a leak
		fds=$(for _ in 1 2 3 4 5; do
			ls /proc/$pid/fd 2>/dev/null | wc -l
			sleep 0.1
		done | sort -n | head -n1)
		ls -l /proc/$pid/fd 2>/dev/null | awk 'NR > 1 { print $9, $10, $11 }' >"$W/fds/$name.$t"
		echo "$t,$name,$pid,$rss,$fds,$anon,$file,$elf" >>"$W/samples.csv"
		"$top/tests/runtime/objects.sh" $pid >>"$W/objects"
	done
	sort -u -o "$W/objects" "$W/objects"
	rm -f "$W/pause" "$W/paused"
}
start=$(date +%s)
next=0
last=-1
while :; do
	now=$(($(date +%s) - start))
	for name in script trace; do
		[ $name = script ] && pid=$SCRIPT_PID || pid=$TRACE_PID
		if [ -z "${DIED[$name]:-}" ] && ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			DIED[$name]="exited by itself after ${now}s, status $?"
			log "the $name's lantern ${DIED[$name]}"
		fi
	done
	if [ "$now" -ge "$next" ]; then
		sample "$now"
		last=$now
		next=$((next + 10))
		[ $((now % 60)) -ge 10 ] || log "${now}s: $(tail -n +2 "$W/samples.csv" | tail -n2 | tr '\n' ' ')"
	fi
	[ "$now" -lt "$secs" ] || break
	[ -z "${DIED[script]:-}${DIED[trace]:-}" ] || break
	sleep 1
done
[ "$now" = "$last" ] || sample "$now" # the last one, right before the end

# --- the end: SIGINT, as Ctrl-C -------------------------------------------
kill "$SCRAPER_PID" 2>/dev/null
wait "$SCRAPER_PID" 2>/dev/null
SCRAPER_PID=
# both get SIGINT; SIGTERM after 60 s, SIGKILL 5 s later
declare -A STATUS=() STOP_S=() LIVE=()
t0=$(date +%s.%N)
for name in script trace; do
	[ $name = script ] && pid=$SCRIPT_PID || pid=$TRACE_PID
	[ -n "${DIED[$name]:-}" ] && continue
	LIVE[$name]=$pid
	kill -INT "$pid" 2>/dev/null
done
i=0
while [ ${#LIVE[@]} -gt 0 ]; do
	for name in "${!LIVE[@]}"; do
		pid=${LIVE[$name]}
		kill -0 "$pid" 2>/dev/null && continue
		wait "$pid" 2>/dev/null
		STATUS[$name]=$?
		STOP_S[$name]=$(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
		unset "LIVE[$name]"
	done
	i=$((i + 1))
	for pid in "${LIVE[@]}"; do
		[ $i -eq 1200 ] && kill -TERM "$pid" 2>/dev/null
		[ $i -eq 1300 ] && kill -KILL "$pid" 2>/dev/null
	done
	[ ${#LIVE[@]} -eq 0 ] || sleep 0.05
done
# the build loop: lantern trace ended its child (SIGTERM); make's jobs may be left
touch "$W/stop"
[ -s "$W/loop.pid" ] && kill -TERM -- -"$(cat "$W/loop.pid")" 2>/dev/null

# --- the verdicts -----------------------------------------------------------
fails=0
verdict() # PASS|FAIL|SKIP TEXT
{
	echo "$1: $2"
	[ "$1" != FAIL ] || fails=$((fails + 1))
}
echo
echo "== lantern soak, $1 minute(s): files in $W"

# exits: both ran to the end and stopped on SIGINT, within 60 s
for name in script trace; do
	if [ -n "${DIED[$name]:-}" ]; then
		verdict FAIL "$name: lantern ${DIED[$name]}: $(grep -m1 -iE 'error|fault|abort' "$W/$name.err")"
		continue
	fi
	st=${STATUS[$name]}
	# trace's status is its command's: the build loop, ended by SIGTERM (143)
	if [ "$st" = 0 ] || { [ $name = trace ] && [ "$st" = 143 ]; }; then
		verdict PASS "$name: stopped by SIGINT in ${STOP_S[$name]} s, status $st"
	else
		verdict FAIL "$name: stopped by SIGINT in ${STOP_S[$name]} s, status $st (0 expected)"
	fi
done

# RSS and descriptors, from the 10 s samples
declare -A SUM=()
for name in script trace; do
	# r: VmRSS less elf_kb, v: VmRSS, e: elf_kb
	read -r n t0 r0 f0 t1 r1 f1 tn rn fn rmax fmax v1 vmax e1 emax < <(awk -F, -v p=$name '
		$2 == p { n++; t[n] = $1; r[n] = $4 - $8; f[n] = $5; v[n] = $4; e[n] = $8 }
		END {
			if (!n) { print 0; exit }
			b = 0; for (i = 1; i <= n; i++) if (t[i] >= 60) { b = i; break }
			rm = fm = vm = em = "-"
			if (b) {
				rm = r[b]; fm = f[b]; vm = v[b]; em = e[b]
				for (i = b; i <= n; i++) {
					if (r[i] > rm) rm = r[i]
					if (f[i] > fm) fm = f[i]
					if (v[i] > vm) vm = v[i]
					if (e[i] > em) em = e[i]
				}
			}
			print n, t[1], r[1], f[1], (b ? t[b] : "-"), (b ? r[b] : "-"), (b ? f[b] : "-"), t[n], r[n], f[n], rm, fm,
			      (b ? v[b] : "-"), vm, (b ? e[b] : "-"), em
		}' "$W/samples.csv")
	if [ "$n" = 0 ]; then
		verdict FAIL "$name: no sample of RSS and descriptors"
		SUM[$name]="no samples"
		continue
	fi
	if [ "$t1" = - ] || [ "$tn" = "$t1" ]; then
		verdict SKIP "$name: RSS and descriptors: no sample after the first minute (a run of 2 minutes or more judges them)"
		SUM[$name]="RSS less mapped ELF files ${r0} kB at ${t0}s, ${rn} kB at ${tn}s; fds ${f0} -> ${fn}"
		continue
	fi
	g=$((rmax - r1))
	gf=$((fmax - f1))
	if [ $g -le "$RSS_SLACK_KB" ]; then
		verdict PASS "$name: RSS (less mapped ELF files) grew by $g kB after the first minute (<= $RSS_SLACK_KB kB): $r1 kB at ${t1}s, at most $rmax kB, $rn kB at ${tn}s"
	else
		verdict FAIL "$name: RSS (less mapped ELF files) grew by $g kB after the first minute (> $RSS_SLACK_KB kB): $r1 kB at ${t1}s, at most $rmax kB, $rn kB at ${tn}s"
	fi
	echo "info: $name: VmRSS grew by $((vmax - v1)) kB after the first minute ($v1 kB at ${t1}s, at most $vmax kB); the ELF files it maps to read them: $e1 kB at ${t1}s, at most $emax kB"
	if [ $gf -le 0 ]; then
		verdict PASS "$name: descriptors did not grow after the first minute: $f1 at ${t1}s, at most $fmax, $fn at ${tn}s"
	else
		verdict FAIL "$name: descriptors grew by $gf after the first minute: $f1 at ${t1}s, at most $fmax, $fn at ${tn}s"
		diff "$W/fds/$name.$t1" "$W/fds/$name.$tn" | sed -n 's/^\([<>]\)/    \1/p' # what opened, what closed
	fi
	SUM[$name]="RSS less mapped ELF files: start $r0 kB, after 1 min $r1 kB, end $rn kB, max growth $g kB (VmRSS $((vmax - v1)) kB); fds $f0/$f1/$fn, growth $gf"
done
samples=$(awk -F, 'NR > 1 { t[$1] = 1 } END { print length(t) }' "$W/samples.csv")

# lost events: the lines that report them add up to what lantern counted
s_lost=$(awk '/^Lost [0-9]+ events/ { n += $2 } END { print n + 0 }' "$W/script.out")
s_lines=$(grep -c '^Lost [0-9]* events' "$W/script.out")
s_scraped=$(awk '/^lantern_lost_events_total/ { print $2 }' "$W/last.page" 2>/dev/null)
s_full=$(sed -n 's/^WARNING: Map full.*: \(@[^ ]*\) refused \([0-9]*\) update.*/\1 \2/p' "$W/script.err" | tr '\n' ' ')
# every printf either reached the output or was counted lost
s_sent=$(sed -n 's/^@exec_sent: \([0-9]*\)$/\1/p' "$W/script.out")
s_printed=$(grep -c '^soak-exec ' "$W/script.out")
if [ "${s_sent:-0}" -gt 0 ] && [ $((s_printed + s_lost)) = "$s_sent" ]; then
	verdict PASS "script: every printf delivered or reported lost: $s_printed printed + $s_lost lost = $s_sent sent"
else
	verdict FAIL "script: printfs: $s_printed printed + $s_lost reported lost, but ${s_sent:-no count of} sent"
fi
if [ -z "$s_scraped" ]; then
	verdict FAIL "script: lost events: $s_lost reported in $s_lines line(s), but no scrape gave lantern_lost_events_total"
elif [ "$s_lost" -ge "$s_scraped" ]; then
	verdict PASS "script: lost events: $s_lost reported in $s_lines line(s) (>= $s_scraped, the last scrape's lantern_lost_events_total)"
else
	verdict FAIL "script: lost events: $s_lost reported in $s_lines line(s), fewer than the $s_scraped of the last scrape"
fi
[ -z "$s_full" ] || echo "info: script: full maps (BPFTRACE_MAP_KEYS_MAX=$KEYS) refused updates: $s_full"
t_lost=$(awk '/^\.\.\. [0-9]+ events lost \.\.\.$/ { n += $2 } END { print n + 0 }' "$W/trace.out")
t_lines=$(grep -c '^\.\.\. [0-9]* events lost \.\.\.$' "$W/trace.out")
t_total=$(sed -n 's/^lantern: \([0-9]*\) events lost.*/\1/p' "$W/trace.err" | tail -n1)
t_total=${t_total:-0}
if [ "$t_lost" = "$t_total" ]; then
	verdict PASS "trace: lost events: $t_lost reported in $t_lines line(s) of the output, as the total on stderr ($t_total)"
else
	verdict FAIL "trace: lost events: $t_lost reported in $t_lines line(s) of the output, but the total on stderr says $t_total"
fi
t_calls=$(wc -l <"$W/trace.out")
t_size=$(du -h "$W/trace.out" | cut -f1)

# leftovers: the BPF objects they held, their perf events, tracefs
objs=$(wc -l <"$W/objects")
gone=$("$top/tests/runtime/gone.sh" "$W/objects")
progs=" $(awk '$1 == "prog" { printf "%s ", $2 }' "$W/objects")"
perf=$(bpftool perf list 2>/dev/null | awk -v a="$SCRIPT_PID" -v b="$TRACE_PID" -v ids="$progs" '
	{ for (i = 1; i < NF; i++) {
		if ($i == "pid" && ($(i + 1) == a || $(i + 1) == b)) { print; next }
		if ($i == "prog_id" && index(ids, " " $(i + 1) " ")) { print; next } } }')
tracefs_now | sort -u >"$W/tracefs.after"
tfs=$(diff "$W/tracefs.before" "$W/tracefs.after" | sed -n 's/^[<>] //p' | tr '\n' ' ')
left=""
if [ "$objs" -eq 0 ]; then
	verdict FAIL "leftovers: no BPF object was seen in the lantern processes (objects.sh)"
	left="unknown"
elif [ "$gone" = clean ]; then
	verdict PASS "leftovers: the $objs BPF programs, maps and links they held are gone"
else
	verdict FAIL "leftovers: BPF objects $gone"
	left="$left BPF objects;"
fi
if [ -z "$perf" ]; then
	verdict PASS "leftovers: no perf event of theirs"
else
	verdict FAIL "leftovers: perf events: $(echo "$perf" | tr '\n' ' ')"
	left="$left perf events;"
fi
if [ -z "$tfs" ]; then
	verdict PASS "leftovers: tracefs uprobe_events, kprobe_events and instances as before"
else
	verdict FAIL "leftovers: tracefs changed: $tfs"
	left="$left tracefs;"
fi

# scrapes
sc_fail=$(grep -c ' fail ' "$W/scrape.log")
read -r sc_ok sc_med sc_max < <(awk '$2 == "ok" { printf "%.0f\n", $5 * 1000 }' "$W/scrape.log" | sort -n |
	awk '{ t[NR] = $1 } END { print NR, (NR ? t[int((NR + 1) / 2)] : "-"), (NR ? t[NR] : "-") }')
if [ "$sc_ok" -gt 0 ] && [ "$sc_fail" -eq 0 ]; then
	verdict PASS "scrapes: $sc_ok succeeded, none failed; median $sc_med ms, slowest $sc_max ms"
else
	verdict FAIL "scrapes: $sc_ok succeeded, $sc_fail failed; median $sc_med ms, slowest $sc_max ms"
fi

# the traced workload: lantern trace must not break it
b_fail=$(awk '$2 != 0' "$W/builds" | wc -l)
read -r b_n b_med < <(awk '{ print $3 }' "$W/builds" | sort -g |
	awk '{ t[NR] = $1 } END { print NR, (NR ? t[int((NR + 1) / 2)] : "-") }')
if [ "$b_fail" -eq 0 ]; then
	verdict PASS "traced builds: $b_n finished, none failed (median ${b_med}s; the one running at the end is not counted)"
else
	verdict FAIL "traced builds: $b_n finished, $b_fail failed (see $W/build.log)"
fi

# trace's output is big (over 1 GB per 10 minutes): its end and its lost lines stay
if [ -z "${KEEP:-}" ]; then
	tail -n 1000 "$W/trace.out" >"$W/trace.out.tail"
	grep -E '^\.\.\. [0-9]+ events lost \.\.\.$' "$W/trace.out" >"$W/trace.out.lost"
	rm -f "$W/trace.out"
fi

echo
echo "== summary"
echo "minutes:    $1 ($samples samples of RSS and fds, every 10 s)"
echo "script:     ${SUM[script]}"
echo "trace:      ${SUM[trace]}"
echo "lost:       script $s_lost reported (last scrape: ${s_scraped:-none}; $s_printed of ${s_sent:-?} printfs printed); trace $t_lost reported, $t_total counted ($t_calls lines, $t_size)"
echo "scrapes:    $sc_ok ok, $sc_fail failed, median $sc_med ms, slowest $sc_max ms"
echo "builds:     $b_n traced builds, $b_fail failed (after filling the maps in $(cat "$W/filled" 2>/dev/null || echo ?) s)"
echo "leftovers:  ${left:-none}"
if [ $fails -eq 0 ]; then
	echo "overall:    PASS"
	exit 0
fi
echo "overall:    FAIL ($fails check(s) failed)"
exit 1
}
