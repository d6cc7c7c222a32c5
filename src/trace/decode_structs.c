// SPDX-License-Identifier: MIT
/*
 * The structures lantern trace prints, as strace does without -v: the
 * members that matter, then "...". Each is read into the system's own
 * struct (the bytes the programs read, zero-filled when short), so the
 * layouts are the headers', never offsets typed in.
 */
#include "trace/decode.h"
#include "base/util.h"
#include "trace/kabi.h"
#include "trace/xlat_lists.h"

#include <linux/sched.h>
#include <poll.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* *dst = the n bytes at p, the rest zero */
static void load(void *dst, size_t size, const uint8_t *p, size_t n)
{
	memset(dst, 0, size);
	memcpy(dst, p, MIN(n, size));
}

/* What the call filled, or its address */
static bool readable(struct tw *w, const struct targ_val *a)
{
	if (a->v && a->data && !a->unread)
		return true;
	trace_tw_ptr(w, (uint64_t)a->v);
	return false;
}

/* makedev(0x88, 0x2); JSON {"major": 136, "minor": 2} */
static void put_dev(struct tw *w, uint64_t dev)
{
	if (w->json) {
		trace_tw_open(w, '{');
		trace_tw_field(w, "major");
		trace_tw_uint(w, major(dev));
		trace_tw_field(w, "minor");
		trace_tw_uint(w, minor(dev));
		trace_tw_close(w, '}', false);
		return;
	}
	trace_tw_text(w, "makedev(%#x, %#x)", major(dev), minor(dev));
}

/* st_mode, then st_rdev for devices or st_size for the rest */
static void put_stat_common(struct tw *w, const char *pfx, uint32_t mode, uint64_t rdev, int64_t size)
{
	char name[16];

	trace_tw_open(w, '{');
	snprintf(name, sizeof(name), "%s_mode", pfx);
	trace_tw_field(w, name);
	trace_tw_file_mode(w, mode);
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		snprintf(name, sizeof(name), "%s_rdev", pfx);
		trace_tw_field(w, name);
		put_dev(w, rdev);
	} else {
		snprintf(name, sizeof(name), "%s_size", pfx);
		trace_tw_field(w, name);
		trace_tw_int(w, size);
	}
	trace_tw_close(w, '}', true);
}

void trace_k_stat(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct stat st;

	if (!readable(w, a))
		return;
	load(&st, sizeof(st), a->data, a->len);
	put_stat_common(w, "st", st.st_mode, st.st_rdev, st.st_size);
}

void trace_k_statx_mask(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_statx_masks, "0");
}

void trace_k_statx(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct statx st;

	if (!readable(w, a))
		return;
	load(&st, sizeof(st), a->data, a->len);
	trace_tw_open(w, '{');
	trace_tw_field(w, "stx_mask");
	trace_tw_flags(w, st.stx_mask, &trace_xlat_statx_masks, "0");
	trace_tw_field(w, "stx_attributes");
	trace_tw_flags(w, st.stx_attributes, &trace_xlat_statx_attrs, "0");
	trace_tw_field(w, "stx_mode");
	trace_tw_file_mode(w, st.stx_mode);
	trace_tw_field(w, "stx_size");
	trace_tw_uint(w, st.stx_size);
	trace_tw_close(w, '}', true);
}

/* statfs's f_flags: ST_VALID is the kernel's own (include/linux/statfs.h), in no UAPI header */
static void put_statfs_flags(struct tw *w, uint64_t v)
{
	static const struct flag valid[] = { { 0x0020, "ST_VALID" } };

	trace_tw_fset_begin(w);
	trace_tw_fset_bits(w, v & valid[0].bit, &(struct xlat){ valid, 1 });
	trace_tw_fset_bits(w, v & ~valid[0].bit, &trace_xlat_statfs_flags);
	trace_tw_fset_end(w, "0");
}

void trace_k_statfs(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct statfs st;
	int fsid[2];

	if (!readable(w, a))
		return;
	load(&st, sizeof(st), a->data, a->len);
	memcpy(fsid, &st.f_fsid, sizeof(fsid));
	trace_tw_open(w, '{');
	trace_tw_field(w, "f_type");
	trace_tw_const(w, (int64_t)st.f_type, &trace_xlat_fsmagic, true);
	trace_tw_field(w, "f_bsize");
	trace_tw_int(w, st.f_bsize);
	trace_tw_field(w, "f_blocks");
	trace_tw_uint(w, st.f_blocks);
	trace_tw_field(w, "f_bfree");
	trace_tw_uint(w, st.f_bfree);
	trace_tw_field(w, "f_bavail");
	trace_tw_uint(w, st.f_bavail);
	trace_tw_field(w, "f_files");
	trace_tw_uint(w, st.f_files);
	trace_tw_field(w, "f_ffree");
	trace_tw_uint(w, st.f_ffree);
	trace_tw_field(w, "f_fsid");
	trace_tw_open(w, '{');
	trace_tw_field(w, "val");
	trace_tw_open(w, '[');
	trace_tw_hex(w, (uint32_t)fsid[0]);
	trace_tw_hex(w, (uint32_t)fsid[1]);
	trace_tw_close(w, ']', false);
	trace_tw_close(w, '}', false);
	trace_tw_field(w, "f_namelen");
	trace_tw_int(w, st.f_namelen);
	trace_tw_field(w, "f_frsize");
	trace_tw_int(w, st.f_frsize);
	trace_tw_field(w, "f_flags");
	put_statfs_flags(w, (uint64_t)st.f_flags);
	trace_tw_close(w, '}', false);
}

int trace_dirents_count(const uint8_t *p, size_t n)
{
	int count = 0;

	/* linux_dirent64: ino, off (8 each), reclen (2), type, name */
	for (size_t off = 0; off + 19 <= n; count++) {
		uint16_t reclen;
		memcpy(&reclen, p + off + 16, 2);
		if (!reclen)
			break;
		off += reclen;
	}
	return count;
}

/* getdents64's buffer: its address and the count of its entries */
void trace_k_dirents(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int n = a->data ? trace_dirents_count(a->data, a->len) : 0;

	if (a->unread || a->notread) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	if (w->json) {
		trace_tw_open(w, '{');
		trace_tw_field(w, "address");
		trace_tw_ptr(w, (uint64_t)a->v);
		trace_tw_field(w, "entries");
		trace_tw_int(w, n);
		trace_tw_close(w, '}', false);
		return;
	}
	trace_tw_ptr(w, (uint64_t)a->v);
	trace_tw_note(w, " /* %d entries */", n);
}

/* the kernel's struct sigaction (rt_sigaction's: kabi.h) */
void trace_k_sigaction(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	uint8_t k[TRACE_KSIGACTION_SIZE];
	uint64_t handler, flags, restorer;

	if (!readable(w, a))
		return;
	load(k, sizeof(k), a->data, a->len);
	memcpy(&handler, k + TRACE_KSA_HANDLER, 8);
	memcpy(&flags, k + TRACE_KSA_FLAGS, 8);
	memcpy(&restorer, k + TRACE_KSA_RESTORER, 8);
	trace_tw_open(w, '{');
	trace_tw_field(w, "sa_handler");
	if (handler == (uint64_t)(uintptr_t)SIG_DFL)
		trace_tw_name(w, "SIG_DFL");
	else if (handler == (uint64_t)(uintptr_t)SIG_IGN)
		trace_tw_name(w, "SIG_IGN");
	else
		trace_tw_ptr(w, handler);
	trace_tw_field(w, "sa_mask");
	trace_tw_sigset(w, k + TRACE_KSA_MASK, TRACE_KSIGSET_SIZE);
	trace_tw_field(w, "sa_flags");
	trace_tw_flags(w, flags, &trace_xlat_sa_flags, "0");
	if (flags & TRACE_KSA_RESTORER_FLAG) {
		trace_tw_field(w, "sa_restorer");
		trace_tw_ptr(w, restorer);
	}
	trace_tw_close(w, '}', false);
}

static void put_chars(struct tw *w, const char *name, const char *s, size_t max)
{
	trace_tw_field(w, name);
	trace_tw_quoted(w, (const uint8_t *)s, strnlen(s, max), SIZE_MAX, false, 0);
}

void trace_k_utsname(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct utsname u;

	if (!readable(w, a))
		return;
	load(&u, sizeof(u), a->data, a->len);
	/* strace shows the first two */
	trace_tw_open(w, '{');
	put_chars(w, "sysname", u.sysname, sizeof(u.sysname));
	put_chars(w, "nodename", u.nodename, sizeof(u.nodename));
	trace_tw_close(w, '}', true);
}

/* RLIM64_INFINITY, 8192*1024, 1024 */
static void put_rlim(struct tw *w, uint64_t v)
{
	if (v == (uint64_t)RLIM_INFINITY)
		trace_tw_name(w, "RLIM64_INFINITY");
	else if (v > 1024 && v % 1024 == 0 && !w->json)
		trace_tw_text(w, "%llu*1024", (unsigned long long)(v / 1024));
	else
		trace_tw_uint(w, v);
}

void trace_k_rlimit(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct rlimit r;

	if (!readable(w, a))
		return;
	load(&r, sizeof(r), a->data, a->len);
	trace_tw_open(w, '{');
	trace_tw_field(w, "rlim_cur");
	put_rlim(w, r.rlim_cur);
	trace_tw_field(w, "rlim_max");
	put_rlim(w, r.rlim_max);
	trace_tw_close(w, '}', false);
}

void trace_k_timespec(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct timespec ts;

	if (!readable(w, a))
		return;
	load(&ts, sizeof(ts), a->data, a->len);
	trace_tw_open(w, '{');
	trace_tw_field(w, "tv_sec");
	trace_tw_int(w, ts.tv_sec);
	trace_tw_field(w, "tv_nsec");
	trace_tw_int(w, ts.tv_nsec);
	trace_tw_close(w, '}', false);
}

/* nanosleep's remainder: strace shows it only when a signal cut the sleep short */
void trace_k_timespec_rem(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	if (d->ret != -EINTR) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	trace_k_timespec(w, a, d);
}

void trace_tw_wait_status(struct tw *w, int st)
{
	const char *s;

	if (w->json) {
		trace_tw_open(w, '{');
		if (WIFEXITED(st)) {
			trace_tw_field(w, "exited");
			trace_tw_int(w, WEXITSTATUS(st));
		} else if (WIFSTOPPED(st) || WIFSIGNALED(st)) {
			trace_tw_field(w, WIFSTOPPED(st) ? "stopped" : "signaled");
			trace_tw_signal(w, WIFSTOPPED(st) ? WSTOPSIG(st) : WTERMSIG(st));
			if (WIFSIGNALED(st) && WCOREDUMP(st)) {
				trace_tw_field(w, "core_dumped");
				trace_tw_bool(w, true);
			}
		} else {
			trace_tw_field(w, "continued");
			trace_tw_bool(w, true);
		}
		trace_tw_close(w, '}', false);
		return;
	}
	if (WIFEXITED(st)) {
		trace_tw_text(w, "{WIFEXITED(s) && WEXITSTATUS(s) == %d}", WEXITSTATUS(st));
	} else if (WIFSTOPPED(st)) {
		s = trace_signal_name(WSTOPSIG(st));
		trace_tw_text(w, "{WIFSTOPPED(s) && WSTOPSIG(s) == %s}", s ? s : "?");
	} else if (WIFCONTINUED(st)) {
		trace_tw_text(w, "{WIFCONTINUED(s)}");
	} else {
		s = trace_signal_name(WTERMSIG(st));
		trace_tw_text(w, "{WIFSIGNALED(s) && WTERMSIG(s) == %s%s}", s ? s : "?",
			      WCOREDUMP(st) ? " && WCOREDUMP(s)" : "");
	}
}

void trace_k_wait_status(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int st;

	if (!a->v || !a->data || a->unread || a->len < sizeof(st) || d->ret <= 0) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&st, a->data, sizeof(st));
	trace_tw_open(w, '[');
	trace_tw_wait_status(w, st);
	trace_tw_close(w, ']', false);
}

void trace_tw_pollfds(struct tw *w, const uint8_t *p, size_t n, bool revents)
{
	trace_tw_open(w, '[');
	for (size_t off = 0; off + sizeof(struct pollfd) <= n; off += sizeof(struct pollfd)) {
		struct pollfd pf;
		memcpy(&pf, p + off, sizeof(pf));
		if (revents && !pf.revents)
			continue;
		trace_tw_open(w, '{');
		trace_tw_field(w, "fd");
		trace_tw_int(w, pf.fd);
		trace_tw_field(w, revents ? "revents" : "events");
		trace_tw_flags(w, (uint16_t)(revents ? pf.revents : pf.events), &trace_xlat_poll_events, "0");
		trace_tw_close(w, '}', false);
	}
	trace_tw_close(w, ']', false);
}

void trace_k_pollfds(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	if (readable(w, a))
		trace_tw_pollfds(w, a->data, a->len, false);
}

/* struct epoll_event: {events=EPOLLIN, data={u32=3, u64=3}} */
static void put_epoll_event(struct tw *w, const uint8_t *p)
{
	struct epoll_event ev;

	memcpy(&ev, p, sizeof(ev));
	trace_tw_open(w, '{');
	trace_tw_field(w, "events");
	trace_tw_flags(w, ev.events, &trace_xlat_epoll_events, "0");
	trace_tw_field(w, "data");
	trace_tw_open(w, '{');
	trace_tw_field(w, "u32");
	trace_tw_uint(w, ev.data.u32);
	trace_tw_field(w, "u64");
	trace_tw_uint(w, ev.data.u64);
	trace_tw_close(w, '}', false);
	trace_tw_close(w, '}', false);
}

void trace_k_epoll_event(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	/* EPOLL_CTL_DEL ignores it: strace shows its address */
	if (!a->v || !a->data || a->unread || a->len < sizeof(struct epoll_event) ||
	    (d->args && d->args[1] == EPOLL_CTL_DEL)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	put_epoll_event(w, a->data);
}

void trace_k_epoll_events(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int64_t count = d->ret;

	if (!a->v || !a->data || a->unread || count < 0) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	trace_tw_open(w, '[');
	for (int64_t i = 0; i < count && (size_t)(i + 1) * sizeof(struct epoll_event) <= a->len; i++)
		put_epoll_event(w, a->data + i * sizeof(struct epoll_event));
	trace_tw_close(w, ']', count > 0 && (size_t)count * sizeof(struct epoll_event) > a->len);
}

/* clone3's struct clone_args: the members strace shows for these flags */
void trace_k_clone_args(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct clone_args ca;
	const char *sig;

	if (!a->data || a->unread || a->len < CLONE_ARGS_SIZE_VER0) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	load(&ca, sizeof(ca), a->data, a->len);
	trace_tw_open(w, '{');
	trace_tw_field(w, "flags");
	trace_tw_flags(w, ca.flags, &trace_xlat_clone_flags, "0");
	if (ca.flags & CLONE_PIDFD) {
		trace_tw_field(w, "pidfd");
		trace_tw_hex(w, ca.pidfd);
	}
	if (ca.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		trace_tw_field(w, "child_tid");
		trace_tw_hex(w, ca.child_tid);
	}
	if (ca.flags & CLONE_PARENT_SETTID) {
		trace_tw_field(w, "parent_tid");
		trace_tw_hex(w, ca.parent_tid);
	}
	trace_tw_field(w, "exit_signal");
	if (ca.exit_signal && (sig = trace_signal_name((int)ca.exit_signal)))
		trace_tw_name(w, sig);
	else
		trace_tw_uint(w, ca.exit_signal);
	trace_tw_field(w, "stack");
	trace_tw_ptr(w, ca.stack);
	trace_tw_field(w, "stack_size");
	trace_tw_hex(w, ca.stack_size);
	if (ca.flags & CLONE_SETTLS) {
		trace_tw_field(w, "tls");
		trace_tw_hex(w, ca.tls);
	}
	trace_tw_close(w, '}', false);
	if ((ca.flags & CLONE_PARENT_SETTID) && d->ret > 0)
		trace_tw_note(w, " => {parent_tid=[%lld]}", (long long)d->ret);
}

/* getgroups: the result's count of gid_t */
void trace_k_groups(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int64_t n = d->ret;

	if (!a->v || !d->args || d->args[0] == 0 || n < 0) {
		if (a->v && d->args && d->args[0] == 0 && n >= 0) {
			trace_tw_open(w, '[');
			trace_tw_close(w, ']', false);
		} else {
			trace_tw_ptr(w, (uint64_t)a->v);
		}
		return;
	}
	if (!readable(w, a))
		return;
	trace_tw_open(w, '[');
	for (int64_t i = 0; i < n && (size_t)(i + 1) * sizeof(gid_t) <= a->len; i++) {
		gid_t g;
		memcpy(&g, a->data + i * sizeof(gid_t), sizeof(g));
		trace_tw_uint(w, g);
	}
	trace_tw_close(w, ']', (size_t)n * sizeof(gid_t) > a->len);
}
