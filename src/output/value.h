/* SPDX-License-Identifier: MIT */
/*
 * Values as bpftrace 0.17 prints them: in map keys and values, print() and
 * printf arguments (text), and their JSON forms (json.c).
 */
#ifndef LANTERN_OUTPUT_VALUE_H
#define LANTERN_OUTPUT_VALUE_H

#include "base/strbuf.h"
#include "maps/maps.h"
#include "plan/plan.h"

struct writer;

/*
 * What printing values needs: the plan (types, probe names), the kernel
 * maps (entries, stacks) and the writer of the output format.
 */
struct out_ctx {
	const struct plan *plan;
	const struct live_maps *maps;
	const struct writer *writer;
};

/*
 * A value as bpftrace's text writes it: integers (signed or not as its
 * type), strings raw, tuples "(1, a)", probe names, avg, stats, structs
 * "{ .a = 1, .b = x }" and arrays "[1,2,3]". key: a key field (64-bit
 * integers signed, pointers in hex, structs "{.a=1,.b=x}").
 */
/*
 * A string's text: a str() of today's bpftrace that filled its whole
 * size (type.count, the max_strlen it was read with) was cut, and ends in
 * the str_trunc_trailer setting ("..").
 */
void out_str_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		    const char *p);
void out_value_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data);
void out_key_field_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		      const void *data);
/* The key fields of m, each with out_key_field_format(), joined by sep. */
void out_map_key_format(const struct out_ctx *oc, struct strbuf *out, const struct map_info *m,
		    const uint8_t *key, const char *sep);

/* A kstack/ustack (TY_STACK) value: frames on lines that start with indent
   (map keys: 4 spaces; map values and printf: 8, as bpftrace). */
void out_stack_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data, const char *indent);

/*
 * The same stack folded: function names root first, joined by ';'
 * (kernel_mark: kernel frames end in "_[k]"). false when there are no frames.
 */
bool out_stack_folded(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data, bool kernel_mark);

/* The integer of type t at p (a record's field, an array's element), sign-extended if signed. */
int64_t out_value_int(const struct type *t, const uint8_t *p);
/* The integer field f whose bytes start at data; a bitfield's bits. */
int64_t out_field_int(const struct field *f, const uint8_t *data);
/*
 * fn(arg, field, its bytes) for each field of record t whose bytes are at
 * p, the members of anonymous structs and unions in their place.
 */
typedef void (*field_fn)(void *arg, const struct field *f, const uint8_t *data);
void out_record_fields(const struct type *t, const uint8_t *p, field_fn fn, void *arg);

#endif
