// SPDX-License-Identifier: MIT
/*
 * Histograms as today's bpftrace prints them: hist(v, k), each power of 2
 * in 2^k buckets (maps/buckets.h), its hist(v) (k = 0) with exact buckets
 * up to 2^63 (0.17 folds those above [2G, 4G) into that one), and lhist.
 *
 * Each bucket b has an upper label, label(b), which the next bucket starts
 * at. A line shows "[label(b - 1), label(b))", or "[label(b - 1)]" when both
 * are plain numbers one apart, "[label(b - 1), ...)" when bucket b has no
 * label (lhist's last), and bucket 0 "(..., label(0))".
 *
 * hist(v, k): label(b) is the number b while b <= 2^(k+1), else 2^p * (2^k +
 * j), p = (b >> k) - 1 and j its last k bits, written with the largest
 * suffix K, M, G, ... of 2^(10 * (p / 10)) (so not a plain number).
 * lhist(v, min, max, step): label(b) is min + b * step while it is <= max;
 * with a step that is a multiple of 1024 it is written with K or M where it
 * divides (so not a plain number).
 */
#include "output/hist.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "types/type.h"

struct label {
	__int128 v; /* its value */
	bool num;   /* a plain number (else written with a suffix) */
	char text[32];
};

static const char suffix[] = {0, 'K', 'M', 'G', 'T', 'P', 'E'};

/* hist(v, k)'s label(b) */
static void log_label(uint32_t b, unsigned k, struct label *l)
{
	uint32_t n = 1u << k, j = b & (n - 1), p;

	if (b <= (2u << k)) {
		l->v = b;
		l->num = true;
		snprintf(l->text, sizeof(l->text), "%u", b);
		return;
	}
	p = (b >> k) - 1;
	l->v = ((__int128)1 << p) * (n + j);
	l->num = false;
	snprintf(l->text, sizeof(l->text), "%llu",
		 (unsigned long long)((1ull << (p % 10)) * (n + j)));
	if (p / 10 && p / 10 < sizeof(suffix)) {
		size_t len = strlen(l->text);
		l->text[len] = suffix[p / 10];
		l->text[len + 1] = 0;
	}
}

/* lhist's label(b); false when there is none (past max) */
static bool lin_label(uint32_t b, const struct type *t, struct label *l)
{
	int64_t x = (int64_t)((uint64_t)t->lmin + (uint64_t)b * (uint64_t)t->lstep);

	if (x > t->lmax)
		return false;
	l->v = x;
	l->num = t->lstep % 1024 != 0;
	if (!l->num && x && x % (1024 * 1024) == 0)
		snprintf(l->text, sizeof(l->text), "%" PRId64 "M", x / (1024 * 1024));
	else if (!l->num && x && x % 1024 == 0)
		snprintf(l->text, sizeof(l->text), "%" PRId64 "K", x / 1024);
	else
		snprintf(l->text, sizeof(l->text), "%" PRId64, x);
	return true;
}

static bool label(const struct type *t, uint32_t b, struct label *l)
{
	if (t->kind == TY_LHIST)
		return lin_label(b, t, l);
	log_label(b, t->count, l);
	return true;
}

void out_hist_modern_label(struct strbuf *out, const struct type *t, uint32_t bucket)
{
	struct label lo, hi;

	if (bucket == 0) {
		label(t, 0, &hi);
		sb_printf(out, "(..., %s)", hi.text);
		return;
	}
	label(t, bucket - 1, &lo);
	if (!label(t, bucket, &hi))
		sb_printf(out, "[%s, ...)", lo.text);
	else if (lo.num && hi.num && lo.v + 1 == hi.v)
		sb_printf(out, "[%s]", lo.text);
	else
		sb_printf(out, "[%s, %s)", lo.text, hi.text);
}

static int64_t clamp(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

void out_hist_modern_bounds(const struct type *t, uint32_t bucket, struct bucket_bounds *bb)
{
	struct label lo, hi;

	*bb = (struct bucket_bounds){0};
	if (bucket) {
		label(t, bucket - 1, &lo);
		bb->has_min = true;
		bb->min = clamp(lo.v);
	}
	if (label(t, bucket, &hi)) {
		bb->has_max = true;
		bb->max = clamp(hi.v - 1);
	}
}

void out_hist_modern_print(struct strbuf *out, const struct type *t, const uint64_t *b, uint32_t n,
			   uint64_t div)
{
	struct strbuf lab = {0};
	uint32_t lo = 0, hi = 0;
	uint64_t max = 0;

	if (!out_hist_range(b, n, &lo, &hi))
		return;
	if (!div)
		div = 1;
	for (uint32_t i = lo; i <= hi; i++)
		max = b[i] / div > max ? b[i] / div : max;
	for (uint32_t i = lo; i <= hi; i++) {
		/* today's bpftrace: the counts divided, the bar in float, truncated */
		uint64_t c = b[i] / div;
		unsigned bar = max ? (unsigned)((float)c / (float)max * HIST_BAR_WIDTH) : 0;
		sb_reset(&lab);
		out_hist_modern_label(&lab, t, i);
		out_hist_line(out, sb_str(&lab), c, bar);
	}
	sb_free(&lab);
}
