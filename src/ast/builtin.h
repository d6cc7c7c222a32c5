/* SPDX-License-Identifier: MIT */
/*
 * The language's builtin variables (pid, comm, args, ...) and functions
 * (printf, count, ...): one row each in builtin.def, with the hook that
 * types it (sema) and the hook that generates its code (codegen). Each
 * layer makes its own table of the rows (sema/builtins.c: the names and
 * checks; codegen/gen_call.c: the generators), so that sema links nothing
 * of codegen; sema resolves a name to its entry once (e->id, e->fn).
 */
#ifndef LANTERN_AST_BUILTIN_H
#define LANTERN_AST_BUILTIN_H

#include <stdint.h>

#include "types/type.h"

struct check;
struct gen;
struct val;
struct expr;

/* BI_PID, ...: one per VAR row of builtin.def */
enum builtin_id {
#define VAR(id, name, type, check) id,
#define FUNC(id, name, min_args, max_args, kind, agg, check, gen)
#include "ast/builtin.def"
#undef VAR
#undef FUNC
	BI_COUNT_
};

/* FN_PRINTF, ...: one per FUNC row */
enum func_id {
#define VAR(id, name, type, check)
#define FUNC(id, name, min_args, max_args, kind, agg, check, gen) id,
#include "ast/builtin.def"
#undef VAR
#undef FUNC
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
};

#endif
