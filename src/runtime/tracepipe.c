// SPDX-License-Identifier: MIT
/*
 * The kernel's trace buffer holds every bpf_trace_printk() of the machine,
 * one line each ("  comm-pid [cpu] flags 1234.567890: bpf_trace_printk:
 * TEXT"), in time order: lantern prints the TEXT of each message newer
 * than the last it showed (other programs' messages too: the buffer does
 * not say whose they are). It reads the `trace` file, which leaves the
 * messages in the buffer (bpftrace's behaviour; `trace_pipe` would consume
 * them).
 */
#include "runtime/tracepipe.h"
#include "output/writer.h"
#include "runtime/session_impl.h"
#include "sys/tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRINTK_TAG ": bpf_trace_printk: "
#define READ_EVERY_NS 100000000ull

/* A message's line: its time in microseconds and where its text starts, or false */
static bool message(const char *line, size_t n, uint64_t *us, const char **text)
{
	const char *tag = memmem(line, n, PRINTK_TAG, strlen(PRINTK_TAG)), *p;
	unsigned long long sec = 0, frac = 0, scale = 1;

	if (!tag)
		return false;
	/* the timestamp ends at the tag: digits, '.', digits */
	for (p = tag; p > line && (p[-1] >= '0' && p[-1] <= '9'); p--)
		;
	for (const char *q = p; q < tag; q++) {
		frac = frac * 10 + (unsigned long long)(*q - '0');
		scale *= 10;
	}
	if (p == line || p[-1] != '.')
		return false;
	const char *dot = --p;
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	for (const char *q = p; q < dot; q++)
		sec = sec * 10 + (unsigned long long)(*q - '0');
	*us = sec * 1000000 + frac * 1000000 / scale;
	*text = tag + strlen(PRINTK_TAG);
	return true;
}

/*
 * Every message of the buffer, in order: shown (with out) when newer than
 * the last shown, and the newest noted either way.
 */
static void scan(struct trace_pipe *tp, struct session *s, struct strbuf *out)
{
	FILE *f = fopen(tp->path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint64_t us, same = 0, newest = tp->last_us;
	const char *text;
	struct strbuf t = { 0 };

	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (line[0] == '#' || !message(line, (size_t)n, &us, &text))
			continue;
		if (us < tp->last_us)
			continue;
		if (us == tp->last_us && same++ < tp->seen_at_last)
			continue; /* shown already */
		if (out) {
			sb_reset(&t);
			sb_puts(&t, text);
			sb_putc(&t, '\n');
			s->oc.writer->text(out, TEXT_PRINTF, t.s, t.len);
		}
		if (us > newest) {
			newest = us;
			tp->seen_at_last = 0;
		}
		tp->seen_at_last++;
	}
	tp->last_us = newest;
	free(line);
	sb_free(&t);
	fclose(f);
}

void rt_trace_pipe_open(struct trace_pipe *tp, struct session *s)
{
	char err[256];
	const char *root;

	memset(tp, 0, sizeof(*tp));
	if (!s->plan.uses_debugf)
		return;
	sys_debugfs_mount();
	if (!(root = sys_tracefs_path(err, sizeof(err)))) {
		fprintf(stderr, "WARNING: debugf() output is not shown: %s\n", err);
		return;
	}
	tp->path = util_xasprintf("%s/trace", root);
	FILE *f = fopen(tp->path, "re");
	if (!f) {
		fprintf(stderr, "WARNING: debugf() output is not shown: cannot read %s: %s\n", tp->path,
			strerror(errno));
		free(tp->path);
		tp->path = NULL;
		return;
	}
	fclose(f);
	/* what earlier runs left in the buffer is not this script's */
	scan(tp, s, NULL);
}

void rt_trace_pipe_read(struct trace_pipe *tp, struct session *s, bool force)
{
	struct strbuf out = { 0 };

	if (!tp->path || (!force && util_now_ns() < tp->next_read_ns))
		return;
	tp->next_read_ns = util_now_ns() + READ_EVERY_NS;
	scan(tp, s, &out);
	if (out.len) {
		fwrite(out.s, 1, out.len, s->out);
		rt_out_flush(s);
	}
	sb_free(&out);
}

void rt_trace_pipe_close(struct trace_pipe *tp)
{
	free(tp->path);
	tp->path = NULL;
}
