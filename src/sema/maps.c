// SPDX-License-Identifier: MIT
/*
 * Map types: every access to @name adds what it knows (key types, value
 * type); the first fixes the shape, later ones must match it, and strings
 * widen to the longest seen. -d types prints the result.
 */
#include "sema/check.h"

#include <string.h>

struct map_info *sema_map_get(struct check *c, const char *name, struct span sp)
{
	return maps_user(&c->p->maps, &c->p->arena, name, sp);
}

static void key_list_str(struct strbuf *sb, struct type *key)
{
	sb_putc(sb, '[');
	for (uint32_t i = 0; key && i < key->nfields; i++) {
		if (i)
			sb_puts(sb, ", ");
		type_name(sb, key->fields[i].type);
	}
	sb_putc(sb, ']');
}

/* What names key e: a builtin (pid, comm) or a stack call (kstack(perf)), else "". */
static const char *key_expr_name(const struct expr *e)
{
	if (e->kind == EXPR_BUILTIN)
		return e->u.name;
	if (e->kind == EXPR_CALL &&
	    (!strcmp(e->u.call.name, "kstack") || !strcmp(e->u.call.name, "ustack")))
		return e->u.call.name;
	return "";
}

/* The name of each key position, the same in every access (else ""). */
static void map_learn_key_names(struct check *c, struct map_info *m, struct expr_list *keys)
{
	if (!keys->n)
		return;
	if (!m->key_names)
		m->key_names = arena_alloc(&c->p->arena, keys->n * sizeof(*m->key_names));
	for (uint32_t i = 0; i < keys->n; i++) {
		const char *name = key_expr_name(keys->v[i]);
		if (!m->key_names[i])
			m->key_names[i] = name;
		else if (strcmp(m->key_names[i], name))
			m->key_names[i] = "";
	}
}

void sema_map_learn_keys(struct check *c, struct map_info *m, struct expr *me)
{
	struct expr_list *keys = &me->u.map.keys;
	struct type *kt[32];
	struct arena *a = &c->p->arena;
	bool known = true;

	if (keys->n > ARRAY_SIZE(kt)) {
		CERR(c, me->span, E_TOO_BIG, "a map key has at most %zu parts", ARRAY_SIZE(kt));
		return;
	}
	for (uint32_t i = 0; i < keys->n; i++) {
		struct type *t = sema_args_value(c, keys->v[i], sema_check_expr(c, keys->v[i]));
		if (t->kind == TY_NONE) {
			known = false;
			continue;
		}
		if (!type_is_scalar(t) && t->kind != TY_STR && t->kind != TY_TUPLE && t->kind != TY_STACK &&
		    t->kind != TY_SYM && t->kind != TY_TIMESTAMP && t->kind != TY_RECORD &&
		    t->kind != TY_ARRAY && t->kind != TY_BUF && t->kind != TY_INET &&
		    t->kind != TY_MACADDR && t->kind != TY_STRERROR && t->kind != TY_USERNAME &&
		    t->kind != TY_CGPATH) {
			CERR(c, keys->v[i]->span, E_ARG_TYPE, "%s cannot be used as a map key",
			     type_str_of(t));
			known = false;
			continue;
		}
		if (t->kind == TY_CTX) {
			CERR(c, keys->v[i]->span, E_ARG_TYPE, "args cannot be used as a map key");
			known = false;
			continue;
		}
		kt[i] = type_stored(a, t);
	}
	if (!known)
		return;
	/* today's bpftrace: @m[(a, b)] (a tuple, not a record) is @m[a, b] */
	bool whole = plan_map_key_whole(c->p, keys);
	struct type *tup = whole ? kt[0] : keys->n ? type_tuple(a, kt, keys->n) : NULL;
	uint32_t n = whole ? tup->nfields : keys->n;
	if (m->nkeys < 0) {
		m->nkeys = n;
		m->key = tup;
		if (!whole)
			map_learn_key_names(c, m, keys);
		c->changed = true;
		return;
	}
	if ((uint32_t)m->nkeys != n || (tup && !type_same_shape(m->key, tup))) {
		if (c->final) {
			struct strbuf want = { 0 }, got = { 0 };
			key_list_str(&got, tup);
			key_list_str(&want, m->key);
			diag_error(&c->p->diag, me->span, E_MAP_KEY_CLASH,
				   "argument mismatch for @%s: accessed with keys %s where the map has keys %s",
				   m->name, sb_str(&got), sb_str(&want));
			sb_free(&want);
			sb_free(&got);
		}
		return;
	}
	if (tup) {
		if (!whole)
			map_learn_key_names(c, m, keys);
		struct type *u = type_unify(a, m->key, tup);
		if (u != m->key) {
			m->key = u;
			c->changed = true;
		}
	}
}

void sema_map_learn_value(struct check *c, struct map_info *m, struct type *t, struct span sp)
{
	if (t->kind == TY_NONE)
		return;
	if (!m->value) {
		m->value = t;
		m->value_span = sp;
		c->changed = true;
		return;
	}
	if (!type_same_shape(m->value, t)) {
		CERR(c, sp, E_MAP_TYPE_CLASH,
		     "type mismatch for @%s: assigning a value of type %s to a map holding %s", m->name,
		     type_str_of(t), type_str_of(m->value));
		return;
	}
	struct type *u = type_unify(&c->p->arena, m->value, t);
	if (u != m->value) {
		m->value = u;
		c->changed = true;
	}
}

/* `let @m = hash(N);`: the map, declared before any use */
void sema_map_decls(struct plan *p)
{
	static const enum bpf_map_type types[] = {
		[MAPDECL_HASH] = BPF_MAP_TYPE_HASH,
		[MAPDECL_LRUHASH] = BPF_MAP_TYPE_LRU_HASH,
		[MAPDECL_PERCPUHASH] = BPF_MAP_TYPE_PERCPU_HASH,
		[MAPDECL_PERCPULRUHASH] = BPF_MAP_TYPE_LRU_PERCPU_HASH,
	};

	for (uint32_t i = 0; i < p->ast->ndecls; i++) {
		const struct map_decl *d = &p->ast->decls[i];
		struct map_info *m = maps_user(&p->maps, &p->arena, d->name, d->span);
		m->declared = true;
		m->decl_type = types[d->kind];
		m->decl_max = (uint32_t)d->max_entries;
		m->decl_span = d->kind_span;
	}
}

/* A declared map holds what its type can: aggregations in per-CPU maps, other values in the others */
int sema_map_decls_check(struct plan *p)
{
	static const char *const names[] = {
		[BPF_MAP_TYPE_HASH] = "hash",
		[BPF_MAP_TYPE_LRU_HASH] = "lruhash",
		[BPF_MAP_TYPE_PERCPU_HASH] = "percpuhash",
		[BPF_MAP_TYPE_LRU_PERCPU_HASH] = "percpulruhash",
	};

	vec_foreach(&p->maps.user, mp)
	{
		struct map_info *m = *mp;
		bool percpu = m->decl_type == BPF_MAP_TYPE_PERCPU_HASH ||
			      m->decl_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
		if (!m->declared)
			continue;
		if (!m->value) {
			diag_warn(&p->diag, m->decl_span, E_MAP_UNUSED, "Unused map: @%s is declared but never used",
				  m->name);
			continue;
		}
		if (type_is_agg(m->value) == percpu)
			continue;
		diag_error(&p->diag, m->decl_span, E_MAP_TYPE_CLASH,
			   "@%s is declared a %s map, which cannot hold %s", m->name,
			   names[m->decl_type], type_str_of(m->value));
		diag_hint(&p->diag, "%s",
			  percpu ? "per-CPU maps hold aggregations (count(), sum(), hist(), ...); "
				   "declare it hash or lruhash"
				 : "aggregations (count(), sum(), hist(), ...) need a per-CPU map: "
				   "declare it percpuhash or percpulruhash");
	}
	return p->diag.errors ? -1 : 0;
}

void sema_dump_types(struct plan *p, struct strbuf *out)
{
	vec_foreach(&p->maps.user, mp)
	{
		struct map_info *m = *mp;
		sb_printf(out, "@%s", m->name);
		if (m->key) {
			sb_putc(out, '[');
			for (uint32_t i = 0; i < m->key->nfields; i++) {
				if (i)
					sb_puts(out, ", ");
				type_name(out, m->key->fields[i].type);
			}
			sb_putc(out, ']');
		}
		sb_puts(out, ": ");
		type_name(out, m->value ? m->value : &ty_none);
		sb_putc(out, '\n');
	}
}
