// SPDX-License-Identifier: MIT
/*
 * usdt:FILE:[PROVIDER:]NAME: the statically defined probes (SDT notes) of
 * a program or library, each site a uprobe (uprobe.c attaches it); a
 * semaphore, when the probe has one, is counted up by the kernel while
 * attached (ref_ctr_offset). arg0.. are where each site's note says: a
 * constant, a register, or memory at a register + offset.
 */
#include "probes/uprobe.h"
#include "sym/elf.h"
#include "types/usdt_args.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usdt_expand(struct plan *p, const struct provider *prov, struct probe *pr,
		       struct attach_point *ap)
{
	char path[PATH_MAX], err[512], name[PATH_MAX + 512];
	const char *want_prov = ap->nparts == 4 ? ap->parts[2] : "*";
	const char *want_name = ap->parts[ap->nparts - 1];
	struct usdt_sites sites;
	int retbit, added = 0;

	if ((ap->nparts != 3 && ap->nparts != 4) || !*ap->parts[1] || !*want_name) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "usdt probes are written usdt:FILE:PROVIDER:NAME or usdt:FILE:NAME");
		return -1;
	}
	if (uprobe_pmu(&retbit) < 0) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no uprobe PMU (%s): it was built without CONFIG_UPROBE_EVENTS",
			   UPROBE_PMU_DIR);
		return -1;
	}
	if (!resolve_file(ap->parts[1], path, p->opts->pid)) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "cannot find '%s'", ap->parts[1]);
		diag_hint(&p->diag, "give a path, a program in $PATH or a library name (libc)");
		return -1;
	}
	if (elf_usdt_load(path, &sites, err, sizeof(err)) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_FILE, "%s", err);
		return -1;
	}
	for (size_t i = 0; i < sites.n; i++) {
		const struct usdt_site *u = &sites.v[i];
		if (!wildcard_match(want_prov, u->provider) || !wildcard_match(want_name, u->name))
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
	if (!added) {
		if (!sites.n)
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "%s has no USDT probes", path);
		else
			diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, "no USDT probe of %s matches %s%s%s",
				   path, ap->nparts == 4 ? want_prov : "", ap->nparts == 4 ? ":" : "",
				   want_name);
		if (sites.n)
			diag_hint(&p->diag, "`lantern -l 'usdt:%s:*'` lists them", path);
	}
	elf_usdt_free(&sites);
	return added ? 0 : -1;
}

/* usdt:FILE[:PATTERN over PROVIDER:NAME or NAME] */
static int usdt_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	const char *file = q->part[0], *pattern = q->part[1];
	char path[PATH_MAX], err[512], name[PATH_MAX + 512], last[PATH_MAX + 512] = "";
	struct usdt_sites sites;
	int n = 0;

	if (!file)
		return 0;
	if (!resolve_file(file, path, 0) || elf_usdt_load(path, &sites, err, sizeof(err)) < 0) {
		fprintf(stderr, "lantern: cannot list the USDT probes of '%s'\n", file);
		return -1;
	}
	for (size_t i = 0; i < sites.n; i++) {
		snprintf(name, sizeof(name), "%s:%s", sites.v[i].provider, sites.v[i].name);
		if ((pattern && *pattern && !wildcard_match(pattern, name) &&
		     !wildcard_match(pattern, sites.v[i].name)) ||
		    !strcmp(name, last))
			continue; /* a probe with several sites once */
		snprintf(last, sizeof(last), "%s", name);
		fprintf(out, "usdt:%s:%s\n", path, name);
		n++;
	}
	elf_usdt_free(&sites);
	return n;
}


static struct type *usdt_builtin_type(struct check *c, struct expr *e)
{
	const struct uprobe_inst *ui = c->inst->data;
	struct usdt_arg a;
	char err[256];

	if (e->id != BI_ARGN)
		return NULL;
	if (usdt_arg(ui->usdt_args, strtoul(e->u.name + 3, NULL, 10), &a, err, sizeof(err)) < 0) {
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

	if (usdt_arg(ui->usdt_args, strtoul(e->u.name + 3, NULL, 10), &a, err, sizeof(err)) < 0) {
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
	// probe_read_user(tmp, size, reg + disp), then the value at tmp
	struct loc tmp = temp_alloc(g, 8);
	emit(g->ir, ALU64_IMM(BPF_ADD, r, (int32_t)a.val));
	gen_zero(g, tmp.base, tmp.off, 8);
	gen_probe_read(g, tmp.base, tmp.off, a.size, r, true, false);
	return reg_val(e->type, gen_load_int(g, t, tmp.base, tmp.off));
}

const struct provider prov_usdt = {
	.id = PROV_USDT,
	.name = "usdt",
	.alias = "U",
	.flags = PROV_F_REGS | PROV_F_USER_MEM,
	.expand = usdt_expand,
	.builtin_type = usdt_builtin_type,
	.gen_builtin = usdt_gen_builtin,
	.prog_setup = uprobe_prog_setup,
	.list = usdt_list,
	.attach = uprobe_attach,
};
