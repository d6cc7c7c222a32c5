// SPDX-License-Identifier: MIT
/*
 * for loops (today's bpftrace): the body is a subprogram that a helper
 * calls back, once per element: bpf_for_each_map_elem for `for ($kv :
 * @map)`, bpf_loop for `for ($i : lo..hi)` (lo and hi evaluated once, hi
 * excluded; bpf_loop runs at most 1 << 23 times, a longer range not at
 * all, with a warning). The verifier checks a callback once, however many
 * times it runs.
 *
 * The subprogram has its own registers and stack frame, so what it needs
 * of the probe's code comes through a context on the caller's stack, whose
 * address is the callback's last argument:
 *
 *   ctx + 0    the program's context pointer (args, arg0, kstack, ...)
 *   ctx + 8    this CPU's scratch area (variables of memory types, temporaries)
 *   ctx + 16   set when the body returns from the probe (`return`)
 *   ctx + 24   `probe` of a program serving several probes
 *   ctx + 32   the syscall number of a syscall group's program
 *   ctx + 40   the range's start
 *   ctx + 48   the scalar variables of the scopes around the loop that the
 *              body uses, 8 bytes each: loaded at the callback's entry,
 *              stored back at its exit, reloaded by the caller after the loop
 *
 * Variables of memory types live in scratch at the offsets the program
 * gave them, the same in every function. The callback returns 0 to go on
 * (the end of the body, `continue`) and 1 to stop (`break`, `return`);
 * after the loop, the caller leaves the probe when the body returned.
 *
 *   for ($kv : @m): $kv = (key, value); a key of several parts is a tuple,
 *   and a per-CPU count(), sum(), min(), max() or avg() is its value over
 *   every CPU (percpu_value).
 */
#include "codegen/gen.h"

#include <stdlib.h>

enum {
	CTX_PROG = 0,
	CTX_SCRATCH = 8,
	CTX_RETURNED = 16,
	CTX_PROBE_ID = 24,
	CTX_SYS_NR = 32,
	CTX_LO = 40,
	CTX_VARS = 48,
};

struct captured {
	struct stmt *loop;
	uint32_t depth;
	VEC(struct var_info *) vars;
};

/* a scalar variable of the scopes around the loop, used in its body */
static bool capture(struct expr *e, void *arg)
{
	struct captured *c = arg;
	struct var_info *v = e->kind == EXPR_VAR ? e->info : NULL;

	if (!v || !type_is_scalar(v->type) || v->loop_depth >= c->depth)
		return false;
	vec_foreach(&c->vars, w) if (*w == v) return false;
	vec_push(&c->vars, v);
	return false;
}

/* What the callback changes, and the caller keeps */
struct saved {
	struct ir *ir;
	int32_t func, ctx, scratch, out, ret, probe_id, sys_nr, loop_break, loop_continue;
	uint32_t stack_base, stack_top, stack_max;
};

static void save(const struct gen *g, struct saved *s)
{
	*s = (struct saved){ g->ir,	  g->func,	   g->ctx,	      g->scratch,
			     g->out,	  g->ret,	   g->probe_id,	      g->sys_nr,
			     g->loop_break, g->loop_continue, g->stack_base, g->stack_top,
			     g->stack_max };
}

static void restore(struct gen *g, const struct saved *s)
{
	g->ir = s->ir;
	g->func = s->func;
	g->ctx = s->ctx;
	g->scratch = s->scratch;
	g->out = s->out;
	g->ret = s->ret;
	g->probe_id = s->probe_id;
	g->sys_nr = s->sys_nr;
	g->loop_break = s->loop_break;
	g->loop_continue = s->loop_continue;
	g->stack_base = s->stack_base;
	g->stack_top = s->stack_top;
	g->stack_max = s->stack_max;
}

/*
 * A per-CPU aggregation's value over every CPU, as the maps print it:
 * count() and sum() add up, min() and max() keep the least or greatest
 * value a CPU has, avg() divides the totals.
 */
int32_t gen_percpu_value(struct gen *g, struct map_info *m, int32_t key)
{
	struct type *t = m->value;
	enum type_kind k = t->kind;
	int32_t cpu = ir_vreg(g->ir), a = ir_vreg(g->ir), b = ir_vreg(g->ir), x = ir_vreg(g->ir);
	int32_t top = ir_label(g->ir), next = ir_label(g->ir), done = ir_label(g->ir);

	// for (cpu = 0, a = b = 0; cpu < ncpus; cpu++) if (v = lookup_percpu(map, key, cpu)) ...
	emit(g->ir, MOV64_IMM(cpu, 0));
	emit(g->ir, MOV64_IMM(a, 0));
	emit(g->ir, MOV64_IMM(b, 0));
	emit(g->ir, LABEL(top));
	emit(g->ir, JMP_CONST(BPF_JGE, cpu, LC_NCPUS, done));
	emit(g->ir, JMP_IMM(BPF_JGE, cpu, 4096, done));
	emit(g->ir, LD_MAP(R1, m->bpf_map));
	emit(g->ir, MOV64_REG(R2, key));
	emit(g->ir, MOV64_REG(R3, cpu));
	emit(g->ir, CALL(BPF_FUNC_map_lookup_percpu_elem, 3));
	emit(g->ir, JMP_IMM(BPF_JEQ, R0, 0, next));
	if (k == TY_MIN || k == TY_MAX) {
		// if (v->set && (!b || v->value < a)) { a = v->value; b = 1 }   (> for max)
		uint8_t keep = k == TY_MIN ? (t->is_signed ? BPF_JSGE : BPF_JGE)
					   : (t->is_signed ? BPF_JSLE : BPF_JLE);
		int32_t take = ir_label(g->ir);
		emit(g->ir, LDX_MEM(BPF_DW, x, R0, 8));
		emit(g->ir, JMP_IMM(BPF_JEQ, x, 0, next));
		emit(g->ir, LDX_MEM(BPF_DW, x, R0, 0));
		emit(g->ir, JMP_IMM(BPF_JEQ, b, 0, take));
		emit(g->ir, JMP_REG(keep, x, a, next));
		emit(g->ir, LABEL(take));
		emit(g->ir, MOV64_REG(a, x));
		emit(g->ir, MOV64_IMM(b, 1));
	} else {
		// a += v[0]; b += v[1] (avg's count)
		emit(g->ir, LDX_MEM(BPF_DW, x, R0, 0));
		emit(g->ir, ALU64_REG(BPF_ADD, a, x));
		if (k == TY_AVG) {
			emit(g->ir, LDX_MEM(BPF_DW, x, R0, 8));
			emit(g->ir, ALU64_REG(BPF_ADD, b, x));
		}
	}
	emit(g->ir, LABEL(next));
	emit(g->ir, ALU64_IMM(BPF_ADD, cpu, 1));
	emit(g->ir, JA(top));
	emit(g->ir, LABEL(done));
	if (k == TY_AVG) {
		// a = b ? a / b : 0, the sign kept (eBPF divides unsigned)
		int32_t zero = ir_label(g->ir), pos = ir_label(g->ir), end = ir_label(g->ir);
		emit(g->ir, JMP_IMM(BPF_JEQ, b, 0, zero));
		emit(g->ir, JMP_IMM(BPF_JSGE, a, 0, pos));
		emit(g->ir, NEG64(a));
		emit(g->ir, ALU64_REG(BPF_DIV, a, b));
		emit(g->ir, NEG64(a));
		emit(g->ir, JA(end));
		emit(g->ir, LABEL(pos));
		emit(g->ir, ALU64_REG(BPF_DIV, a, b));
		emit(g->ir, JA(end));
		emit(g->ir, LABEL(zero));
		emit(g->ir, MOV64_IMM(a, 0));
		emit(g->ir, LABEL(end));
	}
	return a;
}

/* $kv = (key, value) in its scratch place, from the callback's key and value pointers */
static void map_elem(struct gen *g, struct stmt *st, struct var_info *kv, int32_t key, int32_t value)
{
	struct map_info *m = st->u.for_.map->info;
	const struct field *k = &kv->type->fields[0], *v = &kv->type->fields[1];

	gen_copy(g, g->scratch, kv->offset + k->offset, key, 0, k->type->size);
	if (type_is_agg(m->value)) {
		int32_t a = gen_addr(g, g->scratch, kv->offset + k->offset);
		int32_t t = gen_percpu_value(g, m, a);
		emit(g->ir, STX_MEM(BPF_DW, g->scratch, t, kv->offset + v->offset));
		return;
	}
	gen_copy(g, g->scratch, kv->offset + v->offset, value, 0, v->type->size);
}

/* The body as a callback; its index in the program's subprograms. */
static int32_t callback(struct gen *g, struct stmt *st, struct captured *cap)
{
	struct var_info *lv = st->u.for_.var->info;
	bool map = st->u.for_.map != NULL, group = g->probe_id >= 0 && g->sys_nr >= 0;
	int32_t sub = ir_new_sub(g->root, map ? FUNC_MAP_CB : FUNC_LOOP_CB, g->func);
	struct ir *ir = g->root->subs.data[sub];
	int32_t *outer = util_xcalloc(cap->vars.len + 1, sizeof(int32_t));
	int32_t ctx, arg1, arg2, res, cont, brk, ret, leave;

	g->ir = ir;
	g->func = sub;
	g->stack_base = g->stack_top = g->stack_max = 0;
	ctx = ir_vreg(ir);
	arg1 = ir_vreg(ir);
	arg2 = ir_vreg(ir);
	res = ir_vreg(ir);
	cont = ir_label(ir);
	brk = ir_label(ir);
	ret = ir_label(ir);
	leave = ir_label(ir);
	// bpf_loop: (index, ctx); bpf_for_each_map_elem: (map, key, value, ctx)
	emit(ir, MOV64_REG(ctx, map ? R4 : R2));
	emit(ir, MOV64_REG(arg1, map ? R2 : R1));
	emit(ir, MOV64_REG(arg2, map ? R3 : R1));
	g->ctx = ir_vreg(ir);
	g->scratch = ir_vreg(ir);
	emit(ir, LDX_MEM(BPF_DW, g->ctx, ctx, CTX_PROG));
	emit(ir, LDX_MEM(BPF_DW, g->scratch, ctx, CTX_SCRATCH));
	if (g->probe_id >= 0) {
		g->probe_id = ir_vreg(ir);
		emit(ir, LDX_MEM(BPF_DW, g->probe_id, ctx, CTX_PROBE_ID));
	}
	if (group) {
		g->sys_nr = ir_vreg(ir);
		emit(ir, LDX_MEM(BPF_DW, g->sys_nr, ctx, CTX_SYS_NR));
	}
	for (size_t i = 0; i < cap->vars.len; i++) {
		struct var_info *v = cap->vars.data[i];
		outer[i] = v->vreg;
		v->vreg = ir_vreg(ir);
		emit(ir, LDX_MEM(BPF_DW, v->vreg, ctx, CTX_VARS + 8 * (int32_t)i));
	}
	vec_foreach(&g->pg->vars, vp)
	{
		/* the loop's own variables start at zero in each round */
		if ((*vp)->loop != st || !type_is_scalar((*vp)->type))
			continue;
		(*vp)->vreg = ir_vreg(ir);
		emit(ir, MOV64_IMM((*vp)->vreg, 0));
	}
	if (map) {
		map_elem(g, st, lv, arg1, arg2);
	} else {
		// $i = lo + index
		emit(ir, LDX_MEM(BPF_DW, lv->vreg, ctx, CTX_LO));
		emit(ir, ALU64_REG(BPF_ADD, lv->vreg, arg1));
	}
	g->out = ret;
	g->ret = -1; /* the main function's: what a loop's body returns is not kept */
	g->loop_break = brk;
	g->loop_continue = cont;
	gen_stmt(g, st->u.for_.body);
	// continue: 0, break: 1, return: 1 and tell the caller
	emit(ir, LABEL(cont));
	emit(ir, MOV64_IMM(res, 0));
	emit(ir, JA(leave));
	emit(ir, LABEL(brk));
	emit(ir, MOV64_IMM(res, 1));
	emit(ir, JA(leave));
	emit(ir, LABEL(ret));
	emit(ir, ST_MEM(BPF_DW, ctx, CTX_RETURNED, 1));
	emit(ir, MOV64_IMM(res, 1));
	emit(ir, LABEL(leave));
	for (size_t i = 0; i < cap->vars.len; i++) {
		struct var_info *v = cap->vars.data[i];
		emit(ir, STX_MEM(BPF_DW, ctx, v->vreg, CTX_VARS + 8 * (int32_t)i));
		v->vreg = outer[i];
	}
	emit(ir, MOV64_REG(R0, res));
	emit(ir, EXIT_INSN());
	ir->stack_size = g->stack_base + g->stack_max;
	ir_prune(ir);
	free(outer);
	return sub;
}

void gen_for(struct gen *g, struct stmt *st)
{
	struct var_info *lv = st->u.for_.var->info;
	struct captured cap = { st, lv->loop_depth, { 0 } };
	struct saved s;
	uint32_t size, at;
	int32_t base, n = -1, sub, lo = -1;

	ast_stmt_any(st->u.for_.body, capture, &cap);
	if (!st->u.for_.map) {
		// n = hi > lo ? hi - lo : 0, both evaluated once
		int32_t hi, skip = ir_label(g->ir);
		lo = ir_vreg(g->ir);
		n = ir_vreg(g->ir);
		emit(g->ir, MOV64_REG(lo, gen_scalar(g, st->u.for_.lo)));
		hi = gen_scalar(g, st->u.for_.hi);
		emit(g->ir, MOV64_IMM(n, 0));
		emit(g->ir, JMP_REG(BPF_JSLE, hi, lo, skip));
		emit(g->ir, MOV64_REG(n, hi));
		emit(g->ir, ALU64_REG(BPF_SUB, n, lo));
		emit(g->ir, LABEL(skip));
	}
	/* the context, on this frame's stack */
	size = CTX_VARS + 8 * (uint32_t)cap.vars.len;
	g->stack_top += size;
	g->stack_max = MAX(g->stack_max, g->stack_top);
	at = g->stack_base + g->stack_top;
	base = -(int32_t)at;
	g->scratch_max = MAX(g->scratch_max, 8); /* the callback gets the scratch area */
	emit(g->ir, STX_MEM(BPF_DW, R10, g->ctx, base + CTX_PROG));
	emit(g->ir, STX_MEM(BPF_DW, R10, g->scratch, base + CTX_SCRATCH));
	emit(g->ir, ST_MEM(BPF_DW, R10, base + CTX_RETURNED, 0));
	if (g->probe_id >= 0)
		emit(g->ir, STX_MEM(BPF_DW, R10, g->probe_id, base + CTX_PROBE_ID));
	if (g->probe_id >= 0 && g->sys_nr >= 0)
		emit(g->ir, STX_MEM(BPF_DW, R10, g->sys_nr, base + CTX_SYS_NR));
	if (lo >= 0)
		emit(g->ir, STX_MEM(BPF_DW, R10, lo, base + CTX_LO));
	for (size_t i = 0; i < cap.vars.len; i++)
		emit(g->ir, STX_MEM(BPF_DW, R10, cap.vars.data[i]->vreg, base + CTX_VARS + 8 * (int32_t)i));

	save(g, &s);
	sub = callback(g, st, &cap);
	restore(g, &s);

	if (st->u.for_.map) {
		// bpf_for_each_map_elem(&map, callback, ctx, 0)
		struct map_info *m = st->u.for_.map->info;
		emit(g->ir, LD_MAP(R1, m->bpf_map));
	} else {
		// bpf_loop(n, callback, ctx, 0)
		emit(g->ir, MOV64_REG(R1, n));
	}
	emit(g->ir, LD_FUNC(R2, sub));
	emit(g->ir, MOV64_REG(R3, R10));
	emit(g->ir, ALU64_IMM(BPF_ADD, R3, base));
	emit(g->ir, MOV64_IMM(R4, 0));
	emit(g->ir, CALL(st->u.for_.map ? BPF_FUNC_for_each_map_elem : BPF_FUNC_loop, 4));
	if (!st->u.for_.map) {
		// if ((s32)r0 < 0) warn: bpf_loop ran nothing (a range of more than 1 << 23);
		// the kernel's inlined bpf_loop sets -E2BIG in 32 bits
		int32_t ok = ir_label(g->ir);
		emit(g->ir, ir_jmp(BPF_JMP32 | BPF_JSGE | BPF_K, R0, NO_REG, 0, ok));
		gen_runtime_error(g, st->span, "the range is longer than bpf_loop takes (8388608): "
					       "the loop did not run");
		emit(g->ir, LABEL(ok));
	}
	// what the body changed; leave when it returned
	for (size_t i = 0; i < cap.vars.len; i++)
		emit(g->ir, LDX_MEM(BPF_DW, cap.vars.data[i]->vreg, R10, base + CTX_VARS + 8 * (int32_t)i));
	int32_t t = ir_vreg(g->ir);
	emit(g->ir, LDX_MEM(BPF_DW, t, R10, base + CTX_RETURNED));
	emit(g->ir, JMP_IMM(BPF_JNE, t, 0, g->out));
	vec_free(&cap.vars);
}
