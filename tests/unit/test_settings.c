// SPDX-License-Identifier: MIT
/* Settings: a script's config items, the environment and the defaults meet in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile/settings.h"

static const char *vars[] = { "LANTERN_STRLEN", "BPFTRACE_STRLEN", "LANTERN_MAX_STRLEN",
			      "BPFTRACE_MAX_STRLEN", "BPFTRACE_MAP_KEYS_MAX",
			      "BPFTRACE_STACK_MODE", "BPFTRACE_PRINT_MAPS_ON_EXIT", "LANTERN_USTACK_UNWIND",
			      "LANTERN_USTACK_SNAPSHOT" };

static void clear_env(void)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
}

static int resolve(struct plan *p, struct compile_opts *o, const struct setting_item *it, size_t n)
{
	memset(o, 0, sizeof(*o));
	o->script_name = "t";
	o->script = (char *)"";
	plan_init(p, o);
	return compile_settings(p, it, n);
}

static void test_precedence(void **state)
{
	struct compile_opts o;
	struct plan p;
	const struct setting_item script[] = { { "max_strlen", "100", SPAN_NONE },
					       { "MAX_MAP_KEYS", "7", SPAN_NONE } };

	clear_env();
	/* the defaults */
	assert_int_equal(resolve(&p, &o, NULL, 0), 0);
	assert_int_equal(p.settings.v[SET_MAX_STRLEN], 64);
	assert_int_equal(p.settings.from[SET_MAX_STRLEN], SETTING_DEFAULT);
	plan_free(&p);
	/* the script over the defaults */
	assert_int_equal(resolve(&p, &o, script, 2), 0);
	assert_int_equal(p.settings.v[SET_MAX_STRLEN], 100);
	assert_int_equal(p.settings.from[SET_MAX_STRLEN], SETTING_SCRIPT);
	assert_int_equal(p.settings.v[SET_MAX_MAP_KEYS], 7);
	plan_free(&p);
	/* the environment over the script (0.26's name, then 0.17's) */
	setenv("BPFTRACE_MAX_STRLEN", "200", 1);
	assert_int_equal(resolve(&p, &o, script, 2), 0);
	assert_int_equal(p.settings.v[SET_MAX_STRLEN], 200);
	assert_int_equal(p.settings.from[SET_MAX_STRLEN], SETTING_ENV);
	assert_int_equal(p.settings.v[SET_MAX_MAP_KEYS], 7); /* not in the environment */
	plan_free(&p);
	setenv("BPFTRACE_MAP_KEYS_MAX", "9", 1);
	assert_int_equal(resolve(&p, &o, script, 2), 0);
	assert_int_equal(p.settings.v[SET_MAX_MAP_KEYS], 9);
	plan_free(&p);
	/* LANTERN_ over BPFTRACE_ */
	setenv("LANTERN_STRLEN", "300", 1);
	assert_int_equal(resolve(&p, &o, script, 2), 0);
	assert_int_equal(p.settings.v[SET_MAX_STRLEN], 300);
	plan_free(&p);
	clear_env();
}

static void test_errors(void **state)
{
	struct compile_opts o;
	struct plan p;
	const struct setting_item unknown[] = { { "max_strlenn", "1", SPAN_NONE } };
	const struct setting_item big[] = { { "BPFTRACE_MAX_STRLEN", "100000", SPAN_NONE } };

	clear_env();
	assert_int_equal(resolve(&p, &o, unknown, 1), -1);
	assert_non_null(strstr(sb_str(&p.diag.out), "unknown config variable 'max_strlenn'"));
	plan_free(&p);
	assert_int_equal(resolve(&p, &o, big, 1), -1);
	assert_non_null(strstr(sb_str(&p.diag.out), "max_strlen = 100000: a string size is 2 to 32768 bytes"));
	plan_free(&p);
	setenv("BPFTRACE_STRLEN", "1", 1);
	assert_int_equal(resolve(&p, &o, NULL, 0), -1);
	assert_non_null(strstr(sb_str(&p.diag.out), "BPFTRACE_STRLEN=1: a string size is 2 to 32768 bytes"));
	plan_free(&p);
	clear_env();
}

/* Today's bpftrace's variables: bools, choices, strings, its defaults, and those without effect */
static void test_modern(void **state)
{
	struct compile_opts o;
	struct plan p;
	const struct setting_item script[] = {
		{ "print_maps_on_exit", "false", SPAN_NONE }, { "STACK_MODE", "perf", SPAN_NONE },
		{ "missing_probes", "warn", SPAN_NONE },	    { "str_trunc_trailer", "~", SPAN_NONE },
		{ "BPFTRACE_CPP_DEMANGLE", "0", SPAN_NONE },	    { "license", "GPL", SPAN_NONE },
	};
	const struct setting_item bad[] = { { "stack_mode", "sideways", SPAN_NONE } };

	clear_env();
	/* bpftrace 0.17's defaults, then today's */
	assert_int_equal(resolve(&p, &o, NULL, 0), 0);
	assert_int_equal(p.settings.v[SET_PRINT_MAPS_ON_EXIT], 1);
	assert_string_equal(p.settings.str[SET_STR_TRUNC_TRAILER], "");
	plan_free(&p);
	memset(&o, 0, sizeof(o));
	o.script_name = "t";
	o.script = (char *)"";
	plan_init(&p, &o);
	p.modern = true;
	assert_int_equal(compile_settings(&p, NULL, 0), 0);
	assert_int_equal(p.settings.v[SET_MAX_STRLEN], 1024);
	assert_int_equal(p.settings.v[SET_MAX_PROBES], 1024);
	assert_string_equal(p.settings.str[SET_STR_TRUNC_TRAILER], "..");
	plan_free(&p);
	/* the script's, a warning for license */
	assert_int_equal(resolve(&p, &o, script, 6), 0);
	assert_int_equal(p.settings.v[SET_PRINT_MAPS_ON_EXIT], 0);
	assert_int_equal(p.settings.v[SET_STACK_MODE], STACK_MODE_PERF);
	assert_int_equal(p.settings.v[SET_MISSING_PROBES], MISSING_WARN);
	assert_string_equal(p.settings.str[SET_STR_TRUNC_TRAILER], "~");
	assert_int_equal(p.settings.v[SET_CPP_DEMANGLE], 0);
	assert_int_equal(p.diag.warnings, 1);
	assert_non_null(strstr(sb_str(&p.diag.out), "config variable license has no effect"));
	plan_free(&p);
	/* the environment over the script */
	setenv("BPFTRACE_STACK_MODE", "bpftrace", 1);
	setenv("BPFTRACE_PRINT_MAPS_ON_EXIT", "1", 1);
	assert_int_equal(resolve(&p, &o, script, 6), 0);
	assert_int_equal(p.settings.v[SET_STACK_MODE], STACK_MODE_BPFTRACE);
	assert_int_equal(p.settings.v[SET_PRINT_MAPS_ON_EXIT], 1);
	plan_free(&p);
	clear_env();
	assert_int_equal(resolve(&p, &o, bad, 1), -1);
	assert_non_null(strstr(sb_str(&p.diag.out),
			       "stack_mode = sideways: it is one of bpftrace, perf, raw, build_id"));
	plan_free(&p);
	clear_env();
}

/* ustack_unwind by name (auto, fp, dwarf: any case), ustack_snapshot within its bounds */
static void test_ustack(void **state)
{
	struct compile_opts o;
	struct plan p;
	const struct setting_item fp[] = { { "ustack_unwind", "fp", SPAN_NONE },
					   { "ustack_snapshot", "4096", SPAN_NONE } };
	const struct setting_item bad[] = { { "ustack_unwind", "frames", SPAN_NONE } };

	clear_env();
	assert_int_equal(resolve(&p, &o, NULL, 0), 0);
	assert_int_equal(p.settings.v[SET_USTACK_UNWIND], UNWIND_AUTO);
	assert_int_equal(p.settings.v[SET_USTACK_SNAPSHOT], USTACK_SNAPSHOT_DEFAULT);
	plan_free(&p);
	assert_int_equal(resolve(&p, &o, fp, 2), 0);
	assert_int_equal(p.settings.v[SET_USTACK_UNWIND], UNWIND_FP);
	assert_int_equal(p.settings.v[SET_USTACK_SNAPSHOT], 4096);
	plan_free(&p);
	setenv("LANTERN_USTACK_UNWIND", "DWARF", 1);
	assert_int_equal(resolve(&p, &o, fp, 2), 0);
	assert_int_equal(p.settings.v[SET_USTACK_UNWIND], UNWIND_DWARF);
	plan_free(&p);
	clear_env();
	assert_int_equal(resolve(&p, &o, bad, 1), -1);
	assert_non_null(strstr(sb_str(&p.diag.out), "ustack_unwind = frames: it is one of auto, fp, dwarf"));
	plan_free(&p);
	setenv("LANTERN_USTACK_SNAPSHOT", "100000", 1);
	assert_int_equal(resolve(&p, &o, NULL, 0), -1);
	assert_non_null(strstr(sb_str(&p.diag.out), "512 to 16384 bytes"));
	plan_free(&p);
	clear_env();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_modern),
		cmocka_unit_test(test_ustack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
