// SPDX-License-Identifier: MIT
#include "sys/tp_events.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Compare the virtual string CAT ":" EV with NAME, like strcmp. */
static int cmp_split(const char *cat, const char *ev, const char *name)
{
	const unsigned char *a = (const unsigned char *)cat;
	const unsigned char *b = (const unsigned char *)name;

	for (; *a; a++, b++)
		if (*a != *b)
			return *a < *b ? -1 : 1;
	if (*b != ':')
		return ':' < *b ? -1 : 1;
	return strcmp(ev, (const char *)b + 1);
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct tp_event *)a)->name, ((const struct tp_event *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The interned copy of the category [s, s+len). *last is a hint. */
static const char *intern_cat(struct tp_events *e, size_t *cap, size_t *last, const char *s,
			      size_t len)
{
	if (e->ncats && !strncmp(e->cats[*last], s, len) && !e->cats[*last][len])
		return e->cats[*last]; /* available_events groups by category */
	for (size_t i = 0; i < e->ncats; i++)
		if (!strncmp(e->cats[i], s, len) && !e->cats[i][len])
			return e->cats[*last = i];
	if (e->ncats == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		e->cats = util_xrealloc(e->cats, *cap * sizeof(*e->cats));
	}
	e->cats[e->ncats] = util_xstrndup(s, len);
	*last = e->ncats;
	return e->cats[e->ncats++];
}

void sys_tp_events_parse(struct tp_events *out, const char *text)
{
	size_t catcap = 0, lastcat = 0, lines = 1;
	char *p;

	memset(out, 0, sizeof(*out));
	out->buf = util_xstrdup(text);
	for (const char *q = text; *q; q++)
		lines += *q == '\n';
	out->v = util_xmalloc(lines * sizeof(*out->v));

	for (p = out->buf; *p;) {
		char *nl = strchr(p, '\n'), *end, *colon;

		end = nl ? nl : p + strlen(p);
		while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = 0;
		colon = strchr(p, ':');
		if (colon && colon > p && colon[1]) {
			struct tp_event *t = &out->v[out->n++];
			t->name = p;
			t->event = colon + 1;
			t->cat = intern_cat(out, &catcap, &lastcat, p, colon - p);
		}
		if (!nl)
			break;
		p = nl + 1;
	}

	/* Byte order of "cat:event": what bpftrace -l prints. */
	qsort(out->v, out->n, sizeof(*out->v), cmp_event);
	if (out->n) {
		size_t w = 1;
		for (size_t r = 1; r < out->n; r++)
			if (strcmp(out->v[r].name, out->v[w - 1].name))
				out->v[w++] = out->v[r];
		out->n = w;
	}
	if (out->ncats)
		qsort(out->cats, out->ncats, sizeof(*out->cats), cmp_str);
}

void sys_tp_events_free(struct tp_events *e)
{
	for (size_t i = 0; i < e->ncats; i++)
		free(e->cats[i]);
	free(e->cats);
	free(e->v);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

const struct tp_event *sys_tp_events_find(const struct tp_events *e, const char *cat, const char *ev)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_split(cat, ev, e->v[mid].name);
		if (!c)
			return &e->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool sys_tp_events_has_category(const struct tp_events *e, const char *cat)
{
	return e->ncats && bsearch(&cat, e->cats, e->ncats, sizeof(*e->cats), cmp_str);
}

int sys_tp_events_match(const struct tp_events *e, const char *cat_pat, const char *ev_pat,
		    tp_event_fn fn, void *arg)
{
	int n = 0;

	for (size_t i = 0; i < e->n; i++) {
		const struct tp_event *t = &e->v[i];
		if (!util_wildcard_match(cat_pat, t->cat) || !util_wildcard_match(ev_pat, t->event))
			continue;
		n++;
		if (fn) {
			int r = fn(t->cat, t->event, arg);
			if (r)
				return r;
		}
	}
	return n;
}

/* Lower is better. Tiers: same event elsewhere, typo, prefix, substring. */
enum {
	TIER_SAME_EVENT = 0,
	TIER_TYPO = 1000,
	TIER_PREFIX = 2000,
	TIER_SUBSTR = 3000,
	TIER_NONE = 1000000,
};

static bool is_prefix(const char *pre, const char *s)
{
	return !strncmp(pre, s, strlen(pre));
}

static unsigned score(const struct tp_event *t, const char *cat, const char *ev, const char *full,
		      bool cat_exists)
{
	size_t lev = strlen(ev), lt = strlen(t->event);
	unsigned diff = (unsigned)(lev > lt ? lev - lt : lt - lev);
	unsigned cap = MIN(4, 1 + (unsigned)strlen(full) / 6), d;
	bool same_cat = !strcmp(t->cat, cat);

	if (same_cat && !strcmp(t->event, ev))
		return TIER_NONE; /* the name asked about */
	if (!strcmp(t->event, ev))
		return TIER_SAME_EVENT;
	d = util_edit_distance(full, t->name, cap + 1);
	if (d <= cap)
		return TIER_TYPO + d;
	if ((!same_cat && cat_exists) || MIN(lev, lt) < 3)
		return TIER_NONE;
	if (is_prefix(ev, t->event) || is_prefix(t->event, ev))
		return TIER_PREFIX + diff;
	if (strstr(t->event, ev))
		return TIER_SUBSTR + diff;
	return TIER_NONE;
}

void sys_tp_events_suggest(const struct tp_events *e, const char *cat, const char *ev,
		       struct tp_suggestions *out)
{
	unsigned best[TP_MAX_SUGGEST];
	char *full;

	memset(out, 0, sizeof(*out));
	if (util_has_wildcard(cat)) {
		for (size_t i = 0; i < e->ncats && !out->cat_exists; i++)
			out->cat_exists = util_wildcard_match(cat, e->cats[i]);
		return;
	}
	out->cat_exists = sys_tp_events_has_category(e, cat);
	if (util_has_wildcard(ev))
		return;

	full = util_xasprintf("%s:%s", cat, ev);
	for (size_t i = 0; i < e->n; i++) {
		const struct tp_event *t = &e->v[i];
		unsigned s = score(t, cat, ev, full, out->cat_exists);
		int at;

		if (s == TIER_NONE)
			continue;
		/* Insert by (score, length); the list is walked in byte order. */
		for (at = out->n; at > 0; at--) {
			unsigned bs = best[at - 1];
			if (bs < s || (bs == s && strlen(out->names[at - 1]) <= strlen(t->name)))
				break;
		}
		if (at >= TP_MAX_SUGGEST)
			continue;
		if (out->n < TP_MAX_SUGGEST)
			out->n++;
		for (int j = out->n - 1; j > at; j--) {
			best[j] = best[j - 1];
			out->names[j] = out->names[j - 1];
		}
		best[at] = s;
		out->names[at] = t->name;
	}
	free(full);

	/*
	 * Only the best kind of match: a name with the same event beats typos,
	 * a one-letter typo beats a two-letter one ("opn": "open", not "bpf").
	 */
	for (int i = 1; i < out->n; i++) {
		bool typo = best[0] >= TIER_TYPO && best[0] < TIER_PREFIX;
		if (best[i] / 1000 != best[0] / 1000 || (typo && best[i] != best[0])) {
			out->n = i;
			break;
		}
	}
}
