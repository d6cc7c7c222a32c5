/* SPDX-License-Identifier: MIT */
/*
 * Printing maps, at exit and for print(@map [, top [, div]]): one walker
 * for every output format.
 *
 * out_map_print() reads the map (maps/mapread.h), sorts its entries (FORMAT.md
 * section 5), keeps the last `top` of them, divides the values by `div`
 * and hands them, in order, to the session's writer (output/writer.h):
 *
 *   writer->map_begin(w)           w->n = entries that follow (maybe 0)
 *   writer->map_entry(w, item)     w->i = 0 .. n-1
 *   writer->map_end(w)
 *
 * The writers only format: what an entry's key and value say is decided
 * here, and by out_value_format() / out_map_key_format() (value.h).
 */
#ifndef LANTERN_OUTPUT_MAPPRINT_H
#define LANTERN_OUTPUT_MAPPRINT_H

#include "maps/mapread.h"
#include "output/value.h"
#include "plan/plan.h"

/* The map being printed. */
struct map_walk {
	const struct out_ctx *oc;
	const struct map_info *m;
	struct strbuf *out;
	size_t n; /* entries written */
	size_t i; /* the entry being written */
};

/* One entry, ready to write. */
struct map_item {
	const uint8_t *key;	 /* m->key fields; NULL for a map without keys */
	const uint8_t *value;	 /* m->value, divided by print()'s div; NULL for hist/lhist */
	const uint64_t *buckets; /* hist/lhist: every bucket, undivided (hist: HIST_NBUCKETS) */
	uint32_t nbuckets;
	uint64_t div; /* hist: show bucket counts divided by this (>= 1); 1 otherwise */
	int64_t sum;  /* hist/lhist: the sum of the values, when has_sum (Prometheus) */
	bool has_sum;
	uint64_t ts_first, ts_last; /* tseries: the map's window of intervals (output/tseries.h) */
};

/* One map, all its entries. top: only the last (biggest) top entries. */
void out_map_print(const struct out_ctx *oc, const struct map_info *m, int64_t top, int64_t div,
	       struct strbuf *out);
/* Every map, by name. */
void out_maps_print_all(const struct out_ctx *oc, struct strbuf *out);

#endif
