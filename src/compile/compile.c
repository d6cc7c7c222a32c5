// SPDX-License-Identifier: MIT
/* The compile step: see compile.h. */
#include "compile/compile.h"
#include "codegen/funcs.h"
#include "compile/settings.h"
#include "codegen/gen.h"
#include "codegen/regalloc.h"
#include "codegen/scratch.h"
#include "parse/parser.h"
#include "probes/probes.h"
#include "sema/sema.h"
#include "sym/srcline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The ring buffer: big when a traced event prints (printf, join, system,
 * cat), small when only BEGIN/END print or records are rare (exit, print,
 * time): its pages are mapped into lantern and count in its memory.
 * LANTERN_RINGBUF_KB overrides.
 */
static uint32_t ringbuf_bytes(const struct plan *p)
{
	const char *e = getenv("LANTERN_RINGBUF_KB");
	uint64_t want = 64 * 1024, n = 4096;

	vec_foreach(&p->insts, ip)
	{
		if (!((*ip)->prov->flags & PROV_F_USER) && sema_probe_prints((*ip)->probe))
			want = 2u << 20;
	}
	/* user stacks' snapshots (codegen/gen_ustack.c): a few KB each */
	if (p->settings.v[SET_USTACK_UNWIND] != UNWIND_FP)
		vec_foreach(&p->insts, ip)
		{
			struct probe *pr = (*ip)->probe;
			if (sema_probe_uses_builtin(pr, BI_USTACK) || sema_probe_calls(pr, FN_USTACK) ||
			    sema_probe_calls(pr, FN_DW_USTACK))
				want = MAX(want, 8u << 20);
		}
	if (e)
		want = strtoull(e, NULL, 10) * 1024;
	/* a power of two, at least a page */
	while (n < want && n < (1u << 30))
		n <<= 1;
	return n;
}

static void dump_ir(struct plan *p, struct ir *irs, struct strbuf *out)
{
	vec_foreach(&p->progs, pp)
	{
		sb_printf(out, "; %s\n", (*pp)->name);
		ir_dump(&irs[(*pp)->index], out);
	}
}

/*
 * A program with subprograms (for loops' bodies): the BTF of its
 * functions, which the kernel wants of callbacks (their arguments: the
 * program's context; bpf_loop's index and context; bpf_for_each_map_elem's
 * map, key, value and context).
 */
static int describe_funcs(struct plan *p, struct prog *pg, const struct ir *ir)
{
	static const uint8_t nargs[] = { [FUNC_MAIN] = 1, [FUNC_LOOP_CB] = 2, [FUNC_MAP_CB] = 4 };
	struct code_func *cf = NULL;
	uint32_t n = ir_funcs(ir, &cf);
	struct ir_btf_func *f;
	struct ir_linked out = { 0 };
	char err[256];
	int rc = 0;

	if (!n) {
		free(cf);
		return 0;
	}
	f = ARENA_ARRAY(&p->arena, struct ir_btf_func, n);
	for (uint32_t i = 0; i < n; i++)
		f[i] = (struct ir_btf_func){ i ? arena_printf(&p->arena, "lt_sub%u", i) : "lt_prog",
					     nargs[cf[i].kind], i == 0, cf[i].insn };
	free(cf);
	if (ir_btf_funcs(f, n, &p->arena, &out, err, sizeof(err)) < 0) {
		diag_error(&p->diag, pg->probe->span, E_CODEGEN, "%s: %s", pg->name, err);
		rc = -1;
	}
	pg->btf = out.btf;
	pg->btf_size = out.btf_size;
	pg->func_info = out.func_info;
	pg->nfuncs = out.nfuncs;
	return rc;
}

/* Registers, then instructions: -d bpf shows them as they will load. */
static int assemble(struct plan *p, struct prog *pg, struct ir *ir, struct strbuf *dump)
{
	char err[256];
	int n;

	if (ir_regalloc(ir, err, sizeof(err)) < 0 || (n = ir_assemble(ir, &pg->insns, err, sizeof(err))) < 0) {
		diag_error(&p->diag, pg->probe->span, E_CODEGEN, "%s: %s", pg->name, err);
		return -1;
	}
	pg->ninsns = n;
	if (describe_funcs(p, pg, ir) < 0)
		return -1;
	if (dump) {
		sb_printf(dump, "; %s\n", pg->name);
		ir_bpf_dump(pg->insns, n, dump);
	}
	return 0;
}

/* IR for every program, then BPF: sizes the scratch map. */
static int generate(struct plan *p, bool to_bpf, struct strbuf *dump)
{
	struct ir *irs = util_xcalloc(p->progs.len + 1, sizeof(struct ir));
	struct bpf_map_desc *scratch;
	uint32_t size = 8;
	int rc = 0;

	p->checks_stop = p->maps.stop >= 0; /* gen_program() puts the check in */
	vec_foreach(&p->progs, pp)
	{
		struct prog *pg = *pp;
		pg->inst->prov->prog_setup(p, pg);
		if (gen_program(p, pg, &irs[pg->index]) < 0)
			rc = -1;
		size = MAX(size, pg->scratch_size);
	}
	/* one scratch entry per program, each as big as the biggest needs */
	scratch = &p->maps.bpf.data[p->maps.scratch];
	scratch->value_size = size;
	scratch->max_entries = p->progs.len ? p->progs.len : 1;
	if (rc == 0 && dump && (p->opts->dump & DUMP_IR))
		dump_ir(p, irs, dump);
	if (rc == 0 && to_bpf) {
		vec_foreach(&p->progs, pp)
		{
			if (assemble(p, *pp, &irs[(*pp)->index],
				     dump && (p->opts->dump & DUMP_BPF) ? dump : NULL) < 0)
				rc = -1;
		}
	}
	for (size_t i = 0; i < p->progs.len; i++)
		ir_free(&irs[i]);
	free(irs);
	return rc;
}

/*
 * Which bpftrace the script is read as: today's when it uses a construct
 * 0.17 lacks (the parser and the expansion of attach points note the
 * first), or when --dialect 0.26 says so. --dialect 0.17 refuses those
 * constructs rather than give them 0.17 meanings they never had.
 */
static int dialect(struct plan *p)
{
	const struct program *ast = p->ast;

	switch (p->opts->dialect) {
	case DIALECT_0_26:
		p->modern = true;
		break;
	case DIALECT_0_17:
		if (!ast->modern_what)
			break;
		diag_error(&p->diag, ast->modern_span, E_DIALECT,
			   "%s is today's bpftrace (0.18 to 0.26), not bpftrace 0.17", ast->modern_what);
		diag_hint(&p->diag, "--dialect 0.17 reads bpftrace 0.17's language only; leave it out "
				    "(or give --dialect 0.26) to read today's");
		return -1;
	default:
		p->modern = ast->modern_what != NULL;
	}
	sema_modern_names(p);
	return 0;
}

/* The script's config block, the environment, the defaults (today's when plan.modern) */
static int settings(struct plan *p)
{
	const struct program *ast = p->ast;
	struct setting_item *items = ARENA_ARRAY(&p->arena, struct setting_item, ast->nconfig + 1);

	for (uint32_t i = 0; i < ast->nconfig; i++)
		items[i] = (struct setting_item){ ast->config[i].name, ast->config[i].value,
						  ast->config[i].span };
	if (compile_settings(p, items, ast->nconfig) < 0)
		return -1;
	p->strlen = (uint32_t)p->settings.v[SET_MAX_STRLEN];
	return 0;
}

/*
 * The named parameters of the command line (`-- --name=value`) against
 * the script's getopt() calls: one it does not read is an error, and
 * `-- --help` lists those it reads.
 */
static int check_options(struct plan *p)
{
	struct strbuf bad = { 0 }, known = { 0 };
	bool help = false;

	for (int i = 0; i < p->opts->nnamed; i++) {
		const char *a = p->opts->named[i];
		size_t n = strcspn(a, "=");
		bool found = false;
		if (!strcmp(a, "help")) {
			help = true;
			continue;
		}
		vec_foreach(&p->script_options, o) found |= strlen(o->name) == n && !strncmp(o->name, a, n);
		if (!found)
			sb_printf(&bad, "%s--%.*s", bad.len ? ", " : "", (int)n, a);
	}
	if (!bad.len && !help)
		return 0;
	/* as bpftrace: one line after a mistake; a line each, described, for --help */
	vec_foreach(&p->script_options, o)
	{
		if (!help || bad.len) {
			sb_printf(&known, "%s--%s", known.len ? ", " : " ", o->name);
			continue;
		}
		sb_printf(&known, "\n  --%s", o->name);
		if (o->desc)
			sb_printf(&known, ": %s", o->desc);
	}
	if (bad.len)
		diag_error(&p->diag, SPAN_NONE, E_ARG_TYPE, "unexpected program command line options: %s",
			   sb_str(&bad));
	else
		diag_error(&p->diag, SPAN_NONE, E_ARG_TYPE, "--help: the program's options are given "
							    "after --");
	if (known.len)
		diag_hint(&p->diag, "expected program options:%s", sb_str(&known));
	else
		diag_hint(&p->diag, "the program reads no option (getopt())");
	sb_free(&bad);
	sb_free(&known);
	return -1;
}

int compile(struct plan *p, const struct compile_opts *opts, struct strbuf *dump)
{
	unsigned d = opts->dump;

	plan_init(p, opts);
	p->types.dwarf_find = sym_dwarf_path; /* a stripped program's types: its debug file's */
	p->diag.no_warnings = opts->no_warnings;
	/* --include FILE is #include <FILE> before the script's; -I DIR looks first */
	for (int i = 0; i < opts->nincludes; i++)
		vec_push(&p->types.includes, opts->includes[i]);
	for (int i = 0; i < opts->ninclude_dirs; i++)
		vec_push(&p->types.include_dirs, opts->include_dirs[i]);
	p->ast = parse_program(&p->arena, &p->src, &p->diag);
	if (!p->ast || compile_imports(p) < 0)
		return -1;
	if (dump && (d & DUMP_AST))
		ast_dump(p->ast, dump);
	if (d && !(d & ~DUMP_AST))
		return 0;
	/* macros and functions: where they are called, before programs are planned */
	if (sema_expand_macros(p) < 0 || sema_inline_fns(p) < 0)
		return -1;
	/* the settings by what the parser saw; again if the attach points make the script today's */
	p->modern = opts->dialect == DIALECT_0_26 ||
		    (opts->dialect == DIALECT_AUTO && p->ast->modern_what);
	if (settings(p) < 0 || sema_preamble(p) < 0 || sema_expand(p, prov_table) < 0)
		return -1;
	bool was = p->modern;
	if (dialect(p) < 0 || (p->modern != was && settings(p) < 0))
		return -1;
	if (opts->probe_filter && compile_probe_filter(p, opts->probe_filter) < 0)
		return -1;
	compile_plan_programs(p);
	uint64_t max_probes = p->settings.v[SET_MAX_PROBES];
	if (p->nattach > max_probes) {
		diag_error(&p->diag, SPAN_NONE, E_TOO_MANY_PROBES,
			   "Can't attach to %u probes because it exceeds the current limit of "
			   "%llu probes.",
			   p->nattach, (unsigned long long)max_probes);
		diag_hint(&p->diag,
			  "raise the limit with BPFTRACE_MAX_PROBES (or LANTERN_MAX_PROBES), with "
			  "care: very many probes attached can bring the system down");
		return -1;
	}
	if (sema_check(p) < 0 || check_options(p) < 0)
		return -1;
	if (dump && (d & DUMP_TYPES))
		sema_dump_types(p, dump);
	if (d && !(d & (DUMP_IR | DUMP_BPF)))
		return 0;
	maps_plan(&p->maps, &p->arena, ringbuf_bytes(p), (uint32_t)p->settings.v[SET_MAX_MAP_KEYS]);
	return generate(p, !d || (d & DUMP_BPF), dump);
}
