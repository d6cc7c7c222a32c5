// SPDX-License-Identifier: MIT
/*
 * tracepoint:CATEGORY:EVENT, with '*' and '?' in either part.
 *
 * A program that reads no format-file field (no `args`) runs as a raw
 * tracepoint, which costs less per event; otherwise it is a tracepoint
 * program whose context is the event's record, typed from its format file.
 * syscalls:* events exist only as tracepoints (their raw form is
 * raw_syscalls:sys_enter/sys_exit), so they take the second path, except
 * in a group (sysgroup.c): many of one probe's syscall tracepoints served
 * by one raw tracepoint program on raw_syscalls that looks the syscall
 * number up in a map of number -> probe id.
 */
#include "probes/tracepoint.h"
#include "sys/syscalls.h"
#include "sys/tracefs.h"
#include "types/tpformat.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <unistd.h>

struct expand_ctx {
	struct plan *p;
	struct probe *pr;
	struct attach_point *ap;
};

static int add_match(const char *cat, const char *ev, void *arg)
{
	struct expand_ctx *x = arg;
	struct tp_inst *ti = ARENA_NEW(&x->p->arena, struct tp_inst);
	char name[512];
	struct probe_inst *in;

	snprintf(name, sizeof(name), "tracepoint:%s:%s", cat, ev);
	in = plan_add_inst(x->p, x->pr, x->ap, &prov_tracepoint, name);
	ti->cat = arena_strdup(&x->p->arena, cat);
	ti->event = arena_strdup(&x->p->arena, ev);
	ti->sysnr = -1;
	if (!strcmp(cat, "syscalls")) {
		const char *sys = !strncmp(ev, "sys_enter_", 10) ? ev + 10 :
				  !strncmp(ev, "sys_exit_", 9)	 ? ev + 9 :
								   NULL;
		int nr = sys ? sys_syscall_number(sys) : -1;
		if (nr >= 0 && nr < SYSCALL_NR_LIMIT)
			ti->sysnr = nr;
	}
	in->data = ti;
	return 0;
}

static void suggest(struct plan *p, const char *cat, const char *ev)
{
	struct tp_suggestions sg;
	char err[256];

	if (sys_tracefs_suggest(cat, ev, &sg, err, sizeof(err)) < 0)
		return;
	if (sg.n) {
		struct strbuf sb = { 0 };
		for (int i = 0; i < sg.n; i++)
			sb_printf(&sb, "%s%s", i ? ", " : "", sg.names[i]);
		diag_hint(&p->diag, "did you mean %s?", sb_str(&sb));
		sb_free(&sb);
	} else if (!sg.cat_exists) {
		diag_hint(&p->diag, "there is no tracepoint category '%s'; `lantern -l 'tracepoint:*'` lists them",
			  cat);
	}
}

static int tp_expand(struct plan *p, const struct provider *prov, struct probe *pr,
		     struct attach_point *ap)
{
	struct expand_ctx x = { p, pr, ap };
	char err[256];
	int n;

	if (ap->nparts != 3 || !*ap->parts[1] || !*ap->parts[2]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "a tracepoint is written tracepoint:CATEGORY:EVENT");
		return -1;
	}
	if (!sys_tracefs_path(err, sizeof(err))) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING, "%s", err);
		return -1;
	}
	n = sys_tracefs_events_match(ap->parts[1], ap->parts[2], add_match, &x, err, sizeof(err));
	if (n < 0) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
		return -1;
	}
	if (n == 0) {
		if (p->modern) /* today's bpftrace's words */
			diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT,
				   "No matches for tracepoint %s:%s.", ap->parts[1], ap->parts[2]);
		else if (util_has_wildcard(ap->parts[1]) || util_has_wildcard(ap->parts[2]))
			diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT,
				   "no tracepoint matches %s:%s", ap->parts[1], ap->parts[2]);
		else
			diag_error(&p->diag, ap->span, E_UNKNOWN_TRACEPOINT,
				   "tracepoint not found: %s:%s", ap->parts[1], ap->parts[2]);
		suggest(p, ap->parts[1], ap->parts[2]);
		return -1;
	}
	return 0;
}

static struct type *field_type(struct plan *p, const struct tp_field *f, struct field *out)
{
	struct arena *a = &p->arena;

	if (f->is_data_loc || f->is_rel_loc) {
		out->data_loc = true;
		out->rel_loc = f->is_rel_loc;
		return f->is_string ? type_str(a, p->strlen) : NULL;
	}
	if (f->is_array) {
		if (!f->array_len)
			return NULL;
		if (f->is_string) {
			out->read_size = f->array_len;
			return type_str(a, f->array_len);
		}
		if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 && f->elem_size != 8)
			return NULL;
		return type_array(a, type_int(f->elem_size, f->is_signed), f->array_len);
	}
	if (f->is_pointer && !f->is_string && strcmp(f->base, "void")) {
		/* struct timespec *, u32 *: the type from BTF, when followed */
		const char *tag = NULL, *name = f->base;
		if (!strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6) || !strncmp(name, "enum ", 5)) {
			size_t n = strcspn(name, " ");
			tag = arena_strndup(a, name, n);
			name += n + 1;
		}
		return type_env_lazy_ptr(&p->types, tag, arena_strdup(a, name), f->ptr_depth, f->is_user);
	}
	if (f->is_pointer)
		return type_ptr(a, f->is_string ? &ty_s8 : &ty_u8, f->is_user);
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		return type_int(f->size, f->is_signed);
	return NULL;
}

/* args: the event's fields, from its format file (read once per instance) */
static struct type *tp_args_type(struct check *c, struct probe_inst *in)
{
	struct tp_inst *ti = in->data;
	struct plan *p = c->p;
	char err[256];

	if (in->args)
		return in->args;
	if (!ti->fmt) {
		struct tp_format *fmt = ARENA_NEW(&p->arena, struct tp_format);
		if (types_tp_format_load(ti->cat, ti->event, fmt, err, sizeof(err)) < 0) {
			CERR(c, in->ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
			return &ty_none;
		}
		ti->fmt = fmt;
		plan_defer_free(p, (void (*)(void *))types_tp_format_free, fmt);
	}
	struct type *t = ARENA_NEW(&p->arena, struct type);
	t->kind = TY_CTX;
	t->size = t->align = 8;
	t->name = in->name;
	t->fields = ARENA_ARRAY(&p->arena, struct field, ti->fmt->nfields);
	for (uint32_t i = 0; i < ti->fmt->nfields; i++) {
		const struct tp_field *f = &ti->fmt->fields[i];
		struct field *out = &t->fields[t->nfields];
		if (f->is_common)
			continue;
		memset(out, 0, sizeof(*out));
		out->type = field_type(p, f, out);
		if (!out->type)
			continue;
		out->name = arena_strdup(&p->arena, f->name);
		out->ctype = arena_strdup(&p->arena, f->ctype);
		out->offset = f->offset;
		t->nfields++;
	}
	return in->args = t;
}

static struct type *tp_builtin_type(struct check *c, struct expr *e)
{
	const struct tp_inst *ti = c->inst->data;

	if (e->id == BI_ARGS)
		return tp_args_type(c, c->inst);
	if (e->id == BI_RETVAL && !strcmp(ti->cat, "syscalls") &&
	    !strncmp(ti->event, "sys_exit_", 9)) {
		sema_check_not_here(c, e);
		CHINT(c, "a syscall's return value is args->ret here");
		return &ty_none;
	}
	return NULL;
}

static struct val tp_gen_builtin(struct gen *g, struct expr *e)
{
	return reg_val(e->type, g->ctx); /* args: the record at the context */
}

static struct val tp_gen_args_field(struct gen *g, struct expr *e)
{
	return g->pg->data ? prov_sysgroup_field(g, e) : gen_ctx_field(g, e);
}

static void tp_gen_prologue(struct gen *g)
{
	if (g->pg->data)
		prov_sysgroup_prologue(g);
}

/*
 * A program that reads no format-file field runs as a raw tracepoint, except
 * on syscalls:* events (they have no raw form of their own); a group runs on
 * raw_syscalls. A probe that prints would see lantern's own writes of what
 * it printed, and feed on them: it skips lantern's events.
 */
static void tp_prog_setup(struct plan *p, struct prog *pg)
{
	const struct tp_inst *ti = pg->inst->data;

	pg->raw_tp = pg->data || (!sema_probe_uses_builtin(pg->probe, BI_ARGS) && strcmp(ti->cat, "syscalls"));
	pg->type = pg->raw_tp ? BPF_PROG_TYPE_RAW_TRACEPOINT : BPF_PROG_TYPE_TRACEPOINT;
	pg->skip_self = sema_probe_prints(pg->probe) || sema_probe_calls(pg->probe, FN_PRINT) ||
			sema_probe_calls(pg->probe, FN_TIME);
}

static int tp_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		     const struct probe_inst *in, char *err, size_t errlen)
{
	const struct tp_inst *ti = in->data;
	struct perf_event_attr attr = { 0 };
	int id;

	if (pg->raw_tp) {
		const char *tp = ti->event;
		if (pg->data) {
			/* the group's one attachment, made for its first instance */
			if (in != pg->insts.data[0])
				return 0;
			tp = prov_sysgroup_tracepoint(pg);
		}
		int fd = bpf_raw_tracepoint_open(tp, prog_fd);
		if (fd >= 0) {
			attach_add(ac, fd, -1);
			return 0;
		}
		snprintf(err, errlen, "cannot attach to raw tracepoint %s: %s", tp, strerror(errno));
		return -1;
	}
	id = sys_tracefs_event_id(ti->cat, ti->event);
	if (id < 0) {
		snprintf(err, errlen, "cannot read the id of %s: %s", in->name, strerror(-id));
		return -1;
	}
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	return prov_attach_perf_event_on(ac, prog_fd, in, &attr, -1, 0, "tracepoint", err, errlen);
}

struct list_ctx {
	const char *whole; /* pattern over the whole name, or NULL */
	bool verbose;
	FILE *out;
	struct strbuf sb;
	int n;
};

static int list_one(const char *cat, const char *ev, void *arg)
{
	struct list_ctx *l = arg;
	struct tp_format f;
	char name[512], err[256];

	snprintf(name, sizeof(name), "tracepoint:%s:%s", cat, ev);
	if (l->whole && !util_wildcard_match(l->whole, name))
		return 0;
	l->n++;
	if (!l->verbose || types_tp_format_load(cat, ev, &f, err, sizeof(err)) < 0) {
		fprintf(l->out, "%s\n", name);
		return 0;
	}
	sb_reset(&l->sb);
	types_tp_format_describe(&f, &l->sb);
	fputs(sb_str(&l->sb), l->out);
	types_tp_format_free(&f);
	return 0;
}

/* tracepoint:CATEGORY:EVENT patterns, or a pattern over whole names; -lv adds the fields */
static int tp_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	struct list_ctx l = { .whole = q->whole, .verbose = q->verbose, .out = out };
	const char *cat = q->part[0] ? q->part[0] : "*", *ev = q->part[1] ? q->part[1] : "*";
	char err[256];
	int rc = -1;

	if (sys_tracefs_path(err, sizeof(err)))
		rc = sys_tracefs_events_match(cat, ev, list_one, &l, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "lantern: %s\n", err);
	sb_free(&l.sb);
	return rc < 0 ? -1 : l.n;
}

const struct provider prov_tracepoint = {
	.id = PROV_TRACEPOINT,
	.name = "tracepoint",
	.alias = "t",
	.expand = tp_expand,
	.group = prov_sysgroup_prog,
	.builtin_type = tp_builtin_type,
	.gen_builtin = tp_gen_builtin,
	.gen_args_field = tp_gen_args_field,
	.gen_prologue = tp_gen_prologue,
	.prog_setup = tp_prog_setup,
	.list = tp_list,
	.attach = tp_attach,
};
