// SPDX-License-Identifier: MIT
/*
 * A uprobe target: lantern_add(i, 2 * i, "hello") and lantern_nop5() for i
 * in 0..N-1, then lantern_done(N). All are real calls, with symbols.
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

#if defined(__x86_64__)
/* A function whose first instruction is a 5-byte nop: the site kernels
   since 6.x can uprobe with a call instead of a trap (B10's "nop5 site"). */
__asm__(".text\n"
	".globl lantern_nop5\n"
	".type lantern_nop5, @function\n"
	"lantern_nop5:\n"
	"\t.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
	"\tret\n"
	".size lantern_nop5, .-lantern_nop5\n");
void lantern_nop5(void);
#else
__attribute__((noinline, used)) void lantern_nop5(void)
{
	__asm__ volatile("" ::: "memory");
}
#endif

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
		lantern_nop5();
	}
	lantern_done((int)n);
	return sum == -1;
}
