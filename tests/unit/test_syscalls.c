// SPDX-License-Identifier: MIT
/*
 * The syscall table behind raw_syscalls groups: numbers by tracepoint name
 * (the kernel's SYSCALL_DEFINE names), every syscall tracepoint of Linux
 * 6.18 known, no number given twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "sys/syscalls.h"

#define EVENTS "tests/unit/fixtures/tracefs/available_events"

static void test_numbers(void **state)
{
	(void)state;
#if defined(__x86_64__)
	assert_int_equal(sys_syscall_number("read"), 0);
	assert_int_equal(sys_syscall_number("openat"), 257);
	assert_int_equal(sys_syscall_number("getppid"), 110);
	/* tracepoints carry the SYSCALL_DEFINE name, not the __NR_ one */
	assert_int_equal(sys_syscall_number("newstat"), 4);
	assert_int_equal(sys_syscall_number("newfstat"), 5);
	assert_int_equal(sys_syscall_number("newlstat"), 6);
	assert_int_equal(sys_syscall_number("sendfile64"), 40);
	assert_int_equal(sys_syscall_number("newuname"), 63);
	assert_int_equal(sys_syscall_number("umount"), 166);
	/* newer than the build machine's headers */
	assert_int_equal(sys_syscall_number("cachestat"), 451);
	assert_int_equal(sys_syscall_number("mseal"), 462);
	assert_int_equal(sys_syscall_number("file_setattr"), 469);
	assert_int_equal(sys_syscall_number("stat"), -1);
	assert_int_equal(sys_syscall_number("no_such_call"), -1);
	assert_int_equal(sys_syscall_number(""), -1);
#else
	assert_int_equal(sys_syscall_number("read"), -1);
#endif
}

/* Every syscalls:sys_enter_X / sys_exit_X of Linux 6.18 has a number. */
static void test_kernel_covered(void **state)
{
	char *text = util_read_file(EVENTS, NULL), *save = NULL;
	int seen[SYSCALL_NR_LIMIT] = { 0 }, n = 0;

	(void)state;
	assert_non_null(text);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *name;
		if (!strncmp(line, "syscalls:sys_enter_", 19))
			name = line + 19;
		else
			continue;
		int nr = sys_syscall_number(name);
		(void)nr;
#if defined(__x86_64__)
		if (nr < 0)
			fail_msg("no number for %s", name);
		assert_true(nr < SYSCALL_NR_LIMIT);
		if (seen[nr]++)
			fail_msg("number %d given twice (%s)", nr, name);
#endif
		n++;
	}
	assert_true(n > 300);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_kernel_covered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
