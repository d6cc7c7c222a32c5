// SPDX-License-Identifier: MIT
/*
 * Perf-event probes that fire on every CPU (one perf event per online CPU,
 * as bpftrace does):
 *
 *   profile:UNIT:N        a cpu-clock timer: s, ms, us periods, or hz
 *   software:EVENT[:N]    a kernel software event every N occurrences
 *   hardware:EVENT[:N]    a PMU counter every N occurrences
 *
 * Without N, an event's default count applies (bpftrace's). Hardware
 * counters are often missing (virtual machines): that is found when the
 * script is checked, and said plainly, before anything is loaded.
 */
#include "probes/probes.h"
#include "base/util.h"
#include "sys/perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct perf_ev {
	const char *name, *alias;
	uint64_t config, count; /* count: the default sample period */
};

static const struct perf_ev sw_events[] = {
	{ "cpu-clock", "cpu", PERF_COUNT_SW_CPU_CLOCK, 1000000 },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK, 1 },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, 100 },
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000 },
	{ "cpu-migrations", NULL, PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN, 100 },
	{ "major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1 },
	{ "alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1 },
	{ "emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS, 1 },
	{ "dummy", NULL, PERF_COUNT_SW_DUMMY, 1 },
	{ "bpf-output", NULL, PERF_COUNT_SW_BPF_OUTPUT, 1 },
	{ NULL, NULL, 0, 0 },
};

static const struct perf_ev hw_events[] = {
	{ "cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000 },
	{ "instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS, 1000000 },
	{ "cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES, 1000000 },
	{ "cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES, 1000000 },
	{ "branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100000 },
	{ "branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES, 100000 },
	{ "bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES, 100000 },
	{ "frontend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000000 },
	{ "backend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000 },
	{ "ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES, 1000000 },
	{ NULL, NULL, 0, 0 },
};

static const struct perf_ev *find_event(const struct perf_ev *evs, const char *name)
{
	for (const struct perf_ev *e = evs; e->name; e++)
		if (!strcmp(e->name, name) || (e->alias && !strcmp(e->alias, name)))
			return e;
	return NULL;
}

/* A perf event instance (probe_inst.data). */
struct perf_inst {
	uint32_t type;	 /* perf_event_attr type */
	uint64_t config; /* and config */
	uint64_t period; /* events, or ns for clocks; a frequency when freq */
	bool freq;	 /* profile:hz */
	bool process;	 /* today's bpftrace with -p: the events of that process only */
};

static void hint_events(struct plan *p, const struct perf_ev *evs, const char *name,
			const char *type)
{
	const char *best = NULL;
	unsigned bestd = 4;
	struct strbuf sb = { 0 };

	for (const struct perf_ev *e = evs; e->name; e++) {
		unsigned d = util_edit_distance(name, e->name, bestd);
		if (d < bestd) {
			bestd = d;
			best = e->name;
		}
		if (e->alias && (d = util_edit_distance(name, e->alias, bestd)) < bestd) {
			bestd = d;
			best = e->alias;
		}
		sb_printf(&sb, "%s%s%s%s%s", e == evs ? "" : ", ", e->name, e->alias ? " (" : "",
			  e->alias ? e->alias : "", e->alias ? ")" : "");
	}
	if (best)
		diag_hint(&p->diag, "did you mean '%s'?", best);
	else
		diag_hint(&p->diag, "%s events are: %s", type, sb_str(&sb));
	sb_free(&sb);
}

/* Whether this machine can open the event at all (tried on CPU 0, disabled). */
static int event_available(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = { 0 };
	int fd;

	attr.type = type;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.sample_period = 1000000;
	attr.disabled = 1;
	fd = sys_perf_event_open_fd(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* software:PATTERN, hardware:PATTERN, or a pattern over the whole names: each event, its alias too */
static int perf_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	const struct perf_ev *evs = prov->id == PROV_SOFTWARE ? sw_events : hw_events;
	const char *names[64];
	size_t n = 0;

	for (const struct perf_ev *e = evs; e->name && n + 2 < ARRAY_SIZE(names); e++) {
		names[n++] = e->name;
		if (e->alias)
			names[n++] = e->alias;
	}
	names[n] = NULL;
	return prov_list_names(prov, names, q, out);
}

/* profile:UNIT: and interval:UNIT: as bpftrace lists them */
static const char *const timer_units[] = { "hz", "s", "ms", "us", NULL };

int prov_timer_list(const struct provider *prov, const struct list_query *q, FILE *out)
{
	struct list_query unit = *q;

	/* interval:ms:100 of a script (-l script.bt) lists as interval:ms:, as bpftrace */
	if (unit.part[1] && unit.part[1][0] >= '0' && unit.part[1][0] <= '9')
		unit.part[1] = "";
	return prov_list_names(prov, timer_units, &unit, out);
}

static struct probe_inst *add_inst(struct plan *p, struct probe *pr, struct attach_point *ap,
				   const struct provider *prov, const char *name, uint32_t type,
				   uint64_t config, uint64_t period, bool freq)
{
	struct probe_inst *in = plan_add_inst(p, pr, ap, prov, name);
	struct perf_inst *pi = ARENA_NEW(&p->arena, struct perf_inst);

	*pi = (struct perf_inst){ type, config, period, freq, p->modern && p->opts->pid > 0 };
	in->data = pi;
	return in;
}

static int event_expand(struct plan *p, struct probe *pr, struct attach_point *ap,
			const struct provider *prov, uint32_t type, const struct perf_ev *evs)
{
	const char *kind = prov->name, *count = ap->nparts == 3 ? ap->parts[2] : "";
	const struct perf_ev *ev;
	uint64_t n;
	char name[256], *end;

	if (ap->nparts < 2 || ap->nparts > 3 || !*ap->parts[1]) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "%s probes are written %s:EVENT or %s:EVENT:COUNT", kind, kind, kind);
		return -1;
	}
	ev = find_event(evs, ap->parts[1]);
	if (!ev) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "unknown %s event '%s'", kind,
			   ap->parts[1]);
		hint_events(p, evs, ap->parts[1], kind);
		return -1;
	}
	n = ev->count;
	if (*count) {
		errno = 0;
		n = strtoull(count, &end, 10);
		if (errno || *end || n == 0) {
			diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "invalid %s count '%s'",
				   kind, count);
			diag_hint(&p->diag, "the probe fires every COUNT events: a positive whole number");
			return -1;
		}
	}
	if (type == PERF_TYPE_HARDWARE) {
		int e = event_available(type, ev->config);
		if (e == -ENOENT || e == -EOPNOTSUPP || e == -ENODEV || e == -EINVAL) {
			diag_error(&p->diag, ap->span, E_MECHANISM_MISSING,
				   "this machine has no hardware counter for %s (perf_event_open: %s)",
				   ev->name, strerror(-e));
			diag_hint(&p->diag, "virtual machines often have none; software:cpu-clock and "
					    "profile:hz:99 sample without them");
			return -1;
		}
	}
	/* as written: "software:cs:1", "software:cs:" */
	snprintf(name, sizeof(name), "%s:%s:%s", kind, ap->parts[1], count);
	add_inst(p, pr, ap, prov, name, type, ev->config, n, false);
	return 0;
}

static int software_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			   struct attach_point *ap)
{
	return event_expand(p, pr, ap, prov, PERF_TYPE_SOFTWARE, sw_events);
}

static int hardware_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			   struct attach_point *ap)
{
	return event_expand(p, pr, ap, prov, PERF_TYPE_HARDWARE, hw_events);
}

static int profile_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			  struct attach_point *ap)
{
	uint64_t period, hz;
	char name[128];

	if (prov_parse_timer(p, ap, "profile", "profile:hz:99", &period, &hz) < 0)
		return -1;
	snprintf(name, sizeof(name), "profile:%s:%s", ap->parts[1], ap->parts[2]);
	add_inst(p, pr, ap, prov, name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
		 hz ? hz : period, hz != 0);
	return 0;
}

static void perf_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_PERF_EVENT;
}

static int perf_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		       const struct probe_inst *in, char *err, size_t errlen)
{
	const struct perf_inst *pi = in->data;
	struct perf_event_attr attr = { 0 };

	attr.type = pi->type;
	attr.size = sizeof(attr);
	attr.config = pi->config;
	attr.freq = pi->freq;
	attr.sample_period = pi->period; /* sample_freq when freq is set: the same field */
	if (pi->process && ac->pid > 0) /* the kernel counts that process's events alone */
		return prov_attach_perf_event_on(ac, prog_fd, in, &attr, ac->pid, -1, in->prov->name,
						 err, errlen);
	return prov_attach_perf_event_cpus(ac, prog_fd, in, &attr, in->prov->name, err, errlen);
}

/* A software event's site (PROV_F_LIFO): its type and config */
static uint64_t perf_site(const struct probe_inst *in)
{
	const struct perf_inst *pi = in->data;
	return (uint64_t)pi->type << 32 ^ pi->config;
}

const struct provider prov_profile = {
	.id = PROV_PROFILE,
	.name = "profile",
	.alias = "p",
	.flags = PROV_F_ANY_MEM,
	.expand = profile_expand,
	.prog_setup = perf_prog_setup,
	.list = prov_timer_list,
	.attach = perf_attach,
};

const struct provider prov_software = {
	.id = PROV_SOFTWARE,
	.name = "software",
	.alias = "s",
	.flags = PROV_F_LIFO | PROV_F_ANY_MEM,
	.site = perf_site,
	.expand = software_expand,
	.prog_setup = perf_prog_setup,
	.list = perf_list,
	.attach = perf_attach,
};

const struct provider prov_hardware = {
	.id = PROV_HARDWARE,
	.name = "hardware",
	.alias = "h",
	.flags = PROV_F_ANY_MEM,
	.expand = hardware_expand,
	.prog_setup = perf_prog_setup,
	.list = perf_list,
	.attach = perf_attach,
};
