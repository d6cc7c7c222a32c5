// SPDX-License-Identifier: MIT
/*
 * The trace pipe holds every bpf_trace_printk() of the machine, one line
 * each ("  comm-pid [cpu] flags ts: bpf_trace_printk: TEXT"): lantern
 * prints the TEXT of each (other programs' messages too: the pipe does not
 * say whose they are). Reading consumes them, as `bpftool prog tracelog` does.
 */
#include "runtime/tracepipe.h"
#include "output/writer.h"
#include "runtime/session.h"
#include "sys/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PRINTK_TAG "bpf_trace_printk: "

void rt_trace_pipe_open(struct trace_pipe *tp, struct session *s)
{
	char err[256], path[4096];
	const char *root;

	tp->fd = -1;
	if (!s->plan.uses_debugf)
		return;
	if (!(root = sys_tracefs_path(err, sizeof(err)))) {
		fprintf(stderr, "WARNING: debugf() output is not shown: %s\n", err);
		return;
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", root);
	tp->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (tp->fd < 0) {
		fprintf(stderr, "WARNING: debugf() output is not shown: cannot read %s: %s\n", path,
			strerror(errno));
		return;
	}
	/* what earlier runs left in it is not this script's */
	char buf[8192];
	while (read(tp->fd, buf, sizeof(buf)) > 0)
		;
}

/* One whole line of the pipe: its message, if it is a bpf_trace_printk's. */
static void one_line(struct session *s, const char *line, size_t n, struct strbuf *out,
		     struct strbuf *text)
{
	const char *tag = memmem(line, n, PRINTK_TAG, strlen(PRINTK_TAG));

	if (!tag)
		return;
	tag += strlen(PRINTK_TAG);
	sb_reset(text);
	sb_putn(text, tag, (size_t)(line + n - tag));
	sb_putc(text, '\n');
	s->oc.writer->text(out, TEXT_PRINTF, text->s, text->len);
}

void rt_trace_pipe_read(struct trace_pipe *tp, struct session *s)
{
	char buf[8192];
	struct strbuf out = { 0 }, text = { 0 };
	ssize_t n;

	if (tp->fd < 0)
		return;
	while ((n = read(tp->fd, buf, sizeof(buf))) > 0) {
		sb_putn(&tp->partial, buf, (size_t)n);
		size_t start = 0;
		for (size_t i = 0; i < tp->partial.len; i++) {
			if (tp->partial.s[i] != '\n')
				continue;
			one_line(s, tp->partial.s + start, i - start, &out, &text);
			start = i + 1;
		}
		/* keep what is left of an unfinished line */
		memmove(tp->partial.s, tp->partial.s + start, tp->partial.len - start);
		sb_truncate(&tp->partial, tp->partial.len - start);
	}
	if (out.len) {
		fwrite(out.s, 1, out.len, s->out);
		rt_out_flush(s);
	}
	sb_free(&out);
	sb_free(&text);
}

void rt_trace_pipe_close(struct trace_pipe *tp)
{
	if (tp->fd >= 0)
		close(tp->fd);
	tp->fd = -1;
	sb_free(&tp->partial);
}
