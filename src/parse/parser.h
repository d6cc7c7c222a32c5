/* SPDX-License-Identifier: MIT */
/*
 * The parser: a hand-written recursive descent over the lexer's tokens,
 * building the AST of ast/ast.h in an arena.
 */
#ifndef LANTERN_PARSE_PARSER_H
#define LANTERN_PARSE_PARSER_H

#include "ast/ast.h"
#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"

/*
 * Parse a whole script. Returns NULL after reporting the first error to d
 * (E_SYNTAX, a lexical code, E_BAD_ATTACH_POINT or E_TOO_DEEP); the parser
 * does not try to recover. The program, its strings and names live in a.
 */
struct program *parse_program(struct arena *a, const struct source *src, struct diag *d);

/*
 * Parse the bytes [range.lo, range.hi) of src as a file of its own: an
 * imported script (PARSE_SCRIPT), or a C header (PARSE_HEADER: its
 * directives and struct, union, enum and typedef definitions; other C
 * declarations are skipped). NULL after reporting an error to d.
 */
enum parse_mode { PARSE_SCRIPT, PARSE_HEADER };
struct program *parse_program_at(struct arena *a, const struct source *src, struct span range,
			   enum parse_mode mode, struct diag *d);

/*
 * Parse the bytes [range.lo, range.hi) of src as one expression, e.g. the
 * body of "#define K (3 + 4)" when sema expands a macro (bpftrace expands
 * object-like macros in expressions). Spans are offsets into src. Returns
 * NULL after reporting an error to d.
 */
struct expr *parse_expression(struct arena *a, const struct source *src, struct span range,
			      struct diag *d);

/* Whether a bare identifier is a builtin variable: pid, comm, arg3, sarg0, ... */
bool parse_is_builtin_var(const char *name, size_t len);

#endif
