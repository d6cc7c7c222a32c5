// SPDX-License-Identifier: MIT
/*
 * What is known when compiling (today's bpftrace): `comptime e`, whose
 * value must be, and `if comptime cond { } else { }`, of which only the
 * branch the condition picks is checked and generated (the other may hold
 * what would not compile, as bpftrace's standard library's macros do).
 *
 * Known values: numbers, true and false, positional parameters and $#,
 * constants (#define, enum members), sizeof and offsetof, and operators,
 * casts to integers, ?: and comptime of known values.
 */
#include "sema/check.h"

static int64_t fit(int64_t v, const struct type *t)
{
	uint32_t bits = t->size * 8;

	if (t->is_bool)
		return v != 0;
	if (!bits || bits >= 64)
		return v;
	if (t->is_signed)
		return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
	return (int64_t)((uint64_t)v & ((1ull << bits) - 1));
}

static bool binary(enum op op, int64_t a, int64_t b, bool sgn, int64_t *v)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case OP_LOR: *v = a || b; break;
	case OP_LAND: *v = a && b; break;
	case OP_BOR: *v = a | b; break;
	case OP_BXOR: *v = a ^ b; break;
	case OP_BAND: *v = a & b; break;
	case OP_EQ: *v = a == b; break;
	case OP_NE: *v = a != b; break;
	case OP_LT: *v = sgn ? a < b : ua < ub; break;
	case OP_LE: *v = sgn ? a <= b : ua <= ub; break;
	case OP_GT: *v = sgn ? a > b : ua > ub; break;
	case OP_GE: *v = sgn ? a >= b : ua >= ub; break;
	case OP_SHL: *v = (int64_t)(ua << (ub & 63)); break;
	case OP_SHR: *v = (int64_t)(ua >> (ub & 63)); break;
	case OP_ADD: *v = (int64_t)(ua + ub); break;
	case OP_SUB: *v = (int64_t)(ua - ub); break;
	case OP_MUL: *v = (int64_t)(ua * ub); break;
	case OP_DIV:
	case OP_MOD:
		/* as the program would: unsigned */
		if (!ub)
			return false;
		*v = (int64_t)(op == OP_DIV ? ua / ub : ua % ub);
		break;
	default:
		return false;
	}
	return true;
}

bool sema_const_value(struct check *c, const struct expr *e, int64_t *v)
{
	int64_t a, b;
	const struct constant *k;

	if (!e || !e->type || (e->type->kind != TY_INT && e->kind != EXPR_COMPTIME))
		return false;
	switch (e->kind) {
	case EXPR_INT:
	case EXPR_BOOL:
		*v = (int64_t)e->u.ival;
		return true;
	case EXPR_POSITIONAL:
		return plan_param_int(c->p, e->u.num, v);
	case EXPR_POSCOUNT:
		*v = c->p->opts->nparams;
		return true;
	case EXPR_IDENT:
		k = e->info;
		if (!k || k->str)
			return false;
		*v = k->value;
		return true;
	case EXPR_SIZEOF:
	case EXPR_OFFSETOF:
		*v = e->id;
		return true;
	case EXPR_COMPTIME:
		return sema_const_value(c, e->u.unary.operand, v);
	case EXPR_CAST:
		if (!sema_const_value(c, e->u.cast.operand, &a))
			return false;
		*v = fit(a, e->type);
		return true;
	case EXPR_UNARY:
		if (!sema_const_value(c, e->u.unary.operand, &a))
			return false;
		switch (e->u.unary.op) {
		case OP_NEG: *v = (int64_t)(0 - (uint64_t)a); return true;
		case OP_PLUS: *v = a; return true;
		case OP_LNOT: *v = !a; return true;
		case OP_BNOT: *v = ~a; return true;
		default: return false;
		}
	case EXPR_BINARY:
		if (!sema_const_value(c, e->u.binary.lhs, &a))
			return false;
		/* && and || stop at what decides them */
		if ((e->u.binary.op == OP_LAND && !a) || (e->u.binary.op == OP_LOR && a)) {
			*v = e->u.binary.op == OP_LOR;
			return true;
		}
		return sema_const_value(c, e->u.binary.rhs, &b) &&
		       binary(e->u.binary.op, a, b,
			      e->u.binary.lhs->type->is_signed && e->u.binary.rhs->type->is_signed, v);
	case EXPR_TERNARY:
		if (!sema_const_value(c, e->u.ternary.cond, &a))
			return false;
		if (!e->u.ternary.then && a) {
			*v = a;
			return true;
		}
		return sema_const_value(c, a ? e->u.ternary.then : e->u.ternary.otherwise, v);
	case EXPR_BLOCK:
		return !e->u.blk.body->u.block.n && sema_const_value(c, e->u.blk.value, v);
	default:
		return false;
	}
}

struct type *sema_check_comptime(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.unary.operand);
	int64_t v;

	if (t->kind == TY_NONE)
		return t;
	if (t->kind != TY_INT || !sema_const_value(c, e->u.unary.operand, &v)) {
		CERR(c, e->span, E_NOT_CONSTANT, "comptime: %s is not known when compiling",
		     t->kind == TY_INT ? "this value" : type_str_of(t));
		CHINT(c, "comptime takes numbers, true and false, constants, sizeof, offsetof, "
			 "positional parameters and operators on them");
		return &ty_none;
	}
	e->id = (int)(v != 0);
	return t;
}

void sema_check_if_comptime(struct check *c, struct stmt *st)
{
	struct type *t = sema_check_expr(c, st->u.if_.cond);
	struct stmt *branch;
	int64_t v = 0;

	if (t->kind == TY_NONE)
		return;
	sema_const_value(c, st->u.if_.cond, &v);
	st->u.if_.taken = v != 0;
	branch = v ? st->u.if_.then : st->u.if_.otherwise;
	if (branch)
		sema_check_stmt(c, branch);
}
