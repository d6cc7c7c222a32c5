// SPDX-License-Identifier: MIT
/* The compile step: see compile.h. */
#include "compile/compile.h"
#include "compile/settings.h"
#include "codegen/gen.h"
#include "codegen/regalloc.h"
#include "codegen/scratch.h"
#include "parse/parser.h"
#include "probes/probes.h"
#include "sema/sema.h"

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
			if (sema_probe_uses_builtin(pr, BI_USTACK) || sema_probe_calls(pr, FN_USTACK))
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

int compile(struct plan *p, const struct compile_opts *opts, struct strbuf *dump)
{
	unsigned d = opts->dump;

	plan_init(p, opts);
	p->diag.no_warnings = opts->no_warnings;
	/* --include FILE is #include <FILE> before the script's; -I DIR looks first */
	for (int i = 0; i < opts->nincludes; i++)
		vec_push(&p->types.includes, opts->includes[i]);
	for (int i = 0; i < opts->ninclude_dirs; i++)
		vec_push(&p->types.include_dirs, opts->include_dirs[i]);
	p->ast = parse_program(&p->arena, &p->src, &p->diag);
	if (!p->ast)
		return -1;
	/* no config block yet: the environment's and the defaults */
	if (compile_settings(p, NULL, 0) < 0)
		return -1;
	p->strlen = (uint32_t)p->settings.v[SET_MAX_STRLEN];
	if (dump && (d & DUMP_AST))
		ast_dump(p->ast, dump);
	if (d && !(d & ~DUMP_AST))
		return 0;
	if (sema_preamble(p) < 0 || sema_expand(p, prov_table) < 0)
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
	if (sema_check(p) < 0)
		return -1;
	if (dump && (d & DUMP_TYPES))
		sema_dump_types(p, dump);
	if (d && !(d & (DUMP_IR | DUMP_BPF)))
		return 0;
	maps_plan(&p->maps, &p->arena, ringbuf_bytes(p), (uint32_t)p->settings.v[SET_MAX_MAP_KEYS]);
	return generate(p, !d || (d & DUMP_BPF), dump);
}
