// SPDX-License-Identifier: MIT
#include <stdio.h>

int main(void)
{
	puts("lantern: not built yet");
	return 1;
}
