// SPDX-License-Identifier: MIT
/*
 * Expressions, with C's precedence and associativity:
 *
 *   expr    := binary ['?' expr ':' expr]        (right associative)
 *   binary  := unary (binop unary)*               (precedence climbing)
 *   unary   := ('-' | '+' | '!' | '~' | '*' | '&' | '++' | '--') unary
 *            | '(' type ')' unary | sizeof '(' (type | expr) ')' | postfix
 *   postfix := primary ('[' expr ']' | '.' field | '->' field | '++' | '--')*
 *   primary := int | string | $x | $1 | $# | @m ['[' exprs ']'] | ident
 *            | ident '(' [exprs] ')' | '(' expr ')' | '(' expr (',' expr)+ ')'
 *
 * and today's bpftrace's: `a ?: b`, true and false, durations (10ms),
 * block expressions `{ stmts; value }`, records `(name = expr, ...)`,
 * builtins called as functions (`comm()`), tuples as map keys
 * (`@m[(a, b)]` is `@m[a, b]`), `()` and `(a,)`, if expressions
 * `if c { a } else { b }`, `comptime e` and offsetof(expr, field).
 */
#include "ast/builtin.h"
#include "parse/parse_internal.h"

#include <string.h>

/* the builtin variables: the VAR rows of ast/builtin.def (arg0.., sarg0.. apart), and ctx */
static const char *const builtin_vars[] = {
#define VAR(id, name, type, check) [id] = name,
#define FUNC(id, name, min_args, max_args, kind, agg, check, gen)
#include "ast/builtin.def"
#undef VAR
#undef FUNC
	[BI_COUNT_] = "ctx",
};

static bool digits_after(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	if (n <= k || memcmp(s, prefix, k))
		return false;
	for (; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

bool parse_is_builtin_var(const char *name, size_t len)
{
	/* today's bpftrace's spelling inside its standard library: __builtin_pid */
	if (len > 10 && !memcmp(name, "__builtin_", 10)) {
		name += 10;
		len -= 10;
	}
	for (size_t i = 0; i < ARRAY_SIZE(builtin_vars); i++)
		if (i != BI_ARGN && i != BI_SARGN && parse_word_is(name, len, builtin_vars[i]))
			return true;
	return digits_after(name, len, "arg") || digits_after(name, len, "sarg");
}

/*
 * `stack` and `name`, which tutorials still use and bpftrace 0.17 rejects,
 * are kstack and probe, with a warning (here, before programs are planned
 * by the builtins they read).
 */
static void old_spelling(struct parser *p, struct expr *e)
{
	static const char *const old[][2] = { { "stack", "kstack" }, { "name", "probe" } };

	for (size_t i = 0; i < ARRAY_SIZE(old); i++) {
		if (e->kind != EXPR_IDENT || strcmp(e->u.name, old[i][0]))
			continue;
		diag_warn(p->d, e->span, E_UNKNOWN_IDENT,
			  "'%s' is an old spelling of '%s' (bpftrace 0.17 rejects it)", old[i][0],
			  old[i][1]);
		e->kind = EXPR_BUILTIN;
		e->u.name = old[i][1];
	}
}

static struct expr *new_expr(struct parser *p, enum expr_kind kind, struct span sp)
{
	struct expr *e = ARENA_NEW(p->a, struct expr);

	e->kind = kind;
	e->span = sp;
	return e;
}

/* exprs ')' or exprs ']' after the opening bracket has been consumed. */
static struct expr_list parse_list(struct parser *p, enum tok_kind close, const char *what)
{
	struct expr_list l = { 0 };
	uint32_t cap = 0;

	if (p->tok.kind == close) {
		parse_next(p);
		return l;
	}
	for (;;) {
		PUSH(p, l.v, l.n, cap, parse_expr(p));
		if (p->tok.kind == close)
			break;
		if (p->tok.kind != TOK_COMMA)
			parse_unexpected(p, what);
		parse_next(p);
	}
	parse_next(p);
	return l;
}

static struct expr *parse_unary(struct parser *p);

/* After '(': does `name =` (not `==`) start a record? */
static bool record_ahead(const struct parser *p)
{
	struct lexer look = p->lx;

	if (p->tok.kind != TOK_IDENT || parse_is_builtin_var(p->tok.str, p->tok.len))
		return false;
	look.quiet = true;
	return lex_next(&look).kind == TOK_ASSIGN;
}

/* (name = expr, ...) after the '(' */
static struct expr *parse_record(struct parser *p, struct token open)
{
	struct expr *e = new_expr(p, EXPR_RECORD, open.span);
	uint32_t cap = 0, ncap = 0, nn = 0;

	parse_modern(p, open.span, "a record");
	for (;;) {
		struct token name = parse_expect(p, TOK_IDENT, "a field name in the record");
		for (uint32_t i = 0; i < nn; i++)
			if (!strcmp(e->u.record.names[i], name.str))
				parse_error(p, name.span, "the record has two fields named '%s'",
					    name.str);
		PUSH(p, e->u.record.names, nn, ncap, name.str);
		parse_expect(p, TOK_ASSIGN, "'=' after the field name");
		PUSH(p, e->u.record.vals.v, e->u.record.vals.n, cap, parse_expr(p));
		if (p->tok.kind != TOK_COMMA)
			break;
		parse_next(p);
	}
	if (p->tok.kind != TOK_RPAREN)
		parse_unexpected(p, "')' or ',' in the record");
	e->span = span_join(open.span, p->tok.span);
	parse_next(p);
	return e;
}

static struct expr *parse_paren(struct parser *p)
{
	struct token open = p->tok;
	struct expr *e, *t;
	uint32_t cap = 0;

	parse_next(p);
	if (record_ahead(p))
		return parse_record(p, open);
	if (p->tok.kind == TOK_RPAREN) {
		/* () today: the empty tuple */
		t = new_expr(p, EXPR_TUPLE, span_join(open.span, p->tok.span));
		parse_modern(p, t->span, "the empty tuple ()");
		parse_next(p);
		return t;
	}
	e = parse_expr(p);
	if (p->tok.kind == TOK_RPAREN) {
		/* No node for the parentheses, but errors underline them. */
		e->span = span_join(open.span, p->tok.span);
		parse_next(p);
		return e;
	}
	if (p->tok.kind != TOK_COMMA)
		parse_unexpected(p, "')' or ','");
	t = new_expr(p, EXPR_TUPLE, open.span);
	PUSH(p, t->u.list.v, t->u.list.n, cap, e);
	while (p->tok.kind == TOK_COMMA) {
		parse_next(p);
		if (p->tok.kind == TOK_RPAREN) {
			/* (a,) and (a, b,): a trailing ',' (today's one-element tuple) */
			parse_modern(p, p->prev.span, "a tuple with a trailing ','");
			break;
		}
		PUSH(p, t->u.list.v, t->u.list.n, cap, parse_expr(p));
	}
	if (p->tok.kind != TOK_RPAREN)
		parse_unexpected(p, "')' or ',' in the tuple");
	t->span = span_join(open.span, p->tok.span);
	parse_next(p);
	return t;
}

/* offsetof(struct X, field) and offsetof(struct X, a.b): after "offsetof" */
static struct expr *parse_offsetof(struct parser *p, struct token kw)
{
	struct expr *e = new_expr(p, EXPR_OFFSETOF, kw.span);
	struct token f;

	parse_next(p); /* ( */
	if (p->tok.kind == TOK_STRUCT || p->tok.kind == TOK_UNION || p->tok.kind == TOK_ENUM ||
	    p->tok.kind == TOK_IDENT) {
		e->u.offset_of.type = parse_typename(p);
	} else {
		/* offsetof($s, field) today: the field of the expression's type */
		e->u.offset_of.operand = parse_expr(p);
		parse_modern(p, e->u.offset_of.operand->span, "offsetof of an expression");
	}
	parse_expect(p, TOK_COMMA, "',' after the type");
	f = parse_expect(p, TOK_IDENT, "a field name");
	e->u.offset_of.field = f.str;
	e->u.offset_of.field_span = f.span;
	while (p->tok.kind == TOK_DOT) {
		parse_next(p);
		f = parse_expect(p, TOK_IDENT, "a field name");
		e->u.offset_of.field = arena_printf(p->a, "%s.%s", e->u.offset_of.field, f.str);
		e->u.offset_of.field_span = span_join(e->u.offset_of.field_span, f.span);
	}
	e->span = span_join(kw.span, parse_expect(p, TOK_RPAREN, "')'").span);
	return e;
}

/* @m[(a, b)] is @m[a, b] in today's bpftrace (0.17 refuses a tuple key) */
static void tuple_key(struct parser *p, struct expr *m)
{
	struct expr *k = m->u.map.keys.v[0];

	if (m->u.map.keys.n != 1 || k->kind != EXPR_TUPLE)
		return;
	parse_modern(p, k->span, "a tuple as a map key");
	m->u.map.keys = k->u.list;
}

/* f(...) at the current '(' */
static struct expr *parse_call(struct parser *p, struct token t)
{
	struct expr *e;

	/* comm(), pid(): today's spelling of the builtins (kstack() is a function) */
	if (p->lx.pos < p->lx.len && parse_is_builtin_var(t.str, t.len) &&
	    !parse_word_is(t.str, t.len, "kstack") && !parse_word_is(t.str, t.len, "ustack")) {
		struct lexer look = p->lx;
		look.quiet = true;
		if (lex_next(&look).kind == TOK_RPAREN) {
			parse_next(p);
			e = new_expr(p, EXPR_BUILTIN, span_join(t.span, p->tok.span));
			e->u.name = t.str;
			parse_modern(p, e->span, "a builtin called as a function");
			parse_next(p);
			return e;
		}
	}
	e = new_expr(p, EXPR_CALL, t.span);
	e->u.call.name = t.str;
	e->u.call.name_span = t.span;
	parse_next(p);
	e->u.call.args = parse_list(p, TOK_RPAREN, "')' or ',' in the arguments");
	e->span = span_join(t.span, p->prev.span);
	return e;
}

/* { stmts; value } as an expression */
static struct expr *parse_block_expr(struct parser *p)
{
	struct expr *e = new_expr(p, EXPR_BLOCK, p->tok.span);

	e->u.blk.body = parse_block_value(p, &e->u.blk.value);
	e->span = e->u.blk.body->span;
	parse_modern(p, e->span, "a block expression");
	return e;
}

/* if cond { a } else { b } as an expression, at `if` */
static struct expr *parse_if_expr(struct parser *p)
{
	struct token kw = p->tok;
	struct expr *e = new_expr(p, EXPR_TERNARY, kw.span);

	parse_modern(p, kw.span, "an if expression");
	parse_enter(p, DEPTH_NEST);
	parse_next(p);
	if (p->tok.kind == TOK_LPAREN) {
		parse_next(p);
		e->u.ternary.cond = parse_expr(p);
		parse_expect(p, TOK_RPAREN, "')' after the condition");
	} else {
		e->u.ternary.cond = parse_unary(p);
	}
	if (p->tok.kind != TOK_LBRACE) {
		char buf[64];
		diag_error(p->d, p->tok.span, E_SYNTAX,
			   "unexpected %s, expected '{' after the if expression's condition",
			   lex_tok_describe(&p->lx, &p->tok, buf, sizeof(buf)));
		diag_hint(p->d, "without parentheses a condition is one operand ($x, !$x, f()): "
				"put a longer one in parentheses");
		parse_fail(p);
	}
	e->u.ternary.is_if = true;
	e->u.ternary.then = parse_block_expr(p);
	if (p->tok.kind == TOK_ELSE) {
		parse_next(p);
		if (p->tok.kind == TOK_IF)
			e->u.ternary.otherwise = parse_if_expr(p);
		else if (p->tok.kind == TOK_LBRACE)
			e->u.ternary.otherwise = parse_block_expr(p);
		else
			parse_unexpected(p, "'{' or 'if' after 'else'");
	} else {
		/* no else: a block of no value */
		e->u.ternary.otherwise = new_expr(p, EXPR_BLOCK, p->prev.span);
		e->u.ternary.otherwise->u.blk.body = ARENA_NEW(p->a, struct stmt);
		e->u.ternary.otherwise->u.blk.body->kind = STMT_BLOCK;
		e->u.ternary.otherwise->u.blk.body->span = p->prev.span;
	}
	e->span = span_join(kw.span, p->prev.span);
	parse_leave(p, DEPTH_NEST);
	return e;
}

static struct expr *parse_primary(struct parser *p)
{
	struct token t = p->tok;
	struct expr *e;

	switch (t.kind) {
	case TOK_IF:
		return parse_if_expr(p);
	case TOK_INT:
		parse_next(p);
		e = new_expr(p, EXPR_INT, t.span);
		e->u.ival = t.ival;
		if (t.flags & TOKF_DURATION)
			parse_modern(p, t.span, "a duration");
		return e;
	case TOK_TRUE:
	case TOK_FALSE:
		parse_next(p);
		e = new_expr(p, EXPR_BOOL, t.span);
		e->u.ival = t.kind == TOK_TRUE;
		parse_modern(p, t.span, t.kind == TOK_TRUE ? "'true'" : "'false'");
		return e;
	case TOK_LBRACE:
		return parse_block_expr(p);
	case TOK_STR:
		parse_next(p);
		e = new_expr(p, EXPR_STR, t.span);
		e->u.str = t.str;
		e->u.len = t.len;
		return e;
	case TOK_VAR:
		parse_next(p);
		e = new_expr(p, EXPR_VAR, t.span);
		e->u.name = t.str;
		return e;
	case TOK_POSITIONAL:
		parse_next(p);
		e = new_expr(p, EXPR_POSITIONAL, t.span);
		e->u.num = t.num;
		return e;
	case TOK_POSCOUNT:
		parse_next(p);
		return new_expr(p, EXPR_POSCOUNT, t.span);
	case TOK_MAP:
		parse_next(p);
		e = new_expr(p, EXPR_MAP, t.span);
		e->u.map.name = t.str;
		if (p->tok.kind == TOK_LBRACKET) {
			parse_next(p);
			if (p->tok.kind == TOK_RBRACKET)
				parse_unexpected(p, "a map key");
			e->u.map.keys = parse_list(p, TOK_RBRACKET, "']' or ',' in the map keys");
			e->span = span_join(t.span, p->prev.span);
			tuple_key(p, e);
		}
		return e;
	case TOK_IDENT:
		parse_next(p);
		if (parse_word_is(t.str, t.len, "comptime") && parse_starts_operand(p->tok.kind)) {
			/* comptime e: e's value, known when compiling */
			e = new_expr(p, EXPR_COMPTIME, t.span);
			e->u.unary.operand = parse_unary(p);
			e->span = span_join(t.span, e->u.unary.operand->span);
			parse_modern(p, e->span, "comptime");
			return e;
		}
		if (p->tok.kind == TOK_LPAREN && parse_word_is(t.str, t.len, "offsetof"))
			return parse_offsetof(p, t);
		if (p->tok.kind == TOK_LPAREN)
			return parse_call(p, t);
		if (t.len > 10 && !memcmp(t.str, "__builtin_", 10) &&
		    parse_is_builtin_var(t.str + 10, t.len - 10)) {
			/* __builtin_comm: today's bpftrace's own name of a builtin */
			t.str += 10;
			t.len -= 10;
		}
		e = new_expr(p, parse_is_builtin_var(t.str, t.len) ? EXPR_BUILTIN : EXPR_IDENT,
			     t.span);
		e->u.name = t.str;
		old_spelling(p, e);
		return e;
	case TOK_LPAREN:
		return parse_paren(p);
	default:
		parse_unexpected(p, "an expression");
	}
}

static struct expr *parse_postfix(struct parser *p)
{
	struct expr *e = parse_primary(p), *x;

	for (;;) {
		struct token t = p->tok;

		switch (t.kind) {
		case TOK_LBRACKET:
			parse_next(p);
			x = new_expr(p, EXPR_INDEX, e->span);
			x->u.index.base = e;
			x->u.index.index = parse_expr(p);
			x->span = span_join(e->span, parse_expect(p, TOK_RBRACKET, "']'").span);
			break;
		case TOK_DOT:
		case TOK_ARROW:
			parse_next(p);
			/* A field name, a tuple index ($t.0) or a keyword-like name. */
			if (p->tok.kind != TOK_IDENT && p->tok.kind != TOK_INT &&
			    !(p->tok.kind >= TOK_IF && p->tok.kind <= TOK_ENUM))
				parse_unexpected(p, t.kind == TOK_DOT ? "a field name after '.'"
								      : "a field name after '->'");
			x = new_expr(p, EXPR_FIELD, span_join(e->span, p->tok.span));
			x->u.field.base = e;
			x->u.field.arrow = t.kind == TOK_ARROW;
			x->u.field.name_span = p->tok.span;
			x->u.field.name = arena_strndup(p->a, p->lx.text + p->tok.span.lo,
							p->tok.span.hi - p->tok.span.lo);
			parse_next(p);
			break;
		case TOK_INC:
		case TOK_DEC:
			parse_next(p);
			x = new_expr(p, EXPR_UNARY, span_join(e->span, t.span));
			x->u.unary.op = t.kind == TOK_INC ? OP_POSTINC : OP_POSTDEC;
			x->u.unary.operand = e;
			break;
		default:
			return e;
		}
		e = x;
	}
}

static enum op unary_op(enum tok_kind k)
{
	switch (k) {
	case TOK_MINUS:
		return OP_NEG;
	case TOK_PLUS:
		return OP_PLUS;
	case TOK_BANG:
		return OP_LNOT;
	case TOK_TILDE:
		return OP_BNOT;
	case TOK_STAR:
		return OP_DEREF;
	case TOK_AMP:
		return OP_ADDR;
	case TOK_INC:
		return OP_PREINC;
	case TOK_DEC:
		return OP_PREDEC;
	default:
		return OP_NONE;
	}
}

static struct expr *parse_sizeof(struct parser *p)
{
	struct token kw = p->tok;
	struct expr *e = new_expr(p, EXPR_SIZEOF, kw.span);

	parse_next(p);
	if (p->tok.kind != TOK_LPAREN)
		parse_unexpected(p, "'(' after 'sizeof'");
	if (parse_type_ahead(p, false)) {
		parse_next(p);
		e->u.size_of.type = parse_typename(p);
	} else {
		parse_next(p);
		e->u.size_of.operand = parse_expr(p);
	}
	e->span = span_join(kw.span, parse_expect(p, TOK_RPAREN, "')'").span);
	return e;
}

static struct expr *parse_unary(struct parser *p)
{
	struct token t = p->tok;
	enum op op = unary_op(t.kind);
	struct expr *e;

	if (op == OP_NONE && t.kind == TOK_SIZEOF)
		return parse_sizeof(p);
	if (op == OP_NONE && !(t.kind == TOK_LPAREN && parse_type_ahead(p, true)))
		return parse_postfix(p);

	parse_enter(p, DEPTH_NEST);
	parse_next(p);
	if (op != OP_NONE) {
		e = new_expr(p, EXPR_UNARY, t.span);
		e->u.unary.op = op;
		e->u.unary.operand = parse_unary(p);
		e->span = span_join(t.span, e->u.unary.operand->span);
	} else {
		e = new_expr(p, EXPR_CAST, t.span);
		e->u.cast.type = parse_typename(p);
		if (p->tok.kind != TOK_RPAREN)
			parse_unexpected(p, "')' after the type name");
		parse_next(p);
		e->u.cast.operand = parse_unary(p);
		e->span = span_join(t.span, e->u.cast.operand->span);
	}
	parse_leave(p, DEPTH_NEST);
	return e;
}

/* Binary operators and their precedence (higher binds tighter). */
static enum op binary_op(enum tok_kind k, int *prec)
{
	static const struct {
		enum op op;
		int prec;
	} ops[TOK_COUNT_] = {
		[TOK_OROR] = { OP_LOR, 1 },   [TOK_ANDAND] = { OP_LAND, 2 },
		[TOK_PIPE] = { OP_BOR, 3 },   [TOK_CARET] = { OP_BXOR, 4 },
		[TOK_AMP] = { OP_BAND, 5 },   [TOK_EQ] = { OP_EQ, 6 },
		[TOK_NE] = { OP_NE, 6 },      [TOK_LT] = { OP_LT, 7 },
		[TOK_LE] = { OP_LE, 7 },      [TOK_GT] = { OP_GT, 7 },
		[TOK_GE] = { OP_GE, 7 },      [TOK_SHL] = { OP_SHL, 8 },
		[TOK_SHR] = { OP_SHR, 8 },    [TOK_PLUS] = { OP_ADD, 9 },
		[TOK_MINUS] = { OP_SUB, 9 },  [TOK_STAR] = { OP_MUL, 10 },
		[TOK_SLASH] = { OP_DIV, 10 }, [TOK_PERCENT] = { OP_MOD, 10 },
	};

	*prec = ops[k].prec;
	return ops[k].op;
}

static struct expr *parse_binary(struct parser *p, int min_prec)
{
	struct expr *lhs = parse_unary(p);
	int prec, chain = 0;
	enum op op;

	while ((op = binary_op(p->tok.kind, &prec)) != OP_NONE && prec >= min_prec) {
		struct expr *e = new_expr(p, EXPR_BINARY, lhs->span);

		parse_enter(p, 1);
		chain++;
		parse_next(p);
		e->u.binary.op = op;
		e->u.binary.lhs = lhs;
		e->u.binary.rhs = parse_binary(p, prec + 1);
		e->span = span_join(lhs->span, e->u.binary.rhs->span);
		lhs = e;
	}
	parse_leave(p, chain);
	return lhs;
}

struct expr *parse_unary_expr(struct parser *p)
{
	return parse_unary(p);
}

struct expr *parse_expr(struct parser *p)
{
	struct expr *cond, *e;

	parse_enter(p, DEPTH_NEST);
	cond = parse_binary(p, 1);
	if (p->tok.kind != TOK_QUESTION) {
		parse_leave(p, DEPTH_NEST);
		return cond;
	}
	parse_next(p);
	e = new_expr(p, EXPR_TERNARY, cond->span);
	e->u.ternary.cond = cond;
	if (p->tok.kind == TOK_COLON) {
		/* a ?: b (today's bpftrace): a when it is true, else b */
		parse_modern(p, span_join(p->prev.span, p->tok.span), "'?:' without a middle operand");
	} else {
		e->u.ternary.then = parse_expr(p);
	}
	parse_expect(p, TOK_COLON, "':' in the conditional expression");
	e->u.ternary.otherwise = parse_expr(p);
	e->span = span_join(cond->span, e->u.ternary.otherwise->span);
	parse_leave(p, DEPTH_NEST);
	return e;
}
