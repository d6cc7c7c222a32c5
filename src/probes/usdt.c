// SPDX-License-Identifier: MIT
/*
 * usdt:FILE:[PROVIDER:]NAME: the statically defined probes (SDT notes) of
 * a program or library (FILE: a path, with wildcards, a program in $PATH
 * or a library; with -p, empty: every file the process maps), each site a uprobe (uprobe.c attaches it); a
 * semaphore, when the probe has one, is counted up by the kernel while
 * attached (ref_ctr_offset). arg0.. are where each site's note says: a
 * constant, a register, or memory at a register + offset.
 */
#include "probes/uprobe.h"
#include "sym/elf.h"
#include "sym/procmaps.h"
#include "types/usdt_args.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FILE's probes matching want_prov:want_name, as instances; how many (-1: FILE unreadable) */
static int add_file(struct plan *p, const struct provider *prov, struct probe *pr,
		    struct attach_point *ap, const char *path, const char *want_prov,
		    const char *want_name, size_t *nsites)
{
	char err[512], name[PATH_MAX + 512];
	struct usdt_sites sites;
	int added = 0;

	if (sym_elf_usdt_load(path, &sites, err, sizeof(err)) < 0)
		return -1;
	*nsites += sites.n;
	for (size_t i = 0; i < sites.n; i++) {
		const struct usdt_site *u = &sites.v[i];
		if (!util_wildcard_match(want_prov, u->provider) || !util_wildcard_match(want_name, u->name))
			continue;
		snprintf(name, sizeof(name), "usdt:%s:%s:%s", path, u->provider, u->name);
		struct uprobe_inst *ui = ARENA_NEW(&p->arena, struct uprobe_inst);
		ui->path = arena_strdup(&p->arena, path);
		ui->func = arena_strdup(&p->arena, u->name);
		ui->usdt_args = arena_strdup(&p->arena, u->args);
		ui->offset = u->offset;
		ui->ref_ctr = u->sema_offset;
		plan_add_inst(p, pr, ap, prov, name)->data = ui;
		added++;
	}
	sym_elf_usdt_free(&sites);
	return added;
}

/* The files FILE names (prov_probe_files()), or NULL reported. */
static char **usdt_files(struct plan *p, struct attach_point *ap, const char *file)
{
	pid_t pid = p->opts->pid;
	char **files;

	if (!*file && pid <= 0) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "a usdt probe without FILE needs -p PID: it searches the process's files");
		diag_hint(&p->diag, "usdt:FILE:PROVIDER:NAME, or -p PID with usdt::PROVIDER:NAME");
		return NULL;
	}
	if ((files = prov_probe_files(file, pid, false)))
		return files;
	if (!*file || (util_has_wildcard(file) && pid > 0)) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot read the mappings of process %d",
			   (int)pid);
	} else {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot find '%s'", file);
		diag_hint(&p->diag, "give a path, a program in $PATH or a library name (libc)");
	}
	return NULL;
}

/*
 * usdt:FILE:[PROVIDER:]NAME; FILE may be empty (the -p process's files)
 * or hold wildcards, PROVIDER may be empty (any), both parts may hold
 * wildcards.
 */
static int usdt_expand(struct plan *p, const struct provider *prov, struct probe *pr,
		       struct attach_point *ap)
{
	const char *file = ap->nparts >= 3 ? ap->parts[1] : "";
	const char *want_prov = ap->nparts == 4 && *ap->parts[2] ? ap->parts[2] : "*";
	const char *want_name = ap->parts[ap->nparts - 1];
	size_t nsites = 0, nfiles = 0;
	char **files;
	int retbit, added = 0;

	if ((ap->nparts != 3 && ap->nparts != 4) || !*want_name) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "usdt probes are written usdt:FILE:PROVIDER:NAME or usdt:FILE:NAME");
		diag_hint(&p->diag, "with -p PID, FILE may be left out: usdt::PROVIDER:NAME");
		return -1;
	}
	if (prov_uprobe_pmu(&retbit) < 0) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no uprobe PMU (%s): it was built without CONFIG_UPROBE_EVENTS",
			   UPROBE_PMU_DIR);
		return -1;
	}
	if (!(files = usdt_files(p, ap, file)))
		return -1;
	for (char **f = files; *f; f++, nfiles++) {
		int n = add_file(p, prov, pr, ap, *f, want_prov, want_name, &nsites);
		if (n < 0 && !util_has_wildcard(file) && *file) {
			diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot read the USDT notes of %s", *f);
			sym_proc_files_free(files);
			return -1;
		}
		added += n > 0 ? n : 0;
	}
	if (!added) {
		const char *where = nfiles == 1 ? files[0] : *file ? file : "the process's files";
		if (!nfiles)
			diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "no file matches '%s'", file);
		else if (!nsites)
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "%s %s no USDT probes", where,
				   nfiles == 1 ? "has" : "have");
		else
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no USDT probe of %s matches %s%s%s",
				   where, ap->nparts == 4 ? want_prov : "", ap->nparts == 4 ? ":" : "",
				   want_name);
		if (nsites && nfiles == 1)
			diag_hint(&p->diag, "`lantern -l 'usdt:%s:*'` lists them", files[0]);
	}
	sym_proc_files_free(files);
	return added ? 0 : -1;
}

static int by_probe(const void *a, const void *b)
{
	const struct usdt_site *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	return c ? c : strcmp(x->name, y->name);
}

/* -lv: a site's arguments by type, "    int32 arg0" (as later bpftrace versions list them) */
static void list_args(const char *args, FILE *out)
{
	struct usdt_arg a;
	char err[128];

	for (unsigned i = 0, n = types_usdt_arg_count(args); i < n; i++)
		if (types_usdt_arg(args, i, &a, err, sizeof(err)) == 0)
			fprintf(out, "    %sint%u arg%u\n", a.is_signed ? "" : "u", a.size * 8, i);
		else
			fprintf(out, "    arg%u (%s)\n", i, err);
}

/* FILE's probes matching pattern (over PROVIDER:NAME or NAME) or whole; how many, -1 unreadable */
static int list_file(const char *path, const char *pattern, const char *whole, bool verbose,
		     FILE *out)
{
	char err[512], name[PATH_MAX + 512], last[PATH_MAX + 512] = "";
	struct usdt_sites sites;
	int n = 0;

	if (sym_elf_usdt_load(path, &sites, err, sizeof(err)) < 0)
		return -1;
	/* sorted by provider and name, as bpftrace lists them; a probe with several sites once */
	if (sites.n)
		qsort(sites.v, sites.n, sizeof(*sites.v), by_probe);
	for (size_t i = 0; i < sites.n; i++) {
		const struct usdt_site *u = &sites.v[i];
		snprintf(name, sizeof(name), "usdt:%s:%s:%s", path, u->provider, u->name);
		if ((pattern && *pattern && !util_wildcard_match(pattern, name + strlen(path) + 6) &&
		     !util_wildcard_match(pattern, u->name)) ||
		    (whole && !util_wildcard_match(whole, name)) || !strcmp(name, last))
			continue;
		snprintf(last, sizeof(last), "%s", name);
		fprintf(out, "%s\n", name);
		if (verbose)
			list_args(u->args, out);
		n++;
	}
	sym_elf_usdt_free(&sites);
	return n;
}

/*
 * usdt:FILE[:PATTERN over PROVIDER:NAME or NAME]; FILE may hold
 * wildcards; with -p, FILE may be left out (the process's files).
 */
static int usdt_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	const char *file = q->whole ? NULL : q->part[0];
	char **files;
	int n = 0;

	(void)prov;
	if (!q->pid && !file)
		return 0;
	if (!(files = prov_probe_files(file, q->pid, false))) {
		fprintf(stderr, "lantern: cannot list the USDT probes of '%s'%s\n",
			file && *file ? file : "the process",
			q->pid || (file && *file) ? "" : ": without FILE, give -p PID");
		return -1;
	}
	for (char **f = files; *f; f++) {
		int k = list_file(*f, q->whole ? NULL : q->part[1], q->whole, q->verbose, out);
		if (k < 0 && file && *file && !util_has_wildcard(file)) {
			fprintf(stderr, "lantern: cannot list the USDT probes of '%s'\n", *f);
			n = -1;
			break;
		}
		n += k > 0 ? k : 0;
	}
	sym_proc_files_free(files);
	return n;
}

static struct type *usdt_builtin_type(struct check *c, struct expr *e)
{
	const struct uprobe_inst *ui = c->inst->data;
	struct usdt_arg a;
	char err[256];

	if (e->id != BI_ARGN)
		return NULL;
	if (types_usdt_arg(ui->usdt_args, strtoul(e->u.name + 3, NULL, 10), &a, err, sizeof(err)) < 0) {
		CERR(c, e->span, E_BUILTIN_CONTEXT, "%s is not available in %s: %s", e->u.name,
		     c->inst->name, err);
		return &ty_none;
	}
	return &ty_u64;
}

static struct val usdt_gen_builtin(struct gen *g, struct expr *e)
{
	const struct uprobe_inst *ui = g->inst->data;
	struct usdt_arg a;
	char err[256];
	struct type *t;
	int32_t r;

	if (types_usdt_arg(ui->usdt_args, strtoul(e->u.name + 3, NULL, 10), &a, err, sizeof(err)) < 0) {
		gen_error(g, e->span, "%s: %s", e->u.name, err);
		return reg_val(e->type, gen_const(g, 0));
	}
	t = type_int(a.size, a.is_signed);
	if (a.kind == USDT_ARG_CONST)
		return reg_val(e->type, gen_const(g, a.val));
	r = ir_vreg(g->ir);
	emit(g->ir, LDX_MEM(BPF_DW, r, g->ctx, a.reg));
	if (a.kind == USDT_ARG_REG) {
		gen_extend(g, r, t);
		return reg_val(e->type, r);
	}
	// probe_read_user(tmp, size, base + index * scale + disp), then the value at tmp
	struct loc tmp = gen_temp_alloc(g, 8);
	if (a.index >= 0) {
		int32_t x = ir_vreg(g->ir);
		emit(g->ir, LDX_MEM(BPF_DW, x, g->ctx, a.index));
		emit(g->ir, ALU64_IMM(BPF_MUL, x, a.scale));
		emit(g->ir, ALU64_REG(BPF_ADD, r, x));
	}
	emit(g->ir, ALU64_IMM(BPF_ADD, r, (int32_t)a.val));
	gen_zero(g, tmp.base, tmp.off, 8);
	gen_probe_read(g, tmp.base, tmp.off, a.size, r, SPACE_USER, false);
	return reg_val(e->type, gen_load_int(g, t, tmp.base, tmp.off));
}

const struct provider prov_usdt = {
	.id = PROV_USDT,
	.name = "usdt",
	.alias = "U",
	.flags = PROV_F_REGS | PROV_F_USER_MEM | PROV_F_LIFO,
	.site = prov_uprobe_site,
	.expand = usdt_expand,
	.builtin_type = usdt_builtin_type,
	.gen_builtin = usdt_gen_builtin,
	.prog_setup = prov_uprobe_prog_setup,
	.list = usdt_list,
	.attach = prov_uprobe_attach,
};
