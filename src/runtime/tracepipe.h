/* SPDX-License-Identifier: MIT */
/*
 * debugf(): its text goes through bpf_trace_printk to the kernel's trace
 * buffer. lantern leaves the messages there, as bpftrace does (tests and
 * users read /sys/kernel/tracing/trace afterwards), and shows each new one
 * where printf() output goes, reading the buffer without consuming it
 * (tracepipe.c).
 */
#ifndef LANTERN_RUNTIME_TRACEPIPE_H
#define LANTERN_RUNTIME_TRACEPIPE_H

#include <stdbool.h>
#include <stdint.h>

struct session;

struct trace_pipe {
	char *path;		/* the trace file; NULL: debugf() not used, or not readable */
	uint64_t last_us;	/* the newest message's timestamp shown (or there at the start) */
	uint64_t seen_at_last;	/* how many messages of that microsecond were */
	uint64_t next_read_ns;	/* util_now_ns() of the next look */
};

/* Note where the buffer stands, if the plan calls debugf() (a warning says why not). */
void rt_trace_pipe_open(struct trace_pipe *tp, struct session *s);
/*
 * The messages newer than the last shown, through the session's writer:
 * every 100 ms, or now with force (after BEGIN, at the end).
 */
void rt_trace_pipe_read(struct trace_pipe *tp, struct session *s, bool force);
void rt_trace_pipe_close(struct trace_pipe *tp);

#endif
