/* SPDX-License-Identifier: MIT */
/*
 * The maps of a plan, and the kernel maps made from them.
 *
 * Compile time (no kernel): sema finds the user maps (@name) and their
 * types; maps_plan() then gives each one a BPF map, a per-CPU one for
 * aggregations (count, sum, ..., hist: merged in user space, never a shared
 * lookup-add-update that loses counts), an array for an unkeyed count();
 * beside them the scratch area, the ring buffer and the lost-event counter.
 * Other maps join as the compiler needs them: a stack trace map per kind
 * and depth (maps_stack_for), a provider's own (a syscall group's map,
 * with its contents). Code refers to a map by its index in set->bpf.
 *
 * Run time: maps_create() makes a kernel map of each description, filled
 * with its initial entries; the readers (mapread.h) take a live_maps.
 */
#ifndef LANTERN_MAPS_MAPS_H
#define LANTERN_MAPS_MAPS_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/source.h"
#include "base/vec.h"
#include "types/type.h"

/* A user map, @name. */
struct map_info {
	const char *name; /* without '@'; "" for @ */
	struct span span; /* first mention */
	int nkeys;	  /* -1: not known yet */
	struct type *key; /* TY_TUPLE of the stored key types, NULL without keys */
	/*
	 * Per key: the builtin every access writes there (`comm`, `pid`,
	 * `kstack`...), "" when accesses differ or it is no builtin, NULL
	 * before the first access. Output formats name keys after it.
	 */
	const char **key_names;
	struct type *value;
	struct span value_span; /* where the value type was fixed */
	uint32_t key_size;	/* bytes, including the bucket of hist/lhist */
	int bpf_map;		/* index in map_set.bpf, -1 before maps_plan() */
	bool percpu, array;	/* BPF map flavour chosen after typing */
	/* `let @m = lruhash(N);` (today's bpftrace): the BPF map's type and size */
	bool declared;
	enum bpf_map_type decl_type;
	uint32_t decl_max;
	struct span decl_span;
};

/* One BPF map to create. */
struct bpf_map_desc {
	const char *name;
	enum bpf_map_type type;
	uint32_t key_size, value_size, max_entries;
	uint32_t flags; /* BPF_F_*: BPF_F_NO_PREALLOC */
	/* its contents when created: ninit entries of key_size + value_size bytes */
	const uint8_t *init;
	uint32_t ninit;
};

/*
 * ustack_seq's value, per CPU: the snapshots' sequence, those the ring
 * buffer refused, and the last process's walk (ustack_fp's answer for
 * tgid, valid while ustack_gen is gen): a program on a frame-pointer
 * process looks up no hash.
 */
struct ustack_cpu {
	uint64_t seq, lost;
	uint64_t tgid, gen, fp;
};

/* A stack trace map: the kernel tells stacks apart by their first `frames` frames. */
struct stack_map {
	bool user;
	uint32_t frames;
	int bpf_map;
};

struct map_set {
	VEC(struct map_info *) user;
	VEC(struct bpf_map_desc) bpf;
	VEC(struct stack_map) stacks;
	int scratch, ringbuf, lost; /* indexes in bpf; -1 before maps_plan() */
	int stop; /* an array of one u64: non-zero once the session stopped the probes */
	/*
	 * User stacks unwound in user space (ustacks.h), -1 without: ustack_seq,
	 * a per-CPU array of one struct ustack_cpu; ustack_fp, a hash of the
	 * processes (u32 tgid) whose stacks the kernel walks (frame pointers),
	 * filled by the session, which counts its changes in ustack_gen (an
	 * array of one u64).
	 */
	int ustack_seq, ustack_fp, ustack_gen;
};

void maps_init(struct map_set *ms);
void maps_free(struct map_set *ms);
/* Add a BPF map; its index. */
int maps_add(struct map_set *ms, const char *name, enum bpf_map_type type, uint32_t key_size,
	     uint32_t value_size, uint32_t max_entries);
/* The user map @name, added (untyped) on first mention. */
struct map_info *maps_user(struct map_set *ms, struct arena *a, const char *name, struct span sp);
#define MAP_KEYS_DEFAULT 4096	  /* keys of a map (BPFTRACE_MAP_KEYS_MAX) */
#define MAP_KEYS_LIMIT (1u << 24) /* the most lantern takes */

/*
 * After typing: a BPF map for each user map, of at most keys_max keys
 * (hist and lhist: 4 times as many entries, for their buckets), then
 * scratch, ring buffer and lost counter.
 */
void maps_plan(struct map_set *ms, struct arena *a, uint32_t ringbuf_bytes, uint32_t keys_max);
/* The stack trace map for stacks of type t (TY_STACK): its index, made on first use. */
int maps_stack_for(struct map_set *ms, struct arena *a, const struct type *t);
/* The same, NULL when the plan has none. */
const struct stack_map *maps_stack_find(const struct map_set *ms, const struct type *t);

/* The kernel maps of a map set: fd[i] for set->bpf[i], -1 when not created. */
struct live_maps {
	const struct map_set *set;
	int *fd;
	size_t n;
	struct maps_ustacks *ustacks; /* the stacks unwound in user space (ustacks.h) */
	/*
	 * By BPF map: a keyless count() (a per-CPU array, whose entry cannot
	 * go) was cleared or deleted: under today's bpftrace it has no entry
	 * until it counts again (maps_emptied)
	 */
	uint8_t *emptied;
};

/* Create every map of set (and fill those with contents); errors in d. 0 or -1. */
int maps_create(struct live_maps *lm, const struct map_set *set, struct diag *d, bool verbose);
#define MAPS_RINGBUF_NAME "events"
/*
 * Start making the ring buffer of bytes now, in a thread of its own: the
 * kernel takes a millisecond or two to allocate 8 MB, which then overlaps
 * the compilation; maps_create() takes it if the plan's is that size.
 */
void maps_ringbuf_prefetch(uint32_t bytes);
/*
 * The set's other maps, as they are described now, made by that thread
 * too once the ring buffer is (a planner that knows its maps before it
 * generates code): maps_create() takes each whose description has not
 * changed since.
 */
void maps_prefetch_set(const struct map_set *set);
void maps_close(struct live_maps *lm);
/* Whether map i's only entry is gone: cleared or deleted, and 0 since */
static inline bool maps_emptied(const struct live_maps *lm, int i)
{
	return lm && lm->emptied && i >= 0 && (size_t)i < lm->n && lm->emptied[i];
}

/* The fd of BPF map i, -1 if it is not there. */
static inline int live_fd(const struct live_maps *lm, int i)
{
	return lm && i >= 0 && (size_t)i < lm->n ? lm->fd[i] : -1;
}

#endif
