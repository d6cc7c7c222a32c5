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

/*
 * `lantern -l -e PROGRAM`: list the probes of each of its attach points,
 * as `lantern -l PATTERN` would (listprog.c); the exit status.
 */
int compile_list_program(const struct compile_opts *opts, bool verbose, pid_t pid, FILE *out);
/* --probe-filter RE: keep the instances whose name matches (and BEGIN, END...). 0 or -1. */
int compile_probe_filter(struct plan *p, const char *re);
/*
 * The script's imports (import.c): the files read, parsed and joined to
 * p->ast. 0, or -1 with the errors in p->diag.
 */
int compile_imports(struct plan *p);

/* Programs for the instances of every probe (programs.c). */
void compile_plan_programs(struct plan *p);

#endif
