/* SPDX-License-Identifier: MIT */
/*
 * tracefs: where it is, mounting it when it is not, and the questions
 * lantern asks of it about tracepoints.
 *
 *   sys_tracefs_path()             the root, e.g. "/sys/kernel/tracing"
 *   sys_tracefs_event_exists()     is events/CAT/EV there (cheap: one stat)
 *   sys_tracefs_event_id()         events/CAT/EV/id
 *   sys_tracefs_events_match()     every CAT:EV matching two glob patterns,
 *                              in `bpftrace -l` order
 *   sys_tracefs_events()           the parsed available_events, read once
 *
 * Start-up cost matters: a script naming one tracepoint touches only that
 * tracepoint's directory. available_events (one "cat:event" per line, about
 * 2300 lines) is read only when a category pattern has a wildcard or a
 * "did you mean" needs the full list, and then once per process.
 *
 * Errors are negative errno values; functions taking err/errlen also leave
 * a sentence there for the caller to print.
 */
#ifndef LANTERN_SYS_TRACEFS_H
#define LANTERN_SYS_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/tp_events.h"

/*
 * The tracefs root without a trailing slash: /sys/kernel/tracing when its
 * events/ directory is there; else tracefs is mounted there; else
 * /sys/kernel/debug/tracing (debugfs mounted at /sys/kernel/debug first if
 * needed). The answer is cached. NULL on failure, with the reason in err.
 */
const char *sys_tracefs_path(char *err, size_t errlen);

/*
 * Use this root instead of looking for one (tests point it at a fixture
 * tree). NULL forgets the override and the cached answer.
 */
void sys_tracefs_set_path(const char *path);
/*
 * Mount debugfs on /sys/kernel/debug unless it is there (best effort): the
 * kernel's trace buffer is then also /sys/kernel/debug/tracing/trace,
 * where bpftrace's documentation sends the readers of debugf()'s output.
 */
void sys_debugfs_mount(void);

/*
 * Category "ftrace" holds the tracer's own record types (function, print,
 * ...). They have format files but are not tracepoints: a BPF program cannot
 * attach to them, and available_events does not list them. Every function
 * here treats them as absent.
 */
bool sys_tracefs_category_exists(const char *cat);
bool sys_tracefs_event_exists(const char *cat, const char *ev);

/* The event's id (>= 0), or -ENOENT, -EACCES, ... */
int sys_tracefs_event_id(const char *cat, const char *ev);

/*
 * Read tracefs file REL (e.g. "events/sched/sched_switch/format").
 * Returns a malloc'd NUL-terminated buffer, or NULL with errno set.
 */
char *sys_tracefs_read(const char *rel, size_t *len);

/*
 * Call fn(cat, ev, arg) for every tracepoint whose category matches cat_pat
 * and whose event name matches ev_pat ('*' and '?' wildcards), sorted by
 * "cat:event" in byte order (the order of `bpftrace -l`). A nonzero return
 * from fn stops the walk and is returned. Otherwise returns the number of
 * matches (0 is not an error), or a negative errno with err filled.
 *
 * No wildcard: one stat. Wildcards in ev_pat only: one readdir of
 * events/CAT. Wildcards in cat_pat: available_events, read once.
 */
int sys_tracefs_events_match(const char *cat_pat, const char *ev_pat, tp_event_fn fn, void *arg,
			 char *err, size_t errlen);

/*
 * Every tracepoint, parsed from available_events on the first call and
 * kept until sys_tracefs_release(). NULL on failure, with err filled.
 */
const struct tp_events *sys_tracefs_events(char *err, size_t errlen);

/*
 * Near names for a tracepoint that does not exist (see tp_events_suggest).
 * Reads available_events. Returns 0 or a negative errno.
 */
int sys_tracefs_suggest(const char *cat, const char *ev, struct tp_suggestions *out, char *err,
		    size_t errlen);

/* Free the cached event list (the path stays cached). */
void sys_tracefs_release(void);

#endif
