/* SPDX-License-Identifier: MIT */
/* Shared between the lexer's files; not for the parser. */
#ifndef LANTERN_LEX_LEX_INTERNAL_H
#define LANTERN_LEX_LEX_INTERNAL_H

#include "lex/lexer.h"

void lex_error(struct lexer *lx, struct span sp, enum diag_code code, const char *fmt, ...)
	PRINTF_LIKE(4, 5);
void lex_hint(struct lexer *lx, const char *hint);

/* t.span.lo is the first byte: a digit, or a quote ('"' or '\''). */
struct token lex_number(struct lexer *lx, struct token t);
struct token lex_quoted(struct lexer *lx, struct token t);

#endif
