// SPDX-License-Identifier: MIT
/*
 * Runs a flat binary: maps FILE executable and calls its first byte (code
 * that returns an int) N times, a 10 ms sleep before each; prints the sum.
 *
 *   flat_exec FILE [N]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1, n = argc > 2 ? atoi(argv[2]) : 1, sum = 0;
	struct timespec ts = { 0, 10000000 };
	void *code;

	if (fd < 0 || (code = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		perror("flat_exec");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		nanosleep(&ts, NULL);
		sum += ((int (*)(void))code)();
	}
	printf("%d\n", sum);
	return 0;
}
