// SPDX-License-Identifier: MIT
/* printf(fmt, args...): the format is parsed once here and kept on the call. */
#include "output/printf.h"
#include "sema/check.h"

#include <stdlib.h>

/* The source span of bytes [off, off+len) of a string literal's value. */
static struct span literal_span(struct plan *p, struct expr *lit, size_t off, size_t len)
{
	/* exact when the literal has no escapes: "..." is its value plus quotes */
	if (lit->span.hi - lit->span.lo == lit->u.len + 2)
		return SPAN(lit->span.lo + 1 + off, lit->span.lo + 1 + off + (len ? len : 1));
	return lit->span;
}

static void free_fmt(void *p)
{
	out_printf_fmt_free(p);
	free(p);
}

struct type *sema_check_printf(struct check *c, struct expr *e)
{
	struct plan *p = c->p;
	struct expr *fe = e->u.call.args.v[0];
	uint32_t nargs = e->u.call.args.n - 1;
	struct printf_fmt *f = e->info;
	struct printf_error err;

	for (uint32_t i = 1; i <= nargs; i++)
		sema_check_expr(c, e->u.call.args.v[i]);
	/* a macro's string literal (`macro fmt() { "%d\n" }`): the literal */
	while (fe->kind == EXPR_BLOCK && fe->u.blk.value && !fe->u.blk.fn &&
	       (!fe->u.blk.body || !fe->u.blk.body->u.block.n))
		fe = e->u.call.args.v[0] = fe->u.blk.value;
	if (fe->kind != EXPR_STR) {
		sema_check_expr(c, fe);
		CERR(c, fe->span, E_PRINTF_FORMAT, "printf's format must be a string literal");
		return &ty_void;
	}
	fe->type = type_str(&p->arena, fe->u.len + 1);
	if (!f) {
		f = util_xcalloc(1, sizeof(*f));
		if (!out_printf_parse(f, fe->u.str, fe->u.len, &err)) {
			CERR(c, literal_span(p, fe, err.off, err.len), E_PRINTF_FORMAT, "printf: %s",
			     err.msg);
			if (err.hint[0])
				CHINT(c, "%s", err.hint);
			free_fmt(f);
			return &ty_void;
		}
		plan_defer_free(p, free_fmt, f);
		e->info = f;
	}

	struct strbuf msg = { 0 };
	if (!out_printf_check_count(f, nargs, &msg)) {
		CERR(c, e->span, E_PRINTF_FORMAT, "printf: %s", sb_str(&msg));
		sb_reset(&msg);
		if (out_printf_count_hint(f, &msg))
			CHINT(c, "%s", sb_str(&msg));
		sb_free(&msg);
		return &ty_void;
	}
	for (uint32_t i = 0; i < nargs; i++) {
		struct expr *a = e->u.call.args.v[i + 1];
		if (a->type->kind == TY_NONE)
			continue;
		/* today's bpftrace: %s of an enum's value prints its member's name */
		if (a->type->kind == TY_INT && a->type->en && f->specs[i].conv == FMT_CONV_S)
			continue;
		/* today's bpftrace: %s of a bool prints true or false */
		if (a->type->is_bool && out_printf_spec_want(&f->specs[i]) == FMT_WANT_STR)
			continue;
		if (!out_printf_check_arg(&f->specs[i], out_fmt_kind_of(a->type), &msg)) {
			CERR(c, a->span, E_PRINTF_FORMAT, "printf: %s", sb_str(&msg));
			break;
		}
	}
	sb_free(&msg);
	return &ty_void;
}
