/* SPDX-License-Identifier: MIT */
/*
 * A session: one script from text to teardown. Every stage reads and fills
 * this structure; every kernel object it creates is recorded here and
 * released by session_teardown(), on every path out.
 */
#ifndef LANTERN_RUNTIME_SESSION_H
#define LANTERN_RUNTIME_SESSION_H

#include <linux/bpf.h>
#include <stdio.h>
#include <sys/types.h>

#include "ast/ast.h"
#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "base/vec.h"
#include "codegen/ir.h"
#include "sema/type.h"

struct provider;
struct writer;
struct tp_format;
struct ring_buffer;

/* Stages that -d can dump. */
enum dump_stage {
	DUMP_AST = 1 << 0,
	DUMP_TYPES = 1 << 1,
	DUMP_IR = 1 << 2,
	DUMP_BPF = 1 << 3,
};

/* -f: how the output is written (output/writer.h). */
enum output_format {
	OUTPUT_TEXT, /* bpftrace's text */
	OUTPUT_JSON, /* one JSON object per line, as bpftrace -f json */
};

struct options {
	const char *script_name; /* "stdin" for -e */
	char *script;		 /* the text */
	char **params;		 /* positional parameters $1.. */
	int nparams;
	const char *output; /* -o */
	enum output_format format; /* -f */
	bool quiet;	    /* -q */
	int verbose;	    /* -v */
	unsigned dump;	    /* -d: enum dump_stage bits */
	bool dry_run;	    /* --dry-run: compile and load, attach nothing */
	bool unsafe;	    /* --unsafe: system() may run commands */
	const char *cmd;    /* -c */
	pid_t pid;	    /* -p */
};

/* One BPF map the session creates. */
struct bpf_map_desc {
	const char *name;
	enum bpf_map_type type;
	uint32_t key_size, value_size, max_entries, flags;
	int fd;
};

/* A user map, @name. */
struct map_info {
	const char *name; /* without '@'; "" for @ */
	struct span span; /* first mention */
	int nkeys;	  /* -1: not known yet */
	struct type *key; /* TY_TUPLE of the stored key types, NULL without keys */
	struct type *value;
	struct span value_span; /* where the value type was fixed */
	uint32_t key_size;	/* bytes, including the bucket of hist/lhist */
	int bpf_map;		/* index in session.bpf_maps */
	bool percpu, array;	/* BPF map flavour chosen after typing */
};

/* A scratch variable, $name, of one probe. */
struct var_info {
	const char *name;
	struct type *type;
	struct span span;
	int32_t vreg;	 /* scalars: the virtual register */
	uint32_t offset; /* memory types: offset in the scratch area */
};

enum record_kind {
	REC_PRINTF,
	REC_EXIT,
	REC_PRINT_MAP,
	REC_CLEAR_MAP,
	REC_ZERO_MAP,
	REC_TIME,
	REC_JOIN,
	REC_SYSTEM, /* system(fmt, ...): run the text as a shell command */
	REC_CAT,    /* cat(fmt, ...): print the file the text names */
};

/* join(): at most JOIN_MAX_ARGS strings of JOIN_ARG_SIZE bytes (bpftrace 0.17's) */
#define JOIN_MAX_ARGS 16
#define JOIN_ARG_SIZE 64

/* What user space does with a ring buffer record whose first u64 is its id. */
struct record_desc {
	enum record_kind kind;
	struct printf_fmt *fmt; /* REC_PRINTF */
	const char *text;	/* REC_TIME: strftime format; REC_JOIN: the delimiter */
	struct type *args;	/* TY_TUPLE of the arguments after the id */
	struct map_info *map;	/* REC_*_MAP */
	int64_t top, div;	/* print(@m, top, div) */
	uint32_t size;		/* bytes, with the id */
};

/* One expanded attach point: "tracepoint:sched:sched*" gives several. */
struct probe_inst {
	struct probe *probe;
	struct attach_point *ap;
	const struct provider *prov;
	const char *name;     /* full name, as `probe` prints it */
	const char *target[3]; /* provider-specific: category, event / unit, count */
	uint64_t period;      /* interval: nanoseconds; profile, software, hardware:
				 sample period (events, or ns for clocks), or frequency */
	bool freq;	      /* period is a frequency (profile:hz) */
	uint64_t offset;      /* uprobe, usdt: the file offset of the probed instruction */
	uint64_t ref_ctr;     /* usdt: file offset of the probe's semaphore, 0 without */
	uint32_t perf_type;   /* profile, software, hardware: perf_event_attr type */
	uint64_t perf_config; /* and config */
	struct tp_format *fmt; /* tracepoint: loaded when args are used */
	struct type *args;     /* TY_CTX, built lazily */
	uint32_t probe_id;     /* index in session.probe_names */
	int prog;	       /* program compiled for it */
	int sysnr;	       /* in a raw_syscalls group: its syscall number */
};

/* Several syscalls:sys_enter_X (or sys_exit_X) served by one program. */
enum sys_group {
	SYSGROUP_NONE,
	SYSGROUP_ENTER, /* on raw_syscalls:sys_enter */
	SYSGROUP_EXIT,	/* on raw_syscalls:sys_exit */
};

/* One BPF program, for one instance or shared by all of a probe's. */
struct prog_desc {
	struct probe *probe;
	struct probe_inst *inst; /* the instance it was typed for */
	VEC(struct probe_inst *) insts;
	enum bpf_prog_type type;
	bool raw_tp; /* tracepoint run as a raw tracepoint (no format-file fields) */
	bool skip_self; /* ignore lantern's own events (its output would feed them) */
	enum sys_group sysgroup;
	int sysmap; /* sysgroup: index in bpf_maps of its syscall number -> probe id + 1 */
	struct ir ir;
	struct bpf_insn *insns;
	int ninsns;
	uint32_t scratch_size;
	VEC(struct var_info *) vars; /* its $variables (from sema_retype) */
	uint32_t index; /* key of its area in the scratch map */
	int fd;
	const char *name;
};

/* A kernel attachment to release at teardown. */
struct attachment {
	int link_fd, perf_fd;
	struct probe_inst *inst;
};

struct session {
	struct options *opts;
	struct arena arena;
	struct source src;
	struct diag diag;
	struct program *prog;
	FILE *out; /* stdout or -o */
	const struct writer *writer; /* text or JSON, from opts->format */

	VEC(struct probe_inst *) insts;
	VEC(struct prog_desc *) progs;
	VEC(struct map_info *) maps;
	VEC(struct bpf_map_desc) bpf_maps;
	VEC(struct record_desc *) records;
	VEC(const char *) probe_names;
	VEC(struct attachment) attachments;
	VEC(struct stack_map { bool user; uint32_t frames; int bpf_map; }) stack_maps;
	int scratch_map, ringbuf_map, lost_map; /* indexes in bpf_maps */

	uint64_t start_ns; /* CLOCK_MONOTONIC at start: `elapsed` counts from here */
	pid_t cpid;	  /* -c child, 0 without */
	int child_go_fd;  /* write end of the pipe that releases the child */
	int child_status; /* its wait status once it exited */
	bool child_exited;

	struct ring_buffer *rb;
	volatile bool done; /* exit() seen, signal, child gone */
	uint64_t lost_reported;
	int exit_code;
	VEC(struct deferred { void (*fn)(void *); void *p; }) deferred;
};

/* A session for opts (its script, name and parameters); no kernel objects yet. */
void session_init(struct session *s, struct options *opts);
/* Release everything the session holds: kernel objects, memory, the child. */
void session_free(struct session *s);
/* Run fn(p) at teardown (for objects outside the arena). */
void session_defer_free(struct session *s, void (*fn)(void *), void *p);

int session_run(struct options *opts);

#endif
