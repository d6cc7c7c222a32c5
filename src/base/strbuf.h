/* SPDX-License-Identifier: MIT */
/* A growable, always NUL-terminated string. */
#ifndef LANTERN_BASE_STRBUF_H
#define LANTERN_BASE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "base/util.h"

struct strbuf {
	char *s;
	size_t len, cap;
};

void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putn(struct strbuf *sb, const char *s, size_t n);
void sb_printf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
void sb_pad(struct strbuf *sb, char c, size_t n);
void sb_reset(struct strbuf *sb);
/* Keep the first len bytes (no-op if there are fewer). */
void sb_truncate(struct strbuf *sb, size_t len);
void sb_free(struct strbuf *sb);
/* The text so far ("" when nothing was written). */
const char *sb_str(const struct strbuf *sb);

#endif
