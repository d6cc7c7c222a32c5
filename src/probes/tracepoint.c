// SPDX-License-Identifier: MIT
/*
 * tracepoint:CATEGORY:EVENT, with '*' and '?' in either part.
 *
 * A program that reads no format-file field (no `args`) runs as a raw
 * tracepoint, which costs less per event; otherwise it is a tracepoint
 * program whose context is the event's record, typed from its format file.
 * syscalls:* events exist only as tracepoints (their raw form is
 * raw_syscalls:sys_enter/sys_exit), so they take the second path, except
 * in a group (load.c's plan_programs): many of one probe's syscall
 * tracepoints served by one raw tracepoint program on raw_syscalls that
 * looks the syscall number up in a map of number -> probe id (gen_prog.c).
 */
#include "probes/provider.h"
#include "probes/syscalls.h"
#include "probes/tracefs.h"
#include "sema/sema.h"
#include "types/tpformat.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <unistd.h>

struct expand_ctx {
	struct session *s;
	struct probe *p;
	struct attach_point *ap;
};

static int add_match(const char *cat, const char *ev, void *arg)
{
	struct expand_ctx *x = arg;
	char name[512];
	struct probe_inst *in;

	snprintf(name, sizeof(name), "tracepoint:%s:%s", cat, ev);
	in = inst_add(x->s, x->p, x->ap, &prov_tracepoint, name);
	in->target[0] = arena_strdup(&x->s->arena, cat);
	in->target[1] = arena_strdup(&x->s->arena, ev);
	return 0;
}

static void suggest(struct session *s, const char *cat, const char *ev)
{
	struct tp_suggestions sg;
	char err[256];

	if (tracefs_suggest(cat, ev, &sg, err, sizeof(err)) < 0)
		return;
	if (sg.n) {
		struct strbuf sb = { 0 };
		for (int i = 0; i < sg.n; i++)
			sb_printf(&sb, "%s%s", i ? ", " : "", sg.names[i]);
		diag_hint(&s->diag, "did you mean %s?", sb_str(&sb));
		sb_free(&sb);
	} else if (!sg.cat_exists) {
		diag_hint(&s->diag, "there is no tracepoint category '%s'; `lantern -l 'tracepoint:*'` lists them",
			  cat);
	}
}

static int tp_expand(struct session *s, struct probe *p, struct attach_point *ap)
{
	struct expand_ctx x = { s, p, ap };
	char err[256];
	int n;

	if (ap->nparts != 3 || !*ap->parts[1] || !*ap->parts[2]) {
		diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT,
			   "a tracepoint is written tracepoint:CATEGORY:EVENT");
		return -1;
	}
	if (!tracefs_path(err, sizeof(err))) {
		diag_error(&s->diag, ap->span, E_MECHANISM_MISSING, "%s", err);
		return -1;
	}
	n = tracefs_events_match(ap->parts[1], ap->parts[2], add_match, &x, err, sizeof(err));
	if (n < 0) {
		diag_error(&s->diag, ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
		return -1;
	}
	if (n == 0) {
		if (has_wildcard(ap->parts[1]) || has_wildcard(ap->parts[2]))
			diag_error(&s->diag, ap->span, E_UNKNOWN_TRACEPOINT,
				   "no tracepoint matches %s:%s", ap->parts[1], ap->parts[2]);
		else
			diag_error(&s->diag, ap->span, E_UNKNOWN_TRACEPOINT,
				   "tracepoint not found: %s:%s", ap->parts[1], ap->parts[2]);
		suggest(s, ap->parts[1], ap->parts[2]);
		return -1;
	}
	return 0;
}

static struct type *field_type(struct session *s, const struct tp_field *f, struct field *out)
{
	struct arena *a = &s->arena;

	if (f->is_data_loc || f->is_rel_loc) {
		out->data_loc = true;
		out->rel_loc = f->is_rel_loc;
		return f->is_string ? type_str(a, STRLEN_DEFAULT) : NULL;
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
	if (f->is_pointer)
		return type_ptr(a, f->is_string ? &ty_s8 : &ty_u8, f->is_user);
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		return type_int(f->size, f->is_signed);
	return NULL;
}

static struct type *tp_args_type(struct session *s, struct probe_inst *in, bool report)
{
	struct tp_format *fmt = in->fmt;
	char err[256];

	if (!fmt) {
		fmt = ARENA_NEW(&s->arena, struct tp_format);
		if (tp_format_load(in->target[0], in->target[1], fmt, err, sizeof(err)) < 0) {
			if (report)
				diag_error(&s->diag, in->ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
			return NULL;
		}
		in->fmt = fmt;
		session_defer_free(s, (void (*)(void *))tp_format_free, fmt);
	}
	struct type *t = ARENA_NEW(&s->arena, struct type);
	t->kind = TY_CTX;
	t->size = t->align = 8;
	t->name = in->name;
	t->fields = ARENA_ARRAY(&s->arena, struct field, fmt->nfields);
	for (uint32_t i = 0; i < fmt->nfields; i++) {
		const struct tp_field *f = &fmt->fields[i];
		struct field *out = &t->fields[t->nfields];
		if (f->is_common)
			continue;
		memset(out, 0, sizeof(*out));
		out->type = field_type(s, f, out);
		if (!out->type)
			continue;
		out->name = arena_strdup(&s->arena, f->name);
		out->ctype = arena_strdup(&s->arena, f->ctype);
		out->offset = f->offset;
		t->nfields++;
	}
	return t;
}

enum sys_group tp_sys_group(struct probe_inst *in)
{
	const char *ev = in->target[1];
	enum sys_group g;

	if (in->prov->id != PROV_TRACEPOINT || strcmp(in->target[0], "syscalls"))
		return SYSGROUP_NONE;
	if (!strncmp(ev, "sys_enter_", 10))
		g = SYSGROUP_ENTER, ev += 10;
	else if (!strncmp(ev, "sys_exit_", 9))
		g = SYSGROUP_EXIT, ev += 9;
	else
		return SYSGROUP_NONE;
	in->sysnr = syscall_number(ev);
	return in->sysnr >= 0 && in->sysnr < SYSCALL_NR_LIMIT ? g : SYSGROUP_NONE;
}

static bool tp_raw(struct session *s, struct prog_desc *pd)
{
	return pd->sysgroup ||
	       (!probe_uses_builtin(pd->probe, BI_ARGS) && strcmp(pd->inst->target[0], "syscalls"));
}

static enum bpf_prog_type tp_prog_type(struct session *s, struct prog_desc *pd)
{
	pd->raw_tp = tp_raw(s, pd);
	return pd->raw_tp ? BPF_PROG_TYPE_RAW_TRACEPOINT : BPF_PROG_TYPE_TRACEPOINT;
}

static int tp_attach(struct session *s, struct prog_desc *pd, struct probe_inst *in, char *err,
		     size_t errlen)
{
	struct perf_event_attr attr = { 0 };
	int id;

	if (pd->raw_tp) {
		const char *tp = in->target[1];
		if (pd->sysgroup) {
			/* the group's one attachment, made for its first instance */
			if (in != pd->insts.data[0])
				return 0;
			tp = pd->sysgroup == SYSGROUP_ENTER ? "sys_enter" : "sys_exit";
		}
		int fd = bpf_raw_tracepoint_open(tp, pd->fd);
		if (fd >= 0) {
			struct attachment a = { .link_fd = fd, .perf_fd = -1, .inst = in };
			vec_push(&s->attachments, a);
			return 0;
		}
		snprintf(err, errlen, "cannot attach to raw tracepoint %s: %s", tp, strerror(errno));
		return -1;
	}
	id = tracefs_event_id(in->target[0], in->target[1]);
	if (id < 0) {
		snprintf(err, errlen, "cannot read the id of %s: %s", in->name, strerror(-id));
		return -1;
	}
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	return attach_perf_event(s, pd, in, &attr, "tracepoint", err, errlen);
}

const struct provider prov_tracepoint = {
	.id = PROV_TRACEPOINT,
	.name = "tracepoint",
	.alias = "t",
	.expand = tp_expand,
	.args_type = tp_args_type,
	.prog_type = tp_prog_type,
	.attach = tp_attach,
};
