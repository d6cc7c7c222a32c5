// SPDX-License-Identifier: MIT
/* Values as bpftrace 0.17 prints them: see value.h. */
#include "output/value.h"
#include "maps/mapread.h"
#include "output/hist.h"
#include "output/stats.h"
#include "output/timefmt.h"
#include "output/value_text.h"
#include "sym/symbols.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void out_str_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		    const char *p)
{
	size_t n = strnlen(p, t->size);
	const char *trailer = oc->plan ? oc->plan->settings.str[SET_STR_TRUNC_TRAILER] : NULL;

	if (t->count && n >= t->count) {
		sb_putn(out, p, t->count);
		sb_puts(out, trailer ? trailer : "");
		return;
	}
	sb_putn(out, p, n);
}

int64_t out_value_int(const struct type *t, const uint8_t *p)
{
	uint64_t u = 0;

	memcpy(&u, p, t->size < 8 ? t->size : 8);
	if (t->is_signed && t->size < 8 && (u >> (t->size * 8 - 1)))
		u |= ~0ull << (t->size * 8);
	return (int64_t)u;
}

int64_t out_field_int(const struct field *f, const uint8_t *data)
{
	uint32_t bits = f->bit_off + f->bit_size;
	uint64_t u = 0;

	if (!f->bit_size)
		return out_value_int(f->type, data);
	memcpy(&u, data, bits <= 64 ? (bits + 7) / 8 : 8);
	/* the bits, at the top, then back down, not sign-extended: bpftrace masks them
	   (`int d:6` holding -3 is 61), and so does codegen/gen_ptr.c */
	u <<= 64 - bits;
	return (int64_t)(u >> (64 - f->bit_size));
}

void out_record_fields(const struct type *t, const uint8_t *p, field_fn fn, void *arg)
{
	for (uint32_t i = 0; i < t->nfields; i++) {
		const struct field *f = &t->fields[i];
		if (f->name && !*f->name && f->type->kind == TY_RECORD)
			out_record_fields(f->type, p + f->offset, fn, arg);
		else
			fn(arg, f, p + f->offset);
	}
}

static int64_t get_i64(const void *p)
{
	int64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* "@file:line" and the line's end, or only the end when the line is not known */
static void put_srcline(struct strbuf *out, const struct sym_srcline *at)
{
	if (at && at->file && at->line > 0)
		sb_printf(out, "@%s%s%s:%d", at->dir ? at->dir : "", at->dir ? "/" : "", at->file,
			  at->line);
	sb_putc(out, '\n');
}

/*
 * A stack as bpftrace prints it: a newline, then a line per frame,
 * indent + "name+offset" (perf mode: "\taddress name+offset (file)");
 * addresses without a name print as hex. Nothing when the kernel gave no
 * stack.
 */
void out_stack_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data, const char *indent)
{
	const uint8_t *p = data;
	int pid = t->user ? (int)get_i64(p + 8) : 0;
	uint64_t ips[STACK_MAX_FRAMES] = { 0 };

	if (!maps_stack_read(oc->maps, t, get_i64(p), ips))
		return;
	sb_putc(out, '\n');
	for (uint32_t i = 0; t->raw && i < t->count && ips[i]; i++) /* stack_mode raw: bare addresses */
		sb_printf(out, "%llx\n", (unsigned long long)ips[i]);
	for (uint32_t i = 0; !t->raw && i < t->count && ips[i]; i++) {
		struct sym sym;
		bool ok = sym_resolve(t->user, pid, ips[i], &sym);
		unsigned long long a = (unsigned long long)ips[i];
		const char *inl[SYM_INLINE_MAX];
		struct sym_srcline at[SYM_INLINE_MAX + 1];
		/* functions inlined there, innermost first (a return address: its call) */
		int ninl = t->user ? sym_usym_inlines(pid, ips[i] - (i > 0), inl, SYM_INLINE_MAX) : 0;
		/* show_debug_info: each frame's file:line, as today's bpftrace (not in perf mode) */
		int nat = t->srclines && !t->perf ? sym_usym_srclines(pid, ips[i] - (i > 0), at,
								      SYM_INLINE_MAX + 1)
						  : 0;
		for (int k = 0; k < ninl; k++) {
			if (t->perf)
				sb_printf(out, "\t%llx %s (inlined)\n", a, inl[k]);
			else if (t->srclines) {
				sb_printf(out, "%s[inlined] %s", indent, inl[k]);
				put_srcline(out, k < nat ? &at[k] : NULL);
			} else
				sb_printf(out, "%s%s (inlined)\n", indent, inl[k]);
		}
		if (!t->perf && ok && t->srclines) {
			sb_printf(out, "%s%s+%llu", indent, sym.name, (unsigned long long)sym.offset);
			put_srcline(out, ninl < nat ? &at[ninl] : NULL);
		} else if (!t->perf && ok)
			sb_printf(out, "%s%s+%llu\n", indent, sym.name, (unsigned long long)sym.offset);
		else if (!t->perf)
			sb_printf(out, "%s0x%llx\n", indent, a);
		else if (ok && sym.module)
			sb_printf(out, "\t%llx %s+%llu (%s)\n", a, sym.name,
				  (unsigned long long)sym.offset, sym.module);
		else if (ok)
			sb_printf(out, "\t%llx %s+%llu\n", a, sym.name, (unsigned long long)sym.offset);
		else
			sb_printf(out, "\t%llx 0x%llx ([unknown])\n", a, a);
	}
}

/*
 * A stack as folded stacks write it: function names (no offsets), root
 * first, joined by ';'; ';' and control characters in a name become '_'.
 * kernel_mark: kernel frames end in "_[k]". false when the kernel gave no stack.
 */
bool out_stack_folded(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data, bool kernel_mark)
{
	const uint8_t *p = data;
	int pid = t->user ? (int)get_i64(p + 8) : 0;
	uint64_t ips[STACK_MAX_FRAMES] = { 0 };
	uint32_t n = 0;

	if (!maps_stack_read(oc->maps, t, get_i64(p), ips))
		return false;
	while (n < t->count && n < STACK_MAX_FRAMES && ips[n])
		n++;
	for (uint32_t i = n; i-- > 0;) {
		struct sym sym;
		const char *inl[SYM_INLINE_MAX];
		if (i + 1 < n)
			sb_putc(out, ';');
		if (!sym_resolve(t->user, pid, ips[i], &sym)) {
			sb_printf(out, "0x%llx", (unsigned long long)ips[i]);
		} else {
			for (const char *c = sym.name; *c; c++)
				sb_putc(out, *c == ';' || (unsigned char)*c < 0x20 ? '_' : *c);
		}
		if (kernel_mark && !t->user)
			sb_puts(out, "_[k]");
		/* the functions inlined there, outermost first: callees of the frame */
		int ninl = t->user ? sym_usym_inlines(pid, ips[i] - (i > 0), inl, SYM_INLINE_MAX) : 0;
		for (int k = ninl; k-- > 0;) {
			sb_putc(out, ';');
			for (const char *c = inl[k]; *c; c++)
				sb_putc(out, *c == ';' || (unsigned char)*c < 0x20 ? '_' : *c);
		}
	}
	return n > 0;
}

struct rec_ctx {
	const struct out_ctx *oc;
	struct strbuf *out;
	bool key, first;
};

static void format_value(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
			 const void *data, bool key);

/*
 * ".name = value" of a struct's field. In a value, pointers print as
 * signed numbers; in a key, integers print signed and pointers in hex (as
 * bpftrace 0.17 prints them).
 */
static void put_field(void *arg, const struct field *f, const uint8_t *data)
{
	struct rec_ctx *rc = arg;
	bool ptr = f->type->kind == TY_PTR;

	sb_printf(rc->out, rc->key ? "%s.%s=" : "%s.%s = ", rc->first ? "" : rc->key ? "," : ", ",
		  f->name);
	rc->first = false;
	if (ptr && (rc->key || (rc->oc->plan && rc->oc->plan->modern)))
		sb_printf(rc->out, "0x%llx", (unsigned long long)out_field_int(f, data));
	else if (f->bit_size || ptr || f->type->kind == TY_INT)
		sb_printf(rc->out, f->type->is_signed || ptr || rc->key ? "%lld" : "%llu",
			  (long long)out_field_int(f, data));
	else if (f->type->kind == TY_STR)
		sb_putn(rc->out, (const char *)data,
			strnlen((const char *)data, f->read_size ? f->read_size : f->type->size));
	else
		format_value(rc->oc, rc->out, f->type, data, rc->key);
}

static void format_value(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
			 const void *data, bool key)
{
	const uint8_t *p = data;

	switch (t->kind) {
	case TY_INT: {
		uint64_t u = 0;
		int64_t v;
		memcpy(&u, p, t->size);
		if (t->is_bool) { /* today's bpftrace */
			sb_puts(out, u ? "true" : "false");
			break;
		}
		v = (int64_t)u;
		if (t->is_signed && t->size < 8 && (u >> (t->size * 8 - 1)))
			v = (int64_t)(u | ~0ull << (t->size * 8));
		/* today's bpftrace: an enum's value by its member's name */
		const char *member = t->en && oc->plan && oc->plan->modern ? type_enum_name(t->en, v) : NULL;
		if (member) {
			sb_puts(out, member);
			break;
		}
		/* keys print signed (bpftrace 0.17); values, and today's keys, by their type */
		if (t->is_signed || (key && !(oc->plan && oc->plan->modern))) {
			if (t->size < 8 && (u >> (t->size * 8 - 1)))
				v = (int64_t)(u | ~0ull << (t->size * 8));
			sb_printf(out, "%lld", (long long)v);
		}
		else
			sb_printf(out, "%llu", (unsigned long long)u);
		break;
	}
	case TY_COUNT:
		sb_printf(out, "%llu", (unsigned long long)get_i64(p));
		break;
	case TY_SUM:
		if (t->is_signed)
			sb_printf(out, "%lld", (long long)get_i64(p));
		else
			sb_printf(out, "%llu", (unsigned long long)get_i64(p));
		break;
	case TY_MIN:
	case TY_MAX:
		sb_printf(out, "%lld", (long long)get_i64(p));
		break;
	case TY_PTR:
		if (key || (oc->plan && oc->plan->modern)) /* today's bpftrace: in hex, values too */
			sb_printf(out, "0x%llx", (unsigned long long)get_i64(p));
		else
			sb_printf(out, "%lld", (long long)get_i64(p));
		break;
	case TY_STR:
		out_str_format(oc, out, t, (const char *)p);
		break;
	case TY_PROBE: {
		uint64_t id = (uint64_t)get_i64(p);
		const struct plan *pl = oc->plan;
		sb_puts(out, id < pl->probe_names.len ? pl->probe_names.data[id] : "?");
		break;
	}
	case TY_STACK: /* bpftrace indents a stack 4 spaces in a key, 8 in a value */
		out_stack_format(oc, out, t, p, key ? "    " : "        ");
		break;
	case TY_SYM: {
		/* the function's name, or the address (bpftrace: 0 as "0") */
		uint64_t a = (uint64_t)get_i64(p);
		struct sym sym;
		bool ok = sym_resolve(t->user, t->user ? (int)get_i64(p + 8) : 0, a, &sym);
		if (ok)
			sb_puts(out, sym.name);
		else if (a)
			sb_printf(out, "0x%llx", (unsigned long long)a);
		else
			sb_putc(out, '0');
		break;
	}
	case TY_TIMESTAMP: {
		/* nanoseconds of CLOCK_MONOTONIC (bpf_ktime_get_ns) as wall-clock time */
		struct timespec rt, mono;
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		int64_t wall = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec -
			       ((int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec) + get_i64(p);
		if (!out_timefmt_strftime(out, t->name, (time_t)(wall / 1000000000),
				      (uint32_t)(wall % 1000000000 / 1000))) {
			fprintf(stderr, "%s\n", TIMEFMT_ERROR);
			sb_puts(out, TIMEFMT_FAILED);
		}
		break;
	}
	case TY_TUPLE:
		if (type_is_named_tuple(t)) {
			/* a record of today's bpftrace: { .a = 1, .b = x }, in a key too */
			sb_puts(out, "{ ");
			for (uint32_t i = 0; i < t->nfields; i++) {
				sb_printf(out, "%s.%s = ", i ? ", " : "", t->fields[i].name);
				format_value(oc, out, t->fields[i].type, p + t->fields[i].offset, key);
			}
			sb_puts(out, " }");
			break;
		}
		sb_putc(out, '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				sb_puts(out, ", ");
			format_value(oc, out, t->fields[i].type, p + t->fields[i].offset, key);
		}
		sb_putc(out, ')');
		break;
	case TY_AVG:
		sb_printf(out, "%lld", (long long)out_avg_value(get_i64(p), get_i64(p + 8)));
		break;
	case TY_RECORD: {
		/* { .a = 1, .b = x } (0.17: {.a=1,.b=x} in a key; today's bpftrace spaces it there too) */
		bool compact = key && !(oc->plan && oc->plan->modern);
		struct rec_ctx rc = { oc, out, compact, true };
		sb_puts(out, compact ? "{" : "{ ");
		out_record_fields(t, p, put_field, &rc);
		sb_puts(out, compact ? "}" : " }");
		break;
	}
	case TY_ARRAY:
		sb_putc(out, '[');
		for (uint32_t i = 0; i < t->count; i++) {
			if (i)
				sb_putc(out, ',');
			format_value(oc, out, t->elem, p + i * t->elem->size, key);
		}
		sb_putc(out, ']');
		break;
	case TY_STATS:
		if (oc->plan && oc->plan->modern) /* today's bpftrace: as a record */
			sb_printf(out, "{ .count = %lld, .average = %lld, .total = %lld }",
				  (long long)get_i64(p + 8),
				  (long long)out_avg_value(get_i64(p), (uint64_t)get_i64(p + 8)),
				  (long long)get_i64(p));
		else
			out_stats_print(out, get_i64(p), get_i64(p + 8));
		break;
	default:
		if (out_value_text_kind(t))
			out_value_text(out, t, p); /* buf, ntop, strerror, ...: value_text.h */
		else
			sb_puts(out, "?");
		break;
	}
}

void out_value_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data)
{
	format_value(oc, out, t, data, false);
}

void out_key_field_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		      const void *data)
{
	format_value(oc, out, t, data, true);
}

void out_map_key_format(const struct out_ctx *oc, struct strbuf *out, const struct map_info *m,
		    const uint8_t *key, const char *sep)
{
	for (uint32_t i = 0; m->key && i < m->key->nfields; i++) {
		if (i)
			sb_puts(out, sep);
		format_value(oc, out, m->key->fields[i].type, key + m->key->fields[i].offset, true);
	}
}

