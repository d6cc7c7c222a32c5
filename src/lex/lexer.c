// SPDX-License-Identifier: MIT
/*
 * Ordinary tokens: identifiers and keywords, $variables, @maps, numbers,
 * strings, operators; blanks and comments in between.
 */
#include "lex/lexer.h"
#include "lex/lex_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const tok_names[TOK_COUNT_] = {
#define X(name, desc) [name] = desc,
	TOKEN_KINDS(X)
#undef X
};

const char *lex_tok_kind_str(enum tok_kind k)
{
	return k < TOK_COUNT_ ? tok_names[k] : "?";
}

void lex_init(struct lexer *lx, const struct source *src, struct arena *a, struct diag *d)
{
	*lx = (struct lexer){
		.src = src,
		.text = src->text,
		.len = src->len,
		.arena = a,
		.diag = d,
	};
}

void lex_error(struct lexer *lx, struct span sp, enum diag_code code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (lx->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(lx->diag, sp, code, "%s", msg);
}

void lex_hint(struct lexer *lx, const char *hint)
{
	if (!lx->quiet)
		diag_hint(lx->diag, "%s", hint);
}

/* Printable form of byte c for messages: "'#'" or "byte 0x80". */
const char *lex_char_str(int c, char *buf, size_t size)
{
	if (c >= 0x21 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else if (c == ' ')
		snprintf(buf, size, "' '");
	else
		snprintf(buf, size, "byte 0x%02x", c & 0xff);
	return buf;
}

bool lex_skip_space(struct lexer *lx)
{
	for (;;) {
		int c = lex_peek(lx, 0);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			lx->pos++;
		} else if (c == '/' && lex_peek(lx, 1) == '/') {
			while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
				lx->pos++;
		} else if (c == '/' && lex_peek(lx, 1) == '*') {
			uint32_t start = lx->pos;
			const char *end = NULL;

			if (lx->pos + 2 < lx->len)
				end = memmem(lx->text + lx->pos + 2, lx->len - lx->pos - 2, "*/",
					     2);
			if (!end) {
				lex_error(lx, SPAN(start, start + 2), E_UNTERMINATED_COMMENT,
					  "unterminated comment: '/*' has no matching '*/'");
				lx->pos = lx->len;
				return false;
			}
			lx->pos = (uint32_t)(end - lx->text) + 2;
		} else {
			return true;
		}
	}
}

/* Keywords. */
static const struct {
	const char *word;
	enum tok_kind kind;
} keywords[] = {
	{ "if", TOK_IF },	  { "else", TOK_ELSE },		{ "enum", TOK_ENUM },
	{ "break", TOK_BREAK },	  { "union", TOK_UNION },	{ "while", TOK_WHILE },
	{ "return", TOK_RETURN }, { "sizeof", TOK_SIZEOF },	{ "struct", TOK_STRUCT },
	{ "unroll", TOK_UNROLL }, { "continue", TOK_CONTINUE }, { "let", TOK_LET },
	{ "for", TOK_FOR },	  { "true", TOK_TRUE },		{ "false", TOK_FALSE },
};

static enum tok_kind keyword(const char *s, uint32_t n)
{
	if (n < 2 || n > 8)
		return TOK_IDENT;
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (keywords[i].word[0] == s[0] && !strncmp(keywords[i].word, s, n) &&
		    keywords[i].word[n] == '\0')
			return keywords[i].kind;
	return TOK_IDENT;
}

static const char *lex_name(struct lexer *lx, uint32_t lo, uint32_t hi)
{
	return lx->quiet ? NULL : arena_strndup(lx->arena, lx->text + lo, hi - lo);
}

static uint32_t ident_end(const struct lexer *lx, uint32_t p)
{
	while (p < lx->len && is_ident_char((unsigned char)lx->text[p]))
		p++;
	return p;
}

/* $name, $1, $# */
static struct token lex_dollar(struct lexer *lx, struct token t)
{
	uint32_t start = t.span.lo, p = start + 1;
	int c = lex_peek(lx, 1);

	if (c == '#') {
		t.kind = TOK_POSCOUNT;
		lx->pos = p + 1;
	} else if (c >= '0' && c <= '9') {
		uint64_t v = 0;
		uint32_t end = ident_end(lx, p);

		lx->pos = end;
		t.span.hi = end;
		for (; p < end; p++) {
			c = lx->text[p];
			if (c < '0' || c > '9') {
				lex_error(
					lx, t.span, E_BAD_NUMBER,
					"invalid positional parameter '%.*s': expected only digits "
					"after '$'",
					(int)(end - start), lx->text + start);
				t.kind = TOK_ERROR;
				return t;
			}
			v = v * 10 + (uint64_t)(c - '0');
			if (v > UINT32_MAX) {
				lex_error(lx, t.span, E_BAD_NUMBER,
					  "positional parameter number is too large");
				t.kind = TOK_ERROR;
				return t;
			}
		}
		t.kind = TOK_POSITIONAL;
		t.num = (uint32_t)v;
	} else if (is_ident_start(c)) {
		uint32_t end = ident_end(lx, p);

		t.kind = TOK_VAR;
		t.str = lex_name(lx, p, end);
		t.len = end - p;
		lx->pos = end;
	} else {
		lex_error(lx, SPAN(start, start + 1), E_BAD_CHAR,
			  "'$' must be followed by a variable name, a number or '#'");
		lx->pos = start + 1;
		t.kind = TOK_ERROR;
		return t;
	}
	t.span.hi = lx->pos;
	return t;
}

/* @name, or the anonymous map @ */
static struct token lex_at(struct lexer *lx, struct token t)
{
	uint32_t p = t.span.lo + 1, end = p;

	if (is_ident_start(lex_peek(lx, 1)))
		end = ident_end(lx, p);
	t.kind = TOK_MAP;
	t.str = lex_name(lx, p, end);
	t.len = end - p;
	lx->pos = end;
	t.span.hi = end;
	return t;
}

/* In a predicate: does the '/' at lx->pos have a '{' after it? */
static bool closes_predicate(const struct lexer *lx)
{
	struct lexer look = *lx;

	look.quiet = true;
	look.pos++;
	return lex_skip_space(&look) && lex_peek(&look, 0) == '{';
}

/* Operators and punctuation, longest match first; *n is the length. */
static enum tok_kind punct_kind(const char *s, uint32_t left, uint32_t *n)
{
	char c = s[0], d = left > 1 ? s[1] : 0, e = left > 2 ? s[2] : 0;

	*n = 2;
	switch (c) {
	case '(':
		*n = 1;
		return TOK_LPAREN;
	case ')':
		*n = 1;
		return TOK_RPAREN;
	case '[':
		*n = 1;
		return TOK_LBRACKET;
	case ']':
		*n = 1;
		return TOK_RBRACKET;
	case '{':
		*n = 1;
		return TOK_LBRACE;
	case '}':
		*n = 1;
		return TOK_RBRACE;
	case ',':
		*n = 1;
		return TOK_COMMA;
	case ';':
		*n = 1;
		return TOK_SEMI;
	case '.':
		if (d == '.')
			return TOK_DOTDOT;
		*n = 1;
		return TOK_DOT;
	case '?':
		*n = 1;
		return TOK_QUESTION;
	case ':':
		*n = 1;
		return TOK_COLON;
	case '~':
		*n = 1;
		return TOK_TILDE;
	case '+':
		if (d == '+')
			return TOK_INC;
		if (d == '=')
			return TOK_ADD_ASSIGN;
		*n = 1;
		return TOK_PLUS;
	case '-':
		if (d == '-')
			return TOK_DEC;
		if (d == '=')
			return TOK_SUB_ASSIGN;
		if (d == '>')
			return TOK_ARROW;
		*n = 1;
		return TOK_MINUS;
	case '*':
		if (d == '=')
			return TOK_MUL_ASSIGN;
		*n = 1;
		return TOK_STAR;
	case '/':
		if (d == '=')
			return TOK_DIV_ASSIGN;
		*n = 1;
		return TOK_SLASH;
	case '%':
		if (d == '=')
			return TOK_MOD_ASSIGN;
		*n = 1;
		return TOK_PERCENT;
	case '^':
		if (d == '=')
			return TOK_XOR_ASSIGN;
		*n = 1;
		return TOK_CARET;
	case '!':
		if (d == '=')
			return TOK_NE;
		*n = 1;
		return TOK_BANG;
	case '=':
		if (d == '=')
			return TOK_EQ;
		*n = 1;
		return TOK_ASSIGN;
	case '&':
		if (d == '&')
			return TOK_ANDAND;
		if (d == '=')
			return TOK_AND_ASSIGN;
		*n = 1;
		return TOK_AMP;
	case '|':
		if (d == '|')
			return TOK_OROR;
		if (d == '=')
			return TOK_OR_ASSIGN;
		*n = 1;
		return TOK_PIPE;
	case '<':
		if (d == '<' && e == '=') {
			*n = 3;
			return TOK_SHL_ASSIGN;
		}
		if (d == '<')
			return TOK_SHL;
		if (d == '=')
			return TOK_LE;
		*n = 1;
		return TOK_LT;
	case '>':
		if (d == '>' && e == '=') {
			*n = 3;
			return TOK_SHR_ASSIGN;
		}
		if (d == '>')
			return TOK_SHR;
		if (d == '=')
			return TOK_GE;
		*n = 1;
		return TOK_GT;
	default:
		*n = 0;
		return TOK_ERROR;
	}
}

static struct token lex_punct(struct lexer *lx, struct token t)
{
	const char *s = lx->text + lx->pos;
	uint32_t left = lx->len - lx->pos, n;

	if (lx->predicate && *s == '/' && closes_predicate(lx)) {
		t.kind = TOK_PRED_END;
		lx->pos++;
		t.span.hi = lx->pos;
		return t;
	}
	t.kind = punct_kind(s, left, &n);
	if (t.kind != TOK_ERROR) {
		lx->pos += n;
		t.span.hi = lx->pos;
		return t;
	}

	/* Not a token: report the character (a whole UTF-8 sequence). */
	unsigned char c = (unsigned char)*s;
	char buf[32];

	n = 1;
	if (c >= 0xc0)
		while (n < left && n < 4 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
	t.kind = TOK_ERROR;
	t.span.hi = lx->pos + n;
	if (n > 1)
		lex_error(lx, t.span, E_BAD_CHAR, "unexpected character '%.*s'", (int)n, s);
	else
		lex_error(lx, t.span, E_BAD_CHAR, "unexpected character %s",
			  lex_char_str(c, buf, sizeof(buf)));
	if (c == '#')
		lex_hint(lx, "#include, #define and C definitions belong at the top level, "
			     "outside probes");
	lx->pos += n;
	return t;
}

struct token lex_next(struct lexer *lx)
{
	struct token t = { .kind = TOK_ERROR };

	if (!lex_skip_space(lx)) {
		t.span = SPAN(lx->len, lx->len);
		return t;
	}
	t.span = SPAN(lx->pos, lx->pos);
	if (lx->pos >= lx->len) {
		t.kind = TOK_EOF;
		return t;
	}

	int c = (unsigned char)lx->text[lx->pos];

	if (is_ident_start(c)) {
		uint32_t end = ident_end(lx, lx->pos);

		t.kind = keyword(lx->text + lx->pos, end - lx->pos);
		if (t.kind == TOK_IDENT) {
			t.str = lex_name(lx, lx->pos, end);
			t.len = end - lx->pos;
		}
		lx->pos = end;
		t.span.hi = end;
		return t;
	}
	if (c >= '0' && c <= '9')
		return lex_number(lx, t);
	if (c == '"' || c == '\'')
		return lex_quoted(lx, t);
	if (c == '$')
		return lex_dollar(lx, t);
	if (c == '@')
		return lex_at(lx, t);
	return lex_punct(lx, t);
}

const char *lex_tok_describe(const struct lexer *lx, const struct token *t, char *buf, size_t size)
{
	uint32_t n = t->span.hi - t->span.lo;
	const char *text = lx->text + t->span.lo;
	const char *what;

	switch (t->kind) {
	case TOK_IDENT:
		what = "identifier";
		break;
	case TOK_VAR:
		what = "variable";
		break;
	case TOK_MAP:
		what = "map";
		break;
	case TOK_INT:
		what = "number";
		break;
	case TOK_POSITIONAL:
		what = "positional parameter";
		break;
	case TOK_STR:
		snprintf(buf, size, "string literal");
		return buf;
	default:
		snprintf(buf, size, "%s", lex_tok_kind_str(t->kind));
		return buf;
	}
	if (n > 32)
		snprintf(buf, size, "%s '%.29s...'", what, text);
	else
		snprintf(buf, size, "%s '%.*s'", what, (int)n, text);
	return buf;
}
