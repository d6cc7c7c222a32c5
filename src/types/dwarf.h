/* SPDX-License-Identifier: MIT */
/*
 * A program's (or library's) types from its DWARF debug info, through
 * libdw: the structs, unions, enums and typedefs it defines, and its
 * functions' parameters. Read only when a uprobe script names a type or
 * `args`; converted like BTF types (btf.h): char arrays as strings,
 * pointers followed lazily, bitfields, anonymous members. The DWARF may be
 * elsewhere (a separate debug file: find, which a higher layer gives) or
 * split (-gsplit-dwarf: each unit's DIEs in its .dwo file, which libdw
 * finds beside the program or in its compile directory).
 */
#ifndef LANTERN_TYPES_DWARF_H
#define LANTERN_TYPES_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "types/btf.h"
#include "types/type.h"

struct Dwarf;

struct dwarf_src {
	struct type_src src; /* resolves lazy pointer targets */
	struct arena *arena;
	const char *path;
	int fd;
	struct Dwarf *dw;
	bool tried;
	unsigned depth;	    /* types being converted, one inside the other */
	/* lazy pointer targets, by src_id: a DIE's offset in its file (split DWARF: a .dwo) */
	VEC(struct dwarf_ref { struct Dwarf *dw; uint64_t off; }) lazy;
	VEC(struct dwarf_conv { struct Dwarf *dw; uint64_t off; struct type *t; }) done;
	/* the file that holds path's DWARF (path itself, or its separate debug file) into out */
	bool (*find)(const char *path, char *out, size_t n);
	char err[256];
};

void types_dwarf_src_init(struct dwarf_src *d, struct arena *a, const char *path);
void types_dwarf_src_free(struct dwarf_src *d);
/* Open the file's DWARF on first use; false, with d->err, when it has none. */
bool types_dwarf_src_load(struct dwarf_src *d);
/* The type named name (tag "struct", "union", "enum", or NULL: a typedef); NULL if none. */
struct type *types_dwarf_src_named(struct dwarf_src *d, const char *tag, const char *name);
/*
 * Function func's parameters and return type; with ctypes, each
 * parameter's C declaration ("struct node * n") for listing. false when
 * the debug info has no such function.
 */
bool types_dwarf_src_func(struct dwarf_src *d, const char *func, struct btf_func *out,
		    struct strbuf *ctypes);

#endif
