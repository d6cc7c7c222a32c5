/* SPDX-License-Identifier: MIT */
/*
 * Addresses to names, for printing stacks and symbols: kernel addresses through
 * /proc/kallsyms, user addresses through the process's mappings and the
 * mapped files' symbols (while the process lives). Loaded on first use,
 * cached until sym_release().
 */
#ifndef LANTERN_SYM_SYMBOLS_H
#define LANTERN_SYM_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

struct sym {
	const char *name;   /* the function */
	uint64_t offset;    /* addr - its start */
	const char *module; /* user: the file's path */
};

bool sym_ksym_resolve(uint64_t addr, struct sym *out);
bool sym_usym_resolve(int pid, uint64_t addr, struct sym *out);
/* A user address of process pid, or a kernel address. */
static inline bool sym_resolve(bool user, int pid, uint64_t addr, struct sym *out)
{
	return user ? sym_usym_resolve(pid, addr, out) : sym_ksym_resolve(addr, out);
}
/*
 * Remember pid's mappings now, so that its user stacks still resolve after
 * it exits (sym_usym_resolve() also remembers them whenever it reads them).
 */
void sym_remember_process(int pid);
struct sym_maps;
/*
 * pid's mappings as its tracer follows them (sym/maptrack.h): taken (m is
 * emptied), and used instead of /proc/PID/maps from now on.
 */
void sym_pin_process_maps(int pid, struct sym_maps *m);
/* Back to /proc/PID/maps for pid (its tracer lost track). */
void sym_unpin_process_maps(int pid);
/* A copy of the mappings pinned for pid; false if none. */
bool sym_pinned_maps(int pid, struct sym_maps *out);
/* pid's mappings as last remembered (a copy, sym_maps_free() it); false if never. */
bool sym_remembered_maps(int pid, struct sym_maps *out);
/*
 * The functions inlined at a user address of process pid (from the file's
 * DWARF, or its debug file's), innermost first, at most max; how many (0
 * without debug information). For a return address, ask for addr - 1.
 */
#define SYM_INLINE_MAX 16
int sym_usym_inlines(int pid, uint64_t addr, const char **names, int max);
/* A frame's source line: file NULL when DWARF does not say; dir, the compile
   directory of a relative file, or NULL */
struct sym_srcline {
	const char *dir, *file;
	int line;
};
/*
 * The source lines of the frames at a user address of pid: [0] that of
 * the innermost function inlined there (or of the function, when none
 * is), then each inlined call's call site, the last that of the function
 * holding addr; sym_usym_inlines()'s count + 1, 0 without line
 * information. For a return address, ask for addr - 1.
 */
int sym_usym_srclines(int pid, uint64_t addr, struct sym_srcline *out, int max);
/* The mapping of pid that holds a user address: for profiles (pprof's Mapping). */
struct sym_umap {
	uint64_t lo, hi, offset; /* [lo, hi) maps the file from offset */
	const char *path;
	const char *build_id; /* hex, "" without */
};
bool sym_usym_mapping(int pid, uint64_t addr, struct sym_umap *out);
/*
 * strace -k's (libunwind's) view of a user address of process pid: the
 * mapped file's path, the address's offset in the file, and the nearest
 * function at or below it whatever its size (name NULL without one);
 * false when no file maps the address.
 */
struct sym_frame {
	const char *path, *name;
	uint64_t file_off, func_off;
};
bool sym_usym_frame(int pid, uint64_t addr, struct sym_frame *out);
/* The address of a kernel symbol (any kind kallsyms lists), or 0. */
uint64_t sym_ksym_address(const char *name);
void sym_release(void);

#endif
