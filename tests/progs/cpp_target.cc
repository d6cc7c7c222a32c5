// SPDX-License-Identifier: MIT
// A C++ program for the tests of demangled names (uprobes, listing, stacks):
// ns::add is called three times, then the process lives 300 ms more.
#include <unistd.h>

namespace ns {
__attribute__((noinline)) int add(int a, int b)
{
	return a + b;
}
} // namespace ns

int main()
{
	volatile int s = 0;

	for (int i = 0; i < 3; i++)
		s = s + ns::add(i, 1);
	usleep(300000);
	return 0;
}
