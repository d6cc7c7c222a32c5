/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics. Every user-facing error has a source span and a stable code:
 *
 *   stdin:1:9-14: ERROR: unknown function 'prinf' [E200]
 *   BEGIN { prinf("hi"); }
 *           ~~~~~
 *   HINT: did you mean 'printf'?
 *
 * "ERROR:", "WARNING:" and "HINT:" are bpftrace's words, which its users'
 * scripts grep for; the code ends the message's first line, so that line
 * reads as bpftrace's. Codes are stable: tests and users refer to them.
 * Add new ones at the end of their group, never renumber.
 */
#ifndef LANTERN_BASE_DIAG_H
#define LANTERN_BASE_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "base/source.h"
#include "base/strbuf.h"

#define DIAG_CODES(X)                                                                              \
	/* lexical and syntax */                                                                   \
	X(E_SCRIPT, 0) /* the script's own words (errorf, warnf, fail): no code shown */ \
	X(E_BAD_CHAR, 100)                                                                         \
	X(E_UNTERMINATED_STRING, 101)                                                              \
	X(E_BAD_ESCAPE, 102)                                                                       \
	X(E_BAD_NUMBER, 103)                                                                       \
	X(E_UNTERMINATED_COMMENT, 104)                                                             \
	X(E_SYNTAX, 110)                                                                           \
	X(E_BAD_ATTACH_POINT, 111)                                                                 \
	X(E_TOO_DEEP, 112)                                                                         \
	X(E_DIALECT, 113)                                                                          \
	/* names */                                                                                \
	X(E_UNKNOWN_FUNCTION, 200)                                                                 \
	X(E_UNKNOWN_IDENT, 201)                                                                    \
	X(E_UNKNOWN_PROBE_TYPE, 202)                                                               \
	X(E_UNKNOWN_TRACEPOINT, 203)                                                               \
	X(E_UNKNOWN_FIELD, 204)                                                                    \
	X(E_UNDEFINED_VAR, 205)                                                                    \
	X(E_POSITIONAL, 206)                                                                       \
	X(E_NO_PROBES, 207)                                                                        \
	X(E_BUILTIN_CONTEXT, 208)                                                                  \
	X(E_UNSUPPORTED, 209)                                                                      \
	X(E_UNKNOWN_FILE, 210)                                                                     \
	X(E_UNKNOWN_SYMBOL, 211)                                                                   \
	X(E_UNKNOWN_TYPE, 212)                                                                     \
	X(E_REDECLARED, 213)                                                                       \
	X(E_UNKNOWN_CONFIG, 214)                                                                   \
	X(E_RECURSIVE, 215)  /* a macro, function or import that leads back to itself */          \
	X(E_UNHYGIENIC, 216) /* a macro body naming a map or variable it was not given */          \
	X(E_IMPORT, 217)     /* an import not found, unreadable or of an unknown kind */            \
	/* types */                                                                                \
	X(E_TYPE_MISMATCH, 300)                                                                    \
	X(E_MAP_TYPE_CLASH, 301)                                                                   \
	X(E_ARG_COUNT, 302)                                                                        \
	X(E_ARG_TYPE, 303)                                                                         \
	X(E_AGG_MISUSE, 304)                                                                       \
	X(E_PRINTF_FORMAT, 305)                                                                    \
	X(E_TOO_BIG, 306)                                                                          \
	X(E_BAD_OPERAND, 307)                                                                      \
	X(E_MAP_KEY_CLASH, 308)                                                                    \
	X(E_VAR_TYPE_CLASH, 309)                                                                   \
	X(E_NOT_CONSTANT, 310)                                                                     \
	X(E_BAD_ASSIGN, 311)                                                                       \
	X(E_MAP_UNUSED, 312)                                                                       \
	X(E_BAD_CAST, 313)                                                                         \
	X(E_LOOP_CONTROL, 314)                                                                     \
	X(E_RETURN, 315)    /* a function's return against its type */                             \
	X(E_DISCARDED, 316) /* (a warning) a statement's value thrown away */                      \
	X(E_UNREACHABLE, 317) /* (a warning) a statement after return, exit(), break, continue */  \
	/* probes, loading, attaching */                                                           \
	X(E_ATTACH, 400)                                                                           \
	X(E_MECHANISM_MISSING, 401)                                                                \
	X(E_PERMISSION, 402)                                                                       \
	X(E_TOO_MANY_PROBES, 403)                                                                  \
	X(E_VERIFIER, 500)                                                                         \
	X(E_MAP_CREATE, 501)                                                                       \
	X(E_CODEGEN, 502)                                                                          \
	X(E_HELPER_FAILED, 503)                                                                    \
	X(E_RUNTIME_CHECK, 504)

enum diag_code {
#define X(name, num) name = num,
	DIAG_CODES(X)
#undef X
};

enum diag_level { DIAG_ERROR, DIAG_WARNING };

struct diag {
	const struct source *src; /* may be NULL: messages then carry no position */
	struct strbuf out;	  /* everything reported so far */
	int errors, warnings;
	int max_errors; /* stop recording after this many (0: 20) */
	bool no_warnings; /* --no-warnings: warnings are counted, not printed */
	bool last_hidden; /* the last message was not recorded: nor are its hints */
	/* warnings said (where, which): one is said once, however often its code is
	   checked (a function inlined twice, a probe's programs) */
	struct diag_said {
		struct span sp;
		int code;
	} said[32];
	unsigned nsaid;
};

void diag_init(struct diag *d, const struct source *src);
void diag_free(struct diag *d);
void diag_report(struct diag *d, enum diag_level lvl, struct span sp, enum diag_code code,
		 const char *fmt, ...) PRINTF_LIKE(5, 6);
#define diag_error(d, sp, code, ...) diag_report((d), DIAG_ERROR, (sp), (code), __VA_ARGS__)
#define diag_warn(d, sp, code, ...) diag_report((d), DIAG_WARNING, (sp), (code), __VA_ARGS__)
/* A "HINT: ..." line under the last message. */
void diag_hint(struct diag *d, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Write what was recorded to f and forget it. */
void diag_flush(struct diag *d, FILE *f);

#endif
