// SPDX-License-Identifier: MIT
/*
 * Visiting every expression of a statement or expression (ast.h): asking
 * (ast_expr_any) and rewriting in place (ast_rewrite_*).
 */
#include "ast/ast.h"

static bool list_any(struct expr_list *l, ast_expr_fn fn, void *arg)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (ast_expr_any(l->v[i], fn, arg))
			return true;
	return false;
}

/* typeof(e) in a type: e is visited (its type may depend on the instance) */
static bool type_any(struct ast_typename *tn, ast_expr_fn fn, void *arg)
{
	return ast_expr_any(tn->of, fn, arg);
}

bool ast_expr_any(struct expr *e, ast_expr_fn fn, void *arg)
{
	if (!e)
		return false;
	if (fn(e, arg))
		return true;
	switch (e->kind) {
	case EXPR_MAP:
		return list_any(&e->u.map.keys, fn, arg);
	case EXPR_CALL:
		return list_any(&e->u.call.args, fn, arg);
	case EXPR_UNARY:
	case EXPR_COMPTIME:
		return ast_expr_any(e->u.unary.operand, fn, arg);
	case EXPR_BINARY:
		return ast_expr_any(e->u.binary.lhs, fn, arg) || ast_expr_any(e->u.binary.rhs, fn, arg);
	case EXPR_TERNARY:
		return ast_expr_any(e->u.ternary.cond, fn, arg) ||
		       ast_expr_any(e->u.ternary.then, fn, arg) ||
		       ast_expr_any(e->u.ternary.otherwise, fn, arg);
	case EXPR_FIELD:
		return ast_expr_any(e->u.field.base, fn, arg);
	case EXPR_INDEX:
		return ast_expr_any(e->u.index.base, fn, arg) ||
		       ast_expr_any(e->u.index.index, fn, arg);
	case EXPR_TUPLE:
		return list_any(&e->u.list, fn, arg);
	case EXPR_CAST:
		return type_any(&e->u.cast.type, fn, arg) || ast_expr_any(e->u.cast.operand, fn, arg);
	case EXPR_SIZEOF:
		return type_any(&e->u.size_of.type, fn, arg) ||
		       ast_expr_any(e->u.size_of.operand, fn, arg);
	case EXPR_OFFSETOF:
		return type_any(&e->u.offset_of.type, fn, arg) ||
		       ast_expr_any(e->u.offset_of.operand, fn, arg);
	case EXPR_BLOCK:
		return ast_stmt_any(e->u.blk.body, fn, arg) || ast_expr_any(e->u.blk.value, fn, arg);
	case EXPR_RECORD:
		return list_any(&e->u.record.vals, fn, arg);
	default:
		return false;
	}
}

bool ast_stmt_any(struct stmt *st, ast_expr_fn fn, void *arg)
{
	if (!st)
		return false;
	switch (st->kind) {
	case STMT_EXPR:
	case STMT_DISCARD:
		return ast_expr_any(st->u.expr, fn, arg);
	case STMT_ASSIGN:
		return ast_expr_any(st->u.assign.target, fn, arg) ||
		       ast_expr_any(st->u.assign.value, fn, arg);
	case STMT_IF:
		return ast_expr_any(st->u.if_.cond, fn, arg) || ast_stmt_any(st->u.if_.then, fn, arg) ||
		       ast_stmt_any(st->u.if_.otherwise, fn, arg);
	case STMT_UNROLL:
		return ast_expr_any(st->u.unroll.count, fn, arg) ||
		       ast_stmt_any(st->u.unroll.body, fn, arg);
	case STMT_WHILE:
		return ast_expr_any(st->u.while_.cond, fn, arg) ||
		       ast_stmt_any(st->u.while_.body, fn, arg);
	case STMT_RETURN:
		return ast_expr_any(st->u.ret, fn, arg);
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			if (ast_stmt_any(st->u.block.v[i], fn, arg))
				return true;
		return false;
	case STMT_LET:
		return ast_expr_any(st->u.let.var, fn, arg) || type_any(&st->u.let.type, fn, arg) ||
		       ast_expr_any(st->u.let.value, fn, arg);
	case STMT_FOR:
		return ast_expr_any(st->u.for_.var, fn, arg) || ast_expr_any(st->u.for_.map, fn, arg) ||
		       ast_expr_any(st->u.for_.lo, fn, arg) || ast_expr_any(st->u.for_.hi, fn, arg) ||
		       ast_stmt_any(st->u.for_.body, fn, arg);
	default:
		return false;
	}
}

static void rewrite_list(struct expr_list *l, ast_rewrite_fn fn, void *arg)
{
	for (uint32_t i = 0; i < l->n; i++)
		ast_rewrite_expr(&l->v[i], fn, arg);
}

static void rewrite_type(struct ast_typename *tn, ast_rewrite_fn fn, void *arg)
{
	if (tn->of)
		ast_rewrite_expr(&tn->of, fn, arg);
}

static void rewrite_opt(struct expr **slot, ast_rewrite_fn fn, void *arg)
{
	if (*slot)
		ast_rewrite_expr(slot, fn, arg);
}

void ast_rewrite_expr(struct expr **slot, ast_rewrite_fn fn, void *arg)
{
	struct expr *e;

	if (fn(slot, arg))
		return;
	e = *slot;
	switch (e->kind) {
	case EXPR_MAP:
		rewrite_list(&e->u.map.keys, fn, arg);
		break;
	case EXPR_CALL:
		rewrite_list(&e->u.call.args, fn, arg);
		break;
	case EXPR_UNARY:
	case EXPR_COMPTIME:
		ast_rewrite_expr(&e->u.unary.operand, fn, arg);
		break;
	case EXPR_BINARY:
		ast_rewrite_expr(&e->u.binary.lhs, fn, arg);
		ast_rewrite_expr(&e->u.binary.rhs, fn, arg);
		break;
	case EXPR_TERNARY:
		ast_rewrite_expr(&e->u.ternary.cond, fn, arg);
		rewrite_opt(&e->u.ternary.then, fn, arg);
		ast_rewrite_expr(&e->u.ternary.otherwise, fn, arg);
		break;
	case EXPR_FIELD:
		ast_rewrite_expr(&e->u.field.base, fn, arg);
		break;
	case EXPR_INDEX:
		ast_rewrite_expr(&e->u.index.base, fn, arg);
		ast_rewrite_expr(&e->u.index.index, fn, arg);
		break;
	case EXPR_TUPLE:
		rewrite_list(&e->u.list, fn, arg);
		break;
	case EXPR_CAST:
		rewrite_type(&e->u.cast.type, fn, arg);
		ast_rewrite_expr(&e->u.cast.operand, fn, arg);
		break;
	case EXPR_SIZEOF:
		rewrite_type(&e->u.size_of.type, fn, arg);
		rewrite_opt(&e->u.size_of.operand, fn, arg);
		break;
	case EXPR_OFFSETOF:
		rewrite_type(&e->u.offset_of.type, fn, arg);
		rewrite_opt(&e->u.offset_of.operand, fn, arg);
		break;
	case EXPR_BLOCK:
		ast_rewrite_stmt(e->u.blk.body, fn, arg);
		rewrite_opt(&e->u.blk.value, fn, arg);
		break;
	case EXPR_RECORD:
		rewrite_list(&e->u.record.vals, fn, arg);
		break;
	default:
		break;
	}
}

void ast_rewrite_stmt(struct stmt *st, ast_rewrite_fn fn, void *arg)
{
	if (!st)
		return;
	switch (st->kind) {
	case STMT_EXPR:
	case STMT_DISCARD:
		ast_rewrite_expr(&st->u.expr, fn, arg);
		break;
	case STMT_ASSIGN:
		ast_rewrite_expr(&st->u.assign.target, fn, arg);
		ast_rewrite_expr(&st->u.assign.value, fn, arg);
		break;
	case STMT_IF:
		ast_rewrite_expr(&st->u.if_.cond, fn, arg);
		ast_rewrite_stmt(st->u.if_.then, fn, arg);
		ast_rewrite_stmt(st->u.if_.otherwise, fn, arg);
		break;
	case STMT_UNROLL:
		ast_rewrite_expr(&st->u.unroll.count, fn, arg);
		ast_rewrite_stmt(st->u.unroll.body, fn, arg);
		break;
	case STMT_WHILE:
		ast_rewrite_expr(&st->u.while_.cond, fn, arg);
		ast_rewrite_stmt(st->u.while_.body, fn, arg);
		break;
	case STMT_RETURN:
		rewrite_opt(&st->u.ret, fn, arg);
		break;
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			ast_rewrite_stmt(st->u.block.v[i], fn, arg);
		break;
	case STMT_LET:
		ast_rewrite_expr(&st->u.let.var, fn, arg);
		rewrite_type(&st->u.let.type, fn, arg);
		rewrite_opt(&st->u.let.value, fn, arg);
		break;
	case STMT_FOR:
		ast_rewrite_expr(&st->u.for_.var, fn, arg);
		rewrite_opt(&st->u.for_.map, fn, arg);
		rewrite_opt(&st->u.for_.lo, fn, arg);
		rewrite_opt(&st->u.for_.hi, fn, arg);
		ast_rewrite_stmt(st->u.for_.body, fn, arg);
		break;
	default:
		break;
	}
}
