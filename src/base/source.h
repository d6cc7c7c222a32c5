/* SPDX-License-Identifier: MIT */
/* A script's text, with a line index for positions in diagnostics. */
#ifndef LANTERN_BASE_SOURCE_H
#define LANTERN_BASE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* A byte range [lo, hi) of the source text. */
struct span {
	uint32_t lo, hi;
};

#define SPAN(l, h) ((struct span){ (l), (h) })
#define SPAN_NONE ((struct span){ UINT32_MAX, UINT32_MAX })
#define span_is_none(s) ((s).lo == UINT32_MAX)

static inline struct span span_join(struct span a, struct span b)
{
	if (span_is_none(a))
		return b;
	if (span_is_none(b))
		return a;
	return SPAN(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

struct source {
	const char *name; /* "stdin" for -e, else the path */
	const char *text; /* NUL-terminated */
	uint32_t len;
	uint32_t *line_start; /* offset of each line's first byte */
	uint32_t nlines;
};

void source_init(struct source *src, const char *name, const char *text, size_t len);
void source_free(struct source *src);
/* 1-based line and column of a byte offset. */
void source_pos(const struct source *src, uint32_t off, uint32_t *line, uint32_t *col);
/* The text of a 1-based line, without its newline. */
const char *source_line(const struct source *src, uint32_t line, uint32_t *len);

#endif
