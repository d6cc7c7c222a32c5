// SPDX-License-Identifier: MIT
/*
 * Deep copies of a probe's code, unannotated: each program that runs a
 * probe for a different instance gets its own copy, which sema types for
 * that instance (compile/programs.c).
 */
#include "ast/ast.h"

#include <string.h>

static void copy_list(struct arena *a, struct expr_list *l)
{
	struct expr **v = ARENA_ARRAY(a, struct expr *, l->n ? l->n : 1);

	for (uint32_t i = 0; i < l->n; i++)
		v[i] = ast_expr_copy(a, l->v[i]);
	l->v = v;
}

struct ast_typename ast_typename_copy(struct arena *a, const struct ast_typename *tn)
{
	struct ast_typename c = *tn;

	c.of = ast_expr_copy(a, tn->of);
	return c;
}

struct expr *ast_expr_copy(struct arena *a, const struct expr *e)
{
	struct expr *c;

	if (!e)
		return NULL;
	c = ARENA_NEW(a, struct expr);
	*c = *e;
	c->type = NULL;
	c->info = NULL;
	c->fn = NULL;
	c->id = 0;
	switch (e->kind) {
	case EXPR_MAP:
		copy_list(a, &c->u.map.keys);
		break;
	case EXPR_CALL:
		copy_list(a, &c->u.call.args);
		break;
	case EXPR_UNARY:
	case EXPR_COMPTIME:
		c->u.unary.operand = ast_expr_copy(a, e->u.unary.operand);
		break;
	case EXPR_BINARY:
		c->u.binary.lhs = ast_expr_copy(a, e->u.binary.lhs);
		c->u.binary.rhs = ast_expr_copy(a, e->u.binary.rhs);
		break;
	case EXPR_TERNARY:
		c->u.ternary.cond = ast_expr_copy(a, e->u.ternary.cond);
		c->u.ternary.then = ast_expr_copy(a, e->u.ternary.then);
		c->u.ternary.otherwise = ast_expr_copy(a, e->u.ternary.otherwise);
		break;
	case EXPR_FIELD:
		c->u.field.base = ast_expr_copy(a, e->u.field.base);
		break;
	case EXPR_INDEX:
		c->u.index.base = ast_expr_copy(a, e->u.index.base);
		c->u.index.index = ast_expr_copy(a, e->u.index.index);
		break;
	case EXPR_TUPLE:
		copy_list(a, &c->u.list);
		break;
	case EXPR_CAST:
		c->u.cast.type = ast_typename_copy(a, &e->u.cast.type);
		c->u.cast.operand = ast_expr_copy(a, e->u.cast.operand);
		break;
	case EXPR_SIZEOF:
		c->u.size_of.type = ast_typename_copy(a, &e->u.size_of.type);
		c->u.size_of.operand = ast_expr_copy(a, e->u.size_of.operand);
		break;
	case EXPR_OFFSETOF:
		c->u.offset_of.type = ast_typename_copy(a, &e->u.offset_of.type);
		c->u.offset_of.operand = ast_expr_copy(a, e->u.offset_of.operand);
		break;
	case EXPR_BLOCK:
		c->u.blk.body = ast_stmt_copy(a, e->u.blk.body);
		c->u.blk.value = ast_expr_copy(a, e->u.blk.value);
		break;
	case EXPR_RECORD:
		copy_list(a, &c->u.record.vals); /* the names are shared */
		break;
	default:
		break;
	}
	return c;
}

struct stmt *ast_stmt_copy(struct arena *a, const struct stmt *st)
{
	struct stmt *c;

	if (!st)
		return NULL;
	c = ARENA_NEW(a, struct stmt);
	*c = *st;
	switch (st->kind) {
	case STMT_EXPR:
	case STMT_DISCARD:
		c->u.expr = ast_expr_copy(a, st->u.expr);
		break;
	case STMT_ASSIGN:
		c->u.assign.target = ast_expr_copy(a, st->u.assign.target);
		c->u.assign.value = ast_expr_copy(a, st->u.assign.value);
		break;
	case STMT_IF:
		c->u.if_.cond = ast_expr_copy(a, st->u.if_.cond);
		c->u.if_.then = ast_stmt_copy(a, st->u.if_.then);
		c->u.if_.otherwise = ast_stmt_copy(a, st->u.if_.otherwise);
		break;
	case STMT_UNROLL:
		c->u.unroll.count = ast_expr_copy(a, st->u.unroll.count);
		c->u.unroll.body = ast_stmt_copy(a, st->u.unroll.body);
		break;
	case STMT_WHILE:
		c->u.while_.cond = ast_expr_copy(a, st->u.while_.cond);
		c->u.while_.body = ast_stmt_copy(a, st->u.while_.body);
		break;
	case STMT_RETURN:
		c->u.ret = ast_expr_copy(a, st->u.ret);
		break;
	case STMT_LET:
		c->u.let.type = ast_typename_copy(a, &st->u.let.type);
		c->u.let.var = ast_expr_copy(a, st->u.let.var);
		c->u.let.value = ast_expr_copy(a, st->u.let.value);
		break;
	case STMT_FOR:
		c->u.for_.var = ast_expr_copy(a, st->u.for_.var);
		c->u.for_.map = ast_expr_copy(a, st->u.for_.map);
		c->u.for_.lo = ast_expr_copy(a, st->u.for_.lo);
		c->u.for_.hi = ast_expr_copy(a, st->u.for_.hi);
		c->u.for_.body = ast_stmt_copy(a, st->u.for_.body);
		break;
	case STMT_BLOCK: {
		struct stmt **v = ARENA_ARRAY(a, struct stmt *, st->u.block.n ? st->u.block.n : 1);
		for (uint32_t i = 0; i < st->u.block.n; i++)
			v[i] = ast_stmt_copy(a, st->u.block.v[i]);
		c->u.block.v = v;
		break;
	}
	default:
		break;
	}
	return c;
}
