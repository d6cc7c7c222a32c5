// SPDX-License-Identifier: MIT
/* The table of unwound user stacks and the snapshots' tokens: see ustacks.h. */
#include "maps/ustacks.h"
#include "maps/mapread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN_CPUS 1024
/*
 * Bounds, so that days of profiling a busy machine keep memory flat: a
 * snapshot's token is looked up soon after it was sent (its updates come
 * in order behind it), so each CPU keeps the last TOKEN_WINDOW of them;
 * the table keeps at most STACKS_MAX distinct stacks (every process's are
 * distinct: their addresses differ), past which a new stack is refused
 * (its updates are counted as lost, said at exit)
 */
#define TOKEN_WINDOW (1u << 16)
#define STACKS_MAX (1u << 17)
#define TOKEN_REFUSED UINT32_MAX /* a token whose stack the full table refused */

struct ustack {
	uint32_t n;
	uint64_t *ips;
};

struct maps_ustacks {
	pthread_mutex_t lock; /* the metrics server reads from its own thread */
	struct ustack *v;
	size_t n, cap;
	size_t limit;	 /* at most this many stacks (0: STACKS_MAX) */
	uint32_t *index; /* open addressing: 1 + position in v, 0 empty */
	size_t nindex;
	/* per CPU, the last TOKEN_WINDOW sequence numbers: which, and 1 + the stack's position (or TOKEN_REFUSED) */
	struct token_slot {
		uint64_t seq;
		uint32_t id;
	} *tokens[TOKEN_CPUS];
};

static uint64_t hash_ips(const uint64_t *ips, uint32_t n)
{
	uint64_t h = 1469598103934665603ull ^ n;

	for (uint32_t i = 0; i < n; i++) {
		h ^= ips[i];
		h *= 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

static struct maps_ustacks *table(const struct live_maps *lm)
{
	struct live_maps *m = (struct live_maps *)lm;

	if (!m->ustacks) {
		m->ustacks = util_xcalloc(1, sizeof(*m->ustacks));
		pthread_mutex_init(&m->ustacks->lock, NULL);
	}
	return m->ustacks;
}

static void rehash(struct maps_ustacks *t)
{
	size_t n = t->nindex ? t->nindex * 2 : 1024;

	free(t->index);
	t->index = util_xcalloc(n, sizeof(*t->index));
	t->nindex = n;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = hash_ips(t->v[i].ips, t->v[i].n) & (n - 1);
		while (t->index[h])
			h = (h + 1) & (n - 1);
		t->index[h] = (uint32_t)i + 1;
	}
}

void maps_ustack_limit(const struct live_maps *lm, size_t max)
{
	table(lm)->limit = max < STACKS_MAX ? max : 0;
}

int64_t maps_ustack_intern(const struct live_maps *lm, const uint64_t *ips, uint32_t n)
{
	struct maps_ustacks *t = table(lm);
	int64_t id;

	pthread_mutex_lock(&t->lock);
	if (2 * (t->n + 1) > t->nindex)
		rehash(t);
	size_t h = hash_ips(ips, n) & (t->nindex - 1);
	for (; t->index[h]; h = (h + 1) & (t->nindex - 1)) {
		const struct ustack *s = &t->v[t->index[h] - 1];
		if (s->n == n && !memcmp(s->ips, ips, n * sizeof(*ips))) {
			id = (int64_t)(STACK_ID_INTERN | (t->index[h] - 1));
			pthread_mutex_unlock(&t->lock);
			return id;
		}
	}
	if (t->n >= (t->limit ? t->limit : STACKS_MAX)) {
		pthread_mutex_unlock(&t->lock);
		return -1; /* full: the snapshot's updates are lost, and counted */
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = util_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n].n = n;
	t->v[t->n].ips = util_xmalloc((n ? n : 1) * sizeof(*ips));
	memcpy(t->v[t->n].ips, ips, n * sizeof(*ips));
	t->index[h] = (uint32_t)++t->n;
	id = (int64_t)(STACK_ID_INTERN | (t->n - 1));
	pthread_mutex_unlock(&t->lock);
	return id;
}

void maps_ustack_token_set(const struct live_maps *lm, uint64_t token, int64_t id)
{
	struct maps_ustacks *t = table(lm);
	uint64_t cpu = (token & ~STACK_ID_TOKEN) >> STACK_TOKEN_CPU_SHIFT;
	uint64_t seq = token & ((1ull << STACK_TOKEN_CPU_SHIFT) - 1);

	if (cpu >= TOKEN_CPUS || (id >= 0 && !(id & STACK_ID_INTERN)))
		return;
	pthread_mutex_lock(&t->lock);
	if (!t->tokens[cpu])
		t->tokens[cpu] = util_xcalloc_resident(TOKEN_WINDOW, sizeof(*t->tokens[cpu]));
	t->tokens[cpu][seq % TOKEN_WINDOW] =
		(struct token_slot){ seq, id < 0 ? TOKEN_REFUSED : (uint32_t)(id & ~STACK_ID_INTERN) + 1 };
	pthread_mutex_unlock(&t->lock);
}

int64_t maps_ustack_token_get(const struct live_maps *lm, uint64_t token)
{
	struct maps_ustacks *t = table(lm);
	uint64_t cpu = (token & ~STACK_ID_TOKEN) >> STACK_TOKEN_CPU_SHIFT;
	uint64_t seq = token & ((1ull << STACK_TOKEN_CPU_SHIFT) - 1);
	int64_t id = -1;

	pthread_mutex_lock(&t->lock);
	if (cpu < TOKEN_CPUS && t->tokens[cpu]) {
		const struct token_slot *ts = &t->tokens[cpu][seq % TOKEN_WINDOW];
		if (ts->id == TOKEN_REFUSED && ts->seq == seq)
			id = MAPS_USTACK_REFUSED;
		else if (ts->id && ts->seq == seq)
			id = (int64_t)(STACK_ID_INTERN | (ts->id - 1));
	}
	pthread_mutex_unlock(&t->lock);
	return id;
}

bool maps_ustack_frames(const struct live_maps *lm, int64_t id, uint64_t *ips, uint32_t max)
{
	struct maps_ustacks *t = table(lm);
	uint64_t i = (uint64_t)id & ~STACK_ID_INTERN;
	bool ok = false;

	memset(ips, 0, max * sizeof(*ips));
	pthread_mutex_lock(&t->lock);
	if (i < t->n) {
		memcpy(ips, t->v[i].ips, MIN(max, t->v[i].n) * sizeof(*ips));
		ok = t->v[i].n > 0;
	}
	pthread_mutex_unlock(&t->lock);
	return ok;
}

bool maps_key_has_ustack(const struct type *key)
{
	for (uint32_t i = 0; key && i < key->nfields; i++)
		if (key->fields[i].type->kind == TY_STACK && key->fields[i].type->user)
			return true;
	return false;
}

enum maps_ustacks_resolved maps_key_ustacks_resolve(const struct live_maps *lm, const struct type *key,
						    uint8_t *k, bool kernel_too)
{
	for (uint32_t i = 0; key && i < key->nfields; i++) {
		const struct type *ft = key->fields[i].type;
		uint8_t *p = k + key->fields[i].offset;
		int64_t id = load_i64(p);
		uint64_t ips[STACK_MAX_FRAMES];
		if (ft->kind != TY_STACK || !ft->user || id < 0)
			continue;
		if (id & STACK_ID_TOKEN) {
			id = maps_ustack_token_get(lm, (uint64_t)id);
			if (id < 0)
				return id == MAPS_USTACK_REFUSED ? USTACKS_REFUSED : USTACKS_LOST;
		} else if (!(id & STACK_ID_INTERN) && kernel_too) {
			uint32_t n = 0;
			if (!maps_stack_read(lm, ft, id, ips))
				continue;
			while (n < ft->count && ips[n])
				n++;
			id = maps_ustack_intern(lm, ips, n);
		}
		memcpy(p, &id, 8);
	}
	return USTACKS_OK;
}

void maps_ustacks_free(struct live_maps *lm)
{
	struct maps_ustacks *t = lm->ustacks;

	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].ips);
	for (size_t c = 0; c < TOKEN_CPUS; c++)
		free(t->tokens[c]);
	free(t->v);
	free(t->index);
	pthread_mutex_destroy(&t->lock);
	free(t);
	lm->ustacks = NULL;
}
