// SPDX-License-Identifier: MIT
/* Programs and statements. */
#include "codegen/gen.h"
#include "codegen/scratch.h"
#include "plan/provider.h"

#include <stdlib.h>
#include <string.h>

static void gen_block(struct gen *g, struct stmt *b)
{
	for (uint32_t i = 0; i < b->u.block.n; i++)
		gen_stmt(g, b->u.block.v[i]);
}

static void gen_assign_var(struct gen *g, struct stmt *st)
{
	struct var_info *v = st->u.assign.target->info;
	struct expr *val = st->u.assign.value;

	if (!type_is_scalar(v->type)) {
		gen_expr_into(g, val, v->type, g->scratch, v->offset);
		return;
	}
	if (st->u.assign.op == OP_NONE) {
		emit(g->ir, MOV64_REG(v->vreg, gen_scalar(g, val)));
		gen_extend(g, v->vreg, v->type); /* `let $x: uint16`: kept to its type */
	} else if (v->type->kind == TY_PTR) {
		// $p += n, $p -= n: n elements
		int32_t n = gen_ptr_scale(g, gen_scalar(g, val), v->type);
		emit(g->ir, ALU64_REG(st->u.assign.op == OP_SUB ? BPF_SUB : BPF_ADD, v->vreg, n));
	} else {
		int32_t r = gen_arith(g, st->u.assign.op, v->vreg, val, v->type);
		emit(g->ir, MOV64_REG(v->vreg, r));
		gen_extend(g, v->vreg, v->type);
	}
	gen_var_written(g, v);
}

/* let $x [= value]: the value, or zero */
static void gen_let(struct gen *g, struct stmt *st)
{
	struct var_info *v = st->u.let.var->info;

	if (st->u.let.value) {
		struct stmt as = { .kind = STMT_ASSIGN, .span = st->span };
		as.u.assign.target = st->u.let.var;
		as.u.assign.value = st->u.let.value;
		gen_assign_var(g, &as);
	} else if (type_is_scalar(v->type)) {
		emit(g->ir, MOV64_IMM(v->vreg, 0));
		gen_var_written(g, v);
	} else {
		gen_zero(g, g->scratch, v->offset, v->type->size);
	}
}

void gen_stmt(struct gen *g, struct stmt *st)
{
	struct ir *ir = g->ir;
	uint32_t top = g->scratch_top, stop = g->stack_top;

	g->span = st->span;
	switch (st->kind) {
	case STMT_EXPR:
	case STMT_DISCARD:
		gen_expr(g, st->u.expr);
		break;
	case STMT_ASSIGN:
		if (st->u.assign.target->kind == EXPR_MAP)
			gen_assign_map(g, st);
		else
			gen_assign_var(g, st);
		break;
	case STMT_IF: {
		if (st->u.if_.cond->kind == EXPR_COMPTIME) {
			/* if comptime: the branch sema chose, alone */
			struct stmt *b = st->u.if_.taken ? st->u.if_.then : st->u.if_.otherwise;
			if (b)
				gen_stmt(g, b);
			break;
		}
		int32_t other = ir_label(ir), done = ir_label(ir);
		gen_branch_false(g, st->u.if_.cond, other);
		g->scratch_top = top;
		gen_stmt(g, st->u.if_.then);
		if (st->u.if_.otherwise)
			emit(ir, JA(done));
		emit(ir, LABEL(other));
		if (st->u.if_.otherwise) {
			g->scratch_top = top;
			gen_stmt(g, st->u.if_.otherwise);
		}
		emit(ir, LABEL(done));
		break;
	}
	case STMT_UNROLL: {
		int64_t n = st->u.unroll.count->kind == EXPR_INT ? (int64_t)st->u.unroll.count->u.ival : 0;
		if (st->u.unroll.count->kind == EXPR_POSITIONAL) {
			plan_param_int(g->p, st->u.unroll.count->u.num, &n);
		}
		for (int64_t i = 0; i < n; i++) {
			g->scratch_top = top;
			gen_stmt(g, st->u.unroll.body);
		}
		break;
	}
	case STMT_WHILE: {
		int32_t head = ir_label(ir), done = ir_label(ir);
		int32_t ob = g->loop_break, oc = g->loop_continue;
		emit(ir, LABEL(head));
		gen_branch_false(g, st->u.while_.cond, done);
		g->loop_break = done;
		g->loop_continue = head;
		g->scratch_top = top;
		gen_stmt(g, st->u.while_.body);
		emit(ir, JA(head));
		emit(ir, LABEL(done));
		g->loop_break = ob;
		g->loop_continue = oc;
		break;
	}
	case STMT_RETURN:
		if (st->u.ret && g->ret >= 0)
			emit(ir, MOV64_REG(g->ret, gen_scalar(g, st->u.ret)));
		emit(ir, JA(g->out));
		break;
	case STMT_BREAK:
		emit(ir, JA(g->loop_break));
		break;
	case STMT_CONTINUE:
		emit(ir, JA(g->loop_continue));
		break;
	case STMT_BLOCK:
		gen_block(g, st);
		break;
	case STMT_LET:
		gen_let(g, st);
		break;
	case STMT_FOR:
		gen_for(g, st);
		break;
	}
	g->scratch_top = top;
	g->stack_top = stop;
}

/*
 * The probes of every process, which today's bpftrace limits to -p's
 * process in their code (the perf events are opened for it instead, and
 * uprobes are attached to it).
 */
static bool kernel_wide(const struct provider *prov)
{
	switch (prov->id) {
	case PROV_KPROBE:
	case PROV_KRETPROBE:
	case PROV_KFUNC:
	case PROV_KRETFUNC:
	case PROV_TRACEPOINT:
	case PROV_RAWTRACEPOINT:
		return true;
	default:
		return false;
	}
}

int gen_program(struct plan *p, struct prog *pg, struct ir *ir)
{
	struct gen g = { .p = p, .pg = pg, .inst = pg->inst, .ir = ir, .root = ir, .func = -1,
			 .loop_break = -1, .loop_continue = -1, .probe_id = -1, .sys_nr = -1 };
	const struct provider *prov = pg->inst->prov;
	int16_t key_slot;

	ir_init(ir);
	g.ctx = ir_vreg(ir);
	g.scratch = ir_vreg(ir);
	g.out = ir_label(ir);

	// ctx = r1; scratch = map_lookup_elem(&scratch_map, &prog_index)
	emit(ir, MOV64_REG(g.ctx, R1));
	g.ret = -1;
	if (prov->id == PROV_TEST || prov->id == PROV_BENCH) {
		/* run by lantern, which reads what they return (test probes: 0 passed) */
		g.ret = ir_vreg(ir);
		emit(ir, MOV64_IMM(g.ret, 0));
	}
	if (prov->attach && p->maps.stop >= 0) {
		// if (stop) return 0: the session stopped the probes (their release comes later)
		int32_t t = ir_vreg(ir);
		emit(ir, LD_MAP_VALUE(t, p->maps.stop));
		emit(ir, LDX_MEM(BPF_DW, t, t, 0));
		emit(ir, JMP_IMM(BPF_JNE, t, 0, g.out));
	}
	if (prov->gen_prologue)
		prov->gen_prologue(&g);
	if (p->modern && p->opts->pid > 0 && kernel_wide(prov)) {
		// today's bpftrace with -p: if (get_current_pid_tgid() >> 32 != pid) return 0
		emit(ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
		emit(ir, ALU64_IMM(BPF_RSH, R0, 32));
		emit(ir, JMP_IMM(BPF_JNE, R0, (int32_t)p->opts->pid, g.out));
	}
	if (pg->skip_self) {
		// if (get_current_pid_tgid() >> 32 == lantern's pid) return 0
		emit(ir, CALL(BPF_FUNC_get_current_pid_tgid, 0));
		emit(ir, ALU64_IMM(BPF_RSH, R0, 32));
		emit(ir, JMP_CONST(BPF_JEQ, R0, LC_SELF_PID, g.out));
	}
	key_slot = ir_stack(ir, 8);
	g.stack_base = ir->stack_size;
	size_t lookup_start = ir->insns.len;
	emit(ir, ST_MEM(BPF_W, R10, key_slot, pg->index));
	emit(ir, LD_MAP(R1, p->maps.scratch));
	emit(ir, MOV64_REG(R2, R10));
	emit(ir, ALU64_IMM(BPF_ADD, R2, key_slot));
	emit(ir, CALL(BPF_FUNC_map_lookup_elem, 2));
	emit(ir, JMP_IMM(BPF_JEQ, R0, 0, g.out));
	emit(ir, MOV64_REG(g.scratch, R0));
	size_t lookup_end = ir->insns.len;

	/* Variables start at zero: scalars in registers, the rest in scratch. */
	vec_foreach(&pg->vars, vp)
	{
		struct var_info *v = *vp;
		if (v->addr && type_is_scalar(v->type)) {
			/* &$x: a place in memory as well, zero too */
			v->home = gen_scratch_alloc(&g, 8);
			gen_zero(&g, g.scratch, v->home, 8);
		}
		if (v->loop && type_is_scalar(v->type))
			continue; /* a for loop's: its subprogram's register (gen_loop.c) */
		if (type_is_scalar(v->type)) {
			v->vreg = ir_vreg(ir);
			emit(ir, MOV64_IMM(v->vreg, 0));
		} else {
			v->offset = gen_scratch_alloc(&g, v->type->size);
			gen_zero(&g, g.scratch, v->offset, v->type->size);
		}
	}

	if (pg->pred) {
		g.span = pg->pred->span;
		gen_branch_false(&g, pg->pred, g.out);
	}
	gen_block(&g, pg->body);

	// return 0 (or what the probe returned)
	emit(ir, LABEL(g.out));
	if (g.ret >= 0)
		emit(ir, MOV64_REG(R0, g.ret));
	else
		emit(ir, MOV64_IMM(R0, 0));
	emit(ir, EXIT_INSN());
	ir->stack_size = g.stack_base + g.stack_max;
	if (!g.scratch_max) {
		/* no scratch needed: drop its lookup */
		memmove(ir->insns.data + lookup_start, ir->insns.data + lookup_end,
			(ir->insns.len - lookup_end) * sizeof(struct ir_insn));
		ir->insns.len -= lookup_end - lookup_start;
	}
	ir_prune(ir);
	pg->scratch_size = ALIGN_UP(g.scratch_max ? g.scratch_max : 8, 8);
	return g.failed ? -1 : 0;
}
