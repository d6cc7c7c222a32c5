// SPDX-License-Identifier: MIT
/* System call descriptions: see sysdesc.h. */
#include "trace/sysdesc.h"
#include "base/util.h"
#include "trace/trace.h"
#include "sys/syscalls.h"
#include "types/tpformat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F TC_FILE
#define P TC_PROCESS
#define N TC_NETWORK
#define S TC_SIGNAL
#define I TC_IPC
#define D TC_DESC
#define M TC_MEMORY
#define C TC_CREDS
#define K TC_CLOCK

/* As strace prints them; classes as strace's -e trace=%CLASS has them. */
static const struct sysdesc known[] = {
	{ "read", 3, { A_FD, A_BUF_OUT, A_UINT }, R_INT, D },
	{ "write", 3, { A_FD, A_BUF_IN, A_UINT }, R_INT, D },
	{ "pread64", 4, { A_FD, A_BUF_OUT, A_UINT, A_LONG }, R_INT, D },
	{ "pwrite64", 4, { A_FD, A_BUF_IN, A_UINT, A_LONG }, R_INT, D },
	{ "readv", 3, { A_FD, A_IOVEC_OUT, A_UINT }, R_INT, D },
	{ "writev", 3, { A_FD, A_IOVEC_IN, A_UINT }, R_INT, D },
	{ "open", 3, { A_PATH, A_OPEN_FLAGS, A_OCTAL }, R_FD, D | F, CP_OPEN },
	{ "openat", 4, { A_DIRFD, A_PATH, A_OPEN_FLAGS, A_OCTAL }, R_FD, D | F, CP_OPENAT },
	{ "openat2", 4, { A_DIRFD, A_PATH, A_OPEN_HOW, A_UINT }, R_FD, D | F, CP_OPENAT2 },
	{ "creat", 2, { A_PATH, A_OCTAL }, R_FD, D | F, CP_CREAT },
	{ "close", 1, { A_FD }, R_INT, D, CP_CLOSE, true },
	{ "stat", 2, { A_PATH, A_STAT }, R_INT, F | TC_STAT },
	{ "lstat", 2, { A_PATH, A_STAT }, R_INT, F | TC_LSTAT },
	{ "fstat", 2, { A_FD, A_STAT }, R_INT, D | TC_FSTAT, CP_PLAIN, true },
	{ "newfstatat", 4, { A_DIRFD, A_PATH, A_STAT, A_AT_FLAGS }, R_INT, D | F | TC_FSTAT },
	{ "statx", 5, { A_DIRFD, A_PATH, A_STATX_FLAGS, A_STATX_MASK, A_STATX }, R_INT, D | F | TC_FSTAT },
	{ "statfs", 2, { A_PATH, A_STATFS }, R_INT, F | TC_STATFS },
	{ "fstatfs", 2, { A_FD, A_STATFS }, R_INT, D | TC_STATFS },
	{ "access", 2, { A_PATH, A_ACCESS_MODE }, R_INT, F },
	{ "faccessat", 3, { A_DIRFD, A_PATH, A_ACCESS_MODE }, R_INT, D | F },
	{ "faccessat2", 4, { A_DIRFD, A_PATH, A_ACCESS_MODE, A_FACCESSAT_FLAGS }, R_INT, D | F },
	{ "readlink", 3, { A_PATH, A_BUF_OUT, A_UINT }, R_INT, F },
	{ "readlinkat", 4, { A_DIRFD, A_PATH, A_BUF_OUT, A_UINT }, R_INT, D | F },
	{ "unlink", 1, { A_PATH }, R_INT, F },
	{ "unlinkat", 3, { A_DIRFD, A_PATH, A_AT_FLAGS }, R_INT, D | F },
	{ "mkdir", 2, { A_PATH, A_OCTAL }, R_INT, F },
	{ "mkdirat", 3, { A_DIRFD, A_PATH, A_OCTAL }, R_INT, D | F },
	{ "rmdir", 1, { A_PATH }, R_INT, F },
	{ "rename", 2, { A_PATH, A_PATH }, R_INT, F },
	{ "renameat", 4, { A_DIRFD, A_PATH, A_DIRFD, A_PATH }, R_INT, D | F },
	{ "renameat2", 5, { A_DIRFD, A_PATH, A_DIRFD, A_PATH, A_RENAME_FLAGS }, R_INT, D | F },
	{ "chdir", 1, { A_PATH }, R_INT, F, CP_CHDIR },
	{ "fchdir", 1, { A_FD }, R_INT, D, CP_FCHDIR },
	{ "chmod", 2, { A_PATH, A_OCTAL }, R_INT, F },
	{ "fchmod", 2, { A_FD, A_OCTAL }, R_INT, D },
	{ "fchmodat", 3, { A_DIRFD, A_PATH, A_OCTAL }, R_INT, D | F },
	{ "chown", 3, { A_PATH, A_INT, A_INT }, R_INT, F },
	{ "fchown", 3, { A_FD, A_INT, A_INT }, R_INT, D },
	{ "getcwd", 2, { A_PATH_OUT, A_UINT }, R_INT, F, CP_PLAIN, true },
	{ "symlink", 2, { A_PATH, A_PATH }, R_INT, F },
	{ "link", 2, { A_PATH, A_PATH }, R_INT, F },
	{ "truncate", 2, { A_PATH, A_LONG }, R_INT, F },
	{ "ftruncate", 2, { A_FD, A_LONG }, R_INT, D },
	{ "lseek", 3, { A_FD, A_LONG, A_WHENCE }, R_INT, D, CP_PLAIN, true },
	{ "dup", 1, { A_FD }, R_FD, D, CP_DUP, true },
	{ "dup2", 2, { A_FD, A_FD }, R_FD, D, CP_DUP2, true },
	{ "dup3", 3, { A_FD, A_FD, A_FD_FLAGS }, R_FD, D, CP_DUP2, true },
	{ "pipe", 1, { A_PIPEFDS }, R_INT, D },
	{ "pipe2", 2, { A_PIPEFDS, A_FD_FLAGS }, R_INT, D, CP_PLAIN, true },
	{ "fcntl", 3, { A_FD, A_FCNTL_CMD, A_FCNTL_ARG }, R_INT, D, CP_FCNTL },
	{ "ioctl", 3, { A_FD, A_IOCTL_REQ, A_IOCTL_ARG }, R_INT, D },
	{ "getdents64", 3, { A_FD, A_DIRENTS, A_UINT }, R_INT, D, CP_PLAIN, true },
	{ "fsync", 1, { A_FD }, R_INT, D },
	{ "fdatasync", 1, { A_FD }, R_INT, D },
	{ "fadvise64", 4, { A_FD, A_LONG, A_UINT, A_FADVICE }, R_INT, D },
	{ "poll", 3, { A_POLLFDS, A_UINT, A_INT }, R_INT, D, CP_POLL },
	{ "select", 5, { A_INT, A_PTR, A_PTR, A_PTR, A_PTR }, R_INT, D },
	{ "epoll_create1", 1, { A_EPOLL_FLAGS }, R_FD, D },
	{ "epoll_ctl", 4, { A_FD, A_EPOLL_CTL_OP, A_FD, A_EPOLL_EVENT_IN }, R_INT, D },
	{ "epoll_wait", 4, { A_FD, A_EPOLL_EVENTS, A_INT, A_INT }, R_INT, D },
	{ "epoll_pwait", 6, { A_FD, A_EPOLL_EVENTS, A_INT, A_INT, A_PTR, A_UINT }, R_INT, D },
	{ "eventfd2", 2, { A_UINT, A_EFD_FLAGS }, R_FD, D },
	{ "mmap", 6, { A_PTR, A_UINT, A_PROT, A_MAP_FLAGS, A_FD, A_HEX }, R_HEX, M | D, CP_PLAIN, true },
	{ "munmap", 2, { A_PTR, A_UINT }, R_INT, M, CP_PLAIN, true },
	{ "mprotect", 3, { A_PTR, A_UINT, A_PROT }, R_INT, M, CP_PLAIN, true },
	{ "madvise", 3, { A_PTR, A_UINT, A_MADVISE }, R_INT, M, CP_PLAIN, true },
	{ "mremap", 5, { A_PTR, A_UINT, A_UINT, A_MREMAP_FLAGS, A_PTR }, R_HEX, M, CP_PLAIN, true },
	{ "brk", 1, { A_PTR }, R_HEX, M, CP_PLAIN, true },
	{ "execve", 3, { A_PATH, A_ARGV, A_ENVP }, R_INT, F | P },
	{ "execveat", 5, { A_DIRFD, A_PATH, A_ARGV, A_ENVP, A_AT_FLAGS }, R_INT, D | F | P },
	{ "exit", 1, { A_INT }, R_NONE, P },
	{ "exit_group", 1, { A_INT }, R_NONE, P },
	{ "clone", 5, { A_PTR, A_CLONE_FLAGS, A_PTR, A_PTR, A_HEX }, R_INT, P, CP_CLONE },
	{ "clone3", 2, { A_CLONE_ARGS, A_UINT }, R_INT, P },
	{ "fork", 0, { 0 }, R_INT, P },
	{ "vfork", 0, { 0 }, R_INT, P },
	{ "wait4", 4, { A_INT, A_WAIT_STATUS, A_WAIT_OPTIONS, A_PTR }, R_INT, P },
	{ "kill", 2, { A_INT, A_SIGNAL }, R_INT, P | S },
	{ "tkill", 2, { A_INT, A_SIGNAL }, R_INT, S },
	{ "tgkill", 3, { A_INT, A_INT, A_SIGNAL }, R_INT, S },
	{ "rt_sigaction", 4, { A_SIGNAL, A_SIGACTION_IN, A_SIGACTION_OUT, A_UINT }, R_INT, S, CP_PLAIN, true },
	{ "rt_sigprocmask", 4, { A_SIGHOW, A_SIGSET_IN, A_SIGSET_OUT, A_UINT }, R_INT, S, CP_PLAIN, true },
	{ "rt_sigreturn", 1, { A_SIGFRAME_MASK }, R_INT, S },
	{ "pause", 0, { 0 }, R_INT, S },
	{ "getpid", 0, { 0 }, R_INT, TC_PURE, CP_PLAIN, true },
	{ "getppid", 0, { 0 }, R_INT, TC_PURE, CP_PLAIN, true },
	{ "gettid", 0, { 0 }, R_INT, TC_PURE, CP_PLAIN, true },
	{ "getuid", 0, { 0 }, R_INT, C | TC_PURE, CP_PLAIN, true },
	{ "geteuid", 0, { 0 }, R_INT, C | TC_PURE, CP_PLAIN, true },
	{ "getgid", 0, { 0 }, R_INT, C | TC_PURE, CP_PLAIN, true },
	{ "getegid", 0, { 0 }, R_INT, C | TC_PURE, CP_PLAIN, true },
	{ "setuid", 1, { A_INT }, R_INT, C },
	{ "setgid", 1, { A_INT }, R_INT, C },
	{ "umask", 1, { A_OCTAL }, R_OCTAL, 0, CP_PLAIN, true },
	{ "uname", 1, { A_UTSNAME }, R_INT, 0, CP_PLAIN, true },
	{ "arch_prctl", 2, { A_ARCH_PRCTL, A_HEX }, R_INT, 0, CP_PLAIN, true },
	{ "prctl", 5, { A_PRCTL_OP, A_STR_OUT, A_HEX, A_HEX, A_HEX }, R_INT, 0, CP_PRCTL },
	{ "set_tid_address", 1, { A_PTR }, R_INT, 0, CP_PLAIN, true },
	{ "set_robust_list", 2, { A_PTR, A_UINT }, R_INT, 0, CP_PLAIN, true },
	{ "rseq", 4, { A_PTR, A_HEX, A_INT, A_HEX }, R_INT, 0, CP_PLAIN, true },
	{ "prlimit64", 4, { A_INT, A_RLIMIT_RESOURCE, A_RLIMIT_IN, A_RLIMIT_OUT }, R_INT, 0, CP_PLAIN, true },
	{ "getrlimit", 2, { A_RLIMIT_RESOURCE, A_RLIMIT_OUT }, R_INT, 0, CP_PLAIN, true },
	{ "getrandom", 3, { A_BUF_HEX, A_UINT, A_GRND_FLAGS }, R_INT, 0 },
	{ "futex", 6, { A_PTR, A_FUTEX_OP, A_INT, A_PTR, A_PTR, A_INT }, R_INT, 0, CP_FUTEX },
	{ "nanosleep", 2, { A_TIMESPEC_IN, A_TIMESPEC_REM }, R_INT, K },
	{ "clock_nanosleep", 4, { A_CLOCKID, A_INT, A_TIMESPEC_IN, A_TIMESPEC_REM }, R_INT, K },
	{ "clock_gettime", 2, { A_CLOCKID, A_TIMESPEC_OUT }, R_INT, K, CP_PLAIN, true },
	{ "clock_getres", 2, { A_CLOCKID, A_TIMESPEC_OUT }, R_INT, K, CP_PLAIN, true },
	{ "sched_yield", 0, { 0 }, R_INT, 0, CP_PLAIN, true },
	{ "socket", 3, { A_SOCK_FAMILY, A_SOCK_TYPE, A_SOCK_PROTO }, R_FD, N },
	{ "connect", 3, { A_FD, A_SOCKADDR_IN, A_UINT }, R_INT, N },
	{ "bind", 3, { A_FD, A_SOCKADDR_IN, A_UINT }, R_INT, N },
	{ "listen", 2, { A_FD, A_INT }, R_INT, N },
	{ "accept", 3, { A_FD, A_SOCKADDR_OUT, A_SOCKLEN_OUT }, R_FD, N },
	{ "accept4", 4, { A_FD, A_SOCKADDR_OUT, A_SOCKLEN_OUT, A_SOCK_FLAGS }, R_FD, N },
	{ "getsockname", 3, { A_FD, A_SOCKADDR_OUT, A_SOCKLEN_OUT }, R_INT, N },
	{ "getpeername", 3, { A_FD, A_SOCKADDR_OUT, A_SOCKLEN_OUT }, R_INT, N },
	{ "sendto", 6, { A_FD, A_BUF_IN, A_UINT, A_MSG_FLAGS, A_SOCKADDR_IN, A_UINT }, R_INT, N },
	{ "recvfrom", 6, { A_FD, A_BUF_OUT, A_UINT, A_MSG_FLAGS, A_SOCKADDR_OUT, A_SOCKLEN_OUT }, R_INT, N },
	{ "sendmsg", 3, { A_FD, A_MSGHDR_IN, A_MSG_FLAGS }, R_INT, N },
	{ "recvmsg", 3, { A_FD, A_MSGHDR_OUT, A_MSG_FLAGS }, R_INT, N },
	{ "shutdown", 2, { A_FD, A_INT }, R_INT, N },
	{ "setsockopt", 5, { A_FD, A_SOCKOPT_LEVEL, A_SOCKOPT_NAME, A_SOCKOPT_IN, A_UINT }, R_INT, N },
	{ "getsockopt", 5, { A_FD, A_SOCKOPT_LEVEL, A_SOCKOPT_NAME, A_SOCKOPT_OUT, A_SOCKLEN_OUT }, R_INT, N },
	{ "socketpair", 4, { A_SOCK_FAMILY, A_SOCK_TYPE, A_SOCK_PROTO, A_PIPEFDS }, R_INT, N },
	{ "kcmp", 5, { A_INT, A_INT, A_KCMP, A_UINT, A_UINT }, R_INT, 0 },
	{ "symlinkat", 3, { A_PATH, A_DIRFD, A_PATH }, R_INT, D | F },
	{ "getgroups", 2, { A_INT, A_GROUPS }, R_INT, C },
	{ "mount", 5, { A_PATH, A_PATH, A_STR, A_MOUNT_FLAGS, A_STR }, R_INT, F, CP_MOUNT },
	{ "umount2", 2, { A_PATH, A_UMOUNT_FLAGS }, R_INT, F },
	{ "unshare", 1, { A_UNSHARE_FLAGS }, R_INT, 0 },
	{ "fchownat", 5, { A_DIRFD, A_PATH, A_INT, A_INT, A_AT_FLAGS }, R_INT, D | F },
		{ "linkat", 5, { A_DIRFD, A_PATH, A_DIRFD, A_PATH, A_AT_FLAGS }, R_INT, D | F },
	{ "mknodat", 4, { A_DIRFD, A_PATH, A_MODE_T, A_HEX }, R_INT, D | F },
	{ "mknod", 3, { A_PATH, A_MODE_T, A_HEX }, R_INT, F },
	{ "lchown", 3, { A_PATH, A_INT, A_INT }, R_INT, F },
	{ "chroot", 1, { A_PATH }, R_INT, F },
	{ "getresuid", 3, { A_PTR, A_PTR, A_PTR }, R_INT, C, CP_PLAIN, true },
	{ "getresgid", 3, { A_PTR, A_PTR, A_PTR }, R_INT, C, CP_PLAIN, true },
	{ "getpgrp", 0, { 0 }, R_INT, TC_PURE, CP_PLAIN, true },
	{ "getpgid", 1, { A_INT }, R_INT, 0, CP_PLAIN, true },
	{ "getsid", 1, { A_INT }, R_INT, 0, CP_PLAIN, true },
	{ "sigaltstack", 2, { A_STACK_IN, A_STACK_OUT }, R_INT, S, CP_PLAIN, true },
	{ "gettimeofday", 2, { A_PTR, A_PTR }, R_INT, K, CP_PLAIN, true },
	{ "time", 1, { A_PTR }, R_INT, K, CP_PLAIN, true },
	{ "sched_getaffinity", 3, { A_INT, A_UINT, A_CPUSET }, R_INT, 0, CP_PLAIN, true },
	{ "getpriority", 2, { A_INT, A_INT }, R_INT, 0, CP_PLAIN, true },
	{ "rt_sigsuspend", 2, { A_SIGSET_IN, A_UINT }, R_INT, S },
	{ "timer_create", 3, { A_CLOCKID, A_SIGEVENT, A_INT_OUT }, R_INT, 0 },
	{ "timer_settime", 4, { A_INT, A_TIMER_FLAGS, A_ITIMERSPEC_IN, A_ITIMERSPEC_OUT }, R_INT, 0 },
	{ "timer_gettime", 2, { A_INT, A_ITIMERSPEC_OUT }, R_INT, 0 },
	{ "timer_delete", 1, { A_INT }, R_INT, 0 },
	{ "utimensat", 4, { A_DIRFD, A_PATH, A_UTIMES, A_AT_FLAGS }, R_INT, D | F },
	{ "sysinfo", 1, { A_SYSINFO }, R_INT, 0 },
	{ "capget", 2, { A_CAP_HEADER, A_CAP_DATA_OUT }, R_INT, C },
	{ "capset", 2, { A_CAP_HEADER, A_CAP_DATA_IN }, R_INT, C },
};

#undef F
#undef P
#undef N
#undef S
#undef I
#undef D
#undef M
#undef C
#undef K

/*
 * The string arguments of the calls described from their format files
 * (generic(): A(i) argument i, read as A_PATH or as A_STR), so that what
 * the programs read for them is known before any format file is read:
 * the file of a call is read when a record of it is printed. As this
 * kernel's files make them; tests/unit/test_sysdesc.c compares them with
 * the running kernel's.
 */
#define A(i) (1u << (i))
static const struct {
	const char *name;
	uint8_t paths, strs;
} strargs[] = {
	{ "acct", A(0), 0 }, { "add_key", 0, A(0) | A(1) },
	{ "chroot", A(0), 0 }, { "fanotify_mark", A(4), 0 },
	{ "fchmodat2", A(1), 0 }, { "fchownat", A(1), 0 },
	{ "fgetxattr", A(1), 0 }, { "file_getattr", A(1), 0 },
	{ "file_setattr", A(1), 0 }, { "fremovexattr", A(1), 0 },
	{ "fsconfig", 0, A(2) }, { "fsetxattr", A(1), 0 },
	{ "fsopen", 0, A(0) }, { "fspick", A(1), 0 },
	{ "futimesat", A(1), 0 }, { "getxattr", A(0) | A(1), 0 },
	{ "getxattrat", A(1) | A(3), 0 }, { "inotify_add_watch", A(1), 0 },
	{ "lchown", A(0), 0 }, { "lgetxattr", A(0) | A(1), 0 },
	{ "linkat", A(1) | A(3), 0 }, { "listxattr", A(0), 0 },
	{ "listxattrat", A(1), 0 }, { "llistxattr", A(0), 0 },
	{ "lremovexattr", A(0) | A(1), 0 }, { "lsetxattr", A(0) | A(1), 0 },
	{ "memfd_create", 0, A(0) }, { "mknod", A(0), 0 },
	{ "mknodat", A(1), 0 }, { "mount", A(1), 0 },
	{ "mount_setattr", A(1), 0 }, { "move_mount", 0, A(1) | A(3) },
	{ "mq_open", 0, A(0) }, { "mq_timedsend", 0, A(1) },
	{ "mq_unlink", 0, A(0) }, { "name_to_handle_at", A(1), 0 },
	{ "open_tree", A(1), 0 }, { "open_tree_attr", A(1), 0 },
	{ "openat2", A(1), 0 }, { "pivot_root", 0, A(0) | A(1) },
	{ "quotactl", 0, A(1) }, { "removexattr", A(0) | A(1), 0 },
	{ "removexattrat", A(1) | A(3), 0 }, { "request_key", 0, A(0) | A(1) | A(2) },
	{ "setdomainname", A(0), 0 }, { "sethostname", A(0), 0 },
	{ "setxattr", A(0) | A(1), 0 }, { "setxattrat", A(1) | A(3), 0 },
	{ "swapoff", A(0), 0 }, { "swapon", A(0), 0 },
	{ "symlinkat", A(0) | A(2), 0 }, { "umount2", A(0), 0 },
	{ "utime", A(0), 0 }, { "utimensat", A(1), 0 },
	{ "utimes", A(0), 0 },
};
#undef A

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct sysdesc *const *)a)->name, (*(const struct sysdesc *const *)b)->name);
}

/* The description of call name, by a sorted index of them (made on first use) */
static const struct sysdesc *find_known(const char *name)
{
	static const struct sysdesc *sorted[ARRAY_SIZE(known)];
	static bool made;
	struct sysdesc key = { .name = name };
	const struct sysdesc *kp = &key, *const *hit;

	if (!made) {
		for (size_t i = 0; i < ARRAY_SIZE(known); i++)
			sorted[i] = &known[i];
		qsort(sorted, ARRAY_SIZE(known), sizeof(sorted[0]), by_name);
		made = true;
	}
	hit = bsearch(&kp, sorted, ARRAY_SIZE(known), sizeof(sorted[0]), by_name);
	return hit ? *hit : NULL;
}

/* A tracepoint field's C type as an argument kind. */
static enum targ generic_arg(const struct tp_field *f)
{
	/* the field names of paths in the kernel's SYSCALL_DEFINEs */
	static const char *const paths[] = { "filename", "pathname", "path", "oldname", "newname",
					     "dir_name", "name", "specialfile", "library" };
	if (f->is_pointer && f->is_string && f->ptr_depth == 1) {
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
			if (!strcmp(f->name, paths[i]))
				return A_PATH;
		return strstr(f->ctype, "const") ? A_STR : A_PTR;
	}
	if (f->is_pointer)
		return A_PTR;
	size_t n = strlen(f->name);
	if ((n >= 2 && !strcmp(f->name + n - 2, "fd") && strcmp(f->name, "dfd")) || !strcmp(f->name, "fd_in") ||
	    !strcmp(f->name, "fd_out"))
		return A_FD;
	if (!strcmp(f->name, "dfd") || !strcmp(f->name, "dirfd"))
		return A_DIRFD;
	if (!strcmp(f->name, "mode"))
		return A_OCTAL;
	if (!strcmp(f->name, "flags"))
		return A_HEX;
	if (!f->is_signed)
		return A_UINT;
	return strstr(f->ctype, "long") || strstr(f->ctype, "off_t") ? A_LONG : A_INT;
}

/* From the syscall's tracepoint format file, when tracefs has it. */
static struct sysdesc *generic(const char *tp_name, const char *name)
{
	struct tp_format fmt;
	struct sysdesc *d;
	char ev[128], err[256];

	snprintf(ev, sizeof(ev), "sys_enter_%s", tp_name);
	d = util_xcalloc(1, sizeof(*d));
	d->name = name;
	if (types_tp_format_load("syscalls", ev, &fmt, err, sizeof(err)) < 0) {
		d->nargs = TRACE_NARGS; /* unknown: every register, in hex */
		for (int i = 0; i < TRACE_NARGS; i++)
			d->arg[i] = A_HEX;
		return d;
	}
	for (uint32_t i = 0; i < fmt.nfields && d->nargs < TRACE_NARGS; i++) {
		const struct tp_field *f = &fmt.fields[i];
		if (f->is_common || !strcmp(f->name, "__syscall_nr"))
			continue;
		d->arg[d->nargs++] = generic_arg(f);
		if (d->arg[d->nargs - 1] == A_PATH)
			d->classes |= TC_FILE;
	}
	types_tp_format_free(&fmt);
	return d;
}

/* split: the first argument printed at exit */
static void finish(struct sysdesc *d)
{
	while (d->split < d->nargs && trace_kinds[d->arg[d->split]].when != KW_EXIT)
		d->split++;
}

const struct sysdesc *trace_sysdesc_brief(int nr)
{
	static struct sysdesc *made[SYSCALL_NR_LIMIT];
	const char *name;
	struct sysdesc *d;

	if (nr < 0 || nr >= SYSCALL_NR_LIMIT)
		nr = SYSCALL_NR_LIMIT - 1;
	name = sys_syscall_name(nr);
	if (name && find_known(name))
		return trace_sysdesc_of(nr); /* no file read */
	if (made[nr])
		return made[nr];
	d = util_xcalloc(1, sizeof(*d));
	d->name = name ? name : util_xasprintf("syscall_%d", nr);
	d->nargs = TRACE_NARGS;
	for (int i = 0; i < TRACE_NARGS; i++)
		d->arg[i] = A_HEX;
	for (size_t k = 0; name && k < ARRAY_SIZE(strargs); k++) {
		if (strcmp(strargs[k].name, name))
			continue;
		for (int i = 0; i < TRACE_NARGS; i++)
			if (strargs[k].paths & (1u << i))
				d->arg[i] = A_PATH;
			else if (strargs[k].strs & (1u << i))
				d->arg[i] = A_STR;
		if (strargs[k].paths)
			d->classes |= TC_FILE;
	}
	finish(d);
	made[nr] = d;
	return d;
}

const struct sysdesc *trace_sysdesc_of(int nr)
{
	/* made once per number: every record looks its call up */
	static struct sysdesc *made[SYSCALL_NR_LIMIT];
	const char *name;
	const struct sysdesc *k;
	struct sysdesc *d;

	if (nr < 0 || nr >= SYSCALL_NR_LIMIT)
		nr = SYSCALL_NR_LIMIT - 1;
	if (made[nr])
		return made[nr];
	name = sys_syscall_name(nr);
	if (name && (k = find_known(name))) {
		d = util_xmalloc(sizeof(*d));
		*d = *k;
	} else {
		const char *tp = sys_syscall_tp_name(nr);
		d = generic(tp ? tp : "", name ? name : util_xasprintf("syscall_%d", nr));
	}
	finish(d);
	made[nr] = d;
	return d;
}

void trace_sysdesc_reads(const struct sysdesc *d, uint32_t strsize, struct tread_spec out[TRACE_NARGS])
{
	memset(out, 0, sizeof(struct tread_spec) * TRACE_NARGS);
	for (int i = 0; i < d->nargs; i++) {
		const struct trace_kind *k = &trace_kinds[d->arg[i]];
		out[i] = k->read;
		if (k->read.size_from == TS_ARG || k->read.size_from == TS_ARG8)
			out[i].from = (uint8_t)(i + k->read.from); /* that many arguments after it */
		else
			out[i].from = 0;
		if (k->plus_strsize)
			out[i].size = (uint16_t)MIN(k->read.size + strsize, TRACE_DATA_MAX);
	}
}

bool trace_sysdesc_quick(const struct sysdesc *d)
{
	if (!d->quick)
		return false;
	for (int i = 0; i < d->nargs; i++)
		if (!trace_kinds[d->arg[i]].quick)
			return false;
	return true;
}

const char *trace_sysdesc_argname(int nr, int i)
{
	static const char *const argn[TRACE_NARGS] = { "arg0", "arg1", "arg2", "arg3", "arg4", "arg5" };
	static const char **names[SYSCALL_NR_LIMIT]; /* each call's, read once */
	const char *tp;
	struct tp_format fmt;
	char ev[128], err[256];
	int n = 0;

	if (i < 0 || i >= TRACE_NARGS)
		return "arg";
	if (nr < 0 || nr >= SYSCALL_NR_LIMIT)
		return argn[i];
	if (names[nr])
		return names[nr][i];
	names[nr] = util_xcalloc(TRACE_NARGS, sizeof(char *));
	for (int k = 0; k < TRACE_NARGS; k++)
		names[nr][k] = argn[k];
	tp = sys_syscall_tp_name(nr);
	snprintf(ev, sizeof(ev), "sys_enter_%s", tp ? tp : "");
	if (!tp || types_tp_format_load("syscalls", ev, &fmt, err, sizeof(err)) < 0)
		return names[nr][i];
	for (uint32_t k = 0; k < fmt.nfields && n < TRACE_NARGS; k++) {
		const struct tp_field *f = &fmt.fields[k];
		if (f->is_common || !strcmp(f->name, "__syscall_nr"))
			continue;
		names[nr][n++] = util_xstrdup(f->name);
	}
	types_tp_format_free(&fmt);
	return names[nr][i];
}

uint32_t trace_class_named(const char *name)
{
	static const struct {
		const char *name;
		uint32_t bits;
	} classes[] = {
		{ "file", TC_FILE },	     { "process", TC_PROCESS }, { "network", TC_NETWORK },
		{ "net", TC_NETWORK },	     { "signal", TC_SIGNAL },	{ "ipc", TC_IPC },
		{ "desc", TC_DESC },	     { "memory", TC_MEMORY },	{ "creds", TC_CREDS },
		{ "clock", TC_CLOCK },	     { "stat", TC_STAT },	{ "lstat", TC_LSTAT },
		{ "fstat", TC_FSTAT },	     { "statfs", TC_STATFS },	{ "pure", TC_PURE },
	};

	if (*name == '%')
		name++;
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(classes[i].name, name))
			return classes[i].bits;
	return 0;
}
