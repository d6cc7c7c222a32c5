/* SPDX-License-Identifier: MIT */
/*
 * Shared by the parser's files. The parser stops at the first error: the
 * error is reported, then parse_fail() jumps back to parse_program(). Every
 * node lives in the arena, so nothing is leaked on the way out.
 */
#ifndef LANTERN_PARSE_PARSE_INTERNAL_H
#define LANTERN_PARSE_PARSE_INTERNAL_H

#include <setjmp.h>
#include <string.h>

#include "lex/lexer.h"
#include "parse/parser.h"

/*
 * Nesting budget. Each nested construct (parenthesis, unary operator, block,
 * ternary branch) costs DEPTH_NEST, each further operator of a binary chain
 * costs 1: about 200 levels of nesting, or chains of about 1000 operators.
 * This bounds both the parser's recursion and the height of the tree that
 * later (recursive) stages walk.
 */
#define DEPTH_MAX  1000
#define DEPTH_NEST 5

struct parser {
	struct lexer lx;
	struct arena *a;
	struct diag *d;
	struct token tok;  /* the current token */
	struct token prev; /* the last one consumed */
	int depth;
	jmp_buf fail;
	/* the first construct of today's bpftrace seen (program.modern_what) */
	const char *modern_what;
	struct span modern_span;
};

NORETURN void parse_fail(struct parser *p);
NORETURN void parse_error(struct parser *p, struct span sp, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* "unexpected <current token>, expected <what>" */
NORETURN void parse_unexpected(struct parser *p, const char *what);

/* Consume the current token and read the next one. */
void parse_next(struct parser *p);
/* Consume a token of kind k or fail with "unexpected X, expected <what>". */
struct token parse_expect(struct parser *p, enum tok_kind k, const char *what);

/* Charge the nesting budget w; give it back with leave(). */
void parse_enter(struct parser *p, int w);
static inline void parse_leave(struct parser *p, int w)
{
	p->depth -= w;
}

/* Arena-backed growable arrays: PUSH(p, arr, n, cap, x). */
void *parse_grow(struct parser *p, void *old, uint32_t n, uint32_t *cap, size_t elem);
#define PUSH(p, arr, n, cap, x)                                                                    \
	do {                                                                                       \
		if ((n) == (cap))                                                                  \
			(arr) = parse_grow((p), (arr), (n), &(cap), sizeof(*(arr)));               \
		(arr)[(n)++] = (x);                                                                \
	} while (0)

/* Note a construct of today's bpftrace that 0.17 lacks (the first is kept). */
static inline void parse_modern(struct parser *p, struct span sp, const char *what)
{
	if (!p->modern_what) {
		p->modern_what = what;
		p->modern_span = sp;
	}
}

/* The token's text is the word w */
static inline bool parse_word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

struct expr *parse_expr(struct parser *p);
/* A unary expression: an unparenthesized condition (`if $x {`) ends there. */
struct expr *parse_unary_expr(struct parser *p);
/* A type name at the current token (after '(', "sizeof(" or "let $x:"); parse_type.c */
struct ast_typename parse_typename(struct parser *p);
/* Does a type follow the current '(' (a cast, or in sizeof)? */
bool parse_type_ahead(const struct parser *p, bool cast);
/* Can a token of kind k start an operand (what follows a cast)? */
bool parse_starts_operand(enum tok_kind k);
/*
 * The statements of the block at the current '{'. With value, a last
 * expression statement without ';' is left out and returned in *value
 * (a block expression's value).
 */
struct stmt *parse_block_value(struct parser *p, struct expr **value);
/* The block at the current '{'. A probe body (last) leaves the lexer just
 * after its '}' without reading further. */
struct stmt *parse_block(struct parser *p, bool last);
/* Both: a body at the top level (last) that may end in a value (value not NULL) */
struct stmt *parse_block_full(struct parser *p, bool last, struct expr **value);
/* Tokens from the lexer's position on (the top level is raw text) */
void parse_tokens_start(struct parser *p);

/* macro, fn and import at the top level (parse_macro.c), at their keyword */
struct macro_def *parse_macro_def(struct parser *p);
struct fn_def *parse_fn_def(struct parser *p);
struct import_item parse_import(struct parser *p);

#endif
