// SPDX-License-Identifier: MIT
/*
 * rawtracepoint:EVENT (or rawtracepoint:CATEGORY:EVENT): a kernel
 * tracepoint as a raw tracepoint, whose arguments are the tracepoint's own
 * (arg0, arg1, ...: a task pointer, not the format file's fields). EVENT may
 * hold wildcards; the category only helps find it (the kernel knows raw
 * tracepoints by event name alone).
 */
#include "base/util.h"
#include "probes/provider.h"
#include "probes/tracefs.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <string.h>

struct rt_expand {
	struct session *s;
	struct probe *p;
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
	vec_foreach(&x->s->insts, ip)
	{
		if ((*ip)->probe == x->p && !strcmp((*ip)->name, name))
			return 0;
	}
	struct probe_inst *in = inst_add(x->s, x->p, x->ap, &prov_rawtracepoint, name);
	in->target[1] = arena_strdup(&x->s->arena, ev);
	x->added++;
	return 0;
}

static int rt_expand(struct session *s, struct probe *p, struct attach_point *ap)
{
	struct rt_expand x = { s, p, ap, 0 };
	const char *cat = ap->nparts == 3 ? ap->parts[1] : "*", *ev = ap->parts[ap->nparts - 1];
	char err[256];

	if ((ap->nparts != 2 && ap->nparts != 3) || !*ev || !*cat) {
		diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT,
			   "a raw tracepoint is written rawtracepoint:EVENT, e.g. rawtracepoint:sched_switch");
		return -1;
	}
	if (!tracefs_path(err, sizeof(err))) {
		diag_error(&s->diag, ap->span, E_MECHANISM_MISSING, "%s", err);
		return -1;
	}
	if (tracefs_events_match(cat, ev, add_event, &x, err, sizeof(err)) < 0) {
		diag_error(&s->diag, ap->span, E_UNKNOWN_TRACEPOINT, "%s", err);
		return -1;
	}
	if (!x.added) {
		diag_error(&s->diag, ap->span, E_UNKNOWN_TRACEPOINT, "no tracepoint is called %s", ev);
		diag_hint(&s->diag, "`lantern -l 'tracepoint:*'` lists them; a raw tracepoint takes the event's name");
		return -1;
	}
	return 0;
}

static enum bpf_prog_type rt_prog_type(struct session *s, struct prog_desc *pd)
{
	return BPF_PROG_TYPE_RAW_TRACEPOINT;
}

static int rt_attach(struct session *s, struct prog_desc *pd, struct probe_inst *in, char *err,
		     size_t errlen)
{
	int fd = bpf_raw_tracepoint_open(in->target[1], pd->fd);

	if (fd < 0) {
		if (errno == EINVAL)
			snprintf(err, errlen,
				 "cannot attach to raw tracepoint %s: %s (does the program read more "
				 "arguments than it has?)",
				 in->target[1], strerror(errno));
		else
			snprintf(err, errlen, "cannot attach to raw tracepoint %s: %s", in->target[1],
				 strerror(errno));
		return -1;
	}
	struct attachment a = { .link_fd = fd, .perf_fd = -1, .inst = in };
	vec_push(&s->attachments, a);
	return 0;
}

const struct provider prov_rawtracepoint = {
	.id = PROV_RAWTRACEPOINT,
	.name = "rawtracepoint",
	.alias = "rt",
	.expand = rt_expand,
	.prog_type = rt_prog_type,
	.attach = rt_attach,
};
