/* SPDX-License-Identifier: MIT */
/*
 * Inside probes/: the provider table, each provider's entry, and what
 * several providers share (perf event attachment, register builtins,
 * timer units). The interface the compiler and the session use is
 * plan/provider.h.
 */
#ifndef LANTERN_PROBES_PROBES_H
#define LANTERN_PROBES_PROBES_H

#include <linux/perf_event.h>

#include "codegen/gen.h"
#include "plan/provider.h"
#include "sema/check.h"

/* Every provider, by id. */
extern const struct provider *const prov_table[PROV_COUNT_];

extern const struct provider prov_begin, prov_end, prov_tracepoint, prov_interval, prov_profile,
	prov_software, prov_hardware, prov_uprobe, prov_uretprobe, prov_usdt, prov_kprobe,
	prov_kretprobe, prov_rawtracepoint, prov_kfunc, prov_kretfunc, prov_watchpoint,
	prov_asyncwatchpoint, prov_test, prov_bench, prov_self;

/*
 * Open a perf event for process pid (-1: all) on cpu (-1: all) and run
 * the program on it; what names it in errors.
 */
int prov_attach_perf_event_on(struct attach_ctx *ac, int prog_fd, const struct probe_inst *in,
			 struct perf_event_attr *attr, pid_t pid, int cpu, const char *what, char *err,
			 size_t errlen);
/* The same on every online CPU (profile, software, hardware probes). */
int prov_attach_perf_event_cpus(struct attach_ctx *ac, int prog_fd, const struct probe_inst *in,
			   struct perf_event_attr *attr, const char *what, char *err,
			   size_t errlen);

/*
 * arg0.., retval and func of probes on a function whose context is the
 * task's registers (kprobes, uprobes): their type (NULL where the probe
 * has none: retval at a function's entry) and their code. func is the
 * function's name, a string constant of the instance.
 */
struct type *prov_regs_builtin_type(struct check *c, struct expr *e, bool has_retval,
			       const char *func);
struct val prov_regs_gen_builtin(struct gen *g, struct expr *e, const char *func);

/*
 * `args` of a probe whose context is the u64 array of a function's
 * arguments (raw tracepoints, fentry/fexit): the prototype's parameters,
 * each in its 8-byte slot, the first skip of them left out (a raw
 * tracepoint's __data). Parameters passed by value that do not fit a slot
 * (structs) are left out.
 */
struct type *prov_func_args_type(struct plan *p, const char *name, const struct btf_func *f,
			    uint32_t skip);

/*
 * UNIT:N of interval and profile probes (parts 1 and 2 of ap): s, ms, us
 * give *period_ns, hz gives *hz (the other is 0). Errors are reported,
 * naming the probe type and giving an example.
 */
/*
 * -l of a provider whose probes are a fixed list: "KIND:NAME:" for each
 * name (NULL-ended) that q matches, as bpftrace lists them; how many.
 */
int prov_list_names(const struct provider *prov, const char *const *names,
		    const struct list_query *q, FILE *out);
/* -l of profile and interval: their units (perf.c) */
int prov_timer_list(const struct provider *prov, const struct list_query *q, FILE *out);
int prov_parse_timer(struct plan *p, struct attach_point *ap, const char *type, const char *example,
		uint64_t *period_ns, uint64_t *hz);

#endif
