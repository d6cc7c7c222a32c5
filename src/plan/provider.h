/* SPDX-License-Identifier: MIT */
/*
 * Probe providers: one table entry per probe type (probes/provider.c),
 * each a file in probes/ with its hooks. The compiler and the session call
 * them through this table only; a provider's per-instance data (in->data)
 * and per-program data (pg->data) are its own.
 *
 * Compile time
 *   expand          attach point -> instances (wildcards, files, symbols)
 *   group           the program an instance joins, when the provider has
 *                   its own rule (NULL, or NULL returned: one program per
 *                   probe, or one per instance when the code depends on
 *                   the instance: args, probe, func, arg0..)
 *   builtin_type    the type of the builtins a provider gives meaning to
 *                   (args, arg0.., retval, func) in its instance; NULL when
 *                   it has none (the checker then says where they work)
 *   gen_builtin     their code
 *   gen_args_field  the code of args->FIELD
 *   gen_prologue    code before the predicate (NULL: none)
 *   prog_setup      the BPF program type of a program, and its flags
 *   list            `lantern -l`: print the probes matching a query
 *
 * Run time
 *   load_hint       what to say when the kernel refuses its programs
 *   attach          attach a loaded program to one instance; every kernel
 *                   object it makes goes to the attach context, which the
 *                   session releases on every path out
 */
#ifndef LANTERN_PLAN_PROVIDER_H
#define LANTERN_PLAN_PROVIDER_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "plan/plan.h"

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
	PROV_ASYNCWATCHPOINT,
	PROV_TEST,  /* test:NAME, run by --test */
	PROV_BENCH, /* bench:NAME, run by --bench */
	PROV_SELF,  /* self:signal:SIGUSR1: lantern itself */
	PROV_COUNT_
};

enum provider_flag {
	PROV_F_REGS = 1 << 0, /* the context is the task's registers (reg() works) */
	PROV_F_USER = 1 << 1, /* run by user space, not by a kernel event (BEGIN, END) */
	PROV_F_USER_MEM = 1 << 2, /* in a process: addresses cast to pointers are user memory */
	/* the kernel runs the programs at one place (the provider's site hook) last
	   attached first (uprobes, the software events' per-CPU lists): the session
	   attaches the instances of one site in reverse, so they fire in script order */
	PROV_F_LIFO = 1 << 3,
	/* in no address space (BEGIN, END, interval, profile, software, hardware,
	   watchpoints: bpftrace's AddrSpace::none): addresses cast to pointers are
	   read by bpf_probe_read, user memory or the kernel's by the address */
	PROV_F_ANY_MEM = 1 << 4,
};

/* A kernel attachment to release at teardown (-1: none). */
struct attachment {
	int link_fd, perf_fd;
	bool after_begin; /* perf_fd opened disabled: enabled once BEGIN has run */
	void *map;	  /* perf_fd's ring buffer, unmapped at teardown (NULL: none) */
	size_t map_len;
};

/*
 * A provider's work in the event loop: when fd (one of its attachments)
 * is readable, ready(arg); release(arg) at teardown, after the
 * attachments are closed (it frees arg); unwatch(arg, addr) when a probe
 * calls unwatch(addr) (NULL: the provider watches no addresses).
 */
struct attach_watch {
	int fd;
	void (*ready)(void *arg);
	void (*release)(void *arg);
	void (*unwatch)(void *arg, uint64_t addr);
	void *arg;
};

/* What attach hooks work with: the session's attachments and options. */
struct attach_ctx {
	VEC(struct attachment) list;
	VEC(struct attach_watch) watches;
	pid_t pid;  /* -p: uprobes fire in this process only; 0: every process */
	pid_t cpid; /* the -c child (not running yet when attaching), 0 without */
	/* processes a probe may stop (SIGSTOP): continued again once the attachments are released */
	VEC(pid_t) resume;
};

/* `lantern -l` after the type: "tracepoint:sched:*" has parts "sched", "*". */
struct list_query {
	const char *part[2]; /* NULL when not given */
	const char *whole;   /* no type given: a pattern over whole names (NULL: all) */
	bool verbose;	     /* -lv */
	pid_t pid;	     /* -p: a process's files (uprobe, usdt), 0 without */
};

struct check;
struct gen;
struct val;

struct provider {
	enum provider_id id;
	const char *name;
	const char *alias; /* short form: "t" for tracepoint, ... */
	unsigned flags;	   /* enum provider_flag */
	const char *load_hint; /* said when the kernel refuses to load its programs */

	int (*expand)(struct plan *p, const struct provider *prov, struct probe *pr,
		      struct attach_point *ap);
	/* Optional: every attach point of probe pr was expanded (warnings gathered over them). */
	void (*expand_end)(struct plan *p, const struct provider *prov, struct probe *pr);
	struct prog *(*group)(struct plan *p, struct probe_inst *in);
	struct type *(*builtin_type)(struct check *c, struct expr *e);
	struct val (*gen_builtin)(struct gen *g, struct expr *e);
	struct val (*gen_args_field)(struct gen *g, struct expr *e);
	void (*gen_prologue)(struct gen *g);
	void (*prog_setup)(struct plan *p, struct prog *pg);
	/* how many probes it printed, or -1 after printing why it could not */
	int (*list)(const struct provider *prov, const struct list_query *q, FILE *out);

	int (*attach)(struct attach_ctx *ac, const struct prog *pg, int prog_fd,
		      const struct probe_inst *in, char *err, size_t errlen);
	/* PROV_F_LIFO: the place an instance is attached to; equal for one place */
	uint64_t (*site)(const struct probe_inst *in);
};

/* Where an address a script casts to a pointer points in pv's probes. */
static inline enum mem_space plan_mem_space(const struct provider *pv)
{
	return pv->flags & PROV_F_USER_MEM  ? SPACE_USER
	       : pv->flags & PROV_F_ANY_MEM ? SPACE_ANY
					    : SPACE_KERNEL;
}

/* The provider called name (or its alias) in table (PROV_COUNT_ entries), or NULL. */
const struct provider *plan_provider_find(const struct provider *const *table, const char *name);
/* The same, the case of name's letters aside (today's bpftrace: `begin`, `Tracepoint`). */
const struct provider *plan_provider_find_nocase(const struct provider *const *table,
						 const char *name);

/* What `probetype` says of prov's probes, as bpftrace names it: "special" for begin and end. */
const char *plan_probetype_name(const struct provider *prov);

/* Record an attachment made for the session. */
static inline void attach_add(struct attach_ctx *ac, int link_fd, int perf_fd)
{
	struct attachment a = { link_fd, perf_fd, false, NULL, 0 };
	vec_push(&ac->list, a);
}

/* The session's event loop calls ready(arg) whenever fd is readable. */
static inline void attach_watch_add(struct attach_ctx *ac, int fd, void (*ready)(void *),
				    void (*release)(void *), void *arg)
{
	struct attach_watch w = { fd, ready, release, NULL, arg };
	vec_push(&ac->watches, w);
}

/* At teardown, once the attachments are closed: the watches' release. */
static inline void attach_watches_release(struct attach_ctx *ac)
{
	vec_foreach(&ac->watches, w)
	{
		w->release(w->arg);
	}
	vec_free(&ac->watches);
}

/* The last attachment's perf event waits for attach_start() (interval: from BEGIN on). */
static inline void attach_defer_last(struct attach_ctx *ac)
{
	ac->list.data[ac->list.len - 1].after_begin = true;
}

/* Once BEGIN has run: start the perf events that wait for it. */
static inline void attach_start(struct attach_ctx *ac)
{
	vec_foreach(&ac->list, a)
	{
		if (a->after_begin && a->perf_fd >= 0)
			ioctl(a->perf_fd, PERF_EVENT_IOC_ENABLE, 0);
	}
}

#endif
