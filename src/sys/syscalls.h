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
int sys_syscall_number(const char *name);
/*
 * The name strace prints for syscall nr ("stat", "umount2": the kernel's
 * syscall table, where tracepoints say "newstat", "umount"); NULL when this
 * architecture has no syscall of that number.
 */
const char *sys_syscall_name(int nr);
/* The name of syscall nr as its tracepoints spell it ("newstat"), or NULL. */
const char *sys_syscall_tp_name(int nr);

#endif
