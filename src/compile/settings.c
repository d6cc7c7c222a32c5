// SPDX-License-Identifier: MIT
/* Settings: the script's, the environment's, the defaults (settings.h). */
#include "compile/settings.h"
#include "maps/maps.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * One row per setting: its config name (bpftrace 0.26's), its environment
 * names after BPFTRACE_ / LANTERN_ (0.26's and 0.17's), its default and
 * bounds, and where it goes.
 */
static const struct setting_def {
	enum setting_id id;
	const char *name;
	const char *env[2];
	uint64_t def, lo, hi;
	const char *what, *unit;
	const char *const *names; /* a value by name: names[value] (NULL-ended), else a number */
} defs[SET_COUNT_] = {
	{ SET_MAX_STRLEN, "max_strlen", { "MAX_STRLEN", "STRLEN" }, STRLEN_DEFAULT, 2, STRLEN_MAX,
	  "a string size is", "bytes" },
	{ SET_MAX_MAP_KEYS, "max_map_keys", { "MAX_MAP_KEYS", "MAP_KEYS_MAX" }, MAP_KEYS_DEFAULT, 1,
	  MAP_KEYS_LIMIT, "a map holds", "keys" },
	{ SET_MAX_CAT_BYTES, "max_cat_bytes", { "MAX_CAT_BYTES", "CAT_BYTES_MAX" }, 10240, 0,
	  UINT32_MAX, "cat() prints", "bytes" },
	{ SET_LOG_SIZE, "log_size", { "LOG_SIZE", NULL }, 4u << 20, 1024, (1u << 30) - 1,
	  "the verifier's log holds", "bytes" },
	{ SET_MAX_PROBES, "max_probes", { "MAX_PROBES", NULL }, 512, 1, UINT32_MAX,
	  "a script attaches", "probes" },
	{ SET_USTACK_UNWIND, "ustack_unwind", { "USTACK_UNWIND", NULL }, UNWIND_AUTO, UNWIND_AUTO,
	  UNWIND_DWARF, "user stacks are walked by", "auto, fp or dwarf",
	  (const char *const[]){ "auto", "fp", "dwarf", NULL } },
	{ SET_USTACK_SNAPSHOT, "ustack_snapshot", { "USTACK_SNAPSHOT", NULL }, USTACK_SNAPSHOT_DEFAULT,
	  512, USTACK_SNAPSHOT_MAX, "a user stack's snapshot is", "bytes" },
};
_Static_assert(sizeof(defs) / sizeof(defs[0]) == SET_COUNT_, "a row per setting");

/* "max_strlen", "MAX_STRLEN" and "BPFTRACE_MAX_STRLEN" name the same (bpftrace's rule) */
static const struct setting_def *def_named(const char *name)
{
	if (!strncasecmp(name, "BPFTRACE_", 9))
		name += 9;
	for (size_t i = 0; i < SET_COUNT_; i++) {
		if (!strcasecmp(name, defs[i].name))
			return &defs[i];
		for (int k = 0; k < 2; k++)
			if (defs[i].env[k] && !strcasecmp(name, defs[i].env[k]))
				return &defs[i];
	}
	return NULL;
}

static bool parse_number(const char *text, const struct setting_def *d, uint64_t *out)
{
	char *end;
	unsigned long long n;

	for (size_t i = 0; d->names && d->names[i]; i++)
		if (!strcasecmp(text, d->names[i])) {
			*out = i;
			return true;
		}
	if (d->names)
		return false;
	errno = 0;
	n = strtoull(text, &end, 0);
	if (errno || *end || end == text || *text == '-' || n < d->lo || n > d->hi)
		return false;
	*out = n;
	return true;
}

/* The environment's value of d, if set: LANTERN_x, else BPFTRACE_x, 0.26's name first */
static const char *env_value(const struct setting_def *d, char *var, size_t n)
{
	static const char *const prefixes[] = { "LANTERN_", "BPFTRACE_" };

	for (size_t p = 0; p < 2; p++)
		for (int k = 0; k < 2; k++) {
			if (!d->env[k])
				continue;
			snprintf(var, n, "%s%s", prefixes[p], d->env[k]);
			if (getenv(var))
				return getenv(var);
		}
	return NULL;
}

/* "2 to 8192 bytes", or the names a value may have */
static const char *range_text(const struct setting_def *d, char *buf, size_t n)
{
	if (d->names)
		snprintf(buf, n, "%s", d->unit);
	else
		snprintf(buf, n, "%llu to %llu %s", (unsigned long long)d->lo,
			 (unsigned long long)d->hi, d->unit);
	return buf;
}

static int from_script(struct plan *p, const struct setting_item *it)
{
	const struct setting_def *d = def_named(it->name);

	if (!d) {
		diag_error(&p->diag, it->span, E_UNKNOWN_IDENT, "unknown setting '%s'", it->name);
		diag_hint(&p->diag, "the settings lantern knows: max_strlen, max_map_keys, "
				    "max_cat_bytes, log_size, max_probes, ustack_unwind, ustack_snapshot");
		return -1;
	}
	if (!parse_number(it->value, d, &p->settings.v[d->id])) {
		char r[96];
		diag_error(&p->diag, it->span, E_TOO_BIG, "%s = %s: %s %s", d->name, it->value,
			   d->what, range_text(d, r, sizeof(r)));
		return -1;
	}
	p->settings.from[d->id] = SETTING_SCRIPT;
	return 0;
}

int compile_settings(struct plan *p, const struct setting_item *script, size_t n)
{
	char var[64];
	int rc = 0;

	for (size_t i = 0; i < SET_COUNT_; i++) {
		p->settings.v[defs[i].id] = defs[i].def;
		p->settings.from[defs[i].id] = SETTING_DEFAULT;
	}
	for (size_t i = 0; i < n; i++)
		if (from_script(p, &script[i]) < 0)
			rc = -1;
	for (size_t i = 0; i < SET_COUNT_; i++) {
		const struct setting_def *d = &defs[i];
		const char *e = env_value(d, var, sizeof(var));
		if (!e)
			continue;
		if (!parse_number(e, d, &p->settings.v[d->id])) {
			char r[96];
			diag_error(&p->diag, SPAN_NONE, E_TOO_BIG, "%s=%s: %s %s", var, e, d->what,
				   range_text(d, r, sizeof(r)));
			rc = -1;
			continue;
		}
		p->settings.from[d->id] = SETTING_ENV;
	}
	return rc;
}
