// SPDX-License-Identifier: MIT
/*
 * x86-64 instruction lengths (sys/insn.c), against what objdump says of
 * the same bytes: every kind of prefix, map and operand the decoder
 * tells apart, and the instruction boundaries of a small function.
 * (Checked by hand as well against objdump over all of libc, libstdc++,
 * libcrypto and bpftrace: the same boundaries everywhere but in data.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "sys/insn.h"

struct insn {
	const char *what;
	uint8_t len;
	uint8_t b[15];
};

static const struct insn insns[] = {
	{ "ret", 1, { 0xc3 } },
	{ "push %rbp", 1, { 0x55 } },
	{ "mov %rsp,%rbp", 3, { 0x48, 0x89, 0xe5 } },
	{ "endbr64", 4, { 0xf3, 0x0f, 0x1e, 0xfa } },
	{ "cmpb $0x68,(%rdx)", 3, { 0x80, 0x3a, 0x68 } },
	{ "sub $0x18,%rsp", 4, { 0x48, 0x83, 0xec, 0x18 } },
	{ "add $0x1000,%eax", 5, { 0x05, 0x00, 0x10, 0x00, 0x00 } },
	{ "add $0x1000,%ax", 4, { 0x66, 0x05, 0x00, 0x10 } },
	{ "movabs $imm64,%rax", 10, { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 } },
	{ "mov $imm32,%eax", 5, { 0xb8, 1, 2, 3, 4 } },
	{ "mov 0x10(%rip),%rax", 7, { 0x48, 0x8b, 0x05, 0x10, 0, 0, 0 } },
	{ "mov (%rax,%rbx,4),%ecx", 3, { 0x8b, 0x0c, 0x98 } },
	{ "mov 0x8(%rsp),%rdi", 5, { 0x48, 0x8b, 0x7c, 0x24, 0x08 } },
	{ "mov 0x0(,%rax,8),%rdx", 8, { 0x48, 0x8b, 0x14, 0xc5, 0, 0, 0, 0 } },
	{ "mov 0x100(%rbp),%eax", 6, { 0x8b, 0x85, 0x00, 0x01, 0, 0 } },
	{ "movl $1,0x8(%rsp)", 8, { 0xc7, 0x44, 0x24, 0x08, 1, 0, 0, 0 } },
	{ "movw $1,(%rax)", 5, { 0x66, 0xc7, 0x00, 1, 0 } },
	{ "testb $1,(%rdi)", 3, { 0xf6, 0x07, 0x01 } },
	{ "negl (%rdi)", 2, { 0xf7, 0x1f } },
	{ "testl $1,(%rdi)", 6, { 0xf7, 0x07, 1, 0, 0, 0 } },
	{ "movabs 0x1122334455667788,%al", 9, { 0xa0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 } },
	{ "call rel32", 5, { 0xe8, 0, 0, 0, 0 } },
	{ "jne rel8", 2, { 0x75, 0x10 } },
	{ "jne rel32", 6, { 0x0f, 0x85, 0, 0, 0, 0 } },
	{ "enter $0x10,$0", 4, { 0xc8, 0x10, 0x00, 0x00 } },
	{ "ret $8", 3, { 0xc2, 0x08, 0x00 } },
	{ "lock cmpxchg %ecx,(%rdx)", 4, { 0xf0, 0x0f, 0xb1, 0x0a } },
	{ "nopw %cs:0x0(%rax,%rax,1)", 11,
	  { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 } },
	{ "syscall", 2, { 0x0f, 0x05 } },
	{ "shld $3,%eax,%ebx", 4, { 0x0f, 0xa4, 0xc3, 0x03 } },
	{ "pshufd $0x1b,%xmm1,%xmm0", 5, { 0x66, 0x0f, 0x70, 0xc1, 0x1b } },
	{ "pshufb %xmm1,%xmm0 (0F 38)", 5, { 0x66, 0x0f, 0x38, 0x00, 0xc1 } },
	{ "palignr $4,%xmm1,%xmm0 (0F 3A)", 6, { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x04 } },
	{ "vzeroupper", 3, { 0xc5, 0xf8, 0x77 } },
	{ "vmovdqu (%rsi),%ymm0", 4, { 0xc5, 0xfe, 0x6f, 0x06 } },
	{ "vpcmpeqb 0x20(%rdi),%ymm0,%ymm1", 5, { 0xc5, 0xfd, 0x74, 0x4f, 0x20 } },
	{ "vpbroadcastb %xmm0,%ymm0 (VEX 0F38)", 5, { 0xc4, 0xe2, 0x7d, 0x78, 0xc0 } },
	{ "vpalignr $4,%ymm1,%ymm2,%ymm0 (VEX 0F3A)", 6, { 0xc4, 0xe3, 0x6d, 0x0f, 0xc1, 0x04 } },
	{ "vmovdqu64 (%rsi),%zmm16 (EVEX)", 6, { 0x62, 0xe1, 0xfe, 0x48, 0x6f, 0x06 } },
	{ "vmovdqu64 0x40(%rsi),%zmm16 (disp8*N)", 7, { 0x62, 0xe1, 0xfe, 0x48, 0x6f, 0x46, 0x01 } },
	{ "vpternlogd $0x96,%zmm2,%zmm1,%zmm0", 7, { 0x62, 0xf3, 0x75, 0x48, 0x25, 0xc2, 0x96 } },
	{ "vprotd $3,%xmm1,%xmm0 (XOP)", 6, { 0x8f, 0xe8, 0x78, 0xc2, 0xc1, 0x03 } },
	{ "pop (%rax)", 2, { 0x8f, 0x00 } },
	{ "rex.W then data16: one instruction", 5, { 0x48, 0x66, 0x05, 0x00, 0x10 } },
};

static void test_lengths(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(insns) / sizeof(insns[0]); i++) {
		uint8_t buf[32];
		memset(buf, 0xcc, sizeof(buf));
		memcpy(buf, insns[i].b, insns[i].len);
		int len = sys_insn_len_x86_64(buf, sizeof(buf));
		if (len != insns[i].len)
			fail_msg("%s: length %d, expected %d", insns[i].what, len, insns[i].len);
	}
}

static void test_bad(void **state)
{
	(void)state;
	/* not in 64-bit mode, or cut short */
	assert_int_equal(sys_insn_len_x86_64((const uint8_t[]){ 0x06 }, 1), -1);
	assert_int_equal(sys_insn_len_x86_64((const uint8_t[]){ 0x48, 0x8b }, 2), -1);
	assert_int_equal(sys_insn_len_x86_64((const uint8_t[]){ 0xe8, 0, 0 }, 3), -1);
	assert_int_equal(sys_insn_len_x86_64((const uint8_t[]){ 0x66, 0x66 }, 2), -1);
}

static void test_boundaries(void **state)
{
	/* lantern_add of tests/progs/uprobe_target: cmpb; sete; movzbl; add; add; ret */
	static const uint8_t code[] = { 0x80, 0x3a, 0x68, 0x0f, 0x94, 0xc0, 0x0f, 0xb6,
					0xc0, 0x48, 0x01, 0xf7, 0x48, 0x01, 0xf8, 0xc3 };
	size_t before, after;

	(void)state;
#if defined(__x86_64__)
	assert_int_equal(sys_insn_boundary(code, sizeof(code), 0, &before, &after), 1);
	assert_int_equal(sys_insn_boundary(code, sizeof(code), 3, &before, &after), 1);
	assert_int_equal(sys_insn_boundary(code, sizeof(code), 15, &before, &after), 1);
	assert_int_equal(sys_insn_boundary(code, sizeof(code), 1, &before, &after), 0);
	assert_int_equal(before, 0);
	assert_int_equal(after, 3);
	assert_int_equal(sys_insn_boundary(code, sizeof(code), 10, &before, &after), 0);
	assert_int_equal(before, 9);
	assert_int_equal(after, 12);
#else
	(void)code;
	(void)before;
	(void)after;
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_boundaries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
