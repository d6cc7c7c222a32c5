// SPDX-License-Identifier: MIT
/*
 * == and != of values in memory: strings, arrays and buf() values (bpftrace
 * 0.17), tuples and records (today's; a record's fields matched by name,
 * whatever their order),
 * arrays, element by element; buffers and structs byte for byte; integers
 * of any width and sign compared as 64-bit values.
 */
#include "codegen/gen_stdlib.h"

#include <string.h>

/* The field of record t called name, or NULL */
static const struct field *named_field(const struct type *t, const char *name)
{
	for (uint32_t i = 0; i < t->nfields; i++)
		if (t->fields[i].name && !strcmp(t->fields[i].name, name))
			return &t->fields[i];
	return NULL;
}

/* v's part of type t at byte off within it */
static struct val part(struct val v, struct type *t, uint32_t off)
{
	v.type = t;
	v.off += (int32_t)off;
	return v;
}

/* goto ne unless a == b (both in BPF memory) */
static void jump_unless_eq(struct gen *g, struct val a, struct val b, int32_t ne)
{
	struct type *ta = a.type, *tb = b.type;

	switch (ta->kind) {
	case TY_INT:
	case TY_PTR: {
		int32_t x = gen_load_int(g, ta, a.reg, a.off), y = gen_load_int(g, tb, b.reg, b.off);
		emit(g->ir, JMP_REG(BPF_JNE, x, y, ne));
		return;
	}
	case TY_STR: {
		int32_t r = gen_str_eq(g, a, b);
		emit(g->ir, JMP_IMM(BPF_JEQ, r, 0, ne));
		return;
	}
	case TY_TUPLE:
		for (uint32_t i = 0; i < ta->nfields; i++) {
			const struct field *fa = &ta->fields[i];
			const struct field *fb = fa->name ? named_field(tb, fa->name) : &tb->fields[i];
			jump_unless_eq(g, part(a, fa->type, fa->offset), part(b, fb->type, fb->offset), ne);
		}
		return;
	case TY_ARRAY: {
		uint32_t es = ta->elem->size;
		for (uint32_t i = 0; i < ta->count; i++)
			jump_unless_eq(g, part(a, ta->elem, i * es), part(b, tb->elem, i * es), ne);
		return;
	}
	default: {
		/* buffers (their lengths first) and structs: byte for byte (gen_mem.c) */
		int32_t r = gen_mem_eq(g, a, b);
		emit(g->ir, JMP_IMM(BPF_JEQ, r, 0, ne));
	}
	}
}

int32_t gen_value_eq(struct gen *g, struct expr *l, struct expr *r)
{
	uint32_t top = g->scratch_top;
	struct val a = gen_load(g, gen_expr(g, l)), b = gen_load(g, gen_expr(g, r));
	int32_t res = ir_vreg(g->ir), ne = ir_label(g->ir), done = ir_label(g->ir);

	if (a.type->kind == TY_STR) {
		res = gen_str_eq(g, a, b);
		g->scratch_top = top;
		return res;
	}
	jump_unless_eq(g, a, b, ne);
	emit(g->ir, MOV64_IMM(res, 1));
	emit(g->ir, JA(done));
	emit(g->ir, LABEL(ne));
	emit(g->ir, MOV64_IMM(res, 0));
	emit(g->ir, LABEL(done));
	g->scratch_top = top;
	return res;
}
