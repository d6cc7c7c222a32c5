// SPDX-License-Identifier: MIT
/* Questions about a probe's code: does it use args, call printf, ...? */
#include "sema/check.h"

#include <string.h>

/* Walk a probe's expressions: true when pred holds for one of them. */
typedef bool (*expr_pred)(struct expr *e, void *arg);
static bool expr_any(struct expr *e, expr_pred pred, void *arg);

static bool list_any(struct expr_list *l, expr_pred pred, void *arg)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (expr_any(l->v[i], pred, arg))
			return true;
	return false;
}

static bool expr_any(struct expr *e, expr_pred pred, void *arg)
{
	if (!e)
		return false;
	if (pred(e, arg))
		return true;
	switch (e->kind) {
	case EXPR_MAP:
		return list_any(&e->u.map.keys, pred, arg);
	case EXPR_CALL:
		return list_any(&e->u.call.args, pred, arg);
	case EXPR_UNARY:
		return expr_any(e->u.unary.operand, pred, arg);
	case EXPR_BINARY:
		return expr_any(e->u.binary.lhs, pred, arg) || expr_any(e->u.binary.rhs, pred, arg);
	case EXPR_TERNARY:
		return expr_any(e->u.ternary.cond, pred, arg) || expr_any(e->u.ternary.then, pred, arg) ||
		       expr_any(e->u.ternary.otherwise, pred, arg);
	case EXPR_FIELD:
		return expr_any(e->u.field.base, pred, arg);
	case EXPR_INDEX:
		return expr_any(e->u.index.base, pred, arg) || expr_any(e->u.index.index, pred, arg);
	case EXPR_TUPLE:
		return list_any(&e->u.list, pred, arg);
	case EXPR_CAST:
		return expr_any(e->u.cast.operand, pred, arg);
	case EXPR_SIZEOF:
		return expr_any(e->u.size_of.operand, pred, arg);
	default:
		return false;
	}
}

static bool stmt_any(struct stmt *st, expr_pred pred, void *arg)
{
	if (!st)
		return false;
	switch (st->kind) {
	case STMT_EXPR:
		return expr_any(st->u.expr, pred, arg);
	case STMT_ASSIGN:
		return expr_any(st->u.assign.target, pred, arg) || expr_any(st->u.assign.value, pred, arg);
	case STMT_IF:
		return expr_any(st->u.if_.cond, pred, arg) || stmt_any(st->u.if_.then, pred, arg) ||
		       stmt_any(st->u.if_.otherwise, pred, arg);
	case STMT_UNROLL:
		return expr_any(st->u.unroll.count, pred, arg) || stmt_any(st->u.unroll.body, pred, arg);
	case STMT_WHILE:
		return expr_any(st->u.while_.cond, pred, arg) || stmt_any(st->u.while_.body, pred, arg);
	case STMT_RETURN:
		return expr_any(st->u.ret, pred, arg);
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			if (stmt_any(st->u.block.v[i], pred, arg))
				return true;
		return false;
	default:
		return false;
	}
}

static bool probe_any(struct probe *p, expr_pred pred, void *arg)
{
	return expr_any(p->pred, pred, arg) || stmt_any(p->body, pred, arg);
}

static bool is_builtin(struct expr *e, void *arg)
{
	const struct builtin_def *b;

	if (e->kind != EXPR_BUILTIN)
		return false;
	b = sema_builtin_lookup(e->u.name);
	return b && b->id == *(enum builtin_id *)arg;
}

static bool is_call(struct expr *e, void *arg)
{
	const struct func_def *f;

	if (e->kind != EXPR_CALL)
		return false;
	f = sema_func_lookup(e->u.call.name);
	return f && f->id == *(enum func_id *)arg;
}

bool sema_probe_uses_builtin(struct probe *p, enum builtin_id id)
{
	return probe_any(p, is_builtin, &id);
}

bool sema_probe_calls(struct probe *p, enum func_id id)
{
	return probe_any(p, is_call, &id);
}

bool sema_probe_prints(struct probe *p)
{
	return sema_probe_calls(p, FN_PRINTF) || sema_probe_calls(p, FN_JOIN) || sema_probe_calls(p, FN_SYSTEM) ||
	       sema_probe_calls(p, FN_CAT);
}

struct args_use {
	const char *const *names;
	uint32_t uses, allowed;
};

static bool is_args(struct expr *e)
{
	const struct builtin_def *b;

	if (e->kind != EXPR_BUILTIN)
		return false;
	b = sema_builtin_lookup(e->u.name);
	return b && b->id == BI_ARGS;
}

static bool count_args(struct expr *e, void *arg)
{
	struct args_use *u = arg;

	if (is_args(e))
		u->uses++;
	else if (e->kind == EXPR_FIELD && is_args(e->u.field.base))
		for (const char *const *n = u->names; *n; n++)
			if (!strcmp(*n, e->u.field.name))
				u->allowed++;
	return false;
}

bool sema_probe_args_only(struct probe *p, const char *const *names)
{
	struct args_use u = { names, 0, 0 };

	probe_any(p, count_args, &u);
	return u.uses == u.allowed;
}

bool sema_probe_per_instance(struct probe *p)
{
	/* arg0..: a USDT site's arguments are where its note says */
	return sema_probe_uses_builtin(p, BI_ARGS) || sema_probe_uses_builtin(p, BI_PROBE) ||
	       sema_probe_uses_builtin(p, BI_FUNC) || sema_probe_uses_builtin(p, BI_ARGN);
}
