// SPDX-License-Identifier: MIT
/*
 * Type names, in casts, sizeof, offsetof, `let $x: T` and functions:
 *
 *   type   := (struct | union | enum) name mods | name+ mods | typeof '(' (type | expr) ')' mods
 *   mods   := ('*' | '[' [N] ']')*
 *
 * "unsigned long long" is one name of several words. 0.17 has only '*'
 * after the name; today's bpftrace reads '*' and '[N]' left to right
 * (`int32*[4]` is an array of four pointers) and `[N]` after string,
 * buffer and inet is their size (`string[64]`).
 */
#include "parse/parse_internal.h"

#include <string.h>

/* Type names that always start a cast: "(uint8)x", "(int)x", "(void *)x". */
static const char *const type_names[] = {
	"int8",	    "int16", "int32",  "int64", "uint8",  "uint16", "uint32",
	"uint64",   "bool",  "char",   "short", "int",	  "long",   "signed",
	"unsigned", "void",  "string", "inet",	"buffer",
};

static bool is_type_name(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(type_names); i++)
		if (parse_word_is(s, n, type_names[i]))
			return true;
	return false;
}

/* C spellings that combine: "unsigned long", "long long", "unsigned int". */
static bool is_c_int_word(const char *s, size_t n)
{
	return parse_word_is(s, n, "int") || parse_word_is(s, n, "char") ||
	       parse_word_is(s, n, "short") || parse_word_is(s, n, "long") ||
	       parse_word_is(s, n, "signed") || parse_word_is(s, n, "unsigned");
}

static const char *tok_text(const struct parser *p, const struct token *t, size_t *n)
{
	*n = t->span.hi - t->span.lo;
	return p->lx.text + t->span.lo;
}

bool parse_starts_operand(enum tok_kind k)
{
	switch (k) {
	case TOK_INT:
	case TOK_STR:
	case TOK_IDENT:
	case TOK_VAR:
	case TOK_POSITIONAL:
	case TOK_POSCOUNT:
	case TOK_MAP:
	case TOK_LPAREN:
	case TOK_BANG:
	case TOK_TILDE:
	case TOK_MINUS:
	case TOK_PLUS:
	case TOK_STAR:
	case TOK_AMP:
	case TOK_INC:
	case TOK_DEC:
	case TOK_SIZEOF:
	case TOK_TRUE:
	case TOK_FALSE:
		return true;
	default:
		return false;
	}
}

/* '*' and '[N]' / '[]' from the lookahead's next token; the token after them */
static struct token skip_mods(struct lexer *look, bool *saw)
{
	struct token t = lex_next(look);

	for (;;) {
		if (t.kind == TOK_STAR) {
			*saw = true;
			t = lex_next(look);
			continue;
		}
		if (t.kind != TOK_LBRACKET)
			return t;
		t = lex_next(look);
		if (t.kind == TOK_INT)
			t = lex_next(look);
		if (t.kind != TOK_RBRACKET)
			return (struct token){ .kind = TOK_ERROR };
		*saw = true;
		t = lex_next(look);
	}
}

/* After `typeof`: its balanced parentheses; the token after them */
static struct token skip_parens(struct lexer *look)
{
	int depth = 0;
	struct token t;

	do {
		t = lex_next(look);
		depth += t.kind == TOK_LPAREN;
		depth -= t.kind == TOK_RPAREN;
	} while (depth > 0 && t.kind != TOK_EOF && t.kind != TOK_ERROR);
	return t.kind == TOK_RPAREN ? lex_next(look) : t;
}

/*
 * Does a type name follow the current '('? In a cast (cast == true) a lone
 * identifier that is not a builtin, "(foo)", is a type only when an operand
 * follows the ')', as in bpftrace: "(foo)x" and "(foo)-1" are casts. In
 * sizeof it always is. A name with '*' or '[N]' after it is a type.
 */
bool parse_type_ahead(const struct parser *p, bool cast)
{
	struct lexer look = p->lx;
	struct token t;
	const char *s;
	size_t n;
	bool saw = false;

	look.quiet = true;
	t = lex_next(&look);
	if (t.kind == TOK_STRUCT || t.kind == TOK_UNION || t.kind == TOK_ENUM)
		return true;
	if (t.kind != TOK_IDENT)
		return false;
	s = tok_text(p, &t, &n);
	if (is_type_name(s, n))
		return true;
	if (parse_is_builtin_var(s, n))
		return false;
	if (parse_word_is(s, n, "typeof")) {
		struct lexer l2 = look;
		if (lex_next(&l2).kind == TOK_LPAREN) {
			t = skip_parens(&look);
			saw = true;
			if (t.kind == TOK_STAR || t.kind == TOK_LBRACKET)
				return true;
			return t.kind == TOK_RPAREN;
		}
	}
	t = skip_mods(&look, &saw);
	if (t.kind != TOK_RPAREN)
		return false;
	if (saw || !cast)
		return true;
	return parse_starts_operand(lex_next(&look).kind);
}

/* The '[N]' and '*' after the name (the first '[' is current) */
static void postfix_mods(struct parser *p, struct ast_typename *tn)
{
	struct tn_mod mods[8];
	uint32_t n = 0;

	parse_modern(p, p->tok.span, "a postfix type (T[N])");
	for (uint32_t i = 0; i < tn->ptr_depth && n < ARRAY_SIZE(mods); i++)
		mods[n++] = (struct tn_mod){ false, 0 };
	tn->ptr_depth = 0;
	while (p->tok.kind == TOK_STAR || p->tok.kind == TOK_LBRACKET) {
		struct tn_mod m = { p->tok.kind == TOK_LBRACKET, 0 };
		struct token at = p->tok;
		parse_next(p);
		if (m.array && p->tok.kind == TOK_INT) {
			if (!p->tok.ival || p->tok.ival > UINT32_MAX)
				parse_error(p, p->tok.span, "an array has 1 to %u elements", UINT32_MAX);
			m.len = (uint32_t)p->tok.ival;
			parse_next(p);
		}
		if (m.array)
			parse_expect(p, TOK_RBRACKET, "']' after the array's length");
		if (n == ARRAY_SIZE(mods))
			parse_error(p, at.span, "a type has at most %zu '*' and '[N]'", ARRAY_SIZE(mods));
		mods[n++] = m;
	}
	tn->mods = arena_alloc(p->a, sizeof(mods[0]) * n);
	memcpy(tn->mods, mods, sizeof(mods[0]) * n);
	tn->nmods = n;
}

/* At a name: `name*)` or `name[N])`, a type (a lone name is an expression's) */
static bool name_with_mods(const struct parser *p)
{
	struct lexer look = p->lx;
	bool saw = false;

	look.quiet = true;
	return skip_mods(&look, &saw).kind == TOK_RPAREN && saw;
}

/* typeof(type) or typeof(expr), at `typeof` */
static void parse_typeof(struct parser *p, struct ast_typename *tn)
{
	struct token kw = p->tok;
	const char *s;
	size_t n;

	parse_modern(p, kw.span, "typeof");
	parse_next(p);
	parse_expect(p, TOK_LPAREN, "'(' after typeof");
	s = tok_text(p, &p->tok, &n);
	if (p->tok.kind == TOK_STRUCT || p->tok.kind == TOK_UNION || p->tok.kind == TOK_ENUM ||
	    (p->tok.kind == TOK_IDENT && (is_type_name(s, n) || name_with_mods(p)))) {
		*tn = parse_typename(p);
	} else {
		tn->name = "typeof";
		tn->of = parse_expr(p);
	}
	parse_expect(p, TOK_RPAREN, "')' after typeof's operand");
	tn->span = span_join(kw.span, p->prev.span);
}

struct ast_typename parse_typename(struct parser *p)
{
	struct ast_typename tn = { .tag = TN_PLAIN };
	struct token first = p->tok, name;
	const char *s;
	size_t n;

	switch (p->tok.kind) {
	case TOK_STRUCT:
		tn.tag = TN_STRUCT;
		break;
	case TOK_UNION:
		tn.tag = TN_UNION;
		break;
	case TOK_ENUM:
		tn.tag = TN_ENUM;
		break;
	default:
		break;
	}
	if (tn.tag != TN_PLAIN) {
		parse_next(p);
		if (p->tok.kind != TOK_IDENT)
			parse_unexpected(p, tn.tag == TN_STRUCT	 ? "a struct name after 'struct'"
					    : tn.tag == TN_UNION ? "a union name after 'union'"
								 : "an enum name after 'enum'");
	}
	s = tok_text(p, &p->tok, &n);
	if (tn.tag == TN_PLAIN && p->tok.kind == TOK_IDENT && parse_word_is(s, n, "typeof")) {
		struct lexer look = p->lx;
		look.quiet = true;
		if (lex_next(&look).kind == TOK_LPAREN)
			parse_typeof(p, &tn);
	}
	if (!tn.name) {
		name = parse_expect(p, TOK_IDENT, "a type name");
		tn.name = name.str;
		s = tok_text(p, &name, &n);
		if (tn.tag == TN_PLAIN && is_c_int_word(s, n) && !parse_word_is(s, n, "int") &&
		    !parse_word_is(s, n, "char")) {
			/* "unsigned long long", "short int", ... */
			while (p->tok.kind == TOK_IDENT && is_c_int_word(p->tok.str, p->tok.len)) {
				tn.name = arena_printf(p->a, "%s %s", tn.name, p->tok.str);
				parse_next(p);
			}
		}
	}
	while (p->tok.kind == TOK_STAR) {
		tn.ptr_depth++;
		parse_next(p);
	}
	if (p->tok.kind == TOK_LBRACKET)
		postfix_mods(p, &tn);
	tn.span = span_join(first.span, p->prev.span);
	return tn;
}
