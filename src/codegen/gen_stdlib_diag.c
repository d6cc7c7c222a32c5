// SPDX-License-Identifier: MIT
/*
 * The code of today's bpftrace's functions that speak about the script:
 * the answers known when compiling (is_integer(), kfunc_exist(), ...),
 * what leaves no code (fail, static_assert, assert_str: checked when
 * compiling) and assert (their checks: sema/check_stdlib_diag.c).
 * errorf and warnf are printf records of their own kinds (gen_call.c).
 */
#include "codegen/gen_stdlib.h"

#include <string.h>

/* is_integer(e), kfunc_exist("f"), ...: the answer sema found */
struct val gen_const_answer(struct gen *g, struct expr *e)
{
	return reg_val(e->type, gen_const(g, (int64_t)(intptr_t)e->info - 1));
}

/* fail(), static_assert(), assert_str(): checked when compiling; nothing runs */
struct val gen_nothing(struct gen *g, struct expr *e)
{
	return (struct val){ .type = &ty_void, .reg = NO_REG };
}

/* assert(cond, msg): if (!cond) { errorf("assert failed: %s", msg); exit(1); } */
struct val gen_assert(struct gen *g, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	struct record_desc *err = ARENA_NEW(&g->p->arena, struct record_desc);
	struct record_desc *ex = ARENA_NEW(&g->p->arena, struct record_desc);
	struct expr one = { .kind = EXPR_INT, .type = &ty_s64, .span = e->span };
	struct expr *code = &one;
	int32_t failed = ir_label(g->ir), ok = ir_label(g->ir);

	one.u.ival = 1;
	gen_branch_false(g, a[0], failed);
	emit(g->ir, JA(ok));
	emit(g->ir, LABEL(failed));
	err->kind = REC_ERRORF;
	err->fmt = e->info;
	err->span = e->span;
	gen_record(g, err, &a[1], 1);
	ex->kind = REC_EXIT;
	gen_record(g, ex, &code, 1);
	emit(g->ir, JA(g->out));
	emit(g->ir, LABEL(ok));
	return (struct val){ .type = &ty_void, .reg = NO_REG };
}

/* getopt(): the value sema found, a constant */
struct val gen_getopt(struct gen *g, struct expr *e)
{
	const struct getopt_value *v = e->info;

	if (e->type->kind == TY_STR) {
		uint32_t off = gen_scratch_alloc(g, e->type->size);
		struct expr lit = { .kind = EXPR_STR, .type = e->type };
		lit.u.str = v->str;
		lit.u.len = (uint32_t)strlen(v->str);
		gen_expr_into(g, &lit, e->type, g->scratch, off);
		return mem_val(e->type, g->scratch, off);
	}
	int32_t r = ir_vreg(g->ir);
	emit(g->ir, LD_IMM64(r, v->value));
	return reg_val(e->type, r);
}
