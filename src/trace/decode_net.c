// SPDX-License-Identifier: MIT
/*
 * Sockets as strace prints them: families, types and protocols, socket
 * addresses, socket options, message flags, iovecs and struct msghdr.
 */
#include "trace/decode.h"
#include "base/util.h"
#include "trace/xlat_lists.h"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

const char *trace_family_name(int f)
{
	return trace_xlat_name(&trace_xlat_families, f);
}

void trace_k_sock_family(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_families, false);
}

/* SOCK_STREAM|SOCK_CLOEXEC: the type, then its flags */
void trace_k_sock_type(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	const int mask = 0xf; /* SOCK_TYPE_MASK: the kernel's (include/linux/net.h) */
	const char *t = trace_xlat_name(&trace_xlat_sock_types, a->v & mask);

	trace_tw_fset_begin(w);
	if (t)
		trace_tw_fset_name(w, t);
	else
		trace_tw_fset_bits(w, (uint64_t)a->v & mask, &(struct xlat){ NULL, 0 });
	trace_tw_fset_bits(w, (uint64_t)a->v & ~(uint64_t)mask, &trace_xlat_sock_flags);
	trace_tw_fset_end(w, NULL);
}

/* accept4's: SOCK_CLOEXEC|SOCK_NONBLOCK */
void trace_k_sock_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_sock_flags, "0");
}

/* after the family: IPPROTO_TCP, NETLINK_ROUTE */
void trace_k_sock_proto(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	int64_t family = d->args ? d->args[0] : AF_UNSPEC;

	if (family == AF_INET || family == AF_INET6)
		trace_tw_const(w, a->v, &trace_xlat_inet_protos, false);
	else if (family == AF_NETLINK)
		trace_tw_const(w, a->v, &trace_xlat_netlink_protos, false);
	else
		trace_tw_int(w, (int)a->v);
}

static void put_sockaddr(struct tw *w, const uint8_t *p, size_t n)
{
	struct sockaddr_storage ss;
	char addr[INET6_ADDRSTRLEN];

	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, p, MIN(n, sizeof(ss)));
	trace_tw_open(w, '{');
	trace_tw_field(w, "sa_family");
	trace_tw_const(w, ss.ss_family, &trace_xlat_families, false);
	switch (ss.ss_family) {
	case AF_UNIX: { /* sun_path: abstract ones start with a NUL, shown as @ */
		const struct sockaddr_un *un = (const struct sockaddr_un *)&ss;
		size_t len = n > offsetof(struct sockaddr_un, sun_path) ? n - offsetof(struct sockaddr_un, sun_path) : 0;
		len = MIN(len, sizeof(un->sun_path));
		if (!len)
			break;
		trace_tw_field(w, "sun_path");
		if (un->sun_path[0] == 0 && w->json) {
			char at[sizeof(un->sun_path) + 1];
			at[0] = '@';
			memcpy(at + 1, un->sun_path + 1, len - 1);
			trace_tw_quoted(w, (const uint8_t *)at, len, SIZE_MAX, false, 0);
		} else if (un->sun_path[0] == 0) {
			trace_tw_note(w, "@");
			trace_tw_quoted(w, (const uint8_t *)un->sun_path + 1, len - 1, SIZE_MAX, false, 0);
		} else {
			trace_tw_quoted(w, (const uint8_t *)un->sun_path, strnlen(un->sun_path, len), SIZE_MAX, false, 0);
		}
		break;
	}
	case AF_INET: {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;
		if (n < sizeof(*in))
			break;
		inet_ntop(AF_INET, &in->sin_addr, addr, sizeof(addr));
		trace_tw_field(w, "sin_port");
		trace_tw_text(w, "htons(%u)", ntohs(in->sin_port));
		trace_tw_json(w, "%u", ntohs(in->sin_port));
		trace_tw_field(w, "sin_addr");
		trace_tw_text(w, "inet_addr(\"%s\")", addr);
		trace_tw_json(w, "\"%s\"", addr);
		break;
	}
	case AF_INET6: {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;
		if (n < sizeof(*in6))
			break;
		inet_ntop(AF_INET6, &in6->sin6_addr, addr, sizeof(addr));
		trace_tw_field(w, "sin6_port");
		trace_tw_text(w, "htons(%u)", ntohs(in6->sin6_port));
		trace_tw_json(w, "%u", ntohs(in6->sin6_port));
		trace_tw_field(w, "sin6_flowinfo");
		trace_tw_text(w, "htonl(%u)", ntohl(in6->sin6_flowinfo));
		trace_tw_json(w, "%u", ntohl(in6->sin6_flowinfo));
		if (w->json) {
			trace_tw_field(w, "sin6_addr");
			trace_tw_json(w, "\"%s\"", addr);
		} else {
			trace_tw_text(w, "inet_pton(AF_INET6, \"%s\", &sin6_addr)", addr);
		}
		trace_tw_field(w, "sin6_scope_id");
		trace_tw_uint(w, in6->sin6_scope_id);
		break;
	}
	case AF_NETLINK: {
		const struct sockaddr_nl *nl = (const struct sockaddr_nl *)&ss;
		if (n < sizeof(*nl))
			break;
		trace_tw_field(w, "nl_pid");
		trace_tw_uint(w, nl->nl_pid);
		trace_tw_field(w, "nl_groups");
		trace_tw_text(w, "%08x", nl->nl_groups);
		trace_tw_json(w, "%u", nl->nl_groups);
		break;
	}
	default:
		if (n > offsetof(struct sockaddr, sa_data)) {
			trace_tw_field(w, "sa_data");
			trace_tw_quoted(w, p + offsetof(struct sockaddr, sa_data), n - offsetof(struct sockaddr, sa_data),
					SIZE_MAX, false, 0);
		}
		break;
	}
	trace_tw_close(w, '}', false);
}

void trace_k_sockaddr(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	if (a->v && a->data && !a->unread && a->len >= sizeof(sa_family_t))
		put_sockaddr(w, a->data, a->len);
	else
		trace_tw_ptr(w, (uint64_t)a->v);
}

/* socklen_t *: [16] */
void trace_k_socklen(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	socklen_t n;

	if (!a->v || !a->data || a->unread || a->len < sizeof(n)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&n, a->data, sizeof(n));
	trace_tw_open(w, '[');
	trace_tw_uint(w, n);
	trace_tw_close(w, ']', false);
}

void trace_k_sockopt_level(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_const(w, a->v, &trace_xlat_sockopt_levels, false);
}

/* The option's name, among the level's */
void trace_k_sockopt_name(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	const struct xlat *x = NULL;

	switch (d->args ? d->args[1] : -1) {
	case SOL_SOCKET:
		x = &trace_xlat_so_options;
		break;
	case SOL_IP:
		x = &trace_xlat_ip_options;
		break;
	case SOL_IPV6:
		x = &trace_xlat_ipv6_options;
		break;
	case SOL_TCP:
		x = &trace_xlat_tcp_options;
		break;
	}
	if (x)
		trace_tw_const(w, a->v, x, false);
	else
		trace_tw_int(w, (int)a->v);
}

/* An option's value of len bytes: [1] for an int, else its bytes */
static void put_sockopt(struct tw *w, const struct targ_val *a, const struct tdecode *d, int64_t len)
{
	int v;

	if (!a->v || !a->data || a->unread || len < 0) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	if (len == sizeof(int) && a->len >= sizeof(int)) {
		memcpy(&v, a->data, sizeof(v));
		trace_tw_open(w, '[');
		trace_tw_int(w, v);
		trace_tw_close(w, ']', false);
		return;
	}
	trace_tw_quoted(w, a->data, MIN((size_t)len, a->len), d->strsize, (size_t)len > d->strsize, d->hex);
}

/* setsockopt's value: optlen is the next argument */
void trace_k_sockopt_in(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_sockopt(w, a, d, d->args && d->at + 1 < TRACE_NARGS ? d->args[d->at + 1] : -1);
}

/* getsockopt's: the length the call wrote in the next argument (socklen_t *) */
void trace_k_sockopt_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	const struct targ_val *lv = d->vals && d->at + 1 < TRACE_NARGS ? &d->vals[d->at + 1] : NULL;
	socklen_t len;

	if (!lv || !lv->data || lv->unread || lv->len < sizeof(len)) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	memcpy(&len, lv->data, sizeof(len));
	put_sockopt(w, a, d, len);
}

void trace_k_msg_flags(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	trace_tw_flags(w, (uint64_t)a->v, &trace_xlat_msg_flags, "0");
}

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

/*
 * The iovecs read (TR_IOV_*'s layout, sysdesc.h): [{iov_base="...",
 * iov_len=N}, ...], each showing what the call moved (total bytes in all,
 * in order; -1: each one's length), at most -s bytes of it.
 */
static void put_iovecs(struct tw *w, const uint8_t *p, size_t n, int64_t count, int64_t total,
		       const struct tdecode *d)
{
	/* counts as the programs write them, at most: a record's numbers are not trusted */
	uint32_t k = MIN(u32_at(p, n, 0), IOV_SHOWN), slot = MIN(u32_at(p, n, 4), IOV_SLOT_MAX);
	uint64_t left = total < 0 ? UINT64_MAX : (uint64_t)total;

	trace_tw_open(w, '[');
	for (uint32_t i = 0; i < k; i++) {
		size_t at = 8 + (size_t)i * (2 * sizeof(uint64_t) + slot);
		uint64_t base = u64_at(p, n, at), len = u64_at(p, n, at + 8);
		uint64_t moved = MIN(len, left);
		left -= moved;
		trace_tw_open(w, '{');
		trace_tw_field(w, "iov_base");
		if (at + 16 + MIN(moved, slot) > n)
			trace_tw_ptr(w, base);
		else
			trace_tw_quoted(w, p + at + 16, MIN(moved, slot), d->strsize, moved > d->strsize, d->hex);
		trace_tw_field(w, "iov_len");
		trace_tw_uint(w, len);
		trace_tw_close(w, '}', false);
	}
	trace_tw_close(w, ']', count > (int64_t)k);
}

static void put_iovec(struct tw *w, const struct targ_val *a, const struct tdecode *d, int64_t total)
{
	if (!a->v || !a->data || a->unread) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	put_iovecs(w, a->data, a->len, d->args && d->at + 1 < TRACE_NARGS ? d->args[d->at + 1] : 0, total, d);
}

void trace_k_iovec_in(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_iovec(w, a, d, -1);
}

/* readv: what the call moved, in order */
void trace_k_iovec_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_iovec(w, a, d, d->ret);
}

/* struct msghdr (TR_MSG_*'s layout): its members as strace names them, the iovecs decoded */
static void put_msghdr(struct tw *w, const struct targ_val *a, const struct tdecode *d, int64_t total)
{
	struct msghdr m;
	const uint8_t *p = a->data;
	size_t n = a->len;

	if (!a->v || !a->data || a->unread) {
		trace_tw_ptr(w, (uint64_t)a->v);
		return;
	}
	if (n < MSGHDR_SIZE + 8) {
		trace_tw_open(w, '{');
		trace_tw_close(w, '}', true);
		return;
	}
	memcpy(&m, p, sizeof(m));
	trace_tw_open(w, '{');
	trace_tw_field(w, "msg_name");
	trace_tw_ptr(w, (uint64_t)(uintptr_t)m.msg_name);
	trace_tw_field(w, "msg_namelen");
	trace_tw_int(w, (int)m.msg_namelen);
	trace_tw_field(w, "msg_iov");
	put_iovecs(w, p + MSGHDR_SIZE, n - MSGHDR_SIZE, (int64_t)m.msg_iovlen, total, d);
	trace_tw_field(w, "msg_iovlen");
	trace_tw_uint(w, m.msg_iovlen);
	if (m.msg_controllen) {
		trace_tw_field(w, "msg_control");
		trace_tw_ptr(w, (uint64_t)(uintptr_t)m.msg_control);
	}
	trace_tw_field(w, "msg_controllen");
	trace_tw_uint(w, m.msg_controllen);
	trace_tw_field(w, "msg_flags");
	trace_tw_flags(w, (uint32_t)m.msg_flags, &trace_xlat_msg_flags, "0");
	trace_tw_close(w, '}', false);
}

void trace_k_msghdr_in(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_msghdr(w, a, d, -1);
}

void trace_k_msghdr_out(struct tw *w, const struct targ_val *a, const struct tdecode *d)
{
	put_msghdr(w, a, d, d->ret);
}
