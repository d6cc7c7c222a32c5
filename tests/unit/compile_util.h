/* SPDX-License-Identifier: MIT */
/*
 * Compile a script in a unit test, through compile() (no kernel object is
 * made). Tracepoints need the tracefs fixture (tracefs_set_path) or root.
 */
#ifndef LANTERN_TESTS_COMPILE_UTIL_H
#define LANTERN_TESTS_COMPILE_UTIL_H

#include <string.h>

#include "compile/compile.h"

struct compiled {
	struct compile_opts opts;
	struct plan plan;
	struct strbuf dump; /* the -d stages asked for in opts.dump */
	int rc;		    /* 0: compiled; -1: errors (in diag) */
};

static inline int compile_script_in(struct compiled *c, const char *script, char **params,
				    int nparams, unsigned dump, enum dialect dialect)
{
	memset(c, 0, sizeof(*c));
	c->opts.script_name = "stdin";
	c->opts.script = (char *)script;
	c->opts.params = params;
	c->opts.nparams = nparams;
	c->opts.dump = dump;
	c->opts.dialect = dialect;
	return c->rc = compile(&c->plan, &c->opts, &c->dump);
}

static inline int compile_script_dump(struct compiled *c, const char *script, char **params,
				      int nparams, unsigned dump)
{
	return compile_script_in(c, script, params, nparams, dump, DIALECT_AUTO);
}

static inline int compile_script(struct compiled *c, const char *script, char **params, int nparams)
{
	return compile_script_dump(c, script, params, nparams, 0);
}

/* What the diagnostics printed. */
static inline const char *compiled_diag(struct compiled *c)
{
	return sb_str(&c->plan.diag.out);
}

static inline void compiled_free(struct compiled *c)
{
	plan_free(&c->plan);
	sb_free(&c->dump);
}

#endif
