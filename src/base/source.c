// SPDX-License-Identifier: MIT
#include "base/source.h"
#include "base/util.h"

#include <stdlib.h>

void source_init(struct source *src, const char *name, const char *text, size_t len)
{
	uint32_t n = 1, i;

	src->name = name;
	src->text = text;
	src->len = len;
	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	src->line_start = util_xmalloc(sizeof(uint32_t) * n);
	src->nlines = n;
	src->line_start[0] = 0;
	n = 1;
	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			src->line_start[n++] = i + 1;
}

void source_free(struct source *src)
{
	free(src->line_start);
	src->line_start = NULL;
}

void source_pos(const struct source *src, uint32_t off, uint32_t *line, uint32_t *col)
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
	*line = lo + 1;
	*col = off - src->line_start[lo] + 1;
}

const char *source_line(const struct source *src, uint32_t line, uint32_t *len)
{
	uint32_t start, end;

	if (line < 1 || line > src->nlines) {
		*len = 0;
		return "";
	}
	start = src->line_start[line - 1];
	end = line < src->nlines ? src->line_start[line] - 1 : src->len;
	if (end > start && src->text[end - 1] == '\r')
		end--;
	*len = end - start;
	return src->text + start;
}
