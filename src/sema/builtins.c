// SPDX-License-Identifier: MIT
/*
 * The builtin variables and functions: their tables (the rows of
 * ast/builtin.def: names, arities, check hooks) and the checks that type
 * them; codegen/gen_call.c makes their code.
 */
#include "maps/buckets.h"
#include "sema/check.h"
#include "types/btf.h"
#include "sema/check_stdlib.h"
#include "sym/symbols.h"
#include "sys/arch.h"

#include <stdlib.h>
#include <string.h>

static struct type *sema_check_cpid(struct check *c, struct expr *e)
{
	if (!c->p->opts->child) {
		CERR(c, e->span, E_BUILTIN_CONTEXT, "cpid needs a child command");
		CHINT(c, "start one with -c CMD");
		return &ty_none;
	}
	return &ty_u32;
}

struct type *sema_check_not_here(struct check *c, struct expr *e)
{
	CERR(c, e->span, E_BUILTIN_CONTEXT, "%s is not available in %s probes", e->u.name,
	     c->inst->prov->name);
	return &ty_none;
}

/*
 * args, arg0.., retval, func: what they are depends on the probe type, and
 * its provider types them. Where it has none, say where they work.
 */
static struct type *sema_check_provider_builtin(struct check *c, struct expr *e)
{
	const struct provider *prov = c->inst->prov;
	struct type *t = prov->builtin_type ? prov->builtin_type(c, e) : NULL;

	if (t)
		return t;
	sema_check_not_here(c, e);
	switch (e->id) {
	case BI_ARGS:
		CHINT(c, "args gives the fields of tracepoint probes");
		break;
	case BI_ARGN:
		CHINT(c, "arg0, arg1, ... are a function's arguments in uprobe and kprobe probes, "
			 "a USDT probe's and a raw tracepoint's");
		break;
	case BI_RETVAL:
		CHINT(c, "retval is a function's return value in uretprobe and kretprobe probes");
		break;
	case BI_FUNC:
		CHINT(c, "func names the function in uprobe, uretprobe, kprobe and kretprobe probes");
		break;
	default:
		break;
	}
	return &ty_none;
}

/* curtask: a struct task_struct * where the kernel has BTF, else an integer */
static struct type *sema_check_curtask(struct check *c, struct expr *e)
{
	struct type *t = type_env_lookup(&c->p->types, "struct", "task_struct");

	return t ? type_ptr(&c->p->arena, t, false) : &ty_u64;
}

/* ctx: the probe's context, a kernel pointer (its type is the provider's: scripts cast it) */
static struct type *sema_check_ctx(struct check *c, struct expr *e)
{
	return type_ptr(&c->p->arena, &ty_u8, false);
}

/* kstack, ustack: the whole stack, printed as bpftrace does */
/* the stacks' format unless a call says: config = { stack_mode = perf } */
static bool perf_mode(const struct check *c)
{
	return c->p->settings.v[SET_STACK_MODE] == STACK_MODE_PERF;
}

static struct type *sema_check_stack_builtin(struct check *c, struct expr *e)
{
	struct type *t = type_stack(&c->p->arena, e->id == BI_USTACK, perf_mode(c), STACK_MAX_FRAMES);
	t->raw = c->p->settings.v[SET_STACK_MODE] == STACK_MODE_RAW;
	t->srclines = t->user && c->p->settings.v[SET_SHOW_DEBUG_INFO];
	return t;
}

const struct builtin_def *sema_builtin_lookup(const char *name)
{
	if (!strncmp(name, "__builtin_", 10) && name[10])
		name += 10; /* today's bpftrace's other spelling: __builtin_pid */
	for (int i = 0; i < BI_COUNT_; i++) {
		const char *n = sema_builtin_defs[i].name;
		size_t len = strlen(n);
		if (i == BI_ARGN || i == BI_SARGN) {
			/* arg0, arg1, ... */
			if (!strncmp(name, n, len) && name[len] && strspn(name + len, "0123456789") == strlen(name + len))
				return &sema_builtin_defs[i];
			continue;
		}
		if (!strcmp(name, n))
			return &sema_builtin_defs[i];
	}
	return NULL;
}

/* str(ptr [, len]) */
static struct type *sema_check_str(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	int64_t len = c->p->strlen;

	if (e->u.call.args.n == 2) {
		struct expr *l = e->u.call.args.v[1];
		if (l->kind == EXPR_INT) {
			sema_check_expr(c, l);
			/* 0.17: n characters and the NUL; today's bpftrace: n bytes, its NUL among them */
			len = (int64_t)l->u.ival + !c->p->modern;
			if (l->u.ival > STRLEN_MAX) {
				CERR(c, l->span, E_TOO_BIG, "str()'s length is at most %d", STRLEN_MAX);
				return &ty_none;
			}
			/* at most BPFTRACE_STRLEN, as in bpftrace */
			if (len > c->p->strlen)
				len = c->p->strlen;
		} else {
			sema_check_int(c, l, "str()'s length");
		}
	}
	int64_t skip;
	if (a->kind == EXPR_BINARY && a->u.binary.op == OP_ADD &&
	    a->u.binary.lhs->kind == EXPR_POSITIONAL && a->u.binary.rhs->kind == EXPR_INT &&
	    !plan_param_int(c->p, a->u.binary.lhs->u.num, &skip)) {
		/* str($1 + N) of a text parameter: its text from the Nth character (bpftrace) */
		const char *text = plan_param(c->p, a->u.binary.lhs->u.num);
		size_t n = text ? strlen(text) : 0, k = a->u.binary.rhs->u.ival;
		a->kind = EXPR_STR;
		a->u.str = text && k < n ? text + k : "";
		a->u.len = strlen(a->u.str);
	}
	if (a->kind == EXPR_POSITIONAL) {
		/* str($1): the parameter's text */
		a->type = &ty_none;
		uint32_t n = a->u.num;
		const char *text = plan_param(c->p, n) ? plan_param(c->p, n) : "";
		return type_str(&c->p->arena, strlen(text) + 1);
	}
	struct type *t = sema_check_expr(c, a);
	if (t->kind == TY_STR)
		return t;
	if (t->kind != TY_NONE && t->kind != TY_INT && t->kind != TY_PTR) {
		CERR(c, a->span, E_ARG_TYPE, "str() expects a pointer or an integer address, got %s",
		     type_str_of(t));
		return &ty_none;
	}
	if (c->p->modern && e->u.call.args.n == 1) {
		/* today's bpftrace: max_strlen characters, and a trailer when there were more */
		t = type_str(&c->p->arena, (uint32_t)len + 1);
		t->count = (uint32_t)len;
		return t;
	}
	return type_str(&c->p->arena, len);
}

static struct type *sema_check_exit(struct check *c, struct expr *e)
{
	if (e->u.call.args.n)
		sema_check_int(c, e->u.call.args.v[0], "exit()");
	return &ty_void;
}

/* unwatch(addr): the address a watchpoint:FUNCTION+argN probe watches */
static struct type *sema_check_unwatch(struct check *c, struct expr *e)
{
	sema_check_int(c, e->u.call.args.v[0], "unwatch()");
	return &ty_void;
}

static struct type *sema_check_agg(struct check *c, struct expr *e)
{
	const struct func_def *fd = &sema_func_defs[e->id];
	bool is_signed = true;

	if (fd->id == FN_COUNT)
		return &ty_count;
	struct expr *a = e->u.call.args.v[0];
	if (!sema_check_int(c, a, fd->name))
		return &ty_none;
	is_signed = a->type->is_signed;
	if (fd->id == FN_HIST && e->u.call.args.n == 2) {
		/* hist(v, k) (today's bpftrace): 2^k buckets per power of 2 */
		int64_t k;
		if (!sema_check_const_int(c, e->u.call.args.v[1], &k, "hist()'s second argument"))
			return &ty_none;
		if (k < 0 || k > HIST_MAX_BITS) {
			CERR(c, e->u.call.args.v[1]->span, E_ARG_TYPE,
			     "hist()'s second argument is 0 to %d, not %lld", HIST_MAX_BITS, (long long)k);
			return &ty_none;
		}
		struct type *t = type_agg(&c->p->arena, TY_HIST, is_signed);
		t->count = (uint32_t)k;
		return t;
	}
	if (fd->id == FN_TSERIES) {
		/* tseries(v, interval, n [, "avg" | "max" | "min" | "sum"]) (today's bpftrace) */
		static const char *const aggs[] = { [TS_AVG] = "avg", [TS_MAX] = "max", [TS_MIN] = "min",
						    [TS_SUM] = "sum" };
		struct expr **a2 = e->u.call.args.v;
		int64_t interval, n, agg = TS_LAST;
		if (!sema_check_const_int(c, a2[1], &interval, "tseries()'s interval") ||
		    !sema_check_const_int(c, a2[2], &n, "tseries()'s number of intervals"))
			return &ty_none;
		if (interval <= 0) {
			CERR(c, a2[1]->span, E_ARG_TYPE, "tseries()'s interval must be positive: %lld", (long long)interval);
			return &ty_none;
		}
		if (n <= 0 || n > TSERIES_MAX_INTERVALS) {
			CERR(c, a2[2]->span, E_ARG_TYPE, "tseries()'s number of intervals is 1 to %d, not %lld",
			     TSERIES_MAX_INTERVALS, (long long)n);
			return &ty_none;
		}
		if (e->u.call.args.n == 4) {
			struct expr *f = a2[3];
			agg = -1;
			for (int k = TS_AVG; f->kind == EXPR_STR && k <= TS_SUM; k++)
				if (!strcmp(f->u.str, aggs[k]))
					agg = k;
			if (agg < 0) {
				CERR(c, f->span, E_ARG_TYPE, "tseries()'s aggregation is \"avg\", \"max\", \"min\" or \"sum\"");
				return &ty_none;
			}
			f->type = &ty_none;
		}
		struct type *t = type_agg(&c->p->arena, TY_TSERIES, is_signed);
		t->lstep = interval;
		t->count = (uint32_t)n;
		t->lmin = agg;
		return t;
	}
	if (fd->id != FN_LHIST)
		return type_agg(&c->p->arena, fd->agg, is_signed);

	int64_t v[3];
	const char *names[3] = { "lhist()'s min", "lhist()'s max", "lhist()'s step" };
	for (int i = 0; i < 3; i++)
		if (!sema_check_const_int(c, e->u.call.args.v[i + 1], &v[i], names[i]))
			return &ty_none;
	struct strbuf err = { 0 };
	if (!maps_lhist_check(v[0], v[1], v[2], &err)) {
		CERR(c, e->span, E_ARG_TYPE, "%s", sb_str(&err));
		sb_free(&err);
		return &ty_none;
	}
	struct type *t = type_agg(&c->p->arena, TY_LHIST, is_signed);
	t->lmin = v[0];
	t->lmax = v[1];
	t->lstep = v[2];
	return t;
}

/* delete(@m[k]), clear(@m), zero(@m), print(@m [, top [, div]]) */
static struct type *sema_check_map_arg(struct check *c, struct expr *e)
{
	const struct func_def *fd = &sema_func_defs[e->id];
	struct expr *a = e->u.call.args.v[0];

	if (fd->id == FN_DELETE && e->u.call.args.n == 2) {
		/* delete(@m, key) (today's bpftrace) is delete(@m[key]); a tuple is the key's parts */
		struct expr *k = e->u.call.args.v[1];
		if (a->kind != EXPR_MAP || a->u.map.keys.n) {
			CERR(c, a->span, E_ARG_TYPE, "delete(@map, key) expects a map without a key");
			return &ty_void;
		}
		if (k->kind == EXPR_TUPLE) {
			a->u.map.keys = k->u.list;
		} else {
			a->u.map.keys.v = ARENA_ARRAY(&c->p->arena, struct expr *, 1);
			a->u.map.keys.v[0] = k;
			a->u.map.keys.n = 1;
		}
		e->u.call.args.n = 1;
	}
	if ((a->kind != EXPR_MAP || a->u.map.keys.n) && fd->id == FN_PRINT) {
		/* print(value): integers, strings, tuples, structs, arrays, @m[k], ... */
		struct type *t = sema_args_value(c, a, sema_check_expr(c, a));
		if (e->u.call.args.n > 1)
			CERR(c, e->span, E_ARG_COUNT, "print() of a value takes no top or div");
		else if (t->kind == TY_VOID || t->kind == TY_CTX || type_is_agg(t))
			CERR(c, a->span, E_ARG_TYPE, "%s cannot be printed", type_str_of(t));
		return &ty_void;
	}
	if (a->kind != EXPR_MAP) {
		CERR(c, a->span, E_ARG_TYPE, "%s() expects a map", fd->name);
		sema_check_expr(c, a);
		return &ty_void;
	}
	struct map_info *m = sema_map_get(c, a->u.map.name, a->span);
	a->info = m;
	if (fd->id == FN_DELETE) {
		if (!a->u.map.keys.n && m->nkeys > 0)
			CERR(c, a->span, E_ARG_COUNT, "delete() needs a key of @%s", m->name);
		else
			sema_map_learn_keys(c, m, a);
	} else if (a->u.map.keys.n) {
		CERR(c, a->span, E_ARG_TYPE, "%s() expects a whole map, without a key", fd->name);
		CHINT(c, "use %s(@%s)", fd->name, m->name);
	}
	/* print(@m, top, div): constants, kept on the call for codegen */
	int64_t *td = ARENA_ARRAY(&c->p->arena, int64_t, 2);
	for (uint32_t i = 1; i < e->u.call.args.n; i++)
		if (!sema_check_const_int(c, e->u.call.args.v[i], &td[i - 1], "print()'s top and div"))
			td[i - 1] = 0;
	e->info = td;
	if (c->final && !m->value)
		diag_error(&c->p->diag, a->span, E_MAP_UNUSED, "@%s is never assigned a value", m->name);
	a->type = m->value ? m->value : &ty_none;
	/* today's bpftrace: whether the key was there */
	return fd->id == FN_DELETE ? &ty_bool : &ty_void;
}

static struct type *sema_check_time(struct check *c, struct expr *e)
{
	if (e->u.call.args.n && e->u.call.args.v[0]->kind != EXPR_STR)
		CERR(c, e->u.call.args.v[0]->span, E_ARG_TYPE, "time() expects a format string literal");
	return &ty_void;
}

/* kstack([perf|bpftrace] [, frames]), ustack(...), dw_ustack(...) */
static struct type *sema_check_stack_call(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	uint32_t n = e->u.call.args.n, i = 0;
	bool perf = perf_mode(c), raw = c->p->settings.v[SET_STACK_MODE] == STACK_MODE_RAW;
	int64_t frames = STACK_MAX_FRAMES;

	if (n > i && a[i]->kind == EXPR_IDENT) {
		if (strcmp(a[i]->u.name, "perf") && strcmp(a[i]->u.name, "bpftrace") &&
		    (strcmp(a[i]->u.name, "raw") || !c->p->modern)) {
			CERR(c, a[i]->span, E_ARG_TYPE, "a stack's mode is %s, not '%s'",
			     c->p->modern ? "perf, bpftrace or raw" : "perf or bpftrace", a[i]->u.name);
			return &ty_none;
		}
		perf = !strcmp(a[i]->u.name, "perf");
		raw = !strcmp(a[i]->u.name, "raw");
		a[i]->type = &ty_void;
		i++;
	}
	if (n > i) {
		if (!sema_check_const_int(c, a[i], &frames, "the number of frames"))
			return &ty_none;
		if (frames < 1 || frames > STACK_MAX_FRAMES) {
			CERR(c, a[i]->span, E_TOO_BIG, "a stack keeps 1 to %d frames", STACK_MAX_FRAMES);
			return &ty_none;
		}
		i++;
	}
	if (n > i) {
		CERR(c, a[i]->span, E_ARG_COUNT, "%s() takes a mode and a number of frames",
		     e->u.call.name);
		return &ty_none;
	}
	struct type *t = type_stack(&c->p->arena, e->id == FN_USTACK || e->id == FN_DW_USTACK, perf,
				    (uint32_t)frames);
	t->raw = raw;
	t->srclines = t->user && c->p->settings.v[SET_SHOW_DEBUG_INFO];
	return t;
}

/* ksym(addr), usym(addr): printed as the function holding addr */
static struct type *sema_check_sym(struct check *c, struct expr *e)
{
	struct type *t = sema_check_expr(c, e->u.call.args.v[0]);

	if (t->kind != TY_NONE && t->kind != TY_INT && t->kind != TY_PTR) {
		CERR(c, e->u.call.args.v[0]->span, E_ARG_TYPE, "%s() expects an address, got %s",
		     e->u.call.name, type_str_of(t));
		return &ty_none;
	}
	return type_sym(&c->p->arena, e->id == FN_USYM);
}

/* strftime("format", nsecs): a time, printed in user space */
static struct type *sema_check_strftime(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;

	if (a[0]->kind != EXPR_STR) {
		CERR(c, a[0]->span, E_ARG_TYPE, "strftime() expects a format string literal");
		return &ty_none;
	}
	if (!sema_check_int(c, a[1], "strftime()'s time"))
		return &ty_none;
	return type_timestamp(&c->p->arena, a[0]->u.str);
}

/* system(fmt, ...): printf's rules, and only with --unsafe */
static struct type *sema_check_system(struct check *c, struct expr *e)
{
	if (!c->p->opts->unsafe) {
		CERR(c, e->span, E_UNSUPPORTED, "system() runs commands: it needs --unsafe");
		CHINT(c, "run lantern with --unsafe to allow it");
		return &ty_void;
	}
	return sema_check_printf(c, e);
}

/* reg("ip"): a register of the probed task, in probes whose context is its registers */
static struct type *sema_check_reg(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];

	if (!(c->inst->prov->flags & PROV_F_REGS)) {
		CERR(c, e->span, E_BUILTIN_CONTEXT, "reg() is not available in %s probes",
		     c->inst->prov->name);
		CHINT(c, "registers are the context of uprobe, uretprobe, usdt, kprobe and kretprobe probes");
		return &ty_none;
	}
	if (a->kind != EXPR_STR) {
		CERR(c, a->span, E_ARG_TYPE, "reg() expects a register name, such as \"ip\"");
		return &ty_none;
	}
	if (sys_arch_reg_offset(a->u.str) < 0) {
		CERR(c, a->span, E_ARG_TYPE, "'%s' is not a register lantern knows", a->u.str);
		return &ty_none;
	}
	return &ty_u64;
}

/*
 * kaddr("symbol"): a kernel symbol's address, from /proc/kallsyms when
 * compiling. kaddr(str($1)) names it with a parameter: its text, now.
 */
static struct type *sema_check_kaddr(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];

	if (a->kind == EXPR_CALL && !strcmp(a->u.call.name, "str") && a->u.call.args.n == 1 &&
	    a->u.call.args.v[0]->kind == EXPR_POSITIONAL) {
		uint32_t n = a->u.call.args.v[0]->u.num;
		const char *text = plan_param(c->p, n) ? plan_param(c->p, n) : "";
		a->kind = EXPR_STR;
		a->u.str = text;
		a->u.len = (uint32_t)strlen(text);
	}
	if (a->kind != EXPR_STR) {
		CERR(c, a->span, E_ARG_TYPE, "kaddr() expects a symbol name");
		return &ty_none;
	}
	if (!sym_ksym_address(a->u.str)) {
		CERR(c, a->span, E_UNKNOWN_SYMBOL, "Failed to resolve kernel symbol '%s': it is not in /proc/kallsyms", a->u.str);
		CHINT(c, "data symbols are listed only by kernels built with CONFIG_KALLSYMS_ALL");
		return &ty_none;
	}
	return &ty_u64;
}

/*
 * percpu_kaddr(name [, cpu]) (today's bpftrace): the address of a kernel
 * per-CPU variable on this CPU, or on CPU cpu (NULL past the last CPU), as
 * a uint64 * of kernel memory. The variable is named to the kernel by its
 * BTF id, which resolves it at load (kallsyms lists no data without
 * CONFIG_KALLSYMS_ALL).
 */
static struct type *sema_check_percpu_kaddr(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	uint32_t id;

	if (a->kind != EXPR_STR) {
		CERR(c, a->span, E_ARG_TYPE, "percpu_kaddr() expects the name of a per-CPU variable, as a string literal");
		return &ty_none;
	}
	if (e->u.call.args.n > 1 && !sema_check_int(c, e->u.call.args.v[1], "percpu_kaddr()'s cpu"))
		return &ty_none;
	if (!types_btf_src_percpu_var(&c->p->types.btf, a->u.str, &id)) {
		CERR(c, a->span, E_UNKNOWN_SYMBOL, "Could not resolve variable \"%s\" from BTF", a->u.str);
		CHINT(c, "%s", c->p->types.btf.err[0] ? c->p->types.btf.err
						       : "percpu_kaddr() takes a per-CPU variable of the kernel "
							 "(process_counts, runqueues): BTF lists them");
		return &ty_none;
	}
	if (!sym_ksym_address(a->u.str)) {
		/* the kernel resolves the BTF id to an address through kallsyms */
		CERR(c, a->span, E_UNKNOWN_SYMBOL,
		     "percpu_kaddr(\"%s\"): the kernel cannot give the variable's address: /proc/kallsyms does not list it",
		     a->u.str);
		CHINT(c, "the kernel finds a variable through kallsyms, which lists data only when built with "
			 "CONFIG_KALLSYMS_ALL");
		return &ty_none;
	}
	e->info = (void *)(uintptr_t)id;
	return type_ptr(&c->p->arena, &ty_u64, false);
}

/*
 * uaddr("symbol"): the address of a symbol of the probed file, as a
 * pointer to an integer of its size; the uprobe provider resolves it
 * (builtin_type and gen_builtin of the call)
 */
static struct type *sema_check_uaddr(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	enum provider_id id = c->inst->prov->id;

	if (a->kind != EXPR_STR) {
		CERR(c, a->span, E_ARG_TYPE, "uaddr() expects a symbol name, as a string literal");
		return &ty_none;
	}
	if (id != PROV_UPROBE && id != PROV_URETPROBE) {
		CERR(c, e->span, E_BUILTIN_CONTEXT, "uaddr() is not available in %s probes", c->inst->prov->name);
		CHINT(c, "it names a symbol of the file a uprobe or uretprobe probes");
		return &ty_none;
	}
	a->type = &ty_none;
	return c->inst->prov->builtin_type(c, e);
}

/* uptr(p), kptr(p): p points into user (kernel) memory, whatever it was typed as */
static struct type *sema_check_addr_space(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct type *t = sema_check_expr(c, a);

	if (t->kind == TY_INT)
		return type_ptr(&c->p->arena, &ty_u8, e->id == FN_UPTR);
	if (t->kind != TY_PTR) {
		if (t->kind != TY_NONE)
			CERR(c, a->span, E_ARG_TYPE, "%s() expects a pointer or an address, got %s",
			     e->u.call.name, type_str_of(t));
		return &ty_none;
	}
	return sema_type_in_space(c, t, e->id == FN_UPTR);
}

/* join(char **argv [, "delimiter"]) */
static struct type *sema_check_join(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	struct type *t = sema_check_expr(c, a[0]);

	if (t->kind != TY_NONE && t->kind != TY_PTR && t->kind != TY_INT)
		CERR(c, a[0]->span, E_ARG_TYPE,
		     "join() expects an array of string pointers (such as args->argv), got %s",
		     type_str_of(t));
	if (e->u.call.args.n == 2 && a[1]->kind != EXPR_STR)
		CERR(c, a[1]->span, E_ARG_TYPE, "join()'s delimiter is a string literal");
	return &ty_void;
}


const struct func_def *sema_func_lookup(const char *name)
{
	for (int i = 0; i < FN_COUNT_; i++)
		if (!strcmp(name, sema_func_defs[i].name))
			return &sema_func_defs[i];
	return NULL;
}

/* The builtins' rows (ast/builtin.def): names, arities and the checks here */
const struct builtin_def sema_builtin_defs[BI_COUNT_] = {
#define VAR(id, name, type, check) [id] = { name, id, type, check },
#define FUNC(id, name, min_args, max_args, kind, agg, check, gen)
#include "ast/builtin.def"
#undef VAR
#undef FUNC
};

const struct func_def sema_func_defs[FN_COUNT_] = {
#define VAR(id, name, type, check)
#define FUNC(id, name, min_args, max_args, kind, agg, check, gen) \
	[id] = { name, id, min_args, max_args, kind, agg, check },
#include "ast/builtin.def"
#undef VAR
#undef FUNC
};
