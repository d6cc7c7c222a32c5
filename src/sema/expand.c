// SPDX-License-Identifier: MIT
/* Attach points -> probe instances, through the providers' expand hooks. */
#include "probes/provider.h"
#include "sema/sema.h"

#include <stdlib.h>
#include <string.h>

/* "$N" parts of an attach point take the positional parameter's text. */
static int substitute_params(struct session *s, struct attach_point *ap)
{
	for (uint32_t i = 0; i < ap->nparts; i++) {
		const char *p = ap->parts[i];
		char *end;
		if (p[0] != '$' || !p[1])
			continue;
		unsigned long n = strtoul(p + 1, &end, 10);
		if (*end)
			continue;
		if (n == 0 || n > (unsigned long)s->opts->nparams) {
			diag_error(&s->diag, ap->span, E_POSITIONAL,
				   "positional parameter %s is not given", p);
			return -1;
		}
		ap->parts[i] = s->opts->params[n - 1];
	}
	return 0;
}

static void list_types(struct strbuf *sb)
{
	for (int i = 0; i < PROV_COUNT_; i++)
		sb_printf(sb, "%s%s", i ? ", " : "", providers[i]->name);
}

int sema_expand(struct session *s)
{
	for (uint32_t i = 0; i < s->prog->nprobes; i++) {
		struct probe *p = s->prog->probes[i];
		for (uint32_t k = 0; k < p->naps; k++) {
			struct attach_point *ap = p->aps[k];
			const struct provider *prov;
			if (substitute_params(s, ap) < 0)
				continue;
			prov = provider_lookup(ap->parts[0]);
			if (!prov) {
				struct strbuf sb = { 0 };
				diag_error(&s->diag, ap->span, E_UNKNOWN_PROBE_TYPE,
					   "unknown probe type '%s'", ap->parts[0]);
				list_types(&sb);
				diag_hint(&s->diag, "probe types are %s", sb_str(&sb));
				sb_free(&sb);
				continue;
			}
			if (!prov->expand) {
				diag_error(&s->diag, ap->span, E_UNSUPPORTED,
					   "%s probes are not supported by lantern yet", prov->name);
				diag_hint(&s->diag,
					  "probe types that work: tracepoint, rawtracepoint, kprobe, kretprobe, uprobe, uretprobe, usdt, profile, interval, software, hardware, BEGIN, END");
				continue;
			}
			prov->expand(s, p, ap);
		}
	}
	if (!s->diag.errors && !s->insts.len) {
		diag_error(&s->diag, SPAN_NONE, E_NO_PROBES, "the script has no probes");
		return -1;
	}
	return s->diag.errors ? -1 : 0;
}
