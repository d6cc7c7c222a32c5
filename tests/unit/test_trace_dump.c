// SPDX-License-Identifier: MIT
/*
 * lantern trace's programs, as `lantern trace -d ir,bpf OPTIONS` prints
 * them, for a few option sets: each is fixtures/trace/NAME.dump. No root:
 * the kernel's struct task_struct comes from a BTF made here
 * (LANTERN_BTF), the syscall tracepoints of -e trace=openat from the
 * fixture tree fixtures/trace/tracefs. LANTERN_UPDATE_GOLDENS=1 rewrites
 * the goldens; review the diff.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "sys/tracefs.h"
#include "trace/trace.h"

static const struct {
	const char *name;
	const char *argv[8];
} sets[] = {
	{ "default", { "trace", "-d", "ir,bpf" } },
	{ "follow", { "trace", "-d", "bpf", "-f" } },
	{ "summary", { "trace", "-d", "ir,bpf", "-c" } },
	{ "openat", { "trace", "-d", "ir,bpf", "-e", "trace=openat" } },
	{ "timed", { "trace", "-d", "bpf", "-T", "-s", "64" } },
};

static char *fixture(const char *sub)
{
	const char *file = __FILE__; /* tests/unit/test_trace_dump.c */
	const char *slash = strrchr(file, '/');

	if (!slash)
		return util_xasprintf("fixtures/%s", sub);
	return util_xasprintf("%.*s/fixtures/%s", (int)(slash - file), file, sub);
}

/* A BTF with the members of struct task_struct lantern trace reads, at made-up offsets, in path */
static void make_btf(const char *path)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	uint32_t size;
	int i32, st;
	FILE *f;

	assert_non_null(btf);
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	st = btf__add_struct(btf, "task_struct", 4096);
	assert_true(i32 > 0 && st > 0);
	assert_int_equal(btf__add_field(btf, "exit_code", i32, 8 * 1400, 0), 0);
	assert_int_equal(btf__add_field(btf, "pid", i32, 8 * 1512, 0), 0);
	assert_int_equal(btf__add_field(btf, "tgid", i32, 8 * 1516, 0), 0);
	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, size, f), size);
	fclose(f);
	btf__free(btf);
}

static void test_goldens(void **state)
{
	char btf[] = "/tmp/lantern-trace-btf-XXXXXX", *tracefs = fixture("trace/tracefs");
	bool update = getenv("LANTERN_UPDATE_GOLDENS") != NULL;
	int fd = mkstemp(btf), bad = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	make_btf(btf);
	setenv("LANTERN_BTF", btf, 1);
	unsetenv("LANTERN_RINGBUF_KB");
	unsetenv("LANTERN_TRACE_RAW");
	sys_tracefs_set_path(tracefs);
	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		char *sub = util_xasprintf("trace/%s.dump", sets[k].name);
		char *golden = fixture(sub), *want;
		struct strbuf out = { 0 };
		int argc = 0;
		while (sets[k].argv[argc])
			argc++;
		if (trace_dump(argc, (char **)sets[k].argv, &out) < 0) {
			print_error("%s: lantern trace -d failed\n", sets[k].name);
			bad++;
		} else if (update) {
			FILE *f = fopen(golden, "w");
			assert_non_null(f);
			fputs(sb_str(&out), f);
			fclose(f);
		} else if (!(want = util_read_file(golden, NULL)) || strcmp(want, sb_str(&out))) {
			print_error("%s: the programs differ from %s (LANTERN_UPDATE_GOLDENS=1 rewrites it)\n",
				    sets[k].name, golden);
			free(want);
			bad++;
		} else {
			free(want);
		}
		sb_free(&out);
		free(golden);
		free(sub);
	}
	sys_tracefs_set_path(NULL);
	unsetenv("LANTERN_BTF");
	unlink(btf);
	free(tracefs);
	if (bad)
		fail_msg("%d of %zu trace goldens differ", bad, sizeof(sets) / sizeof(sets[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
