// SPDX-License-Identifier: MIT
/* USDT argument specifications: sizes, signs, registers, memory, constants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "sys/arch.h"
#include "types/usdt_args.h"

static void test_count(void **state)
{
	(void)state;
	assert_int_equal(types_usdt_arg_count(""), 0);
	assert_int_equal(types_usdt_arg_count("-8@%rbp"), 1);
	assert_int_equal(types_usdt_arg_count("-8@%rbx -4@%edx 8@%r13 1@%bl"), 4);
	assert_int_equal(types_usdt_arg_count("  8@%rdi  8@%rsi "), 2);
}

static void test_forms(void **state)
{
	const char *args = "-4@%edx 8@-80(%rbx) 1@%bl 4@$5 -2@$-3 8@(%rax) %rdi 8@sym(%rip) 8@(%rax,%rbx,8) 3@%rax";
	struct usdt_arg a;
	char err[256];

	(void)state;
#if defined(__x86_64__)
	assert_int_equal(types_usdt_arg(args, 0, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, USDT_ARG_REG);
	assert_int_equal(a.size, 4);
	assert_true(a.is_signed);
	assert_int_equal(a.reg, sys_arch_reg_offset("rdx"));

	assert_int_equal(types_usdt_arg(args, 1, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, USDT_ARG_MEM);
	assert_int_equal(a.size, 8);
	assert_false(a.is_signed);
	assert_int_equal(a.reg, sys_arch_reg_offset("rbx"));
	assert_int_equal(a.val, -80);

	assert_int_equal(types_usdt_arg(args, 2, &a, err, sizeof(err)), 0);
	assert_int_equal(a.reg, sys_arch_reg_offset("rbx"));
	assert_int_equal(a.size, 1);

	assert_int_equal(types_usdt_arg(args, 3, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, USDT_ARG_CONST);
	assert_int_equal(a.val, 5);
	assert_int_equal(types_usdt_arg(args, 4, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, -3);
	assert_true(a.is_signed);
	assert_int_equal(a.size, 2);

	assert_int_equal(types_usdt_arg(args, 5, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, USDT_ARG_MEM);
	assert_int_equal(a.val, 0);

	/* no size: 8 bytes */
	assert_int_equal(types_usdt_arg(args, 6, &a, err, sizeof(err)), 0);
	assert_int_equal(a.size, 8);
	assert_int_equal(a.reg, 112);

	/* not readable yet: %rip-relative, odd sizes; past the end */
	assert_int_equal(types_usdt_arg(args, 7, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'8@sym(%rip)'"));
	/* base + index * scale */
	assert_int_equal(types_usdt_arg(args, 8, &a, err, sizeof(err)), 0);
	assert_int_equal(a.kind, USDT_ARG_MEM);
	assert_int_equal(a.reg, sys_arch_reg_offset("rax"));
	assert_int_equal(a.index, sys_arch_reg_offset("rbx"));
	assert_int_equal(a.scale, 8);
	assert_int_equal(types_usdt_arg(args, 9, &a, err, sizeof(err)), -1);
	assert_int_equal(types_usdt_arg(args, 10, &a, err, sizeof(err)), -1);
	assert_string_equal(err, "it has 10 arguments");

	/* sizes past 8 bytes, LONG_MIN among them (no labs() of it) */
	assert_int_equal(types_usdt_arg("-9223372036854775808@%rdi", 0, &a, err, sizeof(err)), -1);
	assert_int_equal(types_usdt_arg("16@%rdi", 0, &a, err, sizeof(err)), -1);
#endif
}

/* constants keep the operand's size and sign (bpftrace: 4@$-202182160 is 4092785136) */
static void test_constants(void **state)
{
	const char *args = "4@$-202182160 -4@$-202182160 1@$255 -1@$255 8@$-1 2@$0x12345 -88(%rsp,%rax,8) 8@(%rsp,%rax) 8@(%rsp,%rax,3)";
	struct usdt_arg a;
	char err[256];

	(void)state;
#if defined(__x86_64__)
	assert_int_equal(types_usdt_arg(args, 0, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, 4092785136LL);
	assert_int_equal(types_usdt_arg(args, 1, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, -202182160LL);
	assert_int_equal(types_usdt_arg(args, 2, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, 255);
	assert_int_equal(types_usdt_arg(args, 3, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, -1);
	assert_int_equal(types_usdt_arg(args, 4, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, -1);
	assert_int_equal(types_usdt_arg(args, 5, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, 0x2345);
	assert_int_equal(types_usdt_arg(args, 6, &a, err, sizeof(err)), 0);
	assert_int_equal(a.val, -88);
	assert_int_equal(a.reg, sys_arch_reg_offset("rsp"));
	assert_int_equal(a.index, sys_arch_reg_offset("rax"));
	assert_int_equal(a.scale, 8);
	assert_int_equal(types_usdt_arg(args, 7, &a, err, sizeof(err)), 0);
	assert_int_equal(a.scale, 1);
	assert_int_equal(types_usdt_arg(args, 8, &a, err, sizeof(err)), -1);
#endif
}

static void test_registers(void **state)
{
	(void)state;
#if defined(__x86_64__)
	assert_int_equal(sys_arch_reg_offset("rdi"), 112);
	assert_int_equal(sys_arch_reg_offset("edi"), 112);
	assert_int_equal(sys_arch_reg_offset("dil"), 112);
	assert_int_equal(sys_arch_reg_offset("r15b"), 0);
	assert_int_equal(sys_arch_reg_offset("r9d"), 64);
	assert_int_equal(sys_arch_reg_offset("rax"), sys_arch_regs()->ret);
	assert_int_equal(sys_arch_reg_offset("xmm0"), -1);
	for (int i = 0; i < ARCH_MAX_ARGS; i++)
		assert_true(sys_arch_regs()->arg[i] >= 0);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_registers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
