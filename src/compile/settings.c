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

enum setting_kind { SK_NUM, SK_BOOL, SK_CHOICE, SK_STR };

static const char *const stack_modes[] = { "bpftrace", "perf", "raw", "build_id", NULL };
static const char *const missing[] = { "error", "warn", "ignore", NULL };
static const char *const unwinds[] = { "auto", "fp", "dwarf", NULL };

/*
 * One row per setting: its config name (bpftrace 0.26's), its environment
 * names after BPFTRACE_ / LANTERN_ (0.26's and 0.17's), its kind, its
 * defaults (bpftrace 0.17's, today's) and bounds or choices.
 */
static const struct setting_def {
	enum setting_id id;
	const char *name;
	const char *env[2];
	enum setting_kind kind;
	uint64_t def, def_modern, lo, hi;
	const char *const *choices; /* SK_CHOICE */
	const char *sdef, *sdef_modern; /* SK_STR */
	const char *what, *unit;
	const char *const *names; /* a value by name: names[value] (NULL-ended), else a number */
} defs[SET_COUNT_] = {
	{ SET_MAX_STRLEN, "max_strlen", { "MAX_STRLEN", "STRLEN" }, SK_NUM, STRLEN_DEFAULT,
	  STRLEN_MODERN, 2, STRLEN_MAX, NULL, NULL, NULL, "a string size is", "bytes" },
	{ SET_MAX_MAP_KEYS, "max_map_keys", { "MAX_MAP_KEYS", "MAP_KEYS_MAX" }, SK_NUM,
	  MAP_KEYS_DEFAULT, MAP_KEYS_DEFAULT, 1, MAP_KEYS_LIMIT, NULL, NULL, NULL, "a map holds",
	  "keys" },
	{ SET_MAX_CAT_BYTES, "max_cat_bytes", { "MAX_CAT_BYTES", "CAT_BYTES_MAX" }, SK_NUM, 10240,
	  10240, 0, UINT32_MAX, NULL, NULL, NULL, "cat() prints", "bytes" },
	{ SET_LOG_SIZE, "log_size", { "LOG_SIZE", NULL }, SK_NUM, 4u << 20, 4u << 20, 1,
	  (1u << 30) - 1, NULL, NULL, NULL, "the verifier's log holds", "bytes" },
	{ SET_MAX_PROBES, "max_probes", { "MAX_PROBES", NULL }, SK_NUM, 512, 1024, 1, UINT32_MAX,
	  NULL, NULL, NULL, "a script attaches", "probes" },
	{ SET_PRINT_MAPS_ON_EXIT, "print_maps_on_exit", { "PRINT_MAPS_ON_EXIT", NULL }, SK_BOOL, 1,
	  1, 0, 1, NULL, NULL, NULL, NULL, NULL },
	{ SET_CPP_DEMANGLE, "cpp_demangle", { "CPP_DEMANGLE", NULL }, SK_BOOL, 1, 1, 0, 1, NULL,
	  NULL, NULL, NULL, NULL },
	{ SET_STACK_MODE, "stack_mode", { "STACK_MODE", NULL }, SK_CHOICE, STACK_MODE_BPFTRACE,
	  STACK_MODE_BPFTRACE, 0, 0, stack_modes, NULL, NULL, NULL, NULL },
	{ SET_MISSING_PROBES, "missing_probes", { "MISSING_PROBES", NULL }, SK_CHOICE,
	  MISSING_ERROR, MISSING_ERROR, 0, 0, missing, NULL, NULL, NULL, NULL },
	{ SET_STR_TRUNC_TRAILER, "str_trunc_trailer", { "STR_TRUNC_TRAILER", NULL }, SK_STR, 0, 0,
	  0, 0, NULL, "", "..", NULL, NULL },
	{ SET_USTACK_UNWIND, "ustack_unwind", { "USTACK_UNWIND", NULL }, SK_CHOICE, UNWIND_AUTO,
	  UNWIND_AUTO, 0, 0, unwinds, NULL, NULL, NULL, NULL },
	{ SET_USTACK_SNAPSHOT, "ustack_snapshot", { "USTACK_SNAPSHOT", NULL }, SK_NUM,
	  USTACK_SNAPSHOT_DEFAULT, USTACK_SNAPSHOT_DEFAULT, 512, USTACK_SNAPSHOT_MAX, NULL, NULL, NULL,
	  "a user stack's snapshot is", "bytes" },
	{ SET_SHOW_DEBUG_INFO, "show_debug_info", { "SHOW_DEBUG_INFO", NULL }, SK_BOOL, 0, 1, 0, 1,
	  NULL, NULL, NULL, NULL, NULL },
};
_Static_assert(sizeof(defs) / sizeof(defs[0]) == SET_COUNT_, "a row per setting");

/* bpftrace's config variables that mean nothing to lantern: accepted, with a warning why */
static const struct {
	const char *name, *why;
} no_effect[] = {
	{ "cache_user_symbols", "lantern reads a process's symbols while it runs" },
	{ "lazy_symbolication", "lantern symbolizes stacks when it prints them" },
	{ "license", "lantern's programs are GPL" },
	{ "max_bpf_progs", "lantern makes one program per probe instance at most" },
	{ "on_stack_limit", "lantern keeps every value bigger than 8 bytes in scratch memory" },
	{ "perf_rb_pages", "lantern sizes its ring buffer by what the probes print" },
	{ "use_blazesym", "lantern symbolizes with its own ELF and DWARF readers" },
	{ "unstable_import_statement", "imports are always there" },
	{ "unstable_tseries", "tseries() is always there" },
	{ "unstable_typeinfo", "typeinfo() is always there" },
	{ "unstable_dw_ustack", "dw_ustack() is always there: lantern unwinds user stacks with DWARF" },
	{ "unstable_map_decl", "map declarations are stable" },
	{ "unstable_macro", "macros are always there" },
};

/* names of the environment only, in bpftrace */
static const char *const env_only[] = { "btf", "kernel_build", "kernel_source", "vmlinux" };

/* "max_strlen", "MAX_STRLEN" and "BPFTRACE_MAX_STRLEN" name the same (bpftrace's rule) */
static const char *base_name(const char *name)
{
	return strncasecmp(name, "BPFTRACE_", 9) ? name : name + 9;
}

static const struct setting_def *def_named(const char *name)
{
	name = base_name(name);
	for (size_t i = 0; i < SET_COUNT_; i++) {
		if (!strcasecmp(name, defs[i].name))
			return &defs[i];
		for (int k = 0; k < 2; k++)
			if (defs[i].env[k] && !strcasecmp(name, defs[i].env[k]))
				return &defs[i];
	}
	return NULL;
}

/* text as d's value into p's settings; false when it is not one */
static bool parse_value(struct plan *p, const char *text, const struct setting_def *d)
{
	char *end;
	unsigned long long n;

	switch (d->kind) {
	case SK_STR:
		p->settings.str[d->id] = text;
		return true;
	case SK_BOOL:
		if (!strcasecmp(text, "true") || !strcmp(text, "1"))
			p->settings.v[d->id] = 1;
		else if (!strcasecmp(text, "false") || !strcmp(text, "0"))
			p->settings.v[d->id] = 0;
		else
			return false;
		return true;
	case SK_CHOICE:
		for (size_t i = 0; d->choices[i]; i++)
			if (!strcasecmp(text, d->choices[i])) {
				p->settings.v[d->id] = i;
				return true;
			}
		return false;
	case SK_NUM:
		errno = 0;
		n = strtoull(text, &end, 0);
		if (errno || *end || end == text || *text == '-' || n < d->lo || n > d->hi)
			return false;
		p->settings.v[d->id] = n;
		return true;
	}
	return false;
}

/* "max_strlen = X: a string size is 2 to 8192 bytes", "stack_mode: bpftrace, perf, ..." */
static void value_error(struct plan *p, struct span sp, const char *who, const char *sep,
			const char *text, const struct setting_def *d)
{
	struct strbuf sb = { 0 };

	switch (d->kind) {
	case SK_NUM:
		sb_printf(&sb, "%s %llu to %llu %s", d->what, (unsigned long long)d->lo,
			  (unsigned long long)d->hi, d->unit);
		break;
	case SK_BOOL:
		sb_puts(&sb, "it is true or false (1 or 0)");
		break;
	default:
		sb_puts(&sb, "it is one of");
		for (size_t i = 0; d->choices[i]; i++)
			sb_printf(&sb, "%s %s", i ? "," : "", d->choices[i]);
	}
	diag_error(&p->diag, sp, E_TOO_BIG, "%s%s%s: %s", who, sep, text, sb_str(&sb));
	sb_free(&sb);
}

/* The nearest known name, for a hint */
static const char *suggest(const char *name)
{
	const char *best = NULL;
	unsigned bestd = 4;

	name = base_name(name);
	for (size_t i = 0; i < SET_COUNT_; i++) {
		unsigned d = util_edit_distance(name, defs[i].name, bestd);
		if (d < bestd) {
			bestd = d;
			best = defs[i].name;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(no_effect); i++) {
		unsigned d = util_edit_distance(name, no_effect[i].name, bestd);
		if (d < bestd) {
			bestd = d;
			best = no_effect[i].name;
		}
	}
	return best;
}

/* A name lantern has no setting of: bpftrace's that mean nothing here, or an error */
static int other_name(struct plan *p, const struct setting_item *it)
{
	const char *name = base_name(it->name);
	const char *s;

	/* bpftrace's licenses: another is an error there too */
	static const char *const licenses[] = { "Dual MIT/GPL", "Dual BSD/GPL", "Dual MPL/GPL",
						"GPL and additional rights", "GPL v2", "GPL" };
	if (!strcasecmp(name, "license") && it->value) {
		bool ok = false;
		for (size_t i = 0; i < ARRAY_SIZE(licenses); i++)
			ok |= !strcmp(it->value, licenses[i]);
		if (!ok) {
			diag_error(&p->diag, it->span, E_UNKNOWN_CONFIG,
				   "Invalid value for license. Found: %s. Valid values: Dual MIT/GPL, Dual BSD/GPL, "
				   "Dual MPL/GPL, GPL and additional rights, GPL v2, GPL",
				   it->value);
			return -1;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(no_effect); i++)
		if (!strcasecmp(name, no_effect[i].name)) {
			diag_warn(&p->diag, it->span, E_UNKNOWN_CONFIG,
				  "config variable %s has no effect in lantern", no_effect[i].name);
			diag_hint(&p->diag, "%s", no_effect[i].why);
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(env_only); i++)
		if (!strcasecmp(name, env_only[i])) {
			char var[32];
			size_t k = 0;
			for (const char *c = env_only[i]; *c && k + 1 < sizeof(var); c++)
				var[k++] = (char)toupper((unsigned char)*c);
			var[k] = 0;
			diag_error(&p->diag, it->span, E_UNKNOWN_CONFIG,
				   "%s can only be set in the environment (BPFTRACE_%s)", it->name, var);
			return -1;
		}
	diag_error(&p->diag, it->span, E_UNKNOWN_CONFIG, "unknown config variable '%s'", it->name);
	if ((s = suggest(it->name)))
		diag_hint(&p->diag, "did you mean '%s'?", s);
	else
		diag_hint(&p->diag, "the config variables lantern knows: max_strlen, max_map_keys, "
				    "max_cat_bytes, log_size, max_probes, print_maps_on_exit, "
				    "cpp_demangle, stack_mode, missing_probes, str_trunc_trailer, "
				    "ustack_unwind, ustack_snapshot");
	return -1;
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

static int from_script(struct plan *p, const struct setting_item *it)
{
	const struct setting_def *d = def_named(it->name);

	if (!d)
		return other_name(p, it);
	if (!parse_value(p, it->value, d)) {
		value_error(p, it->span, d->name, " = ", it->value, d);
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
		const struct setting_def *d = &defs[i];
		p->settings.v[d->id] = p->modern ? d->def_modern : d->def;
		p->settings.str[d->id] = p->modern ? d->sdef_modern : d->sdef;
		p->settings.from[d->id] = SETTING_DEFAULT;
	}
	for (size_t i = 0; i < n; i++)
		if (from_script(p, &script[i]) < 0)
			rc = -1;
	for (size_t i = 0; i < SET_COUNT_; i++) {
		const struct setting_def *d = &defs[i];
		const char *e = env_value(d, var, sizeof(var));
		if (!e)
			continue;
		if (!parse_value(p, e, d)) {
			value_error(p, SPAN_NONE, var, "=", e, d);
			rc = -1;
			continue;
		}
		p->settings.from[d->id] = SETTING_ENV;
	}
	if (p->settings.v[SET_STACK_MODE] > STACK_MODE_RAW) {
		diag_warn(&p->diag, SPAN_NONE, E_UNKNOWN_CONFIG,
			  "stack_mode %s is not supported yet: stacks print in bpftrace's format",
			  stack_modes[p->settings.v[SET_STACK_MODE]]);
		p->settings.v[SET_STACK_MODE] = STACK_MODE_BPFTRACE;
	}
	return rc;
}
