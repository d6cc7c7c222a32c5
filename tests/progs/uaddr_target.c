// SPDX-License-Identifier: MIT
/*
 * uaddr_target: globals of 1, 2, 4 and 8 bytes, read by a probed function
 * (uaddr() of a uprobe on lantern_globals finds and reads them).
 */
#include <stdint.h>

uint8_t lantern_g8 = 0x12;
uint16_t lantern_g16 = 0x3456;
uint32_t lantern_g32 = 0x789abcde;
uint64_t lantern_g64 = 0x0123456789abcdefull;

__attribute__((noinline, used)) uint64_t lantern_globals(void)
{
	__asm__ volatile("" ::: "memory");
	return lantern_g8 + lantern_g16 + lantern_g32 + lantern_g64;
}

int main(void)
{
	return lantern_globals() == 0;
}
