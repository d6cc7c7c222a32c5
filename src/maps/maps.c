// SPDX-License-Identifier: MIT
/* Planning a script's maps (no kernel): see maps.h. */
#include "maps/maps.h"
#include "maps/buckets.h"

#include <string.h>

void maps_init(struct map_set *ms)
{
	memset(ms, 0, sizeof(*ms));
	ms->scratch = ms->ringbuf = ms->lost = ms->stop = -1;
	ms->ustack_seq = ms->ustack_fp = ms->ustack_gen = -1;
}

void maps_free(struct map_set *ms)
{
	vec_free(&ms->user);
	vec_free(&ms->bpf);
	vec_free(&ms->stacks);
}

int maps_add(struct map_set *ms, const char *name, enum bpf_map_type type, uint32_t key_size,
	     uint32_t value_size, uint32_t max_entries)
{
	struct bpf_map_desc d = { .name = name, .type = type, .key_size = key_size,
				  .value_size = value_size, .max_entries = max_entries };
	vec_push(&ms->bpf, d);
	return ms->bpf.len - 1;
}

struct map_info *maps_user(struct map_set *ms, struct arena *a, const char *name, struct span sp)
{
	vec_foreach(&ms->user, m)
	{
		if (!strcmp((*m)->name, name))
			return *m;
	}
	struct map_info *m = ARENA_NEW(a, struct map_info);
	m->name = name;
	m->span = sp;
	m->nkeys = -1;
	m->bpf_map = -1;
	vec_push(&ms->user, m);
	return m;
}

void maps_plan(struct map_set *ms, struct arena *a, uint32_t ringbuf_bytes, uint32_t keys_max)
{
	vec_foreach(&ms->user, mp)
	{
		struct map_info *m = *mp;
		struct type *v = m->value;
		if (!v) /* declared, never used (sema warned): no map */
			continue;
		bool bucket = v->kind == TY_HIST || v->kind == TY_LHIST || v->kind == TY_TSERIES;
		enum bpf_map_type type = BPF_MAP_TYPE_HASH;
		uint32_t max = keys_max;

		m->percpu = type_is_agg(v);
		m->array = !m->key && v->kind == TY_COUNT && !m->declared;
		/* a bucket's u64 follows the key aligned (a key of strings may be any size) */
		m->key_size = (m->key ? (bucket ? ALIGN_UP(m->key->size, 8) : m->key->size) : 8) +
			      (bucket ? 8 : 0);
		if (m->declared) {
			/* its declaration's type (sema checked it fits the values) and size */
			type = m->decl_type;
			max = m->decl_max;
		} else if (m->array) {
			type = BPF_MAP_TYPE_PERCPU_ARRAY;
			m->key_size = 4;
			max = 1;
		} else if (m->percpu) {
			type = BPF_MAP_TYPE_PERCPU_HASH;
			if (bucket)
				max = keys_max > UINT32_MAX / 4 ? UINT32_MAX : keys_max * 4;
		}
		m->bpf_map = maps_add(ms, arena_printf(a, "@%s", m->name), type, m->key_size, v->size,
				      max);
	}
	/* scratch: one entry per program, sized once the code is generated */
	ms->scratch = maps_add(ms, "scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1);
	ms->ringbuf = maps_add(ms, MAPS_RINGBUF_NAME, BPF_MAP_TYPE_RINGBUF, 0, 0, ringbuf_bytes);
	/* [0]: events the ring buffer could not take; [1 + map]: updates a full map refused */
	ms->lost = maps_add(ms, "lost", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1 + (uint32_t)ms->bpf.len);
	ms->stop = maps_add(ms, "stop", BPF_MAP_TYPE_ARRAY, 4, 8, 1);
}

const struct stack_map *maps_stack_find(const struct map_set *ms, const struct type *t)
{
	vec_foreach(&ms->stacks, sm)
	{
		if (sm->user == t->user && sm->frames == t->count)
			return sm;
	}
	return NULL;
}

int maps_stack_for(struct map_set *ms, struct arena *a, const struct type *t)
{
	const struct stack_map *found = maps_stack_find(ms, t);

	if (found)
		return found->bpf_map;
	struct stack_map sm = { t->user, t->count, -1 };
	sm.bpf_map = maps_add(ms, arena_printf(a, "%cstack%u", t->user ? 'u' : 'k', t->count),
			      BPF_MAP_TYPE_STACK_TRACE, 4, t->count * 8, 4096);
	vec_push(&ms->stacks, sm);
	return sm.bpf_map;
}
