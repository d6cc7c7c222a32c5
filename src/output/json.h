/* SPDX-License-Identifier: MIT */
/*
 * JSON output (-f json): one JSON object per line, as bpftrace 0.17 writes
 * them (FORMAT.md section 11). The writer itself is json_writer
 * (output/writer.h); this is its string encoder, shared with the tests.
 */
#ifndef LANTERN_OUTPUT_JSON_H
#define LANTERN_OUTPUT_JSON_H

#include <stddef.h>

#include "base/strbuf.h"

/*
 * p[0..n) as a JSON string, quotes included. Like 0.17: `"` `\` and the
 * control characters \n \r \t as two-character escapes, other bytes below
 * 0x20 (NUL included) as \u00XX, 0x20..0x7f as they are. Bytes from 0x80:
 * well-formed UTF-8 sequences as they are, every other byte as \u00XX
 * (0.17 writes the broken "\uffffffXX").
 */
void out_json_string(struct strbuf *out, const char *p, size_t n);

#endif
