/* SPDX-License-Identifier: MIT */
/*
 * avg() and stats() values, and the division print(@map, top, div) applies,
 * as bpftrace 0.17 computes them.
 *
 * An avg or stats entry holds a count and a total (the signed 64-bit sum
 * of the values, wrapping on overflow, whatever the argument's type). The
 * average is total / count in signed 64-bit arithmetic, truncated toward
 * zero (avg(-1), avg(-2) -> -1), and 0 when the count is 0 (after zero()).
 * avg maps print the average as a signed number, stats maps print
 *
 *   count 3, average 2, total 7
 *
 * Both kinds of map sort their entries by the average, and print one blank
 * line after the whole map (see FORMAT.md).
 */
#ifndef LANTERN_OUTPUT_STATS_H
#define LANTERN_OUTPUT_STATS_H

#include <stdint.h>

#include "base/strbuf.h"

int64_t out_avg_value(int64_t total, uint64_t count);
/* "count N, average A, total T", no newline */
void out_stats_print(struct strbuf *out, int64_t total, uint64_t count);

/*
 * print(@m, top, div): bpftrace 0.17 takes top and div as unsigned 32-bit
 * numbers (-1 is 4294967295); div 0 means no division. Signed values
 * (sum/min/max of signed types, avg) are divided as signed 64-bit numbers
 * by that unsigned 32-bit div, truncating toward zero (-7 / 2 -> -3,
 * -7 / -2 -> 0); unsigned ones (count, sums of unsigned types) as unsigned.
 */
uint32_t out_print_divisor(int64_t div); /* div as 0.17 holds it: 32 bits, 0 -> 1 */
int64_t out_print_div_s64(int64_t v, int64_t div);
uint64_t out_print_div_u64(uint64_t v, int64_t div);

#endif
