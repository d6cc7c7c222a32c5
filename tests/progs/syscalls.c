// SPDX-License-Identifier: MIT
/*
 * Known syscalls, a known number of times, for runtime tests:
 *
 *   syscalls openat PATH N     open and close PATH N times
 *   syscalls read N SIZE       read SIZE bytes from /dev/zero N times
 *   syscalls madvise N         madvise(MADV_DONTNEED) N times (and one MADV_NORMAL)
 *   syscalls sleep MS          sleep
 *   syscalls nanosleep MS      sleep with the nanosleep syscall itself (libc's
 *                              nanosleep() makes clock_nanosleep)
 *   syscalls write N TEXT      write TEXT to stdout N times
 *   syscalls mix N             N times each: getppid, uname, stat, lstat, fstat,
 *                              umask, sched_yield, getuid, dup, and a close(-1)
 *                              that fails (made with syscall(2): libc would
 *                              substitute newer calls)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: syscalls openat PATH N | read N SIZE | madvise N | sleep MS | write N TEXT | mix N\n", stderr);
		return 2;
	}
	if (!strcmp(argv[1], "openat") && argc > 3) {
		for (long i = 0; i < atol(argv[3]); i++) {
			int fd = open(argv[2], O_RDONLY);
			if (fd >= 0)
				close(fd);
		}
	} else if (!strcmp(argv[1], "read") && argc > 3) {
		size_t size = atol(argv[3]);
		char *buf = malloc(size ? size : 1);
		int fd = open("/dev/zero", O_RDONLY);
		for (long i = 0; i < atol(argv[2]); i++)
			if (read(fd, buf, size) < 0)
				return 1;
		close(fd);
		free(buf);
	} else if (!strcmp(argv[1], "madvise")) {
		long page = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		madvise(p, page, MADV_NORMAL);
		for (long i = 0; i < atol(argv[2]); i++)
			madvise(p, page, MADV_DONTNEED);
		munmap(p, page);
	} else if (!strcmp(argv[1], "sleep")) {
		struct timespec ts = { atol(argv[2]) / 1000, atol(argv[2]) % 1000 * 1000000 };
		nanosleep(&ts, NULL);
	} else if (!strcmp(argv[1], "nanosleep")) {
		struct timespec ts = { atol(argv[2]) / 1000, atol(argv[2]) % 1000 * 1000000 };
		syscall(SYS_nanosleep, &ts, NULL);
	} else if (!strcmp(argv[1], "write") && argc > 3) {
		for (long i = 0; i < atol(argv[2]); i++)
			if (write(1, argv[3], strlen(argv[3])) < 0)
				return 1;
	} else if (!strcmp(argv[1], "mix")) {
		struct utsname u;
		struct stat st;
		for (long i = 0; i < atol(argv[2]); i++) {
			syscall(SYS_getppid);
			syscall(SYS_uname, &u);
			syscall(SYS_stat, "/", &st);
			syscall(SYS_lstat, "/", &st);
			syscall(SYS_fstat, 0, &st);
			syscall(SYS_umask, 022);
			syscall(SYS_sched_yield);
			syscall(SYS_getuid);
			close(syscall(SYS_dup, 0));
			syscall(SYS_close, -1);
		}
	} else {
		fprintf(stderr, "syscalls: unknown command %s\n", argv[1]);
		return 2;
	}
	return 0;
}
