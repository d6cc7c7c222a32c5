// SPDX-License-Identifier: MIT
/*
 * A script's preamble, in order: #include lines (headers lantern reads
 * constants from when they are installed, see types/env.h), #define,
 * #undef, the conditionals #ifdef, #ifndef, #if, #elif, #else, #endif, and
 * C definitions (types/cdef.h). No other preprocessing: lantern needs no C
 * compiler. BPFTRACE_HAVE_BTF is defined when the kernel has BTF, as in
 * bpftrace, so a script's fallback definitions for kernels without it are
 * skipped.
 */
#include "sema/sema.h"
#include "types/cdef.h"
#include "types/cexpr.h"

#include <ctype.h>
#include <string.h>

#define MAX_NESTING 32

struct cond {
	bool taking; /* this branch's lines count */
	bool taken;  /* a branch of this #if has counted */
	bool outer;  /* the enclosing branch counts */
};

static bool defined(struct plan *p, const char *name)
{
	if (!strcmp(name, "BPFTRACE_HAVE_BTF"))
		return types_btf_src_load(&p->types.btf);
	vec_foreach(&p->types.consts, c)
	{
		if (!strcmp(c->name, name))
			return true;
	}
	return false;
}

struct if_ctx {
	struct plan *p;
};

static bool if_name(void *ctx, const char *name, int64_t *value)
{
	const struct constant *c = type_env_constant(&((struct if_ctx *)ctx)->p->types, name);

	/* an unknown name in #if is 0, as in C */
	*value = c && !c->str ? c->value : 0;
	return true;
}

/* "#if EXPR": defined(X) and defined X first, then the expression */
static bool if_true(struct plan *p, const char *expr)
{
	char buf[512];
	size_t n = 0;
	struct if_ctx ctx = { p };
	int64_t v;

	while (*expr && n + 2 < sizeof(buf)) {
		if (!strncmp(expr, "defined", 7) && !isalnum((unsigned char)expr[7]) && expr[7] != '_') {
			char name[128];
			size_t k = 0;
			expr += 7;
			while (*expr == ' ' || *expr == '(')
				expr++;
			while ((isalnum((unsigned char)*expr) || *expr == '_') && k + 1 < sizeof(name))
				name[k++] = *expr++;
			name[k] = 0;
			while (*expr == ' ' || *expr == ')')
				expr++;
			buf[n++] = defined(p, name) ? '1' : '0';
			continue;
		}
		buf[n++] = *expr++;
	}
	buf[n] = 0;
	return types_cexpr_eval(buf, if_name, &ctx, &v) && v;
}

/* The directive's word ("define", "ifdef") and where its argument starts. */
static const char *directive(const char *text, char *word, size_t n)
{
	size_t k = 0;

	text++; /* '#' */
	while (*text == ' ' || *text == '\t')
		text++;
	while (isalpha((unsigned char)*text) && k + 1 < n)
		word[k++] = *text++;
	word[k] = 0;
	while (*text == ' ' || *text == '\t')
		text++;
	return text;
}

/* The directive's text with the line continuations removed. */
static char *join_lines(struct plan *p, const char *text)
{
	char *out = arena_strdup(&p->arena, text), *w = out;

	for (const char *r = text; *r; r++) {
		if (*r == '\\' && r[1] == '\n') {
			r++;
			*w++ = ' ';
			continue;
		}
		*w++ = *r;
	}
	*w = 0;
	return out;
}

static void conditional(struct plan *p, const struct preamble *pre, const char *word,
			const char *arg, struct cond *stack, int *depth)
{
	struct cond *top = *depth ? &stack[*depth - 1] : NULL;
	bool outer = !top || top->taking;

	if (!strcmp(word, "ifdef") || !strcmp(word, "ifndef") || !strcmp(word, "if")) {
		bool v;
		if (*depth == MAX_NESTING) {
			diag_error(&p->diag, pre->span, E_TOO_DEEP, "#if nests more than %d deep", MAX_NESTING);
			return;
		}
		if (!strcmp(word, "if"))
			v = outer && if_true(p, arg);
		else
			v = outer && defined(p, arena_strndup(&p->arena, arg, strcspn(arg, " \t\n/")));
		if (!strcmp(word, "ifndef"))
			v = outer && !v;
		stack[(*depth)++] = (struct cond){ v, v, outer };
		return;
	}
	if (!top) {
		diag_error(&p->diag, pre->span, E_SYNTAX, "#%s without #if", word);
		return;
	}
	if (!strcmp(word, "endif")) {
		(*depth)--;
	} else if (!strcmp(word, "else")) {
		top->taking = top->outer && !top->taken;
		top->taken = true;
	} else { /* elif */
		top->taking = top->outer && !top->taken && if_true(p, arg);
		top->taken |= top->taking;
	}
}

/* #include <FILE> or "FILE": its integer macros are the script's constants (a missing file: an error, as in bpftrace) */
static void include(struct plan *p, const struct preamble *pre, const char *arg)
{
	const char *end = strpbrk(arg + 1, "\">");

	if ((*arg != '<' && *arg != '"') || !end)
		return;
	const char *name = arena_strndup(&p->arena, arg + 1, end - arg - 1);
	if (!type_env_header_found(&p->types, name)) {
		diag_error(&p->diag, pre->span, E_UNKNOWN_FILE, "'%s' file not found", name);
		diag_hint(&p->diag, "lantern looks in -I's directories, then /usr/include and "
				    "/usr/local/include");
		return;
	}
	vec_push(&p->types.includes, name);
}

int sema_preamble(struct plan *p)
{
	struct cond stack[MAX_NESTING];
	int depth = 0;

	for (uint32_t i = 0; i < p->ast->npre; i++) {
		const struct preamble *pre = p->ast->pre[i];
		bool taking = !depth || stack[depth - 1].taking;
		char word[16];
		const char *arg, *joined;

		if (pre->kind == PRE_CDEF) {
			if (taking)
				types_cdef_parse(&p->types, pre->text, pre->span.lo, &p->diag);
			continue;
		}
		joined = join_lines(p, pre->text);
		arg = directive(joined, word, sizeof(word));
		if (!strcmp(word, "ifdef") || !strcmp(word, "ifndef") || !strcmp(word, "if") ||
		    !strcmp(word, "elif") || !strcmp(word, "else") || !strcmp(word, "endif")) {
			conditional(p, pre, word, arg, stack, &depth);
		} else if (!taking) {
			continue;
		} else if (pre->kind == PRE_INCLUDE) {
			include(p, pre, arg);
		} else if (!strcmp(word, "define")) {
			types_cdef_define(&p->types, arg, pre->span.lo + (uint32_t)(arg - joined), &p->diag);
		} else if (!strcmp(word, "undef")) {
			size_t n = strcspn(arg, " \t\n");
			vec_foreach(&p->types.consts, c)
			{
				if (!strncmp(c->name, arg, n) && !c->name[n])
					c->name = "";
			}
		}
		/* other directives (#pragma, #error) are C compiler business: ignored */
	}
	return p->diag.errors ? -1 : 0;
}
