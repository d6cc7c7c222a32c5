// SPDX-License-Identifier: MIT
/* hist() and lhist() buckets: the BPF code and the printers count the same. */
#include "maps/buckets.h"

#include <inttypes.h>

uint32_t maps_hist_bucket(int64_t v)
{
	uint32_t k = 0;
	uint64_t u = (uint64_t)v;

	if (v < 0)
		return 0;
	if (v == 0)
		return 1;
	/* k = index of the highest set bit */
	while (u >>= 1)
		k++;
	return k + 2;
}

uint32_t maps_hist_nbuckets(unsigned k)
{
	return ((65u - k) << k) + 1;
}

uint32_t maps_hist_k_bucket(int64_t v, unsigned k)
{
	uint64_t mask = (1ull << k) - 1, u = (uint64_t)v;
	uint32_t l = 0;

	if (v < 0)
		return 0;
	if (u <= mask)
		return (uint32_t)u + 1;
	while (u >> (l + 1))
		l++; /* the highest set bit */
	l -= k;
	return (((l + 1) << k) | (uint32_t)((u >> l) & mask)) + 1;
}

uint32_t maps_lhist_nbuckets(int64_t min, int64_t max, int64_t step)
{
	__int128 n;

	if (step < 1 || max <= min)
		return 0;
	n = ((__int128)max - min) / step;
	if (n < 1 || n > LHIST_MAX_BUCKETS)
		return 0;
	return (uint32_t)n + 2;
}

uint32_t maps_lhist_bucket(int64_t v, int64_t min, int64_t max, int64_t step)
{
	uint32_t nb = maps_lhist_nbuckets(min, max, step);
	uint64_t i;

	if (!nb || v < min)
		return 0;
	if (v >= max)
		return nb - 1;
	i = ((uint64_t)v - (uint64_t)min) / (uint64_t)step + 1;
	return i < nb - 1 ? (uint32_t)i : nb - 1;
}

bool maps_lhist_check(int64_t min, int64_t max, int64_t step, struct strbuf *err)
{
	__int128 range = (__int128)max - min;

	if (step < 1) {
		sb_printf(err, "lhist() step must be >= 1 (%" PRId64 " provided)", step);
		return false;
	}
	if (range / step > LHIST_MAX_BUCKETS) {
		/* range < 2^64, so the count fits */
		sb_printf(err, "lhist() too many buckets, must be <= %d (would need %" PRIu64 ")",
			  LHIST_MAX_BUCKETS, (uint64_t)(range / step));
		return false;
	}
	if (min < 0) {
		sb_printf(err, "lhist() min must be non-negative (provided min %" PRId64 ")", min);
		return false;
	}
	if (min > max) {
		sb_printf(err,
			  "lhist() min must be less than max (provided min %" PRId64
			  " and max %" PRId64 ")",
			  min, max);
		return false;
	}
	if (step > range) {
		sb_printf(err,
			  "lhist() step is too large for the given range (provided step %" PRId64
			  " for range %" PRId64 ")",
			  step, (int64_t)range);
		return false;
	}
	return true;
}
