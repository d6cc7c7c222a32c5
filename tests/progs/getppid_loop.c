// SPDX-License-Identifier: MIT
/* getppid() N times: the syscall-heavy loop of the benchmarks and tests. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;

	for (long i = 0; i < n; i++)
		getppid();
	return 0;
}
