/* SPDX-License-Identifier: MIT */
/*
 * The unwinder's files (uwfile.c), shared by every process that maps one:
 * opened once per file and once per build-id, with their call frame
 * information (libdw's Dwarf_CFI of .eh_frame, and of .debug_frame from
 * the file or its separate debug file) and a cache of the rows looked up.
 * Internal to sym/: unwind.c steps frames through them.
 */
#ifndef LANTERN_SYM_UWFILE_H
#define LANTERN_SYM_UWFILE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "sym/procmaps.h"
#include "sym/unwind.h"

/* How the caller's value of a register is found (a CFI row's rule). */
enum uw_rule_kind {
	RULE_SAME,	 /* unchanged */
	RULE_UNDEF,	 /* lost */
	RULE_OFFSET,	 /* saved at CFA + off */
	RULE_VAL_OFFSET, /* is CFA + off */
	RULE_REG,	 /* is register off's value */
};

/* A row of the call frame information, in the simple shape nearly every row has. */
struct uw_row {
	uint64_t vaddr;	 /* the address looked up (the cache's key, with file) */
	uint32_t file;	 /* the serial number of the file (uwfile.c) */
	bool present;	 /* the file has a row there */
	bool simple;	 /* CFA = register + offset, and every rule is one of uw_rule_kind */
	bool signal;	 /* a signal frame: its caller's pc is exact */
	int8_t cfa_reg;
	uint8_t ra;	 /* the return address column */
	uint8_t kind[UW_NREGS];
	int32_t cfa_off; /* offsets beyond 32 bits make a row not simple */
	int32_t off[UW_NREGS];
};

struct uw_file;

/* The file a mapping of process pid maps, opened on first use; NULL if it cannot be. */
struct uw_file *sym_uw_file(int pid, const struct sym_mapping *m);
/* The virtual address (as the file's tables have it) of address addr of mapping m. */
bool sym_uw_vaddr(const struct uw_file *f, const struct sym_mapping *m, uint64_t addr,
		  uint64_t *vaddr);
/*
 * The row at vaddr: from the cache, else looked up (and cached when
 * simple). A row that is not simple comes with its frame (*frame, to free)
 * for unwind.c to evaluate its expressions.
 */
const struct uw_row *sym_uw_row(struct uw_file *f, uint64_t vaddr, Dwarf_Frame **frame);
/* Whether the file keeps frame pointers (uwfile.c's prologue count). */
bool sym_uw_file_fp(struct uw_file *f);
struct uw_file *sym_uw_file_path(const char *path, uint64_t dev, uint64_t ino);
void sym_uw_files_release(void);

#endif
