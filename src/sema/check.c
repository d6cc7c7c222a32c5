// SPDX-License-Identifier: MIT
/*
 * Type checking of statements and expressions.
 *
 * The whole script is checked several times: quiet passes learn map key and
 * value types from every program (a map read in one probe may be assigned
 * in a later one) until nothing changes, then a final pass reports errors.
 * Each program has its own copy of its probe's code, typed for its
 * instance: a probe whose code depends on the instance (args, probe, func)
 * has a program, and a copy, per instance (compile/programs.c), so the
 * annotations on each copy are those of the program generated from it.
 */
#include "sema/check.h"
#include "sema/check_stdlib.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool sema_is_truthy(const struct type *t)
{
	return t->kind == TY_INT || t->kind == TY_PTR;
}

bool sema_check_int(struct check *c, struct expr *e, const char *what)
{
	struct type *t = sema_check_expr(c, e);

	if (t->kind == TY_INT || t->kind == TY_NONE)
		return t->kind == TY_INT;
	CERR(c, e->span, E_ARG_TYPE, "%s expects an integer, got %s", what, type_str_of(t));
	return false;
}

bool sema_check_const_int(struct check *c, struct expr *e, int64_t *v, const char *what)
{
	switch (e->kind) {
	case EXPR_INT:
		sema_check_expr(c, e);
		*v = (int64_t)e->u.ival;
		return true;
	case EXPR_POSITIONAL:
		sema_check_expr(c, e);
		return plan_param_int(c->p, e->u.num, v);
	case EXPR_POSCOUNT:
		sema_check_expr(c, e);
		*v = c->p->opts->nparams; /* $# */
		return true;
	case EXPR_UNARY:
		if (e->u.unary.op == OP_NEG && sema_check_const_int(c, e->u.unary.operand, v, what)) {
			*v = -*v;
			e->type = &ty_s64;
			return true;
		}
		break;
	default:
		break;
	}
	sema_check_expr(c, e);
	CERR(c, e->span, E_NOT_CONSTANT, "%s must be an integer constant", what);
	return false;
}

static struct type *check_map_expr(struct check *c, struct expr *e)
{
	struct map_info *m = sema_map_get(c, e->u.map.name, e->span);

	e->info = m;
	sema_map_learn_keys(c, m, e);
	return m->value ? m->value : &ty_none;
}

static const char *suggest_func(const char *name)
{
	const char *best = NULL;
	unsigned bestd = 3;

	for (int i = 0; i < FN_COUNT_; i++) {
		unsigned d = util_edit_distance(name, sema_func_defs[i].name, bestd);
		if (d < bestd) {
			bestd = d;
			best = sema_func_defs[i].name;
		}
	}
	return best;
}

struct type *sema_check_call(struct check *c, struct expr *e, enum call_ctx ctx)
{
	const struct func_def *fd = sema_func_lookup(e->u.call.name);
	uint32_t n = e->u.call.args.n;

	if (!fd) {
		const char *s = suggest_func(e->u.call.name);
		CERR(c, e->u.call.name_span, E_UNKNOWN_FUNCTION, "unknown function '%s'",
		     e->u.call.name);
		if (s)
			CHINT(c, "did you mean '%s'?", s);
		for (uint32_t i = 0; i < n; i++)
			sema_check_expr(c, e->u.call.args.v[i]);
		return &ty_none;
	}
	e->id = fd->id;
	e->fn = fd;
	if (n < fd->min_args || n > fd->max_args) {
		if (fd->min_args == fd->max_args)
			CERR(c, e->span, E_ARG_COUNT, "%s() takes %u argument%s, %u given", fd->name,
			     fd->min_args, fd->min_args == 1 ? "" : "s", n);
		else
			CERR(c, e->span, E_ARG_COUNT, "%s() takes %u to %u arguments, %u given",
			     fd->name, fd->min_args, fd->max_args, n);
		return &ty_none;
	}
	if (fd->kind == FK_AGG) {
		CERR(c, e->span, E_AGG_MISUSE, "%s() must be assigned directly to a map", fd->name);
		CHINT(c, "write it as @name = %s(...) or @name[key] = %s(...)", fd->name, fd->name);
		return &ty_none;
	}
	if (fd->id == FN_EXIT && c->loop) {
		/* as today's bpftrace: exit() leaves the probe, which a loop's body cannot */
		CERR(c, e->span, E_LOOP_CONTROL, "exit() cannot be called in a for loop");
		CHINT(c, "break out of the loop, then call exit()");
	}
	struct type *t = fd->check(c, e);
	if (ctx == IN_VALUE && fd->kind == FK_VOID) {
		CERR(c, e->span, E_BAD_OPERAND, "%s() has no value", fd->name);
		return &ty_none;
	}
	return t;
}

/*
 * `args` as one value (today's bpftrace): a struct of the probe's
 * arguments, each a field of its own type in C's layout (printed
 * `{ .n = 0x..., .c = 120 }`), stored, printed and used as a key as any
 * struct. e keeps reads of each argument (e->u.call.args: EXPR_FIELDs of
 * args), which codegen puts together. t unchanged for anything else.
 */
struct type *sema_args_value(struct check *c, struct expr *e, struct type *t)
{
	struct plan *p = c->p;

	if (t->kind != TY_CTX || e->kind != EXPR_BUILTIN || e->id != BI_ARGS || !p->modern || !t->nfields)
		return t;
	struct type *r = type_record(&p->arena, "struct args", 0, 1, t->nfields);
	struct expr **reads = ARENA_ARRAY(&p->arena, struct expr *, t->nfields);
	uint32_t off = 0, n = 0;
	for (uint32_t i = 0; i < t->nfields; i++) {
		struct expr *base = ARENA_NEW(&p->arena, struct expr), *f = ARENA_NEW(&p->arena, struct expr);
		*base = *e;
		base->type = t;
		f->kind = EXPR_FIELD;
		f->span = e->span;
		f->u.field.base = base;
		f->u.field.name = t->fields[i].name;
		f->u.field.name_span = e->span;
		struct type *ft = sema_check_expr(c, f);
		if (ft->kind == TY_NONE)
			return &ty_none;
		ft = type_stored(&p->arena, ft);
		uint32_t al = ft->align ? ft->align : 1;
		off = (off + al - 1) / al * al;
		r->fields[n] = (struct field){ .name = t->fields[i].name, .type = ft, .offset = off };
		reads[n++] = f;
		off += ft->size;
		r->align = MAX(r->align, al);
	}
	r->nfields = n;
	r->size = (off + r->align - 1) / r->align * r->align;
	e->u.call.args.v = reads;
	e->u.call.args.n = n;
	e->type = r;
	return r;
}

/* `$x = ...` and `@m[k] = ...`: the value's type for the target. */
struct type *sema_check_value(struct check *c, struct expr *v)
{
	struct type *t = sema_args_value(c, v, sema_check_expr(c, v));

	if (type_is_agg(t)) {
		CERR(c, v->span, E_AGG_MISUSE, "the value of an aggregation (%s) cannot be copied",
		     type_str_of(t));
		CHINT(c, "aggregations are read when they are printed; print(@map) shows one");
		return &ty_none;
	}
	if (t->kind == TY_VOID || t->kind == TY_CTX) {
		CERR(c, v->span, E_BAD_ASSIGN, "%s cannot be stored", type_str_of(t));
		return &ty_none;
	}
	return t;
}

static struct type *arith_result(struct type *a, struct type *b)
{
	return (!a->is_signed && !b->is_signed) ? &ty_u64 : &ty_s64;
}

/*
 * A literal, as the sign warnings see it: a number, or a constant that
 * bpftrace would have substituted as one (#define, enum member).
 */
bool sema_is_literal(const struct expr *e)
{
	const struct constant *k = e->kind == EXPR_IDENT ? e->info : NULL;

	return e->kind == EXPR_INT || (k && !k->str && k->value >= 0);
}

/*
 * Integers of different signs compared, or in arithmetic (+ - * / %):
 * bpftrace warns, unless a side is a literal (a non-negative one: -1 is an
 * operator and a literal). lhs and rhs are the operands, or NULL for a
 * compound assignment's target.
 */
void sema_warn_mixed_signs(struct check *c, enum op op, struct span sp, struct type *a,
			   struct type *b, struct expr *lhs, struct expr *rhs)
{
	bool cmp = op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT ||
		   op == OP_GE;
	bool arith = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV || op == OP_MOD;

	if (!c->final || !(cmp || arith) || a->kind != TY_INT || b->kind != TY_INT ||
	    a->is_signed == b->is_signed || (lhs && sema_is_literal(lhs)) || (rhs && sema_is_literal(rhs)))
		return;
	struct strbuf an = { 0 }, bn = { 0 };
	type_name(&an, a);
	type_name(&bn, b);
	diag_warn(&c->p->diag, sp, E_BAD_OPERAND, "%s integers of different signs: %s and %s",
		  cmp ? "comparison of" : "arithmetic on", sb_str(&an), sb_str(&bn));
	diag_hint(&c->p->diag, "cast one side so both are signed or both unsigned");
	sb_free(&an);
	sb_free(&bn);
}

/*
 * '/' and '%' (and '/=', '%=') divide as unsigned; bpftrace warns when a
 * side is signed and not a literal.
 */
void sema_warn_signed_div(struct check *c, enum op op, struct span sp, bool lhs, bool rhs)
{
	if (!c->final || !(lhs || rhs))
		return;
	diag_warn(&c->p->diag, sp, E_BAD_OPERAND,
		  "signed operands for '%s' are divided as unsigned (as bpftrace does)", ast_op_str(op));
	diag_hint(&c->p->diag, "cast an operand to an unsigned type to silence this");
}

static struct type *check_binary(struct check *c, struct expr *e)
{
	enum op op = e->u.binary.op;
	struct type *a = sema_check_expr(c, e->u.binary.lhs), *b = sema_check_expr(c, e->u.binary.rhs);

	struct type *truth = c->p->modern ? &ty_bool : &ty_s64; /* today's: a bool */

	if (a->kind == TY_NONE || b->kind == TY_NONE)
		return &ty_none;
	if ((op == OP_EQ || op == OP_NE) && a->kind == TY_STR && b->kind == TY_STR)
		return truth;
	if ((op == OP_EQ || op == OP_NE) && !type_is_scalar(a) && a->kind != TY_STR &&
	    sema_comparable(a, b))
		return truth; /* today's bpftrace: tuples, records, arrays (check_compare.c) */
	if ((op == OP_LAND || op == OP_LOR) && sema_is_truthy(a) && sema_is_truthy(b))
		return truth;
	if (sema_is_truthy(a) && sema_is_truthy(b) && (a->kind == TY_PTR || b->kind == TY_PTR))
		return sema_check_ptr_arith(c, e, a, b);
	if (!sema_is_truthy(a) || !sema_is_truthy(b)) {
		CERR(c, e->span, E_TYPE_MISMATCH, "type mismatch for '%s': comparing %s with %s",
		     ast_op_str(op), type_str_of(a), type_str_of(b));
		return &ty_none;
	}
	sema_warn_mixed_signs(c, op, e->span, a, b, e->u.binary.lhs, e->u.binary.rhs);
	switch (op) {
	case OP_EQ:
	case OP_NE:
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
	case OP_LAND:
	case OP_LOR:
		return truth;
	case OP_DIV:
	case OP_MOD:
		sema_warn_signed_div(c, op, e->span, a->is_signed && !sema_is_literal(e->u.binary.lhs),
				b->is_signed && !sema_is_literal(e->u.binary.rhs));
		return &ty_u64;
	case OP_SUB:
		/* today's bpftrace: a difference is signed, whatever its operands */
		return c->p->modern ? &ty_s64 : arith_result(a, b);
	default:
		return arith_result(a, b);
	}
}

static struct type *check_incdec(struct check *c, struct expr *e)
{
	struct expr *x = e->u.unary.operand;

	if (x->kind == EXPR_MAP) {
		struct map_info *m = sema_map_get(c, x->u.map.name, x->span);
		x->info = m;
		sema_map_learn_keys(c, m, x);
		if (!m->value)
			sema_map_learn_value(c, m, &ty_s64, x->span);
		x->type = m->value ? m->value : &ty_none;
	} else if (x->kind == EXPR_VAR) {
		struct var_info *v = sema_var_find(c, x);
		if (!v) {
			sema_var_undefined(c, x);
			return &ty_none;
		}
		x->info = v;
		x->type = v->type;
	} else {
		CERR(c, x->span, E_BAD_OPERAND, "'%s' needs a map or a variable", ast_op_str(e->u.unary.op));
		return &ty_none;
	}
	if (x->type->kind == TY_PTR)
		return x->type; /* $p++, @p++: the next element */
	if (x->type->kind != TY_INT && x->type->kind != TY_NONE) {
		CERR(c, x->span, E_BAD_OPERAND, "'%s' needs an integer, not %s", ast_op_str(e->u.unary.op),
		     type_str_of(x->type));
		return &ty_none;
	}
	return x->type->kind == TY_INT ? &ty_s64 : &ty_none;
}

static struct type *check_unary(struct check *c, struct expr *e)
{
	enum op op = e->u.unary.op;
	struct type *t;

	if (op == OP_PREINC || op == OP_PREDEC || op == OP_POSTINC || op == OP_POSTDEC)
		return check_incdec(c, e);
	t = sema_check_expr(c, e->u.unary.operand);
	if (t->kind == TY_NONE)
		return t;
	switch (op) {
	case OP_LNOT:
		if (sema_is_truthy(t))
			return c->p->modern ? &ty_bool : &ty_s64;
		break;
	case OP_NEG:
		if (t->kind == TY_INT)
			return &ty_s64;
		break;
	case OP_PLUS:
	case OP_BNOT:
		/* today's bpftrace: ~ of a literal is unsigned (~10 is 2^64 - 11) */
		if (t->kind == TY_INT && op == OP_BNOT && c->p->modern &&
		    e->u.unary.operand->kind == EXPR_INT)
			return &ty_u64;
		if (t->kind == TY_INT)
			return type_int(8, t->is_signed);
		break;
	case OP_DEREF:
		return sema_check_deref(c, e, t);
	case OP_ADDR:
		return sema_check_addr(c, e);
	default:
		break;
	}
	CERR(c, e->span, E_BAD_OPERAND, "invalid operand to '%s': %s", ast_op_str(op), type_str_of(t));
	return &ty_none;
}

/* a ?: b: a when it is true, else b; both integers or pointers of one kind */
static struct type *check_elvis(struct check *c, struct expr *e, struct type *a)
{
	struct type *b = sema_check_expr(c, e->u.ternary.otherwise);

	if (a->kind == TY_NONE || b->kind == TY_NONE)
		return &ty_none;
	if (!sema_is_truthy(a)) {
		CERR(c, e->u.ternary.cond->span, E_BAD_OPERAND,
		     "the first operand of '?:' must be an integer or a pointer, not %s",
		     type_str_of(a));
		return &ty_none;
	}
	if (a->kind != b->kind) {
		CERR(c, e->span, E_TYPE_MISMATCH, "the operands of '?:' have different types: %s and %s",
		     type_str_of(a), type_str_of(b));
		return &ty_none;
	}
	if (a->kind == TY_PTR)
		return a;
	return (a->is_signed || b->is_signed) ? &ty_s64 : a->is_bool && b->is_bool ? &ty_bool : &ty_u64;
}

static struct type *check_expr_kind(struct check *c, struct expr *e)
{
	struct plan *p = c->p;

	switch (e->kind) {
	case EXPR_INT: /* int64, even past INT64_MAX (bpftrace 0.17); today's: a literal's,
			  uint64 past INT64_MAX */
		return !p->modern ? &ty_s64 : e->u.ival > INT64_MAX ? &ty_u64 : &ty_lit;
	case EXPR_STR:
		return type_str(&p->arena, e->u.len + 1);
	case EXPR_BUILTIN: {
		const struct builtin_def *b = sema_builtin_lookup(e->u.name);
		if (!b) {
			CERR(c, e->span, E_UNKNOWN_IDENT, "unknown builtin '%s'", e->u.name);
			return &ty_none;
		}
		e->id = b->id;
		return b->type ? b->type : b->check(c, e);
	}
	case EXPR_IDENT:
		return sema_check_ident(c, e);
	case EXPR_POSITIONAL: {
		int64_t v;
		if (!plan_param_int(p, e->u.num, &v) && p->modern) {
			/* today's bpftrace: a parameter that is no number is a string */
			const char *text = plan_param(p, e->u.num);
			e->kind = EXPR_STR;
			e->u.str = text;
			e->u.len = (uint32_t)strlen(text);
			return type_str(&p->arena, e->u.len + 1);
		}
		if (!plan_param_int(p, e->u.num, &v)) {
			CERR(c, e->span, E_POSITIONAL, "$%u is used as a number but is \"%s\"",
			     e->u.num, plan_param(p, e->u.num));
			CHINT(c, "use str($%u) to get it as a string", e->u.num);
			return &ty_none;
		}
		return &ty_s64;
	}
	case EXPR_POSCOUNT:
		return &ty_s64;
	case EXPR_VAR:
		return sema_check_var(c, e);
	case EXPR_MAP: {
		struct type *t = check_map_expr(c, e);
		struct map_info *m = e->info;
		if (p->modern && (t->kind == TY_COUNT || t->kind == TY_SUM || t->kind == TY_MIN ||
				  t->kind == TY_MAX || t->kind == TY_AVG))
			/* today's bpftrace reads an aggregation: its value over every CPU
			   (gen_map_read); 0.17 refuses it */
			return t->kind == TY_COUNT ? &ty_u64 : type_int(8, t->is_signed);
		if (t->kind != TY_NONE || m->value)
			return t;
		if (c->final) {
			diag_error(&p->diag, e->span, E_MAP_UNUSED,
				   "@%s is read but never assigned a value", m->name);
			return t;
		}
		c->unknown_read = true;
		/* read in its own assignment (`@x = @x + 1`): an integer, 0 until set */
		return c->guess_int ? &ty_s64 : t;
	}
	case EXPR_CALL:
		return sema_check_call(c, e, IN_VALUE);
	case EXPR_UNARY:
		return check_unary(c, e);
	case EXPR_BINARY:
		return check_binary(c, e);
	case EXPR_BOOL:
		return &ty_bool;
	case EXPR_BLOCK:
		return sema_check_block_expr(c, e);
	case EXPR_RECORD:
		return sema_check_record(c, e);
	case EXPR_COMPTIME:
		return sema_check_comptime(c, e);
	case EXPR_TERNARY: {
		struct type *ct = sema_check_expr(c, e->u.ternary.cond);
		if (!e->u.ternary.then)
			return check_elvis(c, e, ct);
		struct type *a = sema_check_expr(c, e->u.ternary.then);
		struct type *b = sema_check_expr(c, e->u.ternary.otherwise);
		if (ct->kind != TY_NONE && !sema_is_truthy(ct))
			CERR(c, e->u.ternary.cond->span, E_BAD_OPERAND,
			     "a condition must be an integer, not %s", type_str_of(ct));
		if (a->kind == TY_NONE || b->kind == TY_NONE)
			return &ty_none;
		if (e->u.ternary.is_if && a->kind == TY_VOID && b->kind == TY_VOID)
			return &ty_void; /* if c { f() } else { g() }: no value */
		if (!type_same_shape(a, b) || type_is_agg(a) || a->kind == TY_VOID) {
			CERR(c, e->span, E_TYPE_MISMATCH, "the branches of %s have different types: %s and %s",
			     e->u.ternary.is_if ? "the if expression" : "'?:'", type_str_of(a),
			     type_str_of(b));
			if (e->u.ternary.is_if && b->kind == TY_VOID)
				CHINT(c, "an if expression with a value needs an else with one");
			return &ty_none;
		}
		if (a->kind == TY_INT && a->is_bool && b->is_bool)
			return &ty_bool; /* `c ? true : false`: a bool (today's bpftrace) */
		if (a->kind == TY_INT) {
			/* a literal arm takes the other's sign: `$s ? nsecs - $s : 0` is unsigned, as in bpftrace */
			bool sa = a->is_signed && !sema_is_literal(e->u.ternary.then);
			bool sb = b->is_signed && !sema_is_literal(e->u.ternary.otherwise);
			if (sema_is_literal(e->u.ternary.then) && sema_is_literal(e->u.ternary.otherwise))
				sa = a->is_signed || b->is_signed;
			return (sa || sb) ? &ty_s64 : &ty_u64;
		}
		return type_unify(&p->arena, a, b);
	}
	case EXPR_FIELD:
		return sema_check_field(c, e);
	case EXPR_INDEX:
		return sema_check_index(c, e);
	case EXPR_TUPLE: {
		struct type *el[64];
		if (e->u.list.n < 2 && !p->modern) /* (--dialect 0.17 refuses them before) */
			return &ty_none;
		if (e->u.list.n > ARRAY_SIZE(el)) {
			CERR(c, e->span, E_TOO_BIG, "a tuple has at most %zu elements", ARRAY_SIZE(el));
			return &ty_none;
		}
		bool known = true;
		for (uint32_t i = 0; i < e->u.list.n; i++) {
			struct type *t = sema_check_value(c, e->u.list.v[i]);
			known &= t->kind != TY_NONE;
			/* integers keep their size, laid out with C's alignment, as in bpftrace */
			el[i] = t->kind == TY_INT && !t->en && !t->literal && !t->is_bool
					? t
					: type_stored(&p->arena, t);
		}
		return known ? type_tuple(&p->arena, el, e->u.list.n) : &ty_none;
	}
	case EXPR_CAST:
		return sema_check_cast(c, e);
	case EXPR_SIZEOF:
		return sema_check_sizeof(c, e);
	case EXPR_OFFSETOF:
		return sema_check_offsetof(c, e);
	}
	return &ty_none;
}

void sema_check_old_spelling(struct check *c, struct span sp, const char *old, const char *now)
{
	vec_foreach(&c->warned, w) if (*w == sp.lo) return;
	vec_push(&c->warned, sp.lo);
	diag_warn(&c->p->diag, sp, E_UNKNOWN_IDENT,
		  "'%s' is an old spelling of '%s' (bpftrace 0.17 rejects it)", old, now);
}

struct type *sema_check_expr(struct check *c, struct expr *e)
{
	struct type *t = check_expr_kind(c, e);
	e->type = t ? t : &ty_none;
	return e->type;
}

/* One program: its own copy of its probe's code, typed for its instance. */
static void check_prog(struct check *c, struct prog *pg)
{
	c->prog = pg;
	c->inst = pg->inst;
	c->vars.len = 0;
	c->all.len = 0;
	c->loops = 0;
	c->loop = NULL;
	c->loop_depth = 0;
	if (pg->pred)
		sema_check_cond(c, pg->pred);
	sema_check_block(c, pg->body);
	/* the variables of the last pass are those its code points to; one never
	   assigned (`let $x;` alone) is an integer, 0 */
	vec_free(&pg->vars);
	vec_foreach(&c->all, v)
	{
		if ((*v)->type->kind == TY_NONE && !c->p->diag.errors && c->final)
			(*v)->type = &ty_s64;
		vec_push(&pg->vars, *v);
	}
}

/*
 * One pass over every program. The final pass reports a probe's errors
 * once: after the first of its programs that has some, the others (the
 * same code for other instances) are not checked.
 */
static void check_all(struct plan *p, struct check *c)
{
	struct probe *failed = NULL;

	vec_foreach(&p->progs, pp)
	{
		struct prog *pg = *pp;
		int before = p->diag.errors;
		if (pg->probe == failed)
			continue;
		check_prog(c, pg);
		if (c->final && p->diag.errors != before)
			failed = pg->probe;
	}
}

int sema_check(struct plan *p)
{
	struct check c = { .p = p };
	int pass;

	sema_map_decls(p);
	for (pass = 0; pass < 32; pass++) {
		c.changed = false;
		c.unknown_read = false;
		check_all(p, &c);
		if (c.changed)
			continue;
		/* settled with maps read before any assignment typed them: read them as
		   integers, which types `@x = @x + 1` */
		if (!c.unknown_read || c.guess_int)
			break;
		c.guess_int = true;
	}
	c.final = true;
	check_all(p, &c);
	if (!p->diag.errors)
		sema_map_decls_check(p);
	vec_free(&c.vars);
	vec_free(&c.all);
	vec_free(&c.warned);
	return p->diag.errors ? -1 : 0;
}
