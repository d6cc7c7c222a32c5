// SPDX-License-Identifier: MIT
#include "output/stats.h"

#include <inttypes.h>

int64_t out_avg_value(int64_t total, uint64_t count)
{
	if (!count)
		return 0;
	if (count > INT64_MAX)
		return 0;
	return total / (int64_t)count;
}

void out_stats_print(struct strbuf *out, int64_t total, uint64_t count)
{
	sb_printf(out, "count %" PRIu64 ", average %" PRId64 ", total %" PRId64, count,
		  out_avg_value(total, count), total);
}

/* The divisor as bpftrace 0.17 holds it: unsigned 32 bits, 0 meaning 1. */
uint32_t out_print_divisor(int64_t div)
{
	uint32_t d = (uint32_t)div;

	return d ? d : 1;
}

int64_t out_print_div_s64(int64_t v, int64_t div)
{
	return v / (int64_t)out_print_divisor(div);
}

uint64_t out_print_div_u64(uint64_t v, int64_t div)
{
	return v / out_print_divisor(div);
}
