// SPDX-License-Identifier: MIT
/*
 * kfunc:FUNCTION and kretfunc:FUNCTION (also fentry:, fexit:): a kernel
 * function's entry and return, through the kernel's BPF trampolines:
 * programs of type BPF_PROG_TYPE_TRACING bound to the function's BTF id.
 * They are typed from BTF: args->NAME are the function's parameters, and
 * kretfunc's retval its return value. The kernel binds a program to one
 * function when it loads it, so each function is its own program.
 *
 * The context is the u64 array of the arguments (and after them, in
 * kretfunc, the return value). Kernels that do not run such programs
 * refuse them when they load; the error says so and what works instead.
 */
#include "probes/probes.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A kernel function (probe_inst.data). */
struct kfunc_inst {
	const char *func;
	struct btf_func proto;
};

struct kfunc_expand {
	struct plan *p;
	const struct provider *prov;
	struct probe *pr;
	struct attach_point *ap;
	int added;
};

static int add_func(const char *name, void *arg)
{
	struct kfunc_expand *x = arg;
	struct kfunc_inst *ki = ARENA_NEW(&x->p->arena, struct kfunc_inst);

	if (!types_btf_src_func(&x->p->types.btf, name, false, &ki->proto))
		return 0;
	ki->func = arena_strdup(&x->p->arena, name);
	plan_add_inst(x->p, x->pr, x->ap, x->prov, arena_printf(&x->p->arena, "%s:%s", x->prov->name, name))
		->data = ki;
	x->added++;
	return 0;
}

static int suggest(const char *name, void *arg)
{
	const char **want = arg;

	if (util_edit_distance(want[0], name, 3) < 3 && !want[1])
		want[1] = name;
	return 0;
}

static int kfunc_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			struct attach_point *ap)
{
	struct kfunc_expand x = { p, prov, pr, ap, 0 };
	const char *fn = ap->parts[ap->nparts - 1];

	if ((ap->nparts != 2 && ap->nparts != 3) || !*fn) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "%s probes are written %s:FUNCTION, e.g. %s:do_nanosleep", prov->name,
			   prov->name, prov->name);
		return -1;
	}
	if (!types_btf_src_load(&p->types.btf)) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING, "%s probes need the kernel's BTF: %s",
			   prov->name, p->types.btf.err);
		diag_hint(&p->diag, "tracepoints work without it (`lantern -l 'tracepoint:*'`)");
		return -1;
	}
	types_btf_src_funcs(&p->types.btf, fn, add_func, &x);
	if (!x.added) {
		const char *want[2] = { fn, NULL };
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL,
			   util_has_wildcard(fn) ? "no kernel function matches '%s'"
					    : "'%s' is not a kernel function BTF knows",
			   fn);
		if (!util_has_wildcard(fn)) {
			types_btf_src_funcs(&p->types.btf, "*", suggest, want);
			if (want[1])
				diag_hint(&p->diag, "did you mean '%s'?", want[1]);
		}
		return -1;
	}
	return 0;
}

/* A program per function: the kernel binds it to the function's BTF id. */
static struct prog *kfunc_group(struct plan *p, struct probe_inst *in)
{
	return plan_add_prog(p, in->probe, in);
}

static struct type *kfunc_builtin_type(struct check *c, struct expr *e)
{
	struct probe_inst *in = c->inst;
	const struct kfunc_inst *ki = in->data;

	switch (e->id) {
	case BI_ARGS:
		if (!in->args)
			in->args = prov_func_args_type(c->p, in->name, &ki->proto, 0);
		return in->args;
	case BI_RETVAL:
		if (in->prov->id != PROV_KRETFUNC)
			return NULL;
		if (ki->proto.ret->kind == TY_VOID || ki->proto.ret->size > 8) {
			CERR(c, e->span, E_BUILTIN_CONTEXT, "%s returns %s: retval has no value", ki->func,
			     type_str_of(ki->proto.ret));
			return &ty_none;
		}
		return ki->proto.ret;
	case BI_FUNC:
		return prov_regs_builtin_type(c, e, false, ki->func);
	default:
		return NULL;
	}
}

static struct val kfunc_gen_builtin(struct gen *g, struct expr *e)
{
	const struct kfunc_inst *ki = g->inst->data;
	int32_t r;

	switch (e->id) {
	case BI_ARGS:
		return reg_val(e->type, g->ctx);
	case BI_RETVAL:
		// the slot after the arguments
		r = gen_load_int(g, e->type, g->ctx, 8 * (int32_t)ki->proto.nparams);
		return reg_val(e->type, r);
	default:
		return prov_regs_gen_builtin(g, e, ki->func);
	}
}

static void kfunc_prog_setup(struct plan *p, struct prog *pg)
{
	const struct kfunc_inst *ki = pg->inst->data;

	pg->type = BPF_PROG_TYPE_TRACING;
	pg->attach_type = pg->inst->prov->id == PROV_KRETFUNC ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY;
	pg->attach_btf_id = ki->proto.id;
}

static int kfunc_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
			const struct probe_inst *in, char *err, size_t errlen)
{
	int fd = bpf_raw_tracepoint_open(NULL, prog_fd);

	if (fd < 0) {
		snprintf(err, errlen, "cannot attach %s: %s", in->name, strerror(errno));
		return -1;
	}
	attach_add(ac, fd, -1);
	return 0;
}

struct list_ctx {
	const struct provider *prov;
	struct btf_src *btf;
	const struct list_query *q;
	FILE *out;
	int n;
};

static int list_one(const char *name, void *arg)
{
	struct list_ctx *l = arg;
	struct btf_func f;

	fprintf(l->out, "%s:%s\n", l->prov->name, name);
	l->n++;
	if (l->q->verbose && types_btf_src_func(l->btf, name, false, &f)) {
		for (uint32_t i = 0; i < f.nparams; i++)
			fprintf(l->out, "    %s %s\n", type_str_of(f.params[i].type), f.params[i].name);
		if (l->prov->id == PROV_KRETFUNC && f.ret->kind != TY_VOID)
			fprintf(l->out, "    %s retval\n", type_str_of(f.ret));
	}
	return 0;
}

/* kfunc:PATTERN: the kernel's functions from BTF (-lv: with their arguments) */
static int kfunc_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	struct arena a = { 0 };
	struct btf_src btf;
	struct list_ctx l = { prov, &btf, q, out, 0 };
	const char *pattern = q->part[1] ? q->part[1] : q->part[0];
	int rc;

	if (!pattern)
		return 0;
	types_btf_src_init(&btf, &a);
	rc = types_btf_src_funcs(&btf, *pattern ? pattern : "*", list_one, &l);
	if (rc < 0)
		fprintf(stderr, "lantern: %s\n", btf.err);
	types_btf_src_free(&btf);
	arena_free(&a);
	return rc < 0 ? -1 : l.n;
}

#define KFUNC(var, pid, n, a)                                                                      \
	const struct provider var = {                                                              \
		.id = pid,                                                                         \
		.name = n,                                                                         \
		.alias = a,                                                                        \
		.load_hint = "this kernel does not run fentry/fexit programs (kfunc, kretfunc): "  \
			     "kprobe and kretprobe, or tracepoints, see the same events",          \
		.expand = kfunc_expand,                                                            \
		.group = kfunc_group,                                                              \
		.builtin_type = kfunc_builtin_type,                                                \
		.gen_builtin = kfunc_gen_builtin,                                                  \
		.gen_args_field = gen_ctx_field,                                                   \
		.prog_setup = kfunc_prog_setup,                                                    \
		.list = kfunc_list,                                                                \
		.attach = kfunc_attach,                                                            \
	}
KFUNC(prov_kfunc, PROV_KFUNC, "kfunc", "f");
KFUNC(prov_kretfunc, PROV_KRETFUNC, "kretfunc", "fr");
