// SPDX-License-Identifier: MIT
#include "probes/list.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "probes/provider.h"
#include "probes/tracefs.h"
#include "types/tpformat.h"

#include <string.h>

struct list_ctx {
	const char *whole; /* pattern over the whole name, or NULL */
	bool verbose;
	FILE *out;
	struct strbuf sb;
	int n;
};

static int list_one(const char *cat, const char *ev, void *arg)
{
	struct list_ctx *l = arg;
	char name[512];

	snprintf(name, sizeof(name), "tracepoint:%s:%s", cat, ev);
	if (l->whole && !wildcard_match(l->whole, name))
		return 0;
	l->n++;
	if (!l->verbose) {
		fprintf(l->out, "%s\n", name);
		return 0;
	}
	struct tp_format f;
	char err[256];
	if (tp_format_load(cat, ev, &f, err, sizeof(err)) < 0) {
		fprintf(l->out, "%s\n", name);
		return 0;
	}
	sb_reset(&l->sb);
	tp_format_describe(&f, &l->sb);
	fputs(sb_str(&l->sb), l->out);
	tp_format_free(&f);
	return 0;
}

int list_probes(const char *pattern, bool verbose, FILE *out)
{
	struct list_ctx l = { .verbose = verbose, .out = out };
	const char *cat = "*", *ev = "*";
	char err[256], *copy = NULL;
	int rc;

	if (!tracefs_path(err, sizeof(err))) {
		fprintf(stderr, "lantern: %s\n", err);
		return 1;
	}
	if (pattern && *pattern) {
		copy = xstrdup(pattern);
		char *parts[3] = { copy, NULL, NULL };
		int n = 1;
		for (char *p = copy; *p && n < 3; p++)
			if (*p == ':') {
				*p = 0;
				parts[n++] = p + 1;
			}
		const struct provider *prov = n > 1 ? provider_lookup(parts[0]) : NULL;
		if (prov && (prov->id == PROV_SOFTWARE || prov->id == PROV_HARDWARE)) {
			/* as the full name: "s:cs*" lists software:context-switches: */
			char whole[512];
			snprintf(whole, sizeof(whole), "%s:%s%s%s", prov->name, parts[1],
				 n > 2 ? ":" : "*", n > 2 ? parts[2] : "");
			perf_list(whole, prov->id == PROV_SOFTWARE, prov->id == PROV_HARDWARE, out);
			free(copy);
			return 0;
		}
		if (prov && prov->id == PROV_USDT && n >= 2) {
			/* usdt:FILE[:PATTERN over PROVIDER:NAME or NAME] */
			int k = usdt_list(parts[1], n == 3 ? parts[2] : NULL, out);
			free(copy);
			return k < 0;
		}
		if (prov && (prov->id == PROV_UPROBE || prov->id == PROV_URETPROBE) && n == 3) {
			int k = uprobe_list(prov->name, parts[1], parts[2], out);
			free(copy);
			return k < 0;
		}
		if (prov && prov->id != PROV_TRACEPOINT) {
			free(copy);
			return 0; /* other probe types cannot be listed yet */
		}
		if (prov && n == 3) {
			cat = parts[1];
			ev = parts[2];
		} else if (prov) {
			cat = parts[1];
		} else {
			l.whole = pattern;
		}
	}
	rc = tracefs_events_match(cat, ev, list_one, &l, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "lantern: %s\n", err);
	else if (!pattern || !*pattern || l.whole) /* not only tracepoints asked for */
		perf_list(l.whole, true, true, out);
	sb_free(&l.sb);
	free(copy);
	tracefs_release();
	return rc < 0;
}
