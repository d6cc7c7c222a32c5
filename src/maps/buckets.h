/* SPDX-License-Identifier: MIT */
/*
 * The buckets of hist() and lhist() maps: which bucket a value falls in.
 * The BPF code generator computes the same indices (codegen/gen_map.c), the
 * map reader gathers them per key and the printers label them
 * (output/hist.h).
 */
#ifndef LANTERN_MAPS_BUCKETS_H
#define LANTERN_MAPS_BUCKETS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"

#define HIST_NBUCKETS  66
/*
 * bpftrace 0.17 puts every value >= 2^31 into the [2G, 4G) bucket (its
 * BPF log2 stops at 32 bits). maps_hist_bucket() keeps exact buckets; the
 * printers fold every bucket above this one into it, so the text is the
 * same. A JSON writer must fold the same way.
 */
#define HIST_LAST_BUCKET 33

/*
 * The bucket that holds the sum of a hist's or lhist's values instead of a
 * count, kept only when an output needs it (Prometheus's _sum): see
 * options_hist_sums().
 */
#define HIST_SUM_BUCKET UINT64_MAX

#define LHIST_MAX_BUCKETS 1000 /* regular buckets, without the two open ones */

/* log2 histogram: 0 for v < 0, 1 for v == 0, k >= 2 for 2^(k-2) <= v < 2^(k-1) */
uint32_t maps_hist_bucket(int64_t v);
/*
 * hist(v, k) (today's bpftrace): each power of 2 in 2^k buckets. 0 for v <
 * 0, v + 1 for v < 2^k, then ((l - k + 1) << k) + the k bits after the
 * highest set bit l, + 1. k = 0 is hist(v) above; its buckets number
 * maps_hist_nbuckets(k).
 */
uint32_t maps_hist_nbuckets(unsigned k);
uint32_t maps_hist_k_bucket(int64_t v, unsigned k);
#define HIST_MAX_BITS 5

/*
 * lhist(min, max, step): bucket 0 below min, then one per step, last one
 * for v >= max. When step does not divide max - min, the values between
 * the last full step and max also land in the last bucket (labelled
 * "[max, ...)"), as in bpftrace 0.17. 0 when the arguments are invalid.
 */
uint32_t maps_lhist_nbuckets(int64_t min, int64_t max, int64_t step);
uint32_t maps_lhist_bucket(int64_t v, int64_t min, int64_t max, int64_t step);

/*
 * Check lhist()'s constant arguments as bpftrace 0.17 does. On failure
 * appends the message of the first failed check, in bpftrace's order and
 * words:
 *   "lhist() step must be >= 1 (0 provided)"
 *   "lhist() too many buckets, must be <= 1000 (would need 100000)"
 *   "lhist() min must be non-negative (provided min -10)"
 *   "lhist() min must be less than max (provided min 10 and max 0)"
 *   "lhist() step is too large for the given range (provided step 20 for range 10)"
 * (bpftrace itself reports every check that fails, except that "too many
 * buckets" is only checked when step >= 1; min == max fails only as "step
 * is too large", range 0.)
 */
bool maps_lhist_check(int64_t min, int64_t max, int64_t step, struct strbuf *err);

#endif
