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

struct session {
	struct options *opts;
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

	volatile bool done; /* exit() seen, signal, child gone */
	uint64_t lost_reported;
	int exit_code;
};

/* Compile, load, attach and run opts' script; the process's exit status. */
int session_run(struct options *opts);

#endif
