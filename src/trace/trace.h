/* SPDX-License-Identifier: MIT */
/*
 * lantern trace: strace's output and options, from BPF programs.
 *
 *   trace.c        the command line, and the front end the session runs
 *   progs.c        the programs and maps: raw_syscalls enter (the
 *                  arguments, and what they point to, read in the kernel),
 *                  task fork and exit, signal delivery; the plan
 *   exit.c         the exit program: results, what the kernel filled, -c
 *   shapes.c       what each call reads, compiled: a block per shape of reads
 *   reads.c        the subprograms that read (strings, bytes, iovecs, argv)
 *   emit.c         what every program is built of (emit.h: scratch layout)
 *   calls.c        --calls: uprobes on library functions
 *   print.c        records -> strace's lines (printer.h: its state)
 *   calls_print.c  --calls' lines; formats.c: --json, --timeline
 *   kinds.def      the argument kinds, one row each: when a kind prints,
 *                  what the programs read for it, its JSON type, its
 *                  decoder (kinds.c makes the table)
 *   decode*.c      the decoders, writing strace's text or JSON through one
 *                  value writer: strings, flags, constants (decode.c),
 *                  structures (decode_structs.c, decode_time.c), sockets
 *                  (decode_net.c), the calls printed their own way
 *                  (decode_calls.c: one printer each, enum trace_cp)
 *   xlat/NAME.list the names of the constants decoded; the system's
 *                  headers give their values at build time (xlat/gen.sh)
 *   sysdesc.c      what each system call takes and returns
 *
 * The traced program is never stopped: the programs filter by the traced
 * task set (a bitmap of thread ids that fork extends with -f) and by the
 * selected calls, and send records through the ring buffer. -c counts in a
 * per-CPU map and sends nothing per call (the call in progress in a per-CPU
 * slot, exit.c).
 */
#ifndef LANTERN_TRACE_TRACE_H
#define LANTERN_TRACE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/vec.h"
#include "trace/sysdesc.h"

struct plan;
struct record_desc;
struct session;

/* strace's options, as lantern takes them. */
struct trace_opts {
	bool follow;	  /* -f */
	bool follow_files; /* -ff: with -o, one file per process */
	bool all;	  /* -a: every process on the machine */
	VEC(pid_t) pids;  /* -p */
	bool selected[512]; /* -e trace=: the calls to show */
	bool select_all;
	int status;	  /* -e status=, -Z, -z: 0 all, 1 failed only, 2 successful only */
	int timestamps;	  /* -t 1, -tt 2, -ttt 3 */
	bool relative;	  /* -r */
	bool durations;	  /* -T */
	bool summary;	  /* -c: the table only; -C: the table and the calls */
	bool summary_too;
	const char *sort_by; /* -S: time (default), calls, errors, name, avg-time */
	bool quiet;	  /* -q: no attach/detach messages; -qq: no exits either */
	int qq;
	uint32_t strsize; /* -s, default 32 */
	int hex;	  /* -x 1 (non-ASCII in hex), -xx 2 (all in hex) */
	int paths;	  /* -y 1: paths of descriptors; -yy 2: socket endpoints too */
	const char *output; /* -o */
	bool json;	  /* --json */
	bool stacks;	  /* -k: a stack after each call */
	const char *timeline; /* --timeline FILE */
	char **cmd;	  /* CMD ARGS..., NULL-ended; NULL with -p / -a */
	VEC(const char *) calls; /* --calls LIB:PATTERN[,PATTERN...] */
	unsigned dump;	  /* -d ir,bpf: DUMP_IR, DUMP_BPF (plan/options.h): the programs, not run */
};

struct type;
/* A library function --calls traces (calls.c), for the printer */
struct trace_func {
	const char *name, *path;
	uint64_t offset;
	int nargs;		 /* from the debug info; -1: none (six registers in hex) */
	struct type *types[6];	 /* each argument's (an integer or a pointer) */
	const char *names[6];
	struct type *ret;	 /* the return type; NULL: unknown (hex) */
};
struct trace_funcs {
	struct trace_func *data;
	size_t len, cap;
};

/* The record a program sends: a header, then each argument's bytes in order. */
#define TRACE_DATA_MAX 4096 /* the most bytes of one argument */
struct trace_hdr {
	uint64_t id; /* the record's id in the plan: its kind (enum trace_rec) */
	uint64_t ts; /* CLOCK_MONOTONIC ns: when it happened (an exit: when the call ended) */
	uint32_t tid, pid;
	uint32_t nr;	 /* the system call, or the signal */
	uint32_t len;	 /* bytes after the header */
	int64_t a[6];	 /* enter, exit: the arguments; the others: see enum trace_rec */
	uint16_t dlen[6]; /* bytes of each argument after the header; see TRACE_UNREAD */
	uint32_t flags;	 /* TRACE_F_* */
	char comm[16];	 /* -a, --timeline: the task's name */
	int64_t ret;	 /* exit: the result */
	uint64_t dur;	 /* exit: the call's duration, ns */
};
/* exit: its entry was sent; else the exit is the whole call (a quick one, see sysdesc_quick) */
#define TRACE_F_ENTERED 1
#define TRACE_UNREAD 0xffff  /* the memory could not be read */
#define TRACE_NOTREAD 0xfffe /* not read (the call failed) */

enum trace_rec {
	TREC_ENTER,
	TREC_EXIT,   /* the arguments again, the result, the duration */
	TREC_FORK,   /* tid: the new task; pid: its parent */
	TREC_EXITED, /* a task ended: a[0] its exit code, a[1] the group ended */
	TREC_SIGNAL, /* nr: the signal; the siginfo follows */
	TREC_CALL,   /* --calls: nr the function (struct trace_funcs), a[] its argument registers */
	TREC_RETURN, /* --calls: nr the function, ret its return register */
	TREC_STACK,  /* -k: nr the call, a[0] when (stacks.c), a[1] the stack's bytes; the registers, the stack */
	TREC_COUNT_
};

/* -c: per call, per CPU (map "counts") */
struct trace_count {
	uint64_t calls, errors, ns;
};

/* The plan's maps user space reads or fills: their indexes */
struct trace_maps {
	int traced; /* thread ids, a bitmap: bit tid % 64 of word tid / 64 */
	int live;   /* how many of them are set */
	int counts; /* -c, -C: struct trace_count per call, per CPU; else -1 */
};

/*
 * Build the plan: maps, programs and records (progs.c); *maps says which
 * are which. dump: with o->dump, the programs' IR, then their
 * instructions, as `lantern -d ir,bpf` shows a script's.
 */
struct strbuf;
/* The ring buffer's size for these options */
uint32_t trace_ringbuf_bytes(const struct trace_opts *o);
int trace_plan(struct plan *p, const struct trace_opts *o, struct trace_funcs *funcs,
	       struct trace_maps *maps, struct strbuf *dump);

/* The printer (print.c): records in, strace's lines out. */
struct trace_printer;
struct trace_printer *trace_printer_new(const struct trace_opts *o, FILE *out, const struct trace_funcs *funcs);
void trace_printer_free(struct trace_printer *tp);
void trace_record(void *printer, const struct record_desc *r, const void *data, size_t size);
/* A task traced from the start (the child, -p's): it counts as alive. */
void trace_printer_add_task(struct trace_printer *tp, pid_t tid, pid_t pid);
/*
 * -k: follow the mappings of process pid and those it starts, from before
 * it runs (stacks.c); command: lantern's child, before it execs the command
 */
void trace_stacks_follow(struct trace_printer *tp, pid_t pid, bool command);
/* n events lost, said where they were lost */
void trace_printer_lost(struct trace_printer *tp, uint64_t n);
/* --timeline: open the file; 0 or -1 (said) */
int trace_printer_timeline(struct trace_printer *tp, const char *path);
/* The end: the calls left unfinished, the -c table; the child's exit status if known. */
void trace_printer_finish(struct trace_printer *tp, struct session *s);

int trace_main(int argc, char **argv);
/* lantern trace ARGV with -d: its programs into out, as trace_main() prints them; 0 or -1 */
int trace_dump(int argc, char **argv, struct strbuf *out);

#endif
