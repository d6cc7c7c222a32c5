// SPDX-License-Identifier: MIT
/* Inlined functions at an address, through libdw: see inline.h. */
#include "sym/inline.h"
#include "base/util.h"
#include "sym/debuginfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sym_dwarf {
	int fd, dfd;
	Elf *elf, *delf;
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

	d->dfd = -1;
	elf_version(EV_CURRENT);
	if ((d->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		goto none;
	if (!(d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL)) || elf_kind(d->elf) != ELF_K_ELF)
		goto none;
	snprintf(d->path, sizeof(d->path), "%s", path);
	if ((d->dw = dwarf_of(d->elf)))
		return d;
	if (!sym_debug_file(d->elf, path, dpath, sizeof(dpath)) ||
	    (d->dfd = open(dpath, O_RDONLY | O_CLOEXEC)) < 0 ||
	    !(d->delf = elf_begin(d->dfd, ELF_C_READ_MMAP, NULL)) || !(d->dw = dwarf_of(d->delf)))
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

int sym_dwarf_inlines(struct sym_dwarf *d, uint64_t vaddr, const char **names, int max)
{
	Dwarf_Die cu, *scopes = NULL;
	int n, k = 0;

	if (!d || !dwarf_addrdie(d->dw, vaddr, &cu))
		return 0;
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (int i = 0; i < n && k < max; i++) {
		int tag = dwarf_tag(&scopes[i]);
		Dwarf_Attribute a;
		const char *name;
		if (tag == DW_TAG_subprogram)
			break; /* the function itself: the frame's own line names it */
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
		names[k++] = name ? name : "??";
	}
	free(scopes);
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
	if (d->dfd >= 0)
		close(d->dfd);
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}
