// SPDX-License-Identifier: MIT
/*
 * -y: what each traced process's descriptors name, kept from the calls
 * that made them (open, openat, creat, dup*, fcntl F_DUPFD; a fork copies
 * them; chdir and fchdir move the working directory) and forgotten at
 * close, in the order the calls happened. A line prints after
 * its call (a process may be gone by then, or have reused the number), so
 * this table, not /proc/PID/fd, says what descriptor 3 was when close(3)
 * ran; /proc/PID/fd serves the descriptors made otherwise (inherited ones,
 * pipes, sockets).
 */
#include "trace/fdpaths.h"
#include "base/util.h"
#include "sys/syscalls.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NBUCKETS 1024

struct fdpath {
	struct fdpath *next;
	int pid, fd;
	char *path;
};

struct fdpaths {
	struct fdpath *b[NBUCKETS];
};

struct fdpaths *trace_fdpaths_new(void)
{
	return util_xcalloc(1, sizeof(struct fdpaths));
}

static struct fdpath **slot_of(struct fdpaths *fp, int pid, int fd)
{
	struct fdpath **p = &fp->b[((unsigned)pid * 31u + (unsigned)fd) % NBUCKETS];

	while (*p && ((*p)->pid != pid || (*p)->fd != fd))
		p = &(*p)->next;
	return p;
}

const char *trace_fdpaths_get(const struct fdpaths *fp, int pid, int fd)
{
	bool closed;

	return trace_fdpaths_lookup(fp, pid, fd, &closed);
}

const char *trace_fdpaths_lookup(const struct fdpaths *fp, int pid, int fd, bool *closed)
{
	*closed = false;
	if (!fp)
		return NULL;
	struct fdpath *const *p = slot_of((struct fdpaths *)fp, pid, fd);
	*closed = *p && !(*p)->path;
	return *p ? (*p)->path : NULL;
}

/* path NULL: the descriptor was closed (kept so: /proc may show a newer one) */
static void set(struct fdpaths *fp, int pid, int fd, const char *path)
{
	struct fdpath **p = slot_of(fp, pid, fd);

	if (!*p) {
		*p = util_xcalloc(1, sizeof(**p));
		(*p)->pid = pid;
		(*p)->fd = fd;
	}
	free((*p)->path);
	(*p)->path = path ? util_xstrdup(path) : NULL;
}

/* Nothing known of the descriptor: /proc says */
static void forget(struct fdpaths *fp, int pid, int fd)
{
	struct fdpath **p = slot_of(fp, pid, fd);
	struct fdpath *gone = *p;

	if (!gone)
		return;
	*p = gone->next;
	free(gone->path);
	free(gone);
}

static void copy(struct fdpaths *fp, int pid, int from, int to)
{
	const char *path = trace_fdpaths_get(fp, pid, from);
	char *keep = path ? util_xstrdup(path) : NULL;

	if (keep)
		set(fp, pid, to, keep);
	else
		forget(fp, pid, to); /* a copy of what the table does not know */
	free(keep);
}

void trace_fdpaths_drop(struct fdpaths *fp, int pid)
{
	for (size_t i = 0; fp && i < NBUCKETS; i++)
		for (struct fdpath **p = &fp->b[i]; *p;) {
			if ((*p)->pid != pid) {
				p = &(*p)->next;
				continue;
			}
			struct fdpath *gone = *p;
			*p = gone->next;
			free(gone->path);
			free(gone);
		}
}

void trace_fdpaths_fork(struct fdpaths *fp, int parent, int child)
{
	trace_fdpaths_drop(fp, child);
	for (size_t i = 0; i < NBUCKETS; i++)
		for (struct fdpath *e = fp->b[i]; e; e = e->next)
			if (e->pid == parent)
				set(fp, child, e->fd, e->path); /* appended: met later, not the parent's */
}

/* The absolute, canonical path of what openat(dirfd, path) opened; NULL if unknown. */
static char *opened(struct fdpaths *fp, int pid, int64_t dirfd, const char *path)
{
	char base[PATH_MAX], link[64], full[2 * PATH_MAX + 2];
	const char *dir = NULL;

	if (path[0] != '/') {
		/* the directory: the table's (the working directory is FDPATH_CWD), else /proc's */
		if (!(dir = trace_fdpaths_get(fp, pid, (int)dirfd))) {
			ssize_t n;
			if (dirfd == FDPATH_CWD)
				snprintf(link, sizeof(link), "/proc/%d/cwd", pid);
			else
				snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, (int)dirfd);
			if ((n = readlink(link, base, sizeof(base) - 1)) <= 0)
				return NULL;
			base[n] = 0;
			dir = base;
		}
		snprintf(full, sizeof(full), "%s/%s", dir, path);
		path = full;
	}
	/* the kernel's name for it: symbolic links and .. resolved, as -y shows it */
	char *real = realpath(path, NULL);
	return real ? real : util_xstrdup(path);
}

void trace_fdpaths_after_call(struct fdpaths *fp, int pid, enum fd_action action, const int64_t *a, int64_t ret,
			      const char *path)
{
	if (ret < 0)
		return;
	switch (action) {
	case FA_OPEN:
	case FA_OPENAT:
		if (path) {
			char *p = opened(fp, pid, action == FA_OPENAT ? a[0] : FDPATH_CWD, path);
			if (p)
				set(fp, pid, (int)ret, p);
			else
				forget(fp, pid, (int)ret);
			free(p);
		}
		break;
	case FA_CLOSE:
		set(fp, pid, (int)a[0], NULL);
		break;
	case FA_DUP:
		copy(fp, pid, (int)a[0], (int)ret);
		break;
	case FA_DUP2:
		copy(fp, pid, (int)a[0], (int)a[1]);
		break;
	case FA_FCNTL:
		if (a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC)
			copy(fp, pid, (int)a[0], (int)ret);
		break;
	case FA_CHDIR:
		if (path) {
			char *p = opened(fp, pid, FDPATH_CWD, path);
			if (p)
				set(fp, pid, FDPATH_CWD, p);
			else
				forget(fp, pid, FDPATH_CWD);
			free(p);
		}
		break;
	case FA_FCHDIR:
		copy(fp, pid, (int)a[0], FDPATH_CWD);
		break;
	case FA_NONE:
		break;
	}
}

void trace_fdpaths_snapshot(struct fdpaths *fp, int pid)
{
	char dir[64], link[96], path[PATH_MAX], info[256];
	struct dirent *de;
	ssize_t n;
	DIR *d;

	snprintf(link, sizeof(link), "/proc/%d/cwd", pid);
	if ((n = readlink(link, path, sizeof(path) - 1)) > 0) {
		path[n] = 0;
		set(fp, pid, FDPATH_CWD, path);
	}
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	if (!(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		int fd = atoi(de->d_name);
		unsigned long long flags = 0;
		/* an exec closes the O_CLOEXEC ones (the -c command has not run yet) */
		snprintf(link, sizeof(link), "/proc/%d/fdinfo/%d", pid, fd);
		FILE *f = fopen(link, "re");
		while (f && fgets(info, sizeof(info), f))
			if (sscanf(info, "flags: %llo", &flags) == 1)
				break;
		if (f)
			fclose(f);
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
		if (!(flags & 02000000) && (n = readlink(link, path, sizeof(path) - 1)) > 0) {
			path[n] = 0;
			set(fp, pid, fd, path);
		}
	}
	closedir(d);
}

void trace_fdpaths_free(struct fdpaths *fp)
{
	for (size_t i = 0; fp && i < NBUCKETS; i++)
		while (fp->b[i]) {
			struct fdpath *gone = fp->b[i];
			fp->b[i] = gone->next;
			free(gone->path);
			free(gone);
		}
	free(fp);
}
