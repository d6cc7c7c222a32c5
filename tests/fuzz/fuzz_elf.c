// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the readers of the files a script names (any binary
 * can be a uprobe's or a usdt probe's): ELF symbols and their demangled
 * names, segments, DT_NEEDED, USDT notes and their argument specs
 * (sym/elf.c, types/usdt_args.c), the instruction decoder that checks a
 * FUNCTION+OFFSET (sys/insn.c), DWARF types and function parameters
 * through libdw (types/dwarf.c). Then `lantern -lv` of its functions and
 * USDT probes, and compile() on scripts that name the file, so that the
 * uprobe and usdt providers read it as they do.
 *
 * The input is the file: written to a temporary file (a real one: the
 * providers take the real path of what a script names, and a memfd's is
 * none), removed at exit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/compile.h"
#include "probes/list.h"
#include "sym/elf.h"
#include "sys/insn.h"
#include "sys/tracefs.h"
#include "types/dwarf.h"
#include "types/usdt_args.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures/tpformat"
#endif

static int fd = -1;
static char path[256];
static FILE *devnull;

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	sys_tracefs_set_path(FIXTURES);
	snprintf(path, sizeof(path), "%s/lantern-fuzz-elf.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	atexit(remove_file);
	devnull = fopen("/dev/null", "we");
	return 0;
}

static void put_file(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (ftruncate(fd, 0) < 0)
		abort();
	while (done < size) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
}

/* What a script reaches from a type: members, pointer targets (resolved now), elements */
static void walk(struct type *t, int depth, int *budget)
{
	if (!t || depth > 4 || --*budget < 0)
		return;
	switch (t->kind) {
	case TY_PTR:
		walk(type_elem(t), depth + 1, budget);
		break;
	case TY_ARRAY:
		walk(t->elem, depth + 1, budget);
		break;
	case TY_RECORD:
		for (uint32_t i = 0; i < t->nfields; i++) {
			uint32_t off;
			type_field(t, t->fields[i].name, &off);
			walk(t->fields[i].type, depth + 1, budget);
		}
		break;
	default:
		break;
	}
}

static void dwarf_types(const struct elf_funcs *funcs)
{
	static const char *const tags[] = {"struct", "union", "enum", NULL};
	static const char *const names[] = {"node", "point", "list", "s", "u"};
	struct arena a = {0};
	struct dwarf_src d;
	int budget = 2000;

	types_dwarf_src_init(&d, &a, path);
	for (size_t i = 0; i < funcs->n && i < 16; i++) {
		struct strbuf ctypes = {0};
		struct btf_func f;
		if (types_dwarf_src_func(&d, funcs->v[i].name, &f, &ctypes)) {
			walk(f.ret, 0, &budget);
			for (uint32_t k = 0; k < f.nparams; k++)
				walk(f.params[k].type, 0, &budget);
		}
		sb_free(&ctypes);
	}
	for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++)
		for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++)
			walk(types_dwarf_src_named(&d, tags[t], names[n]), 0, &budget);
	types_dwarf_src_free(&d);
	arena_free(&a);
}

/* uprobe:FILE:FUNCTION+OFFSET's check: does off start an instruction? */
static void insn_check(const uint8_t *data, size_t size, const struct elf_func *f)
{
	size_t before, after;
	uint8_t *code;

	if (!f->size || f->offset > size || f->size > size - f->offset)
		return;
	code = malloc(f->size);
	memcpy(code, data + f->offset, f->size);
	sys_insn_boundary(code, f->size, f->size / 2, &before, &after);
	sys_insn_boundary(code, f->size, f->size - 1, &before, &after);
	free(code);
}

/* Each reader on the file; whether it has functions (1) and USDT probes (2) */
static int readers(const uint8_t *data, size_t size)
{
	char err[256], needed[16][ELF_NEEDED_LEN];
	struct elf_segment segs[16];
	struct elf_funcs funcs;
	struct usdt_sites sites;
	int has = 0;

	if (sym_elf_funcs_load(path, &funcs, err, sizeof(err)) == 0) {
		has |= funcs.n ? 1 : 0;
		for (size_t i = 0; i < funcs.n; i++) {
			if (sym_elf_funcs_find(&funcs, funcs.v[i].name) != &funcs.v[i])
				abort(); /* sorted, each name once */
			if (i < 32)
				insn_check(data, size, &funcs.v[i]);
		}
		if (funcs.n)
			sym_elf_addr_offset(path, funcs.v[0].addr + 1, err, sizeof(err));
		dwarf_types(&funcs);
		sym_elf_funcs_free(&funcs);
	}
	if (sym_elf_usdt_load(path, &sites, err, sizeof(err)) == 0) {
		has |= sites.n ? 2 : 0;
		for (size_t i = 0; i < sites.n; i++) {
			struct usdt_arg a;
			for (unsigned k = 0, n = types_usdt_arg_count(sites.v[i].args);
			     k < n && k < 16; k++)
				types_usdt_arg(sites.v[i].args, k, &a, err, sizeof(err));
		}
		sym_elf_usdt_free(&sites);
	}
	sym_elf_segments(path, segs, 16);
	sym_elf_needed(path, needed, 16);
	return has;
}

/* lantern -lv: the functions with their parameters, the USDT probes (when there are: else it says so on stderr) */
static void listing(int has)
{
	char pattern[300];

	snprintf(pattern, sizeof(pattern), "uprobe:%s:*", path);
	if (has & 1)
		prov_list(pattern, true, 0, devnull);
	snprintf(pattern, sizeof(pattern), "usdt:%s:*", path);
	if (has & 2)
		prov_list(pattern, true, 0, devnull);
}

/* The providers: every function and probe, FUNCTION+OFFSET, `args` from DWARF, USDT arguments */
static void scripts(void)
{
	static const char *const texts[] = {
		"uprobe:%s:* { @[probe] = count(); } uretprobe:%s:lantern_* { @r = retval; }",
		"uprobe:%s:lantern_visit+2 { @ = 1; } uprobe:%s:lantern_sum+7 { @ = 2; }",
		"uprobe:%s:lantern_visit { @n = args.n->next->name; @p[args.n->pos.x] = "
		"args.depth; }",
		"uprobe:%s:lantern_sum { @ = ((struct node *)arg0)->values[1][1] + ((struct s "
		"*)arg2)->n->id; }",
		"usdt:%s:* { @[probe] = arg0 + arg1; } usdt:%s:lantern:tick { @s = str(arg2); }",
	};
	char text[512];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct compile_opts o = { .script_name = "fuzz", .script = text };
		struct plan p;
		snprintf(text, sizeof(text), texts[i], path, path);
		compile(&p, &o, NULL);
		plan_free(&p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	put_file(data, size);
	listing(readers(data, size));
	scripts();
	return 0;
}
