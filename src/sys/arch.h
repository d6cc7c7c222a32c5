/* SPDX-License-Identifier: MIT */
/*
 * What differs by architecture for probes: where the kernel's struct
 * pt_regs (the context of kprobe and uprobe programs, and what
 * raw_syscalls hands over) keeps a function's arguments, its return value
 * and the syscall number. Offsets are in bytes.
 */
#ifndef LANTERN_SYS_ARCH_H
#define LANTERN_SYS_ARCH_H

#include <stdint.h>

#define ARCH_MAX_ARGS 6
/* A raw tracepoint's arguments: u64 args[] (the kernel's MAX_BPF_FUNC_ARGS) */
#define RAW_TP_MAX_ARGS 12

struct arch_regs {
	const char *name;
	int16_t arg[ARCH_MAX_ARGS]; /* the first integer arguments of a function */
	int16_t sysarg[ARCH_MAX_ARGS]; /* a system call's arguments */
	int16_t ret;		    /* the return value */
	int16_t ip, sp;
	int16_t sys_nr; /* the syscall number as sys_exit sees it; -1: unknown */
	int16_t cs;	/* code segment (x86): tells 32-bit tasks apart; -1: none */
	uint16_t cs32;	/* the code segment of a 32-bit task */
};

/* This machine's layout, or NULL for an architecture lantern does not know. */
const struct arch_regs *sys_arch_regs(void);

/*
 * A register named as assembly writes it ("rdi", "edi", "di", "dil" on
 * x86_64; "x0", "w0" on aarch64): its offset in struct pt_regs, or -1.
 */
int sys_arch_reg_offset(const char *name);

/*
 * Argument n's register as perf samples number them (PERF_SAMPLE_REGS_USER,
 * the kernel's perf_regs.h), or -1.
 */
int sys_arch_perf_arg_reg(unsigned n);

#endif
