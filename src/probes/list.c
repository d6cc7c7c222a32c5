// SPDX-License-Identifier: MIT
/* `lantern -l`: each provider lists its own probes (its list hook). */
#include "probes/list.h"
#include "base/util.h"
#include "probes/probes.h"
#include "sys/tracefs.h"
#include "types/btf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a probe pattern may hold: names, paths, wildcards ([a-z] and [!a-z] too). */
static bool valid_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_-.:/*?[]!+@~", c);
}

/*
 * A wildcard for the type: each provider it matches lists q, but the
 * return probes (uretprobe, kretprobe, kretfunc: the same functions as
 * their entry twins), as bpftrace lists them once.
 */
static int list_types(const char *type, const struct list_query *q, FILE *out)
{
	int rc = 0;

	for (int i = 0; i < PROV_COUNT_; i++) {
		const struct provider *pv = prov_table[i];
		if (!pv->list || !util_wildcard_match(type, pv->name) || strstr(pv->name, "ret"))
			continue;
		/* a path: only the providers of processes' files (uprobe, usdt) look into it;
		   anything else is not theirs */
		bool path = q->part[0] && strchr(q->part[0], '/');
		if (path != !!(pv->flags & PROV_F_USER_MEM))
			continue;
		if (pv->list(pv, q, out) < 0)
			rc = 1;
	}
	return rc;
}

int prov_list_names(const struct provider *prov, const char *const *names,
		    const struct list_query *q, FILE *out)
{
	char name[256], whole[512];
	const char *pattern = q->whole;
	int n = 0;

	if (q->part[0]) {
		/* as the full name: "s:cs*" lists software:context-switches: */
		snprintf(whole, sizeof(whole), "%s:%s%s%s", prov->name, q->part[0],
			 q->part[1] ? ":" : "*", q->part[1] ? q->part[1] : "");
		pattern = whole;
	}
	for (; *names; names++) {
		snprintf(name, sizeof(name), "%s:%s:", prov->name, *names);
		if (pattern && !util_wildcard_match(pattern, name))
			continue;
		fprintf(out, "%s\n", name);
		n++;
	}
	return n;
}

/* One pattern (no ','): its probes; nonzero when a provider could not list. */
static int list_one(const char *pattern, bool verbose, pid_t pid, FILE *out)
{
	struct list_query q = { .verbose = verbose, .pid = pid };
	const struct provider *prov = NULL;
	char *copy = NULL;
	int rc = 0;

	if (pattern && *pattern) {
		/* "TYPE:A:B": TYPE names the provider, B may hold more ':' */
		char *colon;
		copy = util_xstrdup(pattern);
		if ((colon = strchr(copy, ':'))) {
			*colon = 0;
			prov = plan_provider_find(prov_table, copy);
			q.part[0] = colon + 1;
			if ((colon = strchr(q.part[0], ':'))) {
				*colon = 0;
				q.part[1] = colon + 1;
			}
		}
		if (!prov && q.part[0] && util_has_wildcard(copy)) {
			/* "*:FILE:*", "u*:FILE:*": every provider the type matches lists */
			rc = list_types(copy, &q, out);
			free(copy);
			return rc;
		}
		if (!prov)
			q = (struct list_query){ .whole = pattern, .verbose = verbose, .pid = pid };
	}
	if (prov) {
		rc = prov->list && prov->list(prov, &q, out) < 0;
	} else if (pid > 0 && !q.whole) {
		/* `lantern -l -p PID`: the process's functions and USDT probes, as bpftrace */
		rc = prov_table[PROV_UPROBE]->list(prov_table[PROV_UPROBE], &q, out) < 0;
		rc |= prov_table[PROV_USDT]->list(prov_table[PROV_USDT], &q, out) < 0;
	} else {
		/* every provider that lists without a file to look into */
		for (int i = 0; i < PROV_COUNT_; i++)
			if (prov_table[i]->list && prov_table[i]->list(prov_table[i], &q, out) < 0)
				rc = 1;
	}
	free(copy);
	return rc;
}

/* "struct NAME" (union, enum): the kernel's type from BTF, its definition with -lv */
static int list_type(const char *pattern, bool verbose, FILE *out)
{
	char tag[8], name[256];
	struct arena a = { 0 };
	struct btf_src btf;
	struct strbuf sb = { 0 };
	int rc = 0;

	if (sscanf(pattern, " %7s %255s", tag, name) != 2) {
		fprintf(stderr, "ERROR: '%s': a type is listed as struct NAME, union NAME or enum NAME "
				"[E%d]\n", pattern, E_BAD_CHAR);
		return 1;
	}
	types_btf_src_init(&btf, &a);
	if (types_btf_src_describe(&btf, tag, name, &sb)) {
		if (verbose)
			fputs(sb_str(&sb), out);
		else
			fprintf(out, "%s %s\n", tag, name);
	} else {
		fprintf(stderr, "ERROR: %s %s: %s [E%d]\n", tag, name,
			*btf.err ? btf.err : "the kernel's BTF has no such type", E_UNKNOWN_TYPE);
		rc = 1;
	}
	sb_free(&sb);
	types_btf_src_free(&btf);
	arena_free(&a);
	return rc;
}

static bool is_type_pattern(const char *p)
{
	while (*p == ' ')
		p++;
	return !strncmp(p, "struct ", 7) || !strncmp(p, "union ", 6) || !strncmp(p, "enum ", 5);
}

int prov_list(const char *pattern, bool verbose, pid_t pid, FILE *out)
{
	char *copy, *save = NULL;
	int rc = 0;

	if (pattern && (is_type_pattern(pattern) || strstr(pattern, ",struct ") ||
			strstr(pattern, ",union ") || strstr(pattern, ",enum "))) {
		/* 'struct task_struct,struct file' (bpftrace's), kprobes among them too */
		copy = util_xstrdup(pattern);
		for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
			rc |= is_type_pattern(p) ? list_type(p, verbose, out)
						 : prov_list(p, verbose, pid, out);
		free(copy);
		return rc;
	}
	for (const char *c = pattern; c && *c; c++) {
		if (*c != ',' && !valid_char(*c)) {
			fprintf(stderr, "ERROR: invalid character '%c' in the probe pattern '%s' [E%d]\n",
				*c, pattern, E_BAD_CHAR);
			fprintf(stderr, "HINT: patterns are TYPE:NAME..., with * and ? as wildcards, "
					"several separated by ',' (e.g. 't:sched:*,software:*')\n");
			return 1;
		}
	}
	if (!pattern || !strchr(pattern, ',')) {
		rc = list_one(pattern, verbose, pid, out);
	} else {
		/* "kprobe:tcp*,tracepoint:syscalls:*tcp*": each in turn */
		copy = util_xstrdup(pattern);
		for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
			rc |= list_one(p, verbose, pid, out);
		free(copy);
	}
	sys_tracefs_release();
	return rc;
}
