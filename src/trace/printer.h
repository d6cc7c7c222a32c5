/* SPDX-License-Identifier: MIT */
/*
 * The printer's state, shared by print.c (strace's lines), tasks.c (the
 * task table) and formats.c (--json, --timeline).
 */
#ifndef LANTERN_TRACE_PRINTER_H
#define LANTERN_TRACE_PRINTER_H

#include "base/strbuf.h"
#include "trace/decode.h"
#include "trace/fdpaths.h"
#include "trace/trace.h"

#define ACOLUMN 40 /* strace's column of " = result" */

struct tout;
struct sym_maptrack;

/* One traced task. */
struct ttask {
	pid_t tid, pid;
	bool used;
	bool tomb;     /* not used: an exited task's slot (lookups go past it, a new task takes it) */
	bool in_call;  /* an entry without its exit */
	bool deferred; /* the entry prints at exit */
	bool gone;     /* exited */
	uint32_t nr;
	int64_t a[TRACE_NARGS];
	uint64_t ts;	     /* the entry's time */
	struct strbuf entry; /* deferred: the entry's arguments' text */
	struct strbuf signals; /* ignored signals that came during the call: shown after it */
	struct strbuf held;    /* a line ending "= ? ERESTART...": "= ?" if the task was killed */
	struct strbuf path;    /* -y: the path the call in progress was given (open) */
	struct tcall *calls;   /* --calls: the library calls it is in, innermost last */
	int ncalls, calls_cap;
	struct strbuf stack;   /* -k: the stack at the entry of its execve, exit or exit_group, shown later */
	bool stack_next;       /* -k: its last line is a call's or a signal's, whose stack comes next */
	bool stack_cmd;	       /* -k: the command before its exec (lantern's fork): that exec's stack at exit */
	size_t held_ret;       /* where its "= " starts */
	size_t held_entry;     /* where the arguments read at exit start */
	struct tout *out;    /* -ff: the task's own file */
	char comm[16];
};

/* A library call a task is in (--calls) */
struct tcall {
	uint32_t fn; /* in the printer's funcs */
	int64_t a[6];
	uint64_t ts;
};

/* An output stream and its line: open (no newline yet) while a call runs. */
struct tout {
	FILE *f;
	char *path; /* -ff: the task's file, for errors */
	struct strbuf line;
	struct ttask *open; /* whose line is open, or NULL */
	bool open_call;	    /* it is a library call's (--calls), not a syscall's */
};

struct trace_printer {
	const struct trace_opts *o;
	const struct trace_funcs *funcs; /* --calls */
	struct tout main;
	struct ttask *tasks; /* open addressing by tid; exited tasks leave (without --timeline) */
	size_t cap, used, tombs;
	int live;	    /* tasks alive: more than one gives [pid N] */
	bool prefix_always; /* -o with -f: every line starts with the pid */
	int64_t real_off;   /* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	uint64_t last_ts;   /* -r */
	uint64_t lost_shown;
	struct strbuf tmp, args;
	FILE *timeline;
	char *timeline_path;
	bool timeline_first;
	struct fdpaths *fds; /* -y: what the traced calls opened */
	struct sym_maptrack **maptracks; /* -k: the traced processes' mappings as they change */
	size_t nmaptracks;
	struct {	     /* the call just printed, for fds once its line is written */
		bool set;
		int pid, nr;
		int64_t a[TRACE_NARGS], ret;
		char *path;
	} fdnote;
};


/* The arguments a call shows for its values (its printer's view); where its exit's part starts */
struct cview {
	int n, split;
	struct targ_view v[TRACE_NARGS];
};
void trace_view_of(const struct sysdesc *d, const int64_t *a, struct cview *cv);
/* Items [from, to) of the view as text, ", " between them */
void trace_put_items(struct strbuf *out, const struct cview *cv, int from, int to, const struct targ_val *v,
		     struct tdecode *dc);
/* Each argument's value and bytes from the entry's (ev) and the exit's (xv, or NULL) */
void trace_merge_vals(const struct sysdesc *d, const struct targ_val *ev, const struct targ_val *xv,
		      struct targ_val *v);
bool trace_failed(int64_t ret);

/* formats.c */
void trace_json_call(struct trace_printer *tp, struct ttask *t, const struct sysdesc *d, const struct targ_val *ev,
	       const struct targ_val *xv, struct tdecode *dc, int64_t ret, uint64_t dur, bool returns,
	       uint64_t ts);
void trace_json_event(struct trace_printer *tp, struct ttask *t, uint64_t ts, const char *key, const char *val,
		bool quoted);
void trace_timeline_call(struct trace_printer *tp, struct ttask *t, const struct sysdesc *d, const struct strbuf *args,
		   int64_t ret, uint64_t ts, uint64_t dur, bool returns);
void trace_timeline_end(struct trace_printer *tp);
/* --calls: a library call and its return (calls_print.c) */
void trace_on_libcall(struct trace_printer *tp, const struct trace_hdr *h);
void trace_on_libreturn(struct trace_printer *tp, const struct trace_hdr *h);
/* -k (stacks.c): a stack record; the stack of a task's exit_group, once it is gone */
void trace_on_stack(struct trace_printer *tp, const struct trace_hdr *h, const uint8_t *data, size_t size);
void trace_stack_pending(struct trace_printer *tp, struct ttask *t);
void trace_stacks_free(struct trace_printer *tp);
/* The task table (tasks.c): a task by tid (added if add); an exited task's slot goes */
struct ttask *trace_task_find(struct trace_printer *tp, pid_t tid, bool add);
void trace_task_forget(struct trace_printer *tp, struct ttask *t);
/* print.c's, for calls_print.c and tasks.c (trace_close_open: the open line ends unfinished) */
void trace_close_open(struct tout *to);
struct tout *trace_out_of(struct trace_printer *tp, struct ttask *t);
void trace_leader(struct trace_printer *tp, struct tout *to, struct ttask *t, uint64_t ts);
void trace_flush_line(struct tout *to);
void trace_pad_to_column(struct strbuf *line);

#endif
