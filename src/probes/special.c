// SPDX-License-Identifier: MIT
/*
 * Probes that user space runs, with BPF_PROG_TEST_RUN on a raw
 * tracepoint program, in lantern's own context (pid, comm are lantern's),
 * as in bpftrace: BEGIN and END, once at start and at the end (today's
 * bpftrace takes several of each, run in the order written);
 * self:signal:SIGUSR1, each time lantern receives SIGUSR1; test:NAME, run
 * one by one by --test, which reports each (its return value: 0 passed);
 * bench:NAME, timed by --bench. Without --test (--bench), test (bench)
 * probes are not run.
 */
#include "probes/probes.h"

#include <string.h>

static int expand_special(struct plan *p, const struct provider *prov, struct probe *pr,
			  struct attach_point *ap)
{
	if (ap->nparts != 1) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "%s takes no arguments", prov->name);
		return -1;
	}
	for (size_t i = 0; i < p->insts.len; i++)
		if (p->insts.data[i]->prov == prov) {
			if (p->opts->dialect == DIALECT_0_17) {
				diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "%s is used twice",
					   prov->name);
				diag_hint(&p->diag, "put all of its statements in one %s probe "
						    "(today's bpftrace takes several)",
					  prov->name);
				return -1;
			}
			ast_note_modern(p->ast, ap->span, "several begin or end probes");
			break;
		}
	plan_add_inst(p, pr, ap, prov, prov->name);
	return 0;
}

static void special_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
}

const struct provider prov_begin = {
	.id = PROV_BEGIN,
	.name = "BEGIN",
	.flags = PROV_F_USER | PROV_F_ANY_MEM,
	.expand = expand_special,
	.prog_setup = special_prog_setup,
};

const struct provider prov_end = {
	.id = PROV_END,
	.name = "END",
	.flags = PROV_F_USER | PROV_F_ANY_MEM,
	.expand = expand_special,
	.prog_setup = special_prog_setup,
};

/* test:NAME, bench:NAME */
static int expand_named(struct plan *p, const struct provider *prov, struct probe *pr,
			struct attach_point *ap)
{
	if (ap->nparts != 2 || !*ap->parts[1]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "%s probes are written %s:NAME",
			   prov->name, prov->name);
		return -1;
	}
	for (size_t i = 0; i < p->insts.len; i++)
		if (p->insts.data[i]->prov == prov && !strcmp(p->insts.data[i]->data, ap->parts[1])) {
			diag_error(&p->diag, ap->span, E_REDECLARED, "%s:%s is defined twice",
				   prov->name, ap->parts[1]);
			return -1;
		}
	struct probe_inst *in = plan_add_inst(
		p, pr, ap, prov, arena_printf(&p->arena, "%s:%s", prov->name, ap->parts[1]));
	in->data = (void *)ap->parts[1];
	return 0;
}

/* self:signal:SIGUSR1: the one event of lantern's own that bpftrace has */
static int expand_self(struct plan *p, const struct provider *prov, struct probe *pr,
		       struct attach_point *ap)
{
	if (ap->nparts != 3 || strcmp(ap->parts[1], "signal") || strcmp(ap->parts[2], "SIGUSR1")) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "self probes are written self:signal:SIGUSR1");
		diag_hint(&p->diag, "SIGUSR1 is the one signal they take (kill -USR1 <lantern's pid>)");
		return -1;
	}
	ast_note_modern(p->ast, ap->span, "a self probe");
	plan_add_inst(p, pr, ap, prov, "self:signal:SIGUSR1");
	return 0;
}

const struct provider prov_test = {
	.id = PROV_TEST,
	.name = "test",
	.flags = PROV_F_USER | PROV_F_ANY_MEM,
	.expand = expand_named,
	.prog_setup = special_prog_setup,
};

const struct provider prov_bench = {
	.id = PROV_BENCH,
	.name = "bench",
	.flags = PROV_F_USER | PROV_F_ANY_MEM,
	.expand = expand_named,
	.prog_setup = special_prog_setup,
};

const struct provider prov_self = {
	.id = PROV_SELF,
	.name = "self",
	.flags = PROV_F_USER | PROV_F_ANY_MEM,
	.expand = expand_self,
	.prog_setup = special_prog_setup,
};
