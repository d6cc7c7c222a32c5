/* SPDX-License-Identifier: MIT */
/*
 * The language's builtin variables (pid, comm, args, ...) and functions
 * (printf, count, ...): their ids and the shape of their table entries.
 * The tables themselves are in sema/builtins.c, one entry per builtin with
 * the hook that types it (sema) and the hook that generates its code
 * (codegen); sema resolves a name to its entry once (e->id, e->fn).
 */
#ifndef LANTERN_AST_BUILTIN_H
#define LANTERN_AST_BUILTIN_H

#include <stdint.h>

#include "types/type.h"

struct check;
struct gen;
struct val;
struct expr;

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
	FN_UPTR,
	FN_KPTR,
	FN_BUF,
	FN_BSWAP,
	FN_STRNCMP,
	FN_STRCONTAINS,
	FN_STRERROR,
	FN_NTOP,
	FN_PTON,
	FN_MACADDR,
	FN_CGROUP_PATH,
	FN_DEBUGF,
	FN_SIGNAL,
	FN_OVERRIDE,
	FN_PATH,
	FN_CGROUPID,
	FN_COUNT_
};

enum func_kind {
	FK_VOID,  /* a statement: printf, exit, delete, ... */
	FK_VALUE, /* an expression: str */
	FK_AGG,	  /* only as `@map[...] = f(...)`: count, hist, ... */
};

typedef struct val (*gen_fn)(struct gen *g, struct expr *e);

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

#endif
