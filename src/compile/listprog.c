// SPDX-License-Identifier: MIT
/*
 * `lantern -l -e PROGRAM` and `lantern -l script.bt`: the probes a program
 * names, listed as `-l PATTERN` lists them (each attach point its own
 * pattern: interval:ms:100 lists as "interval:ms:"), and --probe-filter,
 * which keeps the probe instances whose name matches a regular
 * expression.
 */
#include "compile/compile.h"
#include "parse/parser.h"
#include "probes/list.h"
#include "probes/probes.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

int compile_list_program(const struct compile_opts *opts, bool verbose, pid_t pid, FILE *out)
{
	struct plan p;
	int rc = 0;

	plan_init(&p, opts);
	p.ast = parse_program(&p.arena, &p.src, &p.diag);
	if (!p.ast) {
		diag_flush(&p.diag, stderr);
		plan_free(&p);
		return 1;
	}
	for (uint32_t i = 0; i < p.ast->nprobes; i++) {
		const struct probe *pr = p.ast->probes[i];
		for (uint32_t k = 0; k < pr->naps; k++)
			rc |= prov_list(pr->aps[k]->text, verbose, pid, out);
	}
	plan_free(&p);
	return rc;
}

/* Probes run by lantern itself, which --probe-filter leaves alone */
static bool special(const struct probe_inst *in)
{
	return in->prov->flags & PROV_F_USER;
}

int compile_probe_filter(struct plan *p, const char *re)
{
	regex_t rx;
	char err[256];
	size_t kept = 0, others = 0, matched = 0;
	int e;

	if ((e = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, &rx, err, sizeof(err));
		diag_error(&p->diag, SPAN_NONE, E_BAD_CHAR, "Invalid --probe-filter regex '%s': %s",
			   re, err);
		return -1;
	}
	for (size_t i = 0; i < p->insts.len; i++) {
		struct probe_inst *in = p->insts.data[i];
		if (special(in)) {
			p->insts.data[kept++] = in;
			continue;
		}
		others++;
		if (regexec(&rx, in->name, 0, NULL, 0) == 0) {
			p->insts.data[kept++] = in;
			matched++;
		}
	}
	regfree(&rx);
	if (others && !matched) {
		diag_error(&p->diag, SPAN_NONE, E_NO_PROBES,
			   "No probes to attach: --probe-filter '%s' matches none of the %zu probes",
			   re, others);
		diag_hint(&p->diag, "lantern -l -e 'PROGRAM' lists the probes a program names");
		return -1;
	}
	p->insts.len = kept;
	return 0;
}
