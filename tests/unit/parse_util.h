/* SPDX-License-Identifier: MIT */
/* Helpers for the lexer and parser tests: parse a text, get the dump or the errors. */
#ifndef LANTERN_TESTS_PARSE_UTIL_H
#define LANTERN_TESTS_PARSE_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ast/ast.h"
#include "base/diag.h"
#include "base/util.h"
#include "parse/parser.h"

/*
 * Parse text (n bytes) as "stdin". Returns a malloc'd string: the AST dump
 * on success, else the diagnostics. *ok tells which.
 */
static inline char *parse_text_n(const char *text, size_t n, bool *ok)
{
	struct source src;
	struct diag d;
	struct arena a = { 0 };
	struct strbuf out = { 0 };
	struct program *prog;
	char *res;

	source_init(&src, "stdin", text, n);
	diag_init(&d, &src);
	prog = parse_program(&a, &src, &d);
	if (prog) {
		ast_dump(prog, &out);
		sb_puts(&out, sb_str(&d.out)); /* warnings, if any */
	} else {
		sb_puts(&out, sb_str(&d.out));
		if (d.errors == 0)
			sb_puts(&out, "parse failed without an error\n");
	}
	*ok = prog != NULL;
	res = util_xstrdup(sb_str(&out));
	sb_free(&out);
	diag_free(&d);
	arena_free(&a);
	source_free(&src);
	return res;
}

static inline char *parse_text(const char *text, bool *ok)
{
	return parse_text_n(text, strlen(text), ok);
}

struct golden {
	const char *name;
	const char *script;
	const char *expect;
};

/* Run a table of goldens; every mismatch is printed, then the test fails. */
static inline void check_goldens(const struct golden *g, size_t n, bool want_ok)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		bool ok;
		char *got = parse_text(g[i].script, &ok);

		if (ok != want_ok || strcmp(got, g[i].expect)) {
			print_error("case '%s': %s\n--- script\n%s\n--- expected\n%s--- got\n%s\n",
				    g[i].name, ok == want_ok ? "output differs" : "wrong outcome",
				    g[i].script, g[i].expect, got);
			bad++;
		}
		free(got);
	}
	if (bad)
		fail_msg("%d of %zu cases failed", bad, n);
}

#endif
