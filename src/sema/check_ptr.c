// SPDX-License-Identifier: MIT
/*
 * Types a script names and pointers: casts, sizeof, offsetof, `*p`, pointer
 * arithmetic, constants (#define, enum members, kernel enums), and which
 * address space a pointer reads from.
 *
 * Address spaces: a pointer is to kernel memory unless it comes from user
 * memory. Casts to a pointer in uprobes and USDT probes, and syscall
 * pointer arguments, point to user memory; a pointer read from user memory
 * does too; uptr() and kptr() say it outright.
 */
#include "sema/check.h"

#include <string.h>

static const char *const tags[] = { [TN_PLAIN] = NULL, [TN_STRUCT] = "struct",
				     [TN_UNION] = "union", [TN_ENUM] = "enum" };

/* Where a type that is not found was looked for. */
/* Where a type that is not found was looked for; why there is no BTF, once. */
static void hint_where(struct check *c)
{
	struct btf_src *b = &c->p->types.btf;

	struct strbuf where = { 0 };

	if (!c->final)
		return;
	sb_puts(&where, "the script's definitions");
	vec_foreach(&c->p->types.dwarf, d)
	{
		if ((*d)->dw)
			sb_printf(&where, ", %s's debug info", (*d)->path);
	}
	if (b->tried && !b->nobjs && !b->err_said) {
		CHINT(c, "lantern looked in %s; %s", sb_str(&where), b->err);
		b->err_said = true;
	} else if (b->tried && !b->nobjs) {
		CHINT(c, "lantern looked in %s (the kernel has no BTF)", sb_str(&where));
	} else {
		CHINT(c, "lantern looked in %s and the kernel's BTF", sb_str(&where));
	}
	sb_free(&where);
}

/* typeof(e): e's type; a lone name that is a type is that type (typeof(uint64_t)) */
static struct type *type_of(struct check *c, struct expr *of)
{
	struct type *t;

	if (of->kind == EXPR_IDENT && !type_env_constant(&c->p->types, of->u.name) &&
	    (t = type_env_lookup(&c->p->types, NULL, of->u.name)))
		return t;
	c->unevaluated++;
	t = sema_check_expr(c, of);
	c->unevaluated--;
	return t->kind == TY_INT ? type_stored(&c->p->arena, t) : t;
}

/* string[N], buffer[N]: a size, not an array (today's bpftrace) */
static struct type *sized(struct check *c, const struct ast_typename *tn, uint32_t *first)
{
	bool s = !strcmp(tn->name, "string"), b = !strcmp(tn->name, "buffer");
	uint32_t n = tn->nmods && tn->mods[0].array ? tn->mods[0].len : 0;

	if (tn->tag != TN_PLAIN || (!s && !b) || tn->ptr_depth)
		return NULL;
	if (n)
		*first = 1;
	if (s)
		return type_str(&c->p->arena, n ? n : c->p->strlen);
	return type_buf(&c->p->arena, n ? n : 64);
}

struct type *sema_check_typename(struct check *c, const struct ast_typename *tn)
{
	uint32_t first = 0;
	struct type *t = tn->of ? type_of(c, tn->of) : sized(c, tn, &first);

	if (!t)
		t = type_env_lookup(&c->p->types, tags[tn->tag], tn->name);
	if (!t && tn->tag == TN_PLAIN && c->p->modern) {
		/* today's bpftrace: a struct's or union's name alone (offsetof(qspinlock, tail)) */
		t = type_env_lookup(&c->p->types, "struct", tn->name);
		if (!t)
			t = type_env_lookup(&c->p->types, "union", tn->name);
	}
	if (!t) {
		CERR(c, tn->span, E_UNKNOWN_TYPE, "unknown type '%s%s%s'", tags[tn->tag] ? tags[tn->tag] : "",
		     tags[tn->tag] ? " " : "", tn->name);
		hint_where(c);
		return &ty_none;
	}
	if (t->kind == TY_NONE)
		return t;
	/* bool[2], bool*: today's bpftrace's bool elements (a plain (bool) is the cast's) */
	if (c->p->modern && t == &ty_u8 && tn->tag == TN_PLAIN && (tn->nmods || tn->ptr_depth) &&
	    !strcmp(tn->name, "bool")) {
		struct type *b = ARENA_NEW(&c->p->arena, struct type);
		*b = ty_u8;
		b->is_bool = true;
		t = b;
	}
	for (uint32_t i = 0; i < tn->ptr_depth; i++)
		t = type_ptr(&c->p->arena, t, false);
	/* int32*[4]: left to right, an array of four pointers */
	for (uint32_t i = first; i < tn->nmods; i++) {
		if (!tn->mods[i].array)
			t = type_ptr(&c->p->arena, t, false);
		else if (tn->mods[i].len || i + 1 < tn->nmods)
			t = type_array(&c->p->arena, t, tn->mods[i].len);
		else
			t = type_array(&c->p->arena, t, 0); /* T[]: a cast's, sized by its value */
	}
	return t;
}

enum mem_space sema_probe_space(const struct check *c)
{
	return plan_mem_space(c->inst->prov);
}

enum mem_space sema_expr_space(const struct expr *e)
{
	const struct expr *b;

	switch (e->kind) {
	case EXPR_FIELD:
	case EXPR_INDEX:
		b = e->kind == EXPR_FIELD ? e->u.field.base : e->u.index.base;
		return b->type->kind == TY_PTR ? type_space(b->type) : sema_expr_space(b);
	case EXPR_UNARY:
		return e->u.unary.op == OP_DEREF ? type_space(e->u.unary.operand->type) : SPACE_KERNEL;
	default:
		return SPACE_KERNEL;
	}
}

struct type *sema_type_in_space(struct check *c, struct type *t, int space)
{
	struct type *copy;

	if (t->kind == TY_ARRAY && t->elem && (t->elem->kind == TY_PTR || t->elem->kind == TY_ARRAY)) {
		/* an array of pointers: pointers of that space too */
		struct type *el = sema_type_in_space(c, t->elem, space);
		return el == t->elem ? t : type_array(&c->p->arena, el, t->count);
	}
	if (t->kind != TY_PTR || (int)type_space(t) == space)
		return t;
	copy = ARENA_NEW(&c->p->arena, struct type);
	*copy = *t;
	copy->user = space == SPACE_USER;
	copy->any_space = space == SPACE_ANY;
	return copy;
}

/*
 * (uint8[8])x and (uint64)$a (today's bpftrace): an integer's bytes as an
 * array of integers, and back; both of one size. (int8[])x: as many as
 * the integer has bytes; (int8[])"str": the string's bytes.
 */
static struct type *cast_array(struct check *c, struct expr *e, struct type *from, struct type *to)
{
	struct type *arr = to->kind == TY_ARRAY ? to : from;
	struct type *el = arr->elem, *other = arr == to ? from : to;
	struct expr *x = e->u.cast.operand;

	if (from->kind == TY_STR && arr == to && el && el->kind == TY_INT && el->size == 1) {
		/* (int8[])"hello": the string's bytes, its NUL too */
		uint32_t n = x->kind == EXPR_STR ? x->u.len + 1 : from->size;
		if (!to->count || to->count == n)
			return type_array(&c->p->arena, el, n);
	}

	if (!el || el->kind != TY_INT || other->kind != TY_INT || (from->kind == TY_ARRAY && to->kind == TY_ARRAY)) {
		CERR(c, e->span, E_BAD_CAST, "cannot cast %s to %s", type_str_of(from), type_str_of(to));
		CHINT(c, "an array cast turns an integer into an array of integers of its size, or back");
		return &ty_none;
	}
	if (arr == to && !to->count && el->size && from->size % el->size == 0)
		to = arr = type_array(&c->p->arena, el, from->size / el->size);
	if (from->size != to->size) {
		CERR(c, e->span, E_BAD_CAST, "cannot cast %s (%u bytes) to %s (%u bytes)",
		     type_str_of(from), from->size, type_str_of(to), to->size);
		CHINT(c, "an array cast keeps the size: cast the integer to a type of %u bytes first",
		      arr == to ? to->size : from->size);
		return &ty_none;
	}
	return to;
}

struct type *sema_check_cast(struct check *c, struct expr *e)
{
	struct type *to = sema_check_typename(c, &e->u.cast.type);
	struct type *from = sema_check_expr(c, e->u.cast.operand);
	const struct ast_typename *tn = &e->u.cast.type;

	/* (bool)x: today's bpftrace's bool, x != 0, a string not empty (0.17: a uint8) */
	if (c->p->modern && to == &ty_u8 && tn->tag == TN_PLAIN && !tn->ptr_depth &&
	    !strcmp(tn->name, "bool") &&
	    (from->kind == TY_INT || from->kind == TY_PTR || from->kind == TY_STR))
		return &ty_bool;
	if (to->kind == TY_NONE || from->kind == TY_NONE)
		return &ty_none;
	if (to->kind == TY_ARRAY || from->kind == TY_ARRAY)
		return cast_array(c, e, from, to);
	if ((from->kind != TY_INT && from->kind != TY_PTR) || (to->kind != TY_INT && to->kind != TY_PTR)) {
		CERR(c, e->span, E_BAD_CAST, "cannot cast %s to %s", type_str_of(from), type_str_of(to));
		if (to->kind == TY_RECORD)
			CHINT(c, "cast to a pointer and read through it: (%s *)", type_str_of(to));
		return &ty_none;
	}
	if (to->kind == TY_PTR) {
		/* an address from user space points there, so does one of a user pointer */
		return sema_type_in_space(c, to, from->kind == TY_PTR ? type_space(from) : sema_probe_space(c));
	}
	return to;
}

/* sizeof(type) and sizeof(expr): the size in the kernel's (or program's) memory */
struct type *sema_check_sizeof(struct check *c, struct expr *e)
{
	const struct ast_typename *tn = &e->u.size_of.type;
	struct type *t;

	/* sizeof(ENUM_CONSTANT): a name that is no type but a constant, an int64 as in bpftrace */
	if (tn->name && !tags[tn->tag] && !tn->ptr_depth &&
	    !type_env_lookup(&c->p->types, NULL, tn->name) &&
	    type_env_constant(&c->p->types, tn->name)) {
		e->id = 8;
		return &ty_u64;
	}
	c->unevaluated++;
	t = tn->name ? sema_check_typename(c, tn) : sema_check_expr(c, e->u.size_of.operand);
	c->unevaluated--;
	struct expr *x = e->u.size_of.operand;
	const struct field *f = x && x->kind == EXPR_FIELD ? x->info : NULL;

	if (t->kind == TY_NONE)
		return t;
	e->id = t->size;
	/* a char array field: its length, not its string buffer's */
	if (f && f->read_size && t->kind == TY_STR && x->u.field.base->type->kind != TY_CTX)
		e->id = f->read_size;
	return &ty_u64;
}

/* offsetof(struct X, a.b): where the field starts in the struct, in bytes */
struct type *sema_check_offsetof(struct check *c, struct expr *e)
{
	struct type *t = e->u.offset_of.operand ? sema_check_expr(c, e->u.offset_of.operand)
						 : sema_check_typename(c, &e->u.offset_of.type);
	const char *path = e->u.offset_of.field;
	uint32_t total = 0;

	if (t->kind == TY_NONE)
		return t;
	while (*path) {
		size_t n = strcspn(path, ".");
		char name[128];
		const struct field *f;
		uint32_t off;
		snprintf(name, sizeof(name), "%.*s", (int)n, path);
		if (t->kind != TY_RECORD || !(f = type_field(t, name, &off))) {
			CERR(c, e->u.offset_of.field_span, E_UNKNOWN_FIELD, "%s has no field '%s'",
			     type_str_of(t), name);
			return &ty_none;
		}
		total += off;
		t = f->type;
		path += n + (path[n] == '.');
	}
	e->id = (int)total;
	return &ty_u64;
}

/* A name that is neither a builtin nor a variable: a constant, or an error. */
struct type *sema_check_ident(struct check *c, struct expr *e)
{
	const struct constant *k = type_env_constant(&c->p->types, e->u.name);

	if (k) {
		e->info = (void *)k;
		if (k->str)
			return type_str(&c->p->arena, strlen(k->str) + 1);
		/* today's bpftrace: an enum member is of its enum, printed by name */
		return k->type && c->p->modern ? type_enum(&c->p->arena, 8, true, k->type->en) : &ty_s64;
	}
	CERR(c, e->span, E_UNKNOWN_IDENT, "unknown identifier '%s'", e->u.name);
	if (sema_func_lookup(e->u.name))
		CHINT(c, "'%s' is a function: call it as %s(...)", e->u.name, e->u.name);
	else
		CHINT(c, "constants come from the script's #define and enums, the kernel's enums (BTF) "
			 "and the headers it #includes");
	return &ty_none;
}

/* &$x, &@m: where the variable or the map is (today's bpftrace) */
struct type *sema_check_addr(struct check *c, struct expr *e)
{
	struct expr *x = e->u.unary.operand;
	struct var_info *v = x->kind == EXPR_VAR ? x->info : NULL;

	if (v) {
		if (type_is_scalar(v->type))
			v->addr = true; /* it gets a place in memory too (codegen) */
		return type_ptr(&c->p->arena, v->type, false);
	}
	if (x->kind == EXPR_MAP && !x->u.map.keys.n && !type_is_agg(x->type))
		return type_ptr(&c->p->arena, x->type, false);
	CERR(c, e->span, E_BAD_OPERAND, "'&' takes a variable ($x) or a map without keys (@m), not %s",
	     x->kind == EXPR_MAP ? "a map's element or aggregation" : "this expression");
	CHINT(c, "copy the value to a variable and take its address: $v = ...; &$v");
	return &ty_none;
}

struct type *sema_check_deref(struct check *c, struct expr *e, struct type *t)
{
	struct type *to;

	if (t->kind != TY_PTR) {
		CERR(c, e->span, E_BAD_OPERAND, "invalid operand to '*': %s", type_str_of(t));
		return &ty_none;
	}
	to = type_elem(t);
	if (to->kind == TY_VOID || !to->size) {
		CERR(c, e->span, E_BAD_OPERAND, "cannot read through %s: what it points to has no size",
		     type_str_of(t));
		CHINT(c, "cast it to a pointer to the type it points to");
		return &ty_none;
	}
	return sema_type_in_space(c, to, type_space(t));
}

/*
 * a op b where one side is a pointer: p + n and p - n move by n elements, p
 * - q counts the elements between; comparisons compare addresses. NULL when
 * neither side is a pointer.
 */
struct type *sema_check_ptr_arith(struct check *c, struct expr *e, struct type *a, struct type *b)
{
	enum op op = e->u.binary.op;

	if (a->kind != TY_PTR && b->kind != TY_PTR)
		return NULL;
	switch (op) {
	case OP_EQ:
	case OP_NE:
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
	case OP_LAND:
	case OP_LOR:
		return &ty_s64;
	case OP_ADD:
		if (a->kind == TY_PTR && b->kind == TY_INT)
			return a;
		if (b->kind == TY_PTR && a->kind == TY_INT)
			return b;
		break;
	case OP_SUB:
		if (a->kind == TY_PTR && b->kind == TY_INT)
			return a;
		if (a->kind == TY_PTR && b->kind == TY_PTR)
			return &ty_s64;
		break;
	default:
		break;
	}
	CERR(c, e->span, E_TYPE_MISMATCH, "invalid operands to '%s': %s and %s", ast_op_str(op),
	     type_str_of(a), type_str_of(b));
	CHINT(c, "pointers take + and - of an integer, - of a pointer, and comparisons; cast to "
		 "uint64 for other arithmetic");
	return &ty_none;
}
