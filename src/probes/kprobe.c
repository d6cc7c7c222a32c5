// SPDX-License-Identifier: MIT
/*
 * kprobe:FUNCTION[+OFFSET] and kretprobe:FUNCTION: a kernel function's
 * entry (or an instruction in it) and return. FUNCTION may hold wildcards,
 * matched against the functions tracefs says can be probed
 * (available_filter_functions), or the kernel's text symbols.
 *
 * Attached with the kernel's kprobe PMU (perf_event_open of the type in
 * /sys/bus/event_source/devices/kprobe): no tracefs entries, nothing left
 * behind. A kernel built without CONFIG_KPROBES has no such PMU: the
 * script is refused before anything loads, saying what works instead.
 */
#include "base/strbuf.h"
#include "base/util.h"
#include "probes/probes.h"
#include "sys/perf.h"
#include "sys/tracefs.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PMU_DIR "/sys/bus/event_source/devices/kprobe"

/*
 * The kprobe PMU's perf type, or -1; *retbit: the config bit for returns.
 * Tests point LANTERN_TEST_KPROBE_PMU at a fake PMU directory, to compile
 * kprobes on a kernel without them.
 */
static int kprobe_pmu(int *retbit)
{
	const char *dir = getenv("LANTERN_TEST_KPROBE_PMU");

	return sys_probe_pmu(dir ? dir : PMU_DIR, retbit);
}

/*
 * The kernel functions, one per line ("name" or "name [module]"): those of
 * --traceable-functions FILE (available_filter_functions' format, as
 * bpftrace reads it), else those tracefs says can be probed, or where that
 * list is closed (lockdown), the text symbols of /proc/kallsyms.
 */
static char *kernel_functions(const char *file, char *err, size_t errlen)
{
	const char *root = file ? NULL : sys_tracefs_path(err, errlen);
	char path[1024], *text = NULL, *save = NULL;
	struct strbuf sb = { 0 };

	if (file) {
		if (!(text = util_read_file(file, NULL)))
			snprintf(err, errlen, "--traceable-functions %s: %s", file, strerror(errno));
		return text;
	}
	if (root) {
		snprintf(path, sizeof(path), "%s/available_filter_functions", root);
		text = util_read_file(path, NULL);
		if (text && *text)
			return text;
		free(text);
	}
	text = util_read_file("/proc/kallsyms", NULL);
	if (!text) {
		snprintf(err, errlen, "cannot read the kernel's functions (/proc/kallsyms): %s",
			 strerror(errno));
		return NULL;
	}
	/* "ffffffff81000000 T name [module]" */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char type, name[256];
		if (sscanf(line, "%*s %c %255s", &type, name) == 2 && (type == 't' || type == 'T'))
			sb_printf(&sb, "%s\n", name);
	}
	free(text);
	if (!sb.s)
		return util_xstrdup("");
	return sb.s; /* the caller frees it */
}

/*
 * Functions a kretprobe must not attach to (bpftrace's list): the
 * kretprobe handler takes the locks they take, and the machine can lock up.
 */
static const char *const banned_kretprobes[] = {
	"_raw_spin_lock",
	"_raw_spin_lock_irqsave",
	"_raw_spin_unlock_irqrestore",
	"queued_spin_lock_slowpath",
};

static bool banned(const struct provider *prov, const char *fn)
{
	if (prov->id != PROV_KRETPROBE)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(banned_kretprobes); i++)
		if (!strcmp(fn, banned_kretprobes[i]))
			return true;
	return false;
}

/* A kernel function and an offset in it (probe_inst.data). */
struct kprobe_inst {
	const char *func;
	uint64_t offset;
};

static int kprobe_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			 struct attach_point *ap)
{	char err[512], name[512], *text, *save = NULL, *plus;
	char *fn;
	uint64_t offset = 0;
	int retbit, added = 0;
	const char *best = NULL;
	unsigned bestd = 3;

	if (ap->nparts != 2 || !*ap->parts[1]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "%s probes are written %s:FUNCTION, e.g. %s:do_nanosleep", prov->name,
			   prov->name, prov->name);
		return -1;
	}
	if (banned(prov, ap->parts[1])) { /* before the kernel is asked */
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "kretprobe:%s can't be used as it might lock up your system.", ap->parts[1]);
		diag_hint(&p->diag, "kprobe:%s (its entry) is allowed", ap->parts[1]);
		return -1;
	}
	if (kprobe_pmu(&retbit) < 0 || (prov->id == PROV_KRETPROBE && retbit < 0)) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
			   "this kernel has no kprobes (no kprobe PMU in %s): it was built without "
			   "CONFIG_KPROBES",
			   "/sys/bus/event_source/devices");
		diag_hint(&p->diag, "tracepoints cover many kernel events (`lantern -l 'tracepoint:*'`); "
				    "profile and software probes sample without kprobes");
		return -1;
	}
	fn = arena_strdup(&p->arena, ap->parts[1]);
	if ((plus = strchr(fn, '+'))) {
		char *end;
		*plus = 0;
		offset = strtoull(plus + 1, &end, 0);
		if (*end || prov->id == PROV_KRETPROBE || util_has_wildcard(fn)) {
			diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
				   "an offset is written kprobe:FUNCTION+OFFSET (no wildcards, not on kretprobe)");
			return -1;
		}
	}
	text = kernel_functions(p->opts->traceable_functions, err, sizeof(err));
	if (!text) {
		diag_error(&p->diag, ap->span, E_MECHANISM_MISSING, "%s", err);
		return -1;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " \t")] = 0; /* drop " [module]" */
		if (util_has_wildcard(fn) ? !util_wildcard_match(fn, line) : strcmp(fn, line)) {
			if (!util_has_wildcard(fn)) {
				unsigned d = util_edit_distance(fn, line, bestd);
				if (d < bestd) {
					bestd = d;
					best = arena_strdup(&p->arena, line);
				}
			}
			continue;
		}
		if (banned(prov, line)) {
			diag_warn(&p->diag, ap->span, E_BAD_ATTACH_POINT,
				  "kretprobe:%s left out: it might lock up your system", line);
			continue;
		}
		snprintf(name, sizeof(name), "%s:%s", prov->name, ap->parts[1]);
		if (util_has_wildcard(fn))
			snprintf(name, sizeof(name), "%s:%s", prov->name, line);
		struct probe_inst *in = plan_add_inst(p, pr, ap, prov, name);
		struct kprobe_inst *ki = ARENA_NEW(&p->arena, struct kprobe_inst);
		ki->func = arena_strdup(&p->arena, line);
		ki->offset = offset;
		in->data = ki;
		added++;
		if (!util_has_wildcard(fn))
			break; /* a name listed twice (two modules) is one probe */
	}
	free(text);
	if (!added) {
		diag_error(&p->diag, ap->span, E_UNKNOWN_SYMBOL, util_has_wildcard(fn) ?
			   "no kernel function matches '%s'" : "'%s' is not a kernel function kprobes can attach to", fn);
		if (best)
			diag_hint(&p->diag, "did you mean '%s'?", best);
		return -1;
	}
	return 0;
}

static struct type *kprobe_builtin_type(struct check *c, struct expr *e)
{
	const struct kprobe_inst *x = c->inst->data;
	return prov_regs_builtin_type(c, e, c->inst->prov->id == PROV_KRETPROBE, x->func);
}

static struct val kprobe_gen_builtin(struct gen *g, struct expr *e)
{
	return prov_regs_gen_builtin(g, e, ((const struct kprobe_inst *)g->inst->data)->func);
}

static void kprobe_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_KPROBE;
}

static int kprobe_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
			 const struct probe_inst *in, char *err, size_t errlen)
{
	const struct kprobe_inst *ki = in->data;
	struct perf_event_attr attr = { 0 };
	int retbit, type = kprobe_pmu(&retbit);

	attr.type = type;
	attr.size = sizeof(attr);
	if (in->prov->id == PROV_KRETPROBE)
		attr.config = 1ull << retbit;
	attr.config1 = (uint64_t)(uintptr_t)ki->func; /* kprobe_func */
	attr.config2 = ki->offset;		       /* probe_offset */
	return prov_attach_perf_event_on(ac, prog_fd, in, &attr, -1, 0, in->prov->name, err, errlen);
}

const struct provider prov_kprobe = {
	.id = PROV_KPROBE,
	.name = "kprobe",
	.alias = "k",
	.flags = PROV_F_REGS,
	.expand = kprobe_expand,
	.builtin_type = kprobe_builtin_type,
	.gen_builtin = kprobe_gen_builtin,
	.prog_setup = kprobe_prog_setup,
	.attach = kprobe_attach,
};

const struct provider prov_kretprobe = {
	.id = PROV_KRETPROBE,
	.name = "kretprobe",
	.alias = "kr",
	.flags = PROV_F_REGS,
	.expand = kprobe_expand,
	.builtin_type = kprobe_builtin_type,
	.gen_builtin = kprobe_gen_builtin,
	.prog_setup = kprobe_prog_setup,
	.attach = kprobe_attach,
};
