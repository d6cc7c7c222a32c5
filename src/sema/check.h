/* SPDX-License-Identifier: MIT */
/*
 * The checking context: sema's files, and the providers' builtin_type
 * hooks, type expressions through it.
 */
#ifndef LANTERN_SEMA_CHECK_H
#define LANTERN_SEMA_CHECK_H

#include "sema/sema.h"

struct check {
	struct plan *p;
	struct prog *prog;	 /* the program being checked */
	struct probe_inst *inst; /* the instance its code is typed for */
	/* the variables in scope, innermost last (0.17: every one of the probe) */
	VEC(struct var_info *) vars;
	VEC(struct var_info *) all; /* every variable of the program */
	bool final;   /* report errors (the last pass) */
	bool changed; /* a map type was learned or widened */
	bool unknown_read; /* a map was read before any assignment typed it */
	bool guess_int;	   /* such reads are integers (`@x = @x + 1`) */
	const struct fn_def *fn; /* the inlined function call being checked, or NULL */
	int unevaluated; /* in sizeof's or typeof's operand: typed, not run */
	int loops;    /* while and for loops around the current statement */
	struct stmt *loop;   /* the innermost for loop around it, NULL: none */
	uint32_t loop_depth; /* for loops around it */
	VEC(uint32_t) warned; /* where an old spelling was reported (once each) */
};

#define CERR(c, sp, code, ...)                                                                     \
	do {                                                                                       \
		if ((c)->final)                                                                    \
			diag_error(&(c)->p->diag, (sp), (code), __VA_ARGS__);                      \
	} while (0)
#define CHINT(c, ...)                                                                              \
	do {                                                                                       \
		if ((c)->final)                                                                    \
			diag_hint(&(c)->p->diag, __VA_ARGS__);                                     \
	} while (0)

struct type *sema_check_expr(struct check *c, struct expr *e);
/* `args` where a value is wanted (today's bpftrace): a struct of the arguments; t for the rest */
struct type *sema_args_value(struct check *c, struct expr *e, struct type *t);
void sema_check_stmt(struct check *c, struct stmt *st); /* check_stmt.c */
/* A block's statements, a scope of their own in today's bpftrace */
void sema_check_block(struct check *c, struct stmt *b);
/* A call as a statement (no value needed) or in a value */
enum call_ctx { IN_STMT, IN_VALUE };
struct type *sema_check_call(struct check *c, struct expr *e, enum call_ctx ctx);
/* A value that is stored (`$x = v`, `@m = v`, a tuple's element): not an aggregation, not void */
struct type *sema_check_value(struct check *c, struct expr *v);
/* Integers and pointers are conditions */
bool sema_is_truthy(const struct type *t);
/* A number, or a constant bpftrace substitutes as one (#define, enum member) */
bool sema_is_literal(const struct expr *e);
/* bpftrace's warnings on integers of mixed signs, and on signed division */
void sema_warn_mixed_signs(struct check *c, enum op op, struct span sp, struct type *a,
			   struct type *b, struct expr *lhs, struct expr *rhs);
void sema_warn_signed_div(struct check *c, enum op op, struct span sp, bool lhs, bool rhs);
/* A condition (if, while, ?:): an integer, a pointer or a bool. */
void sema_check_cond(struct check *c, struct expr *e);

/*
 * Variables and scopes (scope.c). In 0.17 a variable is the probe's from
 * its first assignment on; today's bpftrace scopes them by block (and a
 * for loop's variable by its loop), and `let` declares one.
 */
/* The variable an EXPR_VAR names (its name and expansion), or NULL */
struct var_info *sema_var_find(struct check *c, const struct expr *ve);
/* A new variable in the innermost scope: ve's */
struct var_info *sema_var_new(struct check *c, const struct expr *ve, struct type *t);
/* A string, buffer or tuple variable's type as big as the last pass found v's */
struct type *sema_var_grown(struct check *c, const struct var_info *v, struct type *t);
/* Say that ve is not a variable in scope (with a hint) */
void sema_var_undefined(struct check *c, const struct expr *ve);
/* Scopes: enter gives the mark to leave to (today's bpftrace only forgets). */
static inline uint32_t sema_scope_enter(struct check *c)
{
	return (uint32_t)c->vars.len;
}
void sema_scope_leave(struct check *c, uint32_t mark);
void sema_check_let(struct check *c, struct stmt *st);
void sema_check_for(struct check *c, struct stmt *st);
struct type *sema_check_block_expr(struct check *c, struct expr *e);
/* $x read: its variable (a warning when a `let $x;` was never assigned yet) */
struct type *sema_check_var(struct check *c, struct expr *e);
/*
 * An old spelling bpftrace 0.17 no longer takes (`stack`, `name`,
 * `args->retval`): warn once, naming today's; the caller rewrites e.
 */
void sema_check_old_spelling(struct check *c, struct span sp, const char *old, const char *now);
/* A number e (or -number) within integer type t's range (anything else fits) */
bool sema_literal_fits(const struct expr *e, const struct type *t);
/* e must be an integer (or pointer): reports and returns false otherwise. */
bool sema_check_int(struct check *c, struct expr *e, const char *what);
/* e must be an integer constant; *v receives it. */
bool sema_check_const_int(struct check *c, struct expr *e, int64_t *v, const char *what);
/* "X is not available in Y probes" for builtin e (the caller adds a hint). */
struct type *sema_check_not_here(struct check *c, struct expr *e);

/* comptime e, if comptime (comptime.c); e's value when known compiling (e checked) */
bool sema_const_value(struct check *c, const struct expr *e, int64_t *v);
struct type *sema_check_comptime(struct check *c, struct expr *e);
void sema_check_if_comptime(struct check *c, struct stmt *st);

/* e.field / e->field and e[i]; records (check_access.c) */
struct type *sema_check_field(struct check *c, struct expr *e);
struct type *sema_check_index(struct check *c, struct expr *e);
struct type *sema_check_record(struct check *c, struct expr *e);

/* types, pointers and constants (check_ptr.c) */
struct type *sema_check_typename(struct check *c, const struct ast_typename *tn);
struct type *sema_check_cast(struct check *c, struct expr *e);
struct type *sema_check_sizeof(struct check *c, struct expr *e);
struct type *sema_check_offsetof(struct check *c, struct expr *e);
struct type *sema_check_ident(struct check *c, struct expr *e);
struct type *sema_check_deref(struct check *c, struct expr *e, struct type *t);
/* &$x, &@m (today's bpftrace) */
struct type *sema_check_addr(struct check *c, struct expr *e);
struct type *sema_check_ptr_arith(struct check *c, struct expr *e, struct type *a, struct type *b);
/* The memory e (a field, element or *p) is read from (the kernel's if none of those). */
enum mem_space sema_expr_space(const struct expr *e);
/* t, or a copy of pointer t that points into memory space (an enum mem_space). */
struct type *sema_type_in_space(struct check *c, struct type *t, int space);
/* Where an address the script casts to a pointer points in this probe. */
enum mem_space sema_probe_space(const struct check *c);

/* printf(fmt, ...), system() and cat() (check_printf.c) */
struct type *sema_check_printf(struct check *c, struct expr *e);

/* bytes, strings and addresses (check_func.c) */
struct type *sema_check_buf(struct check *c, struct expr *e);
struct type *sema_check_bswap(struct check *c, struct expr *e);
struct type *sema_check_strncmp(struct check *c, struct expr *e);
struct type *sema_check_int_text(struct check *c, struct expr *e); /* strerror, cgroup_path */
struct type *sema_check_ntop(struct check *c, struct expr *e);
struct type *sema_check_pton(struct check *c, struct expr *e);
struct type *sema_check_macaddr(struct check *c, struct expr *e);
struct type *sema_check_sarg(struct check *c, struct expr *e);
struct type *sema_check_username(struct check *c, struct expr *e);
struct type *sema_check_cgroupid(struct check *c, struct expr *e);
struct type *sema_check_debugf(struct check *c, struct expr *e);
struct type *sema_check_signal(struct check *c, struct expr *e);
struct type *sema_check_write_user(struct check *c, struct expr *e);
struct type *sema_check_kprobe_only(struct check *c, struct expr *e); /* override, path */

struct map_info *sema_map_get(struct check *c, const char *name, struct span sp);
/* `let @m = hash(N);`: declared maps before the checks, and then whether their values fit */
void sema_map_decls(struct plan *p);
int sema_map_decls_check(struct plan *p);
/* Record / verify the key types of a map access. */
void sema_map_learn_keys(struct check *c, struct map_info *m, struct expr *map_expr);
void sema_map_learn_value(struct check *c, struct map_info *m, struct type *t, struct span sp);

#endif
