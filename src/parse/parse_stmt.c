// SPDX-License-Identifier: MIT
/*
 * Statements:
 *
 *   block := '{' (stmt? ';')* stmt? '}'     (no ';' needed after a '}')
 *   stmt  := target ('=' | '+=' | ... | '>>=') expr     target: @m[...] or $x
 *          | expr
 *          | if '(' expr ')' block [else (if ... | block)]
 *          | unroll '(' expr ')' block  |  while '(' expr ')' block
 *          | return [expr]  |  break  |  continue  |  block
 *
 * and today's bpftrace's:
 *
 *   stmt  := let $x [':' type] ['=' expr]
 *          | for ['('] $x ':' (@map | unary '..' unary) [')'] block
 *          | if unary block ...   (a condition without parentheses is a
 *                                  unary expression: `if $x {`, `if !$x {`)
 *          | if comptime cond block ...   (one branch kept when compiling)
 *          | '_' '=' expr         (the value discarded on purpose)
 */
#include "parse/parse_internal.h"

static struct stmt *new_stmt(struct parser *p, enum stmt_kind kind, struct span sp)
{
	struct stmt *s = ARENA_NEW(p->a, struct stmt);

	s->kind = kind;
	s->span = sp;
	return s;
}

static struct expr *new_expr(struct parser *p, enum expr_kind kind, struct span sp)
{
	struct expr *e = ARENA_NEW(p->a, struct expr);

	e->kind = kind;
	e->span = sp;
	return e;
}

static struct expr *parse_cond(struct parser *p, const char *after)
{
	struct expr *e;

	if (p->tok.kind != TOK_LPAREN) {
		/* today's bpftrace: `if $x {`, a unary expression up to the block */
		if (p->tok.kind == TOK_LBRACE || p->tok.kind == TOK_EOF)
			parse_unexpected(p, after);
		e = parse_unary_expr(p);
		parse_modern(p, e->span, "a condition without parentheses");
		if (p->tok.kind != TOK_LBRACE) {
			char buf[64];
			diag_error(p->d, p->tok.span, E_SYNTAX, "unexpected %s, expected '{' after the condition",
				   lex_tok_describe(&p->lx, &p->tok, buf, sizeof(buf)));
			diag_hint(p->d, "without parentheses a condition is one operand ($x, !$x, f()): "
					"put a longer one in parentheses");
			parse_fail(p);
		}
		return e;
	}
	parse_next(p);
	e = parse_expr(p);
	parse_expect(p, TOK_RPAREN, "')' after the condition");
	return e;
}

/* The braced body of if/else/while/unroll must come next. */
static void need_braces(struct parser *p, const char *what)
{
	char buf[64];

	if (p->tok.kind == TOK_LBRACE)
		return;
	diag_error(p->d, p->tok.span, E_SYNTAX, "unexpected %s, expected '{' %s",
		   lex_tok_describe(&p->lx, &p->tok, buf, sizeof(buf)), what);
	diag_hint(p->d, "the bodies of if, else, while, for and unroll must be in braces");
	parse_fail(p);
}

/* if ... else if ... else ...: the chain is built in a loop, not by recursion. */
static struct stmt *parse_if(struct parser *p)
{
	struct stmt *first = NULL, *last = NULL;
	int links = 0;

	for (;;) {
		struct stmt *s = new_stmt(p, STMT_IF, p->tok.span);
		struct token ct;

		parse_next(p);
		ct = p->tok;
		if (ct.kind == TOK_IDENT && parse_word_is(ct.str, ct.len, "comptime")) {
			/* if comptime cond: the condition is known when compiling */
			parse_modern(p, ct.span, "'if comptime'");
			parse_next(p);
			s->u.if_.cond = ARENA_NEW(p->a, struct expr);
			s->u.if_.cond->kind = EXPR_COMPTIME;
			s->u.if_.cond->u.unary.operand = parse_cond(p, "a condition after 'comptime'");
			s->u.if_.cond->span = span_join(ct.span, s->u.if_.cond->u.unary.operand->span);
		} else {
			s->u.if_.cond = parse_cond(p, "'(' after 'if'");
		}
		need_braces(p, "after the if condition");
		s->u.if_.then = parse_block(p, false);
		s->span = span_join(s->span, s->u.if_.then->span);
		if (last)
			last->u.if_.otherwise = s;
		else
			first = s;
		last = s;
		if (p->tok.kind != TOK_ELSE)
			break;
		parse_next(p);
		if (p->tok.kind != TOK_IF) {
			need_braces(p, "or 'if' after 'else'");
			s->u.if_.otherwise = parse_block(p, false);
			break;
		}
		parse_enter(p, 1);
		links++;
	}
	parse_leave(p, links);

	/* Each if's span covers its whole else chain. */
	for (struct stmt *s = first; s && s->kind == STMT_IF; s = s->u.if_.otherwise)
		s->span = span_join(s->span, p->prev.span);
	return first;
}

static struct stmt *parse_loop(struct parser *p, enum stmt_kind kind)
{
	struct stmt *s = new_stmt(p, kind, p->tok.span);
	const char *name = kind == STMT_WHILE ? "'(' after 'while'" : "'(' after 'unroll'";
	struct expr *e;

	parse_next(p);
	e = parse_cond(p, name);
	need_braces(p, kind == STMT_WHILE ? "after the while condition" : "after unroll (N)");
	if (kind == STMT_WHILE) {
		s->u.while_.cond = e;
		s->u.while_.body = parse_block(p, false);
	} else {
		s->u.unroll.count = e;
		s->u.unroll.body = parse_block(p, false);
	}
	s->span = span_join(s->span, p->prev.span);
	return s;
}

static enum op assign_op(enum tok_kind k, bool *is_assign)
{
	*is_assign = true;
	switch (k) {
	case TOK_ASSIGN:
		return OP_NONE;
	case TOK_OR_ASSIGN:
		return OP_BOR;
	case TOK_XOR_ASSIGN:
		return OP_BXOR;
	case TOK_AND_ASSIGN:
		return OP_BAND;
	case TOK_SHL_ASSIGN:
		return OP_SHL;
	case TOK_SHR_ASSIGN:
		return OP_SHR;
	case TOK_ADD_ASSIGN:
		return OP_ADD;
	case TOK_SUB_ASSIGN:
		return OP_SUB;
	case TOK_MUL_ASSIGN:
		return OP_MUL;
	case TOK_DIV_ASSIGN:
		return OP_DIV;
	case TOK_MOD_ASSIGN:
		return OP_MOD;
	default:
		*is_assign = false;
		return OP_NONE;
	}
}

static const char *expr_what(const struct expr *e)
{
	switch (e->kind) {
	case EXPR_INT:
	case EXPR_STR:
		return "a literal";
	case EXPR_BUILTIN:
		return "a builtin";
	case EXPR_CALL:
		return "a function call";
	case EXPR_FIELD:
		return "a field";
	case EXPR_TUPLE:
		return "a tuple";
	case EXPR_POSITIONAL:
	case EXPR_POSCOUNT:
		return "a positional parameter";
	default:
		return "this expression";
	}
}

/*
 * An expression as a statement. `c ? a : b;` is `if (c) a; else b;`, so
 * that its arms may be statements such as printf() (as in bpftrace).
 */
static struct stmt *expr_stmt(struct parser *p, struct expr *e)
{
	struct stmt *s;

	if (e->kind != EXPR_TERNARY || !e->u.ternary.then) {
		s = new_stmt(p, STMT_EXPR, e->span);
		s->u.expr = e;
		return s;
	}
	s = new_stmt(p, STMT_IF, e->span);
	s->ternary = e;
	s->u.if_.cond = e->u.ternary.cond;
	s->u.if_.then = expr_stmt(p, e->u.ternary.then);
	s->u.if_.otherwise = expr_stmt(p, e->u.ternary.otherwise);
	return s;
}

static struct stmt *parse_simple(struct parser *p)
{
	struct expr *e = parse_expr(p);
	bool is_assign;
	enum op op = assign_op(p->tok.kind, &is_assign);
	struct stmt *s;

	if (!is_assign)
		return expr_stmt(p, e);
	if (e->kind != EXPR_MAP && e->kind != EXPR_VAR) {
		diag_error(p->d, e->span, E_SYNTAX,
			   "cannot assign to %s: only maps (@name) and variables ($name) can be "
			   "assigned",
			   expr_what(e));
		parse_fail(p);
	}
	parse_next(p);
	s = new_stmt(p, STMT_ASSIGN, e->span);
	s->u.assign.target = e;
	s->u.assign.op = op;
	s->u.assign.value = parse_expr(p);
	s->span = span_join(e->span, s->u.assign.value->span);
	return s;
}

/* let $x [: type] [= value] */
static struct stmt *parse_let(struct parser *p)
{
	struct stmt *s = new_stmt(p, STMT_LET, p->tok.span);
	struct token v;

	parse_next(p);
	if (p->tok.kind == TOK_MAP)
		parse_error(p, p->tok.span,
			    "a map is declared before the probes: let @name = hash(N);");
	v = parse_expect(p, TOK_VAR, "a variable after 'let'");
	s->u.let.var = ARENA_NEW(p->a, struct expr);
	s->u.let.var->kind = EXPR_VAR;
	s->u.let.var->span = v.span;
	s->u.let.var->u.name = v.str;
	if (p->tok.kind == TOK_COLON) {
		parse_next(p);
		s->u.let.type = parse_typename(p);
	}
	if (p->tok.kind == TOK_ASSIGN) {
		parse_next(p);
		s->u.let.value = parse_expr(p);
	}
	s->span = span_join(s->span, p->prev.span);
	parse_modern(p, s->span, "'let'");
	return s;
}

/* for ($x : @map) { } and for ($x : lo..hi) { }, the parentheses optional */
static struct stmt *parse_for(struct parser *p)
{
	struct stmt *s = new_stmt(p, STMT_FOR, p->tok.span);
	bool paren;
	struct token v;

	parse_next(p);
	paren = p->tok.kind == TOK_LPAREN;
	if (paren)
		parse_next(p);
	v = parse_expect(p, TOK_VAR, "a variable after 'for'");
	s->u.for_.var = ARENA_NEW(p->a, struct expr);
	s->u.for_.var->kind = EXPR_VAR;
	s->u.for_.var->span = v.span;
	s->u.for_.var->u.name = v.str;
	parse_expect(p, TOK_COLON, "':' after the loop's variable");
	struct expr *first = parse_unary_expr(p);
	if (p->tok.kind == TOK_DOTDOT) {
		parse_next(p);
		s->u.for_.lo = first;
		s->u.for_.hi = parse_unary_expr(p);
	} else if (first->kind == EXPR_MAP && !first->u.map.keys.n) {
		s->u.for_.map = first;
	} else {
		diag_error(p->d, first->span, E_SYNTAX,
			   "a for loop runs over a map (@name) or a range (lo..hi)");
		diag_hint(p->d, "for ($kv : @map) { ... } or for ($i : 0..10) { ... }");
		parse_fail(p);
	}
	if (paren)
		parse_expect(p, TOK_RPAREN, "')' after the loop's range or map");
	need_braces(p, "after the for loop's head");
	s->u.for_.body = parse_block(p, false);
	s->span = span_join(s->span, p->prev.span);
	parse_modern(p, s->span, "a for loop");
	return s;
}

/* `_ = e` and `import "x";` (refused) at an identifier: a statement, or NULL */
static struct stmt *ident_stmt(struct parser *p)
{
	struct token t = p->tok;
	struct lexer look = p->lx;
	struct token next;
	struct stmt *s;

	look.quiet = true;
	next = lex_next(&look);
	if (parse_word_is(t.str, t.len, "_") && next.kind == TOK_ASSIGN) {
		parse_next(p);
		parse_next(p);
		s = new_stmt(p, STMT_DISCARD, t.span);
		s->u.expr = parse_expr(p);
		s->span = span_join(t.span, s->u.expr->span);
		parse_modern(p, s->span, "'_ = ...'");
		return s;
	}
	if (parse_word_is(t.str, t.len, "import") && next.kind == TOK_STR) {
		diag_error(p->d, span_join(t.span, next.span), E_UNSUPPORTED,
			   "an import inside a block is not supported");
		diag_hint(p->d, "bpftrace's standard library imports its C sources (.bpf.c) there, "
				"which need a C compiler; import scripts and headers at the top of "
				"the script");
		parse_fail(p);
	}
	return NULL;
}

static struct stmt *parse_stmt(struct parser *p)
{
	struct token t = p->tok;
	struct stmt *s;

	if (t.kind == TOK_IDENT && (s = ident_stmt(p)))
		return s;
	switch (t.kind) {
	case TOK_LET:
		return parse_let(p);
	case TOK_FOR:
		return parse_for(p);
	case TOK_IF:
		return parse_if(p);
	case TOK_WHILE:
		return parse_loop(p, STMT_WHILE);
	case TOK_UNROLL:
		return parse_loop(p, STMT_UNROLL);
	case TOK_LBRACE:
		return parse_block(p, false);
	case TOK_BREAK:
	case TOK_CONTINUE:
		parse_next(p);
		return new_stmt(p, t.kind == TOK_BREAK ? STMT_BREAK : STMT_CONTINUE, t.span);
	case TOK_RETURN:
		parse_next(p);
		s = new_stmt(p, STMT_RETURN, t.span);
		if (p->tok.kind != TOK_SEMI && p->tok.kind != TOK_RBRACE) {
			s->u.ret = parse_expr(p);
			s->span = span_join(t.span, s->u.ret->span);
		}
		return s;
	case TOK_ELSE:
	case TOK_STRUCT:
	case TOK_UNION:
	case TOK_ENUM:
	case TOK_EOF:
		parse_unexpected(p, "a statement");
	default:
		return parse_simple(p);
	}
}

static bool ends_in_block(const struct stmt *s)
{
	return s->kind == STMT_IF || s->kind == STMT_WHILE || s->kind == STMT_UNROLL ||
	       s->kind == STMT_BLOCK || s->kind == STMT_FOR ||
	       (s->kind == STMT_EXPR && s->u.expr->kind == EXPR_BLOCK);
}

static struct expr *if_to_expr(struct parser *p, struct stmt *s);

/* A block statement as a block expression: its last statement its value, if it can be */
static struct expr *block_to_expr(struct parser *p, struct stmt *b)
{
	struct expr *e = new_expr(p, EXPR_BLOCK, b->span);
	struct stmt *l = b->u.block.n ? b->u.block.v[b->u.block.n - 1] : NULL;

	e->u.blk.body = b;
	if (l && (b->flags & STF_OPEN_END)) {
		struct expr *v = l->kind == STMT_EXPR ? l->u.expr : l->ternary ? l->ternary : if_to_expr(p, l);
		if (v) {
			e->u.blk.value = v;
			b->u.block.n--;
		}
	}
	return e;
}

/*
 * `if c { a } else { b }` last in a block that has a value (today's
 * bpftrace): an if expression, its branches' last statements their values;
 * NULL when s is not an if with an else at the end of its chain.
 */
static struct expr *if_to_expr(struct parser *p, struct stmt *s)
{
	struct expr *e;

	for (const struct stmt *k = s; k->kind == STMT_IF; k = k->u.if_.otherwise)
		if (!k->u.if_.otherwise || k->ternary || k->u.if_.cond->kind == EXPR_COMPTIME)
			return NULL;
	if (s->kind != STMT_IF)
		return NULL;
	e = new_expr(p, EXPR_TERNARY, s->span);
	e->u.ternary.is_if = true;
	e->u.ternary.cond = s->u.if_.cond;
	e->u.ternary.then = block_to_expr(p, s->u.if_.then);
	e->u.ternary.otherwise = s->u.if_.otherwise->kind == STMT_IF
					 ? if_to_expr(p, s->u.if_.otherwise)
					 : block_to_expr(p, s->u.if_.otherwise);
	return e;
}

struct stmt *parse_block(struct parser *p, bool last)
{
	return parse_block_full(p, last, NULL);
}

struct stmt *parse_block_value(struct parser *p, struct expr **value)
{
	return parse_block_full(p, false, value);
}

struct stmt *parse_block_full(struct parser *p, bool last, struct expr **value)
{
	struct token open = p->tok;
	struct stmt *b = new_stmt(p, STMT_BLOCK, open.span);
	uint32_t cap = 0;
	bool semi = true; /* the last statement ended with ';' */

	parse_enter(p, DEPTH_NEST);
	parse_next(p);
	while (p->tok.kind != TOK_RBRACE) {
		struct stmt *s;

		if (p->tok.kind == TOK_SEMI) {
			parse_next(p);
			semi = true;
			continue;
		}
		if (p->tok.kind == TOK_EOF) {
			uint32_t line, col;
			char buf[64];

			source_pos(p->lx.src, open.span.lo, &line, &col);
			diag_error(p->d, SPAN(p->prev.span.hi, p->prev.span.hi + 1), E_SYNTAX,
				   "unexpected %s, expected '}'",
				   lex_tok_describe(&p->lx, &p->tok, buf, sizeof(buf)));
			diag_hint(p->d, "the '{' at line %u, column %u is not closed", line, col);
			parse_fail(p);
		}
		s = parse_stmt(p);
		PUSH(p, b->u.block.v, b->u.block.n, cap, s);
		semi = p->tok.kind == TOK_SEMI;
		if (semi)
			parse_next(p);
		else if (p->tok.kind != TOK_RBRACE && p->tok.kind != TOK_EOF && !ends_in_block(s))
			parse_unexpected(p, "';' or '}' after the statement");
	}
	if (!semi && b->u.block.n)
		b->flags |= STF_OPEN_END;
	/* { ...; value }: a last expression without ';' is the block's value, an
	   if with an else an if expression */
	if (value) {
		struct stmt *l = b->u.block.n ? b->u.block.v[b->u.block.n - 1] : NULL;
		*value = NULL;
		if (!semi && l && (l->kind == STMT_EXPR || l->ternary)) {
			*value = l->kind == STMT_EXPR ? l->u.expr : l->ternary;
			b->u.block.n--;
		} else if (!semi && l && (*value = if_to_expr(p, l))) {
			b->u.block.n--;
		}
	}
	b->span = span_join(open.span, p->tok.span);
	if (last) {
		/* The probe's '}': do not read on, the top level is not tokens. */
		p->prev = p->tok;
	} else {
		parse_next(p);
	}
	parse_leave(p, DEPTH_NEST);
	return b;
}
