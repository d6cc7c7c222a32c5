// SPDX-License-Identifier: MIT
/* struct pt_regs layouts (arch/ARCH/include/asm/ptrace.h). */
#include "probes/arch.h"

#include <stddef.h>

#if defined(__x86_64__)
/* r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di orig_ax ip cs flags sp ss */
static const struct arch_regs regs = {
	.name = "x86_64",
	.arg = { 112, 104, 96, 88, 72, 64 }, /* di si dx cx r8 r9 */
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
	.ret = 0,
	.ip = 256,
	.sp = 248,
	.sys_nr = -1,
	.cs = -1,
};
#endif

const struct arch_regs *arch_regs(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	return &regs;
#else
	return NULL;
#endif
}
