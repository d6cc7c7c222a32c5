/* SPDX-License-Identifier: MIT */
/*
 * debugf(): its text goes through bpf_trace_printk to the kernel's trace
 * pipe; lantern reads the pipe while the script runs and prints each
 * message where printf() output goes (tracepipe.c).
 */
#ifndef LANTERN_RUNTIME_TRACEPIPE_H
#define LANTERN_RUNTIME_TRACEPIPE_H

#include "base/strbuf.h"

struct session;

struct trace_pipe {
	int fd; /* -1: not open */
	struct strbuf partial; /* a line not ended yet */
};

/* Open the trace pipe if the plan calls debugf(); fd -1 otherwise (a warning says why). */
void rt_trace_pipe_open(struct trace_pipe *tp, struct session *s);
/* The messages waiting: each bpf_trace_printk line's text, through the session's writer. */
void rt_trace_pipe_read(struct trace_pipe *tp, struct session *s);
void rt_trace_pipe_close(struct trace_pipe *tp);

#endif
