// SPDX-License-Identifier: MIT
/*
 * interval:UNIT:N: a timer on one CPU (a cpu-clock software perf event
 * whose period is the interval), as bpftrace does. Units: s, ms, us, hz.
 */
#include "probes/provider.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

int parse_timer(struct session *s, struct attach_point *ap, const char *type, const char *example,
		uint64_t *period_ns, uint64_t *hz)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "s", 1000000000ull }, { "ms", 1000000ull }, { "us", 1000ull }, { "hz", 0 } };
	char *end;
	uint64_t n;

	*period_ns = *hz = 0;
	if (ap->nparts != 3) {
		diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT, "%s probes are written %s:UNIT:N, e.g. %s",
			   type, type, example);
		return -1;
	}
	errno = 0;
	n = strtoull(ap->parts[2], &end, 10);
	if (errno || *end || !*ap->parts[2] || n == 0) {
		diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT, "invalid %s count '%s'", type,
			   ap->parts[2]);
		diag_hint(&s->diag, "give a positive whole number, e.g. %s", example);
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
			diag_error(&s->diag, ap->span, E_TOO_BIG, "%s %s:%s is out of range", type,
				   ap->parts[1], ap->parts[2]);
			return -1;
		}
		return 0;
	}
	diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT, "unknown %s unit '%s'", type,
		   ap->parts[1]);
	diag_hint(&s->diag, "units are s, ms, us and hz");
	return -1;
}

static int interval_expand(struct session *s, struct probe *p, struct attach_point *ap)
{
	uint64_t period, hz;
	char name[128];

	if (parse_timer(s, ap, "interval", "interval:s:1", &period, &hz) < 0)
		return -1;
	if (hz) {
		period = 1000000000ull / hz;
		if (!period) {
			diag_error(&s->diag, ap->span, E_TOO_BIG, "interval %s:%s is out of range",
				   ap->parts[1], ap->parts[2]);
			return -1;
		}
	}
	snprintf(name, sizeof(name), "interval:%s:%s", ap->parts[1], ap->parts[2]);
	struct probe_inst *in = inst_add(s, p, ap, &prov_interval, name);
	in->period = period;
	return 0;
}

static enum bpf_prog_type interval_prog_type(struct session *s, struct prog_desc *pd)
{
	return BPF_PROG_TYPE_PERF_EVENT;
}

static int interval_attach(struct session *s, struct prog_desc *pd, struct probe_inst *in,
			   char *err, size_t errlen)
{
	struct perf_event_attr attr = { 0 };

	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = in->period;
	return attach_perf_event(s, pd, in, &attr, "timer", err, errlen);
}

const struct provider prov_interval = {
	.id = PROV_INTERVAL,
	.name = "interval",
	.alias = "i",
	.expand = interval_expand,
	.prog_type = interval_prog_type,
	.attach = interval_attach,
};
