// SPDX-License-Identifier: MIT
/*
 * Code generation goldens: each fixtures/codegen/NAME.bt compiles (through
 * compile(), tracepoints from the fixture tracefs tree) to exactly the IR
 * and BPF of fixtures/codegen/NAME.dump, as `-d ir,bpf` prints them: map
 * references as map[N], load-time constants by name ($cpid).
 *
 * Parameters: $1 = "1", $2 = "hello"; -c is given (cpid). Two syscall
 * tracepoints of a probe make a raw_syscalls group (the fixture has few).
 * LANTERN_UPDATE_GOLDENS=1 rewrites the .dump files; review the diff.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compile_util.h"
#include "sys/tracefs.h"

static char *fixture_dir(const char *sub)
{
	const char *file = __FILE__; /* tests/unit/test_codegen.c */
	const char *slash = strrchr(file, '/');

	if (!slash)
		return util_xasprintf("fixtures/%s", sub);
	return util_xasprintf("%.*s/fixtures/%s", (int)(slash - file), file, sub);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_goldens(void **state)
{
	char *dir = fixture_dir("codegen"), *tp = fixture_dir("tpformat");
	bool update = getenv("LANTERN_UPDATE_GOLDENS") != NULL;
	char *params[] = { "1", "hello" }, *names[64];
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0, bad = 0;

	assert_non_null(d);
	sys_tracefs_set_path(tp);
	setenv("LANTERN_SYSGROUP_MIN", "2", 1);
	while ((de = readdir(d)) && n < 64) {
		size_t len = strlen(de->d_name);
		if (len > 3 && !strcmp(de->d_name + len - 3, ".bt"))
			names[n++] = util_xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (int i = 0; i < n; i++) {
		char *bt = util_xasprintf("%s/%s", dir, names[i]);
		char *golden = util_xasprintf("%s/%.*s.dump", dir, (int)strlen(names[i]) - 3, names[i]);
		char *script = util_read_file(bt, NULL), *want;
		struct compiled c;

		assert_non_null(script);
		memset(&c, 0, sizeof(c));
		c.opts.child = true;
		c.opts.child_cmd = "true";
		c.opts.script_name = names[i];
		c.opts.script = script;
		c.opts.params = params;
		c.opts.nparams = 2;
		c.opts.dump = DUMP_IR | DUMP_BPF;
		c.rc = compile(&c.plan, &c.opts, &c.dump);
		if (c.rc < 0 || c.plan.diag.errors) {
			print_error("%s does not compile:\n%s", names[i], compiled_diag(&c));
			bad++;
		} else if (update) {
			FILE *f = fopen(golden, "w");
			assert_non_null(f);
			fputs(sb_str(&c.dump), f);
			fclose(f);
		} else if (!(want = util_read_file(golden, NULL)) || strcmp(want, sb_str(&c.dump))) {
			print_error("%s: the code differs from %s (LANTERN_UPDATE_GOLDENS=1 rewrites it):\n%s",
				    names[i], golden, sb_str(&c.dump));
			free(want);
			bad++;
		} else {
			free(want);
		}
		compiled_free(&c);
		free(script);
		free(bt);
		free(golden);
		free(names[i]);
	}
	sys_tracefs_set_path(NULL);
	free(dir);
	free(tp);
	assert_true(n >= 5);
	if (bad)
		fail_msg("%d of %d code goldens differ", bad, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
