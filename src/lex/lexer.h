/* SPDX-License-Identifier: MIT */
/*
 * The lexer: turns script text into tokens with byte spans.
 *
 * It is pulled by the parser one token at a time, because the language has
 * two lexical modes that only the parser can tell apart:
 *
 *   - inside probe bodies and predicates, ordinary C-like tokens (lex_next);
 *   - at the top level, raw runs of text: attach points such as
 *     "uprobe:/bin/bash:readline" (lex_attach_point), preprocessor lines
 *     (lex_directive) and C definitions (lex_cdef), see lex_raw.c.
 *
 * Errors are reported to the diagnostics given to lexer_init; the token is
 * then TOK_ERROR. A lexer struct can be copied to look ahead and thrown
 * away: set .quiet on the copy so that it reports and allocates nothing.
 */
#ifndef LANTERN_LEX_LEXER_H
#define LANTERN_LEX_LEXER_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/ast.h"
#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"

#define TOKEN_KINDS(X)                                                                             \
	X(TOK_EOF, "end of input")                                                                 \
	X(TOK_ERROR, "invalid token")                                                              \
	X(TOK_INT, "number")                                                                       \
	X(TOK_STR, "string")                                                                       \
	X(TOK_IDENT, "identifier")                                                                 \
	X(TOK_VAR, "variable")                                                                     \
	X(TOK_POSITIONAL, "positional parameter")                                                  \
	X(TOK_POSCOUNT, "'$#'")                                                                    \
	X(TOK_MAP, "map")                                                                          \
	/* keywords */                                                                             \
	X(TOK_IF, "'if'")                                                                          \
	X(TOK_ELSE, "'else'")                                                                      \
	X(TOK_LET, "'let'")                                                                        \
	X(TOK_FOR, "'for'")                                                                        \
	X(TOK_TRUE, "'true'")                                                                      \
	X(TOK_FALSE, "'false'")                                                                    \
	X(TOK_UNROLL, "'unroll'")                                                                  \
	X(TOK_WHILE, "'while'")                                                                    \
	X(TOK_RETURN, "'return'")                                                                  \
	X(TOK_BREAK, "'break'")                                                                    \
	X(TOK_CONTINUE, "'continue'")                                                              \
	X(TOK_SIZEOF, "'sizeof'")                                                                  \
	X(TOK_STRUCT, "'struct'")                                                                  \
	X(TOK_UNION, "'union'")                                                                    \
	X(TOK_ENUM, "'enum'")                                                                      \
	/* punctuation */                                                                          \
	X(TOK_LPAREN, "'('")                                                                       \
	X(TOK_RPAREN, "')'")                                                                       \
	X(TOK_LBRACKET, "'['")                                                                     \
	X(TOK_RBRACKET, "']'")                                                                     \
	X(TOK_LBRACE, "'{'")                                                                       \
	X(TOK_RBRACE, "'}'")                                                                       \
	X(TOK_COMMA, "','")                                                                        \
	X(TOK_SEMI, "';'")                                                                         \
	X(TOK_DOT, "'.'")                                                                          \
	X(TOK_DOTDOT, "'..'")                                                                      \
	X(TOK_ARROW, "'->'")                                                                       \
	X(TOK_QUESTION, "'?'")                                                                     \
	X(TOK_COLON, "':'")                                                                        \
	X(TOK_PRED_END, "'/'") /* the '/' closing a predicate, see lexer.predicate */              \
	/* operators */                                                                            \
	X(TOK_PLUS, "'+'")                                                                         \
	X(TOK_MINUS, "'-'")                                                                        \
	X(TOK_STAR, "'*'")                                                                         \
	X(TOK_SLASH, "'/'")                                                                        \
	X(TOK_PERCENT, "'%'")                                                                      \
	X(TOK_AMP, "'&'")                                                                          \
	X(TOK_PIPE, "'|'")                                                                         \
	X(TOK_CARET, "'^'")                                                                        \
	X(TOK_TILDE, "'~'")                                                                        \
	X(TOK_BANG, "'!'")                                                                         \
	X(TOK_LT, "'<'")                                                                           \
	X(TOK_GT, "'>'")                                                                           \
	X(TOK_LE, "'<='")                                                                          \
	X(TOK_GE, "'>='")                                                                          \
	X(TOK_EQ, "'=='")                                                                          \
	X(TOK_NE, "'!='")                                                                          \
	X(TOK_SHL, "'<<'")                                                                         \
	X(TOK_SHR, "'>>'")                                                                         \
	X(TOK_ANDAND, "'&&'")                                                                      \
	X(TOK_OROR, "'||'")                                                                        \
	X(TOK_INC, "'++'")                                                                         \
	X(TOK_DEC, "'--'")                                                                         \
	/* assignment: '=' then the compound forms */                                              \
	X(TOK_ASSIGN, "'='")                                                                       \
	X(TOK_OR_ASSIGN, "'|='")                                                                   \
	X(TOK_XOR_ASSIGN, "'^='")                                                                  \
	X(TOK_AND_ASSIGN, "'&='")                                                                  \
	X(TOK_SHL_ASSIGN, "'<<='")                                                                 \
	X(TOK_SHR_ASSIGN, "'>>='")                                                                 \
	X(TOK_ADD_ASSIGN, "'+='")                                                                  \
	X(TOK_SUB_ASSIGN, "'-='")                                                                  \
	X(TOK_MUL_ASSIGN, "'*='")                                                                  \
	X(TOK_DIV_ASSIGN, "'/='")                                                                  \
	X(TOK_MOD_ASSIGN, "'%='")

enum tok_kind {
#define X(name, desc) name,
	TOKEN_KINDS(X)
#undef X
		TOK_COUNT_
};

/* struct token.flags */
#define TOKF_DURATION 1 /* TOK_INT: a duration, 10ms (today's bpftrace) */

struct token {
	enum tok_kind kind;
	uint32_t flags;
	struct span span;
	union {
		uint64_t ival; /* TOK_INT */
		uint32_t num;  /* TOK_POSITIONAL: $1 -> 1 */
		struct {
			/*
			 * TOK_STR: the decoded bytes, NUL-terminated, len without
			 * the NUL. TOK_IDENT, TOK_VAR, TOK_MAP: the name without
			 * '$' or '@' ("" for the bare map '@'). NULL when quiet.
			 */
			const char *str;
			uint32_t len;
		};
	};
};

struct lexer {
	const struct source *src;
	const char *text;
	uint32_t len;
	uint32_t pos;	/* next byte to read */
	uint32_t start; /* where the file being read starts (an import's is not 0) */
	struct arena *arena;
	struct diag *diag;
	/* In a predicate: a '/' followed by '{' (after blanks) is TOK_PRED_END. */
	bool predicate;
	/* Looking ahead: report no error, allocate no name or string. */
	bool quiet;
};

void lex_init(struct lexer *lx, const struct source *src, struct arena *a, struct diag *d);

/* The next ordinary token. */
struct token lex_next(struct lexer *lx);

/* Skip blanks and comments. False after reporting an unterminated comment. */
bool lex_skip_space(struct lexer *lx);

/*
 * Top-level raw scanning (lex_raw.c); each starts at lx->pos, which the
 * caller has put on the first byte, and returns false after reporting an
 * error.
 */
/* An attach point; fills ap (text and parts in the lexer's arena). */
bool lex_attach_point(struct lexer *lx, struct attach_point *ap);
/* A preprocessor line "#..." with '\' continuations; span excludes the newline. */
bool lex_directive(struct lexer *lx, struct span *out);
/* A C definition "struct|union|enum ... ;" up to its ';' (included). */
bool lex_cdef(struct lexer *lx, struct span *out);
/* True when the text at lx->pos starts with the word w (not followed by an identifier byte). */
bool lex_at_word(const struct lexer *lx, const char *w);

/* "'+'", "identifier", "end of input", ... */
const char *lex_tok_kind_str(enum tok_kind k);
/* A short description of a token for messages: "'}'", "identifier 'foo'". */
const char *lex_tok_describe(const struct lexer *lx, const struct token *t, char *buf, size_t size);

/* The byte at lx->pos + k, or 0 past the end. */
static inline int lex_peek(const struct lexer *lx, uint32_t k)
{
	return lx->pos + k < lx->len ? (unsigned char)lx->text[lx->pos + k] : 0;
}

/* A byte for messages: "'#'", "' '" or "byte 0x80". */
const char *lex_char_str(int c, char *buf, size_t size);
/*
 * The raw text at offset at for messages: "'kprobe:b'" (a word or attach
 * point), "'{'", "end of input"; *sp is set to its span.
 */
const char *lex_raw_describe(const struct lexer *lx, uint32_t at, struct span *sp, char *buf,
			     size_t size);

static inline bool is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

#endif
