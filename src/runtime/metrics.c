// SPDX-License-Identifier: MIT
/*
 * --metrics ADDR:PORT: http://ADDR:PORT/metrics serves the maps in
 * Prometheus's text format (output/prometheus.h) while the script runs,
 * read from the kernel at each scrape.
 *
 * The HTTP server is libmicrohttpd's, in its own thread (epoll), so a
 * scrape never holds up the event loop. What a scrape reads is read-only
 * while the session runs (the plan, the map fds); the symbol tables that
 * stack labels need take their own lock (sym/symbols.c).
 *
 * libmicrohttpd is opened with dlopen() when --metrics is given, not linked:
 * it brings GnuTLS and eight more libraries, whose loading would more than
 * double lantern's start-up for every run that serves no metrics, and
 * Debian ships no static GnuTLS to link in.
 */
#include "runtime/metrics.h"
#include "maps/mapread.h"
#include "output/prometheus.h"

#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define MHD_LIBRARY "libmicrohttpd.so.12"

/* The functions of libmicrohttpd lantern calls. */
struct mhd_api {
	void *lib;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *create_response;
	__typeof__(MHD_add_response_header) *add_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
};

struct metrics_server {
	struct mhd_api api;
	struct MHD_Daemon *daemon;
	const struct out_ctx *oc;
	int lost_map;
};

static int mhd_open(struct mhd_api *a)
{
	a->lib = dlopen(MHD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!a->lib) {
		fprintf(stderr,
			"lantern: --metrics needs libmicrohttpd: %s\n"
			"HINT: apt-get install libmicrohttpd12\n",
			dlerror());
		return -1;
	}
#define SYM(field, name)                                                               \
	if (!(*(void **)&a->field = dlsym(a->lib, name))) {                            \
		fprintf(stderr, "lantern: %s has no %s\n", MHD_LIBRARY, name);         \
		dlclose(a->lib);                                                       \
		return -1;                                                             \
	}
	SYM(start_daemon, "MHD_start_daemon")
	SYM(stop_daemon, "MHD_stop_daemon")
	SYM(create_response, "MHD_create_response_from_buffer")
	SYM(add_header, "MHD_add_response_header")
	SYM(queue_response, "MHD_queue_response")
	SYM(destroy_response, "MHD_destroy_response")
#undef SYM
	return 0;
}

static enum MHD_Result reply(struct metrics_server *ms, struct MHD_Connection *conn,
			     unsigned status, const char *type, char *body, size_t len)
{
	struct MHD_Response *r = ms->api.create_response(len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result rc;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	ms->api.add_header(r, "Content-Type", type);
	rc = ms->api.queue_response(conn, status, r);
	ms->api.destroy_response(r);
	return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct metrics_server *ms = cls;
	struct strbuf sb = { 0 };

	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		sb_puts(&sb, "only GET\n");
		return reply(ms, conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", sb.s, sb.len);
	}
	if (!strcmp(url, "/metrics")) {
		out_prometheus_page(ms->oc, maps_percpu_sum(ms->oc->maps, ms->lost_map), &sb);
		return reply(ms, conn, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
			     sb.s ? sb.s : strdup(""), sb.len);
	}
	if (!strcmp(url, "/")) {
		sb_puts(&sb, "<html><head><title>lantern</title></head><body>"
			     "<h1>lantern</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n");
		return reply(ms, conn, MHD_HTTP_OK, "text/html", sb.s, sb.len);
	}
	sb_puts(&sb, "not found: the metrics are at /metrics\n");
	return reply(ms, conn, MHD_HTTP_NOT_FOUND, "text/plain", sb.s, sb.len);
}

/*
 * ADDR:PORT, [V6ADDR]:PORT or :PORT (every address) into a socket
 * address: 0, -1 when spec is not of that form, -2 when ADDR does not resolve.
 */
static int parse_addr(const char *spec, struct sockaddr_storage *ss, socklen_t *len)
{
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char host[256];
	char *end;

	if (!colon || !colon[1])
		return -1;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port < 1 || port > 65535)
		return -1;
	size_t hl = colon - spec;
	if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		return -1;
	memcpy(host, spec, hl);
	host[hl] = 0;
	if (getaddrinfo(hl ? host : NULL, colon + 1, &hints, &res) != 0 || !res)
		return -2;
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

struct metrics_server *rt_metrics_start(const char *spec, const struct out_ctx *oc, int lost_map)
{
	struct sockaddr_storage ss;
	socklen_t len;

	int rc = parse_addr(spec, &ss, &len);
	if (rc == -2) {
		fprintf(stderr, "lantern: --metrics '%s': no such address\n", spec);
		return NULL;
	}
	if (rc < 0) {
		fprintf(stderr,
			"lantern: --metrics '%s': expected ADDR:PORT\n"
			"HINT: --metrics 127.0.0.1:9435, --metrics :9435 (every address), "
			"--metrics [::1]:9435\n",
			spec);
		return NULL;
	}
	struct metrics_server *ms = util_xcalloc(1, sizeof(*ms));
	ms->oc = oc;
	ms->lost_map = lost_map;
	if (mhd_open(&ms->api) < 0) {
		free(ms);
		return NULL;
	}
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	uint16_t port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
						 : ntohs(((struct sockaddr_in *)&ss)->sin_port);
	errno = 0;
	ms->daemon = ms->api.start_daemon(flags, port, NULL, NULL, on_request, ms,
					  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
					  MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	if (!ms->daemon) {
		fprintf(stderr, "lantern: cannot serve metrics on %s: %s\n", spec,
			errno ? strerror(errno) : "the HTTP server did not start");
		dlclose(ms->api.lib);
		free(ms);
		return NULL;
	}
	return ms;
}

void rt_metrics_stop(struct metrics_server *ms)
{
	if (!ms)
		return;
	ms->api.stop_daemon(ms->daemon);
	dlclose(ms->api.lib);
	free(ms);
}
