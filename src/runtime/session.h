/* SPDX-License-Identifier: MIT */
/*
 * A session runs a plan: compile -> load -> attach -> run -> print ->
 * release. Every kernel object it creates (maps, programs, attachments)
 * is recorded in it and released by session_free(), on every path out.
 *
 * Front ends (lantern's scripts, lantern trace) see the session through
 * this header only: struct session is runtime/'s own (session_impl.h);
 * they reach what they need through the accessors below and give the
 * session their hooks (struct frontend).
 */
#ifndef LANTERN_RUNTIME_SESSION_H
#define LANTERN_RUNTIME_SESSION_H

#include <signal.h>
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
	/* Optional: a REC_FRONTEND record (the front end's own kinds) arrived */
	void (*record)(struct session *s, const struct record_desc *r, const void *data, size_t size);
	bool quiet;	    /* no "Attaching N probes..." */
	bool exit_as_child; /* lantern's status is the command's (strace's rule; 128+N: signal N) */
	void *ctx;	    /* the front end's own */
};

/* lantern scripts: compile() and the maps at the end, as bpftrace prints them */
extern const struct frontend rt_script_frontend;

/* Flush the output (stdout or -o); a failure is said once and ends the run (base/outfile.h). */
void rt_out_flush(struct session *s);

/* What a front end reaches of its session */
struct plan *session_plan(struct session *s);
const struct options *session_opts(const struct session *s);
void *session_ctx(const struct session *s); /* the front end's ctx */
FILE *session_out(const struct session *s);
void session_set_out(struct session *s, FILE *out); /* before the run: where the output goes */
const struct live_maps *session_maps(const struct session *s);
pid_t session_child(const struct session *s); /* the command's pid, 0 without */
/* The blocking of SIGINT, SIGTERM, SIGHUP, SIGCHLD (and SIGUSR1 when fe dumps) for a session */
void session_signals(const struct frontend *fe, sigset_t *mask);

/* Build (fe), load, attach and run; the process's exit status. */
int session_run(struct options *opts, const struct frontend *fe);

#endif
