// SPDX-License-Identifier: MIT
/* Inlined functions at an address, through libdw: see inline.h. */
#include "sym/inline.h"
#include "base/util.h"
#include "sym/debuginfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sym_dwarf {
	Elf *elf, *delf; /* mapped, no descriptor kept (sym_elf_map) */
	Dwarf *dw;
	char path[PATH_MAX]; /* the file dw is of: the file itself, or its debug file */
};

static Dwarf *dwarf_of(Elf *e)
{
	Dwarf *dw = dwarf_begin_elf(e, DWARF_C_READ, NULL);
	Dwarf_Off next;
	size_t hsize;

	/* a file with call frame information but no unit has nothing to say */
	if (dw && dwarf_nextcu(dw, 0, &next, &hsize, NULL, NULL, NULL) != 0) {
		dwarf_end(dw);
		return NULL;
	}
	return dw;
}

struct sym_dwarf *sym_dwarf_open(const char *path)
{
	struct sym_dwarf *d = util_xcalloc(1, sizeof(*d));
	char dpath[PATH_MAX];

	if (!(d->elf = sym_elf_map(path)))
		goto none;
	snprintf(d->path, sizeof(d->path), "%s", path);
	if ((d->dw = dwarf_of(d->elf)))
		return d;
	if (!sym_debug_file(d->elf, path, dpath, sizeof(dpath)) || !(d->delf = sym_elf_map(dpath)) ||
	    !(d->dw = dwarf_of(d->delf)))
		goto none;
	snprintf(d->path, sizeof(d->path), "%s", dpath);
	return d;
none:
	sym_dwarf_close(d);
	return NULL;
}

Dwarf *sym_dwarf_dw(struct sym_dwarf *d)
{
	return d->dw;
}

const char *sym_dwarf_file(struct sym_dwarf *d)
{
	return d->path;
}

/*
 * The inlined calls at vaddr of cu, innermost first, into *calls (malloc'd,
 * free it); how many. The innermost one, then its concrete parents
 * (dwarf_getscopes_die) up to the function: dwarf_getscopes follows an
 * inlined call into its abstract definition, a subprogram, and would stop
 * there.
 */
static int inlined_calls(Dwarf_Die *cu, uint64_t vaddr, Dwarf_Die **calls)
{
	Dwarf_Die *scopes = NULL, inner;
	int n = dwarf_getscopes(cu, vaddr, &scopes), first = -1, k = 0;

	*calls = NULL;
	for (int i = 0; i < n && first < 0; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine)
			first = i;
	}
	if (first < 0) {
		free(scopes);
		return 0;
	}
	inner = scopes[first];
	free(scopes);
	scopes = NULL;
	n = dwarf_getscopes_die(&inner, &scopes);
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_subprogram)
			break; /* the function itself: the frame's own line names it */
		if (tag == DW_TAG_inlined_subroutine)
			scopes[k++] = scopes[i];
	}
	*calls = scopes;
	return k;
}

int sym_dwarf_inlines(struct sym_dwarf *d, uint64_t vaddr, const char **names, int max)
{
	Dwarf_Die cu, *calls;
	int n, k = 0;

	if (!d || !dwarf_addrdie(d->dw, vaddr, &cu))
		return 0;
	n = inlined_calls(&cu, vaddr, &calls);
	for (; k < n && k < max; k++) {
		Dwarf_Attribute a;
		const char *name = dwarf_formstring(dwarf_attr_integrate(&calls[k], DW_AT_name, &a));
		names[k] = name ? name : "??";
	}
	free(calls);
	return k;
}

/* The file of index idx of cu's file table, or NULL */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

int sym_dwarf_srclines(struct sym_dwarf *d, uint64_t vaddr, struct sym_srcline *out, int max)
{
	Dwarf_Die cu, *calls;
	Dwarf_Attribute cd;
	Dwarf_Line *l;
	int n, k = 1, line;

	if (!d || max < 1 || !dwarf_addrdie(d->dw, vaddr, &cu))
		return 0;
	/* the innermost frame: the line of vaddr itself */
	const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &cd));
	out[0] = (struct sym_srcline){ NULL, NULL, 0 };
	if ((l = dwarf_getsrc_die(&cu, vaddr)) && dwarf_lineno(l, &line) == 0)
		out[0] = (struct sym_srcline){ dir, dwarf_linesrc(l, NULL, NULL), line };
	/* each inlined call, innermost first: where its caller called it */
	n = inlined_calls(&cu, vaddr, &calls);
	for (int i = 0; i < n && k < max; i++) {
		Dwarf_Attribute a;
		Dwarf_Word file = 0, ln = 0;
		if (dwarf_formudata(dwarf_attr(&calls[i], DW_AT_call_file, &a), &file) != 0 ||
		    dwarf_formudata(dwarf_attr(&calls[i], DW_AT_call_line, &a), &ln) != 0)
			out[k++] = (struct sym_srcline){ NULL, NULL, 0 };
		else
			out[k++] = (struct sym_srcline){ dir, cu_file(&cu, file), (int)ln };
	}
	free(calls);
	for (int i = 0; i < k; i++) /* an absolute path needs no directory */
		if (out[i].file && out[i].file[0] == '/')
			out[i].dir = NULL;
	return k;
}

void sym_dwarf_close(struct sym_dwarf *d)
{
	if (!d)
		return;
	if (d->dw)
		dwarf_end(d->dw);
	if (d->delf)
		elf_end(d->delf);
	if (d->elf)
		elf_end(d->elf);
	free(d);
}
