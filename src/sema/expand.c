// SPDX-License-Identifier: MIT
/* Attach points -> probe instances, through the providers' expand hooks. */
#include "sema/sema.h"

#include <stdlib.h>
#include <string.h>

/*
 * A part whose parameter brought ':' (`$1` given "i:ms:1") is several
 * parts, as if written so.
 */
static int split_part(struct plan *p, struct attach_point *ap, uint32_t i)
{
	const char *rest[AP_MAX_PARTS];
	uint32_t nrest = 0, n = i;
	char *text = arena_strdup(&p->arena, ap->parts[i]), *colon;

	for (uint32_t k = i + 1; k < ap->nparts; k++)
		rest[nrest++] = ap->parts[k];
	for (;;) {
		if (n == AP_MAX_PARTS) {
			diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
				   "the attach point has more than %d parts", AP_MAX_PARTS);
			return -1;
		}
		ap->parts[n++] = text;
		if (!(colon = strchr(text, ':')))
			break;
		*colon = 0;
		text = colon + 1;
	}
	if (n + nrest > AP_MAX_PARTS) {
		diag_error(&p->diag, ap->span, E_BAD_ATTACH_POINT,
			   "the attach point has more than %d parts", AP_MAX_PARTS);
		return -1;
	}
	for (uint32_t k = 0; k < nrest; k++)
		ap->parts[n++] = rest[k];
	ap->nparts = n;
	return 0;
}

/*
 * "$N" in an attach point takes the positional parameter's text, as a
 * whole part (`uprobe:$1:main`) or inside one (`BEG$1`), or as several
 * (`$1` given "i:ms:1"), as in bpftrace.
 */
static int substitute_params(struct plan *p, struct attach_point *ap)
{
	for (uint32_t i = 0; i < ap->nparts; i++) {
		const char *part = ap->parts[i];
		struct strbuf sb = { 0 };
		bool changed = false, colon = false;

		for (const char *c = part; *c;) {
			char *end;
			if (c[0] != '$' || c[1] < '0' || c[1] > '9') {
				sb_putc(&sb, *c++);
				continue;
			}
			unsigned long n = strtoul(c + 1, &end, 10);
			const char *text = n <= UINT32_MAX ? plan_param(p, (uint32_t)n) : NULL;
			if (!text) {
				diag_error(&p->diag, ap->span, E_POSITIONAL,
					   "positional parameter $%lu is not given", n);
				diag_hint(&p->diag, "give it after the script: lantern -e '...' ARG1 ...");
				sb_free(&sb);
				return -1;
			}
			sb_puts(&sb, text);
			colon |= strchr(text, ':') != NULL;
			c = end;
			changed = true;
		}
		if (changed)
			ap->parts[i] = arena_strdup(&p->arena, sb_str(&sb));
		sb_free(&sb);
		if (colon && split_part(p, ap, i) < 0)
			return -1;
	}
	return 0;
}

static void list_types(const struct provider *const *provs, struct strbuf *sb)
{
	for (int i = 0; i < PROV_COUNT_; i++)
		sb_printf(sb, "%s%s", i ? ", " : "", provs[i]->name);
}

void sema_modern_names(struct plan *p)
{
	if (!p->modern)
		return;
	/* today's bpftrace's `probe` of begin and end is in lowercase */
	vec_foreach(&p->insts, ip)
	{
		struct probe_inst *in = *ip;
		if (in->prov->id != PROV_BEGIN && in->prov->id != PROV_END)
			continue;
		in->name = in->prov->id == PROV_BEGIN ? "begin" : "end";
		p->probe_names.data[in->probe_id] = in->name;
	}
}

/*
 * missing_probes = warn or ignore (today's bpftrace): an attach point its
 * provider cannot expand (a tracepoint, function or file that is not
 * there) is left out; its errors, since mark, become a warning or nothing.
 */
static void missing_probe(struct plan *p, struct attach_point *ap, int errors, size_t mark)
{
	uint64_t how = p->settings.v[SET_MISSING_PROBES];
	struct diag *d = &p->diag;
	char first[256];

	if (how == MISSING_ERROR || d->errors == errors)
		return;
	/* the first line of what it said, without its place */
	const char *msg = sb_str(&d->out) + mark, *e = strstr(msg, "ERROR: ");
	msg = e ? e + 7 : msg;
	int len = (int)strcspn(msg, "\n");
	if (len > 7 && msg[len - 7] == ' ' && msg[len - 6] == '[' && msg[len - 5] == 'E')
		len -= 7; /* its code " [E203]": the warning has its own */
	snprintf(first, sizeof(first), "%.*s", len, msg);
	d->out.len = mark;
	if (d->out.s)
		d->out.s[mark] = 0;
	d->errors = errors;
	if (how == MISSING_WARN && !strncmp(first, "No matches for ", 15))
		diag_warn(d, ap->span, E_ATTACH, "%s Skipping.", first); /* bpftrace's */
	else if (how == MISSING_WARN)
		diag_warn(d, ap->span, E_ATTACH, "%s: left out (missing_probes = warn)", first);
}

int sema_expand(struct plan *p, const struct provider *const *provs)
{
	for (uint32_t i = 0; i < p->ast->nprobes; i++) {
		struct probe *pr = p->ast->probes[i];
		for (uint32_t k = 0; k < pr->naps; k++) {
			struct attach_point *ap = pr->aps[k];
			const struct provider *prov;
			if (substitute_params(p, ap) < 0)
				continue;
			prov = plan_provider_find(provs, ap->parts[0]);
			if (!prov && (prov = plan_provider_find_nocase(provs, ap->parts[0])))
				ast_note_modern(p->ast, ap->span,
						prov->id == PROV_BEGIN || prov->id == PROV_END
							? "a lowercase begin or end probe"
							: "a probe type in another case");
			if (!prov) {
				struct strbuf sb = { 0 };
				diag_error(&p->diag, ap->span, E_UNKNOWN_PROBE_TYPE,
					   "unknown probe type '%s'", ap->parts[0]);
				list_types(provs, &sb);
				diag_hint(&p->diag, "probe types are %s", sb_str(&sb));
				sb_free(&sb);
				continue;
			}
			if (!prov->expand) {
				diag_error(&p->diag, ap->span, E_UNSUPPORTED,
					   "%s probes are not supported by lantern yet", prov->name);
				diag_hint(&p->diag,
					  "probe types that work: tracepoint, rawtracepoint, kprobe, kretprobe, kfunc, kretfunc, uprobe, uretprobe, usdt, profile, interval, software, hardware, BEGIN, END");
				continue;
			}
			int errors = p->diag.errors;
			size_t mark = p->diag.out.len;
			prov->expand(p, prov, pr, ap);
			missing_probe(p, ap, errors, mark);
		}
		for (int k = 0; k < PROV_COUNT_; k++)
			if (provs[k] && provs[k]->expand_end)
				provs[k]->expand_end(p, provs[k], pr);
	}
	if (!p->diag.errors && !p->insts.len) {
		diag_error(&p->diag, SPAN_NONE, E_NO_PROBES, "the script has no probes");
		return -1;
	}
	return p->diag.errors ? -1 : 0;
}
