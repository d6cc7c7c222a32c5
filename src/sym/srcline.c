// SPDX-License-Identifier: MIT
/* Source lines to addresses, through libdw: see srcline.h. */
#include "sym/srcline.h"
#include "sym/inline.h"

#include <elfutils/libdw.h>
#include <stdio.h>
#include <string.h>

bool sym_dwarf_path(const char *path, char *out, size_t n)
{
	struct sym_dwarf *d = sym_dwarf_open(path);

	if (!d)
		return false;
	snprintf(out, n, "%s", sym_dwarf_file(d));
	sym_dwarf_close(d);
	return true;
}

/* Whether path ends with the components of suffix: "a/b.c" ends with "b.c", not with "/b.c" or "x.c" */
static bool ends_with_path(const char *path, const char *suffix)
{
	size_t lp = strlen(path), ls = strlen(suffix);

	while (ls > 2 && !strncmp(suffix, "./", 2)) {
		suffix += 2;
		ls -= 2;
	}
	if (!ls || ls > lp || strcmp(path + lp - ls, suffix))
		return false;
	return lp == ls || path[lp - ls - 1] == '/';
}

/* The source path of cu that ends with src into *match (NULL: none); -1 when it has two */
static int cu_source(Dwarf_Die *cu, const char *src, const char **match)
{
	Dwarf_Files *files;
	size_t nfiles;

	*match = NULL;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		return 0;
	for (size_t i = 0; i < nfiles; i++) {
		const char *f = dwarf_filesrc(files, i, NULL, NULL);
		if (!f || !ends_with_path(f, src))
			continue;
		if (*match && strcmp(*match, f))
			return -1;
		*match = f;
	}
	return 0;
}

int sym_src_line_addr(const char *path, const char *src, unsigned line, unsigned col,
		      uint64_t *addr, char *err, size_t n)
{
	struct sym_dwarf *d = sym_dwarf_open(path);
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, found;
	const char *match = NULL;
	int rc = -1;

	if (!d) {
		snprintf(err, n, "No DWARF debug info found for '%s', cannot attach by source code "
				 "location", path);
		return -1;
	}
	/* the compile unit built from src: one, whose line table has the line */
	while (dwarf_get_units(sym_dwarf_dw(d), cu, &cu, NULL, NULL, &cudie, NULL) == 0) {
		const char *m;
		if (cu_source(&cudie, src, &m) < 0 || (m && match && strcmp(m, match))) {
			snprintf(err, n, "Ambiguous source path, matches multiple files: %s", src);
			goto out;
		}
		if (m && !match) {
			match = m;
			found = cudie;
		}
	}
	if (!match) {
		snprintf(err, n, "No compilation unit matches %s", src);
		goto out;
	}
	Dwarf_Lines *lines;
	size_t nlines;
	if (dwarf_getsrclines(&found, &lines, &nlines) != 0) {
		snprintf(err, n, "Failed to get compilation unit source lines");
		goto out;
	}
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *f;
		int ln, lc;
		Dwarf_Addr a;
		/* of src itself, not of a header it includes */
		if (!l || dwarf_lineno(l, &ln) != 0 || dwarf_linecol(l, &lc) != 0 ||
		    !(f = dwarf_linesrc(l, NULL, NULL)) || !ends_with_path(f, match) ||
		    (unsigned)ln != line || (col && (unsigned)lc != col) || dwarf_lineaddr(l, &a) != 0)
			continue;
		*addr = a;
		rc = 0;
		goto out;
	}
	if (col)
		snprintf(err, n, "Unable to map '%s:%u:%u' to address", src, line, col);
	else
		snprintf(err, n, "Unable to map '%s:%u' to address", src, line);
out:
	sym_dwarf_close(d);
	return rc;
}
