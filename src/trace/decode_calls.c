// SPDX-License-Identifier: MIT
/*
 * The calls printed their own way, one printer each (enum trace_cp, as
 * strace keeps one SYS_FUNC per call): which of their arguments show and
 * as what kind, for the values they were given; what follows the result;
 * what -y learns of them. Also the kinds that only these calls take
 * (futex's operation, prctl's option, kcmp's type) and siginfo.
 */
#include "trace/decode.h"
#include "base/util.h"
#include "trace/fdpaths.h"
#include "trace/xlat_lists.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/futex.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* every argument as its kind says */
static int view_all(const struct sysdesc *d, int n, struct targ_view *v)
{
	for (int i = 0; i < n; i++)
		v[i] = (struct targ_view){ (uint8_t)i, (uint8_t)d->arg[i], NULL };
	return n;
}

/* open(path, flags, mode), openat(dirfd, path, flags, mode): the mode only when the flags create a file */
static int view_open(const struct sysdesc *d, const int64_t *a, struct targ_view *v)
{
	int flags = d->nargs - 2;

	bool creates = (a[flags] & O_CREAT) || (a[flags] & O_TMPFILE) == O_TMPFILE;

	return view_all(d, creates ? d->nargs : d->nargs - 1, v);
}

/* clone (x86-64's order: flags, stack, parent_tid, child_tid, tls): the arguments strace names */
static int view_clone(const struct sysdesc *d, const int64_t *a, struct targ_view *v)
{
	uint64_t flags = (uint64_t)a[0];
	int n = 0;

	v[n++] = (struct targ_view){ 1, A_PTR, "child_stack" };
	v[n++] = (struct targ_view){ 0, A_CLONE_FLAGS, "flags" };
	if (flags & CLONE_PARENT_SETTID)
		v[n++] = (struct targ_view){ 2, A_HEX, "parent_tid" };
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		v[n++] = (struct targ_view){ 3, A_HEX, "child_tidptr" };
	if (flags & CLONE_SETTLS)
		v[n++] = (struct targ_view){ 4, A_HEX, "tls" };
	return n;
}

/* futex(uaddr, op, val, timeout|val2, uaddr2, val3): the arguments its operation uses */
static int view_futex(const struct sysdesc *d, const int64_t *a, struct targ_view *v)
{
	enum { VAL = 1, TIMEOUT = 2, VAL2 = 4, UADDR2 = 8, VAL3 = 16 };
	static const uint8_t uses[] = {
		[FUTEX_WAIT] = VAL | TIMEOUT,
		[FUTEX_WAKE] = VAL,
		[FUTEX_FD] = VAL,
		[FUTEX_REQUEUE] = VAL | VAL2 | UADDR2,
		[FUTEX_CMP_REQUEUE] = VAL | VAL2 | UADDR2 | VAL3,
		[FUTEX_WAKE_OP] = VAL | VAL2 | UADDR2 | VAL3,
		[FUTEX_LOCK_PI] = TIMEOUT,
		[FUTEX_UNLOCK_PI] = 0,
		[FUTEX_TRYLOCK_PI] = 0,
		[FUTEX_WAIT_BITSET] = VAL | TIMEOUT | VAL3,
		[FUTEX_WAKE_BITSET] = VAL | VAL3,
		[FUTEX_WAIT_REQUEUE_PI] = VAL | TIMEOUT | UADDR2,
		[FUTEX_CMP_REQUEUE_PI] = VAL | VAL2 | UADDR2 | VAL3,
		[FUTEX_LOCK_PI2] = TIMEOUT,
	};
	uint32_t op = (uint32_t)a[1] & FUTEX_CMD_MASK; /* any bits: a negative op is unknown too */
	uint8_t u = op < ARRAY_SIZE(uses) ? uses[op] : VAL | TIMEOUT | UADDR2 | VAL3;
	int n = 0;

	v[n++] = (struct targ_view){ 0, A_PTR, NULL };
	v[n++] = (struct targ_view){ 1, A_FUTEX_OP, NULL };
	if (u & VAL)
		v[n++] = (struct targ_view){ 2, A_INT, NULL };
	if (u & TIMEOUT)
		v[n++] = (struct targ_view){ 3, A_PTR, NULL };
	if (u & VAL2)
		v[n++] = (struct targ_view){ 3, A_UINT32, NULL };
	if (u & UADDR2)
		v[n++] = (struct targ_view){ 4, A_PTR, NULL };
	if (u & VAL3)
		v[n++] = (struct targ_view){ 5, A_FUTEX_VAL3, NULL };
	return n;
}

/* prctl(option, ...): the arguments the option takes, as strace shows them */
static int view_prctl(const struct sysdesc *d, const int64_t *a, struct targ_view *v)
{
	int n = 0, hex_from = 1;

	v[n++] = (struct targ_view){ 0, A_PRCTL_OP, NULL };
	switch (a[0]) {
	case PR_GET_KEEPCAPS:
	case PR_GET_SECCOMP:
	case PR_GET_TIMERSLACK:
	case PR_GET_TIMING:
	case PR_GET_DUMPABLE:
	case PR_TASK_PERF_EVENTS_DISABLE:
	case PR_TASK_PERF_EVENTS_ENABLE:
		return n;
	case PR_SET_NAME:
	case PR_GET_NAME:
		v[n++] = (struct targ_view){ 1, A_STR_OUT, NULL };
		return n;
	case PR_SET_CHILD_SUBREAPER:
	case PR_SET_ENDIAN:
	case PR_SET_FPEMU:
	case PR_SET_FPEXC:
	case PR_SET_KEEPCAPS:
	case PR_SET_TIMING:
	case PR_SET_TIMERSLACK:
		v[n++] = (struct targ_view){ 1, A_UINT, NULL };
		return n;
	case PR_CAPBSET_READ:
	case PR_CAPBSET_DROP:
		v[n++] = (struct targ_view){ 1, A_CAP, NULL };
		return n;
	case PR_SET_PDEATHSIG:
		v[n++] = (struct targ_view){ 1, (uint64_t)a[1] > 128 ? A_UINT : A_SIGNAL, NULL };
		return n;
	case PR_SET_NO_NEW_PRIVS:
	case PR_SET_THP_DISABLE:
	case PR_SET_IO_FLUSHER:
		v[n++] = (struct targ_view){ 1, A_UINT, NULL };
		hex_from = 2;
		break;
	default:
		break;
	}
	for (int i = hex_from; i < 5; i++)
		v[n++] = (struct targ_view){ (uint8_t)i, A_HEX, NULL };
	return n;
}

/* fcntl(fd, cmd, arg): arg only for the commands that take one */
static int view_fcntl(const struct sysdesc *d, const int64_t *a, struct targ_view *v)
{
	switch (a[1]) {
	case F_GETFD:
	case F_GETFL:
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS:
		return view_all(d, 2, v);
	default:
		return view_all(d, 3, v);
	}
}

const struct trace_call_printer *trace_printer_of(const struct sysdesc *d)
{
	return &trace_call_printers[d->printer < CP_COUNT_ ? d->printer : CP_PLAIN];
}

/* mount: the type as an address when the flags ignore it, the data too for some */
static int view_mount(const struct sysdesc *d, const int64_t *a, struct targ_view *v)
{
	uint64_t flags = (uint64_t)a[3];
	bool no_type = false, no_data = false;
	int n = view_all(d, d->nargs, v);

	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~(uint64_t)MS_MGC_MSK;
	if (flags & MS_REMOUNT)
		no_type = true;
	else if (flags & (MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE))
		no_type = no_data = true;
	if (no_type)
		v[2].kind = A_PTR;
	if (no_data)
		v[4].kind = A_PTR;
	return n;
}

int trace_sysdesc_view(const struct sysdesc *d, const int64_t *a, struct targ_view out[TRACE_NARGS])
{
	const struct trace_call_printer *p = trace_printer_of(d);

	if (p->view && a)
		return p->view(d, a, out);
	return view_all(d, d->nargs, out);
}

/* poll: the descriptors that have events, after the result */
static void after_poll(struct strbuf *out, const struct targ_val *xv, int64_t ret)
{
	struct tw w;

	if (ret == 0) {
		sb_puts(out, " (Timeout)");
	} else if (ret > 0 && xv[0].data && !xv[0].unread) {
		sb_puts(out, " (");
		trace_tw_init(&w, out, false);
		trace_tw_pollfds(&w, xv[0].data, xv[0].len, true);
		sb_putc(out, ')');
	}
}

/* fcntl's result: a descriptor after F_DUPFD, F_DUPFD_CLOEXEC; flags after F_GETFL */
static enum tret ret_fcntl(const int64_t *a)
{
	switch (a ? a[1] : -1) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return R_FD;
	case F_GETFL:
		return R_OPEN_FLAGS;
	case F_GETFD:
		return R_FD_FLAGS;
	default:
		return R_INT;
	}
}

enum tret trace_ret_kind(const struct sysdesc *d, const int64_t *a)
{
	const struct trace_call_printer *p = trace_printer_of(d);

	return p->ret && a ? p->ret(a) : d->ret;
}

const struct trace_call_printer trace_call_printers[CP_COUNT_] = {
	[CP_PLAIN] = { 0 },
	[CP_OPEN] = { .view = view_open, .fd = FA_OPEN },
	[CP_OPENAT] = { .view = view_open, .fd = FA_OPENAT },
	[CP_OPENAT2] = { .fd = FA_OPENAT },
	[CP_CREAT] = { .fd = FA_OPEN },
	[CP_CLOSE] = { .fd = FA_CLOSE },
	[CP_DUP] = { .fd = FA_DUP },
	[CP_DUP2] = { .fd = FA_DUP2, .ret_is_arg0 = true },
	[CP_FCNTL] = { .view = view_fcntl, .ret = ret_fcntl, .fd = FA_FCNTL },
	[CP_CHDIR] = { .fd = FA_CHDIR },
	[CP_FCHDIR] = { .fd = FA_FCHDIR },
	[CP_CLONE] = { .view = view_clone },
	[CP_FUTEX] = { .view = view_futex },
	[CP_PRCTL] = { .view = view_prctl },
	[CP_POLL] = { .after = after_poll },
	[CP_MOUNT] = { .view = view_mount },
};

/* FUTEX_WAIT_PRIVATE|FUTEX_CLOCK_REALTIME */
void trace_k_futex_op(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	const char *name = trace_xlat_name(&trace_xlat_futex_ops, a->v & FUTEX_CMD_MASK);
	char buf[64];

	trace_tw_fset_begin(w);
	if (name) {
		snprintf(buf, sizeof(buf), "%s%s", name, a->v & FUTEX_PRIVATE_FLAG ? "_PRIVATE" : "");
		trace_tw_fset_name(w, buf);
	} else {
		trace_tw_fset_bits(w, (uint64_t)a->v & FUTEX_CMD_MASK, &(struct xlat){ NULL, 0 });
		if (a->v & FUTEX_PRIVATE_FLAG)
			trace_tw_fset_name(w, "FUTEX_PRIVATE_FLAG");
	}
	if (a->v & FUTEX_CLOCK_REALTIME)
		trace_tw_fset_name(w, "FUTEX_CLOCK_REALTIME");
	trace_tw_fset_end(w, NULL);
}

/* futex's val3: FUTEX_BITSET_MATCH_ANY for the bitset operations, else hex */
void trace_k_futex_val3(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int op = d->args ? (int)(d->args[1] & FUTEX_CMD_MASK) : -1;

	if ((op == FUTEX_WAIT_BITSET || op == FUTEX_WAKE_BITSET) && (uint32_t)a->v == FUTEX_BITSET_MATCH_ANY)
		trace_tw_name(w, "FUTEX_BITSET_MATCH_ANY");
	else
		trace_tw_hex(w, (uint32_t)a->v);
}

void trace_k_uint32(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_uint(w, (uint32_t)a->v);
}

void trace_k_prctl_op(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, (int)a->v, &trace_xlat_prctl_options, true);
}

/* a capability's name; strace's "0x29 /\* CAP_??? *\/" for one it does not know */
void trace_k_cap(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	const char *n = trace_xlat_name(&trace_xlat_caps, a->v);

	if (n) {
		trace_tw_name(w, n);
		return;
	}
	trace_tw_hex(w, (uint64_t)a->v);
	trace_tw_note(w, " /* CAP_??? */");
}

/* capget's and capset's header: {version=_LINUX_CAPABILITY_VERSION_3, pid=0} */
void trace_k_cap_header(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct __user_cap_header_struct h;

	if (!a->v || !a->data || a->unread || a->len < sizeof(h)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&h, a->data, sizeof(h));
	trace_tw_open(w, '{');
	trace_tw_field(w, "version");
	trace_tw_const(w, h.version, &trace_xlat_cap_versions, true);
	trace_tw_field(w, "pid");
	trace_tw_int(w, h.pid);
	trace_tw_close(w, '}', false);
}

/* 1<<CAP_NET_ADMIN|1<<CAP_NET_RAW: a capability set of two 32-bit halves */
static void put_capset(struct tw *w, uint64_t set)
{
	char name[64];

	trace_tw_fset_begin(w);
	for (int i = 0; i < 64; i++) {
		const char *c;
		if (!(set & (1ull << i)))
			continue;
		c = trace_xlat_name(&trace_xlat_caps, i);
		if (c) {
			snprintf(name, sizeof(name), w->json ? "%s" : "1<<%s", c);
			trace_tw_fset_name(w, name);
			set &= ~(1ull << i);
		}
	}
	trace_tw_fset_bits(w, set, &(struct xlat){ NULL, 0 });
	trace_tw_fset_end(w, "0");
}

void trace_k_cap_data(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	struct __user_cap_data_struct c[2];

	if (!a->v || !a->data || a->unread || a->len < sizeof(c)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(c, a->data, sizeof(c));
	trace_tw_open(w, '{');
	trace_tw_field(w, "effective");
	put_capset(w, c[0].effective | (uint64_t)c[1].effective << 32);
	trace_tw_field(w, "permitted");
	put_capset(w, c[0].permitted | (uint64_t)c[1].permitted << 32);
	trace_tw_field(w, "inheritable");
	put_capset(w, c[0].inheritable | (uint64_t)c[1].inheritable << 32);
	trace_tw_close(w, '}', false);
}

/* sigaltstack's stack_t */
void trace_k_stack(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	stack_t st;

	if (!a->v || !a->data || a->unread || a->len < sizeof(st)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&st, a->data, sizeof(st));
	trace_tw_open(w, '{');
	trace_tw_field(w, "ss_sp");
	trace_tw_ptr(w, (uint64_t)(uintptr_t)st.ss_sp);
	trace_tw_field(w, "ss_flags");
	trace_tw_flags(w, (uint32_t)st.ss_flags, &trace_xlat_sigaltstack_flags, "0");
	trace_tw_field(w, "ss_size");
	trace_tw_uint(w, st.ss_size);
	trace_tw_close(w, '}', false);
}

void trace_k_kcmp(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_kcmp_types, false);
}

/* si_code's name: the common ones, then the signal's own */
static const char *si_code_name(int sig, int code)
{
	const char *n = trace_xlat_name(&trace_xlat_si_codes, code);

	if (n || code <= 0)
		return n;
	switch (sig) {
	case SIGCHLD:
		return trace_xlat_name(&trace_xlat_sigchld_codes, code);
	case SIGSEGV:
		return trace_xlat_name(&trace_xlat_sigsegv_codes, code);
	case SIGBUS:
		return trace_xlat_name(&trace_xlat_sigbus_codes, code);
	case SIGILL:
		return trace_xlat_name(&trace_xlat_sigill_codes, code);
	case SIGFPE:
		return trace_xlat_name(&trace_xlat_sigfpe_codes, code);
	case SIGTRAP:
		return trace_xlat_name(&trace_xlat_sigtrap_codes, code);
	}
	return NULL;
}

/* SIGCHLD's times: clock ticks, and the seconds when there are any */
static void put_ticks(struct tw *w, const char *name, long long ticks)
{
	trace_tw_field(w, name);
	trace_tw_int(w, ticks);
	if (ticks)
		trace_tw_note(w, " /* %.2f s */", (double)ticks / (double)sysconf(_SC_CLK_TCK));
}

void trace_tw_siginfo(struct tw *w, const uint8_t *p, size_t n)
{
	siginfo_t si;
	const char *cn;
	bool fault;

	memset(&si, 0, sizeof(si));
	memcpy(&si, p, MIN(n, sizeof(si)));
	cn = si_code_name(si.si_signo, si.si_code);
	fault = si.si_signo == SIGSEGV || si.si_signo == SIGBUS || si.si_signo == SIGILL || si.si_signo == SIGFPE ||
		si.si_signo == SIGTRAP;
	trace_tw_open(w, '{');
	trace_tw_field(w, "si_signo");
	trace_tw_signal(w, si.si_signo);
	trace_tw_field(w, "si_code");
	if (cn)
		trace_tw_name(w, cn);
	else
		trace_tw_int(w, si.si_code);
	if (si.si_code <= 0 && si.si_code != SI_TIMER && si.si_code != SI_SIGIO) {
		/* sent by a process: kill, tkill, sigqueue */
		trace_tw_field(w, "si_pid");
		trace_tw_int(w, si.si_pid);
		trace_tw_field(w, "si_uid");
		trace_tw_uint(w, si.si_uid);
		if (si.si_code == SI_QUEUE || si.si_code == SI_ASYNCIO || si.si_code == SI_MESGQ) {
			trace_tw_field(w, "si_int");
			trace_tw_int(w, si.si_value.sival_int);
			trace_tw_field(w, "si_ptr");
			trace_tw_ptr(w, (uint64_t)(uintptr_t)si.si_value.sival_ptr);
		}
	} else if (si.si_code == SI_TIMER) {
		trace_tw_field(w, "si_timerid");
		trace_tw_hex(w, (uint32_t)si.si_timerid);
		trace_tw_field(w, "si_overrun");
		trace_tw_int(w, si.si_overrun);
	} else if (si.si_signo == SIGCHLD && si.si_code > 0) {
		trace_tw_field(w, "si_pid");
		trace_tw_int(w, si.si_pid);
		trace_tw_field(w, "si_uid");
		trace_tw_uint(w, si.si_uid);
		trace_tw_field(w, "si_status");
		if (si.si_code == CLD_EXITED || !trace_signal_name(si.si_status))
			trace_tw_int(w, si.si_status);
		else
			trace_tw_signal(w, si.si_status);
		put_ticks(w, "si_utime", (long long)si.si_utime);
		put_ticks(w, "si_stime", (long long)si.si_stime);
	} else if (fault) {
		trace_tw_field(w, "si_addr");
		trace_tw_ptr(w, (uint64_t)(uintptr_t)si.si_addr);
	}
	trace_tw_close(w, '}', false);
}
