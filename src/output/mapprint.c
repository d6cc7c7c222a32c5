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
#include "output/tseries.h"
#include "output/hist.h"
#include "output/stats.h"
#include "output/writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		int64_t ca = load_i64((const uint8_t *)a + 8), cb = load_i64((const uint8_t *)b + 8);
		int64_t x = ca ? load_i64(a) / ca : 0, y = cb ? load_i64(b) / cb : 0;
		return cmp_int(t->is_signed, x, y);
	}
	case TY_COUNT:
		return cmp_int(false, load_i64(a), load_i64(b));
	case TY_RECORD:
	case TY_ARRAY:
		return memcmp(a, b, t->size);
	case TY_MIN:
	case TY_MAX:
		return cmp_int(true, load_i64(a), load_i64(b));
	default:
		return cmp_int(!key && t->is_signed, load_i64(a), load_i64(b));
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

	if (m->value->kind == TY_TSERIES) {
		/* from the least to the most recently updated */
		uint64_t la, lb;
		out_tseries_latest(a->buckets, a->nbuckets, &la);
		out_tseries_latest(b->buckets, b->nbuckets, &lb);
		c = la < lb ? -1 : la > lb;
	} else if (sc->by_value) {
		if (a->buckets) {
			uint64_t ta = out_hist_total(a->buckets, a->nbuckets), tb = out_hist_total(b->buckets, b->nbuckets);
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
		x = out_print_div_s64(out_avg_value(load_i64(v), (uint64_t)load_i64(v + 8)), div);
		memcpy(buf, &x, 8);
		memcpy(buf + 8, &one, 8);
		return buf;
	default:
		return v;
	}
	x = load_i64(v);
	if (is_signed)
		x = out_print_div_s64(x, div);
	else
		x = (int64_t)out_print_div_u64((uint64_t)x, div);
	memcpy(buf, &x, 8);
	return buf;
}

void out_map_print(const struct out_ctx *oc, const struct map_info *m, int64_t top, int64_t div,
	       struct strbuf *out)
{
	const struct writer *wr = oc->writer ? oc->writer : &out_text_writer;
	struct map_entries es;
	struct type *t = m->value;
	bool hist = t->kind == TY_HIST || t->kind == TY_LHIST || t->kind == TY_TSERIES;
	uint8_t buf[16];
	uint64_t ts_last = UINT64_MAX;

	if (maps_read(oc->maps, m, &es) < 0)
		return;
	if (oc->plan && oc->plan->modern && m->array && maps_emptied(oc->maps, m->bpf_map) && es.n == 1) {
		/* cleared or deleted and not counted since: no entry (today's bpftrace) */
		uint64_t v;
		memcpy(&v, es.v[0].value, 8);
		if (!v) {
			maps_entries_free(&es);
			es.n = 0;
		}
	}
	struct sort_ctx sc = { m, sorted_by_value(t) };
	if (es.n > 1)
		qsort_r(es.v, es.n, sizeof(*es.v), cmp_entries, &sc);
	if (t->kind == TY_TSERIES) {
		/* the last n intervals before the latest of any key (bpftrace's window) */
		for (size_t i = 0; i < es.n; i++) {
			uint64_t l;
			out_tseries_latest(es.v[i].buckets, es.v[i].nbuckets, &l);
			if (!i || l > ts_last)
				ts_last = l;
		}
	}

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
			it.sum = e->sum;
			it.has_sum = e->has_sum;
			it.ts_last = ts_last;
			it.ts_first = ts_last - t->count + 1; /* past ts_last when it wraps: nothing */
			/* lhist ignores div (0.17) */
			if (t->kind == TY_HIST)
				it.div = out_print_divisor(div);
		} else {
			it.value = divide(t, e->value, div, buf);
		}
		w.i = i - first;
		wr->map_entry(&w, &it);
	}
	wr->map_end(&w);
	maps_entries_free(&es);
}

static int cmp_map_name(const void *a, const void *b)
{
	const struct map_info *x = *(struct map_info *const *)a, *y = *(struct map_info *const *)b;
	return strcmp(x->name, y->name);
}

void out_maps_print_all(const struct out_ctx *oc, struct strbuf *out)
{
	const struct map_set *ms = &oc->plan->maps;
	struct map_info **v = util_xmalloc(sizeof(*v) * (ms->user.len + 1));

	if (ms->user.len)
		memcpy(v, ms->user.data, sizeof(*v) * ms->user.len);
	qsort(v, ms->user.len, sizeof(*v), cmp_map_name);
	for (size_t i = 0; i < ms->user.len; i++)
		if (live_fd(oc->maps, v[i]->bpf_map) >= 0)
			out_map_print(oc, v[i], 0, 0, out);
	free(v);
}
