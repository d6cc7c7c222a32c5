// SPDX-License-Identifier: MIT
/*
 * Tracepoint format files: real ones from Linux 6.18 (fixtures), field by
 * field; hand-made ones for shapes this kernel lacks; malformed text; and,
 * as root with tracefs, every format file of the running kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "sys/tracefs.h"
#include "types/tpformat.h"

#define FIXTURES "tests/unit/fixtures/tpformat"

/* Shape flags of an expected field. */
enum {
	SIG = 1 << 0,
	COM = 1 << 1,
	DLOC = 1 << 2,
	RLOC = 1 << 3,
	PTR = 1 << 4,
	USR = 1 << 5,
	ARR = 1 << 6,
	STR = 1 << 7,
};

struct want {
	const char *decl, *name, *ctype, *base;
	uint32_t offset, size;
	unsigned flags;
	uint32_t array_len, elem_size;
	uint8_t ptr_depth;
};

static void load_fixture(const char *cat, const char *ev, struct tp_format *f)
{
	char path[256], err[256] = "";
	char *text;

	snprintf(path, sizeof(path), FIXTURES "/events/%s/%s/format", cat, ev);
	text = util_read_file(path, NULL);
	assert_non_null(text);
	if (types_tp_format_parse(text, f, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	free(text);
	types_tp_format_set_category(f, cat);
}

static void load_handmade(const char *name, struct tp_format *f)
{
	char path[256], err[256] = "";
	char *text;

	snprintf(path, sizeof(path), FIXTURES "/handmade/%s", name);
	text = util_read_file(path, NULL);
	assert_non_null(text);
	if (types_tp_format_parse(text, f, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	free(text);
}

static void sema_check_field(const struct tp_field *g, const struct want *w)
{
	unsigned flags = (g->is_signed ? SIG : 0) | (g->is_common ? COM : 0) |
			 (g->is_data_loc ? DLOC : 0) | (g->is_rel_loc ? RLOC : 0) |
			 (g->is_pointer ? PTR : 0) | (g->is_user ? USR : 0) |
			 (g->is_array ? ARR : 0) | (g->is_string ? STR : 0);

	assert_string_equal(g->name, w->name);
	assert_string_equal(g->decl, w->decl);
	assert_string_equal(g->ctype, w->ctype);
	assert_string_equal(g->base, w->base);
	if (g->offset != w->offset || g->size != w->size || flags != w->flags ||
	    g->array_len != w->array_len || g->elem_size != w->elem_size ||
	    g->ptr_depth != w->ptr_depth)
		fail_msg("%s: got off %u size %u flags %#x len %u elem %u ptr %u, want off %u "
			 "size %u flags %#x len %u elem %u ptr %u",
			 w->name, g->offset, g->size, flags, g->array_len, g->elem_size,
			 g->ptr_depth, w->offset, w->size, w->flags, w->array_len, w->elem_size,
			 w->ptr_depth);
}

/* The fields after the four common ones. */
static void check_fields(const struct tp_format *f, const struct want *w, size_t n)
{
	assert_int_equal(f->nfields, 4 + n);
	for (uint32_t i = 0; i < 4; i++)
		assert_true(f->fields[i].is_common);
	for (size_t i = 0; i < n; i++)
		sema_check_field(&f->fields[4 + i], &w[i]);
}

#define CHECK(cat, ev, id_, ...)                                                                   \
	do {                                                                                       \
		static const struct want w_[] = {__VA_ARGS__};                                     \
		struct tp_format f_;                                                               \
		load_fixture(cat, ev, &f_);                                                        \
		assert_string_equal(f_.event, ev);                                                 \
		assert_string_equal(f_.category, cat);                                             \
		assert_int_equal(f_.id, id_);                                                      \
		check_fields(&f_, w_, ARRAY_SIZE(w_));                                             \
		types_tp_format_free(&f_);                                                               \
	} while (0)

static void test_common_fields(void **state)
{
	static const struct want w[] = {
		{"unsigned short common_type", "common_type", "unsigned short", "unsigned short", 0,
		 2, COM, 0, 2, 0},
		{"unsigned char common_flags", "common_flags", "unsigned char", "unsigned char", 2,
		 1, COM, 0, 1, 0},
		{"unsigned char common_preempt_count", "common_preempt_count", "unsigned char",
		 "unsigned char", 3, 1, COM, 0, 1, 0},
		{"int common_pid", "common_pid", "int", "int", 4, 4, COM | SIG, 0, 4, 0},
	};
	struct tp_format f;

	load_fixture("sched", "sched_switch", &f);
	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		sema_check_field(&f.fields[i], &w[i]);
	types_tp_format_free(&f);
}

/* Syscall arguments: 8 bytes each whatever the type; pointers are user pointers. */
static void test_sys_enter_openat(void **state)
{
	CHECK("syscalls", "sys_enter_openat", 782,
	      {"int __syscall_nr", "__syscall_nr", "int", "int", 8, 4, SIG, 0, 4, 0},
	      {"int dfd", "dfd", "int", "int", 16, 8, SIG, 0, 8, 0},
	      {"const char * filename", "filename", "const char *", "char", 24, 8, PTR | USR | STR,
	       0, 8, 1},
	      {"int flags", "flags", "int", "int", 32, 8, SIG, 0, 8, 0},
	      {"umode_t mode", "mode", "umode_t", "umode_t", 40, 8, 0, 0, 8, 0});
}

static void test_sys_exit_read(void **state)
{
	CHECK("syscalls", "sys_exit_read", 841,
	      {"int __syscall_nr", "__syscall_nr", "int", "int", 8, 4, SIG, 0, 4, 0},
	      {"long ret", "ret", "long", "long", 16, 8, SIG, 0, 8, 0});
}

static void test_sys_enter_execve(void **state)
{
	CHECK("syscalls", "sys_enter_execve", 862,
	      {"int __syscall_nr", "__syscall_nr", "int", "int", 8, 4, SIG, 0, 4, 0},
	      {"const char * filename", "filename", "const char *", "char", 16, 8, PTR | USR | STR,
	       0, 8, 1},
	      {"const char *const * argv", "argv", "const char *const *", "char", 24, 8, PTR | USR,
	       0, 8, 2},
	      {"const char *const * envp", "envp", "const char *const *", "char", 32, 8, PTR | USR,
	       0, 8, 2});
}

static void test_pointer_shapes(void **state)
{
	CHECK("syscalls", "sys_enter_get_robust_list", 524,
	      {"int __syscall_nr", "__syscall_nr", "int", "int", 8, 4, SIG, 0, 4, 0},
	      {"int pid", "pid", "int", "int", 16, 8, SIG, 0, 8, 0},
	      {"struct robust_list_head * * head_ptr", "head_ptr", "struct robust_list_head * *",
	       "struct robust_list_head", 24, 8, PTR | USR, 0, 8, 2},
	      {"size_t * len_ptr", "len_ptr", "size_t *", "size_t", 32, 8, PTR | USR, 0, 8, 1});
	CHECK("syscalls", "sys_enter_landlock_create_ruleset", 2086,
	      {"int __syscall_nr", "__syscall_nr", "int", "int", 8, 4, SIG, 0, 4, 0},
	      {"const struct landlock_ruleset_attr *const attr", "attr",
	       "const struct landlock_ruleset_attr *const", "struct landlock_ruleset_attr", 16, 8,
	       PTR | USR, 0, 8, 1},
	      {"const size_t size", "size", "const size_t", "size_t", 24, 8, 0, 0, 8, 0},
	      {"const __u32 flags", "flags", "const __u32", "__u32", 32, 8, 0, 0, 8, 0});
	/* Outside syscalls a pointer is a kernel pointer. */
	CHECK("btrfs", "btrfs_alloc_extent_state", 1974,
	      {"const struct extent_state * state", "state", "const struct extent_state *",
	       "struct extent_state", 8, 8, PTR, 0, 8, 1},
	      {"unsigned long mask", "mask", "unsigned long", "unsigned long", 16, 8, 0, 0, 8, 0},
	      {"const void* ip", "ip", "const void*", "void", 24, 8, PTR, 0, 8, 1});
}

static void test_sched_switch(void **state)
{
	CHECK("sched", "sched_switch", 372,
	      {"char prev_comm[16]", "prev_comm", "char[16]", "char", 8, 16, ARR | STR, 16, 1, 0},
	      {"pid_t prev_pid", "prev_pid", "pid_t", "pid_t", 24, 4, SIG, 0, 4, 0},
	      {"int prev_prio", "prev_prio", "int", "int", 28, 4, SIG, 0, 4, 0},
	      {"long prev_state", "prev_state", "long", "long", 32, 8, SIG, 0, 8, 0},
	      {"char next_comm[16]", "next_comm", "char[16]", "char", 40, 16, ARR | STR, 16, 1, 0},
	      {"pid_t next_pid", "next_pid", "pid_t", "pid_t", 56, 4, SIG, 0, 4, 0},
	      {"int next_prio", "next_prio", "int", "int", 60, 4, SIG, 0, 4, 0});
}

static void test_data_loc(void **state)
{
	CHECK("sched", "sched_process_exec", 365,
	      {"__data_loc char[] filename", "filename", "__data_loc char[]", "char", 8, 4,
	       DLOC | STR, 0, 1, 0},
	      {"pid_t pid", "pid", "pid_t", "pid_t", 12, 4, SIG, 0, 4, 0},
	      {"pid_t old_pid", "old_pid", "pid_t", "pid_t", 16, 4, SIG, 0, 4, 0});
	CHECK("dma", "dma_map_sg", 431,
	      {"__data_loc char[] device", "device", "__data_loc char[]", "char", 8, 4, DLOC | STR,
	       0, 1, 0},
	      {"int full_nents", "full_nents", "int", "int", 12, 4, SIG, 0, 4, 0},
	      {"int full_ents", "full_ents", "int", "int", 16, 4, SIG, 0, 4, 0},
	      {"bool truncated", "truncated", "bool", "bool", 20, 1, 0, 0, 1, 0},
	      {"__data_loc u64[] phys_addrs", "phys_addrs", "__data_loc u64[]", "u64", 24, 4, DLOC,
	       0, 8, 0},
	      {"__data_loc u64[] dma_addrs", "dma_addrs", "__data_loc u64[]", "u64", 28, 4, DLOC, 0,
	       8, 0},
	      {"__data_loc unsigned int[] lengths", "lengths", "__data_loc unsigned int[]",
	       "unsigned int", 32, 4, DLOC, 0, 4, 0},
	      {"enum dma_data_direction dir", "dir", "enum dma_data_direction",
	       "enum dma_data_direction", 36, 4, 0, 0, 4, 0},
	      {"unsigned long attrs", "attrs", "unsigned long", "unsigned long", 40, 8, 0, 0, 8,
	       0});
	/* Not a char array: the element size is unknown without BTF. */
	CHECK("ipi", "ipi_send_cpumask", 353,
	      {"__data_loc cpumask_t cpumask", "cpumask", "__data_loc cpumask_t", "cpumask_t", 8, 4,
	       DLOC, 0, 0, 0},
	      {"void * callsite", "callsite", "void *", "void", 16, 8, PTR, 0, 8, 1},
	      {"void * callback", "callback", "void *", "void", 24, 8, PTR, 0, 8, 1});
}

static void test_block_rq_complete(void **state)
{
	CHECK("block", "block_rq_complete", 2107,
	      {"dev_t dev", "dev", "dev_t", "dev_t", 8, 4, 0, 0, 4, 0},
	      {"sector_t sector", "sector", "sector_t", "sector_t", 16, 8, 0, 0, 8, 0},
	      {"unsigned int nr_sector", "nr_sector", "unsigned int", "unsigned int", 24, 4, 0, 0,
	       4, 0},
	      {"int error", "error", "int", "int", 28, 4, SIG, 0, 4, 0},
	      {"unsigned short ioprio", "ioprio", "unsigned short", "unsigned short", 32, 2, 0, 0,
	       2, 0},
	      {"char rwbs[10]", "rwbs", "char[10]", "char", 34, 10, ARR | STR, 10, 1, 0},
	      {"__data_loc char[] cmd", "cmd", "__data_loc char[]", "char", 44, 4, DLOC | STR, 0, 1,
	       0});
}

static void test_arrays(void **state)
{
	CHECK("raw_syscalls", "sys_enter", 443,
	      {"long id", "id", "long", "long", 8, 8, SIG, 0, 8, 0},
	      {"unsigned long args[6]", "args", "unsigned long[6]", "unsigned long", 16, 48, ARR, 6,
	       8, 0});
	CHECK("sock", "sock_exceed_buf_limit", 2288,
	      {"char name[32]", "name", "char[32]", "char", 8, 32, ARR | STR, 32, 1, 0},
	      {"long sysctl_mem[3]", "sysctl_mem", "long[3]", "long", 40, 24, SIG | ARR, 3, 8, 0},
	      {"long allocated", "allocated", "long", "long", 64, 8, SIG, 0, 8, 0},
	      {"int sysctl_rmem", "sysctl_rmem", "int", "int", 72, 4, SIG, 0, 4, 0},
	      {"int rmem_alloc", "rmem_alloc", "int", "int", 76, 4, SIG, 0, 4, 0},
	      {"int sysctl_wmem", "sysctl_wmem", "int", "int", 80, 4, SIG, 0, 4, 0},
	      {"int wmem_alloc", "wmem_alloc", "int", "int", 84, 4, SIG, 0, 4, 0},
	      {"int wmem_queued", "wmem_queued", "int", "int", 88, 4, SIG, 0, 4, 0},
	      {"int kind", "kind", "int", "int", 92, 4, SIG, 0, 4, 0});
	/* Flexible arrays (size 0) appear only in the ftrace category. */
	CHECK("ftrace", "print", 5,
	      {"unsigned long ip", "ip", "unsigned long", "unsigned long", 8, 8, 0, 0, 8, 0},
	      {"char buf[]", "buf", "char[]", "char", 16, 0, ARR | STR, 0, 1, 0});
	CHECK("ftrace", "function", 1,
	      {"unsigned long ip", "ip", "unsigned long", "unsigned long", 8, 8, 0, 0, 8, 0},
	      {"unsigned long parent_ip", "parent_ip", "unsigned long", "unsigned long", 16, 8, 0,
	       0, 8, 0},
	      {"unsigned long args[]", "args", "unsigned long[]", "unsigned long", 24, 0, ARR, 0, 8,
	       0});
}

static void test_task_rename(void **state)
{
	CHECK("task", "task_rename", 204,
	      {"pid_t pid", "pid", "pid_t", "pid_t", 8, 4, SIG, 0, 4, 0},
	      {"char oldcomm[16]", "oldcomm", "char[16]", "char", 12, 16, ARR | STR, 16, 1, 0},
	      {"char newcomm[16]", "newcomm", "char[16]", "char", 28, 16, ARR | STR, 16, 1, 0},
	      {"short oom_score_adj", "oom_score_adj", "short", "short", 44, 2, SIG, 0, 2, 0});
}

static void test_scalar_shapes(void **state)
{
	CHECK("percpu", "percpu_alloc_percpu", 645,
	      {"unsigned long call_site", "call_site", "unsigned long", "unsigned long", 8, 8, 0, 0,
	       8, 0},
	      {"bool reserved", "reserved", "bool", "bool", 16, 1, 0, 0, 1, 0},
	      {"bool is_atomic", "is_atomic", "bool", "bool", 17, 1, 0, 0, 1, 0},
	      {"size_t size", "size", "size_t", "size_t", 24, 8, 0, 0, 8, 0},
	      {"size_t align", "align", "size_t", "size_t", 32, 8, 0, 0, 8, 0},
	      {"void * base_addr", "base_addr", "void *", "void", 40, 8, PTR, 0, 8, 1},
	      {"int off", "off", "int", "int", 48, 4, SIG, 0, 4, 0},
	      {"void __seg_gs * ptr", "ptr", "void __seg_gs *", "void", 56, 8, PTR, 0, 8, 1},
	      {"size_t bytes_alloc", "bytes_alloc", "size_t", "size_t", 64, 8, 0, 0, 8, 0},
	      {"unsigned long gfp_flags", "gfp_flags", "unsigned long", "unsigned long", 72, 8, 0,
	       0, 8, 0});
	CHECK("compaction", "mm_compaction_deferred", 665,
	      {"int nid", "nid", "int", "int", 8, 4, SIG, 0, 4, 0},
	      {"enum zone_type idx", "idx", "enum zone_type", "enum zone_type", 12, 4, 0, 0, 4, 0},
	      {"int order", "order", "int", "int", 16, 4, SIG, 0, 4, 0},
	      {"unsigned int considered", "considered", "unsigned int", "unsigned int", 20, 4, 0, 0,
	       4, 0},
	      {"unsigned int defer_shift", "defer_shift", "unsigned int", "unsigned int", 24, 4, 0,
	       0, 4, 0},
	      {"int order_failed", "order_failed", "int", "int", 28, 4, SIG, 0, 4, 0});
	CHECK("kvmmmu", "kvm_mmu_set_spte", 119, {"u64 gfn", "gfn", "u64", "u64", 8, 8, 0, 0, 8, 0},
	      {"u64 spte", "spte", "u64", "u64", 16, 8, 0, 0, 8, 0},
	      {"u64 sptep", "sptep", "u64", "u64", 24, 8, 0, 0, 8, 0},
	      {"u8 level", "level", "u8", "u8", 32, 1, 0, 0, 1, 0},
	      {"bool r", "r", "bool", "bool", 33, 1, 0, 0, 1, 0},
	      {"bool x", "x", "bool", "bool", 34, 1, 0, 0, 1, 0},
	      {"signed char u", "u", "signed char", "signed char", 35, 1, SIG, 0, 1, 0});
}

static void test_rel_loc(void **state)
{
	static const struct want w[] = {
		{"__rel_loc char[] foo", "foo", "__rel_loc char[]", "char", 8, 4, RLOC | STR, 0, 1,
		 0},
		{"u32 bar", "bar", "u32", "u32", 12, 4, 0, 0, 4, 0},
		{"__rel_loc unsigned long[] bitmask", "bitmask", "__rel_loc unsigned long[]",
		 "unsigned long", 16, 4, RLOC, 0, 8, 0},
		{"__rel_loc char name[]", "name", "__rel_loc char[]", "char", 20, 4, RLOC | STR, 0,
		 1, 0},
	};
	struct tp_format f;

	load_handmade("rel_loc.format", &f);
	assert_null(f.category);
	assert_int_equal(f.id, 9001);
	check_fields(&f, w, ARRAY_SIZE(w));
	types_tp_format_free(&f);
}

static void test_old_kernel(void **state)
{
	static const struct want w[] = {
		{"int common_tgid", "common_tgid", "int", "int", 8, 4, COM | SIG, 0, 4, 0},
		{"char prev_comm[TASK_COMM_LEN]", "prev_comm", "char[TASK_COMM_LEN]", "char", 12,
		 16, ARR | STR, 16, 1, 0},
		{"pid_t prev_pid", "prev_pid", "pid_t", "pid_t", 28, 4, SIG, 0, 4, 0},
		{"unsigned long long stamp", "stamp", "unsigned long long", "unsigned long long",
		 32, 8, 0, 0, 8, 0},
		{"int matrix[2][3]", "matrix", "int[2][3]", "int", 40, 24, SIG | ARR, 6, 4, 0},
	};
	struct tp_format f;

	load_handmade("old_kernel.format", &f);
	assert_int_equal(f.nfields, 4 + ARRAY_SIZE(w));
	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		sema_check_field(&f.fields[4 + i], &w[i]);
	types_tp_format_free(&f);
}

static void test_field_lookup(void **state)
{
	struct tp_format f;

	load_fixture("sched", "sched_switch", &f);
	assert_int_equal(types_tp_format_field(&f, "next_pid")->offset, 56);
	assert_int_equal(types_tp_format_field(&f, "common_pid")->offset, 4);
	assert_null(types_tp_format_field(&f, "next_pi"));
	assert_null(types_tp_format_field(&f, ""));
	types_tp_format_free(&f);
}

/* The -lv text, checked against `bpftrace -lv` 0.17 output on the same kernel. */
static void test_describe(void **state)
{
	struct strbuf sb = {0};
	struct tp_format f;

	load_fixture("syscalls", "sys_enter_openat", &f);
	types_tp_format_describe(&f, &sb);
	assert_string_equal(sb_str(&sb), "tracepoint:syscalls:sys_enter_openat\n"
					 "    int __syscall_nr\n"
					 "    int dfd\n"
					 "    const char * filename\n"
					 "    int flags\n"
					 "    umode_t mode\n");
	types_tp_format_free(&f);
	sb_reset(&sb);

	load_fixture("block", "block_rq_complete", &f);
	types_tp_format_describe(&f, &sb);
	assert_string_equal(sb_str(&sb), "tracepoint:block:block_rq_complete\n"
					 "    dev_t dev\n"
					 "    sector_t sector\n"
					 "    unsigned int nr_sector\n"
					 "    int error\n"
					 "    unsigned short ioprio\n"
					 "    char rwbs[10]\n"
					 "    __data_loc char[] cmd\n");
	types_tp_format_free(&f);
	sb_reset(&sb);

	load_fixture("btrfs", "btrfs_alloc_extent_state", &f);
	types_tp_field_describe(types_tp_format_field(&f, "ip"), &sb);
	assert_string_equal(sb_str(&sb), "    const void* ip\n");
	types_tp_format_free(&f);
	sb_free(&sb);
}

static void expect_parse_error(const char *text, const char *msg_part)
{
	char err[256] = "";
	struct tp_format f;

	assert_int_equal(types_tp_format_parse(text, &f, err, sizeof(err)), -EINVAL);
	if (!strstr(err, msg_part))
		fail_msg("error '%s' lacks '%s'", err, msg_part);
	assert_int_equal(f.nfields, 0);
	assert_null(f.fields);
	types_tp_format_free(&f); /* harmless */
}

static void test_malformed(void **state)
{
	expect_parse_error("", "not a tracepoint format file");
	expect_parse_error("hello\nworld", "not a tracepoint format file");
	expect_parse_error("name: x\nID: 1\nformat:\n\nprint fmt: \"\"\n", "lists no fields");
	expect_parse_error("name: x\nID: z\n", "line 2: bad ID");
	expect_parse_error("format:\n\tfield:int a;\toffset:0;\tsize:4;\n\tfield:int;\toffset:4;"
			   "\tsize:4;\n",
			   "line 3: cannot read field 'int;");
	expect_parse_error("format:\n\tfield:int a;\toffset:0;\n", "line 2");
	expect_parse_error("format:\n\tfield:int a\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:int a;\toffset:x;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:int a;\toffset:99999999999;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:char a[16;\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:char a]16[;\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:a;\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:int 9a;\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:__data_loc x;\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:in$t a;\toffset:0;\tsize:4;\n", "line 2");
	expect_parse_error("format:\n\tfield:const * a;\toffset:0;\tsize:4;\n", "line 2");
}

/* Odd but acceptable: CRLF, no trailing newline, attributes reordered. */
static void test_tolerant(void **state)
{
	char err[256] = "";
	struct tp_format f;

	assert_int_equal(types_tp_format_parse("name: e\r\nID: 7\r\nformat:\r\n\tfield:u32 x;\tsize:4;"
					 "\toffset:8;\tsigned:0;\r\n\tfield:s8 y;  offset:12 ; "
					 "size:1;",
					 &f, err, sizeof(err)),
			 0);
	assert_string_equal(f.event, "e");
	assert_int_equal(f.id, 7);
	assert_int_equal(f.nfields, 2);
	assert_string_equal(f.fields[0].name, "x");
	assert_int_equal(f.fields[0].offset, 8);
	assert_int_equal(f.fields[0].size, 4);
	assert_string_equal(f.fields[1].name, "y");
	assert_int_equal(f.fields[1].offset, 12);
	assert_true(f.fields[1].is_signed); /* s8, no signed: given */
	types_tp_format_free(&f);
}

/* Dimensions that are not plain numbers, or too big. */
static void test_odd_dims(void **state)
{
	char err[256] = "";
	struct tp_format f;

	assert_int_equal(
		types_tp_format_parse("format:\n"
				"\tfield:char a[-1];\toffset:0;\tsize:16;\n"
				"\tfield:int b[0x4];\toffset:16;\tsize:16;\n"
				"\tfield:char c[99999999999999999999];\toffset:32;\tsize:1;\n"
				"\tfield:char d[65536][65536];\toffset:33;\tsize:1;\n"
				"\tfield:int e[ 2 ];\toffset:34;\tsize:8;\n",
				&f, err, sizeof(err)),
		0);
	assert_int_equal(f.nfields, 5);
	for (uint32_t i = 0; i < f.nfields; i++)
		assert_true(f.fields[i].is_array);
	assert_int_equal(f.fields[0].array_len, 16); /* from size / sizeof(char) */
	assert_int_equal(f.fields[1].array_len, 4);  /* from size / sizeof(int) */
	assert_int_equal(f.fields[2].array_len, 0);  /* too big: unknown */
	assert_int_equal(f.fields[3].array_len, 0);
	assert_int_equal(f.fields[4].array_len, 2);
	types_tp_format_free(&f);
}

/* tp_format_load through a fake tracefs root. */
static void test_load_from_tree(void **state)
{
	char err[256] = "";
	struct tp_format f;

	sys_tracefs_set_path(FIXTURES);
	assert_int_equal(types_tp_format_load("sched", "sched_switch", &f, err, sizeof(err)), 0);
	assert_string_equal(f.category, "sched");
	assert_string_equal(f.event, "sched_switch");
	assert_int_equal(f.id, 372);
	types_tp_format_free(&f);

	assert_int_equal(types_tp_format_load("sched", "sched_swich", &f, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "tracepoint sched:sched_swich not found");
	assert_int_equal(types_tp_format_load("ftrace", "print", &f, err, sizeof(err)), -ENOENT);
	assert_int_equal(types_tp_format_load("..", "..", &f, err, sizeof(err)), -ENOENT);
	assert_int_equal(types_tp_format_load("sched/../sched", "sched_switch", &f, err, sizeof(err)),
			 -ENOENT);
	sys_tracefs_set_path(NULL);
}

static int walk_count, walk_failed;

/* Every format file under events/, ftrace included. */
static void parse_all(const char *root)
{
	char path[4096];
	struct dirent *c, *e;
	DIR *cats, *evs;

	snprintf(path, sizeof(path), "%s/events", root);
	cats = opendir(path);
	assert_non_null(cats);
	while ((c = readdir(cats))) {
		if (c->d_name[0] == '.' || c->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", root, c->d_name);
		evs = opendir(path);
		if (!evs)
			continue;
		while ((e = readdir(evs))) {
			char err[256] = "", *text;
			struct tp_format f;

			if (e->d_name[0] == '.' || e->d_type != DT_DIR)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, c->d_name,
				 e->d_name);
			text = util_read_file(path, NULL);
			if (!text)
				continue;
			walk_count++;
			if (types_tp_format_parse(text, &f, err, sizeof(err))) {
				walk_failed++;
				print_message("FAILED %s: %s\n", path, err);
			} else {
				/* Sanity: dimensions agree with sizes. */
				for (uint32_t i = 0; i < f.nfields; i++) {
					const struct tp_field *fl = &f.fields[i];
					if ((fl->is_data_loc && fl->size != 4) ||
					    (fl->is_array && fl->array_len &&
					     fl->array_len * fl->elem_size != fl->size)) {
						walk_failed++;
						print_message("BAD %s: %s\n", path, fl->decl);
					}
				}
				types_tp_format_free(&f);
			}
			free(text);
		}
		closedir(evs);
	}
	closedir(cats);
}

static void test_live_all_formats(void **state)
{
	char err[256] = "";
	const char *root;
	uint64_t t0;

	if (geteuid() != 0)
		skip();
	root = sys_tracefs_path(err, sizeof(err));
	if (!root) {
		print_message("no tracefs: %s\n", err);
		skip();
	}
	t0 = util_now_ns();
	parse_all(root);
	print_message("parsed %d format files in %.1f ms, %d failed\n", walk_count,
		      (util_now_ns() - t0) / 1e6, walk_failed);
	assert_true(walk_count > 0);
	assert_int_equal(walk_failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_common_fields),  cmocka_unit_test(test_sys_enter_openat),
		cmocka_unit_test(test_sys_exit_read),  cmocka_unit_test(test_sys_enter_execve),
		cmocka_unit_test(test_pointer_shapes), cmocka_unit_test(test_sched_switch),
		cmocka_unit_test(test_data_loc),       cmocka_unit_test(test_block_rq_complete),
		cmocka_unit_test(test_arrays),	       cmocka_unit_test(test_task_rename),
		cmocka_unit_test(test_scalar_shapes),  cmocka_unit_test(test_rel_loc),
		cmocka_unit_test(test_old_kernel),     cmocka_unit_test(test_field_lookup),
		cmocka_unit_test(test_describe),       cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_tolerant),       cmocka_unit_test(test_odd_dims),
		cmocka_unit_test(test_load_from_tree), cmocka_unit_test(test_live_all_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
