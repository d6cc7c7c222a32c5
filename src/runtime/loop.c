// SPDX-License-Identifier: MIT
/*
 * Running: BEGIN, the event loop (ring buffer records, signals, the -c
 * child), then stop, END and the maps.
 *
 * The loop waits on one epoll set holding the ring buffer's epoll fd and a
 * signalfd for SIGINT, SIGTERM, SIGHUP and SIGCHLD (and SIGUSR1, which
 * prints the maps, when the front end can), which stay blocked for the
 * whole session so that teardown always runs. Under a flood of records the
 * loop still looks at its signals every CONSUME_MS: Ctrl-C stops at once.
 */
#include "base/outfile.h"
#include "runtime/loop.h"
#include "maps/mapread.h"
#include "output/writer.h"
#include "runtime/child.h"
#include "runtime/load.h"
#include "runtime/records.h"
#include "runtime/tracepipe.h"
#include "runtime/ustack.h"
#include "sys/ringbuf.h"
#include "sym/symbols.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOST_CHECK_MS 200
#define DRAIN_MS 10
#define CONSUME_MS 50
#define MAPPINGS_MS 50 /* how often the traced process's mappings are read again */

/* The records waiting, or CONSUME_MS of them: true when some are left. */
static bool consume(struct loop *l, struct ringbuf *rb)
{
	l->deadline = util_now_ns() + CONSUME_MS * 1000000ull;
	l->budget_spent = false;
	sys_ringbuf_consume(rb);
	if (l->s->opts->r.buffering != BUFFER_FULL)
		rt_out_flush(l->s);
	return l->budget_spent;
}

/* After exit() or a signal: everything left, however long it takes. */
static void consume_all(struct loop *l, struct ringbuf *rb)
{
	while (consume(l, rb))
		;
}

/* SIGUSR1: the maps as they are now (as bpftrace), and go on. */
static void dump_now(struct loop *l)
{
	struct session *s = l->s;

	sb_reset(&l->line);
	s->fe->dump(s, &l->line);
	fwrite(l->line.s, 1, l->line.len, s->out);
	sb_reset(&l->line);
	rt_out_flush(s);
}

/*
 * User stacks print at the end, when the -c command or -p process may be
 * gone and with it /proc/PID/maps: remember its mappings while it runs.
 */
static void remember_mappings(struct session *s, uint64_t *last)
{
	pid_t pid = s->cpid && !s->child_exited ? s->cpid : s->opts->r.pid;
	bool user = false;

	vec_foreach(&s->plan.maps.stacks, sm)
	{
		if (sm->user)
			user = true;
	}
	if (!user || !pid || util_now_ns() - *last < MAPPINGS_MS * 1000000ull)
		return;
	*last = util_now_ns();
	if (pid == s->cpid) {
		/* not before the command's exec: until then its mappings are lantern's */
		char link[64], exe[4096], self[4096];
		ssize_t n, m;
		snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
		n = readlink(link, exe, sizeof(exe));
		m = readlink("/proc/self/exe", self, sizeof(self));
		if (n <= 0 || (n == m && !memcmp(exe, self, (size_t)n)))
			return;
	}
	sym_remember_process(pid);
}

void rt_run_special(struct session *s, enum provider_id id)
{
	vec_foreach(&s->plan.insts, ip)
	{
		const struct probe_inst *in = *ip;
		const struct prog *pg = in->prog >= 0 ? s->plan.progs.data[in->prog] : NULL;
		LIBBPF_OPTS(bpf_test_run_opts, opts);

		if (in->prov->id != id || !pg || s->prog_fds[pg->index] < 0)
			continue;
		if (bpf_prog_test_run_opts(s->prog_fds[pg->index], &opts) < 0)
			fprintf(stderr, "ERROR: cannot run %s: %s\n", pg->name, strerror(errno));
	}
}

/* The script has begin and end probes only, and no command or process to wait for */
static bool only_special(const struct session *s)
{
	if (s->opts->r.cmd || s->opts->r.cmd_argv || s->opts->r.pid)
		return false;
	vec_foreach(&s->plan.insts, ip)
	{
		enum provider_id id = (*ip)->prov->id;
		/* test and bench probes run only under --test and --bench */
		if (id != PROV_BEGIN && id != PROV_END && id != PROV_TEST && id != PROV_BENCH)
			return false;
	}
	return true;
}

/* Events the ring buffer could not take since the last report, if any. */
static void report_lost(struct loop *l)
{
	struct session *s = l->s;
	uint64_t lost = maps_percpu_sum(&s->maps, s->plan.maps.lost);

	if (lost <= s->lost_reported)
		return;
	if (s->fe->lost) {
		s->fe->lost(s, lost - s->lost_reported);
	} else {
		sb_reset(&l->line);
		s->oc.writer->lost(&l->line, &s->oc, lost - s->lost_reported);
		fwrite(l->line.s, 1, l->line.len, s->out);
	}
	rt_out_flush(s);
	s->lost_reported = lost;
}

/* Updates refused because a map was full (BPFTRACE_MAP_KEYS_MAX), per map, on stderr */
static void report_full_maps(struct session *s)
{
	vec_foreach(&s->plan.maps.user, mp)
	{
		const struct map_info *m = *mp;
		uint64_t n;
		if (m->array || m->bpf_map < 0)
			continue;
		n = maps_percpu_sum_at(&s->maps, s->plan.maps.lost, 1 + (uint32_t)m->bpf_map);
		if (n)
			fprintf(stderr,
				"WARNING: Map full; can't update element: @%s refused %llu update%s. "
				"Try %s\n",
				m->name, (unsigned long long)n, n == 1 ? "" : "s",
				m->declared ? "declaring it with more entries, or an lruhash"
					    : "increasing BPFTRACE_MAP_KEYS_MAX");
	}
}

static bool has_self_probes(const struct session *s)
{
	vec_foreach(&s->plan.insts, ip) if ((*ip)->prov->id == PROV_SELF) return true;
	return false;
}

static void handle_signal(struct loop *l, int sfd)
{
	struct session *s = l->s;
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGUSR1) {
			/* self:signal:SIGUSR1 probes run; without any, the maps print (as 0.17) */
			if (has_self_probes(s))
				rt_run_special(s, PROV_SELF);
			else
				dump_now(l);
			continue;
		}
		if (si.ssi_signo != SIGCHLD) {
			s->done = true;
			s->signalled = true;
			continue;
		}
		if (s->cpid && !s->child_exited &&
		    waitpid(s->cpid, &s->child_status, WNOHANG) == s->cpid) {
			s->child_exited = true;
			s->done = !s->fe->finished; /* else the front end says when */
		}
	}
}

/*
 * The providers' work, whether their fds said so or not: a perf event
 * reports a wake-up to one poll only (epoll's registration may take it,
 * and a sample that came before the loop listened is not said again).
 */
static void watches_ready(struct session *s)
{
	vec_foreach(&s->attach.watches, w)
	{
		if (w->ready)
			w->ready(w->arg);
	}
}

int rt_loop(struct session *s)
{
	struct loop l = { .s = s };
	struct ringbuf ringbuf, *rb = &ringbuf;
	struct epoll_event ev, evs[4];
	sigset_t mask;
	int sfd, efd, pidfd = -1;

	session_signals(s->fe, &mask); /* blocked since session_run() began */
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	int rbfd = live_fd(&s->maps, s->plan.maps.ringbuf);
	bool rb_ok = sys_ringbuf_open(rb, rbfd, rt_on_record, &l) == 0;
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (sfd < 0 || !rb_ok || efd < 0) {
		fprintf(stderr, "ERROR: cannot set up the event loop: %s\n", strerror(errno));
		if (rb_ok)
			sys_ringbuf_close(rb);
		if (sfd >= 0)
			close(sfd);
		if (efd >= 0)
			close(efd);
		return -1;
	}
	ev.events = EPOLLIN;
	ev.data.u32 = 0;
	epoll_ctl(efd, EPOLL_CTL_ADD, rbfd, &ev); /* readable: the programs asked for a wake-up */
	ev.data.u32 = 1;
	epoll_ctl(efd, EPOLL_CTL_ADD, sfd, &ev);
	/* -p: the run ends when that process does (as bpftrace) */
	if (s->opts->r.pid && (pidfd = (int)syscall(SYS_pidfd_open, s->opts->r.pid, 0)) >= 0) {
		ev.data.u32 = 2;
		epoll_ctl(efd, EPOLL_CTL_ADD, pidfd, &ev);
	} else if (s->opts->r.pid && errno == ESRCH) {
		fprintf(stderr, "lantern: process %d exited\n", (int)s->opts->r.pid);
		s->done = true; /* it ended while the probes attached */
	}
	/* the providers' own work (watchpoint:FUNCTION+argN sets its breakpoint) */
	for (size_t i = 0; i < s->attach.watches.len; i++) {
		ev.data.u32 = 16 + (uint32_t)i;
		epoll_ctl(efd, EPOLL_CTL_ADD, s->attach.watches.data[i].fd, &ev);
	}

	watches_ready(s); /* what came while the probes attached (a watchpoint's uprobe) */
	attach_start(&s->attach); /* interval timers count from BEGIN on */
	bool more = consume(&l, rb);
	/* today's bpftrace ends a script of begin and end probes only after begin */
	if (s->plan.modern && only_special(s))
		s->done = true;
	rt_trace_pipe_read(&s->pipe, s, true); /* BEGIN's debugf() */
	rt_ustack_follow(s); /* before the command runs: its exec's mappings too */
	if (!s->done)
		rt_child_release(s);

	uint64_t last_check = util_now_ns(), last_maps = 0;
	while (!s->done) {
		/* printf records do not wake us (see gen_output): drain every DRAIN_MS */
		int n = epoll_wait(efd, evs, ARRAY_SIZE(evs), more ? 0 : DRAIN_MS);
		if (n < 0 && errno != EINTR)
			break;
		if (n == 0) {
			more = consume(&l, rb);
			watches_ready(s);
		}
		remember_mappings(s, &last_maps);
		rt_trace_pipe_read(&s->pipe, s, false);
		if (util_now_ns() - last_check >= LOST_CHECK_MS * 1000000ull) {
			/* events the ring buffer could not take, as they happen */
			report_lost(&l);
			rt_ustack_tick(s);
			last_check = util_now_ns();
		}
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u32 == 1)
				handle_signal(&l, sfd);
			else if (evs[i].data.u32 == 2)
				s->done = true;
			else if (evs[i].data.u32 >= 16)
				s->attach.watches.data[evs[i].data.u32 - 16].ready(
					s->attach.watches.data[evs[i].data.u32 - 16].arg);
			else
				more = consume(&l, rb);
		}
		if (s->fe->finished && (!s->cpid || s->child_exited) && s->fe->finished(s))
			s->done = true;
		if (util_out_state() != UTIL_OUT_OK)
			s->done = true; /* an output failed, or its reader is gone */
	}

	/* Stop the probes, finish what they sent, then END and the maps. */
	rt_detach_all(s);
	l.discard = l.exit_seen;
	l.skip_commands = s->signalled; /* Ctrl-C means now, not after every queued command */
	consume_all(&l, rb);
	l.discard = l.skip_commands = false;
	if (l.skipped)
		fprintf(stderr, "lantern: stopped by a signal: %llu queued system()/cat() call%s not run\n",
			(unsigned long long)l.skipped, l.skipped == 1 ? "" : "s");
	l.exit_seen = false;
	s->done = false;
	rt_run_special(s, PROV_END);
	consume_all(&l, rb);
	rt_trace_pipe_read(&s->pipe, s, true); /* what the last events printed */

	sb_reset(&l.line);
	rt_ustack_sync(s); /* the maps' stacks named with every mapping seen */
	s->fe->finish(s, &l.line);
	if (l.line.len)
		fwrite(l.line.s, 1, l.line.len, s->out);
	report_lost(&l);
	rt_out_flush(s);
	report_full_maps(s);
	rt_ustack_report(s);

	sb_free(&l.line);
	sb_free(&l.text);
	s->ring = *rb; /* unmapped with the rest, at the session's end */
	close(efd);
	close(sfd);
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}
