// SPDX-License-Identifier: MIT
/*
 * The structures lantern trace prints, as strace does without -v: the
 * members that matter, then "...". Layouts are the kernel's ABI for the
 * architecture lantern runs on (x86-64 and arm64's generic ones).
 */
#include "trace/decode.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static uint64_t u64_at(const uint8_t *p, size_t n, size_t off)
{
	uint64_t v = 0;

	if (off + 8 <= n)
		memcpy(&v, p + off, 8);
	return v;
}

static uint32_t u32_at(const uint8_t *p, size_t n, size_t off)
{
	uint32_t v = 0;

	if (off + 4 <= n)
		memcpy(&v, p + off, 4);
	return v;
}

static uint16_t u16_at(const uint8_t *p, size_t n, size_t off)
{
	uint16_t v = 0;

	if (off + 2 <= n)
		memcpy(&v, p + off, 2);
	return v;
}

/* S_IFREG|0644 */
static void put_mode(struct strbuf *out, uint32_t mode)
{
	static const char *const types[16] = {
		[001] = "S_IFIFO", [002] = "S_IFCHR", [004] = "S_IFDIR", [006] = "S_IFBLK",
		[010] = "S_IFREG", [012] = "S_IFLNK", [014] = "S_IFSOCK",
	};
	const char *t = types[(mode >> 12) & 017];

	if (t)
		sb_printf(out, "%s|", t);
	if (mode & 04000)
		sb_puts(out, "S_ISUID|");
	if (mode & 02000)
		sb_puts(out, "S_ISGID|");
	if (mode & 01000)
		sb_puts(out, "S_ISVTX|");
	sb_printf(out, "%#o", t ? mode & 0777 : mode & ~07000u);
}

/* the kernel's new_encode_dev: makedev(0x88, 0x2) */
static void put_dev(struct strbuf *out, uint64_t dev)
{
	unsigned major = (unsigned)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffull));
	unsigned minor = (unsigned)((dev & 0xff) | ((dev >> 12) & ~0xffull));

	sb_printf(out, "makedev(%#x, %#x)", major, minor);
}

/* st_mode, then st_rdev for devices or st_size for the rest */
static void put_stat_common(struct strbuf *out, uint32_t mode, uint64_t rdev, int64_t size)
{
	uint32_t type = mode & 0170000;

	sb_puts(out, "{st_mode=");
	put_mode(out, mode);
	if (type == 0020000 || type == 0060000) {
		sb_puts(out, ", st_rdev=");
		put_dev(out, rdev);
	} else {
		sb_printf(out, ", st_size=%lld", (long long)size);
	}
	sb_puts(out, ", ...}");
}

void trace_put_stat(struct strbuf *out, const uint8_t *p, size_t n)
{
#if defined(__x86_64__)
	/* dev, ino, nlink (8 each), mode, uid, gid, pad, rdev, size */
	put_stat_common(out, u32_at(p, n, 24), u64_at(p, n, 40), (int64_t)u64_at(p, n, 48));
#else
	/* asm-generic: dev, ino (8 each), mode, nlink, uid, gid, rdev (8), pad (8), size */
	put_stat_common(out, u32_at(p, n, 16), u64_at(p, n, 32), (int64_t)u64_at(p, n, 48));
#endif
}

static const struct flag statx_masks[] = {
	{ 0xfff, "STATX_ALL" }, { 0x7ff, "STATX_BASIC_STATS" }, { 0x1, "STATX_TYPE" },
	{ 0x2, "STATX_MODE" },	{ 0x4, "STATX_NLINK" },	       { 0x8, "STATX_UID" },
	{ 0x10, "STATX_GID" },	{ 0x20, "STATX_ATIME" },       { 0x40, "STATX_MTIME" },
	{ 0x80, "STATX_CTIME" }, { 0x100, "STATX_INO" },       { 0x200, "STATX_SIZE" },
	{ 0x400, "STATX_BLOCKS" }, { 0x800, "STATX_BTIME" },   { 0x1000, "STATX_MNT_ID" },
	{ 0x2000, "STATX_DIOALIGN" }, { 0x4000, "STATX_MNT_ID_UNIQUE" }, { 0x8000, "STATX_SUBVOL" },
	{ 0x10000, "STATX_WRITE_ATOMIC" }, { 0x20000, "STATX_DIO_READ_ALIGN" },
};

static const struct flag statx_attrs[] = {
	{ 0x4, "STATX_ATTR_COMPRESSED" }, { 0x10, "STATX_ATTR_IMMUTABLE" },   { 0x20, "STATX_ATTR_APPEND" },
	{ 0x40, "STATX_ATTR_NODUMP" },	  { 0x800, "STATX_ATTR_ENCRYPTED" },  { 0x1000, "STATX_ATTR_AUTOMOUNT" },
	{ 0x2000, "STATX_ATTR_MOUNT_ROOT" }, { 0x100000, "STATX_ATTR_VERITY" }, { 0x200000, "STATX_ATTR_DAX" },
};

void trace_put_statx_mask(struct strbuf *out, uint64_t v)
{
	trace_put_flags(out, v, statx_masks, ARRAY_SIZE(statx_masks), "0");
}

void trace_put_statx(struct strbuf *out, const uint8_t *p, size_t n)
{
	uint32_t mode = u16_at(p, n, 28);

	sb_puts(out, "{stx_mask=");
	trace_put_statx_mask(out, u32_at(p, n, 0));
	sb_puts(out, ", stx_attributes=");
	trace_put_flags(out, u64_at(p, n, 8), statx_attrs, ARRAY_SIZE(statx_attrs), "0");
	sb_puts(out, ", stx_mode=");
	put_mode(out, mode);
	sb_printf(out, ", stx_size=%llu", (unsigned long long)u64_at(p, n, 40));
	sb_puts(out, ", ...}");
}

static const struct flag families[] = {
	{ 0, "AF_UNSPEC" }, { 1, "AF_UNIX" },	  { 2, "AF_INET" },    { 10, "AF_INET6" },
	{ 16, "AF_NETLINK" }, { 17, "AF_PACKET" }, { 38, "AF_ALG" },   { 40, "AF_VSOCK" },
	{ 44, "AF_XDP" },
};

const char *trace_family_name(int f)
{
	for (size_t i = 0; i < ARRAY_SIZE(families); i++)
		if ((int)families[i].bit == f)
			return families[i].name;
	return NULL;
}

void trace_put_sockaddr(struct strbuf *out, const uint8_t *p, size_t n)
{
	uint16_t family = u16_at(p, n, 0);
	const char *name = trace_family_name(family);

	if (name)
		sb_printf(out, "{sa_family=%s", name);
	else
		sb_printf(out, "{sa_family=%u", family);
	switch (family) {
	case 1: { /* sun_path: abstract ones start with a NUL, shown as @ */
		const uint8_t *path = p + 2;
		size_t len = n > 2 ? n - 2 : 0;
		if (!len)
			break;
		sb_puts(out, ", sun_path=");
		if (path[0] == 0) {
			sb_putc(out, '@');
			trace_put_quoted(out, path + 1, len - 1, SIZE_MAX, false, 0);
		} else {
			trace_put_quoted(out, path, strnlen((const char *)path, len), SIZE_MAX, false, 0);
		}
		break;
	}
	case 2:
		if (n >= 8) {
			sb_printf(out, ", sin_port=htons(%u), sin_addr=inet_addr(\"%u.%u.%u.%u\")",
				  (unsigned)(p[2] << 8 | p[3]), p[4], p[5], p[6], p[7]);
		}
		break;
	case 10:
		if (n >= 28) {
			char addr[64];
			size_t k = 0;
			/* the shortest form: the longest run of zero groups as :: */
			int best = -1, bestlen = 0;
			for (int i = 0; i < 8;) {
				int j = i;
				while (j < 8 && !u16_at(p, n, 8 + 2 * j))
					j++;
				if (j - i > bestlen && j - i > 1) {
					best = i;
					bestlen = j - i;
				}
				i = j == i ? i + 1 : j;
			}
			for (int i = 0; i < 8; i++) {
				if (i == best) {
					k += (size_t)snprintf(addr + k, sizeof(addr) - k, "::");
					i += bestlen - 1;
					continue;
				}
				if (k && addr[k - 1] != ':')
					addr[k++] = ':';
				k += (size_t)snprintf(addr + k, sizeof(addr) - k, "%x",
						      (unsigned)(p[8 + 2 * i] << 8 | p[9 + 2 * i]));
			}
			addr[k] = 0;
			sb_printf(out,
				  ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", "
				  "&sin6_addr), sin6_scope_id=%u",
				  (unsigned)(p[2] << 8 | p[3]),
				  (unsigned)p[4] << 24 | (unsigned)p[5] << 16 | (unsigned)p[6] << 8 | p[7], addr,
				  u32_at(p, n, 24));
		}
		break;
	case 16:
		if (n >= 12)
			sb_printf(out, ", nl_pid=%u, nl_groups=%08x", u32_at(p, n, 4), u32_at(p, n, 8));
		break;
	default:
		if (n > 2) {
			sb_puts(out, ", sa_data=");
			trace_put_quoted(out, p + 2, n - 2, SIZE_MAX, false, 0);
		}
		break;
	}
	sb_putc(out, '}');
}

static const struct flag sa_flags[] = {
	{ 0x04000000, "SA_RESTORER" }, { 0x08000000, "SA_ONSTACK" }, { 0x10000000, "SA_RESTART" },
	{ 0x40000000, "SA_NODEFER" },  { 0x80000000, "SA_RESETHAND" }, { 4, "SA_SIGINFO" },
	{ 1, "SA_NOCLDSTOP" },	       { 2, "SA_NOCLDWAIT" },
};

/* the kernel's struct sigaction: handler, flags, restorer, mask */
void trace_put_sigaction(struct strbuf *out, const uint8_t *p, size_t n)
{
	uint64_t handler = u64_at(p, n, 0), flags = u64_at(p, n, 8), restorer = u64_at(p, n, 16);

	sb_puts(out, "{sa_handler=");
	if (handler == 0)
		sb_puts(out, "SIG_DFL");
	else if (handler == 1)
		sb_puts(out, "SIG_IGN");
	else
		sb_printf(out, "%#llx", (unsigned long long)handler);
	sb_puts(out, ", sa_mask=");
	trace_put_sigset(out, n >= 32 ? p + 24 : (const uint8_t *)"\0\0\0\0\0\0\0\0", 8);
	sb_puts(out, ", sa_flags=");
	trace_put_flags(out, flags, sa_flags, ARRAY_SIZE(sa_flags), "0");
	if (flags & 0x04000000)
		sb_printf(out, ", sa_restorer=%#llx", (unsigned long long)restorer);
	sb_putc(out, '}');
}

void trace_put_utsname(struct strbuf *out, const uint8_t *p, size_t n)
{
	/* six fields of 65 bytes: strace shows the first two */
	sb_puts(out, "{sysname=");
	trace_put_quoted(out, p, strnlen((const char *)p, MIN(n, 65)), SIZE_MAX, false, 0);
	if (n >= 130) {
		sb_puts(out, ", nodename=");
		trace_put_quoted(out, p + 65, strnlen((const char *)p + 65, 65), SIZE_MAX, false, 0);
	}
	sb_puts(out, ", ...}");
}

/* RLIM64_INFINITY, 8192*1024, 1024 */
static void put_rlim(struct strbuf *out, uint64_t v)
{
	if (v == ~0ull)
		sb_puts(out, "RLIM64_INFINITY");
	else if (v > 1024 && v % 1024 == 0)
		sb_printf(out, "%llu*1024", (unsigned long long)(v / 1024));
	else
		sb_printf(out, "%llu", (unsigned long long)v);
}

void trace_put_rlimit(struct strbuf *out, const uint8_t *p, size_t n, int resource)
{
	sb_puts(out, "{rlim_cur=");
	put_rlim(out, u64_at(p, n, 0));
	sb_puts(out, ", rlim_max=");
	put_rlim(out, u64_at(p, n, 8));
	sb_putc(out, '}');
}

void trace_put_timespec(struct strbuf *out, const uint8_t *p, size_t n)
{
	sb_printf(out, "{tv_sec=%lld, tv_nsec=%lld}", (long long)u64_at(p, n, 0), (long long)u64_at(p, n, 8));
}

void trace_put_wait_status(struct strbuf *out, int st)
{
	if ((st & 0x7f) == 0) {
		sb_printf(out, "{WIFEXITED(s) && WEXITSTATUS(s) == %d}", (st >> 8) & 0xff);
	} else if ((st & 0xff) == 0x7f) {
		const char *s = trace_signal_name((st >> 8) & 0xff);
		sb_printf(out, "{WIFSTOPPED(s) && WSTOPSIG(s) == %s}", s ? s : "?");
	} else if (st == 0xffff) {
		sb_puts(out, "{WIFCONTINUED(s)}");
	} else {
		const char *s = trace_signal_name(st & 0x7f);
		sb_printf(out, "{WIFSIGNALED(s) && WTERMSIG(s) == %s%s}", s ? s : "?",
			  st & 0x80 ? " && WCOREDUMP(s)" : "");
	}
}

int trace_dirents_count(const uint8_t *p, size_t n)
{
	int count = 0;

	/* linux_dirent64: ino, off (8 each), reclen (2), type, name */
	for (size_t off = 0; off + 19 <= n; count++) {
		uint16_t reclen = u16_at(p, n, off + 16);
		if (!reclen)
			break;
		off += reclen;
	}
	return count;
}

static const char *si_code_name(int sig, int code)
{
	switch (code) {
	case 0:
		return "SI_USER";
	case 0x80:
		return "SI_KERNEL";
	case -1:
		return "SI_QUEUE";
	case -2:
		return "SI_TIMER";
	case -3:
		return "SI_MESGQ";
	case -4:
		return "SI_ASYNCIO";
	case -5:
		return "SI_SIGIO";
	case -6:
		return "SI_TKILL";
	}
	if (sig == 17) {
		static const char *const chld[] = { NULL, "CLD_EXITED", "CLD_KILLED", "CLD_DUMPED",
						    "CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED" };
		return code > 0 && code < 7 ? chld[code] : NULL;
	}
	if (sig == 11) {
		static const char *const segv[] = { NULL, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR",
						    "SEGV_PKUERR" };
		return code > 0 && code < 5 ? segv[code] : NULL;
	}
	if (sig == 7) {
		static const char *const bus[] = { NULL, "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR" };
		return code > 0 && code < 4 ? bus[code] : NULL;
	}
	if (sig == 4) {
		static const char *const ill[] = { NULL, "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR",
						   "ILL_ILLTRP", "ILL_PRVOPC", "ILL_PRVREG", "ILL_COPROC",
						   "ILL_BADSTK" };
		return code > 0 && code < 9 ? ill[code] : NULL;
	}
	if (sig == 8) {
		static const char *const fpe[] = { NULL, "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV",
						   "FPE_FLTOVF", "FPE_FLTUND", "FPE_FLTRES", "FPE_FLTINV",
						   "FPE_FLTSUB" };
		return code > 0 && code < 9 ? fpe[code] : NULL;
	}
	if (sig == 5) {
		static const char *const trap[] = { NULL, "TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH",
						    "TRAP_HWBKPT" };
		return code > 0 && code < 5 ? trap[code] : NULL;
	}
	return NULL;
}

void trace_put_siginfo(struct strbuf *out, const uint8_t *p, size_t n)
{
	int sig = (int)u32_at(p, n, 0), code = (int)u32_at(p, n, 8);
	const char *sn = trace_signal_name(sig), *cn = si_code_name(sig, code);
	bool fault = sig == 11 || sig == 7 || sig == 4 || sig == 8 || sig == 5;

	if (sn)
		sb_printf(out, "{si_signo=%s", sn);
	else
		sb_printf(out, "{si_signo=%d", sig);
	if (cn)
		sb_printf(out, ", si_code=%s", cn);
	else
		sb_printf(out, ", si_code=%d", code);
	if (code <= 0 && code != -2 && code != -5) {
		/* sent by a process: kill, tkill, sigqueue */
		sb_printf(out, ", si_pid=%d, si_uid=%u", (int)u32_at(p, n, 16), u32_at(p, n, 20));
		if (code == -1 || code == -4 || code == -3)
			sb_printf(out, ", si_int=%d, si_ptr=%#llx", (int)u32_at(p, n, 24),
				  (unsigned long long)u64_at(p, n, 24));
	} else if (code == -2) {
		sb_printf(out, ", si_timerid=%#x, si_overrun=%d", u32_at(p, n, 16), (int)u32_at(p, n, 20));
	} else if (sig == 17 && code > 0) {
		int status = (int)u32_at(p, n, 24);
		sb_printf(out, ", si_pid=%d, si_uid=%u, si_status=", (int)u32_at(p, n, 16), u32_at(p, n, 20));
		if (code == 1 || !trace_signal_name(status))
			sb_printf(out, "%d", status);
		else
			sb_puts(out, trace_signal_name(status));
		for (int k = 0; k < 2; k++) {
			/* clock ticks; strace adds the seconds when there are any */
			long long ticks = (long long)u64_at(p, n, 32 + 8 * (size_t)k);
			sb_printf(out, ", si_%stime=%lld", k ? "s" : "u", ticks);
			if (ticks)
				sb_printf(out, " /* %.2f s */", (double)ticks / 100.0);
		}
	} else if (fault) {
		uint64_t addr = u64_at(p, n, 16);
		if (addr)
			sb_printf(out, ", si_addr=%#llx", (unsigned long long)addr);
		else
			sb_puts(out, ", si_addr=NULL");
	} else if (code == 0x80) {
		/* nothing more */
	}
	sb_putc(out, '}');
}

static const struct flag poll_events[] = {
	{ 0x1, "POLLIN" },	 { 0x2, "POLLPRI" },	 { 0x4, "POLLOUT" },	 { 0x8, "POLLERR" },
	{ 0x10, "POLLHUP" },	 { 0x20, "POLLNVAL" },	 { 0x40, "POLLRDNORM" }, { 0x80, "POLLRDBAND" },
	{ 0x100, "POLLWRNORM" }, { 0x200, "POLLWRBAND" }, { 0x400, "POLLMSG" },	 { 0x2000, "POLLRDHUP" },
};

void trace_put_pollfds(struct strbuf *out, const uint8_t *p, size_t n, bool revents)
{
	bool first = true;

	sb_putc(out, '[');
	for (size_t off = 0; off + 8 <= n; off += 8) {
		int fd = (int)u32_at(p, n, off);
		uint16_t ev = u16_at(p, n, off + (revents ? 6 : 4));
		if (revents && !ev)
			continue;
		sb_printf(out, "%s{fd=%d, %s=", first ? "" : ", ", fd, revents ? "revents" : "events");
		trace_put_flags(out, ev, poll_events, ARRAY_SIZE(poll_events), "0");
		sb_putc(out, '}');
		first = false;
	}
	sb_putc(out, ']');
}

static const struct flag epoll_events[] = {
	{ 0x1, "EPOLLIN" },	    { 0x2, "EPOLLPRI" },	{ 0x4, "EPOLLOUT" },	    { 0x8, "EPOLLERR" },
	{ 0x10, "EPOLLHUP" },	    { 0x20, "EPOLLNVAL" },	{ 0x40, "EPOLLRDNORM" },    { 0x80, "EPOLLRDBAND" },
	{ 0x100, "EPOLLWRNORM" },   { 0x200, "EPOLLWRBAND" },	{ 0x400, "EPOLLMSG" },	    { 0x2000, "EPOLLRDHUP" },
	{ 1u << 28, "EPOLLEXCLUSIVE" }, { 1u << 29, "EPOLLWAKEUP" }, { 1u << 30, "EPOLLONESHOT" },
	{ 1u << 31, "EPOLLET" },
};

/* x86-64's struct epoll_event is packed: u32 events, u64 data (12 bytes) */
void trace_put_epoll_event(struct strbuf *out, const uint8_t *p, size_t n)
{
	uint64_t data = u64_at(p, n, 4);

	sb_puts(out, "{events=");
	trace_put_flags(out, u32_at(p, n, 0), epoll_events, ARRAY_SIZE(epoll_events), "0");
	sb_printf(out, ", data={u32=%u, u64=%llu}}", (uint32_t)data, (unsigned long long)data);
}

void trace_put_epoll_events(struct strbuf *out, const uint8_t *p, size_t n, int64_t count)
{
	sb_putc(out, '[');
	for (int64_t i = 0; i < count && (size_t)(i + 1) * 12 <= n; i++) {
		if (i)
			sb_puts(out, ", ");
		trace_put_epoll_event(out, p + i * 12, 12);
	}
	if (count > 0 && (size_t)count * 12 > n)
		sb_puts(out, ", ...");
	sb_putc(out, ']');
}

static const struct flag msg_flags[] = {
	{ 1, "MSG_OOB" }, { 2, "MSG_PEEK" }, { 4, "MSG_DONTROUTE" }, { 8, "MSG_CTRUNC" },
	{ 0x20, "MSG_TRUNC" }, { 0x40, "MSG_DONTWAIT" }, { 0x80, "MSG_EOR" }, { 0x100, "MSG_WAITALL" },
	{ 0x4000, "MSG_NOSIGNAL" }, { 0x8000, "MSG_MORE" }, { 0x40000000, "MSG_CMSG_CLOEXEC" },
};

void trace_put_msg_flags(struct strbuf *out, int64_t v)
{
	trace_put_flags(out, (uint64_t)v, msg_flags, ARRAY_SIZE(msg_flags), "0");
}

static void put_address(struct strbuf *out, uint64_t p)
{
	if (p)
		sb_printf(out, "0x%llx", (unsigned long long)p);
	else
		sb_puts(out, "NULL");
}

/*
 * The iovecs read (TR_IOV_*'s layout, sysdesc.h): [{iov_base="...",
 * iov_len=N}, ...], each showing what the call moved (total bytes in all,
 * in order; -1: each one's length), at most -s bytes of it.
 */
void trace_put_iovecs(struct strbuf *out, const uint8_t *p, size_t n, int64_t count, int64_t total,
		const struct tdecode *d)
{
	/* counts as the programs write them, at most: a record's numbers are not trusted */
	uint32_t k = MIN(u32_at(p, n, 0), IOV_SHOWN), slot = MIN(u32_at(p, n, 4), IOV_SLOT_MAX);
	uint64_t left = total < 0 ? UINT64_MAX : (uint64_t)total;

	sb_putc(out, '[');
	for (uint32_t i = 0; i < k; i++) {
		size_t at = 8 + (size_t)i * (16 + slot);
		uint64_t base = u64_at(p, n, at), len = u64_at(p, n, at + 8);
		uint64_t moved = MIN(len, left);
		left -= moved;
		sb_puts(out, i ? ", {iov_base=" : "{iov_base=");
		if (at + 16 + MIN(moved, slot) > n)
			put_address(out, base);
		else
			trace_put_quoted(out, p + at + 16, MIN(moved, slot), d->strsize, moved > d->strsize, d->hex);
		sb_printf(out, ", iov_len=%llu}", (unsigned long long)len);
	}
	if (count > (int64_t)k)
		sb_puts(out, k ? ", ..." : "...");
	sb_putc(out, ']');
}

/* struct msghdr (TR_MSG_*'s layout): its members as strace names them, the iovecs decoded */
void trace_put_msghdr(struct strbuf *out, const uint8_t *p, size_t n, int64_t total, const struct tdecode *d)
{
	uint64_t control = u64_at(p, n, 32), controllen = u64_at(p, n, 40);

	if (n < MSGHDR_SIZE + 8) {
		sb_puts(out, "{...}");
		return;
	}
	sb_puts(out, "{msg_name=");
	put_address(out, u64_at(p, n, 0));
	sb_printf(out, ", msg_namelen=%d, msg_iov=", (int)u32_at(p, n, 8));
	trace_put_iovecs(out, p + MSGHDR_SIZE, n - MSGHDR_SIZE, (int64_t)u64_at(p, n, 24), total, d);
	sb_printf(out, ", msg_iovlen=%llu", (unsigned long long)u64_at(p, n, 24));
	if (controllen) {
		sb_puts(out, ", msg_control=");
		put_address(out, control);
	}
	sb_printf(out, ", msg_controllen=%llu, msg_flags=", (unsigned long long)controllen);
	trace_put_msg_flags(out, (int)u32_at(p, n, 48));
	sb_putc(out, '}');
}

static const struct flag inet_protos[] = {
	{ 0, "IPPROTO_IP" },	 { 1, "IPPROTO_ICMP" },	 { 6, "IPPROTO_TCP" },	   { 17, "IPPROTO_UDP" },
	{ 41, "IPPROTO_IPV6" },	 { 58, "IPPROTO_ICMPV6" }, { 132, "IPPROTO_SCTP" }, { 136, "IPPROTO_UDPLITE" },
	{ 255, "IPPROTO_RAW" },	 { 262, "IPPROTO_MPTCP" },
};
static const struct flag netlink_protos[] = {
	{ 0, "NETLINK_ROUTE" },	 { 4, "NETLINK_SOCK_DIAG" }, { 9, "NETLINK_AUDIT" },
	{ 15, "NETLINK_KOBJECT_UEVENT" }, { 16, "NETLINK_GENERIC" },
};

void trace_put_sock_proto(struct strbuf *out, int64_t family, int64_t proto)
{
	if (family == 2 || family == 10)
		trace_put_const(out, proto, inet_protos, ARRAY_SIZE(inet_protos), false);
	else if (family == 16)
		trace_put_const(out, proto, netlink_protos, ARRAY_SIZE(netlink_protos), false);
	else
		sb_printf(out, "%d", (int)proto);
}
