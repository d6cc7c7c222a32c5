/* SPDX-License-Identifier: MIT */
/* -y: the paths of the descriptors traced processes opened, as of the calls printed (fdpaths.c). */
#ifndef LANTERN_TRACE_FDPATHS_H
#define LANTERN_TRACE_FDPATHS_H

#include <stdbool.h>
#include <stdint.h>

struct fdpaths;

/* The working directory's entry: AT_FDCWD */
#define FDPATH_CWD (-100)

struct fdpaths *trace_fdpaths_new(void);
void trace_fdpaths_free(struct fdpaths *fp);
/* What descriptor fd of process pid names, or NULL when no traced call made it. */
const char *trace_fdpaths_get(const struct fdpaths *fp, int pid, int fd);
/* The same; *closed: a traced close() closed it (and nothing reopened it since). */
const char *trace_fdpaths_lookup(const struct fdpaths *fp, int pid, int fd, bool *closed);
/* What a call does to the table (its printer's, decode_calls.c) */
enum fd_action {
	FA_NONE,
	FA_OPEN,   /* the result names the path, from the working directory */
	FA_OPENAT, /* ... from argument 0's directory */
	FA_CLOSE,  /* argument 0 goes */
	FA_DUP,	   /* the result is a copy of argument 0 */
	FA_DUP2,   /* argument 1 is a copy of argument 0 */
	FA_FCNTL,  /* F_DUPFD*: the result is a copy */
	FA_CHDIR,  /* the working directory is the path */
	FA_FCHDIR, /* ... argument 0's */
};
/*
 * A call of process pid returned ret, with arguments a and, for the calls
 * that open, the path it was given: what it did (action) to the table.
 */
void trace_fdpaths_after_call(struct fdpaths *fp, int pid, enum fd_action action, const int64_t *a, int64_t ret,
			      const char *path);
/* What process pid has now: its working directory and descriptors (but O_CLOEXEC ones). */
void trace_fdpaths_snapshot(struct fdpaths *fp, int pid);
/* A new process child, forked by process parent, has its descriptors. */
void trace_fdpaths_fork(struct fdpaths *fp, int parent, int child);
/* Process pid is gone. */
void trace_fdpaths_drop(struct fdpaths *fp, int pid);

#endif
