// SPDX-License-Identifier: MIT
/*
 * A busy program with a known call chain, for user stack tests:
 * main -> calls_outer -> calls_middle -> (calls_step, inlined) -> calls_leaf,
 * spinning in calls_leaf for about MS milliseconds. The functions but main
 * are static: a stripped copy names them only through its debug file.
 * Built twice: calls_loop (-O1, no frame pointers, as Debian builds) and
 * calls_loop_fp (-fno-omit-frame-pointer).
 *
 *   calls_loop MS
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static __attribute__((noinline)) void calls_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

static inline __attribute__((always_inline)) void calls_step(unsigned long n)
{
	sink ^= n;
	calls_leaf(n);
	sink ^= n;
}

static __attribute__((noinline)) void calls_middle(unsigned long n)
{
	calls_step(n);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void calls_outer(unsigned long n)
{
	calls_middle(n);
	__asm__ volatile("" ::: "memory");
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	unsigned long long end = now_ms() + (argc > 1 ? strtoull(argv[1], NULL, 10) : 1000);

	while (now_ms() < end)
		calls_outer(100000);
	return 0;
}
