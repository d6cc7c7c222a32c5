/* SPDX-License-Identifier: MIT */
/*
 * The checks of today's bpftrace's builtins and functions (its
 * docs/stdlib.md), one file per area: the task and the clock
 * (check_stdlib.c), maps (check_stdlib_map.c), strings and memory
 * (check_strings.c). Their rows are in ast/builtin.def, their code in
 * codegen/gen_stdlib*.c.
 */
#ifndef LANTERN_SEMA_CHECK_STDLIB_H
#define LANTERN_SEMA_CHECK_STDLIB_H

#include "sema/check.h"

/* the task and the clock (check_stdlib.c) */
struct type *sema_check_task_alias(struct check *c, struct expr *e); /* ppid, pcomm, leader_* */
struct type *sema_check_usermode(struct check *c, struct expr *e);
struct type *sema_check_probetype(struct check *c, struct expr *e);
struct type *sema_check_nsecs(struct check *c, struct expr *e);
struct type *sema_check_pid_ns(struct check *c, struct expr *e); /* pid(ns), tid(ns) */

/* maps (check_stdlib_map.c) */
struct type *sema_check_has_key(struct check *c, struct expr *e);
struct type *sema_check_find(struct check *c, struct expr *e);
struct type *sema_check_len(struct check *c, struct expr *e);

/* the script itself (check_stdlib_diag.c) */
struct type *sema_check_is_type(struct check *c, struct expr *e); /* is_array, is_integer, ... */
struct type *sema_check_assert_str(struct check *c, struct expr *e);
struct type *sema_check_kfunc(struct check *c, struct expr *e); /* kfunc_exist, kfunc_allowed */
struct type *sema_check_static_assert(struct check *c, struct expr *e);
struct type *sema_check_fail(struct check *c, struct expr *e);
struct type *sema_check_assert(struct check *c, struct expr *e);
struct type *sema_check_errorf(struct check *c, struct expr *e); /* errorf, warnf */
/* strings and memory (check_strings.c) */
struct type *sema_check_strlen(struct check *c, struct expr *e); /* strlen, strcap */
struct type *sema_check_strstr(struct check *c, struct expr *e); /* strstr, strcontains */
struct type *sema_check_memcmp(struct check *c, struct expr *e);
struct type *sema_check_is_err(struct check *c, struct expr *e);
/* == and != of tuples, records, arrays and buffers (check_compare.c) */
bool sema_comparable(const struct type *a, const struct type *b);
/* typeinfo(expr): a record of what the type is (check_typeinfo.c) */
struct type *sema_check_typeinfo(struct check *c, struct expr *e);
/* getopt(name [, default [, description]]) (check_getopt.c) */
struct type *sema_check_getopt(struct check *c, struct expr *e);
/* The value of a call answered when compiling (is_integer(), ...): false if e is none. */
bool sema_const_answer(const struct expr *e, int64_t *v);

#endif
