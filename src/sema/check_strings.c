// SPDX-License-Identifier: MIT
/*
 * Today's bpftrace's functions of strings and memory: strlen, strcap,
 * strstr (and strcontains, which is strstr(h, n) >= 0 there), memcmp,
 * is_err. A string-like value is a string or an array of chars (int8,
 * uint8) in BPF memory; one in the kernel's memory is read with str()
 * first. Their code: codegen/gen_strings.c.
 */
#include "sema/check_stdlib.h"

/* the most byte pairs strstr() and memcmp() compare (their loops' budget) */
#define STRINGS_MAX_PAIRS 4096

static bool string_like(const struct type *t)
{
	return t->kind == TY_STR ||
	       (t->kind == TY_ARRAY && t->elem->kind == TY_INT && t->elem->size == 1);
}

static bool check_string_like(struct check *c, struct expr *a, const char *fn)
{
	struct type *t = sema_check_expr(c, a);

	if (string_like(t) || t->kind == TY_NONE)
		return t->kind != TY_NONE;
	CERR(c, a->span, E_ARG_TYPE, "%s() expects a string, got %s", fn, type_str_of(t));
	if (t->kind == TY_PTR || t->kind == TY_INT)
		CHINT(c, "read the string it points to with str()");
	return false;
}

/* strlen(s) (uint64), strcap(s) (int64: the size, known when compiling) */
struct type *sema_check_strlen(struct check *c, struct expr *e)
{
	if (!check_string_like(c, e->u.call.args.v[0], e->u.call.name))
		return &ty_none;
	return e->id == FN_STRLEN ? &ty_u64 : &ty_s64;
}

/* strstr(haystack, needle): the index of needle in haystack, or -1 */
struct type *sema_check_strstr(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	bool ok = check_string_like(c, a[0], e->u.call.name);

	ok &= check_string_like(c, a[1], e->u.call.name);
	if (!ok)
		return &ty_none;
	/* two nested loops the verifier walks through: keep them within its budget */
	if (a[0]->type->size * a[1]->type->size > STRINGS_MAX_PAIRS) {
		CERR(c, e->span, E_TOO_BIG,
		     "%s() of %u and %u bytes: lantern compares at most %u pairs of bytes",
		     e->u.call.name, a[0]->type->size, a[1]->type->size, STRINGS_MAX_PAIRS);
		CHINT(c, "read shorter strings, e.g. str(p, 64), or lower BPFTRACE_STRLEN");
		return &ty_none;
	}
	/* strcontains: a bool in today's bpftrace, 0.17's an integer */
	if (e->id == FN_STRCONTAINS)
		return c->p->modern ? &ty_bool : &ty_s64;
	return &ty_s64;
}

/* memcmp(left, right, count): 0 when the first count bytes are the same */
struct type *sema_check_memcmp(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	bool ok = true;

	for (int i = 0; i < 2; i++) {
		struct type *t = sema_check_expr(c, a[i]);
		if (t->kind == TY_NONE || t->kind == TY_VOID) {
			ok = false;
		} else if (type_is_scalar(t) || t->kind == TY_PTR) {
			CERR(c, a[i]->span, E_ARG_TYPE,
			     "memcmp() compares values in memory (strings, arrays, records, "
			     "buffers), not %s",
			     type_str_of(t));
			ok = false;
		}
	}
	ok &= sema_check_int(c, a[2], "memcmp");
	if (ok && a[0]->type->size > STRINGS_MAX_PAIRS) {
		CERR(c, e->span, E_TOO_BIG, "memcmp() of %u bytes: lantern compares at most %u",
		     a[0]->type->size, STRINGS_MAX_PAIRS);
		return &ty_none;
	}
	return ok ? type_int(4, true) : &ty_none;
}

/* is_err(ptr): true for the kernel's ERR_PTR values, -4095 to -1 */
struct type *sema_check_is_err(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.call.args.v[0]);

	if (t->kind != TY_INT && t->kind != TY_PTR && t->kind != TY_NONE) {
		CERR(c, e->u.call.args.v[0]->span, E_ARG_TYPE,
		     "is_err() expects a pointer or an integer, got %s", type_str_of(t));
		return &ty_none;
	}
	return &ty_bool;
}
