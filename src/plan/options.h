/* SPDX-License-Identifier: MIT */
/*
 * What the user asked for on the command line. The front end (main.c)
 * fills it; compile() reads the script, its parameters and what changes
 * the code (-c, -p, --unsafe); the session reads the rest.
 */
#ifndef LANTERN_PLAN_OPTIONS_H
#define LANTERN_PLAN_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>

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
	OUTPUT_FOLDED,	   /* maps keyed by stacks as folded stacks (flamegraph.pl's input) */
	OUTPUT_PROMETHEUS, /* maps in Prometheus's text exposition format */
};

/* -B: how the output is buffered (as bpftrace's -B) */
enum output_buffering {
	BUFFER_LINE, /* a line at a time (the default) */
	BUFFER_NONE, /* every write at once */
	BUFFER_FULL, /* when the buffer is full, and at exit */
};

struct options {
	const char *script_name; /* "stdin" for -e */
	char *script;		 /* the text */
	char **params;		 /* positional parameters $1.. */
	int nparams;
	const char *output;	   /* -o */
	enum output_format format; /* -f */
	bool quiet;		   /* -q */
	int verbose;		   /* -v */
	unsigned dump;		   /* -d: enum dump_stage bits */
	bool dry_run;		   /* --dry-run: compile and load, attach nothing */
	bool unsafe;		   /* --unsafe: system() may run commands */
	const char *cmd;	   /* -c */
	char **cmd_argv;	   /* lantern trace CMD ARGS...: run as given, not split */
	pid_t pid;		   /* -p */
	const char *flamegraph;	   /* --flamegraph FILE.svg: the stack maps as an SVG at exit */
	const char *metrics;	   /* --metrics ADDR:PORT: serve /metrics while running */
	enum output_buffering buffering; /* -B */
	bool no_warnings;		 /* --no-warnings */
	int helper_check; /* -k: warn when a helper fails (1), -kk: probe reads too (2) */
	const char **include_dirs;	 /* -I DIR...: where #include <x.h> looks first */
	int ninclude_dirs;
	const char **includes; /* --include FILE...: as #include lines before the script's */
	int nincludes;
};

/* Do hist() and lhist() keep the sum of their values (Prometheus's _sum)? */
static inline bool options_hist_sums(const struct options *o)
{
	return o->format == OUTPUT_PROMETHEUS || o->metrics;
}

#endif
