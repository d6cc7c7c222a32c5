/* SPDX-License-Identifier: MIT */
/*
 * The session's state: runtime/'s own (front ends see runtime/session.h
 * only; tests/layers.sh checks that no file outside src/runtime includes
 * this one).
 */
#ifndef LANTERN_RUNTIME_SESSION_IMPL_H
#define LANTERN_RUNTIME_SESSION_IMPL_H

#include "runtime/session.h"
#include "runtime/tracepipe.h"
#include "sys/ringbuf.h"

struct session {
	struct options *opts;
	const struct frontend *fe;
	struct plan plan;	/* what compile() made of the script */
	FILE *out;		/* stdout or -o */
	FILE *errout;		/* where the probes' errors and warnings go: stderr (--test: each test's) */
	struct out_ctx oc;	/* the plan, the maps and the writer of -f */
	struct live_maps maps;	/* the plan's maps in the kernel */
	int *prog_fds;		/* by program index; -1 when not loaded */
	struct attach_ctx attach; /* every attachment, and -p */

	uint64_t start_ns; /* CLOCK_MONOTONIC at start: `elapsed` counts from here */
	pid_t cpid;	   /* -c child, 0 without */
	int child_go_fd;   /* write end of the pipe that releases the child */
	int child_status;  /* its wait status once it exited */
	bool child_exited;

	struct metrics_server *metrics; /* --metrics, while running */
	struct rt_ustacks *ustacks;	/* user stacks unwound in user space (ustack.h) */
	struct trace_pipe pipe;		/* debugf(): where the trace buffer stood before BEGIN */
	struct ringbuf ring;		/* mapped by the loop, until the end */
	bool exit_shared;		/* the release helper shares our memory and tears it down */

	volatile bool done; /* exit() seen, signal, child gone */
	bool signalled;	    /* SIGINT, SIGTERM or SIGHUP ended the run */
	uint64_t lost_reported;
	int exit_code;
};

#endif
