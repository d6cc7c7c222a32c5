/* SPDX-License-Identifier: MIT */
/*
 * The checks of today's bpftrace's builtins and functions (its
 * docs/stdlib.md), one file per area: the task and the clock
 * (check_stdlib.c). Their rows are in ast/builtin.def, their code in
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

#endif
