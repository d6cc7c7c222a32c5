/* SPDX-License-Identifier: MIT */
/*
 * Byte buffers as bpftrace 0.17 prints them: the printf conversions %r,
 * %rx and %rh, and buf() values in maps (same as %r).
 *
 *   bytes 61 20 5c 0a ff     %r   a \\x0a\xff   (0x20..0x7e as is, else \xNN)
 *                            %rx  \x61\x20\x5c\x0a\xff
 *                            %rh  61 20 5c 0a ff
 *
 * Hex digits are lower case; %rh separates bytes with one space, with no
 * space at either end. An empty buffer prints nothing.
 */
#ifndef LANTERN_OUTPUT_ESCAPE_H
#define LANTERN_OUTPUT_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

enum buf_style {
	BUF_STYLE_R,  /* printable ASCII as is, other bytes as \xNN */
	BUF_STYLE_RX, /* every byte as \xNN */
	BUF_STYLE_RH, /* every byte as NN, separated by spaces */
};

void out_fmt_buf(struct strbuf *out, const void *p, size_t n, enum buf_style style);

/* Length of the well-formed UTF-8 sequence at p (n bytes there, n >= 1), or 0. */
size_t out_utf8_len(const uint8_t *p, size_t n);

#endif
