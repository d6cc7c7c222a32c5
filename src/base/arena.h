/* SPDX-License-Identifier: MIT */
/*
 * Arena allocation: the AST, types and IR of a session are allocated here
 * and released all at once when the session ends.
 */
#ifndef LANTERN_BASE_ARENA_H
#define LANTERN_BASE_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;
};

void *arena_alloc(struct arena *a, size_t n);	/* zeroed, 16-byte aligned */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(struct arena *a);

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (n)))

#endif
