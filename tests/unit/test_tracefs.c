// SPDX-License-Identifier: MIT
/*
 * Tracepoint names: parsing available_events, wildcard matching in
 * `bpftrace -l` order, "did you mean" suggestions (pure, on fixture lists);
 * tracefs lookups on a fake tracefs tree; and, as root, the live tracefs,
 * including mounting it in a private mount namespace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "sys/tracefs.h"
#include "sys/tp_events.h"

#define FULL_LIST "tests/unit/fixtures/tracefs/available_events"
#define FAKE_ROOT "tests/unit/fixtures/tpformat"

static struct tp_events full; /* Linux 6.18's 2305 tracepoints */

static int setup_full(void **state)
{
	char *text = util_read_file(FULL_LIST, NULL);

	if (!text) {
		print_message("cannot read %s (run from the repository root)\n", FULL_LIST);
		return -1;
	}
	sys_tp_events_parse(&full, text);
	free(text);
	return 0;
}

static int teardown_full(void **state)
{
	sys_tp_events_free(&full);
	return 0;
}

/* Collects matches as "cat:event\n" lines. */
static int collect(const char *cat, const char *ev, void *arg)
{
	sb_printf(arg, "%s:%s\n", cat, ev);
	return 0;
}

static void expect_match(const char *cat_pat, const char *ev_pat, int n, const char *want)
{
	struct strbuf sb = {0};

	assert_int_equal(sys_tp_events_match(&full, cat_pat, ev_pat, collect, &sb), n);
	if (want)
		assert_string_equal(sb_str(&sb), want);
	sb_free(&sb);
}

static void test_parse_full(void **state)
{
	assert_int_equal(full.n, 2305);
	assert_int_equal(full.ncats, 101);
	for (size_t i = 1; i < full.n; i++)
		assert_true(strcmp(full.v[i - 1].name, full.v[i].name) < 0);
	for (size_t i = 0; i < full.n; i++) {
		const struct tp_event *t = &full.v[i];
		size_t lc = strlen(t->cat);
		assert_memory_equal(t->name, t->cat, lc);
		assert_int_equal(t->name[lc], ':');
		assert_ptr_equal(t->event, t->name + lc + 1);
	}
	/* Categories are shared, not copied per event. */
	assert_ptr_equal(sys_tp_events_find(&full, "sched", "sched_switch")->cat,
			 sys_tp_events_find(&full, "sched", "sched_wakeup")->cat);
}

/* bpftrace -l sorts whole names bytewise: "fib6:" before "fib:" (':' > '6'). */
static void test_order_like_bpftrace(void **state)
{
	expect_match("fib*", "*", 2, "fib6:fib6_table_lookup\nfib:fib_table_lookup\n");
	expect_match("mmap*", "*", 5,
		     "mmap:exit_mmap\nmmap:vm_unmapped_area\n"
		     "mmap_lock:mmap_lock_acquire_returned\nmmap_lock:mmap_lock_released\n"
		     "mmap_lock:mmap_lock_start_locking\n");
}

static void test_match(void **state)
{
	expect_match("sched", "sched_sw*", 2, "sched:sched_swap_numa\nsched:sched_switch\n");
	expect_match("*", "sched_switch", 1, "sched:sched_switch\n");
	expect_match("*", "*", 2305, NULL);
	expect_match("sched", "*", 26, NULL);
	expect_match("syscalls", "sys_enter_open*", 6,
		     "syscalls:sys_enter_open\nsyscalls:sys_enter_open_by_handle_at\n"
		     "syscalls:sys_enter_open_tree\nsyscalls:sys_enter_open_tree_attr\n"
		     "syscalls:sys_enter_openat\nsyscalls:sys_enter_openat2\n");
	expect_match("?pi", "ipi_send_cpu*", 2, "ipi:ipi_send_cpu\nipi:ipi_send_cpumask\n");
	expect_match("raw_syscalls", "sys_e???", 1, "raw_syscalls:sys_exit\n");
	expect_match("*sys*", "sys_enter", 1, "raw_syscalls:sys_enter\n");
	expect_match("sched", "nope*", 0, "");
	expect_match("nope", "*", 0, "");
	expect_match("ftrace", "*", 0, ""); /* not in available_events */
	assert_int_equal(sys_tp_events_match(&full, "sched", "*", NULL, NULL), 26);
}

static int stop_at_third(const char *cat, const char *ev, void *arg)
{
	return ++*(int *)arg == 3 ? -42 : 0;
}

static void test_match_stop(void **state)
{
	int seen = 0;

	assert_int_equal(sys_tp_events_match(&full, "*", "*", stop_at_third, &seen), -42);
	assert_int_equal(seen, 3);
}

static void test_find(void **state)
{
	const struct tp_event *t = sys_tp_events_find(&full, "sched", "sched_switch");

	assert_non_null(t);
	assert_string_equal(t->name, "sched:sched_switch");
	assert_string_equal(t->cat, "sched");
	assert_string_equal(t->event, "sched_switch");
	assert_non_null(sys_tp_events_find(&full, "fib", "fib_table_lookup"));
	assert_non_null(sys_tp_events_find(&full, "fib6", "fib6_table_lookup"));
	assert_non_null(sys_tp_events_find(&full, "xfs", "xlog_intent_recovery_failed")); /* last */
	assert_non_null(sys_tp_events_find(&full, "alarmtimer", "alarmtimer_cancel"));    /* first */
	assert_null(sys_tp_events_find(&full, "sched", "sched_swich"));
	assert_null(sys_tp_events_find(&full, "sche", "d:sched_switch"));
	assert_null(sys_tp_events_find(&full, "sched:sched", "switch"));
	assert_null(sys_tp_events_find(&full, "", ""));
	assert_true(sys_tp_events_has_category(&full, "syscalls"));
	assert_true(sys_tp_events_has_category(&full, "fib6"));
	assert_false(sys_tp_events_has_category(&full, "syscall"));
	assert_false(sys_tp_events_has_category(&full, "ftrace"));
}

static void test_parse_odd_text(void **state)
{
	struct tp_events e;

	sys_tp_events_parse(&e, "");
	assert_int_equal(e.n, 0);
	assert_int_equal(e.ncats, 0);
	assert_null(sys_tp_events_find(&e, "a", "b"));
	assert_false(sys_tp_events_has_category(&e, "a"));
	sys_tp_events_free(&e);

	/* CRLF, blanks, junk, duplicates, no final newline. */
	sys_tp_events_parse(&e, "b:y\r\n\n:x\nnocolon\na:\na:x\nb:y\n  \nb:a:b\na:x");
	assert_int_equal(e.n, 3);
	assert_string_equal(e.v[0].name, "a:x");
	assert_string_equal(e.v[1].name, "b:a:b");
	assert_string_equal(e.v[1].event, "a:b");
	assert_string_equal(e.v[2].name, "b:y");
	assert_int_equal(e.ncats, 2);
	assert_non_null(sys_tp_events_find(&e, "b", "a:b"));
	sys_tp_events_free(&e);
}

static void expect_suggest(const char *cat, const char *ev, bool cat_exists, const char *want)
{
	struct tp_suggestions s;
	struct strbuf sb = {0};

	sys_tp_events_suggest(&full, cat, ev, &s);
	for (int i = 0; i < s.n; i++)
		sb_printf(&sb, "%s%s", i ? " " : "", s.names[i]);
	if (strcmp(sb_str(&sb), want) || s.cat_exists != cat_exists)
		fail_msg("%s:%s: got '%s' cat_exists %d, want '%s' %d", cat, ev, sb_str(&sb),
			 s.cat_exists, want, cat_exists);
	sb_free(&sb);
}

static void test_suggest(void **state)
{
	/* typos */
	expect_suggest("sched", "sched_swich", true, "sched:sched_switch");
	expect_suggest("shed", "sched_switch", false, "sched:sched_switch");
	expect_suggest("syscall", "sys_enter_openat", false, "syscalls:sys_enter_openat");
	expect_suggest("syscalls", "sys_enter_opn", true, "syscalls:sys_enter_open");
	expect_suggest("syscalls", "sys_enter_opena", true,
		       "syscalls:sys_enter_open syscalls:sys_enter_openat");
	expect_suggest("sched", "sched_wakeup_ne", true, "sched:sched_wakeup_new");
	/* the same event in another category */
	expect_suggest("foo", "sched_switch", false, "sched:sched_switch");
	expect_suggest("sched", "sys_enter", true, "raw_syscalls:sys_enter");
	expect_suggest("raw_syscall", "sys_enter", false, "raw_syscalls:sys_enter");
	/* prefixes and parts of names */
	expect_suggest("sched", "sched_process", true,
		       "sched:sched_process_exec sched:sched_process_exit "
		       "sched:sched_process_fork");
	expect_suggest("sched", "switch", true, "sched:sched_switch");
	expect_suggest("block", "rq_complete", true, "block:block_rq_complete");
	expect_suggest("syscalls", "exit_read", true, "syscalls:sys_exit_read");
	/* nothing near */
	expect_suggest("xyz", "abc", false, "");
	expect_suggest("sched", "s", true, "");
	expect_suggest("kprobe", "do_sys_open", false, "");
	expect_suggest("", "", false, "");
	/* wildcards: only whether the category exists */
	expect_suggest("sched", "sched_nope*", true, "");
	expect_suggest("sch*", "x", true, "");
	expect_suggest("nope*", "x", false, "");
}

static int stop_at_second(const char *cat, const char *ev, void *arg)
{
	return ++*(int *)arg == 2 ? 7 : 0;
}

/* Functions that read tracefs, on a fake tree. */
static void test_fake_tree(void **state)
{
	char err[256] = "";
	struct strbuf sb = {0};
	struct tp_suggestions s;
	int seen;

	sys_tracefs_set_path(FAKE_ROOT);
	assert_string_equal(sys_tracefs_path(err, sizeof(err)), FAKE_ROOT);
	assert_int_equal(sys_tracefs_event_id("sched", "sched_switch"), 372);
	assert_int_equal(sys_tracefs_event_id("syscalls", "sys_enter_openat"), 782);
	assert_int_equal(sys_tracefs_event_id("sched", "nope"), -ENOENT);
	assert_int_equal(sys_tracefs_event_id("ftrace", "print"), -ENOENT); /* hidden */
	assert_int_equal(sys_tracefs_event_id("..", "tpformat"), -ENOENT);
	assert_int_equal(sys_tracefs_event_id("sched/..", "sched/sched_switch"), -ENOENT);
	assert_int_equal(sys_tracefs_event_id("", ""), -ENOENT);
	assert_true(sys_tracefs_event_exists("sched", "sched_switch"));
	assert_false(sys_tracefs_event_exists("sched", "sched_swich"));
	assert_false(sys_tracefs_event_exists("ftrace", "function"));
	assert_true(sys_tracefs_category_exists("sched"));
	assert_false(sys_tracefs_category_exists("ftrace"));
	assert_false(sys_tracefs_category_exists("nope"));

	/* Literal category, wildcard event: readdir of events/sched, sorted. */
	assert_int_equal(sys_tracefs_events_match("sched", "*", collect, &sb, err, sizeof(err)), 3);
	assert_string_equal(sb_str(&sb), "sched:sched_process_exec\nsched:sched_switch\n"
					 "sched:sched_wakeup\n");
	sb_reset(&sb);
	seen = 0;
	assert_int_equal(
		sys_tracefs_events_match("sched", "*", stop_at_second, &seen, err, sizeof(err)), 7);
	assert_int_equal(seen, 2);
	assert_int_equal(sys_tracefs_events_match("ftrace", "*", collect, &sb, err, sizeof(err)), 0);
	assert_int_equal(sys_tracefs_events_match("nope", "*", collect, &sb, err, sizeof(err)), 0);
	/* No wildcard: one stat. */
	assert_int_equal(
		sys_tracefs_events_match("sched", "sched_switch", collect, &sb, err, sizeof(err)), 1);
	assert_int_equal(sys_tracefs_events_match("sched", "nope", collect, &sb, err, sizeof(err)), 0);
	assert_string_equal(sb_str(&sb), "sched:sched_switch\n");
	sb_reset(&sb);
	/* Wildcard category: the tree's available_events. */
	assert_int_equal(sys_tracefs_events_match("s*", "sys_*", collect, &sb, err, sizeof(err)), 5);
	assert_string_equal(sb_str(&sb),
			    "syscalls:sys_enter_execve\nsyscalls:sys_enter_get_robust_list\n"
			    "syscalls:sys_enter_landlock_create_ruleset\n"
			    "syscalls:sys_enter_openat\nsyscalls:sys_exit_read\n");
	assert_int_equal(sys_tracefs_events(err, sizeof(err))->n, 18);

	assert_int_equal(sys_tracefs_suggest("sched", "sched_swich", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.names[0], "sched:sched_switch");

	sb_free(&sb);
	sys_tracefs_set_path(NULL);
}

static void test_missing_tree(void **state)
{
	char err[256] = "";

	sys_tracefs_set_path("tests/unit/fixtures/no-such-dir");
	assert_null(sys_tracefs_events(err, sizeof(err)));
	assert_non_null(strstr(err, "available_events"));
	assert_int_equal(sys_tracefs_events_match("*", "*", collect, NULL, err, sizeof(err)), -EIO);
	assert_int_equal(sys_tracefs_event_id("sched", "sched_switch"), -ENOENT);
	sys_tracefs_set_path(NULL);
}

static bool have_live_tracefs(void)
{
	char err[256] = "";

	if (geteuid() != 0)
		return false;
	if (!sys_tracefs_path(err, sizeof(err))) {
		print_message("no tracefs: %s\n", err);
		return false;
	}
	return true;
}

static int count(const char *cat, const char *ev, void *arg)
{
	++*(int *)arg;
	return 0;
}

/* The readdir path and the available_events path agree, per category. */
static void test_live_consistent(void **state)
{
	char err[256] = "";
	const struct tp_events *all;
	uint64_t t0, t_list;
	int n;

	if (!have_live_tracefs())
		skip();
	sys_tracefs_release();
	t0 = util_now_ns();
	all = sys_tracefs_events(err, sizeof(err));
	t_list = util_now_ns() - t0;
	assert_non_null(all);
	assert_true(all->n > 0);
	for (size_t i = 0; i < all->ncats; i++) {
		struct strbuf a = {0}, b = {0};
		const char *cat = all->cats[i];
		int na = sys_tracefs_events_match(cat, "*", collect, &a, err, sizeof(err));
		int nb = sys_tp_events_match(all, cat, "*", collect, &b);
		assert_int_equal(na, nb);
		assert_string_equal(sb_str(&a), sb_str(&b));
		sb_free(&a);
		sb_free(&b);
	}
	for (size_t i = 0; i < all->n; i += 97) {
		const struct tp_event *t = &all->v[i];
		assert_true(sys_tracefs_event_exists(t->cat, t->event));
		assert_true(sys_tracefs_event_id(t->cat, t->event) >= 0);
	}
	t0 = util_now_ns();
	n = 0;
	assert_true(sys_tracefs_events_match("*", "*", count, &n, err, sizeof(err)) > 0);
	print_message("available_events: %zu events, read+parse %.0f us, match *:* %.0f us\n",
		      all->n, t_list / 1e3, (util_now_ns() - t0) / 1e3);
	sys_tracefs_release();
}

/* Run fn in a child with its own mount namespace; returns its exit status. */
static int in_private_ns(int (*fn)(void))
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			_exit(77);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* tracefs unmounted: lantern mounts it at /sys/kernel/tracing. */
static int mounts_tracefs(void)
{
	char err[256] = "";
	struct stat st;
	const char *p;

	if (umount2("/sys/kernel/tracing", MNT_DETACH) && errno != EINVAL)
		return 77;
	if (!stat("/sys/kernel/tracing/events", &st))
		return 77; /* still there: cannot test */
	sys_tracefs_set_path(NULL);
	p = sys_tracefs_path(err, sizeof(err));
	if (!p || strcmp(p, "/sys/kernel/tracing"))
		return 1;
	return sys_tracefs_event_id("sched", "sched_switch") >= 0 ? 0 : 2;
}

/* No /sys/kernel/tracing at all: debugfs is mounted and its tracing/ used. */
static int falls_back_to_debugfs(void)
{
	char err[256] = "";
	const char *p;

	if (mount("none", "/sys/kernel", "tmpfs", 0, NULL) || mkdir("/sys/kernel/debug", 0700))
		return 77;
	sys_tracefs_set_path(NULL);
	p = sys_tracefs_path(err, sizeof(err));
	if (!p || strcmp(p, "/sys/kernel/debug/tracing"))
		return 1;
	return sys_tracefs_event_id("sched", "sched_switch") >= 0 ? 0 : 2;
}

/* Nothing to mount on: a clear error. */
static int explains_failure(void)
{
	char err[256] = "";

	if (mount("none", "/sys/kernel", "tmpfs", 0, NULL))
		return 77;
	sys_tracefs_set_path(NULL);
	if (sys_tracefs_path(err, sizeof(err)))
		return 1;
	return strstr(err, "cannot find tracefs") && strstr(err, "mount -t tracefs") ? 0 : 2;
}

static void expect_ns(int (*fn)(void), const char *what)
{
	int r = in_private_ns(fn);

	if (r == 77) {
		print_message("%s: cannot set up a mount namespace here\n", what);
		skip();
	}
	if (r)
		fail_msg("%s: child returned %d", what, r);
}

static void test_live_mount(void **state)
{
	if (!have_live_tracefs())
		skip();
	expect_ns(mounts_tracefs, "mount tracefs");
	expect_ns(falls_back_to_debugfs, "debugfs fallback");
	expect_ns(explains_failure, "no tracefs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_full),   cmocka_unit_test(test_order_like_bpftrace),
		cmocka_unit_test(test_match),	     cmocka_unit_test(test_match_stop),
		cmocka_unit_test(test_find),	     cmocka_unit_test(test_parse_odd_text),
		cmocka_unit_test(test_suggest),	     cmocka_unit_test(test_fake_tree),
		cmocka_unit_test(test_missing_tree), cmocka_unit_test(test_live_consistent),
		cmocka_unit_test(test_live_mount),
	};

	return cmocka_run_group_tests(tests, setup_full, teardown_full);
}
