// SPDX-License-Identifier: MIT
#include "types/type.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

#define INT_TYPE(sz, sg) { .kind = TY_INT, .size = (sz), .align = (sz), .is_signed = (sg) }

struct type ty_none = { .kind = TY_NONE };
struct type ty_void = { .kind = TY_VOID };
struct type ty_u8 = INT_TYPE(1, false), ty_u16 = INT_TYPE(2, false), ty_u32 = INT_TYPE(4, false),
	    ty_u64 = INT_TYPE(8, false);
struct type ty_s8 = INT_TYPE(1, true), ty_s16 = INT_TYPE(2, true), ty_s32 = INT_TYPE(4, true),
	    ty_s64 = INT_TYPE(8, true);
/* today's bpftrace's bool: an unsigned integer printed true or false */
struct type ty_bool = { .kind = TY_INT, .size = 8, .align = 8, .is_bool = true };
struct type ty_lit = { .kind = TY_INT, .size = 8, .align = 8, .is_signed = true, .literal = true };
struct type ty_probe = { .kind = TY_PROBE, .size = 8, .align = 8 };
struct type ty_comm = { .kind = TY_STR, .size = 16, .align = 8, .strsize = 16 };
struct type ty_count = { .kind = TY_COUNT, .size = 8, .align = 8 };
struct type ty_inet = { .kind = TY_INET, .size = 24, .align = 8 };
struct type ty_macaddr = { .kind = TY_MACADDR, .size = 8, .align = 8 };
struct type ty_strerror = { .kind = TY_STRERROR, .size = 8, .align = 8, .count = NAME_ERRNO };
struct type ty_signame = { .kind = TY_STRERROR, .size = 8, .align = 8, .count = NAME_SIGNAL };
struct type ty_sysname = { .kind = TY_STRERROR, .size = 8, .align = 8, .count = NAME_SYSCALL };
struct type ty_cgpath = { .kind = TY_CGPATH, .size = 8, .align = 8 };
struct type ty_username = { .kind = TY_USERNAME, .size = 8, .align = 8 };

struct type *type_int(unsigned size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? &ty_s8 : &ty_u8;
	case 2:
		return is_signed ? &ty_s16 : &ty_u16;
	case 4:
		return is_signed ? &ty_s32 : &ty_u32;
	default:
		return is_signed ? &ty_s64 : &ty_u64;
	}
}

struct type *type_enum(struct arena *a, unsigned size, bool is_signed, const struct enum_info *en)
{
	struct type *t = ARENA_NEW(a, struct type);

	*t = *type_int(size, is_signed);
	t->en = en;
	return t;
}

const char *type_enum_name(const struct enum_info *en, int64_t v)
{
	for (uint32_t i = 0; en && i < en->n; i++)
		if (en->values[i] == v)
			return en->names[i];
	return NULL;
}

struct type *type_str(struct arena *a, uint32_t size)
{
	struct type *t = ARENA_NEW(a, struct type);
	t->kind = TY_STR;
	t->strsize = size ? size : 1;
	t->size = ALIGN_UP(size ? size : 1, 8);
	t->align = 8;
	return t;
}

struct type *type_ptr(struct arena *a, struct type *elem, bool user)
{
	struct type *t = ARENA_NEW(a, struct type);
	t->kind = TY_PTR;
	t->size = t->align = 8;
	t->elem = elem;
	t->user = user;
	return t;
}

struct type *type_ptr_lazy(struct arena *a, struct type_src *src, uint32_t id, bool user)
{
	struct type *t = type_ptr(a, NULL, user);

	t->src = src;
	t->src_id = id;
	return t;
}

/* Whether pointers and arrays lead from t to ptr (their chains are finite: see type_elem) */
static bool leads_to(const struct type *t, const struct type *ptr)
{
	for (; t && (t->kind == TY_PTR || t->kind == TY_ARRAY); t = t->elem)
		if (t == ptr)
			return true;
	return false;
}

struct type *type_elem(struct type *t)
{
	if (!t->elem && t->src) {
		struct type *e = t->src->resolve(t->src, t->src_id);
		/*
		 * A pointer to itself: broken debug info (a pointer DIE whose type
		 * is itself) or a definition such as "typedef T *T". Every other
		 * walk of types follows elem and would never end: void instead.
		 */
		t->elem = leads_to(e, t) ? &ty_void : e;
	}
	if (!t->elem)
		t->elem = &ty_void;
	return t->elem;
}

uint32_t type_step(struct type *t)
{
	struct type *to = type_elem(t);
	return to->size ? to->size : 1;
}

struct type *type_record(struct arena *a, const char *name, uint32_t size, uint32_t align,
			 uint32_t nfields)
{
	struct type *t = ARENA_NEW(a, struct type);

	t->kind = TY_RECORD;
	t->name = name;
	t->size = size;
	t->align = align ? align : 1;
	t->fields = ARENA_ARRAY(a, struct field, nfields ? nfields : 1);
	t->nfields = nfields;
	return t;
}

const struct field *type_field(const struct type *t, const char *name, uint32_t *offset)
{
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct field *f = &t->fields[i];
		if (f->name && !strcmp(f->name, name)) {
			*offset = f->offset;
			return f;
		}
	}
	/* anonymous structs and unions: their members are the record's */
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct field *f = &t->fields[i];
		uint32_t inner;
		if (f->name && *f->name)
			continue;
		if (f->type->kind == TY_RECORD && (f = type_field(t->fields[i].type, name, &inner))) {
			*offset = t->fields[i].offset + inner;
			return f;
		}
	}
	return NULL;
}

struct type *type_array(struct arena *a, struct type *elem, uint32_t count)
{
	struct type *t = ARENA_NEW(a, struct type);
	t->kind = TY_ARRAY;
	t->elem = elem;
	t->count = count;
	t->size = elem->size * count;
	t->align = elem->align ? elem->align : 1;
	return t;
}

struct type *type_tuple(struct arena *a, struct type **elems, uint32_t n)
{
	struct type *t = ARENA_NEW(a, struct type);
	uint32_t off = 0, align = 1;

	t->kind = TY_TUPLE;
	t->fields = ARENA_ARRAY(a, struct field, n);
	t->nfields = n;
	for (uint32_t i = 0; i < n; i++) {
		struct type *el = elems[i];
		if (el->kind == TY_STR && (el->size != el->strsize || el->align != 1)) {
			/* a string in a tuple takes its bytes, byte-aligned (as C's char[N] in bpftrace's) */
			struct type *s = ARENA_NEW(a, struct type);
			*s = *el;
			s->size = s->strsize;
			s->align = 1;
			el = s;
		}
		uint32_t al = el->align ? el->align : 1;
		off = ALIGN_UP(off, al);
		t->fields[i].type = el;
		t->fields[i].offset = off;
		off += el->size;
		align = MAX(align, al);
	}
	t->align = align;
	t->size = ALIGN_UP(off, align);
	return t;
}

struct type *type_named_tuple(struct arena *a, struct type **elems, const char **names,
			      uint32_t n)
{
	struct type *t = type_tuple(a, elems, n);

	for (uint32_t i = 0; i < n; i++)
		t->fields[i].name = names[i];
	return t;
}

/* The same fields, with elems[i] for each: a tuple, or a record with t's names. */
static struct type *retuple(struct arena *a, const struct type *t, struct type **elems, uint32_t n)
{
	if (!type_is_named_tuple(t))
		return type_tuple(a, elems, n);
	const char **names = ARENA_ARRAY(a, const char *, n ? n : 1);
	for (uint32_t i = 0; i < n; i++)
		names[i] = t->fields[i].name;
	return type_named_tuple(a, elems, names, n);
}

struct type *type_agg(struct arena *a, enum type_kind kind, bool is_signed)
{
	struct type *t = ARENA_NEW(a, struct type);
	t->kind = kind;
	t->is_signed = is_signed;
	t->align = 8;
	switch (kind) {
	case TY_COUNT:
	case TY_SUM:
		t->size = 8;
		break;
	case TY_MIN:
	case TY_MAX: /* value, is-set */
	case TY_AVG:
	case TY_STATS: /* total, count */
		t->size = 16;
		break;
	case TY_TSERIES:
		t->size = sizeof(struct ts_bucket);
		break;
	default: /* hist, lhist: a u64 count per bucket, the bucket in the key */
		t->size = 8;
		break;
	}
	return t;
}

struct type *type_stack(struct arena *a, bool user, bool perf, uint32_t frames)
{
	struct type *t = ARENA_NEW(a, struct type);

	t->kind = TY_STACK;
	t->user = user;
	t->perf = perf;
	t->count = frames;
	t->size = user ? 16 : 8;
	t->align = 8;
	return t;
}

struct type *type_timestamp(struct arena *a, const char *fmt)
{
	struct type *t = ARENA_NEW(a, struct type);

	t->kind = TY_TIMESTAMP;
	t->name = fmt;
	t->size = t->align = 8;
	return t;
}

struct type *type_buf(struct arena *a, uint32_t n)
{
	struct type *t = ARENA_NEW(a, struct type);

	t->kind = TY_BUF;
	t->count = n;
	t->size = 8 + ALIGN_UP(n ? n : 1, 8);
	t->align = 8;
	return t;
}

struct type *type_sym(struct arena *a, bool user)
{
	struct type *t = ARENA_NEW(a, struct type);

	t->kind = TY_SYM;
	t->user = user;
	t->size = user ? 16 : 8;
	t->align = 8;
	return t;
}

bool type_is_scalar(const struct type *t)
{
	switch (t->kind) {
	case TY_INT:
	case TY_PTR:
	case TY_PROBE:
	case TY_CTX:
		return true;
	default:
		return false;
	}
}

bool type_is_agg(const struct type *t)
{
	return t->kind >= TY_COUNT;
}

struct type *type_stored(struct arena *a, struct type *t)
{
	if (t->kind == TY_INT && t->en)
		return t->size == 8 ? t : type_enum(a, 8, t->is_signed, t->en);
	if (t->kind == TY_INT)
		return t->is_bool ? &ty_bool : t->literal ? t : type_int(8, t->is_signed);
	if (t->kind == TY_TUPLE) {
		struct type *elems[64];
		uint32_t n = MIN(t->nfields, ARRAY_SIZE(elems));
		bool same = true;
		for (uint32_t i = 0; i < n; i++) {
			elems[i] = type_stored(a, t->fields[i].type);
			same &= elems[i] == t->fields[i].type;
		}
		return same ? t : retuple(a, t, elems, n);
	}
	return t;
}

/* The field of record t called name (records: tuples with named fields), or NULL */
const struct field *type_named_field(const struct type *t, const char *name)
{
	for (uint32_t i = 0; i < t->nfields; i++)
		if (t->fields[i].name && !strcmp(t->fields[i].name, name))
			return &t->fields[i];
	return NULL;
}

bool type_same_shape(const struct type *a, const struct type *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case TY_TUPLE:
		if (a->nfields != b->nfields)
			return false;
		if (type_is_named_tuple(a) && type_is_named_tuple(b)) {
			/* records: the same names, in any order */
			for (uint32_t i = 0; i < a->nfields; i++) {
				const struct field *f = type_named_field(b, a->fields[i].name);
				if (!f || !type_same_shape(a->fields[i].type, f->type))
					return false;
			}
			return true;
		}
		for (uint32_t i = 0; i < a->nfields; i++) {
			const char *an = a->fields[i].name, *bn = b->fields[i].name;
			if (!type_same_shape(a->fields[i].type, b->fields[i].type))
				return false;
			if ((an || bn) && (!an || !bn || strcmp(an, bn)))
				return false; /* records: the same names too */
		}
		return true;
	case TY_INT:
		return a->is_bool == b->is_bool;
	case TY_PTR:
		return true;
	case TY_LHIST:
		return a->lmin == b->lmin && a->lmax == b->lmax && a->lstep == b->lstep;
	case TY_HIST:
		return a->count == b->count; /* hist(v, k): the same k */
	case TY_TSERIES:
		return a->count == b->count && a->lstep == b->lstep && a->lmin == b->lmin;
	case TY_STACK:
		return a->user == b->user && a->perf == b->perf && a->raw == b->raw && a->count == b->count;
	case TY_SYM:
		return a->user == b->user;
	case TY_TIMESTAMP:
		return !strcmp(a->name, b->name);
	case TY_STRERROR:
		return a->count == b->count; /* named from the same table */
	case TY_RECORD:
		return a->size == b->size && (a->name == b->name || (a->name && b->name && !strcmp(a->name, b->name)));
	default:
		return true;
	}
}

struct type *type_unify(struct arena *a, struct type *x, struct type *y)
{
	if (x->kind == TY_STR) {
		struct type *w = x->size >= y->size ? x : y;
		if (w->strsize >= MAX(x->strsize, y->strsize))
			return w;
		/* the same buffer, the longer of the two as bpftrace counts it */
		struct type *t = ARENA_NEW(a, struct type);
		*t = *w;
		t->strsize = MAX(x->strsize, y->strsize);
		return t;
	}
	/* an enum and something else: a plain integer */
	if (x->kind == TY_INT && y->kind == TY_INT && x->en != y->en)
		return type_unify(a, x->en ? type_int(x->size, x->is_signed) : x,
				  y->en ? type_int(y->size, y->is_signed) : y);
	/* today's bpftrace: an integer literal takes the other's type */
	if (x->kind == TY_INT && x->size == y->size && x->literal != y->literal)
		return x->literal ? y : x;
	if (x->kind == TY_BUF)
		return x->count >= y->count ? x : y;
	if (x->kind == TY_INT && x->size != y->size)
		return x->size >= y->size ? x : y;
	if (x->kind == TY_TUPLE) {
		struct type *elems[64];
		uint32_t n = MIN(x->nfields, ARRAY_SIZE(elems));
		bool same = true, named = type_is_named_tuple(x) && type_is_named_tuple(y);
		for (uint32_t i = 0; i < n; i++) {
			/* a record keeps x's order: y's fields by name */
			const struct field *fy = named ? type_named_field(y, x->fields[i].name)
						       : &y->fields[i];
			elems[i] = type_unify(a, x->fields[i].type, fy ? fy->type : x->fields[i].type);
			same &= elems[i] == x->fields[i].type;
		}
		return same ? x : retuple(a, x, elems, n);
	}
	return x;
}

void type_name(struct strbuf *out, const struct type *t)
{
	switch (t->kind) {
	case TY_NONE:
		sb_puts(out, "none");
		break;
	case TY_VOID:
		sb_puts(out, "void");
		break;
	case TY_INT:
		if (t->is_bool)
			sb_puts(out, "bool");
		else
			sb_printf(out, "%sint%u", t->is_signed ? "" : "u", t->size * 8);
		break;
	case TY_STR:
		sb_printf(out, "string[%u]", t->strsize);
		break;
	case TY_TUPLE:
		sb_putc(out, '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				sb_puts(out, ", ");
			if (t->fields[i].name)
				sb_printf(out, "%s=", t->fields[i].name);
			type_name(out, t->fields[i].type);
		}
		sb_putc(out, ')');
		break;
	case TY_PTR:
		type_name(out, type_elem((struct type *)t));
		sb_puts(out, " *");
		break;
	case TY_ARRAY:
		type_name(out, t->elem);
		sb_printf(out, "[%u]", t->count);
		break;
	case TY_RECORD:
		sb_puts(out, t->name ? t->name : "struct");
		break;
	case TY_CTX:
		sb_puts(out, "args");
		break;
	case TY_PROBE:
		sb_puts(out, "probe");
		break;
	case TY_STACK:
		sb_printf(out, "%s(%s, %u)", t->user ? "ustack" : "kstack", t->perf ? "perf" : "bpftrace",
			  t->count);
		break;
	case TY_SYM:
		sb_puts(out, t->user ? "usym" : "ksym");
		break;
	case TY_TIMESTAMP:
		sb_puts(out, "strftime");
		break;
	case TY_BUF:
		sb_printf(out, "buf[%u]", t->count);
		break;
	case TY_INET:
		sb_puts(out, "inet");
		break;
	case TY_MACADDR:
		sb_puts(out, "macaddr");
		break;
	case TY_STRERROR:
		sb_puts(out, t->count == NAME_SIGNAL	? "signal_name"
			     : t->count == NAME_SYSCALL ? "syscall_name"
							: "strerror");
		break;
	case TY_CGPATH:
		sb_puts(out, "cgroup_path");
		break;
	case TY_USERNAME:
		sb_puts(out, "username");
		break;
	case TY_COUNT:
		sb_puts(out, "count");
		break;
	case TY_SUM:
		sb_puts(out, "sum");
		break;
	case TY_MIN:
		sb_puts(out, "min");
		break;
	case TY_MAX:
		sb_puts(out, "max");
		break;
	case TY_AVG:
		sb_puts(out, "avg");
		break;
	case TY_STATS:
		sb_puts(out, "stats");
		break;
	case TY_HIST:
		sb_puts(out, "hist");
		break;
	case TY_LHIST:
		sb_printf(out, "lhist(%lld, %lld, %lld)", (long long)t->lmin, (long long)t->lmax,
			  (long long)t->lstep);
		break;
	case TY_TSERIES:
		sb_puts(out, "tseries");
		break;
	}
}

const char *type_str_of(const struct type *t)
{
	static char buf[4][128];
	static int k;
	struct strbuf sb = { 0 };
	char *b = buf[k++ % 4];

	type_name(&sb, t);
	snprintf(b, 128, "%s", sb_str(&sb));
	sb_free(&sb);
	return b;
}
