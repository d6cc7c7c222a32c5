/* SPDX-License-Identifier: MIT */
/*
 * Probe providers: one table entry per probe type, with its hooks.
 *
 *   expand     attach point -> instances (wildcards, positional params)
 *   args_type  the type of `args` for an instance (NULL: no args)
 *   prog_type  the BPF program type to load a program as
 *   attach     attach a loaded program to one instance
 *
 * Every attachment goes to session.attachments and is released by the
 * session's teardown. BEGIN and END are run by user space instead.
 */
#ifndef LANTERN_PROBES_PROVIDER_H
#define LANTERN_PROBES_PROVIDER_H

#include <linux/perf_event.h>

#include "runtime/session.h"

enum provider_id {
	PROV_BEGIN,
	PROV_END,
	PROV_TRACEPOINT,
	PROV_INTERVAL,
	PROV_RAWTRACEPOINT,
	PROV_KPROBE,
	PROV_KRETPROBE,
	PROV_UPROBE,
	PROV_URETPROBE,
	PROV_USDT,
	PROV_PROFILE,
	PROV_SOFTWARE,
	PROV_HARDWARE,
	PROV_KFUNC,
	PROV_KRETFUNC,
	PROV_WATCHPOINT,
	PROV_COUNT_
};

struct provider {
	enum provider_id id;
	const char *name;
	const char *alias; /* short form: "t" for tracepoint, ... */
	int (*expand)(struct session *s, struct probe *p, struct attach_point *ap);
	struct type *(*args_type)(struct session *s, struct probe_inst *in, bool report);
	enum bpf_prog_type (*prog_type)(struct session *s, struct prog_desc *pd);
	int (*attach)(struct session *s, struct prog_desc *pd, struct probe_inst *in, char *err,
		      size_t errlen);
};

extern const struct provider *const providers[PROV_COUNT_];
const struct provider *provider_lookup(const char *name);

/* Add an instance of p to the session; name is copied. */
struct probe_inst *inst_add(struct session *s, struct probe *p, struct attach_point *ap,
			    const struct provider *prov, const char *name);

extern const struct provider prov_begin, prov_end, prov_tracepoint, prov_interval, prov_profile,
	prov_software, prov_hardware, prov_uprobe, prov_uretprobe, prov_usdt, prov_kprobe,
	prov_kretprobe, prov_rawtracepoint;

/*
 * A syscalls:sys_enter_X / sys_exit_X instance whose syscall number is
 * known (then in->sysnr is set): which raw_syscalls group could serve it.
 */
enum sys_group tp_sys_group(struct probe_inst *in);

/*
 * List software and/or hardware events ("software:cpu-clock:") matching
 * pattern (a wildcard over the whole name; NULL: all); how many.
 */
int perf_list(const char *pattern, bool software, bool hardware, FILE *out);

/* List FILE's functions matching pattern as TYPE:PATH:NAME; how many, or -1. */
int uprobe_list(const char *type, const char *file, const char *pattern, FILE *out);
/* List FILE's USDT probes (PROVIDER:NAME matching pattern); how many, or -1. */
int usdt_list(const char *file, const char *pattern, FILE *out);

/* perf_event_open(2) */
int perf_event_open_fd(void *attr, pid_t pid, int cpu, int group, unsigned long flags);
/*
 * Open a perf event (pid -1, cpu 0) and attach the program to it with a
 * BPF link (or the ioctl on old kernels); what names it in errors.
 */
int attach_perf_event(struct session *s, struct prog_desc *pd, struct probe_inst *in,
		      struct perf_event_attr *attr, const char *what, char *err, size_t errlen);
/* The same for process pid (-1: all) on cpu (-1: all). */
int attach_perf_event_on(struct session *s, struct prog_desc *pd, struct probe_inst *in,
			 struct perf_event_attr *attr, pid_t pid, int cpu, const char *what, char *err,
			 size_t errlen);
/* The same on every online CPU (profile, software, hardware probes). */
int attach_perf_event_cpus(struct session *s, struct prog_desc *pd, struct probe_inst *in,
			   struct perf_event_attr *attr, const char *what, char *err,
			   size_t errlen);
/*
 * The perf type of a kprobe or uprobe PMU (dir: its directory in
 * /sys/bus/event_source/devices), or -1 when the kernel has none;
 * *retbit: the config bit that makes a return probe (-1: none).
 */
int probe_pmu(const char *dir, int *retbit);
/* The online CPUs' numbers, at most max of them; how many. */
int online_cpus(int *cpus, int max);

/*
 * UNIT:N of interval and profile probes (parts 1 and 2 of ap): s, ms, us
 * give *period_ns, hz gives *hz (the other is 0). Errors are reported,
 * naming the probe type and giving an example.
 */
int parse_timer(struct session *s, struct attach_point *ap, const char *type, const char *example,
		uint64_t *period_ns, uint64_t *hz);

#endif
