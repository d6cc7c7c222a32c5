// SPDX-License-Identifier: MIT
/* Questions about a probe's code: does it use args, call printf, ...? */
#include "sema/check.h"

#include <string.h>

typedef bool (*expr_pred)(struct expr *e, void *arg);

static bool probe_any(struct probe *p, expr_pred pred, void *arg)
{
	return ast_expr_any(p->pred, pred, arg) || ast_stmt_any(p->body, pred, arg);
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
