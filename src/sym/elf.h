/* SPDX-License-Identifier: MIT */
/*
 * The functions of an ELF file (executable or shared library), for
 * uprobes: their names and the file offsets the kernel attaches at.
 */
#ifndef LANTERN_SYM_ELF_H
#define LANTERN_SYM_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_func {
	char *name;	 /* as the file has it */
	char *demangled; /* a C++ name as written ("ns::f(int)"), NULL for others (demangle.h) */
	uint64_t addr;	 /* virtual address (st_value) */
	uint64_t offset; /* where it is in the file */
	uint64_t size;	 /* its length in bytes (st_size; 0: unknown) */
	/*
	 * Which of the names of one address names it in stacks, lowest first:
	 * .dynsym's (the exported name), a global of .symtab, a local; weak
	 * after strong.
	 */
	uint8_t rank;
};

struct elf_funcs {
	struct elf_func *v; /* sorted by name, one entry per name */
	size_t n;
};

/*
 * Read path's function symbols: .symtab, .dynsym, and those of its
 * separate debug file and MiniDebugInfo (debuginfo.h); -1 with err set.
 */
int sym_elf_funcs_load(const char *path, struct elf_funcs *out, char *err, size_t errlen);
void sym_elf_funcs_free(struct elf_funcs *f);
/* The libraries a file needs (DT_NEEDED: "libc.so.6"), at most max; their number, -1 unreadable. */
#define ELF_NEEDED_LEN 128
int sym_elf_needed(const char *path, char names[][ELF_NEEDED_LEN], int max);
const struct elf_func *sym_elf_funcs_find(const struct elf_funcs *f, const char *name);
/*
 * Symbol name of path (a variable or a function, .symtab or .dynsym): its
 * virtual address and size, and whether the file is position-independent
 * (ET_DYN: its addresses move by the load address). false when none.
 */
bool sym_elf_symbol(const char *path, const char *name, uint64_t *vaddr, uint64_t *size, bool *pie);
/* The file offset of virtual address addr, or -1 when no segment maps it. */
int64_t sym_elf_addr_offset(const char *path, uint64_t addr, char *err, size_t errlen);

/* path's build-id in hex into out (n bytes); false without one. */
bool sym_elf_build_id_hex(const char *path, char *out, size_t n);

/* A loadable segment: file bytes [offset, offset + size) at vaddr. */
struct elf_segment {
	uint64_t offset, vaddr, size;
};
/* path's PT_LOAD segments, at most max; how many, or -1. */
int sym_elf_segments(const char *path, struct elf_segment *segs, int max);

/* A USDT probe site, from the ELF notes (.note.stapsdt) of a file. */
struct usdt_site {
	char *provider, *name;
	char *args;	      /* "-4@%edi 8@-16(%rbp) 4@$5" */
	uint64_t offset;      /* file offset of the probe's instruction */
	uint64_t sema_offset; /* file offset of its semaphore, 0 without */
};

struct usdt_sites {
	struct usdt_site *v;
	size_t n;
};

/* Read path's USDT probe sites (none is not an error); -1 with err set. */
int sym_elf_usdt_load(const char *path, struct usdt_sites *out, char *err, size_t errlen);
void sym_elf_usdt_free(struct usdt_sites *u);

#endif
