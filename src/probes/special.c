// SPDX-License-Identifier: MIT
/*
 * BEGIN and END: programs that user space runs once, at start and at the
 * end, with BPF_PROG_TEST_RUN on a raw tracepoint program. They run in
 * lantern's own context (pid, comm are lantern's), as in bpftrace.
 */
#include "probes/provider.h"

static int expand_special(struct session *s, struct probe *p, struct attach_point *ap)
{
	const struct provider *prov = provider_lookup(ap->parts[0]);

	if (ap->nparts != 1) {
		diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT, "%s takes no arguments", prov->name);
		return -1;
	}
	for (size_t i = 0; i < s->insts.len; i++)
		if (s->insts.data[i]->prov == prov) {
			diag_error(&s->diag, ap->span, E_BAD_ATTACH_POINT, "%s is used twice",
				   prov->name);
			diag_hint(&s->diag, "put all of its statements in one %s probe", prov->name);
			return -1;
		}
	inst_add(s, p, ap, prov, prov->name);
	return 0;
}

static enum bpf_prog_type special_prog_type(struct session *s, struct prog_desc *pd)
{
	return BPF_PROG_TYPE_RAW_TRACEPOINT;
}

const struct provider prov_begin = {
	.id = PROV_BEGIN,
	.name = "BEGIN",
	.expand = expand_special,
	.prog_type = special_prog_type,
};

const struct provider prov_end = {
	.id = PROV_END,
	.name = "END",
	.expand = expand_special,
	.prog_type = special_prog_type,
};
