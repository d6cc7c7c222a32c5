/* SPDX-License-Identifier: MIT */
/*
 * Semantic analysis: expand attach points into probe instances, resolve
 * names through the builtin and function tables, type every expression,
 * and unify map key and value types across all probes.
 */
#ifndef LANTERN_SEMA_SEMA_H
#define LANTERN_SEMA_SEMA_H

#include "codegen/gen.h"
#include "runtime/session.h"

enum builtin_id {
	BI_PID,
	BI_TID,
	BI_UID,
	BI_GID,
	BI_NSECS,
	BI_ELAPSED,
	BI_CPU,
	BI_COMM,
	BI_PROBE,
	BI_RAND,
	BI_CGROUP,
	BI_ARGS,
	BI_CPID,
	BI_NUMAID,
	BI_JIFFIES,
	BI_CURTASK,
	BI_RETVAL,
	BI_FUNC,
	BI_ARGN, /* arg0, arg1, ... */
	BI_SARGN,
	BI_KSTACK,
	BI_USTACK,
	BI_USERNAME,
	BI_COUNT_
};

enum func_id {
	FN_PRINTF,
	FN_STR,
	FN_EXIT,
	FN_COUNT,
	FN_SUM,
	FN_MIN,
	FN_MAX,
	FN_AVG,
	FN_STATS,
	FN_HIST,
	FN_LHIST,
	FN_DELETE,
	FN_CLEAR,
	FN_ZERO,
	FN_PRINT,
	FN_TIME,
	FN_JOIN,
	FN_KSTACK,
	FN_USTACK,
	FN_KSYM,
	FN_USYM,
	FN_STRFTIME,
	FN_SYSTEM,
	FN_CAT,
	FN_REG,
	FN_KADDR,
	FN_COUNT_
};

enum func_kind {
	FK_VOID,  /* a statement: printf, exit, delete, ... */
	FK_VALUE, /* an expression: str */
	FK_AGG,	  /* only as `@map[...] = f(...)`: count, hist, ... */
};

struct check;

struct builtin_def {
	const char *name;
	enum builtin_id id;
	struct type *type; /* fixed type, or NULL when check computes it */
	struct type *(*check)(struct check *c, struct expr *e);
};

struct func_def {
	const char *name;
	enum func_id id;
	uint8_t min_args, max_args;
	enum func_kind kind;
	enum type_kind agg; /* FK_AGG: the map value kind it makes */
	struct type *(*check)(struct check *c, struct expr *call);
	gen_fn gen;
};

extern const struct builtin_def builtin_defs[BI_COUNT_];
extern const struct func_def func_defs[FN_COUNT_];
const struct builtin_def *builtin_lookup(const char *name);
const struct func_def *func_lookup(const char *name);

/* Attach points -> probe instances (wildcards expanded). 0, or -1 on errors. */
int sema_expand(struct session *s);
/* Type the whole script. 0, or -1 after reporting errors. */
int sema_check(struct session *s);
/* Type one program's probe for its instance again, just before codegen. */
void sema_retype(struct session *s, struct prog_desc *pd);
bool probe_uses_builtin(struct probe *p, enum builtin_id id);
bool probe_calls(struct probe *p, enum func_id id);
/* Whether the probe's code depends on its instance (args, probe). */
bool probe_per_instance(struct probe *p);
/* p writes text for each event: printf(), join(), system(), cat() */
bool probe_prints(struct probe *p);
/* Every use of `args` in p is args->NAME with NAME in names (NULL-ended). */
bool probe_args_only(struct probe *p, const char *const *names);
/* `-d types`: each map with its key and value types. */
void sema_dump_types(struct session *s, struct strbuf *out);

#endif
