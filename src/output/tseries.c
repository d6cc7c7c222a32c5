// SPDX-License-Identifier: MIT
/* tseries() maps printed as today's bpftrace prints them: see tseries.h. */
#include "output/tseries.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define GRAPH_WIDTH 53
#define PADDING 21

bool out_tseries_latest(const uint64_t *slots, uint32_t nslots, uint64_t *latest)
{
	bool any = false;

	*latest = 0;
	for (uint32_t i = 0; i + 1 < nslots; i += 2)
		if (slots[i]) {
			any = true;
			if (slots[i] - 1 > *latest)
				*latest = slots[i] - 1;
		}
	return any;
}

/* The value of interval e, if a slot holds it */
static bool value_at(const uint64_t *slots, uint32_t nslots, uint64_t e, int64_t *v)
{
	for (uint32_t i = 0; i + 1 < nslots; i += 2)
		if (slots[i] && slots[i] - 1 == e) {
			*v = (int64_t)slots[i + 1];
			return true;
		}
	return false;
}

/* The rows: intervals from the key's first one in the window to last */
static uint64_t first_row(const uint64_t *slots, uint32_t nslots, uint64_t first, uint64_t last)
{
	uint64_t f = last;

	for (uint32_t i = 0; i + 1 < nslots; i += 2)
		if (slots[i] && slots[i] - 1 >= first && slots[i] - 1 < f)
			f = slots[i] - 1;
	return f > first ? f : first;
}

/* CLOCK_TAI's time of an interval's start as the wall clock's (ns) */
static int64_t wall_ns(const struct type *t, uint64_t epoch)
{
	struct timespec tai, real;

	clock_gettime(CLOCK_TAI, &tai);
	clock_gettime(CLOCK_REALTIME, &real);
	int64_t off = (tai.tv_sec - real.tv_sec) * 1000000000ll + (tai.tv_nsec - real.tv_nsec);
	off = (off + 500000000) / 1000000000 * 1000000000; /* whole seconds: the leap seconds' count */
	return (int64_t)(epoch * (uint64_t)t->lstep) - off;
}

/* "%H:%M:%S" and digits of the fraction for the interval's unit */
static void put_time(struct strbuf *out, int64_t ns, int digits, const char *date)
{
	time_t sec = (time_t)(ns >= 0 ? ns / 1000000000 : (ns - 999999999) / 1000000000);
	int64_t frac = ns - (int64_t)sec * 1000000000;
	struct tm tm;
	char buf[64];

	localtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), date ? date : "%H:%M:%S", &tm);
	sb_puts(out, buf);
	if (digits) {
		int64_t d = frac;
		for (int i = digits; i < 9; i++)
			d /= 10;
		sb_printf(out, ".%0*lld", digits, (long long)d);
	}
}

/* width w, left or right aligned */
static void put_aligned(struct strbuf *out, const char *s, int w, bool left)
{
	int n = (int)strlen(s);

	if (!left)
		sb_pad(out, ' ', w > n ? (size_t)(w - n) : 0);
	sb_puts(out, s);
	if (left)
		sb_pad(out, ' ', w > n ? (size_t)(w - n) : 0);
}

static void scale_line(struct strbuf *out, size_t lead, int64_t lo, int64_t hi, bool is_signed)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), is_signed ? "%lld" : "%llu", (long long)lo);
	snprintf(b, sizeof(b), is_signed ? "%lld" : "%llu", (long long)hi);
	sb_pad(out, ' ', lead);
	put_aligned(out, a, PADDING, true);
	put_aligned(out, b, GRAPH_WIDTH - PADDING, false);
	sb_putc(out, '\n');
}

void out_tseries_text(struct strbuf *out, const struct type *t, const uint64_t *slots, uint32_t nslots,
		      uint64_t first, uint64_t last)
{
	uint64_t from = first_row(slots, nslots, first, last);
	int64_t lo = 0, hi = 0, v;
	bool any = false;
	size_t rows = 0;

	if (first > last) {
		sb_puts(out, "<no data>\n");
		return;
	}
	for (uint64_t e = from; e <= last && e >= from; e++) {
		rows++;
		if (!value_at(slots, nslots, e, &v))
			continue;
		if (!any || (t->is_signed ? v < lo : (uint64_t)v < (uint64_t)lo))
			lo = v;
		if (!any || (t->is_signed ? v > hi : (uint64_t)v > (uint64_t)hi))
			hi = v;
		any = true;
		if (e == UINT64_MAX)
			break;
	}
	if (!rows) {
		sb_puts(out, "<no data>\n");
		return;
	}
	if (lo == hi) { /* room on both sides, unless at the type's bounds */
		if (t->is_signed ? lo > INT64_MIN : (uint64_t)lo > 0)
			lo--;
		if (t->is_signed ? hi < INT64_MAX : (uint64_t)hi < UINT64_MAX)
			hi++;
	}
	/* the unit of the interval: seconds, ms, us or ns digits */
	uint64_t interval = rows > 1 ? t->lstep : 0;
	int digits = interval >= 1000000000ull ? 0 : interval >= 1000000ull ? 3 : interval >= 1000ull ? 6 : 9;
	const char *unit = digits == 3 ? "ms" : digits == 6 ? "\u03bcs" : "ns";
	char fmt[32];
	snprintf(fmt, sizeof(fmt), digits ? "hh:mm:ss.%s" : "hh:mm:ss", unit);
	size_t tsize = 8 + (digits ? 1 + (size_t)digits : 0);

	scale_line(out, tsize + 1, lo, hi, t->is_signed);
	put_aligned(out, fmt, (int)tsize + 1, true);
	sb_putc(out, '|');
	sb_pad(out, '_', GRAPH_WIDTH - 2);
	sb_puts(out, "|\n");
	int zero = 0;
	if (lo < 0 && hi > 0)
		zero = (int)((float)GRAPH_WIDTH * (float)lo / (float)(lo - hi));
	for (uint64_t e = from; e <= last && e >= from; e++) {
		char line[GRAPH_WIDTH + 1];
		memset(line, ' ', GRAPH_WIDTH);
		line[GRAPH_WIDTH] = 0;
		line[0] = line[GRAPH_WIDTH - 1] = '|';
		if (zero > 0)
			line[zero] = '.';
		put_time(out, wall_ns(t, e), digits, NULL);
		sb_putc(out, ' ');
		if (value_at(slots, nslots, e, &v)) {
			int at = GRAPH_WIDTH / 2;
			if (lo != hi)
				at = (int)((float)(GRAPH_WIDTH - 1) * (float)(lo - v) / (float)(lo - hi));
			at = at < 0 ? 0 : at > GRAPH_WIDTH - 1 ? GRAPH_WIDTH - 1 : at;
			line[at] = '*';
			sb_printf(out, t->is_signed ? "%s %lld\n" : "%s %llu\n", line, (long long)v);
		} else {
			sb_printf(out, "%s -\n", line);
		}
		if (e == UINT64_MAX)
			break;
	}
	sb_pad(out, ' ', tsize);
	sb_puts(out, " v");
	sb_pad(out, '_', GRAPH_WIDTH - 2);
	sb_puts(out, "v\n");
	scale_line(out, tsize + 1, lo, hi, t->is_signed);
}

void out_tseries_json(struct strbuf *out, const struct type *t, const uint64_t *slots, uint32_t nslots,
		      uint64_t first, uint64_t last)
{
	bool comma = false;
	int64_t v;

	sb_putc(out, '[');
	for (uint64_t e = first_row(slots, nslots, first, last); first <= last && e <= last; e++) {
		if (value_at(slots, nslots, e, &v)) {
			sb_puts(out, comma ? ", {\"interval_start\": \"" : "{\"interval_start\": \"");
			put_time(out, wall_ns(t, e), 9, "%Y-%m-%d %H:%M:%S");
			sb_printf(out, t->is_signed ? "\", \"value\": %lld}" : "\", \"value\": %llu}", (long long)v);
			comma = true;
		}
		if (e == UINT64_MAX)
			break;
	}
	sb_putc(out, ']');
}
