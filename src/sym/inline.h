/* SPDX-License-Identifier: MIT */
/*
 * The functions a compiler inlined at an address, from a file's DWARF (its
 * own .debug_info, else its separate debug file's: debuginfo.h): the
 * frames a user stack shows for them (inline.c). Internal to sym/;
 * symbols.h's sym_usym_inlines() is the entry point.
 */
#ifndef LANTERN_SYM_INLINE_H
#define LANTERN_SYM_INLINE_H

#include <stdint.h>

#include "sym/symbols.h"

struct sym_dwarf;

/* path's DWARF, or NULL when neither it nor a debug file has any. */
struct sym_dwarf *sym_dwarf_open(const char *path);
/* Its libdw handle, and the file that holds it (the file itself, or its debug file) */
struct Dwarf *sym_dwarf_dw(struct sym_dwarf *d);
const char *sym_dwarf_file(struct sym_dwarf *d);
/* The functions inlined at vaddr, innermost first, at most max; how many. */
int sym_dwarf_inlines(struct sym_dwarf *d, uint64_t vaddr, const char **names, int max);
/*
 * The source lines of the frames at vaddr, as sym_dwarf_inlines() lists
 * them: [0] the innermost (the line of vaddr), then for each inlined
 * function where its caller called it, the last being the function that
 * holds vaddr. How many, at most max (0 without DWARF); the strings are
 * d's.
 */
int sym_dwarf_srclines(struct sym_dwarf *d, uint64_t vaddr, struct sym_srcline *out, int max);
void sym_dwarf_close(struct sym_dwarf *d);

#endif
