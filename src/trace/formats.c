// SPDX-License-Identifier: MIT
/*
 * lantern trace's formats for machines: --json (one object per call,
 * signal or exit, a line each) and --timeline (a Chrome trace / Perfetto
 * JSON file: a span per call on its thread's track, named by comm).
 */
#include "base/outfile.h"
#include "trace/printer.h"
#include "base/util.h"
#include "output/json.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void trace_json_event(struct trace_printer *tp, struct ttask *t, uint64_t ts, const char *key,
		       const char *val, bool quoted)
{
	struct strbuf *b = &tp->tmp;

	sb_reset(b);
	sb_printf(b, "{\"time\": %.6f, \"pid\": %d, \"tid\": %d, \"%s\": ",
		  (double)(ts + (uint64_t)tp->real_off) / 1e9, t->pid, t->tid, key);
	if (quoted)
		out_json_string(b, val, strlen(val));
	else
		sb_puts(b, val);
	sb_puts(b, "}\n");
	fwrite(b->s, 1, b->len, tp->main.f);
}

/*
 * --json: {"time" (the call's start), "pid", "tid", "syscall", "args":
 * [{"name", "type", "value", "text"}, ...], "return", "error", "duration"}:
 * each argument shown, its name (the tracepoint's field, or what strace
 * calls it), its kind, its value as JSON and strace's text of it
 * (doc/lantern.8 has the schema)
 */
void trace_json_call(struct trace_printer *tp, struct ttask *t, const struct sysdesc *d,
		      const struct targ_val *ev, const struct targ_val *xv, struct tdecode *dc, int64_t ret,
		      uint64_t dur, bool returns, uint64_t ts)
{
	struct strbuf *b = &tp->tmp, *a = &tp->args;
	struct targ_val v[TRACE_NARGS];
	struct cview cv;
	struct tw w;

	sb_reset(b);
	sb_printf(b, "{\"time\": %.6f, \"pid\": %d, \"tid\": %d, \"syscall\": ",
		  (double)(ts + (uint64_t)tp->real_off) / 1e9, t->pid, t->tid);
	out_json_string(b, d->name, strlen(d->name));
	sb_puts(b, ", \"args\": [");
	trace_view_of(d, t->a, &cv);
	trace_merge_vals(d, ev, xv, v);
	dc->vals = v;
	for (int i = 0; i < cv.n; i++) {
		const struct targ_view *it = &cv.v[i];
		const char *name = it->label ? it->label : trace_sysdesc_argname((int)t->nr, it->arg);
		const char *kind = trace_kinds[it->kind].name;
		sb_puts(b, i ? ", {\"name\": " : "{\"name\": ");
		out_json_string(b, name, strlen(name));
		sb_puts(b, ", \"type\": ");
		out_json_string(b, kind, strlen(kind));
		sb_puts(b, ", \"value\": ");
		dc->at = it->arg;
		trace_tw_init(&w, b, true);
		trace_decode_arg(&w, (enum targ)it->kind, &v[it->arg], dc);
		sb_puts(b, ", \"text\": ");
		sb_reset(a);
		trace_tw_init(&w, a, false);
		trace_decode_arg(&w, (enum targ)it->kind, &v[it->arg], dc);
		out_json_string(b, a->s ? a->s : "", a->len);
		sb_putc(b, '}');
	}
	sb_puts(b, "], \"return\": ");
	if (!returns) {
		sb_puts(b, "null");
	} else if (trace_failed(ret)) {
		const char *e = trace_errno_name((int)-ret);
		sb_puts(b, "-1, \"error\": ");
		if (e)
			out_json_string(b, e, strlen(e));
		else
			sb_printf(b, "%lld", (long long)-ret);
	} else {
		sb_printf(b, "%lld", (long long)ret);
	}
	if (returns)
		sb_printf(b, ", \"duration\": %.9f", (double)dur / 1e9);
	sb_puts(b, "}\n");
	fwrite(b->s, 1, b->len, tp->main.f);
}

/* --timeline: a Chrome trace event per call ("ph": "X", microseconds) */
void trace_timeline_call(struct trace_printer *tp, struct ttask *t, const struct sysdesc *d,
			  const struct strbuf *args, int64_t ret, uint64_t ts, uint64_t dur, bool returns)
{
	struct strbuf b = { 0 }, r = { 0 };
	struct tdecode dc = { .ret_fd = -1 };

	if (!tp->timeline)
		return;
	if (returns)
		trace_decode_ret(&r, d->ret, ret, &dc);
	sb_printf(&b, "%s{\"name\": ", tp->timeline_first ? "" : ",\n");
	out_json_string(&b, d->name, strlen(d->name));
	sb_printf(&b, ", \"cat\": \"syscall\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %d, \"tid\": %d, "
		      "\"args\": {\"args\": ",
		  (double)ts / 1e3, (double)dur / 1e3, t->pid, t->tid);
	out_json_string(&b, args->s ? args->s : "", args->len);
	sb_puts(&b, ", \"result\": ");
	out_json_string(&b, r.len > 2 ? r.s + 2 : "?", r.len > 2 ? r.len - 2 : 1);
	sb_puts(&b, "}}");
	fwrite(b.s, 1, b.len, tp->timeline);
	tp->timeline_first = false;
	sb_free(&b);
	sb_free(&r);
}

int trace_printer_timeline(struct trace_printer *tp, const char *path)
{
	tp->timeline = fopen(path, "we");
	if (!tp->timeline) {
		fprintf(stderr, "lantern: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	tp->timeline_path = util_xstrdup(path);
	fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", tp->timeline);
	return 0;
}

/* The timeline's end: a name per thread (its comm), per process */
void trace_timeline_end(struct trace_printer *tp)
{
	struct strbuf b = { 0 };

	if (!tp->timeline)
		return;
	for (size_t i = 0; i < tp->cap; i++) {
		struct ttask *t = &tp->tasks[i];
		char name[16];
		if (!t->used)
			continue;
		memcpy(name, t->comm, sizeof(name));
		name[15] = 0;
		if (!name[0])
			snprintf(name, sizeof(name), "%d", t->tid);
		sb_reset(&b);
		sb_printf(&b, "%s{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": ",
			  tp->timeline_first ? "" : ",\n", t->pid, t->tid);
		out_json_string(&b, name, strlen(name));
		sb_puts(&b, "}}");
		fwrite(b.s, 1, b.len, tp->timeline);
		tp->timeline_first = false;
	}
	fputs("\n]}\n", tp->timeline);
	util_out_close(tp->timeline, tp->timeline_path);
	free(tp->timeline_path);
	tp->timeline_path = NULL;
	tp->timeline = NULL;
	sb_free(&b);
}

