// SPDX-License-Identifier: MIT
#include "maps/mapread.h"
#include "maps/buckets.h"
#include "maps/ustacks.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int ncpus(void)
{
	static int n;

	if (!n) {
		n = libbpf_num_possible_cpus();
		if (n <= 0)
			n = 1;
	}
	return n;
}

static bool is_bucketed(const struct map_info *m)
{
	return m->value->kind == TY_HIST || m->value->kind == TY_LHIST || m->value->kind == TY_TSERIES;
}

static uint32_t nbuckets(const struct type *t)
{
	if (t->kind == TY_TSERIES)
		return 2 * t->count; /* an (epoch, value) pair per slot */
	return t->kind == TY_HIST ? maps_hist_nbuckets(t->count) /* k: sub-buckets' bits */
				  : maps_lhist_nbuckets(t->lmin, t->lmax, t->lstep);
}

/*
 * A tseries slot's buckets, one per CPU, as one: of the latest interval
 * they hold, the CPUs' values combined as the aggregation says (without
 * one, the value set last); {value, 0, epoch}, epoch 0 when none was set
 */
static void tseries_merge(const struct type *t, const uint8_t *data, int ncpu, size_t stride, uint8_t *out)
{
	struct ts_bucket r = { 0 }, b;

	for (int i = 0; i < ncpu; i++) {
		memcpy(&b, data + i * stride, sizeof(b));
		if (!b.epoch || b.epoch < r.epoch)
			continue;
		if (b.epoch > r.epoch) {
			r = b;
			continue;
		}
		switch ((enum ts_agg)t->lmin) {
		case TS_LAST:
			if (b.meta > r.meta)
				r = b;
			break;
		case TS_AVG:
			r.val += b.val;
			r.meta += b.meta;
			break;
		case TS_SUM:
			r.val += b.val;
			break;
		case TS_MIN:
		case TS_MAX: {
			bool less = t->is_signed ? b.val < r.val : (uint64_t)b.val < (uint64_t)r.val;
			if (t->lmin == TS_MIN ? less : !less)
				r.val = b.val;
			break;
		}
		}
	}
	if (t->lmin == TS_AVG && r.epoch && r.meta)
		r.val = t->is_signed ? r.val / r.meta : (int64_t)((uint64_t)r.val / (uint64_t)r.meta);
	r.meta = 0;
	memcpy(out, &r, sizeof(r));
}

void maps_agg_merge(const struct type *t, const uint8_t *data, int ncpu, size_t stride, uint8_t *out)
{
	uint64_t a = 0, b = 0, set = 0;

	if (t->kind == TY_TSERIES) {
		tseries_merge(t, data, ncpu, stride, out);
		return;
	}
	for (int i = 0; i < ncpu; i++) {
		uint64_t x, y = 0;
		memcpy(&x, data + i * stride, 8);
		if (t->size >= 16)
			memcpy(&y, data + i * stride + 8, 8);
		switch (t->kind) {
		case TY_MIN:
		case TY_MAX: {
			if (!y)
				break;
			bool less = t->is_signed ? (int64_t)x < (int64_t)a : x < a;
			if (!set || (t->kind == TY_MIN ? less : (!less && x != a)))
				a = x;
			set = 1;
			break;
		}
		case TY_AVG:
		case TY_STATS:
			a += x;
			b += y;
			break;
		default: /* count, sum, buckets */
			a += x;
			break;
		}
	}
	memcpy(out, &a, 8);
	if (t->size >= 16)
		memcpy(out + 8, t->kind == TY_MIN || t->kind == TY_MAX ? &set : &b, 8);
}

struct raw {
	uint8_t *key;
	uint8_t *value;
};

struct raw_vec {
	struct raw *data;
	size_t len, cap;
};

static int cmp_raw_key(const void *x, const void *y, void *arg)
{
	const struct raw *a = x, *b = y;
	size_t n = *(size_t *)arg;
	return memcmp(a->key, b->key, n);
}

/*
 * A map that holds unwound user stacks (ustacks.h): the kernel's ids of
 * its stacks as the table's, so that a stack is one key however it was
 * walked; entries that became equal merged (hist buckets add up later).
 */
static void canonical_stacks(const struct live_maps *lm, const struct map_info *m,
			     struct raw_vec *raws)
{
	size_t ukey = m->key->size, k = 0;
	int ncpu = 2;

	for (size_t i = 0; i < raws->len; i++)
		maps_key_ustacks_resolve(lm, m->key, raws->data[i].key, true);
	if (is_bucketed(m) || !raws->len)
		return;
	qsort_r(raws->data, raws->len, sizeof(struct raw), cmp_raw_key, &ukey);
	for (size_t i = 0; i < raws->len; i++) {
		struct raw *r = &raws->data[i], *last = k ? &raws->data[k - 1] : NULL;
		if (!last || memcmp(last->key, r->key, ukey)) {
			raws->data[k++] = *r;
			continue;
		}
		if (m->percpu) { /* two merged values merged again */
			size_t vs = m->value->size, stride = ALIGN_UP(vs, 8);
			uint8_t *two = util_xcalloc(ncpu, stride);
			memcpy(two, last->value, vs);
			memcpy(two + stride, r->value, vs);
			maps_agg_merge(m->value, two, ncpu, stride, last->value);
			free(two);
		}
		free(r->key);
		free(r->value);
	}
	raws->len = k;
}

int maps_read(const struct live_maps *lm, const struct map_info *m, struct map_entries *out)
{
	int fd = live_fd(lm, m->bpf_map);
	int ncpu = m->percpu ? ncpus() : 1;
	size_t vsize = m->value->size, stride = ALIGN_UP(vsize, 8);
	size_t ksize = m->key_size, ukey = m->key ? m->key->size : 0;
	uint8_t *key = util_xcalloc(1, ksize + 8), *next = util_xcalloc(1, ksize + 8);
	uint8_t *vbuf = util_xmalloc(stride * ncpu);
	struct raw_vec raws = { 0 };
	bool first = true;

	memset(out, 0, sizeof(*out));
	while (bpf_map_get_next_key(fd, first ? NULL : key, next) == 0) {
		first = false;
		memcpy(key, next, ksize);
		if (bpf_map_lookup_elem(fd, key, vbuf) < 0)
			continue;
		struct raw r = { util_xmalloc(ksize), util_xmalloc(vsize) };
		memcpy(r.key, key, ksize);
		if (m->percpu)
			maps_agg_merge(m->value, vbuf, ncpu, stride, r.value);
		else
			memcpy(r.value, vbuf, vsize);
		vec_push(&raws, r);
	}
	free(key);
	free(next);
	free(vbuf);
	if (lm->ustacks && maps_key_has_ustack(m->key))
		canonical_stacks(lm, m, &raws);

	out->v = util_xcalloc(raws.len + 1, sizeof(struct map_entry));
	if (!is_bucketed(m)) {
		for (size_t i = 0; i < raws.len; i++) {
			out->v[i].key = raws.data[i].key;
			out->v[i].value = raws.data[i].value;
		}
		out->n = raws.len;
		vec_free(&raws);
		return 0;
	}
	/* hist/lhist: (user key, bucket) -> count; gather the buckets per key */
	uint32_t nb = nbuckets(m->value);
	if (raws.len)
		qsort_r(raws.data, raws.len, sizeof(struct raw), cmp_raw_key, &ukey);
	for (size_t i = 0; i < raws.len; i++) {
		struct raw *r = &raws.data[i];
		struct map_entry *e = out->n ? &out->v[out->n - 1] : NULL;
		uint64_t bucket, count;
		if (!e || memcmp(e->key, r->key, ukey)) {
			e = &out->v[out->n++];
			e->key = util_xmalloc(ukey + 1);
			memcpy(e->key, r->key, ukey);
			e->buckets = util_xcalloc(nb, sizeof(uint64_t));
			e->nbuckets = nb;
		}
		memcpy(&bucket, r->key + ksize - 8, 8);
		memcpy(&count, r->value, 8);
		if (m->value->kind == TY_TSERIES) {
			/* the slot's interval + 1 (0: no entry) and value (an entry never set: interval 0, 0) */
			uint64_t epoch;
			memcpy(&epoch, r->value + offsetof(struct ts_bucket, epoch), 8);
			if (2 * bucket + 1 < nb) {
				e->buckets[2 * bucket] = epoch + 1;
				e->buckets[2 * bucket + 1] = count;
			}
		} else if (bucket < nb)
			e->buckets[bucket] += count;
		else if (bucket == HIST_SUM_BUCKET) {
			e->sum = (int64_t)count;
			e->has_sum = true;
		}
		free(r->key);
		free(r->value);
	}
	vec_free(&raws);
	return 0;
}

void maps_entries_free(struct map_entries *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].key);
		free(e->v[i].value);
		free(e->v[i].buckets);
	}
	free(e->v);
	memset(e, 0, sizeof(*e));
}

/* Every key of the map (collected first: deleting while walking skips keys). */
static uint8_t *all_keys(int fd, size_t ksize, size_t *n)
{
	uint8_t *keys = NULL, *cur = util_xcalloc(1, ksize);
	size_t cap = 0, len = 0;

	while (bpf_map_get_next_key(fd, len ? keys + (len - 1) * ksize : NULL, cur) == 0) {
		if (len == cap) {
			cap = cap ? cap * 2 : 64;
			keys = util_xrealloc(keys, cap * ksize);
		}
		memcpy(keys + len * ksize, cur, ksize);
		len++;
	}
	free(cur);
	*n = len;
	return keys;
}

int maps_clear(const struct live_maps *lm, const struct map_info *m)
{
	int fd = live_fd(lm, m->bpf_map);
	size_t n;

	if (m->array)
		return maps_zero(lm, m);
	uint8_t *keys = all_keys(fd, m->key_size, &n);
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(fd, keys + i * m->key_size);
	free(keys);
	return 0;
}

int maps_zero(const struct live_maps *lm, const struct map_info *m)
{
	int fd = live_fd(lm, m->bpf_map);
	int ncpu = m->percpu ? ncpus() : 1;
	uint8_t *zero = util_xcalloc(ncpu, ALIGN_UP(m->value->size, 8));
	size_t n;
	uint8_t *keys = all_keys(fd, m->key_size, &n);

	for (size_t i = 0; i < n; i++)
		bpf_map_update_elem(fd, keys + i * m->key_size, zero, BPF_EXIST);
	free(keys);
	free(zero);
	return 0;
}

bool maps_stack_read(const struct live_maps *lm, const struct type *t, int64_t id, uint64_t *ips)
{
	if (id >= 0 && ((uint64_t)id & STACK_ID_TOKEN))
		id = maps_ustack_token_get(lm, (uint64_t)id);
	if (id >= 0 && ((uint64_t)id & STACK_ID_INTERN))
		return maps_ustack_frames(lm, id, ips, t->count);
	const struct stack_map *sm = maps_stack_find(lm->set, t);
	int fd = sm ? live_fd(lm, sm->bpf_map) : -1;
	uint32_t key = (uint32_t)id;

	return id >= 0 && fd >= 0 && bpf_map_lookup_elem(fd, &key, ips) == 0;
}

uint64_t maps_percpu_sum(const struct live_maps *lm, int map)
{
	return maps_percpu_sum_at(lm, map, 0);
}

uint64_t maps_percpu_sum_at(const struct live_maps *lm, int map, uint32_t key)
{
	int ncpu = ncpus(), fd = live_fd(lm, map);
	uint64_t *v, total = 0;

	if (fd < 0)
		return 0;
	v = util_xcalloc(ncpu, sizeof(uint64_t));
	if (bpf_map_lookup_elem(fd, &key, v) == 0)
		for (int i = 0; i < ncpu; i++)
			total += v[i];
	free(v);
	return total;
}
