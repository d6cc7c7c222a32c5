/* SPDX-License-Identifier: MIT */
/*
 * What the user asked for on the command line. The front end (main.c)
 * fills it; compile() reads the script, its parameters and what changes
 * the code (-c, -p, --unsafe); the session reads the rest.
 */
#ifndef LANTERN_PLAN_OPTIONS_H
#define LANTERN_PLAN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Stages that -d can dump. */
enum dump_stage {
	DUMP_AST = 1 << 0,
	DUMP_TYPES = 1 << 1,
	DUMP_IR = 1 << 2,
	DUMP_BPF = 1 << 3,
};

/* --dialect: which bpftrace's language a script is read as */
enum dialect {
	DIALECT_AUTO, /* today's if the script uses a construct 0.17 lacks, else 0.17's */
	DIALECT_0_17, /* bpftrace 0.17's (Debian 12's) */
	DIALECT_0_26, /* today's bpftrace's (0.18 to 0.26) */
};

/* -f: how the output is written (output/writer.h). */
enum output_format {
	OUTPUT_TEXT, /* bpftrace's text */
	OUTPUT_JSON, /* one JSON object per line, as bpftrace -f json */
	OUTPUT_FOLDED,	   /* maps keyed by stacks as folded stacks (flamegraph.pl's input) */
	OUTPUT_PROMETHEUS, /* maps in Prometheus's text exposition format */
	OUTPUT_PPROF,	   /* events as text; the stack maps as a pprof profile into -o's file */
};

/* -B: how the output is buffered (as bpftrace's -B) */
enum output_buffering {
	BUFFER_LINE, /* a line at a time (the default) */
	BUFFER_NONE, /* every write at once */
	BUFFER_FULL, /* when the buffer is full, and at exit */
};

/*
 * What compile() needs: the script, its parameters, and what changes the
 * code. The session does not read it, and the compiler reads nothing else
 * of the command line. A script's settings (BPFTRACE_STRLEN, ...) are
 * resolved from it, the environment and the script (compile/settings.c).
 */
struct compile_opts {
	const char *script_name; /* "stdin" for -e */
	char *script;		 /* the text */
	char **params;		 /* positional parameters $1..: plan_param() */
	int nparams;
	unsigned dump;		 /* -d: enum dump_stage bits */
	bool unsafe;		 /* --unsafe: system() may run commands */
	bool no_warnings;	 /* --no-warnings */
	int helper_check;	 /* -k: warn when a helper fails (1), -kk: probe reads too (2) */
	bool child;		 /* a command runs (-c): cpid is its pid */
	const char *child_cmd;	 /* -c's text, or lantern trace's program; NULL without */
	pid_t pid;		 /* -p: probes on that process only */
	bool hist_sums;		 /* hist() and lhist() keep their values' sum (Prometheus' _sum) */
	const char **include_dirs; /* -I DIR...: where #include <x.h> looks first */
	int ninclude_dirs;
	const char **includes; /* --include FILE...: as #include lines before the script's */
	int nincludes;
	enum dialect dialect; /* --dialect (or LANTERN_DIALECT) */
	const char *probe_filter; /* --probe-filter RE: only the probes whose name matches */
	char **named;		  /* the script's named parameters, --name[=value] after `--` */
	int nnamed;
	const char *traceable_functions; /* --traceable-functions FILE: kprobes' functions */
};

/* --test, --bench: what the session runs */
enum run_mode {
	RUN_SCRIPT, /* the probes, attached (test and bench probes left out) */
	RUN_TEST,   /* the test:NAME probes, one by one, each reported */
	RUN_BENCH,  /* the bench:NAME probes, timed */
};

/* What the session needs: where the output goes and how, what runs beside the probes. */
struct run_opts {
	const char *output;	   /* -o */
	enum output_format format; /* -f */
	bool quiet;		   /* -q */
	int verbose;		   /* -v */
	bool dry_run;		   /* --dry-run: compile and load, attach nothing */
	bool dump;		   /* -d: compile() dumps, nothing runs */
	const char *cmd;	   /* -c */
	char **cmd_argv;	   /* lantern trace CMD ARGS...: run as given, not split */
	pid_t pid;		   /* -p */
	const char *flamegraph;	   /* --flamegraph FILE.svg: the stack maps as an SVG at exit */
	const char *pprof;	   /* --pprof FILE, -f pprof -o FILE: the stack maps as a pprof profile */
	const char *metrics;	   /* --metrics ADDR:PORT: serve /metrics while running */
	enum output_buffering buffering; /* -B */
	enum run_mode mode;		 /* --test, --bench */
};

/* A script's settings (compile/settings.c resolves them) */
enum setting_id {
	SET_MAX_STRLEN,	   /* bytes of a string from str() and string fields, NUL included */
	SET_MAX_MAP_KEYS,  /* keys a map holds */
	SET_MAX_CAT_BYTES, /* bytes cat() prints */
	SET_LOG_SIZE,	   /* bytes of the verifier's log read when a program is refused */
	SET_MAX_PROBES,	   /* probes a script may attach */
	SET_PRINT_MAPS_ON_EXIT, /* 0: the maps are not printed at the end */
	SET_CPP_DEMANGLE,	/* 0: C++ names stay mangled */
	SET_STACK_MODE,		/* enum stack_mode: kstack's and ustack's format */
	SET_MISSING_PROBES,	/* enum missing_probes: an attach point that matches nothing */
	SET_STR_TRUNC_TRAILER,	/* (a string: settings.str) what ends a string str() cut */
	SET_USTACK_UNWIND, /* how user stacks are walked: enum ustack_unwind */
	SET_USTACK_SNAPSHOT, /* bytes of a user stack a program copies for the unwinder */
	SET_SHOW_DEBUG_INFO, /* 1: user stacks show source lines and inlined calls (bpftrace mode) */
	SET_COUNT_
};
enum stack_mode { STACK_MODE_BPFTRACE, STACK_MODE_PERF, STACK_MODE_RAW, STACK_MODE_BUILD_ID };
enum missing_probes { MISSING_ERROR, MISSING_WARN, MISSING_IGNORE };
enum setting_from { SETTING_DEFAULT, SETTING_SCRIPT, SETTING_ENV };

/*
 * ustack_unwind (LANTERN_USTACK_UNWIND): auto walks the frame pointers in
 * the kernel where the process's program keeps them and unwinds the others
 * in user space from a snapshot (DWARF CFI); fp and dwarf force either.
 */
enum ustack_unwind { UNWIND_AUTO, UNWIND_FP, UNWIND_DWARF };
#define USTACK_SNAPSHOT_DEFAULT 8192
#define USTACK_SNAPSHOT_MAX 16384
struct settings {
	uint64_t v[SET_COUNT_];	   /* numbers; bools 0 or 1; choices their index */
	const char *str[SET_COUNT_]; /* the settings that are strings */
	uint8_t from[SET_COUNT_];  /* enum setting_from: where each came from */
};

/* The command line: what the compiler needs, what the session needs. */
struct options {
	struct compile_opts c;
	struct run_opts r;
};

#endif
