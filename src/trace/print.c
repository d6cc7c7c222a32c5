// SPDX-License-Identifier: MIT
/*
 * Records in, strace's lines out.
 *
 * As strace does, a call's line starts when the call does: its name and
 * the arguments known at entry are written, and the line stays open. The
 * call's exit finishes it (the arguments the kernel filled, the result).
 * When another task's event comes first, the open line ends with
 * " <unfinished ...>" and the exit later prints "<... read resumed>" and
 * the rest. Entries are kept back and printed whole at exit when the line
 * may not be printed at all (-Z, -z) or when a string could not be read
 * at entry (the exit program read it again).
 *
 * Besides the text, --json writes one object per call and --timeline a
 * Chrome trace of every call as a span on its thread's track.
 */
#include "base/outfile.h"
#include "trace/trace.h"
#include "base/util.h"
#include "output/json.h"
#include "plan/record.h"
#include "runtime/session.h"
#include "sys/syscalls.h"
#include "trace/decode.h"
#include "trace/printer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct trace_printer *trace_printer_new(const struct trace_opts *o, FILE *out, const struct trace_funcs *funcs)
{
	struct trace_printer *tp = util_xcalloc(1, sizeof(*tp));

	tp->o = o;
	tp->funcs = funcs;
	tp->main.f = out;
	tp->cap = 64;
	tp->tasks = util_xcalloc(tp->cap, sizeof(*tp->tasks));
	tp->prefix_always = o->output && o->follow && !o->follow_files;
	tp->real_off = (int64_t)(clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC));
	tp->timeline_first = true;
	if (o->paths)
		tp->fds = trace_fdpaths_new();
	return tp;
}

/* A task the printer has not seen yet counts as alive (the child, -p's). */
void trace_printer_add_task(struct trace_printer *tp, pid_t tid, pid_t pid)
{
	struct ttask *t = trace_task_find(tp, tid, true);

	t->pid = pid;
	tp->live++;
	if (tp->fds && tid == pid)
		trace_fdpaths_snapshot(tp->fds, pid); /* its descriptors before any traced call */
}

/* Where task t's lines go: its own file with -ff, else the one output. */
struct tout *trace_out_of(struct trace_printer *tp, struct ttask *t)
{
	char path[4096];

	if (!tp->o->follow_files)
		return &tp->main;
	if (!t->out) {
		t->out = util_xcalloc(1, sizeof(*t->out));
		snprintf(path, sizeof(path), "%s.%d", tp->o->output, t->tid);
		t->out->f = fopen(path, "we");
		t->out->path = util_xstrdup(path);
		if (!t->out->f) {
			fprintf(stderr, "lantern: cannot write %s: %s\n", path, strerror(errno));
			t->out->f = tp->main.f;
		}
	}
	return t->out;
}

void trace_flush_line(struct tout *to)
{
	fwrite(to->line.s, 1, to->line.len, to->f);
	sb_reset(&to->line);
}

/* The open line, if any, ends unfinished. */
void trace_close_open(struct tout *to)
{
	if (!to->open)
		return;
	sb_puts(&to->line, " <unfinished ...>\n");
	trace_flush_line(to);
	to->open = NULL;
}

/* The start of a line: the task, the time. */
void trace_leader(struct trace_printer *tp, struct tout *to, struct ttask *t, uint64_t ts)
{
	const struct trace_opts *o = tp->o;

	trace_close_open(to);
	if (o->all)
		sb_printf(&to->line, "[%.16s %d] ", t->comm, t->tid);
	else if (tp->prefix_always)
		sb_printf(&to->line, "%-5d ", t->tid);
	else if (tp->live > 1 && !o->follow_files && !o->output)
		sb_printf(&to->line, "[pid %5d] ", t->tid);
	if (o->relative) {
		uint64_t d = tp->last_ts && ts > tp->last_ts ? ts - tp->last_ts : 0;
		sb_printf(&to->line, "%6llu.%06llu ", (unsigned long long)(d / 1000000000),
			  (unsigned long long)(d % 1000000000 / 1000));
		tp->last_ts = ts;
	} else if (o->timestamps) {
		uint64_t real = ts + (uint64_t)tp->real_off;
		time_t sec = (time_t)(real / 1000000000);
		unsigned us = (unsigned)(real % 1000000000 / 1000);
		if (o->timestamps == 3) {
			sb_printf(&to->line, "%lld.%06u ", (long long)sec, us);
		} else {
			struct tm tm;
			localtime_r(&sec, &tm);
			sb_printf(&to->line, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
			if (o->timestamps == 2)
				sb_printf(&to->line, ".%06u", us);
			sb_putc(&to->line, ' ');
		}
	}
}

void trace_view_of(const struct sysdesc *d, const int64_t *a, struct cview *cv)
{
	cv->n = trace_sysdesc_view(d, a, cv->v);
	cv->split = 0;
	while (cv->split < cv->n && trace_kinds[cv->v[cv->split].kind].when != KW_EXIT)
		cv->split++;
}

/* The arguments' bytes in a record: in order, dlen[i] bytes each. */
static void record_vals(const struct trace_hdr *h, const uint8_t *data, size_t size, const int64_t *a,
			struct targ_val v[TRACE_NARGS])
{
	size_t off = 0, avail = size > sizeof(*h) ? size - sizeof(*h) : 0;

	for (int i = 0; i < TRACE_NARGS; i++) {
		uint16_t n = h->dlen[i];
		v[i] = (struct targ_val){ .v = a[i] };
		if (n == TRACE_UNREAD) {
			v[i].unread = true;
		} else if (n == TRACE_NOTREAD) {
			v[i].notread = true;
		} else if (n && off + n <= avail) {
			v[i].data = data + sizeof(*h) + off;
			v[i].len = n;
			off += n;
		}
	}
}

/* Arguments [from, to) of the view, each followed by ", " unless it is the last. */
void trace_put_items(struct strbuf *out, const struct cview *cv, int from, int to, const struct targ_val *v,
		     struct tdecode *dc)
{
	struct tw w;

	trace_tw_init(&w, out, false);
	dc->vals = v;
	for (int i = from; i < to && i < cv->n; i++) {
		const struct targ_view *it = &cv->v[i];
		if (it->label)
			sb_printf(out, "%s=", it->label);
		dc->at = it->arg;
		trace_decode_arg(&w, (enum targ)it->kind, &v[it->arg], dc);
		if (i + 1 < cv->n)
			sb_puts(out, ", ");
	}
}

/*
 * Each argument's value and bytes: the entry's, or the exit's for what
 * the call filled; a string the entry could not read, read again at exit
 */
void trace_merge_vals(const struct sysdesc *d, const struct targ_val *ev, const struct targ_val *xv,
		      struct targ_val *v)
{
	for (int i = 0; i < TRACE_NARGS; i++) {
		bool out = i < d->nargs && trace_kinds[d->arg[i]].when == KW_EXIT;
		v[i] = out && xv ? xv[i] : ev[i];
		if (!out && ev[i].unread && xv && xv[i].data)
			v[i] = xv[i];
	}
}

bool trace_failed(int64_t ret)
{
	return ret < 0 && ret >= -4095;
}

/* -Z, -z */
static bool status_shown(const struct trace_opts *o, int64_t ret, bool returns)
{
	if (o->status == 1)
		return returns && trace_failed(ret);
	if (o->status == 2)
		return !returns || !trace_failed(ret);
	return true;
}

void trace_pad_to_column(struct strbuf *line)
{
	size_t start = 0;

	/* the column of the line's last line: entries may hold newlines of their own? never: quoted */
	if (line->len - start < ACOLUMN)
		sb_pad(line, ' ', ACOLUMN - (line->len - start));
}


/*
 * The whole argument list, entry's and exit's, into out; *entry_end (if
 * given): where the arguments read at exit start, what a call killed in
 * it shows no more of (strace's "<unfinished ...>").
 */
static void all_args_split(struct strbuf *out, struct ttask *t, const struct sysdesc *d, const struct targ_val *ev,
			   const struct targ_val *xv, struct tdecode *dc, size_t *entry_end)
{
	struct targ_val v[TRACE_NARGS];
	struct cview cv;

	trace_view_of(d, t->a, &cv);
	trace_merge_vals(d, ev, xv, v);
	trace_put_items(out, &cv, 0, cv.split, v, dc);
	if (entry_end)
		*entry_end = out->len;
	trace_put_items(out, &cv, cv.split, cv.n, v, dc);
}

static void all_args(struct strbuf *out, struct ttask *t, const struct sysdesc *d, const struct targ_val *ev,
		     const struct targ_val *xv, struct tdecode *dc)
{
	all_args_split(out, t, d, ev, xv, dc, NULL);
}

static void on_enter(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size)
{
	const struct trace_opts *o = tp->o;
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);
	const struct sysdesc *d = trace_sysdesc_of((int)h->nr);
	struct targ_val v[TRACE_NARGS];
	struct tdecode dc = { o->strsize, o->hex, 0, false, h->a, (int)h->pid, o->paths, tp->fds, -1, 0, NULL };
	bool returns = d->ret != R_NONE;
	struct tout *to;
	struct cview cv;

	t->pid = (pid_t)h->pid;
	memcpy(t->comm, h->comm, sizeof(t->comm));
	t->nr = h->nr;
	memcpy(t->a, h->a, sizeof(t->a));
	t->ts = h->ts;
	t->in_call = true;
	t->deferred = o->status != 0 || o->json;
	record_vals(h, data, size, h->a, v);
	trace_view_of(d, h->a, &cv);
	for (int i = 0; i < cv.split; i++)
		if (v[cv.v[i].arg].unread && v[cv.v[i].arg].v) /* not in memory yet: the exit reads it again */
			t->deferred = true;
	sb_reset(&t->path);
	for (int i = 0; tp->fds && i < d->nargs; i++)
		if (d->arg[i] == A_PATH && v[i].data && !v[i].unread)
			sb_putn(&t->path, (const char *)v[i].data, strnlen((const char *)v[i].data, v[i].len));
	if (!returns) {
		/* exit_group: the line is whole now */
		t->in_call = false;
		if (!status_shown(o, 0, false))
			return;
		sb_reset(&tp->args);
		all_args(&tp->args, t, d, v, NULL, &dc);
		if (o->json) {
			trace_json_call(tp, t, d, v, v, &dc, 0, 0, false, h->ts);
			return;
		}
		to = trace_out_of(tp, t);
		trace_leader(tp, to, t, h->ts);
		sb_printf(&to->line, "%s(%s) ", d->name, sb_str(&tp->args));
		trace_pad_to_column(&to->line);
		sb_puts(&to->line, "= ?\n");
		trace_flush_line(to);
		trace_timeline_call(tp, t, d, &tp->args, 0, h->ts, 0, false);
		return;
	}
	if (t->deferred) {
		/* the entry's values are all the exit needs: keep the bytes too */
		sb_reset(&t->entry);
		sb_putn(&t->entry, (const char *)data, size);
		return;
	}
	to = trace_out_of(tp, t);
	trace_leader(tp, to, t, h->ts);
	sb_printf(&to->line, "%s(", d->name);
	trace_put_items(&to->line, &cv, 0, cv.split, v, &dc);
	to->open = t;
	to->open_call = false;
	if (tp->timeline) {
		sb_reset(&t->entry);
		sb_putn(&t->entry, (const char *)data, size);
	}
}

static void fd_apply(struct trace_printer *tp)
{
	if (!tp->fdnote.set)
		return;
	tp->fdnote.set = false;
	trace_fdpaths_after_call(tp->fds, tp->fdnote.pid, trace_printer_of(trace_sysdesc_of(tp->fdnote.nr))->fd,
				 tp->fdnote.a, tp->fdnote.ret, tp->fdnote.path);
	free(tp->fdnote.path);
	tp->fdnote.path = NULL;
}

/*
 * -y: what the call did to the descriptors. Now, so that the result of
 * open or dup shows its path; but close, dup2 and dup3 once the line is
 * written (fd_apply): their arguments are the descriptors as they were
 * (dup2's result shows its first argument's path).
 */
static void fd_note(struct trace_printer *tp, const struct trace_hdr *h, struct ttask *t,
		    const struct sysdesc *d, const struct targ_val *ev, const struct targ_val *xv,
		    int64_t ret, struct tdecode *dc)
{
	tp->fdnote.set = true;
	tp->fdnote.pid = (int)h->pid;
	tp->fdnote.nr = (int)h->nr;
	memcpy(tp->fdnote.a, t->a, sizeof(tp->fdnote.a));
	tp->fdnote.ret = ret;
	tp->fdnote.path = NULL;
	for (int i = 0; i < d->nargs && !tp->fdnote.path; i++) {
		if (d->arg[i] != A_PATH)
			continue;
		const struct targ_val *v = ev[i].data && !ev[i].unread ? &ev[i] : &xv[i];
		if (v->data && !v->unread)
			tp->fdnote.path = util_xstrndup((const char *)v->data, v->len);
		else if (t->path.len)
			tp->fdnote.path = util_xstrdup(t->path.s);
	}
	if (trace_printer_of(d)->ret_is_arg0)
		dc->ret_fd = (int)t->a[0];
	else if (trace_printer_of(d)->fd != FA_CLOSE)
		fd_apply(tp);
}

static void exit_line(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size)
{
	const struct trace_opts *o = tp->o;
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);
	const struct sysdesc *d = trace_sysdesc_of((int)h->nr);
	int64_t ret = h->ret;
	uint64_t dur = h->dur;
	bool known;

	t->stack_next = false;
	if (!(h->flags & TRACE_F_ENTERED)) {
		/* a quick call: the exit is the whole of it, printed whole */
		t->in_call = t->deferred = true;
		t->nr = h->nr;
		t->ts = h->ts - h->dur;
		t->pid = (pid_t)h->pid;
		sb_reset(&t->entry);
	}
	known = t->in_call && t->nr == h->nr;
	if (known)
		memcpy(t->a, h->a, sizeof(t->a));
	struct targ_val ev[TRACE_NARGS], xv[TRACE_NARGS], v[TRACE_NARGS];
	struct tdecode dc;
	struct tout *to;
	struct cview cv;

	memcpy(t->comm, h->comm, sizeof(t->comm));
	if (!known) /* the entry was lost, or came before the start: its values are unknown */
		memset(t->a, 0, sizeof(t->a));
	dc = (struct tdecode){ o->strsize, o->hex, ret, trace_failed(ret), t->a, (int)h->pid, o->paths, tp->fds, -1, 0, NULL };
	record_vals(h, data, size, t->a, xv);
	t->in_call = false;
	if (known && (t->deferred || tp->timeline) && t->entry.len >= sizeof(struct trace_hdr)) {
		record_vals((const struct trace_hdr *)t->entry.s, (const uint8_t *)t->entry.s, t->entry.len, t->a,
			    ev);
	} else {
		for (int i = 0; i < TRACE_NARGS; i++)
			ev[i] = (struct targ_val){ .v = t->a[i] };
	}
	if (tp->fds && known)
		fd_note(tp, h, t, d, ev, xv, ret, &dc);
	if (o->json) {
		if (known && status_shown(o, ret, true))
			trace_json_call(tp, t, d, ev, xv, &dc, ret, dur, true, t->ts);
		return;
	}
	if (tp->timeline && known) {
		sb_reset(&tp->args);
		all_args(&tp->args, t, d, ev, xv, &dc);
		trace_timeline_call(tp, t, d, &tp->args, ret, t->ts, dur, true);
	}
	if (!status_shown(o, ret, true))
		return;
	to = trace_out_of(tp, t);
	size_t entry_end;
	trace_view_of(d, t->a, &cv);
	trace_merge_vals(d, ev, xv, v);
	if (known && t->deferred) {
		trace_leader(tp, to, t, t->ts);
		sb_printf(&to->line, "%s(", d->name);
		all_args_split(&to->line, t, d, ev, xv, &dc, &entry_end);
	} else if (to->open == t && !to->open_call) {
		entry_end = to->line.len;
		trace_put_items(&to->line, &cv, cv.split, cv.n, v, &dc);
		to->open = NULL;
	} else {
		trace_leader(tp, to, t, h->ts);
		sb_printf(&to->line, "<... %s resumed>", d->name);
		entry_end = to->line.len;
		trace_put_items(&to->line, &cv, cv.split, cv.n, v, &dc);
	}
	sb_puts(&to->line, ") ");
	trace_pad_to_column(&to->line);
	size_t retpos = to->line.len;
	trace_decode_ret(&to->line, trace_ret_kind(d, t->a), ret, &dc);
	if (trace_printer_of(d)->after)
		trace_printer_of(d)->after(&to->line, xv, ret);
	if (o->durations)
		sb_printf(&to->line, " <%llu.%06llu>", (unsigned long long)(dur / 1000000000),
			  (unsigned long long)(dur % 1000000000 / 1000));
	sb_putc(&to->line, '\n');
	t->stack_next = true;
	if (ret <= -512 && ret >= -516) {
		/* interrupted: a fatal signal's "= ?" (strace never sees such a call return) or a restart */
		sb_reset(&t->held);
		sb_putn(&t->held, to->line.s, to->line.len);
		t->held_ret = retpos;
		/* strace: "<unfinished ...>" only where arguments were left for the exit */
		t->held_entry = cv.split < cv.n ? entry_end : SIZE_MAX;
		sb_reset(&to->line);
		return;
	}
	trace_flush_line(to);
}

/*
 * The line held back for t: as it was, or, when the task was killed in
 * the call, what its entry showed and "<unfinished ...>) = ?" (strace).
 */
static void release_held(struct trace_printer *tp, struct ttask *t, bool killed)
{
	struct tout *to = trace_out_of(tp, t);

	trace_close_open(to);
	if (killed && t->held_entry < t->held_ret) {
		sb_putn(&to->line, t->held.s, t->held_entry);
		sb_puts(&to->line, " <unfinished ...>) ");
		trace_pad_to_column(&to->line);
		sb_puts(&to->line, "= ?\n");
		trace_flush_line(to);
	} else if (killed) {
		fwrite(t->held.s, 1, t->held_ret, to->f);
		fputs("= ?\n", to->f);
	} else {
		fwrite(t->held.s, 1, t->held.len, to->f);
	}
	sb_reset(&t->held);
}

/* A line of its own: "--- SIGCHLD {...} ---", "+++ exited with 0 +++" */
static void event_line(struct trace_printer *tp, struct ttask *t, uint64_t ts, const char *text)
{
	struct tout *to = trace_out_of(tp, t);

	trace_leader(tp, to, t, ts);
	sb_puts(&to->line, text);
	sb_putc(&to->line, '\n');
	trace_flush_line(to);
}

/* The ignored signals held back while t was in a call */
static void held_signals(struct trace_printer *tp, struct ttask *t, uint64_t ts)
{
	char *p, *nl, *text;

	if (!t->signals.len)
		return;
	text = util_xstrdup(sb_str(&t->signals));
	sb_reset(&t->signals);
	for (p = text; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = 0;
		event_line(tp, t, ts, p);
	}
	free(text);
}

static void on_exit_rec(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);

	exit_line(tp, h, data, size);
	fd_apply(tp);
	held_signals(tp, t, h->ts);
}

static void on_signal(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);
	const char *name = trace_signal_name((int)h->nr);

	t->pid = (pid_t)h->pid;
	memcpy(t->comm, h->comm, sizeof(t->comm));
	sb_reset(&tp->tmp);
	if (name)
		sb_printf(&tp->tmp, "--- %s ", name);
	else
		sb_printf(&tp->tmp, "--- %u ", h->nr);
	if (size >= sizeof(*h) + 48 && h->dlen[0] == 48) {
		struct tw w;
		trace_tw_init(&w, &tp->tmp, false);
		trace_tw_siginfo(&w, data + sizeof(*h), 48);
	}
	else if (name) /* SEND_SIG_NOINFO, SEND_SIG_PRIV */
		sb_printf(&tp->tmp, "{si_signo=%s, si_code=%s}", name, h->a[0] ? "SI_KERNEL" : "SI_USER");
	else
		sb_printf(&tp->tmp, "{si_signo=%u, si_code=%s}", h->nr, h->a[0] ? "SI_KERNEL" : "SI_USER");
	sb_puts(&tp->tmp, " ---");
	if (h->a[1] && t->in_call && !tp->o->json) {
		/* ignored, so dropped when sent: strace sees it once the call returns */
		sb_printf(&t->signals, "%s\n", sb_str(&tp->tmp));
		return;
	}
	if (tp->o->json) {
		char *text = util_xstrdup(sb_str(&tp->tmp) + 4);
		text[strlen(text) - 4] = 0;
		trace_json_event(tp, t, h->ts, "signal", text, true);
		free(text);
		return;
	}
	char *line = util_xstrdup(sb_str(&tp->tmp));
	event_line(tp, t, h->ts, line);
	free(line);
	t->stack_next = true;
}

static void on_fork(struct trace_printer *tp, const struct trace_hdr *h)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);

	/* a new task (its id may be an old one's): nothing of the old one carries over */
	t->pid = (pid_t)h->pid;
	if (tp->fds && h->tid == h->pid) {
		/* a new process: its parent's descriptors (a[0]: the forking thread) */
		struct ttask *parent = trace_task_find(tp, (pid_t)h->a[0], false);
		trace_fdpaths_fork(tp->fds, parent ? parent->pid : (int)h->a[0], (int)h->pid);
	}
	t->in_call = t->deferred = t->gone = t->stack_next = false;
	sb_reset(&t->stack);
	sb_reset(&t->entry);
	sb_reset(&t->signals);
	sb_reset(&t->held);
	tp->live++;
	if (!tp->o->quiet && !tp->o->json && !tp->o->all) {
		if (tp->main.f == stderr)
			trace_close_open(&tp->main); /* the message goes where the open line is */
		fprintf(stderr, "lantern: Process %d attached\n", (int)h->tid);
	}
}

static void on_exited(struct trace_printer *tp, const struct trace_hdr *h)
{
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, true);
	int code = (int)h->a[0];
	char text[96];

	if (tp->fds && h->tid == h->pid)
		trace_fdpaths_drop(tp->fds, (int)h->pid); /* the process is gone */
	t->pid = (pid_t)h->pid;
	memcpy(t->comm, h->comm, sizeof(t->comm));
	if (t->in_call) {
		/* a call that never returned (the task was killed in it) */
		const struct sysdesc *d = trace_sysdesc_of((int)t->nr);
		struct tout *to = trace_out_of(tp, t);
		bool open = to->open == t && !to->open_call;
		if (!tp->o->json && (open || !t->deferred)) {
			if (!open) {
				trace_leader(tp, to, t, h->ts);
				sb_printf(&to->line, "<... %s resumed>", d->name);
			}
			sb_puts(&to->line, ") ");
			trace_pad_to_column(&to->line);
			sb_puts(&to->line, "= ?\n");
			trace_flush_line(to);
			to->open = NULL;
		}
		t->in_call = false;
	}
	held_signals(tp, t, h->ts);
	if ((code & 0x7f) == 0)
		snprintf(text, sizeof(text), "+++ exited with %d +++", (code >> 8) & 0xff);
	else
		snprintf(text, sizeof(text), "+++ killed by %s%s +++",
			 trace_signal_name(code & 0x7f) ? trace_signal_name(code & 0x7f) : "?",
			 code & 0x80 ? " (core dumped)" : "");
	if (tp->o->json) {
		if ((code & 0x7f) == 0) {
			snprintf(text, sizeof(text), "%d", (code >> 8) & 0xff);
			trace_json_event(tp, t, h->ts, "exited", text, false);
		} else {
			trace_json_event(tp, t, h->ts, "killed",
				   trace_signal_name(code & 0x7f) ? trace_signal_name(code & 0x7f) : "?", true);
		}
	} else if (tp->o->qq < 2 || (tp->o->qq < 3 && (code & 0x7f))) {
		/* -qq: no "exited with"; -qqq: no "killed by" either */
		event_line(tp, t, h->ts, text);
	}
	trace_stack_pending(tp, t);
	t->gone = true;
	if (tp->live > 0)
		tp->live--;
	if (t->out && t->out->f != tp->main.f) {
		util_out_close(t->out->f, t->out->path);
		free(t->out->path);
		sb_free(&t->out->line);
		free(t->out);
		t->out = NULL;
	}
	if (!tp->timeline) {
		trace_task_forget(tp, t);
		return;
	}
	/* the slot stays (--timeline names it at the end); its buffers go */
	sb_free(&t->entry);
	sb_free(&t->signals);
	sb_free(&t->held);
	sb_free(&t->stack);
}

void trace_record(void *printer, const struct record_desc *r, const void *data, size_t size)
{
	struct trace_printer *tp = printer;
	const struct trace_hdr *h = data;

	if (size < sizeof(*h))
		return;
	struct ttask *t = trace_task_find(tp, (pid_t)h->tid, false);
	if (t && t->held.len && r->top != TREC_STACK)
		release_held(tp, t, r->top == TREC_EXITED && (h->a[0] & 0x7f));
	switch ((enum trace_rec)r->top) {
	case TREC_ENTER:
		on_enter(tp, h, data, size);
		break;
	case TREC_EXIT:
		on_exit_rec(tp, h, data, size);
		break;
	case TREC_FORK:
		on_fork(tp, h);
		break;
	case TREC_EXITED:
		on_exited(tp, h);
		break;
	case TREC_SIGNAL:
		on_signal(tp, h, data, size);
		break;
	case TREC_CALL:
		trace_on_libcall(tp, h);
		break;
	case TREC_RETURN:
		trace_on_libreturn(tp, h);
		break;
	case TREC_STACK:
		trace_on_stack(tp, h, data, size);
		break;
	default:
		break;
	}
}

/* "... 12 events lost ..." where they were lost */
void trace_printer_lost(struct trace_printer *tp, uint64_t n)
{
	trace_close_open(&tp->main);
	if (tp->o->json)
		fprintf(tp->main.f, "{\"lost\": %llu}\n", (unsigned long long)n);
	else
		fprintf(tp->main.f, "... %llu events lost ...\n", (unsigned long long)n);
}

/* The calls still running when tracing stopped (-p's Ctrl-C), the lines held */
static void unfinished_at_end(struct trace_printer *tp)
{
	trace_close_open(&tp->main);
	for (size_t i = 0; i < tp->cap; i++) {
		struct ttask *t = &tp->tasks[i];
		if (t->used && t->held.len)
			release_held(tp, t, false);
		if (t->used && t->out)
			trace_close_open(t->out);
	}
}

void trace_printer_finish(struct trace_printer *tp, struct session *s)
{
	unfinished_at_end(tp);
	trace_timeline_end(tp);
}

void trace_printer_free(struct trace_printer *tp)
{
	if (!tp)
		return;
	if (tp->timeline)
		trace_timeline_end(tp);
	trace_stacks_free(tp);
	for (size_t i = 0; i < tp->cap; i++) {
		struct ttask *t = &tp->tasks[i];
		if (!t->used)
			continue;
		sb_free(&t->entry);
		sb_free(&t->signals);
		sb_free(&t->held);
		sb_free(&t->stack);
		sb_free(&t->path);
		free(t->calls);
		if (t->out) {
			if (t->out->f != tp->main.f)
				util_out_close(t->out->f, t->out->path);
			free(t->out->path);
			sb_free(&t->out->line);
			free(t->out);
		}
	}
	free(tp->tasks);
	trace_fdpaths_free(tp->fds);
	free(tp->fdnote.path);
	sb_free(&tp->main.line);
	sb_free(&tp->tmp);
	sb_free(&tp->args);
	free(tp);
}
