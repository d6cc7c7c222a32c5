// SPDX-License-Identifier: MIT
/*
 * lantern trace --calls 'LIB:PATTERN[,PATTERN...]': calls into a shared
 * library (or a program), ltrace-style. Each matching function gets a
 * uprobe and a uretprobe, each with a tiny program of its own (the
 * function's index is a constant in it): the traced task's argument
 * registers at entry, its return register at return, sent through the
 * ring buffer with the syscalls' records, so the printer shows both in
 * the order they happened. The arguments are typed from the library's
 * DWARF when it has some (their number, names and types); otherwise the
 * six argument registers print in hex.
 */
#include "trace/emit.h"
#include "base/util.h"
#include "probes/probes.h"
#include "probes/uprobe.h"
#include "sym/elf.h"
#include "sym/srcline.h"
#include "sys/arch.h"
#include "types/dwarf.h"
#include "types/env.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CALLS_MAX 1024 /* functions traced at most (two programs each) */

/* uprobe (TREC_CALL): the task's argument registers; uretprobe (TREC_RETURN): its return register */
static void gen_lib(struct tb *b, struct ir *ir, enum trace_rec kind)
{
	const struct arch_regs *regs = sys_arch_regs();
	int32_t tid = ir_vreg(ir), tgid = ir_vreg(ir), t = ir_vreg(ir), off = ir_vreg(ir);
	int16_t slot = ir_stack(ir, 8);

	trace_prologue(b, ir);
	trace_traced_only(b, tid, tgid, slot);
	trace_scratch(b, slot);
	emit(ir, ST_MEM(BPF_DW, b->s, HDR(id), b->ids[kind]));
	emit(ir, CALL(BPF_FUNC_ktime_get_ns, 0));
	emit(ir, STX_MEM(BPF_DW, b->s, R0, HDR(ts)));
	emit(ir, STX_MEM(BPF_W, b->s, tid, HDR(tid)));
	emit(ir, STX_MEM(BPF_W, b->s, tgid, HDR(pid)));
	emit(ir, ST_MEM(BPF_W, b->s, HDR(nr), (int32_t)b->func));
	emit(ir, ST_MEM(BPF_W, b->s, HDR(flags), 0));
	for (int i = 0; i < TRACE_NARGS; i++) {
		if (kind == TREC_CALL) {
			emit(ir, LDX_MEM(BPF_DW, t, b->ctx, regs->arg[i]));
			emit(ir, STX_MEM(BPF_DW, b->s, t, HDR(a) + 8 * i));
		}
		emit(ir, ST_MEM(BPF_H, b->s, HDR(dlen) + 2 * i, 0));
	}
	if (kind == TREC_RETURN) {
		emit(ir, LDX_MEM(BPF_DW, t, b->ctx, regs->ret));
		emit(ir, STX_MEM(BPF_DW, b->s, t, HDR(ret)));
	}
	trace_put_comm(b);
	emit(ir, MOV64_IMM(off, SCR_DATA));
	trace_send(b, off, slot);
	trace_epilogue(b);
}

static void gen_libcall(struct tb *b, struct ir *ir)
{
	gen_lib(b, ir, TREC_CALL);
}

static void gen_libreturn(struct tb *b, struct ir *ir)
{
	gen_lib(b, ir, TREC_RETURN);
}

/* Two programs (entry, return) on function f of path */
static int add_func(struct tb *b, const char *path, const struct elf_func *f)
{
	struct plan *p = b->p;
	const struct provider *provs[2] = { &prov_uprobe, &prov_uretprobe };
	void (*gens[2])(struct tb *, struct ir *) = { gen_libcall, gen_libreturn };

	for (int k = 0; k < 2; k++) {
		struct attach_point *ap;
		struct probe *pr = trace_probe(b, provs[k]->name, arena_printf(&p->arena, "%s:%s", path, f->name),
					       &ap);
		struct uprobe_inst *ui = ARENA_NEW(&p->arena, struct uprobe_inst);
		struct probe_inst *in = plan_add_inst(p, pr, ap, provs[k], ap->text);
		struct prog *pg;

		ui->path = arena_strdup(&p->arena, path);
		ui->func = arena_strdup(&p->arena, f->name);
		ui->offset = f->offset;
		in->data = ui;
		pg = plan_add_prog(p, pr, in);
		plan_prog_attach_inst(pg, in);
		pg->type = BPF_PROG_TYPE_KPROBE;
		if (trace_assemble_prog(b, pg, gens[k], ap->text) < 0)
			return -1;
	}
	return 0;
}

/*
 * Prototypes of common C library functions, for a libc without debug
 * info (ltrace has a file of them): each argument and the result as
 * i (int), l (long, ssize_t), u (size_t, unsigned long), p (a pointer),
 * v (void, the result only).
 */
static const struct {
	const char *name, *args;
	char ret;
} protos[] = {
	{ "malloc", "u", 'p' },	     { "free", "p", 'v' },	   { "calloc", "uu", 'p' },
	{ "realloc", "pu", 'p' },    { "reallocarray", "puu", 'p' }, { "posix_memalign", "puu", 'i' },
	{ "aligned_alloc", "uu", 'p' }, { "strdup", "p", 'p' },	   { "strndup", "pu", 'p' },
	{ "strlen", "p", 'u' },	     { "strcmp", "pp", 'i' },	   { "strncmp", "ppu", 'i' },
	{ "strcpy", "pp", 'p' },     { "strncpy", "ppu", 'p' },	   { "strchr", "pi", 'p' },
	{ "strrchr", "pi", 'p' },    { "strstr", "pp", 'p' },	   { "memcpy", "ppu", 'p' },
	{ "memmove", "ppu", 'p' },   { "memset", "piu", 'p' },	   { "memcmp", "ppu", 'i' },
	{ "puts", "p", 'i' },	     { "fputs", "pp", 'i' },	   { "putchar", "i", 'i' },
	{ "fopen", "pp", 'p' },	     { "fclose", "p", 'i' },	   { "fread", "puup", 'u' },
	{ "fwrite", "puup", 'u' },   { "fflush", "p", 'i' },	   { "getenv", "p", 'p' },
	{ "setenv", "ppi", 'i' },    { "atoi", "p", 'i' },	   { "strtol", "ppi", 'l' },
	{ "open", "pii", 'i' },	     { "close", "i", 'i' },	   { "read", "ipu", 'l' },
	{ "write", "ipu", 'l' },     { "exit", "i", 'v' },	   { "abort", "", 'v' },
	{ "qsort", "puup", 'v' },    { "sleep", "u", 'u' },	   { "usleep", "u", 'i' },
	{ "pthread_create", "pppp", 'i' }, { "pthread_join", "up", 'i' },
	{ "pthread_mutex_lock", "p", 'i' }, { "pthread_mutex_unlock", "p", 'i' },
	{ "dlopen", "pi", 'p' },     { "dlsym", "pp", 'p' },
};

static struct type ty_cptr = { .kind = TY_PTR, .size = 8, .align = 8 };

static struct type *proto_type(char c)
{
	switch (c) {
	case 'i':
		return &ty_s32;
	case 'l':
		return &ty_s64;
	case 'u':
		return &ty_u64;
	case 'v':
		return &ty_void;
	default:
		return &ty_cptr;
	}
}

/* The function's prototype: from the file's DWARF, or the table above for the C library's */
static void func_types(struct tb *b, struct dwarf_src *d, struct trace_func *tf)
{
	struct btf_func bf;

	tf->nargs = -1;
	if (!types_dwarf_src_func(d, tf->name, &bf, NULL)) {
		const char *base = strrchr(tf->path, '/');
		if (strncmp(base ? base + 1 : tf->path, "libc.so", 7) && strncmp(base ? base + 1 : tf->path, "libc-", 5))
			return;
		for (size_t i = 0; i < ARRAY_SIZE(protos); i++)
			if (!strcmp(protos[i].name, tf->name)) {
				tf->nargs = (int)strlen(protos[i].args);
				for (int k = 0; k < tf->nargs; k++)
					tf->types[k] = proto_type(protos[i].args[k]);
				tf->ret = proto_type(protos[i].ret);
			}
		return;
	}
	tf->nargs = 0;
	tf->ret = bf.ret;
	for (uint32_t i = 0; i < bf.nparams && i < TRACE_NARGS; i++) {
		struct type *t = bf.params[i].type;
		if ((t->kind != TY_INT && t->kind != TY_PTR) || t->size > 8) {
			tf->nargs = -1; /* passed in a way the registers do not say */
			return;
		}
		tf->types[i] = t;
		tf->names[i] = bf.params[i].name;
		tf->nargs++;
	}
}

/* LIB:PATTERN[,PATTERN...]: its functions into b->funcs, two programs each */
static int add_spec(struct tb *b, const char *spec)
{
	struct plan *p = b->p;
	const char *colon = strrchr(spec, ':');
	char lib[PATH_MAX], path[PATH_MAX], err[256];
	struct elf_funcs funcs;
	struct dwarf_src d;
	int before = (int)b->funcs->len, rc = 0;

	if (!colon || colon == spec || !colon[1]) {
		diag_error(&p->diag, SPAN_NONE, E_SYNTAX, "--calls %s: LIB:PATTERN[,PATTERN...] (libc:malloc,free)",
			   spec);
		return -1;
	}
	snprintf(lib, sizeof(lib), "%.*s", (int)(colon - spec), spec);
	if (!prov_resolve_file(lib, path, b->o->pids.len ? b->o->pids.data[0] : 0) ||
	    sym_elf_funcs_load(path, &funcs, err, sizeof(err)) < 0) {
		diag_error(&p->diag, SPAN_NONE, E_UNKNOWN_FILE, "--calls: no library or program '%s'", lib);
		return -1;
	}
	types_dwarf_src_init(&d, &p->arena, path);
	d.find = sym_dwarf_path;
	for (size_t i = 0; i < funcs.n && rc == 0; i++) {
		const struct elf_func *f = &funcs.v[i];
		char *pats = util_xstrdup(colon + 1), *save = NULL;
		bool match = false, dup = false;
		for (char *pat = strtok_r(pats, ",", &save); pat && !match; pat = strtok_r(NULL, ",", &save))
			match = util_wildcard_match(pat, f->name);
		free(pats);
		/* one name per address: aliases would fire twice */
		for (int k = before; match && k < (int)b->funcs->len && !dup; k++)
			dup = b->funcs->data[k].offset == f->offset && !strcmp(b->funcs->data[k].path, path);
		if (!match || dup || !f->offset)
			continue;
		if (b->funcs->len >= CALLS_MAX) {
			diag_error(&p->diag, SPAN_NONE, E_TOO_BIG, "--calls: more than %d functions match", CALLS_MAX);
			rc = -1;
			break;
		}
		struct trace_func tf = { .name = arena_strdup(&p->arena, f->name),
					 .path = arena_strdup(&p->arena, path), .offset = f->offset };
		func_types(b, &d, &tf);
		vec_push(b->funcs, tf);
		b->func = (uint32_t)b->funcs->len - 1;
		rc = add_func(b, path, f);
	}
	if (rc == 0 && (int)b->funcs->len == before) {
		diag_error(&p->diag, SPAN_NONE, E_UNKNOWN_SYMBOL, "--calls: no function of %s matches '%s'", path, colon + 1);
		rc = -1;
	}
	types_dwarf_src_free(&d);
	sym_elf_funcs_free(&funcs);
	return rc;
}

int trace_calls_plan(struct tb *b)
{
	if (b->o->calls.len && !sys_arch_regs()->arg[0] && !sys_arch_regs()->ret) {
		diag_error(&b->p->diag, SPAN_NONE, E_MECHANISM_MISSING, "--calls: no argument registers known here");
		return -1;
	}
	vec_foreach(&b->o->calls, spec)
	{
		if (add_spec(b, *spec) < 0)
			return -1;
	}
	return 0;
}
