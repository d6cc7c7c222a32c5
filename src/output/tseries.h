/* SPDX-License-Identifier: MIT */
/*
 * tseries() maps (today's bpftrace), printed: each key's intervals in the
 * map's window (the last n intervals before the latest any key saw), as a
 * chart in text (a row per interval: its start, a '*' where the value
 * lies between the minimum and maximum, the value) or an array in JSON.
 * A key's intervals come as maps/mapread.h gathers them: for each of its n
 * slots, the slot's interval + 1 (0: the slot has no entry) and value.
 */
#ifndef LANTERN_OUTPUT_TSERIES_H
#define LANTERN_OUTPUT_TSERIES_H

#include "base/strbuf.h"
#include "types/type.h"

#include <stdbool.h>
#include <stdint.h>

/* The latest interval of a key's slots; false when it has none */
bool out_tseries_latest(const uint64_t *slots, uint32_t nslots, uint64_t *latest);
/* The chart of one key over intervals [first, last] (none when first > last) */
void out_tseries_text(struct strbuf *out, const struct type *t, const uint64_t *slots, uint32_t nslots,
		      uint64_t first, uint64_t last);
/* [{"interval_start": "1970-01-01 00:00:00.500000000", "value": 9}, ...] */
void out_tseries_json(struct strbuf *out, const struct type *t, const uint64_t *slots, uint32_t nslots,
		      uint64_t first, uint64_t last);

#endif
