// SPDX-License-Identifier: MIT
/*
 * Which programs a script needs: the instances of a probe share one
 * program per provider, unless the probe's code depends on the instance
 * (args, probe, func, arg0..: then one each), or the provider has a rule of
 * its own (a tracepoint's syscall groups). Each program gets its own copy
 * of the probe's code, which sema types for the program's instance.
 */
#include "compile/compile.h"
#include "plan/provider.h"
#include "sema/sema.h"

static void plan_probe(struct plan *p, struct probe *pr)
{
	bool per = sema_probe_per_instance(pr);
	struct prog *shared[PROV_COUNT_] = { NULL };
	bool first = true;

	vec_foreach(&p->insts, ip)
	{
		struct probe_inst *in = *ip;
		struct prog *pg;
		if (in->probe != pr)
			continue;
		pg = in->prov->group ? in->prov->group(p, in) : NULL;
		if (!pg || !pg->insts.len)
			p->nattach++; /* a group program attaches once, for all its instances */
		if (!pg && !per)
			pg = shared[in->prov->id];
		if (!pg) {
			pg = plan_add_prog(p, pr, in);
			if (!per)
				shared[in->prov->id] = pg;
		}
		if (!pg->body) {
			/* the first program of the probe takes its code, others a copy */
			pg->pred = first ? pr->pred : ast_expr_copy(&p->arena, pr->pred);
			pg->body = first ? pr->body : ast_stmt_copy(&p->arena, pr->body);
			first = false;
		}
		plan_prog_attach_inst(pg, in);
	}
}

void compile_plan_programs(struct plan *p)
{
	for (uint32_t i = 0; i < p->ast->nprobes; i++)
		plan_probe(p, p->ast->probes[i]);
}
