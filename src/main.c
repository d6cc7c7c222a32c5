// SPDX-License-Identifier: MIT
/* lantern's command line: options in, a session out. */
#include "base/util.h"
#include "probes/list.h"
#include "runtime/session.h"
#include "trace/trace.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	      "                   or prometheus (the maps as Prometheus metrics)\n"
	      "    -q             quiet: no 'Attaching N probes...'\n"
	      "    -v             verbose\n"
	      "    -c CMD         run CMD once the probes are attached (cpid is its pid);\n"
	      "                   lantern ends when it exits\n"
	      "    -p PID         the process that uprobes and USDT probes follow\n"
	      "    -d STAGE       dump a stage and do not run: ast, types, ir, bpf, all\n"
	      "    -l [PATTERN]   list probes, e.g. -l 'tracepoint:sched:*' (-lv: with their fields)\n"
	      "    --dry-run      compile and load the programs, attach nothing\n"
	      "    --unsafe       allow system()\n"
	      "    --flamegraph FILE.svg  at exit, write the maps keyed by kstack/ustack as an\n"
	      "                   interactive SVG flame graph\n"
	      "    --metrics ADDR:PORT    serve the maps at http://ADDR:PORT/metrics in Prometheus's\n"
	      "                   format while the script runs (e.g. --metrics 0.0.0.0:9435)\n"
	      "    -h, --help     this help\n"
	      "    -V, --version  lantern's version\n"
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
	};
	char *copy = strdup(arg), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
			if (!strcmp(tok, stages[i].name))
				break;
		if (i == sizeof(stages) / sizeof(stages[0])) {
			fprintf(stderr, "lantern: unknown stage '%s' for -d (ast, types, ir, bpf, all)\n",
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
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(arg, formats[i].name)) {
			*out = formats[i].format;
			return 0;
		}
	}
	fprintf(stderr, "lantern: unknown output format '%s' for -f (text, json, folded, prometheus)\n", arg);
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "unsafe", no_argument, NULL, 'U' },
		{ "flamegraph", required_argument, NULL, 'F' },
		{ "metrics", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .script_name = "stdin" };
	const char *program = NULL;
	bool list = false;
	char *text;
	int c, rc;

	if (argc > 1 && !strcmp(argv[1], "trace"))
		return trace_main(argc - 1, argv + 1);

	/* options may follow the script, as with bpftrace (`script.bt -c cmd`);
	   positional parameters that start with '-' come after `--` */
	while ((c = getopt_long(argc, argv, "e:o:f:qvd:c:p:hVl", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			program = optarg;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &o.format) < 0)
				return 1;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'v':
			o.verbose++;
			break;
		case 'd':
			if (parse_dump(optarg, &o.dump) < 0)
				return 1;
			break;
		case 'c':
			o.cmd = optarg;
			break;
		case 'p': {
			char *end;
			errno = 0;
			long pid = strtol(optarg, &end, 10);
			if (errno || *end || pid <= 0 || kill(pid, 0) < 0) {
				fprintf(stderr, "lantern: no process with pid '%s'\n", optarg);
				return 1;
			}
			o.pid = pid;
			break;
		}
		case 'D':
			o.dry_run = true;
			break;
		case 'U':
			o.unsafe = true;
			break;
		case 'F':
			o.flamegraph = optarg;
			break;
		case 'M':
			o.metrics = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("lantern v%s\n", LANTERN_VERSION);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (list) {
		if (optind + 1 < argc) {
			fputs("lantern: -l takes one pattern\n", stderr);
			return 1;
		}
		return list_probes(optind < argc ? argv[optind] : program, o.verbose > 0, stdout);
	}
	if (program) {
		text = strdup(program);
	} else {
		if (optind >= argc) {
			fputs("lantern: no program given: use -e 'program' or a script file\n", stderr);
			usage(stderr);
			return 1;
		}
		o.script_name = argv[optind];
		text = read_file(argv[optind], NULL);
		if (!text) {
			fprintf(stderr, "lantern: cannot read %s: %s\n", argv[optind], strerror(errno));
			return 1;
		}
		if (!strcmp(argv[optind], "-"))
			o.script_name = "stdin";
		optind++;
	}
	o.script = text;
	o.params = argv + optind;
	o.nparams = argc - optind;
	if (o.cmd && o.pid) {
		fputs("lantern: -c and -p cannot be used together\n", stderr);
		free(text);
		return 1;
	}

	/* Signals wait for the event loop: teardown always runs. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	rc = session_run(&o, &script_frontend);
	free(text);
	return rc;
}
