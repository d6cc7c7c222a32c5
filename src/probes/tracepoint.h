/* SPDX-License-Identifier: MIT */
/* Inside the tracepoint provider: its instance data and its syscall groups. */
#ifndef LANTERN_PROBES_TRACEPOINT_H
#define LANTERN_PROBES_TRACEPOINT_H

#include "probes/probes.h"

struct tp_format;

/* A tracepoint instance (probe_inst.data). */
struct tp_inst {
	const char *cat, *event;
	struct tp_format *fmt; /* its format file, read when `args` is first typed */
	int sysnr;	       /* syscalls:sys_enter_X / sys_exit_X: X's number; else -1 */
};

/* sysgroup.c: many syscall tracepoints of a probe as one raw_syscalls program. */
enum sys_group {
	SYSGROUP_NONE,
	SYSGROUP_ENTER, /* on raw_syscalls:sys_enter */
	SYSGROUP_EXIT,	/* on raw_syscalls:sys_exit */
};

/* A group's program data (prog.data). */
struct sys_group_prog {
	enum sys_group kind;
	int map; /* syscall number -> probe id + 1 (0: not traced) */
};

/* The group program in joins, made on the first of them; NULL: it runs alone. */
struct prog *prov_sysgroup_prog(struct plan *p, struct probe_inst *in);
/* The group program's start: leave unless the syscall is one of its own. */
void prov_sysgroup_prologue(struct gen *g);
/* args->__syscall_nr or args->ret in a group program */
struct val prov_sysgroup_field(struct gen *g, struct expr *e);
/* raw_syscalls:sys_enter or sys_exit: the raw tracepoint a group attaches to */
const char *prov_sysgroup_tracepoint(const struct prog *pg);

#endif
