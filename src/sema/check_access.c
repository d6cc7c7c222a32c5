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

/* The names of a record's fields (and of its anonymous members'), for hints. */
static void field_names(const struct type *t, struct strbuf *names, const char *want,
			const char **best, unsigned *bestd)
{
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct field *f = &t->fields[i];
		unsigned d;
		if (f->name && !*f->name && f->type->kind == TY_RECORD) {
			field_names(f->type, names, want, best, bestd);
			continue;
		}
		if (!f->name)
			continue;
		d = util_edit_distance(want, f->name, *bestd);
		if (d < *bestd) {
			*bestd = d;
			*best = f->name;
		}
		if (names->len < 300)
			sb_printf(names, "%s%s", names->len ? ", " : "", f->name);
		else if (!strstr(sb_str(names), "..."))
			sb_puts(names, ", ...");
	}
}

static void unknown_field(struct check *c, struct expr *e, const struct type *t)
{
	const char *best = NULL;
	unsigned bestd = 4;
	struct strbuf names = { 0 };

	if (!c->final)
		return;
	if (t->kind == TY_CTX)
		diag_error(&c->p->diag, e->u.field.name_span, E_UNKNOWN_FIELD, "%s has no field '%s'",
			   c->inst->name, e->u.field.name);
	else
		diag_error(&c->p->diag, e->u.field.name_span, E_UNKNOWN_FIELD, "%s has no field '%s'",
			   type_str_of(t), e->u.field.name);
	field_names(t, &names, e->u.field.name, &best, &bestd);
	if (best)
		diag_hint(&c->p->diag, "did you mean '%s'?", best);
	else if (names.len)
		diag_hint(&c->p->diag, "its fields are: %s", sb_str(&names));
	sb_free(&names);
}

/*
 * A field of a struct or union: '.' on a record value, '->' through a
 * pointer to one. e->info is the field, e->id its offset in the record
 * (anonymous members included). A pointer read from user memory points
 * there too.
 */
static struct type *check_record_field(struct check *c, struct expr *e, struct type *t)
{
	bool arrow = e->u.field.arrow, user;
	struct type *r = t;
	const struct field *f;
	uint32_t off;

	if (t->kind == TY_PTR) {
		r = type_elem(t);
		if (r->kind != TY_RECORD) {
			CERR(c, e->span, E_BAD_OPERAND, "%s does not point to a struct or union: it has no fields",
			     type_str_of(t));
			return &ty_none;
		}
		if (!arrow) {
			CERR(c, e->span, E_BAD_OPERAND, "%s is a pointer: read its fields with '->'",
			     type_str_of(t));
			return &ty_none;
		}
		user = t->user;
	} else {
		if (arrow) {
			CERR(c, e->span, E_BAD_OPERAND, "%s is not a pointer: read its fields with '.'",
			     type_str_of(t));
			return &ty_none;
		}
		user = sema_expr_user_mem(e->u.field.base);
	}
	if (!(f = type_field(r, e->u.field.name, &off))) {
		unknown_field(c, e, r);
		return &ty_none;
	}
	e->info = (void *)f;
	e->id = (int)off;
	return sema_type_in_space(c, f->type, user);
}

struct type *sema_check_field(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.field.base);

	if (t->kind == TY_NONE)
		return t;
	if (t->kind == TY_TUPLE)
		return check_tuple_elem(c, e, t);
	if (t->kind == TY_RECORD || t->kind == TY_PTR)
		return check_record_field(c, e, t);
	if (t->kind != TY_CTX) {
		CERR(c, e->span, E_BAD_OPERAND, "%s has no fields", type_str_of(t));
		return &ty_none;
	}
	for (uint32_t i = 0; i < t->nfields; i++) {
		if (!strcmp(t->fields[i].name, e->u.field.name)) {
			e->info = &t->fields[i];
			return t->fields[i].type;
		}
	}
	/* args->retval of a syscall's exit: its old name */
	if (!strcmp(e->u.field.name, "retval") &&
	    !strncmp(c->inst->name, "tracepoint:syscalls:sys_exit_", 29)) {
		sema_check_old_spelling(c, e->u.field.name_span, "args->retval", "args->ret");
		e->u.field.name = "ret";
		return sema_check_field(c, e);
	}
	unknown_field(c, e, t);
	return &ty_none;
}

struct type *sema_check_index(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.index.base);
	int64_t idx;

	if (t->kind == TY_NONE)
		return t;
	if (t->kind == TY_ARRAY) {
		if (!sema_check_const_int(c, e->u.index.index, &idx, "an array index"))
			return &ty_none;
		if (idx < 0 || (uint64_t)idx >= t->count) {
			CERR(c, e->u.index.index->span, E_TOO_BIG,
			     "index %lld is out of bounds for an array of %u elements", (long long)idx,
			     t->count);
			return &ty_none;
		}
		e->id = (int)idx;
		return sema_type_in_space(c, t->elem, sema_expr_user_mem(e->u.index.base));
	}
	if (t->kind == TY_PTR) {
		struct type *to = type_elem(t);
		sema_check_int(c, e->u.index.index, "an index");
		if (to->kind == TY_VOID || !to->size) {
			CERR(c, e->span, E_BAD_OPERAND, "cannot index %s: what it points to has no size",
			     type_str_of(t));
			return &ty_none;
		}
		return sema_type_in_space(c, to, t->user);
	}
	CERR(c, e->span, E_BAD_OPERAND, "%s cannot be indexed", type_str_of(t));
	return &ty_none;
}
