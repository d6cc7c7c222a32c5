// SPDX-License-Identifier: MIT
#include "output/escape.h"

#include <stdint.h>

static const char hexdigits[] = "0123456789abcdef";

static void put_hex(struct strbuf *out, uint8_t b)
{
	char h[2] = {hexdigits[b >> 4], hexdigits[b & 15]};

	sb_putn(out, h, 2);
}

void fmt_buf(struct strbuf *out, const void *p, size_t n, enum buf_style style)
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
