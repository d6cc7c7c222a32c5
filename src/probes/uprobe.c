// SPDX-License-Identifier: MIT
/*
 * uprobe:FILE:FUNC and uretprobe:FILE:FUNC: a function's entry (return) in
 * an executable or shared library, for every process that runs it (or
 * only the -p process). FUNC may hold wildcards, or be an address (0x...).
 * FILE is a path, a program found in $PATH, or a library name ("libc")
 * found in the usual library directories.
 *
 * Attached with the kernel's uprobe PMU (perf_event_open of the type in
 * /sys/bus/event_source/devices/uprobe): no tracefs entries are created,
 * so nothing is left behind if lantern dies. The programs are kprobe
 * programs: their context is the task's registers (arg0.., retval).
 */
#include "probes/uprobe.h"
#include "base/util.h"
#include "sym/elf.h"
#include "sys/arch.h"
#include "sys/perf.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>



int uprobe_pmu(int *retbit)
{
	return probe_pmu(UPROBE_PMU_DIR, retbit);
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* An ELF file, not a linker script (libc.so next to libc.so.6) */
static bool is_elf(const char *path)
{
	char magic[4];
	FILE *f = fopen(path, "rb");
	bool ok = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);

	if (f)
		fclose(f);
	return ok;
}

/* "libc" -> /lib/x86_64-linux-gnu/libc.so.6: NAME.so*, libNAME.so* or NAME in a library directory */
static bool find_library(const char *name, char *out, size_t n)
{
	static const char *const dirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
		"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
		"/usr/local/lib",
	};
	char want[3][PATH_MAX];

	snprintf(want[0], sizeof(want[0]), "%s.so", name);
	snprintf(want[1], sizeof(want[1]), "lib%s.so", name);
	snprintf(want[2], sizeof(want[2]), "%s", name); /* libc.so.6 itself */
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;
		char best[NAME_MAX + 1] = "";
		if (!d)
			continue;
		while ((de = readdir(d))) {
			for (int k = 0; k < 3; k++) {
				size_t len = strlen(want[k]);
				if (strncmp(de->d_name, want[k], len) ||
				    (de->d_name[len] && de->d_name[len] != '.'))
					continue;
				/* the shortest ELF name: libc.so.6 before libc.so.6.1 */
				char full[PATH_MAX];
				snprintf(full, sizeof(full), "%s/%.*s", dirs[i], NAME_MAX, de->d_name);
				if ((!*best || strlen(de->d_name) < strlen(best)) && is_file(full) &&
				    is_elf(full))
					snprintf(best, sizeof(best), "%s", de->d_name);
			}
		}
		closedir(d);
		if (*best) {
			snprintf(out, n, "%s/%.*s", dirs[i], NAME_MAX, best);
			return true;
		}
	}
	return false;
}

/* A library of process pid named like "libc" or "libc.so.6": its path from /proc/PID/maps */
static bool find_in_maps(pid_t pid, const char *name, char *out)
{
	char path[64], line[PATH_MAX + 256];
	size_t len = strlen(name);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "r")))
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/'), *base;
		if (!file)
			continue;
		file[strcspn(file, "\n")] = 0;
		base = strrchr(file, '/') + 1;
		/* "libc" matches libc.so.6 and libc-2.31.so; "libc.so.6" itself */
		if (!strcmp(base, name) ||
		    (!strncmp(base, name, len) && (base[len] == '.' || base[len] == '-')) ||
		    (!strncmp(base, "lib", 3) && !strncmp(base + 3, name, len) && base[3 + len] == '.'))
			found = realpath(file, out) && is_file(out);
	}
	fclose(f);
	return found;
}

/* FILE of an attach point -> an absolute path of an existing file (out: PATH_MAX bytes);
   with -p, a library of that process first */
bool resolve_file(const char *file, char *out, pid_t pid)
{
	char buf[PATH_MAX];

	if (strchr(file, '/'))
		return realpath(file, out) && is_file(out);
	if (pid > 0 && find_in_maps(pid, file, out))
		return true;
	if (path_search(file, buf, sizeof(buf)))
		return realpath(buf, out) != NULL;
	return find_library(file, buf, sizeof(buf)) && realpath(buf, out);
}

static void suggest_symbol(struct plan *p, const struct elf_funcs *f, const char *name)
{
	const char *best = NULL;
	unsigned bestd = 3;

	for (size_t i = 0; i < f->n; i++) {
		unsigned d = edit_distance(name, f->v[i].name, bestd);
		if (d < bestd) {
			bestd = d;
			best = f->v[i].name;
		}
	}
	if (best)
		diag_hint(&p->diag, "did you mean '%s'?", best);
}

static void add_inst(struct plan *p, struct probe *pr, struct attach_point *ap,
		     const struct provider *prov, const char *path, const char *func,
		     uint64_t offset)
{
	char name[PATH_MAX + 256];
	struct uprobe_inst *ui = ARENA_NEW(&p->arena, struct uprobe_inst);

	snprintf(name, sizeof(name), "%s:%s:%s", prov->name, path, func);
	ui->path = arena_strdup(&p->arena, path);
	ui->func = arena_strdup(&p->arena, func);
	ui->offset = offset;
	plan_add_inst(p, pr, ap, prov, name)->data = ui;
	type_env_dwarf(&p->types, ui->path); /* its types, should the script name them */
}

static int uprobe_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			 struct attach_point *ap)
{	char path[PATH_MAX], err[512];
	struct elf_funcs funcs;
	const char *fn;
	int retbit, added = 0;

	if (ap->nparts != 3 || !*ap->parts[1] || !*ap->parts[2]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "%s probes are written %s:FILE:FUNCTION, e.g. %s:/bin/bash:readline",
			   prov->name, prov->name, prov->name);
		return -1;
	}
	if (uprobe_pmu(&retbit) < 0 || (prov->id == PROV_URETPROBE && retbit < 0)) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no uprobe PMU (%s): it was built without CONFIG_UPROBE_EVENTS",
			   UPROBE_PMU_DIR);
		diag_hint(&p->diag, "tracepoint, profile and software probes do not need it");
		return -1;
	}
	if (!resolve_file(ap->parts[1], path, p->opts->pid)) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot find '%s'", ap->parts[1]);
		diag_hint(&p->diag, "give a path, a program in $PATH or a library name (libc)");
		return -1;
	}
	fn = ap->parts[2];
	if (!strncmp(fn, "0x", 2) || (fn[0] >= '0' && fn[0] <= '9')) {
		/* an address in the file */
		char *end;
		uint64_t addr = strtoull(fn, &end, 0);
		int64_t off = *end ? -1 : elf_addr_offset(path, addr, err, sizeof(err));
		if (off < 0) {
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "%s",
				   *end ? "not an address or a function name" : err);
			return -1;
		}
		add_inst(p, pr, ap, prov, path, fn, (uint64_t)off);
		return 0;
	}
	if (elf_funcs_load(path, &funcs, err, sizeof(err)) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "%s", err);
		return -1;
	}
	for (size_t i = 0; i < funcs.n; i++) {
		const struct elf_func *f = &funcs.v[i];
		if (has_wildcard(fn) ? !wildcard_match(fn, f->name) : strcmp(fn, f->name))
			continue;
		add_inst(p, pr, ap, prov, path, f->name, f->offset);
		added++;
	}
	if (!added) {
		if (has_wildcard(fn)) {
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function of %s matches '%s'",
				   path, fn);
		} else {
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function '%s' in %s", fn,
				   path);
			suggest_symbol(p, &funcs, fn);
		}
	}
	elf_funcs_free(&funcs);
	return added ? 0 : -1;
}

/* uprobe:FILE:PATTERN: FILE's functions */
static int uprobe_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	const char *file = q->part[0], *pattern = q->part[1];
	char path[PATH_MAX], err[512];
	struct elf_funcs funcs;
	struct arena a = { 0 };
	struct dwarf_src d;
	struct strbuf args = { 0 };
	struct btf_func f;
	int n = 0;

	if (!file || !pattern)
		return 0;
	if (!resolve_file(file, path, 0) || elf_funcs_load(path, &funcs, err, sizeof(err)) < 0) {
		fprintf(stderr, "lantern: cannot list the functions of '%s'\n", file);
		return -1;
	}
	dwarf_src_init(&d, &a, path);
	for (size_t i = 0; i < funcs.n; i++) {
		if (pattern && *pattern && !wildcard_match(pattern, funcs.v[i].name))
			continue;
		fprintf(out, "%s:%s:%s\n", prov->name, path, funcs.v[i].name);
		/* -lv: the arguments, from the debug info when the file has some */
		sb_reset(&args);
		if (q->verbose && dwarf_src_func(&d, funcs.v[i].name, &f, &args))
			fputs(sb_str(&args), out);
		n++;
	}
	sb_free(&args);
	dwarf_src_free(&d);
	arena_free(&a);
	elf_funcs_free(&funcs);
	return n;
}

/*
 * args: the function's parameters by name and type, from the file's debug
 * info, each in the register the calling convention passes it in (the
 * first ARCH_MAX_ARGS integer or pointer parameters; those after a struct
 * or float passed by value are left out: their registers are not known).
 */
static struct type *uprobe_args_type(struct check *c, struct probe_inst *in)
{
	const struct uprobe_inst *ui = in->data;
	struct dwarf_src *d = type_env_dwarf(&c->p->types, ui->path);
	const struct arch_regs *regs = arch_regs();
	struct btf_func f;
	struct type *t;

	if (in->args)
		return in->args;
	if (!dwarf_src_func(d, ui->func, &f, NULL)) {
		CERR(c, in->ap->span, E_UNKNOWN_TYPE, "args of %s need %s's debug info about %s", in->name,
		     ui->path, ui->func);
		CHINT(c, "%s", d->dw ? "the function is not in it; arg0, arg1, ... read the registers" : d->err);
		return &ty_none;
	}
	t = ARENA_NEW(&c->p->arena, struct type);
	t->kind = TY_CTX;
	t->size = t->align = 8;
	t->name = in->name;
	t->fields = ARENA_ARRAY(&c->p->arena, struct field, f.nparams + 1);
	for (uint32_t i = 0; regs && i < f.nparams && i < ARCH_MAX_ARGS; i++) {
		struct field *out = &t->fields[t->nfields];
		struct type *pt = f.params[i].type;
		if ((pt->kind != TY_INT && pt->kind != TY_PTR) || pt->size > 8)
			break;
		memset(out, 0, sizeof(*out));
		out->name = f.params[i].name;
		out->type = pt;
		out->offset = regs->arg[i]; /* in struct pt_regs, the context */
		t->nfields++;
	}
	return in->args = t;
}

static struct type *uprobe_builtin_type(struct check *c, struct expr *e)
{
	const struct uprobe_inst *x = c->inst->data;

	if (e->id == BI_ARGS)
		return uprobe_args_type(c, c->inst);
	return regs_builtin_type(c, e, c->inst->prov->id == PROV_URETPROBE, x->func);
}

static struct val uprobe_gen_builtin(struct gen *g, struct expr *e)
{
	if (e->id == BI_ARGS)
		return reg_val(e->type, g->ctx);
	return regs_gen_builtin(g, e, ((const struct uprobe_inst *)g->inst->data)->func);
}

void uprobe_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_KPROBE;
}

int uprobe_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		  const struct probe_inst *in, char *err, size_t errlen)
{
	const struct uprobe_inst *ui = in->data;
	struct perf_event_attr attr = { 0 };
	int retbit, type = uprobe_pmu(&retbit);
	pid_t pid = ac->pid > 0 ? ac->pid : -1;

	attr.type = type;
	attr.size = sizeof(attr);
	if (in->prov->id == PROV_URETPROBE)
		attr.config = 1ull << retbit;
	attr.config1 = (uint64_t)(uintptr_t)ui->path; /* uprobe_path */
	attr.config2 = ui->offset;		       /* probe_offset */
	attr.config |= ui->ref_ctr << 32;	       /* ref_ctr_offset: config:32-63 */
	return attach_perf_event_on(ac, prog_fd, in, &attr, pid, pid < 0 ? 0 : -1, in->prov->name,
				    err, errlen);
}

const struct provider prov_uprobe = {
	.id = PROV_UPROBE,
	.name = "uprobe",
	.alias = "u",
	.flags = PROV_F_REGS | PROV_F_USER_MEM,
	.expand = uprobe_expand,
	.builtin_type = uprobe_builtin_type,
	.gen_builtin = uprobe_gen_builtin,
	.gen_args_field = gen_ctx_field,
	.prog_setup = uprobe_prog_setup,
	.list = uprobe_list,
	.attach = uprobe_attach,
};

const struct provider prov_uretprobe = {
	.id = PROV_URETPROBE,
	.name = "uretprobe",
	.alias = "ur",
	.flags = PROV_F_REGS | PROV_F_USER_MEM,
	.expand = uprobe_expand,
	.builtin_type = uprobe_builtin_type,
	.gen_builtin = uprobe_gen_builtin,
	.prog_setup = uprobe_prog_setup,
	.list = uprobe_list,
	.attach = uprobe_attach,
};
