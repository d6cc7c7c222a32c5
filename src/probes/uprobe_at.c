// SPDX-License-Identifier: MIT
/*
 * uprobes inside a function: uprobe:FILE:ADDRESS and uprobe:FILE:FUNC+OFFSET,
 * whose probed byte must be where an instruction starts (sys/insn.c decodes
 * the function's code up to there: a breakpoint inside one would corrupt
 * the program), and uprobe:FILE@SOURCE.c:LINE[:COLUMN], a source line's
 * first instruction, from DWARF's line table (sym/srcline.h).
 */
#include "probes/uprobe.h"
#include "base/util.h"
#include "sym/elf.h"
#include "sym/srcline.h"
#include "sys/insn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Whether off bytes into function f of path is where an instruction
 * starts (a breakpoint inside one would corrupt the program): 0, or -1
 * reported.
 */
static int check_insn(struct plan *p, struct attach_point *ap, const char *path,
		      const struct elf_func *f, uint64_t off)
{
	char what[300];
	size_t before = 0, after = 0, n;
	uint8_t *code;
	struct stat st;
	int fd, rc = -2;

	if (!f->size) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "cannot tell whether %s+%llu starts an instruction: the symbol has no size",
			   f->name, (unsigned long long)off);
		diag_hint(&p->diag, "a probe inside an instruction would corrupt the program: "
				    "probe the function itself");
		return -1;
	}
	if (off >= f->size) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "Offset outside the function bounds ('%s' size is %llu): offset %llu", f->name,
			   (unsigned long long)f->size, (unsigned long long)off);
		return -1;
	}
	/* the code up to the instruction at off (at most 15 bytes long), if the file holds it */
	n = MIN(f->size, off + 15);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && f->offset <= (uint64_t)st.st_size &&
	    n <= (uint64_t)st.st_size - f->offset) {
		code = util_xmalloc(n);
		if (pread(fd, code, n, (off_t)f->offset) == (ssize_t)n)
			rc = sys_insn_boundary(code, n, off, &before, &after);
		free(code);
	}
	if (fd >= 0)
		close(fd);
	if (rc == 1)
		return 0;
	/* as written: "lantern_add+1", or "0x1150 (lantern_add+1)" */
	snprintf(what, sizeof(what), "%s%s%.200s+%llu%s", strchr(ap->parts[2], '+') ? "" : ap->parts[2],
		 strchr(ap->parts[2], '+') ? "" : " (", f->name, (unsigned long long)off,
		 strchr(ap->parts[2], '+') ? "" : ")");
	if (rc == 0) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "%s is inside an instruction", what);
		diag_hint(&p->diag, "instructions start at %s+%zu (0x%llx) and %s+%zu (0x%llx)",
			  f->name, before, (unsigned long long)(f->addr + before), f->name, after,
			  (unsigned long long)(f->addr + after));
	} else {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "cannot tell whether %s starts an instruction: %s", what,
			   rc == -2 ? "cannot read the function's code"
				    : "an instruction before it is not one lantern decodes");
		diag_hint(&p->diag, "a probe inside an instruction would corrupt the program: "
				    "probe the function itself");
	}
	return -1;
}

/* The function of funcs whose code holds address addr, or NULL. */
static const struct elf_func *func_at(const struct elf_funcs *funcs, uint64_t addr)
{
	for (size_t i = 0; i < funcs->n; i++)
		if (addr >= funcs->v[i].addr && addr - funcs->v[i].addr < funcs->v[i].size)
			return &funcs->v[i];
	return NULL;
}

/* uprobe:FILE:ADDRESS: the address must start an instruction of the function holding it */
/* Whether path begins as an ELF file does */
static bool is_elf_file(const char *path)
{
	unsigned char magic[4] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);

	if (fd >= 0)
		close(fd);
	return elf;
}

int prov_uprobe_expand_addr(struct plan *p, const struct provider *prov, struct probe *pr,
			    struct attach_point *ap, const char *path)
{
	const char *fn = ap->parts[2];
	const struct elf_func *f;
	struct elf_funcs funcs;
	char err[512], *end;
	uint64_t addr = strtoull(fn, &end, 0);
	int64_t off = *end ? -1 : sym_elf_addr_offset(path, addr, err, sizeof(err));

	if (off < 0 && !*end && p->opts->unsafe && !is_elf_file(path)) {
		/* a flat binary (code a program maps and runs): the address is the offset */
		prov_uprobe_add(p, pr, ap, prov, path, fn, addr);
		return 0;
	}
	if (off < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "%s",
			   *end ? "not an address or a function name" : err);
		if (!*end && !is_elf_file(path))
			diag_hint(&p->diag, "--unsafe probes a flat binary's byte at that offset");
		return -1;
	}
	if (sym_elf_funcs_load(path, &funcs, err, sizeof(err)) == 0) {
		f = func_at(&funcs, addr);
		int rc = f && addr != f->addr ? check_insn(p, ap, path, f, addr - f->addr) : 0;
		sym_elf_funcs_free(&funcs);
		if (rc < 0)
			return -1;
		if (!f && !p->opts->unsafe) { /* as bpftrace: no function holds it */
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL,
				   "Could not resolve address: %s:0x%llx", path, (unsigned long long)addr);
			diag_hint(&p->diag, "no function of the file holds it; --unsafe probes it anyway");
			return -1;
		}
	}
	prov_uprobe_add(p, pr, ap, prov, path, fn, (uint64_t)off);
	return 0;
}

/* uprobe:FILE:FUNCTION+OFFSET (fn: FUNCTION, off: OFFSET) */
int prov_uprobe_expand_offset(struct plan *p, const struct provider *prov, struct probe *pr,
			      struct attach_point *ap, const char *path,
			      const struct elf_funcs *funcs, const char *fn, const char *off)
{
	const struct elf_func *f = sym_elf_funcs_find(funcs, fn);
	char name[512], *end;
	uint64_t n;

	errno = 0;
	n = strtoull(off, &end, 0);
	if (prov->id != PROV_UPROBE || util_has_wildcard(fn) || errno || *end || !*off || *off == '-') {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "%s",
			   prov->id != PROV_UPROBE ? "a uretprobe fires at its function's return: "
						     "FUNCTION+OFFSET is for uprobes"
			   : util_has_wildcard(fn)	   ? "FUNCTION+OFFSET names one function, no wildcards"
						   : "the offset of FUNCTION+OFFSET is not a number");
		return -1;
	}
	if (!f) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function '%s' in %s", fn, path);
		prov_uprobe_suggest(p, funcs, fn);
		return -1;
	}
	if (n && check_insn(p, ap, path, f, n) < 0)
		return -1;
	/* bpftrace's name: FUNCTION alone at offset 0 */
	snprintf(name, sizeof(name), n ? "%s+%llu" : "%s", fn, (unsigned long long)n);
	struct uprobe_inst *ui = prov_uprobe_add(p, pr, ap, prov, path, name, f->offset + n);
	ui->func = arena_strdup(&p->arena, fn); /* `func`: the function */
	ui->func_off = n;
	return 0;
}

/* A line or column number of an attach point: 1 or more; 0 when it is none */
static unsigned number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && !*end && !errno && v <= 0xffffffffUL ? (unsigned)v : 0;
}

int prov_uprobe_expand_line(struct plan *p, const struct provider *prov, struct probe *pr,
			    struct attach_point *ap)
{
	char *file = arena_strdup(&p->arena, ap->parts[1]), *src = strchr(file, '@');
	char real[PATH_MAX], path[PATH_MAX], err[512], name[64];
	unsigned line = ap->nparts >= 3 ? number(ap->parts[2]) : 0,
		 col = ap->nparts == 4 ? number(ap->parts[3]) : 0;
	struct elf_funcs funcs;
	uint64_t addr;
	int64_t off;

	*src++ = 0;
	if (prov->id != PROV_UPROBE) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "Source code location not allowed: a %s fires at a function's return",
			   prov->name);
		diag_hint(&p->diag, "uprobe:FILE@SOURCE.c:LINE probes a line");
		return -1;
	}
	if ((ap->nparts != 3 && ap->nparts != 4) || !*file || !*src || !line ||
	    (ap->nparts == 4 && !col)) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "Invalid uprobe arguments, expected format: uprobe:TARGET@FILE:LINE[:COL]");
		diag_hint(&p->diag, "e.g. uprobe:/usr/bin/bash@shell.c:123 (lines and columns from 1)");
		return -1;
	}
	if (util_has_wildcard(file)) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "Cannot use wildcards with source code location");
		return -1;
	}
	if (!prov_resolve_file_shown(file, real, path, p->opts->pid)) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot find '%s'", file);
		diag_hint(&p->diag, "give a path, a program in $PATH or a library name (libc)");
		return -1;
	}
	if (sym_src_line_addr(path, src, line, col, &addr, err, sizeof(err)) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "%s", err);
		diag_hint(&p->diag, "the program's DWARF (gcc -g), or its debug file (--debuginfo DIR), "
				    "says where each line's code is");
		return -1;
	}
	if ((off = sym_elf_addr_offset(path, addr, err, sizeof(err))) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "%s", err);
		return -1;
	}
	/* bpftrace's name: the address, in decimal; `func`: the function that holds it */
	snprintf(name, sizeof(name), "%llu", (unsigned long long)addr);
	struct uprobe_inst *ui = prov_uprobe_add(p, pr, ap, prov, path, name, (uint64_t)off);
	if (sym_elf_funcs_load(path, &funcs, err, sizeof(err)) == 0) {
		const struct elf_func *f = func_at(&funcs, addr);
		if (f) {
			ui->func = arena_strdup(&p->arena, f->name);
			ui->func_off = addr - f->addr;
		}
		sym_elf_funcs_free(&funcs);
	}
	return 0;
}
