// SPDX-License-Identifier: MIT
/* Visiting every expression of a statement or expression (ast.h). */
#include "ast/ast.h"

static bool list_any(struct expr_list *l, ast_expr_fn fn, void *arg)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (ast_expr_any(l->v[i], fn, arg))
			return true;
	return false;
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
		return ast_expr_any(e->u.cast.operand, fn, arg);
	case EXPR_SIZEOF:
		return ast_expr_any(e->u.size_of.operand, fn, arg);
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
		return ast_expr_any(st->u.let.var, fn, arg) || ast_expr_any(st->u.let.value, fn, arg);
	case STMT_FOR:
		return ast_expr_any(st->u.for_.var, fn, arg) || ast_expr_any(st->u.for_.map, fn, arg) ||
		       ast_expr_any(st->u.for_.lo, fn, arg) || ast_expr_any(st->u.for_.hi, fn, arg) ||
		       ast_stmt_any(st->u.for_.body, fn, arg);
	default:
		return false;
	}
}
