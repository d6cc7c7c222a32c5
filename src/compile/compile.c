// SPDX-License-Identifier: MIT
/* The compile step: see compile.h. */
#include "compile/compile.h"
#include "codegen/gen.h"
#include "codegen/regalloc.h"
#include "codegen/scratch.h"
#include "parse/parser.h"
#include "probes/provider.h"
#include "sema/sema.h"

#include <stdlib.h>

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
		if (!((*ip)->prov->flags & PROV_F_USER) && probe_prints((*ip)->probe))
			want = 2u << 20;
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

	if (regalloc(ir, err, sizeof(err)) < 0 || (n = ir_assemble(ir, &pg->insns, err, sizeof(err))) < 0) {
		diag_error(&p->diag, pg->probe->span, E_CODEGEN, "%s: %s", pg->name, err);
		return -1;
	}
	pg->ninsns = n;
	if (dump) {
		sb_printf(dump, "; %s\n", pg->name);
		bpf_dump(pg->insns, n, dump);
	}
	return 0;
}

/* IR for every program, then BPF: sizes the scratch map. */
static int generate(struct plan *p, bool to_bpf, struct strbuf *dump)
{
	struct ir *irs = xcalloc(p->progs.len + 1, sizeof(struct ir));
	struct bpf_map_desc *scratch;
	uint32_t size = 8;
	int rc = 0;

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
 * The size of strings read with str() and from tracepoint string fields:
 * LANTERN_STRLEN, else BPFTRACE_STRLEN, else 64 bytes (the NUL included).
 * Strings live in scratch memory, not on the BPF stack: they can be long.
 */
static int read_strlen(struct plan *p)
{
	const char *name = getenv("LANTERN_STRLEN") ? "LANTERN_STRLEN" : "BPFTRACE_STRLEN";
	const char *e = getenv(name);
	char *end;
	unsigned long n;

	p->strlen = STRLEN_DEFAULT;
	if (!e)
		return 0;
	n = strtoul(e, &end, 10);
	if (*end || end == e || n < 2 || n > STRLEN_MAX) {
		diag_error(&p->diag, SPAN_NONE, E_TOO_BIG, "%s=%s: a string size is 2 to %d bytes",
			   name, e, STRLEN_MAX);
		return -1;
	}
	p->strlen = (uint32_t)n;
	return 0;
}

/*
 * How many keys a map holds: LANTERN_MAP_KEYS_MAX, else
 * BPFTRACE_MAP_KEYS_MAX, else 4096 (as bpftrace).
 */
static int read_map_keys_max(struct plan *p, uint32_t *out)
{
	const char *name = getenv("LANTERN_MAP_KEYS_MAX") ? "LANTERN_MAP_KEYS_MAX"
							  : "BPFTRACE_MAP_KEYS_MAX";
	const char *e = getenv(name);
	char *end;
	unsigned long long n;

	*out = MAP_KEYS_DEFAULT;
	if (!e)
		return 0;
	n = strtoull(e, &end, 10);
	if (*end || end == e || n < 1 || n > MAP_KEYS_LIMIT) {
		diag_error(&p->diag, SPAN_NONE, E_TOO_BIG, "%s=%s: a map holds 1 to %u keys", name, e,
			   MAP_KEYS_LIMIT);
		return -1;
	}
	*out = (uint32_t)n;
	return 0;
}

int compile(struct plan *p, const struct options *opts, struct strbuf *dump)
{
	unsigned d = opts->dump;
	uint32_t keys_max;

	plan_init(p, opts);
	if (read_strlen(p) < 0 || read_map_keys_max(p, &keys_max) < 0)
		return -1;
	p->ast = parse_program(&p->arena, &p->src, &p->diag);
	if (!p->ast)
		return -1;
	if (dump && (d & DUMP_AST))
		ast_dump(p->ast, dump);
	if (d && !(d & ~DUMP_AST))
		return 0;
	if (sema_preamble(p) < 0 || sema_expand(p, providers) < 0)
		return -1;
	plan_programs(p);
	if (sema_check(p) < 0)
		return -1;
	if (dump && (d & DUMP_TYPES))
		sema_dump_types(p, dump);
	if (d && !(d & (DUMP_IR | DUMP_BPF)))
		return 0;
	maps_plan(&p->maps, &p->arena, ringbuf_bytes(p), keys_max);
	return generate(p, !d || (d & DUMP_BPF), dump);
}
