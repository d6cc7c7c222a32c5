/* SPDX-License-Identifier: MIT */
/*
 * The code of today's bpftrace's builtins and functions (docs/stdlib.md),
 * one file per area: the task and the clock (gen_stdlib.c), maps (gen_stdlib_map.c),
 * strings and memory (gen_strings.c). Their checks
 * are sema/check_stdlib*.c.
 */
#ifndef LANTERN_CODEGEN_GEN_STDLIB_H
#define LANTERN_CODEGEN_GEN_STDLIB_H

#include "codegen/gen.h"

/* the task and the clock (gen_stdlib.c) */
struct val gen_ncpus(struct gen *g, struct expr *e);
struct val gen_has_cpid(struct gen *g, struct expr *e);
struct val gen_usermode(struct gen *g, struct expr *e);
struct val gen_probetype(struct gen *g, struct expr *e);
struct val gen_nsecs(struct gen *g, struct expr *e);
struct val gen_pid_ns(struct gen *g, struct expr *e);
/* the task's tgid (or pid) as the initial pid namespace (init) or lantern's numbers it */
int32_t gen_task_id(struct gen *g, bool tgid, bool init);
/*
 * tgid << 32 | pid of the current task as lantern's pid namespace numbers
 * them (the initial namespace's when lantern runs there): what user
 * space finds in its /proc, for stacks and symbols.
 */
int32_t gen_pid_tgid(struct gen *g);

/* maps (gen_stdlib_map.c) */
struct val gen_has_key(struct gen *g, struct expr *e);
struct val gen_find(struct gen *g, struct expr *e);
struct val gen_len(struct gen *g, struct expr *e);

/* the script itself (gen_stdlib_diag.c) */
struct val gen_const_answer(struct gen *g, struct expr *e); /* is_*(), kfunc_exist(), ... */
struct val gen_nothing(struct gen *g, struct expr *e); /* fail, static_assert, assert_str */
struct val gen_assert(struct gen *g, struct expr *e);
struct val gen_getopt(struct gen *g, struct expr *e);

/* strings and memory (gen_strings.c) */
struct val gen_strlen(struct gen *g, struct expr *e);
struct val gen_strcap(struct gen *g, struct expr *e);
struct val gen_strstr(struct gen *g, struct expr *e); /* strstr, strcontains */
struct val gen_memcmp(struct gen *g, struct expr *e);
struct val gen_is_err(struct gen *g, struct expr *e);

/* l == r of values in memory: strings, tuples, records, arrays (gen_compare.c) */
int32_t gen_value_eq(struct gen *g, struct expr *l, struct expr *r);

/* A record of r's kind: its id, then args (nargs of them) laid out as a tuple (gen_call.c) */
void gen_record(struct gen *g, struct record_desc *r, struct expr **args, uint32_t nargs);

#endif
