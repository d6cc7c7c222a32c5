// SPDX-License-Identifier: MIT
#include "base/source.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static void index_lines(struct source *src)
{
	uint32_t n = 1, i;

	for (i = 0; i < src->len; i++)
		n += src->text[i] == '\n';
	free(src->line_start);
	src->line_start = util_xmalloc(sizeof(uint32_t) * n);
	src->nlines = n;
	src->line_start[0] = 0;
	n = 1;
	for (i = 0; i < src->len; i++)
		if (src->text[i] == '\n')
			src->line_start[n++] = i + 1;
}

void source_init(struct source *src, const char *name, const char *text, size_t len)
{
	*src = (struct source){ .name = name, .text = text, .len = (uint32_t)len };
	index_lines(src);
}

void source_free(struct source *src)
{
	free(src->line_start);
	free(src->files);
	free(src->own);
	src->line_start = NULL;
	src->files = NULL;
	src->own = NULL;
}

uint32_t source_append(struct source *src, const char *name, const char *text, size_t len)
{
	/* the script, a newline, the file: it starts a line of its own */
	size_t at = (size_t)src->len + 1;
	char *t = util_xmalloc(at + len + 1);

	memcpy(t, src->text, src->len);
	t[src->len] = '\n';
	memcpy(t + at, text, len);
	t[at + len] = 0;
	free(src->own);
	src->own = t;
	src->text = t;
	src->len = (uint32_t)(at + len);
	index_lines(src);
	src->files = util_xrealloc(src->files, sizeof(*src->files) * (src->nfiles + 1));
	src->files[src->nfiles++] = (struct source_file){ name, (uint32_t)at, 0 };
	for (uint32_t i = 0; i < src->nlines; i++)
		if (src->line_start[i] == at)
			src->files[src->nfiles - 1].line0 = i;
	return (uint32_t)at;
}

/* The appended file that holds off, or NULL: the script's own text */
static const struct source_file *file_at(const struct source *src, uint32_t off)
{
	for (uint32_t i = src->nfiles; i-- > 0;)
		if (off >= src->files[i].lo)
			return &src->files[i];
	return NULL;
}

/* The index of the line that holds off */
static uint32_t line_index(const struct source *src, uint32_t off)
{
	uint32_t lo = 0, hi = src->nlines;

	if (off > src->len)
		off = src->len;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (src->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void source_pos(const struct source *src, uint32_t off, uint32_t *line, uint32_t *col)
{
	const struct source_file *f = file_at(src, off);
	uint32_t lo = line_index(src, off);

	if (off > src->len)
		off = src->len;
	*line = lo + 1 - (f ? f->line0 : 0);
	*col = off - src->line_start[lo] + 1;
}

const char *source_name_at(const struct source *src, uint32_t off)
{
	const struct source_file *f = file_at(src, off);

	return f ? f->name : src->name;
}

const char *source_line_at(const struct source *src, uint32_t off, uint32_t *len)
{
	uint32_t l = line_index(src, off), start, end;

	start = src->line_start[l];
	end = l + 1 < src->nlines ? src->line_start[l + 1] - 1 : src->len;
	if (end > start && src->text[end - 1] == '\r')
		end--;
	*len = end - start;
	return src->text + start;
}
