// SPDX-License-Identifier: MIT
/*
 * open_target: opens a path kept in writable memory (a tracer with
 * write_user() may rewrite it at the call) and says whether it opened:
 * "opened", or "missing" (the path as written does not exist).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char path[64] = "/nonexistent/lantern-open-target";
	int fd = open(path, O_RDONLY);

	printf("%s\n", fd >= 0 ? "opened" : "missing");
	if (fd >= 0)
		close(fd);
	return 0;
}
