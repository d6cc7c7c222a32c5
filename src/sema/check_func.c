// SPDX-License-Identifier: MIT
/*
 * The checks of the functions on bytes, strings and addresses: buf, bswap,
 * strncmp, strerror, signal_name, syscall_name, ntop, pton, macaddr, cgroup_path, and of
 * the builtins username and sarg0... Their table entries are in
 * builtins.c, their code in codegen/gen_func.c.
 */
#include "output/printf.h"
#include "sema/check.h"
#include "sys/arch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>

static bool is_addr(const struct type *t)
{
	return t->kind == TY_INT || t->kind == TY_PTR;
}

/* buf(data [, length]): length bytes of a string, an array or memory */
struct type *sema_check_buf(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	struct type *t = sema_check_expr(c, a[0]);
	int64_t n = -1;

	if (t->kind == TY_NONE)
		return &ty_none;
	if (t->kind != TY_STR && t->kind != TY_ARRAY && !is_addr(t)) {
		CERR(c, a[0]->span, E_ARG_TYPE,
		     "buf() expects a pointer, an address, a string or an array, got %s",
		     type_str_of(t));
		return &ty_none;
	}
	if (e->u.call.args.n == 1) {
		if (t->kind != TY_ARRAY) {
			CERR(c, e->span, E_ARG_COUNT, "buf() of %s needs a length", type_str_of(t));
			CHINT(c, "only an array's length is known: write buf(data, length)");
			return &ty_none;
		}
		n = t->size;
	} else if (a[1]->kind == EXPR_INT || a[1]->kind == EXPR_POSITIONAL ||
		   a[1]->kind == EXPR_UNARY) {
		if (!sema_check_const_int(c, a[1], &n, "buf()'s length"))
			return &ty_none;
		if (n < 0) {
			CERR(c, a[1]->span, E_ARG_TYPE, "buf()'s length cannot be negative");
			return &ty_none;
		}
	} else if (!sema_check_int(c, a[1], "buf()'s length")) {
		return &ty_none;
	} else if (t->kind == TY_STR || t->kind == TY_ARRAY) {
		CERR(c, a[1]->span, E_NOT_CONSTANT, "buf() of %s takes a constant length",
		     type_str_of(t));
		return &ty_none;
	}
	/* at most BPFTRACE_STRLEN bytes, as bpftrace; a variable length: that many */
	if (n < 0 || n > c->p->strlen)
		n = c->p->strlen;
	if ((t->kind == TY_STR || t->kind == TY_ARRAY) && n > t->size)
		n = t->size;
	return type_buf(&c->p->arena, (uint32_t)n);
}

/* bswap(n): the bytes of n reversed, unsigned of n's width */
struct type *sema_check_bswap(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];

	if (!sema_check_int(c, a, "bswap()"))
		return &ty_none;
	if (a->type->kind != TY_INT) {
		CERR(c, a->span, E_ARG_TYPE, "bswap() expects an integer, got %s",
		     type_str_of(a->type));
		return &ty_none;
	}
	return type_int(a->type->size, false);
}

static bool check_string_arg(struct check *c, struct expr *a, const char *fn)
{
	struct type *t = sema_check_expr(c, a);

	if (t->kind == TY_STR || t->kind == TY_NONE)
		return t->kind == TY_STR;
	CERR(c, a->span, E_ARG_TYPE, "%s() expects a string, got %s", fn, type_str_of(t));
	if (is_addr(t))
		CHINT(c, "read the string it points to with str()");
	return false;
}

/* strncmp(s1, s2, n): 0 when the first n characters are equal, else 1 */
struct type *sema_check_strncmp(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	bool ok = check_string_arg(c, a[0], "strncmp");
	int64_t n;

	ok &= check_string_arg(c, a[1], "strncmp");
	if (!sema_check_const_int(c, a[2], &n, "strncmp()'s length"))
		return &ty_none;
	if (n < 0) {
		CERR(c, a[2]->span, E_ARG_TYPE, "strncmp()'s length cannot be negative");
		return &ty_none;
	}
	e->info = (void *)(uintptr_t)n;
	return ok ? &ty_s64 : &ty_none;
}

/* strerror(errno), cgroup_path(id [, "filter"]): numbers printed as text */
struct type *sema_check_int_text(struct check *c, struct expr *e)
{
	if (!sema_check_int(c, e->u.call.args.v[0], e->u.call.name))
		return &ty_none;
	if (e->id == FN_STRERROR)
		return &ty_strerror;
	if (e->id == FN_SIGNAL_NAME)
		return &ty_signame;
	if (e->id == FN_SYSCALL_NAME)
		return &ty_sysname;
	if (e->u.call.args.n == 1)
		return &ty_cgpath;
	struct expr *f = e->u.call.args.v[1];
	if (f->kind != EXPR_STR) {
		CERR(c, f->span, E_ARG_TYPE, "cgroup_path()'s filter is a string literal");
		return &ty_none;
	}
	struct type *t = ARENA_NEW(&c->p->arena, struct type);
	*t = ty_cgpath;
	t->name = f->u.str;
	return t;
}

/* The address family an array, a buf or an integer holds: 4 or 16 bytes. */
static int inet_family(struct type *t)
{
	uint32_t n = t->kind == TY_ARRAY ? t->size : t->kind == TY_BUF ? t->count : 4;

	return n == 4 ? AF_INET : n == 16 ? AF_INET6 : -1;
}

/* ntop([af,] addr): an IPv4 (integer, 4 bytes) or IPv6 (16 bytes) address */
struct type *sema_check_ntop(struct check *c, struct expr *e)
{
	uint32_t n = e->u.call.args.n;
	struct expr *a = e->u.call.args.v[n - 1];
	struct type *t = sema_check_expr(c, a);

	if (n == 2 && !sema_check_int(c, e->u.call.args.v[0], "ntop()'s address family"))
		return &ty_none;
	if (t->kind == TY_NONE)
		return &ty_none;
	if (t->kind != TY_INT && t->kind != TY_ARRAY && t->kind != TY_BUF) {
		CERR(c, a->span, E_ARG_TYPE,
		     "ntop() expects an integer or an array of 4 or 16 bytes, got %s",
		     type_str_of(t));
		if (t->kind == TY_PTR)
			CHINT(c, "dereference it, e.g. ntop(*(uint32 *)p), or take buf(p, 16)");
		return &ty_none;
	}
	if (inet_family(t) < 0 || (t->kind == TY_ARRAY && t->elem->size != 1)) {
		CERR(c, a->span, E_ARG_TYPE, "ntop() expects 4 or 16 bytes, got %s",
		     type_str_of(t));
		return &ty_none;
	}
	return &ty_inet;
}

/* pton("1.2.3.4") / pton("fe80::1"): the address's bytes, known now */
struct type *sema_check_pton(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	uint8_t *bytes = arena_alloc(&c->p->arena, 16);
	int af;

	if (a->kind != EXPR_STR) {
		sema_check_expr(c, a);
		CERR(c, a->span, E_ARG_TYPE, "pton() expects a string literal");
		return &ty_none;
	}
	af = strchr(a->u.str, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(af, a->u.str, bytes) != 1) {
		CERR(c, a->span, E_ARG_TYPE, "'%s' is not an %s address", a->u.str,
		     af == AF_INET ? "IPv4" : "IPv6");
		CHINT(c, "write it as \"192.168.0.1\" or \"fe80::1\"");
		return &ty_none;
	}
	a->type = &ty_none;
	e->info = bytes;
	return type_array(&c->p->arena, &ty_u8, af == AF_INET ? 4 : 16);
}

/* macaddr(mac): 6 bytes, from an array (or a buf) or the memory an address points to */
struct type *sema_check_macaddr(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct type *t = sema_check_expr(c, a);

	if (t->kind == TY_NONE || is_addr(t))
		return t->kind == TY_NONE ? &ty_none : &ty_macaddr;
	if ((t->kind == TY_ARRAY && t->size == 6) || (t->kind == TY_BUF && t->count == 6))
		return &ty_macaddr;
	/* a member char mac[6], which reads as a string */
	const struct field *f = a->kind == EXPR_FIELD ? a->info : NULL;
	if (t->kind == TY_STR && f && f->read_size == 6)
		return &ty_macaddr;
	CERR(c, a->span, E_ARG_TYPE, "macaddr() expects 6 bytes, got %s", type_str_of(t));
	return &ty_none;
}

/* cgroupid("/sys/fs/cgroup/unified/x"): a cgroup v2 directory's id, found now */
struct type *sema_check_cgroupid(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = {.fh.handle_bytes = sizeof(uint64_t)};
	int mount_id;

	if (a->kind != EXPR_STR) {
		sema_check_expr(c, a);
		CERR(c, a->span, E_ARG_TYPE, "cgroupid() expects a path as a string literal");
		return &ty_none;
	}
	a->type = &ty_none;
	if (name_to_handle_at(AT_FDCWD, a->u.str, &h.fh, &mount_id, 0) < 0 ||
	    h.fh.handle_bytes != sizeof(uint64_t)) {
		CERR(c, a->span, E_UNKNOWN_FILE, "no cgroup v2 id for '%s': %s", a->u.str,
		     errno == EOVERFLOW || !errno ? "it is no cgroup v2 directory"
						  : strerror(errno));
		CHINT(c,
		      "give a directory of the cgroup2 hierarchy, such as /sys/fs/cgroup/unified");
		return &ty_none;
	}
	uint64_t *id = arena_alloc(&c->p->arena, sizeof(*id));
	*id = h.id;
	e->info = id;
	return &ty_u64;
}

/* sarg0, sarg1, ...: the stack's words above the return address */
struct type *sema_check_sarg(struct check *c, struct expr *e)
{
	if (!(c->inst->prov->flags & PROV_F_REGS) || sys_arch_reg_offset("sp") < 0) {
		sema_check_not_here(c, e);
		CHINT(c, "sarg0, sarg1, ... are stack arguments in uprobe and kprobe probes");
		return &ty_none;
	}
	return &ty_u64;
}

/* username: the user's name, from the uid */
struct type *sema_check_username(struct check *c, struct expr *e)
{
	return &ty_username;
}

/*
 * debugf(fmt, ...): bpf_trace_printk, at most 3 integer or string
 * arguments; its text goes to the kernel's trace pipe.
 */
struct type *sema_check_debugf(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;

	if (a[0]->kind != EXPR_STR) {
		sema_check_expr(c, a[0]);
		CERR(c, a[0]->span, E_PRINTF_FORMAT, "debugf's format must be a string literal");
		return &ty_void;
	}
	a[0]->type = type_str(&c->p->arena, a[0]->u.len + 1);
	struct printf_fmt f = {0};
	struct printf_error err;
	bool ok = true;
	if (out_printf_parse(&f, a[0]->u.str, a[0]->u.len, &err) && f.nspecs != e->u.call.args.n - 1) {
		CERR(c, e->span, E_PRINTF_FORMAT, "debugf: %zu conversion%s for %u argument%s",
		     f.nspecs, f.nspecs == 1 ? "" : "s", e->u.call.args.n - 1,
		     e->u.call.args.n == 2 ? "" : "s");
		ok = false;
	}
	out_printf_fmt_free(&f);
	for (uint32_t i = 1; i < e->u.call.args.n; i++) {
		struct type *t = sema_check_expr(c, a[i]);
		if (t->kind != TY_NONE && t->kind != TY_STR && !is_addr(t))
			CERR(c, a[i]->span, E_ARG_TYPE,
			     "debugf() prints integers and strings, not %s", type_str_of(t));
	}
	c->p->uses_debugf = true;
	if (c->final && ok)
		diag_warn(&c->p->diag, e->span, E_UNSUPPORTED,
			  "The debugf() builtin is not recommended for production use. For more "
			  "information see bpf_trace_printk in bpf-helpers(7).");
	return &ty_void;
}

static const char *const signal_names[] = {
	"HUP",	"INT",	"QUIT", "ILL",	  "TRAP",   "ABRT",  "BUS",  "FPE",  "KILL", "USR1", "SEGV",
	"USR2", "PIPE", "ALRM", "TERM",	  "STKFLT", "CHLD",  "CONT", "STOP", "TSTP", "TTIN", "TTOU",
	"URG",	"XCPU", "XFSZ", "VTALRM", "PROF",   "WINCH", "IO",   "PWR",  "SYS",
};

/* A signal's number from "SIGUSR1" or "USR1"; 0 when there is none such. */
static int signal_number(const char *name)
{
	if (!strncmp(name, "SIG", 3))
		name += 3;
	for (size_t i = 0; i < ARRAY_SIZE(signal_names); i++)
		if (!strcmp(name, signal_names[i]))
			return (int)i + 1;
	return 0;
}

/* signal(SIG): send the current task a signal (--unsafe), by name or number */
/*
 * write_user(dst, src, len) (today's bpftrace, unsafe): len bytes of src,
 * a value in the program's memory (a string, buffer, array or record), to
 * the user address dst, by bpf_probe_write_user; true when written. The
 * length is a constant, at most src's size (the helper's verifier wants
 * it bounded).
 */
struct type *sema_check_write_user(struct check *c, struct expr *e)
{
	struct expr **a = e->u.call.args.v;
	struct type *dst, *src;
	int64_t n;

	if (!c->p->opts->unsafe) {
		CERR(c, e->span, E_UNSUPPORTED, "write_user() is unsafe. To use you need the --unsafe flag");
		CHINT(c, "it writes into the traced process's memory: run lantern with --unsafe to allow it");
		return &ty_none;
	}
	dst = sema_check_expr(c, a[0]);
	src = sema_check_expr(c, a[1]);
	if (dst->kind != TY_INT && dst->kind != TY_PTR && dst->kind != TY_NONE) {
		CERR(c, a[0]->span, E_ARG_TYPE, "write_user()'s destination is a user address, got %s",
		     type_str_of(dst));
		return &ty_none;
	}
	if (src->kind != TY_STR && src->kind != TY_BUF && src->kind != TY_ARRAY && src->kind != TY_RECORD) {
		if (src->kind != TY_NONE) {
			CERR(c, a[1]->span, E_ARG_TYPE, "write_user() writes a value of the program's memory "
				 "(a string, buffer, array or struct), got %s", type_str_of(src));
			CHINT(c, "put the bytes in a variable first: $v = \"text\"; write_user(dst, $v, 5)");
		}
		return &ty_none;
	}
	if (!sema_check_const_int(c, a[2], &n, "write_user()'s length"))
		return &ty_none;
	uint32_t size = src->kind == TY_STR ? src->strsize : src->size;
	if (n <= 0 || (uint64_t)n > size) {
		CERR(c, a[2]->span, E_ARG_TYPE, "write_user()'s length is %lld: it must be 1 to %u, the size of %s",
		     (long long)n, size, type_str_of(src));
		return &ty_none;
	}
	e->info = (void *)(uintptr_t)n;
	return &ty_bool;
}

struct type *sema_check_signal(struct check *c, struct expr *e)
{
	struct expr *a = e->u.call.args.v[0];
	int64_t n;

	if (!c->p->opts->unsafe) {
		CERR(c, e->span, E_UNSUPPORTED, "%s() sends signals: it needs --unsafe", e->u.call.name);
		CHINT(c, "run lantern with --unsafe to allow it");
		return &ty_void;
	}
	if (c->inst->prov->flags & PROV_F_USER) {
		CERR(c, e->span, E_BUILTIN_CONTEXT, "%s() is not available in %s probes",
		     e->u.call.name, c->inst->prov->name);
		CHINT(c, "it signals the task a kernel event interrupts: use it in tracepoint, "
			 "uprobe, kprobe, usdt or profile probes");
		return &ty_void;
	}
	if (a->kind == EXPR_STR) {
		n = signal_number(a->u.str);
		a->type = &ty_none;
		if (!n) {
			CERR(c, a->span, E_ARG_TYPE, "'%s' is not a signal lantern knows",
			     a->u.str);
			CHINT(c,
			      "write a name such as \"SIGUSR1\" or \"KILL\", or a number 1 to 64");
			return &ty_void;
		}
		e->info = (void *)(intptr_t)n;
		return &ty_void;
	}
	if (sema_check_const_int(c, a, &n, "signal()'s number")) {
		if (n < 1 || n > 64)
			CERR(c, a->span, E_ARG_TYPE, "signals are 1 to 64, not %lld", (long long)n);
		e->info = (void *)(intptr_t)n;
	}
	return &ty_void;
}

/* override(rc) (kprobes), path(p) (kfunc probes): refused where the probe cannot */
struct type *sema_check_kprobe_only(struct check *c, struct expr *e)
{
	bool ovr = e->id == FN_OVERRIDE;
	enum provider_id id = c->inst->prov->id;

	for (uint32_t i = 0; i < e->u.call.args.n; i++)
		sema_check_expr(c, e->u.call.args.v[i]);
	if (ovr && id != PROV_KPROBE) {
		CERR(c, e->span, E_BUILTIN_CONTEXT,
		     "override() works only in kprobe probes, not %s", c->inst->prov->name);
		CHINT(c, "it makes the probed kernel function return at once: attach a kprobe to "
			 "a function that allows error injection (this needs a kernel with "
			 "kprobes and CONFIG_BPF_KPROBE_OVERRIDE)");
		return &ty_void;
	}
	if (!ovr && id != PROV_KFUNC && id != PROV_KRETFUNC) {
		CERR(c, e->span, E_BUILTIN_CONTEXT,
		     "path() works only in kfunc and kretfunc probes, not %s", c->inst->prov->name);
		CHINT(c, "it calls bpf_d_path, which only fentry programs may (and only for some "
			 "kernel functions)");
		return &ty_none;
	}
	CERR(c, e->span, E_UNSUPPORTED, "%s() is not supported yet", e->u.call.name);
	CHINT(c, "%s",
	      ovr ? "the kernel this was written on has no kprobes to test it"
		  : "the kernel this was written on runs no fentry programs to test it");
	return ovr ? &ty_void : &ty_none;
}
