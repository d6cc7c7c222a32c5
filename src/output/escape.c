// SPDX-License-Identifier: MIT
#include "output/escape.h"

#include <stdint.h>

static const char hexdigits[] = "0123456789abcdef";

static void put_hex(struct strbuf *out, uint8_t b)
{
	char h[2] = {hexdigits[b >> 4], hexdigits[b & 15]};

	sb_putn(out, h, 2);
}

void out_fmt_buf(struct strbuf *out, const void *p, size_t n, enum buf_style style)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		switch (style) {
		case BUF_STYLE_R:
			if (b[i] >= 0x20 && b[i] <= 0x7e) {
				sb_putc(out, (char)b[i]);
				continue;
			}
			sb_puts(out, "\\x");
			break;
		case BUF_STYLE_RX:
			sb_puts(out, "\\x");
			break;
		case BUF_STYLE_RH:
			if (i)
				sb_putc(out, ' ');
			break;
		}
		put_hex(out, b[i]);
	}
}

/* Unicode table 3-7 */
size_t out_utf8_len(const uint8_t *p, size_t n)
{
	uint8_t lo = 0x80, hi = 0xbf;
	size_t len;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* the second byte rules out overlong forms, surrogates, > U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}
