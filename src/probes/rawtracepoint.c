// SPDX-License-Identifier: MIT
/*
 * rawtracepoint:EVENT (or rawtracepoint:CATEGORY:EVENT): a kernel
 * tracepoint as a raw tracepoint, whose arguments are the tracepoint's own
 * (arg0, arg1, ...: a task pointer, not the format file's fields). EVENT may
 * hold wildcards; the category only helps find it (the kernel knows raw
 * tracepoints by event name alone).
 */
#include "base/util.h"
#include "probes/probes.h"
#include "sys/arch.h"
#include "sys/tracefs.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct rt_expand {
	struct plan *p;
	struct probe *pr;
	struct attach_point *ap;
	int added;
};

static int add_event(const char *cat, const char *ev, void *arg)
{
	struct rt_expand *x = arg;
	char name[512];

	(void)cat;
	snprintf(name, sizeof(name), "rawtracepoint:%s", ev);
	/* the same event name in two categories is one raw tracepoint */
	vec_foreach(&x->p->insts, ip)
	{
		if ((*ip)->probe == x->pr && !strcmp((*ip)->name, name))
			return 0;
	}
	struct probe_inst *in = plan_add_inst(x->p, x->pr, x->ap, &prov_rawtracepoint, name);
	in->data = arena_strdup(&x->p->arena, ev); /* the event's name */
	x->added++;
	return 0;
}

static int rt_expand(struct plan *p, const struct provider *prov, struct probe *pr,
		     struct attach_point *ap)
{
	struct rt_expand x = { p, pr, ap, 0 };
	const char *cat = ap->nparts == 3 ? ap->parts[1] : "*", *ev = ap->parts[ap->nparts - 1];
	char err[256];

	if ((ap->nparts != 2 && ap->nparts != 3) || !*ev || !*cat) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "a raw tracepoint is written rawtracepoint:EVENT, e.g. rawtracepoint:sched_switch");
		return -1;
	}
	if (!sys_tracefs_path(err, sizeof(err))) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING, "%s", err);
		return -1;
	}
	if (sys_tracefs_events_match(cat, ev, add_event, &x, err, sizeof(err)) < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
		return -1;
	}
	if (!x.added) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT, "no tracepoint is called %s", ev);
		diag_hint(&p->diag, "`lantern -l 'tracepoint:*'` lists them; a raw tracepoint takes the event's name");
		return -1;
	}
	return 0;
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

const struct provider prov_rawtracepoint = {
	.id = PROV_RAWTRACEPOINT,
	.name = "rawtracepoint",
	.alias = "rt",
	.expand = rt_expand,
	.builtin_type = rt_builtin_type,
	.gen_builtin = rt_gen_builtin,
	.gen_args_field = gen_ctx_field,
	.prog_setup = rt_prog_setup,
	.attach = rt_attach,
};
