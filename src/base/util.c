// SPDX-License-Identifier: MIT
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static NORETURN void oom(void)
{
	fputs("lantern: out of memory\n", stderr);
	exit(2);
}

void *util_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *util_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *util_xcalloc_resident(size_t n, size_t size)
{
	volatile char *p = util_xcalloc(n, size);
	size_t bytes = (n ? n : 1) * (size ? size : 1);

	for (size_t i = 0; i < bytes; i += 4096)
		p[i] = 0; /* a write faults the page in; calloc's zero pages come only when written */
	return (void *)p;
}

void util_populate(const void *p, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1), hi = (uintptr_t)p + n;

	if (!n)
		return;
#ifdef MADV_POPULATE_READ
	if (madvise((void *)lo, hi - lo, MADV_POPULATE_READ) == 0)
		return;
#endif
	for (uintptr_t a = (uintptr_t)p; a < hi; a = (a & ~(uintptr_t)(page - 1)) + (uintptr_t)page)
		(void)*(const volatile char *)a; /* before Linux 5.14: a read faults the page in */
}

void *util_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *util_xstrdup(const char *s)
{
	return util_xstrndup(s, strlen(s));
}

char *util_xstrndup(const char *s, size_t n)
{
	char *p = util_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *util_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	return s;
}

char *util_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 4096, n = 0;
	char *buf;

	if (!f)
		return NULL;
	buf = util_xmalloc(cap);
	for (;;) {
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (n + 1 < cap)
			break;
		cap *= 2;
		buf = util_xrealloc(buf, cap);
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		if (f != stdin)
			fclose(f);
		errno = e;
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

bool util_wildcard_match(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (*p == '*') {
			star = p++;
			resume = s;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

bool util_has_wildcard(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

unsigned util_edit_distance(const char *a, const char *b, unsigned cap)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[256], i, j;

	if (lb >= ARRAY_SIZE(row))
		return cap;
	if (la > lb + cap || lb > la + cap)
		return cap;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned diag = row[0], best;
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned v = diag + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			if (up + 1 < v)
				v = up + 1;
			row[j] = v;
			diag = up;
			if (v < best)
				best = v;
		}
		if (best >= cap)
			return cap;
	}
	return row[lb] < cap ? row[lb] : cap;
}

uint64_t util_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

bool util_path_search(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");
	struct stat st;

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(out, n, "%.*s/%s", (int)len, len ? path : ".", name);
		if (access(out, X_OK) == 0 && stat(out, &st) == 0 && S_ISREG(st.st_mode))
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}
