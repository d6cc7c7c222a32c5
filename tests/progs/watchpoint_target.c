// SPDX-License-Identifier: MIT
/*
 * A watchpoint target: N times (every MS milliseconds) it writes the
 * 8 bytes at 0x10000000 (a fixed mapping, so the address is known before
 * the program runs), the global lantern_counter and, through
 * lantern_increment(0, &x), a heap integer.
 *
 *   watchpoint_target [N [MS]]     N: 10, MS: 50 by default
 *
 * It prints lantern_counter's address first (the binary is PIE: its
 * address is known only once it runs), for -p tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define FIXED_ADDR ((void *)0x10000000)

volatile uint64_t lantern_counter;

/* The write is not the first instruction: a uprobe runs that one out of line */
__attribute__((noinline, used)) void lantern_increment(int unused, int *i)
{
	(void)unused;
	__asm__ volatile("nop" ::: "memory");
	(*i)++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, ms = argc > 2 ? atol(argv[2]) : 50;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	volatile uint64_t *fixed = mmap(FIXED_ADDR, 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	int *heap = malloc(sizeof(*heap));

	if (fixed != FIXED_ADDR || !heap) {
		perror("watchpoint_target: mmap");
		return 1;
	}
	*heap = 0;
	printf("%p\n", (void *)&lantern_counter);
	fflush(stdout);
	for (long i = 0; i < n; i++) {
		if (ms)
			nanosleep(&ts, NULL);
		*fixed = i;
		lantern_counter++;
		lantern_increment(0, heap);
	}
	return 0;
}
