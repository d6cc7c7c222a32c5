// SPDX-License-Identifier: MIT
/*
 * Type checking of statements: assignments to maps and variables, if,
 * loops, blocks (scopes of their own in today's bpftrace), `_ = e` and
 * the warning for a value a statement throws away.
 */
#include "sema/check.h"

#include <string.h>

/*
 * Whether control never passes st: return, break, continue, exit() (which
 * leaves the probe at once in today's bpftrace), an if whose branches all
 * end so, a block that ends so.
 */
static bool ends_flow(const struct stmt *st)
{
	switch (st->kind) {
	case STMT_RETURN:
	case STMT_BREAK:
	case STMT_CONTINUE:
		return true;
	case STMT_EXPR:
		return st->u.expr->kind == EXPR_CALL && !strcmp(st->u.expr->u.call.name, "exit");
	case STMT_IF:
		return st->u.if_.otherwise && ends_flow(st->u.if_.then) && ends_flow(st->u.if_.otherwise);
	case STMT_BLOCK:
		return st->u.block.n && ends_flow(st->u.block.v[st->u.block.n - 1]);
	default:
		return false;
	}
}

/* A block, a scope of its own in today's bpftrace */
void sema_check_block(struct check *c, struct stmt *b)
{
	uint32_t mark = sema_scope_enter(c);

	for (uint32_t i = 0; i < b->u.block.n; i++) {
		struct stmt *st = b->u.block.v[i];
		sema_check_stmt(c, st);
		/* today's bpftrace's warning; not in what a function's inlining wrote */
		if (c->final && c->p->modern && i + 1 < b->u.block.n && !st->flags &&
		    !b->u.block.v[i + 1]->flags && ends_flow(st))
			diag_warn(&c->p->diag, b->u.block.v[i + 1]->span, E_UNREACHABLE,
				  "Unreachable statement.");
	}
	sema_scope_leave(c, mark);
}

void sema_check_cond(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e);
	if (t->kind != TY_NONE && !sema_is_truthy(t))
		CERR(c, e->span, E_BAD_OPERAND, "a condition must be an integer, not %s",
		     type_str_of(t));
}

static void check_assign_map(struct check *c, struct stmt *st)
{
	struct expr *target = st->u.assign.target, *v = st->u.assign.value;
	struct map_info *m = sema_map_get(c, target->u.map.name, target->span);
	const struct func_def *fd = v->kind == EXPR_CALL ? sema_func_lookup(v->u.call.name) : NULL;

	target->info = m;
	sema_map_learn_keys(c, m, target);
	if (fd && fd->kind == FK_AGG) {
		uint32_t n = v->u.call.args.n;
		v->id = fd->id;
		v->fn = fd;
		if (st->u.assign.op != OP_NONE) {
			CERR(c, st->span, E_AGG_MISUSE, "%s() cannot be combined with '%s='", fd->name,
			     ast_op_str(st->u.assign.op));
			return;
		}
		if (n < fd->min_args || n > fd->max_args) {
			CERR(c, v->span, E_ARG_COUNT, "%s() takes %u argument%s, %u given", fd->name,
			     fd->min_args, fd->min_args == 1 ? "" : "s", n);
			return;
		}
		struct type *t = fd->check(c, v);
		v->type = t;
		sema_map_learn_value(c, m, t, v->span);
		target->type = m->value ? m->value : &ty_none;
		return;
	}
	struct type *t = sema_check_value(c, v);
	if (st->u.assign.op != OP_NONE) {
		if (t->kind != TY_NONE && t->kind != TY_INT) {
			CERR(c, v->span, E_BAD_OPERAND, "'%s=' needs an integer, not %s",
			     ast_op_str(st->u.assign.op), type_str_of(t));
			return;
		}
		bool ptr_step = m->value && m->value->kind == TY_PTR &&
				(st->u.assign.op == OP_ADD || st->u.assign.op == OP_SUB);
		if (ptr_step) {
			/* @p += n: n elements on (bpftrace 0.17) */
			target->type = m->value;
			return;
		}
		if (m->value && m->value->kind != TY_INT) {
			CERR(c, target->span, E_BAD_OPERAND, "'%s=' needs an integer map, @%s holds %s",
			     ast_op_str(st->u.assign.op), m->name, type_str_of(m->value));
			return;
		}
		if (m->value)
			sema_warn_mixed_signs(c, st->u.assign.op, st->span, m->value, t, NULL, v);
		if (st->u.assign.op == OP_DIV || st->u.assign.op == OP_MOD)
			sema_warn_signed_div(c, st->u.assign.op, st->span, !m->value || m->value->is_signed,
					t->is_signed && !sema_is_literal(v));
		if (t->kind == TY_INT)
			t = &ty_s64;
	}
	if (t->kind != TY_NONE)
		sema_map_learn_value(c, m, type_stored(&c->p->arena, t), v->span);
	target->type = m->value ? m->value : &ty_none;
}

/*
 * `@m = { let $a = 1; avg($a) }`: the block, ending in `@m = avg($a)`
 * (today's bpftrace). st becomes that block; true when it did.
 */
static bool agg_in_block(struct check *c, struct stmt *st)
{
	struct expr *v = st->u.assign.value;
	const struct func_def *fd;
	struct stmt *as, *b;

	if (st->u.assign.target->kind != EXPR_MAP || v->kind != EXPR_BLOCK || v->u.blk.fn ||
	    !v->u.blk.value || v->u.blk.value->kind != EXPR_CALL || !v->u.blk.body ||
	    !(fd = sema_func_lookup(v->u.blk.value->u.call.name)) || fd->kind != FK_AGG)
		return false;
	as = ARENA_NEW(&c->p->arena, struct stmt);
	*as = *st;
	as->u.assign.value = v->u.blk.value;
	b = v->u.blk.body;
	struct stmt **list = ARENA_ARRAY(&c->p->arena, struct stmt *, b->u.block.n + 1);
	memcpy(list, b->u.block.v, b->u.block.n * sizeof(*list));
	list[b->u.block.n] = as;
	struct span sp = st->span;
	uint32_t flags = st->flags;
	*st = *b;
	st->u.block.v = list;
	st->u.block.n = b->u.block.n + 1;
	st->span = sp;
	st->flags = flags;
	return true;
}

static void check_assign_var(struct check *c, struct stmt *st)
{
	struct expr *target = st->u.assign.target;
	struct var_info *v = sema_var_find(c, target);
	struct type *t = sema_check_value(c, st->u.assign.value);

	if (st->u.assign.op != OP_NONE) {
		if (!v) {
			sema_var_undefined(c, target);
			return;
		}
		if (v->type->kind == TY_PTR && (t->kind == TY_INT || t->kind == TY_NONE) &&
		    (st->u.assign.op == OP_ADD || st->u.assign.op == OP_SUB))
			; /* $p += n: n elements on */
		else if (v->type->kind != TY_INT || (t->kind != TY_INT && t->kind != TY_NONE))
			CERR(c, st->span, E_BAD_OPERAND, "'%s=' needs integers", ast_op_str(st->u.assign.op));
		else {
			sema_warn_mixed_signs(c, st->u.assign.op, st->span, v->type, t, NULL,
					 st->u.assign.value);
			if (st->u.assign.op == OP_DIV || st->u.assign.op == OP_MOD)
				sema_warn_signed_div(c, st->u.assign.op, st->span, v->type->is_signed,
						t->is_signed && !sema_is_literal(st->u.assign.value));
		}
		target->info = v;
		target->type = v->type;
		return;
	}
	if (t->kind == TY_INT)
		t = type_stored(&c->p->arena, t);
	if (v)
		v->assigned = true;
	if (v && v->typed && t->kind == TY_INT && v->type->kind == TY_INT && !v->type->is_bool) {
		/* `let $x: uint16`: the value is converted to the declared type */
		if ((st->flags & STF_FN_RETURN) && !sema_literal_fits(st->u.assign.value, v->type))
			CERR(c, st->u.assign.value->span, E_TOO_BIG,
			     "the number does not fit in %s, the type function %s returns",
			     type_str_of(v->type), c->fn ? c->fn->name : "?");
	} else if (v && v->type->kind == TY_NONE) {
		/* its first assignment had an error (or a type not known yet: `let $x;`) */
		v->type = sema_var_grown(c, v, t);
	} else if (t->kind == TY_NONE) {
		/* an error in the value, reported already: the variable exists (untyped), so
		   its uses say nothing more */
		if (!v)
			v = sema_var_new(c, target, &ty_none);
	} else if (!v) {
		v = sema_var_new(c, target, t);
	} else if (!type_same_shape(v->type, t) && (st->flags & STF_FN_RETURN)) {
		CERR(c, st->u.assign.value->span, E_RETURN, "function %s returns %s, not %s",
		     c->fn ? c->fn->name : "?", type_str_of(v->type), type_str_of(t));
	} else if (!type_same_shape(v->type, t)) {
		CERR(c, st->u.assign.value->span, E_VAR_TYPE_CLASH,
		     "type mismatch for $%s: assigning %s to a variable holding %s", v->name,
		     type_str_of(t), type_str_of(v->type));
	} else if (v->typed && (st->flags & STF_FN_RETURN)) {
		/* a function's result keeps its declared type */
	} else {
		v->type = type_unify(&c->p->arena, v->type, t);
	}
	target->info = v;
	target->type = v->type;
}

/*
 * Today's bpftrace warns of a statement whose value is thrown away
 * (`{ 1 }`, a macro's value), but for ++ and --; `_ = e` says it is meant.
 */
static void warn_discarded(struct check *c, const struct expr *e)
{
	enum op op = e->kind == EXPR_UNARY ? e->u.unary.op : OP_NONE;

	if (!c->final || !c->p->modern || !e->type || e->type->kind == TY_NONE ||
	    e->type->kind == TY_VOID || op == OP_PREINC || op == OP_PREDEC || op == OP_POSTINC ||
	    op == OP_POSTDEC)
		return;
	if (e->kind == EXPR_CALL && e->fn && e->fn->kind != FK_VALUE)
		return;
	/* delete()'s value (whether there was an element) is bpftrace's to drop too */
	if (e->kind == EXPR_CALL && e->fn && e->fn->id == FN_DELETE)
		return;
	diag_warn(&c->p->diag, e->span, E_DISCARDED, "the value of this expression is discarded");
	diag_hint(&c->p->diag, "use it, or discard it on purpose: _ = ...");
}

void sema_check_stmt(struct check *c, struct stmt *st)
{
	switch (st->kind) {
	case STMT_EXPR: {
		struct expr *e = st->u.expr;
		if (e->kind == EXPR_CALL)
			e->type = sema_check_call(c, e, IN_STMT);
		else
			sema_check_expr(c, e);
		warn_discarded(c, e);
		break;
	}
	case STMT_DISCARD: {
		struct expr *e = st->u.expr;
		if (e->kind == EXPR_CALL)
			e->type = sema_check_call(c, e, IN_VALUE);
		else
			sema_check_expr(c, e);
		break;
	}
	case STMT_ASSIGN:
		if (agg_in_block(c, st)) {
			sema_check_block(c, st);
			break;
		}
		if (st->u.assign.target->kind == EXPR_MAP)
			check_assign_map(c, st);
		else if (st->u.assign.target->kind == EXPR_VAR)
			check_assign_var(c, st);
		else
			CERR(c, st->u.assign.target->span, E_BAD_ASSIGN,
			     "only maps and variables can be assigned");
		break;
	case STMT_IF:
		if (st->u.if_.cond->kind == EXPR_COMPTIME) {
			sema_check_if_comptime(c, st);
			break;
		}
		sema_check_cond(c, st->u.if_.cond);
		sema_check_stmt(c, st->u.if_.then);
		if (st->u.if_.otherwise)
			sema_check_stmt(c, st->u.if_.otherwise);
		break;
	case STMT_UNROLL: {
		int64_t n;
		if (sema_check_const_int(c, st->u.unroll.count, &n, "unroll's count") &&
		    (n < 1 || n > 100))
			CERR(c, st->u.unroll.count->span, E_TOO_BIG,
			     "unroll %s value is %d: the count is %lld", n < 1 ? "minimum" : "maximum",
			     n < 1 ? 1 : 100, (long long)n);
		sema_check_stmt(c, st->u.unroll.body);
		break;
	}
	case STMT_WHILE:
		sema_check_cond(c, st->u.while_.cond);
		c->loops++;
		sema_check_stmt(c, st->u.while_.body);
		c->loops--;
		break;
	case STMT_RETURN:
		if (st->u.ret)
			sema_check_expr(c, st->u.ret);
		break;
	case STMT_BREAK:
	case STMT_CONTINUE:
		if (!c->loops)
			CERR(c, st->span, E_LOOP_CONTROL, "'%s' outside of a loop",
			     st->kind == STMT_BREAK ? "break" : "continue");
		break;
	case STMT_BLOCK:
		sema_check_block(c, st);
		break;
	case STMT_LET:
		sema_check_let(c, st);
		break;
	case STMT_FOR:
		sema_check_for(c, st);
		break;
	}
}

