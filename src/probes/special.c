// SPDX-License-Identifier: MIT
/*
 * BEGIN and END: programs that user space runs once, at start and at the
 * end, with BPF_PROG_TEST_RUN on a raw tracepoint program. They run in
 * lantern's own context (pid, comm are lantern's), as in bpftrace. Today's
 * bpftrace takes several of each, run in the order written.
 */
#include "probes/probes.h"

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
	.flags = PROV_F_USER,
	.expand = expand_special,
	.prog_setup = special_prog_setup,
};

const struct provider prov_end = {
	.id = PROV_END,
	.name = "END",
	.flags = PROV_F_USER,
	.expand = expand_special,
	.prog_setup = special_prog_setup,
};
