/* SPDX-License-Identifier: MIT */
/* Small helpers shared by every part of lantern. */
#ifndef LANTERN_BASE_UTIL_H
#define LANTERN_BASE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define UNUSED __attribute__((unused))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

/* The 8 bytes at p (maybe unaligned) as an int64_t. */
static inline int64_t load_i64(const void *p)
{
	int64_t v;
	__builtin_memcpy(&v, p, 8);
	return v;
}

/* Allocation that cannot fail: lantern exits with a message on OOM. */
void *util_xmalloc(size_t n);
void *util_xcalloc(size_t n, size_t size);
/*
 * util_xcalloc with every page resident at once: a table of fixed size
 * that fills as it is used (a cache) weighs from the start what it will
 * always weigh, rather than growing the RSS for minutes
 */
void *util_xcalloc_resident(size_t n, size_t size);
/* The pages of p[0..n) (a mapped file's) made resident in this process now */
void util_populate(const void *p, size_t n);
void *util_xrealloc(void *p, size_t n);
char *util_xstrdup(const char *s);
char *util_xstrndup(const char *s, size_t n);
char *util_xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Read a whole file (or stdin for "-") into a NUL-terminated buffer. */
char *util_read_file(const char *path, size_t *len);

/* Glob-style match with '*' and '?' (tracepoint and symbol wildcards). */
bool util_wildcard_match(const char *pattern, const char *s);
bool util_has_wildcard(const char *s);

/* The first executable file called name in $PATH (default /usr/bin:/bin),
   into out (n bytes): as execvp() would find it. */
bool util_path_search(const char *name, char *out, size_t n);

/* Levenshtein distance, capped: for "did you mean" suggestions. */
unsigned util_edit_distance(const char *a, const char *b, unsigned cap);

/* Monotonic clock in nanoseconds. */
uint64_t util_now_ns(void);

#endif
