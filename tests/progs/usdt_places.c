// SPDX-License-Identifier: MIT
/*
 * One USDT probe at two places, and another at one: places:twice is
 * written twice (both fire, once each), places:once once. For the count
 * of "Attached N probes" (today's bpftrace counts probes, 0.17 places).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

static __attribute__((noinline)) void first(int i)
{
	STAP_PROBE1(places, twice, i);
}

static __attribute__((noinline)) void second(int i)
{
	STAP_PROBE1(places, twice, i + 100);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < n; i++) {
		first(i);
		second(i);
		STAP_PROBE1(places, once, i);
	}
	return 0;
}
