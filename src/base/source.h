/* SPDX-License-Identifier: MIT */
/*
 * A script's text, with a line index for positions in diagnostics. Files
 * the script imports (today's bpftrace's `import "x.bt"`) are appended to
 * the same text, each from a line of its own, so that a span is one range
 * of offsets whichever file it is in; positions are given in its file.
 */
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

/* A file appended to the script (an import): its text from offset lo on */
struct source_file {
	const char *name;
	uint32_t lo;
	uint32_t line0; /* the index of its first line in line_start */
};

struct source {
	const char *name; /* "stdin" for -e, else the path */
	const char *text; /* NUL-terminated */
	uint32_t len;
	uint32_t *line_start; /* offset of each line's first byte */
	uint32_t nlines;
	struct source_file *files; /* appended files, by offset */
	uint32_t nfiles;
	char *own; /* the text once a file is appended (the script's is the caller's) */
};

void source_init(struct source *src, const char *name, const char *text, size_t len);
void source_free(struct source *src);
/*
 * Append a file's text (name is kept, not copied): the offset where it
 * starts. The text moves: pointers into it from before are stale.
 */
uint32_t source_append(struct source *src, const char *name, const char *text, size_t len);
/* 1-based line and column of a byte offset, in the file that holds it. */
void source_pos(const struct source *src, uint32_t off, uint32_t *line, uint32_t *col);
/* The name of the file that holds a byte offset (the script's, or an import's). */
const char *source_name_at(const struct source *src, uint32_t off);
/* The text of the line that holds a byte offset, without its newline. */
const char *source_line_at(const struct source *src, uint32_t off, uint32_t *len);

#endif
