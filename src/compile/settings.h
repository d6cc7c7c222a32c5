/* SPDX-License-Identifier: MIT */
/*
 * A script's settings (string size, map keys, ...): where the script's
 * own (today's bpftrace's `config = { max_strlen = 128; }`), the
 * environment (BPFTRACE_MAX_STRLEN, 0.17's BPFTRACE_STRLEN, and LANTERN_*
 * for each) and their defaults meet. Precedence, as bpftrace's: the
 * environment over the script, the script over the default; LANTERN_*
 * over BPFTRACE_*. No command-line option sets one of them (bpftrace has
 * none either).
 */
#ifndef LANTERN_COMPILE_SETTINGS_H
#define LANTERN_COMPILE_SETTINGS_H

#include <stddef.h>

#include "plan/plan.h"

/* One `name = value` of a script's config block */
struct setting_item {
	const char *name;
	const char *value;
	struct span span;
};

/*
 * Resolve every setting into p (p->settings) from the script's items (n of
 * them), the environment and the defaults. 0, or -1 with errors in p->diag
 * (an unknown name, a value out of range: the variable or the item named).
 */
int compile_settings(struct plan *p, const struct setting_item *script, size_t n);

#endif
