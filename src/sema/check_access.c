// SPDX-License-Identifier: MIT
/* Member access: args->field, tuple elements ($t.0), array and pointer indexing. */
#include "sema/check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* $t.N: element N of a tuple */
static struct type *check_tuple_elem(struct check *c, struct expr *e, struct type *t)
{
	const char *name = e->u.field.name;
	char *end;
	unsigned long n = strtoul(name, &end, 10);

	if (e->u.field.arrow || !isdigit((unsigned char)*name) || *end) {
		CERR(c, e->u.field.name_span, E_BAD_OPERAND, "a tuple's elements are read as .0, .1, ...");
		return &ty_none;
	}
	if (n >= t->nfields) {
		CERR(c, e->u.field.name_span, E_BAD_OPERAND, "tuple index %s is out of range",
		     name);
		CHINT(c, "the tuple %s has %u elements", type_str_of(t), t->nfields);
		return &ty_none;
	}
	e->info = &t->fields[n];
	return t->fields[n].type;
}

struct type *check_field(struct check *c, struct expr *e)
{
	struct type *t = check_expr(c, e->u.field.base);

	if (t->kind == TY_NONE)
		return t;
	if (t->kind == TY_TUPLE)
		return check_tuple_elem(c, e, t);
	if (t->kind != TY_CTX && t->kind != TY_RECORD) {
		struct expr *b = e->u.field.base;
		struct field *bf = b->kind == EXPR_FIELD ? b->info : NULL;
		if (t->kind == TY_PTR) {
			CERR(c, e->span, E_BAD_OPERAND, "cannot read field '%s' through %s",
			     e->u.field.name, bf && bf->ctype ? bf->ctype : type_str_of(t));
			CHINT(c, "reading a kernel struct through a pointer needs its layout from BTF, "
				 "which lantern does not support yet");
		} else {
			CERR(c, e->span, E_BAD_OPERAND, "%s has no fields", type_str_of(t));
		}
		return &ty_none;
	}
	for (uint32_t i = 0; i < t->nfields; i++) {
		if (!strcmp(t->fields[i].name, e->u.field.name)) {
			e->info = &t->fields[i];
			return t->fields[i].type;
		}
	}
	if (c->final) {
		const char *where = c->inst ? c->inst->name : "this probe";
		const char *best = NULL;
		unsigned bestd = 4;
		diag_error(&c->p->diag, e->u.field.name_span, E_UNKNOWN_FIELD,
			   "%s has no field '%s'", where, e->u.field.name);
		struct strbuf names = { 0 };
		for (uint32_t i = 0; i < t->nfields; i++) {
			unsigned d = edit_distance(e->u.field.name, t->fields[i].name, bestd);
			if (d < bestd) {
				bestd = d;
				best = t->fields[i].name;
			}
			sb_printf(&names, "%s%s", i ? ", " : "", t->fields[i].name);
		}
		if (best)
			diag_hint(&c->p->diag, "did you mean '%s'?", best);
		else
			diag_hint(&c->p->diag, "its fields are: %s", sb_str(&names));
		sb_free(&names);
	}
	return &ty_none;
}

struct type *check_index(struct check *c, struct expr *e)
{
	struct type *t = check_expr(c, e->u.index.base);
	int64_t idx;

	if (t->kind == TY_NONE)
		return t;
	if (t->kind == TY_ARRAY) {
		if (!check_const_int(c, e->u.index.index, &idx, "an array index"))
			return &ty_none;
		if (idx < 0 || (uint64_t)idx >= t->count) {
			CERR(c, e->u.index.index->span, E_TOO_BIG,
			     "index %lld is out of bounds for an array of %u elements", (long long)idx,
			     t->count);
			return &ty_none;
		}
		e->id = (int)idx;
		return t->elem;
	}
	if (t->kind == TY_PTR && t->elem && t->elem->kind == TY_INT) {
		check_int(c, e->u.index.index, "an index");
		return t->elem;
	}
	CERR(c, e->span, E_BAD_OPERAND, "%s cannot be indexed", type_str_of(t));
	return &ty_none;
}
