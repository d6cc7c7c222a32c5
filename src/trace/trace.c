// SPDX-License-Identifier: MIT
/*
 * lantern trace: the command line (strace's options) and the front end
 * the session runs: the plan from progs.c, the traced tasks put in the
 * kernel's map before the child starts, the printer fed by the records,
 * and at the end the -c table.
 */
#include "trace/trace.h"
#include "base/util.h"
#include "maps/maps.h"
#include "runtime/session.h"
#include "sys/syscalls.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct trace_ctx {
	struct trace_opts o;
	struct trace_printer *tp;
	struct trace_funcs funcs; /* --calls */
	struct trace_maps maps;	  /* the plan's maps this file reads or fills */
	VEC(pid_t) attached;	  /* -p: the tasks put in the traced set before the probes attached */
	uint64_t missed;	  /* those that ended before the probes did: no exit record comes */
	uint64_t last_check;	  /* util_now_ns() of the last look at them */
	bool all_exited;	  /* every traced task's exit was seen (none is left to detach) */
};

static void trace_usage(FILE *f)
{
	fputs("USAGE:\n"
	      "    lantern trace [options] CMD [ARGS...]\n"
	      "    lantern trace [options] -p PID[,PID...]\n"
	      "    lantern trace [options] -a\n"
	      "\n"
	      "Traces system calls as strace does, from eBPF programs: the traced program is never stopped.\n"
	      "\n"
	      "OPTIONS:\n"
	      "    -f             follow forks and threads (a new task is traced before it runs)\n"
	      "    -ff            with -o FILE: one file per task, FILE.TID\n"
	      "    -p PID,...     trace running processes (with -f: all their threads)\n"
	      "    -a             trace every process on the machine (lines start [comm tid])\n"
	      "    -e trace=SET   the calls to show: names, !SET, /REGEX, %file %process %network %signal\n"
	      "                   %ipc %desc %memory %creds %clock %stat %lstat %fstat %statfs %pure\n"
	      "    -e status=failed|successful, -Z (failed only), -z (successful only)\n"
	      "    -t, -tt, -ttt  time of day; with microseconds; seconds since the epoch\n"
	      "    -r             time since the previous line\n"
	      "    -T             time spent in each call\n"
	      "    -s N           string and buffer bytes shown (default 32)\n"
	      "    -x, -xx        non-ASCII bytes in hex; every byte in hex\n"
	      "    -y, -yy        paths of file descriptors; and the endpoints of sockets\n"
	      "    -k             the user stack after each call and signal, as strace -k prints it\n"
	      "    -o FILE        write to FILE instead of stderr\n"
	      "    -c             only a table of calls, errors and time at the end; -C: the lines too\n"
	      "    -S SORTBY      sort the table by time (default), calls, errors, name or avg-time\n"
	      "    -q, -qq        no attach/detach messages; no exit messages either\n"
	      "    --json         one JSON object per call (time, pid, tid, syscall, args, return, error, duration)\n"
	      "    --timeline F   write F: a Chrome trace / Perfetto JSON timeline, one span per call\n"
	      "    --calls L:P,.. library calls too, ltrace-style: --calls 'libc:malloc,free', 'libssl:SSL_*'\n"
	      "    -d ir,bpf      print the BPF programs these options make (their IR, their instructions)\n"
	      "                   and run nothing; no command is needed\n"
	      "    -h, --help     this help\n",
	      f);
}

static int bad(const char *fmt, const char *arg)
{
	fputs("lantern trace: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -1;
}

/* -e trace=SET: into sel (names, classes, regexes) */
static int parse_set(const char *spec, bool sel[SYSCALL_NR_LIMIT])
{
	char *copy = util_xstrdup(spec), *save = NULL;
	int rc = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		bool optional = *tok == '?';
		if (optional)
			tok++;
		if (!strcmp(tok, "all")) {
			for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++)
				sel[nr] = sys_syscall_name(nr) != NULL;
		} else if (!strcmp(tok, "none")) {
			/* nothing */
		} else if (*tok == '/') {
			regex_t re;
			bool any = false;
			if (regcomp(&re, tok + 1, REG_EXTENDED | REG_NOSUB) != 0) {
				rc = bad("invalid regular expression '%s'", tok + 1);
				break;
			}
			for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
				const char *n = sys_syscall_name(nr);
				if (n && regexec(&re, n, 0, NULL, 0) == 0)
					sel[nr] = any = true;
			}
			regfree(&re);
			if (!any && !optional)
				rc = bad("no system call matches '/%s'", tok + 1);
		} else if (*tok == '%' || trace_class_named(tok)) {
			uint32_t bits = trace_class_named(tok);
			if (!bits) {
				rc = bad("invalid system call class '%s' (see lantern trace -h)", tok);
				break;
			}
			for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++)
				if (sys_syscall_name(nr) && (trace_sysdesc_brief(nr)->classes & bits))
					sel[nr] = true;
		} else {
			int nr = sys_syscall_number(tok);
			if (nr < 0 || nr >= SYSCALL_NR_LIMIT) {
				if (!optional)
					rc = bad("invalid system call '%s'", tok);
				continue;
			}
			sel[nr] = true;
		}
	}
	free(copy);
	return rc;
}

static int parse_expr(struct trace_opts *o, const char *e)
{
	const char *eq = strchr(e, '=');
	const char *what = "trace", *val = e;
	size_t wl = 5;

	if (eq) {
		what = e;
		wl = (size_t)(eq - e);
		val = eq + 1;
	}
	if ((wl == 5 && !strncmp(what, "trace", 5)) || (wl == 1 && *what == 't')) {
		bool neg = *val == '!';
		bool set[SYSCALL_NR_LIMIT] = { 0 };
		if (parse_set(neg ? val + 1 : val, set) < 0)
			return -1;
		if (o->select_all) {
			o->select_all = false;
			memset(o->selected, 0, sizeof(o->selected));
		}
		for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++)
			if (neg ? !set[nr] && sys_syscall_name(nr) : set[nr])
				o->selected[nr] = true;
		return 0;
	}
	if (wl == 6 && !strncmp(what, "status", 6)) {
		if (!strcmp(val, "failed"))
			o->status = 1;
		else if (!strcmp(val, "successful"))
			o->status = 2;
		else if (!strcmp(val, "all"))
			o->status = 0;
		else
			return bad("-e status=%s: lantern takes failed, successful or all", val);
		return 0;
	}
	return bad("-e %s: lantern trace takes trace= and status= (see lantern trace -h)", e);
}

static int parse_pids(struct trace_opts *o, const char *arg)
{
	char *copy = util_xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char *end;
		long pid = strtol(tok, &end, 10);
		if (*end || pid <= 0) {
			rc = bad("-p %s: not a process id", tok);
			break;
		}
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			rc = bad("-p %s: no such process", tok);
			break;
		}
		vec_push(&o->pids, (pid_t)pid);
	}
	free(copy);
	return rc;
}

/* -d ir,bpf: the stages shown (strace's -d, its own debugging output, has no use here) */
static int parse_dump(struct trace_opts *o, const char *arg)
{
	char *copy = util_xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "ir"))
			o->dump |= DUMP_IR;
		else if (!strcmp(tok, "bpf"))
			o->dump |= DUMP_BPF;
		else if (!strcmp(tok, "all"))
			o->dump |= DUMP_IR | DUMP_BPF;
		else
			rc = bad("-d %s: lantern trace shows ir, bpf or all", tok);
	}
	free(copy);
	return rc;
}

/* strace options lantern does not have: a message each */
static const struct {
	char opt;
	const char *what;
} unsupported[] = {
	{ 'i', "the instruction pointer (-i)" },
	{ 'v', "unabbreviated structures (-v)" }, { 'D', "a detached tracer (-D)" },
	{ 'u', "running the command as another user (-u)" }, { 'E', "environment changes (-E)" },
	{ 'b', "detaching on a call (-b)" }, { 'I', "interruptibility (-I)" },
	{ 'w', "wall-clock -c times (-w): lantern's times are already wall-clock" },
	{ 'P', "path filters (-P)" }, { 'X', "the -X formats" }, { 'n', "syscall numbers (-n)" },
	{ 'A', "appending (-A)" }, { 'U', "-U columns" }, { 'O', "overhead (-O)" },
};

static int check_opts(struct trace_opts *o);

/* 0 parsed, 1 help, -1 error; *first: the command's first word */
static int parse(struct trace_opts *o, int argc, char **argv, int *first)
{
	int i;

	o->select_all = true;
	o->strsize = 32;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		if (a[0] != '-' || !a[1])
			break;
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[1] == '-') {
			if (!strcmp(a, "--help"))
				return 1;
			if (!strcmp(a, "--json")) {
				o->json = true;
			} else if (!strcmp(a, "--timeline") || !strncmp(a, "--timeline=", 11)) {
				o->timeline = a[10] == '=' ? a + 11 : (i + 1 < argc ? argv[++i] : NULL);
				if (!o->timeline)
					return bad("%s takes a file", a);
			} else if (!strncmp(a, "--trace=", 8) || !strncmp(a, "--status=", 9)) {
				if (parse_expr(o, a + 2) < 0)
					return -1;
			} else if (!strcmp(a, "--calls") || !strncmp(a, "--calls=", 8)) {
				const char *spec = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
				const char *colon = spec ? strrchr(spec, ':') : NULL;
				if (!colon || colon == spec || !colon[1]) {
					fprintf(stderr, "lantern trace: --calls %s: LIB:PATTERN[,PATTERN...] (libc:malloc,free)\n",
						spec ? spec : "");
					return -1;
				}
				vec_push(&o->calls, spec);
			} else {
				return bad("unknown option %s (see lantern trace -h)", a);
			}
			continue;
		}
		for (char *c = a + 1; *c; c++) {
			/* options with a value: the rest of this word, or the next one */
			const char *val = NULL;
			if (strchr("peosSd", *c)) {
				val = c[1] ? c + 1 : (i + 1 < argc ? argv[++i] : NULL);
				if (!val) {
					fprintf(stderr, "lantern trace: -%c takes a value\n", *c);
					return -1;
				}
			}
			switch (*c) {
			case 'f':
				if (o->follow)
					o->follow_files = true;
				o->follow = true;
				break;
			case 'a':
				o->all = true;
				break;
			case 'p':
				if (parse_pids(o, val) < 0)
					return -1;
				break;
			case 'e':
				if (parse_expr(o, val) < 0)
					return -1;
				break;
			case 'o':
				o->output = val;
				break;
			case 's': {
				char *end;
				long n = strtol(val, &end, 10);
				if (*end || n < 0 || n > 4095)
					return bad("-s %s: a size from 0 to 4095", val);
				o->strsize = (uint32_t)n;
				break;
			}
			case 'S':
				if (strcmp(val, "time") && strcmp(val, "calls") && strcmp(val, "errors") &&
				    strcmp(val, "name") && strcmp(val, "avg-time") && strcmp(val, "nothing"))
					return bad("-S %s: sort by time, calls, errors, name, avg-time or nothing", val);
				o->sort_by = val;
				break;
			case 'd':
				if (parse_dump(o, val) < 0)
					return -1;
				break;
			case 'Z':
				o->status = 1;
				break;
			case 'z':
				o->status = 2;
				break;
			case 't':
				o->timestamps = o->timestamps < 3 ? o->timestamps + 1 : 3;
				break;
			case 'r':
				o->relative = true;
				break;
			case 'T':
				o->durations = true;
				break;
			case 'c':
				o->summary = true;
				break;
			case 'C':
				o->summary = o->summary_too = true;
				break;
			case 'q':
				o->qq += 1;
				o->quiet = true;
				break;
			case 'x':
				o->hex = o->hex < 2 ? o->hex + 1 : 2;
				break;
			case 'k':
				o->stacks = true;
				break;
			case 'y':
				o->paths = o->paths < 2 ? o->paths + 1 : 2;
				break;
			case 'h':
				return 1;
			default:
				for (size_t k = 0; k < ARRAY_SIZE(unsupported); k++)
					if (unsupported[k].opt == *c) {
						fprintf(stderr, "lantern trace: strace's %s is not supported\n",
							unsupported[k].what);
						return -1;
					}
				fprintf(stderr, "lantern trace: unknown option -%c (see lantern trace -h)\n", *c);
				return -1;
			}
			if (val)
				break;
		}
	}
	*first = i;
	if (i < argc)
		o->cmd = argv + i;
	return check_opts(o);
}

/* What the options mean together; 0, or -1 said */
static int check_opts(struct trace_opts *o)
{
	if (o->follow_files && !o->output)
		o->follow_files = false; /* strace: -ff without -o is -f */
	if (o->cmd && o->output)
		o->quiet = true; /* strace: -q is implied when a command's output goes to a file */
	if (!o->cmd && !o->pids.len && !o->all && !o->dump)
		return bad("%s", "nothing to trace: give a command, -p PID or -a");
	if ((o->cmd && o->pids.len) || (o->all && (o->cmd || o->pids.len)))
		return bad("%s", "a command, -p and -a cannot be used together");
	if (o->summary && !o->summary_too && o->stacks) {
		fprintf(stderr, "lantern trace: -k has no effect with -c\n"); /* strace warns so too */
		o->stacks = false;
	}
	if (o->summary && !o->summary_too && o->calls.len)
		return bad("%s", "-c counts syscalls only: --calls needs the calls shown (use -C)");
	if (o->summary && !o->summary_too && (o->json || o->timeline))
		return bad("%s", "-c prints only the table: --json and --timeline need the calls (use -C)");
	return 0;
}

/* tid's bit in the traced bitmap, and the count of traced tasks */
static int trace_task(struct session *s, pid_t tid)
{
	uint32_t word = (uint32_t)tid / 64, zero = 0;
	uint64_t w = 0, live = 0;
	const struct trace_ctx *c = session_ctx(s);
	int map = live_fd(session_maps(s), c->maps.traced), lmap = live_fd(session_maps(s), c->maps.live);

	if (bpf_map_lookup_elem(map, &word, &w) < 0)
		return -1;
	if (w & (1ull << (tid % 64)))
		return 0;
	w |= 1ull << (tid % 64);
	if (bpf_map_update_elem(map, &word, &w, BPF_ANY) < 0 || bpf_map_lookup_elem(lmap, &zero, &live) < 0)
		return -1;
	live++;
	return bpf_map_update_elem(lmap, &zero, &live, BPF_ANY);
}

static int trace_loaded(struct session *s)
{
	struct trace_ctx *c = session_ctx(s);

	if (c->o.all)
		return 0;
	if (session_child(s)) {
		trace_printer_add_task(c->tp, session_child(s), session_child(s));
		if (c->o.stacks)
			trace_stacks_follow(c->tp, session_child(s), true);
		return trace_task(s, session_child(s));
	}
	vec_foreach(&c->o.pids, pp)
	{
		pid_t pid = *pp;
		int n = 0;
		if (c->o.follow) {
			/* every thread of the process */
			char dir[64];
			DIR *d;
			struct dirent *de;
			snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
			if ((d = opendir(dir))) {
				while ((de = readdir(d)))
					if (isdigit((unsigned char)de->d_name[0])) {
						pid_t tid = (pid_t)atoi(de->d_name);
						if (trace_task(s, tid) == 0) {
							trace_printer_add_task(c->tp, tid, pid);
							vec_push(&c->attached, tid);
							n++;
						}
					}
				closedir(d);
			}
		}
		if (c->o.stacks)
			trace_stacks_follow(c->tp, pid, false);
		if (!n) {
			if (trace_task(s, pid) < 0)
				return -1;
			trace_printer_add_task(c->tp, pid, pid);
			vec_push(&c->attached, pid);
		}
		if (!c->o.quiet) {
			if (n > 1)
				fprintf(stderr, "lantern: Process %d attached with %d threads\n", pid, n);
			else
				fprintf(stderr, "lantern: Process %d attached\n", pid);
		}
	}
	return 0;
}

/* Task tid has been through do_exit(): a zombie, or gone */
static bool task_ended(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the state follows the command's name */
	return p && (p[2] == 'Z' || p[2] == 'X');
}

/*
 * -p: a task that ended after lantern put it in the traced set but before
 * the exit program was attached sends no exit record: the count of live
 * tasks would never reach 0. Every 100 ms, a task of -p that has been
 * through do_exit() (its state read first) and is still in the set (read
 * second: the exit program would have taken it out) ended unseen.
 */
static void check_attached(struct session *s, struct trace_ctx *c)
{
	int map = live_fd(session_maps(s), c->maps.traced);

	if (!c->attached.len || util_now_ns() - c->last_check < 100000000ull)
		return;
	c->last_check = util_now_ns();
	for (size_t i = 0; i < c->attached.len; i++) {
		pid_t tid = c->attached.data[i];
		uint32_t word = (uint32_t)tid / 64;
		uint64_t w = 0;
		if (!task_ended(tid))
			continue;
		c->attached.data[i--] = c->attached.data[--c->attached.len];
		if (bpf_map_lookup_elem(map, &word, &w) < 0 || !(w & (1ull << (tid % 64))))
			continue; /* its exit was seen */
		w &= ~(1ull << (tid % 64));
		bpf_map_update_elem(map, &word, &w, BPF_ANY);
		c->missed++;
		if (!c->o.quiet)
			fprintf(stderr, "lantern: Process %d exited before tracing started\n", (int)tid);
	}
}

/* Nothing left to trace: no traced task (-a never ends by itself). */
static bool trace_done(struct session *s)
{
	struct trace_ctx *c = session_ctx(s);
	uint32_t zero = 0;
	uint64_t live = 1;

	if (c->o.all)
		return false;
	check_attached(s, c);
	bpf_map_lookup_elem(live_fd(session_maps(s), c->maps.live), &zero, &live);
	c->all_exited = (int64_t)(live - c->missed) <= 0;
	return c->all_exited;
}

/* A record of the programs: the printer's */
static void trace_on_record(struct session *s, const struct record_desc *r, const void *data, size_t size)
{
	struct trace_ctx *c = session_ctx(s);

	trace_record(c->tp, r, data, size);
}

static void trace_lost(struct session *s, uint64_t n)
{
	struct trace_ctx *c = session_ctx(s);

	trace_printer_lost(c->tp, n);
}

struct count_row {
	int nr;
	struct trace_count c;
};

static const char *sort_key;

static int row_cmp(const void *pa, const void *pb)
{
	const struct count_row *a = pa, *b = pb;
	const char *k = sort_key ? sort_key : "time";
	int r = 0;

	if (!strcmp(k, "calls"))
		r = (a->c.calls < b->c.calls) - (a->c.calls > b->c.calls);
	else if (!strcmp(k, "errors"))
		r = (a->c.errors < b->c.errors) - (a->c.errors > b->c.errors);
	else if (!strcmp(k, "name"))
		r = strcmp(sys_syscall_name(a->nr), sys_syscall_name(b->nr));
	else if (!strcmp(k, "avg-time")) {
		double x = (double)a->c.ns / (double)a->c.calls, y = (double)b->c.ns / (double)b->c.calls;
		r = (x < y) - (x > y);
	} else if (!strcmp(k, "time"))
		r = (a->c.ns < b->c.ns) - (a->c.ns > b->c.ns);
	return r ? r : a->nr - b->nr;
}

/* -c: strace's table */
static void summary(struct session *s, struct trace_ctx *c, FILE *f)
{
	int map = c->maps.counts, ncpu = libbpf_num_possible_cpus();
	struct trace_count *per = util_xcalloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(*per));
	struct count_row *rows = util_xcalloc(SYSCALL_NR_LIMIT, sizeof(*rows));
	struct trace_count total = { 0 };
	int n = 0;

	for (uint32_t nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
		struct trace_count sum = { 0 };
		if (bpf_map_lookup_elem(live_fd(session_maps(s), map), &nr, per) < 0)
			continue;
		for (int cpu = 0; cpu < ncpu; cpu++) {
			sum.calls += per[cpu].calls;
			sum.errors += per[cpu].errors;
			sum.ns += per[cpu].ns;
		}
		if (!sum.calls)
			continue;
		rows[n].nr = (int)nr;
		rows[n++].c = sum;
		total.calls += sum.calls;
		total.errors += sum.errors;
		total.ns += sum.ns;
	}
	sort_key = c->o.sort_by;
	if (!c->o.sort_by || strcmp(c->o.sort_by, "nothing"))
		qsort(rows, (size_t)n, sizeof(*rows), row_cmp);
	fprintf(f, "%6.6s %11.11s %11.11s %9.9s %9.9s %s\n", "% time", "seconds", "usecs/call", "calls", "errors",
		"syscall");
	fputs("------ ----------- ----------- --------- --------- ----------------\n", f);
	for (int i = 0; i < n; i++) {
		const struct trace_count *r = &rows[i].c;
		const char *name = sys_syscall_name(rows[i].nr);
		fprintf(f, "%6.2f %11.6f %11llu %9llu ", total.ns ? 100.0 * (double)r->ns / (double)total.ns : 0.0,
			(double)r->ns / 1e9, (unsigned long long)(r->ns / 1000 / r->calls),
			(unsigned long long)r->calls);
		if (r->errors)
			fprintf(f, "%9llu", (unsigned long long)r->errors);
		else
			fprintf(f, "%9s", "");
		fprintf(f, " %s\n", name ? name : "?");
	}
	fputs("------ ----------- ----------- --------- --------- ----------------\n", f);
	fprintf(f, "%6.6s %11.6f %11llu %9llu ", "100.00", (double)total.ns / 1e9,
		(unsigned long long)(total.calls ? total.ns / 1000 / total.calls : 0),
		(unsigned long long)total.calls);
	if (total.errors)
		fprintf(f, "%9llu", (unsigned long long)total.errors);
	else
		fprintf(f, "%9s", "");
	fputs(" total\n", f);
	free(per);
	free(rows);
}

static void trace_finish(struct session *s, struct strbuf *out)
{
	struct trace_ctx *c = session_ctx(s);
	uint64_t lost;

	trace_printer_finish(c->tp, s);
	/* tasks still running when lantern stops (Ctrl-C); not those whose exit was seen,
	   which /proc may show running a moment longer, still in do_exit() */
	if (c->o.pids.len && !c->o.quiet && !c->all_exited)
		vec_foreach(&c->o.pids, pp)
		{
			if (!task_ended(*pp)) /* alive: not a zombie its parent has yet to reap */
				fprintf(stderr, "lantern: Process %d detached\n", *pp);
		}
	if (c->o.summary)
		summary(s, c, session_out(s));
	lost = maps_percpu_sum(session_maps(s), session_plan(s)->maps.lost);
	if (lost)
		fprintf(stderr, "lantern: %llu events lost (a bigger buffer: LANTERN_RINGBUF_KB)\n",
			(unsigned long long)lost);
	rt_out_flush(s);
}

static int trace_build(struct session *s)
{
	struct trace_ctx *c = session_ctx(s);

	struct plan *p = session_plan(s);

	plan_init(p, &session_opts(s)->c);
	maps_ringbuf_prefetch(trace_ringbuf_bytes(&c->o)); /* made while the programs are */
	if (!session_opts(s)->r.output)
		session_set_out(s, stderr); /* strace's default; -ff's files are the printer's */
	c->tp = trace_printer_new(&c->o, session_out(s), &c->funcs);
	if (c->o.timeline && trace_printer_timeline(c->tp, c->o.timeline) < 0)
		return -1;
	if (trace_plan(p, &c->o, &c->funcs, &c->maps, NULL) < 0 || p->diag.errors)
		return -1;
	return 0;
}

/* -d: the plan's programs into out, nothing run (no session); errors on stderr */
static int dump_plan(struct trace_ctx *c, struct strbuf *out)
{
	struct compile_opts opts = { .script_name = "trace", .script = (char *)"" };
	struct plan p;
	int rc;

	plan_init(&p, &opts);
	rc = trace_plan(&p, &c->o, &c->funcs, &c->maps, out);
	if (p.diag.errors)
		rc = -1;
	diag_flush(&p.diag, stderr);
	plan_free(&p);
	return rc;
}

int trace_dump(int argc, char **argv, struct strbuf *out)
{
	struct trace_ctx c = { 0 };
	int first = 0, rc;

	rc = parse(&c.o, argc, argv, &first);
	if (rc == 0 && !c.o.dump)
		rc = bad("%s", "trace_dump: no -d");
	if (rc == 0)
		rc = dump_plan(&c, out);
	vec_free(&c.o.pids);
	vec_free(&c.o.calls);
	vec_free(&c.funcs);
	return rc < 0 ? -1 : 0;
}

int trace_main(int argc, char **argv)
{
	struct trace_ctx c = { 0 };
	struct options opts = { .c = { .script_name = "trace", .script = (char *)"" } };
	struct frontend fe = {
		.build = trace_build,
		.loaded = trace_loaded,
		.finish = trace_finish,
		.finished = trace_done,
		.lost = trace_lost,
		.record = trace_on_record,
		.quiet = true,
		.exit_as_child = true, /* strace's rule */
		.ctx = &c,
	};
	int first = 0, rc;

	rc = parse(&c.o, argc, argv, &first);
	if (rc != 0 || c.o.dump) {
		struct strbuf dump = { 0 };
		if (rc == 1)
			trace_usage(stdout);
		else if (rc == 0) /* -d: the programs, nothing run */
			rc = dump_plan(&c, &dump) < 0 ? -1 : 1;
		if (rc == 1)
			fputs(sb_str(&dump), stdout);
		sb_free(&dump);
		vec_free(&c.o.pids);
		vec_free(&c.o.calls);
		vec_free(&c.funcs);
		return rc == 1 ? 0 : 1;
	}
	opts.r.output = c.o.follow_files ? NULL : c.o.output;
	opts.r.cmd_argv = c.o.cmd;
	opts.r.quiet = true;
	opts.c.child = c.o.cmd != NULL;
	opts.c.child_cmd = c.o.cmd ? c.o.cmd[0] : NULL;

	rc = session_run(&opts, &fe);
	trace_printer_free(c.tp);
	vec_free(&c.attached);
	vec_free(&c.o.pids);
	vec_free(&c.o.calls);
	vec_free(&c.funcs);
	return rc;
}
