// SPDX-License-Identifier: MIT
/*
 * lantern trace's syscall descriptions: what the programs read for a call
 * described from its format file is planned from lantern's own table
 * (trace_sysdesc_brief) before any format file is read. The table must
 * say what the running kernel's format files say: each string argument
 * where generic() finds it, read as a path or as a string. Needs the
 * kernel's tracefs (root); skipped without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <unistd.h>

#include "sys/syscalls.h"
#include "sys/tracefs.h"
#include "trace/sysdesc.h"

#define TRACEFS "/sys/kernel/tracing"

static bool is_str(enum targ k)
{
	return k == A_PATH || k == A_STR;
}

static void test_strings_as_the_kernel_says(void **state)
{
	int checked = 0, bad = 0;

	(void)state;
	if (access(TRACEFS "/events/syscalls/sys_enter_openat/format", R_OK) != 0)
		skip(); /* not root, or no syscall tracepoints */
	sys_tracefs_set_path(TRACEFS);
	for (int nr = 0; nr < SYSCALL_NR_LIMIT; nr++) {
		const char *tp = sys_syscall_tp_name(nr);
		char ev[128];
		const struct sysdesc *full, *brief;
		if (!sys_syscall_name(nr) || !tp)
			continue;
		snprintf(ev, sizeof(ev), "sys_enter_%s", tp);
		if (!sys_tracefs_event_exists("syscalls", ev))
			continue;
		full = trace_sysdesc_of(nr);
		brief = trace_sysdesc_brief(nr);
		for (int i = 0; i < TRACE_NARGS; i++) {
			enum targ f = i < full->nargs ? full->arg[i] : A_NONE;
			enum targ b = i < brief->nargs ? brief->arg[i] : A_NONE;
			if ((is_str(f) || is_str(b)) && f != b) {
				print_error("%s: argument %d is %s in its format file, %s in lantern's table\n",
					    full->name, i, f == A_PATH ? "a path" : f == A_STR ? "a string" : "not a string",
					    b == A_PATH ? "a path" : b == A_STR ? "a string" : "not a string");
				bad++;
			}
		}
		if ((full->classes & TC_FILE) != (brief->classes & TC_FILE)) {
			print_error("%s: %%file in its format file, not in lantern's table, or the reverse\n",
				    full->name);
			bad++;
		}
		checked++;
	}
	assert_true(checked > 300);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_as_the_kernel_says),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
