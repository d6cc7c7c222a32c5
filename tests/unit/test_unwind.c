// SPDX-License-Identifier: MIT
/*
 * The user-stack unwinder (sym/unwind.h) on this very process: a function
 * a few calls deep copies its registers and the top of its stack, as a
 * BPF program does, and the unwinder must give the return addresses that
 * glibc's backtrace() gives from the same place. Also: a copy too short
 * for the whole stack ends the unwind as "beyond the snapshot", the
 * frame-pointer test of a file, a file whose CFI search table libdw would
 * not use, and the executable-only copy of a process's maps that the
 * caches keep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <execinfo.h>
#include <fcntl.h>
#include <gelf.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sym/procmaps.h"
#include "sym/unwind.h"
#include "sym/uwfile.h"

#define COPY 32768
#define MAXF 64

struct shot {
	struct sym_uregs regs;
	uint8_t stack[COPY];
	size_t len;
	void *bt[MAXF];
	int nbt;
};

/* The stack cannot be longer than what is mapped above sp: cut the copy there. */
static size_t mapped_above(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long long lo, hi;
	size_t n = COPY;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && sp >= lo && sp < hi && hi - sp < n)
			n = hi - sp;
	if (f)
		fclose(f);
	return n;
}

/*
 * The registers the CFI may need (callee-saved, sp, ip), then the stack
 * from sp up and, from the same frame, backtrace(). noinline: a frame of
 * its own, as a probed function has.
 */
/* The raw copy of the stack, as the kernel makes it: under ASan, redzones and all */
static __attribute__((noinline, no_sanitize_address)) void copy_raw(uint8_t *dst, uintptr_t src,
								   size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = ((const volatile uint8_t *)src)[i];
}

static __attribute__((noinline, no_sanitize_address)) void capture(struct shot *s)
{
	uint64_t *r = s->regs.r;

	memset(&s->regs, 0, sizeof(s->regs));
	__asm__ volatile("lea 0(%%rip), %%rax\n\t"
			 "mov %%rax, 128(%0)\n\t"
			 "mov %%rsp, 56(%0)\n\t"
			 "mov %%rbp, 48(%0)\n\t"
			 "mov %%rbx, 24(%0)\n\t"
			 "mov %%r12, 96(%0)\n\t"
			 "mov %%r13, 104(%0)\n\t"
			 "mov %%r14, 112(%0)\n\t"
			 "mov %%r15, 120(%0)\n\t"
			 :
			 : "r"(r)
			 : "rax", "memory");
	/* the stack above sp as it is now: the callers' frames do not change below */
	s->len = mapped_above(r[UW_RSP]);
	copy_raw(s->stack, (uintptr_t)r[UW_RSP], s->len);
	s->nbt = backtrace(s->bt, MAXF);
}

static __attribute__((noinline)) int level3(struct shot *s, int x)
{
	capture(s);
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static __attribute__((noinline)) int level2(struct shot *s, int x)
{
	int y = level3(s, x * 3);
	__asm__ volatile("" ::: "memory");
	return y + x;
}

static __attribute__((noinline)) int level1(struct shot *s, int x)
{
	int y = level2(s, x + 7);
	__asm__ volatile("" ::: "memory");
	return y * 2;
}

/* where backtrace() has addr: 1, or 2 under ASan (its interceptor's frame first); -1 */
static int bt_index(const struct shot *s, uint64_t addr)
{
	for (int i = 1; i < 3 && i < s->nbt; i++)
		if ((uint64_t)(uintptr_t)s->bt[i] == addr)
			return i;
	return -1;
}

static void test_unwind_self(void **state)
{
	static struct shot s;
	uint64_t ips[MAXF];
	struct sym_unwind_info info;

	level1(&s, 5);
	int n = sym_unwind(getpid(), &s.regs, s.stack, s.len, ips, MAXF, &info);
	/*
	 * ips[0] is in capture(); then the same callers as backtrace()'s, from
	 * its frame of capture()'s caller on (ASan's interceptor adds a frame)
	 */
	int k = bt_index(&s, ips[1]);
	assert_true(n >= 5);
	assert_true(k >= 1);
	for (int i = 1; i + k - 1 < s.nbt && i < n; i++)
		assert_int_equal(ips[i], (uint64_t)(uintptr_t)s.bt[i + k - 1]);
	assert_int_equal(n, s.nbt - (k - 1));
	assert_int_equal(info.end, UW_END_OUTERMOST);
	assert_true(info.used > 0 && info.used <= s.len);
}

static void test_unwind_short_copy(void **state)
{
	static struct shot s;
	uint64_t ips[MAXF];
	struct sym_unwind_info info;

	level1(&s, 1);
	/* a copy that holds capture()'s frame and not much more */
	int n = sym_unwind(getpid(), &s.regs, s.stack, 64, ips, MAXF, &info);
	assert_true(n >= 1 && n < s.nbt - 1);
	assert_int_equal(info.end, UW_END_SNAPSHOT);
}

static void test_unwind_max(void **state)
{
	static struct shot s;
	uint64_t ips[2];
	struct sym_unwind_info info;

	level1(&s, 2);
	int n = sym_unwind(getpid(), &s.regs, s.stack, s.len, ips, 2, &info);
	assert_int_equal(n, 2);
	assert_int_equal(info.end, UW_END_MAX);
	assert_true(bt_index(&s, ips[1]) >= 1);
}

static void test_file_fp(void **state)
{
	/* no file: unknown; a file: 0 or 1 */
	assert_int_equal(sym_unwind_file_fp("/nonexistent/file"), -1);
	int fp = sym_unwind_file_fp("/proc/self/exe");
	assert_true(fp == 0 || fp == 1);
}

/*
 * A file whose .eh_frame_hdr comes after its .eh_frame (lld's order: LLVM's
 * libraries): the row of its last function is found through the header's
 * search table, not by walking every FDE from the first (libdw 0.188 keeps
 * each one it walks past: 4 MB for libLLVM). Skipped where no such file is.
 */
static void test_cfi_hdr_after_eh_frame(void **state)
{
	static const char *const paths[] = { "/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1",
					     "/usr/lib/llvm-14/lib/libclang-cpp.so.14" };
	const char *path = NULL;
	uint64_t last = 0;
	struct stat st;

	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths) && !path; i++) {
		int fd = open(paths[i], O_RDONLY);
		Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		size_t shstr;
		bool eh = false;
		elf_version(EV_CURRENT);
		while (e && elf_getshdrstrndx(e, &shstr) == 0 && (scn = elf_nextscn(e, scn))) {
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;
			Elf_Data *d;
			int32_t loc;
			uint32_t n;
			eh |= name && !strcmp(name, ".eh_frame");
			if (!name || strcmp(name, ".eh_frame_hdr") || !eh || !(d = elf_getdata(scn, NULL)) ||
			    d->d_size < 12)
				continue;
			/* the table's last entry: its function's start */
			memcpy(&n, (char *)d->d_buf + 8, 4);
			if (n && 12 + (uint64_t)n * 8 <= d->d_size) {
				memcpy(&loc, (char *)d->d_buf + 12 + (uint64_t)(n - 1) * 8, 4);
				last = sh.sh_addr + (int64_t)loc;
				path = paths[i];
			}
		}
		if (e)
			elf_end(e);
		if (fd >= 0)
			close(fd);
	}
	if (!path || stat(path, &st) != 0)
		skip();
	struct uw_file *f = sym_uw_file_path(path, st.st_dev, st.st_ino);
	Dwarf_Frame *fr = NULL;
	assert_non_null(f);
	size_t before = mallinfo2().uordblks;
	const struct uw_row *r = sym_uw_row(f, last, &fr);
	size_t after = mallinfo2().uordblks;
	assert_non_null(r);
	free(fr);
	assert_true(after < before + (256 << 10));
	sym_unwind_release();
	(void)state;
}

/* Only the executable mappings stay, in order, with their paths, offsets and copies intact */
static void test_maps_keep_exec(void **state)
{
	static const char text[] =
		"55d0a000-55d0b000 r--p 00000000 08:01 1234 /usr/bin/cc1\n"
		"55d0b000-55d2b000 r-xp 00001000 08:01 1234 /usr/bin/cc1\n"
		"55d2b000-55d3b000 rw-p 00000000 00:00 0 [heap]\n"
		"7f0000000000-7f0000020000 r-xp 00028000 08:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
		"7f0000020000-7f0000030000 rw-p 00000000 00:00 0 \n"
		"7ffc0000f000-7ffc00010000 r-xp 00000000 00:00 0 [vdso]\n";
	struct sym_maps m, copy;

	sym_maps_parse(strdup(text), &m);
	assert_int_equal(m.n, 6);
	sym_maps_keep_exec(&m);
	assert_int_equal(m.n, 3);
	assert_string_equal(m.v[0].path, "/usr/bin/cc1");
	assert_int_equal(m.v[0].offset, 0x1000);
	assert_string_equal(m.v[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(m.v[2].path, "[vdso]");
	assert_non_null(sym_maps_find(&m, 0x7f0000000010));
	assert_null(sym_maps_find(&m, 0x55d2b010)); /* the heap is gone */
	sym_maps_copy(&m, &copy);
	sym_maps_free(&m);
	assert_int_equal(copy.n, 3);
	assert_string_equal(copy.v[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	sym_maps_free(&copy);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unwind_self),
		cmocka_unit_test(test_unwind_short_copy),
		cmocka_unit_test(test_unwind_max),
		cmocka_unit_test(test_file_fp),
		cmocka_unit_test(test_cfi_hdr_after_eh_frame),
		cmocka_unit_test(test_maps_keep_exec),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	sym_unwind_release();
	return rc;
}
