// SPDX-License-Identifier: MIT
/*
 * getppid() N times: the syscall-heavy loop of the benchmarks and tests.
 *
 *   getppid_loop [N [MS]]     N: 1000000; MS: then stay that long (0), so
 *                             that a tracer reads its mappings while it lives
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, ms = argc > 2 ? atol(argv[2]) : 0;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	for (long i = 0; i < n; i++)
		getppid();
	if (ms)
		nanosleep(&ts, NULL);
	return 0;
}
