// SPDX-License-Identifier: MIT
/*
 * interval:UNIT:N: a timer on one CPU (a cpu-clock software perf event
 * whose period is the interval), as bpftrace does. Units: s, ms, us, hz;
 * today's bpftrace also writes interval:Ns (interval:1s, profile:99hz).
 * The timer starts once BEGIN has run, so its first tick comes one full
 * period after BEGIN.
 */
#include "probes/probes.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

int prov_parse_timer(struct plan *p, struct attach_point *ap, const char *type, const char *example,
		uint64_t *period_ns, uint64_t *hz)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "s", 1000000000ull }, { "ms", 1000000ull }, { "us", 1000ull }, { "hz", 0 } };
	char *end;
	uint64_t n;

	*period_ns = *hz = 0;
	if (ap->nparts == 2 && ap->parts[1][0] >= '0' && ap->parts[1][0] <= '9') {
		/* interval:1s, profile:99hz (today's bpftrace): interval:s:1 */
		const char *u = ap->parts[1];
		while (*u >= '0' && *u <= '9')
			u++;
		if (*u) {
			ast_note_modern(p->ast, ap->span, "a timer's period written 1s");
			ap->parts[2] = arena_strndup(&p->arena, ap->parts[1], u - ap->parts[1]);
			ap->parts[1] = u;
			ap->nparts = 3;
		}
	}
	if (ap->nparts != 3) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "%s probes are written %s:UNIT:N, e.g. %s",
			   type, type, example);
		return -1;
	}
	errno = 0;
	n = strtoull(ap->parts[2], &end, 10);
	if (errno || *end || !*ap->parts[2] || n == 0) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "invalid %s count '%s'", type,
			   ap->parts[2]);
		diag_hint(&p->diag, "give a positive whole number, e.g. %s", example);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(ap->parts[1], units[i].unit))
			continue;
		if (!units[i].ns) {
			*hz = n;
			return 0;
		}
		*period_ns = n * units[i].ns;
		if (*period_ns / units[i].ns != n) {
			diag_error(&p->diag, ap->span, E_TOO_BIG, "%s %s:%s is out of range", type,
				   ap->parts[1], ap->parts[2]);
			return -1;
		}
		return 0;
	}
	diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT, "unknown %s unit '%s'", type,
		   ap->parts[1]);
	diag_hint(&p->diag, "units are s, ms, us and hz");
	return -1;
}

/* An interval's period in nanoseconds (probe_inst.data). */
struct interval_inst {
	uint64_t period;
};

static int interval_expand(struct plan *p, const struct provider *prov, struct probe *pr,
			   struct attach_point *ap)
{
	uint64_t period, hz;
	char name[128];

	if (prov_parse_timer(p, ap, "interval", "interval:s:1", &period, &hz) < 0)
		return -1;
	if (hz) {
		period = 1000000000ull / hz;
		if (!period) {
			diag_error(&p->diag, ap->span, E_TOO_BIG, "interval %s:%s is out of range",
				   ap->parts[1], ap->parts[2]);
			return -1;
		}
	}
	snprintf(name, sizeof(name), "interval:%s:%s", ap->parts[1], ap->parts[2]);
	struct probe_inst *in = plan_add_inst(p, pr, ap, prov, name);
	struct interval_inst *ii = ARENA_NEW(&p->arena, struct interval_inst);
	ii->period = period;
	in->data = ii;
	return 0;
}

static void interval_prog_setup(struct plan *p, struct prog *pg)
{
	pg->type = BPF_PROG_TYPE_PERF_EVENT;
}

static int interval_attach(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
			   const struct probe_inst *in, char *err, size_t errlen)
{
	const struct interval_inst *ii = in->data;
	struct perf_event_attr attr = { 0 };

	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = ii->period;
	attr.disabled = 1; /* started after BEGIN: the first tick comes one period after it */
	if (prov_attach_perf_event_on(ac, prog_fd, in, &attr, -1, 0, "timer", err, errlen) < 0)
		return -1;
	attach_defer_last(ac);
	return 0;
}

const struct provider prov_interval = {
	.id = PROV_INTERVAL,
	.name = "interval",
	.alias = "i",
	.flags = PROV_F_ANY_MEM,
	.expand = interval_expand,
	.prog_setup = interval_prog_setup,
	.list = prov_timer_list,
	.attach = interval_attach,
};
