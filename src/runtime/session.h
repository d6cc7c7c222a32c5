/* SPDX-License-Identifier: MIT */
/*
 * A session runs a plan: compile -> load -> attach -> run -> print ->
 * release. Every kernel object it creates (maps, programs, attachments)
 * is recorded here and released by session_free(), on every path out.
 */
#ifndef LANTERN_RUNTIME_SESSION_H
#define LANTERN_RUNTIME_SESSION_H

#include <stdio.h>
#include <sys/types.h>

#include "maps/maps.h"
#include "output/mapprint.h"
#include "plan/plan.h"
#include "plan/provider.h"

struct session;

/*
 * What makes the plan and ends the run: the script compiler (every
 * lantern script), or lantern trace. The session does the rest.
 */
struct frontend {
	/* Fill s->plan; 0 to run it, 1 when there is nothing to run (-d), -1 on errors. */
	int (*build)(struct session *s);
	/* The plan's maps exist (before any probe attaches): fill what only the run knows. */
	int (*loaded)(struct session *s);
	/* The probes stopped and END ran: what is left to print (the maps, a summary). */
	void (*finish)(struct session *s, struct strbuf *out);
	/* Optional: polled while running; true ends the run (the child's exit alone does not). */
	bool (*finished)(struct session *s);
	/* Optional: SIGUSR1 while running: what finish would print now (the maps). */
	void (*dump)(struct session *s, struct strbuf *out);
	/* Optional: n events lost since the last report, said the front end's way. */
	void (*lost)(struct session *s, uint64_t n);
	bool quiet; /* no "Attaching N probes..." */
	void *ctx;  /* the front end's own */
};

/* lantern scripts: compile() and the maps at the end, as bpftrace prints them */
extern const struct frontend rt_script_frontend;

struct session {
	struct options *opts;
	const struct frontend *fe;
	struct plan plan;	/* what compile() made of the script */
	FILE *out;		/* stdout or -o */
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

	volatile bool done; /* exit() seen, signal, child gone */
	bool signalled;	    /* SIGINT, SIGTERM or SIGHUP ended the run */
	uint64_t lost_reported;
	int exit_code;
};

/* Flush the output (stdout or -o); a failure is said once and ends the run (base/outfile.h). */
void rt_out_flush(struct session *s);

/* Build (fe), load, attach and run; the process's exit status. */
int session_run(struct options *opts, const struct frontend *fe);

#endif
