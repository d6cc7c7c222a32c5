// SPDX-License-Identifier: MIT
/*
 * lantern trace's decoders without root: every argument kind of
 * kinds.def fed a value and fixed bytes, its text compared with what
 * strace 6.1 prints for the same (the expected strings are strace's), and
 * its --json value checked against the kind's JSON type (doc/lantern.8's
 * schema). Every kind must have a case: a kind added without one fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kcmp.h>
#include <linux/mman.h>
#include <linux/openat2.h>
#include <linux/futex.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>

#include "trace/decode.h"

static bool covered[A_COUNT_];

/* A minimal JSON reader: the end of the value at p, NULL if it is not one */
static const char *json_value(const char *p);

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return NULL;
	return *p == '"' ? p + 1 : NULL;
}

static const char *json_list(const char *p, char close, bool keys)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keys) {
			if (!(p = json_string(ws(p))))
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value(ws(p))))
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	p = ws(p);
	switch (*p) {
	case '{':
		return json_list(p, '}', true);
	case '[':
		return json_list(p, ']', false);
	case '"':
		return json_string(p);
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	default:
		if (*p != '-' && (*p < '0' || *p > '9'))
			return NULL;
		p++;
		while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == '-')
			p++;
		return p;
	}
}

/* The JSON value s is what kind k promises (or a pointer, for what points to memory) */
static bool json_fits(enum targ k, const char *s)
{
	bool ptr = !strcmp(s, "null") || !strncmp(s, "\"0x", 3);

	switch ((enum trace_json_type)trace_kinds[k].json) {
	case JT_NONE:
		return !*s;
	case JT_NUMBER:
		return *s == '-' || (*s >= '0' && *s <= '9');
	case JT_STRING:
		return *s == '"' || ptr;
	case JT_CONST:
		return *s == '"' || *s == '-' || (*s >= '0' && *s <= '9');
	case JT_FLAGS:
		return *s == '[';
	case JT_POINTER:
		return ptr;
	case JT_OBJECT:
		return *s == '{' || ptr;
	case JT_ARRAY:
		return *s == '[' || ptr;
	case JT_VARIES:
		return true;
	}
	return false;
}

/*
 * Kind k of value v with bytes p[0..n) (NULL: none read), the call's
 * arguments args (or NULL) with it at index at, its result ret: strace's
 * text want, and a JSON value of the kind's type
 */
static void check_at(enum targ k, int64_t v, const void *p, size_t n, const int64_t *args, int at, int64_t ret,
		     const char *want)
{
	struct targ_val a = { .v = v, .data = p, .len = (uint32_t)n };
	struct tdecode d = { .strsize = 32, .ret = ret, .failed = ret < 0 && ret >= -4095, .args = args,
			     .ret_fd = -1, .at = at };
	struct strbuf text = { 0 }, json = { 0 };
	struct tw w;
	const char *end;

	trace_tw_init(&w, &text, false);
	trace_decode_arg(&w, k, &a, &d);
	if (strcmp(sb_str(&text), want))
		fail_msg("kind %s: got '%s', want '%s'", trace_kinds[k].name, sb_str(&text), want);
	trace_tw_init(&w, &json, true);
	trace_decode_arg(&w, k, &a, &d);
	end = *sb_str(&json) ? json_value(sb_str(&json)) : sb_str(&json);
	if (!end || *ws(end))
		fail_msg("kind %s: not JSON: %s", trace_kinds[k].name, sb_str(&json));
	if (!json_fits(k, sb_str(&json)))
		fail_msg("kind %s: JSON %s is not of its type (%d)", trace_kinds[k].name, sb_str(&json),
			 trace_kinds[k].json);
	covered[k] = true;
	sb_free(&text);
	sb_free(&json);
}

static void check(enum targ k, int64_t v, const char *want)
{
	check_at(k, v, NULL, 0, NULL, 0, 0, want);
}

static void check_mem(enum targ k, const void *p, size_t n, int64_t ret, const char *want)
{
	check_at(k, 0x7ffd1000, p, n, NULL, 0, ret, want);
}

static void test_scalars(void **state)
{
	(void)state;
	check(A_NONE, 0, "");
	check(A_INT, -1, "-1");
	check(A_LONG, -4096, "-4096");
	check(A_UINT, 4096, "4096");
	check(A_UINT32, 0xffffffffll, "4294967295");
	check(A_HEX, 0x1f, "0x1f");
	check(A_PTR, 0, "NULL");
	check(A_PTR, 0x7ffd1000, "0x7ffd1000");
	check(A_FD, 3, "3");
	check(A_DIRFD, AT_FDCWD, "AT_FDCWD");
	check(A_DIRFD, 5, "5");
	check(A_OCTAL, 0644, "0644");
	check(A_OCTAL, 0, "000");
	check(A_MODE_T, S_IFREG | 0644, "S_IFREG|0644");
	check(A_MODE_T, S_IFCHR | S_ISUID | 0600, "S_IFCHR|S_ISUID|0600");
	check(A_OPEN_FLAGS, O_RDONLY | O_CLOEXEC, "O_RDONLY|O_CLOEXEC");
	check(A_OPEN_FLAGS, O_WRONLY | O_CREAT | O_TRUNC, "O_WRONLY|O_CREAT|O_TRUNC");
	check(A_OPEN_FLAGS, O_RDONLY | O_PATH | O_DIRECTORY, "O_RDONLY|O_PATH|O_DIRECTORY");
	check(A_OPEN_FLAGS, O_RDONLY | 0100000, "O_RDONLY|O_LARGEFILE");
	check(A_ACCESS_MODE, 0, "F_OK");
	check(A_ACCESS_MODE, R_OK | X_OK, "R_OK|X_OK");
	check(A_AT_FLAGS, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH, "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH");
	check(A_AT_FLAGS, 0, "0");
	check(A_FACCESSAT_FLAGS, AT_EACCESS, "AT_EACCESS");
	check(A_STATX_FLAGS, AT_NO_AUTOMOUNT, "AT_STATX_SYNC_AS_STAT|AT_NO_AUTOMOUNT");
	check(A_FD_FLAGS, O_CLOEXEC, "O_CLOEXEC");
	check(A_STATX_MASK, STATX_BASIC_STATS | STATX_MNT_ID, "STATX_BASIC_STATS|STATX_MNT_ID");
	check(A_WHENCE, SEEK_END, "SEEK_END");
	check(A_FADVICE, POSIX_FADV_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL");
	check(A_FCNTL_CMD, F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC");
	check_at(A_FCNTL_ARG, FD_CLOEXEC, NULL, 0, (int64_t[6]){ 3, F_SETFD, FD_CLOEXEC }, 2, 0, "FD_CLOEXEC");
	check_at(A_FCNTL_ARG, O_RDWR | O_NONBLOCK, NULL, 0, (int64_t[6]){ 3, F_SETFL }, 2, 0, "O_RDWR|O_NONBLOCK");
	check(A_IOCTL_REQ, TCGETS, "TCGETS");
	check(A_IOCTL_REQ, 0x4004ffff, "0x4004ffff");
	check(A_MOUNT_FLAGS, MS_REC | MS_PRIVATE, "MS_REC|MS_PRIVATE");
	check(A_UMOUNT_FLAGS, MNT_DETACH, "MNT_DETACH");
	check(A_RENAME_FLAGS, RENAME_NOREPLACE, "RENAME_NOREPLACE");
	check(A_PROT, 0, "PROT_NONE");
	check(A_PROT, PROT_READ | PROT_WRITE, "PROT_READ|PROT_WRITE");
	check(A_MAP_FLAGS, MAP_PRIVATE | MAP_ANONYMOUS, "MAP_PRIVATE|MAP_ANONYMOUS");
	check(A_MADVISE, MADV_DONTNEED, "MADV_DONTNEED");
	check(A_MREMAP_FLAGS, MREMAP_MAYMOVE, "MREMAP_MAYMOVE");
	check(A_CLONE_FLAGS, CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | SIGCHLD,
	      "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
	check(A_UNSHARE_FLAGS, CLONE_NEWNS, "CLONE_NEWNS");
	check(A_WAIT_OPTIONS, WNOHANG, "WNOHANG");
	check(A_FUTEX_OP, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME,
	      "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME");
	check_at(A_FUTEX_VAL3, 0xffffffff, NULL, 0, (int64_t[6]){ 0, FUTEX_WAIT_BITSET }, 5, 0,
		 "FUTEX_BITSET_MATCH_ANY");
	check(A_RLIMIT_RESOURCE, RLIMIT_NOFILE, "RLIMIT_NOFILE");
	check(A_ARCH_PRCTL, 0x1002, "ARCH_SET_FS");
	check(A_PRCTL_OP, PR_SET_NAME, "PR_SET_NAME");
	check(A_CAP, CAP_NET_RAW, "CAP_NET_RAW");
	check(A_CAP, 41, "0x29 /* CAP_??? */");
	check(A_GRND_FLAGS, GRND_NONBLOCK, "GRND_NONBLOCK");
	check(A_KCMP, KCMP_FILE, "KCMP_FILE");
	check(A_CLOCKID, CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	check(A_TIMER_FLAGS, TIMER_ABSTIME, "TIMER_ABSTIME");
	check(A_SIGNAL, SIGCHLD, "SIGCHLD");
	check(A_SIGNAL, 34, "SIGRT_2");
	check(A_SIGHOW, SIG_SETMASK, "SIG_SETMASK");
	check(A_EPOLL_CTL_OP, EPOLL_CTL_ADD, "EPOLL_CTL_ADD");
	check(A_EPOLL_FLAGS, EPOLL_CLOEXEC, "EPOLL_CLOEXEC");
	check(A_EFD_FLAGS, 0, "0");
	check(A_SOCK_FAMILY, AF_INET6, "AF_INET6");
	check(A_SOCK_TYPE, SOCK_STREAM | SOCK_CLOEXEC, "SOCK_STREAM|SOCK_CLOEXEC");
	check_at(A_SOCK_PROTO, IPPROTO_TCP, NULL, 0, (int64_t[6]){ AF_INET }, 2, 0, "IPPROTO_TCP");
	check(A_SOCK_FLAGS, SOCK_NONBLOCK, "SOCK_NONBLOCK");
	check(A_SOCKOPT_LEVEL, SOL_SOCKET, "SOL_SOCKET");
	check_at(A_SOCKOPT_NAME, SO_REUSEADDR, NULL, 0, (int64_t[6]){ 3, SOL_SOCKET }, 2, 0, "SO_REUSEADDR");
	check(A_MSG_FLAGS, MSG_NOSIGNAL | MSG_DONTWAIT, "MSG_DONTWAIT|MSG_NOSIGNAL");
}

static void test_strings(void **state)
{
	static const char path[] = "/etc/ld.so.cache", nl[] = "a\"b\n\1";
	static char argv[8 + 2 * 34] = { 2, 0, 0, 0, 34, 0, 0, 0, 'l', 's' };
	static const char envp[8] = { 25, 0, 0, 0, 1 };
	int fds[2] = { 3, 4 };

	(void)state;
	check_mem(A_PATH, path, sizeof(path), 0, "\"/etc/ld.so.cache\"");
	check_at(A_PATH, 0, NULL, 0, NULL, 0, 0, "NULL");
	check_mem(A_STR, nl, sizeof(nl), 0, "\"a\\\"b\\n\\1\"");
	check_mem(A_STR_OUT, "python3", 8, 0, "\"python3\"");
	check_mem(A_PATH_OUT, "/tmp\0", 5, 5, "\"/tmp\"");
	check_at(A_BUF_IN, 0x1000, "hello\n", 6, (int64_t[6]){ 1, 0x1000, 6 }, 1, 6, "\"hello\\n\"");
	check_mem(A_BUF_OUT, "0123456789abcdef0123456789abcdef", 32, 100,
		  "\"0123456789abcdef0123456789abcdef\"...");
	check_mem(A_BUF_HEX, "\1\2", 2, 2, "\"\\x01\\x02\"");
	memcpy((char *)argv + 8 + 34, "-l", 3);
	check_mem(A_ARGV, argv, sizeof(argv), 0, "[\"ls\", \"-l\"]");
	check_mem(A_ENVP, envp, sizeof(envp), 0, "0x7ffd1000 /* 25 vars */");
	check_mem(A_PIPEFDS, fds, sizeof(fds), 0, "[3, 4]");
	check_at(A_IOCTL_ARG, 4, NULL, 0, (int64_t[6]){ 5, FICLONE, 4 }, 2, -95, "4");
	check_at(A_IOCTL_ARG, 0x1000, &fds[1], sizeof(int), (int64_t[6]){ 4, FIONREAD }, 2, 0, "[4]");
}

static void test_files(void **state)
{
	struct stat st = { .st_mode = S_IFREG | 0644, .st_size = 2996 };
	struct stat dev = { .st_mode = S_IFCHR | 0666, .st_rdev = makedev(1, 3) };
	struct statx sx = { .stx_mask = STATX_BASIC_STATS, .stx_mode = S_IFDIR | 0755, .stx_size = 4096 };
	struct statfs sf = { .f_type = 0xef53, .f_bsize = 4096, .f_blocks = 10, .f_bfree = 5, .f_bavail = 4,
			     .f_files = 100, .f_ffree = 50, .f_namelen = 255, .f_frsize = 4096, .f_flags = 0x1020 };
	uint8_t dents[48] = { 0 };
	struct timespec times[2] = { { 0, UTIME_OMIT }, { 1600000000, 0 } };

	(void)state;
	check_mem(A_STAT, &st, sizeof(st), 0, "{st_mode=S_IFREG|0644, st_size=2996, ...}");
	check_mem(A_OPEN_HOW, &(struct open_how){ .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS },
		  sizeof(struct open_how), 0, "{flags=O_RDONLY|O_CLOEXEC, resolve=RESOLVE_NO_SYMLINKS}");
	check_mem(A_STAT, &dev, sizeof(dev), 0, "{st_mode=S_IFCHR|0666, st_rdev=makedev(0x1, 0x3), ...}");
	check_mem(A_STATX, &sx, sizeof(sx), 0,
		  "{stx_mask=STATX_BASIC_STATS, stx_attributes=0, stx_mode=S_IFDIR|0755, stx_size=4096, ...}");
	check_mem(A_STATFS, &sf, sizeof(sf), 0,
		  "{f_type=EXT2_SUPER_MAGIC, f_bsize=4096, f_blocks=10, f_bfree=5, f_bavail=4, f_files=100, "
		  "f_ffree=50, f_fsid={val=[0, 0]}, f_namelen=255, f_frsize=4096, f_flags=ST_VALID|ST_RELATIME}");
	dents[16] = 24;
	dents[24 + 16] = 24;
	check_mem(A_DIRENTS, dents, sizeof(dents), 48, "0x7ffd1000 /* 2 entries */");
	setenv("TZ", "UTC", 1);
	tzset();
	check_mem(A_UTIMES, times, sizeof(times), 0,
		  "[UTIME_OMIT, {tv_sec=1600000000, tv_nsec=0} /* 2020-09-13T12:26:40+0000 */]");
}

static void test_processes(void **state)
{
	struct clone_args ca = { .flags = CLONE_VM | CLONE_VFORK, .exit_signal = SIGCHLD, .stack = 0x7f00,
				 .stack_size = 0x9000 };
	struct rlimit rl = { 8192 * 1024, RLIM_INFINITY };
	struct utsname u = { .sysname = "Linux", .nodename = "box" };
	int status = 0x0100; /* exited with 1 */
	gid_t groups[2] = { 0, 27 };
	uint8_t cpus[8] = { 3 };
	struct sysinfo si = { .uptime = 5, .procs = 9, .mem_unit = 1 };
	struct __user_cap_header_struct ch = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct cd[2] = { { 0, 1u << CAP_NET_RAW, 0 } };
	int one = 0;

	(void)state;
	check_mem(A_CLONE_ARGS, &ca, sizeof(ca), 0,
		  "{flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x7f00, stack_size=0x9000}");
	check_mem(A_RLIMIT_IN, &rl, sizeof(rl), 0, "{rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}");
	check_mem(A_RLIMIT_OUT, &rl, sizeof(rl), 0, "{rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}");
	check_mem(A_UTSNAME, &u, sizeof(u), 0, "{sysname=\"Linux\", nodename=\"box\", ...}");
	check_mem(A_WAIT_STATUS, &status, sizeof(status), 42, "[{WIFEXITED(s) && WEXITSTATUS(s) == 1}]");
	check_at(A_GROUPS, 0x1000, groups, sizeof(groups), (int64_t[6]){ 2, 0x1000 }, 1, 2, "[0, 27]");
	check_at(A_GROUPS, 0, NULL, 0, (int64_t[6]){ 0, 0 }, 1, 2, "NULL");
	check_mem(A_CPUSET, cpus, sizeof(cpus), 8, "[0 1]");
	check_mem(A_SYSINFO, &si, sizeof(si), 0,
		  "{uptime=5, loads=[0, 0, 0], totalram=0, freeram=0, sharedram=0, bufferram=0, totalswap=0, "
		  "freeswap=0, procs=9, totalhigh=0, freehigh=0, mem_unit=1}");
	check_mem(A_CAP_HEADER, &ch, sizeof(ch), 0, "{version=_LINUX_CAPABILITY_VERSION_3, pid=0}");
	check_mem(A_CAP_DATA_IN, cd, sizeof(cd), 0, "{effective=0, permitted=1<<CAP_NET_RAW, inheritable=0}");
	check_mem(A_CAP_DATA_OUT, cd, sizeof(cd), 0, "{effective=0, permitted=1<<CAP_NET_RAW, inheritable=0}");
	check_mem(A_INT_OUT, &one, sizeof(one), 0, "[0]");
}

static void test_time_and_signals(void **state)
{
	struct timespec ts = { 1, 500 };
	struct itimerspec its = { { 0, 0 }, { 1, 0 } };
	struct sigevent ev = { .sigev_signo = SIGALRM, .sigev_notify = SIGEV_SIGNAL };
	uint64_t set = 1ull << (SIGCHLD - 1);
	uint64_t ksa[4] = { 0, 0x04000000 | 0x10000000, 0x7f00, 0 }; /* SA_RESTORER|SA_RESTART */
	stack_t ss = { .ss_sp = (void *)0x5000, .ss_flags = 0, .ss_size = 65536 };

	(void)state;
	check_mem(A_TIMESPEC_IN, &ts, sizeof(ts), 0, "{tv_sec=1, tv_nsec=500}");
	check_mem(A_TIMESPEC_OUT, &ts, sizeof(ts), 0, "{tv_sec=1, tv_nsec=500}");
	check_mem(A_TIMESPEC_REM, &ts, sizeof(ts), 0, "0x7ffd1000");
	check_mem(A_ITIMERSPEC_IN, &its, sizeof(its), 0,
		  "{it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=1, tv_nsec=0}}");
	check_mem(A_ITIMERSPEC_OUT, &its, sizeof(its), 0,
		  "{it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=1, tv_nsec=0}}");
	check_mem(A_SIGEVENT, &ev, sizeof(ev), 0, "{sigev_signo=SIGALRM, sigev_notify=SIGEV_SIGNAL}");
	check_mem(A_SIGSET_IN, &set, sizeof(set), 0, "[CHLD]");
	check_mem(A_SIGFRAME_MASK, &set, sizeof(set), 0, "{mask=[CHLD]}");
	set = ~0ull & ~(1ull << (SIGKILL - 1));
	check_mem(A_SIGSET_OUT, &set, sizeof(set), 0, "~[KILL]");
	check_mem(A_SIGACTION_IN, ksa, sizeof(ksa), 0,
		  "{sa_handler=SIG_DFL, sa_mask=[], sa_flags=SA_RESTORER|SA_RESTART, sa_restorer=0x7f00}");
	check_mem(A_SIGACTION_OUT, ksa, sizeof(ksa), 0,
		  "{sa_handler=SIG_DFL, sa_mask=[], sa_flags=SA_RESTORER|SA_RESTART, sa_restorer=0x7f00}");
	check_mem(A_STACK_IN, &ss, sizeof(ss), 0, "{ss_sp=0x5000, ss_flags=0, ss_size=65536}");
	check_mem(A_STACK_OUT, &ss, sizeof(ss), 0, "{ss_sp=0x5000, ss_flags=0, ss_size=65536}");
}

static void test_polling(void **state)
{
	struct pollfd pf[2] = { { 0, POLLIN, 0 }, { 4, POLLIN | POLLOUT, POLLOUT } };
	struct epoll_event ev[1] = { { .events = EPOLLIN, .data.u64 = 3 } };

	(void)state;
	check_mem(A_POLLFDS, pf, sizeof(pf), 1, "[{fd=0, events=POLLIN}, {fd=4, events=POLLIN|POLLOUT}]");
	check_at(A_EPOLL_EVENT_IN, 0x1000, ev, sizeof(ev), (int64_t[6]){ 3, EPOLL_CTL_ADD, 4, 0x1000 }, 3, 0,
		 "{events=EPOLLIN, data={u32=3, u64=3}}");
	check_mem(A_EPOLL_EVENTS, ev, sizeof(ev), 1, "[{events=EPOLLIN, data={u32=3, u64=3}}]");
}

static void test_sockets(void **state)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(80), .sin_addr.s_addr = htonl(0x7f000001) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(53), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	socklen_t len = 16;
	int one = 1;
	/* TR_IOV_*'s layout: a count, a slot size, then each iov_base, iov_len and its bytes */
	uint8_t iov[8 + 16 + 8] = { 1, 0, 0, 0, 8, 0, 0, 0 };
	uint8_t msg[MSGHDR_SIZE + sizeof(iov)] = { 0 };
	struct msghdr *m = (struct msghdr *)msg;
	uint64_t base = 0x1000, n = 2;

	(void)state;
	check_at(A_SOCKADDR_IN, 0x1000, &in, sizeof(in), (int64_t[6]){ 3, 0x1000, sizeof(in) }, 1, 0,
		 "{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"127.0.0.1\")}");
	check_mem(A_SOCKADDR_OUT, &in6, sizeof(in6), 0,
		  "{sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"::1\", "
		  "&sin6_addr), sin6_scope_id=0}");
	check_mem(A_SOCKADDR_OUT, &un, offsetof(struct sockaddr_un, sun_path) + 12, 0,
		  "{sa_family=AF_UNIX, sun_path=\"/run/x.sock\"}");
	check_mem(A_SOCKLEN_OUT, &len, sizeof(len), 0, "[16]");
	check_at(A_SOCKOPT_IN, 0x1000, &one, sizeof(one), (int64_t[6]){ 3, SOL_SOCKET, SO_REUSEADDR, 0x1000, 4 }, 3,
		 0, "[1]");
	check_at(A_SOCKOPT_OUT, 0x1000, &one, sizeof(one), (int64_t[6]){ 3, SOL_SOCKET, SO_ERROR, 0x1000, 0x2000 },
		 3, 0, "0x1000");
	memcpy(iov + 8, &base, 8);
	memcpy(iov + 16, &n, 8);
	memcpy(iov + 24, "hi", 2);
	check_at(A_IOVEC_IN, 0x1000, iov, sizeof(iov), (int64_t[6]){ 3, 0x1000, 1 }, 1, 2,
		 "[{iov_base=\"hi\", iov_len=2}]");
	check_at(A_IOVEC_OUT, 0x1000, iov, sizeof(iov), (int64_t[6]){ 3, 0x1000, 1 }, 1, 1,
		 "[{iov_base=\"h\", iov_len=2}]");
	m->msg_iovlen = 1;
	memcpy(msg + MSGHDR_SIZE, iov, sizeof(iov));
	check_mem(A_MSGHDR_IN, msg, sizeof(msg), 2,
		  "{msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"hi\", iov_len=2}], msg_iovlen=1, "
		  "msg_controllen=0, msg_flags=0}");
	check_mem(A_MSGHDR_OUT, msg, sizeof(msg), 2,
		  "{msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"hi\", iov_len=2}], msg_iovlen=1, "
		  "msg_controllen=0, msg_flags=0}");
}

/* A value the call failed to fill shows its address; one the programs could not read, too */
static void test_not_read(void **state)
{
	struct targ_val a = { .v = 0x7ffd1000, .notread = true };
	struct tdecode d = { .strsize = 32, .ret = -2, .failed = true, .ret_fd = -1 };
	struct strbuf s = { 0 };
	struct tw w;

	(void)state;
	for (int k = 0; k < A_COUNT_; k++) {
		if (trace_kinds[k].when != KW_EXIT || trace_kinds[k].read.how == TR_NONE || k == A_IOCTL_ARG)
			continue;
		sb_reset(&s);
		trace_tw_init(&w, &s, false);
		trace_decode_arg(&w, (enum targ)k, &a, &d);
		if (strcmp(sb_str(&s), "0x7ffd1000"))
			fail_msg("kind %s, not read: got '%s'", trace_kinds[k].name, sb_str(&s));
	}
	sb_free(&s);
}

/* The table: a row per kind, each with a name; every kind has a case above */
static void test_every_kind(void **state)
{
	(void)state;
	for (int k = 0; k < A_COUNT_; k++) {
		assert_non_null(trace_kinds[k].name);
		if (!covered[k])
			fail_msg("kind %s has no case in test_trace_decode.c", trace_kinds[k].name);
		/* a kind read at entry makes its call slow; one printed at exit is read then */
		if (trace_kinds[k].read.how == TR_STR || trace_kinds[k].read.how == TR_MEM_IN ||
		    trace_kinds[k].read.how == TR_ARGV || trace_kinds[k].read.how == TR_IOV_IN ||
		    trace_kinds[k].read.how == TR_MSG_IN)
			assert_false(trace_kinds[k].quick);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),	       cmocka_unit_test(test_strings),
		cmocka_unit_test(test_files),	       cmocka_unit_test(test_processes),
		cmocka_unit_test(test_time_and_signals), cmocka_unit_test(test_polling),
		cmocka_unit_test(test_sockets),	       cmocka_unit_test(test_not_read),
		cmocka_unit_test(test_every_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
