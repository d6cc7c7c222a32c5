// SPDX-License-Identifier: MIT
/*
 * The decoders of the scalar kinds (kinds.def): numbers, descriptors,
 * strings and buffers, flags and constants, and the result of a call.
 * Every constant comes from a list of names (in xlat/) that the
 * system's headers give values to.
 */
#include "trace/decode.h"
#include "trace/fdpaths.h"
#include "base/util.h"
#include "trace/xlat_lists.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <stdio.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* The argument after the one being decoded (a size, a count) */
static int64_t next_arg(const struct tdecode *d)
{
	return d->args && d->at + 1 < TRACE_NARGS ? d->args[d->at + 1] : 0;
}

void trace_put_fd_path(struct strbuf *out, const struct tdecode *d, int64_t fd)
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

void trace_k_none(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
}

void trace_k_int(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_int(w, (int)a->v);
}

void trace_k_long(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_int(w, a->v);
}

void trace_k_uint(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_uint(w, (uint64_t)a->v);
}

void trace_k_hex(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_hex(w, (uint64_t)a->v);
}

void trace_k_ptr(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_ptr(w, (uint64_t)a->v);
}

void trace_k_fd(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_int(w, (int)a->v);
	if (d->paths && (int)a->v >= 0 && !w->json)
		trace_put_fd_path(w->sb, d, (int)a->v);
}

void trace_k_dirfd(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	if ((int)a->v == AT_FDCWD)
		trace_tw_name(w, "AT_FDCWD");
	else
		trace_tw_int(w, (int)a->v);
	if (d->paths && ((int)a->v >= 0 || (int)a->v == AT_FDCWD) && !w->json)
		trace_put_fd_path(w->sb, d, (int)a->v);
}

void trace_k_octal(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_octal(w, (uint64_t)a->v);
}

/* S_IFREG|S_ISUID|0644: the file type and special bits by name, the permissions in octal */
static void put_mode(struct tw *w, uint32_t mode, bool with_type)
{
	static const struct flag types[] = {
		{ S_IFIFO, "S_IFIFO" }, { S_IFCHR, "S_IFCHR" }, { S_IFDIR, "S_IFDIR" }, { S_IFBLK, "S_IFBLK" },
		{ S_IFREG, "S_IFREG" }, { S_IFLNK, "S_IFLNK" }, { S_IFSOCK, "S_IFSOCK" },
	};
	static const struct xlat tx = { types, ARRAY_SIZE(types) };
	const char *t = with_type ? trace_xlat_name(&tx, mode & S_IFMT) : NULL;

	trace_tw_fset_begin(w);
	if (t)
		trace_tw_fset_name(w, t);
	if (mode & S_ISUID)
		trace_tw_fset_name(w, "S_ISUID");
	if (mode & S_ISGID)
		trace_tw_fset_name(w, "S_ISGID");
	if (mode & S_ISVTX)
		trace_tw_fset_name(w, "S_ISVTX");
	/* the rest in octal, the type too when it has no name */
	mode &= t ? 0777 : ~(unsigned)(S_ISUID | S_ISGID | S_ISVTX);
	if (w->json)
		sb_printf(w->sb, "%s%u", w->fset ? ", " : "", mode);
	else
		sb_printf(w->sb, "%s%#03o", w->fset ? "|" : "", mode);
	w->fset++;
	trace_tw_fset_end(w, NULL);
}

void trace_k_mode_t(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_mode(w, (uint32_t)a->v, true);
}

/* The file mode a structure holds (stat's st_mode) */
void trace_tw_file_mode(struct tw *w, uint32_t mode)
{
	put_mode(w, mode, true);
}

/* A string argument (a path: whole; a string: -s long) */
static void put_string(struct tw *w, const struct targ_val *a, const struct tdecode *d, bool path)
{
	size_t n;

	if (!a->v || a->unread || !a->data) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	n = strnlen((const char *)a->data, a->len);
	trace_tw_quoted(w, a->data, n, path ? SIZE_MAX : d->strsize, !path && n > d->strsize, d->hex);
}

void trace_k_path(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_string(w, a, d, true);
}

void trace_k_str(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_string(w, a, d, false);
}

/* A path the call wrote (getcwd): the result's bytes, to its NUL */
void trace_k_path_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_string(w, a, d, true);
}

void trace_k_str_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_string(w, a, d, false);
}

/* A buffer of the call: what was read (at most -s bytes), "..." if the call moved more. */
static void put_buffer(struct tw *w, const struct targ_val *a, const struct tdecode *d, int64_t total,
		       bool force_hex)
{
	if (!a->unread && total == 0) {
		trace_tw_quoted(w, (const uint8_t *)"", 0, 0, false, 0);
		return;
	}
	if (a->unread || !a->data) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	trace_tw_quoted(w, a->data, a->len, d->strsize, total > (int64_t)d->strsize && a->len >= d->strsize,
			force_hex ? 2 : d->hex);
}

void trace_k_buf_in(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_buffer(w, a, d, next_arg(d), false); /* write(fd, buf, count), sendto(...) */
}

void trace_k_buf_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_buffer(w, a, d, d->ret, false);
}

void trace_k_buf_hex(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_buffer(w, a, d, d->ret, true);
}

/* argv: ["a", "b", ...] (TR_ARGV: a u32 count, a u32 slot size, the slots) */
void trace_k_argv(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	uint32_t count = 0, slot = 0, shown;

	if (!a->data || a->len < 8) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&count, a->data, 4);
	memcpy(&slot, a->data + 4, 4);
	shown = slot > 1 ? (a->len - 8) / slot : 0;
	trace_tw_open(w, '[');
	for (uint32_t i = 0; i < shown && i < count; i++) {
		const uint8_t *s = a->data + 8 + i * slot;
		size_t n = strnlen((const char *)s, slot);
		/* a full slot (strsize + 1 characters read, or the slot's most) was cut */
		trace_tw_quoted(w, s, n, d->strsize, n >= slot - 1, d->hex);
	}
	trace_tw_close(w, ']', count > shown);
}

/* envp: the address and the count of its strings (0x... and a comment of the count) */
void trace_k_envp(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	uint32_t count = 0;

	if (!a->data || a->len < 8) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&count, a->data, 4);
	if (w->json) {
		trace_tw_open(w, '{');
		trace_tw_field(w, "address");
		trace_tw_ptr(w, (uint64_t)a->v);
		trace_tw_field(w, "count");
		trace_tw_uint(w, count);
		trace_tw_close(w, '}', false);
		return;
	}
	trace_tw_ptr(w, (uint64_t)a->v);
	trace_tw_note(w, " /* %u var%s */", count, count == 1 ? "" : "s");
}

/* O_RDONLY|O_CLOEXEC: the access mode (none with O_PATH), then the flags */
static void put_open_flags(struct tw *w, int64_t v)
{
	uint64_t rest = (uint64_t)v & ~(uint64_t)O_ACCMODE;

	trace_tw_fset_begin(w);
	trace_tw_fset_name(w, trace_xlat_name(&trace_xlat_open_access, v & O_ACCMODE));
	trace_tw_fset_bits(w, rest, &trace_xlat_open_flags);
	trace_tw_fset_end(w, NULL);
}

void trace_k_open_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_open_flags(w, a->v);
}

/* openat2's struct open_how: {flags=O_RDONLY, mode=0644 (with O_CREAT, O_TMPFILE), resolve=RESOLVE_*} */
void trace_k_open_how(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct open_how how;

	if (!a->v || !a->data || a->unread || a->len < sizeof(how)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&how, a->data, sizeof(how));
	trace_tw_open(w, '{');
	trace_tw_field(w, "flags");
	put_open_flags(w, (int64_t)how.flags);
	if ((how.flags & O_CREAT) || (how.flags & O_TMPFILE) == O_TMPFILE || how.mode) {
		trace_tw_field(w, "mode");
		trace_tw_octal(w, how.mode);
	}
	trace_tw_field(w, "resolve");
	trace_tw_flags(w, how.resolve, &trace_xlat_resolve_flags, "0");
	trace_tw_close(w, '}', false);
}

void trace_k_access_mode(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_access_modes, "F_OK");
}

void trace_k_at_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_at_flags, "0");
}

/* statx's: the sync mode first (AT_STATX_SYNC_AS_STAT when none), then AT_* */
void trace_k_statx_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	uint64_t sync = (uint64_t)a->v & AT_STATX_SYNC_TYPE;

	const char *name = trace_xlat_name(&trace_xlat_statx_sync, (int64_t)sync);

	trace_tw_fset_begin(w);
	if (name)
		trace_tw_fset_name(w, name);
	else
		trace_tw_fset_bits(w, sync, &(struct xlat){ NULL, 0 });
	trace_tw_fset_bits(w, (uint64_t)a->v & ~(uint64_t)AT_STATX_SYNC_TYPE, &trace_xlat_at_flags);
	trace_tw_fset_end(w, NULL);
}

/* pipe2, dup3, accept4: O_CLOEXEC|O_NONBLOCK without an access mode */
void trace_k_faccessat_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_faccessat_flags, "0");
}

void trace_k_fd_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_open_flags, "0");
}

void trace_k_whence(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_whences, false);
}

void trace_k_fadvice(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_fadvices, false);
}

void trace_k_fcntl_cmd(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_fcntls, false);
}

/* fcntl's third argument, as its command says (CP_FCNTL shows it only for those that take one) */
void trace_k_fcntl_arg(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	switch (d->args ? d->args[1] : -1) {
	case F_SETFD:
		trace_tw_flags(w, (uint64_t)a->v, &(struct xlat){ (const struct flag[]){ { FD_CLOEXEC, "FD_CLOEXEC" } }, 1 },
			       "0");
		break;
	case F_SETFL:
		put_open_flags(w, a->v);
		break;
	case F_SETLEASE:
		trace_tw_const(w, a->v, &(struct xlat){ (const struct flag[]){ { F_RDLCK, "F_RDLCK" }, { F_WRLCK, "F_WRLCK" },
								  { F_UNLCK, "F_UNLCK" } }, 3 },
			       false);
		break;
	case F_SETSIG:
		trace_tw_signal(w, a->v);
		break;
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		trace_tw_ptr(w, (uint64_t)a->v);
		break;
	default:
		trace_tw_int(w, (int)a->v);
	}
}

void trace_k_ioctl_req(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, (int64_t)(uint32_t)a->v, &trace_xlat_ioctls, true);
}

/* ioctl's argument, as the request says: an int, an int it filled ([n]), or the address */
void trace_k_ioctl_arg(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int v;

	switch ((uint32_t)(d->args ? d->args[1] : 0)) {
	case FICLONE:
		trace_tw_int(w, (int)a->v);
		return;
	case FIONREAD:
	case FIONBIO:
	case TIOCOUTQ:
	case TIOCGPGRP:
	case TIOCSPGRP:
	case TIOCGPTN:
	case TIOCSPTLCK:
		if (!a->v || !a->data || a->unread || a->len < sizeof(v))
			break;
		memcpy(&v, a->data, sizeof(v));
		trace_tw_open(w, '[');
		trace_tw_int(w, v);
		trace_tw_close(w, ']', false);
		return;
	default:
		break;
	}
	trace_tw_ptr(w, (uint64_t)a->v);
}

void trace_k_pipefds(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int fds[2];

	if (!a->data || a->unread || a->len < sizeof(fds)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(fds, a->data, sizeof(fds));
	trace_tw_open(w, '[');
	trace_tw_int(w, fds[0]);
	trace_tw_int(w, fds[1]);
	trace_tw_close(w, ']', false);
}

/* mount's flags: the magic number of old callers in the high half, then MS_* */
void trace_k_mount_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	uint64_t v = (uint64_t)a->v;

	trace_tw_fset_begin(w);
	if ((v & MS_MGC_MSK) == MS_MGC_VAL) {
		trace_tw_fset_name(w, "MS_MGC_VAL");
		v &= ~(uint64_t)MS_MGC_MSK;
	}
	trace_tw_fset_bits(w, v, &trace_xlat_mount_flags);
	trace_tw_fset_end(w, NULL);
}

void trace_k_umount_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_umount_flags, "0");
}

void trace_k_rename_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_rename_flags, "0");
}

void trace_k_prot(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_mmap_prot, "PROT_NONE");
}

/* MAP_PRIVATE|MAP_ANONYMOUS: the sharing type, then the flags */
void trace_k_map_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	const char *type = trace_xlat_name(&trace_xlat_mmap_type, a->v & 3);

	trace_tw_fset_begin(w);
	trace_tw_fset_name(w, type ? type : "0");
	trace_tw_fset_bits(w, (uint64_t)a->v & ~3ull, &trace_xlat_mmap_flags);
	trace_tw_fset_end(w, NULL);
}

void trace_k_madvise(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_madvises, false);
}

void trace_k_mremap_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_mremap_flags, "0");
}

/* clone's flags: the exit signal in the low byte */
void trace_tw_clone_flags(struct tw *w, uint64_t v)
{
	trace_tw_fset_begin(w);
	trace_tw_fset_bits(w, v & ~(uint64_t)CSIGNAL, &trace_xlat_clone_flags);
	if (v & CSIGNAL) {
		const char *sig = trace_signal_name((int)(v & CSIGNAL));
		if (sig)
			trace_tw_fset_name(w, sig);
		else
			trace_tw_fset_bits(w, v & CSIGNAL, &trace_xlat_clone_flags);
	}
	trace_tw_fset_end(w, NULL);
}

void trace_k_clone_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_clone_flags(w, (uint64_t)a->v);
}

void trace_k_unshare_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_clone_flags, "0");
}

void trace_k_wait_options(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_wait_options, "0");
}

void trace_k_rlimit_resource(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_rlimits, false);
}

void trace_k_arch_prctl(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_arch_prctls, true);
}

void trace_k_grnd_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_grnd_flags, "0");
}

void trace_k_clockid(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_clocks, false);
}

void trace_k_signal(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_signal(w, a->v);
}

void trace_k_sighow(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_sighows, false);
}

void trace_k_sigset(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	if (a->v && a->data && !a->unread)
		trace_tw_sigset(w, a->data, a->len);
	else
		trace_tw_ptr(w, (uint64_t)a->v);
}

/* rt_sigreturn's: the mask its signal frame restores, {mask=[...]}; nothing when not read */
void trace_k_sigframe(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	if (!a->data || a->unread || !a->len) {
		if (w->json)
			trace_tw_ptr(w, 0);
		return;
	}
	trace_tw_open(w, '{');
	trace_tw_field(w, "mask");
	trace_tw_sigset(w, a->data, a->len);
	trace_tw_close(w, '}', false);
}

void trace_k_epoll_ctl_op(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_epoll_ops, false);
}

void trace_k_epoll_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_epoll_flags, "0");
}

void trace_k_efd_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_efd_flags, "0");
}

void trace_decode_ret(struct strbuf *out, enum tret r, int64_t ret, const struct tdecode *d)
{
	if (r == R_NONE) {
		sb_puts(out, "= ?");
		return;
	}
	if (ret <= -512 && ret >= -516) {
		/* the kernel restarts the call after a signal: what strace says */
		sb_printf(out, "= ? %s (%s)", trace_errno_name((int)-ret), trace_errno_text((int)-ret));
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
	switch (r) {
	case R_HEX:
		sb_printf(out, "= %#llx", (unsigned long long)ret);
		break;
	case R_OCTAL:
		sb_printf(out, "= %#03llo", (unsigned long long)ret);
		break;
	case R_OPEN_FLAGS: {
		struct tw w;
		sb_printf(out, "= %#llx (flags ", (unsigned long long)ret);
		trace_tw_init(&w, out, false);
		put_open_flags(&w, ret);
		sb_putc(out, ')');
		break;
	}
	case R_FD_FLAGS:
		if (ret & FD_CLOEXEC) {
			sb_printf(out, "= %#llx (flags FD_CLOEXEC)", (unsigned long long)ret);
			break;
		}
		sb_printf(out, "= %lld", (long long)ret);
		break;
	case R_FD:
		sb_printf(out, "= %lld", (long long)ret);
		if (d->paths)
			trace_put_fd_path(out, d, d->ret_fd >= 0 ? d->ret_fd : ret);
		break;
	case R_INT:
	case R_NONE:
		sb_printf(out, "= %lld", (long long)ret);
		break;
	}
}
