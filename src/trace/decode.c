// SPDX-License-Identifier: MIT
/*
 * Arguments and results as strace prints them: each argument kind of
 * sysdesc.h, the flag and constant tables, the calls whose argument list
 * depends on their values (clone, futex). Quoting and names are in
 * decode_base.c, the structures in decode_structs.c. Names are the Linux
 * ABI's (the values never change).
 */
#include "trace/decode.h"
#include "trace/fdpaths.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define N(x) ARRAY_SIZE(x)

static const struct flag open_flags[] = {
	{ 00000100, "O_CREAT" },     { 00000200, "O_EXCL" },	  { 00000400, "O_NOCTTY" },
	{ 00001000, "O_TRUNC" },     { 00002000, "O_APPEND" },	  { 00004000, "O_NONBLOCK" },
	{ 04010000, "O_SYNC" },	     { 00010000, "O_DSYNC" },	  { 00020000, "O_ASYNC" },
	{ 00040000, "O_DIRECT" },    { 00100000, "O_LARGEFILE" }, { 00400000, "O_NOFOLLOW" },
	{ 01000000, "O_NOATIME" },   { 02000000, "O_CLOEXEC" },	  { 010000000, "O_PATH" },
	{ 020200000, "O_TMPFILE" },  { 00200000, "O_DIRECTORY" },
};

static void put_open_flags(struct strbuf *out, int64_t v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	uint64_t rest = (uint64_t)v & ~3ull;

	if (rest & 010000000) {
		/* O_PATH: strace shows no access mode */
		trace_put_flags(out, rest, open_flags, N(open_flags), NULL);
		return;
	}
	sb_puts(out, acc[v & 3]);
	if (rest) {
		sb_putc(out, '|');
		trace_put_flags(out, rest, open_flags, N(open_flags), NULL);
	}
}

static const struct flag at_flags[] = {
	{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_REMOVEDIR" }, { 0x400, "AT_SYMLINK_FOLLOW" },
	{ 0x800, "AT_NO_AUTOMOUNT" },	  { 0x1000, "AT_EMPTY_PATH" }, { 0x6000, "AT_STATX_DONT_SYNC" },
	{ 0x2000, "AT_STATX_FORCE_SYNC" }, { 0x8000, "AT_RECURSIVE" },
};

/* statx: strace names the sync mode first */
static const struct flag statx_at_flags[] = {
	{ 0x6000, "AT_STATX_DONT_SYNC" }, { 0x2000, "AT_STATX_FORCE_SYNC" }, { 0x4000, "AT_STATX_DONT_SYNC" },
	{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x800, "AT_NO_AUTOMOUNT" },	    { 0x1000, "AT_EMPTY_PATH" },
};
static const struct flag fadvices[] = {
	{ 0, "POSIX_FADV_NORMAL" },   { 1, "POSIX_FADV_RANDOM" },   { 2, "POSIX_FADV_SEQUENTIAL" },
	{ 3, "POSIX_FADV_WILLNEED" }, { 4, "POSIX_FADV_DONTNEED" }, { 5, "POSIX_FADV_NOREUSE" },
};

static const struct flag prot_flags[] = {
	{ 1, "PROT_READ" }, { 2, "PROT_WRITE" }, { 4, "PROT_EXEC" }, { 0x01000000, "PROT_GROWSDOWN" },
	{ 0x02000000, "PROT_GROWSUP" },
};

static const struct flag map_flags[] = {
	{ 0x10, "MAP_FIXED" },	     { 0x20, "MAP_ANONYMOUS" }, { 0x40, "MAP_32BIT" },
	{ 0x100, "MAP_GROWSDOWN" },  { 0x800, "MAP_DENYWRITE" }, { 0x1000, "MAP_EXECUTABLE" },
	{ 0x2000, "MAP_LOCKED" },    { 0x4000, "MAP_NORESERVE" }, { 0x8000, "MAP_POPULATE" },
	{ 0x10000, "MAP_NONBLOCK" }, { 0x20000, "MAP_STACK" },	 { 0x40000, "MAP_HUGETLB" },
	{ 0x80000, "MAP_SYNC" },     { 0x100000, "MAP_FIXED_NOREPLACE" },
};

static void put_map_flags(struct strbuf *out, int64_t v)
{
	static const char *const type[] = { "0", "MAP_SHARED", "MAP_PRIVATE", "MAP_SHARED_VALIDATE" };

	sb_puts(out, type[v & 3]);
	if (v & ~3) {
		sb_putc(out, '|');
		trace_put_flags(out, (uint64_t)v & ~3ull, map_flags, N(map_flags), NULL);
	}
}

static const struct flag access_modes[] = { { 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" } };
static const struct flag grnd_flags[] = { { 1, "GRND_NONBLOCK" }, { 2, "GRND_RANDOM" }, { 4, "GRND_INSECURE" } };
static const struct flag whences[] = { { 0, "SEEK_SET" }, { 1, "SEEK_CUR" }, { 2, "SEEK_END" },
				       { 3, "SEEK_DATA" }, { 4, "SEEK_HOLE" } };
static const struct flag arch_prctls[] = { { 0x1001, "ARCH_SET_GS" }, { 0x1002, "ARCH_SET_FS" },
					   { 0x1003, "ARCH_GET_FS" }, { 0x1004, "ARCH_GET_GS" },
					   { 0x3001, "ARCH_CET_STATUS" } };
static const struct flag rlimits[] = {
	{ 0, "RLIMIT_CPU" },	 { 1, "RLIMIT_FSIZE" },	 { 2, "RLIMIT_DATA" },	  { 3, "RLIMIT_STACK" },
	{ 4, "RLIMIT_CORE" },	 { 5, "RLIMIT_RSS" },	 { 6, "RLIMIT_NPROC" },	  { 7, "RLIMIT_NOFILE" },
	{ 8, "RLIMIT_MEMLOCK" }, { 9, "RLIMIT_AS" },	 { 10, "RLIMIT_LOCKS" },  { 11, "RLIMIT_SIGPENDING" },
	{ 12, "RLIMIT_MSGQUEUE" }, { 13, "RLIMIT_NICE" }, { 14, "RLIMIT_RTPRIO" }, { 15, "RLIMIT_RTTIME" },
};
static const struct flag clocks[] = {
	{ 0, "CLOCK_REALTIME" }, { 1, "CLOCK_MONOTONIC" }, { 2, "CLOCK_PROCESS_CPUTIME_ID" },
	{ 3, "CLOCK_THREAD_CPUTIME_ID" }, { 4, "CLOCK_MONOTONIC_RAW" }, { 5, "CLOCK_REALTIME_COARSE" },
	{ 6, "CLOCK_MONOTONIC_COARSE" }, { 7, "CLOCK_BOOTTIME" }, { 8, "CLOCK_REALTIME_ALARM" },
	{ 9, "CLOCK_BOOTTIME_ALARM" }, { 11, "CLOCK_TAI" },
};
static const struct flag sock_flags[] = { { 02000000, "SOCK_CLOEXEC" }, { 04000, "SOCK_NONBLOCK" } };
static const struct flag sock_types[] = { { 1, "SOCK_STREAM" }, { 2, "SOCK_DGRAM" }, { 3, "SOCK_RAW" },
					  { 4, "SOCK_RDM" }, { 5, "SOCK_SEQPACKET" }, { 10, "SOCK_PACKET" } };
static const struct flag fcntls[] = {
	{ 0, "F_DUPFD" },  { 1, "F_GETFD" },  { 2, "F_SETFD" },	  { 3, "F_GETFL" },  { 4, "F_SETFL" },
	{ 5, "F_GETLK" },  { 6, "F_SETLK" },  { 7, "F_SETLKW" },  { 8, "F_SETOWN" }, { 9, "F_GETOWN" },
	{ 1024, "F_SETLEASE" }, { 1025, "F_GETLEASE" }, { 1030, "F_DUPFD_CLOEXEC" },
	{ 1031, "F_SETPIPE_SZ" }, { 1032, "F_GETPIPE_SZ" }, { 1033, "F_ADD_SEALS" }, { 1034, "F_GET_SEALS" },
};
static const struct flag ioctls[] = {
	{ 0x5401, "TCGETS" },	  { 0x5402, "TCSETS" },	   { 0x5403, "TCSETSW" },  { 0x5404, "TCSETSF" },
	{ 0x540f, "TIOCGPGRP" },  { 0x5410, "TIOCSPGRP" }, { 0x5413, "TIOCGWINSZ" }, { 0x5414, "TIOCSWINSZ" },
	{ 0x541b, "FIONREAD" },	  { 0x5421, "FIONBIO" },   { 0x5450, "FIONCLEX" }, { 0x5451, "FIOCLEX" },
	{ 0x80086601, "FS_IOC_GETFLAGS" },
};
static const struct flag futex_ops[] = {
	{ 0, "FUTEX_WAIT" }, { 1, "FUTEX_WAKE" }, { 2, "FUTEX_FD" }, { 3, "FUTEX_REQUEUE" },
	{ 4, "FUTEX_CMP_REQUEUE" }, { 5, "FUTEX_WAKE_OP" }, { 6, "FUTEX_LOCK_PI" }, { 7, "FUTEX_UNLOCK_PI" },
	{ 8, "FUTEX_TRYLOCK_PI" }, { 9, "FUTEX_WAIT_BITSET" }, { 10, "FUTEX_WAKE_BITSET" },
	{ 11, "FUTEX_WAIT_REQUEUE_PI" }, { 12, "FUTEX_CMP_REQUEUE_PI" }, { 13, "FUTEX_LOCK_PI2" },
};
static const struct flag clone_flags[] = {
	{ 0x100, "CLONE_VM" },	      { 0x200, "CLONE_FS" },	   { 0x400, "CLONE_FILES" },
	{ 0x800, "CLONE_SIGHAND" },   { 0x1000, "CLONE_PIDFD" },   { 0x2000, "CLONE_PTRACE" },
	{ 0x4000, "CLONE_VFORK" },    { 0x8000, "CLONE_PARENT" },  { 0x10000, "CLONE_THREAD" },
	{ 0x20000, "CLONE_NEWNS" },   { 0x40000, "CLONE_SYSVSEM" }, { 0x80000, "CLONE_SETTLS" },
	{ 0x100000, "CLONE_PARENT_SETTID" }, { 0x200000, "CLONE_CHILD_CLEARTID" },
	{ 0x400000, "CLONE_DETACHED" }, { 0x800000, "CLONE_UNTRACED" }, { 0x1000000, "CLONE_CHILD_SETTID" },
	{ 0x2000000, "CLONE_NEWCGROUP" }, { 0x4000000, "CLONE_NEWUTS" }, { 0x8000000, "CLONE_NEWIPC" },
	{ 0x10000000, "CLONE_NEWUSER" }, { 0x20000000, "CLONE_NEWPID" }, { 0x40000000, "CLONE_NEWNET" },
	{ 0x80000000, "CLONE_IO" },
};
static void put_ptr(struct strbuf *out, int64_t v)
{
	if (v)
		sb_printf(out, "%#llx", (unsigned long long)v);
	else
		sb_puts(out, "NULL");
}

static const struct flag wait_options[] = {
	{ 1, "WNOHANG" }, { 2, "WUNTRACED" }, { 4, "WEXITED" }, { 8, "WCONTINUED" },
	{ 0x01000000, "WNOWAIT" }, { 0x20000000, "__WNOTHREAD" }, { 0x40000000, "__WALL" },
	{ 0x80000000, "__WCLONE" },
};
static const struct flag madvises[] = {
	{ 0, "MADV_NORMAL" }, { 1, "MADV_RANDOM" }, { 2, "MADV_SEQUENTIAL" }, { 3, "MADV_WILLNEED" },
	{ 4, "MADV_DONTNEED" }, { 8, "MADV_FREE" }, { 9, "MADV_REMOVE" }, { 10, "MADV_DONTFORK" },
	{ 11, "MADV_DOFORK" }, { 12, "MADV_MERGEABLE" }, { 14, "MADV_HUGEPAGE" }, { 15, "MADV_NOHUGEPAGE" },
	{ 16, "MADV_DONTDUMP" }, { 17, "MADV_DODUMP" }, { 18, "MADV_WIPEONFORK" }, { 20, "MADV_COLD" },
	{ 21, "MADV_PAGEOUT" },
};
static const struct flag sighows[] = { { 0, "SIG_BLOCK" }, { 1, "SIG_UNBLOCK" }, { 2, "SIG_SETMASK" } };
static const struct flag epoll_flags[] = { { 0x80000, "EPOLL_CLOEXEC" } };
static const struct flag efd_flags[] = { { 0x80000, "EFD_CLOEXEC" }, { 0x800, "EFD_NONBLOCK" }, { 1, "EFD_SEMAPHORE" } };
static const struct flag epoll_ops[] = { { 1, "EPOLL_CTL_ADD" }, { 2, "EPOLL_CTL_DEL" }, { 3, "EPOLL_CTL_MOD" } };

/*
 * The path of descriptor fd of process pid (-y), appended as "<path>":
 * what the traced call that made it opened, else what /proc/PID/fd says
 * now; with -yy a socket's endpoints instead of "socket:[inode]".
 */
static void put_fd_path(struct strbuf *out, const struct tdecode *d, int64_t fd)
{
	char link[64], path[PATH_MAX];
	bool closed;
	const char *p = trace_fdpaths_lookup(d->fds, d->pid, (int)fd, &closed);
	unsigned ino;
	ssize_t n;

	if (closed)
		return; /* /proc would show what took its number since */
	if (fd == FDPATH_CWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", d->pid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%lld", d->pid, (long long)fd);
	if (!p) {
		if ((n = readlink(link, path, sizeof(path) - 1)) <= 0)
			return;
		path[n] = 0;
		p = path;
	}
	sb_putc(out, '<');
	if (d->paths < 2 || sscanf(p, "socket:[%u]", &ino) != 1 || !trace_put_socket_endpoints(out, ino, link))
		sb_puts(out, p);
	sb_putc(out, '>');
}

/* argv: ["a", "b", ...]; envp: 0x... followed by the count of its strings */
static void put_argv(struct strbuf *out, const struct targ_val *a, const struct tdecode *d, bool env)
{
	uint32_t count = 0, slot = 0, shown;

	if (!a->data || a->len < 8) {
		put_ptr(out, a->v);
		return;
	}
	memcpy(&count, a->data, 4);
	memcpy(&slot, a->data + 4, 4);
	if (env) {
		put_ptr(out, a->v);
		sb_printf(out, " /* %u var%s */", count, count == 1 ? "" : "s");
		return;
	}
	shown = slot > 1 ? (a->len - 8) / slot : 0;
	sb_putc(out, '[');
	for (uint32_t i = 0; i < shown && i < count; i++) {
		const uint8_t *s = a->data + 8 + i * slot;
		size_t n = strnlen((const char *)s, slot);
		if (i)
			sb_puts(out, ", ");
		/* a full slot (strsize + 1 characters read, or the slot's most) was cut */
		trace_put_quoted(out, s, n, d->strsize, n >= slot - 1, d->hex);
	}
	if (count > shown)
		sb_puts(out, shown ? ", ..." : "...");
	sb_putc(out, ']');
}

/* A buffer of the call: what was read (at most -s bytes), "..." if the call moved more. */
static void put_buffer(struct strbuf *out, const struct targ_val *a, const struct tdecode *d,
		       int64_t total, bool force_hex)
{
	if (!a->unread && total == 0) {
		sb_puts(out, "\"\"");
		return;
	}
	if (a->unread || !a->data) {
		put_ptr(out, a->v);
		return;
	}
	trace_put_quoted(out, a->data, a->len, d->strsize, total > (int64_t)d->strsize && a->len >= d->strsize,
		   force_hex ? 2 : d->hex);
}

/* An argument read as a string (a path: whole; a string: -s long) */
static void put_string(struct strbuf *out, const struct targ_val *a, const struct tdecode *d, bool path)
{
	size_t n;

	if (!a->v) {
		sb_puts(out, "NULL");
		return;
	}
	if (a->unread || !a->data) {
		put_ptr(out, a->v);
		return;
	}
	n = strnlen((const char *)a->data, a->len);
	trace_put_quoted(out, a->data, n, path ? SIZE_MAX : d->strsize, false, d->hex);
}

static void put_fcntl_arg(struct strbuf *out, const struct targ_val *a, const struct tdecode *d)
{
	switch (d->args[1]) {
	case 2: /* F_SETFD */
		sb_puts(out, a->v & 1 ? "FD_CLOEXEC" : "0");
		break;
	case 4: /* F_SETFL */
		put_open_flags(out, a->v);
		break;
	default:
		sb_printf(out, "%lld", (long long)a->v);
	}
}

/* clone3's struct clone_args: the members strace shows for these flags */
static void put_clone_args(struct strbuf *out, const struct targ_val *a, const struct tdecode *d)
{
	const uint8_t *p = a->data;
	uint64_t f[8] = { 0 };

	if (!a->data || a->unread || a->len < 64) {
		put_ptr(out, a->v);
		return;
	}
	memcpy(f, p, 64); /* flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls */
	sb_puts(out, "{flags=");
	trace_put_flags(out, f[0], clone_flags, N(clone_flags), "0");
	if (f[0] & 0x1000)
		sb_printf(out, ", pidfd=%#llx", (unsigned long long)f[1]);
	if (f[0] & (0x01000000 | 0x00200000))
		sb_printf(out, ", child_tid=%#llx", (unsigned long long)f[2]);
	if (f[0] & 0x00100000)
		sb_printf(out, ", parent_tid=%#llx", (unsigned long long)f[3]);
	sb_puts(out, ", exit_signal=");
	if (f[4] && trace_signal_name((int)f[4]))
		sb_puts(out, trace_signal_name((int)f[4]));
	else
		sb_printf(out, "%llu", (unsigned long long)f[4]);
	sb_puts(out, ", stack=");
	put_ptr(out, (int64_t)f[5]);
	sb_printf(out, ", stack_size=%#llx", (unsigned long long)f[6]);
	if (f[0] & 0x00080000)
		sb_printf(out, ", tls=%#llx", (unsigned long long)f[7]);
	sb_putc(out, '}');
	if ((f[0] & 0x00100000) && d->ret > 0)
		sb_printf(out, " => {parent_tid=[%lld]}", (long long)d->ret);
}

/* decode_pointed's second half: signals, processes, sockets */
static bool decode_pointed_more(struct strbuf *out, enum targ k, const struct targ_val *a,
				const struct tdecode *d)
{
	int64_t v = a->v;

	switch (k) {
	case A_SIGSET_IN:
	case A_SIGSET_OUT:
		if (v && a->data && !a->unread)
			trace_put_sigset(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_SIGHOW:
		trace_put_const(out, v, sighows, N(sighows), false);
		break;
	case A_SIGACTION_IN:
	case A_SIGACTION_OUT:
		if (v && a->data && !a->unread)
			trace_put_sigaction(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_WAIT_STATUS:
		if (v && a->data && !a->unread && a->len >= 4 && d->ret > 0) {
			int st;
			memcpy(&st, a->data, 4);
			sb_putc(out, '[');
			trace_put_wait_status(out, st);
			sb_putc(out, ']');
		} else {
			put_ptr(out, v);
		}
		break;
	case A_WAIT_OPTIONS:
		trace_put_flags(out, (uint64_t)v, wait_options, N(wait_options), "0");
		break;
	case A_PIPEFDS:
		if (a->data && !a->unread && a->len >= 8) {
			int fds[2];
			memcpy(fds, a->data, 8);
			sb_printf(out, "[%d, %d]", fds[0], fds[1]);
		} else {
			put_ptr(out, v);
		}
		break;
	case A_DIRENTS:
		put_ptr(out, v);
		if (!a->unread)
			sb_printf(out, " /* %d entries */", a->data ? trace_dirents_count(a->data, a->len) : 0);
		break;
	case A_CLONE_FLAGS:
		/* the exit signal in the low byte */
		trace_put_flags(out, (uint64_t)v & ~0xffull, clone_flags, N(clone_flags), NULL);
		if (v & 0xff) {
			if (v & ~0xffll)
				sb_putc(out, '|');
			sb_puts(out, trace_signal_name((int)(v & 0xff)) ? trace_signal_name((int)(v & 0xff)) : "?");
		}
		break;
	case A_UTSNAME:
		if (a->data && !a->unread)
			trace_put_utsname(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_MADVISE:
		trace_put_const(out, v, madvises, N(madvises), false);
		break;
	case A_EPOLL_CTL_OP:
		trace_put_const(out, v, epoll_ops, N(epoll_ops), false);
		break;
	case A_EPOLL_EVENT_IN:
		/* EPOLL_CTL_DEL ignores it: strace shows its address */
		if (v && a->data && !a->unread && a->len >= 12 && d->args[1] != 2)
			trace_put_epoll_event(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_EPOLL_EVENTS:
		if (v && a->data && !a->unread && d->ret >= 0)
			trace_put_epoll_events(out, a->data, a->len, d->ret);
		else
			put_ptr(out, v);
		break;
	case A_MSG_FLAGS:
		trace_put_msg_flags(out, v);
		break;
	case A_EPOLL_FLAGS:
		trace_put_flags(out, (uint64_t)v, epoll_flags, N(epoll_flags), "0");
		break;
	case A_EFD_FLAGS:
		trace_put_flags(out, (uint64_t)v, efd_flags, N(efd_flags), "0");
		break;
	case A_IOVEC_IN:
	case A_IOVEC_OUT:
		if (v && a->data && !a->unread)
			trace_put_iovecs(out, a->data, a->len, d->args[2], k == A_IOVEC_OUT ? d->ret : -1, d);
		else
			put_ptr(out, v);
		break;
	case A_MSGHDR_IN:
	case A_MSGHDR_OUT:
		if (v && a->data && !a->unread)
			trace_put_msghdr(out, a->data, a->len, k == A_MSGHDR_OUT ? d->ret : -1, d);
		else
			put_ptr(out, v);
		break;
	default:
		return false;
	}
	return true;
}

/* The arguments that point to what the call reads or fills; false for others */
static bool decode_pointed(struct strbuf *out, enum targ k, const struct targ_val *a, const struct tdecode *d)
{
	int64_t v = a->v;

	switch (k) {
	case A_CLONE_ARGS:
		put_clone_args(out, a, d);
		break;
	case A_POLLFDS:
		if (a->v && a->data && !a->unread)
			trace_put_pollfds(out, a->data, a->len, false);
		else
			put_ptr(out, v);
		break;
	case A_STAT:
		if (a->data && !a->unread)
			trace_put_stat(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_STATX:
		if (a->data && !a->unread)
			trace_put_statx(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_STATX_MASK:
		trace_put_statx_mask(out, (uint64_t)v);
		break;
	case A_ARGV:
	case A_ENVP:
		put_argv(out, a, d, k == A_ENVP);
		break;
	case A_FUTEX_OP: {
		int op = (int)v & 0x7f;
		trace_put_const(out, op, futex_ops, N(futex_ops), false);
		if (v & 128)
			sb_puts(out, "_PRIVATE");
		if (v & 256)
			sb_puts(out, "|FUTEX_CLOCK_REALTIME");
		break;
	}
	case A_SIGNAL:
		if (trace_signal_name((int)v))
			sb_puts(out, trace_signal_name((int)v));
		else
			sb_printf(out, "%lld", (long long)v);
		break;
	case A_RLIMIT_RESOURCE:
		trace_put_const(out, v, rlimits, N(rlimits), false);
		break;
	case A_RLIMIT_IN:
	case A_RLIMIT_OUT:
		if (v && a->data && !a->unread)
			trace_put_rlimit(out, a->data, a->len, (int)d->args[1]);
		else
			put_ptr(out, v);
		break;
	case A_ARCH_PRCTL:
		trace_put_const(out, v, arch_prctls, N(arch_prctls), true);
		break;
	case A_GRND_FLAGS:
		trace_put_flags(out, (uint64_t)v, grnd_flags, N(grnd_flags), "0");
		break;
	case A_WHENCE:
		trace_put_const(out, v, whences, N(whences), false);
		break;
	case A_CLOCKID:
		trace_put_const(out, v, clocks, N(clocks), false);
		break;
	case A_TIMESPEC_REM: /* strace: the time left only when a signal interrupted the sleep */
		if (d->ret != -EINTR || !v || !a->data || a->unread) {
			put_ptr(out, v);
			break;
		}
		/* fall through */
	case A_TIMESPEC_IN:
	case A_TIMESPEC_OUT:
		if (v && a->data && !a->unread)
			trace_put_timespec(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_SOCK_FAMILY:
		if (trace_family_name((int)v))
			sb_puts(out, trace_family_name((int)v));
		else
			sb_printf(out, "%lld", (long long)v);
		break;
	case A_SOCK_PROTO:
		trace_put_sock_proto(out, d->args[0], v);
		break;
	case A_FD_FLAGS:
		trace_put_flags(out, (uint64_t)v, open_flags, N(open_flags), "0");
		break;
	case A_SOCK_TYPE:
		trace_put_const(out, v & 0xf, sock_types, N(sock_types), false);
		if (v & ~0xfll) {
			sb_putc(out, '|');
			trace_put_flags(out, (uint64_t)v & ~0xfull, sock_flags, N(sock_flags), NULL);
		}
		break;
	case A_SOCKADDR_IN:
	case A_SOCKADDR_OUT:
		if (v && a->data && !a->unread && a->len >= 2)
			trace_put_sockaddr(out, a->data, a->len);
		else
			put_ptr(out, v);
		break;
	case A_IOCTL_REQ:
		trace_put_const(out, v, ioctls, N(ioctls), true);
		break;
	case A_FCNTL_CMD:
		trace_put_const(out, v, fcntls, N(fcntls), false);
		break;
	case A_FCNTL_ARG:
		put_fcntl_arg(out, a, d);
		break;
	default:
		return decode_pointed_more(out, k, a, d);
	}
	return true;
}

/* clone: the arguments strace names (x86-64's order: flags, stack, parent_tid, child_tid, tls) */
static void put_clone(struct strbuf *out, const int64_t *a)
{
	uint64_t flags = (uint64_t)a[0];

	sb_puts(out, "child_stack=");
	put_ptr(out, a[1]);
	sb_puts(out, ", flags=");
	trace_put_flags(out, flags & ~0xffull, clone_flags, N(clone_flags), NULL);
	if (flags & 0xff) {
		const char *sig = trace_signal_name((int)(flags & 0xff));
		sb_printf(out, "%s%s", flags & ~0xffull ? "|" : "", sig ? sig : "?");
	}
	if (flags & 0x00100000) /* CLONE_PARENT_SETTID */
		sb_printf(out, ", parent_tid=%#llx", (unsigned long long)a[2]);
	if (flags & (0x01000000 | 0x00200000)) /* CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID */
		sb_printf(out, ", child_tidptr=%#llx", (unsigned long long)a[3]);
	if (flags & 0x00080000) /* CLONE_SETTLS */
		sb_printf(out, ", tls=%#llx", (unsigned long long)a[4]);
}

/* futex: the arguments its operation uses */
static void put_futex(struct strbuf *out, const int64_t *a)
{
	enum { VAL = 1, TIMEOUT = 2, VAL2 = 4, UADDR2 = 8, VAL3 = 16 };
	static const uint8_t uses[] = {
		[0] = VAL | TIMEOUT,		    [1] = VAL,		[2] = VAL,
		[3] = VAL | VAL2 | UADDR2,	    [4] = VAL | VAL2 | UADDR2 | VAL3,
		[5] = VAL | VAL2 | UADDR2 | VAL3,   [6] = TIMEOUT,	[7] = 0,
		[8] = 0,			    [9] = VAL | TIMEOUT | VAL3, [10] = VAL | VAL3,
		[11] = VAL | TIMEOUT | UADDR2,	    [12] = VAL | VAL2 | UADDR2 | VAL3, [13] = TIMEOUT,
	};
	int op = (int)(a[1] & 0x7f);
	uint8_t u = op < (int)N(uses) ? uses[op] : VAL | TIMEOUT | UADDR2 | VAL3;
	struct targ_val opv = { .v = a[1] };
	struct tdecode none = { .ret_fd = -1 };

	put_ptr(out, a[0]);
	sb_puts(out, ", ");
	trace_decode_arg(out, A_FUTEX_OP, &opv, &none);
	if (u & VAL)
		sb_printf(out, ", %d", (int)a[2]);
	if (u & TIMEOUT) {
		sb_puts(out, ", ");
		put_ptr(out, a[3]);
	}
	if (u & VAL2)
		sb_printf(out, ", %u", (unsigned)a[3]);
	if (u & UADDR2) {
		sb_puts(out, ", ");
		put_ptr(out, a[4]);
	}
	if (u & VAL3) {
		if ((op == 9 || op == 10) && (uint32_t)a[5] == 0xffffffffu)
			sb_puts(out, ", FUTEX_BITSET_MATCH_ANY");
		else
			sb_printf(out, ", %#x", (unsigned)a[5]);
	}
}

bool trace_decode_is_special(const struct sysdesc *sd)
{
	return sd->special == SD_CLONE || sd->special == SD_FUTEX;
}

bool trace_decode_special(struct strbuf *out, const struct sysdesc *sd, const int64_t *a, const struct tdecode *d)
{
	if (sd->special == SD_CLONE)
		put_clone(out, a);
	else if (sd->special == SD_FUTEX)
		put_futex(out, a);
	else
		return false;
	return true;
}

void trace_decode_arg(struct strbuf *out, enum targ k, const struct targ_val *a, const struct tdecode *d)
{
	int64_t v = a->v;

	/* what a failed call would have filled: its address */
	if (a->notread) {
		put_ptr(out, v);
		return;
	}
	if (decode_pointed(out, k, a, d))
		return;
	switch (k) {
	case A_NONE:
		break;
	case A_INT:
		sb_printf(out, "%d", (int)v);
		break;
	case A_LONG:
		sb_printf(out, "%lld", (long long)v);
		break;
	case A_UINT:
		sb_printf(out, "%llu", (unsigned long long)v);
		break;
	case A_HEX:
		sb_printf(out, "%#llx", (unsigned long long)v);
		break;
	case A_PTR:
		put_ptr(out, v);
		break;
	case A_FD:
		sb_printf(out, "%d", (int)v);
		if (d->paths && (int)v >= 0)
			put_fd_path(out, d, (int)v);
		break;
	case A_DIRFD:
		if ((int)v == FDPATH_CWD)
			sb_puts(out, "AT_FDCWD");
		else
			sb_printf(out, "%d", (int)v);
		if (d->paths && ((int)v >= 0 || (int)v == FDPATH_CWD))
			put_fd_path(out, d, (int)v);
		break;
	case A_PATH:
		put_string(out, a, d, true);
		break;
	case A_STR:
		put_string(out, a, d, false);
		break;
	case A_BUF_IN:
		put_buffer(out, a, d, d->args[2], false); /* write(fd, buf, count), sendto(...) */
		break;
	case A_BUF_OUT:
	case A_BUF_HEX:
		put_buffer(out, a, d, d->ret, k == A_BUF_HEX);
		break;
	case A_OCTAL:
	case A_UMASK:
		sb_printf(out, "%#llo", (unsigned long long)v);
		break;
	case A_MODE_T:
		sb_printf(out, "%#llo", (unsigned long long)v);
		break;
	case A_OPEN_FLAGS:
		put_open_flags(out, v);
		break;
	case A_ACCESS_MODE:
		trace_put_flags(out, (uint64_t)v, access_modes, N(access_modes), "F_OK");
		break;
	case A_AT_FLAGS:
		trace_put_flags(out, (uint64_t)v, at_flags, N(at_flags), "0");
		break;
	case A_STATX_FLAGS:
		if (!(v & 0x6000)) {
			sb_puts(out, "AT_STATX_SYNC_AS_STAT");
			if (v)
				sb_putc(out, '|');
		}
		if (v)
			trace_put_flags(out, (uint64_t)v, statx_at_flags, N(statx_at_flags), "0");
		break;
	case A_FADVICE:
		trace_put_const(out, v, fadvices, N(fadvices), false);
		break;
	case A_PROT:
		trace_put_flags(out, (uint64_t)v, prot_flags, N(prot_flags), "PROT_NONE");
		break;
	case A_MAP_FLAGS:
		put_map_flags(out, v);
		break;
	default:
		put_ptr(out, v);
		break;
	}
}

void trace_decode_ret(struct strbuf *out, enum tret r, int64_t ret, const struct tdecode *d)
{
	if (r == R_NONE) {
		sb_puts(out, "= ?");
		return;
	}
	if (ret <= -512 && ret >= -516) {
		/* the kernel restarts the call after a signal: what strace says */
		static const char *const restarts[] = {
			"ERESTARTSYS (To be restarted if SA_RESTART is set)", "ERESTARTNOINTR (To be restarted)",
			"ERESTARTNOHAND (To be restarted if no handler)", "ENOIOCTLCMD (No ioctl command)",
			"ERESTART_RESTARTBLOCK (Interrupted by signal)",
		};
		sb_printf(out, "= ? %s", restarts[-ret - 512]);
		return;
	}
	if (ret < 0 && ret >= -4095) {
		const char *n = trace_errno_name((int)-ret);
		if (n)
			sb_printf(out, "= -1 %s (%s)", n, trace_errno_text((int)-ret));
		else
			sb_printf(out, "= -1 (errno %lld)", (long long)-ret);
		return;
	}
	if (r == R_FCNTL)
		r = d->args && (d->args[1] == 0 || d->args[1] == 1030) ? R_FD : R_INT; /* F_DUPFD* */
	switch (r) {
	case R_HEX:
		sb_printf(out, "= %#llx", (unsigned long long)ret);
		break;
	case R_OCTAL:
		sb_printf(out, "= %#llo", (unsigned long long)ret);
		break;
	case R_FD:
		sb_printf(out, "= %lld", (long long)ret);
		if (d->paths)
			put_fd_path(out, d, d->ret_fd >= 0 ? d->ret_fd : ret);
		break;
	default:
		sb_printf(out, "= %lld", (long long)ret);
		break;
	}
}
