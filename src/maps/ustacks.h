/* SPDX-License-Identifier: MIT */
/*
 * User stacks unwound in user space (sym/unwind.h), in the id space of
 * stack values: a stack value's u64 id is
 *
 *   0 .. 2^32-1         a kernel stack map's id (bpf_get_stackid: frame pointers)
 *   STACK_ID_TOKEN | n  a snapshot a program sent (n: its CPU << 40 | its
 *                       sequence number on that CPU); user space unwinds it and
 *                       says which stack it is (maps_ustack_token_set)
 *   STACK_ID_INTERN | i the stack i of the table of unwound stacks
 *   negative            no stack (bpf_get_stackid's error)
 *
 * The table keeps each distinct stack once (its frames, interned), so
 * that equal stacks are equal keys however they were walked: the reader
 * (mapread.c) turns the kernel's ids of a map that holds unwound stacks
 * into the table's and merges the entries that become equal. A program
 * cannot update a map under a key whose stack is still a snapshot: it
 * sends the update instead (maps_user_update), and user space applies it
 * to the map once the stack is known.
 */
#ifndef LANTERN_MAPS_USTACKS_H
#define LANTERN_MAPS_USTACKS_H

#include "maps/maps.h"

#define STACK_ID_TOKEN (1ull << 61)
#define STACK_ID_INTERN (1ull << 62)
#define STACK_TOKEN_CPU_SHIFT 40

/*
 * At most max distinct stacks in the table (the keys the maps keyed by
 * user stacks can hold: more could never be in them), past which a new
 * one is refused; 0: the table's own bound.
 */
void maps_ustack_limit(const struct live_maps *lm, size_t max);
/* The id of the stack of n frames ips (the pc first), added if new. */
int64_t maps_ustack_intern(const struct live_maps *lm, const uint64_t *ips, uint32_t n);
/* A snapshot's stack, once unwound (id: maps_ustack_intern's). */
void maps_ustack_token_set(const struct live_maps *lm, uint64_t token, int64_t id);
/* What a snapshot's token gives when the full table refused its stack (its id set negative) */
#define MAPS_USTACK_REFUSED (-2)
/* The id a snapshot's stack became; -1 when it never came (lost), MAPS_USTACK_REFUSED. */
int64_t maps_ustack_token_get(const struct live_maps *lm, uint64_t token);
/* The frames of a table id into ips (max of them, the rest zeroed); false if none. */
bool maps_ustack_frames(const struct live_maps *lm, int64_t id, uint64_t *ips, uint32_t max);
/* Whether a map key of type key holds a user stack */
bool maps_key_has_ustack(const struct type *key);
/*
 * The key's user stack ids as the table's: snapshots' tokens resolved,
 * kernel ids interned (with kernel_too). Not USTACKS_OK when a token was
 * not resolved: its snapshot was lost, or its stack did not fit in the table.
 */
enum maps_ustacks_resolved { USTACKS_OK, USTACKS_LOST, USTACKS_REFUSED };
enum maps_ustacks_resolved maps_key_ustacks_resolve(const struct live_maps *lm, const struct type *key,
						    uint8_t *k, bool kernel_too);
void maps_ustacks_free(struct live_maps *lm);

/* What an update a program sent does (maps_user_update) */
enum maps_upd_op {
	UPD_AGG,    /* the map's aggregation (count, sum, ..., hist) of the value */
	UPD_STORE,  /* @m[k] = value */
	UPD_DELETE, /* delete(@m[k]) */
	UPD_ADD, UPD_SUB, UPD_MUL, UPD_DIV, UPD_MOD, UPD_AND, UPD_OR, UPD_XOR, UPD_SHL, UPD_SHR,
};

/*
 * Apply an update to map m under key (m->key's bytes, its user stacks
 * resolved): value is the aggregated value (a u64) or the stored bytes.
 * hist_sums: keep hist's sum bucket too. 0, or -1 with errno (E2BIG: full).
 */
int maps_user_update(const struct live_maps *lm, const struct map_info *m, const uint8_t *key,
		     const uint8_t *value, enum maps_upd_op op, bool hist_sums);

#endif
