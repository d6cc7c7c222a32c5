// SPDX-License-Identifier: MIT
/*
 * uprobe:FILE:FUNC and uretprobe:FILE:FUNC: a function's entry (return) in
 * an executable or shared library, for every process that runs it (or
 * only the -p process). FUNC may hold wildcards, or be an address (0x...),
 * or FUNC+OFFSET; an address or an offset must be where an instruction
 * starts (sys/insn.c decodes the function's code up to there).
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
#include "sym/procmaps.h"
#include "sym/srcline.h"
#include "sys/arch.h"
#include "sys/perf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>



int prov_uprobe_pmu(int *retbit)
{
	return sys_probe_pmu(UPROBE_PMU_DIR, retbit);
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

/*
 * file as process pid sees it, from here (out: PATH_MAX bytes): in another
 * mount namespace through /proc/PID/root (realpath() would leave it),
 * else its real path
 */
static bool resolve_in(pid_t pid, const char *file, char *out)
{
	if (!sym_proc_path(pid, file, out))
		return realpath(file, out) && is_file(out);
	return is_file(out);
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
			found = resolve_in(pid, file, out);
	}
	fclose(f);
	return found;
}

bool prov_resolve_file_shown(const char *file, char *out, char *shown, pid_t pid)
{
	char buf[PATH_MAX];

	if (strchr(file, '/')) {
		/* under -p, an absolute path is the process's: in another mount namespace,
		   through /proc/PID/root (bpftrace's name for it too) */
		if (pid > 0 && sym_proc_path(pid, file, out) && is_file(out)) {
			snprintf(shown, PATH_MAX, "%s", out);
			return true;
		}
		snprintf(shown, PATH_MAX, "%s", file);
		return realpath(file, out) && is_file(out);
	}
	if (pid > 0 && find_in_maps(pid, file, out)) {
		snprintf(shown, PATH_MAX, "%s", out);
		return true;
	}
	if (util_path_search(file, buf, sizeof(buf)) ||
	    (find_library(file, buf, sizeof(buf)) && is_file(buf))) {
		snprintf(shown, PATH_MAX, "%s", buf);
		return realpath(buf, out) != NULL;
	}
	return false;
}

bool prov_resolve_file(const char *file, char *out, pid_t pid)
{
	char shown[PATH_MAX];

	return prov_resolve_file_shown(file, out, shown, pid);
}

char **prov_probe_files(const char *file, pid_t pid, bool exe_only)
{
	char path[PATH_MAX], shown[PATH_MAX], **files;
	size_t n = 0;
	glob_t g;

	if (!file || !*file || (util_has_wildcard(file) && pid > 0)) {
		if (pid <= 0 || !(files = sym_proc_files(pid)))
			return NULL;
		for (size_t i = 0; files[i]; i++) /* keep those FILE matches */
			if ((!file || !*file || util_wildcard_match(file, files[i])) && (!exe_only || !n))
				files[n++] = files[i];
			else
				free(files[i]);
		files[n] = NULL;
		return files;
	}
	files = util_xmalloc(sizeof(*files));
	if (util_has_wildcard(file)) {
		if (glob(file, 0, NULL, &g) == 0)
			for (size_t i = 0; i < g.gl_pathc; i++) {
				if (!is_file(g.gl_pathv[i]) || !is_elf(g.gl_pathv[i]))
					continue;
				files = util_xrealloc(files, (n + 2) * sizeof(*files));
				files[n++] = util_xstrdup(g.gl_pathv[i]);
			}
		globfree(&g);
	} else if (prov_resolve_file_shown(file, path, shown, pid)) {
		files = util_xrealloc(files, 2 * sizeof(*files));
		files[n++] = util_xstrdup(shown);
	} else {
		free(files);
		return NULL;
	}
	files[n] = NULL;
	return files;
}

void prov_uprobe_suggest(struct plan *p, const struct elf_funcs *f, const char *name)
{
	const char *best = NULL;
	unsigned bestd = 3;

	for (size_t i = 0; i < f->n; i++) {
		unsigned d = util_edit_distance(name, f->v[i].name, bestd);
		if (d < bestd) {
			bestd = d;
			best = f->v[i].name;
		}
	}
	if (best)
		diag_hint(&p->diag, "did you mean '%s'?", best);
}

struct uprobe_inst *prov_uprobe_add(struct plan *p, struct probe *pr, struct attach_point *ap,
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
	return ui;
}

/*
 * fn is not in path: the library path needs that defines it, if one does
 * (glibc 2.34 moved libpthread's functions into libc: libpthread.so.0 is
 * an empty shell that needs libc.so.6). Its path into found; false if none.
 */
static bool needed_defining(const char *path, const char *fn, char *found, size_t n)
{
	char needed[16][ELF_NEEDED_LEN], cand[PATH_MAX], err[256];
	const char *slash = strrchr(path, '/');
	int k = sym_elf_needed(path, needed, 16);

	for (int i = 0; i < k; i++) {
		struct elf_funcs funcs;
		/* next to the library first, as the dynamic linker would find it */
		snprintf(cand, sizeof(cand), "%.*s/%s", slash ? (int)(slash - path) : 1,
			 slash ? path : ".", needed[i]);
		if (access(cand, R_OK) < 0)
			continue;
		if (sym_elf_funcs_load(cand, &funcs, err, sizeof(err)) < 0)
			continue;
		bool has = sym_elf_funcs_find(&funcs, fn) != NULL;
		sym_elf_funcs_free(&funcs);
		if (has) {
			snprintf(found, n, "%s", cand);
			return true;
		}
	}
	return false;
}

/* The functions a probe names that are not there, said after its last attach point */
static struct {
	const struct probe *pr;
	struct span span;
	struct strbuf names;
	char path[PATH_MAX]; /* their file, "" when they are in several */
	int n;
} left_out;

static void uprobe_expand_end(struct plan *p, const struct provider *prov, struct probe *pr)
{
	if (left_out.pr != pr)
		return;
	diag_warn(&p->diag, left_out.span, E_UNKNOWN_SYMBOL,
		  "not in %s, so left out of the probe (as bpftrace leaves them out): %s",
		  *left_out.path ? left_out.path : "their files", sb_str(&left_out.names));
	diag_hint(&p->diag, "a stripped library shows only its exported functions");
	left_out.pr = NULL;
	sb_free(&left_out.names);
}

/*
 * A function named (no wildcard) that path does not have. When the library
 * it needs defines it, the probe goes there, with a warning. Else, in a
 * probe with other attach points, it is left out with a warning, as
 * bpftrace leaves it out (ssllatency.bt names OpenSSL internals that a
 * stripped libcrypto does not show); alone, it is an error. 1 attached
 * elsewhere, 0 left out, -1 an error.
 */
static int missing_function(struct plan *p, const struct provider *prov, struct probe *pr,
			    struct attach_point *ap, const char *path, const char *fn,
			    const struct elf_funcs *funcs)
{
	char other[PATH_MAX], err[256];
	struct elf_funcs ofuncs;

	if (needed_defining(path, fn, other, sizeof(other)) &&
	    sym_elf_funcs_load(other, &ofuncs, err, sizeof(err)) == 0) {
		const struct elf_func *f = sym_elf_funcs_find(&ofuncs, fn);
		diag_warn(&p->diag, ap->span, E_UNKNOWN_SYMBOL,
			  "no function '%s' in %s: attached in %s, the library it needs, which defines it",
			  fn, path, other);
		prov_uprobe_add(p, pr, ap, prov, arena_strdup(&p->arena, other), f->name, f->offset);
		sym_elf_funcs_free(&ofuncs);
		return 1;
	}
	if (p->modern) { /* today's bpftrace: an error (or missing_probes' warning) */
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "No matches for %s %s:%s.", prov->name,
			   path, fn);
		prov_uprobe_suggest(p, funcs, fn);
		return -1;
	}
	if (pr->naps > 1) {
		/* said once per probe, with the others (uprobe_expand_end) */
		struct strbuf *sb = &left_out.names;
		if (left_out.pr != pr) {
			sb_reset(sb);
			left_out.pr = pr;
			left_out.span = ap->span;
			left_out.n = 0;
			snprintf(left_out.path, sizeof(left_out.path), "%s", path);
		}
		if (strcmp(left_out.path, path))
			left_out.path[0] = 0;
		sb_printf(sb, "%s%s", left_out.n++ ? ", " : "", fn);
		return 0;
	}
	diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function '%s' in %s", fn, path);
	prov_uprobe_suggest(p, funcs, fn);
	return -1;
}

/* The functions of path (funcs) that fn names or matches, added; how many */
static int add_matching(struct plan *p, const struct provider *prov, struct probe *pr,
			struct attach_point *ap, const char *path, const struct elf_funcs *funcs,
			const char *fn)
{
	int added = 0;

	for (size_t i = 0; i < funcs->n; i++) {
		const struct elf_func *f = &funcs->v[i];
		/* a C++ function by its name as written too: "ns::add(int, int)", "ns::*" */
		const char *as = f->name;
		if (util_has_wildcard(fn) ? !util_wildcard_match(fn, f->name) : strcmp(fn, f->name)) {
			as = f->demangled;
			if (!as || (util_has_wildcard(fn) ? !util_wildcard_match(fn, as) : strcmp(fn, as)))
				continue;
		}
		prov_uprobe_add(p, pr, ap, prov, path, as, f->offset);
		added++;
	}
	return added;
}

/*
 * uprobe:PATTERN:FUNCTION: the functions in every file PATTERN matches
 * (with -p, the process's mapped files: uprobe:*:f; else the file
 * system's ELF files, as a shell's glob); a file without them is passed.
 */
static int expand_files(struct plan *p, const struct provider *prov, struct probe *pr,
			struct attach_point *ap)
{
	const char *fn = ap->parts[2];
	char **files = prov_probe_files(ap->parts[1], p->opts->pid, false), err[512];
	int added = 0;

	if (!files || !files[0]) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "no file matches '%s'", ap->parts[1]);
		diag_hint(&p->diag, p->opts->pid > 0 ? "with -p, the files the process maps"
						    : "a path with wildcards (-p PID: the process's files)");
		sym_proc_files_free(files);
		return -1;
	}
	if ((fn[0] >= '0' && fn[0] <= '9') || strchr(fn, '+')) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "an address or an offset is in one file: FILE has no wildcards then");
		sym_proc_files_free(files);
		return -1;
	}
	for (size_t i = 0; files[i]; i++) {
		struct elf_funcs funcs;
		if (sym_elf_funcs_load(files[i], &funcs, err, sizeof(err)) < 0)
			continue;
		added += add_matching(p, prov, pr, ap, arena_strdup(&p->arena, files[i]), &funcs, fn);
		sym_elf_funcs_free(&funcs);
	}
	sym_proc_files_free(files);
	if (added)
		return 0;
	if (p->modern)
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "No matches for %s %s:%s.", prov->name,
			   ap->parts[1], fn);
	else
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function of the files '%s' matches '%s'",
			   ap->parts[1], fn);
	return -1;
}

static int uprobe_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			 struct attach_point *ap)
{
	char path[PATH_MAX], real[PATH_MAX], err[512];
	struct elf_funcs funcs;
	const char *fn;
	int retbit, added = 0;

	if (prov_uprobe_pmu(&retbit) < 0 || (prov->id == PROV_URETPROBE && retbit < 0)) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no uprobe PMU (%s): it was built without CONFIG_UPROBE_EVENTS",
			   UPROBE_PMU_DIR);
		diag_hint(&p->diag, "tracepoint, profile and software probes do not need it");
		return -1;
	}
	/* uprobe:FILE@SOURCE.c:LINE, unless FILE is a file whose name has an '@' */
	if (ap->nparts >= 2 && strchr(ap->parts[1], '@') && !is_file(ap->parts[1]))
		return prov_uprobe_expand_line(p, prov, pr, ap);
	if (ap->nparts != 3 || !*ap->parts[1] || !*ap->parts[2]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "%s probes are written %s:FILE:FUNCTION, e.g. %s:/bin/bash:readline",
			   prov->name, prov->name, prov->name);
		return -1;
	}
	if (util_has_wildcard(ap->parts[1]))
		return expand_files(p, prov, pr, ap);
	/* named as given (bpftrace's names): a path as written, a library as found */
	if (!prov_resolve_file_shown(ap->parts[1], real, path, p->opts->pid)) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot find '%s'", ap->parts[1]);
		diag_hint(&p->diag, "give a path, a program in $PATH or a library name (libc)");
		return -1;
	}
	fn = ap->parts[2];
	if (!strncmp(fn, "0x", 2) || (fn[0] >= '0' && fn[0] <= '9'))
		return prov_uprobe_expand_addr(p, prov, pr, ap, path); /* an address in the file */
	if (sym_elf_funcs_load(path, &funcs, err, sizeof(err)) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "%s", err);
		return -1;
	}
	if (strchr(fn, '+')) {
		char *name = arena_strdup(&p->arena, fn), *plus = strchr(name, '+');
		*plus = 0;
		int rc = prov_uprobe_expand_offset(p, prov, pr, ap, path, &funcs, name, plus + 1);
		sym_elf_funcs_free(&funcs);
		return rc;
	}
	added = add_matching(p, prov, pr, ap, path, &funcs, fn);
	int rc = 0;
	if (!added && util_has_wildcard(fn) && p->modern) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "No matches for %s %s:%s.", prov->name,
			   path, fn);
		rc = -1;
	} else if (!added && util_has_wildcard(fn)) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no function of %s matches '%s'", path,
			   fn);
		rc = -1;
	} else if (!added) {
		rc = missing_function(p, prov, pr, ap, path, fn, &funcs) < 0 ? -1 : 0;
	}
	sym_elf_funcs_free(&funcs);
	return rc;
}

/* FILE's functions matching pattern (-lv: with their arguments); how many, -1 unreadable */
static int list_file(const struct provider *prov, const char *path, const char *pattern,
		     const char *whole, bool verbose, FILE *out)
{
	char err[512], name[PATH_MAX + 512];
	struct elf_funcs funcs;
	struct arena a = { 0 };
	struct dwarf_src d;
	struct strbuf args = { 0 };
	struct btf_func f;
	int n = 0;

	if (sym_elf_funcs_load(path, &funcs, err, sizeof(err)) < 0)
		return -1;
	if (verbose) {
		types_dwarf_src_init(&d, &a, path);
		d.find = sym_dwarf_path; /* a stripped file's arguments: its debug file's */
	}
	for (size_t i = 0; i < funcs.n; i++) {
		/* listed as the file names them (bpftrace 0.17 lists C++ names mangled);
		   a pattern may match the demangled name too */
		const char *dname = funcs.v[i].demangled ? funcs.v[i].demangled : funcs.v[i].name;
		snprintf(name, sizeof(name), "%s:%s:%s", prov->name, path, funcs.v[i].name);
		if ((pattern && *pattern && !util_wildcard_match(pattern, funcs.v[i].name) &&
		     !util_wildcard_match(pattern, dname)) ||
		    (whole && !util_wildcard_match(whole, name)))
			continue;
		fprintf(out, "%s\n", name);
		/* -lv: the arguments, from the debug info when the file has some */
		sb_reset(&args);
		if (verbose && types_dwarf_src_func(&d, funcs.v[i].name, &f, &args))
			fputs(sb_str(&args), out);
		n++;
	}
	sb_free(&args);
	if (verbose)
		types_dwarf_src_free(&d);
	arena_free(&a);
	sym_elf_funcs_free(&funcs);
	return n;
}

/*
 * uprobe:FILE:PATTERN: FILE's functions; FILE may hold wildcards. With
 * -p and no FILE (or `lantern -l -p PID`): the process's program.
 */
static int uprobe_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	const char *file = q->part[0], *pattern = q->part[1];
	char **files;
	int n = 0;

	if (q->whole && !q->pid)
		return 0;
	if (!q->pid && (!file || !pattern))
		return 0;
	if (!(files = prov_probe_files(q->whole ? NULL : file, q->pid, q->whole || !file || !*file))) {
		fprintf(stderr, "lantern: cannot list the functions of '%s'%s\n",
			file && *file ? file : "the process",
			q->pid || (file && *file) ? "" : ": without FILE, give -p PID");
		return -1;
	}
	for (char **f = files; *f; f++) {
		int k = list_file(prov, *f, q->whole ? NULL : pattern, q->whole, q->verbose, out);
		if (k < 0 && !util_has_wildcard(file ? file : "*")) {
			fprintf(stderr, "lantern: cannot list the functions of '%s'\n", *f);
			n = -1;
			break;
		}
		n += k > 0 ? k : 0;
	}
	sym_proc_files_free(files);
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
	const struct arch_regs *regs = sys_arch_regs();
	struct btf_func f;
	struct type *t;

	if (in->args)
		return in->args;
	if (ui->func_off) {
		CERR(c, in->ap->span, E_UNSUPPORTED, "args of %s: the arguments are known at %s's entry only",
		     in->name, ui->func);
		CHINT(c, "arg0, arg1, ... read the registers as they are at +%llu",
		      (unsigned long long)ui->func_off);
		return &ty_none;
	}
	if (!types_dwarf_src_func(d, ui->func, &f, NULL)) {
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

/* uaddr("symbol") (sema_check_uaddr): where the symbol is, as the program finds it */
struct uaddr_info {
	uint64_t vaddr;	      /* the symbol's, in the file */
	bool pie;	      /* the file is loaded anywhere: its address from the probe's */
	uint64_t probe_vaddr; /* pie: the probed instruction's, in the file */
};

static struct type *uaddr_type(struct check *c, struct expr *e)
{
	const struct uprobe_inst *x = c->inst->data;
	struct expr *a = e->u.call.args.v[0];
	struct uaddr_info *u = ARENA_NEW(&c->p->arena, struct uaddr_info);
	struct elf_segment segs[16];
	uint64_t size;
	int n;

	if (!sym_elf_symbol(x->path, a->u.str, &u->vaddr, &size, &u->pie)) {
		CERR(c, a->span, E_UNKNOWN_SYMBOL, "Could not resolve symbol: %s:%s", x->path, a->u.str);
		return &ty_none;
	}
	if (u->pie) {
		/* where it is loaded, from where the probe fires (the program counter: a uprobe's instruction) */
		if (c->inst->prov->id == PROV_URETPROBE) {
			CERR(c, e->span, E_BUILTIN_CONTEXT,
			     "uaddr() in a uretprobe of %s: a position-independent file is placed from the probed "
			     "instruction, which a uretprobe does not see", x->path);
			CHINT(c, "use it in a uprobe of the same function");
			return &ty_none;
		}
		n = sym_elf_segments(x->path, segs, 16);
		bool placed = false;
		for (int i = 0; i < n && !placed; i++)
			if (x->offset >= segs[i].offset && x->offset < segs[i].offset + segs[i].size) {
				u->probe_vaddr = x->offset - segs[i].offset + segs[i].vaddr;
				placed = true;
			}
		if (!placed) {
			CERR(c, e->span, E_UNKNOWN_SYMBOL, "uaddr(): no segment of %s holds the probe", x->path);
			return &ty_none;
		}
	}
	e->info = u;
	return type_ptr(&c->p->arena, size == 1 ? &ty_u8 : size == 2 ? &ty_u16 : size == 4 ? &ty_u32 : &ty_u64,
			true);
}

static struct val uaddr_gen(struct gen *g, struct expr *e)
{
	const struct uaddr_info *u = e->info;
	int32_t r = ir_vreg(g->ir);

	if (!u->pie) {
		emit(g->ir, LD_IMM64(r, (int64_t)u->vaddr));
	} else {
		// r = regs->ip + (symbol - probed instruction)
		int32_t d = ir_vreg(g->ir);
		emit(g->ir, LDX_MEM(BPF_DW, r, g->ctx, sys_arch_regs()->ip));
		emit(g->ir, LD_IMM64(d, (int64_t)(u->vaddr - u->probe_vaddr)));
		emit(g->ir, ALU64_REG(BPF_ADD, r, d));
	}
	return reg_val(e->type, r);
}

static struct type *uprobe_builtin_type(struct check *c, struct expr *e)
{
	const struct uprobe_inst *x = c->inst->data;

	if (e->kind == EXPR_CALL)
		return uaddr_type(c, e);
	if (e->id == BI_ARGS)
		return uprobe_args_type(c, c->inst);
	return prov_regs_builtin_type(c, e, c->inst->prov->id == PROV_URETPROBE, x->func);
}

static struct val uprobe_gen_builtin(struct gen *g, struct expr *e)
{
	if (e->kind == EXPR_CALL)
		return uaddr_gen(g, e);
	if (e->id == BI_ARGS)
		return reg_val(e->type, g->ctx);
	return prov_regs_gen_builtin(g, e, ((const struct uprobe_inst *)g->inst->data)->func);
}

void prov_uprobe_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_KPROBE;
}

uint64_t prov_uprobe_site(const struct probe_inst *in)
{
	const struct uprobe_inst *ui = in->data;
	uint64_t h = 1469598103934665603ull; /* FNV-1a of the path, then the offset */

	for (const char *c = ui->path; *c; c++)
		h = (h ^ (uint8_t)*c) * 1099511628211ull;
	return (h ^ ui->offset) * 1099511628211ull + (in->prov->id == PROV_URETPROBE);
}

int prov_uprobe_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		  const struct probe_inst *in, char *err, size_t errlen)
{
	const struct uprobe_inst *ui = in->data;
	struct perf_event_attr attr = { 0 };
	int retbit, type = prov_uprobe_pmu(&retbit);
	pid_t pid = ac->pid > 0 ? ac->pid : -1;

	attr.type = type;
	attr.size = sizeof(attr);
	if (in->prov->id == PROV_URETPROBE)
		attr.config = 1ull << retbit;
	attr.config1 = (uint64_t)(uintptr_t)ui->path; /* uprobe_path */
	attr.config2 = ui->offset;		       /* probe_offset */
	attr.config |= ui->ref_ctr << 32;	       /* ref_ctr_offset: config:32-63 */
	return prov_attach_perf_event_on(ac, prog_fd, in, &attr, pid, pid < 0 ? 0 : -1, in->prov->name,
				    err, errlen);
}

const struct provider prov_uprobe = {
	.id = PROV_UPROBE,
	.name = "uprobe",
	.alias = "u",
	.flags = PROV_F_REGS | PROV_F_USER_MEM | PROV_F_LIFO,
	.site = prov_uprobe_site,
	.expand = uprobe_expand,
	.expand_end = uprobe_expand_end,
	.builtin_type = uprobe_builtin_type,
	.gen_builtin = uprobe_gen_builtin,
	.gen_args_field = gen_ctx_field,
	.prog_setup = prov_uprobe_prog_setup,
	.list = uprobe_list,
	.attach = prov_uprobe_attach,
};

const struct provider prov_uretprobe = {
	.id = PROV_URETPROBE,
	.name = "uretprobe",
	.alias = "ur",
	.flags = PROV_F_REGS | PROV_F_USER_MEM | PROV_F_LIFO,
	.site = prov_uprobe_site,
	.expand = uprobe_expand,
	.expand_end = uprobe_expand_end,
	.builtin_type = uprobe_builtin_type,
	.gen_builtin = uprobe_gen_builtin,
	.prog_setup = prov_uprobe_prog_setup,
	.list = uprobe_list,
	.attach = prov_uprobe_attach,
};
