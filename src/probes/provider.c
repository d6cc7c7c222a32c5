// SPDX-License-Identifier: MIT
/* The provider table, and what several providers share. */
#include "probes/probes.h"
#include "sys/arch.h"
#include "sys/perf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct provider *const prov_table[PROV_COUNT_] = {
	[PROV_BEGIN] = &prov_begin,
	[PROV_END] = &prov_end,
	[PROV_TRACEPOINT] = &prov_tracepoint,
	[PROV_INTERVAL] = &prov_interval,
	[PROV_RAWTRACEPOINT] = &prov_rawtracepoint,
	[PROV_KPROBE] = &prov_kprobe,
	[PROV_KRETPROBE] = &prov_kretprobe,
	[PROV_UPROBE] = &prov_uprobe,
	[PROV_URETPROBE] = &prov_uretprobe,
	[PROV_USDT] = &prov_usdt,
	[PROV_PROFILE] = &prov_profile,
	[PROV_SOFTWARE] = &prov_software,
	[PROV_HARDWARE] = &prov_hardware,
	[PROV_KFUNC] = &prov_kfunc,
	[PROV_KRETFUNC] = &prov_kretfunc,
	[PROV_WATCHPOINT] = &prov_watchpoint,
	[PROV_ASYNCWATCHPOINT] = &prov_asyncwatchpoint,
	[PROV_TEST] = &prov_test,
	[PROV_BENCH] = &prov_bench,
	[PROV_SELF] = &prov_self,
};

int prov_attach_perf_event_on(struct attach_ctx *ac, int prog_fd, const struct probe_inst *in,
			 struct perf_event_attr *attr, pid_t pid, int cpu, const char *what, char *err,
			 size_t errlen)
{
	int pfd = sys_perf_event_open_fd(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC), link;

	if (pfd < 0) {
		if (pid > 0)
			snprintf(err, errlen, "cannot open %s %s for process %d: %s", what, in->name,
				 (int)pid, strerror(errno));
		else
			snprintf(err, errlen, "cannot open %s %s on CPU %d: %s", what, in->name, cpu,
				 strerror(errno));
		return -1;
	}
	if (sys_perf_attach_prog(pfd, prog_fd, &link) < 0) {
		snprintf(err, errlen, "cannot attach the program to %s: %s", in->name,
			 strerror(errno));
		close(pfd);
		return -1;
	}
	attach_add(ac, link, pfd);
	return 0;
}

int prov_attach_perf_event_cpus(struct attach_ctx *ac, int prog_fd, const struct probe_inst *in,
			   struct perf_event_attr *attr, const char *what, char *err,
			   size_t errlen)
{
	int cpus[1024], n = sys_online_cpus(cpus, ARRAY_SIZE(cpus)), done = 0;

	for (int i = 0; i < n; i++) {
		if (prov_attach_perf_event_on(ac, prog_fd, in, attr, -1, cpus[i], what, err, errlen) == 0)
			done++;
		else if (errno != ENODEV) /* ENODEV: it went offline since */
			return -1;
	}
	if (!done) {
		snprintf(err, errlen, "cannot open %s %s: no CPU is online", what, in->name);
		return -1;
	}
	return 0;
}

/* arg0 .. arg5: a function's arguments, from the registers; retval; func */
struct type *prov_regs_builtin_type(struct check *c, struct expr *e, bool has_retval,
			       const char *func)
{
	switch (e->id) {
	case BI_FUNC:
		return type_str(&c->p->arena, strlen(func) + 1);
	case BI_RETVAL:
		return has_retval ? &ty_u64 : NULL;
	case BI_ARGN:
		break;
	default:
		return NULL;
	}
	if (!sys_arch_regs() || strtoul(e->u.name + 3, NULL, 10) >= ARCH_MAX_ARGS) {
		CERR(c, e->span, E_UNSUPPORTED, "%s is not supported: lantern reads arg0 to arg%d",
		     e->u.name, ARCH_MAX_ARGS - 1);
		CHINT(c, "later arguments are passed on the stack");
		return &ty_none;
	}
	return &ty_u64;
}

struct val prov_regs_gen_builtin(struct gen *g, struct expr *e, const char *func)
{
	const struct arch_regs *a = sys_arch_regs();
	struct type *t = e->type;
	int32_t r;

	if (e->id == BI_FUNC) {
		uint32_t off = gen_scratch_alloc(g, t->size);
		struct expr lit = { .kind = EXPR_STR, .type = t };
		lit.u.str = func;
		lit.u.len = strlen(func);
		gen_expr_into(g, &lit, t, g->scratch, off);
		return mem_val(t, g->scratch, off);
	}
	// *(u64 *)(ctx + the register's offset in struct pt_regs)
	r = ir_vreg(g->ir);
	emit(g->ir, LDX_MEM(BPF_DW, r, g->ctx,
			    e->id == BI_RETVAL ? a->ret : a->arg[strtoul(e->u.name + 3, NULL, 10)]));
	return reg_val(t, r);
}

struct type *prov_func_args_type(struct plan *p, const char *name, const struct btf_func *f,
			    uint32_t skip)
{
	struct type *t = ARENA_NEW(&p->arena, struct type);

	t->kind = TY_CTX;
	t->size = t->align = 8;
	t->name = name;
	t->fields = ARENA_ARRAY(&p->arena, struct field, f->nparams + 1);
	for (uint32_t i = skip; i < f->nparams; i++) {
		const struct func_param *prm = &f->params[i];
		struct field *out = &t->fields[t->nfields];
		if (prm->type->size > 8 || prm->type->kind == TY_VOID || !*prm->name)
			continue;
		memset(out, 0, sizeof(*out));
		out->name = prm->name;
		out->type = prm->type;
		out->offset = 8 * (i - skip);
		t->nfields++;
	}
	return t;
}
