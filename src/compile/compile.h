/* SPDX-License-Identifier: MIT */
/*
 * compile(): a script to a plan (plan/plan.h), touching no BPF object:
 *
 *   text -> parse -> expand attach points (providers) -> plan programs
 *        -> type each program's code -> plan maps -> generate IR
 *        -> allocate registers -> assemble
 *
 * Reading tracefs format files, ELF files and kallsyms is fine; creating
 * maps, loading and attaching are the session's. The command line, the
 * unit tests and the fuzzer all compile through here.
 */
#ifndef LANTERN_COMPILE_COMPILE_H
#define LANTERN_COMPILE_COMPILE_H

#include "base/strbuf.h"
#include "plan/plan.h"

/*
 * Compile opts->script into p (plan_init'ed here; plan_free() it in every
 * case). With opts->dump, stop after the last stage asked for and append
 * each asked-for stage to dump (-d ast, types, ir, bpf) as it is done.
 * 0, or -1 with the errors in p->diag.
 */
int compile(struct plan *p, const struct compile_opts *opts, struct strbuf *dump);

/* Programs for the instances of every probe (programs.c). */
void compile_plan_programs(struct plan *p);

#endif
