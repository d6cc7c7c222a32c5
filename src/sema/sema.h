/* SPDX-License-Identifier: MIT */
/*
 * Semantic analysis: expand attach points into probe instances (through
 * the providers), resolve names through the builtin and function tables,
 * type each program's code for its instance, and unify map key and value
 * types across all programs.
 */
#ifndef LANTERN_SEMA_SEMA_H
#define LANTERN_SEMA_SEMA_H

#include "ast/builtin.h"
#include "plan/plan.h"
#include "plan/provider.h"

extern const struct builtin_def sema_builtin_defs[BI_COUNT_];
extern const struct func_def sema_func_defs[FN_COUNT_];
const struct builtin_def *sema_builtin_lookup(const char *name);
const struct func_def *sema_func_lookup(const char *name);

/*
 * Macros expanded where they are called (macro.c), then calls of the
 * script's functions inlined (fn.c): before programs are planned. 0, or
 * -1 on errors.
 */
int sema_expand_macros(struct plan *p);
int sema_inline_fns(struct plan *p);
/* A new expansion (a macro's or a call's): its number, expr.hyg of its variables */
uint32_t sema_new_expansion(struct plan *p, const char *what, bool macro);

/* The preamble: #include, #define, #if.., C definitions (preamble.c). 0, or -1 on errors. */
int sema_preamble(struct plan *p);
/*
 * Attach points -> probe instances, through the provider of each (provs:
 * the provider table, by id). 0, or -1 on errors.
 */
int sema_expand(struct plan *p, const struct provider *const *provs);
/* Today's bpftrace's names of instances (`begin`, `end`), once plan.modern is known. */
void sema_modern_names(struct plan *p);
/* Type every program (plan.progs, planned already). 0, or -1 after reporting errors. */
int sema_check(struct plan *p);

bool sema_probe_uses_builtin(struct probe *pr, enum builtin_id id);
bool sema_probe_calls(struct probe *pr, enum func_id id);
/* Whether the probe's code depends on its instance (args, probe, func, arg0..). */
bool sema_probe_per_instance(struct probe *pr);
/* pr writes text for each event: printf(), join(), system(), cat() */
bool sema_probe_prints(struct probe *pr);
/* Every use of `args` in pr is args->NAME with NAME in names (NULL-ended). */
bool sema_probe_args_only(struct probe *pr, const char *const *names);
/* `-d types`: each map with its key and value types. */
void sema_dump_types(struct plan *p, struct strbuf *out);

#endif
