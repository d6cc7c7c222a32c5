// SPDX-License-Identifier: MIT
/*
 * -yy: the endpoints of a socket, by its inode, as strace prints them:
 *
 *   TCP:[127.0.0.1:41701]                   bound or listening
 *   TCP:[127.0.0.1:33316->127.0.0.1:41701]  connected
 *   UDP:[0.0.0.0:55419]   TCPv6:[[::1]:44950->[::1]:43839]
 *   UNIX-STREAM:[547088->547089]  UNIX-STREAM:[547090,"/run/x.sock"]
 *   NETLINK:[ROUTE:29800]
 *
 * The kernel's sock_diag netlink interface answers: a dump of each family
 * and protocol, searched for the inode (the socket is looked up when its
 * line is printed, so a socket closed by then is not found). A socket the
 * tables do not hold (UDP before it is bound) shows its protocol's name
 * and inode, UDP:[625841], as strace shows it.
 */
#include "trace/decode.h"

#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/xattr.h>
#include <unistd.h>

typedef bool (*diag_fn)(const struct nlmsghdr *h, uint32_t ino, const void *arg, struct strbuf *out);

/* Send req (len bytes) on a sock_diag socket; fn(message) until one says found. */
static bool diag_query(const void *req, size_t len, uint32_t ino, diag_fn fn, const void *arg,
		       struct strbuf *out)
{
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	long buf[8192 / sizeof(long)];
	bool found = false, done = false;

	if (fd < 0)
		return false;
	if (sendto(fd, req, len, 0, (struct sockaddr *)&nl, sizeof(nl)) < 0) {
		close(fd);
		return false;
	}
	while (!found && !done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = true;
				break;
			}
			if (fn(h, ino, arg, out)) {
				found = true;
				break;
			}
		}
	}
	close(fd);
	return found;
}

static void put_inet(struct strbuf *out, int family, const uint32_t *addr, uint16_t port)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(family, addr, a, sizeof(a));
	sb_printf(out, family == AF_INET6 ? "[%s]:%u" : "%s:%u", a, ntohs(port));
}

static bool inet_match(const struct nlmsghdr *h, uint32_t ino, const void *arg, struct strbuf *out)
{
	const struct inet_diag_msg *m = NLMSG_DATA(h);
	const char *name = arg;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->idiag_inode != ino)
		return false;
	sb_printf(out, "%s%s:[", name, m->idiag_family == AF_INET6 ? "v6" : "");
	put_inet(out, m->idiag_family, m->id.idiag_src, m->id.idiag_sport);
	if (m->id.idiag_dport) {
		sb_puts(out, "->");
		put_inet(out, m->idiag_family, m->id.idiag_dst, m->id.idiag_dport);
	}
	sb_putc(out, ']');
	return true;
}

static bool inet_lookup(uint32_t ino, struct strbuf *out)
{
	static const struct {
		int family, proto;
		const char *name;
	} kinds[] = {
		{ AF_INET, IPPROTO_TCP, "TCP" },  { AF_INET6, IPPROTO_TCP, "TCP" },
		{ AF_INET, IPPROTO_UDP, "UDP" },  { AF_INET6, IPPROTO_UDP, "UDP" },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct {
			struct nlmsghdr nlh;
			struct inet_diag_req_v2 r;
		} req = {
			.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
				 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
			.r = { .sdiag_family = (uint8_t)kinds[i].family,
			       .sdiag_protocol = (uint8_t)kinds[i].proto, .idiag_states = ~0u },
		};
		if (diag_query(&req, sizeof(req), ino, inet_match, kinds[i].name, out))
			return true;
	}
	return false;
}

static bool unix_match(const struct nlmsghdr *h, uint32_t ino, const void *arg, struct strbuf *out)
{
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	const struct rtattr *a;
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));
	uint32_t peer = 0;
	const char *path = NULL;
	size_t plen = 0;

	if (len < 0 || m->udiag_ino != ino)
		return false;
	for (a = (const struct rtattr *)(m + 1); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(a) >= 4)
			memcpy(&peer, RTA_DATA(a), 4);
		else if (a->rta_type == UNIX_DIAG_NAME) {
			path = RTA_DATA(a);
			plen = RTA_PAYLOAD(a);
		}
	}
	sb_printf(out, "UNIX-%s:[%u",
		  m->udiag_type == SOCK_DGRAM	   ? "DGRAM"
		  : m->udiag_type == SOCK_SEQPACKET ? "SEQPACKET"
						    : "STREAM",
		  ino);
	if (peer)
		sb_printf(out, "->%u", peer);
	if (path && plen) {
		sb_puts(out, ",\"");
		if (path[0] == 0) { /* abstract: strace writes @name */
			sb_putc(out, '@');
			path++;
			plen--;
		}
		sb_putn(out, path, strnlen(path, plen));
		sb_putc(out, '"');
	}
	sb_putc(out, ']');
	return true;
}

static bool unix_lookup(uint32_t ino, struct strbuf *out)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u,
		       .udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER },
	};

	return diag_query(&req, sizeof(req), ino, unix_match, NULL, out);
}

static bool netlink_match(const struct nlmsghdr *h, uint32_t ino, const void *arg, struct strbuf *out)
{
	static const char *const protos[] = {
		[NETLINK_ROUTE] = "ROUTE",	       [NETLINK_SOCK_DIAG] = "SOCK_DIAG",
		[NETLINK_NFLOG] = "NFLOG",	       [NETLINK_XFRM] = "XFRM",
		[NETLINK_SELINUX] = "SELINUX",	       [NETLINK_AUDIT] = "AUDIT",
		[NETLINK_NETFILTER] = "NETFILTER",     [NETLINK_KOBJECT_UEVENT] = "KOBJECT_UEVENT",
		[NETLINK_GENERIC] = "GENERIC",	       [NETLINK_CRYPTO] = "CRYPTO",
	};
	const struct netlink_diag_msg *m = NLMSG_DATA(h);

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->ndiag_ino != ino)
		return false;
	if (m->ndiag_protocol < sizeof(protos) / sizeof(protos[0]) && protos[m->ndiag_protocol])
		sb_printf(out, "NETLINK:[%s:%u]", protos[m->ndiag_protocol], m->ndiag_portid);
	else
		sb_printf(out, "NETLINK:[%u:%u]", m->ndiag_protocol, m->ndiag_portid);
	return true;
}

static bool netlink_lookup(uint32_t ino, struct strbuf *out)
{
	struct {
		struct nlmsghdr nlh;
		struct netlink_diag_req r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_NETLINK, .sdiag_protocol = NDIAG_PROTO_ALL },
	};

	return diag_query(&req, sizeof(req), ino, netlink_match, NULL, out);
}

bool trace_put_socket_endpoints(struct strbuf *out, uint32_t ino, const char *link)
{
	char proto[32];
	ssize_t n;

	if (inet_lookup(ino, out) || unix_lookup(ino, out) || netlink_lookup(ino, out))
		return true;
	/* not in the tables (an unbound socket): its protocol's name, as strace */
	n = getxattr(link, "system.sockprotoname", proto, sizeof(proto) - 1);
	if (n <= 0)
		return false;
	proto[n] = 0;
	sb_printf(out, "%s:[%u]", proto, ino);
	return true;
}
