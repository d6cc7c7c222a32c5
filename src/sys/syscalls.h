/* SPDX-License-Identifier: MIT */
/*
 * System call numbers, for serving many syscalls:sys_enter_X / sys_exit_X
 * tracepoints with one program on raw_syscalls:sys_enter / sys_exit that
 * filters on the number (see tracepoint.c).
 *
 * Names are those of the tracepoints, which carry the kernel's
 * SYSCALL_DEFINE name: "newstat" for stat(2), "umount" for umount2(2).
 * Only x86_64 has a table; elsewhere every lookup fails and each syscall
 * tracepoint gets its own program. Registers: sys/arch.h.
 */
#ifndef LANTERN_SYS_SYSCALLS_H
#define LANTERN_SYS_SYSCALLS_H

#include <stdint.h>

/* Numbers are below this (the size of the number -> probe map). */
#define SYSCALL_NR_LIMIT 512

/* The number of the syscall whose tracepoints are sys_enter_NAME, or -1. */
int syscall_number(const char *name);

#endif
