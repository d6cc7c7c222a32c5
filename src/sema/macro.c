// SPDX-License-Identifier: MIT
/*
 * Macros (today's bpftrace): `macro name(params) { body }`, expanded where
 * they are called, before anything is typed, into a block expression that
 * is a copy of the body.
 *
 * Hygiene: the body sees only what it is given. A `$x` parameter is the
 * caller's variable itself (the body may change it), a `@m` parameter the
 * caller's map, an `x` parameter the caller's expression, copied where
 * the body names x (evaluated as many times). Every other variable of the
 * body is the expansion's own: its EXPR_VAR nodes get the expansion's
 * number (expr.hyg), which sema's scopes tell apart from the caller's
 * variables of the same name; reading one the body never set is an error
 * there. A map the body names without being given is an error here.
 *
 * Which definition a call expands: macros may share a name, with
 * parameters of different kinds or numbers; the first whose parameters
 * take the arguments ($x a variable, @m a map without keys, x anything)
 * is expanded, the arguments expanded first in the caller's code. A
 * macro of no parameters is also called by its bare name (`one`). A user
 * macro with a builtin's name and arguments takes the builtin's place
 * (`macro cpu() { ... }`); a call that no macro of its name takes is the
 * builtin's when there is one, else an error that names the closest
 * definition. A macro that leads back to itself is an error.
 */
#include "sema/check.h"

#include <stdlib.h>
#include <string.h>

#define MACRO_DEPTH_MAX 64

struct mx {
	struct plan *p;
	const struct macro_def *stack[MACRO_DEPTH_MAX];
	uint32_t depth;
};

/* One expansion: the macro's parameters bound to the call's arguments */
struct inst {
	struct mx *mx;
	const struct macro_def *m; /* NULL: the script's own code */
	struct expr **args;
	uint32_t hyg;
};

uint32_t sema_new_expansion(struct plan *p, const char *what, bool macro)
{
	struct expansion x = { what, macro };

	vec_push(&p->expansions, x);
	return (uint32_t)p->expansions.len;
}

static const char *sigil(enum macro_param_kind k)
{
	return k == MP_VAR ? "$" : k == MP_MAP ? "@" : "";
}

static const char *ordinal(uint32_t i)
{
	static const char *const n[] = { "1st", "2nd", "3rd" };

	return i < 3 ? n[i] : "next";
}

static void hint_at(struct plan *p, const char *what, struct span sp)
{
	uint32_t line, col;

	source_pos(&p->src, sp.lo, &line, &col);
	diag_hint(&p->diag, "%s: %s:%u:%u", what, source_name_at(&p->src, sp.lo), line, col);
}

static bool is_keyless_map(const struct expr *e)
{
	return e->kind == EXPR_MAP && !e->u.map.keys.n;
}

/* Does parameter mp not take the argument a? */
static bool mismatch(const struct macro_param *mp, const struct expr *a)
{
	return (mp->kind == MP_MAP && !is_keyless_map(a)) || (mp->kind == MP_VAR && a->kind != EXPR_VAR);
}

/* How far m's parameters are from taking args: 0 when they do */
static uint32_t distance(const struct macro_def *m, struct expr **args, uint32_t n)
{
	uint32_t d = 1024 * (m->nparams > n ? m->nparams - n : n - m->nparams);

	for (uint32_t i = 0; i < m->nparams && i < n; i++)
		d += mismatch(&m->params[i], args[i]);
	return d;
}

static const char *arg_what(const struct expr *e)
{
	return e->kind == EXPR_VAR ? "a variable" : e->kind == EXPR_MAP ? "a map" : "an expression";
}

/* No definition of name takes the call's arguments: say why for the closest */
static void no_match(struct plan *p, const struct macro_def *m, struct expr **args, uint32_t n,
		     struct span sp)
{
	if (m->nparams != n) {
		diag_error(&p->diag, sp, E_ARG_COUNT, "macro %s() takes %u argument%s, %u given",
			   m->name, m->nparams, m->nparams == 1 ? "" : "s", n);
		hint_at(p, "the definition", m->name_span);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct macro_param *mp = &m->params[i];
		if (!mismatch(mp, args[i]))
			continue;
		diag_error(&p->diag, args[i]->span, E_ARG_TYPE,
			   "macro %s() takes %s (%s%s) as its %s argument, not %s", m->name,
			   mp->kind == MP_VAR ? "a variable" : "a map without keys", sigil(mp->kind),
			   mp->name, ordinal(i), arg_what(args[i]));
		diag_hint(&p->diag, "a %s parameter is the caller's %s itself, which the macro may change",
			  mp->kind == MP_VAR ? "$" : "@", mp->kind == MP_VAR ? "variable" : "map");
		return;
	}
}

/*
 * The macro a call of name with args (a bare name: n 0, args NULL)
 * expands, or NULL: none, the builtin's (builtin), or an error reported.
 */
static const struct macro_def *lookup(struct mx *mx, const char *name, struct expr **args,
				      uint32_t n, struct span sp, bool builtin)
{
	const struct program *prog = mx->p->ast;
	const struct macro_def *closest = NULL;
	uint32_t best = UINT32_MAX;

	for (uint32_t i = 0; i < prog->nmacros; i++) {
		const struct macro_def *m = prog->macros[i];
		uint32_t d;
		if (strcmp(m->name, name))
			continue;
		d = distance(m, args, n);
		if (!d)
			return m;
		if (d < best) {
			best = d;
			closest = m;
		}
	}
	if (closest && !builtin)
		no_match(mx->p, closest, args, n, sp);
	return NULL;
}

static bool visit(struct expr **slot, void *arg);

/* m's body for a call at sp: a block expression of its own */
static struct expr *instantiate(struct mx *mx, const struct macro_def *m, struct expr **args,
				struct span sp)
{
	struct plan *p = mx->p;
	struct inst in = { mx, m, args, 0 };
	struct expr *body;
	struct strbuf chain = { 0 };

	for (uint32_t i = 0; i < mx->depth; i++) {
		if (mx->stack[i] != m)
			continue;
		for (uint32_t j = i; j < mx->depth; j++)
			sb_printf(&chain, "%s > ", mx->stack[j]->name);
		diag_error(&p->diag, sp, E_RECURSIVE, "macro %s calls itself: %s%s", m->name,
			   sb_str(&chain), m->name);
		diag_hint(&p->diag, "a macro is expanded where it is called, so it cannot call itself; "
				    "a loop (for, while) repeats code");
		sb_free(&chain);
		return NULL;
	}
	if (mx->depth == MACRO_DEPTH_MAX) {
		diag_error(&p->diag, sp, E_TOO_DEEP, "macros call macros more than %d deep",
			   MACRO_DEPTH_MAX);
		return NULL;
	}
	in.hyg = sema_new_expansion(p, arena_printf(&p->arena, "macro %s", m->name), true);
	body = ast_expr_copy(&p->arena, m->body);
	mx->stack[mx->depth++] = m;
	ast_rewrite_expr(&body, visit, &in);
	mx->depth--;
	body->span = sp;
	return body;
}

static const struct macro_param *param(const struct inst *in, enum macro_param_kind k,
				       const char *name, struct expr **arg)
{
	for (uint32_t i = 0; i < in->m->nparams; i++) {
		const struct macro_param *mp = &in->m->params[i];
		if (mp->kind == k && !strcmp(mp->name, name)) {
			*arg = in->args[i];
			return mp;
		}
	}
	return NULL;
}

/* sizeof(x) and offsetof(x, f) of an expression parameter x (parsed as a type) */
static bool type_param(struct inst *in, struct ast_typename *tn, struct expr **operand)
{
	struct expr *a;

	if (!tn->name || tn->tag != TN_PLAIN || tn->ptr_depth || tn->nmods || tn->of ||
	    !param(in, MP_EXPR, tn->name, &a))
		return false;
	tn->name = NULL;
	*operand = ast_expr_copy(&in->mx->p->arena, a);
	return true;
}

/*
 * In a macro's body: its parameters take the arguments, its variables
 * become its own. True when *slot needs no further visit.
 */
static bool bind(struct inst *in, struct expr **slot, bool *done)
{
	struct expr *e = *slot, *a;
	struct plan *p = in->mx->p;

	*done = true;
	switch (e->kind) {
	case EXPR_VAR:
		if (param(in, MP_VAR, e->u.name, &a)) {
			e->u.name = a->u.name;
			e->hyg = a->hyg;
		} else {
			e->hyg = in->hyg;
		}
		return true;
	case EXPR_MAP:
		if (param(in, MP_MAP, e->u.map.name, &a)) {
			e->u.map.name = a->u.map.name;
		} else {
			diag_error(&p->diag, e->span, E_UNHYGIENIC,
				   "macro %s uses @%s, which it is not given", in->m->name,
				   e->u.map.name);
			diag_hint(&p->diag, "a macro sees only the maps passed to it: add a parameter "
					    "(macro %s(@%s, ...)) and pass the map",
				  in->m->name, e->u.map.name);
		}
		*done = false; /* its keys */
		return true;
	case EXPR_IDENT:
	case EXPR_BUILTIN:
		if (!param(in, MP_EXPR, e->u.name, &a))
			return false;
		/* the caller's expression, expanded in the caller's code already */
		*slot = ast_expr_copy(&p->arena, a);
		return true;
	case EXPR_SIZEOF:
		/* the copy is the caller's: not visited */
		return type_param(in, &e->u.size_of.type, &e->u.size_of.operand);
	case EXPR_OFFSETOF:
		return type_param(in, &e->u.offset_of.type, &e->u.offset_of.operand);
	default:
		return false;
	}
}

static bool visit(struct expr **slot, void *arg)
{
	struct inst *in = arg;
	struct expr *e = *slot;
	const struct macro_def *m;
	bool done;

	if (in->m && bind(in, slot, &done))
		return done;
	switch (e->kind) {
	case EXPR_CALL:
		for (uint32_t i = 0; i < e->u.call.args.n; i++)
			ast_rewrite_expr(&e->u.call.args.v[i], visit, in);
		m = lookup(in->mx, e->u.call.name, e->u.call.args.v, e->u.call.args.n, e->span,
			   sema_func_lookup(e->u.call.name) != NULL);
		break;
	case EXPR_IDENT:
	case EXPR_BUILTIN:
		m = lookup(in->mx, e->u.name, NULL, 0, e->span,
			   e->kind == EXPR_BUILTIN || sema_builtin_lookup(e->u.name));
		break;
	default:
		return false;
	}
	if (m) {
		struct expr *x = instantiate(in->mx, m, e->kind == EXPR_CALL ? e->u.call.args.v : NULL,
					     e->span);
		if (x)
			*slot = x;
	}
	return true;
}

/* `let $x` and `for ($x : ...)` in a macro's body may not take a $x parameter's name */
struct shadow {
	struct plan *p;
	const struct macro_def *m;
};

static void shadow_stmt(struct shadow *sh, struct stmt *st);

static bool shadow_expr(struct expr **slot, void *arg)
{
	struct expr *e = *slot;

	if (e->kind != EXPR_BLOCK)
		return false;
	shadow_stmt(arg, e->u.blk.body);
	if (e->u.blk.value)
		ast_rewrite_expr(&e->u.blk.value, shadow_expr, arg);
	return true;
}

static void shadow_var(struct shadow *sh, const struct expr *v)
{
	for (uint32_t i = 0; i < sh->m->nparams; i++) {
		const struct macro_param *mp = &sh->m->params[i];
		if (mp->kind != MP_VAR || strcmp(mp->name, v->u.name))
			continue;
		diag_error(&sh->p->diag, v->span, E_REDECLARED,
			   "$%s is a parameter of macro %s: it cannot be declared again", v->u.name,
			   sh->m->name);
		diag_hint(&sh->p->diag, "choose another name for the macro's own variable");
	}
}

static void shadow_stmt(struct shadow *sh, struct stmt *st)
{
	if (!st)
		return;
	switch (st->kind) {
	case STMT_LET:
		shadow_var(sh, st->u.let.var);
		break;
	case STMT_FOR:
		shadow_var(sh, st->u.for_.var);
		shadow_stmt(sh, st->u.for_.body);
		return;
	case STMT_BLOCK:
		for (uint32_t i = 0; i < st->u.block.n; i++)
			shadow_stmt(sh, st->u.block.v[i]);
		return;
	case STMT_IF:
		shadow_stmt(sh, st->u.if_.then);
		shadow_stmt(sh, st->u.if_.otherwise);
		break;
	case STMT_WHILE:
		shadow_stmt(sh, st->u.while_.body);
		break;
	case STMT_UNROLL:
		shadow_stmt(sh, st->u.unroll.body);
		break;
	default:
		break;
	}
	/* block expressions in the statement's expressions */
	struct stmt flat = *st;
	switch (flat.kind) {
	case STMT_IF:
		flat.u.if_.then = flat.u.if_.otherwise = NULL;
		break;
	case STMT_WHILE:
		flat.u.while_.body = NULL;
		break;
	case STMT_UNROLL:
		flat.u.unroll.body = NULL;
		break;
	default:
		break;
	}
	ast_rewrite_stmt(&flat, shadow_expr, sh);
}

/* Two macros of one name must not take the same arguments: the later is refused */
static bool redefined(struct plan *p, const struct program *prog, uint32_t k)
{
	const struct macro_def *m = prog->macros[k];
	struct expr **args = ARENA_ARRAY(&p->arena, struct expr *, m->nparams + 1);
	struct expr *pseudo = ARENA_ARRAY(&p->arena, struct expr, m->nparams + 1);

	for (uint32_t i = 0; i < m->nparams; i++) {
		static const enum expr_kind kinds[] = { [MP_EXPR] = EXPR_IDENT, [MP_VAR] = EXPR_VAR,
							[MP_MAP] = EXPR_MAP };
		pseudo[i] = (struct expr){ .kind = kinds[m->params[i].kind], .span = m->params[i].span };
		args[i] = &pseudo[i];
	}
	for (uint32_t j = 0; j < k; j++) {
		const struct macro_def *o = prog->macros[j];
		if (strcmp(o->name, m->name) || distance(o, args, m->nparams))
			continue;
		diag_error(&p->diag, m->name_span, E_REDECLARED,
			   "macro %s is defined twice for the same arguments", m->name);
		hint_at(p, "the first definition", o->name_span);
		return true;
	}
	return false;
}

int sema_expand_macros(struct plan *p)
{
	struct program *prog = p->ast;
	struct mx mx = { .p = p };
	struct inst top = { &mx, NULL, NULL, 0 };
	int errors = p->diag.errors;

	if (!prog->nmacros)
		return 0;
	for (uint32_t i = 0; i < prog->nmacros; i++) {
		struct shadow sh = { p, prog->macros[i] };
		redefined(p, prog, i);
		shadow_stmt(&sh, prog->macros[i]->body->u.blk.body);
	}
	if (p->diag.errors != errors)
		return -1;
	for (uint32_t i = 0; i < prog->nprobes; i++) {
		struct probe *pr = prog->probes[i];
		if (pr->pred)
			ast_rewrite_expr(&pr->pred, visit, &top);
		ast_rewrite_stmt(pr->body, visit, &top);
	}
	for (uint32_t i = 0; i < prog->nfns; i++)
		ast_rewrite_stmt(prog->fns[i]->body, visit, &top);
	return p->diag.errors != errors ? -1 : 0;
}
