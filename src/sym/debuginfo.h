/* SPDX-License-Identifier: MIT */
/*
 * Where distributions put what a stripped program lacks (debuginfo.c):
 *
 *   - a separate debug file (objcopy --only-keep-debug), found by the
 *     file's build-id as DIR/.build-id/xx/rest.debug, else by its
 *     .gnu_debuglink name beside the file, in its .debug/ folder and as
 *     DIR/<the file's folder>/NAME, the link's CRC checked; DIR is each of
 *     LANTERN_DEBUG_DIRS (colon-separated; /usr/lib/debug by default),
 *     after --debuginfo's directories;
 *   - MiniDebugInfo (Fedora's): an xz-compressed ELF in the section
 *     .gnu_debugdata whose .symtab names the static functions .dynsym
 *     leaves out.
 *
 * Symbols (elf.c) read both; the unwinder reads .debug_frame and the
 * inline frames from the debug file (unwind.c, inline.c).
 */
#ifndef LANTERN_SYM_DEBUGINFO_H
#define LANTERN_SYM_DEBUGINFO_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The ELF file at path, mapped (ELF_C_READ_MMAP; read whole when it cannot
 * be mapped), with no descriptor kept: a cache of files holds no
 * descriptors, however many files it meets. NULL when path cannot be opened
 * or is not ELF. elf_end() it.
 */
Elf *sym_elf_map(const char *path);
/* e's build-id (at most 64 bytes) into id; its length, 0 without. */
size_t sym_build_id(Elf *e, unsigned char *id, size_t max);
/* The build-id as hex into out (2 * len + 1 bytes). */
void sym_build_id_hex(const unsigned char *id, size_t len, char *out);

/*
 * --debuginfo DIR[:DIR]: directories searched first (relative ones from
 * the file's folder), for the build-id's file, the debuglink's, or
 * FILE.debug of the same build-id.
 */
void sym_debug_dirs_add(const char *dirs);
/* The separate debug file of e (read from path), into out; false when there is none. */
bool sym_debug_file(Elf *e, const char *path, char *out, size_t n);

/*
 * MiniDebugInfo: the ELF held in e's .gnu_debugdata, decompressed; NULL
 * without. *mem holds its bytes: free it after elf_end() of the result.
 */
Elf *sym_minidebug_open(Elf *e, void **mem);

#endif
