// SPDX-License-Identifier: MIT
/*
 * Variables and their scopes; `let`, for loops and block expressions.
 *
 * bpftrace 0.17: a $variable is the probe's, from its first assignment on,
 * wherever that is. Today's bpftrace (0.22 on) scopes them by block: a
 * variable first assigned (or declared with `let`) in a block is gone at
 * its '}', a for loop's variable lives in its loop, and no declaration may
 * shadow a variable in scope. Both read c->vars from the innermost end;
 * only today's forgets a block's variables when it ends (plan.modern).
 *
 * Every declaration is a var_info of its own, kept in c->all for codegen
 * (prog.vars). One declared in a for loop's body belongs to that loop
 * (var_info.loop), whose body codegen makes a subprogram of its own: the
 * variables of the scopes around it are handed to it (gen_loop.c).
 * Macros and user functions (issue 19) will open scopes the same way,
 * with a barrier that lookups do not cross.
 */
#include "sema/check.h"

#include <string.h>

struct var_info *sema_var_find(struct check *c, const struct expr *ve)
{
	for (size_t i = c->vars.len; i-- > 0;) {
		struct var_info *v = c->vars.data[i];
		if (v->hyg == ve->hyg && !strcmp(v->name, ve->u.name))
			return v;
	}
	return NULL;
}

/* The same variable (where it was made, its name) as the last pass left it, or NULL */
static struct var_info *last_pass(const struct check *c, const struct var_info *v)
{
	vec_foreach(&c->prog->vars, pv)
	{
		if ((*pv)->span.lo == v->span.lo && (*pv)->hyg == v->hyg && !strcmp((*pv)->name, v->name))
			return *pv;
	}
	return NULL;
}

static bool grows(const struct type *t)
{
	return t->kind == TY_STR || t->kind == TY_BUF || t->kind == TY_TUPLE;
}

/*
 * A variable declared without a value (`let $x;`) is as big as its biggest
 * string or tuple from its first assignment on, as sema_var_new makes one
 * assigned at once: as big as the last pass found it.
 */
struct type *sema_var_grown(struct check *c, const struct var_info *v, struct type *t)
{
	const struct var_info *old;

	if (!c->prog || !grows(t) || !(old = last_pass(c, v)) || !type_same_shape(old->type, t))
		return t;
	return type_unify(&c->p->arena, old->type, t);
}

struct var_info *sema_var_new(struct check *c, const struct expr *ve, struct type *t)
{
	struct var_info *v = ARENA_NEW(&c->p->arena, struct var_info);

	/* the type the previous pass ended with: later assignments may have widened it
	   (a longer string, a record's wider field), which earlier uses must see too */
	vec_foreach(&c->prog->vars, pv)
	{
		if ((*pv)->span.lo == ve->span.lo && (*pv)->hyg == ve->hyg &&
		    !strcmp((*pv)->name, ve->u.name) && (*pv)->type->kind != TY_NONE &&
		    t->kind != TY_NONE && !(*pv)->typed && type_same_shape((*pv)->type, t))
			t = type_unify(&c->p->arena, (*pv)->type, t);
	}
	v->name = ve->u.name;
	v->hyg = ve->hyg;
	v->type = t;
	v->span = ve->span;
	v->loop = c->loop;
	v->loop_depth = c->loop_depth;
	v->assigned = true;
	vec_push(&c->vars, v);
	vec_push(&c->all, v);
	return v;
}

void sema_scope_leave(struct check *c, uint32_t mark)
{
	if (c->p->modern && mark < c->vars.len)
		c->vars.len = mark;
}

/* "at line L, column C" of sp, for hints */
static void hint_declared(struct check *c, const struct var_info *v)
{
	uint32_t line, col;

	source_pos(&c->p->src, v->span.lo, &line, &col);
	CHINT(c, "$%s is declared at line %u, column %u; today's bpftrace lets no variable "
		 "shadow another: choose another name",
	      v->name, line, col);
}

void sema_var_undefined(struct check *c, const struct expr *ve)
{
	const struct expansion *x = ve->hyg ? &c->p->expansions.data[ve->hyg - 1] : NULL;

	if (x && x->macro) {
		/* a macro's body reads a variable of its caller's */
		CERR(c, ve->span, E_UNHYGIENIC, "%s uses $%s, which it is not given", x->what,
		     ve->u.name);
		CHINT(c, "a macro sees only its own variables and those passed to it: add $%s to its "
			 "parameters and pass it",
		      ve->u.name);
		return;
	}
	CERR(c, ve->span, E_UNDEFINED_VAR, "undefined variable $%s%s%s", ve->u.name,
	     x ? " in " : "", x ? x->what : "");
	if (x)
		CHINT(c, "a function sees only its parameters and its own variables");
	else if (c->p->modern)
		CHINT(c, "assign or declare it in this block or one around it, e.g. let $%s = 0;",
		      ve->u.name);
	else
		CHINT(c, "assign it before use, e.g. $%s = 0;", ve->u.name);
}

struct type *sema_check_var(struct check *c, struct expr *e)
{
	struct var_info *v = sema_var_find(c, e);

	if (!v) {
		sema_var_undefined(c, e);
		return &ty_none;
	}
	e->info = v;
	if (!v->assigned && c->final && !c->unevaluated) {
		bool said = false;
		vec_foreach(&c->warned, w) said |= *w == e->span.lo;
		if (!said) {
			vec_push(&c->warned, e->span.lo);
			diag_warn(&c->p->diag, e->span, E_UNDEFINED_VAR,
				  "$%s is read before it is assigned: it is 0 (or empty) here",
				  v->name);
		}
	}
	return v->type;
}

/* `let $x: T`: today's bpftrace's type names (string, bool), else C's */
static struct type *let_type(struct check *c, const struct ast_typename *tn)
{
	static const char *const own[] = { "string", "bool" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(own); i++)
		if (tn->tag == TN_PLAIN && !tn->ptr_depth && !tn->nmods && !strcmp(tn->name, own[i]))
			break;
	if (i == 0)
		return type_str(&c->p->arena, c->p->strlen);
	if (i == 1)
		return &ty_bool;
	return sema_check_typename(c, tn);
}

/* An integer literal (or -literal) within t's range; other values always "fit" */
bool sema_literal_fits(const struct expr *e, const struct type *t)
{
	bool neg = e->kind == EXPR_UNARY && e->u.unary.op == OP_NEG;
	const struct expr *l = neg ? e->u.unary.operand : e;
	uint32_t bits = t->size * 8;
	uint64_t max;

	if (l->kind != EXPR_INT || bits >= 64)
		return !(neg && l->kind == EXPR_INT && !t->is_signed && l->u.ival);
	if (neg)
		return t->is_signed ? l->u.ival <= (1ull << (bits - 1)) : l->u.ival == 0;
	max = t->is_signed ? (1ull << (bits - 1)) - 1 : (1ull << bits) - 1;
	return l->u.ival <= max;
}

/*
 * `let $p: struct C *` (or `struct C *[2]`): pointers of the value's
 * address space, or without a value of the probe's (a uprobe's: user memory).
 */
static struct type *let_space(struct check *c, struct type *t, struct type *vt)
{
	while (vt && vt->kind == TY_ARRAY)
		vt = vt->elem;
	return sema_type_in_space(c, t, vt && vt->kind == TY_PTR ? type_space(vt) : sema_probe_space(c));
}

void sema_check_let(struct check *c, struct stmt *st)
{
	struct expr *ve = st->u.let.var, *val = st->u.let.value;
	struct var_info *old = sema_var_find(c, ve), *v;
	struct type *t = st->u.let.type.name ? let_type(c, &st->u.let.type) : NULL;
	struct type *vt = val ? sema_args_value(c, val, sema_check_expr(c, val)) : NULL;

	if (t)
		t = let_space(c, t, vt);
	if (vt && (type_is_agg(vt) || vt->kind == TY_VOID || vt->kind == TY_CTX)) {
		CERR(c, val->span, E_BAD_ASSIGN, "%s cannot be stored in a variable", type_str_of(vt));
		vt = &ty_none;
	}
	if (t && vt && t->kind != TY_NONE && vt->kind != TY_NONE &&
	    (t->kind != vt->kind || (t->kind != TY_INT && !type_same_shape(t, vt)))) {
		if (st->flags & STF_FN_ARG)
			CERR(c, val->span, E_ARG_TYPE, "%s() takes %s as $%s, not %s",
			     c->fn ? c->fn->name : "?", type_str_of(t), ve->u.name, type_str_of(vt));
		else
			CERR(c, val->span, E_VAR_TYPE_CLASH, "$%s is declared %s: it cannot hold %s",
			     ve->u.name, type_str_of(t), type_str_of(vt));
		vt = &ty_none;
	}
	if (t && vt && t->kind == TY_INT && !t->is_bool && !sema_literal_fits(val, t)) {
		/* as today's bpftrace: a literal out of the declared type's range is refused */
		CERR(c, val->span, E_TOO_BIG, "the number does not fit in $%s's type, %s", ve->u.name,
		     type_str_of(t));
		CHINT(c, "cast it to say that it is meant: (%s)", type_str_of(t));
	}
	if (old) {
		CERR(c, ve->span, E_REDECLARED, "$%s is declared twice", ve->u.name);
		hint_declared(c, old);
		ve->info = old;
		ve->type = old->type;
		return;
	}
	if (!t)
		t = !vt ? &ty_none : vt->kind == TY_INT ? type_stored(&c->p->arena, vt) : vt;
	if (t->kind == TY_STR && vt && vt->kind == TY_STR && vt->size > t->size && !st->u.let.type.name)
		t = vt;
	v = sema_var_new(c, ve, t);
	v->typed = st->u.let.type.name != NULL;
	v->assigned = val != NULL;
	ve->info = v;
	ve->type = t;
}

/* The type of $kv in `for ($kv : @m)`: (key, value), the key a tuple when it has several parts */
static struct type *for_map_type(struct check *c, struct expr *me)
{
	struct map_info *m = sema_map_get(c, me->u.map.name, me->span);
	struct type *el[2];

	me->info = m;
	if (m->nkeys < 0 || !m->value) {
		if (!c->final) {
			c->unknown_read = true;
			return &ty_none;
		}
		CERR(c, me->span, E_MAP_UNUSED, "@%s is looped over but never assigned a value",
		     m->name);
		return &ty_none;
	}
	me->type = m->value;
	if (m->nkeys == 0) {
		CERR(c, me->span, E_BAD_OPERAND, "@%s has no keys: a for loop runs over a map's keys",
		     m->name);
		CHINT(c, "give it keys, e.g. @%s[pid] = ...", m->name);
		return &ty_none;
	}
	switch (m->value->kind) {
	case TY_COUNT:
		el[1] = &ty_u64;
		break;
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_AVG:
		el[1] = type_int(8, m->value->is_signed || m->value->kind == TY_AVG);
		break;
	default:
		if (type_is_agg(m->value)) {
			/* as today's bpftrace: a hist's, lhist's or stats' value is several */
			CERR(c, me->span, E_BAD_OPERAND,
			     "a for loop cannot run over @%s: its values are %s, which hold several "
			     "numbers each",
			     m->name, type_str_of(m->value));
			CHINT(c, "loop over maps of count(), sum(), min(), max(), avg() or plain values; "
				 "print(@%s) shows the others",
			      m->name);
			return &ty_none;
		}
		el[1] = m->value;
	}
	el[0] = m->nkeys == 1 ? m->key->fields[0].type : m->key;
	return type_tuple(&c->p->arena, el, 2);
}

void sema_check_for(struct check *c, struct stmt *st)
{
	struct expr *ve = st->u.for_.var;
	struct var_info *old = sema_var_find(c, ve), *v;
	struct stmt *outer = c->loop;
	struct type *t = &ty_s64;
	uint32_t mark;

	if (st->u.for_.map) {
		t = for_map_type(c, st->u.for_.map);
	} else {
		sema_check_int(c, st->u.for_.lo, "a range's start");
		sema_check_int(c, st->u.for_.hi, "a range's end");
	}
	if (old) {
		CERR(c, ve->span, E_REDECLARED, "the loop's variable $%s is declared already",
		     ve->u.name);
		hint_declared(c, old);
	}
	mark = sema_scope_enter(c);
	c->loop = st;
	c->loop_depth++;
	c->loops++;
	v = sema_var_new(c, ve, t);
	ve->info = v;
	ve->type = t;
	sema_check_stmt(c, st->u.for_.body);
	c->loops--;
	c->loop_depth--;
	c->loop = outer;
	sema_scope_leave(c, mark);
}

struct type *sema_check_block_expr(struct check *c, struct expr *e)
{
	struct stmt *b = e->u.blk.body;
	uint32_t mark = sema_scope_enter(c);
	struct type *t = &ty_void;
	const struct fn_def *fn = c->fn;
	int loops = c->loops;

	if (e->u.blk.fn) {
		/* an inlined call: break and continue do not leave it */
		c->fn = e->u.blk.fn;
		c->loops = 0;
	}
	for (uint32_t i = 0; i < b->u.block.n; i++)
		sema_check_stmt(c, b->u.block.v[i]);
	c->fn = fn;
	c->loops = loops;
	if (e->u.blk.value && e->u.blk.value->kind == EXPR_CALL)
		/* { printf(...) }: a call of no value is a block of no value */
		t = e->u.blk.value->type = sema_check_call(c, e->u.blk.value, IN_STMT);
	else if (e->u.blk.value)
		t = sema_check_expr(c, e->u.blk.value);
	sema_scope_leave(c, mark);
	return t;
}
