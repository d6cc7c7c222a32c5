/* SPDX-License-Identifier: MIT */
/*
 * Compile a script in a unit test, short of the kernel: parse, expand,
 * check, generate IR. Only BEGIN, END and interval probes (no tracefs).
 */
#ifndef LANTERN_TESTS_COMPILE_UTIL_H
#define LANTERN_TESTS_COMPILE_UTIL_H

#include <string.h>

#include "parse/parser.h"
#include "runtime/load.h"
#include "sema/sema.h"

struct compiled {
	struct options opts;
	struct session s;
	int rc; /* 0: compiled; -1: errors (in diag) */
};

static inline int compile_script(struct compiled *c, const char *script, char **params, int nparams)
{
	memset(c, 0, sizeof(*c));
	c->opts.script_name = "stdin";
	c->opts.script = (char *)script;
	c->opts.params = params;
	c->opts.nparams = nparams;
	session_init(&c->s, &c->opts);
	c->s.prog = parse_program(&c->s.arena, &c->s.src, &c->s.diag);
	if (!c->s.prog || sema_expand(&c->s) < 0 || sema_check(&c->s) < 0)
		return c->rc = -1;
	plan_programs(&c->s);
	plan_maps(&c->s);
	return c->rc = generate(&c->s);
}

/* What the diagnostics printed. */
static inline const char *compiled_diag(struct compiled *c)
{
	return sb_str(&c->s.diag.out);
}

static inline void compiled_free(struct compiled *c)
{
	session_free(&c->s);
}

#endif
