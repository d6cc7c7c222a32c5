// SPDX-License-Identifier: MIT
/*
 * The session: parse, check, generate, load, attach, run, print, release.
 * Every exit path after the first kernel object goes through teardown.
 */
#include "runtime/session.h"
#include "output/symbols.h"
#include "output/mapprint.h"
#include "output/writer.h"
#include "parse/parser.h"
#include "probes/provider.h"
#include "probes/tracefs.h"
#include "runtime/child.h"
#include "runtime/load.h"
#include "runtime/loop.h"
#include "sema/sema.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

void session_defer_free(struct session *s, void (*fn)(void *), void *p)
{
	struct deferred d = { fn, p };
	vec_push(&s->deferred, d);
}

/* Root, or CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN. */
static bool privileged(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data) < 0)
		return false;
#define HAS(cap) (data[(cap) / 32].effective & (1u << ((cap) % 32)))
	return HAS(CAP_SYS_ADMIN) || (HAS(CAP_BPF) && HAS(CAP_PERFMON));
#undef HAS
}

static void flush_diag(struct session *s)
{
	diag_flush(&s->diag, stderr);
}

static void dump_ir(struct session *s)
{
	struct strbuf sb = { 0 };

	vec_foreach(&s->progs, pp)
	{
		sb_printf(&sb, "; %s\n", (*pp)->name);
		ir_dump(&(*pp)->ir, &sb);
	}
	fputs(sb_str(&sb), stdout);
	sb_free(&sb);
}

static int count_probes(struct session *s)
{
	return s->insts.len;
}

/* Everything up to attached, running probes. 0, or -1 with errors reported. */
static int start(struct session *s)
{
	struct options *o = s->opts;
	bool kernel = !(o->dump & (DUMP_AST | DUMP_TYPES | DUMP_IR)) || (o->dump & DUMP_BPF);

	s->prog = parse_program(&s->arena, &s->src, &s->diag);
	if (!s->prog)
		return -1;
	if (o->dump & DUMP_AST) {
		struct strbuf sb = { 0 };
		ast_dump(s->prog, &sb);
		fputs(sb_str(&sb), stdout);
		sb_free(&sb);
		if (!(o->dump & ~DUMP_AST))
			return 1;
	}
	if (kernel && !privileged()) {
		fprintf(stderr, "lantern: error E%d: tracing needs root (or CAP_BPF and CAP_PERFMON)\n",
			E_PERMISSION);
		return -1;
	}
	if (sema_expand(s) < 0 || sema_check(s) < 0)
		return -1;
	if (o->dump & DUMP_TYPES) {
		struct strbuf sb = { 0 };
		sema_dump_types(s, &sb);
		fputs(sb_str(&sb), stdout);
		sb_free(&sb);
	}
	if (o->cmd && !(o->dump & (DUMP_AST | DUMP_TYPES | DUMP_IR)) && child_spawn(s) < 0)
		return -1;
	plan_programs(s);
	plan_maps(s);
	if (generate(s) < 0)
		return -1;
	if (o->dump & DUMP_IR)
		dump_ir(s);
	if (!kernel)
		return 1;
	if (!(o->dump & DUMP_BPF) && create_maps(s) < 0)
		return -1;
	if (load_programs(s) < 0)
		return -1;
	if (o->dump || o->dry_run)
		return 1;
	flush_diag(s); /* warnings before the output */
	if (!o->quiet) {
		struct strbuf sb = { 0 };
		s->writer->attached(&sb, count_probes(s));
		fwrite(sb.s, 1, sb.len, s->out);
		fflush(s->out);
		sb_free(&sb);
	}
	if (attach_all(s) < 0)
		return -1;
	return 0;
}

void session_init(struct session *s, struct options *o)
{
	memset(s, 0, sizeof(*s));
	s->opts = o;
	s->child_go_fd = -1;
	s->start_ns = now_ns();
	s->out = stdout;
	s->writer = writer_for(o->format);
	source_init(&s->src, o->script_name, o->script, strlen(o->script));
	diag_init(&s->diag, &s->src);
}

void session_free(struct session *s)
{
	release_all(s);
	child_reap(s);
	vec_foreach(&s->deferred, d) d->fn(d->p);
	vec_free(&s->deferred);
	vec_free(&s->insts);
	vec_free(&s->progs);
	vec_free(&s->maps);
	vec_free(&s->bpf_maps);
	vec_free(&s->records);
	vec_free(&s->probe_names);
	vec_free(&s->stack_maps);
	symbols_release();
	vec_free(&s->attachments);
	if (s->out && s->out != stdout)
		fclose(s->out);
	else
		fflush(stdout);
	s->out = NULL;
	diag_free(&s->diag);
	source_free(&s->src);
	arena_free(&s->arena);
	tracefs_release();
}

int session_run(struct options *o)
{
	struct session s;
	int rc;

	session_init(&s, o);
	if (o->output && !(s.out = fopen(o->output, "w"))) {
		fprintf(stderr, "lantern: cannot write %s: %s\n", o->output, strerror(errno));
		session_free(&s);
		return 1;
	}
	/* kernels before 5.11 charge BPF memory to RLIMIT_MEMLOCK */
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_MEMLOCK, &rl);

	rc = start(&s);
	flush_diag(&s);
	if (rc == 0) {
		rc = run_loop(&s);
		flush_diag(&s);
	}

	int exit_code = s.exit_code;
	session_free(&s);
	if (rc < 0)
		return 1;
	return rc == 1 ? 0 : exit_code;
}
