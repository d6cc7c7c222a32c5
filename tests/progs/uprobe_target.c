// SPDX-License-Identifier: MIT
/*
 * A uprobe target: lantern_add(i, 2 * i, "hello") for i in 0..N-1, then
 * lantern_done(N). Both are real calls (noinline), with symbols.
 *
 *   uprobe_target N [MS]     MS: sleep that long before each call
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline, used)) long lantern_add(long a, long b, const char *s)
{
	__asm__ volatile("" ::: "memory");
	return a + b + (s[0] == 'h');
}

__attribute__((noinline, used)) int lantern_done(int n)
{
	__asm__ volatile("" ::: "memory");
	return -n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, ms = argc > 2 ? atol(argv[2]) : 0, sum = 0;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	for (long i = 0; i < n; i++) {
		if (ms)
			nanosleep(&ts, NULL);
		sum += lantern_add(i, 2 * i, "hello");
	}
	lantern_done((int)n);
	return sum == -1;
}
