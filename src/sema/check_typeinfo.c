// SPDX-License-Identifier: MIT
/*
 * typeinfo(expr) (today's bpftrace, unstable): what the checker knows of
 * an expression's type, as a record (btf_id = 0, base_type = "int",
 * full_type = "uint64"), written in place of the call. The names are
 * bpftrace's ("string[9]" counts the NUL but no padding).
 */
#include "sema/check_stdlib.h"

#include <string.h>

/* bpftrace's name of t's kind */
static const char *base_name(const struct type *t)
{
	switch (t->kind) {
	case TY_INT:
		return t->is_bool ? "bool" : "int";
	case TY_STR:
		return "string";
	case TY_PTR:
		return "pointer";
	case TY_ARRAY:
		return "array";
	case TY_TUPLE:
		return type_is_named_tuple(t) ? "record" : "tuple";
	case TY_RECORD:
		return "c_type";
	case TY_STACK:
		return t->user ? "ustack" : "kstack";
	case TY_SYM:
		return t->user ? "usym_t" : "ksym_t";
	case TY_TIMESTAMP:
		return "timestamp";
	case TY_BUF:
		return "buffer";
	case TY_INET:
		return "inet";
	case TY_MACADDR:
		return "mac_address";
	case TY_USERNAME:
		return "username";
	case TY_CGPATH:
		return "cgroup_path_t";
	case TY_COUNT:
		return "count_t";
	case TY_SUM:
		return "sum_t";
	case TY_MIN:
		return "min_t";
	case TY_MAX:
		return "max_t";
	case TY_AVG:
		return "avg_t";
	case TY_STATS:
		return "stats_t";
	case TY_HIST:
		return "hist_t";
	case TY_LHIST:
		return "lhist_t";
	case TY_VOID:
		return "void";
	default:
		return "none";
	}
}

/* bpftrace's full name of t: "uint64", "string[9]", "(int64,string[6])", ... */
static void full_name(struct strbuf *sb, const struct type *t)
{
	switch (t->kind) {
	case TY_INT:
		if (t->is_bool)
			sb_puts(sb, "bool");
		else
			sb_printf(sb, "%sint%u", t->is_signed ? "" : "u", t->size * 8);
		return;
	case TY_STR:
		sb_printf(sb, "string[%u]", t->strsize ? t->strsize : t->size);
		return;
	case TY_BUF:
		sb_printf(sb, "buffer[%u]", t->count);
		return;
	case TY_PTR:
		full_name(sb, type_elem((struct type *)t));
		sb_puts(sb, " *");
		return;
	case TY_ARRAY:
		full_name(sb, t->elem);
		sb_printf(sb, "[%u]", t->count);
		return;
	case TY_RECORD:
		sb_puts(sb, t->name ? t->name : "struct");
		return;
	case TY_TUPLE:
		if (type_is_named_tuple(t)) {
			sb_puts(sb, "record { ");
			for (uint32_t i = 0; i < t->nfields; i++) {
				sb_printf(sb, "%s.%s = ", i ? ", " : "", t->fields[i].name);
				full_name(sb, t->fields[i].type);
			}
			sb_puts(sb, " }");
			return;
		}
		sb_putc(sb, '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				sb_putc(sb, ',');
			full_name(sb, t->fields[i].type);
		}
		sb_putc(sb, ')');
		return;
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_AVG:
	case TY_STATS:
		sb_printf(sb, "%s%s", t->is_signed ? "" : "u", base_name(t));
		return;
	default:
		sb_puts(sb, base_name(t));
	}
}

static struct expr *new_lit(struct check *c, enum expr_kind kind, struct span sp)
{
	struct expr *e = ARENA_NEW(&c->p->arena, struct expr);

	e->kind = kind;
	e->span = sp;
	return e;
}

static struct expr *str_lit(struct check *c, const char *s, struct span sp)
{
	struct expr *e = new_lit(c, EXPR_STR, sp);

	e->u.str = arena_strdup(&c->p->arena, s);
	e->u.len = (uint32_t)strlen(s);
	return e;
}

struct type *sema_check_typeinfo(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.call.args.v[0]);
	struct strbuf full = { 0 };
	struct span sp = e->span;
	struct expr *rec;

	if (t->kind == TY_NONE)
		return &ty_none; /* not known yet: again in the next pass */
	full_name(&full, t);
	rec = new_lit(c, EXPR_RECORD, sp);
	rec->u.record.vals.n = 3;
	rec->u.record.vals.v = ARENA_ARRAY(&c->p->arena, struct expr *, 3);
	rec->u.record.names = ARENA_ARRAY(&c->p->arena, const char *, 3);
	rec->u.record.names[0] = "btf_id";
	rec->u.record.names[1] = "base_type";
	rec->u.record.names[2] = "full_type";
	rec->u.record.vals.v[0] = new_lit(c, EXPR_INT, sp);
	rec->u.record.vals.v[1] = str_lit(c, base_name(t), sp);
	rec->u.record.vals.v[2] = str_lit(c, sb_str(&full), sp);
	sb_free(&full);
	*e = *rec;
	return sema_check_expr(c, e);
}
