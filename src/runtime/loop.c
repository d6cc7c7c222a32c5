// SPDX-License-Identifier: MIT
/*
 * Running: BEGIN, the event loop (ring buffer records, signals, the -c
 * child), then stop, END and the maps.
 *
 * The loop waits on one epoll set holding the ring buffer's epoll fd and a
 * signalfd for SIGINT, SIGTERM, SIGHUP and SIGCHLD, which stay blocked for
 * the whole session so that teardown always runs.
 */
#include "runtime/loop.h"
#include "maps/mapread.h"
#include "output/writer.h"
#include "runtime/child.h"
#include "runtime/load.h"
#include "runtime/records.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOST_CHECK_MS 200
#define DRAIN_MS 10

static void consume(struct loop *l, struct ring_buffer *rb)
{
	ring_buffer__consume(rb);
	fflush(l->s->out);
}

/* BEGIN and END: run once by user space */
static void run_special(struct session *s, enum provider_id id)
{
	const struct prog *pg = plan_prog_of(&s->plan, id);
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (pg && s->prog_fds[pg->index] >= 0 &&
	    bpf_prog_test_run_opts(s->prog_fds[pg->index], &opts) < 0)
		fprintf(stderr, "lantern: cannot run %s: %s\n", pg->name, strerror(errno));
}

/* Events the ring buffer could not take since the last report, if any. */
static void report_lost(struct loop *l)
{
	struct session *s = l->s;
	uint64_t lost = map_percpu_sum(&s->maps, s->plan.maps.lost);

	if (lost <= s->lost_reported)
		return;
	if (s->fe->lost) {
		s->fe->lost(s, lost - s->lost_reported);
	} else {
		sb_reset(&l->line);
		s->oc.writer->lost(&l->line, lost - s->lost_reported);
		fwrite(l->line.s, 1, l->line.len, s->out);
	}
	fflush(s->out);
	s->lost_reported = lost;
}

static void handle_signal(struct session *s, int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD) {
			s->done = true;
			continue;
		}
		if (s->cpid && !s->child_exited &&
		    waitpid(s->cpid, &s->child_status, WNOHANG) == s->cpid) {
			s->child_exited = true;
			s->done = !s->fe->finished; /* else the front end says when */
		}
	}
}

int run_loop(struct session *s)
{
	struct loop l = { .s = s };
	struct ring_buffer *rb;
	struct epoll_event ev, evs[4];
	sigset_t mask;
	int sfd, efd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	rb = ring_buffer__new(live_fd(&s->maps, s->plan.maps.ringbuf), on_record, &l, NULL);
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (sfd < 0 || !rb || efd < 0) {
		fprintf(stderr, "lantern: cannot set up the event loop: %s\n", strerror(errno));
		ring_buffer__free(rb);
		if (sfd >= 0)
			close(sfd);
		if (efd >= 0)
			close(efd);
		return -1;
	}
	ev.events = EPOLLIN;
	ev.data.u32 = 0;
	epoll_ctl(efd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(rb), &ev);
	ev.data.u32 = 1;
	epoll_ctl(efd, EPOLL_CTL_ADD, sfd, &ev);

	run_special(s, PROV_BEGIN);
	consume(&l, rb);
	if (!s->done)
		child_release(s);

	uint64_t last_check = now_ns();
	while (!s->done) {
		/* printf records do not wake us (see gen_output): drain every DRAIN_MS */
		int n = epoll_wait(efd, evs, ARRAY_SIZE(evs), DRAIN_MS);
		if (n < 0 && errno != EINTR)
			break;
		if (n == 0)
			consume(&l, rb);
		if (now_ns() - last_check >= LOST_CHECK_MS * 1000000ull) {
			/* events the ring buffer could not take, as they happen */
			report_lost(&l);
			last_check = now_ns();
		}
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u32 == 1)
				handle_signal(s, sfd);
			else
				consume(&l, rb);
		}
		if (s->fe->finished && (!s->cpid || s->child_exited) && s->fe->finished(s))
			s->done = true;
	}

	/* Stop the probes, finish what they sent, then END and the maps. */
	detach_all(s);
	l.discard = l.exit_seen;
	consume(&l, rb);
	l.discard = false;
	s->done = false;
	run_special(s, PROV_END);
	consume(&l, rb);

	sb_reset(&l.line);
	s->fe->finish(s, &l.line);
	if (l.line.len)
		fwrite(l.line.s, 1, l.line.len, s->out);
	report_lost(&l);
	fflush(s->out);

	sb_free(&l.line);
	sb_free(&l.text);
	ring_buffer__free(rb);
	close(efd);
	close(sfd);
	return 0;
}
