// SPDX-License-Identifier: MIT
/*
 * The checks of today's bpftrace's builtins about the task and the clock
 * (its docs/stdlib.md): ncpus, usermode, has_cpid, probetype, ppid, pcomm,
 * leader_tid, leader_comm (and their forms on a task), nsecs(clock),
 * pid(ns), tid(ns). Their table rows are in ast/builtin.def, their code in
 * codegen/gen_stdlib.c. bpftrace writes several of these as macros in its
 * standard library; here a task's field chain is rewritten in place
 * (ppid is curtask->real_parent->pid), the rest is code of its own.
 */
#include "sema/check.h"
#include "sys/arch.h"

#include <string.h>

/* A new expression node, in the plan's arena, at sp. */
static struct expr *new_expr(struct check *c, enum expr_kind kind, struct span sp)
{
	struct expr *e = ARENA_NEW(&c->p->arena, struct expr);

	e->kind = kind;
	e->span = sp;
	return e;
}

/* base->name */
static struct expr *arrow(struct check *c, struct expr *base, const char *name, struct span sp)
{
	struct expr *f = new_expr(c, EXPR_FIELD, sp);

	f->u.field.base = base;
	f->u.field.name = name;
	f->u.field.arrow = true;
	f->u.field.name_span = sp;
	return f;
}

/* curtask, as the builtin */
static struct expr *curtask(struct check *c, struct span sp)
{
	struct expr *t = new_expr(c, EXPR_BUILTIN, sp);

	t->u.name = "curtask";
	return t;
}

/*
 * ppid, pcomm, leader_tid, leader_comm, of the current task or of the
 * task given (ppid(task)): task->real_parent->pid, task->group_leader->comm
 * ... written in place of e, then checked as such.
 */
struct type *sema_check_task_alias(struct check *c, struct expr *e)
{
	static const struct {
		int var, fn;
		const char *link, *field;
	} aliases[] = {
		{ BI_PPID, FN_PPID, "real_parent", "pid" },
		{ BI_PCOMM, FN_PCOMM, "real_parent", "comm" },
		{ BI_LEADER_TID, FN_LEADER_TID, "group_leader", "pid" },
		{ BI_LEADER_COMM, FN_LEADER_COMM, "group_leader", "comm" },
	};
	bool call = e->kind == EXPR_CALL;
	struct expr *task = call ? e->u.call.args.v[0] : curtask(c, e->span);
	const char *name = call ? e->u.call.name : e->u.name;

	if (!type_env_lookup(&c->p->types, "struct", "task_struct")) {
		CERR(c, e->span, E_UNKNOWN_TYPE, "%s needs struct task_struct from the kernel's BTF",
		     name);
		CHINT(c, "%s", c->p->types.btf.err[0] ? c->p->types.btf.err
						  : "this kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return &ty_none;
	}
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++) {
		if (call ? e->id != aliases[i].fn : e->id != aliases[i].var)
			continue;
		struct span sp = e->span;
		*e = *arrow(c, arrow(c, task, aliases[i].link, sp), aliases[i].field, sp);
		return sema_check_field(c, e);
	}
	return &ty_none;
}

/* ncpus: the possible CPUs, known when the programs load */
/* usermode: whether the probed task was running user code (x86-64: the CS register's low bits) */
struct type *sema_check_usermode(struct check *c, struct expr *e)
{
	const struct provider *prov = c->inst->prov;
	bool perf = prov->id == PROV_PROFILE || prov->id == PROV_SOFTWARE ||
		    prov->id == PROV_HARDWARE || prov->id == PROV_INTERVAL;

	if (!sys_arch_regs() || sys_arch_regs()->cs < 0) {
		CERR(c, e->span, E_UNSUPPORTED, "'usermode' builtin is only supported on x86_64");
		return &ty_none;
	}
	if (!(prov->flags & (PROV_F_REGS | PROV_F_USER)) && !perf) {
		sema_check_not_here(c, e);
		CHINT(c, "it reads the registers of the probe's context: use it in kprobe, uprobe, "
			 "usdt, profile, software, interval, begin or end probes");
		return &ty_none;
	}
	return &ty_u8;
}

/* probetype: the probe's type, as bpftrace names it (plan_probetype_name) */
struct type *sema_check_probetype(struct check *c, struct expr *e)
{
	return type_str(&c->p->arena, strlen(plan_probetype_name(c->inst->prov)) + 1);
}

/* has_cpid: whether a -c command runs */
struct type *sema_check_has_cpid(struct check *c, struct expr *e)
{
	return &ty_bool;
}

/* The identifier argument of f(ident), one of names (NULL-ended): its index, or -1. */
static int ident_arg(struct check *c, struct expr *e, const char *const *names, const char *what)
{
	struct expr *a = e->u.call.args.v[0];
	struct strbuf sb = { 0 };

	if (a->kind == EXPR_IDENT || a->kind == EXPR_BUILTIN)
		for (int i = 0; names[i]; i++)
			if (!strcmp(a->u.name, names[i])) {
				a->type = &ty_void;
				return i;
			}
	for (int i = 0; names[i]; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", names[i]);
	CERR(c, a->span, E_ARG_TYPE, "%s() takes %s: one of %s", e->u.call.name, what, sb_str(&sb));
	sb_free(&sb);
	return -1;
}

/* nsecs(monotonic|boot|tai|sw_tai): the clock's nanoseconds */
struct type *sema_check_nsecs(struct check *c, struct expr *e)
{
	static const char *const clocks[] = { "monotonic", "boot", "tai", "sw_tai", NULL };
	int k = ident_arg(c, e, clocks, "a clock");

	if (k < 0)
		return &ty_none;
	e->info = (void *)(intptr_t)k;
	return &ty_u64;
}

/* pid(curr_ns|init), tid(...): as lantern's pid namespace sees it, or the initial one */
struct type *sema_check_pid_ns(struct check *c, struct expr *e)
{
	static const char *const ns[] = { "curr_ns", "init", NULL };
	int k = ident_arg(c, e, ns, "a pid namespace");

	if (k < 0)
		return &ty_none;
	e->info = (void *)(intptr_t)k;
	return &ty_u32;
}
