// SPDX-License-Identifier: MIT
/*
 * User functions (today's bpftrace): `fn name($a: T, ...): R { body }`,
 * called as `name(args)` from probes, macros and other functions. As in
 * bpftrace, whose calls the compiler inlines, each call is inlined: it
 * becomes a block expression (expr.blk.fn names the function) of
 *
 *   let $a: T = argument;          each parameter, a copy (STF_FN_ARG)
 *   let $<result>: R;              unless R is void (STF_FN_RESULT)
 *   the body, each `return v;` as  { $<result> = v (STF_FN_RETURN); return; }
 *   value: $<result>
 *
 * where `return` leaves the block (codegen), not the probe. The body's
 * variables, parameters included, are the call's own (expr.hyg, as a
 * macro's): a function sees nothing of its caller's. What can be told
 * from the definition alone is checked once, called or not: `return`
 * against the return type, that every path of a function with a value
 * returns one, and the builtins a function cannot use (those of a
 * probe: args, argN, retval, func, probe); the rest where it is called.
 * A function that leads back to itself is an error.
 */
#include "sema/check.h"

#include <string.h>

#define FN_DEPTH_MAX 32

struct fx {
	struct plan *p;
	const struct fn_def *stack[FN_DEPTH_MAX];
	uint32_t depth;
};

/* One call: the copy's variables are hyg's */
struct call {
	struct fx *fx;
	const struct fn_def *f;
	uint32_t hyg;
};

static bool is_void(const struct ast_typename *tn)
{
	return tn->tag == TN_PLAIN && tn->name && !strcmp(tn->name, "void") && !tn->ptr_depth &&
	       !tn->nmods;
}

static const struct fn_def *fn_named(const struct program *prog, const char *name)
{
	for (uint32_t i = 0; i < prog->nfns; i++)
		if (!strcmp(prog->fns[i]->name, name))
			return prog->fns[i];
	return NULL;
}

/* Does st leave the function on every path? */
static bool always_returns(const struct stmt *st)
{
	if (!st)
		return false;
	switch (st->kind) {
	case STMT_RETURN:
		return true;
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			if (always_returns(st->u.block.v[i]))
				return true;
		return false;
	case STMT_IF:
		return always_returns(st->u.if_.then) && always_returns(st->u.if_.otherwise);
	default:
		return false;
	}
}

struct def_check {
	struct plan *p;
	const struct fn_def *f;
};

/* builtins of a probe, which a function does not have */
static bool probe_builtin(struct expr *e, void *arg)
{
	struct def_check *dc = arg;
	const struct builtin_def *b;

	if (e->kind != EXPR_BUILTIN || !(b = sema_builtin_lookup(e->u.name)))
		return false;
	switch (b->id) {
	case BI_ARGS:
	case BI_ARGN:
	case BI_SARGN:
	case BI_RETVAL:
	case BI_FUNC:
	case BI_PROBE:
		diag_error(&dc->p->diag, e->span, E_BUILTIN_CONTEXT,
			   "%s is not available in a function (%s): it is a probe's", e->u.name,
			   dc->f->name);
		diag_hint(&dc->p->diag, "pass what the function needs as an argument");
		return false;
	default:
		return false;
	}
}

/* return statements against the return type, everywhere in st */
static void check_returns(struct def_check *dc, const struct stmt *st)
{
	bool v = is_void(&dc->f->ret);

	if (!st)
		return;
	switch (st->kind) {
	case STMT_RETURN:
		if (v && st->u.ret) {
			diag_error(&dc->p->diag, st->span, E_RETURN,
				   "function %s returns nothing (void): its return takes no value",
				   dc->f->name);
			diag_hint(&dc->p->diag, "declare the type it returns: fn %s(...): TYPE",
				  dc->f->name);
		} else if (!v && !st->u.ret) {
			diag_error(&dc->p->diag, st->span, E_RETURN,
				   "function %s returns a value: return needs one", dc->f->name);
		}
		return;
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			check_returns(dc, st->u.block.v[i]);
		return;
	case STMT_IF:
		check_returns(dc, st->u.if_.then);
		check_returns(dc, st->u.if_.otherwise);
		return;
	case STMT_WHILE:
		check_returns(dc, st->u.while_.body);
		return;
	case STMT_UNROLL:
		check_returns(dc, st->u.unroll.body);
		return;
	case STMT_FOR:
		check_returns(dc, st->u.for_.body);
		return;
	default:
		return;
	}
}

/* What the definition alone tells */
static void check_def(struct plan *p, const struct program *prog, const struct fn_def *f)
{
	struct def_check dc = { p, f };

	if (fn_named(prog, f->name) != f) {
		diag_error(&p->diag, f->name_span, E_REDECLARED, "function %s is defined twice",
			   f->name);
		return;
	}
	if (sema_func_lookup(f->name)) {
		diag_error(&p->diag, f->name_span, E_REDECLARED,
			   "%s is a builtin function: a function of the script needs another name",
			   f->name);
		return;
	}
	for (uint32_t i = 0; i < prog->nmacros; i++)
		if (!strcmp(prog->macros[i]->name, f->name)) {
			diag_error(&p->diag, f->name_span, E_REDECLARED,
				   "%s is both a macro and a function", f->name);
			return;
		}
	check_returns(&dc, f->body);
	if (!is_void(&f->ret) && !always_returns(f->body)) {
		diag_error(&p->diag, f->name_span, E_RETURN,
			   "function %s returns a value, but not on every path", f->name);
		diag_hint(&p->diag, "end each path of its body with return VALUE (a loop's body is "
				    "not a path that always runs)");
	}
	ast_stmt_any(f->body, probe_builtin, &dc);
}

static bool visit(struct expr **slot, void *arg);

/* The copy of the body: its variables the call's, `return v` set the result */
static bool own_vars(struct expr **slot, void *arg)
{
	struct call *c = arg;

	if ((*slot)->kind == EXPR_VAR)
		(*slot)->hyg = c->hyg;
	return false;
}

static struct expr *result_var(struct plan *p, uint32_t hyg, struct span sp)
{
	struct expr *v = ARENA_NEW(&p->arena, struct expr);

	v->kind = EXPR_VAR;
	v->span = sp;
	v->u.name = "<result>";
	v->hyg = hyg;
	return v;
}

static struct stmt *new_stmt(struct plan *p, enum stmt_kind k, struct span sp, uint32_t flags)
{
	struct stmt *s = ARENA_NEW(&p->arena, struct stmt);

	s->kind = k;
	s->span = sp;
	s->flags = flags;
	return s;
}

/* return v -> { $<result> = v; return; } (in place) */
static void returns_set(struct call *c, struct stmt *st)
{
	struct plan *p = c->fx->p;

	if (!st)
		return;
	switch (st->kind) {
	case STMT_RETURN:
		if (st->u.ret) {
			struct stmt *as = new_stmt(p, STMT_ASSIGN, st->span, STF_FN_RETURN);
			struct stmt *ret = new_stmt(p, STMT_RETURN, st->span, 0);
			as->u.assign.target = result_var(p, c->hyg, st->u.ret->span);
			as->u.assign.value = st->u.ret;
			st->kind = STMT_BLOCK;
			st->u.block.v = ARENA_ARRAY(&p->arena, struct stmt *, 2);
			st->u.block.v[0] = as;
			st->u.block.v[1] = ret;
			st->u.block.n = 2;
		}
		return;
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			returns_set(c, st->u.block.v[i]);
		return;
	case STMT_IF:
		returns_set(c, st->u.if_.then);
		returns_set(c, st->u.if_.otherwise);
		return;
	case STMT_WHILE:
		returns_set(c, st->u.while_.body);
		return;
	case STMT_UNROLL:
		returns_set(c, st->u.unroll.body);
		return;
	case STMT_FOR:
		returns_set(c, st->u.for_.body);
		return;
	default:
		return;
	}
}

/* f called at sp with args: the block that stands for the call */
static struct expr *inline_call(struct fx *fx, const struct fn_def *f, struct expr_list *args,
				struct span sp)
{
	struct plan *p = fx->p;
	struct call c = { fx, f, 0 };
	struct expr *blk = ARENA_NEW(&p->arena, struct expr);
	struct stmt *body = new_stmt(p, STMT_BLOCK, f->body->span, 0), *copy;
	uint32_t n = 0, cap = f->nparams + 2;

	c.hyg = sema_new_expansion(p, arena_printf(&p->arena, "function %s", f->name), false);
	body->u.block.v = ARENA_ARRAY(&p->arena, struct stmt *, cap);
	for (uint32_t i = 0; i < f->nparams; i++) {
		struct stmt *let = new_stmt(p, STMT_LET, args->v[i]->span, STF_FN_ARG);
		let->u.let.var = ast_expr_copy(&p->arena, f->params[i].var);
		let->u.let.var->hyg = c.hyg;
		let->u.let.type = ast_typename_copy(&p->arena, &f->params[i].type);
		if (let->u.let.type.of)
			ast_rewrite_expr(&let->u.let.type.of, own_vars, &c);
		let->u.let.value = args->v[i];
		body->u.block.v[n++] = let;
	}
	if (!is_void(&f->ret)) {
		struct stmt *let = new_stmt(p, STMT_LET, f->name_span, STF_FN_RESULT);
		let->u.let.var = result_var(p, c.hyg, f->name_span);
		let->u.let.type = ast_typename_copy(&p->arena, &f->ret);
		body->u.block.v[n++] = let;
		blk->u.blk.value = result_var(p, c.hyg, sp);
	}
	copy = ast_stmt_copy(&p->arena, f->body);
	ast_rewrite_stmt(copy, own_vars, &c);
	returns_set(&c, copy);
	fx->stack[fx->depth++] = f;
	ast_rewrite_stmt(copy, visit, fx);
	fx->depth--;
	body->u.block.v[n++] = copy;
	body->u.block.n = n;
	blk->kind = EXPR_BLOCK;
	blk->span = sp;
	blk->u.blk.body = body;
	blk->u.blk.fn = f;
	return blk;
}

static bool visit(struct expr **slot, void *arg)
{
	struct fx *fx = arg;
	struct expr *e = *slot;
	const struct fn_def *f;
	struct plan *p = fx->p;

	if (e->kind != EXPR_CALL || !(f = fn_named(p->ast, e->u.call.name)))
		return false;
	for (uint32_t i = 0; i < e->u.call.args.n; i++)
		ast_rewrite_expr(&e->u.call.args.v[i], visit, fx);
	if (e->u.call.args.n != f->nparams) {
		diag_error(&p->diag, e->span, E_ARG_COUNT, "%s() takes %u argument%s, %u given",
			   f->name, f->nparams, f->nparams == 1 ? "" : "s", e->u.call.args.n);
		return true;
	}
	for (uint32_t i = 0; i < fx->depth; i++) {
		struct strbuf chain = { 0 };
		if (fx->stack[i] != f)
			continue;
		for (uint32_t j = i; j < fx->depth; j++)
			sb_printf(&chain, "%s > ", fx->stack[j]->name);
		diag_error(&p->diag, e->span, E_RECURSIVE, "function %s calls itself: %s%s", f->name,
			   sb_str(&chain), f->name);
		diag_hint(&p->diag, "functions are inlined where they are called: none may lead "
				    "back to itself; a for loop repeats code");
		sb_free(&chain);
		return true;
	}
	if (fx->depth == FN_DEPTH_MAX) {
		diag_error(&p->diag, e->span, E_TOO_DEEP, "functions call functions more than %d deep",
			   FN_DEPTH_MAX);
		return true;
	}
	*slot = inline_call(fx, f, &e->u.call.args, e->span);
	return true;
}

int sema_inline_fns(struct plan *p)
{
	struct program *prog = p->ast;
	struct fx fx = { .p = p };
	int errors = p->diag.errors;

	if (!prog->nfns)
		return 0;
	for (uint32_t i = 0; i < prog->nfns; i++)
		check_def(p, prog, prog->fns[i]);
	if (p->diag.errors != errors)
		return -1;
	for (uint32_t i = 0; i < prog->nprobes; i++) {
		struct probe *pr = prog->probes[i];
		if (pr->pred)
			ast_rewrite_expr(&pr->pred, visit, &fx);
		ast_rewrite_stmt(pr->body, visit, &fx);
	}
	return p->diag.errors != errors ? -1 : 0;
}
