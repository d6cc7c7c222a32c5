/* SPDX-License-Identifier: MIT */
/*
 * C definitions in a script's preamble, as bpftrace accepts them:
 *
 *   struct NAME { members };   union NAME { ... };   (the ';' optional)
 *   enum NAME { A, B = 4, C };
 *   typedef TYPE NAME;
 *
 * Members: integer types (int, unsigned long, u32, ...), typedef names and
 * struct/union/enum types the script or the kernel (BTF) defines, pointers
 * (to anything, also to a struct defined later), arrays ([N], N a constant
 * expression), bitfields, nested and anonymous structs and unions, function
 * pointers. Laid out as the C compiler of x86_64 and aarch64 lays them out
 * (natural alignment, bitfields packed in units of their type).
 *
 * #define NAME VALUE: an integer constant expression of literals and other
 * constants, or a string literal.
 */
#ifndef LANTERN_TYPES_CDEF_H
#define LANTERN_TYPES_CDEF_H

#include "base/diag.h"
#include "types/env.h"

/*
 * Parse one definition (the text of a preamble item starting at source
 * offset lo) into env. 0, or -1 with the error reported in d.
 */
int types_cdef_parse(struct type_env *env, const char *text, uint32_t lo, struct diag *d);
/*
 * "#define NAME VALUE" (text without the '#' line's end): add NAME to env.
 * A value that is not a constant expression or a string is reported.
 */
int types_cdef_define(struct type_env *env, const char *text, uint32_t lo, struct diag *d);

#endif
