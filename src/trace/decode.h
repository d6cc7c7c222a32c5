/* SPDX-License-Identifier: MIT */
/* Values as strace prints them (decode.c, decode_structs.c). */
#ifndef LANTERN_TRACE_DECODE_H
#define LANTERN_TRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "trace/sysdesc.h"

/* One argument, with what the programs read for it. */
struct targ_val {
	int64_t v;	     /* its value (the register) */
	const uint8_t *data; /* the bytes read, or NULL */
	uint32_t len;	     /* their number */
	bool unread;	     /* the memory could not be read */
	bool notread;	     /* not read: the call failed */
};

/* What decoding needs besides the value. */
struct tdecode {
	uint32_t strsize; /* -s */
	int hex;	  /* -x, -xx */
	int64_t ret;	  /* the call's result (at exit) */
	bool failed;	  /* the call failed */
	const int64_t *args; /* every argument's value (sizes, commands) */
	int pid;	  /* the task, for -y's /proc/PID/fd */
	int paths;	  /* -y 1, -yy 2 */
	const struct fdpaths *fds; /* -y: what the traced calls opened */
	int ret_fd;		   /* -y: the descriptor whose path a descriptor result shows (dup2), -1: itself */
};

/* Argument a (of kind k) into out. */
void trace_decode_arg(struct strbuf *out, enum targ k, const struct targ_val *a, const struct tdecode *d);
/* Calls whose argument list depends on the values (clone, futex): the whole list at entry. */
bool trace_decode_is_special(const struct sysdesc *sd);
/* false when sd is not one of them */
bool trace_decode_special(struct strbuf *out, const struct sysdesc *sd, const int64_t *a, const struct tdecode *d);
/* The result of a call, " = ..." included. */
void trace_decode_ret(struct strbuf *out, enum tret r, int64_t ret, const struct tdecode *d);

/* A quoted string as strace writes it: n bytes, cut after max (then "..."). */
void trace_put_quoted(struct strbuf *out, const uint8_t *p, size_t n, size_t max, bool more, int hex);
/* "ENOENT", "SIGCHLD": names; NULL when unknown */
const char *trace_errno_name(int e);
const char *trace_errno_text(int e); /* "No such file or directory" */
const char *trace_signal_name(int sig);
/* A signal set ("[CHLD]", "~[RTMIN RT_1]") of n bytes at p. */
void trace_put_sigset(struct strbuf *out, const uint8_t *p, size_t n);
/* "{si_signo=SIGCHLD, si_code=CLD_EXITED, ...}" from 48 bytes of siginfo */
void trace_put_siginfo(struct strbuf *out, const uint8_t *p, size_t n);

/* Flags: names joined by '|', what is left in hex. */
struct flag {
	uint64_t bit;
	const char *name;
};
void trace_put_flags(struct strbuf *out, uint64_t v, const struct flag *t, size_t n, const char *zero);
/* A constant's name, or the number (decimal; hex when hex). */
void trace_put_const(struct strbuf *out, int64_t v, const struct flag *t, size_t n, bool hex);

/* Structures (decode_structs.c) */
void trace_put_stat(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_statx(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_statx_mask(struct strbuf *out, uint64_t mask);
const char *trace_family_name(int family); /* "AF_INET"; NULL when unknown */
void trace_put_sockaddr(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_sigaction(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_utsname(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_rlimit(struct strbuf *out, const uint8_t *p, size_t n, int resource);
void trace_put_timespec(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_wait_status(struct strbuf *out, int status);
int trace_dirents_count(const uint8_t *p, size_t n);
/* struct pollfd[]: "[{fd=0, events=POLLIN}]", or the revents of those that have any */
void trace_put_pollfds(struct strbuf *out, const uint8_t *p, size_t n, bool revents);
/* struct epoll_event {events=EPOLLIN, data={u32=3, u64=3}}; an array of count of them */
void trace_put_epoll_event(struct strbuf *out, const uint8_t *p, size_t n);
void trace_put_epoll_events(struct strbuf *out, const uint8_t *p, size_t n, int64_t count);
/* -yy: a socket's endpoints by its inode (link: its /proc/PID/fd/N), strace's way (TCP:[a->b]) */
bool trace_put_socket_endpoints(struct strbuf *out, uint32_t ino, const char *link);
/* MSG_* flags */
void trace_put_msg_flags(struct strbuf *out, int64_t v);
/* iovecs and struct msghdr as TR_IOV_* and TR_MSG_* read them (sysdesc.h); total: the bytes moved */
void trace_put_iovecs(struct strbuf *out, const uint8_t *p, size_t n, int64_t count, int64_t total,
		const struct tdecode *d);
void trace_put_msghdr(struct strbuf *out, const uint8_t *p, size_t n, int64_t total, const struct tdecode *d);
void trace_put_sock_proto(struct strbuf *out, int64_t family, int64_t proto);

#endif
