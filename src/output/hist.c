// SPDX-License-Identifier: MIT
/* hist() and lhist() buckets and their text. The rules are in hist.h. */
#include "output/hist.h"

#include <inttypes.h>

#define LABEL_WIDTH 16
#define COUNT_WIDTH 8

static const char suffix[] = {0, 'K', 'M', 'G', 'T', 'P', 'E'};

/* 2^e as bpftrace writes it: 512, 1K, 2K, ..., 512K, 1M, ... 1E, ... */
static void put_pow2(struct strbuf *out, unsigned e)
{
	sb_printf(out, "%u", 1u << (e % 10));
	if (e / 10 && e / 10 < sizeof(suffix))
		sb_putc(out, suffix[e / 10]);
}

/* An lhist bound: multiples of 1024 shortened, 1024 -> 1K, 1572864 -> 1536K */
static void put_num(struct strbuf *out, int64_t n)
{
	unsigned u = 0;

	while (n && n % 1024 == 0 && u + 1 < sizeof(suffix)) {
		n /= 1024;
		u++;
	}
	sb_printf(out, "%" PRId64, n);
	if (u)
		sb_putc(out, suffix[u]);
}

void out_hist_label(struct strbuf *out, uint32_t bucket)
{
	switch (bucket) {
	case 0:
		sb_puts(out, "(..., 0)");
		return;
	case 1:
		sb_puts(out, "[0]");
		return;
	case 2:
		sb_puts(out, "[1]");
		return;
	}
	sb_putc(out, '[');
	put_pow2(out, bucket - 2);
	sb_puts(out, ", ");
	put_pow2(out, bucket - 1);
	sb_putc(out, ')');
}

void out_lhist_label(struct strbuf *out, uint32_t bucket, int64_t min, int64_t max, int64_t step)
{
	uint32_t nb = maps_lhist_nbuckets(min, max, step);
	int64_t lo;

	if (bucket == 0) {
		sb_puts(out, "(..., ");
		put_num(out, min);
		sb_putc(out, ')');
		return;
	}
	if (bucket + 1 >= nb) {
		sb_putc(out, '[');
		put_num(out, max);
		sb_puts(out, ", ...)");
		return;
	}
	lo = (int64_t)((uint64_t)min + (uint64_t)(bucket - 1) * (uint64_t)step);
	sb_putc(out, '[');
	put_num(out, lo);
	sb_puts(out, ", ");
	put_num(out, (int64_t)((uint64_t)lo + (uint64_t)step));
	sb_putc(out, ')');
}

void out_hist_line(struct strbuf *out, const char *label, uint64_t shown, unsigned bar)
{
	sb_printf(out, "%-*s%*" PRIu64 " |", LABEL_WIDTH, label, COUNT_WIDTH, shown);
	sb_pad(out, '@', bar);
	sb_pad(out, ' ', HIST_BAR_WIDTH - bar);
	sb_puts(out, "|\n");
}

uint64_t out_hist_total(const uint64_t *buckets, uint32_t n)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i < n; i++)
		t += buckets[i];
	return t;
}

bool out_hist_range(const uint64_t *b, uint32_t n, uint32_t *lo, uint32_t *hi)
{
	bool any = false;

	for (uint32_t i = 0; i < n; i++) {
		if (!b[i])
			continue;
		if (!any)
			*lo = i;
		*hi = i;
		any = true;
	}
	return any;
}

void out_hist_bounds(uint32_t bucket, struct bucket_bounds *bb)
{
	*bb = (struct bucket_bounds){ .has_min = true, .has_max = true };
	switch (bucket) {
	case 0:
		bb->has_min = false;
		bb->max = -1;
		return;
	case 1:
	case 2:
		bb->min = bb->max = bucket - 1;
		return;
	}
	/* 2^(k-2) .. 2^(k-1) - 1; bucket 65 (2^63 and up) holds no int64 */
	if (bucket >= HIST_NBUCKETS - 1) {
		bb->min = INT64_MAX;
		bb->has_max = false;
		return;
	}
	bb->min = (int64_t)1 << (bucket - 2);
	bb->max = (int64_t)(((uint64_t)1 << (bucket - 1)) - 1);
}

void out_lhist_bounds(uint32_t bucket, int64_t min, int64_t max, int64_t step,
		  struct bucket_bounds *bb)
{
	uint32_t nb = maps_lhist_nbuckets(min, max, step);

	*bb = (struct bucket_bounds){ .has_min = true, .has_max = true };
	if (bucket == 0) {
		bb->has_min = false;
		bb->max = (int64_t)((uint64_t)min - 1);
		return;
	}
	if (bucket + 1 >= nb) {
		bb->has_max = false;
		bb->min = max;
		return;
	}
	bb->min = (int64_t)((uint64_t)min + (uint64_t)(bucket - 1) * (uint64_t)step);
	bb->max = (int64_t)((uint64_t)bb->min + (uint64_t)step - 1);
}

/* The lines of buckets[0..n): from the first to the last non-zero one. */
static void print_buckets(struct strbuf *out, const uint64_t *b, uint32_t n, uint64_t div,
			  void (*label)(struct strbuf *, uint32_t, const int64_t *),
			  const int64_t *largs)
{
	struct strbuf lab = {0};
	uint32_t lo = 0, hi = 0, i;
	uint64_t max = 0;

	if (!out_hist_range(b, n, &lo, &hi))
		return;
	for (i = lo; i <= hi; i++)
		if (b[i] > max)
			max = b[i];
	if (!div)
		div = 1;
	for (i = lo; i <= hi; i++) {
		sb_reset(&lab);
		label(&lab, i, largs);
		out_hist_line(out, sb_str(&lab), b[i] / div,
			      max ? (unsigned)((unsigned __int128)b[i] * HIST_BAR_WIDTH / max) : 0);
	}
	sb_free(&lab);
}

static void hist_label_cb(struct strbuf *out, uint32_t i, const int64_t *unused)
{
	out_hist_label(out, i);
}

static void lhist_label_cb(struct strbuf *out, uint32_t i, const int64_t *a)
{
	out_lhist_label(out, i, a[0], a[1], a[2]);
}

void out_hist_print_div(struct strbuf *out, const uint64_t *buckets, uint64_t div)
{
	uint64_t folded[HIST_LAST_BUCKET + 1];
	uint32_t n = out_hist_fold(buckets, folded);

	print_buckets(out, folded, n, div, hist_label_cb, NULL);
}

uint32_t out_hist_fold(const uint64_t *buckets, uint64_t *out)
{
	uint32_t i;

	for (i = 0; i <= HIST_LAST_BUCKET; i++)
		out[i] = buckets[i];
	for (i = HIST_LAST_BUCKET + 1; i < HIST_NBUCKETS; i++)
		out[HIST_LAST_BUCKET] += buckets[i];
	return HIST_LAST_BUCKET + 1;
}

void out_hist_print(struct strbuf *out, const uint64_t *buckets)
{
	out_hist_print_div(out, buckets, 1);
}

void out_lhist_print(struct strbuf *out, const uint64_t *buckets, int64_t min, int64_t max,
		 int64_t step)
{
	const int64_t args[3] = {min, max, step};

	print_buckets(out, buckets, maps_lhist_nbuckets(min, max, step), 1, lhist_label_cb, args);
}
