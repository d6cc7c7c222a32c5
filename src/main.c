// SPDX-License-Identifier: MIT
/* lantern's command line: options in, a session out. */
#include "base/outfile.h"
#include "base/util.h"
#include "compile/compile.h"
#include "probes/list.h"
#include "runtime/info.h"
#include "runtime/session.h"
#include "sym/debuginfo.h"
#include "trace/trace.h"

#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LANTERN_VERSION "0.1.0"

static void usage(FILE *f)
{
	fputs("USAGE:\n"
	      "    lantern [options] script.bt [params...]\n"
	      "    lantern [options] -e 'program' [params...]\n"
	      "    lantern trace [options] CMD [ARGS...]   (strace's options: lantern trace -h)\n"
	      "\n"
	      "Runs bpftrace scripts: compiles them to eBPF itself, no LLVM needed.\n"
	      "\n"
	      "OPTIONS:\n"
	      "    -e PROGRAM     the program to run (instead of a script file; '-' reads stdin)\n"
	      "    -o FILE        write the output to FILE\n"
	      "    -f FORMAT      output format: text (the default), json (one JSON object a line),\n"
	      "                   folded (maps keyed by stacks as folded stacks, flamegraph.pl's input)\n"
	      "                   prometheus (the maps as Prometheus metrics) or pprof (with -o FILE:\n"
	      "                   the maps keyed by stacks as a pprof profile, gzip'ed)\n"
	      "    -B MODE        output buffering: line (the default), full or none\n"
	      "    -q             quiet: no 'Attaching N probes...'\n"
	      "    -v             verbose\n"
	      "    -c CMD         run CMD once the probes are attached (cpid is its pid);\n"
	      "                   lantern ends when it exits\n"
	      "    -p PID         the process that uprobes and USDT probes follow; lantern ends\n"
	      "                   when it exits\n"
	      "    -I DIR         look for the script's #include <headers> in DIR first\n"
	      "    --include FILE  as '#include <FILE>' before the script (repeatable)\n"
	      "    -d STAGE       dump a stage and do not run: ast, types, ir, bpf, all\n"
	      "    -l [PATTERN]   list probes, e.g. -l 'tracepoint:sched:*' (-lv: with their fields)\n"
	      "    --dry-run      compile and load the programs, attach nothing\n"
	      "    --unsafe       allow system()\n"
	      "    --no-warnings  print no warnings\n"
	      "    --dialect D    the language: 0.17 (bpftrace 0.17's), 0.26 (today's bpftrace's)\n"
	      "                   or auto (the default: today's when the script uses what 0.17\n"
	      "                   lacks); also LANTERN_DIALECT\n"
	      "    -k             warn when a BPF helper fails (map updates, deletes); -kk: probe\n"
	      "                   reads too\n"
	      "    --info         what this kernel and lantern support (helpers, maps, probes)\n"
	      "    --usdt-file-activation  raise USDT semaphores in every process that maps\n"
	      "                   the file (lantern always does, without -p)\n"
	      "    --flamegraph FILE.svg  at exit, write the maps keyed by kstack/ustack as an\n"
	      "                   interactive SVG flame graph\n"
	      "    --pprof FILE   at exit, write the maps keyed by kstack/ustack as a pprof profile\n"
	      "                   (Pyroscope, Parca, Grafana, go tool pprof)\n"
	      "    --debuginfo DIR[:DIR]  where the debug files of stripped programs are, searched\n"
	      "                   first (relative: from the program's folder; repeatable)\n"
	      "    --metrics ADDR:PORT    serve the maps at http://ADDR:PORT/metrics in Prometheus's\n"
	      "                   format while the script runs (e.g. --metrics 0.0.0.0:9435)\n"
	      "    --test         run the script's test: probes only, as bpftrace --test\n"
	      "    --bench        run the script's bench: probes and print their times\n"
	      "    --mode M       test, bench, codegen (-d ir) or compiler-bench (-d bpf)\n"
	      "    --probe-filter RE  attach only the probes whose names RE matches\n"
	      "    --traceable-functions FILE  the functions kprobes may probe (in\n"
	      "                   available_filter_functions' format)\n"
	      "    --no-feature F,...  bpftrace's uprobe_multi, kprobe_multi, kprobe_session:\n"
	      "                   accepted (lantern needs none of them)\n"
	      "    --verify-llvm-ir, --dwarf-pid PID  accepted, nothing to do (no LLVM; user\n"
	      "                   stacks are unwound in lantern)\n"
	      "    also --output, --list, --pid, --cmd, --quiet, --verbose, --warnings, --debug\n"
	      "    -h, --help     this help\n"
	      "    -V, --version  lantern's version\n"
	      "\n"
	      "ENVIRONMENT (LANTERN_x wins over BPFTRACE_x):\n"
	      "    BPFTRACE_STRLEN         [default: 64] bytes of a string from str()\n"
	      "    BPFTRACE_MAP_KEYS_MAX   [default: 4096] keys a map holds\n"
	      "    BPFTRACE_CAT_BYTES_MAX  [default: 10240] bytes cat() prints\n"
	      "    BPFTRACE_MAX_PROBES     [default: 512] probes a script attaches\n"
	      "    BPFTRACE_LOG_SIZE       [default: 4194304] bytes of the verifier's log\n"
	      "    BPFTRACE_NO_CPP_DEMANGLE  [default: 0] C++ names in stacks stay mangled\n"
	      "    LANTERN_USTACK_UNWIND   [default: auto] user stacks by frame pointers where\n"
	      "                            programs keep them, else unwound by lantern (fp, dwarf)\n"
	      "    LANTERN_USTACK_SNAPSHOT [default: 8192] bytes of a user stack copied to unwind\n"
	      "    LANTERN_DEBUG_DIRS      [default: /usr/lib/debug] where debug files are\n"
	      "\n"
	      "EXAMPLES:\n"
	      "    lantern -e 'tracepoint:syscalls:sys_enter_openat { printf(\"%s %s\\n\", comm, str(args->filename)); }'\n"
	      "    lantern -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'\n",
	      f);
}

static int parse_dump(const char *arg, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned bits;
	} stages[] = {
		{ "ast", DUMP_AST }, { "types", DUMP_TYPES }, { "ir", DUMP_IR }, { "bpf", DUMP_BPF },
		{ "all", DUMP_AST | DUMP_TYPES | DUMP_IR | DUMP_BPF },
		/* today's bpftrace's names of its stages: lantern's nearest */
		{ "parse", DUMP_AST }, { "codegen", DUMP_IR }, { "codegen-opt", DUMP_IR },
		{ "dis", DUMP_BPF }, { "libbpf", DUMP_BPF }, { "verifier", DUMP_BPF },
	};
	char *copy = strdup(arg), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
			if (!strcmp(tok, stages[i].name))
				break;
		if (i == sizeof(stages) / sizeof(stages[0])) {
			fprintf(stderr,
				"ERROR: unknown stage '%s' for -d (ast, types, ir, bpf, all; bpftrace's "
				"parse, codegen, codegen-opt, dis, libbpf, verifier)\n",
				tok);
			free(copy);
			return -1;
		}
		*out |= stages[i].bits;
	}
	free(copy);
	return 0;
}

static int parse_format(const char *arg, enum output_format *out)
{
	static const struct {
		const char *name;
		enum output_format format;
	} formats[] = {
		{ "text", OUTPUT_TEXT },
		{ "json", OUTPUT_JSON },
		{ "folded", OUTPUT_FOLDED },
		{ "prometheus", OUTPUT_PROMETHEUS },
		{ "pprof", OUTPUT_PPROF },
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(arg, formats[i].name)) {
			*out = formats[i].format;
			return 0;
		}
	}
	fprintf(stderr,
		"ERROR: Invalid output format \"%s\"\n"
		"Valid formats: 'text', 'json', 'folded', 'prometheus', 'pprof'\n",
		arg);
	return -1;
}

static int parse_buffering(const char *arg, enum output_buffering *out)
{
	if (!strcmp(arg, "line"))
		*out = BUFFER_LINE;
	else if (!strcmp(arg, "full"))
		*out = BUFFER_FULL;
	else if (!strcmp(arg, "none"))
		*out = BUFFER_NONE;
	else {
		fputs("ERROR: USAGE: -B must be either 'line', 'full', or 'none'.\n", stderr);
		return -1;
	}
	return 0;
}

/*
 * -p: a decimal pid in [1, PID_MAX_LIMIT] of a running process, with the
 * messages of the dialect's bpftrace (today's when --dialect 0.26 or
 * LANTERN_DIALECT=0.26 came before it)
 */
static int parse_pid(const char *arg, pid_t *out, bool modern)
{
	const long max = 4194304;
	char *end;
	long pid;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno || *end || end == arg || *arg == '-' || *arg == '+' || *arg == ' ') {
		if (!modern)
			fprintf(stderr, "ERROR: pid '%s' is not a valid decimal number\n", arg);
		else
			fprintf(stderr, "ERROR: Failed to parse pid: %s: %s\n",
				end == arg || errno || *arg == '-' || *arg == '+' || *arg == ' ' ? "invalid integer"
												 : "invalid trailing bytes",
				arg);
		return -1;
	}
	if (pid < 1 || pid > max) {
		if (!modern)
			fprintf(stderr, "ERROR: pid '%s' out of valid pid range [1,%ld]\n", arg, max);
		else
			fprintf(stderr, "ERROR: Pid out of range: %s\n", arg);
		return -1;
	}
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		fprintf(stderr, "ERROR: pid '%s': no such process\n", arg);
		return -1;
	}
	*out = pid;
	return 0;
}

/* Add arg to a growing array of strings. */
static void push_arg(const char ***v, int *n, const char *arg)
{
	*v = util_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = arg;
}

enum { OPT_DRY_RUN = 256, OPT_UNSAFE, OPT_FLAMEGRAPH, OPT_PPROF, OPT_METRICS, OPT_INCLUDE, OPT_NO_WARNINGS, OPT_INFO,
       OPT_USDT_FILE_ACTIVATION, OPT_DIALECT, OPT_TEST, OPT_BENCH, OPT_MODE, OPT_PROBE_FILTER,
       OPT_NO_FEATURE, OPT_FMT, OPT_DEBUGINFO, OPT_TRACEABLE, OPT_VERIFY_IR, OPT_EMIT, OPT_DWARF_PID };

/* --mode: today's bpftrace's ways to run a script */
static int parse_mode(const char *arg, struct options *o)
{
	if (!strcmp(arg, "test"))
		o->r.mode = RUN_TEST;
	else if (!strcmp(arg, "bench"))
		o->r.mode = RUN_BENCH;
	else if (!strcmp(arg, "codegen"))
		o->c.dump |= DUMP_IR;
	else if (!strcmp(arg, "format")) {
		fputs("ERROR: --mode format: lantern has no script formatter yet\n", stderr);
		return -1;
	}
	else if (!strcmp(arg, "compiler-bench"))
		o->c.dump |= DUMP_BPF;
	else {
		fprintf(stderr, "ERROR: --mode \"%s\": the modes are test, bench, format, codegen and "
				"compiler-bench\n",
			arg);
		return -1;
	}
	return 0;
}

/* --no-feature a,b: bpftrace's kernel features lantern could do without (it uses none) */
static int parse_no_feature(const char *arg)
{
	static const char *const known[] = { "uprobe_multi", "kprobe_multi", "kprobe_session" };
	char *copy = strdup(arg), *save = NULL;
	int rc = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(tok, known[i]))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			fprintf(stderr, "ERROR: --no-feature '%s': the features are uprobe_multi, "
					"kprobe_multi and kprobe_session\n", tok);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

/* --dialect 0.17|0.26|auto (and LANTERN_DIALECT): which bpftrace's language */
static int parse_dialect(const char *arg, const char *from, enum dialect *out)
{
	static const struct {
		const char *name;
		enum dialect d;
	} names[] = { { "auto", DIALECT_AUTO }, { "0.17", DIALECT_0_17 }, { "0.26", DIALECT_0_26 } };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i].name)) {
			*out = names[i].d;
			return 0;
		}
	fprintf(stderr, "ERROR: %s \"%s\": the dialects are 0.17, 0.26 and auto\n", from, arg);
	return -1;
}

/* What the command line wants besides running a script. */
enum action { ACT_RUN, ACT_LIST, ACT_EXIT_OK, ACT_EXIT_ERR, ACT_INFO };

/* One option; the action it asks for. */
static enum action parse_option(int c, struct options *o, const char **program)
{
	switch (c) {
	case 'e': *program = optarg; break;
	case 'o': o->r.output = optarg; break;
	case 'f': return parse_format(optarg, &o->r.format) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case 'B': return parse_buffering(optarg, &o->r.buffering) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case 'q': o->r.quiet = true; break;
	case 'v': o->r.verbose++; break;
	case 'd': return parse_dump(optarg, &o->c.dump) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case 'c': o->r.cmd = optarg; break;
	case 'p': return parse_pid(optarg, &o->r.pid, o->c.dialect == DIALECT_0_26) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case 'I': push_arg(&o->c.include_dirs, &o->c.ninclude_dirs, optarg); break;
	case 'k': o->c.helper_check++; break;
	case OPT_INCLUDE: push_arg(&o->c.includes, &o->c.nincludes, optarg); break;
	case OPT_DRY_RUN: o->r.dry_run = true; break;
	case OPT_DIALECT:
		return parse_dialect(optarg, "--dialect", &o->c.dialect) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case OPT_UNSAFE: o->c.unsafe = true; break;
	case OPT_NO_WARNINGS: o->c.no_warnings = true; break;
	case OPT_FLAMEGRAPH: o->r.flamegraph = optarg; break;
	case OPT_PPROF: o->r.pprof = optarg; break;
	case OPT_METRICS: o->r.metrics = optarg; break;
	case OPT_INFO: return ACT_INFO;
	case OPT_USDT_FILE_ACTIVATION: break; /* what lantern always does: the kernel raises the semaphores */
	case OPT_TEST: o->r.mode = RUN_TEST; break;
	case OPT_BENCH: o->r.mode = RUN_BENCH; break;
	case OPT_MODE: return parse_mode(optarg, o) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case OPT_PROBE_FILTER: o->c.probe_filter = optarg; break;
	case OPT_NO_FEATURE: return parse_no_feature(optarg) < 0 ? ACT_EXIT_ERR : ACT_RUN;
	case OPT_FMT:
		fputs("ERROR: --fmt: lantern has no script formatter yet (bpftrace 0.25's keeps "
		      "comments, which lantern's parser drops)\n", stderr);
		return ACT_EXIT_ERR;
	case OPT_DEBUGINFO: sym_debug_dirs_add(optarg); break; /* searched first, for every file */
	case OPT_TRACEABLE: o->c.traceable_functions = optarg; break;
	case OPT_VERIFY_IR: break; /* lantern makes no LLVM IR: its own checks always run */
	case OPT_DWARF_PID: break; /* lantern unwinds no stack with DWARF in the kernel */
	case OPT_EMIT:
		fputs("ERROR: --emit-elf and --emit-llvm write LLVM's output: lantern has no LLVM; "
		      "-d bpf shows the instructions it makes\n", stderr);
		return ACT_EXIT_ERR;
	case 'l': return ACT_LIST;
	case 'h':
		usage(stdout);
		return ACT_EXIT_OK;
	case 'V':
		printf("lantern v%s\n", LANTERN_VERSION);
		return ACT_EXIT_OK;
	default:
		usage(stderr);
		return ACT_EXIT_ERR;
	}
	return ACT_RUN;
}

/* The script: -e's text, or the file named first (its name then is the script's). */
static char *script_text(struct options *o, const char *program, int argc, char **argv)
{
	char *text;

	if (program)
		return strdup(program);
	if (optind >= argc) {
		fputs("ERROR: no program given: use -e 'program' or a script file\n", stderr);
		usage(stderr);
		return NULL;
	}
	o->c.script_name = argv[optind];
	text = util_read_file(argv[optind], NULL);
	if (!text) {
		fprintf(stderr, "ERROR: failed to open file '%s': %s\n", argv[optind],
			strerror(errno));
		return NULL;
	}
	if (!strcmp(argv[optind], "-"))
		o->c.script_name = "stdin";
	optind++;
	return text;
}

/*
 * -l PATTERN, and -l -e PROGRAM or -l script.bt: the probes a program
 * names. A pattern that looks like a file name but names no file is a
 * pattern, with a warning.
 */
static int list(struct options *o, const char *program, int argc, char **argv)
{
	const char *arg = optind < argc ? argv[optind] : NULL;
	char *text = NULL;
	int rc;

	if (optind + 1 < argc && !program) {
		fputs("ERROR: -l takes one pattern\n", stderr);
		return 1;
	}
	if (!program && arg && access(arg, R_OK) == 0 && !strchr(arg, ':')) {
		if (!(text = util_read_file(arg, NULL))) {
			fprintf(stderr, "ERROR: failed to open file '%s': %s\n", arg, strerror(errno));
			return 1;
		}
		o->c.script_name = arg;
		program = text;
	} else if (!program && arg && strlen(arg) > 3 && !strcmp(arg + strlen(arg) - 3, ".bt")) {
		fprintf(stderr,
			"WARNING: It appears that '%s' is a filename but the file does not exist. "
			"Treating '%s' as a search pattern.\n",
			arg, arg);
	}
	if (!program)
		return prov_list(arg, o->r.verbose > 0, o->r.pid, stdout);
	o->c.script = text ? text : (char *)program;
	rc = compile_list_program(&o->c, o->r.verbose > 0, o->r.pid, stdout);
	free(text);
	return rc;
}

/* The script's parameters: --name[=value] are named (getopt()), the rest positional ($1) */
static void split_params(struct options *o, int argc, char **argv)
{
	int n = argc - optind;

	o->c.params = util_xcalloc(n + 1, sizeof(char *));
	o->c.named = util_xcalloc(n + 1, sizeof(char *));
	for (int i = optind; i < argc; i++) {
		if (!strncmp(argv[i], "--", 2) && argv[i][2] && argv[i][2] != '-')
			o->c.named[o->c.nnamed++] = argv[i] + 2;
		else
			o->c.params[o->c.nparams++] = argv[i];
	}
}

/* After the options: -l, --info or a script to run. The exit status. */
static int run(struct options *o, const char *program, enum action act, int argc, char **argv)
{
	char *text;
	int rc;

	if (act == ACT_INFO)
		return rt_info_print(stdout, LANTERN_VERSION) < 0;
	if (act == ACT_LIST)
		return list(o, program, argc, argv);
	/* --include PATH: a file that is not there is a mistake (names look like #include's) */
	for (int i = 0; i < o->c.nincludes; i++) {
		if (strchr(o->c.includes[i], '/') && access(o->c.includes[i], R_OK) < 0) {
			fprintf(stderr, "ERROR: --include '%s': %s\n", o->c.includes[i], strerror(errno));
			return 1;
		}
	}
	if (!(text = script_text(o, program, argc, argv)))
		return 1;
	o->c.script = text;
	split_params(o, argc, argv);
	if (o->r.cmd && o->r.pid) {
		fputs("ERROR: -c and -p cannot be used together\n", stderr);
		free(text);
		return 1;
	}
	/* -f pprof -o FILE: the profile goes to FILE, the rest (printf) to stdout */
	if (o->r.format == OUTPUT_PPROF) {
		if (!o->r.output) {
			fputs("ERROR: -f pprof writes a binary profile: give its file with -o FILE\n", stderr);
			free(text);
			return 1;
		}
		o->r.pprof = o->r.output;
		o->r.output = NULL;
	}
	/* what of the command line changes the code */
	o->c.child = o->r.cmd != NULL;
	o->c.child_cmd = o->r.cmd;
	o->c.pid = o->r.pid;
	o->c.hist_sums = o->r.format == OUTPUT_PROMETHEUS || o->r.metrics;
	o->r.dump = o->c.dump != 0;

	rc = session_run(o, &rt_script_frontend);
	free(text);
	return rc;
}

/*
 * The exit status, once stdout's last bytes are out: a failed write
 * (a full disk, -l > /dev/full) is status 1, said once (base/outfile.h);
 * a reader gone (| head -1) ends as a process killed by SIGPIPE would.
 */
static int finish(int rc)
{
	util_out_flush(stdout, "stdout");
	switch (util_out_state()) {
	case UTIL_OUT_OK:
		return rc;
	case UTIL_OUT_FAILED:
		return 1;
	case UTIL_OUT_CLOSED:
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		return 141;
	}
	return rc;
}

/* Writes to a closed pipe fail with EPIPE (and end the run), not with SIGPIPE. */
static void on_sigpipe(int sig)
{
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "unsafe", no_argument, NULL, OPT_UNSAFE },
		{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
		{ "pprof", required_argument, NULL, OPT_PPROF },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "include", required_argument, NULL, OPT_INCLUDE },
		{ "no-warnings", no_argument, NULL, OPT_NO_WARNINGS },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "usdt-file-activation", no_argument, NULL, OPT_USDT_FILE_ACTIVATION },
		{ "dialect", required_argument, NULL, OPT_DIALECT },
		/* today's bpftrace's long spellings, and its newer options */
		{ "output", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "pid", required_argument, NULL, 'p' },
		{ "cmd", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "warnings", no_argument, NULL, 'k' },
		{ "debug", required_argument, NULL, 'd' },
		{ "test", no_argument, NULL, OPT_TEST },
		{ "bench", no_argument, NULL, OPT_BENCH },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "probe-filter", required_argument, NULL, OPT_PROBE_FILTER },
		{ "no-feature", required_argument, NULL, OPT_NO_FEATURE },
		{ "fmt", required_argument, NULL, OPT_FMT },
		{ "debuginfo", required_argument, NULL, OPT_DEBUGINFO },
		{ "traceable-functions", required_argument, NULL, OPT_TRACEABLE },
		{ "verify-llvm-ir", no_argument, NULL, OPT_VERIFY_IR },
		{ "emit-elf", required_argument, NULL, OPT_EMIT },
		{ "emit-llvm", required_argument, NULL, OPT_EMIT },
		{ "dwarf-pid", required_argument, NULL, OPT_DWARF_PID },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .c.script_name = "stdin" };
	const char *program = NULL;
	enum action act = ACT_RUN, a;
	int c, rc;

	/* a handler, not SIG_IGN: the -c command and system() start with SIGPIPE's default */
	signal(SIGPIPE, on_sigpipe);
	/*
	 * Large blocks (a /metrics page of megabytes, a map's dump) always
	 * from their own mappings, returned when freed: glibc otherwise raises
	 * this threshold to the largest block freed, and serves the next ones
	 * from a heap that keeps what it grew to (a soak's RSS grew by megabytes
	 * a minute, one scrape a second)
	 */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	if (argc > 1 && !strcmp(argv[1], "trace"))
		return finish(trace_main(argc - 1, argv + 1));
	if (getenv("LANTERN_DIALECT") &&
	    parse_dialect(getenv("LANTERN_DIALECT"), "LANTERN_DIALECT", &o.c.dialect) < 0)
		return 1;

	/* options may follow the script, as with bpftrace (`script.bt -c cmd`);
	   positional parameters that start with '-' come after `--` */
	while ((c = getopt_long(argc, argv, "e:o:f:B:qvd:c:p:I:khVl", longopts, NULL)) != -1) {
		a = parse_option(c, &o, &program);
		if (a == ACT_EXIT_OK || a == ACT_EXIT_ERR) {
			free(o.c.includes);
			free(o.c.include_dirs);
			return a == ACT_EXIT_ERR;
		}
		if (a != ACT_RUN)
			act = a;
	}
	rc = run(&o, program, act, argc, argv);
	free(o.c.includes);
	free(o.c.include_dirs);
	free(o.c.params);
	free(o.c.named);
	return finish(rc);
}
