// SPDX-License-Identifier: MIT
#include "base/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_grow(struct strbuf *sb, size_t n)
{
	if (sb->len + n + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + n + 1)
		cap *= 2;
	sb->s = util_xrealloc(sb->s, cap);
	sb->cap = cap;
}

void sb_putn(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = 0;
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_putn(sb, &c, 1);
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_putn(sb, s, strlen(s));
}

void sb_pad(struct strbuf *sb, char c, size_t n)
{
	sb_grow(sb, n);
	memset(sb->s + sb->len, c, n);
	sb->len += n;
	sb->s[sb->len] = 0;
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n <= 0)
		return;
	sb_grow(sb, n);
	vsnprintf(sb->s + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->s)
		sb->s[0] = 0;
}

void sb_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->s[len] = 0;
	}
}

void sb_free(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->s ? sb->s : "";
}
