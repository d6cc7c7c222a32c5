/* SPDX-License-Identifier: MIT */
/*
 * A list of tracepoint names ("cat:event"), as tracefs's available_events
 * gives them, sorted the way `bpftrace -l` prints them: byte order of the
 * whole "cat:event" string (so "sched:x" sorts before "sched_ext:x", ':'
 * being below '_').
 *
 * Pure functions on text: matching with wildcards and "did you mean"
 * suggestions. tracefs.h feeds them the live list.
 */
#ifndef LANTERN_SYS_TP_EVENTS_H
#define LANTERN_SYS_TP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

struct tp_event {
	const char *name;  /* "sched:sched_switch" */
	const char *cat;   /* "sched": shared by every event of the category */
	const char *event; /* "sched_switch": the tail of name */
};

struct tp_events {
	struct tp_event *v; /* sorted by name, no duplicates */
	size_t n;
	char **cats; /* distinct categories, sorted by strcmp */
	size_t ncats;
	char *buf; /* the names */
};

/* Called per match; a nonzero return stops the walk. */
typedef int (*tp_event_fn)(const char *cat, const char *ev, void *arg);

/*
 * Parse available_events text: one "cat:event" per line. Lines without a
 * ':' or with an empty half are skipped. Never fails.
 */
void sys_tp_events_parse(struct tp_events *out, const char *text);
void sys_tp_events_free(struct tp_events *e);

/* Binary search; NULL when absent. */
const struct tp_event *sys_tp_events_find(const struct tp_events *e, const char *cat, const char *ev);
bool sys_tp_events_has_category(const struct tp_events *e, const char *cat);

/*
 * fn(cat, ev, arg) for each event matching both patterns, in list order.
 * Returns the number of matches, or fn's nonzero return value.
 */
int sys_tp_events_match(const struct tp_events *e, const char *cat_pat, const char *ev_pat,
		    tp_event_fn fn, void *arg);

#define TP_MAX_SUGGEST 3

struct tp_suggestions {
	const char *names[TP_MAX_SUGGEST]; /* "cat:event", into the list; best first */
	int n;
	bool cat_exists; /* the category asked for exists */
};

/*
 * Up to three names near CAT:EV, for a "did you mean" hint after a lookup
 * failed. Kinds of match, best first; only the best kind found is offered:
 *   1. the same event name in another category  (foo:sched_switch)
 *   2. a typo: edit distance on "cat:event" of at most 1 + len/6 (max 4),
 *      and only the smallest distance found      (sched:sched_swich)
 *   3. within CAT (anywhere when CAT does not exist), events that start
 *      with EV or that EV starts with            (sched:sched_process)
 *   4. the same, events containing EV             (sched:switch)
 * Ties go to the smaller length difference, then the shorter name, then
 * byte order. With a wildcard in CAT or EV only cat_exists is filled.
 */
void sys_tp_events_suggest(const struct tp_events *e, const char *cat, const char *ev,
		       struct tp_suggestions *out);

#endif
