/* SPDX-License-Identifier: MIT */
/*
 * hist() and lhist(): bucket indices (the BPF code generator computes the
 * same ones) and the text bpftrace 0.17 prints for one histogram.
 *
 * The map printer writes, for each entry of a hist or lhist map:
 *
 *   "@name[key]: \n"        (note the space after ':'; "@name: \n" unkeyed)
 *   out_hist_print() or out_lhist_print() output (zero or more bucket lines)
 *   "\n"                    (one blank line after every histogram)
 *
 * and for a map with no entries at all just "\n". A histogram whose counts
 * are all zero (after zero()) prints no bucket lines: "@name: \n\n".
 *
 * A bucket line is the label left-aligned in 16 columns, the count
 * right-aligned in 8, " |", a bar of '@' padded with spaces to 52 columns
 * and "|\n". Longer labels or counts push the rest right; nothing is cut:
 *
 *   [4, 8)                 3 |@@@@@@@@@@@@@@@@@@@@@@                              |
 *   [999000, 1000000)       1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
 *
 * The bar has floor(count * 52 / max) '@', max being the largest count of
 * the histogram. Lines go from the lowest to the highest non-zero bucket,
 * zero buckets in between included.
 */
#ifndef LANTERN_OUTPUT_HIST_H
#define LANTERN_OUTPUT_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"

#include "maps/buckets.h"

#define HIST_BAR_WIDTH 52

/* Bucket labels: "(..., 0)", "[0]", "[1]", "[2, 4)", "[1K, 2K)", "[512K, 1M)" */
void out_hist_label(struct strbuf *out, uint32_t bucket);
/*
 * "(..., 0)", "[0, 500)", "[3000, ...)". A bound that is a non-zero
 * multiple of 1024 is divided by 1024 as long as it stays one, with a
 * suffix: 1024 -> "1K", 10240 -> "10K", 1572864 -> "1536K", 3145728 -> "3M".
 */
void out_lhist_label(struct strbuf *out, uint32_t bucket, int64_t min, int64_t max, int64_t step);

/*
 * For writers other than the text one (JSON): what the bucket lines show.
 *
 * out_hist_fold() copies the HIST_NBUCKETS exact counts into
 * HIST_LAST_BUCKET + 1 buckets, everything above [2G, 4G) counted in it,
 * as the text printer shows them; returns the number of buckets.
 * out_hist_range() finds the lowest and highest non-zero bucket of b[0..n)
 * (false when every count is 0): the printers show lo..hi.
 * out_hist_bounds() and out_lhist_bounds() give a bucket's smallest and largest
 * value, both included; the open buckets have no min ("(..., 0)") or no
 * max ("[max, ...)"). The folded [2G, 4G) bucket says 2^31..2^32-1.
 */
struct bucket_bounds {
	int64_t min, max;
	bool has_min, has_max;
};

uint32_t out_hist_fold(const uint64_t *buckets /* HIST_NBUCKETS */,
		   uint64_t *out /* HIST_LAST_BUCKET + 1 */);
bool out_hist_range(const uint64_t *b, uint32_t n, uint32_t *lo, uint32_t *hi);
void out_hist_bounds(uint32_t bucket, struct bucket_bounds *bb);
void out_lhist_bounds(uint32_t bucket, int64_t min, int64_t max, int64_t step,
		  struct bucket_bounds *bb);

void out_hist_print(struct strbuf *out, const uint64_t *buckets /* HIST_NBUCKETS */);
void out_lhist_print(struct strbuf *out, const uint64_t *buckets, int64_t min, int64_t max,
		 int64_t step);
/*
 * print(@h, top, div) on a hist map: counts are shown divided by div (0
 * means 1) but the bars keep the undivided proportions, as in 0.17.
 * lhist maps ignore div (use out_lhist_print()).
 */
void out_hist_print_div(struct strbuf *out, const uint64_t *buckets, uint64_t div);

/* One bucket line: the label, the count shown, its bar's width (of HIST_BAR_WIDTH) */
void out_hist_line(struct strbuf *out, const char *label, uint64_t shown, unsigned bar);

/*
 * Today's bpftrace's histograms (hist_fine.c): hist(v, k) (t->count is k;
 * hist(v) is k = 0), exact up to 2^63, and lhist (t->lmin, lmax, lstep),
 * whose last bucket starts at the last step <= max and whose one-value
 * buckets print "[3]". A bucket's label, its bounds (for JSON), the lines
 * of b[0..n) with counts divided by div (0: 1) and bars of the divided
 * counts.
 */
struct type;
void out_hist_modern_label(struct strbuf *out, const struct type *t, uint32_t bucket);
void out_hist_modern_bounds(const struct type *t, uint32_t bucket, struct bucket_bounds *bb);
void out_hist_modern_print(struct strbuf *out, const struct type *t, const uint64_t *b, uint32_t n,
			   uint64_t div);

/* Sum of all buckets: hist and lhist map entries sort by it. */
uint64_t out_hist_total(const uint64_t *buckets, uint32_t n);

#endif
