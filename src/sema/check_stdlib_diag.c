// SPDX-License-Identifier: MIT
/*
 * The checks of today's bpftrace's functions that speak about the script
 * itself (docs/stdlib.md): errorf and warnf (printf's rules; their text
 * goes out as an error or warning at their place when the probe runs),
 * assert(cond, msg), fail(fmt, literals...) and static_assert(cond, msg),
 * which stop the compilation, the questions about an expression's type
 * (is_array, is_integer, is_literal, is_ptr, is_str, is_unsigned_integer,
 * typeinfo), about the kernel's kfuncs (kfunc_exist, kfunc_allowed), and
 * assert_str. The answers known when compiling are constants; their code
 * is codegen/gen_stdlib_diag.c.
 */
#include "output/printf.h"
#include "sema/check_stdlib.h"

#include <stdlib.h>
#include <string.h>

/* The constant answer of a call known when compiling (e->info: 1 + the value) */
static struct type *answer(struct expr *e, int64_t v, struct type *t)
{
	e->info = (void *)(intptr_t)(v + 1);
	return t;
}

bool sema_const_answer(const struct expr *e, int64_t *v)
{
	if (e->kind != EXPR_CALL || !e->fn || !e->info)
		return false;
	switch (e->id) {
	case FN_IS_ARRAY:
	case FN_IS_INTEGER:
	case FN_IS_LITERAL:
	case FN_IS_PTR:
	case FN_IS_STR:
	case FN_IS_UNSIGNED_INTEGER:
	case FN_KFUNC_EXIST:
	case FN_KFUNC_ALLOWED:
		*v = (int64_t)(intptr_t)e->info - 1;
		return true;
	default:
		return false;
	}
}

static bool is_literal(const struct expr *a)
{
	if (a->kind == EXPR_UNARY && a->u.unary.op == OP_NEG)
		return is_literal(a->u.unary.operand);
	return a->kind == EXPR_INT || a->kind == EXPR_STR || a->kind == EXPR_BOOL;
}

/* is_array(e), is_integer(e), ...: e's type, known now */
struct type *sema_check_is_type(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct type *t = sema_check_expr(c, a);
	bool v = false;

	switch (e->id) {
	case FN_IS_ARRAY:
		v = t->kind == TY_ARRAY;
		break;
	case FN_IS_INTEGER:
		v = t->kind == TY_INT && !t->is_bool;
		break;
	case FN_IS_UNSIGNED_INTEGER:
		v = t->kind == TY_INT && !t->is_bool && !t->is_signed;
		break;
	case FN_IS_LITERAL:
		v = is_literal(a);
		break;
	case FN_IS_PTR:
		v = t->kind == TY_PTR;
		break;
	case FN_IS_STR:
		v = t->kind == TY_STR;
		break;
	default:
		break;
	}
	return answer(e, v, &ty_bool);
}

/* assert_str(e): e must be a string (or a char array, or a pointer to chars) */
struct type *sema_check_assert_str(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct type *t = sema_check_expr(c, a);
	bool chars = (t->kind == TY_ARRAY || t->kind == TY_PTR) && type_elem(t)->kind == TY_INT &&
		     type_elem(t)->size == 1;

	if (t->kind != TY_NONE && t->kind != TY_STR && !chars)
		CERR(c, a->span, E_ARG_TYPE, "expected a string, got %s", type_str_of(t));
	return &ty_void;
}

/* kfunc_exist("name"), kfunc_allowed("name"): from the kernel's BTF, now */
struct type *sema_check_kfunc(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct btf_func f;

	if (a->kind != EXPR_STR) {
		sema_check_expr(c, a);
		CERR(c, a->span, E_ARG_TYPE, "%s() expects a kfunc's name as a string literal",
		     e->u.call.name);
		return &ty_none;
	}
	a->type = &ty_void;
	bool exists = types_btf_src_func(&c->p->types.btf, a->u.str, false, &f);
	/* lantern calls no kfunc: none is allowed where it could be called (fentry) */
	bool allowed = exists && (c->inst->prov->id == PROV_KFUNC || c->inst->prov->id == PROV_KRETFUNC);
	return answer(e, e->id == FN_KFUNC_EXIST ? exists : allowed, &ty_bool);
}

/*
 * A value known when compiling: integers, bools, positional parameters,
 * the answers above, and the operators on them. false when e is not one.
 */
static bool const_value(struct check *c, struct expr *e, int64_t *v)
{
	int64_t a, b;

	switch (e->kind) {
	case EXPR_INT:
	case EXPR_BOOL:
		*v = (int64_t)e->u.ival;
		return true;
	case EXPR_POSITIONAL:
		return plan_param_int(c->p, e->u.num, v);
	case EXPR_SIZEOF:
	case EXPR_OFFSETOF:
		*v = e->id; /* sema_check_sizeof(), sema_check_offsetof() */
		return e->type && e->type->kind == TY_INT;
	case EXPR_CALL:
		return sema_const_answer(e, v);
	case EXPR_UNARY:
		if (!const_value(c, e->u.unary.operand, &a))
			return false;
		switch (e->u.unary.op) {
		case OP_LNOT:
			*v = !a;
			return true;
		case OP_NEG:
			*v = -a;
			return true;
		case OP_BNOT:
			*v = ~a;
			return true;
		default:
			return false;
		}
	case EXPR_BINARY:
		if (!const_value(c, e->u.binary.lhs, &a) || !const_value(c, e->u.binary.rhs, &b))
			return false;
		switch (e->u.binary.op) {
		case OP_LOR: *v = a || b; return true;
		case OP_LAND: *v = a && b; return true;
		case OP_EQ: *v = a == b; return true;
		case OP_NE: *v = a != b; return true;
		case OP_LT: *v = a < b; return true;
		case OP_LE: *v = a <= b; return true;
		case OP_GT: *v = a > b; return true;
		case OP_GE: *v = a >= b; return true;
		case OP_ADD: *v = (int64_t)((uint64_t)a + (uint64_t)b); return true;
		case OP_SUB: *v = (int64_t)((uint64_t)a - (uint64_t)b); return true;
		case OP_MUL: *v = (int64_t)((uint64_t)a * (uint64_t)b); return true;
		case OP_BAND: *v = a & b; return true;
		case OP_BOR: *v = a | b; return true;
		case OP_BXOR: *v = a ^ b; return true;
		default:
			return false;
		}
	default:
		return false;
	}
}

/* static_assert(cond [, msg]): cond must hold, and be known now */
struct type *sema_check_static_assert(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	int64_t v;

	sema_check_expr(c, a[0]);
	if (e->u.call.args.n > 1 && a[1]->kind != EXPR_STR) {
		CERR(c, a[1]->span, E_ARG_TYPE, "static_assert()'s message is a string literal");
		return &ty_void;
	}
	if (e->u.call.args.n > 1)
		a[1]->type = &ty_void;
	if (!const_value(c, a[0], &v)) {
		CERR(c, a[0]->span, E_NOT_CONSTANT,
		     "static_assert()'s condition must be known when compiling");
		return &ty_void;
	}
	if (!v)
		CERR(c, e->span, E_SCRIPT, "%s",
		     e->u.call.args.n > 1 ? a[1]->u.str : "static_assert failed");
	return &ty_void;
}

/* fail(fmt, literals...): the compilation stops here, with the text */
struct type *sema_check_fail(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	uint32_t n = e->u.call.args.n - 1;
	struct fmt_value vals[64] = { 0 };
	struct strbuf text = { 0 };

	sema_check_printf(c, e);
	if (!c->final || !e->info)
		return &ty_void;
	for (uint32_t i = 0; i < n; i++) {
		int64_t v;
		if (a[i + 1]->kind == EXPR_STR) {
			vals[i].kind = FMT_ARG_STR;
			vals[i].s.p = a[i + 1]->u.str;
			vals[i].s.len = a[i + 1]->u.len;
		} else if (const_value(c, a[i + 1], &v)) {
			vals[i].kind = FMT_ARG_INT;
			vals[i].i = v;
		} else {
			CERR(c, a[i + 1]->span, E_NOT_CONSTANT, "fail()'s arguments must be literals");
			return &ty_void;
		}
	}
	out_printf_render(&text, e->info, vals);
	CERR(c, e->span, E_SCRIPT, "%s", sb_str(&text));
	sb_free(&text);
	return &ty_void;
}

/*
 * assert(cond, "message"): when cond is false, the probe reports the
 * message as an error ("assert failed: message") and lantern exits with
 * status 1, as exit(1).
 */
struct type *sema_check_assert(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	struct printf_fmt *f = e->info;
	struct printf_error err;

	sema_check_cond(c, a[0]);
	if (!sema_check_expr(c, a[1]) || a[1]->type->kind != TY_STR) {
		if (a[1]->type->kind != TY_NONE)
			CERR(c, a[1]->span, E_ARG_TYPE, "assert()'s message is a string, not %s",
			     type_str_of(a[1]->type));
		return &ty_void;
	}
	if (!f) {
		static const char fmt[] = "assert failed: %s";
		f = ARENA_NEW(&c->p->arena, struct printf_fmt);
		if (!out_printf_parse(f, fmt, sizeof(fmt) - 1, &err))
			return &ty_void;
		plan_defer_free(c->p, (void (*)(void *))out_printf_fmt_free, f);
		e->info = f;
	}
	return &ty_void;
}

/* errorf(fmt, ...), warnf(fmt, ...): printf's rules */
struct type *sema_check_errorf(struct check *c, struct expr *e)
{
	return sema_check_printf(c, e);
}
