// SPDX-License-Identifier: MIT
/*
 * Many distinct user stacks: WALKS walks of DEPTH calls through four
 * functions, chosen by the bits of the walk's number, so that each walk's
 * stack is new (4^DEPTH of them). Each ends in getppid(), then spins.
 *
 *   stacks_many WALKS [SPIN_US [FIRST]]   SPIN_US: 0; FIRST: the first walk's number (0)
 *
 * The tests count its getppid()s by stack; bench/soak.sh runs it with
 * 2 ms spins, so that a 499 Hz profile samples each walk about once and
 * fills the maps keyed by user stacks. -O1 keeps no frame pointers (the
 * stacks are unwound in user space), and the additions after each call
 * keep it a call, not a jump.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define DEPTH 8

static volatile unsigned long sink;
static unsigned long walk;
static long spin_ns;
static void f0(int d), f1(int d), f2(int d), f3(int d);
static void (*const fs[4])(int) = { f0, f1, f2, f3 };

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void step(int d)
{
	if (d == 0) {
		getppid();
		for (long end = now_ns() + spin_ns; spin_ns && now_ns() < end;)
			sink++;
		return;
	}
	fs[(walk >> (2 * (d - 1))) & 3](d - 1);
}

__attribute__((noinline)) static void f0(int d) { step(d); sink += 1; }
__attribute__((noinline)) static void f1(int d) { step(d); sink += 2; }
__attribute__((noinline)) static void f2(int d) { step(d); sink += 3; }
__attribute__((noinline)) static void f3(int d) { step(d); sink += 4; }

int main(int argc, char **argv)
{
	unsigned long walks = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;

	spin_ns = argc > 2 ? atol(argv[2]) * 1000L : 0;
	walk = argc > 3 ? strtoul(argv[3], NULL, 0) : 0;
	for (unsigned long end = walk + walks; walk < end; walk++)
		step(DEPTH);
	return 0;
}
