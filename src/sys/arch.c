// SPDX-License-Identifier: MIT
/* struct pt_regs layouts (arch/ARCH/include/asm/ptrace.h). */
#include "sys/arch.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
/* r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di orig_ax ip cs flags sp ss */
static const struct arch_regs regs = {
	.name = "x86_64",
	.arg = { 112, 104, 96, 88, 72, 64 }, /* di si dx cx r8 r9 */
	.sysarg = { 112, 104, 96, 56, 72, 64 }, /* di si dx r10 r8 r9 */
	.ret = 80,			      /* ax */
	.ip = 128,
	.sp = 152,
	.sys_nr = 120, /* orig_ax */
	.cs = 136,
	.cs32 = 0x23, /* __USER32_CS */
};
#elif defined(__aarch64__)
/* regs[31] sp pc pstate orig_x0 syscallno */
static const struct arch_regs regs = {
	.name = "aarch64",
	.arg = { 0, 8, 16, 24, 32, 40 }, /* x0 .. x5 */
	.sysarg = { 264, 8, 16, 24, 32, 40 }, /* orig_x0, x1 .. x5 */
	.ret = 0,
	.ip = 256,
	.sp = 248,
	.sys_nr = -1,
	.cs = -1,
};
#endif

#if defined(__x86_64__)
/* every name of each register: 64, 32, 16 and 8 bits */
static const struct {
	const char *names[4];
	int16_t off;
} reg_names[] = {
	{ { "rax", "eax", "ax", "al" }, 80 },	  { { "rbx", "ebx", "bx", "bl" }, 40 },
	{ { "rcx", "ecx", "cx", "cl" }, 88 },	  { { "rdx", "edx", "dx", "dl" }, 96 },
	{ { "rsi", "esi", "si", "sil" }, 104 },	  { { "rdi", "edi", "di", "dil" }, 112 },
	{ { "rbp", "ebp", "bp", "bpl" }, 32 },	  { { "rsp", "esp", "sp", "spl" }, 152 },
	{ { "r8", "r8d", "r8w", "r8b" }, 72 },	  { { "r9", "r9d", "r9w", "r9b" }, 64 },
	{ { "r10", "r10d", "r10w", "r10b" }, 56 }, { { "r11", "r11d", "r11w", "r11b" }, 48 },
	{ { "r12", "r12d", "r12w", "r12b" }, 24 }, { { "r13", "r13d", "r13w", "r13b" }, 16 },
	{ { "r14", "r14d", "r14w", "r14b" }, 8 },  { { "r15", "r15d", "r15w", "r15b" }, 0 },
	{ { "rip", "ip", NULL, NULL }, 128 },
};

int sys_arch_reg_offset(const char *name)
{
	for (size_t i = 0; i < sizeof(reg_names) / sizeof(reg_names[0]); i++)
		for (int k = 0; k < 4; k++)
			if (reg_names[i].names[k] && !strcmp(reg_names[i].names[k], name))
				return reg_names[i].off;
	return -1;
}
#elif defined(__aarch64__)
int sys_arch_reg_offset(const char *name)
{
	char *end;
	long n;

	if (!strcmp(name, "sp"))
		return 248;
	if ((name[0] != 'x' && name[0] != 'w') || !name[1])
		return -1;
	n = strtol(name + 1, &end, 10);
	return *end || n < 0 || n > 30 ? -1 : (int)n * 8;
}
#else
int sys_arch_reg_offset(const char *name)
{
	(void)name;
	return -1;
}
#endif

const struct arch_regs *sys_arch_regs(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	return &regs;
#else
	return NULL;
#endif
}

int sys_arch_perf_arg_reg(unsigned n)
{
#if defined(__x86_64__)
	/* rdi, rsi, rdx, rcx, r8, r9 (PERF_REG_X86_DI ...) */
	static const int8_t perf_regs[ARCH_MAX_ARGS] = { 5, 4, 3, 2, 16, 17 };
#elif defined(__aarch64__)
	/* x0 .. x5 (PERF_REG_ARM64_X0 ...) */
	static const int8_t perf_regs[ARCH_MAX_ARGS] = { 0, 1, 2, 3, 4, 5 };
#else
	static const int8_t perf_regs[ARCH_MAX_ARGS] = { -1, -1, -1, -1, -1, -1 };
#endif
	return n < ARCH_MAX_ARGS ? perf_regs[n] : -1;
}
