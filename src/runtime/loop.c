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
#include "output/mapprint.h"
#include "output/printf.h"
#include "output/timefmt.h"
#include "output/writer.h"
#include "probes/provider.h"
#include "runtime/child.h"
#include "runtime/load.h"

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

enum fmt_arg_kind fmt_kind_of(const struct type *t);

#define LOST_CHECK_MS 200
#define DRAIN_MS 10

struct loop {
	struct session *s;
	struct strbuf line; /* what one record prints, through the writer */
	struct strbuf text; /* printf() or time() text before the writer has it */
	bool discard; /* drop records: those that follow exit() */
	bool exit_seen;
};

static void render_printf(struct loop *l, struct record_desc *r, const uint8_t *data)
{
	struct session *s = l->s;
	struct fmt_value vals[64] = { 0 };
	struct strbuf tmp[64];
	uint32_t n = r->args->nfields;

	for (uint32_t i = 0; i < n; i++) {
		const struct field *f = &r->args->fields[i];
		const uint8_t *p = data + 8 + f->offset;
		struct type *t = f->type;
		uint64_t u;
		memset(&tmp[i], 0, sizeof(tmp[i]));
		vals[i].kind = fmt_kind_of(t);
		switch (t->kind) {
		case TY_INT:
		case TY_PTR:
			memcpy(&u, p, 8);
			vals[i].u = u;
			break;
		case TY_STR:
			vals[i].s.p = (const char *)p;
			vals[i].s.len = t->size;
			break;
		case TY_STACK:
			stack_format(s, &tmp[i], t, p, "        ");
			vals[i].s.p = sb_str(&tmp[i]);
			vals[i].s.len = tmp[i].len;
			break;
		default:
			/* probe names, tuples: their text */
			value_format(s, &tmp[i], t, p);
			vals[i].kind = FMT_ARG_STR;
			vals[i].s.p = sb_str(&tmp[i]);
			vals[i].s.len = tmp[i].len;
			break;
		}
	}
	printf_render(&l->text, r->fmt, vals);
	for (uint32_t i = 0; i < n; i++)
		sb_free(&tmp[i]);
}

static void copy_stream(FILE *in, FILE *out)
{
	char buf[4096];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
}

/* system(): the command's output joins lantern's, in order */
static void run_command(struct session *s, const char *cmd)
{
	FILE *p = popen(cmd, "r");

	if (!p) {
		fprintf(stderr, "lantern: system(\"%s\"): %s\n", cmd, strerror(errno));
		return;
	}
	copy_stream(p, s->out);
	pclose(p);
}

/* cat(): the file's contents */
static void cat_file(struct session *s, const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "lantern: cat: cannot open %s: %s\n", path, strerror(errno));
		return;
	}
	copy_stream(f, s->out);
	fclose(f);
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct loop *l = ctx;
	struct session *s = l->s;
	uint64_t id;

	if (l->discard || size < 8)
		return 0;
	memcpy(&id, data, 8);
	if (id >= s->records.len)
		return 0;
	struct record_desc *r = s->records.data[id];
	if (size < r->size)
		return 0;
	sb_reset(&l->line);
	sb_reset(&l->text);
	switch (r->kind) {
	case REC_PRINTF:
		render_printf(l, r, data);
		s->writer->text(&l->line, TEXT_PRINTF, sb_str(&l->text), l->text.len);
		break;
	case REC_EXIT:
		l->exit_seen = true;
		s->done = true;
		return -1; /* stop here: what follows exit() is not printed */
	case REC_PRINT_MAP:
		map_print(s, r->map, r->top, r->div, &l->line);
		break;
	case REC_CLEAR_MAP:
		map_clear(s, r->map);
		break;
	case REC_ZERO_MAP:
		map_zero(s, r->map);
		break;
	case REC_JOIN: {
		uint64_t n;
		memcpy(&n, (const char *)data + 8, 8);
		for (uint64_t i = 0; i < n && i < JOIN_MAX_ARGS; i++) {
			const char *str = (const char *)data + 16 + i * JOIN_ARG_SIZE;
			if (i)
				sb_puts(&l->text, r->text);
			sb_putn(&l->text, str, strnlen(str, JOIN_ARG_SIZE));
		}
		s->writer->text(&l->line, TEXT_JOIN, sb_str(&l->text), l->text.len);
		break;
	}
	case REC_SYSTEM:
	case REC_CAT:
		render_printf(l, r, data);
		fflush(s->out);
		if (r->kind == REC_SYSTEM)
			run_command(s, sb_str(&l->text));
		else
			cat_file(s, sb_str(&l->text));
		break;
	case REC_TIME:
		if (timefmt_time(&l->text, r->text, time(NULL)))
			s->writer->text(&l->line, TEXT_TIME, sb_str(&l->text), l->text.len);
		else
			fprintf(stderr, "%s\n", TIMEFMT_ERROR);
		break;
	}
	if (l->line.len)
		fwrite(l->line.s, 1, l->line.len, s->out);
	return 0;
}

static void consume(struct loop *l, struct ring_buffer *rb)
{
	ring_buffer__consume(rb);
	fflush(l->s->out);
}

static struct prog_desc *special_prog(struct session *s, enum provider_id id)
{
	vec_foreach(&s->insts, ip)
	{
		if ((*ip)->prov->id == id && (*ip)->prog >= 0)
			return s->progs.data[(*ip)->prog];
	}
	return NULL;
}

static void run_special(struct session *s, enum provider_id id)
{
	struct prog_desc *pd = special_prog(s, id);
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (pd && pd->fd >= 0 && bpf_prog_test_run_opts(pd->fd, &opts) < 0)
		fprintf(stderr, "lantern: cannot run %s: %s\n", pd->name, strerror(errno));
}

static uint64_t lost_events(struct session *s)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *v, total = 0;
	uint32_t key = 0;

	if (ncpu <= 0)
		return 0;
	v = xcalloc(ncpu, sizeof(uint64_t));
	if (bpf_map_lookup_elem(s->bpf_maps.data[s->lost_map].fd, &key, v) == 0)
		for (int i = 0; i < ncpu; i++)
			total += v[i];
	free(v);
	return total;
}

/* Events the ring buffer could not take since the last report, if any. */
static void report_lost(struct loop *l)
{
	struct session *s = l->s;
	uint64_t lost = lost_events(s);

	if (lost <= s->lost_reported)
		return;
	sb_reset(&l->line);
	s->writer->lost(&l->line, lost - s->lost_reported);
	fwrite(l->line.s, 1, l->line.len, s->out);
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
			s->done = true;
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
	rb = ring_buffer__new(s->bpf_maps.data[s->ringbuf_map].fd, on_record, &l, NULL);
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
	}

	/* Stop the probes, finish what they sent, then END and the maps. */
	detach_all(s);
	l.discard = l.exit_seen;
	consume(&l, rb);
	l.discard = false;
	s->done = false;
	run_special(s, PROV_END);
	consume(&l, rb);

	/* two blank lines, on stdout even with -o, and in JSON too (as 0.17) */
	fflush(s->out);
	fputs("\n\n", stdout);
	fflush(stdout);
	sb_reset(&l.line);
	maps_print_all(s, &l.line);
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
