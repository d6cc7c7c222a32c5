/* SPDX-License-Identifier: MIT */
/*
 * Reading user maps from the kernel: every key with its value, per-CPU
 * copies merged, hist/lhist buckets gathered per key.
 */
#ifndef LANTERN_MAPS_MAPREAD_H
#define LANTERN_MAPS_MAPREAD_H

#include "maps/maps.h"

struct map_entry {
	uint8_t *key;	   /* m->key->size bytes (without the bucket) */
	uint8_t *value;	   /* merged value, m->value->size bytes */
	uint64_t *buckets; /* hist / lhist: the counts per bucket; tseries: (interval + 1, value) per slot */
	uint32_t nbuckets;
	int64_t sum;  /* hist / lhist: the sum of the values, when kept (HIST_SUM_BUCKET) */
	bool has_sum;
};

struct map_entries {
	struct map_entry *v;
	size_t n;
	uint8_t *mem;
};

/* All entries of m, in no particular order. 0, or -1 with errno. */
int maps_read(const struct live_maps *lm, const struct map_info *m, struct map_entries *out);
void maps_entries_free(struct map_entries *e);

/* Merge per-CPU values: value i of ncpu is at data + i * stride. */
void maps_agg_merge(const struct type *t, const uint8_t *data, int ncpu, size_t stride, uint8_t *out);

int maps_clear(const struct live_maps *lm, const struct map_info *m);
int maps_zero(const struct live_maps *lm, const struct map_info *m);

/* The frames of stack id (a TY_STACK value) into ips (t->count of them); false if none. */
bool maps_stack_read(const struct live_maps *lm, const struct type *t, int64_t id, uint64_t *ips);
/* The sum over CPUs of the u64 at key 0 of per-CPU array map (the lost-event counter). */
uint64_t maps_percpu_sum(const struct live_maps *lm, int map);
/* The same, of the counter at index key */
uint64_t maps_percpu_sum_at(const struct live_maps *lm, int map, uint32_t key);

#endif
