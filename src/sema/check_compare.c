// SPDX-License-Identifier: MIT
/*
 * == and != of values in memory: arrays and buf() values (bpftrace 0.17),
 * tuples and records (today's; a record's fields matched by name, in any
 * order). Arrays element by element, buffers and structs byte for byte;
 * integers of any width and sign compare as numbers, strings of any size
 * as strings. Their code: codegen/gen_compare.c.
 */
#include "sema/check_stdlib.h"

#include <string.h>

static const struct field *named_field(const struct type *t, const char *name)
{
	for (uint32_t i = 0; i < t->nfields; i++)
		if (t->fields[i].name && !strcmp(t->fields[i].name, name))
			return &t->fields[i];
	return NULL;
}

bool sema_comparable(const struct type *a, const struct type *b)
{
	if (a->kind != b->kind)
		return (a->kind == TY_INT || a->kind == TY_PTR) && (b->kind == TY_INT || b->kind == TY_PTR);
	switch (a->kind) {
	case TY_INT:
		return a->is_bool == b->is_bool;
	case TY_PTR:
	case TY_STR:
		return true;
	case TY_TUPLE:
		if (a->nfields != b->nfields || type_is_named_tuple(a) != type_is_named_tuple(b))
			return false;
		for (uint32_t i = 0; i < a->nfields; i++) {
			const struct field *fb = a->fields[i].name ? named_field(b, a->fields[i].name)
								   : &b->fields[i];
			if (!fb || !sema_comparable(a->fields[i].type, fb->type))
				return false;
		}
		return true;
	case TY_ARRAY: /* elements that do not compare otherwise (structs): byte for byte */
		return a->count == b->count && a->elem->size == b->elem->size;
	case TY_BUF: /* their lengths, then the bytes of the shorter (bpftrace 0.17) */
		return true;
	case TY_USERNAME: /* their uids */
		return true;
	default:
		return false;
	}
}
