// SPDX-License-Identifier: MIT
/*
 * Watchpoint targets with many addresses (bpftrace 0.17's watchpoint tests'
 * programs, in one):
 *
 *   watchpoint_many funcs N      lantern_inc_K(new int) for K = 0..N-1 (N <= 6)
 *   watchpoint_many addrs N      lantern_inc_0(new int), N times
 *   watchpoint_many unwatch      lantern_inc_0(p), a pause (unwatch() is
 *                                asynchronous), then *p written 4 times more
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INC(k)                                                                                     \
	__attribute__((noinline, used)) void lantern_inc_##k(int *i)                               \
	{                                                                                          \
		__asm__ volatile("nop" ::: "memory");                                              \
		(*i)++;                                                                            \
	}
INC(0)
INC(1)
INC(2)
INC(3)
INC(4)
INC(5)

static void (*const incs[])(int *) = { lantern_inc_0, lantern_inc_1, lantern_inc_2,
				       lantern_inc_3, lantern_inc_4, lantern_inc_5 };

static int *fresh(void)
{
	int *p = malloc(sizeof(*p));
	if (!p)
		exit(1);
	*p = 0;
	return p;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 1;

	if (!strcmp(mode, "funcs")) {
		for (long k = 0; k < n && k < 6; k++)
			incs[k](fresh());
	} else if (!strcmp(mode, "addrs")) {
		for (long k = 0; k < n; k++)
			lantern_inc_0(fresh());
	} else if (!strcmp(mode, "unwatch")) {
		volatile int *p = fresh();
		struct timespec ts = { 0, 300 * 1000000 };
		lantern_inc_0((int *)p);
		nanosleep(&ts, NULL);
		for (int k = 0; k < 4; k++)
			(*p)++;
	} else {
		fprintf(stderr, "usage: watchpoint_many funcs|addrs N | unwatch\n");
		return 2;
	}
	return 0;
}
