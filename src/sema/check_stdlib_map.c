// SPDX-License-Identifier: MIT
/*
 * The checks of today's bpftrace's functions on maps (docs/stdlib.md):
 * has_key(@m, key), find(@m, key, $v), len(@m) and len(kstack), and
 * delete's value (whether there was such a key). A key of several parts
 * is a tuple, written or in a variable: has_key(@m, (1, "a")).
 * Their code is codegen/gen_stdlib_map.c.
 */
#include "sema/check_stdlib.h"

#include <string.h>

/*
 * @m given its key as f(@m, key): an access @m[key] (a tuple: its parts),
 * in the plan's arena, typed against the map's keys. NULL after an error.
 */
static struct expr *keyed_access(struct check *c, struct expr *call, struct expr *map,
				 struct expr *key)
{
	struct expr *mx = ARENA_NEW(&c->p->arena, struct expr);

	if (map->kind != EXPR_MAP || map->u.map.keys.n) {
		CERR(c, map->span, E_ARG_TYPE, "%s() expects a map without a key as its first argument",
		     call->u.call.name);
		CHINT(c, "write %s(@map, key)", call->u.call.name);
		return NULL;
	}
	struct map_info *m = sema_map_get(c, map->u.map.name, map->span);
	*mx = *map;
	map->info = m;
	mx->info = m;
	struct type *kt = sema_check_expr(c, key);
	if (key->kind == EXPR_TUPLE) {
		mx->u.map.keys = key->u.list;
	} else if (kt->kind == TY_TUPLE && !type_is_named_tuple(kt) && m->nkeys > 1 &&
		   kt->nfields == (uint32_t)m->nkeys) {
		/* a tuple in a variable: its elements are the parts */
		mx->u.map.keys.v = ARENA_ARRAY(&c->p->arena, struct expr *, kt->nfields);
		mx->u.map.keys.n = kt->nfields;
		for (uint32_t i = 0; i < kt->nfields; i++) {
			struct expr *f = ARENA_NEW(&c->p->arena, struct expr);
			f->kind = EXPR_FIELD;
			f->span = key->span;
			f->u.field.base = key;
			f->u.field.name = arena_printf(&c->p->arena, "%u", i);
			f->u.field.name_span = key->span;
			mx->u.map.keys.v[i] = f;
		}
	} else {
		mx->u.map.keys.v = ARENA_ARRAY(&c->p->arena, struct expr *, 1);
		mx->u.map.keys.v[0] = key;
		mx->u.map.keys.n = 1;
	}
	if (c->final && m->value && m->nkeys == 0) {
		CERR(c, call->span, E_ARG_TYPE,
		     "call to %s() expects a map with explicit keys (non-scalar map)",
		     call->u.call.name);
		return NULL;
	}
	sema_map_learn_keys(c, m, mx);
	return mx;
}

/* has_key(@m, key): whether the key is there */
struct type *sema_check_has_key(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;

	e->info = keyed_access(c, e, a[0], a[1]);
	return e->info ? &ty_bool : &ty_none;
}

/* find(@m, key, $v): has_key, and $v gets the value when it is there */
struct type *sema_check_find(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	struct expr *mx = keyed_access(c, e, a[0], a[1]);
	struct var_info *v;

	e->info = mx;
	if (a[2]->kind != EXPR_VAR || !(v = sema_var_find(c, a[2]))) {
		CERR(c, a[2]->span, E_ARG_TYPE,
		     "find()'s third argument is a variable that gets the value: declare it first");
		CHINT(c, "let $v; if (find(@m, key, $v)) { ... }");
		return &ty_none;
	}
	a[2]->info = v;
	if (!mx)
		return &ty_none;
	struct map_info *m = mx->info;
	if (!m->value) {
		if (c->final)
			CERR(c, a[0]->span, E_MAP_UNUSED, "@%s is never assigned a value", m->name);
		a[2]->type = v->type;
		return &ty_bool;
	}
	struct type *t = type_stored(&c->p->arena, m->value);
	if (type_is_agg(t)) {
		CERR(c, a[0]->span, E_AGG_MISUSE, "find() of @%s: the value of an aggregation (%s) "
						  "cannot be copied",
		     m->name, type_str_of(t));
		return &ty_none;
	}
	if (v->type->kind == TY_NONE) {
		v->type = t;
	} else if (!type_same_shape(v->type, t)) {
		CERR(c, a[2]->span, E_VAR_TYPE_CLASH,
		     "type mismatch for $%s: find() gives it %s, it holds %s", v->name, type_str_of(t),
		     type_str_of(v->type));
		return &ty_none;
	} else if (!v->typed) {
		v->type = type_unify(&c->p->arena, v->type, t);
	}
	v->assigned = true;
	a[2]->type = v->type;
	return &ty_bool;
}

/* len(@m): its elements; len(kstack), len(ustack): the stack's frames */
struct type *sema_check_len(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];

	if (a->kind != EXPR_MAP) {
		struct type *t = sema_check_expr(c, a);
		if (t->kind != TY_NONE && t->kind != TY_STACK) {
			CERR(c, a->span, E_ARG_TYPE, "call to len() expects a map, ustack, or kstack");
			return &ty_none;
		}
		return &ty_s64;
	}
	if (a->u.map.keys.n) {
		CERR(c, a->span, E_ARG_TYPE, "len() expects a whole map, without a key");
		return &ty_none;
	}
	struct map_info *m = sema_map_get(c, a->u.map.name, a->span);
	a->info = m;
	a->type = &ty_void;
	if (c->final && !m->value) {
		CERR(c, a->span, E_MAP_UNUSED, "@%s is never assigned a value", m->name);
		return &ty_none;
	}
	if (c->final && m->nkeys == 0) {
		CERR(c, e->span, E_ARG_TYPE,
		     "call to len() expects a map with explicit keys (non-scalar map)");
		return &ty_none;
	}
	return &ty_s64;
}
