/* SPDX-License-Identifier: MIT */
/*
 * Maps in bpftrace 0.17's text format (see FORMAT.md): at exit, and for
 * print(@map [, top [, div]]).
 */
#ifndef LANTERN_OUTPUT_MAPPRINT_H
#define LANTERN_OUTPUT_MAPPRINT_H

#include "maps/mapread.h"
#include "runtime/session.h"

/* One map, all its entries. top: only the last (biggest) top entries. */
void map_print(struct session *s, struct map_info *m, int64_t top, int64_t div, struct strbuf *out);
/* Every map, by name. */
void maps_print_all(struct session *s, struct strbuf *out);
/* A key part or value as bpftrace writes it (ints, strings, tuples, probes). */
void value_format(struct session *s, struct strbuf *out, const struct type *t, const void *data);

#endif
