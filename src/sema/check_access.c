// SPDX-License-Identifier: MIT
/*
 * Member access: args->field, tuple elements ($t.0), array and pointer
 * indexing; today's bpftrace's records ($r.name), `.` through a pointer
 * (as `->`), `->` on a struct value (as `.`), tuples indexed like arrays
 * ($t[1], a constant), strings indexed ($s[i]) and array elements at an
 * index known only when the probe runs (checked against the bounds then).
 */
#include "sema/check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* $r.name: the field of a record */
static struct type *check_record_elem(struct check *c, struct expr *e, struct type *t)
{
	struct strbuf names = { 0 };

	for (uint32_t i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].name, e->u.field.name)) {
			e->info = &t->fields[i];
			return t->fields[i].type;
		}
	if (!c->final)
		return &ty_none;
	for (uint32_t i = 0; i < t->nfields; i++)
		sb_printf(&names, "%s%s", i ? ", " : "", t->fields[i].name);
	CERR(c, e->u.field.name_span, E_UNKNOWN_FIELD, "the record has no field '%s'",
	     e->u.field.name);
	CHINT(c, "its fields are: %s", sb_str(&names));
	sb_free(&names);
	return &ty_none;
}

/* $t.N: element N of a tuple */
static struct type *check_tuple_elem(struct check *c, struct expr *e, struct type *t)
{
	const char *name = e->u.field.name;
	char *end;
	unsigned long n = strtoul(name, &end, 10);

	if (type_is_named_tuple(t))
		return check_record_elem(c, e, t);
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

/* --dialect 0.17: bpftrace 0.17's errors where today's bpftrace reads more */
static bool old_dialect(const struct check *c)
{
	return c->p->opts->dialect == DIALECT_0_17;
}

/*
 * A field of a struct or union: '.' on a record value, '->' through a
 * pointer to one. e->info is the field, e->id its offset in the record
 * (anonymous members included). A pointer read from user memory points
 * there too.
 */
static struct type *check_record_field(struct check *c, struct expr *e, struct type *t)
{
	bool arrow = e->u.field.arrow;
	enum mem_space space;
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
		if (!arrow && old_dialect(c)) {
			CERR(c, e->span, E_BAD_OPERAND, "%s is a pointer: read its fields with '->'",
			     type_str_of(t));
			return &ty_none;
		}
		/* `.` through a pointer is `->` (today's bpftrace; 0.17 refuses it) */
		e->u.field.arrow = true;
		space = type_space(t);
	} else {
		if (arrow && old_dialect(c)) {
			CERR(c, e->span, E_BAD_OPERAND, "%s is not a pointer: read its fields with '.'",
			     type_str_of(t));
			return &ty_none;
		}
		/* `->` on a struct value is `.` (today's bpftrace; 0.17 refuses it) */
		e->u.field.arrow = false;
		space = sema_expr_space(e->u.field.base);
	}
	if (!(f = type_field(r, e->u.field.name, &off))) {
		unknown_field(c, e, r);
		return &ty_none;
	}
	e->info = (void *)f;
	e->id = (int)off;
	/* a struct value (not through a pointer) in the program's memory: its pointers as
	   they were */
	if (!e->u.field.arrow && space == SPACE_KERNEL)
		return f->type;
	return sema_type_in_space(c, f->type, space);
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

/* A constant index: an integer literal, or one a constant expression folds to */
/*
 * An element of an array: a pointer read from user memory points there;
 * one in the program's or the kernel's memory stays as it was.
 */
static struct type *elem_in_space(struct check *c, struct type *elem, const struct expr *base)
{
	enum mem_space space = sema_expr_space(base);
	return space != SPACE_KERNEL ? sema_type_in_space(c, elem, space) : elem;
}

static bool const_index(struct expr *x, int64_t *v)
{
	int64_t a, b;

	switch (x->kind) {
	case EXPR_INT:
		*v = (int64_t)x->u.ival;
		return true;
	case EXPR_UNARY:
		if (x->u.unary.op != OP_NEG || !const_index(x->u.unary.operand, v))
			return false;
		*v = -*v;
		return true;
	case EXPR_BINARY:
		if (!const_index(x->u.binary.lhs, &a) || !const_index(x->u.binary.rhs, &b))
			return false;
		switch (x->u.binary.op) {
		case OP_ADD:
			*v = a + b;
			return true;
		case OP_SUB:
			*v = a - b;
			return true;
		case OP_MUL:
			*v = a * b;
			return true;
		default:
			return false;
		}
	default:
		return false;
	}
}

/* $t[N]: a tuple's element N, N a constant (today's bpftrace) */
static struct type *check_tuple_index(struct check *c, struct expr *e, struct type *t)
{
	int64_t n;

	sema_check_expr(c, e->u.index.index);
	if (!const_index(e->u.index.index, &n)) {
		CERR(c, e->u.index.index->span, E_NOT_CONSTANT,
		     "a tuple's index must be a constant");
		CHINT(c, "its elements may have different types: which one is known when the "
			 "script is compiled");
		return &ty_none;
	}
	if (n < 0 || (uint64_t)n >= t->nfields) {
		CERR(c, e->u.index.index->span, E_BAD_OPERAND, "tuple index %lld is out of range",
		     (long long)n);
		CHINT(c, "the tuple %s has %u elements", type_str_of(t), t->nfields);
		return &ty_none;
	}
	e->id = (int)n;
	e->info = &t->fields[n];
	return t->fields[n].type;
}

struct type *sema_check_index(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.index.base);
	int64_t idx;

	if (t->kind == TY_NONE)
		return t;
	if (t->kind == TY_TUPLE && !type_is_named_tuple(t))
		return check_tuple_index(c, e, t);
	if (t->kind == TY_STR) {
		/* $s[i]: a byte of the string (today's bpftrace), checked against its size */
		if (!sema_check_int(c, e->u.index.index, "a string index"))
			return &ty_none;
		e->id = -1;
		if (const_index(e->u.index.index, &idx) &&
		    (idx < 0 || (uint64_t)idx >= t->size)) {
			CERR(c, e->u.index.index->span, E_TOO_BIG,
			     "index %lld is out of bounds for a string of %u bytes", (long long)idx,
			     t->size);
			return &ty_none;
		}
		return &ty_s8;
	}
	if (t->kind == TY_ARRAY) {
		if (!sema_check_int(c, e->u.index.index, "an array index"))
			return &ty_none;
		if (!const_index(e->u.index.index, &idx) &&
		    !(e->u.index.index->kind == EXPR_POSITIONAL &&
		      plan_param_int(c->p, e->u.index.index->u.num, &idx))) {
			/* known when the probe runs: checked against the bounds then */
			e->id = -1;
			return elem_in_space(c, t->elem, e->u.index.base);
		}
		/* int y[0] (or y[]) at a struct's end: as many as there are (a C flexible array) */
		if (idx < 0 || ((uint64_t)idx >= t->count && t->count)) {
			CERR(c, e->u.index.index->span, E_TOO_BIG,
			     "the index %lld is out of bounds for array of size %u", (long long)idx,
			     t->count);
			return &ty_none;
		}
		e->id = (int)idx;
		return elem_in_space(c, t->elem, e->u.index.base);
	}
	if (t->kind == TY_PTR) {
		struct type *to = type_elem(t);
		sema_check_int(c, e->u.index.index, "an index");
		if (to->kind == TY_VOID || !to->size) {
			CERR(c, e->span, E_BAD_OPERAND, "cannot index %s: what it points to has no size",
			     type_str_of(t));
			return &ty_none;
		}
		return sema_type_in_space(c, to, type_space(t));
	}
	CERR(c, e->span, E_BAD_OPERAND, "%s cannot be indexed", type_str_of(t));
	return &ty_none;
}

struct type *sema_check_record(struct check *c, struct expr *e)
{
	struct type *el[64];
	uint32_t n = e->u.record.vals.n;
	bool known = true;

	if (n > ARRAY_SIZE(el)) {
		CERR(c, e->span, E_TOO_BIG, "a record has at most %zu fields", ARRAY_SIZE(el));
		return &ty_none;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct type *t = sema_args_value(c, e->u.record.vals.v[i], sema_check_expr(c, e->u.record.vals.v[i]));
		if (type_is_agg(t) || t->kind == TY_VOID || t->kind == TY_CTX) {
			CERR(c, e->u.record.vals.v[i]->span, E_BAD_ASSIGN,
			     "%s cannot be a record's field", type_str_of(t));
			t = &ty_none;
		}
		known &= t->kind != TY_NONE;
		el[i] = type_stored(&c->p->arena, t);
	}
	return known ? type_named_tuple(&c->p->arena, el, e->u.record.names, n) : &ty_none;
}
