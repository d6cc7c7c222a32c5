// SPDX-License-Identifier: MIT
/*
 * rawtracepoint:EVENT (or rawtracepoint:MODULE:EVENT, today's bpftrace's
 * spelling): a kernel tracepoint as a raw tracepoint, whose arguments are
 * the tracepoint's own (arg0, arg1, ...: a task pointer, not the format
 * file's fields). Both parts may hold wildcards. The events are BTF's
 * __traceiter_ functions, of vmlinux (module "vmlinux") or of a module;
 * without BTF, or for a MODULE that BTF does not know, tracefs's events
 * with MODULE taken as their category (rawtracepoint:sched:sched_switch).
 * The kernel knows raw tracepoints by event name alone.
 */
#include "base/util.h"
#include "probes/probes.h"
#include "sys/arch.h"
#include "sys/tracefs.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A raw tracepoint's function in BTF: __traceiter_EVENT (Linux 5.10 and later) */
#define RT_BTF_PREFIX "__traceiter_"

struct rt_expand {
	struct plan *p;
	struct probe *pr;
	struct attach_point *ap;
	const char *mod, *ev; /* patterns; mod NULL: any */
	int added;
};

static void add_inst(struct rt_expand *x, const char *mod, const char *ev)
{
	char name[512];

	/* today's bpftrace names the module: rawtracepoint:vmlinux:sched_switch */
	if (x->p->modern && mod)
		snprintf(name, sizeof(name), "rawtracepoint:%s:%s", mod, ev);
	else
		snprintf(name, sizeof(name), "rawtracepoint:%s", ev);
	/* the same event found twice (two categories of tracefs) is one raw tracepoint */
	vec_foreach(&x->p->insts, ip)
	{
		if ((*ip)->probe == x->pr && !strcmp((*ip)->name, name))
			return;
	}
	struct probe_inst *in = plan_add_inst(x->p, x->pr, x->ap, &prov_rawtracepoint, name);
	in->data = arena_strdup(&x->p->arena, ev); /* the event's name */
	x->added++;
}

static int add_event(const char *cat, const char *ev, void *arg)
{
	(void)cat;
	add_inst(arg, NULL, ev);
	return 0;
}

static int add_btf(const char *obj, const char *fn, uint32_t id, void *arg)
{
	struct rt_expand *x = arg;
	const char *ev = fn + strlen(RT_BTF_PREFIX);

	(void)id;
	if (strncmp(fn, RT_BTF_PREFIX, strlen(RT_BTF_PREFIX)) ||
	    (x->mod && !util_wildcard_match(x->mod, obj)) || !util_wildcard_match(x->ev, ev))
		return 0;
	add_inst(x, obj, ev);
	return 0;
}

/*
 * The raw tracepoints matching MODULE:EVENT from BTF (vmlinux's, then the
 * modules' when vmlinux has none or a module is named), as today's
 * bpftrace finds them; false without BTF.
 */
static bool expand_btf(struct rt_expand *x)
{
	struct btf_src *b = &x->p->types.btf;
	bool vmlinux_only = x->mod && !strcmp(x->mod, "vmlinux");

	if (types_btf_src_each_func(b, false, add_btf, x) < 0)
		return false;
	if (!x->added && !vmlinux_only)
		types_btf_src_each_func(b, true, add_btf, x); /* vmlinux's again: none matched */
	return true;
}

static int rt_expand(struct plan *p, const struct provider *prov, struct probe *pr,
		     struct attach_point *ap)
{
	struct rt_expand x = { p, pr, ap, NULL, ap->parts[ap->nparts - 1], 0 };
	char err[256];

	(void)prov;
	if (ap->nparts == 3)
		x.mod = ap->parts[1];
	if ((ap->nparts != 2 && ap->nparts != 3) || !*x.ev || (x.mod && !*x.mod)) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "a raw tracepoint is written rawtracepoint:[MODULE:]EVENT, e.g. "
			   "rawtracepoint:sched_switch or rawtracepoint:vmlinux:sched_switch");
		return -1;
	}
	/* without BTF, or a module BTF does not know: tracefs's events, the
	   module taken as their category (rawtracepoint:sched:sched_switch) */
	bool btf = expand_btf(&x);
	if (!btf || (!x.added && x.mod)) {
		bool ok = sys_tracefs_path(err, sizeof(err));
		if (!ok && !btf) {
			diag_error(&p->diag, ap->span, E_MECHANISM_MISSING, "%s", err);
			return -1;
		}
		if (ok && sys_tracefs_events_match(x.mod ? x.mod : "*", x.ev, add_event, &x, err,
						   sizeof(err)) < 0 && !btf) {
			diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
			return -1;
		}
	}
	if (x.added)
		return 0;
	if (p->modern && x.mod) /* today's bpftrace's words */
		diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT,
			   "No matches for rawtracepoint %s:%s.", x.mod, x.ev);
	else if (p->modern)
		diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT,
			   "Probe has no valid attach points: no raw tracepoint is called %s", x.ev);
	else
		diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT, "no tracepoint is called %s",
			   x.ev);
	diag_hint(&p->diag, "`lantern -l 'rawtracepoint:*'` lists them");
	return -1;
}

/*
 * args: the tracepoint's arguments by name and type, from the prototype
 * BTF gives the function that runs its BPF programs (__bpf_trace_<event>),
 * its first argument (the tracepoint's private data) left out, as newer
 * bpftrace versions do.
 */
static struct type *rt_args_type(struct check *c, struct probe_inst *in)
{
	const char *event = in->data;
	struct btf_func f;

	if (in->args)
		return in->args;
	if (!types_btf_src_func(&c->p->types.btf, arena_printf(&c->p->arena, "__bpf_trace_%s", event), false,
			  &f)) {
		CERR(c, in->ap->span, E_UNKNOWN_TYPE,
		     "args of %s need the tracepoint's prototype from BTF (__bpf_trace_%s)", in->name,
		     event);
		CHINT(c, "%s", c->p->types.btf.nobjs ? "arg0, arg1, ... read its raw arguments"
						     : c->p->types.btf.err);
		return &ty_none;
	}
	return in->args = prov_func_args_type(c->p, in->name, &f, 1);
}

/* arg0 .. arg11: the tracepoint's own arguments, u64 args[] at the context; args */
static struct type *rt_builtin_type(struct check *c, struct expr *e)
{
	if (e->id == BI_ARGS)
		return rt_args_type(c, c->inst);
	if (e->id != BI_ARGN)
		return NULL;
	if (strtoul(e->u.name + 3, NULL, 10) >= RAW_TP_MAX_ARGS) {
		CERR(c, e->span, E_BUILTIN_CONTEXT, "a raw tracepoint has at most %d arguments",
		     RAW_TP_MAX_ARGS);
		return &ty_none;
	}
	return &ty_u64;
}

static struct val rt_gen_builtin(struct gen *g, struct expr *e)
{
	if (e->id == BI_ARGS)
		return reg_val(e->type, g->ctx);
	// args[n] of the raw tracepoint's u64 array
	int32_t r = ir_vreg(g->ir);

	emit(g->ir, LDX_MEM(BPF_DW, r, g->ctx, 8 * strtoul(e->u.name + 3, NULL, 10)));
	return reg_val(e->type, r);
}

static void rt_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
}

static int rt_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		     const struct probe_inst *in, char *err, size_t errlen)
{
	const char *event = in->data;
	int fd = bpf_raw_tracepoint_open(event, prog_fd);

	if (fd < 0) {
		if (errno == EINVAL)
			snprintf(err, errlen,
				 "cannot attach to raw tracepoint %s: %s (does the program read more "
				 "arguments than it has?)",
				 event, strerror(errno));
		else
			snprintf(err, errlen, "cannot attach to raw tracepoint %s: %s", event,
				 strerror(errno));
		return -1;
	}
	attach_add(ac, fd, -1);
	return 0;
}

struct rt_list {
	struct btf_src *btf;
	const struct list_query *q;
	const char *mod, *ev; /* patterns; mod NULL: any */
	FILE *out;
	int n;
};

static int list_one(const char *obj, const char *fn, uint32_t id, void *arg)
{
	struct rt_list *l = arg;
	const char *ev = fn + strlen(RT_BTF_PREFIX);
	struct btf_func f;
	char name[512];

	(void)id;
	if (strncmp(fn, RT_BTF_PREFIX, strlen(RT_BTF_PREFIX)) ||
	    (l->mod && !util_wildcard_match(l->mod, obj)) || !util_wildcard_match(l->ev, ev))
		return 0;
	snprintf(name, sizeof(name), "rawtracepoint:%s:%s", obj, ev);
	if (l->q->whole && !util_wildcard_match(l->q->whole, name))
		return 0;
	fprintf(l->out, "%s\n", name);
	l->n++;
	/* its arguments, the first (the tracepoint's private data) left out, as bpftrace */
	if (l->q->verbose && types_btf_src_func(l->btf, fn, false, &f))
		for (uint32_t i = 1; i < f.nparams; i++)
			fprintf(l->out, "    %s %s\n", type_str_of(f.params[i].type), f.params[i].name);
	return 0;
}

/* rawtracepoint:[MODULE:]EVENT patterns from BTF, as today's bpftrace lists them */
static int rt_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	struct arena a = { 0 };
	struct btf_src btf;
	struct rt_list l = { &btf, q, NULL, "*", out, 0 };
	int rc;

	(void)prov;
	if (q->part[1]) {
		l.mod = q->part[0];
		l.ev = q->part[1];
	} else if (q->part[0]) {
		l.ev = *q->part[0] ? q->part[0] : "*";
	}
	types_btf_src_init(&btf, &a);
	rc = types_btf_src_each_func(&btf, !l.mod || strcmp(l.mod, "vmlinux"), list_one, &l);
	if (rc < 0 && (q->part[0] || q->whole)) /* asked for: say why there are none */
		fprintf(stderr, "lantern: raw tracepoints are listed from BTF: %s\n", btf.err);
	types_btf_src_free(&btf);
	arena_free(&a);
	return rc < 0 && (q->part[0] || q->whole) ? -1 : l.n;
}

const struct provider prov_rawtracepoint = {
	.id = PROV_RAWTRACEPOINT,
	.name = "rawtracepoint",
	.alias = "rt",
	.expand = rt_expand,
	.builtin_type = rt_builtin_type,
	.gen_builtin = rt_gen_builtin,
	.gen_args_field = gen_ctx_field,
	.prog_setup = rt_prog_setup,
	.list = rt_list,
	.attach = rt_attach,
};
