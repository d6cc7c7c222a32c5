// SPDX-License-Identifier: MIT
/*
 * Updates of maps keyed by stacks unwound in user space (ustacks.h): a
 * program sends them once it cannot name the stack, user space applies
 * them when it has unwound it. An aggregation's per-CPU copies are merged
 * into the first (the programs never write these keys themselves), so what
 * the readers merge is the same.
 */
#include "maps/buckets.h"
#include "maps/mapread.h"
#include "maps/ustacks.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int ncpus(void)
{
	static int n;

	if (!n && (n = libbpf_num_possible_cpus()) <= 0)
		n = 1;
	return n;
}

/* One aggregation step of v onto the merged value a (16 bytes). */
static void agg_apply(const struct type *t, uint8_t *a, int64_t v)
{
	int64_t x = load_i64(a), y = load_i64(a + 8);

	switch (t->kind) {
	case TY_COUNT:
		x++;
		break;
	case TY_SUM:
		x += v;
		break;
	case TY_MIN:
	case TY_MAX: {
		bool less = t->is_signed ? v < x : (uint64_t)v < (uint64_t)x;
		if (!y || (t->kind == TY_MIN ? less : (!less && v != x)))
			x = v;
		y = 1;
		break;
	}
	case TY_AVG:
	case TY_STATS:
		x += v;
		y++;
		break;
	default: /* a bucket's count */
		x += v;
		break;
	}
	memcpy(a, &x, 8);
	memcpy(a + 8, &y, 8);
}

/* key's per-CPU value folded into one, v applied, written back on the first CPU. */
static int percpu_apply(int fd, const struct type *t, const uint8_t *key, int64_t v)
{
	int n = ncpus();
	size_t stride = ALIGN_UP(t->size, 8);
	uint8_t *vals = util_xcalloc(n, stride), merged[16] = { 0 };
	int rc;

	if (bpf_map_lookup_elem(fd, key, vals) == 0)
		maps_agg_merge(t, vals, n, stride, merged);
	agg_apply(t, merged, v);
	memset(vals, 0, n * stride);
	memcpy(vals, merged, t->size);
	rc = bpf_map_update_elem(fd, key, vals, BPF_ANY);
	free(vals);
	return rc;
}

static int64_t compound(enum maps_upd_op op, int64_t x, int64_t a)
{
	switch (op) {
	case UPD_ADD: return x + a;
	case UPD_SUB: return x - a;
	case UPD_MUL: return x * a;
	case UPD_DIV: return a ? (int64_t)((uint64_t)x / (uint64_t)a) : 0;
	case UPD_MOD: return a ? (int64_t)((uint64_t)x % (uint64_t)a) : 0;
	case UPD_AND: return x & a;
	case UPD_OR: return x | a;
	case UPD_XOR: return x ^ a;
	case UPD_SHL: return (uint64_t)a < 64 ? (int64_t)((uint64_t)x << a) : 0;
	case UPD_SHR: return (uint64_t)a < 64 ? (int64_t)((uint64_t)x >> a) : 0;
	default: return a;
	}
}

int maps_user_update(const struct live_maps *lm, const struct map_info *m, const uint8_t *key,
		     const uint8_t *value, enum maps_upd_op op, bool hist_sums)
{
	int fd = live_fd(lm, m->bpf_map);
	const struct type *t = m->value;
	uint8_t *k = util_xcalloc(1, m->key_size + 8);
	size_t ukey = m->key ? m->key->size : 0;
	int64_t v = load_i64(value);
	int rc;

	memcpy(k, key, ukey);
	if (op == UPD_DELETE) {
		rc = bpf_map_delete_elem(fd, k);
	} else if (op == UPD_AGG && (t->kind == TY_HIST || t->kind == TY_LHIST)) {
		uint64_t b = t->kind == TY_HIST ? maps_hist_bucket(v)
						: maps_lhist_bucket(v, t->lmin, t->lmax, t->lstep);
		memcpy(k + m->key_size - 8, &b, 8);
		rc = percpu_apply(fd, t, k, 1);
		b = HIST_SUM_BUCKET;
		memcpy(k + m->key_size - 8, &b, 8);
		if (rc == 0 && hist_sums)
			rc = percpu_apply(fd, t, k, v);
	} else if (op == UPD_AGG) {
		rc = percpu_apply(fd, t, k, v);
	} else if (op == UPD_STORE) {
		rc = bpf_map_update_elem(fd, k, value, BPF_ANY);
	} else {
		int64_t x = 0;
		uint8_t buf[8];
		bpf_map_lookup_elem(fd, k, buf) == 0 ? memcpy(&x, buf, 8) : (void)0;
		x = compound(op, x, v);
		rc = bpf_map_update_elem(fd, k, &x, BPF_ANY);
	}
	free(k);
	return rc < 0 ? -1 : 0;
}
