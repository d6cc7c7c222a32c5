// SPDX-License-Identifier: MIT
/*
 * The map walker: read, sort, cut to `top`, divide by `div`, hand each
 * entry to the output format's writer (text.c, json.c).
 *
 * Entries of count, sum, min, max, avg, stats and integer maps are sorted by
 * value, histograms by their total count, everything else by key; equal
 * values keep key order (bpftrace leaves ties unordered).
 */
#include "output/mapprint.h"
#include "output/hist.h"
#include "output/stats.h"
#include "output/timefmt.h"
#include "output/writer.h"
#include "sym/symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t get_i64(const void *p)
{
	int64_t v;
	memcpy(&v, p, 8);
	return v;
}

/*
 * A stack as bpftrace prints it: a newline, then a line per frame,
 * indent + "name+offset" (perf mode: "\taddress name+offset (file)");
 * addresses without a name print as hex. Nothing when the kernel gave no
 * stack.
 */
void stack_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data, const char *indent)
{
	const uint8_t *p = data;
	int pid = t->user ? (int)get_i64(p + 8) : 0;
	uint64_t ips[STACK_MAX_FRAMES] = { 0 };

	if (!stack_read(oc->maps, t, get_i64(p), ips))
		return;
	sb_putc(out, '\n');
	for (uint32_t i = 0; i < t->count && ips[i]; i++) {
		struct sym sym;
		bool ok = sym_resolve(t->user, pid, ips[i], &sym);
		unsigned long long a = (unsigned long long)ips[i];
		if (!t->perf && ok)
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

static void format_value(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
			 const void *data, bool key)
{
	const uint8_t *p = data;

	switch (t->kind) {
	case TY_INT: {
		uint64_t u = 0;
		int64_t v;
		memcpy(&u, p, t->size);
		v = (int64_t)u;
		if (t->is_signed && t->size < 8 && (u >> (t->size * 8 - 1)))
			v = (int64_t)(u | ~0ull << (t->size * 8));
		/* 64-bit keys print signed (bpftrace 0.17); values by their type */
		if (t->is_signed || (key && t->size == 8))
			sb_printf(out, "%lld", (long long)v);
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
		if (key)
			sb_printf(out, "0x%llx", (unsigned long long)get_i64(p));
		else
			sb_printf(out, "%lld", (long long)get_i64(p));
		break;
	case TY_STR:
		sb_putn(out, (const char *)p, strnlen((const char *)p, t->size));
		break;
	case TY_PROBE: {
		uint64_t id = (uint64_t)get_i64(p);
		const struct plan *pl = oc->plan;
		sb_puts(out, id < pl->probe_names.len ? pl->probe_names.data[id] : "?");
		break;
	}
	case TY_STACK: /* bpftrace indents a stack 4 spaces in a key, 8 in a value */
		stack_format(oc, out, t, p, key ? "    " : "        ");
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
		if (!timefmt_strftime(out, t->name, (time_t)(wall / 1000000000),
				      (uint32_t)(wall % 1000000000 / 1000))) {
			fprintf(stderr, "%s\n", TIMEFMT_ERROR);
			sb_puts(out, TIMEFMT_FAILED);
		}
		break;
	}
	case TY_TUPLE:
		sb_putc(out, '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				sb_puts(out, ", ");
			format_value(oc, out, t->fields[i].type, p + t->fields[i].offset, key);
		}
		sb_putc(out, ')');
		break;
	case TY_AVG:
		sb_printf(out, "%lld", (long long)avg_value(get_i64(p), get_i64(p + 8)));
		break;
	case TY_STATS:
		stats_print(out, get_i64(p), get_i64(p + 8));
		break;
	default:
		sb_puts(out, "?");
		break;
	}
}

void value_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		  const void *data)
{
	format_value(oc, out, t, data, false);
}

void key_field_format(const struct out_ctx *oc, struct strbuf *out, const struct type *t,
		      const void *data)
{
	format_value(oc, out, t, data, true);
}

void map_key_format(const struct out_ctx *oc, struct strbuf *out, const struct map_info *m,
		    const uint8_t *key, const char *sep)
{
	for (uint32_t i = 0; m->key && i < m->key->nfields; i++) {
		if (i)
			sb_puts(out, sep);
		format_value(oc, out, m->key->fields[i].type, key + m->key->fields[i].offset, true);
	}
}

static int cmp_value(const struct type *t, const void *a, const void *b, bool key);

static int cmp_int(bool is_signed, int64_t x, int64_t y)
{
	if (is_signed)
		return x < y ? -1 : x > y;
	return (uint64_t)x < (uint64_t)y ? -1 : (uint64_t)x > (uint64_t)y;
}

/* Keys compare field by field, integers as unsigned; values by their sign. */
static int cmp_value(const struct type *t, const void *a, const void *b, bool key)
{
	switch (t->kind) {
	case TY_STR:
		return strncmp(a, b, t->size);
	case TY_TUPLE:
		for (uint32_t i = 0; i < t->nfields; i++) {
			int c = cmp_value(t->fields[i].type, (const uint8_t *)a + t->fields[i].offset,
					  (const uint8_t *)b + t->fields[i].offset, key);
			if (c)
				return c;
		}
		return 0;
	case TY_AVG:
	case TY_STATS: {
		int64_t ca = get_i64((const uint8_t *)a + 8), cb = get_i64((const uint8_t *)b + 8);
		int64_t x = ca ? get_i64(a) / ca : 0, y = cb ? get_i64(b) / cb : 0;
		return cmp_int(t->is_signed, x, y);
	}
	case TY_COUNT:
		return cmp_int(false, get_i64(a), get_i64(b));
	case TY_MIN:
	case TY_MAX:
		return cmp_int(true, get_i64(a), get_i64(b));
	default:
		return cmp_int(!key && t->is_signed, get_i64(a), get_i64(b));
	}
}

struct sort_ctx {
	const struct map_info *m;
	bool by_value;
};

static int cmp_entries(const void *x, const void *y, void *arg)
{
	const struct sort_ctx *sc = arg;
	const struct map_entry *a = x, *b = y;
	const struct map_info *m = sc->m;
	int c = 0;

	if (sc->by_value) {
		if (a->buckets) {
			uint64_t ta = hist_total(a->buckets, a->nbuckets), tb = hist_total(b->buckets, b->nbuckets);
			c = ta < tb ? -1 : ta > tb;
		} else {
			c = cmp_value(m->value, a->value, b->value, false);
		}
	}
	if (!c && m->key)
		c = cmp_value(m->key, a->key, b->key, true);
	return c;
}

static bool sorted_by_value(const struct type *t)
{
	switch (t->kind) {
	case TY_INT:
	case TY_COUNT:
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_AVG:
	case TY_STATS:
	case TY_HIST:
	case TY_LHIST:
		return true;
	default:
		return false;
	}
}

/*
 * print()'s div applied to a value: the divided copy in buf, or the value
 * itself when div does not apply (strings, tuples, stats: 0.17 ignores it).
 */
static const uint8_t *divide(const struct type *t, const uint8_t *v, int64_t div,
			     uint8_t buf[16])
{
	int64_t x, one = 1;
	bool is_signed;

	switch (t->kind) {
	case TY_COUNT:
		is_signed = false;
		break;
	case TY_INT:
	case TY_SUM:
		is_signed = t->is_signed;
		break;
	case TY_MIN:
	case TY_MAX:
		is_signed = true;
		break;
	case TY_AVG:
		/* the average divided, kept as total / 1 */
		x = print_div_s64(avg_value(get_i64(v), (uint64_t)get_i64(v + 8)), div);
		memcpy(buf, &x, 8);
		memcpy(buf + 8, &one, 8);
		return buf;
	default:
		return v;
	}
	x = get_i64(v);
	if (is_signed)
		x = print_div_s64(x, div);
	else
		x = (int64_t)print_div_u64((uint64_t)x, div);
	memcpy(buf, &x, 8);
	return buf;
}

void map_print(const struct out_ctx *oc, const struct map_info *m, int64_t top, int64_t div,
	       struct strbuf *out)
{
	const struct writer *wr = oc->writer ? oc->writer : &text_writer;
	struct map_entries es;
	struct type *t = m->value;
	bool hist = t->kind == TY_HIST || t->kind == TY_LHIST;
	uint8_t buf[16];

	if (map_read(oc->maps, m, &es) < 0)
		return;
	struct sort_ctx sc = { m, sorted_by_value(t) };
	qsort_r(es.v, es.n, sizeof(*es.v), cmp_entries, &sc);

	size_t first = 0;
	if (top > 0 && (size_t)top < es.n)
		first = es.n - top;
	struct map_walk w = { .oc = oc, .m = m, .out = out, .n = es.n - first };
	wr->map_begin(&w);
	for (size_t i = first; i < es.n; i++) {
		struct map_entry *e = &es.v[i];
		struct map_item it = { .key = m->key ? e->key : NULL, .div = 1 };
		if (hist) {
			it.buckets = e->buckets;
			it.nbuckets = e->nbuckets;
			/* lhist ignores div (0.17) */
			if (t->kind == TY_HIST)
				it.div = print_divisor(div);
		} else {
			it.value = divide(t, e->value, div, buf);
		}
		w.i = i - first;
		wr->map_entry(&w, &it);
	}
	wr->map_end(&w);
	map_entries_free(&es);
}

static int cmp_map_name(const void *a, const void *b)
{
	const struct map_info *x = *(struct map_info *const *)a, *y = *(struct map_info *const *)b;
	return strcmp(x->name, y->name);
}

void maps_print_all(const struct out_ctx *oc, struct strbuf *out)
{
	const struct map_set *ms = &oc->plan->maps;
	struct map_info **v = xmalloc(sizeof(*v) * (ms->user.len + 1));

	if (ms->user.len)
		memcpy(v, ms->user.data, sizeof(*v) * ms->user.len);
	qsort(v, ms->user.len, sizeof(*v), cmp_map_name);
	for (size_t i = 0; i < ms->user.len; i++)
		if (live_fd(oc->maps, v[i]->bpf_map) >= 0)
			map_print(oc, v[i], 0, 0, out);
	free(v);
}
