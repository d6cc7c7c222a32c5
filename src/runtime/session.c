// SPDX-License-Identifier: MIT
/*
 * The session: compile, load, attach, run, print, release. Every exit path
 * after the first kernel object goes through session_free().
 */
#include "runtime/session_impl.h"
#include "base/outfile.h"
#include "compile/compile.h"
#include "output/writer.h"
#include "runtime/child.h"
#include "runtime/load.h"
#include "runtime/loop.h"
#include "runtime/metrics.h"
#include "runtime/ustack.h"
#include "output/folded.h"
#include "sym/demangle.h"
#include "output/pprof.h"
#include "sym/symbols.h"
#include "sys/tracefs.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Root, or CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN. */
static bool privileged(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data) < 0)
		return false;
#define HAS(cap) (data[(cap) / 32].effective & (1u << ((cap) % 32)))
	return HAS(CAP_SYS_ADMIN) || (HAS(CAP_BPF) && HAS(CAP_PERFMON));
#undef HAS
}

void rt_out_flush(struct session *s)
{
	util_out_flush(s->out, util_out_name(s->out, s->opts->r.output));
}

static void flush_diag(struct session *s)
{
	diag_flush(&s->plan.diag, stderr);
}

/* The probes a script runs: all but its test and bench probes (run by --test, --bench) */
static int by_ap_name(const void *a, const void *b)
{
	const struct probe_inst *x = *(const struct probe_inst *const *)a,
				*y = *(const struct probe_inst *const *)b;
	if (x->ap != y->ap)
		return (uintptr_t)x->ap < (uintptr_t)y->ap ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The probes "Attaching N probes" counts: every instance (bpftrace 0.17:
 * a USDT probe at 3 places counts 3), or in today's dialect, as bpftrace
 * 0.26 counts, every distinct probe each attach point expands to.
 */
static size_t attached_count(const struct session *s)
{
	const struct probe_inst **v = util_xmalloc(sizeof(*v) * (s->plan.insts.len + 1));
	size_t n = 0, distinct = 0;

	vec_foreach(&s->plan.insts, ip) if ((*ip)->prov->id != PROV_TEST &&
					    (*ip)->prov->id != PROV_BENCH) v[n++] = *ip;
	if (!s->plan.modern) {
		free(v);
		return n;
	}
	qsort(v, n, sizeof(*v), by_ap_name);
	for (size_t i = 0; i < n; i++)
		distinct += !i || by_ap_name(&v[i - 1], &v[i]) != 0;
	free(v);
	return distinct;
}

/*
 * Everything up to attached, running probes. 0, 1 when there is nothing
 * to run (-d, --dry-run), or -1 with errors reported.
 */
static int start(struct session *s)
{
	struct options *o = s->opts;
	int rc = s->fe->build(s);

	if (rc != 0)
		return rc;
	if (!privileged()) {
		fprintf(stderr, "ERROR: tracing needs root (or CAP_BPF and CAP_PERFMON) [E%d]\n",
			E_PERMISSION);
		return -1;
	}
	if ((o->r.cmd || o->r.cmd_argv) && rt_child_spawn(s) < 0)
		return -1;
	if (rt_load_all(s) < 0 || (s->fe->loaded && s->fe->loaded(s) < 0))
		return -1;
	if (o->r.dry_run)
		return 1;
	if (o->r.mode != RUN_SCRIPT)
		return 0; /* --test, --bench: run by lantern, nothing attached */
	size_t n = attached_count(s);
	if (!n) {
		bool tests = false; /* else bench probes */
		vec_foreach(&s->plan.insts, ip) tests |= (*ip)->prov->id == PROV_TEST;
		fprintf(stderr, "ERROR: No probes attached; use --%s to run %s probes.\n",
			tests ? "test" : "bench", tests ? "test" : "bench");
		return -1;
	}
	/* the maps exist: serve them from now on (a bad address fails before any probe attaches) */
	if (o->r.metrics && !(s->metrics = rt_metrics_start(o->r.metrics, &s->oc, s->plan.maps.lost)))
		return -1;
	flush_diag(s); /* warnings before the output */
	/* today's bpftrace says "Attached N probes" on stderr, once they are */
	bool modern_text = s->plan.modern && o->r.format == OUTPUT_TEXT;
	if (!o->r.quiet && !s->fe->quiet && !modern_text) {
		struct strbuf sb = { 0 };
		s->oc.writer->attached(&sb, &s->oc, n);
		fputs(sb_str(&sb), s->out);
		rt_out_flush(s);
		sb_free(&sb);
	}
	/* BEGIN runs before the other probes attach, as bpftrace's: no event sees
	   BEGIN's maps unset, and the first attached is the first to fire */
	rt_trace_pipe_open(&s->pipe, s);
	rt_run_special(s, PROV_BEGIN);
	rt_child_wait_blocked(s); /* what the child does before it waits is not the command's */
	if (rt_attach_all(s) < 0)
		return -1;
	if (!o->r.quiet && !s->fe->quiet && modern_text) {
		rt_out_flush(s);
		fprintf(stderr, "Attached %zu probe%s\n", n, n == 1 ? "" : "s");
	}
	/* test harnesses (bpftrace's, lantern's) wait for this line to start the
	   workload: on stderr as bpftrace 0.17 says it, on stdout as today's does */
	if (getenv("__BPFTRACE_NOTIFY_PROBES_ATTACHED")) {
		bool modern = s->oc.plan && s->oc.plan->modern;
		rt_out_flush(s);
		fputs("__BPFTRACE_NOTIFY_PROBES_ATTACHED\n", modern ? stdout : stderr);
		fflush(modern ? stdout : stderr);
	}
	return 0;
}

/* lantern scripts: compile(), with the -d stages it shows */
static int script_build(struct session *s)
{
	struct strbuf dump = { 0 };
	int rc = compile(&s->plan, &s->opts->c, &dump);

	fputs(sb_str(&dump), stdout);
	sb_free(&dump);
	if (rc < 0)
		return -1;
	if (!s->plan.settings.v[SET_CPP_DEMANGLE])
		sym_demangle_disable();
	return s->opts->r.dump ? 1 : 0;
}

/*
 * Two blank lines, on stdout even with -o, and in JSON too (as 0.17; not
 * in the formats other tools read); the maps; --flamegraph's file.
 */
static void script_finish(struct session *s, struct strbuf *out)
{
	enum output_format f = s->opts->r.format;

	rt_out_flush(s);
	if (!s->plan.settings.v[SET_PRINT_MAPS_ON_EXIT]) {
		/* config = { print_maps_on_exit = 0 }: nothing at the end */
		if (s->opts->r.flamegraph &&
		    out_flamegraph_write(&s->oc, s->opts->r.flamegraph, "Flame Graph") < 0 && !s->exit_code)
			s->exit_code = 1;
		return;
	}
	if (f == OUTPUT_TEXT || f == OUTPUT_JSON)
		fputs("\n\n", stdout);
	util_out_flush(stdout, "stdout");
	if (f == OUTPUT_FOLDED && !out_plan_has_stack_map(&s->plan))
		fputs("lantern: -f folded prints the maps keyed by kstack or ustack, and no map is "
		      "(e.g. @[kstack, comm] = count())\n",
		      stderr);
	out_maps_print_all(&s->oc, out);
	if (out->len) /* the maps before what the flame graph says */
		fwrite(out->s, 1, out->len, s->out);
	rt_out_flush(s);
	sb_reset(out);
	if (s->opts->r.flamegraph &&
	    out_flamegraph_write(&s->oc, s->opts->r.flamegraph, "Flame Graph") < 0 && !s->exit_code)
		s->exit_code = 1;
	if (s->opts->r.pprof && out_pprof_write(&s->oc, s->opts->r.pprof) < 0 && !s->exit_code)
		s->exit_code = 1;
}

/* SIGUSR1: the maps, without the blank lines of the end (as bpftrace) */
static void script_dump(struct session *s, struct strbuf *out)
{
	out_maps_print_all(&s->oc, out);
}

const struct frontend rt_script_frontend = {
	.build = script_build,
	.finish = script_finish,
	.dump = script_dump,
};

static void session_init(struct session *s, struct options *o, const struct frontend *fe)
{
	memset(s, 0, sizeof(*s));
	s->opts = o;
	s->fe = fe;
	s->child_go_fd = -1;
	s->start_ns = util_now_ns();
	s->out = stdout;
	s->errout = stderr;
	s->oc = (struct out_ctx){ &s->plan, &s->maps, out_writer_for(o->r.format) };
	s->attach.pid = o->r.pid;
}

static void session_free(struct session *s)
{
	rt_metrics_stop(s->metrics);
	s->metrics = NULL;
	rt_release_all(s);
	if (s->exit_shared)
		sys_ringbuf_abandon(&s->ring);
	else
		sys_ringbuf_close(&s->ring);
	rt_child_reap(s);
	rt_ustack_free(s);
	rt_trace_pipe_close(&s->pipe);
	sym_release();
	if (s->out)
		util_out_close(s->out, util_out_name(s->out, s->opts->r.output));
	if (s->out != stdout)
		util_out_flush(stdout, "stdout");
	s->out = NULL;
	plan_free(&s->plan);
	sys_tracefs_release();
}

struct plan *session_plan(struct session *s)
{
	return &s->plan;
}

const struct options *session_opts(const struct session *s)
{
	return s->opts;
}

void *session_ctx(const struct session *s)
{
	return s->fe->ctx;
}

FILE *session_out(const struct session *s)
{
	return s->out;
}

void session_set_out(struct session *s, FILE *out)
{
	s->out = out;
}

const struct live_maps *session_maps(const struct session *s)
{
	return &s->maps;
}

pid_t session_child(const struct session *s)
{
	return s->cpid;
}

void session_signals(const struct frontend *fe, sigset_t *mask)
{
	sigemptyset(mask);
	sigaddset(mask, SIGINT);
	sigaddset(mask, SIGTERM);
	sigaddset(mask, SIGHUP);
	sigaddset(mask, SIGCHLD);
	if (fe->dump)
		sigaddset(mask, SIGUSR1); /* prints the maps */
}

/*
 * strace's rule (fe->exit_as_child): the command's status is lantern's,
 * 128 + N when signal N killed it; once the front end is done, the
 * command has ended or is ending: wait for it.
 */
static void exit_from_child(struct session *s)
{
	if (s->cpid && !s->child_exited && (!s->fe->finished || s->fe->finished(s)) &&
	    waitpid(s->cpid, &s->child_status, 0) == s->cpid)
		s->child_exited = true;
	if (!s->child_exited)
		return;
	if (WIFEXITED(s->child_status))
		s->exit_code = WEXITSTATUS(s->child_status);
	else if (WIFSIGNALED(s->child_status))
		s->exit_code = 128 + WTERMSIG(s->child_status);
}

int session_run(struct options *o, const struct frontend *fe)
{
	struct session s;
	sigset_t mask;
	int rc;

	/* the signals wait for the event loop (a signalfd): teardown always runs */
	session_signals(fe, &mask);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	session_init(&s, o, fe);
	if (o->r.output && !(s.out = fopen(o->r.output, "we"))) {
		fprintf(stderr, "ERROR: cannot write %s: %s\n", o->r.output, strerror(errno));
		session_free(&s);
		return 1;
	}
	/*
	 * -B none: every write at once. The default, line, shows each line as
	 * bpftrace's does, but costs no write() per line: the loop flushes
	 * after each batch of records (run_loop), so a line waits at most the
	 * loop's drain period. -B full flushes only when the buffer fills.
	 */
	if (o->r.buffering == BUFFER_NONE)
		setvbuf(s.out, NULL, _IONBF, 0);
	/* kernels before 5.11 charge BPF memory to RLIMIT_MEMLOCK */
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_MEMLOCK, &rl);

	rc = start(&s);
	flush_diag(&s);
	if (rc == 0) {
		rc = o->r.mode == RUN_SCRIPT ? rt_loop(&s) : rt_run_selftests(&s);
		flush_diag(&s);
		if (fe->exit_as_child)
			exit_from_child(&s);
	}

	int exit_code = s.exit_code;
	session_free(&s);
	if (rc < 0)
		return 1;
	return rc == 1 ? 0 : exit_code;
}
