/* SPDX-License-Identifier: MIT */
/* Internal to tpformat: one "field:<decl>;" declaration, classified. */
#ifndef LANTERN_TYPES_TP_DECL_H
#define LANTERN_TYPES_TP_DECL_H

#include <stddef.h>

#include "types/tpformat.h"

/*
 * Fill name, decl, ctype, base and the shape flags of f from the n bytes
 * of decl. f->size and f->is_signed (the file's signed:) must be set
 * already: element sizes derive from size, and a known signed base type
 * turns is_signed on. Returns 0, or -1 when the text is not a declaration
 * (f may then hold partial strings: free them).
 */
int types_tp_decl_parse(const char *decl, size_t n, struct tp_field *f);

#endif
