/* SPDX-License-Identifier: MIT */
/*
 * System call numbers, for serving many syscalls:sys_enter_X / sys_exit_X
 * tracepoints with one program on raw_syscalls:sys_enter / sys_exit that
 * filters on the number (see tracepoint.c).
 *
 * Names are those of the tracepoints, which carry the kernel's
 * SYSCALL_DEFINE name: "newstat" for stat(2), "umount" for umount2(2).
 * Only x86_64 has a table; elsewhere every lookup fails and each syscall
 * tracepoint gets its own program, as before.
 */
#ifndef LANTERN_PROBES_SYSCALLS_H
#define LANTERN_PROBES_SYSCALLS_H

#include <stdint.h>

/* Numbers are below this (the size of the number -> probe map). */
#define SYSCALL_NR_LIMIT 512

/* The number of the syscall whose tracepoints are sys_enter_NAME, or -1. */
int syscall_number(const char *name);

/* Where the raw_syscalls programs find things in struct pt_regs. */
struct syscall_regs {
	int16_t nr;    /* the syscall number as sys_exit sees it (orig_ax) */
	int16_t cs;    /* code segment: tells 32-bit (compat) tasks apart */
	uint16_t cs32; /* the cs of a 32-bit task */
};
/* NULL where this architecture has no table. */
const struct syscall_regs *syscall_regs(void);

#endif
