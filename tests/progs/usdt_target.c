// SPDX-License-Identifier: MIT
/*
 * A USDT target: for i in 0..N-1 the probe lantern:tick(i, -i as int,
 * "label", i as unsigned char), then lantern:done(N). The probes have
 * semaphores, as dtrace -G makes them: lantern:sema(i) fires only while a
 * tracer holds its semaphore up, and the program says how often it did.
 *
 * Last, lantern:operands(garr[3], 4@$-202182160, -4@$-202182160): operands
 * as compilers write them that C cannot ask for, a base + index * scale
 * memory operand and constants of 4 bytes, unsigned and signed.
 *
 *   usdt_target N [MS]     MS: sleep that long before each tick
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

#define SEMAPHORE(p, n) __attribute__((section(".probes"), used)) volatile unsigned short p##_##n##_semaphore
SEMAPHORE(lantern, tick);
SEMAPHORE(lantern, done);
SEMAPHORE(lantern, sema);
SEMAPHORE(lantern, operands);

__attribute__((used)) static long garr[4] = { 10, 20, 30, 42 };

static void operands(void)
{
	__asm__ __volatile__("lea garr(%%rip), %%rbx\n\t"
			     "mov $3, %%rax\n\t" STAP_PROBE_ASM(lantern, operands,
								  8@(%%rbx,%%rax,8) 4@$-202182160 -4@$-202182160)
			     :
			     :
			     : "rax", "rbx", "memory");
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, ms = argc > 2 ? atol(argv[2]) : 0, seen = 0;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	volatile const char *label = "label";

	for (long i = 0; i < n; i++) {
		if (ms)
			nanosleep(&ts, NULL);
		int neg = (int)-i;
		unsigned char low = (unsigned char)i;
		STAP_PROBE4(lantern, tick, i, neg, label, low);
		if (lantern_sema_semaphore) {
			seen++;
			STAP_PROBE1(lantern, sema, i);
		}
	}
	STAP_PROBE1(lantern, done, n);
	operands();
	printf("semaphore up %ld of %ld times\n", seen, n);
	return 0;
}
