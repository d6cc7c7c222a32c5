/* SPDX-License-Identifier: MIT */
/*
 * A program's source lines from its DWARF (its own, or its separate debug
 * file's: debuginfo.h), for uprobe:FILE@SOURCE.c:LINE, and where that
 * DWARF is, for the types of a file's functions (types/dwarf.h).
 */
#ifndef LANTERN_SYM_SRCLINE_H
#define LANTERN_SYM_SRCLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file that holds path's DWARF (path, or its debug file) into out; false if none does. */
bool sym_dwarf_path(const char *path, char *out, size_t n);
/*
 * The address (a virtual address of path) of the first instruction of
 * source line line (column col, 0: any) of the source file src (a path's
 * last components: "uprobe_test.c", "src/main.c"), as bpftrace finds it:
 * the one compile unit built from a file so named, the first row of its
 * line table for that line. 0, or -1 with the reason in err.
 */
int sym_src_line_addr(const char *path, const char *src, unsigned line, unsigned col,
		      uint64_t *addr, char *err, size_t n);

#endif
