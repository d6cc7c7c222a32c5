// SPDX-License-Identifier: MIT
/*
 * getopt("name" [, default [, "description"]]): a named parameter of the
 * script, given after `--` on the command line (`-- --name=value`,
 * `--flag`), known when compiling. Its type is the default's: a bool
 * without one (true when given bare, =true or =1; =false or =0 false), an
 * integer, a string. The script's options are gathered in the plan, which
 * compile() checks against what the command line gave
 * (compile_check_options()). Its code is a constant (gen_getopt()).
 */
#include "sema/check_stdlib.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "--name" or "--name=value" of the command line: its value, "" when bare; NULL when absent */
static const char *given(const struct plan *p, const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < p->opts->nnamed; i++) {
		const char *a = p->opts->named[i];
		if (!strncmp(a, name, n) && (a[n] == '=' || !a[n]))
			return a[n] ? a + n + 1 : "";
	}
	return NULL;
}

static void note_option(struct plan *p, const char *name, const char *desc, const char *type)
{
	vec_foreach(&p->script_options, o) if (!strcmp(o->name, name)) return;
	struct script_option o = { name, desc, type };
	vec_push(&p->script_options, o);
}

static bool parse_bool(const char *v, int64_t *out)
{
	if (!*v || !strcasecmp(v, "true") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcasecmp(v, "false") || !strcmp(v, "0"))
		*out = 0;
	else
		return false;
	return true;
}

struct type *sema_check_getopt(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	uint32_t n = e->u.call.args.n;
	struct getopt_value *g = ARENA_NEW(&c->p->arena, struct getopt_value);
	struct expr *def = n > 1 ? a[1] : NULL;
	int64_t neg = 0;

	if (a[0]->kind != EXPR_STR || (n > 2 && a[2]->kind != EXPR_STR)) {
		CERR(c, e->span, E_ARG_TYPE, "getopt()'s name and description are string literals");
		return &ty_none;
	}
	for (uint32_t i = 0; i < n; i++)
		a[i]->type = &ty_void;
	if (def && def->kind == EXPR_UNARY && def->u.unary.op == OP_NEG &&
	    def->u.unary.operand->kind == EXPR_INT) {
		neg = -(int64_t)def->u.unary.operand->u.ival;
		def->type = &ty_void;
	} else if (def && def->kind != EXPR_INT && def->kind != EXPR_BOOL && def->kind != EXPR_STR) {
		CERR(c, def->span, E_ARG_TYPE,
		     "getopt()'s default is a literal: a bool, an integer or a string");
		return &ty_none;
	}
	const char *name = a[0]->u.str, *v = given(c->p, name);
	bool is_bool = !def || def->kind == EXPR_BOOL, is_str = def && def->kind == EXPR_STR;
	note_option(c->p, name, n > 2 ? a[2]->u.str : NULL,
		    is_bool ? "bool" : is_str ? "string" : "int");
	e->info = g;
	if (is_str) {
		g->str = v && *v ? v : v ? "" : def->u.str;
		return type_str(&c->p->arena, strlen(g->str) + 1);
	}
	if (is_bool) {
		g->value = def ? (int64_t)def->u.ival : 0;
		if (v && !parse_bool(v, &g->value)) {
			CERR(c, e->span, E_ARG_TYPE,
			     "program command line option --%s invalid boolean (value: %s)", name, v);
			return &ty_none;
		}
		return &ty_bool;
	}
	g->value = def->kind == EXPR_INT ? (int64_t)def->u.ival : neg;
	if (!v)
		return &ty_s64;
	char *end;
	errno = 0;
	if (*v == '-')
		g->value = strtoll(v, &end, 0);
	else
		g->value = (int64_t)strtoull(v, &end, 0);
	if (!*v || *end || errno) {
		CERR(c, e->span, E_ARG_TYPE, "program command line option --%s invalid integer (value: %s)",
		     name, v);
		return &ty_none;
	}
	return *v != '-' && g->value < 0 ? &ty_u64 : &ty_s64;
}
