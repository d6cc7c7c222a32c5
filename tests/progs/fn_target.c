// SPDX-License-Identifier: MIT
/*
 * A target for the fn_* runtime tests: fn_many(1..8), whose last two
 * arguments go on the stack (sarg0, sarg1 on x86-64), and fn_mac(mac), a
 * pointer to a MAC address's 6 bytes.
 *
 *   fn_target
 */
#include <stdio.h>

__attribute__((noinline, used)) long fn_many(long a, long b, long c, long d, long e, long f,
					     long g, long h)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + d + e + f + g + h;
}

__attribute__((noinline, used)) int fn_mac(const unsigned char *mac)
{
	__asm__ volatile("" ::: "memory");
	return mac[0];
}

int main(void)
{
	unsigned char mac[6] = { 0x18, 0xc0, 0x4d, 0x08, 0x2e, 0xbb };
	long sum = fn_many(1, 2, 3, 4, 5, 6, 7, 8);

	sum += fn_mac(mac);
	return sum == 36 + 0x18 ? 0 : 1;
}
